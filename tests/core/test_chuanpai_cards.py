"""川牌 cards (spec 2.1-2.4, C-2): the id space, the pips/name notation round-tripping, and the
deck self-check of rule 2.4."""
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core.cards import CardSpace
from referee.core.errors import InvalidAction, Reason
from referee.core.games.chuanpai import cards
from referee.core.games.chuanpai.cards import NOTATION


def test_chuanpai_rule_2_1_kinds_are_the_21_pip_pairs():
    pips = [k[0] for k in cards.KINDS if k[0]]
    assert sorted(pips) == [(a, b) for a in range(1, 7) for b in range(a, 7)]
    assert all(points == a + b for (a, b), points, _names, _n in (k for k in cards.KINDS if k[0]))


def test_chuanpai_rule_2_2_and_2_3_deck_sizes_and_ids():
    """One id space for both decks of C-2: the default deck is ids 0..83, the 86-card deck adds
    the third and fourth 3-point cards as ids 84 and 85 (2.3)."""
    assert NOTATION.id_count == 86
    assert list(cards.deck_ids()) == list(range(84)) and list(cards.deck_ids("84_plus_2_wild")) == list(range(86))
    assert NOTATION.ids[cards.THREE] == (80, 81, 84, 85) and NOTATION.ids[cards.CAISHEN] == (82,)
    assert NOTATION.ids[cards.TINGYONG] == (83,)
    assert NOTATION.ids[9] == (36, 37, 38, 39)  # [1:6] 高高, kind 9
    assert [cards.copies(cards.THREE), cards.copies(cards.THREE, "84_plus_2_wild")] == [2, 4]
    assert sum(cards.copies(k) for k in range(cards.NUM_KINDS)) == 84
    assert sum(cards.copies(k, "84_plus_2_wild") for k in range(cards.NUM_KINDS)) == 86
    assert all(hasattr(NOTATION, name) for name in CardSpace.__annotations__)
    assert all(callable(getattr(NOTATION, name)) for name in
               ("format_cards", "parse_cards_or_ranks", "format_ranks", "ranks_of"))


def _per_point_value(deck: str) -> dict:
    by_points = Counter(cards.POINTS[NOTATION.kind_of[c]] for c in cards.deck_ids(deck))
    return {p: by_points[p] for p in range(0, 13) if by_points[p]}


def test_chuanpai_rule_2_4_cards_per_point_value():
    """2.4's self-check of the default deck: 2→4, 3→2 (+2 经牌, points 0 here), 4→8, ... 12→4."""
    assert _per_point_value("84") == {0: 2, 2: 4, 3: 2, 4: 8, 5: 8, 6: 12, 7: 12, 8: 12, 9: 8, 10: 8, 11: 4, 12: 4}


def test_chuanpai_rule_2_4_self_check_of_the_86_card_deck():
    """2.3 + 2.4 for ``84_plus_2_wild``: the same counts but four 3-point cards, and both 经牌."""
    assert _per_point_value("84_plus_2_wild") == {0: 2, 2: 4, 3: 4, 4: 8, 5: 8, 6: 12, 7: 12, 8: 12, 9: 8, 10: 8,
                                                  11: 4, 12: 4}
    kinds = Counter(NOTATION.kind_of[c] for c in cards.deck_ids("84_plus_2_wild"))
    assert all(kinds[k] == 4 for k in range(cards.THREE + 1))  # all 21 kinds x4 [ALQ]
    assert kinds[cards.CAISHEN] == kinds[cards.TINGYONG] == 1


@pytest.mark.parametrize("text, kinds", [
    ("[6:6]", [0]), ("6:6", [0]), ("天牌", [0]), ("[6:6]天牌", [0]), ("[6:1]", [9]),
    ("高高 高药", [9, 9]), ("四六 红拾", [8, 8]), ("弯鞭", [11]), ("丁丁", [20]), ("拐子", [19]),
    ("财神 听用", [21, 22]), ("[1:2],[2:1]", [20, 20])])
def test_chuanpai_rule_2_2_pips_and_names_both_accepted(text, kinds):
    ids, is_cards = NOTATION.parse_cards_or_ranks(text)
    assert is_cards and [NOTATION.kind_of[c] for c in ids] == kinds


def test_chuanpai_rule_2_2_responses_carry_pips_and_name():
    assert NOTATION.format_cards([0, 36, 82, 83]) == "[6:6]天牌 [1:6]高高 财神 听用"


@given(st.lists(st.integers(0, 85), max_size=30, unique=True))
def test_chuanpai_notation_round_trip(ids):
    text = NOTATION.format_cards(ids)
    kinds = sorted(NOTATION.kind_of[c] for c in ids)
    if ids:
        parsed, is_cards = NOTATION.parse_cards_or_ranks(text)
        assert is_cards and sorted(NOTATION.kind_of[c] for c in parsed) == kinds
    ranks = NOTATION.format_ranks(kinds)
    if len(kinds) > 1:
        assert NOTATION.parse_cards_or_ranks(ranks) == (tuple(kinds), False)


def test_chuanpai_rule_2_3_copies_refused_beyond_the_deck():
    """The third and fourth 丁丁 are ids 84 and 85 (the 86-card deck's); a fifth, or a second 财神,
    is no card of either deck."""
    assert NOTATION.parse_cards_or_ranks("丁丁 丁丁 丁丁 [2:1]")[0] == (80, 81, 84, 85)
    for text in ("丁丁 丁丁 丁丁 丁丁 丁丁", "财神 财神"):
        with pytest.raises(InvalidAction) as refused:
            NOTATION.parse_cards_or_ranks(text)
        assert refused.value.reason == Reason.DUPLICATE_CARD


@pytest.mark.parametrize("bad", ["[0:1]", "[7:1]", "W1", "大王", "[1:6", "高"])
def test_chuanpai_unknown_cards_refused(bad):
    with pytest.raises(InvalidAction) as refused:
        NOTATION.parse_cards_or_ranks(bad)
    assert refused.value.reason == Reason.UNKNOWN_CARD
