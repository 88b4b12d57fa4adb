"""Every RPC of referee.v1.Referee against a real server, and every error code a caller can reach."""
import hashlib

import grpc
import pytest

from referee.core.cards import card_rank, parse_cards
from referee.v1 import actions_pb2, cards_pb2, errors_pb2, options_pb2
from referee.v1 import referee_service_pb2 as pb

INVALID, NOT_FOUND = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND
FAILED, EXHAUSTED = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.RESOURCE_EXHAUSTED
BID, PASS, PLAY, ABANDON = actions_pb2.BID, actions_pb2.PASS, actions_pb2.PLAY, actions_pb2.ABANDON


def act(seat, kind, value=0, ids=(), text=""):
    return actions_pb2.Action(seat=seat, type=kind, value=value, cards=cards_pb2.CardSet(ids=ids, text=text))


def ddz_options(**fields):
    options = options_pb2.GameOptions()
    for name, value in fields.items():
        setattr(options.doudizhu, name, value)
    return options


# --- ListGames, Ping -------------------------------------------------------------------------------
def test_list_games_describes_doudizhu(stub):
    games = {g.id: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    ddz = games["doudizhu"]
    assert (ddz.min_seats, ddz.max_seats, ddz.decks) == (3, 3, 1)
    assert {"qq", "coins_rake", "coins_fixed_fee"} <= {p.name for p in ddz.presets}
    assert dict(next(p for p in ddz.presets if p.name == "coins_rake").values) == {"scoring": "coins_rake"}
    options = {o.name: o for o in ddz.options}
    assert set(options) == {f.name for f in options_pb2.GameOptions().doudizhu.DESCRIPTOR.fields}
    assert list(options["scoring"].allowed) == ["points", "coins_fixed_fee", "coins_rake"]
    assert options["scoring"].default_value == "points"
    assert options["rocket_as_kickers"].type == "bool" and options["rocket_as_kickers"].default_value == "false"
    assert (options["first_bidder"].minimum, options["first_bidder"].maximum) == (-1, 2)
    assert all(o.help for o in ddz.options)


def test_ping(stub):
    assert stub.Ping(pb.PingRequest()) == pb.PingResponse()


# --- Deal ------------------------------------------------------------------------------------------
def test_deal_views_commitment_and_determinism(stub, seeded_deal):
    deal = seeded_deal(b"seed-1")
    assert deal.commitment == hashlib.sha256(b"seed-1").digest()
    assert deal.seq == 0 and list(deal.to_act) == [0] and len(deal.state_digest) == 32
    assert [v.seat for v in deal.views] == [0, 1, 2]
    hands = [set(v.hand.ids) for v in deal.views]
    assert all(len(h) == 17 for h in hands) and len(set().union(*hands)) == 51
    assert all(v.hand.text.split() and list(v.hand_sizes) == [17, 17, 17] for v in deal.views)
    assert deal.views[0].phase == "bidding" and not deal.views[0].finished
    assert {e.seat: set(e.cards.ids) for e in deal.events if e.type == "DEAL"} == dict(enumerate(hands))
    again = seeded_deal(b"seed-1")
    assert again.state_digest == deal.state_digest and again.state != deal.state


def test_deal_single_seat_view_hides_other_deals(seeded_deal):
    deal = seeded_deal(view_seat=1)
    assert [v.seat for v in deal.views] == [1]
    for event in deal.events:
        if event.type == "DEAL":
            assert bool(event.cards.ids) == (event.seat == 1)
    spectator = seeded_deal(view_seat=-1)
    assert spectator.views[0].seat == -1 and not spectator.views[0].hand.ids


def test_deal_without_seed_draws_one(stub):
    a = stub.Deal(pb.DealRequest(game="doudizhu"))
    b = stub.Deal(pb.DealRequest(game="doudizhu", client_entropy=b"player entropy"))
    assert a.commitment != b.commitment


def test_deal_options_and_presets_apply(stub, seeded_deal):
    assert list(seeded_deal(first_bidder=2).to_act) == [2]
    deal = stub.Deal(pb.DealRequest(game="doudizhu", preset="coins_rake", seed=b"x",
                                    options=ddz_options(first_bidder=1, room_coefficient=1000)))
    assert list(deal.to_act) == [1]


@pytest.mark.parametrize("request_, code, reason", [
    (pb.DealRequest(game="chess"), NOT_FOUND, "UNKNOWN_GAME"),
    (pb.DealRequest(game="doudizhu", preset="no-such"), NOT_FOUND, "UNKNOWN_PRESET"),
    (pb.DealRequest(game="doudizhu", options=ddz_options(scoring="poker")), INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options=ddz_options(room_coefficient=0)), INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options=ddz_options(first_bidder=3)), INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", seats=4), INVALID, "BAD_SEAT_COUNT"),
    (pb.DealRequest(game="doudizhu", seed=b""), INVALID, "BAD_SEED"),
    (pb.DealRequest(game="doudizhu", client_entropy=bytes(257)), INVALID, "BAD_SEED"),
])
def test_deal_errors(stub, expect_error, request_, code, reason):
    expect_error(stub.Deal, request_, code, reason)


# --- Validate and Play -----------------------------------------------------------------------------
def test_validate_changes_nothing(stub, seeded_deal):
    deal = seeded_deal()
    ok = stub.Validate(pb.ValidateRequest(state=deal.state, action=act(0, BID, 2), expected_seq=0))
    assert ok.legal and ok.reason == errors_pb2.OK
    turn = stub.Validate(pb.ValidateRequest(state=deal.state, action=act(1, BID, 2)))
    assert not turn.legal and turn.reason == errors_pb2.NOT_YOUR_TURN and turn.message
    phase = stub.Validate(pb.ValidateRequest(state=deal.state, action=act(0, PLAY, ids=deal.views[0].hand.ids[:1])))
    assert phase.reason == errors_pb2.WRONG_PHASE


def test_validate_play_resolves_rank_string(stub, landlord_leads):
    hand = landlord_leads.views[0].hand.ids
    lowest = min(hand, key=lambda c: (card_rank(c), c))
    rank_text = "3456789TJQKA2BR"[card_rank(lowest)]
    verdict = stub.Validate(pb.ValidateRequest(state=landlord_leads.state, action=act(0, PLAY, text=rank_text)))
    assert verdict.legal and verdict.combination.kind == "single" and list(verdict.cards.ids) == [lowest]


@pytest.mark.parametrize("action, reason", [
    (act(0, PLAY, text="3S XX"), "UNKNOWN_CARD"),
    (act(0, PLAY, text="3Z"), "UNKNOWN_CARD"),
    (act(0, PLAY, ids=[54]), "UNKNOWN_CARD"),
    (act(0, PLAY, text="3S 3S"), "DUPLICATE_CARD"),
    (act(0, PLAY, ids=[1, 1]), "DUPLICATE_CARD"),
    (act(0, actions_pb2.ACTION_TYPE_UNSPECIFIED), "BAD_ACTION"),
    (act(0, 99), "BAD_ACTION"),
])
def test_malformed_actions(stub, expect_error, seeded_deal, action, reason):
    deal = seeded_deal()
    expect_error(stub.Validate, pb.ValidateRequest(state=deal.state, action=action), INVALID, reason)
    expect_error(stub.Play, pb.PlayRequest(state=deal.state, action=action), INVALID, reason)


def test_play_not_your_turn_keeps_old_token(stub, expect_error, seeded_deal):
    deal = seeded_deal()
    expect_error(stub.Play, pb.PlayRequest(state=deal.state, action=act(2, BID, 1)), FAILED, "NOT_YOUR_TURN")
    after = stub.Play(pb.PlayRequest(state=deal.state, action=act(0, BID, 1), expected_seq=0))
    assert after.seq == 1 and list(after.to_act) == [1] and after.events[0].type == "BID"


def test_bidding_rules_reach_the_caller(stub, expect_error, seeded_deal):
    deal = seeded_deal()
    after = stub.Play(pb.PlayRequest(state=deal.state, action=act(0, BID, 2)))
    expect_error(stub.Play, pb.PlayRequest(state=after.state, action=act(1, BID, 2)), FAILED, "BID_TOO_LOW")
    expect_error(stub.Play, pb.PlayRequest(state=after.state, action=act(1, BID, 7)), INVALID, "BAD_ACTION")


def test_illegal_plays_are_refused_and_old_token_still_works(stub, expect_error, landlord_leads):
    state, view = landlord_leads.state, landlord_leads.views[0]
    assert view.phase == "playing" and len(view.hand.ids) == 20 and "kitty" in view.public_cards
    expect_error(stub.Play, pb.PlayRequest(state=state, action=act(0, PASS)), FAILED, "MUST_LEAD")
    foreign = landlord_leads.views[1].hand.ids[0]
    expect_error(stub.Play, pb.PlayRequest(state=state, action=act(0, PLAY, ids=[foreign])),
                 FAILED, "CARDS_NOT_IN_HAND")
    by_rank = {}
    for card in view.hand.ids:
        if card_rank(card) < 13:
            by_rank.setdefault(card_rank(card), card)
    two_singles = list(by_rank.values())[:2]
    expect_error(stub.Play, pb.PlayRequest(state=state, action=act(0, PLAY, ids=two_singles)),
                 FAILED, "NOT_A_COMBINATION")
    first = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=0)).actions[0].action
    after = stub.Play(pb.PlayRequest(state=state, action=first, expected_seq=1))
    assert after.seq == 2 and after.events[0].type == "PLAY" and after.events[0].combination.kind
    assert len(after.views[0].hand.ids) == 20 - len(first.cards.ids)
    single = stub.Play(pb.PlayRequest(state=state, action=first, view_seat=2))
    assert [v.seat for v in single.views] == [2]


def test_tampered_token_is_invalid(stub, expect_error, seeded_deal):
    token = seeded_deal().state
    for i in (0, 1, len(token) // 2, len(token) - 1):
        bad = token[:i] + bytes([token[i] ^ 0x80]) + token[i + 1:]
        expect_error(stub.Validate, pb.ValidateRequest(state=bad, action=act(0, PASS)), INVALID, "STATE_TOKEN_INVALID")
    for bad in (b"", token[:20], b"not a token at all"):
        expect_error(stub.Play, pb.PlayRequest(state=bad, action=act(0, PASS)), INVALID, "STATE_TOKEN_INVALID")
    expect_error(stub.Score, pb.ScoreRequest(state=token[:-1]), INVALID, "STATE_TOKEN_INVALID")


def test_replayed_old_token_is_stale(stub, expect_error, seeded_deal):
    deal = seeded_deal()
    after = stub.Play(pb.PlayRequest(state=deal.state, action=act(0, PASS), expected_seq=0))
    info = expect_error(stub.Play, pb.PlayRequest(state=deal.state, action=act(0, PASS), expected_seq=after.seq),
                        FAILED, "STALE_STATE")
    assert info.domain == "referee.v1"
    expect_error(stub.LegalActions, pb.LegalActionsRequest(state=deal.state, seat=0, expected_seq=1),
                 FAILED, "STALE_STATE")


# --- LegalActions ------------------------------------------------------------------------------------
def test_legal_actions_while_bidding(stub, seeded_deal):
    deal = seeded_deal()
    legal = stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=0))
    assert legal.can_pass
    assert [(a.action.type, a.action.value) for a in legal.actions] == [(PASS, 0), (BID, 1), (BID, 2), (BID, 3)]
    assert not stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=1)).actions


def test_legal_actions_on_a_lead_are_concrete_and_legal(stub, expect_error, landlord_leads):
    state, hand = landlord_leads.state, set(landlord_leads.views[0].hand.ids)
    legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=0, expected_seq=1))
    assert not legal.can_pass and len(legal.actions) > 20
    for entry in legal.actions:
        ids = list(entry.action.cards.ids)
        assert entry.action.type == PLAY and set(ids) <= hand
        assert entry.action.cards.text and entry.ranks == entry.combination.rank_text
        assert len(ids) == entry.combination.size
    for entry in legal.actions[::7]:
        verdict = stub.Validate(pb.ValidateRequest(state=state, action=entry.action))
        assert verdict.legal and verdict.combination.kind == entry.combination.kind
    expect_error(stub.LegalActions, pb.LegalActionsRequest(state=state, seat=3), INVALID, "BAD_SEAT")


# --- Score ------------------------------------------------------------------------------------------
def test_score_refuses_an_unfinished_round(stub, expect_error, seeded_deal):
    expect_error(stub.Score, pb.ScoreRequest(state=seeded_deal().state), FAILED, "GAME_NOT_FINISHED")


def test_score_of_an_escape(stub, expect_error, landlord_leads):
    gone = stub.Play(pb.PlayRequest(state=landlord_leads.state, action=act(2, ABANDON)))
    assert gone.finished and not gone.to_act
    expect_error(stub.Play, pb.PlayRequest(state=gone.state, action=act(0, PASS)), FAILED, "GAME_OVER")
    score = stub.Score(pb.ScoreRequest(state=gone.state, cumulative_points=[100, 0, 12]))
    s = score.settlement
    assert s.outcome == "abandoned" and list(s.points) == [0, 0, -9] and s.house == 9
    assert sum(s.points) + s.house == 0 and s.mode == "points"
    assert list(score.cumulative_points) == [100, 0, 3]
    assert list(score.titles) == ["貧農", "包身工", "包身工"]
    assert score.seed == b"api-tests" and score.commitment == hashlib.sha256(b"api-tests").digest()
    for bad in ([1], [2**63 - 1, 0, 0]):
        expect_error(stub.Score, pb.ScoreRequest(state=gone.state, cumulative_points=bad), INVALID, "MALFORMED_REQUEST")


def test_score_in_coin_mode(stub):
    deal = stub.Deal(pb.DealRequest(game="doudizhu", preset="coins_fixed_fee", seed=b"coins",
                                    options=ddz_options(room_coefficient=1000, room_fee=50, first_bidder=0)))
    gone = stub.Play(pb.PlayRequest(state=deal.state, action=act(1, ABANDON)))
    s = stub.Score(pb.ScoreRequest(state=gone.state)).settlement
    assert s.mode == "coins_fixed_fee" and list(s.coins) == [0, -3050, 0] and s.coins_house == 3050


# --- Classify and Compare ---------------------------------------------------------------------------
def test_classify(stub, expect_error):
    def kinds(**cards):
        reply = stub.Classify(pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(**cards)))
        return {r.kind for r in reply.readings}

    assert kinds(text="666777888999") >= {"trio_straight", "airplane_singles"}
    assert kinds(text="BR") == {"rocket"}
    assert kinds(ids=parse_cards("3S 3H 3D 4C")) == {"trio_single"}
    assert kinds(text="34") == set()
    reply = stub.Classify(pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(text="3S 4S 5S 6S 7S")))
    straight = reply.readings[0]
    assert (straight.kind, straight.main_rank, straight.chain, straight.size, straight.rank_text) == \
        ("straight", 4, 5, 5, "34567")
    expect_error(stub.Classify, pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(text="33X")),
                 INVALID, "UNKNOWN_CARD")
    expect_error(stub.Classify, pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(ids=[60])),
                 INVALID, "UNKNOWN_CARD")
    expect_error(stub.Classify, pb.ClassifyRequest(game="nope", cards=cards_pb2.CardSet(text="3")),
                 NOT_FOUND, "UNKNOWN_GAME")


def test_classify_follows_options(stub):
    text = cards_pb2.CardSet(text="333444BR")
    plain = stub.Classify(pb.ClassifyRequest(game="doudizhu", cards=text)).readings
    jokers = stub.Classify(pb.ClassifyRequest(game="doudizhu", cards=text,
                                              options=ddz_options(rocket_as_kickers=True))).readings
    assert not plain and {r.kind for r in jokers} == {"airplane_singles"}


@pytest.mark.parametrize("a, b, beats", [("22", "AA", True), ("33", "AA", False), ("3333", "BR", False),
                                         ("5555", "22", True), ("34567", "45678", False)])
def test_compare(stub, a, b, beats):
    reply = stub.Compare(pb.CompareRequest(game="doudizhu", a=cards_pb2.CardSet(text=a), b=cards_pb2.CardSet(text=b)))
    assert reply.beats is beats and reply.a.rank_text == a and reply.b.rank_text == b


def test_compare_errors(stub, expect_error):
    request = pb.CompareRequest(game="doudizhu", a=cards_pb2.CardSet(text="34"), b=cards_pb2.CardSet(text="5"))
    expect_error(stub.Compare, request, INVALID, "NOT_A_COMBINATION")
    request = pb.CompareRequest(game="doudizhu", options=options_pb2.GameOptions(), preset="zzz",
                                a=cards_pb2.CardSet(text="3"), b=cards_pb2.CardSet(text="5"))
    expect_error(stub.Compare, request, NOT_FOUND, "UNKNOWN_PRESET")


# --- limits and malformed bytes ---------------------------------------------------------------------
def test_oversize_request_is_resource_exhausted(stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.Classify(pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(text="3" * (2 << 20))))
    assert caught.value.code() == EXHAUSTED


def test_too_many_cards_is_request_too_large(stub, expect_error):
    request = pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(text="3" * 5000))
    expect_error(stub.Classify, request, EXHAUSTED, "REQUEST_TOO_LARGE")


def test_bytes_that_do_not_parse_are_invalid_argument(channel, expect_error):
    raw = channel.unary_unary("/referee.v1.Referee/Deal")
    expect_error(raw, b"\x0a\xff\xff\xff", INVALID, "MALFORMED_REQUEST")
