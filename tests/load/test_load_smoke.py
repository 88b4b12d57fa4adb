"""`referee load` smoke: a short Locust run per profile against a server it starts; no failures.

Marked ``load`` (``pytest -m load`` runs only these); not deselected by default, so ``make test``
(which installs the [load] extra) and CI run them too.
"""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Locust runs in subprocesses only: importing it here would let gevent monkey-patch the pytest
# process, and the in-process gRPC servers of the other tests would then hang.
if importlib.util.find_spec("locust") is None:
    if os.environ.get("CI"):  # in CI a missing [load] extra is a failure, not a skip
        raise ImportError("locust is not installed: install the [load] extra")
    pytest.skip("needs the [load] extra", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.load


def run_load(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-m", "referee.service.cli", "load", "--out", str(out), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr
    return proc, json.loads(lines[-1])


def _registered_games() -> list[str]:
    from referee.core.registry import GAMES

    return sorted(GAMES)


def _check(proc: subprocess.CompletedProcess, summary: dict, tmp_path: Path, games: bool = True) -> None:
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert summary["failures"] == 0
    assert summary["calls"] > 0 and summary["server_cpu_s_per_1k_calls"] > 0
    for key in ("calls_per_s", "games_per_s", "p99_ms", "server_cpu_s_per_1k_calls"):
        assert key in summary
    if games:
        assert summary["games"] > 0, proc.stdout[-3000:]
    report = tmp_path / "report"
    assert (report / "locust_stats.csv").is_file() and (report / "report.html").is_file()
    assert "completed games" in proc.stdout and "p99 ms" in proc.stdout


@pytest.mark.parametrize("game", _registered_games())
def test_every_game_plays_through_the_api_without_failures(tmp_path, game):
    proc, summary = run_load(tmp_path, "--profile", "games", "--games", game, "--users", "4", "--seconds", "5")
    _check(proc, summary, tmp_path)
    assert set(name.split("/")[0] for name in summary["games_by_name"]) == {game}


@pytest.mark.parametrize("profile, seconds", [("validate", 3), ("batch", 3), ("noop", 2)])
def test_other_profiles_have_no_failures(tmp_path, profile, seconds):
    proc, summary = run_load(tmp_path, "--profile", profile, "--games", "doudizhu", "--users", "4",
                             "--seconds", str(seconds), "--tables", "10")
    _check(proc, summary, tmp_path, games=profile != "noop")


def test_more_users_than_the_default_call_limit_are_not_shed(tmp_path):
    """The server sheds calls past --max-concurrent (64 by default); the runner raises it above
    its users' count, so a run with more users measures answers, not refusals."""
    proc, summary = run_load(tmp_path, "--profile", "noop", "--users", "80", "--seconds", "2")
    _check(proc, summary, tmp_path, games=False)


def _runner():
    spec = importlib.util.spec_from_file_location("loadtest_runner", REPO / "loadtest" / "runner.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    return runner


def test_the_server_limit_is_above_the_users():
    runner = _runner()
    assert [runner.max_concurrent(u) for u in (1, 48, 49, 200)] == [64, 64, 65, 216]


def test_exit_code_judges_failures_and_p99():
    runner = _runner()
    ok = {"failures": 0, "calls": 10, "p99_ms": 7.0}
    assert runner.exit_code(ok, 0) == 0 and runner.exit_code(ok, 8) == 0
    assert runner.exit_code(ok, 6.5) == 1
    assert runner.exit_code({**ok, "failures": 1}, 0) == 1
    assert runner.exit_code({**ok, "calls": 0}, 0) == 1
