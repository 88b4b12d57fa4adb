"""The contract of every game through a real server on 127.0.0.1 (the toy game included: it is
served because it is registered, with no other change), played as real clients play it: each
seat with its own credential, the owner applying sealed answers of simultaneous decisions.

ListGames describes the game as it declares itself; every Play answers the state the core
reaches, the acting seat's own view exactly as the game builds it and the events as that seat
may see them; refusals (another seat, no credential, a seat not awaited, an unknown kind) keep
the old token usable; every token of the round has one length; Score gives the seed to the
owner only and it re-derives the deal; Replay reproduces every step; the owner, and only the
owner, deals the next round of the match.
"""
from __future__ import annotations

import random

import grpc
import pytest
from google.protobuf import json_format

from referee.core.game import ABANDON, Action, event_for
from referee.service import convert, games, verify
from referee.service.credentials import bearer
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc


@pytest.fixture(scope="module")
def stub(toy_registered):
    # a clock that never moves: no action is late however slow the machine (tests/api/test_clock.py moves one)
    server = RefereeServer(Config(port=0, drain=0, grace=0, max_connection_age_s=86400, allow_caller_seed=True,
                                  time_source=lambda: FROZEN_TIME), KeyRing.generate()).start()
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.RefereeServiceStub(channel)
    server.stop(drain=0, grace=0)


def test_list_games_describes_every_game(stub, game):
    info = {g.id: g for g in stub.ListGames(pb.ListGamesRequest()).games}[game.id]
    assert (info.min_seats, info.max_seats) == (game.min_seats, game.max_seats)
    assert [k.name for k in info.action_kinds] == [k.name for k in game.action_kinds]
    assert {r.name for r in info.reasons} == set(game.reasons)
    assert [p for p in info.phases] == [p.name for p in game.phases]
    assert {c.name for c in info.counters} == set(game.counters)
    assert {e.name for e in info.event_types} == set(game.event_types)
    assert {e.name for e in info.event_types if e.private_cards} == {
        name for name, t in game.event_types.items() if t.private_cards}
    assert [(k.name, k.help, k.per_seat) for k in info.deal_cards] == [
        (name, k.help, k.per_seat) for name, k in game.deal_cards.items()]
    assert {v.name: v.help for v in info.deal_values} == dict(game.deal_values)
    assert list(info.capabilities) == list(game.capabilities())
    assert [o.name for o in info.options] == [o.name for o in game.option_infos() + game.clock_option_infos()]
    assert info.card_ids == game.notation.id_count


def _msg(action: Action, game) -> object:
    return convert.action_out(action, game.notation)


def _refused(call, request, metadata, codes) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        call(request, metadata=metadata)
    assert refused.value.code() in codes, refused.value.details()


def _refusals_keep_the_token(stub, game, token: bytes, core, seat_meta) -> None:
    """Refused: an action for another seat with a seat's credential, an action without one, an
    action of a seat not awaited (with its own credential), an unknown kind."""
    seat = core.to_act[0]
    action = game.legal_actions(core, seat)[0][0]
    others = [s for s in range(core.num_seats) if s != seat]
    request = pb.PlayRequest(state=token, action=_msg(action, game))
    _refused(stub.Play, request, seat_meta[others[0]], (grpc.StatusCode.PERMISSION_DENIED,))
    _refused(stub.Play, request, (), (grpc.StatusCode.UNAUTHENTICATED,))
    idle = [s for s in others if s not in core.to_act]
    if idle:
        request = pb.PlayRequest(state=token, action=_msg(action._replace(seat=idle[0]), game))
        _refused(stub.Play, request, seat_meta[idle[0]], (grpc.StatusCode.FAILED_PRECONDITION,))
    request = pb.PlayRequest(state=token, action=_msg(Action(seat, "NO_SUCH_KIND"), game))
    _refused(stub.Play, request, seat_meta[seat], (grpc.StatusCode.INVALID_ARGUMENT,))


def _check_events(game, got_events, events, seat: int, before, after) -> None:
    """The events as ``seat`` may see them: an event's cards when it may know them all, before
    or after the action (``Game.knowledge``), else none."""
    allowed = game.knowledge(before).allowed(seat) | game.knowledge(after).allowed(seat)
    for got, event in zip(got_events, events, strict=True):
        assert got.type == event.type and tuple(got.cards.ids) == tuple(event_for(event, allowed).cards)


def test_a_round_through_the_server_is_the_core_round(stub, game):
    rnd = random.Random(2)
    seed = b"server contract " + game.id.encode()
    deal = stub.Deal(pb.DealRequest(game=game.id, seed=seed, view_seat=0))
    owner = (bearer(deal.owner_credential),)
    seat_meta = [(bearer(c),) for c in deal.seat_credentials]
    core = game.deal(game.make_options(), seed, b"", 0)
    assert deal.state_digest == game.digest(core) and len(deal.views) == 1 and deal.views[0].test_deal
    assert len(deal.seat_credentials) == core.num_seats
    token, actions, digests, lengths = deal.state, [], [], {len(deal.state)}
    while not core.finished:
        if rnd.random() < 0.2:
            _refusals_keep_the_token(stub, game, token, core, seat_meta)
        seat = rnd.choice(core.to_act)
        if len(actions) < 400:
            action = rnd.choice(game.legal_actions(core, seat))[0]
        else:
            action = Action(seat, ABANDON)
        reply = stub.Play(pb.PlayRequest(state=token, action=_msg(action, game)), metadata=seat_meta[seat])
        awaited_as = seat
        if reply.answer:  # a simultaneous decision: sealed, nothing changes until the owner applies it
            assert not reply.state and reply.seq == core.step and not reply.views and not reply.events
            assert list(reply.to_act) == list(game.to_act_for(core, seat))
            reply = stub.Play(pb.PlayRequest(state=token, answers=[reply.answer], view_seat=seat), metadata=owner)
            awaited_as = None  # the owner sees every awaited seat
        before = core
        core, events = game.apply(core, action)
        assert reply.state_digest == game.digest(core) and reply.seq == core.step
        assert [_unclocked(v, game, core) for v in reply.views] == [_view(game, core, seat)]
        assert list(reply.to_act) == list(game.to_act_for(core, awaited_as)) and reply.finished == core.finished
        _check_events(game, reply.events, events, seat, before, core)
        token = reply.state
        lengths.add(len(token))
        actions.append(action)
        digests.append(reply.state_digest)
    assert len(lengths) == 1, f"tokens of one game have one length, not {sorted(lengths)}"
    spectator = stub.GetView(pb.GetViewRequest(state=token))
    assert list(spectator.views) == [_view(game, core, -1)]
    settlement = game.settle(core)
    as_seat = stub.Score(pb.ScoreRequest(state=token), metadata=seat_meta[0])
    assert list(as_seat.settlement.points) == list(settlement.points) and not as_seat.seed and not as_seat.deal.game
    score = stub.Score(pb.ScoreRequest(state=token, reveal_abandoned=True), metadata=owner)
    assert score.seed == seed and score.abandoned == (actions[-1].kind == ABANDON) and sum(score.settlement.points) + score.settlement.house == 0
    report = verify.verify(json_format.MessageToDict(score))
    if hasattr(games.modules().get(game.id), "verify_deal"):  # service/games/<game>.py re-derives the deal
        assert report["ok"], report
    else:
        assert report["problems"] == [f"no deal verifier for game {game.id!r}"]
    replay = stub.Replay(pb.ReplayRequest(game=game.id, seed=seed, actions=[_msg(a, game) for a in actions]))
    assert replay.deal.state_digest == deal.state_digest
    assert [s.state_digest for s in replay.steps] == digests
    _refused(stub.Deal, pb.DealRequest(previous_state=token), seat_meta[0], (grpc.StatusCode.PERMISSION_DENIED,))
    nxt = stub.Deal(pb.DealRequest(previous_state=token, seed=b"round 2"), metadata=owner)
    expected = game.next_round(core)  # the next round of the match, or the table's next match
    assert (nxt.match.round, list(nxt.match.totals), nxt.match.number) == (expected.round, list(expected.totals),
                                                                            expected.number)
    assert nxt.owner_credential == deal.owner_credential and list(nxt.seat_credentials) == list(deal.seat_credentials)


FROZEN_TIME = 1_800_000_000.0


def _unclocked(msg, game, state):
    """A view without its clock fields, once they are checked: the viewer's own deadline when it is
    awaited and the public ones, under the game's default clock (none when it is off)."""
    on = game.clock_default != "off" and not state.finished
    assert bool(msg.deadline_ms) == (on and msg.seat in state.to_act)
    assert all(bool(s.deadline_ms) == (on and i in msg.to_act) for i, s in enumerate(msg.seats))
    assert all(d > FROZEN_TIME * 1000 for d in [msg.deadline_ms] + [s.deadline_ms for s in msg.seats] if d)
    msg.deadline_ms = 0
    for s in msg.seats:
        s.deadline_ms = 0
    return msg


def _view(game, state, seat):
    msg = convert.view(game.view(state, seat), game.notation)
    msg.test_deal = True
    return msg
