"""Q783 / 378Q pinned rules: tests that pin the exact behaviour a rule of rules/q783.md asks for
where the broader suite (test_q783_rules.py, test_q783_tables.py) left room, each named after its
rule. Expected values are worked out by hand from the spec and the README, not computed with the
game's helpers. Tests that reach the hot path run on both twins of ``q783_hot`` (``twin``)."""
from __future__ import annotations

import dataclasses
import marshal
import random

import pytest

from referee.core import cards as cardlib
from referee.core.games.q783 import rules as q783
from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.game import ABANDON, PASS, PLAY, Action, Match
from referee.core.games.q783.rules import Q783, State

from q783_tables import cards_of, opts, run, table, twin  # noqa: F401 - twin: a fixture


def of_type(events, kind: str) -> list:
    return [e for e in events if e.type == kind]


def pays(events, kind: str = "PAY") -> list[tuple[int, int, int]]:
    return [(e.seat, e.values["to"], e.values["amount"]) for e in of_type(events, kind)]


def ids(text: str) -> set[int]:
    """The ids of a card text, the n-th copy of a card in deck n."""
    return set(cardlib.parse_cards(text, 2))


# --- 1. players, equipment, the deal -----------------------------------------------------------------

@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_q783_rule_1_4_the_deal_record_of_a_later_xiaoju(seats):
    """1.4: a later 小局 is dealt from the previous first finisher (seat 1 here): the deal record
    (``dealt``, what ``referee verify`` checks) gives each seat the cards it holds, the dealer the
    shuffled deck's first card and every n-th after it."""
    banks = (250, 250) if seats in (4, 6) else (100,) * seats
    state = Q783.deal(opts(), b"later deal", b"", seats, Match(1, (0,) * seats, q783.Carry(1, banks)))
    assert state.dealer == 1 and state.first_lead == 1
    cards, values = Q783.dealt(state)
    assert values == {"dealer": 1, "first_lead": 1}
    assert {seat: set(c) for seat, c in cards.items()} == {
        f"seat{s}": set(cardlib.from_mask(state.hands[s])) for s in range(seats)}
    sizes = [len(cards[f"seat{s}"]) for s in range(seats)]
    # the dealer (seat 1) and the seats after it take the extra cards (1.4's counts, 80 play cards)
    expected = {3: [26, 27, 27], 4: [20] * 4, 5: [16] * 5, 6: [13, 14, 14, 13, 13, 13]}[seats]
    assert sizes == expected


# --- 2. score cards ----------------------------------------------------------------------------------

def test_q783_rule_2_1_a_joker_in_the_hint_hand_is_no_three(twin):
    """A score card in a ``referee legal`` hand is ignored: the small joker (id 52, just above the
    last card of deck 0) does not stand in for the missing 3 of a Q783."""
    assert Q783.hint_strings("QH 7H 8H BJ", "", opts()) == ["7", "8", "Q"]
    assert Q783.hint_strings("QH 7S 8D BJ BJ RJ", "", opts()) == ["7", "8", "Q"]
    assert Q783.hint_strings("QH 7H 8H BJ", "", opts("378q")) == ["7", "8", "Q"]
    # with the 3 held, the Q783 is there (pure: four hearts)
    assert Q783.hint_strings("QH 7H 8H 3H BJ", "", opts()) == ["3", "7", "8", "Q", "Q783*"]


# --- 4. combinations -----------------------------------------------------------------------------------

def test_q783_rule_4_1_no_cards_are_no_combination(twin):
    """4.1: a combination is one card or more; an empty or blank text has no reading."""
    for text in ("", "   "):
        assert Q783.classify(text, opts()) == []
        assert Q783.classify(text, opts("378q", triple_bomb=True, double_q783=True)) == []


def test_q783_rule_4_4_one_suit_holds_no_mixed_q783(twin):
    """4.4: a hand whose Q, 7, 8 and 3 are all of one suit can form only the pure Q783, in every
    suit (spades, the first suit of the card ids, included)."""
    for suit in "SHDC":
        hand = " ".join(f"{r}{suit}" for r in "Q783")
        assert Q783.hint_strings(hand, "", opts()) == ["3", "7", "8", "Q", "Q783*"], suit
        state = table(hand + " 4" + ("H" if suit == "S" else "S"), "6D", "9D", options=opts(individual=True))
        kinds = sorted(c.kind for _, c in Q783.legal_actions(state, 0) if c and "q783" in c.kind)
        assert kinds == ["pure_q783"], suit
    # one card of another suit makes the mixed one too
    assert Q783.hint_strings("QS 7S 8S 3S 3H", "", opts()) == ["3", "33", "7", "8", "Q", "Q783", "Q783*"]


def test_q783_rule_4_4_pure_only_when_all_four_share_a_suit(twin):
    """4.4: by the real suits: a Q783 with its 3 of the next suit (the 3 is the lowest id of each
    suit, next to the previous suit's 2) is mixed, in every suit."""
    for suit, other in (("S", "H"), ("H", "D"), ("D", "C"), ("C", "S")):
        base = f"Q{suit} 7{suit} 8{suit}"
        assert Q783.classify(f"{base} 3{suit}", opts())[0].kind == "pure_q783"
        assert Q783.classify(f"{base} 3{other}", opts())[0].kind == "mixed_q783", (suit, other)
    assert Q783.hint_strings("QS 7S 8S 3H", "", opts()) == ["3", "7", "8", "Q", "Q783"]
    assert Q783.hint_strings("QD 7D 8D 3C", "", opts()) == ["3", "7", "8", "Q", "Q783"]


def test_q783_rule_4_5_no_double_without_the_option(twin):
    """4.5: a double Q783 is a combination only under ``double_q783``, whatever other variants
    (``triple_bomb``, ``more_cards_beat``, ``pure_suit_order``) are on."""
    eight = "QH QH 7H 7H 8H 8H 3H 3H"
    for flag in ("triple_bomb", "more_cards_beat", "pure_suit_order"):
        options = opts(**{flag: True})
        assert Q783.classify(eight, options) == [], flag
        assert Q783.classify("QH QS 7H 7H 8H 8H 3H 3H", options) == [], flag
        moves = Q783.hint_strings(eight, "", options)
        assert not [m for m in moves if len(m.rstrip("*")) == 8], (flag, moves)
    assert Q783.hint_strings(eight, "", opts(triple_bomb=True)) == [
        "3", "33", "7", "77", "8", "88", "Q", "Q783*", "QQ"]


def test_q783_rule_4_6_every_combination_is_one_link(twin):
    """4.6: no straights: every reading (Validate's combination, classify) has chain 1."""
    options = opts(triple_bomb=True, double_q783=True)
    for text in ("4S", "QS QH", "9S 9H 9D", "QS 7H 8H 3H", "QH 7H 8H 3H", "4S 4H 4D 4C 4S",
                 "QS QH 7H 7H 8H 8H 3H 3H", "QH QH 7H 7H 8H 8H 3H 3H"):
        (reading,) = Q783.classify(text, options)
        assert reading.chain == 1 and reading.size == len(text.split()), text
    state = table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True))
    assert Q783.check(state, Action(0, PLAY, cards_of(state, 0, "4S"))).combo.chain == 1

@pytest.mark.parametrize("suit", "SHDC")
def test_q783_rule_4_5_a_double_of_one_suit_is_pure_in_every_suit(twin, suit):
    """4.5: a double Q783 all of one suit is pure, diamonds (the lowest suit of 5.4) included."""
    options = opts(double_q783=True)
    eight = " ".join(f"{r}{suit}" for r in "QQ778833")
    reading = Q783.classify(eight, options)
    assert [c.kind for c in reading] == ["pure_double_q783"]
    assert Q783.classify(eight.replace(f"Q{suit}", "Q" + ("H" if suit != "H" else "S"), 1),
                         options)[0].kind == "mixed_double_q783"


def test_q783_rule_4_5_the_pure_double_is_played_with_its_own_suit(twin):
    """4.5 and the README's legal actions: a hand of two hearts Q783s lists one pure double, its
    eight hearts, labelled with its suit."""
    options = opts(double_q783=True, individual=True)
    state = table("QH QH 7H 7H 8H 8H 3H 3H 4S", "4D", "6D", options=options)
    doubles = [(a, c) for a, c in Q783.legal_actions(state, 0) if c and c.kind == "pure_double_q783"]
    assert len(doubles) == 1
    action, reading = doubles[0]
    assert set(action.cards) == ids("QH QH 7H 7H 8H 8H 3H 3H")
    assert reading.label == "pure double Q783 纯双Q783 (hearts)" and reading.size == 8
    # diamonds, the lowest suit: read as diamonds too
    state = table("QD QD 7D 7D 8D 8D 3D 3D 4S", "4H", "6H", options=options)
    doubles = [(a, c) for a, c in Q783.legal_actions(state, 0) if c and c.kind == "pure_double_q783"]
    assert [(set(a.cards), c.label) for a, c in doubles] == [
        (ids("QD QD 7D 7D 8D 8D 3D 3D"), "pure double Q783 纯双Q783 (diamonds)")]


def test_q783_rule_4_5_a_mixed_double_takes_eight_cards(twin):
    """4.5 and the README's legal actions: a mixed double is listed with eight cards, the lowest ids
    of each rank, one swapped for a card of another suit when those are all of one suit. Hand: two
    spades Q783s (ids QS 9 and 63) and the second pack's QH (76): the mixed double is QS 9, QH 76
    and the spades 7s, 8s and 3s."""
    options = opts(double_q783=True, individual=True)
    spades = set(cardlib.parse_cards("QS QS 7S 7S 8S 8S 3S 3S", 2))
    qh_second = cardlib.parse_cards("QH QH", 2)[1]
    assert qh_second == 76 and {9, 63} <= spades
    state = table("4D", "6D", "9D", options=options)
    state = state._replace(hands=(cardlib.to_mask(spades | {qh_second}),) + state.hands[1:])
    mixed = [a for a, c in Q783.legal_actions(state, 0) if c and c.kind == "mixed_double_q783"]
    assert len(mixed) == 1 and set(mixed[0].cards) == spades - {63} | {76}
    verdict = Q783.check(state, mixed[0])
    assert verdict.legal and verdict.combo.kind == "mixed_double_q783" and verdict.combo.size == 8
    # the single mixed Q783 the same way: the lowest ids QS 7S 8S 3S are all spades, so the first
    # rank held in another suit (Q) gives that card instead: QH 76, 7S, 8S, 3S
    single = [a for a, c in Q783.legal_actions(state, 0) if c and c.kind == "mixed_q783"]
    assert len(single) == 1 and set(single[0].cards) == {76} | set(cardlib.parse_cards("7S 8S 3S"))


# --- 5. beating ----------------------------------------------------------------------------------------

def test_q783_rule_5_1_a_play_that_does_not_beat_is_refused():
    """5.1: a non-bomb play must beat the top play (same size, strictly higher rank); anything else
    is refused (DOES_NOT_BEAT) and cannot be applied."""
    state, _ = run(table("4S 6S", "9S JS QS QH", "4D 6D 9D AD", options=opts(individual=True)), (0, "6S"),
                   (1, "9S"))
    for text in ("4D", "6D", "9D"):  # lower, lower, equal
        verdict = Q783.check(state, Action(2, PLAY, cards_of(state, 2, text)))
        assert not verdict.legal and verdict.reason == Reason.DOES_NOT_BEAT, text
        assert verdict.message == "single 单张 does not beat single 单张"
        with pytest.raises(IllegalAction):
            Q783.apply(state, Action(2, PLAY, cards_of(state, 2, text)))
    assert Q783.check(state, Action(2, PLAY, cards_of(state, 2, "AD"))).legal  # A ranks above 9
    # size matters too: a pair on a single
    state, _ = run(table("4S 6S", "9S JS QS QH", "AS 2S", options=opts(individual=True)), (0, "4S"))
    verdict = Q783.check(state, Action(1, PLAY, cards_of(state, 1, "QS QH")))
    assert verdict.reason == Reason.DOES_NOT_BEAT and verdict.message == "pair 对子 does not beat single 单张"


def test_q783_rule_5_4_pure_q783s_equal_without_the_option(twin):
    """5.4: without ``pure_suit_order`` pure Q783s are equal whatever the other variants on
    (``triple_bomb``, ``double_q783``, ``more_cards_beat``): none beats another, and a hand lists
    one pure Q783 only."""
    for flag in ("triple_bomb", "double_q783", "more_cards_beat"):
        options = opts(**{flag: True})
        assert not Q783.compare("QS 7S 8S 3S", "QD 7D 8D 3D", options)[0], flag
        assert not Q783.compare("QD 7D 8D 3D", "QS 7S 8S 3S", options)[0], flag
        state = table("QS 7S 8S 3S QH 7H 8H 3H", "4D", "6D", options=opts(individual=True, **{flag: True}))
        pure = [c.label for _, c in Q783.legal_actions(state, 0) if c and c.kind == "pure_q783"]
        assert pure == ["pure Q783 纯Q783 (spades)"], flag


def test_q783_rule_5_4_same_suit_pure_q783s_are_equal(twin):
    """5.4 ``pure_suit_order``: a pure Q783 beats one of a lower suit only; the other pack's pure
    Q783 of the same suit is equal and cannot beat it."""
    options = opts(pure_suit_order=True)
    for suit in "SHDC":
        pure = f"Q{suit} 7{suit} 8{suit} 3{suit}"
        assert not Q783.compare(pure, pure, options)[0], suit
    state, _ = run(table("QH 7H 8H 3H 4S", "QH 7H 8H 3H 4D", "6D 9D", options=opts(pure_suit_order=True,
                                                                                    individual=True)),
                   (0, "QH 7H 8H 3H"))
    verdict = Q783.check(state, Action(1, PLAY, cards_of(state, 1, "QH 7H 8H 3H")))
    assert verdict.reason == Reason.DOES_NOT_BEAT
    assert [a.kind for a, _ in Q783.legal_actions(state, 1)] == [PASS]


def test_q783_rule_5_4_one_pure_q783_per_suit_held(twin):
    """5.4 under ``pure_suit_order``: one pure Q783 per suit the hand holds one in, and no other;
    two of each diamond card (a pure double's worth, ``double_q783`` off) are still one pure
    diamonds Q783."""
    options = opts(pure_suit_order=True, individual=True)
    state = table("QD QD 7D 7D 8D 8D 3D 3D 4S", "4H", "6H", options=options)
    legal = Q783.legal_actions(state, 0)
    pure = [(set(a.cards), c.label) for a, c in legal if c and c.kind == "pure_q783"]
    assert pure == [(ids("QD 7D 8D 3D"), "pure Q783 纯Q783 (diamonds)")]
    # every play once: 4, Q/QQ, 7/77, 8/88, 3/33 (10 sets), the pure Q783; no mixed one (all diamonds)
    assert len(legal) == 10
    assert Q783.hint_strings("QD QD 7D 7D 8D 8D 3D 3D 4S", "", options) == [
        "3", "33", "4", "7", "77", "8", "88", "Q", "Q783*", "QQ"]
    # a pure double's worth in diamonds and a pure hearts Q783: one of each suit
    state = table("QD QD 7D 7D 8D 8D 3D 3D QH 7H 8H 3H", "4H", "6H", options=options)
    assert sorted(c.label for _, c in Q783.legal_actions(state, 0) if c and c.kind == "pure_q783") == [
        "pure Q783 纯Q783 (diamonds)", "pure Q783 纯Q783 (hearts)"]


# --- 6. the trick ------------------------------------------------------------------------------------------

def test_q783_rule_6_1_the_table_seat_in_views():
    """6.1: the view shows the top play and its owner (table_seat), -1 and no table on a free lead."""
    state = table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True))
    view = Q783.view(state, 0)
    assert view.table is None and view.table_seat == -1 and view.table_cards == ()
    state, _ = run(state, (0, "4S"), (1, "9S"))
    view = Q783.view(state, 2)
    assert view.table.kind == "single" and view.table_seat == 1 and view.table_cards == cards_of(
        table("9S"), 0, "9S")
    state, _ = run(state, (2, None), (0, None))  # seat 1 won: a free lead again
    view = Q783.view(state, 1)
    assert view.table is None and view.table_seat == -1 and view.counters["leader"] == 1

def test_q783_rule_6_6_baopai_announced_once_when_the_count_falls_to_it():
    """6.6: the announcement is made when the count falls to the set number (2 here); a seat
    already at or below it that plays on is not announced again."""
    options = opts(individual=True, baopai=2)
    state, events = run(table("4S 6S 9S", "AS 2S QS", "4D 6D 9D", options=options), (0, "4S"))
    assert [(e.seat, e.values["cards"]) for e in of_type(events, "BAOPAI")] == [(0, 2)]
    state, events = run(state, (1, None), (2, None), (0, "6S"))  # 2 -> 1: already announced
    assert not of_type(events, "BAOPAI")
    # going out is no announcement (the count falls to 0, below any number)
    for baopai in (1, 2, 3):
        _, events = run(table("4S 4H", "AS 2S QS", "4D 6D 9D", options=opts(individual=True, baopai=baopai)),
                        (0, "4S 4H"))
        assert of_type(events, "OUT") and not of_type(events, "BAOPAI"), baopai
    # dealt at the number: falling below it is no announcement either
    _, events = run(table("4S 6S", "AS 2S QS", "4D 6D 9D", options=options), (0, "4S"))
    assert not of_type(events, "BAOPAI")


def test_q783_rule_6_6_baopai_option_range():
    """6.6 / README: ``baopai`` is an int 0..20, default 1; 21 is refused."""
    info = next(i for i in Q783.option_infos() if i.name == "baopai")
    assert (info.type, info.default, info.minimum, info.maximum) == ("int", 1, 0, 20)
    assert Q783.make_options("q783", {"baopai": 20}).baopai == 20
    with pytest.raises(InvalidAction) as refused:
        Q783.make_options("q783", {"baopai": 21})
    assert refused.value.reason == Reason.BAD_OPTION


# --- 7. trick payments ----------------------------------------------------------------------------------

def test_q783_rule_7_1_the_other_camp_pays_whoever_wins():
    """7.1: in camps the opposing camp pays once per opposing player, whichever seat of a camp
    wins (seats 2 and 3 of four, seat 4 of six)."""
    hands = ("4S 6S", "9S JS", "AS 2S", "3S 8S")
    state, events = run(table(*hands), (0, "4S"), (1, "9S"), (2, "AS"), (3, None), (0, None), (1, None))
    assert of_type(events, "TRICK_WON")[0].seat == 2
    assert pays(events) == [(1, 2, 5), (3, 2, 5)] and state.banks == (1010, 990)
    state, events = run(table(*hands), (0, "4S"), (1, None), (2, None), (3, "3S"), (0, None), (1, None), (2, None))
    assert of_type(events, "TRICK_WON")[0].seat == 3
    assert pays(events) == [(0, 3, 5), (2, 3, 5)] and state.banks == (990, 1010)
    six = ("4S 6S", "9S JS", "AS 2S", "3S 8S", "QS 7S", "4H 6H")
    state, events = run(table(*six), (0, "4S"), (1, None), (2, None), (3, None), (4, "QS"), (5, None), (0, None),
                        (1, None), (2, None), (3, None))
    assert of_type(events, "TRICK_WON")[0].seat == 4
    assert pays(events) == [(1, 4, 5), (3, 4, 5), (5, 4, 5)] and state.banks == (1015, 985)
    # pay_on_pass: only the opponents of the owner pay as they pass
    state, events = run(table(*hands, options=opts(pay_on_pass=True)), (0, "4S"), (1, None), (2, None),
                        (3, "3S"), (0, None), (1, None), (2, None))
    assert pays(events) == [(1, 0, 5), (0, 3, 5), (2, 3, 5)]


def test_q783_rule_7_3_trick_cards_start_at_zero_each_trick():
    """7.3: the cards a seat played in the trick in progress (seat counter trick_cards) are 0 at the
    deal and again after each trick; ``by_count`` pays 5 a card of the winner's in that trick."""
    dealt = Q783.deal(opts(payment="by_count"), b"count", b"")
    assert [sv.counters["trick_cards"] for sv in Q783.view(dealt, -1).seats] == [0, 0, 0, 0]
    options = opts(individual=True, payment="by_count")
    state, events = run(table("4S 6S 9S", "AS 2S QS", "4D 6D 9D", options=options), (0, "4S"), (1, None),
                        (2, None))
    assert pays(events) == [(1, 0, 5), (2, 0, 5)]
    assert [sv.counters["trick_cards"] for sv in Q783.view(state, 0).seats] == [0, 0, 0]
    state, events = run(state, (0, "6S"))
    assert [sv.counters["trick_cards"] for sv in Q783.view(state, 0).seats] == [1, 0, 0]
    state, events = run(state, (1, None), (2, None))  # the second trick: one card of seat 0's again
    assert pays(events) == [(1, 0, 5), (2, 0, 5)]
    # each seat's own count, whoever plays in between (seat 0 plays again after seat 1)
    state, _ = run(table("4S 9S JS", "6S QS", "4D AD 6D", options=options), (0, "4S"), (1, "6S"), (2, None),
                   (0, "9S"))
    assert [sv.counters["trick_cards"] for sv in Q783.view(state, 1).seats] == [2, 1, 0]
    state, events = run(state, (1, None), (2, "AD"))
    assert [sv.counters["trick_cards"] for sv in Q783.view(state, 1).seats] == [2, 1, 1]
    state, events = run(state, (0, None), (1, None))
    assert of_type(events, "TRICK_WON")[0].seat == 2 and pays(events) == [(0, 2, 5), (1, 2, 5)]


# --- 8. end of a 小局 ----------------------------------------------------------------------------------

def test_q783_rule_8_3_settlement_names_the_xiaoju_and_the_first_out():
    """The settlement's breakdown (README: Score's settlement is the 小局): ``xiaoju`` its number in
    the 大局 (1 for the first), ``first_out`` the first seat out (8.3), then the banks."""
    state, _ = run(table("4S", "6S 9S", "7H", "6D 9D"), (0, "4S"), (1, None), (2, None), (3, None),
                   (1, "6S"), (2, "7H"), (3, None), (1, None))
    assert state.out == (0, 2) and state.finished
    breakdown = dict(Q783.settle(state).breakdown)
    assert breakdown["xiaoju"] == 1 and breakdown["first_out"] == 0
    later = table("4S", "6S 9S", "7H", "6D 9D")._replace(match=Match(2, (0,) * 4, q783.Carry(0, (1000, 1000))))
    state, _ = run(later, (0, "4S"), (1, None), (2, None), (3, None), (1, "6S"), (2, "7H"), (3, None), (1, None))
    assert dict(Q783.settle(state).breakdown)["xiaoju"] == 3
    assert breakdown["abandoned"] == -1 and breakdown["exhausted"] == 0
    # an abandoned 小局 with nobody out: no first out, the leaver named
    left, _ = Q783.apply(Q783.deal(opts(), b"gone", b""), Action(3, ABANDON))
    breakdown = dict(Q783.settle(left).breakdown)
    assert breakdown["first_out"] == -1 and breakdown["abandoned"] == 3 and breakdown["xiaoju"] == 1
    # a dealt 小局 played out names no leaver
    state, rnd = Q783.deal(opts(), b"played out", b""), random.Random(7)
    while not state.finished:
        state, _ = Q783.apply(state, rnd.choice(Q783.legal_actions(state, state.to_act[0]))[0])
    assert dict(Q783.settle(state).breakdown)["abandoned"] == -1

def test_q783_rule_8_3_places_shown_while_the_xiaoju_goes_on():
    """8.3's finishing places are the view's seat counter ``place`` (0 while in): the first seat out
    is 1st at once, in individual play and in camps."""
    state, _ = run(table("4S", "6S JS", "9D 2D", options=opts(individual=True)), (0, "4S"))
    assert not state.finished
    assert [sv.counters["place"] for sv in Q783.view(state, 1).seats] == [1, 0, 0]
    state, _ = run(table("4S", "6S 9S", "7H", "6D 9D"), (0, "4S"), (1, None), (2, None), (3, None),
                   (1, "6S"), (2, "7H"))
    assert not state.finished  # seat 2's 7H is still to be passed on
    assert [sv.counters["place"] for sv in Q783.view(state, 3).seats] == [1, 0, 2, 0]


def test_q783_rule_8_3_individual_the_first_seat_out_wins():
    """8.3 individual: the first player out wins, also when another goes out later in the trick
    that is played out (8.2): seat 0 out on the 4, seat 1 out on the 6."""
    state, events = run(table("4S", "6S", "9D 2D", options=opts(individual=True)), (0, "4S"), (1, "6S"),
                        (2, None))
    assert state.out == (0, 1) and state.finished
    assert state.outcome == q783.FIRST_OUT_WON and state.winners == (0,)
    assert pays(events, "PENALTY") == [(1, 0, 50), (2, 0, 50)]
    assert [e.values["winner"] for e in of_type(events, "FINISH")] == [0]


def test_q783_rule_8_3_variant_by_points_counts_the_gain_not_the_bank():
    """8.3 ``by_points``: the points gained in the 小局 decide, whatever the banks held before:
    seat 0 (bank 200) wins two tricks (+20; -10 for each other seat) and wins the 小局."""
    options = opts(individual=True, by_points=True)
    state, events = run(table("4S JS", "6D 9D", "4D 6H", options=options, banks=(200, 1000, 1000)), (0, "JS"),
                        (1, None), (2, None), (0, "4S"), (1, None), (2, None))
    assert pays(events) == [(1, 0, 5), (2, 0, 5)] * 2  # the tricks: 220, 990, 990
    assert state.outcome == q783.POINTS_WON and state.winners == (0,)
    assert pays(events, "PENALTY") == [(1, 0, 50), (2, 0, 50)]
    assert state.finished and state.banks == (320, 940, 940)


def test_q783_rule_8_3_variant_by_points_a_tie_of_two_is_a_draw():
    """8.3 ``by_points``: a tie for the most is a draw, also when only two of three seats tie.
    Seat 0 wins a trick (+10, -5, -5), then goes out on a 4 that seat 1 beats (-5, +10, -5): the
    小局 gained (+5, +5, -10)."""
    options = opts(individual=True, by_points=True)
    state, events = run(table("4S JS", "6S 9S 2S", "4D 6D 9D", options=options), (0, "JS"), (1, None), (2, None),
                        (0, "4S"), (1, "6S"), (2, None))
    assert pays(events) == [(1, 0, 5), (2, 0, 5), (0, 1, 5), (2, 1, 5)]
    assert state.finished and state.banks == (1005, 1005, 990)
    assert state.outcome == q783.DRAW and state.winners == () and not of_type(events, "PENALTY")
    assert [e.values for e in of_type(events, "FINISH")] == [{"winner": -1, "camp": -1, "draw": 1}]
    assert Q783.settle(state).outcome == "draw"


def test_q783_rule_8_3_finish_event_names_the_winning_seat_or_none():
    """The FINISH event (ListGames: winner "the winning seat, -1 none or camps", camp "the winning
    camp, -1 none", draw 1 for a draw)."""
    # camps: camp 0 (seats 0, 2) wins 1st + 2nd: no single winning seat; FINISH is no seat's event
    _, events = run(table("4S", "6S 9S", "7H", "6D 9D"), (0, "4S"), (1, None), (2, None), (3, None),
                    (1, "6S"), (2, "7H"), (3, None), (1, None))
    assert [e.values for e in of_type(events, "FINISH")] == [{"winner": -1, "camp": 0, "draw": 0}]
    assert [e.seat for e in of_type(events, "FINISH")] == [-1]
    # camps: camp 1 (seats 1, 3) wins 1st + 2nd; both its opponents pay the penalty (8.4), each to the
    # seat after him
    state, events = run(table("4S 6S", "9S", "4D 6D", "AS", leader=1), (1, "9S"), (2, None), (3, None), (0, None),
                        (2, "4D"), (3, "AS"), (0, None), (2, None))
    assert state.finished and state.out == (1, 3) and state.winners == (1, 3)
    assert pays(events, "PENALTY") == [(0, 1, 100), (2, 3, 100)]
    assert [e.values for e in of_type(events, "FINISH")] == [{"winner": -1, "camp": 1, "draw": 0}]
    # camps, 1st + 4th against 2nd + 3rd: a draw
    _, events = run(table("4S", "6S", "7H 9H", "8D"), (0, "4S"), (1, "6S"), (2, None), (3, "8D"), (2, None))
    assert [e.values for e in of_type(events, "FINISH")] == [{"winner": -1, "camp": -1, "draw": 1}]
    # individual: the first seat out
    _, events = run(table("4S", "6S JS", "9D 2D", options=opts(individual=True)), (0, "4S"), (1, None),
                    (2, None))
    assert [e.values for e in of_type(events, "FINISH")] == [{"winner": 0, "camp": -1, "draw": 0}]
    assert [e.seat for e in of_type(events, "FINISH")] == [-1]
    # 9.1: a bank ran out, no result
    _, events = run(table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True), banks=(5, 100, 100)),
                    (0, "4S"), (1, "9S"), (2, None), (0, None))
    assert [e.values for e in of_type(events, "FINISH")] == [{"winner": -1, "camp": -1, "draw": 0}]


def test_q783_decision_abandon_finish_names_no_winner():
    """README, escape (ABANDON): the 小局 ends with no result: FINISH has winner -1, camp -1, no draw."""
    for options, seats in ((opts(), 4), (opts(individual=True), 3)):
        state = table(*("4S 6S", "4H 6H", "4D 6D", "4C 6C")[:seats], options=options)
        state, events = Q783.apply(state, Action(1, ABANDON))
        assert [e.type for e in events] == ["ABANDON", "FINISH"] and events[0].seat == 1
        assert events[1].values == {"winner": -1, "camp": -1, "draw": 0} and events[1].seat == -1
        assert state.finished and state.winners == ()


# --- referee legal, compare, tokens -----------------------------------------------------------------------

def test_q783_card_text_ten_is_t_and_nothing_else():
    """README: cards with suits, ``10`` or ``T``; ``10T`` is no card (a rank string: refused)."""
    assert Q783.hint_strings("10H 10H QS", "", opts()) == ["Q"]  # two tens (score cards, ignored)
    for text in ("10T QS", "QS 10T"):
        with pytest.raises(InvalidAction) as refused:
            Q783.hint_strings(text, "", opts())
        assert refused.value.reason == Reason.UNKNOWN_CARD, text


def test_q783_compare_needs_two_combinations():
    """``compare`` (referee compare): both sides must be combinations; a blank one is refused."""
    for a, b in (("", "4S"), ("4S", ""), ("", ""), ("  ", "QS 7H 8H 3H")):
        with pytest.raises(InvalidAction) as refused:
            Q783.compare(a, b, opts())
        assert refused.value.reason == Reason.NOT_A_COMBINATION, (a, b)


def test_q783_unpack_refuses_what_pack_never_writes():
    """A state token's bytes: ``pack`` writes the version byte 2, then marshal format 2 of the
    state's fields in declared order (records as plain tuples; ``num_seats``, derived from the
    hands, is not stored); anything else is refused (STATE_TOKEN_INVALID)."""
    state = Q783.deal(opts(), b"pinned", b"")
    packed = Q783.pack(state)
    assert packed[0] == 2 and Q783.unpack(packed) == state
    values = marshal.loads(packed[1:])
    assert packed == b"\x02" + marshal.dumps(values, 2)
    assert "num_seats" not in State._fields and len(values) == len(State._fields) == 22
    assert values[:4] == (tuple(getattr(state.options, f.name) for f in dataclasses.fields(state.options)),
                          b"pinned", b"", (0, (0, 0, 0, 0), None, 0))
    assert values[4:] == (state.dealer, state.first_lead, state.hands, (0, 0, 0, 0), state.set_aside,
                          (250, 250), (250, 250), q783.PLAYING, (state.dealer,),
                          (state.dealer, 0, -1, 0, 0, 0), 0, (), (0, 0, 0, 0), (), 0, 0, -1, 0)
    for bad in (list(values), values[:-1], values + (0,)):
        with pytest.raises(InvalidAction) as error:
            Q783.unpack(b"\x02" + marshal.dumps(bad, 2))
        assert error.value.reason == Reason.STATE_TOKEN_INVALID
    for data in (b"\x03" + packed[1:], packed[1:], packed[:-1], b"not a state"):
        # another version; no version byte: the release format, whose layout stored num_seats
        with pytest.raises(InvalidAction) as error:
            Q783.unpack(data)
        assert error.value.reason == Reason.STATE_TOKEN_INVALID


def test_q783_referee_legal_json_line():
    """README ``referee legal --game q783 --jsonl``: one line ``{"moves": [...]}``, each legal play's
    ranks high to low, ``*`` after a pure one, in plain string order."""
    assert Q783.hint_json("QH 7H 8H 3H", "", opts()) == '{"moves": ["3", "7", "8", "Q", "Q783*"]}'
    assert Q783.hint_json("4S 9S QS", "6D", opts()) == '{"moves": ["9", "Q"]}'
    assert Q783.hint_json("4S", "QD", opts()) == '{"moves": []}'


# --- 9. end of a 大局 --------------------------------------------------------------------------------------

def test_q783_rule_2_4_start_bank_option_range():
    """2.4 / README: ``start_bank`` is an int 0..100,000 (0: the score-card total divided by the seats)."""
    info = next(i for i in Q783.option_infos() if i.name == "start_bank")
    assert (info.type, info.default, info.minimum, info.maximum) == ("int", 0, 0, 100_000)
    assert Q783.make_options("q783", {"start_bank": 100_000}).start_bank == 100_000
    for bad in (-1, 100_001):
        with pytest.raises(InvalidAction) as refused:
            Q783.make_options("q783", {"start_bank": bad})
        assert refused.value.reason == Reason.BAD_OPTION, bad


def test_q783_rule_9_2_xiaoju_limit_defaults_to_ten():
    """9.2: under ``negative_allowed`` the 大局 ends after ``xiaoju_limit`` 小局, 10 by default."""
    info = next(i for i in Q783.option_infos() if i.name == "xiaoju_limit")
    assert (info.default, info.minimum, info.maximum) == (10, 1, 1000)
    options = opts(negative_allowed=True)
    assert options.xiaoju_limit == 10
    base = table("4S", "6S", "9S", options=opts(negative_allowed=True, individual=True))
    for before, over in ((0, False), (8, False), (9, True)):  # ``round``: 小局 before this one
        state = base._replace(match=Match(before, (0,) * 3, q783.Carry(0, (1000,) * 3)), phase=q783.FINISHED)
        assert Q783.match_over(state) == over, before


def test_q783_rule_9_1_a_bank_runs_out_once():
    """9.1: the other payments of the same trick are still made; a camp bank emptied by the first
    of its two payments is announced once (EXHAUSTED), not again when it pays nothing for its
    second player."""
    # camp 1 (seats 1, 3) holds 5 and pays seat 0's single once per player
    state, events = run(table("4S 6S", "9S JS", "AS 2S", "3S 8S", banks=(1000, 5)), (0, "4S"), (1, None),
                        (2, None), (3, None))
    assert pays(events) == [(1, 0, 5), (3, 0, 0)]
    assert [(e.seat, e.values["bank"]) for e in of_type(events, "EXHAUSTED")] == [(1, 1)]
    assert state.banks == (1005, 0) and state.exhausted == 2 and state.finished
    # camp 0 the same way: seat 1 wins, seats 0 and 2 pay
    state, events = run(table("4S 6S", "9S JS", "AS 2S", "3S 8S", banks=(5, 1000)), (0, "4S"), (1, "9S"),
                        (2, None), (3, None), (0, None))
    assert pays(events) == [(0, 1, 5), (2, 1, 0)]
    assert [(e.seat, e.values["bank"]) for e in of_type(events, "EXHAUSTED")] == [(0, 0)]
    assert state.banks == (0, 1005) and state.exhausted == 1
