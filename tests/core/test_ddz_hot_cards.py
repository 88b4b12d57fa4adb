"""The hot module's card helpers (both twins): rank counts of a hand and rule 12's card picking."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards as cardlib
from referee.core.games.doudizhu import rules as doudizhu

hands = st.sets(st.integers(0, 53), max_size=54).map(lambda ids: cardlib.to_mask(tuple(ids)))


def _reference_counts(mask: int) -> int:
    total = 0
    for card in cardlib.from_mask(mask):
        total += 1 << (3 * cardlib.card_rank(card))
    return total


def _reference_pick(mask: int, counts: int) -> tuple[int, ...]:
    """Rule 12: a play named by ranks takes the lowest ids of each rank."""
    by_rank: dict[int, list[int]] = {}
    for card in cardlib.from_mask(mask):  # ascending ids
        by_rank.setdefault(cardlib.card_rank(card), []).append(card)
    picked = []
    for r in range(cardlib.NUM_RANKS):
        picked += by_rank.get(r, [])[:(counts >> (3 * r)) & 7]
    return tuple(sorted(picked))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # the twin is fixed per run
@given(hand=hands, data=st.data())
def test_ddz_rule_12_hand_counts_and_lowest_ids_picked(hot, hand, data):
    counts = hot.hand_counts(hand)
    assert counts == _reference_counts(hand)
    # any sub-multiset of the hand's ranks, named by counts
    want = 0
    for r in range(cardlib.NUM_RANKS):
        have = (counts >> (3 * r)) & 7
        want |= data.draw(st.integers(0, have)) << (3 * r)
    picked = hot.pick_cards(hand, want)
    assert picked & ~hand == 0
    assert cardlib.from_mask(picked) == _reference_pick(hand, want)
    assert hot.hand_counts(picked) == want


def test_ddz_rule_12_example_pair_of_fives_takes_spades_and_hearts(hot):
    hand = cardlib.to_mask(cardlib.parse_cards("5S 5H 5D 5C 3D BJ RJ"))
    five, three = 2, 0
    picked = hot.pick_cards(hand, (2 << (3 * five)) | (1 << (3 * three)) | (1 << (3 * 13)))
    assert cardlib.format_cards(cardlib.from_mask(picked)) == "3D 5S 5H BJ"
    assert doudizhu.counts_of_mask(hand) == hot.hand_counts(hand)
