"""`referee serve` with the Referee servicer's CPU time counted: the share of our code.

Every RPC method of the RefereeService servicer (token opening and sealing, conversion, the
rules; the mapping of errors to statuses wraps it from outside) is wrapped to add its thread CPU
time (``time.thread_time``) to a per-method total, with the thread's context switches during the
call (voluntary ones mean the handler blocked, e.g. gave up the GIL in a system call; read
outside the timed span). SIGUSR1 writes a snapshot ``{"process_cpu_s", "methods": {name: [calls,
cpu_s, voluntary_switches, involuntary_switches]}}`` to the file named by
REFEREE_INSTRUMENT_OUT; the difference of two snapshots is a window. Request parsing and
response serialization are gRPC's side here. One worker only:

    REFEREE_INSTRUMENT_OUT=/tmp/x.json python loadtest/instrumented_serve.py serve --port 50051
"""
import json
import resource
import os
import signal
import sys
import threading
import time

from referee.service import cli
from referee.service import servicer as sv
from referee.service.server import SERVICE

_totals: dict[str, list] = {}
_lock = threading.Lock()


def _counted(name, method):
    def call(self, request, context):
        before = resource.getrusage(resource.RUSAGE_THREAD)
        start = time.thread_time()
        try:
            return method(self, request, context)
        finally:
            spent = time.thread_time() - start
            after = resource.getrusage(resource.RUSAGE_THREAD)
            with _lock:
                entry = _totals.setdefault(name, [0, 0.0, 0, 0])
                entry[0] += 1
                entry[1] += spent
                entry[2] += after.ru_nvcsw - before.ru_nvcsw
                entry[3] += after.ru_nivcsw - before.ru_nivcsw

    call.__name__ = name
    return call


def _snapshot(*_):
    with _lock:
        data = {"process_cpu_s": time.process_time(), "methods": {k: list(v) for k, v in _totals.items()}}
    path = os.environ["REFEREE_INSTRUMENT_OUT"]
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(path + ".tmp", path)


# before the server exists: it wraps (errors.mapped) the methods it finds on the servicer
for _name in [m.name for m in SERVICE.methods]:
    setattr(sv.RefereeServicer, _name, _counted(_name, getattr(sv.RefereeServicer, _name)))
signal.signal(signal.SIGUSR1, _snapshot)

if __name__ == "__main__":
    if os.environ.get("REFEREE_GC_EXPERIMENT"):  # e.g. "freeze" or "700,10,10"
        import gc

        if os.environ["REFEREE_GC_EXPERIMENT"] == "freeze":
            gc.freeze()
        else:
            gc.set_threshold(*map(int, os.environ["REFEREE_GC_EXPERIMENT"].split(",")))
    sys.exit(cli.main(sys.argv[1:]))
