"""Session-wide test configuration; nothing game specific here."""
import sys
from pathlib import Path

# the game contract (tests/contract/game_contract.py) is importable by every game's own tests
sys.path.insert(0, str(Path(__file__).parent / "contract"))
# and the table builders the games' rule tests share (tests/core/<game>_tables.py)
sys.path.insert(0, str(Path(__file__).parent / "core"))


def _hot_modules_line() -> str:
    try:
        from referee.core import speedups

        state = speedups.loaded()
    except ImportError as error:
        return f"referee hot modules: cannot import referee.core ({error})"
    forced = " (REFEREE_FORCE_PURE=1)" if speedups.FORCE_PURE else ""
    listed = ", ".join(f"{name}={'compiled' if compiled else 'interpreted'}" for name, compiled in state.items())
    return f"referee hot modules{forced}: {listed or 'none'}"


def pytest_report_header(config):
    return _hot_modules_line()


def pytest_sessionstart(session):
    # -q hides the report header; say it anyway
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and session.config.get_verbosity() < 0:
        reporter.write_line(_hot_modules_line())
