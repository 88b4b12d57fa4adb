"""``referee bench``: throughput numbers, each a ratio against a baseline measured in the same run.

The core half: Dou Dizhu legal-move generation for 20-card free leads and for responses, the
compiled hot module against its interpreted twin (target: at least 20x); MCR fan calculation
per hand against PyMahjongGB's C++ calculator (target: at least as fast); token sealing and
opening against sha256 of the same state (target: under 20 µs each). The RPC half: Validate
calls per second against Ping calls per second on the same in-process server and client at the
same concurrency (target: at least 0.8, the rules cost less than the transport).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

import grpc

from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

from referee.core import cards, doudizhu, mcr, speedups

from .server import Config, RefereeServer
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


def _validate_request(stub, game: str) -> pb.ValidateRequest:
    """A play to validate in the play phase: the first bidder bids 3, the landlord is to lead."""
    state = stub.Deal(pb.DealRequest(game=game, seed=b"bench"))
    bid = stub.LegalActions(pb.LegalActionsRequest(state=state.state, seat=state.to_act[0]))
    state = stub.Play(pb.PlayRequest(state=state.state, action=bid.actions[-1].action))
    legal = stub.LegalActions(pb.LegalActionsRequest(state=state.state, seat=state.to_act[0]))
    return pb.ValidateRequest(state=state.state, action=legal.actions[len(legal.actions) // 2].action)


@contextlib.contextmanager
def _server_process():
    """``referee serve`` in its own process on a free 127.0.0.1 port: (address, CPU-seconds fn)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "referee.service.cli", "serve", "--port", str(port),
                             "--drain", "0", "--grace", "0", "--log-level", "WARNING"])
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
    validate = _validate_request(stub, game)
    _window(stub.Ping, pb.PingRequest(), min(0.5, seconds), concurrency)  # warm up
    rates = _interleaved({"ping": (stub.Ping, pb.PingRequest()), "validate": (stub.Validate, validate)},
                         seconds * 2, concurrency, cpu=cpu)
    (ping_wall, ping_cpu), (validate_wall, validate_cpu) = rates["ping"], rates["validate"]
    return {"concurrency": concurrency, "seconds": seconds * 2,
            "ping_rps": round(ping_wall), "validate_rps": round(validate_wall),
            "ping_per_cpu_s": round(ping_cpu), "validate_per_cpu_s": round(validate_cpu),
            "validate_to_ping_wall": round(validate_wall / ping_wall, 3),
            "validate_to_ping": round(validate_cpu / ping_cpu, 3)}


def rpc_ratio(seconds: float = 2.0, concurrency: int = 8, game: str = "doudizhu") -> dict:
    """Validate RPCs against Ping RPCs, interleaved, same client and server: per CPU-second of
    the server in its own process (what a pod pays), and with client and server in one process."""
    with _server_process() as (address, server_cpu), grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        separate = _measure(pb_grpc.RefereeStub(channel), seconds, concurrency, game, server_cpu)
    config = Config(port=0, threads=max(16, concurrency))
    with RefereeServer(config, KeyRing.generate()) as server, grpc.insecure_channel(server.address) as channel:
        together = _measure(pb_grpc.RefereeStub(channel), seconds, concurrency, game, time.process_time)
    return {"server_process": separate, "one_process": together}


def _per_call(fn, cases, min_seconds: float) -> float:
    """Seconds per call of ``fn(*case)`` over ``cases``, repeated for at least ``min_seconds``."""
    calls, begin = 0, time.perf_counter()
    while True:
        for case in cases:
            fn(*case)
        calls += len(cases)
        elapsed = time.perf_counter() - begin
        if elapsed >= min_seconds:
            return elapsed / calls


def core_ratio(seconds: float = 1.0, hands: int = 200, seed: int = 7) -> dict:
    """Legal-move generation per call, compiled vs interpreted, on random 20-card hands."""
    compiled, pure = speedups.load("ddz_hot"), speedups.interpreted("ddz_hot")
    rnd = random.Random(seed)
    leads, responses = [], []
    for _ in range(hands):
        hand = doudizhu.counts_of_mask(cards.to_mask(rnd.sample(range(cards.CARDS_PER_DECK), 20)))
        leads.append((hand, 0, False))
        # a table to answer: a random legal lead of a random other 17-card hand
        other = doudizhu.counts_of_mask(cards.to_mask(rnd.sample(range(cards.CARDS_PER_DECK), 17)))
        responses.append((hand, rnd.choice(pure.legal_plays(other, 0, False)), False))
    result = {"compiled_loaded": compiled is not pure}
    for name, cases in (("lead", leads), ("response", responses)):
        t_pure = _per_call(pure.legal_plays, cases, seconds / 4)
        t_compiled = _per_call(compiled.legal_plays, cases, seconds / 4)
        result[name] = {"interpreted_us": round(t_pure * 1e6, 2), "compiled_us": round(t_compiled * 1e6, 3),
                        "ratio": round(t_pure / t_compiled, 1)}
    return result


def fan_ratio() -> dict:
    """MCR fan calculations per hand: ours (request dict -> answer) vs PyMahjongGB's calculator."""
    ours, theirs = mcr.bench_fans(mcr.fan_benchmark_cases())
    result = {"compiled_loaded": speedups.loaded().get("mcr_hot", False), "ours_us": round(ours * 1e6, 2)}
    if theirs is not None:
        result.update(pymahjonggb_us=round(theirs * 1e6, 2), speedup=round(theirs / ours, 2))
    return result


def token_costs(seconds: float = 0.5) -> dict:
    """Sealing and opening a Dou Dizhu state token, µs each (target: under 20), against
    sha256 of the same packed state (the state digest every Play also computes)."""
    game = doudizhu.DOUDIZHU
    packed = game.pack(game.deal(game.make_options(), b"bench"))
    sealer = Sealer(KeyRing.generate())
    token = sealer.seal(game.id, 0, packed)
    digest = _per_call(lambda: hashlib.sha256(packed).digest(), [()], seconds / 3)
    seal = _per_call(lambda: sealer.seal(game.id, 0, packed), [()], seconds / 3)
    open_ = _per_call(lambda: sealer.open(token, game.id), [()], seconds / 3)
    return {"sha256_us": round(digest * 1e6, 2), "seal_us": round(seal * 1e6, 2), "open_us": round(open_ * 1e6, 2),
            "state_bytes": len(packed), "token_bytes": len(token)}


def bench(args) -> int:
    """The ``referee bench`` command: a table, then one JSON object as the last line."""
    core = core_ratio(args.seconds)
    fans = fan_ratio()
    tokens = token_costs(args.seconds)
    rpc = rpc_ratio(args.seconds, args.concurrency)
    print(f"{'measure':<34}{'baseline':>14}{'ours':>14}{'ratio':>9}  target")
    for name in ("lead", "response"):
        r = core[name]
        print(f"{'ddz legal moves, 20-card ' + name:<34}{r['interpreted_us']:>11.2f} us"
              f"{r['compiled_us']:>11.3f} us{r['ratio']:>8.1f}x  >= 20x (interpreted / compiled)")
    if "pymahjonggb_us" in fans:
        print(f"{'mcr fans per hand vs PyMahjongGB':<34}{fans['pymahjonggb_us']:>11.2f} us{fans['ours_us']:>11.2f} us"
              f"{fans['speedup']:>8.2f}x  >= 1x (PyMahjongGB / ours)")
    else:
        print(f"{'mcr fans per hand':<34}{'(PyMahjongGB not installed)':>28}{fans['ours_us']:>8.2f} us")
    for name in ("seal", "open"):
        print(f"{'token ' + name + ' vs sha256 of the state':<34}{tokens['sha256_us']:>11.2f} us"
              f"{tokens[name + '_us']:>11.2f} us{tokens[name + '_us'] / tokens['sha256_us']:>8.1f}x  < 20 us")
    for label, r in (("server CPU-s", rpc["server_process"]), ("CPU-s, one process", rpc["one_process"])):
        print(f"{'Validate vs Ping, calls/' + label:<34}{r['ping_per_cpu_s']:>11} /s{r['validate_per_cpu_s']:>11} /s"
              f"{r['validate_to_ping']:>9.3f}  >= 0.8")
    r = rpc["server_process"]
    print(f"{'Validate vs Ping, calls/wall-s':<34}{r['ping_rps']:>11} /s{r['validate_rps']:>11} /s"
          f"{r['validate_to_ping_wall']:>9.3f}  (client-bound; noisy on a shared machine)")
    print(json.dumps({"core": core, "fans": fans, "tokens": tokens, "rpc": rpc}))
    return 0
