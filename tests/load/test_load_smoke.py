"""`referee load` smoke: a short Locust run per profile against a server it starts; no failures.

Each profile that plays games runs over every registered game until every game and preset has
played out a round (``--rounds-each 1``: the run ends when the work is done, a few seconds to
half a minute; ``--seconds`` only bounds a run that cannot get there).

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


COVER_LIMIT_S = 240  # the bound of a --rounds-each run (it ends when every table has played out)


def run_load(tmp_path: Path, *args: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-m", "referee.service.cli", "load", "--out", str(out), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout)
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr
    return proc, json.loads(lines[-1])


_TABLES = """
import json
from referee.core.registry import GAMES
print(json.dumps(sorted(f"{g}/{p or 'default'}" for g, game in GAMES.items() for p in ["", *game.presets])))
"""


def _tables() -> set[str]:
    """Every game a server registers, with its defaults and each preset, named as the users name
    rounds (asked of a fresh process: tests register games of their own in this one)."""
    out = subprocess.run([sys.executable, "-c", _TABLES], check=True, capture_output=True, text=True, timeout=60)
    return set(json.loads(out.stdout))


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


@pytest.mark.parametrize("profile, users, tables", [("games", 6, 50), ("validate", 6, 50), ("batch", 2, 10)])
def test_every_profile_plays_every_game_and_preset_to_the_end(tmp_path, profile, users, tables):
    """Issue 24: each profile plays every registered game and preset until it has played out a
    round (no escape), with 0 failures: every illegal try refused with its status and reason."""
    proc, summary = run_load(tmp_path, "--profile", profile, "--users", str(users), "--tables", str(tables),
                             "--seconds", str(COVER_LIMIT_S), "--rounds-each", "1", timeout=COVER_LIMIT_S + 120)
    _check(proc, summary, tmp_path)
    assert summary["rounds_each"] == 1 and summary["uncovered"] == [], proc.stdout[-3000:]
    played_out = {name for name, n in summary["games_by_name"].items() if n > 0 and not name.endswith(" abandoned")}
    tables = _tables()
    assert played_out == tables and {t.split("/")[0] for t in tables} >= {"doudizhu", "q783", "bidaxiao", "coushu",
                                                                           "jielong", "tonghua", "mcr"}


@pytest.mark.parametrize("profile", ["games", "validate", "batch", "noop"])
def test_other_profiles_have_no_failures(tmp_path, profile):
    # a game profile runs until each Dou Dizhu table has played a round out, not for a fixed few
    # seconds: on a loaded machine 3 s once ended before any round did
    limit = ("--seconds", "2") if profile == "noop" else ("--seconds", "120", "--rounds-each", "1")
    proc, summary = run_load(tmp_path, "--profile", profile, "--games", "doudizhu", "--users", "4", *limit,
                             "--tables", "10", timeout=240)
    _check(proc, summary, tmp_path, games=profile != "noop")
    assert {name.split("/")[0] for name in summary["games_by_name"]} <= {"doudizhu"}  # --games: that game only


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
    assert runner.exit_code({**ok, "uncovered": []}, 0) == 0
    assert runner.exit_code({**ok, "uncovered": ["jielong/jokers"]}, 0) == 1


def test_uncovered_counts_rounds_played_out_only():
    runner = _runner()
    tables = ["jielong/default", "jielong/jokers", "tonghua/default"]
    played = {"jielong/default": 2, "jielong/jokers abandoned": 3, "tonghua/default": 0}
    assert runner.uncovered(tables, played, 1) == ["jielong/jokers", "tonghua/default"]
    assert runner.uncovered(tables, played, 2) == ["jielong/jokers", "tonghua/default"]
    assert runner.uncovered(tables, {t: 1 for t in tables}, 1) == []
    assert runner.uncovered(tables, {}, 0) == []  # no --rounds-each: nothing to cover


def test_final_counts_replace_the_csv_counts(tmp_path):
    """Locust writes its CSV once a second; the counts the locustfile writes as the run ends win,
    and a name the CSV has not seen yet is added (the round that completed the coverage)."""
    runner = _runner()
    times = {"Requests/s": "5", "50%": "1", "95%": "2", "99%": "3"}
    rows = [{"Type": "grpc", "Name": "Play", "Request Count": "10", "Failure Count": "0", **times},
            {"Type": "", "Name": "Aggregated", "Request Count": "10", "Failure Count": "0", **times}]
    final = tmp_path / "final.json"
    assert runner.with_final_counts(rows, final) == rows  # no file: the CSV as it is
    final.write_text(json.dumps([{"type": "grpc", "name": "Play", "requests": 12, "failures": 1},
                                 {"type": "game", "name": "jielong/jokers", "requests": 1, "failures": 0}]))
    merged = runner.with_final_counts(rows, final)
    assert [(r["Type"], r["Name"], r["Request Count"], r["Failure Count"]) for r in merged] == [
        ("grpc", "Play", "12", "1"), ("", "Aggregated", "10", "0"), ("game", "jielong/jokers", "1", "0")]
    table, summary = runner.summarize(merged, 5, 1.0, 1.0)
    assert summary["failures"] == 1 and summary["games_by_name"] == {"jielong/jokers": 1}


def test_the_games_profile_times_out_seats_that_never_answer(tmp_path):
    """Issue 23: with every table having a seat that never answers (clock "seconds", 2 s), the
    owner asks for the defaults once the deadline passes and checks the silent seat's TIMEOUT was
    applied after the others' answers, then puts the seat on autoplay: no failure, timeouts
    counted, rounds played to the end."""
    proc, summary = run_load(tmp_path, "--profile", "games", "--games", "doudizhu,mcr", "--users", "4",
                             "--seconds", "25", "--timeout-rate", "1")
    _check(proc, summary, tmp_path, games=True)  # rounds end: after three timeouts the seat is on autoplay
    assert summary["timeouts"] > 0, proc.stdout[-3000:]
