"""川牌's hand analysis (spec 3.1-3.6, 5.4-5.5, 5.6a, P-5, P-10, P-12): M(H), paired cards,
which cards may be discarded, and whether a passing card or a set in hand is compulsory.

A hand is a tuple of ``NUM_KINDS`` kind counts (``cards.py``'s kinds). M(H), the maximum number
of disjoint pairs (3.1-3.2), has a closed form: the natural pairs split by value families
({2, 12} with 8, 3 with 7, 4 with 6, 9 with 11, 5 with 5, 10 with 10) each give min(a, b) (or
n // 2), M0 in all, and the j ≤ 2 经牌 (never with each other) add
``min(M0 + j, (N + j) // 2, N) - M0`` for N natural cards.
"""
from __future__ import annotations

import functools
from typing import Sequence

from .cards import JING, NUM_KINDS, PARTNERS, POINTS, SEVENS, THREE

Hand = Sequence[int]

# good value -> bad value of a family (3.6): 2 and 12 against 8, 4 against 6, 11 against 9
GOOD = {2: 8, 12: 8, 4: 6, 11: 9}
BAD = {8: (2, 12), 6: (4,), 9: (11,)}


def by_points(hand: Hand) -> list[int]:
    """Natural card counts by point value 0..12 (经牌 not counted)."""
    values = [0] * 13
    for kind, n in enumerate(hand):
        if n and kind not in JING:
            values[POINTS[kind]] += n
    return values


def pair_count(hand: Hand) -> int:
    """M(H): the maximum number of disjoint pairs of the hand (5.4)."""
    v = by_points(hand)
    m0 = (min(v[2] + v[12], v[8]) + min(v[3], v[7]) + min(v[4], v[6]) + min(v[9], v[11])
          + v[5] // 2 + v[10] // 2)
    natural = sum(v)
    j = hand[JING[0]] + hand[JING[1]]
    return min(m0 + j, (natural + j) // 2, natural)


def _less(hand: Hand, kind: int) -> list[int]:
    out = list(hand)
    out[kind] -= 1
    return out


def _more(hand: Hand, kind: int) -> list[int]:
    out = list(hand)
    out[kind] += 1
    return out


def is_paired(hand: Hand, kind: int) -> bool:
    """A card of ``kind`` in the hand is paired: removing one lowers M(H) (5.4; per kind, P-10)."""
    return hand[kind] > 0 and pair_count(_less(hand, kind)) < pair_count(hand)


def discardable(hand: Hand) -> tuple[int, ...]:
    """The kinds the hand may discard (5.5): its unpaired kinds, or every kind when all are
    paired."""
    held = tuple(k for k in range(NUM_KINDS) if hand[k])
    free = tuple(k for k in held if not is_paired(hand, k))
    return free or held


def raises_pairs(hand: Hand, kind: int) -> bool:
    """5.4 a: a passing card of ``kind`` raises M."""
    return pair_count(_more(hand, kind)) > pair_count(hand)


def identical(kind: int, other: int, same_points: bool = False) -> bool:
    """3.3 (C-3): same pips, or with ``same_points`` the same points; a 经牌 only with itself."""
    if kind in JING or other in JING:
        return kind == other
    return kind == other or same_points and POINTS[kind] == POINTS[other]


def identical_count(hand: Hand, kind: int, same_points: bool = False) -> int:
    """Cards in the hand identical to ``kind`` (3.3)."""
    return sum(n for k, n in enumerate(hand) if n and identical(kind, k, same_points))


def family_counts(hand: Hand, points: int) -> tuple[int, int] | None:
    """(g, b), the good and bad cards of the 齐头 family of ``points`` in the hand (3.6), or None
    for a value outside the good/bad families (5, 7, 10, 3, 经牌)."""
    if points in GOOD:
        bad = GOOD[points]
    elif points in BAD:
        bad = points
    else:
        return None
    v = by_points(hand)
    return sum(v[g] for g in BAD[bad]), v[bad]


def qitou_compulsory(hand: Hand, points: int) -> bool | None:
    """5.4 c: True when 暗/碰/扛 of ``points`` are compulsory by the 齐头 table (b − g ≥ 1 or
    g − b ≥ 2), False when optional (齐头 b = g, or g − b = 1), None outside the families."""
    counts = family_counts(hand, points)
    if counts is None:
        return None
    g, b = counts
    return b - g >= 1 or g - b >= 2


def is_three_set(kind: int) -> bool:
    """3.5: 3-point cards and 经牌 form the one mixed set family."""
    return kind == THREE or kind in JING


def take_reason(hand: Hand, kind: int, *, same_points: bool = False,
                extra: bool = False) -> str | None:
    """Why a seat holding ``hand`` must take a passing card of ``kind`` (5.4 a-c, 5.6a, 3.5,
    P-5, P-10, P-12), as the rule's number, or None when taking is optional. The 过牌 rule (5.6)
    and priority (5.4 e) are the caller's; extra players (4.6) have no 5.4 a obligation."""
    if not extra and raises_pairs(hand, kind):
        return "5.4 a"
    if is_three_set(kind):
        held = hand[THREE] + hand[JING[0]] + hand[JING[1]]
        return "3.5" if held >= 3 else None
    if yan_possible(hand, kind) and not all(is_paired(hand, k) for k in SEVENS if k != kind):
        return "5.6a"
    same = identical_count(hand, kind, same_points)
    if same < 2:
        return None
    qitou = qitou_compulsory(hand, POINTS[kind])
    if qitou is not None:
        return "5.4 c" if qitou else None
    if same >= 3:
        return "5.4 c"  # 扛 of 5, 7 or 10 is compulsory
    if any(is_paired(hand, k) for k in range(NUM_KINDS) if hand[k] and identical(kind, k, same_points)):
        return None
    return "5.4 b"


def yan_possible(hand: Hand, kind: int) -> bool:
    """3.4: a passing 7-point card of ``kind`` completes a 燕 with the two other 7s in hand."""
    return kind in SEVENS and all(hand[k] for k in SEVENS if k != kind)


def _groups(hand: tuple[int, ...], first: int, same_points: bool):
    """Every set (as a kind tuple) holding one card of ``first``, the lowest kind in the hand:
    pairs (3.1-3.2), triples and quads of identical cards (3.3), 燕 (3.4), the 3.5 mixed sets."""
    held = [k for k in range(NUM_KINDS) if hand[k]]
    for other in held:
        if other >= first and (other != first or hand[first] >= 2):
            if first in JING or other in JING:
                if (first in JING) != (other in JING):
                    yield (first, other)
            elif POINTS[first] + POINTS[other] in (10, 20):
                yield (first, other)
    if is_three_set(first):
        pool = [k for k in (THREE,) + JING for _ in range(hand[k])]
        pool.remove(first)
        for size in (2, 3):
            for rest in _submultisets(pool, size):
                jings = sum(1 for k in (first,) + rest if k in JING)
                if size == 2 and jings > 1:
                    continue  # P-12: {经, 经, 3} is no triple; a triple holds one 经 at most
                yield (first,) + rest
        return
    same = [k for k in held if identical(first, k, same_points)]
    pool = [k for k in same for _ in range(hand[k] - (k == first))]
    for size in (2, 3):
        for rest in _submultisets(pool, size):
            yield (first,) + rest
    if first in SEVENS and all(hand[k] for k in SEVENS):
        yield SEVENS


def _submultisets(pool: list[int], size: int):
    seen = set()

    def walk(start: int, chosen: tuple[int, ...]):
        if len(chosen) == size:
            if chosen not in seen:
                seen.add(chosen)
                yield chosen
            return
        for i in range(start, len(pool)):
            yield from walk(i + 1, chosen + (pool[i],))

    yield from walk(0, ())


@functools.lru_cache(maxsize=65536)
def _complete(hand: tuple[int, ...], same_points: bool) -> bool:
    first = next((k for k in range(NUM_KINDS) if hand[k]), None)
    if first is None:
        return True
    for group in _groups(hand, first, same_points):
        rest = list(hand)
        for k in group:
            rest[k] -= 1
        if min(rest) >= 0 and _complete(tuple(rest), same_points):
            return True
    return False


def is_complete(hand: Hand, same_points: bool = False) -> bool:
    """6.1: the hand splits into pairs, triples, quads and 燕 with no card left over (laid sets
    are complete already; an unused 过 card is the caller's and prevents a win)."""
    return _complete(tuple(hand), same_points)


# --- 过牌 (5.6, P-6) --------------------------------------------------------------------------------

def guo_trigger(hand: Hand, kind: int, extra: bool = False) -> int | None:
    """5.6: the points value a passing card of ``kind`` flags when it passes a player whose hand
    holds no natural card of a partner value, or None (a passing 经牌, or an extra player)."""
    if extra or kind in JING:
        return None
    points = POINTS[kind]
    values = by_points(hand)
    return None if any(values[q] for q in PARTNERS[points]) else points


def guo_answers(pending: frozenset[int], kind: int) -> frozenset[int]:
    """P-6: the pending trigger values a drawn card of ``kind`` partners; when any, the card is
    laid face down as a 过 card answering them all (a 经牌 never does: it is no natural card)."""
    if kind in JING:
        return frozenset()
    return frozenset(p for p in pending if POINTS[kind] in PARTNERS[p])


def guo_obliges(answered: frozenset[int], kind: int) -> bool:
    """5.6: a passing card of ``kind`` must be taken with the 过 card that answered its value."""
    return kind not in JING and POINTS[kind] in answered


# --- lay-down (4.4, 3.3-3.5, 5.4 c, P-5, P-12, P-14) ----------------------------------------------

def _classes(hand: Hand, same_points: bool) -> list[tuple[int, ...]]:
    """The hand's natural cards by identity class (3.3), each as its kinds (one per card)."""
    classes: dict[int, list[int]] = {}
    for kind, n in enumerate(hand):
        if n and not is_three_set(kind):
            key = POINTS[kind] if same_points else kind
            classes.setdefault(key, []).extend([kind] * n)
    return [tuple(kinds) for kinds in classes.values()]


def laydown_sets(hand: Hand, same_points: bool = False) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """The sets the hand can lay down in 4.4, each with whether it is compulsory: 暗 of three
    identical cards and 扛 of four (P-5: four are only a 扛), compulsory unless the 齐头 table
    (5.4 c) makes them optional; 燕 always compulsory; {经, 3, 3} an optional 暗 and any four of
    {经, 3} a compulsory 扛 (3.5, P-12). Overlapping sets are all listed: the player chooses the
    order (P-14)."""
    out: list[tuple[tuple[int, ...], bool]] = []
    for kinds in _classes(hand, same_points):
        if len(kinds) >= 3:
            qitou = qitou_compulsory(hand, POINTS[kinds[0]])
            compulsory = True if qitou is None else qitou
            out.append((kinds[:4] if len(kinds) >= 4 else kinds[:3], compulsory))
    if all(hand[k] for k in SEVENS):
        out.append((SEVENS, True))
    threes, jings = hand[THREE], [k for k in JING if hand[k]]
    if threes + len(jings) >= 4:
        out.append(((THREE,) * threes + tuple(jings[:4 - threes]), True))
    elif threes == 3:
        out.append(((THREE,) * 3, False))
    elif threes == 2 and jings:
        out.append(((THREE, THREE, jings[0]), False))
    return tuple(out)
