"""Service pinned (issue 25, ``make mutate GAME=service``): what the survivors of the trust path's
mutation run showed no test asserted. Each test names the behaviour, not the mutant."""
from __future__ import annotations

import grpc
import pytest

from referee.service import credentials as creds
from referee.service.credentials import OWNER, Credentials, bearer
from referee.service.servicer import RefereeServicer
from referee.service.token import KeyRing, Sealer
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of

TABLE = bytes(range(16))


def _counting_macs(monkeypatch) -> list:
    computed = []
    real = creds._mac

    def counted(key, table, role):
        computed.append((table, role))
        return real(key, table, role)

    monkeypatch.setattr(creds, "_mac", counted)
    return computed


def test_a_checked_credential_is_remembered_up_to_the_cache_size(monkeypatch):
    """The credential cache: a seat's credential is verified once, then answered from the cache;
    the cache holds at most its size (the oldest goes first); size 0 verifies every call."""
    ring = KeyRing.generate()
    made = [Credentials(ring).make(TABLE, seat) for seat in range(3)]
    computed = _counting_macs(monkeypatch)
    cache = Credentials(ring, cache=2)
    assert cache.caller(TABLE, made[0]).seat == 0 and len(computed) == 1
    assert cache.caller(TABLE, made[0]).seat == 0 and len(computed) == 1  # remembered
    cache.caller(TABLE, made[1])
    cache.caller(TABLE, made[2])  # the third pushes the first out
    assert len(computed) == 3
    cache.caller(TABLE, made[2])
    assert len(computed) == 3
    cache.caller(TABLE, made[0])
    assert len(computed) == 4
    none = Credentials(ring, cache=0)
    for _ in range(3):
        assert none.caller(TABLE, made[1]).seat == 1
    assert len(computed) == 7


def test_a_remembered_header_is_the_same_caller_and_a_forged_one_is_never_remembered(monkeypatch):
    ring = KeyRing.generate()
    owner = Credentials(ring).make(TABLE, OWNER)
    computed = _counting_macs(monkeypatch)
    cache = Credentials(ring, cache=8)
    metadata = (bearer(owner),)
    assert cache.caller_of(TABLE, metadata).owner and cache.caller_of(TABLE, metadata).owner
    assert len(computed) == 1
    forged = owner[:-1] + bytes((owner[-1] ^ 1,))
    for _ in range(2):
        with pytest.raises(creds.Unauthenticated):
            cache.caller_of(TABLE, (bearer(forged),))
    assert len(computed) == 3


def _empty_items(legal: int, validate: int) -> list:
    return ([pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=b"x", seat=0))] * legal
            + [pb.JudgeItem(validate=pb.ValidateRequest(state=b"x"))] * validate)


def test_a_batch_is_bounded_by_what_each_kind_of_item_may_answer(stub):
    """JudgeBatch checks before any work that the answer fits 16 MiB, counting a LegalActions
    item 64 KiB, a Play 8 KiB and a Validate 1 KiB: 255 LegalActions and 64 Validates make exactly
    16 MiB and are judged (each item its own error here), one more Validate is refused, and the
    refusal says what an item counts; so are 255 LegalActions and 8 Plays, and one Validate more."""
    results = stub.JudgeBatch(pb.JudgeBatchRequest(items=_empty_items(255, 64))).results
    assert len(results) == 319 and all(r.error.reason == "STATE_TOKEN_INVALID" for r in results)
    code, info, message = error_of(stub.JudgeBatch, pb.JudgeBatchRequest(items=_empty_items(255, 65)))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and info.reason == "REQUEST_TOO_LARGE"
    assert "validate 1 KiB, play 8 KiB, legal_actions 64 KiB" in message
    plays = [pb.JudgeItem(play=pb.PlayRequest(state=b"x"))] * 8
    assert len(stub.JudgeBatch(pb.JudgeBatchRequest(items=_empty_items(255, 0) + plays)).results) == 263
    code, info, _ = error_of(stub.JudgeBatch, pb.JudgeBatchRequest(items=_empty_items(255, 1) + plays))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and info.reason == "REQUEST_TOO_LARGE"


def test_an_unexpected_failure_of_one_item_is_that_item_internal_and_the_others_go_on(monkeypatch):
    service = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True)
    deal = service.Deal(pb.DealRequest(game="doudizhu", seed=b"internal item"), None)

    def boom(self, request, context, opened_tokens, out, credential):
        raise RuntimeError("a bug")

    monkeypatch.setitem(RefereeServicer._judges, "validate", boom)
    items = [pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state)),
             pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0]),
                          credential=deal.owner_credential)]
    results = service.JudgeBatch(pb.JudgeBatchRequest(items=items), None).results
    assert results[0].error.code == grpc.StatusCode.INTERNAL.value[0] == 13
    assert results[0].error.message == "internal error"
    assert results[1].WhichOneof("result") == "legal_actions" and len(results[1].legal_actions.actions) > 0


def test_a_seat_asking_the_spectators_view_gets_the_spectators_events(raw_stub):
    """A seat's own Play (a DIRECT table) with ``view_seat=-1`` answers as a spectator sees it:
    after the Dou Dizhu all-pass redeal (rule 5), seat 0, whose pass completes it, sees no new
    hand in the events; asking as itself it sees its own."""
    for n in range(50):  # a deal whose first bidder is seat 1: seat 0 passes last
        deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"spectator pin %d" % n,
                                            seat_play=pb.SEAT_PLAY_DIRECT))
        if deal.to_act[0] == 1:
            break
    else:
        raise AssertionError("no deal in 50 where seat 1 bids first")
    seats = [(bearer(c),) for c in deal.seat_credentials]
    state = deal.state
    for seat in (1, 2):
        state = raw_stub.Play(pb.PlayRequest(state=state, action=actions_pb2.Action(seat=seat, kind="PASS")),
                              metadata=seats[seat]).state
    last = actions_pb2.Action(seat=0, kind="PASS")
    for view_seat, own in ((-1, False), (0, True)):
        reply = raw_stub.Play(pb.PlayRequest(state=state, action=last, view_seat=view_seat), metadata=seats[0])
        dealt = {e.seat: list(e.cards.ids) for e in reply.events if e.type == "DEAL"}
        assert "REDEAL" in [e.type for e in reply.events] and len(dealt) == 3
        assert (len(dealt[0]) == 17) == own and not dealt[1] and not dealt[2]
        assert [v.seat for v in reply.views] == [view_seat]

