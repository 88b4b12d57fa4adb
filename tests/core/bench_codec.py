"""Time the state codec against the games' hand-written pack/unpack, on the states of a seeded
playout (``python tests/core/bench_codec.py [game ...]``; not a test: nothing here asserts a time).

The codec is declared over each State as released (``release_declarations.py``), so both sides
encode the same values; the figures are microseconds per call, the best of five runs.
"""
from __future__ import annotations

import random
import sys
import timeit
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1] / "contract")]

from game_contract import choose  # noqa: E402
from release_declarations import release_codec  # noqa: E402

from referee.core import registry, speedups  # noqa: E402


def playout_states(game, seed: int) -> list:
    rnd = random.Random(seed)
    state = game.deal(game.make_options(), b"bench", b"entropy")
    states = [state]
    while not state.finished:
        state, _ = game.apply(state, choose(game, state, rnd, 0.0))
        states.append(state)
    return states


def per_call(function, items, repeat: int = 5) -> float:
    number = max(1, 20000 // len(items))
    best = min(timeit.repeat(lambda: [function(x) for x in items], number=number, repeat=repeat))
    return best / (number * len(items)) * 1e6


def bench(game_id: str) -> dict[str, float]:
    game = registry.get_game(game_id)
    codec = release_codec(game)
    states = playout_states(game, 7)
    release, versioned = [game.pack(s) for s in states], [codec.pack(s) for s in states]
    assert all(c[1:] == r for c, r in zip(versioned, release))
    return {"pack hand-written": per_call(game.pack, states), "pack codec": per_call(codec.pack, states),
            "unpack hand-written": per_call(game.unpack, release), "unpack codec": per_call(codec.unpack, versioned),
            "unpack codec, release format": per_call(codec.unpack, release[:50])}


if __name__ == "__main__":
    compiled = ", ".join(f"{k}={'compiled' if v else 'interpreted'}" for k, v in speedups.loaded().items())
    print(f"Python {sys.version.split()[0]}; {compiled}")
    for game_id in sys.argv[1:] or ["doudizhu", "q783", "mcr"]:
        figures = bench(game_id)
        print(game_id + ": " + "; ".join(f"{name} {us:.2f} us" for name, us in figures.items()))
