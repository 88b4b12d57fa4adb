"""够级 Gouji (gouji) extras: the bench line of the compiled free-lead generator, ``referee check``
and the deal verifier of ``referee verify`` (``python -m referee.service.games.gouji`` prints the
bench figures alone)."""
from __future__ import annotations

import json
import random
import statistics
import time

from referee.core import cards, speedups
from referee.core.games.gouji import rules as gouji

HAND = 36


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """够级's layout (written from the README, not from core): ``shuffle(range(216))`` on the stream
    ``deal``; card i to seat (start + i) mod 6, ``start`` (a value of the record) the previous
    回合's 头科, seat 0 in the table's first 回合. Returns check name -> a problem, or "" when it holds."""
    start = record["values"].get("start", 0)
    deck = stream(key, "deal").shuffle(range(216))
    expected = {f"seat{s}": deck[(s - start) % 6::6] for s in range(6)}
    return {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}


def sample_hands(hands: int = 200, seed: int = 20) -> list[tuple[int, int]]:
    """A fixed sample of 36-card hands (counts) dealt from four packs."""
    rnd = random.Random(seed)
    return [gouji.counts_of_mask(cards.to_mask(rnd.sample(range(gouji.NOTATION.id_count), HAND)))
            for _ in range(hands)]


def _median_us(fn, cases, seconds: float) -> float:
    """The median over ``cases`` of each case's time per call (µs), each case repeated."""
    per_case = max(1, int(seconds / max(len(cases), 1) / 2e-5))
    times = []
    for case in cases:
        begin = time.perf_counter()
        for _ in range(per_case):
            fn(*case)
        times.append((time.perf_counter() - begin) / per_case)
    return statistics.median(times) * 1e6


def core_ratio(seconds: float = 1.0, hands: int = 200) -> dict:
    """Free-lead generation (rule 10.1) on 36-card hands, compiled vs interpreted: median µs."""
    compiled, pure = speedups.load("games.gouji.hot"), speedups.interpreted("games.gouji.hot")
    cases = sample_hands(hands)
    counts = sorted(len(pure.free_leads(*case)) for case in cases)
    t_pure = _median_us(pure.free_leads, cases, seconds / 2)
    t_compiled = _median_us(compiled.free_leads, cases, seconds / 2)
    return {"compiled_loaded": compiled is not pure, "interpreted_us": round(t_pure, 2),
            "compiled_us": round(t_compiled, 3), "ratio": round(t_pure / t_compiled, 1),
            "plays_median": counts[len(counts) // 2], "plays_max": counts[-1]}


def bench(seconds: float) -> tuple[list, dict]:
    core = core_ratio(seconds)
    rows = [("gouji free leads, 36-card hand", core["interpreted_us"], core["compiled_us"], "us", core["ratio"],
             "<= 50 us compiled (median)")]
    return rows, {"gouji": core}


if __name__ == "__main__":
    print(json.dumps(core_ratio(2.0)))


# --- the CLI (served once the game is registered) ---------------------------------------------
def cmd_check(args) -> int:
    """`referee check --game gouji --jsonl`: one play a line -> {"legal", "beats", "gouji"} or
    {"error": ...} (the request's ``id`` echoed first)."""
    from .. import jsonl

    return jsonl.serve(gouji.check_answer, lambda error: {"error": f"not a JSON line: {error}"},
                       None if args.jsonl else [args.line])


def add_commands(sub) -> None:
    p = sub.add_parser("check", help='gouji plays: {"play": "...", "table": "...", "options": {}} -> '
                                     '{"legal", "beats", "gouji"}')
    p.add_argument("--game", default="gouji", choices=("gouji",))
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin -> JSON lines on stdout")
    p.add_argument("--line", default="{}", help="one request as JSON (without --jsonl)")
    p.set_defaults(func=cmd_check)
