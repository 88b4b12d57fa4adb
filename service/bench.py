"""``referee bench``: throughput numbers, each a ratio against a baseline measured in the same run.

The games' own lines come from their service modules (``service/games/<game>.py`` ``bench``):
Dou Dizhu legal-move generation, compiled against interpreted (target: at least 20x); MCR fan
calculation against PyMahjongGB (target: at least as fast). Then token sealing and opening
against sha256 of the same state (target: under 20 µs each), and the RPC half: Validate calls
per second against Ping calls per second on the same server and client at the same
concurrency (target: at least 0.8, the rules cost less than the transport).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import time

import grpc

from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

from referee.core import clock as clocks
from referee.core.registry import GAMES, get_game

from .server import Config, RefereeServer
from .credentials import Credentials, bearer
from .token import KeyRing, Sealer


def _window(call, request, seconds: float, concurrency: int, cpu=time.process_time) -> tuple[int, float, float]:
    """Calls made by ``concurrency`` threads in ``seconds``: (calls, wall s, CPU s by ``cpu()``)."""
    counts = [0] * concurrency
    start_line = threading.Barrier(concurrency + 1)
    deadline = [0.0]

    def worker(i: int) -> None:
        start_line.wait()
        n = 0
        while time.perf_counter() < deadline[0]:
            call(request)
            n += 1
        counts[i] = n

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
    for t in threads:
        t.start()
    begin, cpu_begin = time.perf_counter(), cpu()
    deadline[0] = begin + seconds
    start_line.wait()
    for t in threads:
        t.join()
    return sum(counts), time.perf_counter() - begin, cpu() - cpu_begin


def _interleaved(calls: dict, seconds: float, concurrency: int, rounds: int = 8,
                 cpu=time.process_time) -> dict:
    """Alternate short windows of each call so machine noise hits both alike; per call the
    rate by wall clock and by process CPU (client + server: the machine is shared and noisy)."""
    totals = {name: [0, 0.0, 0.0] for name in calls}
    for _ in range(rounds):
        for name, (call, request) in calls.items():
            n, wall, used = _window(call, request, seconds / rounds, concurrency, cpu)
            totals[name][0] += n
            totals[name][1] += wall
            totals[name][2] += used
    return {name: (n / wall, n / cpu) for name, (n, wall, cpu) in totals.items()}


def _validate_request(stub, game: str, steps: int = 1) -> tuple[pb.ValidateRequest, tuple]:
    """An action to validate, with the metadata of the seat's credential (a frontend checking
    candidate moves): deal, take the last legal action ``steps`` times as the owner (Dou Dizhu:
    bid 3, so the landlord is to lead), then the middle legal action of the seat to act."""
    deal = stub.Deal(pb.DealRequest(game=game, seed=b"bench"))
    owner, state = (bearer(deal.owner_credential),), deal
    for _ in range(steps):
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state.state, seat=state.to_act[0]), metadata=owner)
        state = stub.Play(pb.PlayRequest(state=state.state, action=legal.actions[-1].action), metadata=owner)
    seat = state.to_act[0]
    legal = stub.LegalActions(pb.LegalActionsRequest(state=state.state, seat=seat), metadata=owner)
    action = legal.actions[len(legal.actions) // 2].action
    return pb.ValidateRequest(state=state.state, action=action), (bearer(deal.seat_credentials[seat]),)


@contextlib.contextmanager
def _server_process():
    """``referee serve`` in its own process on a free 127.0.0.1 port: (address, CPU-seconds fn)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "referee.service.cli", "serve", "--port", str(port),
                             "--drain", "0", "--grace", "0", "--log-level", "WARNING", "--allow-caller-seed"])
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:  # utime + stime of the server process, from /proc
        fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    try:
        yield f"127.0.0.1:{port}", cpu
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _measure(stub, seconds: float, concurrency: int, game: str, cpu) -> dict:
    validate, seat = _validate_request(stub, game)
    _window(stub.Ping, pb.PingRequest(), min(0.5, seconds), concurrency)  # warm up
    rates = _interleaved({"ping": (stub.Ping, pb.PingRequest()),
                          "validate": (functools.partial(stub.Validate, metadata=seat), validate)},
                         seconds * 2, concurrency, cpu=cpu)
    (ping_wall, ping_cpu), (validate_wall, validate_cpu) = rates["ping"], rates["validate"]
    return {"concurrency": concurrency, "seconds": seconds * 2,
            "ping_rps": round(ping_wall), "validate_rps": round(validate_wall),
            "ping_per_cpu_s": round(ping_cpu), "validate_per_cpu_s": round(validate_cpu),
            "validate_to_ping_wall": round(validate_wall / ping_wall, 3),
            "validate_to_ping": round(validate_cpu / ping_cpu, 3)}


def rpc_ratio(seconds: float = 2.0, concurrency: int = 8, game: str = "") -> dict:
    """Validate RPCs against Ping RPCs, interleaved, same client and server: per CPU-second of
    the server in its own process (what a pod pays), and with client and server in one process."""
    game = game or next(iter(GAMES))
    with _server_process() as (address, server_cpu), grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        separate = _measure(pb_grpc.RefereeServiceStub(channel), seconds, concurrency, game, server_cpu)
    config = Config(port=0, threads=max(16, concurrency), allow_caller_seed=True)
    with RefereeServer(config, KeyRing.generate()) as server, grpc.insecure_channel(server.address) as channel:
        together = _measure(pb_grpc.RefereeServiceStub(channel), seconds, concurrency, game, time.process_time)
    return {"game": game, "server_process": separate, "one_process": together}


def per_call(fn, cases, min_seconds: float) -> float:
    """Seconds per call of ``fn(*case)`` over ``cases``, repeated for at least ``min_seconds``."""
    calls, begin = 0, time.perf_counter()
    while True:
        for case in cases:
            fn(*case)
        calls += len(cases)
        elapsed = time.perf_counter() - begin
        if elapsed >= min_seconds:
            return elapsed / calls


def token_costs(seconds: float = 0.5, game_id: str = "") -> dict:
    """Sealing and opening a state token of a fresh deal, µs each (target: under 20), against
    sha256 of the same packed state (the state digest every Play also computes)."""
    game = get_game(game_id or next(iter(GAMES)))
    packed = game.pack(game.deal(game.make_options(), b"bench"))
    sealer = Sealer(KeyRing.generate())
    size = clocks.RECORD_BYTES + game.state_bytes  # padded as the server pads it, with the clock record
    payload = clocks.pack(game, clocks.Clock(deadlines=(0,) * 3)) + packed
    token = sealer.seal(game.id, 0, payload, size=size)
    digest = per_call(lambda: hashlib.sha256(packed).digest(), [()], seconds / 3)
    seal = per_call(lambda: sealer.seal(game.id, 0, payload, size=size), [()], seconds / 3)
    open_ = per_call(lambda: sealer.open(token, game.id), [()], seconds / 3)
    table = os.urandom(16)
    metadata = (bearer(Credentials(sealer.ring).make(table, 1)),)
    checks = {}
    for name, cache in (("credential_check_us", 0), ("credential_check_cached_us", 4096)):
        credentials = Credentials(sealer.ring, cache)  # 0: the MAC every time
        checks[name] = round(per_call(lambda: credentials.caller_of(table, metadata), [()], seconds / 6) * 1e6, 2)
    return {"game": game.id, **checks, "sha256_us": round(digest * 1e6, 2), "seal_us": round(seal * 1e6, 2), "open_us": round(open_ * 1e6, 2),
            "state_bytes": len(packed), "token_bytes": len(token)}


def bench(args) -> int:
    """The ``referee bench`` command: a table, then one JSON object as the last line."""
    from . import games

    rows, report = [], {}
    for module in games.modules().values():
        if hasattr(module, "bench"):
            game_rows, game_report = module.bench(args.seconds)
            rows += game_rows
            report.update(game_report)
    tokens = token_costs(args.seconds)
    rpc = rpc_ratio(args.seconds, args.concurrency, args.game)
    print(f"{'measure':<34}{'baseline':>14}{'ours':>14}{'ratio':>9}  target")
    for label, baseline, ours, unit, ratio, target in rows:
        base = f"{baseline:>11.2f} {unit}" if baseline is not None else f"{'':>14}"
        print(f"{label:<34}{base}{ours:>11.3f} {unit}" + (f"{ratio:>8.1f}x  {target}" if ratio is not None else ""))
    for name in ("seal", "open"):
        print(f"{'token ' + name + ' vs sha256 of the state':<34}{tokens['sha256_us']:>11.2f} us"
              f"{tokens[name + '_us']:>11.2f} us{tokens[name + '_us'] / tokens['sha256_us']:>8.1f}x  < 20 us")
    for name, label in (("credential_check_us", "credential check (MAC) vs sha256"),
                        ("credential_check_cached_us", "credential check (seen) vs sha256")):
        print(f"{label:<34}{tokens['sha256_us']:>11.2f} us{tokens[name]:>11.2f} us"
              f"{tokens[name] / tokens['sha256_us']:>8.1f}x  a few us (metadata -> role)")
    for label, r in (("server CPU-s", rpc["server_process"]), ("CPU-s, one process", rpc["one_process"])):
        print(f"{'Validate vs Ping, calls/' + label:<34}{r['ping_per_cpu_s']:>11} /s{r['validate_per_cpu_s']:>11} /s"
              f"{r['validate_to_ping']:>9.3f}  >= 0.8")
    r = rpc["server_process"]
    print(f"{'Validate vs Ping, calls/wall-s':<34}{r['ping_rps']:>11} /s{r['validate_rps']:>11} /s"
          f"{r['validate_to_ping_wall']:>9.3f}  (client-bound; noisy on a shared machine)")
    print(json.dumps({**report, "tokens": tokens, "rpc": rpc}))
    return 0
