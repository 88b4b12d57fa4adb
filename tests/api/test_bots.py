"""The bots' illegal tries (service/bots.py: what `referee selfplay` and the load test send): in
every registered game each is refused with the status and the reason it names, and a refusal
for another reason is the bots' error, not a success."""
import random

import grpc
import pytest

from referee.core.registry import GAMES
from referee.service import bots
from referee.v1 import options_pb2
from referee.v1 import referee_service_pb2 as pb

# shorter rounds of the long games: the refusals do not depend on how long a round lasts
SHORT = {"bidaxiao": {"max_rounds": 30}, "jielong": {"max_turns": 60}}


def _info(stub, game: str):
    return next(g for g in stub.ListGames(pb.ListGamesRequest()).games if g.id == game)


def _play(stub, game: str, seed: int):
    info = _info(stub, game)
    options = {k: options_pb2.OptionValue(int_value=v) for k, v in SHORT.get(game, {}).items()}
    return bots.play_round(stub, random.Random(seed), game=game, options=options, seed=b"bots %d" % seed,
                           illegal_rate=1.0, card_ids=info.card_ids, kinds={k.name for k in info.action_kinds})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_illegal_try_is_refused_with_its_status_and_reason(stub, game, monkeypatch):
    sent = []
    expect = bots._expect_refusal

    def recording(stub_, state, seq, action, metadata, refusal):
        sent.append(refusal)
        expect(stub_, state, seq, action, metadata, refusal)  # raises BotError on another answer

    monkeypatch.setattr(bots, "_expect_refusal", recording)
    rejected = sum(_play(stub, game, seed).rejected for seed in range(2))
    assert rejected == len(sent) > 0
    kinds = {k.name for k in _info(stub, game).action_kinds}
    # a pass LegalActions does not offer: refused now where the game has passes, else an unknown kind
    assert (bots.PASS_NOT_NOW if "PASS" in kinds else bots.UNKNOWN_KIND) in sent
    assert bots.ANOTHER_SEAT in sent or game == "bidaxiao"  # bidaxiao awaits every seat still in
    assert bots.NOT_HELD in sent or game == "jielong"  # jielong's PLAY names no card


def test_a_refusal_for_another_reason_is_an_error(stub, monkeypatch):
    monkeypatch.setattr(bots, "UNKNOWN_KIND", bots.Refusal(grpc.StatusCode.INVALID_ARGUMENT, ("NOT_A_REASON",)))
    with pytest.raises(bots.BotError, match="expected INVALID_ARGUMENT NOT_A_REASON, got INVALID_ARGUMENT BAD_ACTION"):
        _play(stub, "coushu", 0)


def test_refusal_judges_the_code_and_the_reason():
    assert bots.PASS_NOT_NOW.judge(grpc.StatusCode.FAILED_PRECONDITION, "MUST_LEAD") == ""
    assert bots.PASS_NOT_NOW.judge(grpc.StatusCode.FAILED_PRECONDITION, "WRONG_PHASE") == ""
    assert bots.NOT_HELD.judge(grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN") == (
        "expected FAILED_PRECONDITION CARDS_NOT_IN_HAND, got FAILED_PRECONDITION NOT_YOUR_TURN")
    assert bots.ANOTHER_SEAT.judge(grpc.StatusCode.UNAUTHENTICATED, "") == (
        "expected PERMISSION_DENIED NOT_YOUR_SEAT, got UNAUTHENTICATED (no reason)")


def test_abandons_go_to_seats_still_in_the_round(stub):
    """够级 goes on without a seat that abandons (its abandon policy): the bots' escapes name
    only seats still in the round, so `referee selfplay --game gouji` never sends a leaver's
    second ABANDON (refused, SEAT_LEFT) and every round ends."""
    played = [bots.play_round(stub, random.Random(seed), game="gouji", seed=b"escapes %d" % seed, abandon_rate=0.3)
              for seed in range(3)]
    escapes = [[a.seat for a in r.actions if a.kind == "ABANDON"] for r in played]
    assert all(len(seats) == len(set(seats)) for seats in escapes)
    assert any(len(seats) > 1 for seats in escapes)  # the case the test is for: a second leaver
