"""The same calls over the two transports of one server: gRPC (grpcio) and Connect over HTTP/1.1
(hypercorn, the HTTP port), server CPU per call at the same call rate (issue 26: "the
Connect/ASGI transport against grpcio for the same calls").

Starts ``referee serve --port P --http-port H`` (one process, both ports), deals a Dou Dizhu
table, and sends the same requests over each transport in turn, alternating, ``--rounds`` times:
Ping (nothing: the transport alone) and a seat's Validate of a legal action (its credential in
the ``authorization`` header; the token is in the state cache after the first call, as a
frontend's repeated checks are). ``--threads`` client threads, each with its own connection (a
gRPC channel, or an http.client keep-alive connection sending ``application/proto``), pace the
calls to ``--rate`` calls/s together. The server process's CPU (``/proc``, user + system) over
each window, divided by the calls answered in it:

    .venv/bin/python loadtest/transport_cost.py [--seconds 8] [--rate 600] [--rounds 3]
"""
from __future__ import annotations

import argparse
import http.client
import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

from referee.service.credentials import bearer
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_servers import _cpu, _free_port  # noqa: E402  (a free port; a process's CPU seconds)

SERVICE = "referee.v1.RefereeService"


def _wait(port: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port}")


def requests(grpc_port: int) -> dict[str, tuple[bytes, tuple]]:
    """method -> (serialized request, metadata) for Ping and a seat's Validate of a legal action."""
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        stub = pb_grpc.RefereeServiceStub(channel)
        deal = stub.Deal(pb.DealRequest(game="doudizhu"))
        seat = deal.to_act[0]
        metadata = (bearer(deal.seat_credentials[seat]),)
        legal = stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=seat), metadata=metadata)
        validate = pb.ValidateRequest(state=deal.state, action=legal.actions[0].action, expected_seq=deal.seq)
        assert stub.Validate(validate, metadata=metadata).legal
    return {"Ping": (pb.PingRequest().SerializeToString(), ()),
            "Validate": (validate.SerializeToString(), metadata)}


def _grpc_caller(port: int, method: str, metadata: tuple):
    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
    call = channel.unary_unary(f"/{SERVICE}/{method}", request_serializer=None, response_deserializer=None)

    def send(body: bytes) -> None:
        call(body, metadata=metadata, timeout=10)
    return send, channel.close


def _connect_caller(port: int, method: str, metadata: tuple):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"content-type": "application/proto", **dict(metadata)}

    def send(body: bytes) -> None:
        conn.request("POST", f"/{SERVICE}/{method}", body=body, headers=headers)
        reply = conn.getresponse()
        reply.read()
        if reply.status != 200:
            raise SystemExit(f"Connect {method}: HTTP {reply.status}")
    return send, conn.close


def drive(make_caller, port: int, method: str, body: bytes, metadata: tuple, seconds: float, rate: float,
          threads: int, server_pid: int) -> tuple[int, float]:
    """(calls answered, server CPU seconds) of ``seconds`` at ``rate`` calls/s."""
    counts = [0] * threads
    interval = threads / rate
    callers = [make_caller(port, method, metadata) for _ in range(threads)]
    for send, _ in callers:  # connect before the window
        send(body)
    start = time.monotonic() + 0.05
    end = start + seconds

    def worker(i: int) -> None:
        send = callers[i][0]
        next_at = start + i * interval / threads
        while True:
            now = time.monotonic()
            if now >= end:
                return
            if next_at > now:
                time.sleep(next_at - now)
            send(body)
            counts[i] += 1
            next_at += interval

    cpu = _cpu(server_pid)
    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    used = _cpu(server_pid) - cpu
    for _, close in callers:
        close()
    return sum(counts), used


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=8)
    p.add_argument("--rate", type=float, default=600, help="calls/s of all client threads together")
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    grpc_port, http_port = _free_port(), _free_port()
    referee = shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"
    server = subprocess.Popen([referee, "serve", "--port", str(grpc_port), "--http-port", str(http_port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results: dict[str, list] = {}
    try:
        _wait(grpc_port)
        _wait(http_port)
        bodies = requests(grpc_port)
        transports = {"gRPC": (_grpc_caller, grpc_port), "Connect": (_connect_caller, http_port)}
        for r in range(args.rounds):
            for method, (body, metadata) in bodies.items():
                for name, (make, port) in transports.items():
                    calls, cpu = drive(make, port, method, body, metadata, args.seconds, args.rate, args.threads,
                                       server.pid)
                    us = 1e6 * cpu / calls
                    results.setdefault(f"{method} over {name}", []).append(
                        {"calls_per_s": round(calls / args.seconds, 1), "server_cpu_us_per_call": round(us, 1)})
                    print(f"round {r + 1}: {method:<9} over {name:<8} {calls / args.seconds:7.1f} calls/s, "
                          f"server CPU {us:6.1f} µs a call", flush=True)
    finally:
        server.terminate()
        server.wait(10)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
