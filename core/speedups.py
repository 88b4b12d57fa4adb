"""Pick the compiled twin of a hot module (aiohttp pattern).

Each game package's ``hot.py`` (``core/games/<id>/hot.py``) is plain Python that the build also
compiles with Cython, from the same source, into the extension ``hot_c`` beside it.
``load("games.<id>.hot")`` returns the compiled module when it is installed and the interpreted
one otherwise; with ``REFEREE_FORCE_PURE=1`` in the environment (read at import) it always returns
the interpreted twin. Names are dotted paths below ``referee.core``.
"""
import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

FORCE_PURE = os.environ.get("REFEREE_FORCE_PURE") == "1"
_PACKAGE = __name__.rpartition(".")[0]
HOT_NAME = "hot"  # a game package's hot module


def interpreted(name: str) -> ModuleType:
    """The plain-Python module ``name`` (e.g. ``"games.doudizhu.hot"``), whatever is installed."""
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
    """Names of the hot modules installed (``games.<id>.hot``)."""
    root = Path(sys.modules[_PACKAGE].__path__[0])
    return sorted(f"games.{p.parent.name}.{HOT_NAME}" for p in root.glob(f"games/*/{HOT_NAME}.py"))


def loaded() -> dict[str, bool]:
    """Hot module name -> whether ``load`` gives its compiled twin."""
    return {name: load(name) is not interpreted(name) for name in hot_modules()}
