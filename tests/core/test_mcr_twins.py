"""国标麻将 calculator paths agree: the compiled and the interpreted hot module, and the fast
``fan_answer`` path with ``Hand.from_request`` + ``calculate_fans``; the benchmark helpers run."""
import random

import pytest

from referee.core import speedups
from referee.core.games.mcr import fans as mcr
from referee.core.errors import IllegalAction, InvalidAction


def requests(count: int, seed: int) -> list:
    """Random winning hands, and mutations of them that are malformed or do not win."""
    rng = random.Random(seed)
    out: list = []
    for _ in range(count):
        req = mcr.random_winning_hand(rng)
        out.append(req)
        bad = dict(req, concealed=list(req["concealed"]))
        change = rng.randrange(6)
        if change == 0:
            bad["concealed"][rng.randrange(len(bad["concealed"]))] = rng.choice(mcr.TILE_NAMES[:34])
        elif change == 1:
            bad["concealed"].pop()
        elif change == 2:
            bad[rng.choice(("seat_wind", "prevalent_wind", "flowers"))] = rng.choice((-1, 4, 9, "1", None))
        elif change == 3:
            bad["melds"] = [[kind, tile, rng.randrange(-1, 5)] for kind, tile, _ in req["melds"]]
        elif change == 4:
            bad["win_tile"] = rng.choice(mcr.TILE_NAMES)
        else:
            bad[rng.choice(("self_drawn", "wall_last"))] = rng.choice((0, 1, 2, "x"))
        out.append(bad)
    return out


def test_compiled_and_interpreted_twins_agree():
    compiled, interpreted = speedups.load("games.mcr.hot"), speedups.interpreted("games.mcr.hot")
    if compiled is interpreted:
        pytest.skip("the compiled mcr_hot is not installed")
    for req in requests(1500, 7):
        assert compiled.answer(req) == interpreted.answer(req), req


def test_fan_answer_and_calculate_fans_agree():
    for req in requests(1500, 8):
        answer = mcr.fan_answer(req)
        try:
            expected = mcr.calculate_fans(mcr.Hand.from_request(req)).to_answer()
        except InvalidAction:
            expected = {"error": "BAD_INPUT"}
        except IllegalAction as refused:
            expected = {"error": "UNDER_8" if "points" in refused.message else "NOT_WIN"}
        if "error" in answer:
            assert answer["error"] == expected["error"], req
        else:
            assert answer == expected, req


def test_benchmark_helpers():
    cases = mcr.fan_benchmark_cases(50, seed=1)
    assert len(cases) == 50 and all("fans" in mcr.fan_answer(case) for case in cases)
    assert cases == mcr.fan_benchmark_cases(50, seed=1)
    ours, theirs = mcr.bench_fans(cases, rounds=1)
    assert ours > 0 and (theirs is None or theirs > 0)
