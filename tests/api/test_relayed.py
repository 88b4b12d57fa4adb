"""Relayed seat moves (SEAT_PLAY_RELAYED, the default): a seat's Play is checked and sealed, the
owner applies it; a seat probing copies of its tokens learns nothing Validate would not tell it.
Sealed moves and answers are bound to the table, the round of the match and the step; the
owner's calls can carry every seat's share (deliveries)."""
from __future__ import annotations

import random

import grpc
import pytest

from referee.core.registry import GAMES
from referee.service.credentials import bearer
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of
from .test_trust import _shown

GAME_IDS = sorted(g for g, game in GAMES.items() if type(game).__module__.startswith("referee.core."))


def _reason(call, request, metadata):
    code, info, _ = error_of(lambda r: call(r, metadata=metadata), request)
    return code, info.reason if info is not None else ""


def _probe(stub, state, seat, meta, legal, rnd):
    """The probing seat tries legal actions, an illegal one and an ABANDON on copies of ``state``:
    each Play answers exactly what Validate does (legal: a sealed move and nothing else)."""
    tries = [a.action for a in rnd.sample(list(legal), min(4, len(legal)))]
    tries.append(actions_pb2.Action(seat=seat, kind="ABANDON"))
    tries.append(actions_pb2.Action(seat=seat, kind="NO_SUCH_KIND"))
    for action in tries:
        try:
            verdict = stub.Validate(pb.ValidateRequest(state=state, action=action), metadata=meta)
        except grpc.RpcError:  # malformed: Validate and Play refuse it alike
            assert _reason(stub.Validate, pb.ValidateRequest(state=state, action=action), meta) == \
                _reason(stub.Play, pb.PlayRequest(state=state, action=action), meta)
            continue
        try:
            reply = stub.Play(pb.PlayRequest(state=state, action=action), metadata=meta)
        except grpc.RpcError:
            code, reason = _reason(stub.Play, pb.PlayRequest(state=state, action=action), meta)
            assert not verdict.legal and reason == verdict.reason, (action, reason, verdict.reason)
            continue
        assert verdict.legal, action
        assert reply.answer and not reply.state and not reply.views and not reply.events and not reply.finished
        assert not reply.state_digest and not reply.deliveries
        assert list(reply.to_act) == [seat]  # itself awaited: what it knew
        code, reason = _reason(stub.Play, pb.PlayRequest(state=state, answers=[reply.answer]), meta)
        assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "OWNER_ONLY")


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_probing_seat_learns_from_play_no_more_than_validate_tells_it(raw_stub, game):
    rnd = random.Random(game)
    deal = raw_stub.Deal(pb.DealRequest(game=game, seed=b"probe " + game.encode()))
    assert deal.seat_play == pb.SEAT_PLAY_RELAYED
    owner = (bearer(deal.owner_credential),)
    seats = [(bearer(c),) for c in deal.seat_credentials]
    state, to_act, probes = deal.state, list(deal.to_act), 0
    for step in range(60):
        if not to_act:
            to_act = list(raw_stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).to_act)
        seat = to_act[0]
        legal = raw_stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat), metadata=seats[seat]).actions
        if step < 3 or step % 5 == 0:
            _probe(raw_stub, state, seat, seats[seat], legal, rnd)
            probes += 1
        answers = []
        for s in to_act:  # every awaited seat moves (a simultaneous decision awaits several)
            mine = raw_stub.LegalActions(pb.LegalActionsRequest(state=state, seat=s), metadata=seats[s]).actions
            reply = raw_stub.Play(pb.PlayRequest(state=state, action=rnd.choice(list(mine)).action),
                                  metadata=seats[s])
            answers.append(reply.answer)
        applied = raw_stub.Play(pb.PlayRequest(state=state, answers=answers), metadata=owner)
        state, to_act = applied.state, list(applied.to_act)
        if applied.finished:
            break
    assert probes >= 3


def test_a_relayed_move_is_bound_to_its_state_table_and_round(raw_stub):
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"bound"))
    other = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"bound"))  # same cards, another table
    owner, seat = (bearer(deal.owner_credential),), deal.to_act[0]
    meta = (bearer(deal.seat_credentials[seat]),)
    legal = raw_stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=seat), metadata=meta).actions
    move = raw_stub.Play(pb.PlayRequest(state=deal.state, action=legal[0].action), metadata=meta).answer
    # another table's owner cannot apply it, nor on its own table
    code, reason = _reason(raw_stub.Play, pb.PlayRequest(state=other.state, answers=[move]),
                           (bearer(other.owner_credential),))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "STATE_TOKEN_INVALID")
    after = raw_stub.Play(pb.PlayRequest(state=deal.state, answers=[move]), metadata=owner)
    assert after.seq == 1
    code, reason = _reason(raw_stub.Play, pb.PlayRequest(state=after.state, answers=[move]), owner)
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "STALE_STATE")  # made on step 0
    # round 2 of the match restarts at step 0: a move sealed in round 1 is refused there
    gone = raw_stub.Play(pb.PlayRequest(state=after.state, action=actions_pb2.Action(seat=0, kind="ABANDON")),
                         metadata=owner)
    assert gone.finished
    second = raw_stub.Deal(pb.DealRequest(previous_state=gone.state, seed=b"bound"), metadata=owner)
    assert second.match.round == 1 and second.seq == 0 and second.seat_play == pb.SEAT_PLAY_RELAYED
    code, reason = _reason(raw_stub.Play, pb.PlayRequest(state=second.state, answers=[move]), owner)
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "STALE_STATE")
    code, reason = _reason(raw_stub.Deal, pb.DealRequest(previous_state=gone.state,
                                                         seat_play=pb.SEAT_PLAY_DIRECT), owner)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")  # the table's mode stays


def test_a_simultaneous_answer_sealed_in_round_one_is_refused_in_round_two(raw_stub):
    """bidaxiao's face-down plays: every seat answers at step 0 of each round."""
    deal = raw_stub.Deal(pb.DealRequest(game="bidaxiao", seed=b"stash", seat_play=pb.SEAT_PLAY_DIRECT))
    owner = (bearer(deal.owner_credential),)
    seats = [(bearer(c),) for c in deal.seat_credentials]
    stash = []
    for s, meta in enumerate(seats):
        legal = raw_stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=s), metadata=meta).actions
        stash.append(raw_stub.Play(pb.PlayRequest(state=deal.state, action=legal[0].action), metadata=meta).answer)
    gone = raw_stub.Play(pb.PlayRequest(state=deal.state, action=actions_pb2.Action(seat=0, kind="ABANDON")),
                         metadata=owner)
    second = raw_stub.Deal(pb.DealRequest(previous_state=gone.state), metadata=owner)
    assert second.seq == 0 and second.seat_play == pb.SEAT_PLAY_DIRECT
    for answer in stash:
        code, reason = _reason(raw_stub.Play, pb.PlayRequest(state=second.state, answers=[answer]), owner)
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "STALE_STATE")


def test_a_direct_table_lets_seats_apply_their_own_moves(raw_stub):
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"direct", seat_play=pb.SEAT_PLAY_DIRECT))
    seat = deal.to_act[0]
    meta = (bearer(deal.seat_credentials[seat]),)
    legal = raw_stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=seat), metadata=meta).actions
    reply = raw_stub.Play(pb.PlayRequest(state=deal.state, action=legal[0].action), metadata=meta)
    assert reply.state and not reply.answer and reply.seq == 1 and [v.seat for v in reply.views] == [seat]


@pytest.mark.parametrize("game", ["doudizhu", "mcr", "gouji"])
def test_deliveries_give_each_seat_its_share_in_one_owner_call(raw_stub, game):
    rnd = random.Random(1)
    deal = raw_stub.Deal(pb.DealRequest(game=game, seed=b"share", deliveries=True))
    owner = (bearer(deal.owner_credential),)
    seats = [(bearer(c),) for c in deal.seat_credentials]
    n = len(seats)
    assert [d.seat for d in deal.deliveries] == list(range(n)) + [-1]
    for d in deal.deliveries:  # the deal: each seat its own cards and the public ones only
        shown = {c for e in d.events for c in e.cards.ids}
        assert shown <= set(d.view.hand.ids) | _public(d.view)
        assert d.seat == -1 or set(d.view.hand.ids) <= shown
    state, to_act = deal.state, list(deal.to_act)
    for _ in range(12):
        if not to_act:
            to_act = list(raw_stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).to_act)
        answers = []
        for s in to_act:
            legal = raw_stub.LegalActions(pb.LegalActionsRequest(state=state, seat=s), metadata=seats[s]).actions
            answers.append(raw_stub.Play(pb.PlayRequest(state=state, action=rnd.choice(list(legal)).action),
                                         metadata=seats[s]).answer)
        reply = raw_stub.Play(pb.PlayRequest(state=state, answers=answers, deliveries=True), metadata=owner)
        assert [d.seat for d in reply.deliveries] == list(range(n)) + [-1]
        for d in reply.deliveries:
            meta = seats[d.seat] if d.seat >= 0 else ()
            looked = raw_stub.GetView(pb.GetViewRequest(state=reply.state), metadata=meta).views[0]
            assert d.view == looked
            assert [e.type for e in d.events] == [e.type for e in reply.events]
            hidden = set().union(*(set(v.hand.ids) for v in reply.views if v.seat != d.seat))
            assert not {c for e in d.events for c in e.cards.ids} & hidden - set(d.view.hand.ids) - _public(d.view)
        state, to_act = reply.state, list(reply.to_act)
        if reply.finished:
            break
    code, reason = _reason(raw_stub.Play, pb.PlayRequest(state=state, action=actions_pb2.Action(
        seat=0, kind="ABANDON"), deliveries=True), seats[0])
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "OWNER_ONLY")


def _public(view) -> set[int]:
    """The cards a view shows besides the hand (the table, public piles, rivers, flowers, melds)."""
    return _shown(view) - set(view.hand.ids)


def test_replay_deliveries_are_the_live_rounds_shares(raw_stub):
    rnd = random.Random(4)
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"replay shares", deliveries=True))
    owner = (bearer(deal.owner_credential),)
    state, actions, shares = deal.state, [], [list(deal.deliveries)]
    for _ in range(8):
        seat = list(raw_stub.GetView(pb.GetViewRequest(state=state), metadata=owner).to_act)[0]
        legal = raw_stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat), metadata=owner).actions
        action = rnd.choice(list(legal)).action
        reply = raw_stub.Play(pb.PlayRequest(state=state, action=action, deliveries=True), metadata=owner)
        state, shares = reply.state, shares + [list(reply.deliveries)]
        actions.append(action)
    replay = raw_stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay shares", actions=actions,
                                              deliveries=True))
    replayed = [list(replay.deal.deliveries)] + [list(s.deliveries) for s in replay.steps]
    unmark = lambda ds: [(d.seat, list(d.events), d.view.hand.ids[:], d.view.to_act[:]) for d in ds]  # noqa: E731
    assert [unmark(d) for d in replayed] == [unmark(d) for d in shares]
