"""接龙 (jielong), rules/small-games.md rules 12-14: one test per rule (positions built from a real
deal with ``position``), then random playouts checking the game contract, conservation of the
cards and that every game ends within ``max_turns``."""
import random

import pytest
from game_contract import check_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards, rng
from referee.core.errors import Reason
from referee.core.game import ABANDON, PLAY, Action
from referee.core.games.jielong.rules import JIELONG, Options, lay

G = JIELONG


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def position(piles: list[str], train: str = "", to_act: int = 0, options: Options = Options(), **changes):
    """Piles as card text, top first; the train oldest first."""
    state = G.deal(options, b"position", b"", len(piles))
    return state._replace(piles=tuple(bytes(ids(p)) for p in piles), train=bytes(ids(train)), to_act=(to_act,),
                          **changes)


def turn(state, seat: int):
    return G.apply(state, Action(seat, PLAY))


def text(card_ids) -> str:
    return " ".join(cards.format_card(c) for c in card_ids)


# --- rule 12: face-down piles, nobody chooses ------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("jokers", [False, True])
def test_jielong_rule_12_the_deck_is_dealt_as_face_down_piles_card_i_to_seat_i_mod_n(seats, jokers):
    state = G.deal(Options(jokers=jokers), b"rule 12", b"", seats)
    deck = rng.Stream(rng.deal_key(b"rule 12", b""), "deal").shuffle(range(54 if jokers else 52))
    assert [tuple(p) for p in state.piles] == [tuple(deck[s::seats]) for s in range(seats)]  # top first
    assert sum(len(p) for p in state.piles) == (54 if jokers else 52)
    for view in G.views(state, range(-1, seats)):  # nobody sees a pile, its owner included
        assert view.hand == () and [sv.counters["pile"] for sv in view.seats] == [len(p) for p in state.piles]
    assert [e.cards for e in G.deal_events(state)] == [()] * seats


def test_jielong_rule_12_a_seat_plays_its_top_card_and_names_none():
    state = position(["5S 9D", "3H 4C"])
    assert G.legal_actions(state, 0) == [(Action(0, PLAY), None)]
    refused = G.check(state, Action(0, PLAY, ids("9D")))
    assert not refused.legal and refused.reason == Reason.BAD_ACTION
    state, events = turn(state, 0)
    assert events[0].type == "PLAY" and events[0].cards == ids("5S") and tuple(state.train) == ids("5S")
    assert tuple(state.piles[0]) == ids("9D") and state.to_act == (1,)


# --- rule 13: the train --------------------------------------------------------------------------------

def test_jielong_rule_13_a_card_without_its_rank_in_the_train_joins_its_end():
    state, events = turn(position(["5S 9D", "3H 4C"], "KH 7C"), 0)
    assert text(state.train) == "KH 7C 5S" and [e.type for e in events] == ["PLAY"]


def test_jielong_rule_13_an_equal_rank_takes_it_and_everything_between_under_the_pile_oldest_first():
    state, events = turn(position(["5S 9D", "3H 4C"], "KH 5C 7C 2D"), 0)
    assert text(state.train) == "KH"
    assert text(state.piles[0]) == "9D 5C 7C 2D 5S"  # under the pile, oldest first, the new card last
    take = next(e for e in events if e.type == "TAKE")
    assert take.seat == 0 and text(take.cards) == "5C 7C 2D 5S"
    assert lay(bytes(ids("5C")), ids("5H")[0]) == (b"", bytes(ids("5C 5H")))


def test_jielong_rule_13_a_joker_takes_the_whole_train_itself_included():
    state, events = turn(position(["BJ 9D", "3H 4C"], "KH 5C 7C", options=Options(jokers=True)), 0)
    assert state.train == b"" and text(state.piles[0]) == "9D KH 5C 7C BJ"
    state, _ = turn(position(["RJ", "3H 4C"], "", options=Options(jokers=True)), 0)
    assert text(state.piles[0]) == "RJ" and state.train == b""  # an empty train: the joker comes back alone


def test_jielong_rule_13_the_train_never_holds_two_cards_of_a_rank():
    state = G.deal(Options(), b"train", b"", 3)
    rnd = random.Random(1)
    while not state.finished:
        state, _ = turn(state, state.to_act[0])
        ranks = [cards.card_rank(c) for c in state.train]
        assert len(ranks) == len(set(ranks)) <= 13
        if rnd.random() < 0.01:
            break


# --- rule 14: out, the end, most cards -----------------------------------------------------------------

def test_jielong_rule_14_an_empty_pile_is_out_and_skipped():
    state = position(["5S", "3H 4C", "6D 7D"], "KH")
    state, events = turn(state, 0)
    assert [e.type for e in events] == ["PLAY", "OUT"] and state.to_act == (1,)
    state, _ = turn(state, 1)
    state, _ = turn(state, 2)
    assert state.to_act == (1,) and G.legal_actions(state, 0) == []


def test_jielong_rule_14_a_seat_whose_last_card_takes_stays_in():
    state, events = turn(position(["5S", "3H 4C"], "5C KH"), 0)
    assert [e.type for e in events] == ["PLAY", "TAKE"] and text(state.piles[0]) == "5C KH 5S"
    assert not state.finished and state.to_act == (1,)


def test_jielong_rule_14_the_game_ends_when_one_seat_holds_cards():
    state, events = turn(position(["5S", "3H 4C"], "KH"), 0)
    assert state.finished and events[-1].type == "FINISH" and events[-1].values["winners"] == 0b10
    settlement = G.settle(state)
    assert settlement.winners == (1,) and settlement.points == (-1, 1) and settlement.outcome == "last_holding"


def test_jielong_rule_14_after_max_turns_most_cards_wins():
    state = position(["5S 6S 7S 8S", "3H 4C", "9D 8D"], "KH", options=Options(max_turns=1))
    state, events = turn(state, 0)
    assert state.finished and events[-1].values == {"winners": 0b001, "turns": 1}
    assert G.settle(state).winners == (0,) and G.settle(state).points == (2, -1, -1)
    state, _ = turn(position(["5S 6S 7S 8S", "3H 4C 2C", "9D"], "KH", options=Options(max_turns=1)), 0)
    assert G.settle(state).winners == (0, 1) and G.settle(state).points == (1, 1, -2)  # ties share the win


def test_jielong_rule_14_the_leaver_pays():
    state, _ = G.apply(G.deal(Options(), b"leave", b"", 4), Action(3, ABANDON))
    assert G.settle(state).points == (1, 1, 1, -3) and G.settle(state).outcome == "abandoned"


# --- random playouts -----------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), seats=st.integers(2, 4), jokers=st.booleans(),
       max_turns=st.integers(1, 1000), choices=st.integers(0, 2**32))
def test_jielong_random_playouts_conserve_cards_and_end_within_max_turns(seed, seats, jokers, max_turns, choices):
    state = G.deal(Options(jokers=jokers, max_turns=max_turns), seed, b"", seats)
    events = G.deal_events(state)
    rnd = random.Random(choices)
    total = 54 if jokers else 52
    steps = 0
    while True:
        if steps % 11 == 0 or state.finished:
            check_step(G, state, events, rnd)
        assert sorted(c for p in state.piles for c in p) == sorted(set(range(total)) - set(state.train))
        if state.finished:
            break
        state, events = turn(state, state.to_act[0])
        steps += 1
    assert steps == state.turns <= max_turns
    assert sum(1 for p in state.piles if p) == 1 or state.turns == max_turns
    assert sum(G.settle(state).points) == 0
