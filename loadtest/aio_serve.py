"""The same RefereeService on grpc.aio, each handler run on the event loop (no thread pool):
what gRPC's own work per call is without the blocking server's Python machinery (issue 26).

A measurement server for ``referee load --server-script`` (one worker; it reads ``--host`` and
``--port`` and ignores the rest of ``referee serve``'s arguments): RefereeService and the games'
own services registered by ``referee serve``'s own ``add_service`` (the same request parsers and
limit, the status mapping awaited), and grpc.health.v1. No reflection, metrics, HTTP port, drain
or key file (an ephemeral key). The handlers are the servicer's own, called inline: a long call (a
large JudgeBatch) holds every other call of the worker until it ends. ``referee serve`` ported
whole to grpc.aio (branch ``aio-serve-experiment``) cost more CPU a call than the thread pool at
the same call rate (loadtest/RESULTS.md), so it stays on the thread pool. Compare, in one run of
each (``--rate 600``: both servers at the same call rate):

    referee load --workers 1 --seconds 15 --rate 600 --profile games        # blocking server, 4 threads
    referee load --workers 1 --seconds 15 --rate 600 --profile games --server-script loadtest/aio_serve.py
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from referee.core.errors import RefereeError
from referee.service import errors, games
from referee.service.server import SERVICE, Config, add_service
from referee.service.servicer import RefereeServicer
from referee.service.token import KeyRing, Sealer

MAX_BYTES = Config().max_receive_bytes


def inline(name: str, method):
    """``errors.mapped`` for the event loop: a core error aborts with its status, anything else
    with INTERNAL (awaited)."""
    async def handler(request, context):
        try:
            return method(errors.admitted(name, request), context)
        except RefereeError as error:
            status = errors.to_status(error)
            await context.abort(status.code, status.details, status.trailing_metadata)
        except Exception:
            logging.getLogger(__name__).exception("internal error in %s", name)
            await context.abort(grpc.StatusCode.INTERNAL, "internal error")
    return handler


async def serve(host: str, port: int) -> None:
    server = grpc.aio.server(maximum_concurrent_rpcs=64)
    add_service(server, SERVICE, RefereeServicer(Sealer(KeyRing.generate())), MAX_BYTES, mapped=inline)
    for service, servicer in games.services():
        add_service(server, service, servicer, MAX_BYTES, mapped=inline)
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    server.add_insecure_port(f"{host}:{port}")
    await server.start()
    for name in ("", SERVICE.full_name):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    await server.wait_for_termination()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50051)
    args, _ = parser.parse_known_args(argv)
    asyncio.run(serve(args.host, args.port))


if __name__ == "__main__":
    main(sys.argv[1:])
