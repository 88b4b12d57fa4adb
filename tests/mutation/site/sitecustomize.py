"""Maps ``referee.core`` to the folder ``$REFEREE_CORE_DIR`` (a tree's, or the mutation copy's,
``core/``), and ``referee.service`` to ``$REFEREE_SERVICE_DIR`` when it is set, in every Python process started with this folder on PYTHONPATH, child processes of
the tests included; ``referee.v1`` and ``referee.service`` stay the installed ones. Does
nothing without the variable. Set up by ``tests/mutation/mutate.py``."""
import os

if os.environ.get("REFEREE_CORE_DIR"):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import tree_core

    sys.path.pop(0)
    tree_core.map_core(os.environ["REFEREE_CORE_DIR"])
    if os.environ.get("REFEREE_SERVICE_DIR"):
        tree_core.map_service(os.environ["REFEREE_SERVICE_DIR"])
