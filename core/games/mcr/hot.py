"""国标麻将 hot path: the fan calculator on tile-count arrays (rules: ``mcr.py``'s docstring).

One source, two modules: the build compiles this file with Cython into ``mcr_hot_c``; run as
plain Python it is the interpreted twin (``referee.core.speedups`` picks one). Arrays are C
arrays when compiled and lists when interpreted: locals as ``x: cython.int[34] = [0] * 34``,
the module-level tables through their declarations in ``mcr_hot.pxd``.

Encoding::

    tile            0-8 W1-9, 9-17 T1-9, 18-26 B1-9, 27-30 F1-4 (E S W N), 31-33 J1-3 (中 发 白)
    suit, rank      tile // 9 (3 = honors), tile % 9 (0-based: rank 0 is a 1)
    counts          int[34], copies of each tile
    mask            ulonglong, bit t set when the hand holds tile t
    group g[15]     a decomposition: kind g[i], tile g[5 + i], exposed g[10 + i] for i = 0..4;
                    slots 0..3 the sets (declared melds first), slot 4 the pair; a chow's tile
                    is its middle tile; a knitted straight fills three slots with kind KNIT
    fans            int[82], fans[id] = how many times fan ``id`` (the seed's number) counts
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # the interpreted twin runs without Cython installed
    from ... import _cython_shim as cython

from .fan_table import (CONCEALED_PUNG_FANS, FAN_IDS, FANS, FLOWER_FAN, HAND_TILE_IDS, KONG_FANS,
                       KNITTED_STRAIGHTS, NUM_FANS, PACK_TRAIT_FANS, TILE_SET_FANS)

# --- constants --------------------------------------------------------------------------------

NUM_KINDS = cython.declare(cython.int, 34)
FIRST_HONOR = cython.declare(cython.int, 27)
FIRST_DRAGON = cython.declare(cython.int, 31)
TABLE_SIZE = cython.declare(cython.int, NUM_FANS + 1)

# meld / group kinds
CHOW = cython.declare(cython.int, 1)
PUNG = cython.declare(cython.int, 2)
KONG = cython.declare(cython.int, 3)
PAIR = cython.declare(cython.int, 4)
KNIT = cython.declare(cython.int, 5)
MELD_KINDS = {"CHI": 1, "PENG": 2, "GANG": 3}

# win flags
SELF_DRAWN = cython.declare(cython.int, 1)
FOURTH_TILE = cython.declare(cython.int, 2)
KONG_RELATED = cython.declare(cython.int, 4)
WALL_LAST = cython.declare(cython.int, 8)

# status codes of a calculation
OK = cython.declare(cython.int, 0)
NOT_WIN = cython.declare(cython.int, 1)
UNDER_8 = cython.declare(cython.int, 2)
BAD_COUNT = cython.declare(cython.int, 3)  # wrong number of concealed tiles or melds
BAD_COPIES = cython.declare(cython.int, 4)  # more than four copies (detail: the tile)
BAD_MELD = cython.declare(cython.int, 5)  # detail: the meld's index
BAD_TILE = cython.declare(cython.int, 6)
BAD_WIND = cython.declare(cython.int, 7)
BAD_FLOWERS = cython.declare(cython.int, 8)
BAD_FIELD = cython.declare(cython.int, 9)  # a request field of the wrong type (detail: index)
MIN_POINTS = cython.declare(cython.int, 8)
MAX_FLOWERS = cython.declare(cython.int, 8)

# hand-level facts, h[16]
H_WIN = cython.declare(cython.int, 0)
H_FLAGS = cython.declare(cython.int, 1)
H_SEAT = cython.declare(cython.int, 2)
H_PREVALENT = cython.declare(cython.int, 3)
H_MELDS = cython.declare(cython.int, 4)
H_UNIQUE = cython.declare(cython.int, 5)  # the hand waits on one tile kind: -1 not yet known
H_NINE_GATES = cython.declare(cython.int, 6)
H_SEVEN_PAIRS = cython.declare(cython.int, 7)  # the hand has a seven-pairs reading
H_KNITTED = cython.declare(cython.int, 8)  # the hand has a knitted-straight reading
H_BEST = cython.declare(cython.int, 9)  # points of the best reading so far, -1 none
H_DETAIL = cython.declare(cython.int, 10)  # what an error status is about

# fan ids, by the seed's numbering
BIG_FOUR_WINDS = cython.declare(cython.int, FAN_IDS["大四喜"])
BIG_THREE_DRAGONS = cython.declare(cython.int, FAN_IDS["大三元"])
NINE_GATES = cython.declare(cython.int, FAN_IDS["九莲宝灯"])
SEVEN_SHIFTED_PAIRS = cython.declare(cython.int, FAN_IDS["连七对"])
THIRTEEN_ORPHANS = cython.declare(cython.int, FAN_IDS["十三幺"])
LITTLE_FOUR_WINDS = cython.declare(cython.int, FAN_IDS["小四喜"])
LITTLE_THREE_DRAGONS = cython.declare(cython.int, FAN_IDS["小三元"])
PURE_TERMINAL_CHOWS = cython.declare(cython.int, FAN_IDS["一色双龙会"])
QUADRUPLE_CHOW = cython.declare(cython.int, FAN_IDS["一色四同顺"])
FOUR_PURE_SHIFTED_PUNGS = cython.declare(cython.int, FAN_IDS["一色四节高"])
FOUR_PURE_SHIFTED_CHOWS = cython.declare(cython.int, FAN_IDS["一色四步高"])
SEVEN_PAIRS = cython.declare(cython.int, FAN_IDS["七对"])
GREATER_HONORS_KNITTED = cython.declare(cython.int, FAN_IDS["七星不靠"])
FULL_FLUSH = cython.declare(cython.int, FAN_IDS["清一色"])
PURE_TRIPLE_CHOW = cython.declare(cython.int, FAN_IDS["一色三同顺"])
PURE_SHIFTED_PUNGS = cython.declare(cython.int, FAN_IDS["一色三节高"])
PURE_STRAIGHT = cython.declare(cython.int, FAN_IDS["清龙"])
THREE_SUITED_TERMINAL_CHOWS = cython.declare(cython.int, FAN_IDS["三色双龙会"])
PURE_SHIFTED_CHOWS = cython.declare(cython.int, FAN_IDS["一色三步高"])
TRIPLE_PUNG = cython.declare(cython.int, FAN_IDS["三同刻"])
LESSER_HONORS_KNITTED = cython.declare(cython.int, FAN_IDS["全不靠"])
KNITTED_STRAIGHT = cython.declare(cython.int, FAN_IDS["组合龙"])
BIG_THREE_WINDS = cython.declare(cython.int, FAN_IDS["三风刻"])
MIXED_STRAIGHT = cython.declare(cython.int, FAN_IDS["花龙"])
MIXED_TRIPLE_CHOW = cython.declare(cython.int, FAN_IDS["三色三同顺"])
MIXED_SHIFTED_PUNGS = cython.declare(cython.int, FAN_IDS["三色三节高"])
CHICKEN_HAND = cython.declare(cython.int, FAN_IDS["无番和"])
LAST_TILE_DRAW = cython.declare(cython.int, FAN_IDS["妙手回春"])
LAST_TILE_CLAIM = cython.declare(cython.int, FAN_IDS["海底捞月"])
OUT_WITH_REPLACEMENT = cython.declare(cython.int, FAN_IDS["杠上开花"])
ROBBING_THE_KONG = cython.declare(cython.int, FAN_IDS["抢杠和"])
HALF_FLUSH = cython.declare(cython.int, FAN_IDS["混一色"])
MIXED_SHIFTED_CHOWS = cython.declare(cython.int, FAN_IDS["三色三步高"])
ALL_TYPES = cython.declare(cython.int, FAN_IDS["五门齐"])
MELDED_HAND = cython.declare(cython.int, FAN_IDS["全求人"])
TWO_DRAGON_PUNGS = cython.declare(cython.int, FAN_IDS["双箭刻"])
FULLY_CONCEALED = cython.declare(cython.int, FAN_IDS["不求人"])
LAST_TILE = cython.declare(cython.int, FAN_IDS["和绝张"])
DRAGON_PUNG = cython.declare(cython.int, FAN_IDS["箭刻"])
PREVALENT_WIND = cython.declare(cython.int, FAN_IDS["圈风刻"])
SEAT_WIND = cython.declare(cython.int, FAN_IDS["门风刻"])
CONCEALED_HAND = cython.declare(cython.int, FAN_IDS["门前清"])
TILE_HOG = cython.declare(cython.int, FAN_IDS["四归一"])
DOUBLE_PUNG = cython.declare(cython.int, FAN_IDS["双同刻"])
PURE_DOUBLE_CHOW = cython.declare(cython.int, FAN_IDS["一般高"])
MIXED_DOUBLE_CHOW = cython.declare(cython.int, FAN_IDS["喜相逢"])
SHORT_STRAIGHT = cython.declare(cython.int, FAN_IDS["连六"])
TWO_TERMINAL_CHOWS = cython.declare(cython.int, FAN_IDS["老少副"])
TERMINAL_PUNG = cython.declare(cython.int, FAN_IDS["幺九刻"])
ONE_VOIDED_SUIT = cython.declare(cython.int, FAN_IDS["缺一门"])
NO_HONORS = cython.declare(cython.int, FAN_IDS["无字"])
EDGE_WAIT = cython.declare(cython.int, FAN_IDS["边张"])
CLOSED_WAIT = cython.declare(cython.int, FAN_IDS["坎张"])
SINGLE_WAIT = cython.declare(cython.int, FAN_IDS["单钓将"])
SELF_DRAWN_FAN = cython.declare(cython.int, FAN_IDS["自摸"])

# group traits for the pack-trait fans (mcr_fans.PACK_TRAIT_FANS)
T_TERMINAL = cython.declare(cython.int, 1)  # holds a terminal or honor
T_FIVE = cython.declare(cython.int, 2)  # holds a 5
T_EVEN = cython.declare(cython.int, 4)  # pung or pair of 2, 4, 6 or 8
T_PUNG = cython.declare(cython.int, 8)  # pung or kong
T_CHOW = cython.declare(cython.int, 16)  # chow, or a third of a knitted straight
T_NUMBERED = cython.declare(cython.int, 32)
T_ANY = cython.declare(cython.int, 64)
TRAIT_BITS = {"terminal": T_TERMINAL, "five": T_FIVE, "even": T_EVEN, "pung": T_PUNG, "chow": T_CHOW,
              "numbered": T_NUMBERED, "any": T_ANY}

# --- tables, filled from mcr_fans at import (C arrays by mcr_hot.pxd, same sizes) ----------------

_POINTS = [0] * 82
_EXCL_START = [0] * 83
_EXCL = [0] * 512
_SET_FAN = [0] * 16
_SET_MASK = [0] * 16
_NUM_SET_FANS = cython.declare(cython.int, 0)
_TRAIT_FAN = [0] * 8
_TRAIT_SETS = [0] * 8
_TRAIT_PAIR = [0] * 8
_NUM_TRAIT_FANS = cython.declare(cython.int, 0)
_KONG_FAN = [0] * 50  # (exposed * 5 + concealed) * 2 + k, k < 2
_CONCEALED_PUNG_FAN = [0] * 5
_KNIT = [0] * 54  # the six knitted straights, nine tiles each

# Python-side names for answers, by fan id
FAN_NAMES_EN = ("",) + tuple(fan.name_en for fan in FANS)
FAN_NAMES_CN = ("",) + tuple(fan.name_cn for fan in FANS)
_HONOR_MASK = cython.declare(cython.ulonglong, ((1 << 34) - 1) & ~((1 << 27) - 1))
_WIND_MASK = cython.declare(cython.ulonglong, 0xF << 27)
_DRAGON_MASK = cython.declare(cython.ulonglong, 0x7 << 31)
_SUIT_MASK = cython.declare(cython.ulonglong, 0x1FF)


def _tile_mask(names) -> int:
    mask = 0
    for name in names:
        mask |= 1 << HAND_TILE_IDS[name]
    return mask


def _load_tables() -> None:
    global _NUM_SET_FANS, _NUM_TRAIT_FANS
    i: cython.int
    k: cython.int = 0
    for fan in FANS:
        _POINTS[fan.id] = fan.points
        _EXCL_START[fan.id] = k
        for other in fan.excludes:
            _EXCL[k] = other
            k += 1
        _EXCL_START[fan.id + 1] = k
    _NUM_SET_FANS = len(TILE_SET_FANS)
    for i, (name, tiles) in enumerate(TILE_SET_FANS):
        _SET_FAN[i] = FAN_IDS[name]
        _SET_MASK[i] = _tile_mask(tiles)
    _NUM_TRAIT_FANS = len(PACK_TRAIT_FANS)
    for i, (name, sets, pair) in enumerate(PACK_TRAIT_FANS):
        _TRAIT_FAN[i] = FAN_IDS[name]
        _TRAIT_SETS[i] = TRAIT_BITS[sets]
        _TRAIT_PAIR[i] = TRAIT_BITS[pair]
    for (exposed, concealed), names in KONG_FANS.items():
        for i, name in enumerate(names):
            _KONG_FAN[(exposed * 5 + concealed) * 2 + i] = FAN_IDS[name]
    for count, name in CONCEALED_PUNG_FANS.items():
        _CONCEALED_PUNG_FAN[count] = FAN_IDS[name]
    for i, straight in enumerate(KNITTED_STRAIGHTS):
        for k, name in enumerate(straight.split()):
            _KNIT[i * 9 + k] = HAND_TILE_IDS[name]


_load_tables()


# --- tiles --------------------------------------------------------------------------------------

@cython.cfunc
@cython.inline
def _suit(t: cython.int) -> cython.int:
    return t // 9


@cython.cfunc
@cython.inline
def _rank(t: cython.int) -> cython.int:
    return t % 9


@cython.cfunc
@cython.inline
def _is_terminal_or_honor(t: cython.int) -> cython.bint:
    return t >= FIRST_HONOR or t % 9 == 0 or t % 9 == 8


@cython.cfunc
@cython.inline
def _is_wind(t: cython.int) -> cython.bint:
    return FIRST_HONOR <= t < FIRST_DRAGON


@cython.cfunc
@cython.inline
def _is_dragon(t: cython.int) -> cython.bint:
    return t >= FIRST_DRAGON


@cython.cfunc
@cython.inline
def _bit(t: cython.int) -> cython.ulonglong:
    return cython.cast(cython.ulonglong, 1) << t


# --- group combinations: the chow and pung families -------------------------------------------

@cython.cfunc
def _two_chow_fan(a: cython.int, b: cython.int) -> cython.int:
    """一般高, 喜相逢, 连六 or 老少副 for two chows (middle tiles), else 0."""
    ra: cython.int = _rank(a)
    rb: cython.int = _rank(b)
    if _suit(a) != _suit(b):
        return MIXED_DOUBLE_CHOW if ra == rb else 0
    if ra - rb == 3 or rb - ra == 3:
        return SHORT_STRAIGHT
    if ra + rb == 8 and ra != rb and (ra == 1 or rb == 1):
        return TWO_TERMINAL_CHOWS
    if ra == rb:
        return PURE_DOUBLE_CHOW
    return 0


@cython.cfunc
def _three_chow_fan(a: cython.int, b: cython.int, c: cython.int) -> cython.int:
    """The fan of three chows (middle tiles, ascending), else 0."""
    sa: cython.int = _suit(a)
    sb: cython.int = _suit(b)
    sc: cython.int = _suit(c)
    ra: cython.int = _rank(a)
    rb: cython.int = _rank(b)
    rc: cython.int = _rank(c)
    if sa != sb and sa != sc and sb != sc:
        if _consecutive(ra, rb, rc):
            return MIXED_SHIFTED_CHOWS
        if ra == rb and rb == rc:
            return MIXED_TRIPLE_CHOW
        if min(ra, rb, rc) == 1 and max(ra, rb, rc) == 7 and ra + rb + rc == 12 and ra != rb:
            return MIXED_STRAIGHT
        return 0
    if sa != sb or sb != sc:
        return 0
    if ra + 3 == rb and rb + 3 == rc:
        return PURE_STRAIGHT
    if (ra + 2 == rb and rb + 2 == rc) or (ra + 1 == rb and rb + 1 == rc):
        return PURE_SHIFTED_CHOWS
    if ra == rb and rb == rc:
        return PURE_TRIPLE_CHOW
    return 0


@cython.cfunc
@cython.inline
def _consecutive(a: cython.int, b: cython.int, c: cython.int) -> cython.bint:
    low: cython.int = min(a, b, c)
    return a != b and a != c and b != c and max(a, b, c) - low == 2


@cython.cfunc
def _four_chow_fan(a: cython.int, b: cython.int, c: cython.int, d: cython.int) -> cython.int:
    if _suit(a) != _suit(d):
        return 0
    if (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d):
        return FOUR_PURE_SHIFTED_CHOWS
    if a == d:
        return QUADRUPLE_CHOW
    return 0


@cython.cfunc
def _extra_chow_fan(a: cython.int, b: cython.int, c: cython.int, x: cython.int) -> cython.int:
    """Principle 5: the chow left over beside a three-chow fan pairs once, the best first."""
    fa: cython.int = _two_chow_fan(a, x)
    fb: cython.int = _two_chow_fan(b, x)
    fc: cython.int = _two_chow_fan(c, x)
    if fa == PURE_DOUBLE_CHOW or fb == PURE_DOUBLE_CHOW or fc == PURE_DOUBLE_CHOW:
        return PURE_DOUBLE_CHOW
    if fa == MIXED_DOUBLE_CHOW or fb == MIXED_DOUBLE_CHOW or fc == MIXED_DOUBLE_CHOW:
        return MIXED_DOUBLE_CHOW
    if fa == SHORT_STRAIGHT or fb == SHORT_STRAIGHT or fc == SHORT_STRAIGHT:
        return SHORT_STRAIGHT
    return max(fa, fb, fc)  # 老少副 or nothing


@cython.cfunc
def _chow_fans(ch: cython.p_int, n: cython.int, fans: cython.p_int) -> cython.void:
    """Fans among ``n`` chows (middle tiles, ascending): a four-chow fan alone; else the first
    three-chow fan and what the fourth chow adds once; else the pairs, limited by principle 5."""
    f: cython.int
    k: cython.int
    pairs: cython.int[6] = [0] * 6
    if n == 4:
        f = _four_chow_fan(ch[0], ch[1], ch[2], ch[3])
        if f:
            fans[f] += 1
            return
        for k in range(3, -1, -1):  # leave out chow 3, then 2, 1, 0
            f = _three_chow_fan(ch[0 if k else 1], ch[1 if k > 1 else 2], ch[2 if k > 2 else 3])
            if f:
                fans[f] += 1
                f = _extra_chow_fan(ch[0 if k else 1], ch[1 if k > 1 else 2], ch[2 if k > 2 else 3],
                                    ch[k])
                if f:
                    fans[f] += 1
                return
        pairs[0] = _two_chow_fan(ch[0], ch[1])
        pairs[1] = _two_chow_fan(ch[0], ch[2])
        pairs[2] = _two_chow_fan(ch[0], ch[3])
        pairs[3] = _two_chow_fan(ch[1], ch[2])
        pairs[4] = _two_chow_fan(ch[1], ch[3])
        pairs[5] = _two_chow_fan(ch[2], ch[3])
        # each chow related to no other lowers the limit of 3 by one
        k = 3 - ((pairs[0] | pairs[1] | pairs[2]) == 0) - ((pairs[0] | pairs[3] | pairs[4]) == 0) \
            - ((pairs[1] | pairs[3] | pairs[5]) == 0) - ((pairs[2] | pairs[4] | pairs[5]) == 0)
        if k > 0:
            _limit_pairs(pairs, 6, k, fans)
    elif n == 3:
        f = _three_chow_fan(ch[0], ch[1], ch[2])
        if f:
            fans[f] += 1
            return
        pairs[0] = _two_chow_fan(ch[0], ch[1])
        pairs[1] = _two_chow_fan(ch[0], ch[2])
        pairs[2] = _two_chow_fan(ch[1], ch[2])
        _limit_pairs(pairs, 3, 2, fans)
    elif n == 2:
        f = _two_chow_fan(ch[0], ch[1])
        if f:
            fans[f] += 1


@cython.cfunc
def _limit_pairs(pairs: cython.p_int, n: cython.int, limit: cython.int,
                 fans: cython.p_int) -> cython.void:
    """Principle 5 as the community calculators apply it: when more chow pairs score than the
    limit, drop repeated fans first (老少副, 连六, 喜相逢, 一般高 in that order) down to one
    each, then down to none."""
    table: cython.int[4] = [0] * 4
    order: cython.int[4] = [0] * 4
    order[0] = PURE_DOUBLE_CHOW
    order[1] = MIXED_DOUBLE_CHOW
    order[2] = SHORT_STRAIGHT
    order[3] = TWO_TERMINAL_CHOWS
    count: cython.int = 0
    i: cython.int
    k: cython.int
    keep: cython.int
    for i in range(n):
        for k in range(4):
            if pairs[i] == order[k]:
                table[k] += 1
                count += 1
    keep = 1
    while count > limit and keep >= 0:
        k = 4
        while count > limit and k > 0:
            k -= 1
            while table[k] > keep and count > limit:
                table[k] -= 1
                count -= 1
        keep -= 1
    for k in range(4):
        fans[order[k]] += table[k]


@cython.cfunc
def _two_pung_fan(a: cython.int, b: cython.int) -> cython.int:
    if a < FIRST_HONOR and b < FIRST_HONOR:
        return DOUBLE_PUNG if _rank(a) == _rank(b) else 0
    if _is_dragon(a) and _is_dragon(b):
        return TWO_DRAGON_PUNGS
    return 0


@cython.cfunc
def _three_pung_fan(a: cython.int, b: cython.int, c: cython.int) -> cython.int:
    """The fan of three pungs (tiles ascending), else 0."""
    if c < FIRST_HONOR:
        if _suit(a) != _suit(b) and _suit(a) != _suit(c) and _suit(b) != _suit(c):
            if _consecutive(_rank(a), _rank(b), _rank(c)):
                return MIXED_SHIFTED_PUNGS
            if _rank(a) == _rank(b) and _rank(b) == _rank(c):
                return TRIPLE_PUNG
            return 0
        if _suit(a) == _suit(c) and a + 1 == b and b + 1 == c:
            return PURE_SHIFTED_PUNGS
        return 0
    if a >= FIRST_HONOR and c < FIRST_DRAGON:
        return BIG_THREE_WINDS
    if a == FIRST_DRAGON:
        return BIG_THREE_DRAGONS
    return 0


@cython.cfunc
def _four_pung_fan(a: cython.int, b: cython.int, c: cython.int, d: cython.int) -> cython.int:
    if d < FIRST_HONOR and _suit(a) == _suit(d) and a + 3 == d and a + 1 == b and b + 1 == c:
        return FOUR_PURE_SHIFTED_PUNGS
    if a == FIRST_HONOR and d == FIRST_DRAGON - 1:
        return BIG_FOUR_WINDS
    return 0


@cython.cfunc
def _pung_fans(pg: cython.p_int, n: cython.int, fans: cython.p_int) -> cython.void:
    """Fans among ``n`` pungs (tiles, ascending): a four-pung fan alone; else the first
    three-pung fan and one pair of the fourth pung with another; else every pair."""
    f: cython.int
    k: cython.int
    i: cython.int
    if n == 4:
        f = _four_pung_fan(pg[0], pg[1], pg[2], pg[3])
        if f:
            fans[f] += 1
            return
        for k in range(3, -1, -1):
            f = _three_pung_fan(pg[0 if k else 1], pg[1 if k > 1 else 2], pg[2 if k > 2 else 3])
            if f:
                fans[f] += 1
                for i in range(4):
                    if i != k:
                        f = _two_pung_fan(pg[i], pg[k])
                        if f:
                            fans[f] += 1
                            break
                return
    elif n == 3:
        f = _three_pung_fan(pg[0], pg[1], pg[2])
        if f:
            fans[f] += 1
            return
    for i in range(n):
        for k in range(i + 1, n):
            f = _two_pung_fan(pg[i], pg[k])
            if f:
                fans[f] += 1


@cython.cfunc
def _sort(a: cython.p_int, n: cython.int) -> cython.void:
    i: cython.int
    k: cython.int
    x: cython.int
    for i in range(1, n):
        x = a[i]
        k = i - 1
        while k >= 0 and a[k] > x:
            a[k + 1] = a[k]
            k -= 1
        a[k + 1] = x


# --- suits: decomposability of one suit, waits --------------------------------------------------

@cython.cfunc
def _numbered_sets(c: cython.p_int, base: cython.int, pair: cython.bint) -> cython.bint:
    """Can the suit at c[base .. base + 8] be split into sets (plus exactly one pair)?"""
    i: cython.int = 0
    ok: cython.bint
    while i < 9 and c[base + i] == 0:
        i += 1
    if i == 9:
        return not pair
    t: cython.int = base + i
    if pair and c[t] >= 2:
        c[t] -= 2
        ok = _numbered_sets(c, base, False)
        c[t] += 2
        if ok:
            return True
    if c[t] >= 3:
        c[t] -= 3
        ok = _numbered_sets(c, base, pair)
        c[t] += 3
        if ok:
            return True
    if i <= 6 and c[t + 1] > 0 and c[t + 2] > 0:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        ok = _numbered_sets(c, base, pair)
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1
        return ok
    return False


@cython.cfunc
def _suit_state(c: cython.p_int, s: cython.int) -> cython.int:
    """0: suit ``s`` splits into sets; 1: into sets and one pair; -1: neither."""
    n: cython.int = 0
    t: cython.int
    pairs: cython.int = 0
    if s == 3:
        for t in range(FIRST_HONOR, NUM_KINDS):
            if c[t] % 3 == 1:
                return -1
            if c[t] % 3 == 2:
                pairs += 1
        return pairs if pairs <= 1 else -1
    for t in range(s * 9, s * 9 + 9):
        n += c[t]
    if n % 3 == 1:
        return -1
    if n % 3 == 2:
        return 1 if _numbered_sets(c, s * 9, True) else -1
    return 0 if _numbered_sets(c, s * 9, False) else -1


@cython.cfunc
def _complete(c: cython.p_int) -> cython.bint:
    """Do the counts split into sets and exactly one pair?"""
    s: cython.int
    state: cython.int
    pairs: cython.int = 0
    for s in range(4):
        state = _suit_state(c, s)
        if state < 0:
            return False
        pairs += state
    return pairs == 1


@cython.cfunc
def _knitted_complete(c: cython.p_int) -> cython.bint:
    """Is it a knitted straight plus sets and a pair?"""
    k: cython.int
    i: cython.int
    ok: cython.bint
    for k in range(6):
        i = 0
        while i < 9 and c[_KNIT[k * 9 + i]] > 0:
            i += 1
        if i < 9:
            continue
        for i in range(9):
            c[_KNIT[k * 9 + i]] -= 1
        ok = _complete(c)
        for i in range(9):
            c[_KNIT[k * 9 + i]] += 1
        if ok:
            return True
    return False


@cython.cfunc
def _unique_wait(h: cython.p_int, rest: cython.p_int) -> cython.bint:
    """Does the hand before the winning tile (``rest``) wait on the winning tile only?

    The waits of the shapes the hand can take: sets and a pair, seven pairs (no melds), or for
    a hand with a knitted-straight reading, that shape. Computed once per hand.
    """
    if h[H_UNIQUE] < 0:
        if h[H_KNITTED]:
            h[H_UNIQUE] = _only_knitted_wait(rest, h[H_WIN])
        else:
            h[H_UNIQUE] = _only_regular_wait(rest, h[H_WIN], h[H_MELDS] == 0)
    return h[H_UNIQUE] == 1


@cython.cfunc
def _only_regular_wait(rest: cython.p_int, win: cython.int, pairs: cython.bint) -> cython.bint:
    state: cython.int[4] = [0] * 4
    s: cython.int
    t: cython.int
    r: cython.int
    odd: cython.int = 0
    odd_tile: cython.int = -1
    total: cython.int
    near: cython.bint
    if pairs:
        for t in range(NUM_KINDS):
            if rest[t] % 2 == 1:
                odd += 1
                odd_tile = t
        if odd == 1 and odd_tile != win:
            return False
    for s in range(4):
        state[s] = _suit_state(rest, s)
    for t in range(NUM_KINDS):
        if t == win:
            continue
        s = _suit(t)
        if s == 3:
            near = rest[t] > 0
        else:
            r = _rank(t)
            near = (rest[t] > 0 or (r >= 1 and rest[t - 1] > 0) or (r >= 2 and rest[t - 2] > 0)
                    or (r <= 7 and rest[t + 1] > 0) or (r <= 6 and rest[t + 2] > 0))
        if not near:
            continue
        rest[t] += 1
        total = _suit_state(rest, s)
        rest[t] -= 1
        if total < 0:
            continue
        for r in range(4):
            if r != s:
                if state[r] < 0:
                    total = -9
                total += state[r]
        if total == 1:
            return False
    return True


@cython.cfunc
def _only_knitted_wait(rest: cython.p_int, win: cython.int) -> cython.bint:
    t: cython.int
    ok: cython.bint
    for t in range(NUM_KINDS):
        if t == win:
            continue
        rest[t] += 1
        ok = _knitted_complete(rest)
        rest[t] -= 1
        if ok:
            return False
    return True


# --- scoring ------------------------------------------------------------------------------------

@cython.cfunc
def _finish(fans: cython.p_int) -> cython.int:
    """Apply the 不计 lists of the fans that count (highest first), 无番和, and add up."""
    i: cython.int
    k: cython.int
    total: cython.int = 0
    for i in range(1, TABLE_SIZE):
        if fans[i] > 0:
            for k in range(_EXCL_START[i], _EXCL_START[i + 1]):
                fans[_EXCL[k]] = 0
    for i in range(1, TABLE_SIZE):
        total += _POINTS[i] * fans[i]
    if total == 0:
        fans[CHICKEN_HAND] = 1
        total = _POINTS[CHICKEN_HAND]
    return total


@cython.cfunc
def _hand_fans(h: cython.p_int, total: cython.p_int, rest: cython.p_int, mk: cython.p_int,
               mo: cython.p_int, fans: cython.p_int) -> cython.void:
    """Fans of the whole hand, the same for every reading: the way it won, concealment, kongs,
    suits, tile sets, 四归一, 九莲宝灯."""
    flags: cython.int = h[H_FLAGS]
    drawn: cython.bint = (flags & SELF_DRAWN) != 0
    nm: cython.int = h[H_MELDS]
    i: cython.int
    t: cython.int
    exposed: cython.int = 0
    exposed_kongs: cython.int = 0
    concealed_kongs: cython.int = 0
    hogs: cython.int = 0
    mask: cython.ulonglong = 0
    suits: cython.int = 0
    if flags & FOURTH_TILE:
        fans[LAST_TILE] = 1
    if drawn:
        fans[SELF_DRAWN_FAN] = 1
        if flags & WALL_LAST:
            fans[LAST_TILE_DRAW] = 1
        if flags & KONG_RELATED:
            fans[OUT_WITH_REPLACEMENT] = 1
    else:
        if flags & WALL_LAST:
            fans[LAST_TILE_CLAIM] = 1
        if flags & KONG_RELATED:
            fans[ROBBING_THE_KONG] = 1
    for i in range(nm):
        if mo[i] != 0:
            exposed += 1
        if mk[i] == KONG:
            if mo[i] != 0:
                exposed_kongs += 1
            else:
                concealed_kongs += 1
    if exposed == 0:
        fans[FULLY_CONCEALED if drawn else CONCEALED_HAND] = 1
    elif exposed == 4 and not drawn:
        fans[MELDED_HAND] = 1
    for i in range(2):
        t = _KONG_FAN[(exposed_kongs * 5 + concealed_kongs) * 2 + i]
        if t:
            fans[t] += 1
    for t in range(NUM_KINDS):
        if total[t]:
            mask |= _bit(t)
            if total[t] == 4:
                hogs += 1
    fans[TILE_HOG] = hogs - exposed_kongs - concealed_kongs
    for i in range(3):
        if (mask >> (9 * i)) & _SUIT_MASK:
            suits += 1
    if (mask & _HONOR_MASK) == 0:
        fans[NO_HONORS] = 1
    if suits == 2:
        fans[ONE_VOIDED_SUIT] = 1
    elif suits == 1:
        fans[FULL_FLUSH if (mask & _HONOR_MASK) == 0 else HALF_FLUSH] = 1
    elif suits == 3 and (mask & _WIND_MASK) and (mask & _DRAGON_MASK):
        fans[ALL_TYPES] = 1
    for i in range(_NUM_SET_FANS):
        if (mask & ~_SET_MASK[i]) == 0:
            fans[_SET_FAN[i]] = 1
    if nm == 0 and _nine_gates(rest, h[H_WIN]):
        fans[NINE_GATES] = 1
        h[H_NINE_GATES] = 1


@cython.cfunc
def _nine_gates(rest: cython.p_int, win: cython.int) -> cython.bint:
    """Before the winning tile: 1112345678999 of the winning tile's suit."""
    base: cython.int = _suit(win) * 9
    r: cython.int
    if win >= FIRST_HONOR or rest[base] != 3 or rest[base + 8] != 3:
        return False
    for r in range(1, 8):
        if rest[base + r] != 1:
            return False
    return True


@cython.cfunc
def _score_groups(g: cython.p_int, h: cython.p_int, rest: cython.p_int, base: cython.p_int,
                  fans: cython.p_int) -> cython.int:
    """Points of one reading as sets and a pair (or a knitted straight, a set and a pair)."""
    chows: cython.int[4] = [0] * 4
    pungs: cython.int[4] = [0] * 4
    nchow: cython.int = 0
    npung: cython.int = 0
    i: cython.int
    t: cython.int
    kind: cython.int
    win: cython.int = h[H_WIN]
    drawn: cython.bint = (h[H_FLAGS] & SELF_DRAWN) != 0
    pair: cython.int = g[9]
    concealed: cython.int = 0
    win_in_chow: cython.bint = False
    win_pung: cython.bint = False
    winds: cython.int = 0
    claimed: cython.int = 0
    traits: cython.int = T_TERMINAL | T_FIVE | T_EVEN | T_PUNG | T_CHOW | T_NUMBERED | T_ANY
    pair_traits: cython.int = T_ANY
    wait: cython.int = 0
    for i in range(TABLE_SIZE):
        fans[i] = base[i]
    for i in range(4):
        kind = g[i]
        t = g[5 + i]
        if kind == CHOW:
            chows[nchow] = t
            nchow += 1
            traits &= _chow_traits(t)
            if g[10 + i] == 0:
                if t == win:
                    wait |= 2
                elif t - 1 == win or t + 1 == win:
                    wait |= 1
                if t - 1 <= win <= t + 1:
                    win_in_chow = True
        elif kind == KNIT:
            traits &= T_CHOW | T_ANY
        else:
            pungs[npung] = t
            npung += 1
            traits &= _pung_traits(t)
            if g[10 + i] == 0 and kind == PUNG:
                concealed += 1
                if t == win:
                    win_pung = True
            if kind == KONG and g[10 + i] == 0:
                concealed += 1
            if _is_dragon(t):
                fans[DRAGON_PUNG] += 1
            elif _is_terminal_or_honor(t):
                fans[TERMINAL_PUNG] += 1
                if _is_wind(t):
                    winds += 1
                    if t - FIRST_HONOR == h[H_PREVALENT]:
                        fans[PREVALENT_WIND] = 1
                    if t - FIRST_HONOR == h[H_SEAT]:
                        fans[SEAT_WIND] = 1
                    if t - FIRST_HONOR == h[H_PREVALENT] or t - FIRST_HONOR == h[H_SEAT]:
                        claimed += 1
    # a pung completed by a discard is an exposed pung unless the tile may sit in a chow
    if win_pung and not drawn and not win_in_chow:
        concealed -= 1
    if _CONCEALED_PUNG_FAN[concealed]:
        fans[_CONCEALED_PUNG_FAN[concealed]] = 1
    # pungs of winds that make a wind fan are not also 幺九刻, nor is one of 九莲宝灯's
    if winds >= 3:
        claimed = winds
    claimed += h[H_NINE_GATES]
    fans[TERMINAL_PUNG] -= min(claimed, fans[TERMINAL_PUNG])
    _sort(chows, nchow)
    _sort(pungs, npung)
    if nchow == 4 and _terminal_chows(chows, pair, fans):
        pass
    else:
        _chow_fans(chows, nchow, fans)
    _pung_fans(pungs, npung, fans)
    if fans[TWO_DRAGON_PUNGS] and _is_dragon(pair):
        fans[LITTLE_THREE_DRAGONS] = 1
    if fans[BIG_THREE_WINDS] and _is_wind(pair):
        fans[LITTLE_FOUR_WINDS] = 1
    # pack traits: every set and the pair
    if pair < FIRST_HONOR:
        pair_traits |= T_NUMBERED
        if _rank(pair) % 2 == 1:
            pair_traits |= T_EVEN
        if _rank(pair) == 4:
            pair_traits |= T_FIVE
    if _is_terminal_or_honor(pair):
        pair_traits |= T_TERMINAL
    for i in range(_NUM_TRAIT_FANS):
        if (traits & _TRAIT_SETS[i]) and (pair_traits & _TRAIT_PAIR[i]):
            fans[_TRAIT_FAN[i]] = 1
    # waits: edge beats closed beats single, on a hand that waits for one tile only
    if pair == win:
        wait |= 4
    if wait and _unique_wait(h, rest):
        if wait & 1:
            fans[EDGE_WAIT] = 1
        elif wait & 2:
            fans[CLOSED_WAIT] = 1
        else:
            fans[SINGLE_WAIT] = 1
    return _finish(fans)


@cython.cfunc
@cython.inline
def _chow_traits(t: cython.int) -> cython.int:
    r: cython.int = _rank(t)
    traits: cython.int = T_CHOW | T_NUMBERED | T_ANY
    if r == 1 or r == 7:
        traits |= T_TERMINAL
    if 3 <= r <= 5:
        traits |= T_FIVE
    return traits


@cython.cfunc
@cython.inline
def _pung_traits(t: cython.int) -> cython.int:
    traits: cython.int = T_PUNG | T_ANY
    if _is_terminal_or_honor(t):
        traits |= T_TERMINAL
    if t < FIRST_HONOR:
        traits |= T_NUMBERED
        if _rank(t) % 2 == 1:
            traits |= T_EVEN
        if _rank(t) == 4:
            traits |= T_FIVE
    return traits


@cython.cfunc
def _terminal_chows(ch: cython.p_int, pair: cython.int, fans: cython.p_int) -> cython.bint:
    """一色双龙会 / 三色双龙会: 123 and 789 chows twice over, a pair of 5s; they take the place
    of every other chow fan."""
    low: cython.int[4] = [0] * 4
    high: cython.int[4] = [0] * 4
    i: cython.int
    s: cython.int
    ps: cython.int = _suit(pair)
    if pair >= FIRST_HONOR or _rank(pair) != 4:
        return False
    for i in range(4):
        s = _suit(ch[i])
        if _rank(ch[i]) == 1:
            low[s] += 1
        elif _rank(ch[i]) == 7:
            high[s] += 1
        else:
            return False
    if low[ps] == 2 and high[ps] == 2:
        fans[PURE_TERMINAL_CHOWS] = 1
        return True
    if low[ps] == 0 and high[ps] == 0:
        for s in range(3):
            if s != ps and (low[s] != 1 or high[s] != 1):
                return False
        fans[THREE_SUITED_TERMINAL_CHOWS] = 1
        return True
    return False


@cython.cfunc
def _consider(h: cython.p_int, fans: cython.p_int, points: cython.int,
              best: cython.p_int) -> cython.void:
    """Keep the reading with the most points (principle 4). On a tie, as the reference
    calculator does: a later reading with 一色三同顺 or 三同刻 wins, and on a seven-pairs hand a
    later sets-and-pair reading wins."""
    i: cython.int
    if points > h[H_BEST] or (points == h[H_BEST] and (
            fans[PURE_TRIPLE_CHOW] or fans[TRIPLE_PUNG] or h[H_SEVEN_PAIRS])):
        h[H_BEST] = points
        for i in range(TABLE_SIZE):
            best[i] = fans[i]


@cython.cfunc
def _search(c: cython.p_int, start: cython.int, slot: cython.int, pair_done: cython.bint,
            g: cython.p_int, h: cython.p_int, rest: cython.p_int, base: cython.p_int,
            work: cython.p_int, best: cython.p_int) -> cython.void:
    """Every split of the concealed tiles ``c`` into sets (slots ``slot``..3) and a pair, each
    once: the lowest tile left starts a pung, a chow or the pair."""
    t: cython.int = start
    while t < NUM_KINDS and c[t] == 0:
        t += 1
    if t == NUM_KINDS:
        if slot == 4 and pair_done:
            _consider(h, work, _score_groups(g, h, rest, base, work), best)
        return
    if slot < 4 and c[t] >= 3:
        c[t] -= 3
        g[slot] = PUNG
        g[5 + slot] = t
        g[10 + slot] = 0
        _search(c, t, slot + 1, pair_done, g, h, rest, base, work, best)
        c[t] += 3
    if slot < 4 and t < FIRST_HONOR and _rank(t) <= 6 and c[t + 1] > 0 and c[t + 2] > 0:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        g[slot] = CHOW
        g[5 + slot] = t + 1
        g[10 + slot] = 0
        _search(c, t, slot + 1, pair_done, g, h, rest, base, work, best)
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1
    if not pair_done and c[t] >= 2:
        c[t] -= 2
        g[4] = PAIR
        g[9] = t
        g[14] = 0
        _search(c, t, slot, True, g, h, rest, base, work, best)
        c[t] += 2


@cython.cfunc
def _special_shapes(c: cython.p_int, h: cython.p_int, base: cython.p_int, work: cython.p_int,
                    best: cython.p_int) -> cython.void:
    """Seven pairs, thirteen orphans, 全不靠 / 七星不靠 (a hand without melds)."""
    t: cython.int
    k: cython.int
    i: cython.int
    odd: cython.bint = False
    single: cython.bint = True
    orphans: cython.int = 0
    numbered: cython.int = 0
    honors: cython.int = 0
    for t in range(NUM_KINDS):
        if c[t] % 2 == 1:
            odd = True
        if c[t] > 1:
            single = False
        if c[t] and _is_terminal_or_honor(t):
            orphans += 1
        if c[t] and t >= FIRST_HONOR:
            honors += 1
    if not odd:
        h[H_SEVEN_PAIRS] = 1
        for i in range(TABLE_SIZE):
            work[i] = base[i]
        work[SEVEN_SHIFTED_PAIRS if _shifted_pairs(c) else SEVEN_PAIRS] = 1
        _consider(h, work, _finish(work), best)
        return
    if orphans == 13:
        for t in range(NUM_KINDS):
            if c[t] and not _is_terminal_or_honor(t):
                orphans = 0
        if orphans == 13:
            for i in range(TABLE_SIZE):
                work[i] = base[i]
            work[THIRTEEN_ORPHANS] = 1
            _consider(h, work, _finish(work), best)
        return
    if not single:
        return
    for k in range(6):
        numbered = 0
        for i in range(9):
            numbered += c[_KNIT[k * 9 + i]]
        if numbered + honors == 14:
            for i in range(TABLE_SIZE):
                work[i] = base[i]
            work[GREATER_HONORS_KNITTED if honors == 7 else LESSER_HONORS_KNITTED] = 1
            if numbered == 9:
                work[KNITTED_STRAIGHT] = 1
            _consider(h, work, _finish(work), best)
            return


@cython.cfunc
def _shifted_pairs(c: cython.p_int) -> cython.bint:
    """Seven pairs of seven consecutive tiles of one suit."""
    t: cython.int
    run: cython.int = 0
    for t in range(FIRST_HONOR):
        if c[t] == 2 and (run == 0 or _rank(t) != 0):
            run += 1
        elif c[t] == 2:
            run = 1
        else:
            run = 0
        if run == 7:
            return True
    return False


@cython.cfunc
def _knitted_readings(c: cython.p_int, g: cython.p_int, h: cython.p_int, rest: cython.p_int,
                      base: cython.p_int, work: cython.p_int, best: cython.p_int) -> cython.void:
    """组合龙 + a set + a pair (at most one meld, the set)."""
    k: cython.int
    i: cython.int
    nm: cython.int = h[H_MELDS]
    for k in range(6):
        i = 0
        while i < 9 and c[_KNIT[k * 9 + i]] > 0:
            i += 1
        if i < 9:
            continue
        h[H_KNITTED] = 1
        for i in range(9):
            c[_KNIT[k * 9 + i]] -= 1
        for i in range(nm, nm + 3):
            g[i] = KNIT
            g[5 + i] = -1
            g[10 + i] = 0
        base[KNITTED_STRAIGHT] = 1
        _search(c, 0, nm + 3, False, g, h, rest, base, work, best)
        base[KNITTED_STRAIGHT] = 0
        for i in range(9):
            c[_KNIT[k * 9 + i]] += 1


@cython.cfunc
def _calculate(mk: cython.p_int, mt: cython.p_int, mo: cython.p_int, nm: cython.int,
               cc: cython.p_int, nc: cython.int, win: cython.int, flags: cython.int,
               seat: cython.int, prevalent: cython.int, h: cython.p_int,
               best: cython.p_int) -> cython.int:
    """Validate a described hand and find its best reading into ``best``; a status code."""
    standing: cython.int[34] = [0] * 34
    total: cython.int[34] = [0] * 34
    rest: cython.int[34] = [0] * 34
    g: cython.int[15] = [0] * 15
    base: cython.int[82] = [0] * 82
    work: cython.int[82] = [0] * 82
    i: cython.int
    t: cython.int
    has_kong: cython.bint = False
    for i in range(16):
        h[i] = 0
    h[H_UNIQUE] = -1
    h[H_BEST] = -1
    if nm < 0 or nm > 4 or nc != 13 - 3 * nm:
        return BAD_COUNT
    if seat < 0 or seat > 3 or prevalent < 0 or prevalent > 3:
        return BAD_WIND
    if win < 0 or win >= NUM_KINDS:
        return BAD_TILE
    for i in range(nc):
        if cc[i] < 0 or cc[i] >= NUM_KINDS:
            return BAD_TILE
        standing[cc[i]] += 1
        rest[cc[i]] += 1
    standing[win] += 1
    for i in range(nm):
        t = mt[i]
        h[H_DETAIL] = i
        if t < 0 or t >= NUM_KINDS:
            return BAD_MELD
        if mk[i] == CHOW:
            if t >= FIRST_HONOR or _rank(t) == 0 or _rank(t) == 8 or mo[i] < 1 or mo[i] > 3:
                return BAD_MELD
            total[t - 1] += 1
            total[t] += 1
            total[t + 1] += 1
        elif mk[i] == PUNG:
            if mo[i] < 1 or mo[i] > 3:
                return BAD_MELD
            total[t] += 3
        elif mk[i] == KONG:
            if mo[i] < 0 or mo[i] > 3:
                return BAD_MELD
            total[t] += 4
            has_kong = True
        else:
            return BAD_MELD
        g[i] = mk[i]
        g[5 + i] = t
        g[10 + i] = 1 if mo[i] != 0 else 0
    h[H_DETAIL] = 0
    for t in range(NUM_KINDS):
        total[t] += standing[t]
        if total[t] > 4:
            h[H_DETAIL] = t
            return BAD_COPIES
    # flags the hand itself disproves (or proves), as the reference calculator corrects them
    if standing[win] != 1:
        flags &= ~FOURTH_TILE
    if total[win] - standing[win] == 3:
        flags |= FOURTH_TILE
    if flags & KONG_RELATED:
        if flags & SELF_DRAWN:
            if not has_kong:
                flags &= ~KONG_RELATED
        elif total[win] != 1:
            flags &= ~KONG_RELATED
    h[H_WIN] = win
    h[H_FLAGS] = flags
    h[H_SEAT] = seat
    h[H_PREVALENT] = prevalent
    h[H_MELDS] = nm
    _hand_fans(h, total, rest, mk, mo, base)
    if nm == 0:
        _special_shapes(standing, h, base, work, best)
    if nm <= 1:
        _knitted_readings(standing, g, h, rest, base, work, best)
    if not h[H_KNITTED]:
        _search(standing, 0, nm, False, g, h, rest, base, work, best)
    if h[H_BEST] < 0:
        return NOT_WIN
    return OK


# --- entry points -------------------------------------------------------------------------------

STATUS_NAMES = ("OK", "NOT_WIN", "UNDER_8", "BAD_COUNT", "BAD_COPIES", "BAD_MELD", "BAD_TILE",
                "BAD_WIND", "BAD_FLOWERS", "BAD_FIELD")


@cython.ccall
def evaluate(melds, concealed, win_tile, self_drawn, fourth_tile, kong_related, wall_last,
             seat_wind, prevalent_wind, flowers) -> tuple:
    """(status name, message, points, ((fan id, count), ...)) for a hand of tile ids: ``melds``
    (kind 1 CHI / 2 PENG / 3 GANG, tile, offer) triples, ``concealed`` ids, the flags as
    booleans. Points exclude flowers; the minimum is not applied. Status "OK", "NOT_WIN" or one
    of the BAD_* names of a malformed hand."""
    mk: cython.int[4] = [0] * 4
    mt: cython.int[4] = [0] * 4
    mo: cython.int[4] = [0] * 4
    cc: cython.int[14] = [0] * 14
    h: cython.int[16] = [0] * 16
    best: cython.int[82] = [0] * 82
    nm: cython.int = len(melds)
    nc: cython.int = len(concealed)
    i: cython.int
    status: cython.int
    flags: cython.int = ((SELF_DRAWN if self_drawn else 0) | (FOURTH_TILE if fourth_tile else 0)
                         | (KONG_RELATED if kong_related else 0) | (WALL_LAST if wall_last else 0))
    if nm > 4 or nc > 14:
        return _status(BAD_COUNT, 0)
    if _clip(flowers) < 0 or _clip(flowers) > MAX_FLOWERS:
        return _status(BAD_FLOWERS, 0)
    for i in range(nm):
        kind, tile, offer = melds[i]
        mk[i] = _clip(kind)
        mt[i] = _clip(tile)
        mo[i] = _clip(offer)
    for i in range(nc):
        cc[i] = _clip(concealed[i])
    status = _calculate(mk, mt, mo, nm, cc, nc, _clip(win_tile), flags, _clip(seat_wind),
                        _clip(prevalent_wind), h, best)
    if status != OK:
        return _status(status, h[H_DETAIL])
    return ("OK", "", h[H_BEST], tuple([(i, best[i]) for i in range(1, TABLE_SIZE) if best[i]]))


@cython.cfunc
def _clip(value: object) -> cython.int:
    """An int argument as a C int; -1 (always invalid) for anything else or out of range."""
    if not isinstance(value, int) or value < -1 or value > 99:
        return -1
    return value


def _status(status: int, detail: int) -> tuple:
    return (STATUS_NAMES[status], error_message(status, detail), 0, ())


@cython.ccall
def answer(request) -> dict:
    """One ``referee fan --jsonl`` request (a dict) -> its answer dict (see ``mcr.fan_answer``)."""
    mk: cython.int[4] = [0] * 4
    mt: cython.int[4] = [0] * 4
    mo: cython.int[4] = [0] * 4
    cc: cython.int[14] = [0] * 14
    h: cython.int[16] = [0] * 16
    best: cython.int[82] = [0] * 82
    nm: cython.int
    nc: cython.int
    i: cython.int
    tile: cython.int
    status: cython.int
    flags: cython.int
    win: cython.int
    seat: cython.int
    prevalent: cython.int
    flowers: cython.int
    points: cython.int
    req: dict
    if not isinstance(request, dict):
        return _error(BAD_FIELD, -1, "a hand is a JSON object")
    req = request
    melds = req.get("melds", ())
    concealed = req.get("concealed")
    if not isinstance(melds, (list, tuple)):
        return _error(BAD_FIELD, -1, "melds must be a list of [TYPE, TILE, OFFER]")
    if not isinstance(concealed, (list, tuple)):
        return _error(BAD_FIELD, -1, "concealed must be a list of tiles")
    nm = len(melds)
    nc = len(concealed)
    if nm > 4 or nc > 14:
        return _error(BAD_COUNT, 0, "")
    for i in range(nm):
        meld = melds[i]
        if not isinstance(meld, (list, tuple)) or len(meld) != 3:
            return _error(BAD_MELD, i, "")
        offer = meld[2]
        mk[i] = _lookup(MELD_KINDS, meld[0])
        mt[i] = _lookup(HAND_TILE_IDS, meld[1])
        if (mk[i] < 0 or mt[i] < 0 or not isinstance(offer, int) or isinstance(offer, bool)
                or offer < 0 or offer > 3):
            return _error(BAD_MELD, i, "")
        mo[i] = offer
    for i in range(nc):
        tile = _lookup(HAND_TILE_IDS, concealed[i])
        if tile < 0:
            return _error(BAD_TILE, -1, f"unknown tile {str(concealed[i])[:40]!r} in concealed")
        cc[i] = tile
    win = _lookup(HAND_TILE_IDS, req.get("win_tile"))
    if win < 0:
        return _error(BAD_TILE, -1, f"unknown win_tile {str(req.get('win_tile'))[:40]!r}")
    flags = (_flag(req, "self_drawn", SELF_DRAWN) | _flag(req, "fourth_tile", FOURTH_TILE)
             | _flag(req, "kong_related", KONG_RELATED) | _flag(req, "wall_last", WALL_LAST))
    if flags < 0:
        return _error(BAD_FIELD, -1, "self_drawn, fourth_tile, kong_related and wall_last are "
                      "true or false")
    seat = _small_int(req, "seat_wind", 3)
    prevalent = _small_int(req, "prevalent_wind", 3)
    flowers = _small_int(req, "flowers", MAX_FLOWERS)
    if seat < 0 or prevalent < 0:
        return _error(BAD_WIND, -1, "")
    if flowers < 0:
        return _error(BAD_FLOWERS, -1, "")
    status = _calculate(mk, mt, mo, nm, cc, nc, win, flags, seat, prevalent, h, best)
    if status != OK:
        return _error(status, h[H_DETAIL], "")
    points = h[H_BEST]
    if points < MIN_POINTS:
        return _error(UNDER_8, points, "")
    names_en: tuple = FAN_NAMES_EN
    names_cn: tuple = FAN_NAMES_CN
    fans: list = []
    for i in range(1, TABLE_SIZE):
        if best[i]:
            fans.append([names_en[i], names_cn[i], _POINTS[i], best[i]])
    if flowers:
        fans.append([names_en[FLOWER_FAN], names_cn[FLOWER_FAN], 1, flowers])
    return {"fans": fans, "total": points + flowers}


@cython.cfunc
def _lookup(table: dict, name: object) -> cython.int:
    """The number ``table`` gives a name (a tile W1-9 T1-9 B1-9 F1-4 J1-3, a meld kind), else -1."""
    if not isinstance(name, str):
        return -1
    value = table.get(name)
    return -1 if value is None else value


@cython.cfunc
def _flag(request: dict, field: str, bit: cython.int) -> cython.int:
    """``bit`` if the field is true (or 1), 0 if false, 0 or absent, -128 otherwise."""
    value = request.get(field, False)
    if value is True:
        return bit
    if value is False:
        return 0
    if isinstance(value, int) and (value == 0 or value == 1):
        return bit if value == 1 else 0
    return -128


@cython.cfunc
def _small_int(request: dict, field: str, most: cython.int) -> cython.int:
    """An int field 0..most (default 0); -1 when it is anything else."""
    value = request.get(field, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value > most:
        return -1
    return value


ERROR_NAMES = {NOT_WIN: "NOT_WIN", UNDER_8: "UNDER_8"}  # every other status is BAD_INPUT


def error_message(status: int, detail: int) -> str:
    """The human message of a status code from ``evaluate``."""
    if status == NOT_WIN:
        return "the tiles do not form a winning hand"
    if status == UNDER_8:
        return f"{detail} points (flowers not counted); a win needs at least {MIN_POINTS}"
    if status == BAD_COUNT:
        return "at most 4 melds, and 13 - 3 x melds concealed tiles besides the winning tile"
    if status == BAD_COPIES:
        return f"more than four copies of {_NAMES[detail]}"
    if status == BAD_MELD:
        return (f"meld {detail + 1} is malformed: [\"CHI\", W2-W8/T2-T8/B2-B8 middle tile, 1-3], "
                "[\"PENG\", tile, 1-3] or [\"GANG\", tile, 0-3]")
    if status == BAD_TILE:
        return "tiles are W1-W9 T1-T9 B1-B9 F1-F4 J1-J3"
    if status == BAD_WIND:
        return "seat_wind and prevalent_wind are 0..3 (E S W N)"
    if status == BAD_FLOWERS:
        return f"flowers is 0..{MAX_FLOWERS}"
    return "malformed hand"


_NAMES = tuple(sorted(HAND_TILE_IDS, key=HAND_TILE_IDS.get))


def _error(status: int, detail: int, message: str) -> dict:
    return {"error": ERROR_NAMES.get(status, "BAD_INPUT"),
            "message": message or error_message(status, detail)}
