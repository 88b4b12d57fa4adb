"""`referee load`: start a server, run Locust headless against it, report, judge.

Steps: pick a free port on 127.0.0.1; start ``referee serve --workers N`` there (ephemeral key,
drain 0, server seeds only as deployed, and a limit of calls in progress above the users' count:
each user has one call at a time, so none is shed); wait until every worker listens and health
says SERVING; read the server processes' CPU time; run ``locust --headless`` with the profile's
user class for ``--seconds`` with ``--users`` users (all spawned in the first second), writing
its CSV and HTML reports under ``--out``; print a progress line every 2 s from Locust's stats
history; read the CPU time again; stop Locust and the server (SIGTERM, then SIGKILL after a
timeout; also on errors and Ctrl-C); print the table and, as the last line, one JSON object.
With ``--rounds-each N`` Locust stops as soon as every game and preset the server lists (or
those of ``--games``) has played out N rounds (``--seconds`` is then the limit), and the JSON
names the tables that had not (``uncovered``).
Exit 1 when a call or a game failed, a table stayed uncovered or the worst p99 passes
``--max-p99-ms``; 2 when the run itself could not be made.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
import psutil
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.v1 import referee_service_pb2, referee_service_pb2_grpc

HERE = Path(__file__).resolve().parent
LOCUSTFILE = HERE / "locustfile.py"
PROFILES = {"games": "GamesUser", "validate": "ValidateUser", "noop": "NoopUser", "batch": "BatchUser"}
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0
PROGRESS_EVERY_S = 2.0
SERVICE = referee_service_pb2.DESCRIPTOR.services_by_name["RefereeService"].full_name  # its health


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def cpu_seconds(procs: list[psutil.Process]) -> float:
    """User + system CPU seconds of the processes (those that ended count 0)."""
    total = 0.0
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            t = proc.cpu_times()
            total += t.user + t.system
    return total


def _listening(proc: psutil.Process, port: int) -> bool:
    with contextlib.suppress(psutil.Error):
        return any(c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port
                   for c in proc.net_connections(kind="tcp"))
    return False


def cpu_list(text: str) -> set[int]:
    """CPUs written "1" or "0,1" (empty: none). Raises ValueError."""
    return {int(c) for c in text.split(",") if c.strip()}


# Relative weights of the games in the Locust mix (only registered games are played, see the
# locustfile's game_mix; instructions.py plays the same mix); a registered game not named here weighs 1.
GAME_WEIGHTS = {"doudizhu": 10, "q783": 3, "gouji": 2, "mcr": 3, "chuanpai": 2}
# the calls of a seat's turn (the locustfile's users; inprocess.py plays the same)
VALIDATE_RATE = 0.5  # GamesUser: chance a chosen action is validated before it is played
FRONTEND_CHECKS = 3  # ValidateUser: legal candidates checked per turn (plus one illegal try)


def seat_counts(text: str) -> dict[str, int]:
    """``chuanpai=7,q783=6`` -> {"chuanpai": 7, "q783": 6}: the seats of those games' deals (the
    locustfile reads ``--seats`` with it). Raises ValueError."""
    counts = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        game, equals, seats = item.partition("=")
        if not equals or not game.strip():
            raise ValueError(f"not GAME=N: {item!r}")
        counts[game.strip()] = int(seats)
    return counts


def _pinned(cpus: set[int]):
    """A preexec_fn binding the child (and the threads and processes it starts) to ``cpus``, or
    None (the scheduler's choice)."""
    return (lambda: os.sched_setaffinity(0, cpus)) if cpus else None


class Server:
    """``referee serve`` in a subprocess on 127.0.0.1:port; a context manager that always stops it."""

    def __init__(self, workers: int, threads: int, log_path: Path, script: str | None = None,
                 max_concurrent: int = 64, allow_caller_seed: bool = False, cpus: set[int] = frozenset()):
        self.workers, self.port = workers, free_port()
        self.address = f"127.0.0.1:{self.port}"
        program = [script] if script else ["-m", "referee.service.cli"]
        argv = [sys.executable, *program, "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--workers", str(workers), "--threads", str(threads),
                "--max-concurrent", str(max_concurrent), "--drain", "0", "--grace", "1", "--log-level", "WARNING"]
        if allow_caller_seed:  # benchmarks that deal recorded rounds again (never `referee load`)
            argv.append("--allow-caller-seed")
        env = {k: v for k, v in os.environ.items() if k != "REFEREE_TOKEN_KEYS"}  # an ephemeral key
        if os.environ.get("REFEREE_SERVER_PYTHONPATH"):  # measure another build of the server (before/after)
            env["PYTHONPATH"] = os.environ["REFEREE_SERVER_PYTHONPATH"]
        self.log = open(log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                     preexec_fn=_pinned(cpus))
        self.procs: list[psutil.Process] = []

    def wait_ready(self) -> None:
        """Every worker listens on the port and health answers SERVING. Raises RuntimeError."""
        deadline = time.monotonic() + READY_TIMEOUT_S
        top = psutil.Process(self.proc.pid)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode} (see {self.log.name})")
            workers = [top] if self.workers == 1 else top.children()
            if len(workers) == self.workers and all(_listening(p, self.port) for p in workers):
                self.procs = [top] + ([] if self.workers == 1 else workers)
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"the server was not listening after {READY_TIMEOUT_S:.0f} s (see {self.log.name})")
        with grpc.insecure_channel(self.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                with contextlib.suppress(grpc.RpcError):
                    reply = health.Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=2)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                time.sleep(0.1)
        raise RuntimeError("the server's health never said SERVING")

    def cpu(self) -> float:
        return cpu_seconds(self.procs)

    def tables(self, only: str = "") -> list[str]:
        """Every game and preset the server lists (or the games of ``only``), named as the
        Locust users name their rounds: game/preset, game/default."""
        wanted = {g.strip() for g in only.split(",") if g.strip()}
        with grpc.insecure_channel(self.address) as channel:
            games = referee_service_pb2_grpc.RefereeServiceStub(channel).ListGames(
                referee_service_pb2.ListGamesRequest(), timeout=10).games
        return [f"{g.id}/{p or 'default'}" for g in games if not wanted or g.id in wanted
                for p in ["", *(p.name for p in g.presets)]]

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        stop(self.proc)
        for proc in self.procs[1:]:  # workers left behind by a killed supervisor
            with contextlib.suppress(psutil.Error):
                proc.kill()
        self.log.close()


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Signal a process we started, wait, kill it after a timeout."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sig)
    try:
        proc.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _rows(path: Path) -> list[dict]:
    with contextlib.suppress(FileNotFoundError), open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
    return []


def with_final_counts(stats: list[dict], final_path: Path) -> list[dict]:
    """Locust's ``_stats.csv`` rows with the request and failure counts the locustfile wrote as the
    run ended (``_final.json``; the CSV is written once a second and may miss the last events)."""
    try:
        final = json.loads(final_path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return stats
    counts = {(e["type"], e["name"]): (e["requests"], e["failures"]) for e in final}
    rows = []
    for row in stats:
        requests, failures = counts.pop((row["Type"], row["Name"]), (row["Request Count"], row["Failure Count"]))
        rows.append({**row, "Request Count": str(requests), "Failure Count": str(failures)})
    for (kind, name), (requests, failures) in sorted(counts.items()):  # names the CSV has not seen yet
        rows.append({"Type": kind, "Name": name, "Request Count": str(requests), "Failure Count": str(failures),
                     "Requests/s": "0", "50%": "0", "95%": "0", "99%": "0"})
    return rows


def _progress(history: Path, started: float, seconds: float) -> str | None:
    rows = [r for r in _rows(history) if r.get("Name") == "Aggregated"]
    if not rows:
        return None
    last = rows[-1]
    return (f"  {time.monotonic() - started:5.1f}/{seconds:.0f} s  users {last['User Count']:>4}  "
            f"requests {last['Total Request Count']:>8}  now {float(last['Requests/s']):8.1f}/s  "
            f"failures {last['Total Failure Count']}")


def warm_up(args, address: str, out: Path, client_cpus: set[int]) -> None:
    """``--warmup S``: the same users for S seconds before the measured window (another seed,
    reports in OUT/warmup), so the window sees the server as it runs for hours (its caches of
    shared messages and recent states filled), not its first seconds. Raises RuntimeError."""
    seconds = getattr(args, "warmup", 0) or 0
    if not seconds:
        return
    warm = argparse.Namespace(**{**vars(args), "seconds": seconds, "rounds_each": 0, "seed": args.seed + 1})
    (out / "warmup").mkdir(exist_ok=True)
    with open(out / "warmup" / "locust.log", "w", encoding="utf-8") as log:
        try:
            subprocess.run(locust_argv(warm, address, out / "warmup"), stdout=log, stderr=subprocess.STDOUT,
                           preexec_fn=_pinned(client_cpus), timeout=seconds + 60, check=False)
        except subprocess.TimeoutExpired:
            raise RuntimeError("the warm-up's Locust did not end in time") from None
    print(f"warmed up for {seconds} s (reports in {out / 'warmup'})", flush=True)


def locust_argv(args, address: str, out: Path) -> list[str]:
    argv = [sys.executable, "-m", "locust", "-f", str(args.locustfile or LOCUSTFILE), PROFILES[args.profile],
            "--headless", "--host", address, "-u", str(args.users), "-r", str(args.users),
            "-t", f"{args.seconds}s", "--stop-timeout", "0", "--only-summary", "--exit-code-on-error", "0",
            "--csv", str(out / "locust"), "--html", str(out / "report.html"),
            "--referee-rate", str(args.rate), "--referee-seed", str(args.seed),
            "--referee-tables", str(args.tables), "--referee-games", args.games,
            "--referee-rounds-each", str(getattr(args, "rounds_each", 0) or 0),
            "--referee-timeout-rate", str(getattr(args, "timeout_rate", -1.0)),
            "--referee-seats", getattr(args, "seats", "") or ""]
    if args.client_processes > 1:
        argv += ["--processes", str(args.client_processes)]
    return argv


def _f(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def summarize(stats: list[dict], seconds: float, server_cpu: float, client_cpu: float) -> tuple[list, dict]:
    """(table rows, the JSON summary) from Locust's ``_stats.csv`` rows."""
    calls = [r for r in stats if r["Type"] == "grpc"]
    games = [r for r in stats if r["Type"] == "game"]
    n_calls = sum(int(r["Request Count"]) for r in calls)
    n_games = sum(int(r["Request Count"]) - int(r["Failure Count"]) for r in games)
    failures = sum(int(r["Failure Count"]) for r in stats if r["Name"] != "Aggregated")
    # Locust's rates divide by the time from the first spawn to each name's last request
    calls_per_s = sum(_f(r["Requests/s"]) for r in calls)
    seconds = n_calls / calls_per_s if calls_per_s else seconds
    worst = max(calls, key=lambda r: _f(r["99%"]), default=None)
    table = [(r["Name"], int(r["Request Count"]), _f(r["Requests/s"]), _f(r["50%"]), _f(r["95%"]),
              _f(r["99%"]), int(r["Failure Count"])) for r in calls]
    judged = sum(int(r["Request Count"]) for r in calls if r["Name"] in ("Validate", "Play"))
    summary = {
        "calls": n_calls, "calls_per_s": round(calls_per_s, 1),
        "games": n_games, "games_per_s": round(n_games / seconds, 2),
        "failures": failures,
        "p99_ms": _f(worst["99%"]) if worst else 0.0, "p99_call": worst["Name"] if worst else "",
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_s_per_1k_calls": round(1000 * server_cpu / n_calls, 4) if n_calls else None,
        "client_cpu_s": round(client_cpu, 2),
        "unary_judged_per_s": round(judged / seconds, 1),
        "games_by_name": {r["Name"]: int(r["Request Count"]) - int(r["Failure Count"]) for r in games},
        # the owner's timeouts calls whose silent seat's default was checked applied (games profiles)
        "timeouts": sum(int(r["Request Count"]) for r in stats if r["Type"] == "timeouts"),
        "seats_dealt": {r["Name"]: int(r["Request Count"]) for r in stats if r["Type"] == "seats"},  # "game N": deals
    }
    return table, summary


def print_table(table: list, summary: dict, failures: list[dict]) -> None:
    print(f"{'call':<22}{'requests':>10}{'req/s':>10}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'failures':>10}")
    for name, n, rps, p50, p95, p99, failed in table:
        print(f"{name:<22}{n:>10}{rps:>10.1f}{p50:>9.0f}{p95:>9.0f}{p99:>9.0f}{failed:>10}")
    print(f"{'all calls':<22}{summary['calls']:>10}{summary['calls_per_s']:>10.1f}{'':>27}"
          f"{sum(r[6] for r in table):>10}")
    by_game = ", ".join(f"{k} {v}" for k, v in sorted(summary["games_by_name"].items()))
    print(f"{'completed games':<22}{summary['games']:>10}{summary['games_per_s']:>10.2f}   {by_game}")
    print(f"server CPU {summary['server_cpu_s']} s = {summary['server_cpu_s_per_1k_calls']} s per 1,000 calls; "
          f"Locust CPU {summary['client_cpu_s']} s")
    for row in sorted(failures, key=lambda r: -int(r.get("Occurrences") or 0))[:10]:
        error = row.get("Error") or ""
        found = re.search(r'details = "(.*?)"', error)
        error = found[1] if found else " ".join(error.split())[:200]
        print(f"FAILED {row.get('Occurrences')}x {row.get('Method')} {row.get('Name')}: {error}")


def uncovered(tables: list[str], games_by_name: dict, rounds_each: int) -> list[str]:
    """The tables (game/preset) with fewer than ``rounds_each`` rounds played out (abandoned
    rounds are named "game/preset abandoned" and do not count)."""
    return [t for t in tables if games_by_name.get(t, 0) < rounds_each] if rounds_each else []


def run(args) -> int:
    """The ``referee load`` command (args from its parser in referee.service.cli)."""
    rounds_each = getattr(args, "rounds_each", 0) or 0
    try:
        server_cpus, client_cpus = (cpu_list(getattr(args, name, "") or "") for name in ("server_cpus", "client_cpus"))
    except ValueError:
        print("referee load: --server-cpus and --client-cpus are CPU numbers, e.g. 0 or 0,1", file=sys.stderr)
        return 2
    if (server_cpus | client_cpus) - os.sched_getaffinity(0):
        print(f"referee load: no CPU {sorted((server_cpus | client_cpus) - os.sched_getaffinity(0))} here "
              f"(this process may run on {sorted(os.sched_getaffinity(0))})", file=sys.stderr)
        return 2
    try:
        seat_counts(getattr(args, "seats", "") or "")
    except ValueError:
        print("referee load: --seats is GAME=N[,GAME=N...], e.g. chuanpai=7", file=sys.stderr)
        return 2
    if rounds_each and (args.profile == "noop" or args.client_processes > 1):
        print("referee load: --rounds-each needs a profile that plays games and one Locust process",
              file=sys.stderr)
        return 2
    out = Path(args.out or HERE / "out" / f"{args.profile}-w{args.workers}-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("locust_*.csv"), out / "locust_final.json"]:
        old.unlink(missing_ok=True)
    print(f"referee load: profile {args.profile}, {args.workers} worker(s), {args.users} users, "
          f"{args.seconds} s{f', {args.rate:g} calls/s' if args.rate else ''}; reports in {out}", flush=True)
    try:
        with Server(args.workers, args.threads, out / "server.log", getattr(args, "server_script", None),
                    max_concurrent(args.users), cpus=server_cpus) as server:
            server.wait_ready()
            placed = sorted(set().union(*(p.cpu_affinity() for p in server.procs)))  # where it may run, as read
            print(f"server {server.address}, pids {[p.pid for p in server.procs]}, CPUs {placed}", flush=True)
            tables = server.tables(args.games) if rounds_each else []
            warm_up(args, server.address, out, client_cpus)
            with open(out / "locust.log", "w", encoding="utf-8") as log:
                cpu0, start = server.cpu(), time.monotonic()
                reaped0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                locust = subprocess.Popen(locust_argv(args, server.address, out), stdout=log,
                                          stderr=subprocess.STDOUT, preexec_fn=_pinned(client_cpus))
                try:
                    deadline = start + args.seconds + 60
                    while True:
                        with contextlib.suppress(subprocess.TimeoutExpired):
                            locust.wait(PROGRESS_EVERY_S)
                            break
                        if time.monotonic() > deadline:
                            raise RuntimeError("Locust did not end in time")
                        line = _progress(out / "locust_stats_history.csv", start, args.seconds)
                        if line:
                            print(line, flush=True)
                finally:
                    stop(locust)
                    elapsed = time.monotonic() - start
                # Locust (and its forks) are reaped now, the server not yet: their CPU is the difference
                reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
                client_cpu = reaped.ru_utime + reaped.ru_stime - reaped0.ru_utime - reaped0.ru_stime
                server_cpu = server.cpu() - cpu0
    except RuntimeError as error:
        print(f"referee load: {error}", file=sys.stderr)
        return 2
    stats = with_final_counts(_rows(out / "locust_stats.csv"), out / "locust_final.json")
    if not stats:
        print(f"referee load: Locust wrote no statistics (see {out / 'locust.log'})", file=sys.stderr)
        return 2
    table, summary = summarize(stats, args.seconds, server_cpu, client_cpu)
    print_table(table, summary, _rows(out / "locust_failures.csv"))
    summary = {"profile": args.profile, "workers": args.workers, "users": args.users, "seconds": args.seconds,
               "rate": args.rate, **summary, "server_cpus": placed, "warmup_s": getattr(args, "warmup", 0) or 0,
               "out": str(out)}
    if rounds_each:
        summary["rounds_each"] = rounds_each
        summary["elapsed_s"] = round(elapsed, 1)
        summary["uncovered"] = uncovered(tables, summary["games_by_name"], rounds_each)
        if summary["uncovered"]:
            print(f"not played out {rounds_each}x: {', '.join(summary['uncovered'])}")
    print(json.dumps(summary))
    return exit_code(summary, args.max_p99_ms)


def max_concurrent(users: int) -> int:
    """The server's limit of calls in progress per process: the default (64), or above what the
    users can have at once (one call each, and the runner's own), so a run measures the calls
    the server takes, not the ones it sheds."""
    return max(64, users + 16)


def exit_code(summary: dict, max_p99_ms: float) -> int:
    """1 when a call or game failed, nothing was called, a table stayed uncovered (``--rounds-each``)
    or the worst p99 passes ``max_p99_ms`` (> 0)."""
    too_slow = bool(max_p99_ms) and summary["p99_ms"] > max_p99_ms
    return 1 if summary["failures"] or too_slow or not summary["calls"] or summary.get("uncovered") else 0
