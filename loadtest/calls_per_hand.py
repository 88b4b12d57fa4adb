"""Calls a platform makes per round when its bots play through the API (``bots.play_round``:
each awaited seat asks LegalActions and plays with its own credential, the owner applies the
sealed answers of simultaneous decisions), counted per method by a client interceptor against a
server in this process:

    .venv/bin/python loadtest/calls_per_hand.py --game mcr --rounds 200 [--seat-play direct]

Tables are dealt RELAYED (the default: a seat's Play comes back sealed and the owner's Play
applies it, one more call per move) or DIRECT (``--seat-play direct``: each seat applies its own).
Prints one JSON line: rounds, calls per round (all, and per method); for games with claim
windows the share of ``Play`` calls that were sealed answers shows how many seats were asked.
"""
from __future__ import annotations

import argparse
import collections
import json
import random

import grpc

from referee.service import bots
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

SEAT_PLAY = {"relayed": pb.SEAT_PLAY_RELAYED, "direct": pb.SEAT_PLAY_DIRECT}


class Counter(grpc.UnaryUnaryClientInterceptor):
    def __init__(self):
        self.calls = collections.Counter()

    def intercept_unary_unary(self, continuation, details, request):
        self.calls[details.method.rsplit("/", 1)[1]] += 1
        return continuation(details, request)


def measure(game: str, rounds: int, seed: int, seat_play: str = "relayed") -> dict:
    server = RefereeServer(Config(port=0, drain=0, grace=0, max_connection_age_s=86400, allow_caller_seed=True),
                           KeyRing.generate()).start()
    counter = Counter()
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.RefereeServiceStub(grpc.intercept_channel(channel, counter))
            rng = random.Random(seed)
            for n in range(rounds):
                bots.play_round(stub, rng, game=game, seed=b"calls per hand %d" % n, seat_play=SEAT_PLAY[seat_play])
    finally:
        server.stop(drain=0, grace=0)
    total = sum(counter.calls.values())
    return {"game": game, "seat_play": seat_play, "rounds": rounds, "calls_per_round": round(total / rounds, 1),
            "per_method": {m: round(c / rounds, 1) for m, c in sorted(counter.calls.items())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mcr")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat-play", choices=sorted(SEAT_PLAY), default="relayed")
    args = parser.parse_args()
    print(json.dumps(measure(args.game, args.rounds, args.seed, args.seat_play)))


if __name__ == "__main__":
    main()
