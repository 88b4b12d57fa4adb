"""The API on an HTTP port: the Connect protocol (JSON and binary, unary, HTTP/1.1 and HTTP/2)
and gRPC-Web, for browsers and curl, beside the gRPC port in the same process.

The protocol is connectrpc's (its ASGI application, generated from ``protos/`` by
``protoc-gen-connectrpc`` at build time, ``referee.v1.referee_service_connect``), served by
hypercorn in a thread of its own. Every call goes to the same servicer object as the gRPC port's:
one place converts (the servicer), one maps errors (errors.py: the Connect code has the gRPC
status's name and carries the same ``google.rpc.ErrorInfo`` detail). What a call may do is the
same too: the credential is the ``authorization: Bearer <base64url>`` header, requests over
``max_receive_bytes`` are refused with REQUEST_TOO_LARGE, a body that does not parse (or a JSON
field name the message does not have) with MALFORMED_REQUEST, calls are counted in the same
metrics. CORS (``--cors-origin``) is starlette's middleware; with no origin configured a browser
page from another origin cannot call.

Servicer calls run on a pool of handler threads of the server's size (``--threads``), as on
the gRPC port, so a slow call (a big replay, a batch) does not hold up the others; the event loop
only parses, encodes and waits. The same ``--max-concurrent`` applies (``Calls``): past that many
calls in progress or waiting for a thread, a call is refused at once with RESOURCE_EXHAUSTED and
gRPC's own message, instead of queueing without bound. Each port counts its own calls.
"""
from __future__ import annotations

import asyncio
import importlib
import logging
import re
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from google.protobuf import json_format

from . import errors, metrics

log = logging.getLogger(__name__)

# what a Connect or gRPC-Web browser client sends and must be able to read (connect-web's list)
CORS_ALLOW_HEADERS = ("authorization", "content-type", "connect-protocol-version", "connect-timeout-ms",
                      "connect-accept-encoding", "connect-content-encoding", "accept-encoding", "content-encoding",
                      "grpc-timeout", "x-grpc-web", "x-user-agent")
CORS_EXPOSE_HEADERS = ("grpc-status", "grpc-message", "grpc-status-details-bin", "content-encoding",
                       "connect-content-encoding")


# what grpcio's server answers past maximum_concurrent_rpcs (no ErrorInfo: no reason of ours)
OVERLOAD_MESSAGE = "Concurrent RPC limit exceeded!"


class Calls:
    """The HTTP port's servicer calls: run on ``threads`` handler threads; at most
    ``max_concurrent`` (0: no limit) in progress or waiting for a thread, past that refused at once
    with RESOURCE_EXHAUSTED, as grpcio's ``maximum_concurrent_rpcs`` does on the gRPC port."""

    def __init__(self, threads: int, max_concurrent: int):
        self.max_concurrent = max_concurrent
        self.active = 0  # admitted and not finished: running or waiting for a thread
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="referee-http")

    async def run(self, function, *args):
        """``function(*args)`` on a handler thread, awaited.

        Raises:
            ConnectError: RESOURCE_EXHAUSTED when ``max_concurrent`` calls are already admitted.
        """
        from connectrpc.code import Code
        from connectrpc.errors import ConnectError

        with self._lock:
            if self.max_concurrent and self.active >= self.max_concurrent:
                raise ConnectError(Code.RESOURCE_EXHAUSTED, OVERLOAD_MESSAGE)
            self.active += 1
        # released when the thread is done, not when the caller stops waiting (a client gone)
        future = self._pool.submit(function, *args)
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _release(self, _future) -> None:
        with self._lock:
            self.active -= 1

    def close(self) -> None:
        """No new calls; calls waiting for a thread are cancelled, running ones finish."""
        self._pool.shutdown(wait=False, cancel_futures=True)


class _Context:
    """What the servicer reads of a call's context: its metadata (the request headers)."""

    __slots__ = ("_headers",)

    def __init__(self, headers):
        self._headers = headers

    def invocation_metadata(self):
        return [(key, value) for key, value in self._headers.allitems()]


class _Binary:
    """Connect's ``proto`` codec for google.protobuf messages, parsing as the gRPC port does
    (errors.safe_deserializer: a size limit with a reason, bytes that do not parse answered)."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes

    def name(self) -> str:
        return "proto"

    def encode(self, message) -> bytes:
        return message.SerializeToString()

    def decode(self, data, message_class):
        return errors.safe_deserializer(message_class, self.max_bytes)(bytes(data))


class _Json(_Binary):
    """Connect's ``json`` codec: the proto3 JSON mapping (field names as in the .proto or in
    lowerCamelCase, 64-bit numbers as strings, bytes as base64); an unknown field is refused."""

    def name(self) -> str:
        return "json"

    def encode(self, message) -> bytes:
        return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data, message_class):
        if self.max_bytes and len(data) > self.max_bytes:
            return errors.TOO_LARGE
        try:
            return json_format.Parse(bytes(data), message_class())
        except Exception as error:  # noqa: BLE001 - any parse failure is the caller's
            return errors.Malformed(str(error))


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class _Service:
    """One gRPC service's servicer as connectrpc's service object: ``list_games(request, ctx)``
    and so on, each calling the servicer's ``ListGames(request, context)``."""

    def __init__(self, descriptor, servicer, protocol, calls: Calls, observe: bool):
        for method in descriptor.methods:
            attribute = _snake(method.name)
            if not hasattr(protocol, attribute):
                raise TypeError(f"{protocol.__name__} has no {attribute} for {method.full_name}")
            setattr(self, attribute, self._endpoint(f"/{descriptor.full_name}/{method.name}",
                                                    method.name, getattr(servicer, method.name), calls, observe))

    @staticmethod
    def _endpoint(path: str, name: str, behavior, calls: Calls, observe: bool):
        from connectrpc.code import Code
        from connectrpc.errors import ConnectError

        async def call(request, ctx):
            start, code = time.perf_counter(), "OK"
            try:
                return await calls.run(behavior, errors.admitted(name, request), _Context(ctx.request_headers))
            except ConnectError as error:  # the overload refusal
                code = error.code.name
                raise
            except errors.RefereeError as error:
                failure = errors.connect_error(error)
                code = failure.code.name
                raise failure from None
            except Exception:
                log.exception("internal error in %s", name)
                code = "INTERNAL"
                raise ConnectError(Code.INTERNAL, "internal error") from None
            finally:
                if observe:
                    metrics.observe(path, code, time.perf_counter() - start)

        call.__name__ = _snake(name)
        return call


def _generated(descriptor):
    """The module protoc-gen-connectrpc wrote for ``descriptor``'s file, and the service's
    protocol and ASGI application classes in it."""
    module = importlib.import_module(Path(descriptor.file.name).with_suffix("").as_posix().replace("/", ".") + "_connect")
    return getattr(module, descriptor.name), getattr(module, f"{descriptor.name}ASGIApplication")


def application(services, *, calls: Calls, max_bytes: int, transport_bytes: int, cors_origins=(),
                observe: bool = False, static: Path | None = None):
    """The ASGI application of ``services`` ([(ServiceDescriptor, servicer)]): each service's
    Connect application at ``/<package.Service>/``, its servicer run by ``calls``, ``static``
    files at ``/`` (if given), CORS for ``cors_origins``."""
    routes = {}
    for descriptor, servicer in services:
        protocol, app_class = _generated(descriptor)
        routes[f"/{descriptor.full_name}/"] = app_class(
            _Service(descriptor, servicer, protocol, calls, observe), read_max_bytes=max(transport_bytes, max_bytes),
            codecs=[_Binary(max_bytes), _Json(max_bytes)])
    files = None
    if static is not None:
        from starlette.staticfiles import StaticFiles
        files = StaticFiles(directory=static, html=True)

    async def dispatch(scope, receive, send):
        if scope["type"] == "lifespan":
            message = await receive()
            while message["type"] != "lifespan.shutdown":
                await send({"type": message["type"] + ".complete"})
                message = await receive()
            await send({"type": "lifespan.shutdown.complete"})
            return
        path = scope.get("path", "")
        for prefix, app in routes.items():
            if path.startswith(prefix):
                return await app(scope, receive, send)
        if files is not None and scope["type"] == "http":
            return await files(scope, receive, send)
        await send({"type": "http.response.start", "status": 404,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
        await send({"type": "http.response.body", "body": b"not found\n"})

    if not cors_origins:
        return dispatch
    from starlette.middleware.cors import CORSMiddleware
    return CORSMiddleware(dispatch, allow_origins=list(cors_origins), allow_methods=["GET", "POST"],
                          allow_headers=list(CORS_ALLOW_HEADERS), expose_headers=list(CORS_EXPOSE_HEADERS),
                          max_age=7200)


class HttpServer:
    """The HTTP port: hypercorn serving ``app`` on ``host:port`` (0: any free port) in a daemon
    thread, HTTP/1.1 and HTTP/2 (h2c, prior knowledge or upgrade)."""

    def __init__(self, app, host: str, port: int, reuse_port: bool = False, calls: Calls | None = None):
        from hypercorn.config import Config as HyperConfig

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:  # --workers: every worker process listens on the one HTTP port
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self._socket.bind((host.strip("[]"), port))
        self._socket.listen(1024)  # connections wait in the backlog until hypercorn accepts them
        self.port = self._socket.getsockname()[1]
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{self.port}"
        self._config = HyperConfig()
        self._config.bind = [f"fd://{self._socket.detach()}"]  # hypercorn's socket from now on
        self._config.accesslog = None
        self._config.errorlog = log
        self._config.graceful_timeout = 1.0
        self._app = app
        self._calls = calls  # closed with the server
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, name="referee-http", daemon=True)

    def start(self) -> HttpServer:
        self._thread.start()
        self._started.wait(10)
        return self

    def _run(self) -> None:
        from hypercorn.asyncio import serve

        async def main():
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
            self._started.set()
            await serve(self._app, self._config, shutdown_trigger=self._stop.wait)

        asyncio.run(main())

    def stop(self, timeout: float = 5.0) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)
        if self._calls is not None:
            self._calls.close()
