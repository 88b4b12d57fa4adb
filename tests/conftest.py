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


# --- how long each test file takes, for the CI mutation sample ----------------------------------
# `make test` runs the suite before `make mutate-sample`; the sample has no coverage map, so it
# runs a mutant's test files fastest first (tests/mutation/mutate.py, sample_order) from what the
# suite just measured: a mutant that a quick pinned file kills does not wait for the playouts.
DURATIONS_KEY = "referee/file-seconds"
_file_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report):
    path = report.nodeid.split("::")[0]
    _file_seconds[path] = _file_seconds.get(path, 0.0) + report.duration


def pytest_sessionfinish(session):
    config = session.config
    if hasattr(config, "workerinput") or getattr(config, "cache", None) is None or not _file_seconds:
        return  # an xdist worker's reports reach the controller, which writes them
    recorded = config.cache.get(DURATIONS_KEY, {})
    recorded.update({path: round(seconds, 3) for path, seconds in _file_seconds.items()})
    config.cache.set(DURATIONS_KEY, recorded)
