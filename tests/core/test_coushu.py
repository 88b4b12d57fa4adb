"""凑数字 (coushu), rules/small-games.md rules 9-11: one test per rule (positions built from a real
deal with ``position``), then random playouts checking the game contract, conservation of the
cards and that every game ends within 48 plays."""
import random

import pytest
from game_contract import check_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards, rng
from referee.core.games.coushu.rules import COUSHU, WRONG_NUMBER, Options, deck_of, number
from referee.core.errors import InvalidAction, Reason
from referee.core.game import ABANDON, PLAY, Action

G = COUSHU


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def position(hands: list[str], to_act: int = 0, options: Options = Options(), **changes):
    state = G.deal(options, b"position", b"")
    return state._replace(hands=tuple(cards.to_mask(ids(h)) for h in hands), to_act=(to_act,), **changes)


def play(state, seat: int, card: str):
    return G.apply(state, Action(seat, PLAY, ids(card)))


def hand(state, seat: int) -> str:
    return cards.format_cards(cards.from_mask(state.hands[seat]))


# --- rule 9: two seats, the target's cards and the jokers removed ------------------------------------

@pytest.mark.parametrize("target", [3, 7, 10, 13])
def test_coushu_rule_9_the_targets_cards_and_the_jokers_are_removed_and_the_rest_dealt_evenly(target):
    state = G.deal(Options(target=target), b"rule 9", b"")
    held = [c for h in state.hands for c in cards.from_mask(h)]
    assert [h.bit_count() for h in state.hands] == [24, 24] and len(set(held)) == 48
    assert all(number(c) != target for c in held) and not {52, 53} & set(held)
    assert len(G.card_zones(state)["removed"]) == 6
    deck = rng.Stream(rng.deal_key(b"rule 9", b""), "deal").shuffle(deck_of(target))
    assert [cards.from_mask(h) for h in state.hands] == [tuple(sorted(deck[0::2])), tuple(sorted(deck[1::2]))]
    assert state.to_act == (0,)  # seat 0 leads first


def test_coushu_rule_9_two_seats_and_a_target_from_3_to_13():
    assert G.min_seats == G.max_seats == 2
    for bad in (2, 14):
        with pytest.raises(InvalidAction) as caught:
            G.make_options("", {"target": bad})
        assert caught.value.reason == Reason.BAD_OPTION
    assert G.Options().target == 7
    assert cards.NUMBERS[cards.RANKS.index("A")] == 1 and cards.NUMBERS[cards.RANKS.index("K")] == 13


# --- rule 10: answer with T - x, or the card is dead -----------------------------------------------------

def test_coushu_rule_10_the_leader_plays_any_card():
    state = position(["5S 9D KC", "2H 2C 3S"])
    assert [a.cards for a, _ in G.legal_actions(state, 0)] == [(c,) for c in sorted(ids("5S 9D KC"))]


def test_coushu_rule_10_the_other_seat_must_answer_with_a_card_that_makes_the_target():
    state = position(["5S 9D KC", "2H 2C 3S"])
    state, events = play(state, 0, "5S")
    assert state.to_act == (1,) and state.pending == ids("5S")[0]
    assert [a.cards for a, _ in G.legal_actions(state, 1)] == [ids("2H"), ids("2C")]  # its choice of suit
    refused = G.check(state, Action(1, PLAY, ids("3S")))
    assert not refused.legal and refused.reason == WRONG_NUMBER
    view = G.view(state, -1)
    assert view.table_cards == ids("5S") and view.counters["need"] == 2
    state, events = play(state, 1, "2C")
    assert [e.type for e in events] == ["PLAY", "PAIR"] and events[1].cards == ids("5S 2C")
    assert state.to_act == (1,) and state.leader == 1  # the answering seat leads next
    assert G.view(state, -1).public_cards["pairs"] == tuple(sorted(ids("5S 2C")))


def test_coushu_rule_10_no_answer_leaves_the_card_dead_and_the_leader_plays_again():
    state = position(["5S 9D KC", "3H 3C 4S"])
    state, events = play(state, 0, "5S")  # T - 5 = 2: seat 1 holds none, passes
    assert [(e.type, e.seat) for e in events] == [("PLAY", 0), ("PASS", 1)] and events[1].values["need"] == 2
    assert state.to_act == (0,) and state.pending == -1
    assert G.view(state, -1).public_cards["dead"] == ids("5S")
    state, events = play(state, 0, "KC")  # 7 - 13: no card answers it
    assert events[1].type == "PASS" and state.to_act == (0,)
    assert G.view(state, -1).public_cards["dead"] == tuple(sorted(ids("5S KC")))


def test_coushu_rule_10_the_ace_is_one():
    state = position(["AS 9D", "6H 3C"], options=Options(target=7))
    state, _ = play(state, 0, "AS")
    assert state.to_act == (1,) and [a.cards for a, _ in G.legal_actions(state, 1)] == [ids("6H")]


# --- rule 11: the first seat with no cards wins ---------------------------------------------------------

def test_coushu_rule_11_the_first_seat_with_no_cards_wins():
    state = position(["5S 9D", "2H"])
    state, _ = play(state, 0, "5S")
    state, events = play(state, 1, "2H")
    assert state.finished and events[-1].type == "FINISH" and events[-1].values["winner"] == 1
    settlement = G.settle(state)
    assert settlement.winners == (1,) and settlement.points == (-1, 1)


def test_coushu_rule_11_a_leader_playing_his_last_card_wins_before_any_answer():
    state = position(["5S", "2H 9C"])
    state, events = play(state, 0, "5S")
    assert state.finished and [e.type for e in events] == ["PLAY", "FINISH"]
    assert G.settle(state).winners == (0,)
    assert set(G.card_zones(state)["table"]) == set(ids("5S"))


def test_coushu_rule_11_the_leaver_pays():
    state, _ = G.apply(position(["5S", "2H 9C"]), Action(1, ABANDON))
    assert G.settle(state).points == (1, -1) and G.settle(state).outcome == "abandoned"


# --- random playouts -----------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), target=st.integers(3, 13), choices=st.integers(0, 2**32))
def test_coushu_random_playouts_conserve_cards_and_end_within_48_plays(seed, target, choices):
    state = G.deal(Options(target=target), seed, b"")
    events = G.deal_events(state)
    rnd = random.Random(choices)
    steps, pairs = 0, []
    while True:
        check_step(G, state, events, rnd)
        pairs += [e.cards for e in events if e.type == "PAIR"]
        if state.finished:
            break
        before = sum(h.bit_count() for h in state.hands)
        state, events = G.apply(state, rnd.choice(G.legal_actions(state, state.to_act[0]))[0])
        assert sum(h.bit_count() for h in state.hands) == before - 1  # every action plays a card
        steps += 1
    assert steps <= 48 and 0 in [h.bit_count() for h in state.hands]
    assert all(number(a) + number(b) == target for a, b in pairs)
    assert sorted(c for p in pairs for c in p) == list(cards.from_mask(state.pairs))
