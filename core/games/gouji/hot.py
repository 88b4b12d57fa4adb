"""Gouji (够级) hot path: classify, compare and generate plays on per-rank byte counts.

One source, two modules: the build compiles this file with Cython into ``hot_c``; run as plain
Python it is the interpreted twin (``referee.core.speedups`` picks one). The rules are those of
rules/gouji.md §2-§4 and 13.3 d); this module only computes.

Rank index r = 0..14 for 3 4 5 6 7 8 9 T J Q K A 2, small joker (小花), big joker (大花).

Counts (four packs: a rank holds up to 16 cards, so one 64-bit word cannot hold fifteen of them):
one byte a rank in two words, ``lo`` ranks 0..7 at bits 8r, ``hi`` ranks 8..14 at bits 8(r-8).

A play (rules 2.1-2.5) is an int::

    n | t << 5 | s << 10 | b << 14 | r << 18

n natural cards of rank r (0..11; r = 15 when n = 0), t 2s (钱), s small and b big jokers.
0 is no play. Effective vector (3.2): the jokers (every 大花 counted as 小花 when the play holds
both and ``DOWNGRADE`` is set, 2.5), then n + t entries of rank r, or t entries of rank 2 when
n = 0 (2.2-2.3). Sorting plays as ints orders them by rank, then jokers, then 2s, then size.

Flags (``rules.flags_of``): DOWNGRADE (2.5), COVER (3.6 replaces 3.2), OPTION1 with its scope
(3.5: FULL, KILL21 = ``2kill1_only``, TABLE4PL = ``4pl_table``).
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # the interpreted twin runs without Cython installed
    from ... import _cython_shim as cython

DOWNGRADE = cython.declare(cython.int, 1)
COVER = cython.declare(cython.int, 2)
OPTION1_FULL = cython.declare(cython.int, 4)
OPTION1_KILL21 = cython.declare(cython.int, 8)
OPTION1_TABLE4PL = cython.declare(cython.int, 16)
FLAG_NAMES = ("downgrade", "cover", "option1_full", "option1_2kill1_only", "option1_4pl_table")
FLAGS = {name: 1 << k for k, name in enumerate(FLAG_NAMES)}  # the flags as Python sees them

TWO = cython.declare(cython.int, 12)
SMALL = cython.declare(cython.int, 13)
BIG = cython.declare(cython.int, 14)
ACE = cython.declare(cython.int, 11)
NO_RANK = cython.declare(cython.int, 15)

# 4.1: the least number of cards (attached 2s included) of each rank index that is a 够级牌; 0 never
GOUJI_MIN = (0, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 2, 1)


@cython.cfunc
@cython.inline
def _count(lo: cython.ulonglong, hi: cython.ulonglong, r: cython.int) -> cython.int:
    if r < 8:
        return (lo >> (8 * r)) & 255
    return (hi >> (8 * (r - 8))) & 255


@cython.ccall
def rank_count(lo: cython.ulonglong, hi: cython.ulonglong, r: cython.int) -> cython.int:
    """The count of rank index r in the counts (lo, hi)."""
    return _count(lo, hi, r)


@cython.ccall
def encode(n: cython.int, t: cython.int, s: cython.int, b: cython.int, r: cython.int) -> cython.longlong:
    """The play of n naturals of rank r (ignored when n = 0), t 2s, s small and b big jokers; 0 if empty."""
    if n == 0:
        r = NO_RANK
    if n + t + s + b == 0:
        return 0
    return n | (t << 5) | (s << 10) | (b << 14) | (r << 18)


@cython.ccall
def naturals(play: cython.longlong) -> cython.int:
    return play & 31


@cython.ccall
def twos(play: cython.longlong) -> cython.int:
    return (play >> 5) & 31


@cython.ccall
def smalls(play: cython.longlong) -> cython.int:
    return (play >> 10) & 15


@cython.ccall
def bigs(play: cython.longlong) -> cython.int:
    return (play >> 14) & 15


@cython.ccall
def natural_rank(play: cython.longlong) -> cython.int:
    """The natural rank index of the play, 15 when it holds none."""
    return (play >> 18) & 15


@cython.ccall
def size(play: cython.longlong) -> cython.int:
    return (play & 31) + ((play >> 5) & 31) + ((play >> 10) & 15) + ((play >> 14) & 15)


@cython.ccall
def classify(lo: cython.ulonglong, hi: cython.ulonglong) -> cython.longlong:
    """Rules 2.1-2.4: the play the counts stand for, 0 when they are no play (two natural ranks,
    or no card)."""
    r: cython.int
    c: cython.int
    rank: cython.int = NO_RANK
    n: cython.int = 0
    for r in range(ACE + 1):
        c = _count(lo, hi, r)
        if c:
            if n:
                return 0  # 2.1: different natural ranks never combine
            n = c
            rank = r
    return encode(n, _count(lo, hi, TWO), _count(lo, hi, SMALL), _count(lo, hi, BIG), rank)


@cython.ccall
def eff_bigs(play: cython.longlong, flags: cython.int) -> cython.int:
    """2.5: the 大花 that count as 大花 (none when the play also holds a 小花 and DOWNGRADE is set)."""
    b: cython.int = (play >> 14) & 15
    if (flags & DOWNGRADE) and ((play >> 10) & 15):
        return 0
    return b


@cython.ccall
def main_rank(play: cython.longlong) -> cython.int:
    """The rank of the non-joker entries of the vector: the natural rank, or 2 without naturals."""
    if play & 31:
        return (play >> 18) & 15
    return TWO


@cython.cfunc
@cython.inline
def _entry(i: cython.int, big: cython.int, jokers: cython.int, rank: cython.int) -> cython.int:
    if i < big:
        return BIG
    if i < jokers:
        return SMALL
    return rank


@cython.ccall
def vector(play: cython.longlong, flags: cython.int) -> list:
    """3.2: the effective vector, high to low (rank indexes)."""
    big: cython.int = eff_bigs(play, flags)
    jokers: cython.int = ((play >> 10) & 15) + ((play >> 14) & 15)
    rank: cython.int = main_rank(play)
    return [_entry(i, big, jokers, rank) for i in range(size(play))]


@cython.ccall
def jokers_only(play: cython.longlong) -> cython.bint:
    return (play & 1023) == 0 and play != 0


@cython.cfunc
def _option1(new: cython.longlong, top: cython.longlong, flags: cython.int) -> cython.bint:
    """3.5: a count-changing beat between two plays of jokers only (after 2.5)."""
    if not (jokers_only(new) and jokers_only(top)):
        return False
    nb: cython.int = eff_bigs(new, flags)
    ns: cython.int = size(new) - nb
    tb: cython.int = eff_bigs(top, flags)
    ts: cython.int = size(top) - tb
    if nb and ns or tb and ts:
        return False  # mixed plays (only without DOWNGRADE) take no count-changing beat
    if flags & OPTION1_FULL:
        if tb:
            return nb == 2 * tb or ns == 3 * tb
        return nb == 0 and ns == 2 * ts
    if flags & OPTION1_KILL21:
        return tb == 1 and nb == 2
    if flags & OPTION1_TABLE4PL:
        if tb == 1:
            return nb == 2 or ns == 3
        return nb == 0 and ((ts == 1 and ns == 2) or (ts == 2 and ns == 4))
    return False


@cython.ccall
def beats(new: cython.longlong, top: cython.longlong, flags: cython.int) -> cython.bint:
    """Rules 3.1-3.6: whether the play ``new`` beats the play ``top``."""
    i: cython.int
    a: cython.int
    c: cython.int
    k: cython.int = size(new)
    if k != size(top):
        return _option1(new, top, flags)
    nbig: cython.int = eff_bigs(new, flags)
    nj: cython.int = ((new >> 10) & 15) + ((new >> 14) & 15)
    nrank: cython.int = main_rank(new)
    tbig: cython.int = eff_bigs(top, flags)
    tj: cython.int = ((top >> 10) & 15) + ((top >> 14) & 15)
    trank: cython.int = main_rank(top)
    differ: cython.bint = False
    for i in range(k):
        a = _entry(i, nbig, nj, nrank)
        c = _entry(i, tbig, tj, trank)
        if (flags & COVER) and c >= SMALL:
            if a < c:  # 3.6 (a): a joker of the top play is covered by a joker at least as high
                return False
            if a != c:
                differ = True
        elif a <= c:
            return False
        else:
            differ = True
    return differ


@cython.ccall
def is_gouji(play: cython.longlong) -> cython.bint:
    """Rule 4.1: a 够级牌 holds a joker, or reaches 10 x5, J x4, Q x3, K x2, A x2, 2 x1."""
    if play == 0:
        return False
    if (play >> 10) & 255:
        return True
    rank: cython.int = main_rank(play)
    need: cython.int = GOUJI_MIN[rank]
    return need > 0 and (play & 31) + ((play >> 5) & 31) >= need


@cython.ccall
def can_burn_out(lo: cython.ulonglong, hi: cython.ulonglong) -> cython.bint:
    """Rule 13.3 d): the hand (the burner's, after his play) can be played out with a joker in
    every set but the last: its jokers are at least its distinct natural ranks (3 to A) less one."""
    r: cython.int
    ranks: cython.int = 0
    for r in range(ACE + 1):
        if _count(lo, hi, r):
            ranks += 1
    return _count(lo, hi, SMALL) + _count(lo, hi, BIG) >= ranks - 1


@cython.ccall
def minus(lo: cython.ulonglong, hi: cython.ulonglong, play: cython.longlong) -> tuple:
    """The counts (lo, hi) less the cards of ``play`` (which they must hold)."""
    n: cython.int = play & 31
    r: cython.int = (play >> 18) & 15
    if n:
        if r < 8:
            lo -= cython.cast(cython.ulonglong, n) << (8 * r)
        else:
            hi -= cython.cast(cython.ulonglong, n) << (8 * (r - 8))
    hi -= (cython.cast(cython.ulonglong, (play >> 5) & 31) << 32) \
        | (cython.cast(cython.ulonglong, (play >> 10) & 15) << 40) \
        | (cython.cast(cython.ulonglong, (play >> 14) & 15) << 48)
    return lo, hi


@cython.ccall
def free_leads(lo: cython.ulonglong, hi: cython.ulonglong) -> list:
    """Rule 10.1: every distinct play of the hand (a lead), in int order (by natural rank, then
    jokers, then 2s, then naturals; the plays without naturals last)."""
    out: list = []
    r: cython.int
    n: cython.int
    t: cython.int
    s: cython.int
    b: cython.int
    c: cython.int
    base: cython.longlong
    T: cython.int = _count(lo, hi, TWO)
    S: cython.int = _count(lo, hi, SMALL)
    B: cython.int = _count(lo, hi, BIG)
    for r in range(ACE + 1):
        c = _count(lo, hi, r)
        if c == 0:
            continue
        for b in range(B + 1):
            for s in range(S + 1):
                for t in range(T + 1):
                    base = (t << 5) | (s << 10) | (b << 14) | (r << 18)
                    for n in range(1, c + 1):
                        out.append(base | n)
    for b in range(B + 1):
        for s in range(S + 1):
            base = (s << 10) | (b << 14) | (NO_RANK << 18)
            for t in range(T + 1):
                if t + s + b:
                    out.append(base | (t << 5))
    return out


@cython.ccall
def beating_plays(lo: cython.ulonglong, hi: cython.ulonglong, top: cython.longlong,
                  flags: cython.int) -> list:
    """Rules 3.1-3.6: every distinct play of the hand that beats ``top``, in int order."""
    out: list = []
    r: cython.int
    n: cython.int
    t: cython.int
    s: cython.int
    b: cython.int
    c: cython.int
    play: cython.longlong
    k: cython.int = size(top)
    T: cython.int = _count(lo, hi, TWO)
    S: cython.int = _count(lo, hi, SMALL)
    B: cython.int = _count(lo, hi, BIG)
    low: cython.int = main_rank(top)
    if not (flags & COVER) and eff_bigs(top, flags):
        return _option1_plays(S, B, top, flags)  # 3.4: a 大花 is beaten at no equal size
    for r in range(ACE + 1):
        c = _count(lo, hi, r)
        if c == 0 or r <= low and not (flags & COVER):
            continue
        for b in range(B + 1):
            for s in range(S + 1):
                for t in range(T + 1):
                    n = k - t - s - b
                    if n < 1:
                        break
                    if n > c:
                        continue
                    play = n | (t << 5) | (s << 10) | (b << 14) | (r << 18)
                    if beats(play, top, flags):
                        out.append(play)
    for b in range(B + 1):
        for s in range(S + 1):
            t = k - s - b
            if 0 <= t <= T and t + s + b:
                play = (t << 5) | (s << 10) | (b << 14) | (NO_RANK << 18)
                if beats(play, top, flags):
                    out.append(play)
    if flags & (OPTION1_FULL | OPTION1_KILL21 | OPTION1_TABLE4PL) and jokers_only(top):
        for play in _option1_plays(S, B, top, flags):
            if size(play) != k:
                out.append(play)
    return out


@cython.cfunc
def _option1_plays(S: cython.int, B: cython.int, top: cython.longlong, flags: cython.int) -> list:
    out: list = []
    s: cython.int
    b: cython.int
    play: cython.longlong
    for b in range(B + 1):
        for s in range(S + 1):
            if s + b:
                play = (s << 10) | (b << 14) | (NO_RANK << 18)
                if beats(play, top, flags):
                    out.append(play)
    return out
