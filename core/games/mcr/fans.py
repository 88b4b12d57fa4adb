"""国标麻将 Chinese Official Mahjong (MCR): tiles and the fan calculator, as implemented.

Spec: rules/mcr.md (rules 1, 8-12); seed: 中国麻将竞赛规则 (the 81-fan table, its "不计" notes and
the five counting principles). Where the excerpt is silent we count as the community calculators
do (the reference is PyMahjongGB's C++ core), and say so below. The refereed whole hand comes
later; this module is the stateless part.

Tiles (rule 1). Ids: 0-8 W1-W9 万, 9-17 T1-T9 条, 18-26 B1-B9 饼, 27-30 F1-F4 东南西北,
31-33 J1-J3 中发白, 34-41 H1-H8 flowers 春夏秋冬梅兰竹菊 (in the wall only; a hand never holds
one, it only counts them). Text ``W1 T9 F3 J1 H2``; ``parse_tiles``/``format_tiles`` round-trip.
Winds as numbers: 0..3 = E S W N.

A described hand (rule 12, ``Hand``): ``melds`` ``[TYPE, TILE, OFFER]``: ``CHI`` with the middle
tile (W2-W8, T2-T8, B2-B8) and k = 1..3 the claimed tile counted from the lowest; ``PENG`` with
p = 1 left, 2 opposite, 3 right; ``GANG`` with p = 1..3 (exposed: claimed or added) or p = 0
(concealed). ``concealed``: the 13 - 3 x melds standing tiles, without the winning tile;
``win_tile``; the flags ``self_drawn``, ``fourth_tile`` (和绝张), ``kong_related`` (with
self_drawn 杠上开花, else 抢杠和), ``wall_last`` (with self_drawn 妙手回春, else 海底捞月);
``seat_wind``, ``prevalent_wind`` 0..3; ``flowers`` 0..8.

Refusals, never a score for an impossible hand: BAD_INPUT (``InvalidAction``): more than four
copies of a tile (melds included), a wrong number of tiles or melds, an unknown tile, a malformed
meld (CHI on a 1, 9 or honor, PENG p = 0, offers outside the ranges), winds outside 0..3, flowers
outside 0..8; NOT_WIN (``IllegalAction``): no winning shape; UNDER_8 (``IllegalAction``): the
best reading scores under 8 points, flowers not counted (rule 10). Flags that the hand itself
disproves are dropped, as the reference does: 和绝张 when the hand holds another copy of the
winning tile (and it is set when three copies lie in the hand's own melds), 杠上开花 without a
kong, 抢杠和 when the hand holds another copy of the robbed tile.

Winning shapes (rule 8): four sets and a pair (melds are sets); 七对 (no melds; four of a kind
is two pairs); 十三幺; 全不靠 / 七星不靠 (14 different tiles: honors and tiles of one knitted
straight; 七星不靠 holds all seven honors; with all nine knitted tiles 全不靠 adds 组合龙); 组合龙
and a set and a pair (at most one meld, the set). Every reading of the hand is scored and the
highest total kept (principle 4, 就高不就低); on a tie the reference's choice is kept (a reading
with 一色三同顺 or 三同刻, and on a seven-pairs hand a sets-and-pair reading, wins the tie).

Counting a reading (rule 9):
- Fans of the whole hand: the way it won (自摸 和绝张 妙手回春 海底捞月 杠上开花 抢杠和),
  concealment (no exposed meld: 不求人 when self-drawn, else 门前清; four exposed melds won on a
  discard: 全求人), kongs (明杠 1, 暗杠 2, 双明杠, 双暗杠, 三杠, 四杠; one exposed and one concealed
  kong score 明杠 + 暗杠 = 3: the 81-fan table has no 明暗杠), suits (无字 缺一门 混一色 清一色
  五门齐), tile sets (mcr_fans.TILE_SET_FANS: 绿一色 推不倒 字一色 清幺九 混幺九 断幺 全大 全中
  全小 大于五 小于五), 四归一 (four copies not in a kong), 九莲宝灯 (no melds, 1112345678999 of
  the winning tile's suit before it).
- Fans of the sets: pack traits (mcr_fans.PACK_TRAIT_FANS: 碰碰和 平和 全带幺 全带五 全双刻);
  暗刻 (concealed pungs and concealed kongs: 双暗刻 三暗刻 四暗刻; won on a discard, the pung of
  the winning tile is exposed unless that tile may complete a concealed chow of the reading);
  箭刻 per dragon pung; 幺九刻 per pung of terminals or winds, except wind pungs that score
  圈风刻/门风刻 or lie in 三风刻/小四喜/大四喜, and one of 九莲宝灯's; 双箭刻 or 三风刻 with a
  dragon or wind pair become 小三元 or 小四喜; 一色双龙会 / 三色双龙会 replace every other chow fan.
- Chows and pungs in combination (principles 2, 3, 5: 不拆移, 不得相同, 套算一次, as the community
  calculators apply them): a four-chow fan (一色四同顺, 一色四步高) alone; else the first
  three-chow fan (清龙 一色三步高 一色三同顺 花龙 三色三同顺 三色三步高) and what the fourth chow
  adds once (一般高, else 喜相逢, 连六, 老少副); else the two-chow fans (一般高 喜相逢 连六 老少副),
  at most 3 among four chows (one fewer per chow related to no other) or 2 among three, repeats
  dropped first. Pungs likewise: a four-pung fan (一色四节高, 大四喜) alone; else a three-pung
  fan (一色三节高 三色三节高 三同刻 三风刻 大三元) and the fourth pung's first pair fan; else every
  pair (双同刻, 双箭刻).
- Waits: 边张 / 坎张 / 单钓将 only when the hand before the winning tile waits on that one tile
  kind (over all its shapes); then 边张 if the tile can end a concealed chow of the reading, else
  坎张 if it can be a concealed chow's middle, else 单钓将 if it can be the pair (one of them).
- 圈风刻 / 门风刻 per wind pung; 无番和 when nothing else counts.
- Not counted with (principle 1, 不重复): each fan's 不计 list in mcr_fans.FANS: the seed's lists
  completed with what they imply, as the community calculators count. The lists apply from the
  highest fan down, and a fan struck out by a higher one strikes out nothing (四暗刻 strikes
  不求人, so 自摸 stays). Readings of the seed's notes: 清幺九's "同刻" is 双同刻 (三同刻 counts);
  七对, 十三幺, 全不靠, 七星不靠, 连七对 and 九莲宝灯 also exclude 门前清/不求人 (自摸 stays).
- Flowers (花牌, fan 81): one point each, reported as a fan and in the total, never toward the
  8-point minimum.

Known deviations of the reference calculator (PyMahjongGB), kept out: its non-standard 明暗杠 (5
points for one exposed and one concealed kong; we score 明杠 1 + 暗杠 2); it scores impossible
hands (five copies of a tile, CHI W1, PENG p = 0 taken as concealed, any wind or flower number);
it returns hands under 8 points. Otherwise the differential tests find the same fans.

The search and the counting run in ``mcr_hot.py`` (compiled by Cython).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Iterable

from ... import speedups
from ...errors import IllegalAction, InvalidAction, Reason, quote
from .fan_table import FANS, FLOWER_FAN, KNITTED_STRAIGHTS, NUM_KINDS, TILE_IDS, TILE_NAMES

hot = speedups.load("games.mcr.hot")

MIN_POINTS = 8
FLOWER_TILES = tuple(range(NUM_KINDS, NUM_KINDS + 8))  # H1-H8

# the game's own reasons (rules 6, 10)
NOT_WIN = "NOT_WIN"
UNDER_8 = "UNDER_8"
_BAD_INPUT_REASONS = {"BAD_TILE": Reason.UNKNOWN_CARD, "BAD_COPIES": Reason.DUPLICATE_CARD}
_FLAGS = ("self_drawn", "fourth_tile", "kong_related", "wall_last")
_NUMBERS = ("seat_wind", "prevalent_wind", "flowers")


# --- tiles ----------------------------------------------------------------------------------------

def parse_tile(text: str) -> int:
    """``"W1"`` -> 0 ... ``"J3"`` -> 33, ``"H1"`` -> 34 ... ``"H8"`` -> 41.

    Raises:
        InvalidAction: not a tile name (UNKNOWN_CARD), whatever its type.
    """
    tile = TILE_IDS.get(text) if isinstance(text, str) else None
    if tile is None:
        raise InvalidAction(f"unknown tile {quote(text)}: tiles are W1-9 T1-9 B1-9 F1-4 J1-3 H1-8",
                            Reason.UNKNOWN_CARD)
    return tile


def format_tile(tile: int) -> str:
    return TILE_NAMES[tile]


def parse_tiles(text: str | Iterable[str]) -> tuple[int, ...]:
    """Space-separated names (or a list of names) -> ids, in the given order."""
    names = text.split() if isinstance(text, str) else text
    return tuple(parse_tile(name) for name in names)


def format_tiles(tiles: Iterable[int]) -> str:
    """Ids -> names in id order (W, T, B, winds, dragons, flowers)."""
    return " ".join(TILE_NAMES[t] for t in sorted(tiles))


# --- hands and results ----------------------------------------------------------------------------

class MeldKind(IntEnum):
    CHI = 1  # chow 吃
    PENG = 2  # pung 碰
    GANG = 3  # kong 杠


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: CHI (middle tile, k = 1..3 the claimed tile from the lowest), PENG (p =
    1 left, 2 opposite, 3 right) or GANG (p = 1..3 exposed, 0 concealed)."""

    kind: MeldKind
    tile: int
    offer: int

    @classmethod
    def parse(cls, item: Any) -> Meld:
        """From ``["CHI", "W2", 1]``.

        Raises:
            InvalidAction: not a ``[TYPE, TILE, OFFER]`` triple.
        """
        if (not isinstance(item, (list, tuple)) or len(item) != 3 or not isinstance(item[0], str)
                or item[0] not in MeldKind.__members__ or type(item[2]) is not int):
            raise InvalidAction(f"a meld is [CHI|PENG|GANG, TILE, OFFER], not {quote(item)}")
        return cls(MeldKind[item[0]], parse_tile(item[1]), item[2])

    def to_json(self) -> list:
        return [self.kind.name, TILE_NAMES[self.tile], self.offer]


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand described for the calculator (rule 12); fields as in the module docstring."""

    melds: tuple[Meld, ...]
    concealed: tuple[int, ...]
    win_tile: int
    self_drawn: bool = False
    fourth_tile: bool = False
    kong_related: bool = False
    wall_last: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0

    @classmethod
    def from_request(cls, request: Any) -> Hand:
        """From a ``referee fan`` request dict (tile names); checks the field types only.

        Raises:
            InvalidAction: a missing or mistyped field.
        """
        if not isinstance(request, dict):
            raise InvalidAction("a hand is a JSON object")
        melds, concealed = request.get("melds", []), request.get("concealed")
        if not isinstance(melds, (list, tuple)) or not isinstance(concealed, (list, tuple)):
            raise InvalidAction("melds and concealed must be lists")
        tiles = [*concealed, request.get("win_tile")]
        if not all(isinstance(name, str) for name in tiles):
            raise InvalidAction("tiles are names such as W1", Reason.UNKNOWN_CARD)
        flags = {name: request.get(name, False) for name in _FLAGS}
        numbers = {name: request.get(name, 0) for name in _NUMBERS}
        if not all(value in (0, 1) and type(value) in (bool, int) for value in flags.values()):
            raise InvalidAction("self_drawn, fourth_tile, kong_related and wall_last are true or false")
        if not all(type(value) is int for value in numbers.values()):
            raise InvalidAction("seat_wind, prevalent_wind and flowers are integers")
        return cls(tuple(Meld.parse(m) for m in melds), parse_tiles(concealed),
                   parse_tile(request["win_tile"]), **{name: bool(value) for name, value in flags.items()},
                   **numbers)

    def to_request(self) -> dict:
        """The ``referee fan`` request of this hand."""
        return {"melds": [m.to_json() for m in self.melds],
                "concealed": [TILE_NAMES[t] for t in self.concealed],
                "win_tile": TILE_NAMES[self.win_tile], "self_drawn": self.self_drawn,
                "fourth_tile": self.fourth_tile, "kong_related": self.kong_related,
                "wall_last": self.wall_last, "seat_wind": self.seat_wind,
                "prevalent_wind": self.prevalent_wind, "flowers": self.flowers}


@dataclass(frozen=True, slots=True)
class Fan:
    id: int  # the seed's number, 1..81
    name_cn: str
    name_en: str
    points: int  # each
    count: int


@dataclass(frozen=True, slots=True)
class FanResult:
    fans: tuple[Fan, ...]  # in the table's order, 花牌 last when there are flowers
    points: int  # without flowers: what the 8-point minimum looks at
    total: int  # with flowers

    def to_answer(self) -> dict:
        """The ``referee fan`` answer: ``{"fans": [[en, cn, points, count], ...], "total": N}``."""
        return {"fans": [[f.name_en, f.name_cn, f.points, f.count] for f in self.fans],
                "total": self.total}


# --- the calculator -------------------------------------------------------------------------------

def calculate_fans(hand: Hand, minimum: int = MIN_POINTS) -> FanResult:
    """The fans of the best reading of a winning hand (rules 8-10, 12).

    Raises:
        InvalidAction: an impossible or malformed hand (BAD_INPUT).
        IllegalAction: not a winning shape (NOT_WIN), or under ``minimum`` points without
            flowers (UNDER_8).
    """
    status, message, points, counts = hot.evaluate(
        _meld_triples(hand.melds), hand.concealed, hand.win_tile, hand.self_drawn, hand.fourth_tile, hand.kong_related,
        hand.wall_last, hand.seat_wind, hand.prevalent_wind, hand.flowers)
    if status == "NOT_WIN":
        raise IllegalAction(message, NOT_WIN)
    if status != "OK":
        raise InvalidAction(message, _BAD_INPUT_REASONS.get(status, Reason.MALFORMED_REQUEST))
    if points < minimum:
        raise IllegalAction(f"{points} points (flowers not counted); a win needs at least {minimum}",
                            UNDER_8)
    fans = [_fan(fan_id, count) for fan_id, count in counts]
    if hand.flowers:
        fans.append(_fan(FLOWER_FAN, hand.flowers))
    return FanResult(tuple(fans), points, points + hand.flowers)


def win_shape_failure(melds: tuple[Meld, ...], concealed: tuple[int, ...], win_tile: int) -> str:
    """The calculator's NOT_WIN message when the melds, the concealed tiles and ``win_tile``
    make no winning shape; "" when they do. Flags, fans and the minimum are not judged: a quick
    first test for callers that check many hands (a claim window checks every other seat)."""
    status, message, _, _ = hot.evaluate(_meld_triples(melds), concealed, win_tile,
                                         False, False, False, False, 0, 0, 0)
    return message if status == "NOT_WIN" else ""


def _meld_triples(melds: tuple[Meld, ...]) -> list[tuple[int, int, int]]:
    return [(int(m.kind), m.tile, m.offer) for m in melds]


def _fan(fan_id: int, count: int) -> Fan:
    info = FANS[fan_id - 1]
    return Fan(info.id, info.name_cn, info.name_en, info.points, count)


def fan_answer(request: Any) -> dict:
    """One ``referee fan --jsonl`` line, decoded: a request dict -> ``{"fans": [[name_en, name_cn,
    points_each, count], ...], "total": N}`` (flowers included) or ``{"error": "NOT_WIN" |
    "UNDER_8" | "BAD_INPUT", "message": ...}``. Never raises."""
    try:
        return hot.answer(request)
    except (TypeError, ValueError, OverflowError) as error:  # a request no check foresaw
        return {"error": "BAD_INPUT", "message": f"malformed hand: {error}"}


# --- hands for tests and benchmarks ---------------------------------------------------------------

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_THEMES = {  # tile pools that make the rarer fans likely
    "any": tuple(range(NUM_KINDS)),
    "terminals": _ORPHANS,
    "honors": tuple(range(27, 34)) + (0, 8),
    "green": (10, 11, 12, 14, 16, 32),
    "reversible": (18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33),
    "lower": tuple(s * 9 + r for s in range(3) for r in range(4)),
    "upper": tuple(s * 9 + r for s in range(3) for r in range(5, 9)),
    "middle": tuple(s * 9 + r for s in range(3) for r in (3, 4, 5)),
    "even": tuple(s * 9 + r for s in range(3) for r in (1, 3, 5, 7)),
    "straights": tuple(s * 9 + r for s in range(3) for r in (0, 1, 2, 3, 4, 6)),
}


def random_winning_hand(rng: random.Random) -> dict:
    """A ``referee fan`` request for a random legal winning hand, built shape first: four sets
    and a pair (some declared as melds and kongs), seven pairs, thirteen orphans, 全不靠 /
    七星不靠 or 组合龙; random flags, winds and flowers. It may score under 8 points."""
    shape = rng.choices(("sets", "pairs", "orphans", "honors_knitted", "knitted"), (85, 7, 2, 3, 3))[0]
    melds: list[list] = []
    if shape == "sets":
        melds, concealed = _sets_and_pair(rng)
    elif shape == "pairs":
        if rng.random() < 0.2:
            low = rng.randrange(3) * 9 + rng.randrange(3)
            kinds = list(range(low, low + 7))
        else:
            kinds = rng.sample(range(NUM_KINDS), 7)
        concealed = kinds * 2
    elif shape == "orphans":
        concealed = list(_ORPHANS) + [rng.choice(_ORPHANS)]
    else:
        straight = list(parse_tiles(rng.choice(KNITTED_STRAIGHTS)))
        if shape == "honors_knitted":
            honors = rng.choice((5, 6, 7))
            concealed = rng.sample(range(27, 34), honors) + rng.sample(straight, 14 - honors)
        else:
            melds, concealed = _knitted(rng, straight)
    win = rng.choice(concealed)
    concealed.remove(win)
    rng.shuffle(concealed)
    return {"melds": melds, "concealed": [TILE_NAMES[t] for t in concealed],
            "win_tile": TILE_NAMES[win], "self_drawn": rng.random() < 0.4, "fourth_tile": rng.random() < 0.15,
            "kong_related": rng.random() < 0.15, "wall_last": rng.random() < 0.1,
            "seat_wind": rng.randrange(4), "prevalent_wind": rng.randrange(4), "flowers": rng.randrange(9)}


def _sets_and_pair(rng: random.Random) -> tuple[list[list], list[int]]:
    pool = _THEMES[rng.choice(tuple(_THEMES) + ("any",) * 3)]
    if rng.random() < 0.3:
        suit = rng.randrange(3)
        pool = tuple(t for t in pool if t // 9 == suit or (t >= 27 and rng.random() < 0.5))
    pung_share = 0.0 if rng.random() < 0.3 else rng.random()
    for attempt in range(1000):
        if attempt % 20 == 19 or len(pool) < 3:  # a pool too small for four sets
            pool = _THEMES["any"]
        counts = [0] * NUM_KINDS
        sets: list[tuple[str, int]] = []
        for _ in range(200):
            if len(sets) == 4:
                break
            t = rng.choice(pool)
            chow = (t < 27 and t % 9 <= 6 and t + 1 in pool and t + 2 in pool
                    and rng.random() >= pung_share)
            tiles = (t, t + 1, t + 2) if chow else (t, t, t)
            if all(counts[x] + tiles.count(x) <= 4 for x in tiles):
                for x in tiles:
                    counts[x] += 1
                sets.append(("CHI", t + 1) if chow else ("PENG", t))
        pairs = [t for t in pool if counts[t] <= 2]
        if len(sets) == 4 and pairs:
            break
    pair = rng.choice(pairs)
    counts[pair] += 2
    melds: list[list] = []
    concealed = [pair, pair]
    declared = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
    for i, (kind, t) in enumerate(sets):
        if i >= declared:
            concealed += [t - 1, t, t + 1] if kind == "CHI" else [t, t, t]
        elif kind == "PENG" and counts[t] < 4 and rng.random() < 0.3:
            counts[t] += 1
            melds.append(["GANG", TILE_NAMES[t], rng.choice((0, 0, 1, 2, 3))])
        else:
            melds.append([kind, TILE_NAMES[t], rng.randint(1, 3)])
    return melds, concealed


def _knitted(rng: random.Random, straight: list[int]) -> tuple[list[list], list[int]]:
    while True:
        t, pair = rng.randrange(NUM_KINDS), rng.randrange(NUM_KINDS)
        chow = t < 27 and t % 9 <= 6 and rng.random() < 0.6
        tiles = [t, t + 1, t + 2] if chow else [t, t, t]
        if all((straight + tiles + [pair, pair]).count(x) <= 4 for x in tiles + [pair]):
            break
    if rng.random() < 0.4:
        meld = ["CHI", TILE_NAMES[t + 1]] if chow else ["PENG", TILE_NAMES[t]]
        return [meld + [rng.randint(1, 3)]], straight + [pair, pair]
    return [], straight + tiles + [pair, pair]


def fan_benchmark_cases(count: int = 2000, seed: int = 2024) -> list[dict]:
    """``count`` winning hands of at least 8 points, as ``referee fan`` requests (seeded)."""
    rng = random.Random(seed)
    cases: list[dict] = []
    while len(cases) < count:
        request = random_winning_hand(rng)
        if "fans" in fan_answer(request):
            cases.append(request)
    return cases


def pymahjonggb_arguments(request: dict) -> dict:
    """The same hand as keyword arguments of ``MahjongGB.MahjongFanCalculator``."""
    get = request.get
    return {"pack": tuple(tuple(m) for m in get("melds", ())), "hand": tuple(request["concealed"]),
            "winTile": request["win_tile"], "flowerCount": get("flowers", 0),
            "isSelfDrawn": get("self_drawn", False), "is4thTile": get("fourth_tile", False),
            "isAboutKong": get("kong_related", False), "isWallLast": get("wall_last", False),
            "seatWind": get("seat_wind", 0), "prevalentWind": get("prevalent_wind", 0)}


def bench_fans(hands: list[dict], rounds: int = 5) -> tuple[float, float | None]:
    """Seconds per hand of ``fan_answer`` and of PyMahjongGB's calculator on the same hands (each
    given its own input form, prepared beforehand; rounds interleaved, best round of each). The
    second is None when PyMahjongGB is not installed."""
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        MahjongFanCalculator = None
    arguments = [pymahjonggb_arguments(h) for h in hands]
    ours = theirs = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for hand in hands:
            fan_answer(hand)
        ours = min(ours, time.perf_counter() - start)
        if MahjongFanCalculator is not None:
            start = time.perf_counter()
            for argument in arguments:
                MahjongFanCalculator(**argument)
            theirs = min(theirs, time.perf_counter() - start)
    return ours / len(hands), (theirs / len(hands) if MahjongFanCalculator is not None else None)
