"""``referee bench``: throughput numbers.

The RPC half: Validate calls per second against Ping calls per second on the same in-process
server and client at the same concurrency; the ratio says what the referee costs on top of
gRPC itself.
"""
from __future__ import annotations

import json
import threading
import time

import grpc

from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

from .server import Config, RefereeServer
from .token import KeyRing


def _rate(call, request, seconds: float, concurrency: int) -> float:
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
    begin = time.perf_counter()
    deadline[0] = begin + seconds
    start_line.wait()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - begin)


def rpc_ratio(seconds: float = 2.0, concurrency: int = 8, game: str = "doudizhu") -> dict:
    """Validate RPCs/s and Ping RPCs/s on one in-process server and channel; their ratio."""
    config = Config(port=0, threads=max(16, concurrency))
    with RefereeServer(config, KeyRing.generate()) as server, grpc.insecure_channel(server.address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        deal = stub.Deal(pb.DealRequest(game=game, seed=b"bench"))
        seat = deal.to_act[0]
        legal = stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=seat))
        validate = pb.ValidateRequest(state=deal.state, action=legal.actions[-1].action)
        _rate(stub.Ping, pb.PingRequest(), min(0.5, seconds), concurrency)  # warm up
        ping_rps = _rate(stub.Ping, pb.PingRequest(), seconds, concurrency)
        validate_rps = _rate(stub.Validate, validate, seconds, concurrency)
    return {"concurrency": concurrency, "seconds": seconds, "ping_rps": round(ping_rps),
            "validate_rps": round(validate_rps), "validate_to_ping": round(validate_rps / ping_rps, 3)}


def bench(args) -> int:
    """The ``referee bench`` command (the core half is to come); prints one JSON object."""
    result = {"rpc": rpc_ratio(args.seconds, args.concurrency)}
    print(json.dumps(result))
    return 0
