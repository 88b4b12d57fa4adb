"""Server lifecycle: the sync gRPC server with health and reflection, limits, keepalive,
graceful shutdown, metrics, and ``--workers N`` processes sharing one port.

Shutdown (SIGTERM or SIGINT): health turns NOT_SERVING so balancers, probes and clients that
watch health move away, the server keeps answering for ``drain`` seconds, ends the health Watch
streams (otherwise each would hold the stop for its whole grace), then ``stop(grace)`` lets calls
in flight finish. So a process exits at most ``drain + grace`` seconds after SIGTERM (the Helm
chart's terminationGracePeriodSeconds adds the preStop sleep and a margin to that). With workers
the parent supervises (restarts a worker that dies) and forwards SIGTERM.
"""
from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import grpc
from google.protobuf import message_factory
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from referee.v1 import referee_service_pb2 as pb

from . import errors, games, reflection
from .metrics import MetricsInterceptor, serve_metrics
from .servicer import RefereeServicer
from .token import ENV_KEYS, KeyRing, Sealer

SERVICE = pb.DESCRIPTOR.services_by_name["RefereeService"]
MiB = 1 << 20
WEB = Path(__file__).parent / "web" / "static"  # the page served at / of the HTTP port
MIN_WORKER_LIFE_S = 5.0  # a worker that dies sooner is not restarted: the supervisor exits 1

log = logging.getLogger(__name__)


@dataclass
class Config:
    """What ``referee serve`` configures; the defaults are the embedded configuration."""

    host: str = "127.0.0.1"
    port: int = 50051
    workers: int = 1
    threads: int = 4  # handler threads: 4 cost ~10% less CPU a call than 16 (loadtest/RESULTS.md)
    state_cache: int = 4096
    key_file: str | None = None
    metrics_port: int = 0
    grace: float = 10.0
    drain: float = 5.0
    max_receive_bytes: int = 1 * MiB  # larger requests: RESOURCE_EXHAUSTED REQUEST_TOO_LARGE
    max_send_bytes: int = 16 * MiB
    transport_receive_bytes: int = 8 * MiB  # gRPC's own limit (no reason in its error) above ours
    max_concurrent: int = 64  # calls in progress or queued per process; more are shed at once
    allow_caller_seed: bool = False  # tests, demos: Deal takes a caller's seed
    max_connection_age_s: float = 300.0
    reuse_port: bool = False
    log_level: str = "INFO"
    http_port: int | None = None  # the HTTP port (Connect, gRPC-Web; service/connect.py): None off, 0 any
    cors_origins: tuple[str, ...] = ()  # origins whose browser pages may call the HTTP port ("*": any)
    clock_tolerance_ms: int = 500  # turn clocks: pods' clocks may differ this much (late = deadline + tolerance)
    time_source: Callable[[], float] = time.time  # the turn clocks' time, seconds since the epoch (tests inject one)


def grpc_options(config: Config) -> list[tuple[str, int]]:
    """Channel arguments of the server: message limits, keepalive, connection age, reuseport."""
    return [
        ("grpc.max_receive_message_length", max(config.transport_receive_bytes, config.max_receive_bytes)),
        ("grpc.max_send_message_length", config.max_send_bytes),
        # keepalive: ping idle clients, and accept client pings every 5 s or more
        ("grpc.keepalive_time_ms", 60_000),
        ("grpc.keepalive_timeout_ms", 20_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
        ("grpc.http2.max_ping_strikes", 0),
        # connections end after a while (with a grace for calls in flight) so clients rebalance
        ("grpc.max_connection_age_ms", int(config.max_connection_age_s * 1000)),
        ("grpc.max_connection_age_grace_ms", 30_000),
        ("grpc.so_reuseport", int(config.reuse_port)),
    ]


def add_service(server: grpc.Server, service, servicer, max_bytes: int = 0, mapped=errors.mapped) -> str:
    """Register a unary service (a ServiceDescriptor): request parsers that never raise (see
    errors.MALFORMED) and refuse requests over ``max_bytes``, every method's errors mapped to
    statuses by ``mapped(name, method)`` (errors.mapped). Returns its full name."""
    handlers = {
        m.name: grpc.unary_unary_rpc_method_handler(
            mapped(m.name, getattr(servicer, m.name)),
            request_deserializer=errors.safe_deserializer(message_factory.GetMessageClass(m.input_type), max_bytes),
            response_serializer=message_factory.GetMessageClass(m.output_type).SerializeToString)
        for m in service.methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
    server.add_registered_method_handlers(service.full_name, handlers)
    return service.full_name


class _Health(health.HealthServicer):
    """grpc.health.v1 whose Watch streams can be ended, so a stop need not wait out its grace."""

    def __init__(self):
        super().__init__()
        self._watches: set = set()

    def Watch(self, request, context, send_response_callback=None):
        if send_response_callback is None:  # a blocking server: its watches end with the stop
            return super().Watch(request, context)
        lock, ended = threading.Lock(), []

        def send(response):  # once ended, later updates and the close callback are ignored
            with lock:
                if ended:
                    return
                if response is None:
                    ended.append(True)
                send_response_callback(response)

        with self._lock:
            self._watches.add(send)
        context.add_callback(lambda: self._forget(send))
        return super().Watch(request, context, send)

    def _forget(self, send) -> None:
        with self._lock:
            self._watches.discard(send)

    def end_watches(self) -> None:
        """Finish every open Watch stream with OK (clients then see the server as not ready)."""
        with self._lock:
            watches, self._watches = list(self._watches), set()
        for send in watches:
            send(None)


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


class RefereeServer:
    """One gRPC server: RefereeService, the games' own services (service/games), grpc.health.v1
    and reflection, bound at construction."""

    def __init__(self, config: Config, ring: KeyRing | None = None):
        self.config = config
        self.ring = ring or KeyRing.load(config.key_file)
        self.health = _Health()
        interceptors = [MetricsInterceptor()] if config.metrics_port else []
        # maximum_concurrent_rpcs: past it a call is refused at once (RESOURCE_EXHAUSTED) instead
        # of waiting in an unbounded queue behind the handler threads
        self.server = grpc.server(ThreadPoolExecutor(config.threads, thread_name_prefix="referee"),
                                  interceptors=interceptors, options=grpc_options(config),
                                  maximum_concurrent_rpcs=config.max_concurrent or None)
        servicer = RefereeServicer(Sealer(self.ring), config.state_cache, config.allow_caller_seed,
                                   config.time_source, config.clock_tolerance_ms)
        limit = config.max_receive_bytes
        self.services = [add_service(self.server, SERVICE, servicer, limit)]
        self.services += [add_service(self.server, service, game_servicer, limit)
                          for service, game_servicer in games.services()]
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable((*self.services, health.SERVICE_NAME), self.server)  # v1 and v1alpha
        self.port = self.server.add_insecure_port(_address(config.host, config.port))
        self.address = _address(config.host, self.port)
        self.http = None
        if config.http_port is not None:  # the same servicers on the HTTP port
            from .connect import Calls, HttpServer, application
            # handler threads and the overload limit as the gRPC port's, counted apart
            calls = Calls(config.threads, config.max_concurrent)
            app = application([(SERVICE, servicer), *games.services()], calls=calls, max_bytes=limit,
                              transport_bytes=config.transport_receive_bytes, cors_origins=config.cors_origins,
                              observe=bool(config.metrics_port), static=WEB if WEB.is_dir() else None)
            self.http = HttpServer(app, config.host, config.http_port, reuse_port=config.reuse_port, calls=calls)
        self._stopped = threading.Event()

    def start(self) -> RefereeServer:
        """Start serving, health SERVING, metrics endpoint when configured."""
        self.server.start()
        if self.http is not None:
            self.http.start()
        for name in ("", *self.services):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        if self.config.metrics_port:
            serve_metrics(self.config.host, self.config.metrics_port)
        log.info("serving", extra={"address": self.address, "pid": os.getpid(),
                                   "http": self.http.url if self.http else None,
                                   "metrics_port": self.config.metrics_port, "key_id": self.ring.active})
        return self

    def stop(self, drain: float | None = None, grace: float | None = None) -> None:
        """Health NOT_SERVING, keep serving for ``drain`` s, then stop within ``grace`` s."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        drain = self.config.drain if drain is None else drain
        grace = self.config.grace if grace is None else grace
        self.health.enter_graceful_shutdown()
        log.info("draining", extra={"drain_s": drain, "grace_s": grace})
        time.sleep(drain)
        self.health.end_watches()
        self.server.stop(grace).wait()
        if self.http is not None:
            self.http.stop(grace)
        log.info("stopped")

    def __enter__(self) -> RefereeServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop(drain=0, grace=0)


def _on_signals(event: threading.Event) -> None:
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: event.set())


def serve(config: Config, ring: KeyRing | None = None) -> int:
    """Run one server process until SIGTERM/SIGINT, then shut down gracefully."""
    server = RefereeServer(config, ring).start()
    stop = threading.Event()
    _on_signals(stop)
    stop.wait()
    server.stop()
    return 0


def _reserve_port(host: str, port: int) -> socket.socket:
    """A bound, non-listening SO_REUSEPORT socket that holds the shared port for the workers."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host.strip("[]"), port))
    return sock


def _worker_argv(config: Config, port: int, index: int) -> list[str]:
    metrics = config.metrics_port + index if config.metrics_port else 0
    return [sys.executable, "-m", "referee.service.cli", "serve", "--workers", "1", "--reuse-port",
            "--host", config.host, "--port", str(port), "--threads", str(config.threads),
            "--state-cache", str(config.state_cache), "--max-concurrent", str(config.max_concurrent),
            "--clock-tolerance-ms", str(config.clock_tolerance_ms),
            "--metrics-port", str(metrics), "--grace", str(config.grace), "--drain", str(config.drain),
            "--log-level", config.log_level] + (["--allow-caller-seed"] if config.allow_caller_seed else []) + (
            ["--http-port", str(config.http_port)] if config.http_port is not None else []) + [
            f"--cors-origin={origin}" for origin in config.cors_origins]


def serve_workers(config: Config) -> int:
    """Run ``config.workers`` server processes on one port (SO_REUSEPORT) and supervise them.

    The token keys (an ephemeral one included) reach the workers through REFEREE_TOKEN_KEYS;
    worker i serves metrics on ``metrics_port + i``. A worker that dies is restarted, unless it
    died at start.
    """
    ring = KeyRing.load(config.key_file)
    holder = _reserve_port(config.host, config.port)
    port = holder.getsockname()[1]
    env = dict(os.environ, **{ENV_KEYS: ring.env_value()})

    def spawn(i: int) -> tuple[subprocess.Popen, float]:
        return subprocess.Popen(_worker_argv(config, port, i), env=env), time.monotonic()

    stop = threading.Event()
    _on_signals(stop)
    workers = [spawn(i) for i in range(config.workers)]
    log.info("workers started", extra={"port": port, "pids": [p.pid for p, _ in workers]})
    failed = False
    while not failed and not stop.wait(0.5):
        for i, (proc, started) in enumerate(workers):
            if proc.poll() is None:
                continue
            log.error("worker exited", extra={"pid": proc.pid, "rc": proc.returncode})
            if time.monotonic() - started < MIN_WORKER_LIFE_S:  # crashing at start: give up
                failed = True
                break
            workers[i] = spawn(i)
    procs = [proc for proc, _ in workers]
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + config.drain + config.grace + 5
    for proc in procs:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.error("worker did not stop in time; killing", extra={"pid": proc.pid})
            proc.kill()
            proc.wait()
    holder.close()
    return 1 if failed else 0
