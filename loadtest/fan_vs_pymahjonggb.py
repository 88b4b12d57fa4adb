"""`referee fan --jsonl` against PyMahjongGB, whole process against whole process, same hands.

Writes ``--hands`` random legal winning hands (``mcr.random_winning_hand``, fixed seed) as JSON
lines to a file, then alternates ``--rounds`` times between two processes that each read that
file on stdin and write one JSON answer a line to a file:

- *ours*: ``referee fan --jsonl`` (the installed CLI, compiled core);
- *PyMahjongGB*: the smallest program doing the same with ``MahjongGB.MahjongFanCalculator``
  (below, ``BASELINE``: ``json`` in, the calculator, ``json`` out; a hand it refuses gets an
  error line), run by the same interpreter, importing nothing of ours.

Per round: each process's CPU seconds (user + system, from ``wait4``) and wall seconds, start-up
included. Prints each round, the medians and one JSON line with the CPU ratio (ours / theirs):
the issue's target is ≤ 0.5. Both answer files are checked: as many lines as hands, and on every
hand both calculators agree on win or not (the fans themselves are compared hand by hand in
``tests/core/test_mcr_diff.py``).

    .venv/bin/python loadtest/fan_vs_pymahjonggb.py [--hands 300000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.core.games.mcr import fans as mcr

BASELINE = r'''
import json, sys
from MahjongGB import MahjongFanCalculator
dumps, out = json.JSONEncoder(ensure_ascii=False).encode, sys.stdout
for line in sys.stdin:
    req = json.loads(line)
    get = req.get
    try:
        fans = MahjongFanCalculator(pack=tuple(tuple(m) for m in get("melds", ())), hand=tuple(req["concealed"]),
                                    winTile=req["win_tile"], flowerCount=get("flowers", 0),
                                    isSelfDrawn=get("self_drawn", False), is4thTile=get("fourth_tile", False),
                                    isAboutKong=get("kong_related", False), isWallLast=get("wall_last", False),
                                    seatWind=get("seat_wind", 0), prevalentWind=get("prevalent_wind", 0),
                                    verbose=True)
        answer = {"fans": [[english, name, points, count] for points, count, name, english in fans],
                  "total": sum(points * count for points, count, _, _ in fans)}
    except Exception as error:
        answer = {"error": "NOT_WIN", "message": str(error)}
    out.write(dumps(answer))
    out.write("\n")
'''


def write_hands(path: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    with path.open("w") as out:
        for _ in range(count):
            out.write(json.dumps(mcr.random_winning_hand(rng), ensure_ascii=False))
            out.write("\n")


def timed(command: list[str], hands: Path, answers: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole process reading ``hands``, writing ``answers``."""
    with hands.open("rb") as stdin, answers.open("wb") as stdout:
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdin=stdin, stdout=stdout)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{command[0]} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def wins(answers: Path) -> list[bool]:
    with answers.open() as lines:
        return ["fans" in json.loads(line) for line in lines]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=300_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=20261206)
    args = p.parse_args(argv)
    referee = shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"
    commands = {"ours": [referee, "fan", "--jsonl"], "pymahjonggb": [sys.executable, "-c", BASELINE]}
    with tempfile.TemporaryDirectory() as folder:
        hands = Path(folder) / "hands.jsonl"
        write_hands(hands, args.hands, args.seed)
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        wall: dict[str, list[float]] = {name: [] for name in commands}
        for n in range(args.rounds):
            for name, command in (commands.items() if n % 2 == 0 else reversed(commands.items())):
                seconds, elapsed = timed(command, hands, Path(folder) / f"{name}.jsonl")
                cpu[name].append(seconds)
                wall[name].append(elapsed)
                print(f"round {n + 1} {name:12} cpu {seconds:7.2f} s  wall {elapsed:7.2f} s", flush=True)
        ours, theirs = wins(Path(folder) / "ours.jsonl"), wins(Path(folder) / "pymahjonggb.jsonl")
        if len(ours) != args.hands or len(theirs) != args.hands:
            raise SystemExit(f"answers: ours {len(ours)}, PyMahjongGB {len(theirs)}, hands {args.hands}")
        # a hand under 8 points is UNDER_8 for us and a win for PyMahjongGB: compare the wins it scores 8+
        disagree = sum(1 for a, b in zip(ours, theirs) if a and not b)
    median = {name: statistics.median(values) for name, values in cpu.items()}
    ratio = median["ours"] / median["pymahjonggb"]
    print(f"median cpu: ours {median['ours']:.2f} s, PyMahjongGB {median['pymahjonggb']:.2f} s, "
          f"ratio {ratio:.2f} (target <= 0.5); per hand {median['ours'] / args.hands * 1e6:.2f} "
          f"against {median['pymahjonggb'] / args.hands * 1e6:.2f} us; hands we score and it refuses: {disagree}")
    print(json.dumps({"hands": args.hands, "rounds": args.rounds, "ours_cpu_s": round(median["ours"], 3),
                      "pymahjonggb_cpu_s": round(median["pymahjonggb"], 3), "ratio": round(ratio, 3),
                      "ours_wall_s": round(statistics.median(wall["ours"]), 3),
                      "pymahjonggb_wall_s": round(statistics.median(wall["pymahjonggb"]), 3)}))
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
