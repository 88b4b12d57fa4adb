"""Dou Dizhu hot path: classify, compare and generate plays on packed rank counts.

One source, two modules: the build compiles this file with Cython into ``ddz_hot_c``; run as
plain Python it is the interpreted twin (``referee.core.speedups`` picks one). The rules are
those of ``doudizhu.py`` (spec rules 10-12 of rules/doudizhu.md); this module only computes.

Encoding (one deck; rank index r = 0..14 for 3 4 5 6 7 8 9 T J Q K A 2, small, big joker)::

    counts : 3 bits a rank, the count of rank r at bits 3r .. 3r+2   (45 bits)
    play   : counts | main << 45 | chain << 49 | kind << 53

so sorting plays as ints orders them by kind, then chain length, then main rank.
``chain`` is the number of links of a straight or airplane body and 1 for other kinds.
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # the interpreted twin runs without Cython installed
    from . import _cython_shim as cython

KIND_NAMES = ("", "single", "pair", "trio", "trio_single", "trio_pair", "straight",
              "pair_straight", "trio_straight", "airplane_singles", "airplane_pairs",
              "four_two_singles", "four_two_pairs", "bomb", "rocket")

SINGLE = cython.declare(cython.int, 1)
PAIR = cython.declare(cython.int, 2)
TRIO = cython.declare(cython.int, 3)
TRIO_SINGLE = cython.declare(cython.int, 4)
TRIO_PAIR = cython.declare(cython.int, 5)
STRAIGHT = cython.declare(cython.int, 6)
PAIR_STRAIGHT = cython.declare(cython.int, 7)
TRIO_STRAIGHT = cython.declare(cython.int, 8)
AIRPLANE_SINGLES = cython.declare(cython.int, 9)
AIRPLANE_PAIRS = cython.declare(cython.int, 10)
FOUR_TWO_SINGLES = cython.declare(cython.int, 11)
FOUR_TWO_PAIRS = cython.declare(cython.int, 12)
BOMB = cython.declare(cython.int, 13)
ROCKET = cython.declare(cython.int, 14)

MAIN_SHIFT = cython.declare(cython.int, 45)
CHAIN_SHIFT = cython.declare(cython.int, 49)
KIND_SHIFT = cython.declare(cython.int, 53)
COUNTS_MASK = cython.declare(cython.ulonglong, (1 << 45) - 1)
ACE = cython.declare(cython.int, 11)  # highest rank a chain may hold (rule 11g)
TWO = cython.declare(cython.int, 12)
SMALL = cython.declare(cython.int, 13)
BIG = cython.declare(cython.int, 14)
NUM_RANKS = cython.declare(cython.int, 15)
JOKERS = cython.declare(cython.ulonglong, (1 << 39) | (1 << 42))


@cython.cfunc
@cython.inline
def _count(counts: cython.ulonglong, r: cython.int) -> cython.int:
    return (counts >> (3 * r)) & 7


@cython.cfunc
@cython.inline
def _unit(r: cython.int) -> cython.ulonglong:
    return cython.cast(cython.ulonglong, 1) << (3 * r)


@cython.cfunc
@cython.inline
def _encode(counts: cython.ulonglong, kind: cython.int, main: cython.int,
            chain: cython.int) -> cython.ulonglong:
    return (counts | (cython.cast(cython.ulonglong, main) << MAIN_SHIFT)
            | (cython.cast(cython.ulonglong, chain) << CHAIN_SHIFT)
            | (cython.cast(cython.ulonglong, kind) << KIND_SHIFT))


@cython.ccall
def play_kind(play: cython.ulonglong) -> cython.int:
    return play >> KIND_SHIFT


@cython.ccall
def play_main(play: cython.ulonglong) -> cython.int:
    return (play >> MAIN_SHIFT) & 15


@cython.ccall
def play_chain(play: cython.ulonglong) -> cython.int:
    return (play >> CHAIN_SHIFT) & 15


@cython.ccall
def play_counts(play: cython.ulonglong) -> cython.ulonglong:
    return play & COUNTS_MASK


@cython.ccall
def card_total(counts: cython.ulonglong) -> cython.int:
    total: cython.int = 0
    r: cython.int
    for r in range(NUM_RANKS):
        total += _count(counts, r)
    return total


# Cards: a hand is a bitmask of card ids, id = suit * 13 + rank for ranks 3..2 (r = 0..12, suits
# S H D C), 52 the small and 53 the big joker.
@cython.ccall
def hand_counts(hand: cython.ulonglong) -> cython.ulonglong:
    """The rank counts of a hand bitmask."""
    counts: cython.ulonglong = 0
    r: cython.int
    s: cython.int
    n: cython.ulonglong
    for r in range(TWO + 1):
        n = 0
        for s in range(4):
            n += (hand >> (s * 13 + r)) & 1
        counts |= n << (3 * r)
    return counts | (((hand >> 52) & 1) << (3 * SMALL)) | (((hand >> 53) & 1) << (3 * BIG))


@cython.ccall
def pick_cards(hand: cython.ulonglong, counts: cython.ulonglong) -> cython.ulonglong:
    """The cards of ``counts`` taken from ``hand`` (a bitmask): the lowest ids of each rank
    first, as rule 12 resolves a play named by ranks. ``hand`` must hold them."""
    picked: cython.ulonglong = 0
    bit: cython.ulonglong
    r: cython.int
    s: cython.int
    need: cython.int
    for r in range(TWO + 1):
        need = _count(counts, r)
        s = 0
        while need > 0 and s < 4:
            bit = cython.cast(cython.ulonglong, 1) << (s * 13 + r)
            if hand & bit:
                picked |= bit
                need -= 1
            s += 1
    if _count(counts, SMALL):
        picked |= cython.cast(cython.ulonglong, 1) << 52
    if _count(counts, BIG):
        picked |= cython.cast(cython.ulonglong, 1) << 53
    return picked


@cython.ccall
def beats(play: cython.ulonglong, table: cython.ulonglong) -> cython.bint:
    """Rule 10: rocket beats all; a bomb beats non-bombs and lower bombs; otherwise the same
    kind and chain length (hence the same card count) with a higher main rank."""
    kind: cython.int = play >> KIND_SHIFT
    table_kind: cython.int = table >> KIND_SHIFT
    if table == 0 or kind == ROCKET:
        return table_kind != ROCKET
    if table_kind == ROCKET:
        return False
    if kind == BOMB and table_kind != BOMB:
        return True
    return (kind == table_kind and play_chain(play) == play_chain(table)
            and play_main(play) > play_main(table))


# --- classification ---------------------------------------------------------------------------

@cython.cfunc
def _chain_of(counts: cython.ulonglong, width: cython.int, links: cython.int) -> cython.int:
    """Main rank if ``counts`` is exactly ``links`` consecutive ranks of ``width`` cards within
    3..A, else -1."""
    low: cython.int = -1
    r: cython.int
    c: cython.int
    for r in range(NUM_RANKS):
        c = _count(counts, r)
        if c == 0:
            continue
        if c != width or r > ACE:
            return -1
        if low < 0:
            low = r
        elif r - low >= links:
            return -1
    if low < 0:
        return -1
    if counts != _run(low, low + links - 1, width):
        return -1
    return low + links - 1


@cython.cfunc
@cython.inline
def _run(low: cython.int, high: cython.int, width: cython.int) -> cython.ulonglong:
    run: cython.ulonglong = 0
    r: cython.int
    for r in range(low, high + 1):
        run += _unit(r) * width
    return run


@cython.cfunc
def _kickers_ok(rest: cython.ulonglong, need: cython.int, width: cython.int, cap: cython.int,
                rocket_kickers: cython.bint) -> cython.bint:
    """Are the kicker cards ``rest`` a valid set: ``need`` singles (at most ``cap`` of a rank,
    not both jokers unless allowed) or ``need`` pairs of different non-joker ranks?"""
    r: cython.int
    c: cython.int
    found: cython.int = 0
    if width == 1:
        if not rocket_kickers and (rest & JOKERS) == JOKERS:
            return False
        for r in range(NUM_RANKS):
            c = _count(rest, r)
            if c > cap:
                return False
            found += c
        return found == need
    for r in range(NUM_RANKS):
        c = _count(rest, r)
        if c == 0:
            continue
        if c != 2 or r > TWO:
            return False
        found += 1
    return found == need


@cython.ccall
def readings(counts: cython.ulonglong, rocket_kickers: cython.bint) -> list:
    """Every combination the multiset ``counts`` can be read as (rule 11i), as plays."""
    out: list = []
    total: cython.int = card_total(counts)
    r: cython.int
    c: cython.int
    main: cython.int
    links: cython.int
    width: cython.int
    low: cython.int
    body: cython.ulonglong
    if total == 0:
        return out
    if counts == JOKERS:
        out.append(_encode(counts, ROCKET, BIG, 1))
        return out
    # one rank: single, pair, trio, bomb
    for r in range(NUM_RANKS):
        c = _count(counts, r)
        if c == total:
            if c > 4:
                return out
            out.append(_encode(counts, (SINGLE, PAIR, TRIO, BOMB)[c - 1], r, 1))
            return out
    # a trio or four with kickers
    for r in range(TWO + 1):
        c = _count(counts, r)
        if c == 3 and total == 4:
            out.append(_encode(counts, TRIO_SINGLE, r, 1))
        elif c == 3 and total == 5 and _kickers_ok(counts - 3 * _unit(r), 1, 2, 2, False):
            out.append(_encode(counts, TRIO_PAIR, r, 1))
        elif c == 4 and total == 6 and _kickers_ok(counts - 4 * _unit(r), 2, 1, 2, rocket_kickers):
            out.append(_encode(counts, FOUR_TWO_SINGLES, r, 1))
        elif c == 4 and total == 8 and _kickers_ok(counts - 4 * _unit(r), 2, 2, 2, False):
            out.append(_encode(counts, FOUR_TWO_PAIRS, r, 1))
    # chains: straight 5-12, pair straight 3-10, trio straight 2-6
    for width in range(1, 4):
        if total % width == 0:
            links = total // width
            if links >= (5, 3, 2)[width - 1] and links <= (12, 10, 6)[width - 1]:
                main = _chain_of(counts, width, links)
                if main >= 0:
                    out.append(_encode(counts, (STRAIGHT, PAIR_STRAIGHT, TRIO_STRAIGHT)[width - 1],
                                       main, links))
    # airplanes: n trios in a row + n singles (4n cards) or n pairs (5n cards)
    for width in range(1, 3):
        if total % (3 + width) != 0:
            continue
        links = total // (3 + width)
        if links < 2 or links > 6:  # the body is a trio straight: 2-6 trios
            continue
        for low in range(0, ACE - links + 2):
            body = _run(low, low + links - 1, 3)
            if _has_exact_body(counts, low, links) and _kickers_ok(
                    counts - body, links, width, 3, rocket_kickers):
                out.append(_encode(counts, (AIRPLANE_SINGLES, AIRPLANE_PAIRS)[width - 1],
                                   low + links - 1, links))
    return out


@cython.cfunc
@cython.inline
def _has_exact_body(counts: cython.ulonglong, low: cython.int, links: cython.int) -> cython.bint:
    r: cython.int
    for r in range(low, low + links):
        if _count(counts, r) != 3:
            return False
    return True


# --- generation -------------------------------------------------------------------------------

@cython.ccall
def legal_plays(hand: cython.ulonglong, table: cython.ulonglong,
                rocket_kickers: cython.bint) -> list:
    """Every distinct play from ``hand`` that may be played on ``table`` (0: a free lead),
    each multiset once, read as rule 11i says (the reading that beats the table; on a lead
    the one of the largest body, then the highest main). Unordered."""
    out: list = []
    kind: cython.int
    above: cython.int = -1
    if table == 0:
        for kind in range(SINGLE, ROCKET + 1):
            _generate(out, hand, kind, -1, 0, rocket_kickers, True)
        return out
    kind = play_kind(table)
    if kind == ROCKET:
        return out
    if kind == BOMB:
        above = play_main(table)
    else:
        _generate(out, hand, kind, play_main(table), play_chain(table), rocket_kickers, False)
    _generate(out, hand, BOMB, above, 1, rocket_kickers, False)
    _generate(out, hand, ROCKET, -1, 1, rocket_kickers, False)
    return out


@cython.cfunc
def _generate(out: list, hand: cython.ulonglong, kind: cython.int, above: cython.int,
              chain: cython.int, rocket_kickers: cython.bint, lead: cython.bint) -> cython.void:
    """Append the plays of one kind with main rank > ``above`` (and ``chain`` links, 0: any)."""
    if kind == ROCKET:
        if (hand & JOKERS) == JOKERS:
            out.append(_encode(JOKERS, ROCKET, BIG, 1))
    elif kind <= TRIO or kind == BOMB:
        _gen_sets(out, hand, kind, 4 if kind == BOMB else kind, above)
    elif kind == TRIO_SINGLE or kind == TRIO_PAIR:
        _gen_with_kickers(out, hand, kind, 3, 1 if kind == TRIO_SINGLE else 2, above, rocket_kickers)
    elif kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        _gen_with_kickers(out, hand, kind, 4, 1 if kind == FOUR_TWO_SINGLES else 2, above,
                          rocket_kickers)
    elif kind <= TRIO_STRAIGHT:
        _gen_chains(out, hand, kind, kind - TRIO_PAIR, above, chain)
    else:
        _gen_airplanes(out, hand, kind, kind - TRIO_STRAIGHT, above, chain, rocket_kickers, lead)


@cython.cfunc
def _gen_sets(out: list, hand: cython.ulonglong, kind: cython.int, size: cython.int,
              above: cython.int) -> cython.void:
    r: cython.int
    c: cython.int
    last: cython.int = BIG if size == 1 else TWO
    for r in range(above + 1, last + 1):
        c = _count(hand, r)
        if c >= size and (kind != BOMB or c == 4):
            out.append(_encode(_unit(r) * size, kind, r, 1))


@cython.cfunc
def _gen_chains(out: list, hand: cython.ulonglong, kind: cython.int, width: cython.int,
                above: cython.int, chain: cython.int) -> cython.void:
    low: cython.int
    high: cython.int
    min_links: cython.int = (5, 3, 2)[width - 1]
    max_links: cython.int = (12, 10, 6)[width - 1]
    for low in range(0, ACE + 1):
        for high in range(low, ACE + 1):
            if _count(hand, high) < width:
                break
            if high - low + 1 < min_links or high <= above:
                continue
            if high - low + 1 > max_links:
                break
            if chain and high - low + 1 != chain:
                continue
            out.append(_encode(_run(low, high, width), kind, high, high - low + 1))


@cython.cfunc
def _gen_with_kickers(out: list, hand: cython.ulonglong, kind: cython.int, size: cython.int,
                      width: cython.int, above: cython.int, rocket_kickers: cython.bint) -> cython.void:
    """Trio + a single or pair; four + two singles (a pair allowed, rule 11c) or two pairs."""
    r: cython.int
    need: cython.int = 1 if size == 3 else 2
    cap: cython.int = 1 if size == 3 else 2
    base: cython.ulonglong
    for r in range(above + 1, TWO + 1):
        if _count(hand, r) >= size:
            base = _unit(r) * size
            _kickers(out, base, hand & ~(_unit(r) * 7), 0, need, width, cap,
                     rocket_kickers, kind, r, 1, False)


@cython.cfunc
def _gen_airplanes(out: list, hand: cython.ulonglong, kind: cython.int, width: cython.int,
                   above: cython.int, chain: cython.int, rocket_kickers: cython.bint,
                   lead: cython.bint) -> cython.void:
    """Rule 11e/f: n trios in a row (3..A) + n wings, none of a body rank."""
    links: cython.int
    low: cython.int
    r: cython.int
    free: cython.ulonglong
    total: cython.int = card_total(hand)
    for links in range(2, 7):
        if chain and links != chain:
            continue
        if links * (3 + width) > total:
            break
        for low in range(0, ACE - links + 2):
            if low + links - 1 <= above:
                continue
            if not _has_body(hand, low, links):
                continue
            free = hand
            for r in range(low, low + links):
                free &= ~(_unit(r) * 7)
            _kickers(out, _run(low, low + links - 1, 3), free, 0, links, width, 3,
                     rocket_kickers, kind, low + links - 1, links, lead)


@cython.cfunc
@cython.inline
def _has_body(hand: cython.ulonglong, low: cython.int, links: cython.int) -> cython.bint:
    r: cython.int
    for r in range(low, low + links):
        if _count(hand, r) < 3:
            return False
    return True


@cython.cfunc
def _kickers(out: list, play: cython.ulonglong, free: cython.ulonglong, r: cython.int,
             need: cython.int, width: cython.int, cap: cython.int, rocket_kickers: cython.bint,
             kind: cython.int, main: cython.int, links: cython.int, lead: cython.bint) -> cython.void:
    """Choose ``need`` kicker singles (at most ``cap`` a rank) or pairs (different ranks) from
    ``free`` at ranks >= r, then emit ``play`` + kickers once per multiset."""
    c: cython.int
    take: cython.int
    most: cython.int
    if need == 0:
        if width == 1 and not rocket_kickers and (play & JOKERS) == JOKERS:
            return
        if kind == AIRPLANE_SINGLES and _other_reading_preferred(play, main, links, lead):
            return
        out.append(_encode(play, kind, main, links))
        return
    while r < NUM_RANKS and _count(free, r) == 0:
        r += 1
    if r >= NUM_RANKS:
        return
    c = _count(free, r)
    if width == 2:
        if r <= TWO and c >= 2:
            _kickers(out, play + 2 * _unit(r), free, r + 1, need - 1, width, cap,
                     rocket_kickers, kind, main, links, lead)
        _kickers(out, play, free, r + 1, need, width, cap, rocket_kickers, kind, main, links, lead)
        return
    most = min(c, cap, need)
    for take in range(most, -1, -1):
        _kickers(out, play + take * _unit(r), free, r + 1, need - take, width, cap,
                 rocket_kickers, kind, main, links, lead)


@cython.cfunc
@cython.inline
def _other_reading_preferred(play: cython.ulonglong, main: cython.int, links: cython.int,
                             lead: cython.bint) -> cython.bint:
    """Rule 11i for airplanes with single wings: when the wings hold a trio next to the body,
    the same cards read as a body one rank higher (preferred: higher main) or, for three
    links on a lead, as a trio straight of four (preferred: larger body)."""
    if main + 1 <= ACE and _count(play, main + 1) == 3:
        return True
    return lead and links == 3 and main - links >= 0 and _count(play, main - links) == 3
