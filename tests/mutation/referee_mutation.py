"""pytest plugin of the mutation runs (``-p referee_mutation``, loaded by ``mutate.py``).

- Hypothesis runs derandomized, without its example database, deadline or health checks: a
  mutant is judged by the same examples every time, and a slower mutant is not "killed" by a
  deadline.
- With ``REFEREE_MUTATION_MAP=FILE`` it writes the coverage map the runner selects tests from:
  every test's node id and duration, and for each line of ``$REFEREE_CORE_DIR`` (and
  ``$REFEREE_SERVICE_DIR``, its modules named ``service/...``) the tests that
  ran it (coverage.py, one dynamic context per test); lines run only at import are listed apart.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("mutation", derandomize=True, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck), print_blob=False)
settings.load_profile("mutation")

_MAP = os.environ.get("REFEREE_MUTATION_MAP")
_CORE = os.environ.get("REFEREE_CORE_DIR")
_SERVICE = os.environ.get("REFEREE_SERVICE_DIR")
_coverage = None
if _MAP:
    import coverage

    # "*" matches within one folder in newer coverage releases: the game packages need "**"
    _roots = [Path(_CORE).resolve()] + ([Path(_SERVICE).resolve()] if _SERVICE else [])
    _coverage = coverage.Coverage(data_file=None, include=[str(r / "*.py") for r in _roots]
                                  + [str(r / "**" / "*.py") for r in _roots], config_file=False)
    _coverage.start()  # before the conftests import the game modules: import-time lines count too

_durations: dict[str, float] = {}
_failed: list[str] = []
_started: dict[str, float] = {}


def pytest_runtest_setup(item):
    _started[item.nodeid] = time.perf_counter()
    if _coverage is not None:
        _coverage.switch_context(item.nodeid)


def pytest_runtest_logreport(report):
    if report.failed:
        _failed.append(report.nodeid)


def pytest_runtest_logfinish(nodeid, location):
    if nodeid in _started:
        _durations[nodeid] = time.perf_counter() - _started.pop(nodeid)
    if _coverage is not None:
        _coverage.switch_context("")


def pytest_sessionfinish(session, exitstatus):
    if _coverage is None:
        return
    _coverage.stop()
    data = _coverage.get_data()
    core = Path(_CORE).resolve()
    service = Path(_SERVICE).resolve() if _SERVICE else None
    tests = sorted(_durations)
    index = {nodeid: i for i, nodeid in enumerate(tests)}
    lines, import_lines = {}, {}
    for path in data.measured_files():
        resolved = Path(path).resolve()  # a core module by its path below core/, a service module's below the root
        name = (f"service/{resolved.relative_to(service).as_posix()}" if service and resolved.is_relative_to(service)
                else resolved.relative_to(core).as_posix())
        by_line = data.contexts_by_lineno(path)
        lines[name] = {str(n): sorted({index[c] for c in contexts if c in index})
                       for n, contexts in sorted(by_line.items()) if any(c in index for c in contexts)}
        import_lines[name] = sorted(n for n, contexts in by_line.items() if not any(c in index for c in contexts))
    Path(_MAP).write_text(json.dumps({"tests": [[t, round(_durations[t], 4)] for t in tests], "failed": _failed,
                                      "exitstatus": int(exitstatus), "lines": lines,
                                      "import_lines": import_lines}))
