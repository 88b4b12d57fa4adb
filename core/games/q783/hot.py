"""Q783 / 378Q hot path: classify, compare and generate plays on packed rank counts.

One source, two modules: the build compiles this file with Cython into ``q783_hot_c``; run as
plain Python it is the interpreted twin (``referee.core.speedups`` picks one). The rules are
those of ``q783.py`` (rules 3-5 of rules/q783.md); this module only computes, and every rule
that differs between presets and variants comes in as data:

    order  : the rank order, 4 bits per card rank r (r = 0..12 for 3 4 5 6 7 8 9 T J Q K A 2,
             cards.py), at bits 4r .. 4r+3: the rank's strength + 1, or 0 when the rank is no
             play card (a score card, or 2s removed)
    ladder : the bomb ladder (5.2, 5.3), 4 bits per bomb slot: its position in the class
             (a higher position beats a lower one)
    flags  : TRIPLE_BOMB | DOUBLE_Q783 | MORE_CARDS_BEAT | SUIT_ORDER

Encodings (strength s = 0 for the lowest play rank; at most 13 play ranks)::

    counts : 4 bits a strength, the count of strength s at bits 4s .. 4s+3   (52 bits; up to 8)
    play   : counts | suit << 52 | main << 54 | kind << 58

``kind`` is one of SET (a non-bomb single, pair, trio), TRIPLE (three of a kind under
``triple_bomb``), MIXED, PURE (Q783), BOMB (n of a kind, n >= 4), MIXED2, PURE2 (double Q783);
``main`` is the strength of a set's or bomb's rank (the highest of the four ranks for a Q783);
``suit`` ranks the suit of a pure Q783 (0 diamonds, 1 clubs, 2 hearts, 3 spades: rule 5.4), 0
otherwise. Plays sort as ints by kind, then main, then suit, then size.

Cards come in as two 54-bit masks, ``lo`` (deck 0, ids 0..53) and ``hi`` (deck 1, ids 54..107,
shifted down by 54): within a deck, id = suit * 13 + rank for suits S H D C.

Bomb slots of ``ladder`` (4 bits each, slot k at bits 4k): 0 three of a kind, 1 mixed Q783,
2 pure Q783, 3..7 four to eight of a kind, 8 mixed double, 9 pure double.
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # the interpreted twin runs without Cython installed
    from ... import _cython_shim as cython

KIND_NAMES = ("", "set", "triple_bomb", "mixed_q783", "pure_q783", "bomb", "mixed_double_q783",
              "pure_double_q783")

SET = cython.declare(cython.int, 1)
TRIPLE = cython.declare(cython.int, 2)
MIXED = cython.declare(cython.int, 3)
PURE = cython.declare(cython.int, 4)
BOMB = cython.declare(cython.int, 5)
MIXED2 = cython.declare(cython.int, 6)
PURE2 = cython.declare(cython.int, 7)

# the flags, bit k for FLAG_NAMES[k] (module constants compiled are C values: Python callers
# read the names)
FLAG_NAMES = ("triple_bomb", "double_q783", "more_cards_beat", "pure_suit_order")
TRIPLE_BOMB = cython.declare(cython.int, 1)
DOUBLE_Q783 = cython.declare(cython.int, 2)
MORE_CARDS_BEAT = cython.declare(cython.int, 4)
SUIT_ORDER = cython.declare(cython.int, 8)

SUIT_SHIFT = cython.declare(cython.int, 52)
MAIN_SHIFT = cython.declare(cython.int, 54)
KIND_SHIFT = cython.declare(cython.int, 58)
COUNTS_MASK = cython.declare(cython.ulonglong, (1 << 52) - 1)
SLOTS = cython.declare(cython.int, 13)

# the four ranks of a Q783 (cards.py rank indexes) and the suit strengths of S H D C (rule 5.4)
RANK_3 = cython.declare(cython.int, 0)
RANK_7 = cython.declare(cython.int, 4)
RANK_8 = cython.declare(cython.int, 5)
RANK_Q = cython.declare(cython.int, 9)
SUIT_STRENGTHS = cython.declare(cython.int, 3 | 2 << 2 | 0 << 4 | 1 << 6)  # 2 bits a suit: S=3 H=2 D=0 C=1
SUIT_BITS = cython.declare(cython.ulonglong, (1 << 13) - 1)

# combo_suits answer: bits 0-3 suits (by strength) of a pure Q783, 4-7 of a pure double, then
# whether a mixed Q783 and a mixed double can be taken from the hand
MIXED_FOUND = cython.declare(cython.int, 1 << 8)
MIXED2_FOUND = cython.declare(cython.int, 1 << 9)


@cython.cfunc
@cython.inline
def _count(counts: cython.ulonglong, s: cython.int) -> cython.int:
    return (counts >> (4 * s)) & 15


@cython.cfunc
@cython.inline
def _unit(s: cython.int) -> cython.ulonglong:
    return cython.cast(cython.ulonglong, 1) << (4 * s)


@cython.cfunc
@cython.inline
def _encode(counts: cython.ulonglong, kind: cython.int, main: cython.int,
            suit: cython.int) -> cython.ulonglong:
    return (counts | (cython.cast(cython.ulonglong, suit) << SUIT_SHIFT)
            | (cython.cast(cython.ulonglong, main) << MAIN_SHIFT)
            | (cython.cast(cython.ulonglong, kind) << KIND_SHIFT))


@cython.ccall
def play_kind(play: cython.ulonglong) -> cython.int:
    return play >> KIND_SHIFT


@cython.ccall
def play_main(play: cython.ulonglong) -> cython.int:
    return (play >> MAIN_SHIFT) & 15


@cython.ccall
def play_suit(play: cython.ulonglong) -> cython.int:
    return (play >> SUIT_SHIFT) & 3


@cython.ccall
def play_counts(play: cython.ulonglong) -> cython.ulonglong:
    return play & COUNTS_MASK


@cython.ccall
def card_total(counts: cython.ulonglong) -> cython.int:
    total: cython.int = 0
    s: cython.int
    for s in range(SLOTS):
        total += _count(counts, s)
    return total


@cython.ccall
def strength_of(order: cython.ulonglong, rank: cython.int) -> cython.int:
    """The strength of a card rank under ``order``, -1 when it is no play card."""
    return cython.cast(cython.int, (order >> (4 * rank)) & 15) - 1


@cython.ccall
def quad(order: cython.ulonglong) -> cython.ulonglong:
    """The counts of a Q783 (one Q, 7, 8 and 3) under ``order``."""
    return (_unit(strength_of(order, RANK_Q)) + _unit(strength_of(order, RANK_7))
            + _unit(strength_of(order, RANK_8)) + _unit(strength_of(order, RANK_3)))


# --- cards ------------------------------------------------------------------------------------

@cython.ccall
def hand_counts(lo: cython.ulonglong, hi: cython.ulonglong, order: cython.ulonglong) -> cython.ulonglong:
    """The counts of the play cards of a hand (score cards and jokers are not counted)."""
    counts: cython.ulonglong = 0
    r: cython.int
    s: cython.int
    slot: cython.int
    n: cython.ulonglong
    for r in range(13):
        slot = (order >> (4 * r)) & 15
        if slot == 0:
            continue
        n = 0
        for s in range(4):
            n += ((lo >> (s * 13 + r)) & 1) + ((hi >> (s * 13 + r)) & 1)
        counts += n << (4 * (slot - 1))
    return counts


@cython.cfunc
@cython.inline
def _copies(lo: cython.ulonglong, hi: cython.ulonglong, rank: cython.int, suit: cython.int) -> cython.int:
    return ((lo >> (suit * 13 + rank)) & 1) + ((hi >> (suit * 13 + rank)) & 1)


@cython.ccall
def suit_strength(suit: cython.int) -> cython.int:
    """Rule 5.4's rank of a suit (cards.py suit index S H D C): spades 3 > hearts 2 > clubs 1 >
    diamonds 0."""
    return (SUIT_STRENGTHS >> (2 * suit)) & 3


@cython.ccall
def combo_suits(lo: cython.ulonglong, hi: cython.ulonglong) -> cython.int:
    """Which Q783s a hand can form (rules 4.4, 4.5): bits 0-3 the suits (by strength) of a pure
    Q783, bits 4-7 of a pure double, MIXED_FOUND when four cards of the ranks Q 7 8 3 can be
    taken not all of one suit, MIXED2_FOUND the same for eight (two of each rank)."""
    info: cython.int = 0
    suit: cython.int
    k: cython.int
    rank: cython.int
    least: cython.int
    c: cython.int
    held: cython.int
    total: cython.int
    suits_any: cython.int = 0  # suits held of any of the four ranks
    one_suit: cython.bint = True  # every rank held in exactly one suit, the same one
    all_two: cython.bint = True  # every rank held exactly twice
    first_suits: cython.int = -1
    lacking: cython.int = 0  # ranks held fewer than once, twice
    lacking2: cython.int = 0
    ranks: cython.int = RANK_Q | RANK_7 << 4 | RANK_8 << 8 | RANK_3 << 12
    for suit in range(4):
        least = 2
        for k in range(4):
            c = _copies(lo, hi, (ranks >> (4 * k)) & 15, suit)
            if c < least:
                least = c
        if least >= 1:
            info |= 1 << suit_strength(suit)
        if least >= 2:
            info |= 1 << (4 + suit_strength(suit))
    for k in range(4):
        rank = (ranks >> (4 * k)) & 15
        held = 0
        total = 0
        for suit in range(4):
            c = _copies(lo, hi, rank, suit)
            if c:
                held |= 1 << suit
                total += c
        suits_any |= held
        if total < 1:
            lacking += 1
        if total < 2:
            lacking2 += 1
        if total != 2:
            all_two = False
        if first_suits < 0:
            first_suits = held
        if held != first_suits or (held & (held - 1)) != 0:
            one_suit = False
    if lacking == 0 and not one_suit:
        info |= MIXED_FOUND
    if lacking2 == 0 and not (one_suit and all_two):
        info |= MIXED2_FOUND
    return info


@cython.ccall
def uniform_suit(lo: cython.ulonglong, hi: cython.ulonglong) -> cython.int:
    """The suit strength of cards that are all of one suit, -1 otherwise (or none)."""
    suit: cython.int
    every: cython.ulonglong
    cards: cython.ulonglong = lo | hi
    if cards == 0:
        return -1
    for suit in range(4):
        every = SUIT_BITS << (13 * suit)
        if (cards & ~every) == 0:
            return suit_strength(suit)
    return -1


# --- classification and comparison (rules 4-5) --------------------------------------------------

@cython.cfunc
@cython.inline
def _top(counts: cython.ulonglong) -> cython.int:
    s: cython.int = SLOTS - 1
    while s > 0 and _count(counts, s) == 0:
        s -= 1
    return s


@cython.cfunc
@cython.inline
def _set_kind(n: cython.int, flags: cython.int) -> cython.int:
    if n >= 4:
        return BOMB
    if n == 3 and (flags & TRIPLE_BOMB):
        return TRIPLE
    return SET


@cython.ccall
def classify(counts: cython.ulonglong, suit: cython.int, order: cython.ulonglong,
             flags: cython.int) -> cython.ulonglong:
    """The play a card multiset stands for (``suit``: the uniform suit strength of the cards,
    -1 when mixed), or 0 when it is no combination (rules 4.1-4.6)."""
    q: cython.ulonglong = quad(order)
    top: cython.int
    n: cython.int
    if counts == 0:
        return 0
    if counts == q:
        return _encode(counts, PURE if suit >= 0 else MIXED, _top(q), suit if suit >= 0 else 0)
    if counts == 2 * q and (flags & DOUBLE_Q783):
        return _encode(counts, PURE2 if suit >= 0 else MIXED2, _top(q), suit if suit >= 0 else 0)
    top = _top(counts)
    n = _count(counts, top)
    if counts != _unit(top) * n:
        return 0  # several ranks that are no Q783: no straights, no kickers (4.6)
    return _encode(counts, _set_kind(n, flags), top, 0)


@cython.ccall
def bomb_position(play: cython.ulonglong, ladder: cython.ulonglong) -> cython.int:
    """The place of a bomb-class play on the ladder (0 for a non-bomb)."""
    kind: cython.int = play_kind(play)
    slot: cython.int
    if kind == SET:
        return 0
    if kind == TRIPLE:
        slot = 0
    elif kind == MIXED:
        slot = 1
    elif kind == PURE:
        slot = 2
    elif kind == BOMB:
        slot = _count(play, play_main(play)) - 1
    elif kind == MIXED2:
        slot = 8
    else:
        slot = 9
    return (ladder >> (4 * slot)) & 15


@cython.ccall
def beats(play: cython.ulonglong, table: cython.ulonglong, ladder: cython.ulonglong,
          flags: cython.int) -> cython.bint:
    """Rules 5.1-5.4: may ``play`` be played on ``table`` (0: a free lead)?"""
    kind: cython.int = play_kind(play)
    table_kind: cython.int = play_kind(table)
    size: cython.int
    table_size: cython.int
    position: cython.int
    table_position: cython.int
    if table == 0:
        return True
    if table_kind == SET:
        if kind != SET:
            return True  # 5.2: the bomb class beats any non-bomb play
        size = _count(play, play_main(play))
        table_size = _count(table, play_main(table))
        if size == table_size:
            return play_main(play) > play_main(table)
        return (flags & MORE_CARDS_BEAT) != 0 and size > table_size
    if kind == SET:
        return False
    position = bomb_position(play, ladder)
    table_position = bomb_position(table, ladder)
    if position != table_position:
        return position > table_position
    if kind != table_kind:
        return False
    if kind == TRIPLE or kind == BOMB:
        return play_main(play) > play_main(table)
    if kind == PURE and (flags & SUIT_ORDER):
        return play_suit(play) > play_suit(table)
    return False  # equal Q783s (5.2, 5.4)


# --- generation -------------------------------------------------------------------------------

@cython.cfunc
@cython.inline
def _highest_suit(suits: cython.int) -> cython.int:
    s: cython.int = 3
    while s > 0 and not (suits >> s) & 1:
        s -= 1
    return s


@cython.ccall
def hand_plays(counts: cython.ulonglong, info: cython.int, order: cython.ulonglong,
               flags: cython.int) -> list:
    """Every distinct play a hand can make (``info``: ``combo_suits`` of its cards): each set
    size of each rank, the Q783s it can form (one pure Q783 of each suit under SUIT_ORDER, else
    of its highest suit; one pure double)."""
    out: list = []
    s: cython.int
    n: cython.int
    c: cython.int
    q: cython.ulonglong = quad(order)
    top: cython.int = _top(q)
    for s in range(SLOTS):
        c = _count(counts, s)
        for n in range(1, c + 1):
            out.append(_encode(_unit(s) * n, _set_kind(n, flags), s, 0))
    if info & MIXED_FOUND:
        out.append(_encode(q, MIXED, top, 0))
    if info & 15:
        if flags & SUIT_ORDER:
            for s in range(4):
                if (info >> s) & 1:
                    out.append(_encode(q, PURE, top, s))
        else:
            out.append(_encode(q, PURE, top, _highest_suit(info & 15)))
    if flags & DOUBLE_Q783:
        if info & MIXED2_FOUND:
            out.append(_encode(2 * q, MIXED2, top, 0))
        if (info >> 4) & 15:
            out.append(_encode(2 * q, PURE2, top, _highest_suit((info >> 4) & 15)))
    return out


@cython.ccall
def legal_plays(counts: cython.ulonglong, info: cython.int, table: cython.ulonglong,
                order: cython.ulonglong, ladder: cython.ulonglong, flags: cython.int) -> list:
    """The plays of ``hand_plays`` that may be played on ``table`` (0: a free lead), sorted."""
    out: list = []
    play: cython.ulonglong
    for play in hand_plays(counts, info, order, flags):
        if beats(play, table, ladder, flags):
            out.append(play)
    out.sort()
    return out


# --- the hint as text (``referee legal``) ----------------------------------------------------------

@cython.ccall
def rank_string(play: cython.ulonglong, chars: str) -> str:
    """A play's canonical text: its ranks high to low in the order (``chars[s]`` is the rank
    character of strength s), and ``*`` after a pure Q783 or pure double."""
    buf: bytearray = bytearray(10)
    out: cython.p_char = buf
    n: cython.Py_ssize_t = 0
    s: cython.int
    c: cython.int
    code: cython.char
    kind: cython.int = play_kind(play)
    for s in range(SLOTS - 1, -1, -1):
        c = _count(play, s)
        if c:
            code = ord(chars[s])
            while c > 0:
                out[n] = code
                n += 1
                c -= 1
    if kind == PURE or kind == PURE2:
        out[n] = 42  # *
        n += 1
    return buf[:n].decode("ascii")


@cython.ccall
def legal_rank_strings(counts: cython.ulonglong, info: cython.int, table: cython.ulonglong,
                       order: cython.ulonglong, ladder: cython.ulonglong, flags: cython.int,
                       chars: str) -> list:
    """The ``referee legal`` answer: each distinct legal play once as its rank string, sorted
    in plain string order."""
    seen: set = set()
    play: cython.ulonglong
    for play in legal_plays(counts, info, table, order, ladder, flags):
        seen.add(rank_string(play, chars))
    return sorted(seen)
