"""Dou Dizhu (doudizhu) extras: the bench line of the compiled legal-move generator."""
from __future__ import annotations

import random

from referee.core import cards, speedups
from referee.core.games.doudizhu import rules as doudizhu

from ..bench import per_call


def core_ratio(seconds: float = 1.0, hands: int = 200, seed: int = 7) -> dict:
    """Legal-move generation per call, compiled vs interpreted, on random 20-card hands."""
    compiled, pure = speedups.load("games.doudizhu.hot"), speedups.interpreted("games.doudizhu.hot")
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


# --- deal verification (referee verify), written from the README, not from core/doudizhu.py ----
SEATS, HAND = 3, 17


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """Dou Dizhu's layout: deal n (after n redeals) is ``shuffle(range(54))`` on the stream
    ``deal/n``; seat s gets cards 17s .. 17s+16, the kitty the last three; in a match's first
    round an option first_bidder of -1 draws the first bidder as ``randbelow(3)`` on the stream
    ``first_bidder``. Returns check name -> a problem, or "" when it holds."""
    deal_no = record["values"].get("deal_no", 0)
    deck = stream(key, f"deal/{deal_no}").shuffle(range(54))
    expected = {f"seat{s}": deck[s * HAND:(s + 1) * HAND] for s in range(SEATS)}
    expected["kitty"] = deck[SEATS * HAND:]
    found = {"cards": "" if record["cards"] == expected else f"the cards of deal {deal_no} differ from the seed's"}
    if record["round"] == 0 and record["options"].get("first_bidder") == -1:
        first = stream(key, "first_bidder").randbelow(SEATS)
        found["first_bidder"] = ("" if record["values"].get("first_bidder") == first
                                 else f"the first bidder is not the seed's ({first})")
    return found
