"""Dou Dizhu (doudizhu) extras: the bench line of the compiled legal-move generator."""
from __future__ import annotations

import random

from referee.core import cards, doudizhu, speedups

from ..bench import per_call


def core_ratio(seconds: float = 1.0, hands: int = 200, seed: int = 7) -> dict:
    """Legal-move generation per call, compiled vs interpreted, on random 20-card hands."""
    compiled, pure = speedups.load("ddz_hot"), speedups.interpreted("ddz_hot")
    rnd = random.Random(seed)
    leads, responses = [], []
    for _ in range(hands):
        hand = doudizhu.counts_of_mask(cards.to_mask(rnd.sample(range(cards.CARDS_PER_DECK), 20)))
        leads.append((hand, 0, False))
        # a table to answer: a random legal lead of a random other 17-card hand
        other = doudizhu.counts_of_mask(cards.to_mask(rnd.sample(range(cards.CARDS_PER_DECK), 17)))
        responses.append((hand, rnd.choice(pure.legal_plays(other, 0, False)), False))
    result = {"compiled_loaded": compiled is not pure}
    for name, cases in (("lead", leads), ("response", responses)):
        t_pure = per_call(pure.legal_plays, cases, seconds / 4)
        t_compiled = per_call(compiled.legal_plays, cases, seconds / 4)
        result[name] = {"interpreted_us": round(t_pure * 1e6, 2), "compiled_us": round(t_compiled * 1e6, 3),
                        "ratio": round(t_pure / t_compiled, 1)}
    return result


def bench(seconds: float) -> tuple[list, dict]:
    core = core_ratio(seconds)
    rows = [(f"ddz legal moves, 20-card {name}", core[name]["interpreted_us"], core[name]["compiled_us"], "us",
             core[name]["ratio"], ">= 20x (interpreted / compiled)") for name in ("lead", "response")]
    return rows, {"core": core}
