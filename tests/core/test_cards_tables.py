"""core/cards.py formats hands and ranks from tables of the ids of up to 8 decks (issue 26); ids
outside them (past 8 decks, below 0) go by the functions. Both must give what the functions give."""
from hypothesis import given
from hypothesis import strategies as st

from referee.core import cards


def by_functions(ids):
    return (" ".join(cards.format_card(c) for c in sorted(ids, key=cards._sort_key)),
            tuple(sorted(cards.card_rank(c) for c in ids)))


@given(st.lists(st.integers(min_value=0, max_value=8 * 54 - 1), max_size=60, unique=True))
def test_tables_agree_with_the_functions(ids):
    assert (cards.format_cards(ids), cards.ranks_of(ids)) == by_functions(ids)


@given(st.lists(st.integers(min_value=-60, max_value=20 * 54), max_size=30))
def test_ids_outside_the_tables_and_iterators_fall_back(ids):
    """A generator is read once even when the tables miss part way through."""
    assert (cards.format_cards(iter(ids)), cards.ranks_of(c for c in ids)) == by_functions(ids)


def test_rank_order_within_and_across_decks():
    # rank first (3 .. 2, jokers last), then suit S H D C, then the deck
    assert cards.format_cards([53, 0, 54 + 0, 13, 52, 12, 2 * 54 + 1]) == "3S 3S 3H 4S 2S BJ RJ"
    assert cards.ranks_of([53, 54 + 12, 0]) == (0, 12, 14)


def test_the_tables_hold_every_id_of_eight_decks_and_no_other():
    """8 decks: the most any card set of a request may span (service MAX_CARDS)."""
    for table in (cards._TEXT, cards._RANK, cards._ORDER):
        assert sorted(table) == list(range(8 * 54))
    ids = range(8 * 54)  # the functions' order, copies of a card by deck too (the text cannot tell them)
    assert sorted(ids, key=cards._ORDER.__getitem__) == sorted(ids, key=cards._sort_key)


@given(st.sets(st.integers(0, 8 * 54 - 1), max_size=120))
def test_from_mask_gives_the_ids_of_a_mask_ascending_as_a_tuple(ids):
    mask = sum(1 << i for i in ids)
    got = cards.from_mask(mask)
    assert type(got) is tuple and got == tuple(sorted(ids))
    assert cards.to_mask(got) == mask
