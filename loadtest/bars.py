"""Issue 26's load bars in one run: server CPU a call of the `validate` and `games` profiles as
ratios to a no-op call, every profile at the same call rate.

Runs ``referee load --workers 1 --users U --seconds S --rate R --profile P`` for P = noop,
validate, games in turn, ``--rounds`` times. Each round's ratios divide by that round's no-op
call (the machine's load drifts between rounds; the three runs of a round are a minute apart).
Prints every run, each round's ratios, and their medians against the bars (validate ≤ 1.25x,
games ≤ 1.5x); the last line is JSON. With ``--check`` it exits 1 when a median is over its bar.

Why one rate: unpaced, each profile runs at its own rate, and a call's share of the server's
fixed costs falls as the rate rises, so the no-op call, by far the fastest, looks cheapest for
that reason alone (RESULTS.md, "The bars at one call rate").

    .venv/bin/python loadtest/bars.py [--rate 1200] [--rounds 3] [--seconds 20] [--users 20] [--check]
                                      [--server-cpus 1 --client-cpus 0]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_cli import referee_load  # noqa: E402

PROFILES = ("noop", "validate", "games")
BARS = {"validate": 1.25, "games": 1.5}


def load(profile: str, rate: float, seconds: int, users: int, folder: Path, pinned: tuple[str, str] = ("", "")) -> dict:
    """``referee load``'s JSON summary of one run; ``pinned``: the server's and Locust's CPUs."""
    return referee_load(["--workers", "1", "--users", str(users), "--seconds", str(seconds), "--profile", profile,
                         "--rate", str(rate), "--out", str(folder / profile), "--server-cpus", pinned[0],
                         "--client-cpus", pinned[1]])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=float, default=1200, help="calls/s of every profile (each must hold it)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--users", type=int, default=20)
    p.add_argument("--check", action="store_true", help="exit 1 when a median ratio is over its bar")
    p.add_argument("--server-cpus", default="", help="referee load's: the server's CPUs, e.g. 1 (default: any)")
    p.add_argument("--client-cpus", default="", help="referee load's: Locust's CPUs, e.g. 0 (default: any)")
    args = p.parse_args(argv)
    rounds = []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(args.rounds):
            runs = {}
            for profile in PROFILES:
                summary = load(profile, args.rate, args.seconds, args.users, Path(folder),
                               (args.server_cpus, args.client_cpus))
                runs[profile] = {"server_us_per_call": round(1e3 * summary["server_cpu_s_per_1k_calls"], 1),
                                 "calls_per_s": summary["calls_per_s"], "failures": summary["failures"]}
                print(f"round {r + 1} {profile:<9} {runs[profile]['server_us_per_call']:7.1f} µs a call at "
                      f"{summary['calls_per_s']} calls/s, {summary['failures']} failures", flush=True)
            noop = runs["noop"]["server_us_per_call"]
            ratios = {k: round(runs[k]["server_us_per_call"] / noop, 3) for k in BARS}
            print(f"round {r + 1} ratios to noop: " + ", ".join(f"{k} {v:.2f}x" for k, v in ratios.items()), flush=True)
            rounds.append({"runs": runs, "ratios": ratios})
    medians = {k: round(statistics.median(r["ratios"][k] for r in rounds), 3) for k in BARS}
    held = {k: medians[k] <= bar for k, bar in BARS.items()}
    for k, bar in BARS.items():
        each = ", ".join(f"{r['ratios'][k]:.2f}" for r in rounds)
        print(f"{k}: median {medians[k]:.2f}x noop (rounds {each}); bar {bar}x: {'held' if held[k] else 'not held'}")
    slow = [f"{k} {r['runs'][k]['calls_per_s']}" for r in rounds for k in PROFILES
            if r["runs"][k]["calls_per_s"] < 0.95 * args.rate]
    if slow:
        print(f"below 95% of {args.rate:g} calls/s (the ratios then mix rates): {', '.join(slow)}")
    print(json.dumps({"rate": args.rate, "rounds": rounds, "median_ratios": medians, "bars": BARS, "held": held}))
    return 1 if args.check and not all(held.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
