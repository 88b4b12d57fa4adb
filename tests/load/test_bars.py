"""``loadtest/bars.py`` (issue 26's load bars in one run), ``loadtest/transport_cost.py`` (the same
calls over gRPC and Connect), ``payload_cost.py`` (an echo of N bytes), and the two experiment
servers ``burn_serve.py`` and ``gc_serve.py``:
short runs that must pace, answer every call and add up."""
import csv
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("locust") is None:
    pytest.skip("needs the [load] extra", allow_module_level=True)
pytestmark = pytest.mark.load
LOADTEST = Path(__file__).resolve().parents[2] / "loadtest"


def run(script: str, *args: str) -> tuple[int, dict]:
    out = subprocess.run([sys.executable, str(LOADTEST / script), *args], capture_output=True, text=True, timeout=600)
    assert out.returncode in (0, 1), out.stdout[-3000:] + out.stderr[-3000:]
    return out.returncode, json.loads(out.stdout.strip().splitlines()[-1])


def test_the_bars_run_every_profile_at_one_rate_and_divide_by_the_same_rounds_noop():
    code, result = run("bars.py", "--rounds", "1", "--seconds", "4", "--users", "4", "--rate", "150", "--check")
    (only,) = result["rounds"]
    assert set(only["runs"]) == {"noop", "validate", "games"}
    for run_ in only["runs"].values():
        assert run_["failures"] == 0 and 100 <= run_["calls_per_s"] <= 160  # paced at 150 calls/s, not unpaced
        assert run_["server_us_per_call"] > 0
    noop = only["runs"]["noop"]["server_us_per_call"]
    for profile in ("validate", "games"):
        assert only["ratios"][profile] == pytest.approx(only["runs"][profile]["server_us_per_call"] / noop, abs=1e-3)
        assert result["median_ratios"][profile] == only["ratios"][profile]
        assert result["held"][profile] == (only["ratios"][profile] <= result["bars"][profile])
    assert code == (0 if all(result["held"].values()) else 1)  # --check: 1 when a bar is not held


def test_the_transports_answer_the_same_calls_and_the_server_cpu_is_counted():
    _, result = run("transport_cost.py", "--seconds", "2", "--rate", "100", "--rounds", "1", "--threads", "2")
    assert set(result) == {f"{m} over {t}" for m in ("Ping", "Validate") for t in ("gRPC", "Connect")}
    for (row,) in result.values():
        assert 80 <= row["calls_per_s"] <= 105 and row["server_cpu_us_per_call"] > 0


def test_the_echo_answers_every_size_and_the_differences_are_against_the_first():
    _, result = run("payload_cost.py", "--sizes", "0,3000", "--seconds", "2", "--rate", "100", "--rounds", "2",
                    "--client-threads", "2")
    assert set(result["us_per_call"]) == {"0", "3000"} and all(len(v) == 2 for v in result["us_per_call"].values())
    zero, big = result["us_per_call"]["0"], result["us_per_call"]["3000"]
    assert min(zero + big) > 0
    differences = sorted(b - z for z, b in zip(zero, big))
    assert result["extra_us_against_first"]["3000"] == pytest.approx(sum(differences) / 2, abs=0.2)


def referee_load(*options: str, env: dict) -> dict:
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", "load", "--workers", "1", "--users", "2",
                          "--seconds", "3", "--rate", "50", *options], capture_output=True, text=True, timeout=300,
                         env={**os.environ, **env})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_burning_ping_costs_the_server_at_least_what_it_burns():
    summary = referee_load("--profile", "noop", "--server-script", str(LOADTEST / "burn_serve.py"),
                           env={"REFEREE_BURN_US": "3000"})
    assert summary["calls"] > 0 and summary["server_cpu_s_per_1k_calls"] >= 3.0  # 3 ms of CPU a call at least


def test_the_gc_server_writes_the_collections_of_the_games_it_served(tmp_path):
    out = tmp_path / "gc.json"
    summary = referee_load("--profile", "games", "--server-script", str(LOADTEST / "gc_serve.py"),
                           env={"REFEREE_GC_OUT": str(out)})
    figures = json.loads(out.read_text())
    assert summary["calls"] > 0 and figures["collections"] == sum(figures["by_generation"]) > 0
    assert 0 < figures["gc_s"] < figures["process_cpu_s"]


def test_the_server_runs_on_the_cpus_given_and_an_unknown_cpu_is_refused():
    summary = referee_load("--profile", "noop", "--server-cpus", "0", "--client-cpus", "0", env={})
    assert summary["server_cpus"] == [0] and summary["calls"] > 0  # read off the server's process
    free = referee_load("--profile", "noop", env={})
    assert free["server_cpus"] == sorted(os.sched_getaffinity(0))
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", "load", "--server-cpus", "4096"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "no CPU [4096]" in out.stderr


def test_a_warm_up_runs_the_same_load_first_and_is_not_counted(tmp_path):
    summary = referee_load("--profile", "noop", "--warmup", "3", "--out", str(tmp_path), env={})
    assert summary["warmup_s"] == 3 and summary["failures"] == 0
    assert summary["calls"] <= 50 * 3 * 1.2  # the measured 3 s at 50 calls/s only, not the warm-up's as well
    warm = [r for r in csv.DictReader(open(tmp_path / "warmup" / "locust_stats.csv")) if r["Name"] == "Aggregated"]
    assert int(warm[0]["Request Count"]) >= 50  # the warm-up ran its own calls


def test_seats_deal_the_tables_of_a_game_with_that_many_seats():
    seven = referee_load("--profile", "games", "--games", "chuanpai", "--seats", "chuanpai=7", env={})
    assert set(seven["seats_dealt"]) == {"chuanpai 7"} and seven["failures"] == 0  # read off each deal's views
    default = referee_load("--profile", "games", "--games", "chuanpai", env={})
    assert set(default["seats_dealt"]) == {"chuanpai 4"}
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", "load", "--seats", "chuanpai:7"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--seats is GAME=N" in out.stderr
