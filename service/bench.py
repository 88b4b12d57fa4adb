"""``referee bench``: throughput numbers, each a ratio against a baseline measured in the same run.

The core half: Dou Dizhu legal-move generation for 20-card free leads and for responses, the
compiled hot module against its interpreted twin (target: at least 20x); MCR fan calculation
per hand against PyMahjongGB's C++ calculator (target: at least as fast). The RPC half: Validate
calls per second against Ping calls per second on the same in-process server and client at the
same concurrency (target: at least 0.8, the rules cost less than the transport).
"""
from __future__ import annotations

import json
import random
import threading
import time

import grpc

from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

from referee.core import cards, doudizhu, mcr, speedups

from .server import Config, RefereeServer
from .token import KeyRing


def _window(call, request, seconds: float, concurrency: int) -> tuple[int, float, float]:
    """Calls made by ``concurrency`` threads in ``seconds``: (calls, wall s, process CPU s)."""
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
    begin, cpu = time.perf_counter(), time.process_time()
    deadline[0] = begin + seconds
    start_line.wait()
    for t in threads:
        t.join()
    return sum(counts), time.perf_counter() - begin, time.process_time() - cpu


def _interleaved(calls: dict, seconds: float, concurrency: int, rounds: int = 8) -> dict:
    """Alternate short windows of each call so machine noise hits both alike; per call the
    rate by wall clock and by process CPU (client + server: the machine is shared and noisy)."""
    totals = {name: [0, 0.0, 0.0] for name in calls}
    for _ in range(rounds):
        for name, (call, request) in calls.items():
            n, wall, cpu = _window(call, request, seconds / rounds, concurrency)
            totals[name][0] += n
            totals[name][1] += wall
            totals[name][2] += cpu
    return {name: (n / wall, n / cpu) for name, (n, wall, cpu) in totals.items()}


def rpc_ratio(seconds: float = 2.0, concurrency: int = 8, game: str = "doudizhu") -> dict:
    """Validate RPCs/s and Ping RPCs/s on one in-process server and channel; their ratio."""
    config = Config(port=0, threads=max(16, concurrency))
    with RefereeServer(config, KeyRing.generate()) as server, grpc.insecure_channel(server.address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        # a position in the play phase: the first bidder bids 3, the landlord is to lead
        state = stub.Deal(pb.DealRequest(game=game, seed=b"bench"))
        bid = stub.LegalActions(pb.LegalActionsRequest(state=state.state, seat=state.to_act[0]))
        state = stub.Play(pb.PlayRequest(state=state.state, action=bid.actions[-1].action))
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state.state, seat=state.to_act[0]))
        validate = pb.ValidateRequest(state=state.state, action=legal.actions[len(legal.actions) // 2].action)
        _window(stub.Ping, pb.PingRequest(), min(0.5, seconds), concurrency)  # warm up
        rates = _interleaved({"ping": (stub.Ping, pb.PingRequest()), "validate": (stub.Validate, validate)},
                             seconds * 2, concurrency)
    (ping_wall, ping_cpu), (validate_wall, validate_cpu) = rates["ping"], rates["validate"]
    return {"concurrency": concurrency, "seconds": seconds * 2,
            "ping_rps": round(ping_wall), "validate_rps": round(validate_wall),
            "ping_per_cpu_s": round(ping_cpu), "validate_per_cpu_s": round(validate_cpu),
            "validate_to_ping_wall": round(validate_wall / ping_wall, 3),
            "validate_to_ping": round(validate_cpu / ping_cpu, 3)}


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


def bench(args) -> int:
    """The ``referee bench`` command: a table, then one JSON object as the last line."""
    core = core_ratio(args.seconds)
    fans = fan_ratio()
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
    print(f"{'Validate vs Ping, calls/CPU-s':<34}{rpc['ping_per_cpu_s']:>11} /s{rpc['validate_per_cpu_s']:>11} /s"
          f"{rpc['validate_to_ping']:>9.3f}  >= 0.8 (client and server in one process)")
    print(f"{'Validate vs Ping, calls/wall-s':<34}{rpc['ping_rps']:>11} /s{rpc['validate_rps']:>11} /s"
          f"{rpc['validate_to_ping_wall']:>9.3f}  (noisy on a shared machine)")
    print(json.dumps({"core": core, "fans": fans, "rpc": rpc}))
    return 0
