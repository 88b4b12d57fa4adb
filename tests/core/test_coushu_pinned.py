"""凑数字 (coushu) rules pinned by direct examples, one test per rule a mutant of the core got past
(``tests/mutation/mutate.py run --game coushu``): every expected value is worked out by hand from
rules/small-games.md rules 9-11, the README's "four children's games" section (options, presets,
decisions), the game's documented counters and event values, and the API's conventions
(state.proto: a view's ``table_seat`` is -1 when none), never computed with the game's own
helpers.

Card ids (core/cards.py): suit * 13 + rank, suits S H D C, ranks 3 4 5 6 7 8 9 T J Q K A 2; so
3S is card 0.
"""
import pytest

from referee.core import cards
from referee.core.games.coushu.rules import COUSHU, WRONG_NUMBER, Options
from referee.core.game import PLAY, Action

G = COUSHU
NUMBER = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}  # rule 9's values, by the rank character


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def value(card: int) -> int:
    """The number on the card, read off its text (A=1 .. K=13)."""
    rank = cards.format_card(card)[0]
    return NUMBER.get(rank) or int(rank)


def position(hands: list[str], to_act: int = 0, options: Options = Options(), **changes):
    """A fresh game (dealt by the game) with these hands."""
    state = G.deal(options, b"pinned", b"")
    return state._replace(hands=tuple(cards.to_mask(ids(h)) for h in hands), to_act=(to_act,), **changes)


def play(state, seat: int, card: str):
    return G.apply(state, Action(seat, PLAY, ids(card)))


def table(state):
    view = G.view(state, -1)
    return view.table_seat, view.table_cards, view.counters


def test_the_card_ids_the_examples_use():
    assert ids("3S") == (0,)


# --- rule 9: the target, the deck, who leads -------------------------------------------------------

@pytest.mark.parametrize("preset, target", [("make_10", 10), ("make_13", 13), ("", 7)])
def test_coushu_rule_9_a_preset_removes_the_four_cards_of_its_target(preset, target):
    state = G.deal(G.make_options(preset), b"rule 9 preset", b"")
    held = [c for h in state.hands for c in cards.from_mask(h)]
    assert [h.bit_count() for h in state.hands] == [24, 24]
    assert sorted({value(c) for c in held}) == [n for n in range(1, 14) if n != target]
    assert G.view(state, -1).counters["target"] == target


@pytest.mark.parametrize("target", [3, 13])
def test_coushu_rule_9_a_target_from_3_to_13_is_allowed(target):
    state = G.deal(G.make_options("", {"target": target}), b"rule 9 bounds", b"")
    held = [c for h in state.hands for c in cards.from_mask(h)]
    assert len(held) == 48 and target not in {value(c) for c in held}
    assert G.view(state, -1).counters["target"] == target


def test_coushu_rule_9_seat_0_leads_first_and_no_card_waits_at_the_deal():
    state = G.deal(G.make_options(), b"rule 9 lead", b"")
    assert state.to_act == (0,)
    for view in G.views(state, (-1, 0, 1)):
        assert view.counters == {"target": 7, "need": 0, "leader": 0}  # need: 0 when none waits
        assert (view.table_seat, view.table_cards) == (-1, ())  # -1: nobody's card on the table


# --- rule 10: answering, dead cards ------------------------------------------------------------------

def test_coushu_rule_10_the_3_of_spades_led_waits_on_the_table_for_a_4():
    state, events = play(position(["3S 9D", "4H 2C"]), 0, "3S")  # 7 - 3 = 4: seat 1 holds the 4H
    assert [e.type for e in events] == ["PLAY"] and state.to_act == (1,)
    assert table(state) == (0, ids("3S"), {"target": 7, "need": 4, "leader": 0})
    assert [a.cards for a, _ in G.legal_actions(state, 1)] == [ids("4H")]
    state, events = play(state, 1, "4H")
    assert [e.type for e in events] == ["PLAY", "PAIR"]
    assert table(state) == (-1, (), {"target": 7, "need": 0, "leader": 1})  # the pair is set aside


def test_coushu_rule_10_a_wrong_answer_is_refused_saying_which_number_answers():
    state, _ = play(position(["5S 9D KC", "2H 2C 3S"]), 0, "5S")
    refused = G.check(state, Action(1, PLAY, ids("3S")))
    assert not refused.legal and refused.reason == WRONG_NUMBER
    assert "with a 2" in refused.message  # 7 - 5 = 2


def test_coushu_rule_10_seat_1_leading_a_card_nobody_answers_seat_0_passes():
    state = position(["5S 9D", "2H KC 3C"])
    state, _ = play(state, 0, "5S")
    state, _ = play(state, 1, "2H")  # the pair 5 + 2; seat 1 leads next
    state, events = play(state, 1, "KC")  # 7 - 13: no card answers the king
    assert [(e.type, e.seat) for e in events] == [("PLAY", 1), ("PASS", 0)]
    assert events[1].values == {"need": 0}  # 0: no card can answer
    assert state.to_act == (1,) and G.view(state, -1).public_cards["dead"] == ids("KC")
    assert table(state) == (-1, (), {"target": 7, "need": 0, "leader": 1})


def test_coushu_rule_10_a_card_above_the_target_passes_with_need_0():
    state, events = play(position(["8S 9D", "2H 3C"], options=Options(target=7)), 0, "8S")  # 7 - 8 = -1
    assert [(e.type, e.seat) for e in events] == [("PLAY", 0), ("PASS", 1)] and events[1].values == {"need": 0}


# --- rule 11: the first seat with no cards wins --------------------------------------------------------

def test_coushu_rule_11_a_last_card_above_the_target_wins_and_leaves_need_0():
    state, events = play(position(["KC", "2H 9C"]), 0, "KC")
    assert state.finished and [e.type for e in events] == ["PLAY", "FINISH"]
    assert table(state) == (0, ids("KC"), {"target": 7, "need": 0, "leader": 0})  # 7 - 13: nothing answers


def test_coushu_rule_11_the_settlement_counts_pairs_dead_cards_and_the_losers_cards():
    state = position(["5S 9D", "2H KC 3C"])
    for seat, card in ((0, "5S"), (1, "2H"), (1, "KC"), (1, "3C")):  # a pair, a dead king, seat 1 out
        state, events = play(state, seat, card)
    assert state.finished and events[-1].type == "FINISH" and events[-1].values == {"winner": 1}
    settlement = G.settle(state)
    assert settlement.winners == (1,) and settlement.points == (-1, 1) and settlement.outcome == "played_out"
    assert dict(settlement.breakdown) == {"pairs": 1, "dead": 1, "cards_left": 1}  # seat 0 keeps the 9D
    assert all(type(v) is int for _, v in settlement.breakdown)  # counts (int64 in the API), not 1.0


def test_coushu_rule_11_seat_0_winning_leaves_seat_1_s_cards_in_the_breakdown():
    state, _ = play(position(["5S", "2H 9C 4D"]), 0, "5S")
    assert dict(G.settle(state).breakdown) == {"pairs": 0, "dead": 0, "cards_left": 3}
