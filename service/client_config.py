"""The documented client configuration for a fleet of referee pods (docs/kubernetes.md).

gRPC keeps one long-lived HTTP/2 connection per backend, so a plain ClusterIP Service (L4)
pins each client to one pod. A client balances calls itself with this service config over
every pod address (the chart's headless Service, ``dns:///referee-headless.NS.svc:50051``):

- ``round_robin`` over all addresses the resolver returns;
- client-side health checking (``healthCheckConfig``): each connection watches
  grpc.health.v1 for ``referee.v1.RefereeService``; a pod that drains (NOT_SERVING after SIGTERM)
  leaves the rotation before it stops, so graceful stops cost no call (retries alone leave a
  few CANCELLED calls that raced the stop);
- retries on UNAVAILABLE (a pod killed, a connection reset): every Referee call is a pure
  function of its request (the state travels in the token), so any call may be retried;
- a deadline per call, which bounds the attempts too.

The server's ``grpc.max_connection_age_ms`` closes connections now and then; the client then
re-resolves DNS and so reaches pods that were added since.
"""
from __future__ import annotations

import json
from typing import Any

import grpc

SERVICE = "referee.v1.RefereeService"

SERVICE_CONFIG: dict[str, Any] = {
    "loadBalancingConfig": [{"round_robin": {}}],
    "healthCheckConfig": {"serviceName": SERVICE},
    "methodConfig": [{
        "name": [{"service": SERVICE}],
        "timeout": "10s",
        "retryPolicy": {
            "maxAttempts": 5,  # gRPC caps attempts at 5
            "initialBackoff": "0.1s",
            "maxBackoff": "1s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }],
}

# Client keepalive: a ping every 30 s on idle connections, which the server accepts (it allows
# one every 5 s), so dead pods and silently dropped connections are noticed.
CHANNEL_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
    ("grpc.enable_retries", 1),
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
]


def ipv4_target(addresses: list[str]) -> str:
    """A target over fixed ``host:port`` addresses (IPv4), e.g. for tests on 127.0.0.1."""
    return "ipv4:" + ",".join(addresses)


def channel(target: str, options: list[tuple[str, Any]] | None = None) -> grpc.Channel:
    """An insecure channel to ``target`` (``dns:///host:port`` or ``ipv4:a:p,b:p``) with the config."""
    return grpc.insecure_channel(target, options=CHANNEL_OPTIONS + list(options or []))
