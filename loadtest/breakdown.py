"""Where a served call's CPU goes, per call kind, for the load profiles (issue 26, deliverable 1).

Runs ``referee load --workers 1`` once per profile (``--profiles``, default noop, validate,
games; in that order, one after the other) with the server started by
``loadtest/breakdown_serve.py``, which times, per RPC method, the request's parsing, the
response's serializing, the handler and the steps inside it (credentials, token open and seal,
action conversion, rules, views, events, the rest). Prints per profile and call kind the µs of
thread CPU per call of each part, and per profile the server CPU per call (``referee load``'s
own figure over its window), the share measured in the parts, and the rest: gRPC's own work
(network, HTTP/2, the thread pool, the C core's completion queue) and the interpreter's. The
last line is JSON: every figure, and each profile's CPU per call as a ratio to noop's.

The timers cost about a µs each (a call goes through 3 to 12), so the parts are slight
over-estimates and the server CPU per call is higher than without them: compare ratios, and
take the load figures without timers from ``referee load`` itself.

    .venv/bin/python loadtest/breakdown.py [--seconds 20] [--users 20] [--profiles noop,validate,games] [--games doudizhu] [--rate 1000]

Unpaced, each profile runs at its own rate, and a call's share of the server's fixed costs (the
poller's wake-ups, the thread pool's) falls as the rate rises: a no-op call costs less at 3,600
calls/s than at 1,200. ``--rate`` runs every profile at the same rate, which compares calls alone.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from load_cli import referee_load  # noqa: E402
PARTS = ("parse", "credentials", "token open", "action in", "rules", "views", "events", "token seal",
         "other", "serialize")


def run_profile(profile: str, seconds: int, users: int, folder: Path, games: str = "",
                rate: float = 0) -> tuple[dict, dict]:
    """(referee load's JSON summary, the server's breakdown) of one run (``games``: only those;
    ``rate``: calls/s of all users together, 0 unpaced)."""
    out = folder / f"breakdown-{profile}.json"
    summary = referee_load(["--workers", "1", "--users", str(users), "--seconds", str(seconds), "--profile", profile,
                            "--server-script", str(HERE / "breakdown_serve.py"), "--out", str(folder / profile),
                            *(["--games", games] if games else []), *(["--rate", str(rate)] if rate else [])],
                           env=dict(os.environ, REFEREE_BREAKDOWN_OUT=str(out)))
    return summary, json.loads(out.read_text())


def per_call(summary: dict, breakdown: dict) -> dict:
    """µs per call of each part, per call kind; and the profile's totals."""
    kinds = {}
    measured = 0.0
    for method, calls in sorted(breakdown["calls"].items(), key=lambda kv: -kv[1]):
        steps = breakdown["steps"].get(method, {})
        handler = steps.get("handler", 0.0)
        inside = sum(v for k, v in steps.items() if k not in ("handler", "parse", "serialize"))
        parts = {**{k: v for k, v in steps.items() if k not in ("handler",)}, "other": handler - inside}
        measured += handler + steps.get("parse", 0.0) + steps.get("serialize", 0.0)
        kinds[method] = {"calls": calls, **{part: round(1e6 * parts.get(part, 0.0) / calls, 1) for part in PARTS},
                         "total": round(1e6 * (handler + steps.get("parse", 0.0) + steps.get("serialize", 0.0)) / calls, 1)}
    calls = sum(breakdown["calls"].values())
    server_us = 1e3 * summary["server_cpu_s_per_1k_calls"]
    measured_us = 1e6 * measured / calls if calls else 0.0
    return {"kinds": kinds, "server_us_per_call": round(server_us, 1), "measured_us_per_call": round(measured_us, 1),
            "grpc_and_rest_us_per_call": round(server_us - measured_us, 1), "calls": summary["calls"],
            "calls_per_s": summary["calls_per_s"], "failures": summary["failures"]}


def print_profile(profile: str, result: dict, noop_us: float | None) -> None:
    ratio = f", {result['server_us_per_call'] / noop_us:.2f}x noop" if noop_us else ""
    print(f"\n{profile}: {result['calls']} calls, {result['calls_per_s']}/s, server CPU {result['server_us_per_call']} µs "
          f"a call{ratio}: measured parts {result['measured_us_per_call']} µs, gRPC's own work and the rest "
          f"{result['grpc_and_rest_us_per_call']} µs")
    print(f"{'call':<14}{'calls':>8}" + "".join(f"{p:>12}" for p in PARTS) + f"{'total':>9}")
    for method, row in result["kinds"].items():
        print(f"{method:<14}{row['calls']:>8}" + "".join(f"{row[p]:>12.1f}" for p in PARTS) + f"{row['total']:>9.1f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--users", type=int, default=20)
    p.add_argument("--profiles", default="noop,validate,games")
    p.add_argument("--games", default="", help="comma-separated game ids the game profiles play (default: all)")
    p.add_argument("--rate", type=float, default=0,
                   help="calls/s of all users together in every profile (0: unpaced, each profile at its own rate)")
    args = p.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for profile in args.profiles.split(","):
            summary, breakdown = run_profile(profile, args.seconds, args.users, Path(folder),
                                             "" if profile == "noop" else args.games, args.rate)
            results[profile] = per_call(summary, breakdown)
            noop = results.get("noop", {}).get("server_us_per_call")
            print_profile(profile, results[profile], noop if profile != "noop" else None)
    noop = results.get("noop", {}).get("server_us_per_call")
    print(json.dumps({"profiles": results, "ratio_to_noop": {
        k: round(v["server_us_per_call"] / noop, 3) for k, v in results.items()} if noop else {}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
