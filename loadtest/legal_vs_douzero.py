"""``referee legal --game doudizhu --jsonl`` against DouZero's move generator, whole process.

Writes ``--cases`` deterministic cases to ``--out``/cases.jsonl: half free leads, half
responses to a combination held by another hand (a kind drawn uniformly among those that hand
can lead, then one of its plays), hands of 1-20 cards from one deck, half as cards
(``3S TH BJ``) half as rank strings, one in ten with ``{"rocket_as_kickers": true}``. Then,
``--repeat`` times, runs both whole processes on that file, ours and DouZero's harness
(``legal_douzero.py`` under ``--douzero-python``) one after the other, and keeps each one's
best wall time; also the best time of each on an empty input (start-up: interpreter, imports).
Prints the times, the ratio ours / DouZero, µs a case, and how many answers agree (the same
move set); every disagreement is put in a category of rules/doudizhu.md rule 11 by what
differs, ``unexplained`` being a bug to chase (exit 1). Last line: one JSON object.

    .venv/bin/python loadtest/legal_vs_douzero.py --douzero-python /tmp/dz/bin/python

DouZero in its own venv: ``python3 -m venv /tmp/dz && /tmp/dz/bin/pip install rlcard &&
/tmp/dz/bin/pip install --no-deps douzero`` (see legal_douzero.py).
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from referee.core import cards as cardlib
from referee.core.games.doudizhu import rules as doudizhu

HERE = Path(__file__).resolve().parent
hot = doudizhu.hot


# --- the cases ------------------------------------------------------------------------------------
def make_cases(n: int, seed: int) -> list[dict]:
    """``n`` requests of the JSONL contract, the same for the same ``seed``."""
    rng = random.Random(seed)
    deck = list(range(cardlib.CARDS_PER_DECK))
    cases = []
    for i in range(n):
        rng.shuffle(deck)
        size = rng.randint(1, 20)
        hand = deck[:size]
        options = {"rocket_as_kickers": True} if rng.random() < 0.1 else None
        case = {"hand": _text(hand, rng), "last": ""}
        if i % 2:
            other = deck[size:size + rng.randint(1, 20)]
            mask = cardlib.to_mask(other)
            by_kind: dict[int, list[int]] = {}
            for play in hot.legal_plays(hot.hand_counts(mask), 0, bool(options)):
                by_kind.setdefault(hot.play_kind(play), []).append(play)
            plays = by_kind[rng.choice(sorted(by_kind))]
            picked = hot.pick_cards(mask, hot.play_counts(rng.choice(plays)))
            case["last"] = _text(cardlib.from_mask(picked), rng)
        if options:
            case["options"] = options
        cases.append(case)
    return cases


def _text(ids, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return cardlib.format_cards(ids)
    return cardlib.format_ranks(cardlib.ranks_of(ids))


# --- the runs -------------------------------------------------------------------------------------
def timed(command: list[str], stdin: Path, stdout: Path) -> float:
    """Wall seconds of one whole process reading ``stdin`` and writing ``stdout``."""
    with open(stdin, "rb") as src, open(stdout, "wb") as dst:
        start = time.perf_counter()
        subprocess.run(command, stdin=src, stdout=dst, check=True)
        return time.perf_counter() - start


def best_times(commands: dict[str, list[str]], cases: Path, out: Path, repeat: int) -> dict:
    """Best wall time of each command on ``cases`` and on an empty input, runs interleaved."""
    empty = out / "empty.jsonl"
    empty.write_text("")
    best = {name: [float("inf"), float("inf")] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            best[name][0] = min(best[name][0], timed(command, cases, out / f"{name}.jsonl"))
            best[name][1] = min(best[name][1], timed(command, empty, out / f"{name}-empty.jsonl"))
    return best


# --- agreement ------------------------------------------------------------------------------------
def disagreement(case: dict, ours: dict, theirs: dict) -> str:
    """The rule 11 category of a case whose answers differ ('' when they agree)."""
    if ours == theirs:
        return ""
    if "moves" not in ours or "moves" not in theirs:
        return "unexplained: one side refused the case"
    only_ours = set(ours["moves"]) - set(theirs["moves"])
    only_theirs = set(theirs["moves"]) - set(ours["moves"])
    if not only_ours and not only_theirs:
        return "unexplained: order or repeats"
    rocket_kickers = bool((case.get("options") or {}).get("rocket_as_kickers"))
    table = _table(case["last"])
    found = set()
    for text in only_theirs:
        found.add(_extra_in_douzero(text, table, rocket_kickers))
    for text in only_ours:
        found.add(_missing_in_douzero(text, table))
    return " + ".join(sorted(found))


def _table(last: str) -> int:
    if not last:
        return 0
    readings = doudizhu.classify(doudizhu.parse_hand(last))
    return doudizhu.choose_reading(readings, 0)[0]


def _highest_trio(counts: int) -> int:
    return max((r for r in range(cardlib.NUM_RANKS) if (counts >> 3 * r) & 7 >= 3), default=-1)


def _airplane_by_highest_trio(table: int) -> bool:
    """DouZero compares an airplane with single wings by its highest trio, wings included."""
    return (table and hot.play_kind(table) == doudizhu.Kind.AIRPLANE_SINGLES
            and _highest_trio(hot.play_counts(table)) != hot.play_main(table))


def _extra_in_douzero(text: str, table: int, rocket_kickers: bool) -> str:
    counts = doudizhu.parse_hand(text)
    if not rocket_kickers and len(text) > 2 and text.endswith("BR"):
        return "11b rocket as kickers"
    if len(text) > 4 and 4 in [(counts >> 3 * r) & 7 for r in range(cardlib.NUM_RANKS)] \
            and not hot.readings(counts, rocket_kickers):
        return "11e four single wings of one rank"
    if _airplane_by_highest_trio(table) or (
            table and hot.play_kind(table) == doudizhu.Kind.AIRPLANE_SINGLES
            and _highest_trio(counts) > hot.play_main(table)):
        return "11h airplane compared by the highest trio, wings included"
    return f"unexplained: only DouZero plays {text}"


def _missing_in_douzero(text: str, table: int) -> str:
    if _airplane_by_highest_trio(table):
        return "11h airplane compared by the highest trio, wings included"
    return f"unexplained: only we play {text}"


def agreement(cases: list[dict], ours: Path, theirs: Path) -> Counter:
    """Case count per category: 'agree' or the rule a disagreement comes from."""
    found = Counter()
    with open(ours) as a, open(theirs) as b:
        for case, line_a, line_b in zip(cases, a, b, strict=True):
            found[disagreement(case, json.loads(line_a), json.loads(line_b)) or "agree"] += 1
    return found


# --- main -----------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=40_000)
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--repeat", type=int, default=5, help="runs of each program; the best counts")
    p.add_argument("--douzero-python", default="/tmp/dz/bin/python", help="a Python with douzero installed")
    beside = Path(sys.executable).parent / "referee"
    p.add_argument("--referee", default=str(beside) if beside.exists() else shutil.which("referee"),
                   help="the referee command (default: the one beside this Python, else on PATH)")
    p.add_argument("--out", default=str(HERE / "out" / "legal_vs_douzero"), help="folder for cases and answers")
    args = p.parse_args(argv)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cases = make_cases(args.cases, args.seed)
    path = out / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    commands = {"referee": [args.referee, "legal", "--game", "doudizhu", "--jsonl"],
                "douzero": [args.douzero_python, str(HERE / "legal_douzero.py")]}
    best = best_times(commands, path, out, args.repeat)
    found = agreement(cases, out / "referee.jsonl", out / "douzero.jsonl")

    n = len(cases)
    leads = sum(1 for c in cases if not c["last"])
    with open(out / "referee.jsonl") as answers:
        moves = sum(len(json.loads(line).get("moves", ())) for line in answers)
    print(f"{n} cases: {leads} free leads, {n - leads} responses, {moves / n:.1f} legal plays a case")
    for name, (whole, start) in best.items():
        print(f"{name:<8} {whole:7.3f} s whole  {start * 1e3:6.1f} ms start-up  "
              f"{whole / n * 1e6:6.1f} µs a case  {(whole - start) / n * 1e6:6.1f} µs a case after start-up")
    ratio = best["referee"][0] / best["douzero"][0]
    print(f"ours / DouZero: {ratio:.3f} (target at most 0.2), best of {args.repeat}, {n} cases")
    print(f"agree: {found['agree']} of {n}")
    for category, count in found.most_common():
        if category != "agree":
            print(f"  {count:6d}  {category}")
    print(json.dumps({"cases": n, "referee_s": round(best["referee"][0], 3),
                      "douzero_s": round(best["douzero"][0], 3), "ratio": round(ratio, 3),
                      "referee_startup_s": round(best["referee"][1], 3),
                      "douzero_startup_s": round(best["douzero"][1], 3),
                      "agree": found["agree"], "disagreements": {k: v for k, v in found.items() if k != "agree"}}))
    unexplained = sum(v for k, v in found.items() if "unexplained" in k)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
