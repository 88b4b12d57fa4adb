"""``loadtest/instructions.py``: our handlers' instructions and cache misses per call, counted by
valgrind from fixed seeds: the same workload every run, the counts read from cachegrind's summary."""
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LOADTEST = Path(__file__).resolve().parents[2] / "loadtest"
sys.path.insert(0, str(LOADTEST))
spec = importlib.util.spec_from_file_location("instructions", LOADTEST / "instructions.py")
instructions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(instructions)

SUMMARY = """==3795== Command: python loadtest/instructions.py --inner
==3795== I   refs:      52,217,595
==3795== I1  misses:       417,728
==3795== LLi misses:        13,174
==3795== D   refs:      22,919,311  (15,081,521 rd   + 7,837,790 wr)
==3795== D1  misses:       670,902  (   581,989 rd   +    88,913 wr)
==3795== LLd misses:        72,417  (    22,155 rd   +    50,262 wr)
==3795== LL refs:        1,088,630  (   999,717 rd   +    88,913 wr)
==3795== LL misses:         85,591  (    35,329 rd   +    50,262 wr)
"""


def test_the_totals_are_read_from_cachegrinds_summary():
    assert instructions.totals(SUMMARY) == {"instructions": 52_217_595, "I1 misses": 417_728,
                                            "D1 misses": 670_902, "LL misses": 85_591}


def test_a_summary_without_a_count_is_an_error_not_a_zero():
    with pytest.raises(SystemExit, match="no LL misses"):
        instructions.totals(SUMMARY.replace("LL misses", "LL hits"))


def test_the_workload_is_the_same_calls_from_the_same_seed():
    first = instructions.workload("validate", 1, 2, seed=4)
    assert first == instructions.workload("validate", 1, 2, seed=4)
    assert instructions.workload("validate", 1, 0, seed=4) == 0  # the warm rounds are not counted
    assert first > 0
    assert instructions.workload("games", 1, 2, seed=4) == instructions.workload("games", 1, 2, seed=4) > 0


def test_a_subset_of_games_plays_only_those(monkeypatch):
    played = []
    monkeypatch.setattr("inprocess.play", lambda servicer, game, *a, **k: played.append(game))
    instructions.workload("games", 2, 3, seed=5, only="jielong,bidaxiao,")
    assert len(played) == 5 and set(played) <= {"jielong", "bidaxiao"}


def test_an_unknown_game_is_refused_before_valgrind_runs(capsys):
    with pytest.raises(SystemExit) as stop:
        instructions.main(["--games", "gouji,nope"])
    assert stop.value.code == 2 and "no game nope" in capsys.readouterr().err


def test_without_valgrind_it_says_so(monkeypatch, capsys):
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit) as stop:
        instructions.main(["--rounds", "1"])
    assert stop.value.code == 2 and "valgrind is not installed" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_a_counted_run_gives_the_same_instructions_twice():
    def run():
        out = subprocess.run([sys.executable, str(LOADTEST / "instructions.py"), "--rounds", "1", "--warm", "0",
                              "--seed", "2"], capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
        return json.loads(out.stdout.strip().splitlines()[-1])

    first, second = run(), run()
    assert first["calls"] == second["calls"] > 0
    # the same within a ten-thousandth (the key and the tokens' nonces are random: a few
    # instructions of hashing and dict probing move), where seconds move by a tenth
    a, b = first["per_call"]["instructions"], second["per_call"]["instructions"]
    assert a > 10_000 and abs(a - b) <= a / 10_000
    assert 0 < first["per_call"]["I1 misses"] < first["per_call"]["instructions"]
