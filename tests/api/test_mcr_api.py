"""国标麻将 through the API: referee.mcr.v1.McrService on the same port (CalculateFans, health,
reflection) and `referee fan`, and whole hands played, scored and replayed."""
import json
import random
import subprocess
import sys

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from referee.core.games.mcr import fans as mcr
from referee.mcr.v1 import mcr_pb2, mcr_pb2_grpc
from referee.service import bots
from referee.v1 import options_pb2
from referee.v1 import referee_service_pb2 as pb

INVALID, FAILED = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION
TILE_NAMES = set(mcr.TILE_NAMES) | {f"H{i}" for i in range(1, 9)}
MCR_SERVICE, REFEREE_SERVICE = "referee.mcr.v1.McrService", "referee.v1.RefereeService"


@pytest.fixture(scope="module")
def fans(channel):
    """The McrService stub, on the channel of the RefereeService server."""
    return mcr_pb2_grpc.McrServiceStub(channel)


def fan_message(request: dict) -> mcr_pb2.CalculateFansRequest:
    msg = mcr_pb2.CalculateFansRequest(
        melds=[mcr_pb2.Meld(type=t, tile=tile, offer=offer) for t, tile, offer in request.get("melds", [])],
        concealed=request["concealed"], win_tile=request["win_tile"])
    for name in ("self_drawn", "fourth_tile", "kong_related", "wall_last", "seat_wind", "prevalent_wind", "flowers"):
        if name in request:
            setattr(msg, name, request[name])
    return msg


@pytest.mark.parametrize("seed", range(40))
def test_calculate_fans_answers_like_the_fan_command(fans, seed):
    request = mcr.random_winning_hand(random.Random(seed))
    answer = mcr.fan_answer(request)
    if "error" in answer:
        with pytest.raises(grpc.RpcError) as caught:
            fans.CalculateFans(fan_message(request))
        assert caught.value.code() == FAILED and answer["error"] == "UNDER_8"
        return
    reply = fans.CalculateFans(fan_message(request))
    assert [[f.name_en, f.name_cn, f.points, f.count] for f in reply.fans] == answer["fans"]
    assert reply.total == answer["total"]
    assert reply.total - reply.points == request.get("flowers", 0)


def test_calculate_fans_refusals(fans, expect_error):
    # no sets, no pairs to speak of, not knitted: no winning shape
    not_win = {"concealed": "W1 W2 W4 W5 W7 W8 T1 T3 T5 T7 B2 B2 B9".split(), "win_tile": "F1"}
    expect_error(fans.CalculateFans, fan_message(not_win), FAILED, "NOT_WIN")
    # a winning shape worth under 8 points
    small = {"melds": [["PENG", "W5", 1]], "concealed": "T6 T7 T8 B3 B4 B5 W7 W8 W9 T2".split(),
             "win_tile": "T2"}
    expect_error(fans.CalculateFans, fan_message(small), FAILED, "UNDER_8")
    five = {"concealed": "W1 W1 W1 W1 W2 W3 T4 T5 T6 B7 B8 B9 B5".split(), "win_tile": "W1"}
    expect_error(fans.CalculateFans, fan_message(five), INVALID, "DUPLICATE_CARD")
    expect_error(fans.CalculateFans, fan_message({"concealed": ["X9"], "win_tile": "W1"}), INVALID, "UNKNOWN_CARD")


def test_mcr_service_is_served_beside_the_referee_service(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in (MCR_SERVICE, REFEREE_SERVICE):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING, service
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    listed = next(iter(reflection.ServerReflectionInfo(iter([request]))))
    assert {MCR_SERVICE, REFEREE_SERVICE} <= {s.name for s in listed.list_services_response.service}
    request = reflection_pb2.ServerReflectionRequest(file_containing_symbol=MCR_SERVICE)
    reply = next(iter(reflection.ServerReflectionInfo(iter([request]))))
    files = [descriptor_pb2.FileDescriptorProto.FromString(b)
             for b in reply.file_descriptor_response.file_descriptor_proto]
    services = {f"{f.package}.{s.name}": [m.name for m in s.method] for f in files for s in f.service}
    assert services.get(MCR_SERVICE) == ["CalculateFans"]


def test_fan_command_answers_jsonl_like_the_service(fans):
    requests = [mcr.random_winning_hand(random.Random(seed)) for seed in range(6)]
    lines = [json.dumps(r) for r in requests] + ["not json", ""]
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", "fan", "--jsonl"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(requests) + 1  # the blank line is skipped
    assert answers[:-1] == [mcr.fan_answer(r) for r in requests]
    assert answers[-1]["error"] == "BAD_INPUT"
    won = [(r, a) for r, a in zip(requests, answers) if "fans" in a]
    assert won  # the command and the service agree on a hand that wins
    for request, answer in won:
        reply = fans.CalculateFans(fan_message(request))
        assert [[f.name_en, f.name_cn, f.points, f.count] for f in reply.fans] == answer["fans"]
        assert reply.total == answer["total"]


@pytest.fixture(scope="module")
def hands(stub):
    return [bots.play_round(stub, random.Random(seed), game="mcr", seed=b"mcr-%d" % seed, illegal_rate=0.2)
            for seed in range(6)]


def test_hands_are_played_to_the_end_and_settle_zero_sum(hands):
    for played in hands:
        assert played.plays[-1].finished and played.rejected > 0
        settlement = played.score.settlement
        assert settlement.outcome and sum(settlement.points) + settlement.house == 0


def test_views_speak_tiles_and_hide_other_hands(stub):
    options = {"dealer": options_pb2.OptionValue(int_value=1)}
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"views", options=options))
    sizes = [len(v.hand.ids) for v in deal.views]
    assert sorted(sizes) == [13, 13, 13, 14] and sizes[1] == 14  # the dealer starts with 14
    for view in deal.views:
        assert set(view.hand.text.split()) <= TILE_NAMES
    one = stub.Deal(pb.DealRequest(game="mcr", seed=b"views", options=options, view_seat=2))
    assert [v.seat for v in one.views] == [2]
    for event in one.events:  # seat 2 sees its own deal and draws only
        if event.type in ("DEAL", "DRAW") and event.seat != 2:
            assert not event.cards.ids


def test_replay_gives_identical_digests(stub, hands):
    played = hands[0]
    reply = stub.Replay(pb.ReplayRequest(game="mcr", seed=b"mcr-0", actions=played.actions))
    assert reply.deal.state_digest == played.deal.state_digest
    assert [s.state_digest for s in reply.steps] == [p.state_digest for p in played.plays]
    assert list(reply.settlement.points) == list(played.score.settlement.points)


def _won_hand(stub, tries: int = 40):
    """A hand played by its owner to a win (WIN taken whenever it is legal; no minimum points):
    (deal, the final PlayResponse)."""
    options = {"min_points": options_pb2.OptionValue(int_value=0)}
    for n in range(tries):
        rng = random.Random(n)
        deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"won-%d" % n, options=options))
        reply, state, to_act = deal, deal.state, list(deal.to_act)
        for _ in range(1000):
            legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=to_act[0])).actions
            wins = [a for a in legal if a.action.kind == "WIN"]
            reply = stub.Play(pb.PlayRequest(state=state, action=(wins or [rng.choice(legal)])[0].action))
            state, to_act = reply.state, list(reply.to_act)
            if reply.finished:
                break
        if "winner" in reply.views[0].counters:
            return deal, reply
    raise AssertionError(f"no hand won in {tries} tries")


def test_a_won_hand_shows_the_winners_tiles_and_no_other_hand(stub, raw_stub):
    """Once won, every view (the spectator's, each seat's own, the owner's) shows the winner's
    concealed tiles (seat cards "hand") and no other seat's; the winner's are its own hand."""
    from referee.service.credentials import bearer

    deal, final = _won_hand(stub)
    winner = final.views[0].counters["winner"]
    spectator = raw_stub.GetView(pb.GetViewRequest(state=final.state)).views
    own = [raw_stub.GetView(pb.GetViewRequest(state=final.state), metadata=(bearer(c),)).views[0]
           for c in deal.seat_credentials]
    assert [v.seat for v in spectator] == [-1] and [v.seat for v in own] == [0, 1, 2, 3]
    assert [v.seat for v in final.views] == [0, 1, 2, 3]  # the owner: every seat's view
    for view in [*spectator, *own, *final.views]:
        assert view.finished and view.counters["winner"] == winner
        assert [s for s, sv in enumerate(view.seats) if "hand" in sv.cards] == [winner]
        assert sorted(view.seats[winner].cards["hand"].ids) == sorted(own[winner].hand.ids)
    assert list(own) == list(final.views)  # a seat's own view is the owner's view of that seat
    assert not spectator[0].hand.ids
