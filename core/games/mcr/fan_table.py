"""国标麻将 data tables: tile notation and the 81 fans with their "not counted with" lists.

Plain data, shared by ``mcr.py`` (the API) and ``mcr_hot.py`` (the compiled calculator), which
turns these tables into C arrays at import. Rules and choices: see the ``mcr`` module docstring.
"""
from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

# --- tiles ---------------------------------------------------------------------------------------
# id 0-8 W1-W9 万, 9-17 T1-T9 条, 18-26 B1-B9 饼, 27-30 F1-F4 东南西北, 31-33 J1-J3 中发白,
# 34-41 H1-H8 flowers 春夏秋冬梅兰竹菊 (the wall only; a hand never holds one).
TILE_NAMES = tuple([f"{suit}{rank}" for suit in "WTB" for rank in range(1, 10)]
                   + [f"F{rank}" for rank in range(1, 5)] + [f"J{rank}" for rank in range(1, 4)]
                   + [f"H{rank}" for rank in range(1, 9)])
NUM_KINDS = 34  # tile kinds a hand is made of (flowers excluded)
TILE_IDS = {name: tile for tile, name in enumerate(TILE_NAMES)}
HAND_TILE_IDS = {name: tile for name, tile in TILE_IDS.items() if tile < NUM_KINDS}

# --- fans ----------------------------------------------------------------------------------------


class FanInfo(NamedTuple):
    id: int  # the seed's number, 1..81
    name_cn: str
    name_en: str
    points: int
    excludes: tuple[int, ...]  # ids of the fans it is not counted with (不计)


# (Chinese name as in the seed's table, English name, points, 不计 list). The seed's lists,
# completed with what principle 1 (不重复) implies, as the community calculators count it.
_FAN_ROWS = (
    ("大四喜", "Big Four Winds", 88, "小四喜 三风刻 碰碰和 圈风刻 门风刻 幺九刻"),
    ("大三元", "Big Three Dragons", 88, "小三元 双箭刻 箭刻"),
    ("绿一色", "All Green", 88, "混一色 缺一门"),
    ("九莲宝灯", "Nine Gates", 88, "清一色 门前清 不求人 无字"),
    ("四杠", "Four Kongs", 88, "三杠 双明杠 双暗杠 明杠 暗杠 碰碰和 单钓将"),
    ("连七对", "Seven Shifted Pairs", 88, "七对 清一色 门前清 不求人 单钓将 无字"),
    ("十三幺", "Thirteen Orphans", 88, "混幺九 五门齐 门前清 不求人 单钓将"),
    ("清幺九", "All Terminals", 64, "混幺九 碰碰和 全带幺 幺九刻 双同刻 无字"),
    ("小四喜", "Little Four Winds", 64, "三风刻 幺九刻"),
    ("小三元", "Little Three Dragons", 64, "双箭刻 箭刻"),
    ("字一色", "All Honors", 64, "混幺九 碰碰和 全带幺 幺九刻 缺一门"),
    ("四暗刻", "Four Concealed Pungs", 64, "三暗刻 双暗刻 碰碰和 门前清 不求人"),
    ("一色双龙会", "Pure Terminal Chows", 64, "七对 清一色 平和 一般高 老少副 无字"),
    ("一色四同顺", "Quadruple Chow", 48, "一色三同顺 一色三节高 一般高 四归一"),
    ("一色四节高", "Four Pure Shifted Pungs", 48, "一色三节高 一色三同顺 碰碰和"),
    ("一色四步高", "Four Pure Shifted Chows", 32, "一色三步高 连六 老少副"),
    ("三杠", "Three Kongs", 32, "双明杠 双暗杠 明杠 暗杠"),
    ("混幺九", "All Terminals and Honors", 32, "碰碰和 全带幺 幺九刻"),
    ("七对", "Seven Pairs", 24, "门前清 不求人 单钓将"),
    ("七星不靠", "Greater Honors and Knitted Tiles", 24, "全不靠 五门齐 门前清 不求人 单钓将"),
    ("全双刻", "All Even Pungs", 24, "碰碰和 断幺 无字"),
    ("清一色", "Full Flush", 24, "无字"),
    ("一色三同顺", "Pure Triple Chow", 24, "一色三节高 一般高"),
    ("一色三节高", "Pure Shifted Pungs", 24, "一色三同顺"),
    ("全大", "Upper Tiles", 24, "大于五 无字"),
    ("全中", "Middle Tiles", 24, "断幺 无字"),
    ("全小", "Lower Tiles", 24, "小于五 无字"),
    ("清龙", "Pure Straight", 16, "连六 老少副"),
    ("三色双龙会", "Three-Suited Terminal Chows", 16, "喜相逢 老少副 无字 平和"),
    ("一色三步高", "Pure Shifted Chows", 16, ""),
    ("全带五", "All Five", 16, "断幺 无字"),
    ("三同刻", "Triple Pung", 16, "双同刻"),
    ("三暗刻", "Three Concealed Pungs", 16, "双暗刻"),
    ("全不靠", "Lesser Honors and Knitted Tiles", 12, "五门齐 门前清 不求人 单钓将"),
    ("组合龙", "Knitted Straight", 12, ""),
    ("大于五", "Upper Four", 12, "无字"),
    ("小于五", "Lower Four", 12, "无字"),
    ("三风刻", "Big Three Winds", 12, ""),
    ("花龙", "Mixed Straight", 8, ""),
    ("推不倒", "Reversible Tiles", 8, "缺一门"),
    ("三色三同顺", "Mixed Triple Chow", 8, ""),
    ("三色三节高", "Mixed Shifted Pungs", 8, ""),
    ("无番和", "Chicken Hand", 8, ""),
    ("妙手回春", "Last Tile Draw", 8, "自摸"),
    ("海底捞月", "Last Tile Claim", 8, ""),
    ("杠上开花", "Out with Replacement Tile", 8, "自摸"),
    ("抢杠和", "Robbing the Kong", 8, "和绝张"),
    ("碰碰和", "All Pungs", 6, ""),
    ("混一色", "Half Flush", 6, ""),
    ("三色三步高", "Mixed Shifted Chows", 6, ""),
    ("五门齐", "All Types", 6, ""),
    ("全求人", "Melded Hand", 6, "单钓将"),
    ("双暗杠", "Two Concealed Kongs", 6, "双暗刻 暗杠"),
    ("双箭刻", "Two Dragon Pungs", 6, "箭刻"),
    ("全带幺", "Outside Hand", 4, ""),
    ("不求人", "Fully Concealed Hand", 4, "门前清 自摸"),
    ("双明杠", "Two Melded Kongs", 4, "明杠"),
    ("和绝张", "Last Tile", 4, ""),
    ("箭刻", "Dragon Pung", 2, ""),
    ("圈风刻", "Prevalent Wind", 2, ""),
    ("门风刻", "Seat Wind", 2, ""),
    ("门前清", "Concealed Hand", 2, ""),
    ("平和", "All Chows", 2, "无字"),
    ("四归一", "Tile Hog", 2, ""),
    ("双同刻", "Double Pung", 2, ""),
    ("双暗刻", "Two Concealed Pungs", 2, ""),
    ("暗杠", "Concealed Kong", 2, ""),
    ("断幺", "All Simples", 2, "无字"),
    ("一般高", "Pure Double Chow", 1, ""),
    ("喜相逢", "Mixed Double Chow", 1, ""),
    ("连六", "Short Straight", 1, ""),
    ("老少副", "Two Terminal Chows", 1, ""),
    ("幺九刻", "Pung of Terminals or Honors", 1, ""),
    ("明杠", "Melded Kong", 1, ""),
    ("缺一门", "One Voided Suit", 1, ""),
    ("无字", "No Honors", 1, ""),
    ("边张", "Edge Wait", 1, ""),
    ("坎张", "Closed Wait", 1, ""),
    ("单钓将", "Single Wait", 1, ""),
    ("自摸", "Self-Drawn", 1, ""),
    ("花牌", "Flower Tiles", 1, ""),
)

FAN_IDS = {row[0]: number for number, row in enumerate(_FAN_ROWS, 1)}
FANS = tuple(FanInfo(number, cn, en, points, tuple(FAN_IDS[name] for name in excluded.split()))
             for number, (cn, en, points, excluded) in enumerate(_FAN_ROWS, 1))
NUM_FANS = len(FANS)  # 81
FLOWER_FAN = FAN_IDS["花牌"]

# Fans of the whole hand's tile set: a hand qualifies when every tile it holds (melds too) is one
# of the listed tiles. Every winning shape is tested; a shape's own 不计 list removes what it
# implies (十三幺 不计 混幺九).
_SIMPLES = [f"{s}{r}" for s in "WTB" for r in range(2, 9)]
_TERMINALS = [f"{s}{r}" for s in "WTB" for r in (1, 9)]
_HONORS = [f"F{r}" for r in range(1, 5)] + [f"J{r}" for r in range(1, 4)]


def _ranks(ranks: str) -> list[str]:
    return [f"{s}{r}" for s in "WTB" for r in ranks]


TILE_SET_FANS = (
    ("绿一色", ["T2", "T3", "T4", "T6", "T8", "J2"]),
    ("推不倒", ["B1", "B2", "B3", "B4", "B5", "B8", "B9", "T2", "T4", "T5", "T6", "T8", "T9", "J3"]),
    ("字一色", _HONORS),
    ("清幺九", _TERMINALS),
    ("混幺九", _TERMINALS + _HONORS),
    ("断幺", _SIMPLES),
    ("全大", _ranks("789")),
    ("全中", _ranks("456")),
    ("全小", _ranks("123")),
    ("大于五", _ranks("6789")),
    ("小于五", _ranks("1234")),
)

# Pack traits: (fan, what every set has, what the pair has); a knitted straight counts as three
# chows here (组合龙 + a chow + a numbered pair is 平和).
PACK_TRAIT_FANS = (
    ("碰碰和", "pung", "any"),
    ("平和", "chow", "numbered"),
    ("全带幺", "terminal", "terminal"),
    ("全带五", "five", "five"),
    ("全双刻", "even", "even"),
)

# Kong fans by (exposed kongs, concealed kongs). The 81-fan table has no 明暗杠: one exposed
# and one concealed kong score 明杠 + 暗杠.
KONG_FANS = {(1, 0): ("明杠",), (0, 1): ("暗杠",), (2, 0): ("双明杠",), (1, 1): ("明杠", "暗杠"),
             (0, 2): ("双暗杠",)}
KONG_FANS.update({(exposed, 3 - exposed): ("三杠",) for exposed in range(4)})
KONG_FANS.update({(exposed, 4 - exposed): ("四杠",) for exposed in range(5)})

# Concealed pungs, concealed kongs included -> fan.
CONCEALED_PUNG_FANS = {2: "双暗刻", 3: "三暗刻", 4: "四暗刻"}

# The six knitted straights (组合龙): 147, 258 and 369 each in another suit.
KNITTED_STRAIGHTS = tuple(" ".join(f"{suit}{rank}" for suit, ranks in zip("WTB", perm) for rank in ranks)
                          for perm in permutations(("147", "258", "369")))
