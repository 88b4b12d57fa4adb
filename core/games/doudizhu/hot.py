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
    from ... import _cython_shim as cython

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


# --- the hint as text (rule 12; ``referee legal``) --------------------------------------------
#
# A rank string lists a play's ranks low to high (``3334``, ``BR``); the hint list is ordered as
# those rank sequences compare (``33`` < ``333`` < ``334`` < ``34`` < ``4``: a prefix first).
# That is the order of a 60-bit key, 4 bits a rank, rank 3 in the highest bits; with t the
# play's top rank and c the count of rank r::
#
#     digit(r) = 9 - c  for r < t   (a rank passed: more copies of it sort first)
#                c      for r = t   (the sequence ends here: fewer copies sort first)
#                0      for r > t
#
# and c is read back from its digit, so a key also names its play.

RANK_CHARS = "3456789TJQKA2BR"
# the ASCII codes of RANK_CHARS, 8 bits each: ranks 0-7, then ranks 8-14
CHARS_LOW = cython.declare(cython.ulonglong,
                           sum(ord(c) << (8 * i) for i, c in enumerate(RANK_CHARS[:8])))
CHARS_HIGH = cython.declare(cython.ulonglong,
                            sum(ord(c) << (8 * i) for i, c in enumerate(RANK_CHARS[8:])))
NOT_PARSED = cython.declare(cython.longlong, -1)
MOVES_OPEN = cython.declare(bytes, b'{"moves": [')


@cython.cfunc
@cython.inline
def _text_key(counts: cython.ulonglong) -> cython.ulonglong:
    key: cython.ulonglong = 0
    top: cython.int = BIG
    r: cython.int
    c: cython.int
    while top > 0 and _count(counts, top) == 0:
        top -= 1
    for r in range(top + 1):
        c = _count(counts, r)
        key |= cython.cast(cython.ulonglong, 9 - c if r < top else c) << (4 * (BIG - r))
    return key


@cython.cfunc
def _sort_text_keys(plays: list) -> cython.void:
    """Replace each play of ``plays`` by its text key, and sort them."""
    play: cython.ulonglong
    i: cython.Py_ssize_t
    for i in range(len(plays)):
        play = plays[i]
        plays[i] = _text_key(play & COUNTS_MASK)
    plays.sort()


@cython.cfunc
def _sort_text_keys_in_c(plays: list, keys: cython.p_ulonglong) -> cython.void:
    """The text keys of ``plays`` sorted into keys[0 .. len(plays) - 1] (an insertion sort in C:
    compiled only, for lists of at most SORT_IN_C plays)."""
    play: cython.ulonglong
    key: cython.ulonglong
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    for i in range(len(plays)):
        play = plays[i]
        key = _text_key(play & COUNTS_MASK)
        j = i
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key


@cython.cfunc
def _write_ranks(key: cython.ulonglong, out: cython.p_char,
                 n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Write the rank string of ``key`` at out[n]; returns the index after it."""
    r: cython.int
    c: cython.int
    code: cython.char
    for r in range(NUM_RANKS):
        c = (key >> (4 * (BIG - r))) & 15
        if c == 0:
            break
        if c > 4:
            c = 9 - c
        code = (CHARS_LOW >> (8 * r) if r < 8 else CHARS_HIGH >> (8 * (r - 8))) & 255
        while c > 0:
            out[n] = code
            n += 1
            c -= 1
    return n


@cython.cfunc
@cython.inline
def _write_json_move(out: cython.p_char, n: cython.Py_ssize_t, key: cython.ulonglong,
                     first: cython.bint) -> cython.Py_ssize_t:
    """Write ``"ranks"`` at out[n], after ``, `` unless ``first``; returns the index after it."""
    if not first:
        out[n] = 44  # ,
        out[n + 1] = 32
        n += 2
    out[n] = 34  # "
    n = _write_ranks(key, out, n + 1)
    out[n] = 34
    return n + 1


# Compiled, lists of up to SORT_IN_C plays (most hands) are sorted in a C array of that size;
# the interpreted twin, and longer lists, sort a list of Python ints.
SORT_IN_C = cython.declare(cython.int, 256)


@cython.ccall
def legal_rank_strings(hand: cython.ulonglong, table: cython.ulonglong,
                       rocket_kickers: cython.bint) -> list:
    """``legal_plays`` as rank strings (``3334``), sorted as rank sequences (3 < ... < R, a
    prefix first): the ``referee legal`` answer for packed counts and a packed table."""
    moves: list = legal_plays(hand, table, rocket_kickers)
    buf: bytearray = bytearray(64)  # a play has at most 30 cards (six trios and six pairs)
    out: cython.p_char = buf
    keys: cython.ulonglong[256]  # SORT_IN_C
    i: cython.Py_ssize_t
    if cython.compiled and len(moves) <= SORT_IN_C:
        _sort_text_keys_in_c(moves, keys)
        for i in range(len(moves)):
            moves[i] = buf[:_write_ranks(keys[i], out, 0)].decode("ascii")
    else:
        _sort_text_keys(moves)
        for i in range(len(moves)):
            moves[i] = buf[:_write_ranks(moves[i], out, 0)].decode("ascii")
    return moves


@cython.ccall
def legal_moves_json(hand: cython.ulonglong, table: cython.ulonglong,
                     rocket_kickers: cython.bint) -> str:
    """``legal_rank_strings`` as the JSON text ``{"moves": ["33", "3334"]}`` (``json.dumps``'s
    spacing), written at once."""
    plays: list = legal_plays(hand, table, rocket_kickers)
    count: cython.Py_ssize_t = len(plays)
    buf: bytearray = bytearray(len(MOVES_OPEN) + 34 * count + 2)  # '"' 30 ranks '", ' a play
    out: cython.p_char
    n: cython.Py_ssize_t = len(MOVES_OPEN)
    keys: cython.ulonglong[256]  # SORT_IN_C
    i: cython.Py_ssize_t
    buf[:n] = MOVES_OPEN
    out = buf
    if cython.compiled and count <= SORT_IN_C:
        _sort_text_keys_in_c(plays, keys)
        for i in range(count):
            n = _write_json_move(out, n, keys[i], i == 0)
    else:
        _sort_text_keys(plays)
        for i in range(count):
            n = _write_json_move(out, n, plays[i], i == 0)
    out[n] = 93  # ]
    out[n + 1] = 125  # }
    return buf[:n + 2].decode("ascii")


@cython.cfunc
@cython.inline
def _rank_of_code(code: cython.int) -> cython.int:
    """Rank index of an ASCII rank character (either case), -1 for another character."""
    if 97 <= code <= 122:
        code -= 32
    if 51 <= code <= 57:  # 3..9
        return code - 51
    if code == 84:
        return 7  # T
    if code == 74:
        return 8  # J
    if code == 81:
        return 9  # Q
    if code == 75:
        return 10  # K
    if code == 65:
        return 11  # A
    if code == 50:
        return 12  # 2
    if code == 66:
        return SMALL  # B
    if code == 82:
        return BIG  # R
    return -1


@cython.cfunc
@cython.inline
def _suit_of_code(code: cython.int) -> cython.int:
    if 97 <= code <= 122:
        code -= 32
    if code == 83:
        return 0  # S
    if code == 72:
        return 1  # H
    if code == 68:
        return 2  # D
    if code == 67:
        return 3  # C
    return -1


@cython.cfunc
@cython.inline
def _is_joker_token(s: str, start: cython.Py_ssize_t, size: cython.Py_ssize_t) -> cython.bint:
    """Is s[start:start + size] BJ or RJ (either case)?"""
    first: cython.int
    if size != 2:
        return False
    first = ord(s[start]) & ~32
    return (first == 66 or first == 82) and (ord(s[start + 1]) & ~32) == 74


@cython.ccall
def text_counts(text) -> cython.longlong:
    """Packed counts of a hand written as cards (``3S TH BJ``, ``10`` for T) or as a rank string
    (``33BR``), read as ``cards.parse_cards_or_ranks`` reads it (either case; spaces and commas
    separate), or -1 (NOT_PARSED) for any other text: one with other characters than ASCII
    letters, digits, punctuation, spaces and commas, or one the reference refuses (its error
    is then the answer)."""
    s: str
    n: cython.Py_ssize_t
    i: cython.Py_ssize_t
    start: cython.Py_ssize_t
    size: cython.Py_ssize_t
    code: cython.int
    first: cython.int
    rank: cython.int
    suit: cython.int
    tokens: cython.int = 0
    as_cards: cython.bint = True
    seen: cython.ulonglong = 0
    bit: cython.ulonglong
    counts: cython.ulonglong = 0
    if not isinstance(text, str):
        return NOT_PARSED
    s = text
    n = len(s)
    # the notation: cards when every token (between spaces and commas) has 2 characters or
    # more and ends in a suit letter, or is BJ or RJ
    i = 0
    while i < n:
        code = ord(s[i])
        if code == 32 or code == 44:
            i += 1
            continue
        start = i
        while i < n:
            code = ord(s[i])
            if code == 32 or code == 44:
                break
            if code < 33 or code > 126:
                return NOT_PARSED
            i += 1
        tokens += 1
        size = i - start
        if size < 2 or (_suit_of_code(ord(s[i - 1])) < 0 and not _is_joker_token(s, start, size)):
            as_cards = False
    if as_cards and tokens > 0:
        i = 0
        while i < n:
            code = ord(s[i])
            if code == 32 or code == 44:
                i += 1
                continue
            start = i
            while i < n and ord(s[i]) != 32 and ord(s[i]) != 44:
                i += 1
            size = i - start
            if _is_joker_token(s, start, size):
                rank = _rank_of_code(ord(s[start]))
                bit = cython.cast(cython.ulonglong, 1) << (52 + rank - SMALL)
            else:
                first = ord(s[start])
                if size == 3 and first == 49 and ord(s[start + 1]) == 48:  # 10
                    rank = 7
                elif size == 2:
                    rank = _rank_of_code(first)
                else:
                    return NOT_PARSED
                suit = _suit_of_code(ord(s[i - 1]))
                if rank < 0 or rank > TWO or suit < 0:
                    return NOT_PARSED
                bit = cython.cast(cython.ulonglong, 1) << (suit * 13 + rank)
            if seen & bit:
                return NOT_PARSED  # the same card twice
            seen |= bit
            counts += _unit(rank)
        return counts
    # a rank string: a character a card, 10 for T
    i = 0
    while i < n:
        code = ord(s[i])
        i += 1
        if code == 32 or code == 44:
            continue
        if code == 49 and i < n and ord(s[i]) == 48:  # 10
            rank = 7
            i += 1
        else:
            rank = _rank_of_code(code)
            if rank < 0:
                return NOT_PARSED
        if _count(counts, rank) >= (1 if rank >= SMALL else 4):
            return NOT_PARSED  # more copies than one deck has
        counts += _unit(rank)
    return counts


@cython.cfunc
def _body_size(play: cython.ulonglong) -> cython.int:
    """Cards in a play's body (rule 11i): the trio or the four of one with kickers, the trios
    of an airplane, else every card."""
    kind: cython.int = play_kind(play)
    if kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS:
        return 3 * play_chain(play)
    if kind == TRIO_SINGLE or kind == TRIO_PAIR:
        return 3
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        return 4
    return card_total(play & COUNTS_MASK)


@cython.ccall
def lead_reading(counts: cython.ulonglong, rocket_kickers: cython.bint) -> cython.ulonglong:
    """Rule 11i on a free lead: the reading of ``counts`` with the largest body, then the highest
    main rank (the first such in ``readings`` order); 0 when it is no combination."""
    best: cython.ulonglong = 0
    best_body: cython.int = -1
    best_main: cython.int = -1
    body: cython.int
    main: cython.int
    play: cython.ulonglong
    for play in readings(counts, rocket_kickers):
        body = _body_size(play)
        main = play_main(play)
        if body > best_body or (body == best_body and main > best_main):
            best, best_body, best_main = play, body, main
    return best


@cython.cfunc
def _table_of_text(last_text, rocket_kickers: cython.bint) -> cython.longlong:
    """The table of a request's ``last`` text: 0 when blank (spaces only), else its reading as
    when led (rule 11i); -1 when ``text_counts`` declines it or it is no combination."""
    last: cython.longlong
    table: cython.ulonglong
    if not isinstance(last_text, str):
        return NOT_PARSED
    if not last_text.strip(" "):
        return 0
    last = text_counts(last_text)
    if last <= 0:
        return NOT_PARSED
    table = lead_reading(last, rocket_kickers)
    return table if table else NOT_PARSED


@cython.ccall
def legal_rank_strings_of_text(hand_text, last_text, rocket_kickers: cython.bint):
    """``legal_rank_strings`` from the request's texts, the table read as when led (rule 11i),
    or None when this fast path declines: a text ``text_counts`` does not read, a ``last`` that
    is no combination or blank with other white space than spaces. The reference path then
    gives the answer or the error."""
    hand: cython.longlong = text_counts(hand_text)
    table: cython.longlong = _table_of_text(last_text, rocket_kickers)
    if hand < 0 or table < 0:
        return None
    return legal_rank_strings(hand, table, rocket_kickers)


@cython.ccall
def legal_moves_json_of_text(hand_text, last_text, rocket_kickers: cython.bint):
    """``legal_moves_json`` from the request's texts, or None as ``legal_rank_strings_of_text``."""
    hand: cython.longlong = text_counts(hand_text)
    table: cython.longlong = _table_of_text(last_text, rocket_kickers)
    if hand < 0 or table < 0:
        return None
    return legal_moves_json(hand, table, rocket_kickers)
