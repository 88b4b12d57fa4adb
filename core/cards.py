"""Poker card ids and text notation, shared by every game played with 54-card decks.

Encoding (DESIGN.md): ``id = deck * 54 + k``; ``k = suit * 13 + rank`` for k < 52, with suits
S H D C (0..3) and ranks 3 4 5 6 7 8 9 T J Q K A 2 (0..12); k = 52 is the small joker, 53 the
big joker. A card's *rank index* runs 0..14 (13 small joker, 14 big joker).

Text: ``3S TH QD AC 2H BJ RJ`` (``10`` is accepted for ``T``). Suitless games also take a rank
string: ``33344455``, ``B``/``R`` for the jokers. A hand of ids is also kept as an int bitmask.
"""
from collections.abc import Iterable
from typing import Protocol

from .errors import InvalidAction, Reason, quote

RANKS = "3456789TJQKA2"
RANK_CHARS = RANKS + "BR"  # rank index -> character, jokers last
SUITS = "SHDC"
CARDS_PER_DECK = 54
SMALL_JOKER = 13  # rank index
BIG_JOKER = 14
NUM_RANKS = 15

_RANK_OF_CHAR = {c: i for i, c in enumerate(RANK_CHARS)}
_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)}


def card_rank(card: int) -> int:
    k = card % CARDS_PER_DECK
    return k % 13 if k < 52 else k - 52 + SMALL_JOKER


# the number on a card of each rank index (3 4 5 6 7 8 9 T J Q K A 2, A = 1), then the jokers
# (14 small, 15 big): the card values of the children's games
NUMBERS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 14, 15)


def card_number(card: int) -> int:
    """The number on a card (A = 1, 2 .. 10, J = 11, Q = 12, K = 13; jokers 14, 15)."""
    return NUMBERS[card_rank(card)]


def card_suit(card: int) -> int | None:
    k = card % CARDS_PER_DECK
    return k // 13 if k < 52 else None


def card_id(rank: int, suit: int | None = None, deck: int = 0) -> int:
    if rank >= SMALL_JOKER:
        return deck * CARDS_PER_DECK + 52 + rank - SMALL_JOKER
    return deck * CARDS_PER_DECK + suit * 13 + rank


def full_deck(decks: int = 1) -> tuple[int, ...]:
    return tuple(range(decks * CARDS_PER_DECK))


def format_card(card: int) -> str:
    k = card % CARDS_PER_DECK
    if k == 52:
        return "BJ"
    if k == 53:
        return "RJ"
    return RANKS[k % 13] + SUITS[k // 13]


def format_cards(cards: Iterable[int]) -> str:
    """Cards in rank order (3 first, jokers last; suits S H D C within a rank)."""
    cards = cards if type(cards) is tuple else tuple(cards)  # read twice when it falls back
    try:  # every view's hands go through here: the ids of up to 8 decks from tables
        return " ".join([_TEXT[c] for c in sorted(cards, key=_ORDER.__getitem__)])
    except KeyError:  # an id past 8 decks (or below 0): the same by the functions
        return " ".join(format_card(c) for c in sorted(cards, key=_sort_key))


def _sort_key(card: int) -> tuple[int, int, int]:
    return card_rank(card), card % CARDS_PER_DECK, card // CARDS_PER_DECK


# The text, rank index and sort position of each id of up to 8 decks (issue 26: a view's hands
# are formatted call after call); ids outside fall back to the functions above, with the same result.
_TABLE_IDS = range(8 * CARDS_PER_DECK)
_TEXT = {c: format_card(c) for c in _TABLE_IDS}
_RANK = {c: card_rank(c) for c in _TABLE_IDS}
_ORDER = {c: i for i, c in enumerate(sorted(_TABLE_IDS, key=_sort_key))}


def _parse_card_token(token: str, decks: int, used: dict[int, int]) -> int:
    if token in ("BJ", "RJ"):
        rank, suit = (SMALL_JOKER if token == "BJ" else BIG_JOKER), None
    else:
        rank_text, suit_char = token[:-1], token[-1]
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit_char not in SUITS:
            raise InvalidAction(f"unknown card {quote(token)}", Reason.UNKNOWN_CARD)
        rank, suit = _RANK_OF_CHAR[rank_text], _SUIT_OF_CHAR[suit_char]
    base = card_id(rank, suit)
    copy = used.get(base, 0)
    if copy >= decks:
        raise InvalidAction(f"card {token} given more than {decks} time(s)", Reason.DUPLICATE_CARD)
    used[base] = copy + 1
    return base + copy * CARDS_PER_DECK


def _looks_like_cards(tokens: list[str]) -> bool:
    return bool(tokens) and all(len(t) >= 2 and (t[-1] in SUITS or t in ("BJ", "RJ")) for t in tokens)


def parse_cards(text: str, decks: int = 1) -> tuple[int, ...]:
    """Parse ``3S TH BJ`` into card ids; the n-th copy of a card goes to deck n.

    Raises:
        InvalidAction: unknown card (UNKNOWN_CARD) or more copies than decks (DUPLICATE_CARD).
    """
    tokens = text.replace(",", " ").upper().split()
    if not tokens:
        return ()
    if not _looks_like_cards(tokens):
        raise InvalidAction(f"not a list of cards: {quote(text)}", Reason.UNKNOWN_CARD)
    used: dict[int, int] = {}
    return tuple(_parse_card_token(t, decks, used) for t in tokens)


def parse_ranks(text: str) -> tuple[int, ...]:
    """Parse a rank string (``3334BR``, spaces allowed, ``10`` for T) into rank indexes.

    Raises:
        InvalidAction: a character that is no rank (UNKNOWN_CARD).
    """
    s = text.upper().replace("10", "T")
    ranks = []
    for ch in s:
        if ch in " ,":
            continue
        r = _RANK_OF_CHAR.get(ch)
        if r is None:
            raise InvalidAction(f"unknown rank {ch!r} in {quote(text)}", Reason.UNKNOWN_CARD)
        ranks.append(r)
    return tuple(sorted(ranks))


def parse_cards_or_ranks(text: str, decks: int = 1) -> tuple[tuple[int, ...], bool]:
    """Parse either notation; returns (values, True) for card ids or (rank indexes, False).

    A text whose whitespace-separated tokens all end in a suit letter (or are BJ/RJ) is cards;
    anything else is a rank string.
    """
    if _looks_like_cards(text.replace(",", " ").upper().split()):
        return parse_cards(text, decks), True
    return parse_ranks(text), False


def format_ranks(ranks: Iterable[int]) -> str:
    return "".join(RANK_CHARS[r] for r in sorted(ranks))


def ranks_of(cards: Iterable[int]) -> tuple[int, ...]:
    cards = cards if type(cards) is tuple else tuple(cards)
    try:
        return tuple(sorted([_RANK[c] for c in cards]))
    except KeyError:  # outside the tables (format_cards)
        return tuple(sorted(card_rank(c) for c in cards))


def to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# byte k of a mask with value v -> the card ids it holds (8k + bit), for masks up to 256 bits;
# built on first use (a CLI that never needs it starts sooner)
_BYTE_IDS: tuple = ()


def _byte_ids() -> tuple:
    global _BYTE_IDS
    _BYTE_IDS = tuple(tuple(tuple(8 * k + b for b in range(8) if v >> b & 1) for v in range(256))
                      for k in range(32))
    return _BYTE_IDS


def from_mask(mask: int) -> tuple[int, ...]:
    """The ids of a bitmask, ascending (a byte-table walk: called for every hand of every view)."""
    if mask >> 256:
        return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
    ids: list[int] = []  # extended in place: adding tuples would copy the ids so far at every byte
    table = _BYTE_IDS or _byte_ids()
    for k, v in enumerate(mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
        if v:
            ids += table[k][v]
    return tuple(ids)


def rank_counts(cards: Iterable[int]) -> list[int]:
    counts = [0] * NUM_RANKS
    for c in cards:
        counts[card_rank(c)] += 1
    return counts


class CardSpace(Protocol):
    """The card space a game's API speaks (``Game.notation``): ids ``0 .. id_count - 1``, their
    text, and ranks (``rank_count`` rank indexes; ``rank_masks[r]`` the ids of rank r). Every game
    declares its own: :class:`PokerNotation` of one or more decks, mahjong's tiles, 川牌's cards."""

    name: str  # "poker", "mahjong" ... (GameInfo.card_space)
    id_count: int
    rank_count: int
    rank_masks: tuple[int, ...]

    def format_cards(self, ids: Iterable[int]) -> str:
        """Card text of ids, in the order given."""

    def parse_cards_or_ranks(self, text: str) -> tuple[tuple[int, ...], bool]:
        """(card ids, True) for card text, (rank indexes, False) for a rank string.
        Raises: InvalidAction (UNKNOWN_CARD, DUPLICATE_CARD)."""

    def format_ranks(self, ranks: Iterable[int]) -> str:
        """A rank string of rank indexes (round-trips with ``parse_cards_or_ranks``)."""

    def ranks_of(self, ids: Iterable[int]) -> tuple[int, ...]:
        """The rank index of each id."""


class PokerNotation:
    """The poker card space: ``decks`` 54-card decks (ids ``deck * 54 + k``), parsing and
    printing, and ranks (``rank_masks[r]`` the ids of rank r in every deck): a :class:`CardSpace`."""

    name = "poker"
    rank_count = NUM_RANKS

    def __init__(self, decks: int = 1):
        self.decks = decks
        self.id_count = decks * CARDS_PER_DECK
        self.rank_masks = tuple(sum(1 << c for c in range(self.id_count) if card_rank(c) == r)
                                for r in range(NUM_RANKS))

    def format_cards(self, ids: Iterable[int]) -> str:
        return format_cards(ids)

    def parse_cards_or_ranks(self, text: str) -> tuple[tuple[int, ...], bool]:
        return parse_cards_or_ranks(text, self.decks)

    def format_ranks(self, ranks: Iterable[int]) -> str:
        return format_ranks(ranks)

    def ranks_of(self, ids: Iterable[int]) -> tuple[int, ...]:
        return ranks_of(ids)
