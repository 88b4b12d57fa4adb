"""川牌's options (the spec's C-1..C-14) and the deal (4.3, 4.5, 4.6, P-1): pure functions the
table (``game.py``) uses.

Options without a variant are fixed: C-1 pairs total 10 or 20, C-8 the claim priority
和 > 扛 > 碰/燕 > 摆 in claim order with the turner last, C-12 one unit from each other player, C-13
the 下家 of the discarder or turner turns next. Seats run counter-clockwise as s -> s + 1
(``clockwise``: s -> s - 1).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...errors import InvalidAction, Reason
from ...game import option


@dataclass(frozen=True, slots=True)
class Options:
    deck: str = option("84", "C-2, 2.3: 84 cards, or 84_plus_2_wild (four 3-point cards, 86)",
                       allowed=("84", "84_plus_2_wild"))
    same_points: bool = option(False, "C-3, 3.3: identical cards for 暗/碰/扛 have the same points "
                               "(default: the same pips)")
    winner_leads: bool = option(False, "C-4, 4.2: the winner is 头家 of the next hand (default: "
                                "counted by a turned card's points)")
    no_replacements: bool = option(False, "C-5, 4.4: no 偷牌 replacement cards are drawn")
    clockwise: bool = option(False, "C-6, 4.5: play goes clockwise")
    seventh_bonus: int = option(0, "C-7, 4.6: each other player pays the 7th player n units once "
                                "three cards identical to his card have passed (7 seats only)",
                                minimum=0, maximum=16)
    qi_is_peng: bool = option(False, "C-9, 5.2: 起 is another word for 碰; completing a 燕 with a "
                              "passing card ranks as 摆")
    no_violation_penalty: bool = option(False, "C-10, 5.7: a violation voids the hand, nobody pays")
    next_toujia: bool = option(False, "C-11, 6.2: after a void hand the next player becomes 头家")
    an_face_down: bool = option(False, "C-14, 3.3: laid 暗 lie face down, seen only by their owner")


def checked_options(options: Options, seats: int) -> Options:
    """The options, if they make sense for ``seats`` players.

    Raises:
        InvalidAction: BAD_OPTION, every problem named.
    """
    problems = []
    if not 2 <= seats <= 7:
        problems.append(f"川牌 is played by 2-7 players (4.1), not {seats}")
    if options.seventh_bonus and seats != 7:
        problems.append("seventh_bonus pays the 7th player (4.6): it needs 7 seats")
    if problems:
        raise InvalidAction("; ".join(problems), Reason.BAD_OPTION)
    return options


def turn_order(toujia: int, seats: int, clockwise: bool = False) -> tuple[int, ...]:
    """The seats in turn order from 头家 (4.5)."""
    step = -1 if clockwise else 1
    return tuple((toujia + step * i) % seats for i in range(seats))


def hand_sizes(seats: int) -> tuple[int, ...]:
    """Cards dealt to each player in turn order from 头家 (4.3, 4.6): 16, 15, 15, 15, then the
    extra players' 3 (five players), 5 and 3 (six), 5, 3 and 1 (seven)."""
    main = (16,) + (15,) * (min(seats, 4) - 1)
    extra = {4: (), 5: (3,), 6: (5, 3), 7: (5, 3, 1)}.get(seats, ())
    return main + extra


def deal(order: Sequence[int], toujia: int, seats: int,
         clockwise: bool = False) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """P-1: deal ``order`` (the shuffled cards, top first) one card at a time in turn order from
    头家, skipping a player who has his count. Returns (each seat's cards, the stock top first)."""
    sizes = hand_sizes(seats)
    seats_in_order = turn_order(toujia, seats, clockwise)
    hands: list[list[int]] = [[] for _ in range(seats)]
    pos = 0
    for rnd in range(max(sizes)):
        for seat, size in zip(seats_in_order, sizes):
            if rnd < size:
                hands[seat].append(order[pos])
                pos += 1
    return tuple(tuple(h) for h in hands), tuple(order[pos:])
