"""The installed package is the compiled build of this tree (same checks as .ci/check_build.py)."""
import importlib.util
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / ".ci" / "check_build.py"


def test_compiled_core_is_installed_and_fresh():
    spec = importlib.util.spec_from_file_location("check_build", CHECK)
    check_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_build)
    assert check_build.problems() == []
