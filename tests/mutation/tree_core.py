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
    os.environ["REFEREE_FORCE_PURE"] = "1"  # read by referee.core.speedups at import
    _map("core", core_dir)


def map_service(service_dir: str | os.PathLike) -> None:
    """Make ``referee.service`` the package in ``service_dir`` (a copy of the installed one, with
    the files the build generated); call after ``map_core``, before anything imports it.

    Raises:
        RuntimeError: ``referee.service`` was already imported from elsewhere.
    """
    _map("service", service_dir)


def _map(name: str, folder: str | os.PathLike) -> None:
    """``referee.<name>`` imported from ``folder``: the rest of ``referee`` stays the installed one."""
    folder = Path(folder).resolve()
    loaded = sys.modules.get(f"referee.{name}")
    if loaded is not None:
        if Path(loaded.__file__).resolve().parent != folder:
            raise RuntimeError(f"referee.{name} already imported from {loaded.__file__}, not {folder}")
        return
    import referee  # the installed namespace package: referee.v1 and the parts not mapped

    spec = importlib.util.spec_from_file_location(f"referee.{name}", folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"referee.{name}"] = module
    spec.loader.exec_module(module)
    setattr(referee, name, module)
