"""Pick the compiled twin of a hot module (aiohttp pattern).

Each ``core/NAME_hot.py`` is plain Python that the build also compiles with Cython, from the same
source, into the extension ``referee.core.NAME_hot_c``. ``load("NAME_hot")`` returns the compiled
module when it is installed and the interpreted one otherwise; with ``REFEREE_FORCE_PURE=1`` in
the environment (read at import) it always returns the interpreted twin.
"""
import importlib
import os
import pkgutil
import sys
from types import ModuleType

FORCE_PURE = os.environ.get("REFEREE_FORCE_PURE") == "1"
_PACKAGE = __name__.rpartition(".")[0]


def interpreted(name: str) -> ModuleType:
    """The plain-Python module ``name`` (e.g. ``"ddz_hot"``), whatever is installed."""
    return importlib.import_module(f"{_PACKAGE}.{name}")


def load(name: str) -> ModuleType:
    """The compiled twin of ``name`` if it is installed (and not forced pure), else the interpreted one.

    Raises:
        ImportError: the compiled twin exists but does not import (a broken build is not hidden).
    """
    if not FORCE_PURE:
        compiled = f"{_PACKAGE}.{name}_c"
        try:
            return importlib.import_module(compiled)
        except ModuleNotFoundError as error:
            if error.name != compiled:
                raise
    return interpreted(name)


def hot_modules() -> list[str]:
    """Names of the hot modules installed beside this one (``*_hot``)."""
    found = pkgutil.iter_modules(sys.modules[_PACKAGE].__path__)
    return sorted(m.name for m in found if m.name.endswith("_hot"))


def loaded() -> dict[str, bool]:
    """Hot module name -> whether ``load`` gives its compiled twin."""
    return {name: load(name) is not interpreted(name) for name in hot_modules()}
