"""The servicer alone: thread CPU per call and per step with no gRPC and no load.

Plays fresh rounds of each game through ``RefereeServicer`` in this process the way the
`games` Locust profile does (each awaited seat with its own credential: LegalActions, Validate
of half the choices, Play; random legal choices; in a simultaneous decision the seats' Plays
come back as sealed answers and the owner applies them in one Play) and prints µs of thread CPU
per LegalActions, Validate and Play (a seat's sealed answer and the owner's Play applying the
answers apart), then the steps timed by ``stages_serve.py`` (the same wrappers, so the numbers
compare with a server under load):

    .venv/bin/python loadtest/inprocess.py --rounds 40 [--profile validate]

``--evict MB`` plays each round twice from the same seeds, warm and with MB of cache lines
written over before every call (what a served call meets: gRPC's, the kernel's and the load
client's memory in between), and prints both per call kind, and for the profile's mix of games:

    .venv/bin/python loadtest/inprocess.py --evict 16 --rounds 4 --profile validate [--steps]

``--memory SECONDS`` instead plays rounds (a fifth of them MCR) for that long with no timers,
then prints the process's peak RSS and how full each bounded cache is, and what 4,096 entries
of the state cache hold for each game (tracemalloc).
"""
from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stages_serve  # noqa: E402  (the step timers)
from runner import FRONTEND_CHECKS, GAME_WEIGHTS, VALIDATE_RATE  # noqa: E402  (the calls of a turn, as the Locust users make them)

from referee.core.registry import GAMES  # noqa: E402
from referee.service.credentials import bearer  # noqa: E402
from referee.service.servicer import RefereeServicer  # noqa: E402
from referee.service.token import KeyRing, Sealer  # noqa: E402
from referee.v1 import referee_service_pb2 as pb  # noqa: E402


class Context:
    """What the servicer reads of a gRPC call's context: its metadata (one credential)."""

    def __init__(self, credential: bytes = b""):
        self.metadata = (bearer(credential),) if credential else ()

    def invocation_metadata(self):
        return self.metadata


NOBODY = Context()


class Evictor:
    """Called before each timed call: writes one byte of every 64-byte line of a buffer of
    ``megabytes``, so the call finds what the last one left in the caches evicted, as a served
    call finds it after gRPC's, the kernel's and the load client's work in between."""

    LINE = 64

    def __init__(self, megabytes: float):
        self.buffer = bytearray(int(megabytes * (1 << 20)))
        self.zeros = bytes(len(range(0, len(self.buffer), self.LINE)))

    def __call__(self) -> None:
        self.buffer[::self.LINE] = self.zeros


def play(servicer: RefereeServicer, game: str, rounds: int, rng: random.Random, profile: str = "games",
         seeds=None, counts: dict | None = None, evict=None) -> dict:
    """µs of thread CPU per call kind over ``rounds`` rounds of ``game`` played as the Locust
    ``profile`` does (``games``: each awaited seat asks LegalActions, Validates half of its
    choices, Plays; ``validate``: three Validates of legal candidates, then Plays another);
    ``seeds`` (an iterator of bytes, for a server that takes callers' seeds) makes the rounds
    repeatable; ``counts`` (call kind -> calls) is added to; ``evict`` (an Evictor) runs
    before each timed call, outside its time."""
    spent = {name: [0, 0.0] for name in ("LegalActions", "Validate", "Play", "Play (sealed answer)",
                                          "Play (owner applies answers)")}

    def timed(name, method, request, context):
        if evict is not None:
            evict()
        start = time.thread_time()
        reply = method(request, context)
        spent[name][0] += 1
        spent[name][1] += time.thread_time() - start
        return reply

    def validate(state, action, seq, context):
        timed("Validate", servicer.Validate, pb.ValidateRequest(state=state, action=action, expected_seq=seq), context)

    for _ in range(rounds):
        deal = servicer.Deal(pb.DealRequest(game=game, seed=next(seeds)) if seeds else pb.DealRequest(game=game),
                             NOBODY)
        owner, seats = Context(deal.owner_credential), [Context(c) for c in deal.seat_credentials]
        state, to_act, seq, finished = deal.state, list(deal.to_act), deal.seq, False
        while not finished:
            reply, answers = None, []
            for seat in to_act:
                legal = timed("LegalActions", servicer.LegalActions,
                              pb.LegalActionsRequest(state=state, seat=seat, expected_seq=seq), seats[seat])
                if profile == "validate":  # a frontend checks candidates, then plays one
                    for _ in range(FRONTEND_CHECKS):
                        validate(state, rng.choice(legal.actions).action, seq, seats[seat])
                    action = rng.choice(legal.actions).action
                else:  # a backend sometimes checks the move it is about to play
                    action = rng.choice(legal.actions).action
                    if rng.random() < VALIDATE_RATE:
                        validate(state, action, seq, seats[seat])
                if evict is not None:
                    evict()
                start = time.thread_time()
                played = servicer.Play(pb.PlayRequest(state=state, action=action, expected_seq=seq), seats[seat])
                name = "Play (sealed answer)" if played.answer else "Play"
                spent[name][0] += 1
                spent[name][1] += time.thread_time() - start
                if not played.answer:
                    reply = played
                    break
                answers.append(played.answer)
            if reply is None:
                reply = timed("Play (owner applies answers)", servicer.Play,
                              pb.PlayRequest(state=state, answers=answers, expected_seq=seq), owner)
            state, to_act, seq, finished = reply.state, list(reply.to_act), reply.seq, reply.finished
            if not to_act and not finished:  # a claim window: who is asked is the owner's to know
                to_act = list(servicer.GetView(pb.GetViewRequest(state=state, view_seat=0), owner).to_act)
    if counts is not None:
        for name, (n, _) in spent.items():
            counts[name] = counts.get(name, 0) + n
    return {name: round(1e6 * s / n, 1) for name, (n, s) in spent.items() if n}


def _random_round(servicer: RefereeServicer, game: str, rng: random.Random) -> None:
    """A round played by its owner for every seat."""
    deal = servicer.Deal(pb.DealRequest(game=game), NOBODY)
    owner = Context(deal.owner_credential)
    state, to_act, finished = deal.state, deal.to_act, False
    while not finished:
        legal = servicer.LegalActions(pb.LegalActionsRequest(state=state, seat=to_act[0]), owner)
        reply = servicer.Play(pb.PlayRequest(state=state, action=rng.choice(legal.actions).action), owner)
        state, to_act, finished = reply.state, reply.to_act, reply.finished


def memory(seconds: float, rng: random.Random) -> dict:
    """Peak RSS after ``seconds`` of rounds, the fill of every lru cache, the state cache's size."""
    from referee.core.games.doudizhu import rules as doudizhu
    from referee.core.games.mcr import rules as mcr_game
    from referee.service import convert

    servicer, rounds, start = RefereeServicer(Sealer(KeyRing.generate())), 0, time.monotonic()
    while time.monotonic() - start < seconds:
        _random_round(servicer, "mcr" if rounds % 5 == 0 else "doudizhu", rng)
        rounds += 1
    caches = {name: f.cache_info()._asdict() for name, f in (
        ("legal actions", convert.shared_legal_action), ("card sets", convert.shared_card_set),
        ("combinations", convert.shared_combination), ("doudizhu ids", doudizhu._ids_of),
        ("mcr ids", mcr_game._ids_of), ("mcr win shapes", mcr_game._not_a_win))}
    state_cache = {}
    for game in ("doudizhu", "mcr"):  # what a full state cache holds: fresh states, warm code
        fresh = RefereeServicer(Sealer(KeyRing.generate()))
        gc.collect()
        tracemalloc.start()
        while len(fresh.recent._items) < fresh.recent.size:
            _random_round(fresh, game, rng)
        gc.collect()
        state_cache[game] = round(tracemalloc.get_traced_memory()[0] / 1e6, 1)
        tracemalloc.stop()
    return {"rounds": rounds, "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "caches": {k: f"{v['currsize']}/{v['maxsize']}" for k, v in caches.items()},
            "state_cache_mb_held_after_filling": state_cache}


def warm_and_cold(rounds: int, seed: int, megabytes: float, profile: str = "validate",
                  games: list[str] | None = None, steps: bool = False) -> dict:
    """{game: {"warm"|"cold": {call kind: µs a call, "all": ..., "calls": n}}}, and under "mix":
    ``rounds`` rounds of each game, each played twice from the same seeds, so with the same
    calls: once warm and once with the caches evicted before every call (``Evictor``; which of
    the two goes first alternates). "mix" weighs the games as ``referee load`` deals them
    (``runner.GAME_WEIGHTS``, by their calls). With ``steps``, the steps of ``stages_serve`` are
    timed too (their timers add about a µs each to both): under "steps", {mode: {step: µs each}}
    over the games."""
    if steps:
        stages_serve.install()
    step_totals: dict = {"warm": {}, "cold": {}, "unused": {}}
    servicer = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True, time_source=lambda: 1.8e9)
    evictor = Evictor(megabytes)
    modes = ("warm", "cold")
    mix: dict = {mode: {} for mode in modes}  # kind -> [weighted calls, weighted µs]
    out: dict = {}
    for game in games or sorted(GAMES):
        spent: dict = {mode: {} for mode in modes}  # kind -> [calls, µs]
        for r in range(-1, rounds):  # round -1 loads the game's code and caches, uncounted
            for mode in modes if r % 2 else modes[::-1]:
                same = f"{seed}:{game}:{r}"
                seeds = (hashlib.sha256(f"{same}:{i}".encode()).digest() for i in range(1 << 30))
                counts: dict = {}
                if steps:
                    stages_serve._totals = step_totals[mode if r >= 0 else "unused"]
                us = play(servicer, game, 1, random.Random(same), profile, seeds, counts,
                          evictor if mode == "cold" else None)
                if r < 0:
                    continue
                for kind, each in us.items():
                    for totals, weight in ((spent[mode], 1), (mix[mode], GAME_WEIGHTS.get(game, 1))):
                        entry = totals.setdefault(kind, [0, 0.0])
                        entry[0] += weight * counts[kind]
                        entry[1] += weight * counts[kind] * each
        out[game] = _per_call(spent)
    out["mix"] = _per_call(mix)
    if steps:
        out["steps"] = {mode: _per_step(totals) for mode, totals in step_totals.items() if mode != "unused"}
    return out


def _per_step(totals: dict) -> dict:
    """{step: µs each} of stages_serve's {(step, game): [calls, seconds]}, over the games."""
    summed: dict = {}
    for (step, _), (n, seconds) in totals.items():
        entry = summed.setdefault(step, [0, 0.0])
        entry[0] += n
        entry[1] += seconds
    return {step: round(1e6 * seconds / n, 1) for step, (n, seconds) in sorted(summed.items())}


def _per_call(totals: dict) -> dict:
    """{mode: {kind: µs a call, ..., "all": µs a call of every kind, "calls": their number}} of
    {mode: {kind: [calls, µs]}}."""
    out = {}
    for mode, kinds in totals.items():
        calls, spent = sum(n for n, _ in kinds.values()), sum(us for _, us in kinds.values())
        out[mode] = {**{kind: round(us / n, 1) for kind, (n, us) in kinds.items() if n},
                     "all": round(spent / calls, 1) if calls else 0.0, "calls": calls}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=40, help="rounds per game")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--memory", type=float, default=0, metavar="SECONDS")
    p.add_argument("--evict", type=float, default=0, metavar="MB",
                   help="compare each call warm and with MB of cache lines written over before it")
    p.add_argument("--profile", choices=("games", "validate"), default="games")
    p.add_argument("--steps", action="store_true", help="with --evict: time the steps of a call too")
    p.add_argument("--games", default="", help="with --evict: comma-separated games (default: every one)")
    args = p.parse_args(argv)
    if args.rounds < 1 or args.evict < 0:
        p.error("--rounds must be at least 1 and --evict not negative")
    games = [g for g in args.games.split(",") if g]
    if set(games) - set(GAMES):
        p.error(f"--games: no game {', '.join(sorted(set(games) - set(GAMES)))} (there are {', '.join(sorted(GAMES))})")
    if args.memory:
        print(json.dumps(memory(args.memory, random.Random(args.seed))))
        return 0
    if args.evict:
        found = warm_and_cold(args.rounds, args.seed, args.evict, args.profile, games, steps=args.steps)
        for game, modes in found.items():
            if game in ("mix", "steps"):
                continue
            warm, cold = modes["warm"], modes["cold"]
            print(f"{game:<10}" + "  ".join(f"{kind} {warm[kind]} -> {cold[kind]} us" for kind in warm
                                            if kind != "calls"))
        warm, cold = found["mix"]["warm"], found["mix"]["cold"]
        print(f"the {args.profile} mix: " + "  ".join(f"{kind} {warm[kind]} -> {cold[kind]} us" for kind in warm
                                                      if kind != "calls")
              + f" ({cold['all'] / warm['all']:.2f}x with {args.evict:g} MB written over before each call)")
        for step, each in found.get("steps", {}).get("warm", {}).items():
            print(f"  {step:<40} {each} -> {found['steps']['cold'][step]} us")
        print(json.dumps(found))
        return 0
    stages_serve.install()
    servicer, rng = RefereeServicer(Sealer(KeyRing.generate())), random.Random(args.seed)
    calls = {game: play(servicer, game, args.rounds, rng, args.profile) for game in sorted(GAMES)}
    for game, us in calls.items():
        print(f"{game:<10}" + "  ".join(f"{name} {v} us" for name, v in us.items()))
    steps = stages_serve.report()
    for step, by_game in steps.items():
        print(f"  {step:<40}" + "  ".join(f"{g} {v[1]} us" for g, v in by_game.items()))
    print(json.dumps({"calls_us": calls, "steps": steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
