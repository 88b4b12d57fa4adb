"""Check that the installed `referee` is the compiled build of this tree; exit 1 if not.

Run after `pip install .` (tests/test_build.py runs the same checks). Every core/games/*/hot.py must be
installed as a compiled extension referee.core.games.ID.hot_c, built from the bytes now in the tree.
"""
import hashlib
import importlib
import importlib.machinery
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def tree_hot_sources(repo: Path = REPO) -> dict[str, str]:
    """Dotted name below referee.core (games.ID.hot) -> sha256 of each hot source in the tree."""
    core = repo / "core"
    return {".".join(p.relative_to(core).with_suffix("").parts): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(core.glob("games/*/hot.py"))}


def problems(repo: Path = REPO) -> list[str]:
    core = importlib.import_module("referee.core")
    if Path(core.__file__).resolve().parent == (repo / "core").resolve():
        return [f"referee.core is imported from the source tree ({core.__file__}), not the installed package"]
    tree = tree_hot_sources(repo)
    if not tree:
        return [f"no core/games/*/hot.py in {repo}: nothing to compile"]
    try:
        from referee.core import _build_info
    except ImportError:
        return ["referee.core._build_info is missing: the installed package was not built by setup.py"]
    found = []
    if not _build_info.BUILT_COMPILED:
        found.append("the installed package is a pure-Python build (BUILT_COMPILED = False)")
    for name in sorted(tree.keys() | _build_info.HOT_SOURCES.keys()):
        if _build_info.HOT_SOURCES.get(name) != tree.get(name):
            found.append(f"{name}: installed build is stale (built from sha256 {_build_info.HOT_SOURCES.get(name)}, "
                         f"tree has {tree.get(name)})")
    for name in sorted(tree):
        try:
            module = importlib.import_module(f"referee.core.{name}_c")
        except ImportError as error:
            found.append(f"referee.core.{name}_c does not import: {error}")
            continue
        if not isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader):
            found.append(f"referee.core.{name}_c is not a compiled extension: {module.__file__}")
    if not found and os.environ.get("REFEREE_FORCE_PURE") != "1":
        from referee.core import speedups

        not_compiled = [name for name, compiled in speedups.loaded().items() if not compiled]
        if not_compiled:
            found.append(f"speedups.load() does not give the compiled twin of {', '.join(not_compiled)}")
    return found


def main() -> int:
    found = problems()
    if found:
        print("BUILD CHECK FAILED:", *found, sep="\n  ", file=sys.stderr)
        return 1
    print("build check ok: compiled", ", ".join(f"{n}_c ({h[:12]})" for n, h in tree_hot_sources().items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
