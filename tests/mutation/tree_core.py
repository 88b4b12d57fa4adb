"""``referee.core`` (and ``referee.service``) imported from a folder of sources instead of the
installed package.

The package is installed for real (the compiled core), so tests import ``referee.core`` from
site-packages. Mutation testing changes the sources, so its test runs import them: ``map_core``
loads ``referee.core`` from the given folder (``REFEREE_FORCE_PURE=1``: the interpreted twins,
since a mutated ``*_hot.py`` is not compiled) while ``referee.v1`` (generated protos) and
``referee.service`` stay the installed ones and use the mapped core.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path


def map_core(core_dir: str | os.PathLike) -> None:
    """Make ``referee.core`` the package in ``core_dir``; call before anything imports it.

    Raises:
        RuntimeError: ``referee.core`` was already imported from elsewhere.
    """
    core_dir = Path(core_dir).resolve()
    os.environ["REFEREE_FORCE_PURE"] = "1"  # read by referee.core.speedups at import
    loaded = sys.modules.get("referee.core")
    if loaded is not None:
        if Path(loaded.__file__).resolve().parent != core_dir:
            raise RuntimeError(f"referee.core already imported from {loaded.__file__}, not {core_dir}")
        return
    import referee  # the installed namespace package: referee.v1, referee.service

    spec = importlib.util.spec_from_file_location("referee.core", core_dir / "__init__.py",
                                                  submodule_search_locations=[str(core_dir)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["referee.core"] = module
    spec.loader.exec_module(module)
    referee.core = module


def map_service(service_dir: str | os.PathLike) -> None:
    """Make ``referee.service`` the package in ``service_dir`` (a copy of the installed one, with
    the files the build generated); call after ``map_core``, before anything imports it.

    Raises:
        RuntimeError: ``referee.service`` was already imported from elsewhere.
    """
    service_dir = Path(service_dir).resolve()
    loaded = sys.modules.get("referee.service")
    if loaded is not None:
        if Path(loaded.__file__).resolve().parent != service_dir:
            raise RuntimeError(f"referee.service already imported from {loaded.__file__}, not {service_dir}")
        return
    import referee

    spec = importlib.util.spec_from_file_location("referee.service", service_dir / "__init__.py",
                                                  submodule_search_locations=[str(service_dir)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["referee.service"] = module
    spec.loader.exec_module(module)
    referee.service = module
