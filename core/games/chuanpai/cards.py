"""川牌's cards (spec rules/chuanpai.md 2.1-2.4, C-2): kinds, ids, points and the notation.

Kinds 0..22 are the rows of the spec's table 2.2 in its order: 0 [6:6] 天牌, 1 [1:1] 地牌, ...,
19 [2:3] 拐子, 20 [1:2] 丁丁 (the 3-point card), 21 财神, 22 听用 (the two 经牌, no pips, no points).

Card ids (one id space for both decks of C-2): the twenty four-copy kinds are
``id = kind * 4 + copy`` (ids 0..79); 80 and 81 the first two 3-point cards; 82 财神 and 83 听用;
84 and 85 the third and fourth 3-point cards, dealt only with ``84_plus_2_wild`` (2.3). The
default deck is ids 0..83 and the 86-card deck ids 0..85 (``deck_ids``), so a default deal does
not depend on the variant. ``NOTATION`` speaks them: card text is tokens, each pips (``[1:6]`` or
``1:6``, either order), a name (``高高``, ``四六``, ``红拾``) or both (``[1:6]高高``), the n-th copy
of a kind named in one text being copy n (a third ``丁丁`` is id 84, a card only the 86-card deck
holds: in a default hand it is a card not held); responses write pips and name (``[1:6]高高``,
``财神``). A rank string is the kinds' pips or names run together with no space
(``[6:6][1:1]财神``); a single token is card text.
"""
from __future__ import annotations

import re
from typing import Iterable

from ...errors import InvalidAction, Reason, quote

# (pips, points, names, copies) by kind; the first name is the one responses carry
KINDS: tuple[tuple[tuple[int, int] | None, int, tuple[str, ...], int], ...] = (
    ((6, 6), 12, ("天牌",), 4),
    ((1, 1), 2, ("地牌",), 4),
    ((4, 4), 8, ("人牌",), 4),
    ((1, 3), 4, ("合牌",), 4),
    ((5, 5), 10, ("梅子",), 4),
    ((3, 3), 6, ("长三",), 4),
    ((2, 2), 4, ("长二",), 4),
    ((5, 6), 11, ("斧头",), 4),
    ((4, 6), 10, ("四六", "红拾"), 4),
    ((1, 6), 7, ("高高", "高药"), 4),
    ((1, 5), 6, ("猫猫",), 4),
    ((3, 6), 9, ("三六", "弯鞭"), 4),
    ((4, 5), 9, ("红九",), 4),
    ((2, 6), 8, ("二六",), 4),
    ((3, 5), 8, ("三五",), 4),
    ((3, 4), 7, ("三四",), 4),
    ((2, 5), 7, ("二五",), 4),
    ((1, 4), 5, ("幺四",), 4),
    ((2, 4), 6, ("二四",), 4),
    ((2, 3), 5, ("拐子",), 4),
    ((1, 2), 3, ("丁丁",), 2),
    (None, 0, ("财神",), 1),
    (None, 0, ("听用",), 1),
)
NUM_KINDS = len(KINDS)
THREE = 20  # the 3-point kind [1:2]
CAISHEN, TINGYONG = 21, 22
JING = (CAISHEN, TINGYONG)  # the 经牌 (3.2)
SEVENS = (9, 15, 16)  # [1:6] [3:4] [2:5]: the three 7-point kinds of a 燕 (3.4)
POINTS = tuple(k[1] for k in KINDS)  # 0 for a 经牌
# point values by partner (3.1, C-1): p pairs with q when p + q is 10 or 20
PARTNERS = {p: tuple(q for q in range(2, 13) if p + q in (10, 20)) for p in range(2, 13)}
KIND_TEXT = tuple(("[%d:%d]" % k[0] if k[0] else "") + k[2][0] for k in KINDS)


WILD_DECK = "84_plus_2_wild"  # C-2's variant (2.3): four 3-point cards, 86 cards
DECK_SIZE = {"84": 84, WILD_DECK: 86}


def copies(kind: int, deck: str = "84") -> int:
    """Copies of a kind in the deck C-2 names (2.2-2.3): four 3-point cards with ``84_plus_2_wild``."""
    return 4 if kind == THREE and deck == WILD_DECK else KINDS[kind][3]


def kind_ids() -> tuple[tuple[int, ...], ...]:
    """The card ids of each kind in the id space (the 3-point kind: 80, 81, 84, 85)."""
    out = [tuple(range(kind * 4, kind * 4 + 4)) for kind in range(THREE)]
    out += [(80, 81, 84, 85), (82,), (83,)]
    return tuple(out)


def deck_ids(deck: str = "84") -> range:
    """The card ids of the deck C-2 names: 0..83, or 0..85 with ``84_plus_2_wild``."""
    return range(DECK_SIZE[deck])


def _token_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for kind, (pips, _points, names, _n) in enumerate(KINDS):
        for name in names:
            table[name] = kind
            if pips:
                table["[%d:%d]%s" % (pips + (name,))] = kind
        if pips:
            a, b = pips
            for text in ("[%d:%d]", "%d:%d"):
                table[text % (a, b)] = kind
                table[text % (b, a)] = kind
    return table


TOKENS = _token_table()
_RANK_TOKEN = re.compile("|".join(sorted((re.escape(t) for t in TOKENS), key=len, reverse=True)))


class ChuanNotation:
    """川牌's card space (a ``cards.CardSpace``): the ids of both decks, ranks = kinds."""

    name = "chuanpai"
    rank_count = NUM_KINDS

    def __init__(self):
        self.ids = kind_ids()
        self.id_count = sum(len(ids) for ids in self.ids)
        kind_of = [0] * self.id_count
        for kind, ids in enumerate(self.ids):
            for c in ids:
                kind_of[c] = kind
        self.kind_of = tuple(kind_of)
        self.rank_masks = tuple(sum(1 << c for c in ids) for ids in self.ids)

    def format_cards(self, ids: Iterable[int]) -> str:
        """Ids in the order given as pips and name: ``[6:6]天牌 [1:6]高高 财神``."""
        return " ".join(KIND_TEXT[self.kind_of[c]] for c in ids)

    def parse_cards_or_ranks(self, text: str) -> tuple[tuple[int, ...], bool]:
        """Card text -> (ids, True); a rank string (kinds run together) -> (kinds ascending, False).

        Raises:
            InvalidAction: unknown card (UNKNOWN_CARD), more copies than the deck holds
                (DUPLICATE_CARD).
        """
        tokens = text.replace(",", " ").split()
        if tokens and all(t in TOKENS for t in tokens):
            used = [0] * NUM_KINDS
            ids = []
            for token in tokens:
                kind = TOKENS[token]
                if used[kind] >= len(self.ids[kind]):
                    raise InvalidAction(f"card {token} given more than {len(self.ids[kind])} "
                                        "time(s) (copies in the 86-card deck, 2.3)", Reason.DUPLICATE_CARD)
                ids.append(self.ids[kind][used[kind]])
                used[kind] += 1
            return tuple(ids), True
        compact = "".join(tokens)
        kinds, pos = [], 0
        for match in _RANK_TOKEN.finditer(compact):
            if match.start() != pos:
                break
            kinds.append(TOKENS[match.group(0)])
            pos = match.end()
        if pos != len(compact) or not kinds and compact:
            raise InvalidAction(f"not 川牌 cards: {quote(text)} (pips such as [1:6], or names "
                                "such as 天牌 高高 财神)", Reason.UNKNOWN_CARD)
        return tuple(sorted(kinds)), False

    def format_ranks(self, kinds: Iterable[int]) -> str:
        """Kinds as a rank string: ``[6:6]天牌[1:1]地牌``."""
        return "".join(KIND_TEXT[k] for k in sorted(kinds))

    def ranks_of(self, ids: Iterable[int]) -> tuple[int, ...]:
        return tuple(sorted(self.kind_of[c] for c in ids))


NOTATION = ChuanNotation()
