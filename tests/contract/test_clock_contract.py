"""The clock's contract on every game (the toys included): the game's default action for an
awaited seat (``Game.default_action``, what a TIMEOUT or autoplay plays) is legal at every step of
a playout, a round played by defaults alone ends and balances, and a TIMEOUT is an action like any
other: Replay reproduces it with no clock, and the state after it is the state after the default.
"""
from __future__ import annotations

import random

import grpc
import pytest

from referee.core.clock import TIMEOUT
from referee.core.game import Action
from referee.service import convert
from referee.service.credentials import bearer
from referee.v1 import options_pb2
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

MAX_STEPS = 6000


def test_the_default_action_is_legal_for_every_awaited_seat_at_every_step(game):
    rnd = random.Random(23)
    for round_seed in range(3):
        state = game.deal(game.make_options(), b"clock %d" % round_seed, b"")
        steps = 0
        while not state.finished and steps < 400:
            for seat in state.to_act:
                default = game.default_action(state, seat)
                assert game.check(state, default).legal, (game.id, steps, seat, default)
                assert game.check(state, Action(seat, TIMEOUT)).legal
            seat = rnd.choice(state.to_act)
            state, _ = game.apply(state, rnd.choice(game.legal_actions(state, seat))[0])
            steps += 1


def test_a_round_played_by_defaults_alone_ends_and_balances(game):
    for round_seed in range(2):
        state = game.deal(game.make_options(), b"defaults %d" % round_seed, b"")
        steps = 0
        while not state.finished:
            assert steps < MAX_STEPS, f"{game.id}: defaults alone never end the round"
            state, _ = game.apply(state, Action(state.to_act[0], TIMEOUT))
            steps += 1
        settlement = game.settle(state)
        assert sum(settlement.points) + settlement.house == 0


def test_a_timeout_is_the_default_action_and_replays_without_a_clock(game):
    rnd = random.Random(7)
    dealt = state = game.deal(game.make_options(), b"timeouts", b"")
    actions = []
    while not state.finished and len(actions) < 300:
        seat = rnd.choice(state.to_act)
        if rnd.random() < 0.3:
            action = Action(seat, TIMEOUT, value=rnd.randint(0, 1))
            expected, _ = game.apply(state, game.default_action(state, seat))
            state, events = game.apply(state, action)
            assert game.digest(state) == game.digest(expected)
            if game.phases[expected.phase].public_turn and events and events[0].type == TIMEOUT:
                assert events[0].seat == seat and events[0].values["autoplay"] == action.value
        else:
            action = rnd.choice(game.legal_actions(state, seat))[0]
            state, _ = game.apply(state, action)
        actions.append(action)
    again = dealt
    for action in actions:
        again, _ = game.apply(again, action)
    assert game.digest(again) == game.digest(state)


def test_timeout_is_listed_with_its_event(game):
    assert TIMEOUT in {k.name for k in game.action_kinds} and TIMEOUT in game.event_types
    assert TIMEOUT in game.kind_names()


# --- through a server, whose clock the test moves ---------------------------------------------------

class _FakeClock:
    def __init__(self):
        self.t = 1_800_000_000.0

    def __call__(self):
        return self.t


@pytest.fixture(scope="module")
def clocked(toy_registered):
    from referee.service.server import Config, RefereeServer
    from referee.service.token import KeyRing

    fake = _FakeClock()
    server = RefereeServer(Config(port=0, drain=0, grace=0, max_connection_age_s=86400, allow_caller_seed=True,
                                  time_source=fake), KeyRing.generate()).start()
    with grpc.insecure_channel(server.address) as channel:
        yield fake, pb_grpc.RefereeServiceStub(channel)
    server.stop(drain=0, grace=0)


def test_timeouts_then_autoplay_play_a_round_through_the_server_as_the_core_does(clocked, game):
    """Under clock=seconds every expired seat gets its default from the owner's timeouts, then every
    seat on autoplay plays the rest inside one owner's call; the record is TIMEOUT actions only,
    the digests are the core's, and the round balances."""
    fake, stub = clocked
    deal = stub.Deal(pb.DealRequest(game=game.id, seed=b"clock contract", options={
        "clock": options_pb2.OptionValue(string_value="seconds"), "clock_seconds": options_pb2.OptionValue(int_value=1)}))
    owner = (bearer(deal.owner_credential),)
    core = game.deal(game.make_options(), b"clock contract", b"")
    token = deal.state
    for _ in range(20):
        if core.finished:
            break
        fake.t += 2
        reply = stub.Play(pb.PlayRequest(state=token, timeouts=True), metadata=owner)
        assert reply.applied and {a.kind for a in reply.applied} == {TIMEOUT}
        for a in reply.applied:
            assert a.seat in core.to_act
            core, _ = game.apply(core, convert.action_in(a, game))
        assert reply.state_digest == game.digest(core)
        token = reply.state
    if not core.finished:
        reply = stub.Play(pb.PlayRequest(state=token, autoplay_on=range(core.num_seats)), metadata=owner)
        for a in reply.applied:
            assert a.kind == TIMEOUT and a.value == 1
            core, _ = game.apply(core, convert.action_in(a, game))
        assert reply.finished and core.finished and reply.state_digest == game.digest(core)
        token = reply.state
    score = stub.Score(pb.ScoreRequest(state=token), metadata=owner)
    assert sum(score.settlement.points) + score.settlement.house == 0
