"""What a state token's size costs gRPC: server CPU per call of an echo of N bytes (issue 26's
"smaller tokens (a compact codec, compression of the padded state)", measured before built).

A token crosses the transport twice in a Play (in the request, out in the answer) and once in a
Validate or LegalActions. This serves one unary method on grpcio's blocking server, as `referee
serve` builds it (a thread pool of ``--threads``), whose handler answers the request's bytes
as they came (no parsing: the transport alone), and calls it with ``--sizes`` bytes in turn,
alternating, ``--rounds`` times, at ``--rate`` calls/s (``transport_cost.drive``'s paced client
threads). The server process's CPU over each window, divided by the calls answered:

    .venv/bin/python loadtest/payload_cost.py [--sizes 0,1000,3000,6000] [--rate 1200] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from concurrent import futures
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_servers import _free_port  # noqa: E402
from transport_cost import _wait, drive  # noqa: E402

METHOD = "/referee.bench.Echo/Echo"


def serve(port: int, threads: int) -> None:
    """The echo server (run in its own process by main)."""
    def echo(request: bytes, context) -> bytes:
        return request

    handler = grpc.method_handlers_generic_handler("referee.bench.Echo", {
        "Echo": grpc.unary_unary_rpc_method_handler(echo)})  # no (de)serializers: bytes in, bytes out
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads), handlers=(handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    server.wait_for_termination()


def _echo_caller(port: int, method: str, metadata: tuple):
    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
    call = channel.unary_unary(method)

    def send(body: bytes) -> None:
        if len(call(body, metadata=metadata, timeout=10)) != len(body):
            raise SystemExit("the echo answered another length")
    return send, channel.close


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="0,1000,3000,6000", help="bytes each way, comma-separated")
    p.add_argument("--seconds", type=float, default=8)
    p.add_argument("--rate", type=float, default=1200, help="calls/s of all client threads together")
    p.add_argument("--client-threads", type=int, default=8)
    p.add_argument("--threads", type=int, default=4, help="the server's handler threads (referee serve's default)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server process: its port
    args = p.parse_args(argv)
    if args.serve:
        serve(args.serve, args.threads)
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    port = _free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--threads", str(args.threads)])
    results: dict[int, list[float]] = {size: [] for size in sizes}
    try:
        _wait(port)
        for r in range(args.rounds):
            for size in sizes:
                calls, cpu = drive(_echo_caller, port, METHOD, bytes(size), (), args.seconds, args.rate,
                                   args.client_threads, server.pid)
                results[size].append(round(1e6 * cpu / calls, 1))
                print(f"round {r + 1}: {size:6d} bytes each way  {calls / args.seconds:7.1f} calls/s, "
                      f"server CPU {results[size][-1]:6.1f} µs a call", flush=True)
    finally:
        server.terminate()
        server.wait(10)
    base = sizes[0]
    extra = {size: round(statistics.median(a - b for a, b in zip(results[size], results[base])), 1) for size in sizes}
    for size in sizes[1:]:
        print(f"{size} bytes each way: {extra[size]:+.1f} µs a call against {base} bytes "
              "(median of the rounds' differences)")
    print(json.dumps({"us_per_call": results, "extra_us_against_first": extra}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
