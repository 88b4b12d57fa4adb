"""比大小 (bidaxiao), rules/small-games.md rules 1-4: one test per rule (positions built from a
real deal with ``position``), then random playouts checking the game contract at every step,
conservation of the cards and the round limit."""
import random

import pytest
from game_contract import check_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards, rng
from referee.core.games.bidaxiao.rules import BIDAXIAO, Options, resolve_round, strength
from referee.core.decisions import Window
from referee.core.errors import InvalidAction, Reason
from referee.core.game import ABANDON, PLAY, Action

G = BIDAXIAO


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def position(hands: list[str], options: Options = Options(), **changes):
    """A round with these hands (card text per seat), every seat holding cards asked."""
    state = G.deal(options, b"position", b"", len(hands))
    masks = tuple(cards.to_mask(ids(h)) for h in hands)
    window = Window.open(s for s, m in enumerate(masks) if m)
    return state._replace(hands=masks, window=window, to_act=window.awaiting(), **changes)


def play_round(state, *played: str):
    """Every asked seat plays its card (in the order given: one card text per asked seat)."""
    events = []
    for seat, card in zip(state.window.asked, played):
        state, more = G.apply(state, Action(seat, PLAY, ids(card)))
        events += more
    return state, events


def hand(state, seat: int) -> str:
    return cards.format_cards(cards.from_mask(state.hands[seat]))


# --- rule 1: seats, hand size, jokers ---------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("hand_size", [8, 9, 10])
def test_bidaxiao_rule_1_deals_hand_size_cards_one_at_a_time_from_seat_0(seats, hand_size):
    state = G.deal(Options(hand_size=hand_size), b"rule 1", b"e", seats)
    deck = rng.Stream(rng.deal_key(b"rule 1", b"e"), "deal").shuffle(range(52))
    for s in range(seats):
        assert cards.from_mask(state.hands[s]) == tuple(sorted(deck[s:seats * hand_size:seats]))
    zones = G.card_zones(state)
    assert set(zones["set_aside"]) == set(deck[seats * hand_size:]) | {52, 53}  # the rest, and no jokers
    assert state.to_act == tuple(range(seats))


def test_bidaxiao_rule_1_two_to_four_seats_and_eight_to_ten_cards():
    assert (G.min_seats, G.max_seats, G.default_seats) == (2, 4, 2)
    for bad in ({"hand_size": 7}, {"hand_size": 11}):
        with pytest.raises(InvalidAction) as caught:
            G.make_options("", bad)
        assert caught.value.reason == Reason.BAD_OPTION
    with pytest.raises(InvalidAction):
        G.deal(Options(), b"x", b"", 5)


def test_bidaxiao_rule_1_jokers_are_left_out_unless_the_option():
    dealt = set()
    for n in range(30):
        state = G.deal(Options(jokers=True), b"jokers %d" % n, b"", 4)
        dealt |= {c for h in state.hands for c in cards.from_mask(h)}
        assert not {c for h in G.deal(Options(), b"jokers %d" % n, b"", 4).hands for c in cards.from_mask(h)} & {52, 53}
    assert {52, 53} <= dealt
    assert (strength(52), strength(53)) == (14, 15)  # small joker 14, big joker 15
    assert strength(ids("KS")[0]) == 13 < strength(52)


# --- rule 2: one card each, face down, revealed together ------------------------------------------

def test_bidaxiao_rule_2_cards_stay_face_down_until_every_seat_has_played():
    state = position(["KS 3H", "5C 9D", "QH 2S"])
    state, events = G.apply(state, Action(0, PLAY, ids("KS")))
    assert events == [] and state.to_act == (1, 2)
    for seat in (-1, 1, 2):
        view = G.view(state, seat)
        shown = set(view.hand) | {c for sv in view.seats for group in sv.cards.values() for c in group}
        assert ids("KS")[0] not in shown
    refused = G.check(state, Action(0, PLAY, ids("3H")))  # one card a round
    assert not refused.legal and refused.reason == Reason.NOT_YOUR_TURN
    state, events = G.apply(state, Action(2, PLAY, ids("2S")))
    assert events == [] and state.to_act == (1,)
    state, events = G.apply(state, Action(1, PLAY, ids("9D")))
    assert [(e.type, e.seat, e.cards) for e in events if e.type == "SHOW"] == [
        ("SHOW", 0, ids("KS")), ("SHOW", 1, ids("9D")), ("SHOW", 2, ids("2S"))]
    assert [sv.cards["played"] for sv in G.view(state, -1).seats] == [ids("KS"), ids("9D"), ids("2S")]


def test_bidaxiao_rule_2_a_card_is_one_held_and_may_be_named_by_rank():
    state = position(["KS 3H", "5C 9D"])
    assert not G.check(state, Action(0, PLAY, ids("5C"))).legal
    assert G.check(state, Action(0, PLAY, ids("KS 3H"))).reason == Reason.BAD_ACTION
    verdict = G.check(state, Action(0, PLAY, ranks=(cards.RANKS.index("K"),)))
    assert verdict.legal and verdict.action.cards == ids("KS")
    assert [a.cards for a, _ in G.legal_actions(state, 0)] == [(c,) for c in sorted(ids("KS 3H"))]


# --- rule 3: the biggest number takes the round --------------------------------------------------

def test_bidaxiao_rule_3_highest_card_takes_the_round():
    state = position(["KS 3H", "5C 9D", "9H 2S"])
    state, events = play_round(state, "KS", "5C", "9H")
    assert hand(state, 0) == cards.format_cards(ids("3H 5C 9H KS"))
    assert hand(state, 1) == "9D" and hand(state, 2) == "2S"
    taken = next(e for e in events if e.type == "ROUND")
    assert taken.seat == 0 and set(taken.cards) == set(ids("5C 9H"))


def test_bidaxiao_rule_3_the_ace_is_one_the_lowest_unless_ace_high():
    state, _ = play_round(position(["AS 3H", "2C 9D"]), "AS", "2C")
    assert hand(state, 1) == cards.format_cards(ids("AS 2C 9D"))  # 2 beats A=1
    state, _ = play_round(position(["AS 3H", "KC 9D"], Options(ace_high=True)), "AS", "KC")
    assert hand(state, 0) == cards.format_cards(ids("3H KC AS"))  # ace_high: A above K
    assert strength(ids("AS")[0], True) == 14 and strength(52, True) == 15 and strength(53, True) == 16


def test_bidaxiao_rule_3_jokers_beat_every_number():
    state, _ = play_round(position(["BJ 3H", "KC 9D"], Options(jokers=True)), "BJ", "KC")
    assert hand(state, 0) == cards.format_cards(ids("3H KC BJ"))
    state, _ = play_round(position(["BJ 3H", "RJ 9D"], Options(jokers=True)), "BJ", "RJ")
    assert hand(state, 1) == cards.format_cards(ids("9D BJ RJ"))


def test_bidaxiao_rule_3_equal_highest_take_back_and_the_rest_goes_to_the_first_from_seat_0():
    state, events = play_round(position(["3S 4S", "KC 9D", "KH 2S", "QD 5D"]), "3S", "KC", "KH", "QD")
    assert hand(state, 1) == cards.format_cards(ids("3S 9D QD KC"))  # the first equal highest from seat 0
    assert hand(state, 2) == cards.format_cards(ids("2S KH"))  # takes back its own only
    assert hand(state, 0) == "4S" and hand(state, 3) == "5D"
    assert next(e for e in events if e.type == "ROUND").seat == 1
    assert resolve_round({3: ids("KS")[0], 0: ids("2S")[0], 2: ids("KD")[0]}) == {
        ids("KS")[0]: 3, ids("2S")[0]: 2, ids("KD")[0]: 2}


def test_bidaxiao_rule_3_every_card_equal_each_takes_his_own_back():
    state, events = play_round(position(["7S 4S", "7C 9D", "7H 2S"]), "7S", "7C", "7H")
    assert [hand(state, s) for s in range(3)] == ["4S 7S", "7C 9D", "7H 2S"]
    assert next(e for e in events if e.type == "ROUND").seat == -1


# --- rule 4: out, last holder, round limit -------------------------------------------------------

def test_bidaxiao_rule_4_a_seat_with_no_cards_is_out_and_the_last_holder_wins():
    state, events = play_round(position(["KS 3H", "5C 9D", "4H"]), "KS", "5C", "4H")
    assert [e.seat for e in events if e.type == "OUT"] == [2]
    assert state.window.asked == (0, 1) and state.to_act == (0, 1) and not state.finished
    assert G.legal_actions(state, 2) == [] and G.check(state, Action(2, PLAY, ids("4H"))).reason == Reason.NOT_YOUR_TURN
    state, events = play_round(state, "KS", "9D")
    assert [e.seat for e in events if e.type == "OUT"] == [1]
    assert state.finished and state.to_act == () and hand(state, 1) == ""
    assert events[-1].type == "FINISH" and events[-1].values["winners"] == 0b001
    settlement = G.settle(state)
    assert settlement.winners == (0,) and settlement.points == (2, -1, -1) and settlement.outcome == "took_all"


def test_bidaxiao_rule_4_the_round_limit_gives_the_win_to_most_cards():
    options = Options(max_rounds=1)
    state, events = play_round(position(["KS 3H 4D", "5C 9D", "4H 2S"], options), "KS", "5C", "4H")
    assert state.finished and events[-1].type == "FINISH" and events[-1].values["rounds"] == 1
    settlement = G.settle(state)
    assert settlement.winners == (0,) and settlement.points == (2, -1, -1) and settlement.outcome == "most_cards"
    state, _ = play_round(position(["KS 3H", "KC 9D 2D", "4H 2S"], options), "KS", "KC", "4H")
    settlement = G.settle(state)  # seat 0 took back KS and the 4H: 3 cards, seat 1 3 cards, seat 2 1
    assert settlement.winners == (0, 1) and settlement.points == (1, 1, -2)
    state, _ = play_round(position(["7S 3H", "7C 9D"], options), "7S", "7C")
    assert G.settle(state).winners == (0, 1) and G.settle(state).points == (0, 0)  # tied: nobody pays


def test_bidaxiao_rule_4_settlement_losers_pay_winners_and_the_leaver_pays():
    state, _ = play_round(position(["KS", "5C", "4H"]), "KS", "5C", "4H")
    settlement = G.settle(state)
    assert state.finished and settlement.winners == (0,) and settlement.points == (2, -1, -1)
    left, events = G.apply(position(["KS", "5C", "4H"]), Action(1, ABANDON))
    assert left.finished and [e.type for e in events] == ["ABANDON"]
    assert G.settle(left).points == (1, -2, 1) and G.settle(left).outcome == "abandoned"


# --- random playouts ---------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), seats=st.integers(2, 4), hand_size=st.integers(8, 10),
       jokers=st.booleans(), ace_high=st.booleans(), max_rounds=st.integers(1, 200), choices=st.integers(0, 2**32))
def test_bidaxiao_random_playouts_conserve_cards_and_end_within_the_round_limit(seed, seats, hand_size, jokers,
                                                                                ace_high, max_rounds, choices):
    options = Options(hand_size=hand_size, jokers=jokers, ace_high=ace_high, max_rounds=max_rounds)
    state = G.deal(options, seed, b"", seats)
    rnd = random.Random(choices)
    dealt = sum(h.bit_count() for h in state.hands)
    steps = 0
    while not state.finished:
        seat = rnd.choice(state.to_act)
        state, events = G.apply(state, rnd.choice(G.legal_actions(state, seat))[0])
        steps += 1
        assert sum(h.bit_count() for h in state.hands) == dealt == seats * hand_size
        if steps % 7 == 0 or state.finished:
            check_step(G, state, events, rnd)
    assert state.rounds <= max_rounds and steps <= max_rounds * seats
    holders = sum(1 for h in state.hands if h)
    assert holders == 1 or state.rounds == max_rounds
    assert sum(G.settle(state).points) == 0
