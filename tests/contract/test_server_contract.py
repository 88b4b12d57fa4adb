"""The contract of every game through a real server on 127.0.0.1 (the toy game included: it is
served because it is registered, with no other change): ListGames describes it, a round played
with each seat's view answers exactly the game's views and hides other seats' event cards,
refusals keep the old token usable, Score balances, Replay reproduces every step, and a
finished round deals the next round of its match.
"""
from __future__ import annotations

import random

import grpc
import pytest

from referee.core.game import ABANDON, Action
from referee.service import convert
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc


@pytest.fixture(scope="module")
def stub(toy_registered):
    server = RefereeServer(Config(port=0, drain=0, grace=0, max_connection_age_s=86400), KeyRing.generate()).start()
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
    assert list(info.capabilities) == list(game.capabilities())
    assert [o.name for o in info.options] == [o.name for o in game.option_infos()]
    assert info.card_ids == game.notation.id_count


def _action_msg(action: Action, notation) -> actions_pb2.Action:
    return convert.action_out(action, notation)


def _refusals_keep_the_token(stub, game, state_token: bytes, core_state) -> None:
    """An action from a seat that is not awaited, and an unknown kind: refused with the right
    status, and the token still plays (checked by the caller's next Play)."""
    idle = [s for s in range(core_state.num_seats) if s not in core_state.to_act]
    tries = [Action(core_state.to_act[0], "NO_SUCH_KIND")]
    if idle:
        tries.append(game.legal_actions(core_state, core_state.to_act[0])[0][0]._replace(seat=idle[0]))
    for action in tries:
        with pytest.raises(grpc.RpcError) as refused:
            stub.Play(pb.PlayRequest(state=state_token, action=_action_msg(action, game.notation)))
        assert refused.value.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT)


def test_a_round_through_the_server_is_the_core_round(stub, game):
    """Each Play, made by the acting seat with its own view, answers the state the core reaches
    (same digest), that seat's view exactly as the game builds it, and events whose cards only
    reach the seats the game allows."""
    rnd = random.Random(2)
    seed = b"server contract " + game.id.encode()
    deal = stub.Deal(pb.DealRequest(game=game.id, seed=seed, view_seat=0))
    core = game.deal(game.make_options(), seed, b"", 0)
    assert deal.state_digest == game.digest(core) and len(deal.views) == 1
    assert deal.views[0] == convert.view(game.view(core, 0), game.notation)
    token, actions, replies = deal.state, [], []
    while not core.finished:
        if rnd.random() < 0.2:
            _refusals_keep_the_token(stub, game, token, core)
        seat = rnd.choice(core.to_act)
        action = rnd.choice(game.legal_actions(core, seat))[0] if len(actions) < 400 else Action(seat, ABANDON)
        reply = stub.Play(pb.PlayRequest(state=token, action=_action_msg(action, game.notation), view_seat=seat))
        core, events = game.apply(core, action)
        assert reply.state_digest == game.digest(core) and reply.seq == core.step
        assert list(reply.views) == [convert.view(game.view(core, seat), game.notation)]
        assert list(reply.to_act) == list(core.to_act) and reply.finished == core.finished
        for got, event in zip(reply.events, events, strict=True):
            seers = game.visible_to(event)
            expected = event.cards if seers is None or seat in seers else ()
            assert got.type == event.type and tuple(got.cards.ids) == tuple(expected)
        token = reply.state
        actions.append(action)
        replies.append(reply)
    score = stub.Score(pb.ScoreRequest(state=token))
    settlement = game.settle(core)
    assert list(score.settlement.points) == list(settlement.points)
    assert sum(score.settlement.points) + score.settlement.house == 0
    replay = stub.Replay(pb.ReplayRequest(game=game.id, seed=seed, actions=[
        _action_msg(a, game.notation) for a in actions]))
    assert replay.deal.state_digest == deal.state_digest
    assert [s.state_digest for s in replay.steps] == [r.state_digest for r in replies]
    if not game.match_over(core):
        nxt = stub.Deal(pb.DealRequest(previous_state=token, seed=b"round 2"))
        assert nxt.match.round == 1 and list(nxt.match.totals) == list(settlement.points)
