"""Prometheus metrics, collected by a server interceptor and served on a second port.

``referee_rpc_total{method, code}`` counts calls by final status; ``referee_rpc_seconds{method}``
is their latency; calls on the HTTP port (Connect, gRPC-Web) count the same way, under the same
method names (``observe``). With ``--metrics-port 0`` nothing is collected at all.
"""
from __future__ import annotations

import time

import grpc
from prometheus_client import Counter, Histogram, start_http_server

CALLS = Counter("referee_rpc", "gRPC calls handled, by method and status code", ["method", "code"])
LATENCY = Histogram("referee_rpc_seconds", "gRPC call latency in seconds", ["method"],
                    buckets=(0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                             0.05, 0.1, 0.25, 1.0))


def observe(method: str, code: str, seconds: float) -> None:
    """Count one call of ``method`` (its full name) that ended with status ``code``."""
    LATENCY.labels(method).observe(seconds)
    CALLS.labels(method, code).inc()


def _timed(behavior, method: str):
    latency = LATENCY.labels(method)

    def handle(request, context):
        start = time.perf_counter()
        code = grpc.StatusCode.OK
        try:
            return behavior(request, context)
        except Exception:
            code = context.code() or grpc.StatusCode.UNKNOWN
            raise
        finally:
            latency.observe(time.perf_counter() - start)
            CALLS.labels(method, code.name).inc()

    return handle


class MetricsInterceptor(grpc.ServerInterceptor):
    """Counts and times every unary call; wrapped handlers are built once per method."""

    def __init__(self):
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    def intercept_service(self, continuation, handler_call_details):
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        method = handler_call_details.method
        cached = self._wrapped.get(method)
        if cached is None or cached[0] is not handler:
            wrapped = grpc.unary_unary_rpc_method_handler(
                _timed(handler.unary_unary, method), request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer)
            cached = self._wrapped[method] = (handler, wrapped)
        return cached[1]


def serve_metrics(host: str, port: int):
    """Start the Prometheus HTTP endpoint (``/metrics``) in a daemon thread."""
    return start_http_server(port, addr=host)
