"""Profile one server worker under Locust load with py-spy; say where its CPU goes.

Runs ``referee load --workers 1`` (a profile, users and optional rate of your choice), attaches
``py-spy record --nonblocking --format raw`` to the worker once the users are running, and
splits the sampled stacks: our code (``referee/core`` = rules; ``service/token.py`` = sealing;
the rest of ``referee/service`` and the generated ``referee/v1`` = conversion and servicer)
against everything else (gRPC's server loop, threads, (de)serialization it does itself). Time
in C (AES-GCM, upb protobuf) counts for the Python line that called it. Prints the split, the
top functions by own samples and by inclusive samples in our code, and one JSON line.

    .venv/bin/python loadtest/profile_server.py --profile games --users 16 --seconds 15
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from load_cli import referee, until_users_run  # noqa: E402

GRPC = "gRPC Python and the rest (with the GIL)"
FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")


def group(filename: str) -> str | None:
    """Which part of our code a frame's file belongs to, or None for not ours."""
    f = filename.replace("\\", "/")
    if "/referee/core/" in f or f.startswith("core/"):
        return "rules (referee.core)"
    if f.endswith("referee/service/token.py") or f == "service/token.py":
        return "token sealing (service/token.py)"
    if "/referee/service/" in f or "/referee/v1/" in f or f.startswith("service/"):
        return "servicer + conversion (service/)"
    return None


def parse(raw: Path) -> tuple[collections.Counter, collections.Counter, collections.Counter, int]:
    """(samples by group, own samples by function, inclusive samples of our functions, total)."""
    groups, own, inclusive = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [FRAME.match(f) for f in stack.split(";")]
        frames = [(m["func"], m["file"]) if m else (f, "") for m, f in zip(frames, stack.split(";"))]
        ours = [group(file) for _, file in frames]
        # the sample belongs to the deepest frame of our code (its callees in C included)
        deepest = next((g for g in reversed(ours) if g), None)
        groups[deepest or GRPC] += n
        func, file = frames[-1]
        own[f"{func} ({Path(file).name})"] += n
        for (func, file), g in set(zip(frames, ours)):
            if g:
                inclusive[f"{func} ({Path(file).name})"] += n
    return groups, own, inclusive, total


def snapshot(worker, path: Path) -> dict:
    """Ask the instrumented worker (SIGUSR1) for its counters and read them."""
    old = path.stat().st_mtime_ns if path.exists() else 0
    worker.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_mtime_ns != old:
            return json.loads(path.read_text(encoding="utf-8"))
        time.sleep(0.05)
    raise RuntimeError("the instrumented worker wrote no counters")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", default="games")
    p.add_argument("--users", type=int, default=16)
    p.add_argument("--seconds", type=int, default=15, help="profiled seconds")
    p.add_argument("--rate", type=float, default=0)
    p.add_argument("--sample-rate", type=int, default=200)
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "out" / "profile"))
    p.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    p.add_argument("--threads", type=int, default=16, help="server handler threads")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pyspy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    counts = (out / "instrumented.json").resolve()
    env = dict(os.environ, REFEREE_INSTRUMENT_OUT=str(counts))
    load = subprocess.Popen([referee(), "load", "--workers", "1", "--profile", args.profile, "--users", str(args.users),
                             "--seconds", str(args.seconds + 10), "--rate", str(args.rate), "--games", args.games,
                             "--threads", str(args.threads), "--out", str(out / "load"),
                             "--server-script", str(HERE / "instrumented_serve.py")],
                            stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
    lines: list[str] = []
    try:
        pid, _ = until_users_run(load.stdout, lines, echo=sys.stdout.write)
        time.sleep(1)
        raw = out / "pyspy.txt"
        worker = psutil.Process(pid)
        before = snapshot(worker, counts)
        cpu0, wall0 = sum(worker.cpu_times()[:2]), time.monotonic()
        subprocess.run([pyspy, "record", "--pid", str(pid), "--duration", str(args.seconds), "--rate",
                        str(args.sample_rate), "--nonblocking", "--gil", "--format", "raw", "-o", str(raw)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=args.seconds + 60)
        cpu_s, wall_s = sum(worker.cpu_times()[:2]) - cpu0, time.monotonic() - wall0
        after = snapshot(worker, counts)
        for line in load.stdout:
            lines.append(line)
        load.wait(60)
    finally:
        if load.poll() is None:
            load.terminate()
            load.wait(30)
    groups, own, inclusive, total = parse(raw)
    summary = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    rate = args.sample_rate
    ours = sum(n for g, n in groups.items() if g != GRPC)
    print(f"\nworker {pid}: {cpu_s:.2f} CPU s in {wall_s:.2f} s; {total} samples of the thread holding the GIL "
          f"({total / rate:.2f} s at {rate}/s)")
    print("share of the worker's CPU time (GIL-holding samples / sample rate / CPU seconds):")
    for name, n in groups.most_common():
        print(f"  {100 * n / rate / cpu_s:5.1f}%  {name}")
    print(f"  {100 * ours / rate / cpu_s:5.1f}%  our code in all (target < 25%)")
    print(f"  {100 * (1 - total / rate / cpu_s):5.1f}%  without the GIL (gRPC core: HTTP/2, sockets, polling)")
    print("top functions by own samples (% of CPU):")
    for name, n in own.most_common(15):
        print(f"  {100 * n / rate / cpu_s:5.1f}%  {name}")
    print("our functions by inclusive samples (% of CPU):")
    for name, n in inclusive.most_common(20):
        print(f"  {100 * n / rate / cpu_s:5.1f}%  {name}")
    instrumented = {}
    methods = after["methods"]
    window_cpu = after["process_cpu_s"] - before["process_cpu_s"]
    ours_s = 0.0
    print(f"instrumented (thread CPU inside the servicer's RPC methods) over {window_cpu:.2f} CPU s:")
    for name in sorted(methods):
        now, then = methods[name], before["methods"].get(name, [0, 0.0, 0, 0])
        n, spent = now[0] - then[0], now[1] - then[1]
        if n:
            ours_s += spent
            voluntary = (now[2] - then[2]) / n
            instrumented[name] = {"calls": n, "us_per_call": round(1e6 * spent / n, 1),
                                  "blocked_per_call": round(voluntary, 3)}
            print(f"  {name:<14}{n:>8} calls {1e6 * spent / n:9.1f} us each  {100 * spent / window_cpu:5.1f}% of the CPU"
                  f"  {voluntary:5.2f} blocking switches a call")
    print(f"  our code: {100 * ours_s / window_cpu:.1f}% of the worker's CPU (target < 25%)")
    print(json.dumps({"instrumented_our_share": round(ours_s / window_cpu, 3), "instrumented": instrumented,
                      "worker_cpu_s": round(cpu_s, 2), "gil_samples": total, "sample_rate": rate,
                      "our_share_of_cpu": round(ours / rate / cpu_s, 3),
                      "groups": {g: round(n / rate / cpu_s, 3) for g, n in groups.items()},
                      "server_cpu_s_per_1k_calls": summary.get("server_cpu_s_per_1k_calls"),
                      "calls_per_s": summary.get("calls_per_s")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
