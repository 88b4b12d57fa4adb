"""Instructions and cache misses per call of our handlers, counted by valgrind: the same figures
(within a ten-thousandth) for the same code and seeds, whatever else the machine runs.

The servicer in one process (no gRPC), playing the Locust mix (``runner.GAME_WEIGHTS``, the calls a
turn of ``inprocess.play``: the ``games`` or ``validate`` profile) from fixed seeds, runs twice
under ``valgrind --tool=cachegrind --cache-sim=yes``: ``--warm`` rounds, then as many and
``--rounds`` more. The difference, over the calls of those rounds, is what a call costs: the
instructions it executes, its first-level instruction and data cache misses (valgrind's model
of this machine's caches) and its last-level misses. Seconds on this shared machine move by
±15% from one run to the next; these counts do not (the key and the tokens' nonces are random, so
a few instructions of hashing move: two runs agree within a ten-thousandth), so a change of a
few per cent in our code shows here when the load test cannot see it. To compare two builds,
load both the same way (each a copy of the package on ``PYTHONPATH``): the process's memory
layout moves what is hashed by address, and a build installed against the same build on
``PYTHONPATH`` read 2.5% apart in the games profile.

    .venv/bin/python loadtest/instructions.py --profile validate --rounds 8
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve()
COUNTS = {"instructions": r"I\s+refs:\s+([\d,]+)", "I1 misses": r"I1\s+misses:\s+([\d,]+)",
          "D1 misses": r"D1\s+misses:\s+([\d,]+)", "LL misses": r"LL misses:\s+([\d,]+)"}


def workload(profile: str, warm: int, rounds: int, seed: int, only: str = "") -> int:
    """Play ``warm`` + ``rounds`` rounds in process (of the games in the comma-separated ``only``,
    or every registered game); the calls made in the last ``rounds``."""
    sys.path.insert(0, str(HERE.parent))
    from inprocess import play
    from runner import GAME_WEIGHTS

    from referee.core.registry import GAMES
    from referee.service.servicer import RefereeServicer
    from referee.service.token import KeyRing, Sealer

    servicer = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True, time_source=lambda: 1.8e9)
    rng = random.Random(seed)
    games = sorted(set(filter(None, only.split(","))) or GAMES)
    weights = [GAME_WEIGHTS.get(g, 1) for g in games]
    seeds = (hashlib.sha256(f"{seed}:{i}".encode()).digest() for i in range(1 << 30))
    counts: dict[str, int] = {}
    for i in range(warm + rounds):
        play(servicer, rng.choices(games, weights)[0], 1, rng, profile, seeds, counts if i >= warm else None)
    return sum(counts.values())


def counted(profile: str, warm: int, rounds: int, seed: int, only: str = "") -> dict:
    """valgrind's totals for one run of the workload, and the calls it measured."""
    with tempfile.NamedTemporaryFile(suffix=".cachegrind") as out:
        run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--cachegrind-out-file={out.name}",
                              sys.executable, str(HERE), "--inner", "--profile", profile, "--warm", str(warm),
                              "--rounds", str(rounds), "--seed", str(seed), "--games", only],
                             capture_output=True, text=True, check=False,
                             env={**os.environ, "PYTHONHASHSEED": "0"})  # the same dict and set orders every run
    if run.returncode:
        raise SystemExit(f"the run under valgrind failed ({run.returncode}):\n{run.stderr[-2000:]}")
    return {"calls": json.loads(run.stdout.strip().splitlines()[-1])["calls"], **totals(run.stderr)}


def totals(report: str) -> dict[str, int]:
    """The program's totals in cachegrind's summary (its stderr)."""
    found = {name: re.search(pattern, report) for name, pattern in COUNTS.items()}
    missing = [name for name, match in found.items() if match is None]
    if missing:
        raise SystemExit(f"no {', '.join(missing)} in valgrind's summary:\n{report[-2000:]}")
    return {name: int(match[1].replace(",", "")) for name, match in found.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", choices=("games", "validate"), default="games")
    p.add_argument("--rounds", type=int, default=8, help="rounds counted (the mix's games drawn from --seed)")
    p.add_argument("--warm", type=int, default=8, help="rounds played first, in both runs")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)  # the run valgrind watches
    args = p.parse_args(argv)
    if args.inner:
        print(json.dumps({"calls": workload(args.profile, args.warm, args.rounds, args.seed, args.games)}))
        return 0
    if args.rounds < 1:
        p.error("--rounds must be 1 or more")
    from referee.core.registry import GAMES

    unknown = set(filter(None, args.games.split(","))) - set(GAMES)
    if unknown:
        p.error(f"no game {', '.join(sorted(unknown))} (games: {', '.join(sorted(GAMES))})")
    if shutil.which("valgrind") is None:
        p.error("valgrind is not installed (Debian: apt-get install valgrind)")
    with ThreadPoolExecutor(2) as pool:  # the two runs side by side: the counts do not mind
        base, full = pool.map(lambda n: counted(args.profile, args.warm, n, args.seed, args.games), (0, args.rounds))
    calls = full["calls"]
    per_call = {name: round((full[name] - base[name]) / calls) for name in COUNTS}
    print(f"{args.profile} profile, {args.games or 'every game'}, {args.rounds} rounds after {args.warm} "
          f"(seed {args.seed}): {calls} calls")
    for name, value in per_call.items():
        print(f"  {name:<13} {value:>10,} a call")
    print(json.dumps({"profile": args.profile, "games": args.games, "rounds": args.rounds, "warm": args.warm,
                      "seed": args.seed, "calls": calls, "per_call": per_call,
                      "pythonpath": os.environ.get("PYTHONPATH", "")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
