"""Conversions with shortcuts: a view converted as a patched copy of another view of the same state
(``convert.view_like_into``) equals converting it on its own, whichever of the parts it rewrites
(seat, hand, seats, public cards, counters) differ."""
import itertools

import pytest

from referee.core.cards import PokerNotation
from referee.core.game import Combo, Meld, SeatView, View
from referee.service import convert

NOTATION = PokerNotation(1)
PAIR = Combo("pair", 4, 1, 2, (4, 4), "pair 对子")
BASE = View(seat=0, phase="playing", to_act=(1,), hand=(0, 13, 52),
            seats=(SeatView(3, "landlord", 0, {"bid": 3, "plays": 1}),
                   SeatView(17, "farmer", 1, {"bid": 0, "plays": 0}, {"discards": (5, 6)},
                            (Meld("pung", (7, 20, 33), 2),)),
                   SeatView(17, "farmer", 1, {"bid": -1, "plays": 2})),
            public_cards={"kitty": (1, 2, 3), "played": (4, 17)}, table=PAIR, table_seat=2, table_cards=(4, 17),
            counters={"base": 3, "bombs": 0}, finished=False)
# every part view_like_into rewrites, different from BASE's: values changed, keys added and keys gone
OTHER = dict(seat=-1, hand=(),
             seats=(SeatView(0, "farmer", 1, {"bid": 1}, {"hand": (8,)}),
                    SeatView(17, "landlord", 0, {"bid": 3, "plays": 5}, {"discards": (5,), "flowers": (9,)},
                             (Meld("kong", (), -1), Meld("chow", (10, 11, 12), 0))),
                    SeatView(16, "", -1)),
             public_cards={"kitty": (1, 2, 3), "hand2": (9,)},
             counters={"base": 3, "bombs": 2, "spring": 1})
PARTS = tuple(OTHER)


def _differing(base: View, other: dict):
    """Every view of ``base``'s state whose rewritten parts differ from base's in some subset."""
    for n in range(len(PARTS) + 1):
        for changed in itertools.combinations(PARTS, n):
            yield changed, base._replace(**{f: other[f] for f in changed})


def test_other_differs_from_base_in_every_part():
    assert all(getattr(BASE, f) != OTHER[f] for f in PARTS)
    assert convert.view(BASE, NOTATION) != convert.view(BASE._replace(**OTHER), NOTATION)


@pytest.mark.parametrize("like", [BASE, BASE._replace(**OTHER)], ids=["from_base", "from_other"])
def test_view_like_into_equals_converting_the_view(like):
    """Both ways: from BASE to views with OTHER's parts, and from OTHER's back to BASE's (so keys,
    seats and melds that the copied message holds and the view lacks must go)."""
    like_msg = convert.view(like, NOTATION)
    other = {f: getattr(BASE, f) for f in PARTS} if like is not BASE else OTHER
    for changed, v in _differing(like, other):
        expected = convert.view(v, NOTATION)
        patched = convert.view_like_into(type(like_msg)(), v, like, like_msg, NOTATION)
        assert patched == expected, changed
        # equal parts held by other objects (another seat's view built apart) convert the same
        copied = v._replace(seats=tuple(SeatView(*s) for s in v.seats), public_cards=dict(v.public_cards),
                            counters=dict(v.counters))
        assert convert.view_like_into(type(like_msg)(), copied, like, like_msg, NOTATION) == expected, changed
    assert like_msg == convert.view(like, NOTATION)  # the message copied from is left as it was


def test_views_keep_the_shared_messages_unchanged():
    """Views copy from cached card sets and combinations; changing a view must not reach them."""
    msg = convert.view(BASE, NOTATION)
    msg.hand.ids.append(53)
    msg.table.kind = "bomb"
    msg.seats[1].melds[0].cards.ids.append(46)
    msg.public_cards["kitty"].ids.append(50)
    fresh = convert.view(BASE, NOTATION)
    assert list(fresh.hand.ids) == [0, 13, 52]
    assert fresh.table.kind == "pair"
    assert list(fresh.seats[1].melds[0].cards.ids) == [7, 20, 33]
    assert list(fresh.public_cards["kitty"].ids) == [1, 2, 3]
