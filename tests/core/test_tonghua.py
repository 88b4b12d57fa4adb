"""出一样的花色 (tonghua), rules/small-games.md rules 5-8: one test per rule (positions built from a
real deal with ``position``), then random playouts checking the game contract, conservation of
the cards and that every game ends within 52 plays."""
import random

import pytest
from game_contract import check_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards, rng
from referee.core.game import ABANDON, PLAY, Action
from referee.core.games.tonghua.rules import (FOLLOW_SUIT, LEAD_TWO_OF_HEARTS, NOT_HIGHER, TONGHUA, TWO_OF_HEARTS, Options,
                                  deal_deck)
from referee.core.tricks import seats_in

G = TONGHUA
HEARTS, SPADES = 1, 0


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def position(hands: list[str], to_act: int, options: Options = Options(), **changes):
    """A game with these hands (card text per seat); ``to_act`` leads unless ``changes`` say more."""
    state = G.deal(options, b"position", b"", len(hands))
    masks = tuple(cards.to_mask(ids(h)) for h in hands)
    return state._replace(hands=masks, in_round=seats_in(masks), to_act=(to_act,), **changes)


def after_first_round(hands: list[str], to_act: int, options: Options = Options()):
    """A position after one finished round (so the lead is free: any card)."""
    return position(hands, to_act, options, done=cards.to_mask(ids("2H")), won=(1,) + (0,) * (len(hands) - 1))


def play(state, seat: int, card: str):
    return G.apply(state, Action(seat, PLAY, ids(card)))


def hand(state, seat: int) -> str:
    return cards.format_cards(cards.from_mask(state.hands[seat]))


# --- rule 5: the deal ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seats,each,aside", [(2, 26, 0), (3, 17, 1), (4, 13, 0)])
def test_tonghua_rule_5_the_deck_without_jokers_is_dealt_out_evenly(seats, each, aside):
    state = G.deal(Options(), b"rule 5", b"", seats)
    deck = rng.Stream(rng.deal_key(b"rule 5", b""), "deal").shuffle(range(52))
    assert [h.bit_count() for h in state.hands] == [each] * seats
    if deck[seats * each:] != [TWO_OF_HEARTS]:
        for s in range(seats):
            assert cards.from_mask(state.hands[s]) == tuple(sorted(deck[s:seats * each:seats]))
    zones = G.card_zones(state)
    assert len(zones["set_aside"]) == aside + 2 and {52, 53} <= set(zones["set_aside"])  # the jokers never play


def test_tonghua_rule_5_the_two_of_hearts_is_never_set_aside():
    seed = next(b"2H %d" % n for n in range(5000)
                if rng.Stream(rng.deal_key(b"2H %d" % n, b""), "deal").shuffle(range(52))[51] == TWO_OF_HEARTS)
    deck = rng.Stream(rng.deal_key(seed, b""), "deal").shuffle(range(52))
    state = G.deal(Options(), seed, b"", 3)
    assert state.hands[2] >> TWO_OF_HEARTS & 1  # dealt in the place of the card before it, to seat 2
    assert G.dealt(state)[0]["set_aside"] == (deck[50],) and deal_deck(rng.deal_key(seed, b""), 3)[50] == TWO_OF_HEARTS
    assert state.to_act == (2,)


# --- rule 6: the 2♥ starts, then the round's suit in turn --------------------------------------------

def test_tonghua_rule_6_the_holder_of_the_two_of_hearts_leads_it():
    for n in range(10):
        state = G.deal(Options(), b"lead %d" % n, b"", 4)
        holder = state.to_act[0]
        assert state.hands[holder] >> TWO_OF_HEARTS & 1
        assert [a.cards for a, _ in G.legal_actions(state, holder)] == [(TWO_OF_HEARTS,)]
    other = next(c for c in cards.from_mask(state.hands[holder]) if c != TWO_OF_HEARTS)
    refused = G.check(state, Action(holder, PLAY, (other,)))
    assert not refused.legal and refused.reason == LEAD_TWO_OF_HEARTS
    state, _ = G.apply(state, Action(holder, PLAY, (TWO_OF_HEARTS,)))
    assert state.suit == HEARTS and G.view(state, -1).counters["suit"] == HEARTS


def test_tonghua_rule_6_each_seat_in_turn_plays_a_card_of_the_rounds_suit():
    state = position(["2H 5H 5S", "7H 9H 3S", "4H KC"], 0)
    state, _ = play(state, 0, "2H")
    assert state.to_act == (1,)
    assert [a.cards for a, _ in G.legal_actions(state, 1)] == [ids("7H"), ids("9H")]  # its choice, hearts only
    refused = G.check(state, Action(1, PLAY, ids("3S")))
    assert not refused.legal and refused.reason == FOLLOW_SUIT
    state, _ = play(state, 1, "9H")
    assert state.to_act == (2,)
    state, _ = play(state, 2, "4H")
    assert state.to_act == (0,) and state.round_cards == ids("2H 9H 4H")
    assert G.view(state, -1).public_cards["round"] == ids("2H 9H 4H")


# --- rule 7: the first seat out of the suit wins the round ------------------------------------------

def test_tonghua_rule_7_a_seat_that_never_had_the_suit_wins_when_its_turn_comes():
    state = position(["2H 5S", "3S 9D", "4H KD"], 0)
    state, events = play(state, 0, "2H")
    won = next(e for e in events if e.type == "ROUND_WON")
    assert won.seat == 1 and won.cards == ids("2H") and won.values["suit"] == HEARTS
    assert state.to_act == (1,) and state.won == (0, 1, 0) and state.round_cards == ()
    assert G.view(state, -1).public_cards["done"] == ids("2H")  # set aside, face up
    assert len(G.legal_actions(state, 1)) == 2  # it leads any card
    state, _ = play(state, 1, "9D")
    assert state.suit == 2 and state.to_act == (2,)  # diamonds


def test_tonghua_rule_7_a_seat_that_played_its_last_one_wins_when_its_turn_comes_again():
    state = position(["2H 5S", "3H 9D", "4H 6H KC"], 0)
    for seat, card in ((0, "2H"), (1, "3H"), (2, "4H")):
        state, events = play(state, seat, card)
    won = next(e for e in events if e.type == "ROUND_WON")
    assert won.seat == 0 and set(won.cards) == set(ids("2H 3H 4H"))
    assert state.to_act == (0,) and state.won == (1, 0, 0)


def test_tonghua_rule_7_nothing_is_compared_unless_ascending():
    state = position(["KH 5S 6S", "3H 9D", "4S KC"], 0, done=cards.to_mask(ids("2H")), won=(1, 0, 0))
    state, _ = play(state, 0, "KH")
    assert G.check(state, Action(1, PLAY, ids("3H"))).legal  # a lower heart is fine


def test_tonghua_rule_7_ascending_each_card_higher_and_no_higher_card_is_out_of_the_suit():
    options = Options(ascending=True)
    state = after_first_round(["5H 5S", "3H 9H", "4H KC", "6H 2C"], 0, options)
    state, _ = play(state, 0, "5H")
    assert [a.cards for a, _ in G.legal_actions(state, 1)] == [ids("9H")]
    refused = G.check(state, Action(1, PLAY, ids("3H")))
    assert not refused.legal and refused.reason == NOT_HIGHER
    state, events = play(state, 1, "9H")
    won = next(e for e in events if e.type == "ROUND_WON")  # seat 2 holds the 4H, none higher than 9
    assert won.seat == 2 and state.to_act == (2,)
    state = after_first_round(["2H 5S", "AH 9D"], 0, options)
    state, events = play(state, 0, "2H")  # A=1 is the lowest: below the 2
    assert next(e for e in events if e.type == "ROUND_WON").seat == 1


# --- rule 8: out of play, the end, the winner ---------------------------------------------------------

def test_tonghua_rule_8_a_seat_with_an_empty_hand_is_skipped():
    state = after_first_round(["5S 6S", "", "7S 8H", "9S 2C"], 0)
    state, _ = play(state, 0, "5S")
    assert state.to_act == (2,)
    state, _ = play(state, 2, "7S")
    state, _ = play(state, 3, "9S")
    assert state.to_act == (0,)


def test_tonghua_rule_8_a_winner_with_an_empty_hand_passes_the_lead_to_the_next_holder():
    state = after_first_round(["5S", "6S 7D", "8S 9D 2C"], 0)
    state, events = play(state, 0, "5S")  # its last card: it stays in this round's turn order
    assert [e.type for e in events] == ["PLAY", "OUT"] and state.to_act == (1,)
    state, _ = play(state, 1, "6S")
    state, events = play(state, 2, "8S")
    assert [(e.type, e.seat) for e in events[1:]] == [("ROUND_WON", 0), ("LEAD", 1)]
    assert state.to_act == (1,) and state.won == (2, 0, 0)
    assert G.legal_actions(state, 0) == []


def test_tonghua_rule_8_a_seat_that_played_its_last_card_is_skipped_once_its_round_is_won():
    """Rule 8 (amended): a seat that played its last card in a round may still win it (its turn
    comes for rule 7's test); when another seat wins the round first, it is skipped from then on."""
    state = after_first_round(["5S", "6S 7D", "8D 9C", "9S 2C"], 0)
    state, _ = play(state, 0, "5S")  # its last card
    state, events = play(state, 1, "6S")  # seat 2 has no spade: it wins before seat 0's turn comes
    assert [(e.type, e.seat) for e in events[1:]] == [("ROUND_WON", 2)] and state.won == (1, 0, 1, 0)
    state, _ = play(state, 2, "9C")
    state, events = play(state, 3, "2C")  # next: seat 0 is skipped, seat 1 has no club and wins
    assert [(e.type, e.seat) for e in events[1:]] == [("ROUND_WON", 1)] and state.to_act == (1,)
    assert state.won == (1, 1, 1, 0) and not state.finished


def test_tonghua_rule_8_the_game_ends_when_at_most_one_seat_holds_cards_and_most_rounds_wins():
    state = after_first_round(["5S", "6S 7D"], 1)
    state = state._replace(won=(0, 1))
    state, _ = play(state, 1, "7D")  # a diamond round: seat 0 has none and wins it
    assert state.won == (1, 1) and state.to_act == (0,)
    state, events = play(state, 0, "5S")  # seat 0 is empty, only seat 1 holds cards: over
    assert state.finished and events[-1].type == "FINISH" and events[-1].values["open_round"] == 1
    assert state.won == (1, 1)  # the open round is won by nobody
    settlement = G.settle(state)
    assert settlement.winners == (0, 1) and settlement.points == (0, 0) and settlement.outcome == "tie"
    state = after_first_round(["5S 2C", "6S 7D", "KD"], 0)  # seat 0 won the first round
    state, _ = play(state, 0, "5S")
    state, _ = play(state, 1, "6S")  # seat 2 has no spade: it wins the round, and leads
    state, _ = play(state, 2, "KD")  # its last card; seat 0 has no diamond: it wins the round
    assert state.won == (2, 0, 1) and state.to_act == (0,) and not state.finished
    state, _ = play(state, 0, "2C")
    settlement = G.settle(state)
    assert state.finished and settlement.winners == (0,) and settlement.points == (2, -1, -1)


def test_tonghua_rule_8_the_leaver_pays():
    state, _ = G.apply(G.deal(Options(), b"leave", b"", 3), Action(2, ABANDON))
    assert G.settle(state).points == (1, 1, -2) and G.settle(state).outcome == "abandoned"


# --- random playouts -----------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), seats=st.integers(2, 4), ascending=st.booleans(),
       choices=st.integers(0, 2**32))
def test_tonghua_random_playouts_conserve_cards_and_end_within_52_plays(seed, seats, ascending, choices):
    state = G.deal(Options(ascending=ascending), seed, b"", seats)
    events = G.deal_events(state)
    rnd = random.Random(choices)
    steps = 0
    while True:
        check_step(G, state, events, rnd)
        assert sum(len(z) for z in G.card_zones(state).values()) == 54
        if state.finished:
            break
        before = sum(h.bit_count() for h in state.hands)
        state, events = G.apply(state, rnd.choice(G.legal_actions(state, state.to_act[0]))[0])
        assert sum(h.bit_count() for h in state.hands) == before - 1  # every action plays a card
        steps += 1
    assert steps <= 52 and seats_in(state.hands).bit_count() <= 1
    assert sum(G.settle(state).points) == 0
