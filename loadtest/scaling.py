"""The scaling table: `referee load` for 1 and 2 server workers, real games and no-op calls.

Runs every (workers, profile) pair ``--repeats`` times, interleaved so machine noise hits all
alike, and prints a Markdown table of medians: completed games/s, calls/s, server CPU seconds
per 1,000 calls (independent of the core count), the worst p99, Locust's own CPU, failures.
The ratio of the games profile's server CPU per call to the no-op profile's says how much of
the cost is the rules and how much is gRPC.

    .venv/bin/python loadtest/scaling.py [--seconds 15] [--users 16] [--repeats 3]
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


def load(workers: int, profile: str, args, out: Path) -> dict:
    return referee_load(["--workers", str(workers), "--profile", profile, "--users", str(args.users),
                         "--seconds", str(args.seconds), "--games", args.games, "--threads", str(args.threads),
                         "--out", str(out)], timeout=args.seconds + 180, strict=False)  # failures are counted


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=int, default=15)
    p.add_argument("--users", type=int, default=16)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--workers", default="1,2")
    p.add_argument("--profiles", default="games,noop")
    p.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    p.add_argument("--threads", type=int, default=16, help="server handler threads per worker")
    args = p.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",")]
    profiles = args.profiles.split(",")
    runs: dict[tuple[int, str], list[dict]] = {(w, pr): [] for w in workers for pr in profiles}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            for w in workers:
                for pr in profiles:
                    s = load(w, pr, args, Path(tmp) / f"{pr}-w{w}-{r}")
                    runs[(w, pr)].append(s)
                    print(f"run {r + 1} workers {w} {pr:<8} calls/s {s['calls_per_s']:>8} games/s {s['games_per_s']:>6} "
                          f"server CPU s/1k calls {s['server_cpu_s_per_1k_calls']} p99 {s['p99_ms']} ms "
                          f"failures {s['failures']}", flush=True)
    med = {k: {f: statistics.median(s[f] for s in v) for f in
               ("calls_per_s", "games_per_s", "server_cpu_s_per_1k_calls", "p99_ms", "client_cpu_s")}
           for k, v in runs.items()}
    fails = {k: sum(s["failures"] for s in v) for k, v in runs.items()}
    print(f"\nmedians of {args.repeats} runs of {args.seconds} s, {args.users} Locust users, one Locust process, "
          f"{args.threads} server threads per worker, games: {args.games or 'all registered'}\n")
    print("| workers | profile | games/s | calls/s | server CPU s per 1,000 calls | worst p99 ms | Locust CPU s | failures |")
    print("|---|---|---|---|---|---|---|---|")
    for (w, pr), m in med.items():
        print(f"| {w} | {pr} | {m['games_per_s'] if pr != 'noop' else '-'} | {m['calls_per_s']:.0f} | "
              f"{m['server_cpu_s_per_1k_calls']:.3f} | {m['p99_ms']:.0f} | {m['client_cpu_s']:.1f} | {fails[(w, pr)]} |")
    if "noop" in profiles:
        for pr in profiles:
            if pr != "noop":
                for w in workers:
                    ratio = med[(w, pr)]["server_cpu_s_per_1k_calls"] / med[(w, "noop")]["server_cpu_s_per_1k_calls"]
                    print(f"\nworkers {w}: a {pr} call costs the server {ratio:.2f}x a no-op call")
    print(json.dumps({f"{pr}-w{w}": m for (w, pr), m in med.items()}))
    return 1 if any(fails.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
