"""`referee serve` with each call's CPU split by call kind: where a served call's time goes.

Per RPC method, thread CPU time (``time.thread_time``) of:

- ``parse`` and ``serialize``: the request's deserializer and the response's serializer, as the
  server calls them (``grpc.unary_unary_rpc_method_handler`` is wrapped before the service is
  added, so every method's handler gets timed ones);
- ``handler``: the servicer method (the error mapping around it included), and inside it the
  steps it goes through, each counted once (a step inside another counts in the outer):
  ``token open`` (the state cache, or decrypting and unpacking; a relayed seat's sealed answer
  opened), ``token seal`` (packing, encrypting, the cache, the digest; a seat's answer sealed), ``credentials`` (the caller from the metadata),
  ``action in`` (the request's action converted), ``rules`` (the game's check, apply,
  legal_actions, score, pack and unpack called from the handler), ``views`` (the core's views
  and their conversion), ``events`` (their conversion); ``other`` is the handler's rest (reading
  fields, building the response, the clock, errors).

The process's CPU time over the same window, less all of the above, is gRPC's own work
(receiving, HTTP/2 framing, the thread pool, sending) and the interpreter's, spread over every
call. SIGUSR1 or the end of the process writes ``{"process_cpu_s", "calls": {method: n},
"steps": {method: {step: cpu_s}}}`` to REFEREE_BREAKDOWN_OUT (a window is the difference of two
snapshots). Used by ``loadtest/breakdown.py``; one worker only:

    REFEREE_BREAKDOWN_OUT=/tmp/b.json referee load --workers 1 --server-script loadtest/breakdown_serve.py
"""
from __future__ import annotations

import os
import sys
import threading
import time

import grpc

from referee.core.game import Game
from referee.core.registry import GAMES
from referee.service import convert, credentials, token
from referee.service import servicer as sv
from referee.service.server import SERVICE

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stages_serve import serve_writing  # noqa: E402  (one way to write a server's figures)

_steps: dict[tuple[str, str], float] = {}
_calls: dict[str, int] = {}
_lock = threading.Lock()
_local = threading.local()


def _add(method: str, step: str, spent: float) -> None:
    with _lock:
        _steps[method, step] = _steps.get((method, step), 0.0) + spent


def _step(step: str, function):
    """``function`` timed as ``step`` of the method running in this thread, unless another step
    is already timed there (it counts in that one)."""
    def call(*args, **kwargs):
        method = getattr(_local, "method", None)
        if method is None or getattr(_local, "busy", False):
            return function(*args, **kwargs)
        _local.busy = True
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            _add(method, step, time.thread_time() - start)
            _local.busy = False
    return call


def _handler(method: str, function):
    def call(self, request, context):
        _local.method, _local.busy = method, False
        start = time.thread_time()
        try:
            return function(self, request, context)
        finally:
            _add(method, "handler", time.thread_time() - start)
            _local.method = None
            with _lock:
                _calls[method] = _calls.get(method, 0) + 1
    call.__name__ = method
    return call


def _coder(method: str, step: str, function):
    if function is None:
        return None

    def call(data):
        start = time.thread_time()
        try:
            return function(data)
        finally:
            _add(method, step, time.thread_time() - start)
    return call


def install() -> None:
    """Wrap the servicer's methods and steps, and the method handlers' coders (once, before the
    server is built)."""
    for method in [m.name for m in SERVICE.methods]:
        setattr(sv.RefereeServicer, method, _handler(method, getattr(sv.RefereeServicer, method)))
    S = sv.RefereeServicer
    S._open = _step("token open", S._open)
    S._seal = _step("token seal", S._seal)
    # a relayed seat's sealed answer and the owner's opening of it (outside _open and _seal)
    token.Sealer.seal = _step("token seal", token.Sealer.seal)
    token.Sealer.open = _step("token open", token.Sealer.open)
    credentials.Credentials.caller = _step("credentials", credentials.Credentials.caller)
    credentials.Credentials.caller_of = _step("credentials", credentials.Credentials.caller_of)
    convert.action_in = _step("action in", convert.action_in)
    sv._views = _step("views", sv._views)
    sv._events = _step("events", sv._events)
    for game in {type(g) for g in GAMES.values()} | {Game}:
        for name in ("check", "apply", "legal_actions", "score", "pack", "unpack", "next_round"):
            if name in vars(game):
                setattr(game, name, _step("rules", vars(game)[name]))
    plain = grpc.unary_unary_rpc_method_handler

    def timed_handler(behavior, request_deserializer=None, response_serializer=None):
        method = getattr(behavior, "__name__", "?")
        return plain(behavior, request_deserializer=_coder(method, "parse", request_deserializer),
                     response_serializer=_coder(method, "serialize", response_serializer))
    grpc.unary_unary_rpc_method_handler = timed_handler


def snapshot() -> dict:
    with _lock:
        steps: dict = {}
        for (method, step), spent in _steps.items():
            steps.setdefault(method, {})[step] = spent
        return {"process_cpu_s": time.process_time(), "calls": dict(_calls), "steps": steps}


if __name__ == "__main__":
    install()
    sys.exit(serve_writing(snapshot, "REFEREE_BREAKDOWN_OUT", "breakdown.json"))
