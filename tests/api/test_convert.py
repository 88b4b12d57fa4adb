"""Conversions with shortcuts: a view converted as a patched copy of another equals converting
it on its own, whatever fields differ."""
import itertools

from referee.core.cards import PokerNotation
from referee.core.game import Combo, View
from referee.service import convert

NOTATION = PokerNotation(1)
PAIR = Combo("pair", 4, 1, 2, (4, 4), "pair 对子")
BASE = View(seat=0, phase="playing", to_act=(1,), hand=(0, 13, 52), hand_sizes=(3, 17, 17),
            public_cards={"kitty": (1, 2, 3)}, table=PAIR, table_seat=2, table_cards=(4, 17), roles=("a", "b", "c"),
            counters={"base": 3, "bombs": 0}, finished=False)
OTHER = dict(seat=1, phase="finished", to_act=(), hand=(), hand_sizes=(0, 0, 1), public_cards={"kitty": (1, 2, 3),
             "hands_left": (9,)}, table=None, table_seat=-1, table_cards=(), roles=("x", "y", "z"),
             counters={"base": 3, "bombs": 2, "spring": 1}, finished=True)


def test_view_like_into_equals_converting_every_combination_of_differing_fields():
    like_msg = convert.view(BASE, NOTATION)
    fields = [f for f in View._fields if f not in ("seat", "hand")]
    for n in range(len(fields) + 1):
        for changed in itertools.combinations(fields, n):
            v = BASE._replace(**{f: OTHER[f] for f in changed})
            patched = convert.view_like_into(type(like_msg)(), v, BASE, like_msg, NOTATION)
            assert patched == convert.view(v, NOTATION), changed
    # and back: a view with a table and cards from one without
    empty = BASE._replace(**OTHER)
    patched = convert.view_like_into(type(like_msg)(), BASE, empty, convert.view(empty, NOTATION), NOTATION)
    assert patched == like_msg and patched.HasField("table")


def test_views_keep_the_shared_messages_unchanged():
    """Views copy from cached card sets and combinations; changing a view must not reach them."""
    msg = convert.view(BASE, NOTATION)
    msg.hand.ids.append(53)
    msg.table.kind = "bomb"
    assert list(convert.view(BASE, NOTATION).hand.ids) == [0, 13, 52]
    assert convert.view(BASE, NOTATION).table.kind == "pair"
