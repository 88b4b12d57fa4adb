"""Pinned trust behaviours (issue 25: three hand-made mutants of the service survived the suite):
a seat's own Play shows it only its share of the events, ``expected_seq=0`` is checked like any
other value, and the request size limit holds for a Deal's entropy, not only for card text."""
from __future__ import annotations

import grpc

from referee.service.credentials import bearer
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of


def test_a_seat_whose_pass_completes_a_redeal_sees_only_its_own_new_hand(raw_stub):
    """Dou Dizhu rule 5: three passes redeal; the last passer's own Play (a DIRECT table) carries
    the new DEAL events, and only its own has cards."""
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"redeal pin", seat_play=pb.SEAT_PLAY_DIRECT))
    seats = [(bearer(c),) for c in deal.seat_credentials]
    state, to_act = deal.state, list(deal.to_act)
    for _ in range(3):
        seat = to_act[0]
        reply = raw_stub.Play(pb.PlayRequest(state=state, action=actions_pb2.Action(seat=seat, kind="PASS")),
                              metadata=seats[seat])
        state, to_act = reply.state, list(reply.to_act)
    dealt = {e.seat: list(e.cards.ids) for e in reply.events if e.type == "DEAL"}
    assert "REDEAL" in [e.type for e in reply.events] and len(dealt) == 3
    assert len(dealt[seat]) == 17 and all(not ids for s, ids in dealt.items() if s != seat)
    owner = raw_stub.GetView(pb.GetViewRequest(state=state), metadata=(bearer(deal.owner_credential),)).views
    assert sorted(dealt[seat]) == sorted(owner[seat].hand.ids)


def test_expected_seq_zero_is_checked(raw_stub):
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"seq pin"))
    owner = (bearer(deal.owner_credential),)
    after = raw_stub.Play(pb.PlayRequest(state=deal.state, action=actions_pb2.Action(
        seat=deal.to_act[0], kind="PASS")), metadata=owner)
    assert after.seq == 1
    for call, request in ((raw_stub.Play, pb.PlayRequest(state=after.state, action=actions_pb2.Action(
            seat=after.to_act[0], kind="PASS"), expected_seq=0)),
                          (raw_stub.Validate, pb.ValidateRequest(state=after.state, action=actions_pb2.Action(
                              seat=after.to_act[0], kind="PASS"), expected_seq=0)),
                          (raw_stub.LegalActions, pb.LegalActionsRequest(state=after.state, seat=after.to_act[0],
                                                                         expected_seq=0))):
        code, info, _ = error_of(lambda r: call(r, metadata=owner), request)
        assert code == grpc.StatusCode.FAILED_PRECONDITION and info.reason == "STALE_STATE"


def test_a_deal_over_the_request_limit_is_refused_before_it_is_read(raw_stub):
    code, info, _ = error_of(raw_stub.Deal, pb.DealRequest(game="doudizhu", client_entropy=bytes(2 << 20)))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and info is not None and info.reason == "REQUEST_TOO_LARGE"
    code, info, _ = error_of(raw_stub.Deal, pb.DealRequest(game="doudizhu", client_entropy=bytes(300)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "BAD_SEED"  # within the limit: read
