"""Where a served call's CPU goes below Python: the kernel, gRPC's C core, the interpreter,
protobuf, the C library and the crypto, per call of each profile, sampled by ``perf``.

For each profile, ``referee load --workers 1`` runs at one call rate (as ``bars.py`` does); once
its users run, ``perf record -e cpu-clock`` samples the server worker (a software clock: no
hardware counters needed, so it works in a VM) for ``--record`` seconds. Each sample is counted
for the shared object it fell in, and the shares, times the run's server CPU a call, give µs a
call by part. The parts that grow from the no-op call to a game call are what our handlers add
(our Python runs in the interpreter and calls protobuf, the C library and the crypto); the parts
that stay are gRPC's per-call cost. py-spy (``profile_server.py``) sees only the thread holding
the GIL; this sees every thread, the kernel's work on the process's behalf included.

    .venv/bin/python loadtest/native_split.py [--profiles noop,validate,games] [--rate 1200]
                                              [--seconds 25] [--record 12] [--rounds 1]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import signal
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_cli import referee, until_users_run  # noqa: E402
from runner import PROFILES  # noqa: E402

PARTS = (  # (part, what a shared object's name starts with), the first match wins
    ("kernel", ("[kernel",)),
    ("gRPC core (C)", ("cygrpc",)),
    ("interpreter", ("libpython", "python")),
    ("protobuf (upb)", ("_message",)),
    ("C library", ("libc.so", "libc-", "libm.so", "ld-linux", "[vdso]", "libstdc++", "libgcc", "libpthread")),
    ("crypto", ("_rust", "libcrypto", "_hashlib", "libssl")),
    ("compiled core", ("hot_c",)),
)
OTHER = "other"
LINE = re.compile(r"^\s*(?P<share>\d+(?:\.\d+)?)%\s+(?P<dso>\S+)(?:\s+\[(?P<where>[k.])\]\s+(?P<sym>.+?))?\s*$")


def part_of(dso: str) -> str:
    name = Path(dso).name if dso.startswith("/") else dso
    for part, starts in PARTS:
        if name.startswith(starts):
            return part
    return OTHER


def shares(report: str) -> dict[str, float]:
    """Fractions of the samples by part, from ``perf report --sort dso --stdio``."""
    found: collections.Counter = collections.Counter()
    for line in report.splitlines():
        m = LINE.match(line)
        if m:
            found[part_of(m["dso"])] += float(m["share"]) / 100
    if not found:
        raise SystemExit(f"no samples in perf's report:\n{report[-2000:]}")
    return dict(found)


def kernel_symbols(report: str, top: int = 5) -> list[tuple[str, float]]:
    """The kernel's heaviest symbols and their fractions of all samples, from ``perf report
    --sort dso,sym --stdio``."""
    found = []
    for line in report.splitlines():
        m = LINE.match(line)
        if m and m["where"] == "k":
            found.append((m["sym"], float(m["share"]) / 100))
    return sorted(found, key=lambda item: -item[1])[:top]


def perf_report(data: Path, sort: str) -> str:
    run = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", sort, "--stdio"],
                         capture_output=True, text=True, check=False)
    if run.returncode:
        raise SystemExit(f"perf report failed ({run.returncode}): {run.stderr[-1000:]}")
    return run.stdout


def measured(profile: str, rate: float, seconds: int, record: int, users: int, folder: Path) -> dict:
    """One profile: the run's summary, the parts' shares and the kernel's top symbols."""
    load = subprocess.Popen([referee(), "load", "--workers", "1", "--users", str(users), "--seconds", str(seconds),
                             "--profile", profile, "--rate", str(rate), "--out", str(folder / profile)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                            start_new_session=True)
    lines: list[str] = []
    try:
        pid, left = until_users_run(load.stdout, lines)
        time.sleep(1)
        if record > left - 3:  # the samples must end while the users still run
            raise SystemExit(f"--record {record} s does not fit the {left:.0f} s left of the run: a longer --seconds")
        data = folder / f"{profile}.perf"
        rec = subprocess.run(["perf", "record", "-e", "cpu-clock", "-F", "999", "-p", str(pid), "-o", str(data),
                              "--", "sleep", str(record)], capture_output=True, text=True, check=False)
        if rec.returncode or not data.exists():
            raise SystemExit(f"perf record failed ({rec.returncode}): {rec.stderr[-1000:]}\n"
                             "(perf needs /proc/sys/kernel/perf_event_paranoid <= 1, or root)")
        lines.extend(load.stdout)
        load.wait(120)
    finally:
        if load.poll() is None:  # its own session: the server and Locust go with it
            os.killpg(load.pid, signal.SIGTERM)
            load.wait(30)
    if not lines or not lines[-1].startswith("{"):
        raise SystemExit(f"referee load --profile {profile} printed no summary:\n" + "".join(lines[-20:]))
    summary = json.loads(lines[-1])
    return {"server_us_per_call": round(1000 * summary["server_cpu_s_per_1k_calls"], 1),
            "calls_per_s": summary["calls_per_s"], "failures": summary["failures"],
            "shares": shares(perf_report(data, "dso")), "kernel_top": kernel_symbols(perf_report(data, "dso,sym"))}


def table(runs: dict[str, list[dict]]) -> tuple[list[str], dict]:
    """Printable lines and the medians: µs a call by part, per profile, and over the no-op call."""
    parts = [p for p, _ in PARTS] + [OTHER]
    per_call = {}
    for profile, rounds in runs.items():
        per_call[profile] = {"all": statistics.median(r["server_us_per_call"] for r in rounds)}
        for part in parts:
            per_call[profile][part] = statistics.median(r["server_us_per_call"] * r["shares"].get(part, 0.0)
                                                        for r in rounds)
    profiles = list(runs)
    shown = [p for p in parts if any(per_call[pr][p] >= 0.5 for pr in profiles)]
    width = max(len(p) for p in shown + ["server CPU a call"])
    lines = [f"{'µs a call (median of rounds)':<{width}}" + "".join(f"{p:>12}" for p in profiles)]
    lines.append(f"{'server CPU a call':<{width}}" + "".join(f"{per_call[p]['all']:>12.1f}" for p in profiles))
    for part in shown:
        lines.append(f"{part:<{width}}" + "".join(f"{per_call[p][part]:>12.1f}" for p in profiles))
    if "noop" in per_call and len(profiles) > 1:
        lines.append("over the no-op call:")
        base = per_call["noop"]
        for part in ["all"] + shown:
            label = "server CPU a call" if part == "all" else part
            lines.append(f"{label:<{width}}" + "".join(
                f"{per_call[p][part] - base[part]:>+12.1f}" if p != "noop" else f"{'':>12}" for p in profiles))
    return lines, {p: {k: round(v, 1) for k, v in values.items()} for p, values in per_call.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profiles", default="noop,validate,games", help="comma-separated referee load profiles")
    p.add_argument("--rate", type=float, default=1200.0, help="calls a second, every profile (0: unpaced)")
    p.add_argument("--seconds", type=int, default=25, help="each run's length")
    p.add_argument("--record", type=int, default=12, help="seconds sampled, once the users run")
    p.add_argument("--users", type=int, default=20)
    p.add_argument("--rounds", type=int, default=1, help="each profile this many times, in turn")
    args = p.parse_args(argv)
    profiles = [x for x in args.profiles.split(",") if x]
    if not profiles or set(profiles) - set(PROFILES):
        p.error(f"profiles are some of {', '.join(sorted(PROFILES))}")
    if args.record >= args.seconds - 3:
        p.error("--record must leave the run's first seconds and its end out: at most --seconds minus 4")
    if shutil.which("perf") is None:
        p.error("perf is not installed (Debian: apt-get install linux-perf)")
    runs: dict[str, list[dict]] = {profile: [] for profile in profiles}
    with tempfile.TemporaryDirectory(prefix="native-split-") as tmp:
        for r in range(args.rounds):
            for profile in profiles:
                run = measured(profile, args.rate, args.seconds, args.record, args.users, Path(tmp))
                runs[profile].append(run)
                top = ", ".join(f"{sym} {100 * f:.1f}%" for sym, f in run["kernel_top"][:3])
                print(f"round {r + 1} {profile:<9} {run['server_us_per_call']:7.1f} µs a call at "
                      f"{run['calls_per_s']:.1f} calls/s; kernel {100 * run['shares'].get('kernel', 0):.1f}% ({top})",
                      flush=True)
    lines, medians = table(runs)
    print("\n".join(lines))
    print(json.dumps({"rate": args.rate, "rounds": args.rounds, "per_call_us": medians,
                      "runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
