"""`referee serve` that sums the thread CPU its garbage collections take and writes
``{"gc_s", "collections", "by_generation", "process_cpu_s"}`` to ``REFEREE_GC_OUT`` when it stops
(RESULTS.md, "The bars at one call rate": about 1% of a call). For ``referee load --server-script``:

    REFEREE_GC_OUT=/tmp/gc.json referee load --workers 1 --profile games --rate 1200 --server-script loadtest/gc_serve.py
"""
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stages_serve import serve_writing  # noqa: E402  (one way to write a server's figures)

_spent = {"gc_s": 0.0, "collections": 0, "by_generation": [0, 0, 0]}
_started = [0.0]


def _timed(phase, info):
    if phase == "start":
        _started[0] = time.thread_time()
    else:
        _spent["gc_s"] += time.thread_time() - _started[0]
        _spent["collections"] += 1
        _spent["by_generation"][info["generation"]] += 1


def snapshot() -> dict:
    return {**_spent, "process_cpu_s": time.process_time()}


if __name__ == "__main__":
    gc.callbacks.append(_timed)
    sys.exit(serve_writing(snapshot, "REFEREE_GC_OUT", "gc.json"))
