"""loadtest/inprocess.py: the cold-cache comparison (--evict)."""
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "loadtest" / "inprocess.py"
sys.path.insert(0, str(SCRIPT.parent))
import inprocess  # noqa: E402

from referee.service.servicer import RefereeServicer  # noqa: E402
from referee.service.token import KeyRing, Sealer  # noqa: E402


def test_the_evictor_writes_one_byte_of_every_line_of_its_buffer():
    evictor = inprocess.Evictor(0.01)  # 10,485 bytes: the last line is a partial one
    size = len(evictor.buffer)
    assert size % evictor.LINE
    evictor.buffer[:] = b"\xff" * size
    evictor()
    assert all(evictor.buffer[i] == 0 for i in range(0, size, 64))
    assert evictor.buffer.count(0) == -(-size // 64)  # nothing else written


def test_eviction_runs_before_every_timed_call_and_outside_its_time(monkeypatch):
    class Clock:  # thread CPU that an eviction moves on by an hour, and each reading by a µs
        now = 0.0

        def thread_time(self):
            self.now += 1e-6
            return self.now

    clock, evictions = Clock(), []

    def evict():
        evictions.append(clock.now)
        clock.now += 3600

    monkeypatch.setattr(inprocess, "time", clock)
    servicer = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True, time_source=lambda: 1.8e9)
    counts = {}
    seeds = iter(bytes([i]) * 32 for i in range(1, 1 << 8))
    us = inprocess.play(servicer, "coushu", 1, random.Random(5), "validate", seeds, counts, evict)
    assert len(evictions) == sum(counts.values()) > 10
    assert us and all(v == 1.0 for v in us.values())  # start and end read one µs apart: no hour inside


def test_warm_and_cold_play_the_same_calls_and_weigh_the_mix_by_the_games():
    found = inprocess.warm_and_cold(2, seed=7, megabytes=0.5, profile="validate", games=["coushu", "jielong"])
    for game in ("coushu", "jielong"):
        warm, cold = found[game]["warm"], found[game]["cold"]
        assert warm["calls"] == cold["calls"] > 0  # the same rounds from the same seeds
        assert set(warm) == set(cold) >= {"Validate", "LegalActions", "all"}
    mix = found["mix"]["warm"]
    assert mix["calls"] == found["coushu"]["warm"]["calls"] + found["jielong"]["warm"]["calls"]  # weights 1 each
    low, high = sorted(found[g]["warm"]["all"] for g in ("coushu", "jielong"))
    assert low <= mix["all"] <= high


def test_bad_arguments_are_refused(capsys):
    with pytest.raises(SystemExit) as exited:
        inprocess.main(["--evict", "-1"])
    assert exited.value.code == 2
    assert "--evict" in capsys.readouterr().err


def test_the_steps_are_timed_warm_and_cold_when_asked():
    """Run apart: the step timers wrap the servicer's and the games' methods for good."""
    run = subprocess.run([sys.executable, str(SCRIPT), "--evict",
                          "0.5", "--rounds", "1", "--profile", "validate", "--games", "coushu", "--steps"],
                         capture_output=True, text=True, check=True)
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(found) == {"coushu", "mix", "steps"}
    warm, cold = found["steps"]["warm"], found["steps"]["cold"]
    assert set(warm) == set(cold) >= {"rules.check", "rules.apply", "views (core + conversion)", "encrypt"}
    assert all(v > 0 for v in [*warm.values(), *cold.values()])


def test_an_unknown_game_is_refused(capsys):
    with pytest.raises(SystemExit) as exited:
        inprocess.main(["--evict", "1", "--games", "coushu,nosuch"])
    assert exited.value.code == 2
    assert "no game nosuch" in capsys.readouterr().err
