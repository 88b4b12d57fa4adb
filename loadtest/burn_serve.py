"""`referee serve` whose Ping holds the GIL and burns ``REFEREE_BURN_US`` µs of thread CPU before
it answers: how much a handler's CPU adds to the server's CPU a call (RESULTS.md, "The bars at one
call rate"). For ``referee load --server-script``:

    REFEREE_BURN_US=150 referee load --workers 1 --users 20 --seconds 12 --profile noop --rate 1200 \\
        --server-script loadtest/burn_serve.py
"""
import os
import sys
import time

from referee.service import cli
from referee.service import servicer as sv

BURN_S = float(os.environ.get("REFEREE_BURN_US", "0")) / 1e6


def burning_ping(self, request, context):
    end = time.thread_time() + BURN_S
    while time.thread_time() < end:
        pass
    return sv.pb.PingResponse()


if __name__ == "__main__":
    sv.RefereeServicer.Ping = burning_ping
    sys.exit(cli.main(sys.argv[1:]))
