"""Dou Dizhu as a game: deal, bidding, play, scoring, escape, coins, titles (spec rules 1-18).

Play-phase positions are built directly with ``State._replace`` from a real deal, so each
test shows the hands it is about.
"""

import pytest

from referee.core import cards as cardlib
from referee.core import rng
from referee.core.games.doudizhu import rules as doudizhu
from referee.core.games.doudizhu.rules import BID, DOUDIZHU, FINISHED, PLAYING, Options
from referee.core.errors import IllegalAction, InvalidAction, Reason, UnknownName
from referee.core.game import ABANDON, PASS, PLAY, Action
from referee.core.tricks import Trick

# malformed input: refused with InvalidAction; every other reason (a broken rule, the state
# forbids it) with IllegalAction
MALFORMED = {Reason.MALFORMED_REQUEST, Reason.UNKNOWN_CARD, Reason.DUPLICATE_CARD, Reason.BAD_OPTION,
             Reason.BAD_SEAT_COUNT, Reason.BAD_SEAT, Reason.BAD_ACTION, Reason.STATE_TOKEN_INVALID,
             Reason.BAD_SEED}


def ids(text):
    return cardlib.parse_cards(text)


def mask(text):
    return cardlib.to_mask(ids(text))


def bid(seat, value):
    return Action(seat, BID, value=value) if value else Action(seat, PASS)


def play(seat, text):
    return Action(seat, PLAY, ids(text))


def play_ranks(seat, text, declared=""):
    return Action(seat, PLAY, ranks=cardlib.parse_ranks(text), declared=declared)


def run(state, *actions):
    events = []
    for action in actions:
        state, new = DOUDIZHU.apply(state, action)
        events += new
    return state, events


def refused(state, action, reason):
    verdict = DOUDIZHU.check(state, action)
    assert not verdict.legal
    assert verdict.reason == reason
    with pytest.raises(InvalidAction if reason in MALFORMED else IllegalAction) as error:
        DOUDIZHU.apply(state, action)
    assert error.value.reason == reason


def dealt(first_bidder=0, seed=b"game-tests", options=None):
    options = options or Options(first_bidder=first_bidder)
    return DOUDIZHU.deal(options, seed)


def position(hands, landlord=0, to_act=None, base=1, table="", table_seat=-1, plays=(1, 1, 1),
             options=None):
    """A play-phase state: ``hands`` per seat as cards; ``table`` (ranks, read as when led) the
    play to beat, made by ``table_seat``."""
    state = dealt(options=options)
    hand_masks = tuple(mask(h) for h in hands)
    table_play = 0
    if table:
        table_play, _ = doudizhu.choose_reading(doudizhu.classify(doudizhu.parse_hand(table)), 0)
        assert table_play, table
    bids = tuple(base if s == landlord else 0 for s in range(3))
    to_act = landlord if to_act is None else to_act
    trick = Trick(table_seat, table_play, table_seat) if table else Trick(to_act)
    return state._replace(
        phase=PLAYING, hands=hand_masks, kitty=0, bids=bids, landlord=landlord, base=base,
        to_act=(to_act,), trick=trick, plays=plays)


def finished(landlord=0, winner=0, base=1, bombs=0, plays=(2, 2, 2), options=None):
    state = position(("", "", ""), landlord=landlord, base=base, plays=plays, options=options)
    return state._replace(phase=FINISHED, to_act=(), out=(winner,), bombs=bombs)


def types(events):
    return [e.type for e in events]


# --- options -----------------------------------------------------------------------------------

def test_ddz_options_defaults_follow_the_spec():
    options = DOUDIZHU.make_options()
    assert options == Options()
    assert (options.rocket_as_kickers, options.scoring, options.first_bidder) == (False, "points", -1)
    assert DOUDIZHU.make_options("coins_rake").scoring == "coins_rake"
    assert DOUDIZHU.make_options("", {"rocket_as_kickers": True}).rocket_as_kickers is True


@pytest.mark.parametrize("overrides", [{"no_such_option": 1}, {"scoring": "chips"},
                                       {"first_bidder": 3}, {"first_bidder": -2},
                                       {"rocket_as_kickers": 1}, {"room_coefficient": 0},
                                       {"room_coefficient": True}, {"room_fee": "50"}])
def test_ddz_options_refuse_bad_values(overrides):
    with pytest.raises(InvalidAction) as error:
        DOUDIZHU.make_options("", overrides)
    assert error.value.reason == Reason.BAD_OPTION


def test_ddz_options_unknown_preset():
    with pytest.raises(UnknownName) as error:
        DOUDIZHU.make_options("no_such_preset")
    assert error.value.reason == Reason.UNKNOWN_PRESET


# --- deal (rules 1-2) -------------------------------------------------------------------------

def test_ddz_rule_1_seventeen_each_and_a_kitty_of_three():
    state = dealt()
    assert [h.bit_count() for h in state.hands] == [17, 17, 17]
    assert state.kitty.bit_count() == 3
    union = state.kitty
    for h in state.hands:
        assert union & h == 0
        union |= h
    assert union == (1 << 54) - 1
    deals = [e for e in DOUDIZHU.deal_events(state) if e.type == "DEAL"]
    assert [(e.seat, cardlib.to_mask(e.cards)) for e in deals] == list(enumerate(state.hands))


def test_ddz_rule_1_deal_follows_the_documented_stream():
    seed, entropy = b"documented", b"caller"
    state = DOUDIZHU.deal(Options(first_bidder=0), seed, entropy)
    deck = rng.Stream(rng.deal_key(seed, entropy), "deal/0").shuffle(range(54))
    assert state.hands == tuple(cardlib.to_mask(deck[17 * s:17 * s + 17]) for s in range(3))
    assert state.kitty == cardlib.to_mask(deck[51:])


# --- bidding (rules 3-7) ----------------------------------------------------------------------

def test_ddz_rule_3_bidding_goes_in_seat_order_from_the_first_bidder():
    state = dealt(first_bidder=1)
    assert state.to_act == (1,)
    state, _ = run(state, bid(1, 1))
    assert state.to_act == (2,)
    state, _ = run(state, bid(2, 0))
    assert state.to_act == (0,)


def test_ddz_rule_3_bid_must_exceed_every_earlier_bid():
    state, _ = run(dealt(first_bidder=1), bid(1, 2))
    refused(state, bid(2, 1), doudizhu.BID_TOO_LOW)
    refused(state, bid(2, 2), doudizhu.BID_TOO_LOW)
    assert DOUDIZHU.check(state, bid(2, 3)).legal
    assert [(a.kind, a.value) for a, _ in DOUDIZHU.legal_actions(state, 2)] == [(PASS, 0), (BID, 3)]


def test_ddz_rule_3_a_pass_is_no_bid():
    state, _ = run(dealt(first_bidder=0), bid(0, 0))
    assert DOUDIZHU.check(state, bid(1, 1)).legal
    assert [a.value for a, _ in DOUDIZHU.legal_actions(state, 1)] == [0, 1, 2, 3]


@pytest.mark.parametrize("value", [0, 4, -1])
def test_ddz_rule_3_a_bid_is_1_2_or_3(value):
    refused(dealt(), Action(0, BID, value=value), Reason.BAD_ACTION)


def test_ddz_rule_4_bid_of_3_ends_bidding_at_once():
    before = dealt(first_bidder=2)
    state, events = run(before, bid(2, 3))
    assert types(events) == ["BID", "LANDLORD"]
    assert state.phase == PLAYING
    assert (state.landlord, state.base, state.to_act) == (2, 3, (2,))
    assert state.bids == (-1, -1, 3)
    assert events[1].values["base"] == 3


@pytest.mark.parametrize("bids, landlord, base", [
    ((1, 0, 2), 2, 2),   # seats 0, 1, 2 in order
    ((1, 2, 0), 1, 2),
    ((0, 0, 1), 2, 1),
    ((2, 0, 0), 0, 2),
])
def test_ddz_rule_4_highest_bidder_after_everyone_acted(bids, landlord, base):
    state = dealt(first_bidder=0)
    for seat, value in enumerate(bids):
        assert state.phase != PLAYING
        state, events = run(state, bid(seat, value))
    assert state.phase == PLAYING
    assert (state.landlord, state.base, state.to_act) == (landlord, base, (landlord,))
    assert events[-1].type == "LANDLORD" and events[-1].seat == landlord


def test_ddz_rule_5_three_passes_redeal_from_the_same_first_bidder():
    seed = b"redeal"
    state = DOUDIZHU.deal(Options(first_bidder=1), seed)
    first_hands = state.hands
    state, events = run(state, bid(1, 0), bid(2, 0), bid(0, 0))
    assert types(events) == ["BID", "BID", "BID", "REDEAL", "DEAL", "DEAL", "DEAL"]
    redeal = events[3]
    assert (redeal.seat, redeal.values["deal_no"]) == (1, 1)
    assert state.phase != PLAYING and state.landlord == -1
    assert (state.deal_no, state.to_act, state.bids) == (1, (1,), (-1, -1, -1))
    assert state.hands != first_hands
    deck = rng.Stream(rng.deal_key(seed, b""), "deal/1").shuffle(range(54))
    assert state.hands == tuple(cardlib.to_mask(deck[17 * s:17 * s + 17]) for s in range(3))
    assert state.kitty == cardlib.to_mask(deck[51:])
    assert [cardlib.to_mask(e.cards) for e in events[4:]] == list(state.hands)
    again, events = run(state, bid(1, 0), bid(2, 0), bid(0, 0))
    assert again.deal_no == 2 and again.hands not in (first_hands, state.hands)
    assert again.to_act == (1,)


@pytest.mark.parametrize("first", [0, 1, 2])
def test_ddz_rule_6_first_bidder_from_options(first):
    state = DOUDIZHU.deal(Options(first_bidder=first), b"any seed")
    assert state.to_act == (first,)
    assert DOUDIZHU.deal_events(state)[-1].type == "BID_TURN"
    assert DOUDIZHU.deal_events(state)[-1].seat == first
    assert DOUDIZHU.view(state, -1).counters["first_bidder"] == first


def test_ddz_rule_6_default_first_bidder_is_drawn_from_the_seed():
    seen = set()
    for n in range(30):
        seed = n.to_bytes(2, "big")
        state = DOUDIZHU.deal(Options(), seed, b"e")
        expected = rng.Stream(rng.deal_key(seed, b"e"), "first_bidder").randbelow(3)
        assert state.to_act == (expected,) == (state.first_bidder,)
        assert DOUDIZHU.deal(Options(), seed, b"e").first_bidder == expected
        seen.add(expected)
    assert seen == {0, 1, 2}


def play_out(state):
    """The round played to its end: the first bidder bids 3, then each seat takes its first
    legal action (a pass, else its lowest play)."""
    state, _ = run(state, bid(state.first_bidder, 3))
    while not state.finished:
        action, _ = DOUDIZHU.legal_actions(state, state.to_act[0])[0]
        state, _ = DOUDIZHU.apply(state, action)
    return state


@pytest.mark.parametrize("options, seed, seat", [(Options(first_bidder=0), b"match", 0),
                                                 (Options(first_bidder=1), b"match", 1),
                                                 (Options(first_bidder=2), b"match", 2),
                                                 (Options(), b"a match", 2)])  # drawn from the seed
def test_ddz_rule_6_first_bidder_rotates_in_a_match(options, seed, seat):
    first = play_out(DOUDIZHU.deal(options, seed))
    assert first.first_bidder == seat and first.match == (0, (0, 0, 0), None, 0)
    points = DOUDIZHU.settle(first).points
    assert any(points)
    match = DOUDIZHU.next_round(first)
    assert match == (1, points, ((seat + 1) % 3,), 0)
    assert match.carry.first_bidder == (seat + 1) % 3
    second = DOUDIZHU.deal(options, b"match/1", match=match)
    # the next seat bids first, whatever the options say (rule 6)
    assert second.first_bidder == (seat + 1) % 3
    assert second.to_act == (second.first_bidder,)
    assert DOUDIZHU.deal_events(second)[-1].seat == second.first_bidder
    assert second.match.round == 1 and second.match.totals == points
    view = DOUDIZHU.view(second, -1)
    assert (view.counters["round"], view.counters["first_bidder"]) == (1, second.first_bidder)
    second = play_out(second)
    third = DOUDIZHU.deal(options, b"match/2", match=DOUDIZHU.next_round(second))
    assert third.first_bidder == (seat + 2) % 3
    assert third.match.round == 2
    assert third.match.totals == tuple(a + b for a, b in zip(points, DOUDIZHU.settle(second).points))


def test_ddz_rule_6_no_next_round_before_the_round_ends():
    with pytest.raises(IllegalAction) as error:
        DOUDIZHU.next_round(dealt())
    assert error.value.reason == Reason.GAME_NOT_FINISHED


def test_ddz_rule_7_kitty_goes_to_the_landlord_and_is_public_in_every_view():
    state = dealt(first_bidder=0)
    kitty = cardlib.from_mask(state.kitty)
    for seat in (-1, 0, 1, 2):
        assert "kitty" not in DOUDIZHU.view(state, seat).public_cards
    before = state.hands
    state, events = run(state, bid(0, 1), bid(1, 2), bid(2, 0))
    assert state.landlord == 1
    assert state.hands[1] == before[1] | state.kitty
    assert state.hands[0] == before[0] and state.hands[2] == before[2]
    assert [h.bit_count() for h in state.hands] == [17, 20, 17]
    assert events[-1].type == "LANDLORD" and events[-1].cards == kitty
    for seat in (-1, 0, 1, 2):
        view = DOUDIZHU.view(state, seat)
        assert view.public_cards["kitty"] == kitty
        assert tuple(s.role for s in view.seats) == ("farmer", "landlord", "farmer")
    assert DOUDIZHU.view(state, 0).hand == cardlib.from_mask(before[0])
    assert DOUDIZHU.view(state, -1).hand == ()


# --- play (rules 8-9) -------------------------------------------------------------------------

def test_ddz_rule_8_landlord_leads_and_a_leader_may_not_pass():
    state, _ = run(dealt(first_bidder=0), bid(0, 0), bid(1, 3))
    assert state.to_act == (1,)
    assert DOUDIZHU.view(state, 1).table is None
    refused(state, Action(1, PASS), Reason.MUST_LEAD)
    actions = DOUDIZHU.legal_actions(state, 1)
    assert actions and all(a.kind == PLAY for a, _ in actions)


def test_ddz_rule_8_two_passes_give_a_free_lead_to_the_last_player():
    state = position(("3S 5S 5H", "4S 6S", "4H 7S"), landlord=0)
    state, events = run(state, play(0, "3S"), Action(1, PASS), Action(2, PASS))
    assert types(events) == ["PLAY", "PASS", "PASS", "TRICK_WON"]
    assert events[-1].seat == 0
    assert state.to_act == (0,) and state.trick.top == 0
    assert DOUDIZHU.view(state, 0).table is None
    refused(state, Action(0, PASS), Reason.MUST_LEAD)
    state, _ = run(state, play(0, "5S 5H"))  # anything may lead, even a pair after singles
    assert state.finished and state.winner == 0


def test_ddz_rule_8_after_one_pass_the_next_must_beat_the_table():
    state = position(("8S 3S", "4S 6S", "7H 9S"), landlord=0)
    state, _ = run(state, play(0, "8S"), Action(1, PASS))
    assert state.to_act == (2,) and state.trick.passed == 1 << 1
    refused(state, play(2, "7H"), Reason.DOES_NOT_BEAT)
    state, events = run(state, play(2, "9S"))
    assert state.to_act == (0,) and state.trick.top_seat == 2 and state.trick.passed == 0


def test_ddz_rule_8_a_play_beats_the_last_play_not_the_first():
    state = position(("5S 3S", "7S 3H", "6S 3D"), landlord=0)
    state, _ = run(state, play(0, "5S"), play(1, "7S"))
    refused(state, play(2, "6S"), Reason.DOES_NOT_BEAT)


def test_ddz_rule_9_landlord_out_first_wins():
    state = position(("5S", "4S 6S", "4H 7S"), landlord=0)
    state, events = run(state, play(0, "5S"))
    assert types(events) == ["PLAY", "FINISH"]
    assert state.finished and state.winner == 0 and state.to_act == ()
    settlement = DOUDIZHU.settle(state)
    assert settlement.winners == (0,) and settlement.outcome == "landlord_won"


def test_ddz_rule_9_a_farmer_out_first_wins_for_both_farmers():
    state = position(("5S 3S", "4S 6S", "7S"), landlord=0)
    state, events = run(state, play(0, "5S"), Action(1, PASS), play(2, "7S"))
    assert events[-1].type == "FINISH" and events[-1].values["winner"] == 2
    settlement = DOUDIZHU.settle(state)
    assert settlement.winners == (1, 2) and settlement.outcome == "farmers_won"
    assert settlement.points == (-2, 1, 1)


def test_ddz_settle_refuses_a_round_in_progress():
    with pytest.raises(IllegalAction) as error:
        DOUDIZHU.settle(dealt())
    assert error.value.reason == Reason.GAME_NOT_FINISHED


# --- refusals -----------------------------------------------------------------------------------

def test_ddz_not_your_turn():
    state = position(("5S 3S", "4S 6S", "7S"), landlord=0)
    refused(state, play(1, "4S"), Reason.NOT_YOUR_TURN)
    refused(state, Action(2, PASS), Reason.NOT_YOUR_TURN)
    assert DOUDIZHU.legal_actions(state, 1) == []
    bidding = dealt(first_bidder=0)
    refused(bidding, bid(2, 1), Reason.NOT_YOUR_TURN)


def test_ddz_cards_not_in_hand():
    state = position(("5S 3S", "4S 6S", "7S"), landlord=0)
    refused(state, play(0, "4S"), Reason.CARDS_NOT_IN_HAND)
    refused(state, play(0, "5S 5H"), Reason.CARDS_NOT_IN_HAND)
    refused(state, play_ranks(0, "55"), Reason.CARDS_NOT_IN_HAND)


def test_ddz_does_not_beat():
    state = position(("5S 3S", "4S 6S", "7S"), landlord=0, to_act=1, table="5", table_seat=0)
    refused(state, play(1, "4S"), Reason.DOES_NOT_BEAT)
    assert DOUDIZHU.check(state, play(1, "6S")).legal


def test_ddz_not_a_combination():
    state = position(("5S 3S", "4S 6S", "7S"), landlord=0)
    refused(state, play(0, "5S 3S"), Reason.NOT_A_COMBINATION)


@pytest.mark.parametrize("action, reason", [
    (Action(0, PLAY, (54,)), Reason.UNKNOWN_CARD),
    (Action(0, PLAY, (5, 5)), Reason.DUPLICATE_CARD),
    (Action(0, PLAY), Reason.BAD_ACTION),
    (Action(0, PLAY, ranks=(15,)), Reason.UNKNOWN_CARD),
    (Action(3, PLAY, (5,)), Reason.BAD_SEAT),
    (Action(0, PLAY, ids("5S"), declared="no_such_kind"), doudizhu.DECLARED_READING_INVALID),
])
def test_ddz_malformed_plays(action, reason):
    refused(position(("5S 3S", "4S 6S", "7S"), landlord=0), action, reason)


def test_ddz_wrong_phase():
    refused(dealt(first_bidder=0), play(0, "3S"), Reason.WRONG_PHASE)
    state = position(("5S 3S", "4S 6S", "7S"), landlord=0)
    refused(state, bid(0, 3), Reason.WRONG_PHASE)


def test_ddz_game_over_refuses_everything():
    state, _ = run(position(("5S", "4S 6S", "7S"), landlord=0), play(0, "5S"))
    for action in (play(1, "4S"), Action(1, PASS), Action(2, ABANDON), bid(0, 1)):
        refused(state, action, Reason.GAME_OVER)
    assert all(DOUDIZHU.legal_actions(state, s) == [] for s in range(3))


# --- rule 12: ranks only, and rule 11i: declared readings --------------------------------------

def test_ddz_rule_12_playing_by_ranks_picks_the_lowest_ids():
    state = position(("3C 3D 3H 3S 4S", "4H", "4D"), landlord=0)
    state, events = run(state, play_ranks(0, "33"))
    assert events[0].cards == ids("3S 3H") == (0, 13)
    assert state.hands[0] == mask("3D 3C 4S")


def test_ddz_rule_12_playing_by_ranks_skips_missing_suits():
    state = position(("3C 3D 3H 4S", "4H", "4D"), landlord=0)
    _, events = run(state, play_ranks(0, "333"))
    assert set(events[0].cards) == set(ids("3H 3D 3C"))


def test_ddz_rule_12_legal_actions_name_lowest_ids_and_their_reading():
    state = position(("3C 3D 3H 3S 4S", "4H", "4D"), landlord=0)
    actions = {cardlib.format_ranks(cardlib.ranks_of(a.cards)): (a, c)
               for a, c in DOUDIZHU.legal_actions(state, 0)}
    assert actions["33"][0].cards == (0, 13)
    assert actions["3333"][1].kind == "bomb"
    assert actions["3334"][1].kind == "trio_single"


AIRPLANE_HAND = "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D"


def test_ddz_rule_11i_undeclared_lead_takes_the_largest_body():
    state = position((AIRPLANE_HAND + " 9C", "4C", "5C"), landlord=0)
    state, events = run(state, play(0, AIRPLANE_HAND))
    combo = events[0].combo
    assert (combo.kind, combo.main_rank, combo.chain) == ("trio_straight", 3, 4)


def test_ddz_rule_11i_declared_reading_is_used():
    state = position((AIRPLANE_HAND + " 9C", "4C", "5C"), landlord=0)
    action = play(0, AIRPLANE_HAND)._replace(declared="airplane_singles")
    state, events = run(state, action)
    combo = events[0].combo
    assert (combo.kind, combo.main_rank, combo.chain) == ("airplane_singles", 3, 3)  # 456 + 333
    assert doudizhu.hot.play_kind(state.trick.top) == doudizhu.Kind.AIRPLANE_SINGLES


def test_ddz_rule_11i_declared_reading_must_exist():
    state = position((AIRPLANE_HAND + " 9C", "4C", "5C"), landlord=0)
    refused(state, play(0, AIRPLANE_HAND)._replace(declared="bomb"),
            doudizhu.DECLARED_READING_INVALID)


def test_ddz_rule_11i_declared_reading_must_beat_the_table():
    hand = "6S 6H 6D 7S 7H 7D 8S 8H 8D 9S 9H 9D"
    state = position(("3C", hand, "5C"), landlord=0, to_act=1,
                     table="333444555666", table_seat=0)
    assert doudizhu.hot.play_kind(state.trick.top) == doudizhu.Kind.TRIO_STRAIGHT  # 3456 as led
    refused(state, play(1, hand)._replace(declared="airplane_singles"),
            Reason.DOES_NOT_BEAT)
    state, events = run(state, play(1, hand)._replace(declared="trio_straight"))
    assert events[0].combo.kind == "trio_straight"


def test_ddz_rule_11i_undeclared_response_takes_a_reading_that_beats():
    hand = "6S 6H 6D 7S 7H 7D 8S 8H 8D 9S 9H 9D"
    # table: 678 + 345, an airplane of main 8; 678 + 999 does not beat it, 789 + 666 does
    state = position(("3C", hand, "5C"), landlord=0, to_act=1, table="666777888345", table_seat=0)
    state, events = run(state, play(1, hand))
    combo = events[0].combo
    assert (combo.kind, combo.main_rank, combo.chain) == ("airplane_singles", 6, 3)


# --- scoring (rules 13-15) ------------------------------------------------------------------

@pytest.mark.parametrize("base, bombs, landlord_won, points", [
    (1, 0, True, (2, -1, -1)),
    (3, 0, True, (6, -3, -3)),
    (2, 1, True, (8, -4, -4)),
    (3, 2, False, (-24, 12, 12)),
    (1, 3, False, (-16, 8, 8)),
])
def test_ddz_rules_13_14_points(base, bombs, landlord_won, points):
    state = finished(landlord=0, winner=0 if landlord_won else 1, base=base, bombs=bombs)
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == points
    assert sum(settlement.points) + settlement.house == 0
    assert dict(settlement.breakdown)["multiplier"] == 1 << bombs


def test_ddz_rule_14_points_follow_the_landlord_seat():
    state = finished(landlord=2, winner=2, base=2, bombs=0)
    assert DOUDIZHU.settle(state).points == (-2, -2, 4)


def test_ddz_rule_13_bombs_kept_in_hand_do_not_double():
    state = position(("5S", "4S 4H 4D 4C", "BJ RJ"), landlord=0, base=2)
    state, events = run(state, play(0, "5S"))
    assert "BOMB" not in types(events)
    assert DOUDIZHU.settle(state).points == (4, -2, -2)


def test_ddz_rule_13_each_bomb_and_rocket_played_doubles():
    state = position(("3S 3H 3D 3C BJ RJ 5S", "4S", "4H"), landlord=0, base=2)
    state, events = run(state, play(0, "3S 3H 3D 3C"))
    assert events[-1].type == "BOMB" and events[-1].values["multiplier"] == 2
    state, _ = run(state, Action(1, PASS), Action(2, PASS))
    state, events = run(state, play(0, "BJ RJ"))
    assert events[-1].type == "BOMB" and events[-1].values["multiplier"] == 4
    assert DOUDIZHU.view(state, 1).counters["multiplier"] == 4
    state, _ = run(state, Action(1, PASS), Action(2, PASS), play(0, "5S"))
    assert DOUDIZHU.settle(state).points == (16, -8, -8)  # base 2 x 4, farmers played before


def test_ddz_rule_15_spring():
    state = finished(landlord=0, winner=0, base=3, bombs=1, plays=(4, 0, 0))
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (24, -12, -12)
    assert dict(settlement.breakdown)["spring"] == 1


def test_ddz_rule_15_no_spring_when_a_farmer_played():
    state = finished(landlord=0, winner=0, base=3, bombs=1, plays=(4, 0, 1))
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (12, -6, -6)
    assert dict(settlement.breakdown)["spring"] == 0


def test_ddz_rule_15_spring_by_play():
    state = position(("5S 5H", "4S", "4H"), landlord=0, base=1, plays=(0, 0, 0))
    state, _ = run(state, play(0, "5S 5H"))
    assert DOUDIZHU.settle(state).points == (4, -2, -2)


def test_ddz_rule_15_anti_spring():
    state = finished(landlord=1, winner=2, base=2, bombs=0, plays=(3, 1, 2))
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (4, -8, 4)
    assert dict(settlement.breakdown)["anti_spring"] == 1


@pytest.mark.parametrize("plays, landlord_won", [((3, 2, 2), False), ((1, 2, 2), True)])
def test_ddz_rule_15_no_anti_spring(plays, landlord_won):
    state = finished(landlord=0, winner=0 if landlord_won else 1, base=2, plays=plays)
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == ((4, -2, -2) if landlord_won else (-4, 2, 2))
    assert dict(settlement.breakdown)["anti_spring"] == 0


# --- escape (rule 16) -------------------------------------------------------------------------

def test_ddz_rule_16_escape_before_any_bid_costs_3():
    state, events = run(dealt(first_bidder=0), Action(1, ABANDON))
    assert types(events) == ["ABANDON", "FINISH"]
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (0, -3, 0)
    assert settlement.house == 3
    assert sum(settlement.points) + settlement.house == 0
    assert settlement.outcome == "abandoned" and settlement.winners == ()


def test_ddz_rule_16_a_pass_is_no_bid_for_the_escape_penalty():
    state, _ = run(dealt(first_bidder=0), bid(0, 0), Action(2, ABANDON))
    assert DOUDIZHU.settle(state).points == (0, 0, -3)


def test_ddz_rule_16_escape_during_bidding_uses_the_highest_bid():
    state, _ = run(dealt(first_bidder=0), bid(0, 2), Action(0, ABANDON))
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (-6, 0, 0)  # 2 x 1 x 3
    assert settlement.house == 6


def test_ddz_rule_16_escape_in_play_is_base_x_multiplier_x_3_from_any_seat():
    state = position(("5S", "4S", "6S"), landlord=0, base=3)._replace(bombs=2)
    assert 2 not in state.to_act
    state, _ = run(state, Action(2, ABANDON))
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (0, 0, -36)  # 3 x 4 x 3
    assert settlement.house == 36
    assert sum(settlement.points) + settlement.house == 0


@pytest.mark.parametrize("scoring, fee, coins", [("coins_fixed_fee", 50, -36050),
                                                 ("coins_rake", 0, -36000)])
def test_ddz_rule_16_escape_in_coins(scoring, fee, coins):
    options = Options(scoring=scoring, room_coefficient=1000, room_fee=fee)
    state = position(("5S", "4S", "6S"), landlord=0, base=3, options=options)._replace(bombs=2)
    state, _ = run(state, Action(1, ABANDON))
    settlement = DOUDIZHU.settle(state)
    assert settlement.seat_values.get("coins", ()) == (0, coins, 0)
    assert sum(settlement.seat_values.get("coins", ())) + settlement.values.get("coins_house", 0) == 0
    assert settlement.points == (0, -36, 0)


# --- coins (rules 17-18) ----------------------------------------------------------------------

def test_ddz_rule_17_seed_example_coins_fixed_fee():
    # N = 1000, base x multiplier = 6 (base 3, one bomb), A = 50, the landlord wins
    options = Options(scoring="coins_fixed_fee", room_coefficient=1000, room_fee=50)
    settlement = DOUDIZHU.settle(finished(landlord=0, winner=0, base=3, bombs=1, options=options))
    assert settlement.seat_values.get("coins", ()) == (11950, -6050, -6050)
    assert settlement.values.get("coins_house", 0) == 150
    assert settlement.points == (12, -6, -6)
    assert options.scoring == "coins_fixed_fee"


def test_ddz_rule_17_farmers_win_coins_fixed_fee():
    options = Options(scoring="coins_fixed_fee", room_coefficient=1000, room_fee=50)
    settlement = DOUDIZHU.settle(finished(landlord=1, winner=2, base=3, bombs=1, options=options))
    assert settlement.seat_values.get("coins", ()) == (5950, -12050, 5950)
    assert sum(settlement.seat_values.get("coins", ())) + settlement.values.get("coins_house", 0) == 0


def test_ddz_rule_18_seed_example_coins_rake():
    # N = 1000, the landlord wins, base 3, multiplier 2
    options = Options(scoring="coins_rake", room_coefficient=1000)
    settlement = DOUDIZHU.settle(finished(landlord=0, winner=0, base=3, bombs=1, options=options))
    assert settlement.seat_values.get("coins", ()) == (10800, -6000, -6000)
    assert settlement.values.get("coins_house", 0) == 1200
    assert options.scoring == "coins_rake"


def test_ddz_rule_18_farmers_win_coins_rake():
    options = Options(scoring="coins_rake", room_coefficient=1000)
    settlement = DOUDIZHU.settle(finished(landlord=2, winner=0, base=3, bombs=1, options=options))
    assert settlement.seat_values.get("coins", ()) == (5400, 5400, -12000)
    assert settlement.values.get("coins_house", 0) == 1200


def test_ddz_points_mode_has_no_coins():
    settlement = DOUDIZHU.settle(finished(landlord=0, winner=0, base=3, bombs=1))
    assert settlement.seat_values.get("coins", ()) == () and settlement.values.get("coins_house", 0) == 0


# --- level titles ------------------------------------------------------------------------------

SPEC_TITLES = [(10, "短工"), (25, "長工"), (40, "佃户"), (80, "貧農"), (140, "漁夫"), (230, "獵人"),
               (365, "中農"), (500, "富農"), (700, "掌櫃"), (1000, "商人"), (1500, "衙役"),
               (2200, "小財主"), (3000, "大財主"), (4000, "小地主"), (5500, "大地主"), (7700, "知縣"),
               (10000, "通判"), (14000, "知府"), (20000, "總督"), (30000, "巡撫"), (45000, "丞相"),
               (70000, "帝王")]


@pytest.mark.parametrize("points, title", [(9, "包身工"), (10, "短工"), (70000, "帝王"), (0, "包身工"),
                                           (-50, "包身工"), (24, "短工"), (69999, "丞相"),
                                           (10 ** 9, "帝王")])
def test_ddz_level_title_boundaries(points, title):
    assert doudizhu.title_for(points) == title


def test_ddz_level_titles_every_threshold():
    previous = "包身工"
    for threshold, title in SPEC_TITLES:
        assert doudizhu.title_for(threshold - 1) == previous
        assert doudizhu.title_for(threshold) == title
        previous = title
