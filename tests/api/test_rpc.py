"""Every RPC of referee.v1.RefereeService against a real server, and every error code a caller can reach."""
import hashlib
import random

import grpc
import pytest

from referee.core.cards import card_rank, parse_cards
from referee.v1 import actions_pb2, cards_pb2, errors_pb2, options_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of

INVALID, NOT_FOUND = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND
FAILED, EXHAUSTED = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.RESOURCE_EXHAUSTED
BID, PASS, PLAY, ABANDON = "BID", "PASS", "PLAY", "ABANDON"


def act(seat, kind, value=0, ids=(), text=""):
    return actions_pb2.Action(seat=seat, kind=kind, value=value, cards=cards_pb2.CardSet(ids=ids, text=text))


def option_value(value) -> options_pb2.OptionValue:
    if isinstance(value, bool):
        return options_pb2.OptionValue(bool_value=value)
    if isinstance(value, int):
        return options_pb2.OptionValue(int_value=value)
    return options_pb2.OptionValue(string_value=value)


def ddz_options(**fields):
    """The `options` map of a request: each value as the OptionValue of its Python type."""
    return {name: option_value(value) for name, value in fields.items()}


# --- ListGames, Ping -------------------------------------------------------------------------------
def test_list_games_describes_doudizhu(stub):
    games = {g.id: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    ddz = games["doudizhu"]
    assert (ddz.min_seats, ddz.max_seats, ddz.decks) == (3, 3, 1)
    assert {"qq", "coins_rake", "coins_fixed_fee"} <= {p.name for p in ddz.presets}
    assert dict(next(p for p in ddz.presets if p.name == "coins_rake").values) == ddz_options(scoring="coins_rake")
    options = {o.name: o for o in ddz.options}
    assert set(options) == {"rocket_as_kickers", "scoring", "room_coefficient", "room_fee", "first_bidder",
                            "clock", "clock_seconds"}
    assert list(options["scoring"].allowed) == [option_value(v) for v in ("points", "coins_fixed_fee", "coins_rake")]
    assert options["scoring"].default_value == option_value("points")
    assert options["rocket_as_kickers"].type == "bool"
    assert options["rocket_as_kickers"].default_value == option_value(False)
    assert options["rocket_as_kickers"].default_value.WhichOneof("value") == "bool_value"
    assert options["first_bidder"].default_value == option_value(-1)
    assert (options["first_bidder"].minimum, options["first_bidder"].maximum) == (-1, 2)
    assert all(o.help for o in ddz.options)


DDZ_EVENTS = {"DEAL", "BID_TURN", "BID", "REDEAL", "LANDLORD", "PLAY", "PASS", "BOMB", "TRICK_WON", "ABANDON",
              "FINISH", "TIMEOUT"}
MCR_EVENTS = {"DEAL", "FLOWER", "DRAW", "DISCARD", "CLAIM_WINDOW", "CHOW", "PUNG", "KONG", "WIN",
              "DRAWN_GAME", "ABANDON", "TIMEOUT", "FALSE_WIN"}


def test_list_games_describes_each_game_as_data(stub):
    listed = stub.ListGames(pb.ListGamesRequest()).games
    games = {g.id: g for g in listed}
    assert [g.id for g in listed] == sorted(games)
    ddz, mcr = games["doudizhu"], games["mcr"]
    assert (ddz.default_seats, ddz.card_space, ddz.card_ids) == (3, "poker", 54)
    assert (mcr.min_seats, mcr.max_seats, mcr.default_seats, mcr.card_space, mcr.card_ids) == (4, 4, 4, "mahjong", 144)
    # action kinds, with the Action fields each reads
    ddz_kinds = {k.name: list(k.fields) for k in ddz.action_kinds}
    assert set(ddz_kinds) == {"PASS", "BID", "PLAY", "ABANDON", "TIMEOUT"}
    assert ddz_kinds["BID"] == ["value"] and ddz_kinds["PASS"] == [] and "cards" in ddz_kinds["PLAY"]
    mcr_kinds = {k.name: list(k.fields) for k in mcr.action_kinds}
    assert set(mcr_kinds) == {"DISCARD", "CHOW", "PUNG", "KONG", "WIN", "PASS", "ABANDON", "TIMEOUT"}
    assert all(mcr_kinds[k] == ["cards"] for k in ("DISCARD", "CHOW", "PUNG", "KONG"))
    # the game's own reasons, none of them a common one
    common = {v.name.removeprefix("REASON_CODE_") for v in errors_pb2.ReasonCode.DESCRIPTOR.values}
    assert {r.name for r in ddz.reasons} == {"BID_TOO_LOW", "DECLARED_READING_INVALID"}
    assert {r.name for r in mcr.reasons} == {"NOT_WIN", "UNDER_8"}
    assert not common & {r.name for g in (ddz, mcr) for r in g.reasons}
    # phases and the keys of views and events
    assert list(ddz.phases) == ["bidding", "playing", "finished"]
    assert list(mcr.phases) == ["turn", "claim", "rob_kong", "finished"]
    assert {c.name for c in ddz.counters} == {"base", "multiplier", "bombs", "first_bidder", "deal_no", "landlord",
                                              "passes", "round"}
    assert {c.name for c in ddz.seat_counters} == {"bid", "plays"}
    assert {c.name for c in ddz.public_cards} == {"kitty", "played"}
    assert not ddz.seat_cards  # the cards left in hands stay hidden when the round ends
    assert {r.name for r in ddz.roles} == {"landlord", "farmer"}
    assert {e.name for e in ddz.event_types} == DDZ_EVENTS
    assert {v.name for e in ddz.event_types if e.name == "BID" for v in e.values} == {"bid"}
    assert {c.name for c in mcr.counters} == {"wall", "dealer", "prevalent_wind", "min_points", "turn", "drawn",
                                              "after_kong", "round", "winner", "payer", "points", "total"}
    assert not mcr.seat_counters
    assert {c.name for c in mcr.public_cards} == {"claim_tile", "win_tile"}
    assert {c.name for c in mcr.seat_cards} == {"discards", "flowers", "hand"}
    assert "winner" in next(c.help for c in mcr.seat_cards if c.name == "hand")  # the winner's hand only
    assert {r.name for r in mcr.roles} == {"east", "south", "west", "north"}
    assert {e.name for e in mcr.event_types} == MCR_EVENTS
    # capabilities
    assert {"classify", "compare", "hints"} <= set(ddz.capabilities) and "fans" not in ddz.capabilities
    assert "fans" in mcr.capabilities and not {"classify", "compare"} & set(mcr.capabilities)
    # every name comes with what it means
    for g in (ddz, mcr):
        named = [*g.action_kinds, *g.reasons, *g.counters, *g.seat_counters, *g.public_cards, *g.seat_cards,
                 *g.roles, *g.event_types, *(v for e in g.event_types for v in e.values)]
        assert all(n.help for n in named), g.id


def test_list_games_option_defaults_are_typed(stub):
    field = {"bool": "bool_value", "int": "int_value", "enum": "string_value"}
    games = stub.ListGames(pb.ListGamesRequest()).games
    assert {o.type for g in games for o in g.options} == set(field)
    for game in games:
        for o in game.options:
            assert o.default_value.WhichOneof("value") == field[o.type], (game.id, o.name)
            assert all(a.WhichOneof("value") == field[o.type] for a in o.allowed), (game.id, o.name)
            assert o.type != "enum" or o.allowed, (game.id, o.name)  # an enum lists its values
            assert o.type != "bool" or not o.allowed, (game.id, o.name)  # an int may list its values
        for preset in game.presets:
            types = {o.name: o.type for o in game.options}
            assert all(v.WhichOneof("value") == field[types[k]] for k, v in preset.values.items()), preset.name
    mcr = {o.name: o for o in next(g for g in games if g.id == "mcr").options}
    assert mcr["hands"].default_value == option_value(16) and (mcr["hands"].minimum, mcr["hands"].maximum) == (1, 64)
    q783 = {o.name: o for o in next(g for g in games if g.id == "q783").options}
    assert q783["penalty_camp"].type == "int" and list(q783["penalty_camp"].allowed) == [
        option_value(50), option_value(100), option_value(200)]


@pytest.mark.parametrize("game, seed", [("doudizhu", b"names-1"), ("doudizhu", b"names-2"), ("mcr", b"names-1"),
                                        ("mcr", b"names-2")])
def test_views_and_events_use_the_names_list_games_declares(stub, game, seed):
    """A whole round through the API (random legal actions): every phase, key, role and event
    type the views and events carry is one ListGames lists."""
    info = next(g for g in stub.ListGames(pb.ListGamesRequest()).games if g.id == game)
    declared_events = {e.name: {v.name for v in e.values} for e in info.event_types}
    seen = {"phases": set(), "counters": set(), "seat_counters": set(), "public_cards": set(), "seat_cards": set(),
            "roles": set(), "events": set()}

    def record(views, events):
        for v in views:
            seen["phases"].add(v.phase)
            seen["counters"] |= set(v.counters)
            seen["public_cards"] |= set(v.public_cards)
            for sv in v.seats:
                seen["seat_counters"] |= set(sv.counters)
                seen["seat_cards"] |= set(sv.cards)
                seen["roles"].add(sv.role)
        for e in events:
            seen["events"].add(e.type)
            assert e.type in declared_events and set(e.values) <= declared_events[e.type], e

    rng = random.Random(seed)
    deal = stub.Deal(pb.DealRequest(game=game, seed=seed))
    record(deal.views, deal.events)
    state, to_act, finished = deal.state, list(deal.to_act), False
    for _ in range(1000):
        if finished:
            break
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=to_act[0])).actions
        after = stub.Play(pb.PlayRequest(state=state, action=rng.choice(legal).action))
        record(after.views, after.events)
        state, to_act, finished = after.state, list(after.to_act), after.finished
    assert finished
    assert seen["phases"] <= set(info.phases) and "finished" in seen["phases"]
    for key in ("counters", "seat_counters", "public_cards", "seat_cards"):
        assert seen[key] <= {n.name for n in getattr(info, key)}, key
    assert seen["roles"] <= {r.name for r in info.roles} | {""}
    assert seen["counters"] and len(seen["events"]) > 3


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
    assert all(v.hand.text.split() and [s.hand_size for s in v.seats] == [17, 17, 17] for v in deal.views)
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
    # the options map: each value of its option's type, every name one of the game's
    (pb.DealRequest(game="doudizhu", options={"rocket_as_kickers": options_pb2.OptionValue(int_value=1)}),
     INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options={"first_bidder": options_pb2.OptionValue(string_value="1")}),
     INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options={"room_fee": options_pb2.OptionValue(bool_value=True)}),
     INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options={"scoring": options_pb2.OptionValue(int_value=0)}), INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options={"no_such_option": options_pb2.OptionValue(int_value=0)}),
     INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", options={"first_bidder": options_pb2.OptionValue()}), INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="mcr", options=ddz_options(first_bidder=0)), INVALID, "BAD_OPTION"),
    (pb.DealRequest(game="doudizhu", seats=4), INVALID, "BAD_SEAT_COUNT"),
    (pb.DealRequest(game="doudizhu", seed=b""), INVALID, "BAD_SEED"),
    (pb.DealRequest(game="doudizhu", client_entropy=bytes(257)), INVALID, "BAD_SEED"),
])
def test_deal_errors(stub, expect_error, request_, code, reason):
    expect_error(stub.Deal, request_, code, reason)


def test_long_names_and_values_are_not_echoed(stub):
    """A caller's long option name, option value or action kind reaches the error message as a
    short prefix at most."""
    name, value = "o" * 5000, "9" * 5000
    for options in ({name: options_pb2.OptionValue(int_value=1)}, {name: options_pb2.OptionValue()},
                    {"first_bidder": options_pb2.OptionValue(string_value=value)},
                    {"scoring": options_pb2.OptionValue(string_value=value)}):
        code, info, message = error_of(stub.Deal, pb.DealRequest(game="doudizhu", options=options))
        assert code == INVALID and info is not None and (info.domain, info.reason) == ("referee.v1", "BAD_OPTION")
        assert len(message) < 200 and "o" * 41 not in message and "9" * 41 not in message, message
    code, info, message = error_of(stub.Play, pb.PlayRequest(state=stub.Deal(pb.DealRequest(game="doudizhu")).state,
                                                             action=actions_pb2.Action(seat=0, kind="K" * 5000)))
    assert code == INVALID and info is not None and info.reason == "BAD_ACTION"
    assert len(message) < 200 and "K" * 41 not in message, message


def test_options_map_reaches_classify_and_compare(stub, expect_error):
    bad = {"rocket_as_kickers": options_pb2.OptionValue(string_value="true")}
    expect_error(stub.Classify, pb.ClassifyRequest(game="doudizhu", options=bad, cards=cards_pb2.CardSet(text="3")),
                 INVALID, "BAD_OPTION")
    expect_error(stub.Compare, pb.CompareRequest(game="doudizhu", options=bad, a=cards_pb2.CardSet(text="4"),
                                                 b=cards_pb2.CardSet(text="3")), INVALID, "BAD_OPTION")


# --- Validate and Play -----------------------------------------------------------------------------
def test_validate_changes_nothing(stub, seeded_deal):
    deal = seeded_deal()
    ok = stub.Validate(pb.ValidateRequest(state=deal.state, action=act(0, BID, 2), expected_seq=0))
    assert ok.legal and ok.reason == "OK"
    turn = stub.Validate(pb.ValidateRequest(state=deal.state, action=act(1, BID, 2)))
    assert not turn.legal and turn.reason == "NOT_YOUR_TURN" and turn.message
    phase = stub.Validate(pb.ValidateRequest(state=deal.state, action=act(0, PLAY, ids=deal.views[0].hand.ids[:1])))
    assert not phase.legal and phase.reason == "WRONG_PHASE"


def test_validate_play_resolves_rank_string(stub, landlord_leads):
    hand = landlord_leads.views[0].hand.ids
    lowest = min(hand, key=lambda c: (card_rank(c), c))
    rank_text = "3456789TJQKA2BR"[card_rank(lowest)]
    verdict = stub.Validate(pb.ValidateRequest(state=landlord_leads.state, action=act(0, PLAY, text=rank_text)))
    assert verdict.legal and verdict.combination.kind == "single" and list(verdict.cards.ids) == [lowest]


@pytest.mark.parametrize("call", ["Validate", "Play"])
@pytest.mark.parametrize("action, reason", [
    (act(0, PLAY, text="3S XX"), "UNKNOWN_CARD"),
    (act(0, PLAY, text="3Z"), "UNKNOWN_CARD"),
    (act(0, PLAY, ids=[54]), "UNKNOWN_CARD"),
    (act(0, PLAY, text="3S 3S"), "DUPLICATE_CARD"),
    (act(0, PLAY, ids=[1, 1]), "DUPLICATE_CARD"),
    (act(0, ""), "BAD_ACTION"),
    (act(0, "FLY"), "BAD_ACTION"),
    (act(0, "F" * 5000), "BAD_ACTION"),
], ids=["bad_text", "bad_rank", "bad_id", "twice_text", "twice_id", "no_kind", "unknown_kind", "long_kind"])
def test_malformed_actions(stub, expect_error, seeded_deal, call, action, reason):
    deal = seeded_deal()
    request = (pb.ValidateRequest if call == "Validate" else pb.PlayRequest)(state=deal.state, action=action)
    expect_error(getattr(stub, call), request, INVALID, reason)


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


def test_a_kind_of_another_phase_is_wrong_phase(stub, expect_error, seeded_deal, landlord_leads):
    verdict = stub.Validate(pb.ValidateRequest(state=landlord_leads.state, action=act(0, BID, 3)))
    assert not verdict.legal and verdict.reason == "WRONG_PHASE" and verdict.message
    expect_error(stub.Play, pb.PlayRequest(state=landlord_leads.state, action=act(0, BID, 3)), FAILED, "WRONG_PHASE")
    expect_error(stub.Play, pb.PlayRequest(state=landlord_leads.state, action=act(0, BID, 9)), FAILED, "WRONG_PHASE")
    # a kind of another game is no kind of this one
    expect_error(stub.Play, pb.PlayRequest(state=seeded_deal().state, action=act(0, "DISCARD")), INVALID, "BAD_ACTION")


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
    assert [(a.action.kind, a.action.value) for a in legal.actions] == [(PASS, 0), (BID, 1), (BID, 2), (BID, 3)]
    assert not stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=1)).actions


def test_legal_actions_on_a_lead_are_concrete_and_legal(stub, expect_error, landlord_leads):
    state, hand = landlord_leads.state, set(landlord_leads.views[0].hand.ids)
    legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=0, expected_seq=1))
    assert not legal.can_pass and len(legal.actions) > 20
    for entry in legal.actions:
        ids = list(entry.action.cards.ids)
        assert entry.action.kind == PLAY and set(ids) <= hand
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
    assert sum(s.points) + s.house == 0 and not s.seat_values and not s.values  # points mode: no coins
    assert list(score.cumulative_points) == [100, 0, 3]
    assert list(score.standings["title"].labels) == ["貧農", "包身工", "包身工"] and not score.titles
    # an abandoned round (perhaps a copy of a live round's token) reveals no seed unless asked
    assert score.abandoned and not score.seed and not score.deal.game
    assert score.commitment == hashlib.sha256(b"api-tests").digest()
    revealed = stub.Score(pb.ScoreRequest(state=gone.state, reveal_abandoned=True))
    assert revealed.seed == b"api-tests" and revealed.deal.game == "doudizhu"
    for bad in ([1], [2**63 - 1, 0, 0]):
        expect_error(stub.Score, pb.ScoreRequest(state=gone.state, cumulative_points=bad), INVALID, "MALFORMED_REQUEST")


def test_score_in_coin_mode(stub):
    deal = stub.Deal(pb.DealRequest(game="doudizhu", preset="coins_fixed_fee", seed=b"coins",
                                    options=ddz_options(room_coefficient=1000, room_fee=50, first_bidder=0)))
    gone = stub.Play(pb.PlayRequest(state=deal.state, action=act(1, ABANDON)))
    s = stub.Score(pb.ScoreRequest(state=gone.state)).settlement
    assert list(s.seat_values["coins"].values) == [0, -3050, 0] and dict(s.values) == {"coins_house": 3050}
    assert not s.coins and not s.coins_house and not s.mode  # the deprecated fields stay unset


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
    request = pb.CompareRequest(game="doudizhu", options=ddz_options(rocket_as_kickers=True), preset="zzz",
                                a=cards_pb2.CardSet(text="3"), b=cards_pb2.CardSet(text="5"))
    expect_error(stub.Compare, request, NOT_FOUND, "UNKNOWN_PRESET")


def test_classify_and_compare_without_the_capability_are_unimplemented(stub, expect_error):
    unimplemented = grpc.StatusCode.UNIMPLEMENTED
    tiles = cards_pb2.CardSet(text="W1 W2 W3")
    expect_error(stub.Classify, pb.ClassifyRequest(game="mcr", cards=tiles), unimplemented, "UNSUPPORTED")
    expect_error(stub.Compare, pb.CompareRequest(game="mcr", a=tiles, b=cards_pb2.CardSet(text="T1 T1 T1")),
                 unimplemented, "UNSUPPORTED")
    expect_error(stub.Classify, pb.ClassifyRequest(game="mcr", cards=cards_pb2.CardSet(ids=[0, 4, 8])),
                 unimplemented, "UNSUPPORTED")


# --- matches ------------------------------------------------------------------------------------------
def finished_round(stub, deal, abandon_seat: int):
    """The deal's first bidder bids 3, then ``abandon_seat`` leaves: (first bidder, finished PlayResponse)."""
    first = next(e.seat for e in deal.events if e.type == "BID_TURN")
    assert list(deal.to_act) == [first]
    bid = stub.Play(pb.PlayRequest(state=deal.state, action=act(first, BID, 3)))
    gone = stub.Play(pb.PlayRequest(state=bid.state, action=act(abandon_seat, ABANDON)))
    assert gone.finished
    return first, gone


def test_a_match_carries_points_and_rotates_the_first_bidder(stub):
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"match-1"))  # the first bidder drawn from the seed
    assert deal.match.round == 0 and list(deal.match.totals) == [0, 0, 0]
    first, gone = finished_round(stub, deal, 2)
    score = stub.Score(pb.ScoreRequest(state=gone.state))
    points = list(score.settlement.points)
    assert any(points)
    assert (score.match.round, list(score.match.totals), score.match.over) == (0, points, False)

    second = stub.Deal(pb.DealRequest(previous_state=gone.state, seed=b"match-2"))
    assert second.match.round == 1 and list(second.match.totals) == points
    assert list(second.to_act) == [(first + 1) % 3]
    assert next(e.seat for e in second.events if e.type == "BID_TURN") == (first + 1) % 3
    assert all(v.counters["round"] == 1 and v.counters["first_bidder"] == (first + 1) % 3 for v in second.views)
    assert second.commitment == hashlib.sha256(b"match-2").digest() and second.seq == 0

    first2, gone2 = finished_round(stub, second, first)  # another seat leaves this time
    assert first2 == (first + 1) % 3
    score2 = stub.Score(pb.ScoreRequest(state=gone2.state))
    totals = [a + b for a, b in zip(points, score2.settlement.points)]
    assert totals != points
    assert (score2.match.round, list(score2.match.totals), score2.match.over) == (1, totals, False)
    third = stub.Deal(pb.DealRequest(previous_state=gone2.state))
    assert third.match.round == 2 and list(third.match.totals) == totals
    assert list(third.to_act) == [(first + 2) % 3]


def test_a_match_ends_after_its_rounds(stub, expect_error):
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"match-mcr", options={"hands": option_value(2)}))
    gone = stub.Play(pb.PlayRequest(state=deal.state, action=act(1, ABANDON)))
    score = stub.Score(pb.ScoreRequest(state=gone.state))
    assert (score.match.round, list(score.match.totals), score.match.over) == (0, list(score.settlement.points), False)
    second = stub.Deal(pb.DealRequest(previous_state=gone.state))
    assert second.match.round == 1 and list(second.match.totals) == list(score.settlement.points)
    last = stub.Play(pb.PlayRequest(state=second.state, action=act(0, ABANDON)))
    final = stub.Score(pb.ScoreRequest(state=last.state))
    totals = [a + b for a, b in zip(score.settlement.points, final.settlement.points)]
    assert (final.match.round, list(final.match.totals), final.match.over) == (1, totals, True)
    nxt = stub.Deal(pb.DealRequest(previous_state=last.state))  # the table's next match
    assert (nxt.match.round, list(nxt.match.totals), nxt.match.number) == (0, [0] * 4, 1)
    assert list(nxt.seat_credentials) == list(deal.seat_credentials) and nxt.owner_credential == deal.owner_credential


def test_next_round_refusals(stub, expect_error, seeded_deal):
    deal = seeded_deal(b"match-refusals")
    expect_error(stub.Deal, pb.DealRequest(previous_state=deal.state), FAILED, "GAME_NOT_FINISHED")
    _, gone = finished_round(stub, deal, 1)
    assert stub.Deal(pb.DealRequest(previous_state=gone.state)).match.round == 1
    for extra in (dict(game="doudizhu"), dict(preset="qq"), dict(options=ddz_options(first_bidder=0)),
                  dict(seats=3)):
        expect_error(stub.Deal, pb.DealRequest(previous_state=gone.state, **extra), INVALID, "MALFORMED_REQUEST")
    token = gone.state
    for i in (0, len(token) // 2, len(token) - 1):
        bad = token[:i] + bytes([token[i] ^ 0x01]) + token[i + 1:]
        expect_error(stub.Deal, pb.DealRequest(previous_state=bad), INVALID, "STATE_TOKEN_INVALID")
    expect_error(stub.Deal, pb.DealRequest(previous_state=token[:-1]), INVALID, "STATE_TOKEN_INVALID")


# --- limits and malformed bytes ---------------------------------------------------------------------
def test_oversize_request_is_resource_exhausted(stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.Classify(pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(text="3" * (2 << 20))))
    assert caught.value.code() == EXHAUSTED


def test_too_many_cards_is_request_too_large(stub, expect_error):
    request = pb.ClassifyRequest(game="doudizhu", cards=cards_pb2.CardSet(text="3" * 5000))
    expect_error(stub.Classify, request, EXHAUSTED, "REQUEST_TOO_LARGE")


def test_bytes_that_do_not_parse_are_invalid_argument(channel, expect_error):
    raw = channel.unary_unary("/referee.v1.RefereeService/Deal")
    expect_error(raw, b"\x0a\xff\xff\xff", INVALID, "MALFORMED_REQUEST")
