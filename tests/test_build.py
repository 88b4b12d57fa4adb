"""The installed package is the compiled build of this tree (same checks as .ci/check_build.py)."""
import importlib.util
import subprocess
import sys
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / ".ci" / "check_build.py"


def test_compiled_core_is_installed_and_fresh():
    spec = importlib.util.spec_from_file_location("check_build", CHECK)
    check_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_build)
    assert check_build.problems() == []


def test_interpreted_twins_run_without_cython():
    """A runtime image has no Cython: the interpreted twins must import and answer on the shim."""
    script = ("import sys; sys.modules['cython'] = None\n"
              "from referee.core import speedups\n"
              "ddz, mcr = speedups.interpreted('games.doudizhu.hot'), speedups.interpreted('games.mcr.hot')\n"
              "assert ddz.cython.__name__.endswith('_cython_shim')\n"
              "nine_gates = 'W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9'.split()\n"
              "print(ddz.legal_rank_strings(0o4, 0, False), mcr.answer({'concealed': nine_gates, 'win_tile': 'W5'}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("['3', '33', '333', '3333'] {'fans': [")
