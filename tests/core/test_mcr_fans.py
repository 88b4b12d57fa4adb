"""国标麻将 fan calculator: one hand per fan (all 81, each with its 不计 list checked), the five
counting principles, the win flags, the refusals and the ``referee fan`` answer format."""
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.games.mcr import fans as mcr
from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.games.mcr.fan_table import FAN_IDS, FANS


def request(melds: str, concealed: str, win: str, flags: str = "") -> dict:
    """``"PENG F1 1, CHI W3 2"``, ``"W1 W1 ..."``, ``"W5"``, ``"self_drawn seat=1 flowers=3"``."""
    req: dict = {"melds": [[kind, tile, int(offer)] for kind, tile, offer in
                           (m.split() for m in melds.split(",") if m.strip())],
                 "concealed": concealed.split(), "win_tile": win}
    for word in flags.split():
        name, _, value = word.partition("=")
        name = {"seat": "seat_wind", "prevalent": "prevalent_wind"}.get(name, name)
        req[name] = int(value) if value else True
    return req


def fans_of(req: dict) -> tuple[int, dict[str, int]]:
    """(total, {Chinese name: count}) of the best reading, any number of points."""
    result = mcr.calculate_fans(mcr.Hand.from_request(req), minimum=0)
    return result.total, {fan.name_cn: fan.count for fan in result.fans}


def parse_fans(text: str) -> dict[str, int]:
    fans = {}
    for word in text.split():
        name, _, count = word.partition("x")
        fans[name] = int(count or 1)
    return fans


# --- one hand per fan ----------------------------------------------------------------------------
# (fan shown, melds, concealed, winning tile, flags, total, every fan of the best reading: name or
# namexcount). Each row is the whole answer, so the fans its 不计 lists strike out are absent.
# Totals agree with PyMahjongGB (differential tests), bar flowers it is not given.
FAN_CASES = [
    ("大四喜", "PENG F1 1, PENG F2 2", "F3 F3 F3 F4 F4 F4 W1", "W1", "", 129, "大四喜 混幺九 混一色 双暗刻 单钓将"),
    ("大三元", "", "J1 J1 J1 J2 J2 J2 J3 J3 J3 W2 W3 W4 T5", "T5", "", 108, "大三元 三暗刻 门前清 缺一门 单钓将"),
    ("绿一色", "", "T2 T3 T4 T2 T3 T4 T6 T6 T6 J2 J2 J2 T8", "T8", "", 95, "绿一色 箭刻 门前清 双暗刻 一般高"),
    ("九莲宝灯", "", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "W5", "self_drawn", 92, "九莲宝灯 双暗刻 幺九刻 自摸"),
    ("四杠", "GANG W1 1, GANG T2 2, GANG B3 3, GANG F1 0", "J1", "J1", "", 107, "四杠 三色三节高 五门齐 圈风刻 门风刻 幺九刻"),
    ("连七对", "", "T2 T2 T3 T3 T4 T4 T5 T5 T6 T6 T7 T7 T8", "T8", "", 90, "连七对 断幺"),
    ("十三幺", "", "W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 W1", "J3", "self_drawn", 89, "十三幺 自摸"),
    ("清幺九", "PENG W1 1, PENG T1 2", "B1 B1 B1 W9 W9 W9 T9", "T9", "", 83, "清幺九 三同刻 双暗刻 单钓将"),
    ("小四喜", "", "F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 W2 W3", "W4", "seat=1 prevalent=2", 92, "小四喜 三暗刻 混一色 圈风刻 门风刻 门前清"),
    ("小三元", "", "J1 J1 J1 J2 J2 J2 J3 J3 W2 W3 W4 T5 T6", "T7", "", 69, "小三元 门前清 双暗刻 缺一门"),
    ("字一色", "", "F1 F1 F1 F2 F2 F2 J1 J1 J1 J2 J2 J2 J3", "J3", "self_drawn seat=2 prevalent=3", 194, "小三元 字一色 四暗刻 单钓将 自摸"),
    ("四暗刻", "", "W1 W1 W1 T2 T2 T2 B3 B3 B3 W5 W5 W5 J1", "J1", "self_drawn", 75, "四暗刻 三色三节高 幺九刻 单钓将 自摸"),
    ("一色双龙会", "", "W1 W2 W3 W1 W2 W3 W7 W8 W9 W7 W8 W9 W5", "W5", "", 67, "一色双龙会 门前清 单钓将"),
    ("一色四同顺", "", "T3 T4 T5 T3 T4 T5 T3 T4 T5 T3 T4 T5 B9", "B9", "", 54, "一色四同顺 门前清 平和 缺一门 单钓将"),
    ("一色四节高", "", "W2 W2 W2 W3 W3 W3 W4 W4 W4 W5 W5 W5 J1", "J1", "", 119, "四暗刻 一色四节高 混一色 单钓将"),
    ("一色四步高", "", "B1 B2 B3 B2 B3 B4 B3 B4 B5 B4 B5 B6 F2", "F2", "", 41, "一色四步高 混一色 门前清 单钓将"),
    ("三杠", "GANG W1 1, GANG W9 0, GANG T5 2", "B2 B3 B4 J1", "J1", "", 35, "三杠 幺九刻x2 单钓将"),
    ("混幺九", "PENG W1 1, PENG F1 2", "T9 T9 T9 J1 J1 J1 B1", "B1", "seat=3 prevalent=3", 43, "混幺九 五门齐 箭刻 双暗刻 单钓将"),
    ("七对", "", "W1 W1 W5 W5 T3 T3 T7 T7 B2 B2 F1 F1 J1", "J1", "", 30, "七对 五门齐"),
    ("七星不靠", "", "F1 F2 F3 F4 J1 J2 J3 W1 W4 W7 T2 T5 B3", "B6", "", 24, "七星不靠"),
    ("全双刻", "PENG W2 1", "T4 T4 T4 B6 B6 B6 W8 W8 W8 B2", "B2", "", 41, "全双刻 三暗刻 单钓将"),
    ("清一色", "", "B1 B2 B3 B4 B5 B6 B6 B7 B8 B9 B9 B9 B2", "B2", "", 29, "清一色 门前清 连六 幺九刻 坎张"),
    ("一色三同顺", "CHI W3 1, CHI W3 2", "W2 W3 W4 T6 T7 T8 F1", "F1", "seat=1 prevalent=1", 26, "一色三同顺 缺一门 单钓将"),
    ("一色三节高", "", "T5 T5 T5 T6 T6 T6 T7 T7 T7 W1 W2 W3 J3", "J3", "", 44, "一色三节高 三暗刻 门前清 缺一门 单钓将"),
    ("全大", "", "W7 W8 W9 T7 T8 T9 B7 B8 B9 T8 T8 T8 W7", "W7", "", 37, "全大 三色三同顺 门前清 四归一 边张"),
    ("全中", "", "W4 W5 W6 T4 T5 T6 B4 B5 B6 W5 W5 W5 T5", "T5", "", 53, "全中 全带五 三色三同顺 门前清 四归一 坎张"),
    ("全小", "", "W1 W2 W3 T1 T2 T3 B1 B2 B3 W2 W2 W2 T3", "T3", "", 37, "全小 三色三同顺 门前清 四归一 边张"),
    ("清龙", "", "T1 T2 T3 T4 T5 T6 T7 T8 T9 W2 W3 W4 F3", "F3", "seat=1 prevalent=1", 20, "清龙 门前清 缺一门 单钓将"),
    ("三色双龙会", "", "W1 W2 W3 W7 W8 W9 T1 T2 T3 T7 T8 T9 B5", "B5", "", 19, "三色双龙会 门前清 单钓将"),
    ("一色三步高", "", "B1 B2 B3 B2 B3 B4 B3 B4 B5 T9 T9 T9 J1", "J1", "", 21, "一色三步高 门前清 幺九刻 缺一门 单钓将"),
    ("全带五", "", "W3 W4 W5 W5 W6 W7 T4 T5 T6 B5 B5 B5 T5", "T5", "", 19, "全带五 门前清 坎张"),
    ("三同刻", "PENG W3 1, PENG T3 2", "B3 B3 B3 W5 W6 W7 F1", "F1", "seat=1 prevalent=1", 17, "三同刻 单钓将"),
    ("三暗刻", "PENG W7 1", "T1 T1 T1 B4 B4 B4 J2 J2 J2 W2", "W2", "", 26, "三暗刻 碰碰和 箭刻 幺九刻 单钓将"),
    ("全不靠", "", "W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2", "J3", "", 12, "全不靠"),
    ("组合龙", "", "W1 W4 W7 T2 T5 T8 B3 B6 B9 W5 W5 T6 T7", "T8", "", 16, "组合龙 门前清 平和"),
    ("大于五", "", "W6 W7 W8 T7 T8 T9 B6 B6 B6 W9 W9 W9 T6", "T6", "", 17, "大于五 门前清 双暗刻 幺九刻"),
    ("小于五", "", "W1 W2 W3 T2 T3 T4 B4 B4 B4 W4 W4 W4 T1", "T1", "", 18, "小于五 门前清 双同刻 双暗刻"),
    ("三风刻", "PENG F1 1", "F2 F2 F2 F3 F3 F3 W2 W3 W4 T5", "T5", "seat=3 prevalent=3", 16, "三风刻 双暗刻 缺一门 单钓将"),
    ("花龙", "", "W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W5 W5 J1", "J1", "", 11, "花龙 门前清 单钓将"),
    ("推不倒", "", "B1 B2 B3 B3 B4 B5 T4 T5 T6 T8 T8 T8 J3", "J3", "", 11, "推不倒 门前清 单钓将"),
    ("三色三同顺", "", "W3 W4 W5 T3 T4 T5 B3 B4 B5 F2 F2 F2 J2", "J2", "", 18, "三色三同顺 五门齐 门前清 幺九刻 单钓将"),
    ("三色三节高", "PENG W2 1, PENG T3 2", "B4 B4 B4 W6 W7 W8 T9", "T9", "", 10, "三色三节高 无字 单钓将"),
    ("无番和", "CHI W3 1, CHI T7 2, PENG T3 3", "B5 B6 F1 F1", "B7", "seat=1 prevalent=2", 8, "无番和"),
    ("妙手回春", "CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "self_drawn wall_last", 10, "妙手回春 喜相逢 单钓将"),
    ("海底捞月", "CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "wall_last", 10, "海底捞月 喜相逢 单钓将"),
    ("杠上开花", "GANG W3 2, PENG B5 2", "T2 T3 T4 T6 T7 T8 W7", "W7", "self_drawn kong_related", 12, "杠上开花 断幺 明杠 单钓将"),
    ("抢杠和", "CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 B7 B7", "T7", "kong_related fourth_tile", 12, "抢杠和 断幺 喜相逢 坎张"),
    ("碰碰和", "PENG W2 1, PENG T5 2", "B7 B7 B7 W8 W8 W8 T1", "T1", "", 10, "碰碰和 双暗刻 无字 单钓将"),
    ("混一色", "", "W1 W2 W3 W5 W6 W7 W7 W8 W9 F1 F1 F1 J1", "J1", "seat=2 prevalent=2", 11, "混一色 门前清 老少副 幺九刻 单钓将"),
    ("三色三步高", "", "W1 W2 W3 T2 T3 T4 B3 B4 B5 F4 F4 F4 J3", "J3", "", 16, "三色三步高 五门齐 门前清 幺九刻 单钓将"),
    ("五门齐", "", "W1 W2 W3 T4 T5 T6 B6 B7 B8 F1 F1 F1 J1", "J1", "seat=2 prevalent=2", 10, "五门齐 门前清 幺九刻 单钓将"),
    ("全求人", "CHI W2 1, CHI T5 2, PENG B7 3, PENG W9 1", "J1", "J1", "", 7, "全求人 幺九刻"),
    ("双暗杠", "GANG W3 0, GANG T6 0", "B1 B2 B3 W7 W8 W9 J1", "J1", "", 9, "双暗杠 门前清 单钓将"),
    ("双箭刻", "", "J1 J1 J1 J2 J2 J2 W2 W3 W4 T5 T6 T7 B9", "B9", "", 11, "双箭刻 门前清 双暗刻 单钓将"),
    ("全带幺", "", "W1 W2 W3 T7 T8 T9 B1 B1 B1 F1 F1 F1 W9", "W9", "seat=2 prevalent=2", 11, "全带幺 门前清 双暗刻 幺九刻x2 单钓将"),
    ("不求人", "", "W2 W3 W4 W6 W7 W8 T3 T4 T5 B5 B6 B7 F1", "F1", "self_drawn seat=2 prevalent=2", 5, "不求人 单钓将"),
    ("双明杠", "GANG W2 1, GANG T6 3", "B1 B2 B3 W7 W8 W9 F1", "F1", "seat=2 prevalent=2", 5, "双明杠 单钓将"),
    ("和绝张", "CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "fourth_tile", 6, "和绝张 喜相逢 坎张"),
    ("箭刻", "CHI W3 1", "J1 J1 J1 T2 T3 T4 B6 B7 B8 F2", "F2", "seat=3 prevalent=3", 10, "五门齐 箭刻 喜相逢 单钓将"),
    ("圈风刻", "CHI W3 1", "F2 F2 F2 T2 T3 T4 B6 B7 B8 J2", "J2", "seat=0 prevalent=1", 10, "五门齐 圈风刻 喜相逢 单钓将"),
    ("门风刻", "CHI W3 1", "F3 F3 F3 T2 T3 T4 B6 B7 B8 J2", "J2", "seat=2 prevalent=0", 10, "五门齐 门风刻 喜相逢 单钓将"),
    ("门前清", "", "W2 W3 W4 W6 W7 W8 T3 T4 T5 B5 B6 B7 F1", "F1", "seat=2 prevalent=2", 3, "门前清 单钓将"),
    ("平和", "CHI W2 1", "W4 W5 W6 T2 T3 T4 B6 B7 B8 T9", "T9", "", 4, "平和 连六 单钓将"),
    ("四归一", "CHI W2 1", "W2 W2 W2 T2 T3 T4 B6 B7 B8 F2", "F2", "seat=3 prevalent=3", 3, "四归一 单钓将"),
    ("双同刻", "PENG W5 1, PENG T5 2", "B2 B3 B4 B6 B7 B8 J2", "J2", "", 3, "双同刻 单钓将"),
    ("双暗刻", "CHI W3 1", "T6 T6 T6 B2 B2 B2 W7 W8 W9 F2", "F2", "self_drawn seat=3 prevalent=3", 4, "双暗刻 单钓将 自摸"),
    ("暗杠", "GANG T6 0, CHI W3 1", "B2 B3 B4 W7 W8 W9 F2", "F2", "seat=3 prevalent=3", 4, "暗杠 喜相逢 单钓将"),
    ("断幺", "CHI W3 1", "W4 W5 W6 T6 T7 T8 B3 B3 B3 B5", "B5", "", 2, "断幺"),
    ("一般高", "CHI W3 1", "W2 W3 W4 T6 T7 T8 B9 B9 B9 J1", "J1", "", 3, "一般高 幺九刻 单钓将"),
    ("喜相逢", "CHI W3 1", "T2 T3 T4 T6 T7 T8 B9 B9 B9 J1", "J1", "", 3, "喜相逢 幺九刻 单钓将"),
    ("连六", "CHI B2 1", "B4 B5 B6 T6 T7 T8 W9 W9 W9 J1", "J1", "", 3, "连六 幺九刻 单钓将"),
    ("老少副", "CHI T2 1", "T7 T8 T9 W4 W5 W6 B9 B9 B9 J1", "J1", "", 3, "老少副 幺九刻 单钓将"),
    ("幺九刻", "CHI W3 1", "T9 T9 T9 T4 T5 T6 B6 B7 B8 J1", "J1", "", 2, "幺九刻 单钓将"),
    ("明杠", "GANG B9 1, CHI W3 1", "T4 T5 T6 B6 B7 B8 J1", "J1", "", 3, "幺九刻 明杠 单钓将"),
    ("缺一门", "CHI W3 1", "W4 W5 W6 T2 T3 T4 T7 T8 T9 J1", "J1", "", 3, "喜相逢 缺一门 单钓将"),
    ("无字", "CHI W2 1, PENG T9 2", "W5 W6 W7 B7 B8 B9 T1", "T1", "", 3, "幺九刻 无字 单钓将"),
    ("边张", "CHI W3 1", "W5 W6 W7 T4 T5 T6 B1 B2 J1 J1", "B3", "", 2, "连六 边张"),
    ("坎张", "CHI W3 1", "W5 W6 W7 T4 T5 T6 B4 B6 J1 J1", "B5", "", 3, "喜相逢 连六 坎张"),
    ("单钓将", "CHI W3 1", "W5 W6 W7 T4 T5 T6 B4 B5 B6 J1", "J1", "", 3, "喜相逢 连六 单钓将"),
    ("自摸", "CHI W3 1", "W5 W6 W7 T4 T5 T6 B4 B5 B6 J1", "J1", "self_drawn", 4, "喜相逢 连六 单钓将 自摸"),
    ("花牌", "CHI W3 1", "W5 W6 W7 T4 T5 T6 B4 B5 B6 J1", "J1", "self_drawn flowers=3", 7, "喜相逢 连六 单钓将 自摸 花牌x3"),
]


@pytest.mark.parametrize("fan, melds, concealed, win, flags, total, expected", FAN_CASES,
                         ids=[case[0] for case in FAN_CASES])
def test_fan_table(fan, melds, concealed, win, flags, total, expected):
    got_total, got = fans_of(request(melds, concealed, win, flags))
    assert got == parse_fans(expected)
    assert fan in got
    assert got_total == total


def test_the_table_shows_all_81_fans():
    assert [case[0] for case in FAN_CASES] == [fan.name_cn for fan in FANS]


@pytest.mark.parametrize("case", FAN_CASES, ids=[case[0] for case in FAN_CASES])
def test_no_fan_counts_beside_one_that_excludes_it(case):
    _, got = fans_of(request(*case[1:5]))
    for name in got:
        excluded = {FANS[other - 1].name_cn for other in FANS[FAN_IDS[name] - 1].excludes}
        assert not excluded & set(got), f"{name} counted with {excluded & set(got)}"


def test_fan_table_data():
    assert len(FANS) == 81 and [fan.id for fan in FANS] == list(range(1, 82))
    assert sum(fan.points == 88 for fan in FANS) == 7 and FANS[80].name_cn == "花牌"
    points = [fan.points for fan in FANS]
    assert points == sorted(points, reverse=True)
    for fan in FANS:  # a fan only strikes out cheaper ones (or its twin, 一色三同顺/一色三节高)
        assert all(FANS[other - 1].points <= fan.points for other in fan.excludes)


# --- the five counting principles (rule 9) -------------------------------------------------------

def test_principle_1_implied_fans_do_not_count_again():
    # 四暗刻 implies 碰碰和 and a concealed hand: self-drawn it keeps 自摸, not 不求人
    _, got = fans_of(request("", "W1 W1 W1 T2 T2 T2 B3 B3 B3 W5 W5 W5 J1", "J1", "self_drawn"))
    assert "四暗刻" in got and "自摸" in got
    assert not {"碰碰和", "不求人", "门前清", "三暗刻"} & set(got)


def test_principle_2_a_fan_is_not_split_into_others():
    # 清龙 is not also 连六 (123+456) and 老少副 (123+789)
    _, got = fans_of(request("", "T1 T2 T3 T4 T5 T6 T7 T8 T9 W2 W3 W4 F3", "F3"))
    assert got == {"清龙": 1, "门前清": 1, "缺一门": 1, "单钓将": 1}


def test_principle_3_tiles_that_made_a_fan_do_not_make_it_again():
    # 234s 223344p 567p: 一般高 + 喜相逢 + 连六, not 喜相逢 x2 + 连六 x2
    _, got = fans_of(request("", "T2 T3 T4 B2 B2 B3 B3 B4 B4 B5 B6 B7 F1", "F1", "seat=2 prevalent=2"))
    assert {name: got[name] for name in ("一般高", "喜相逢", "连六")} == {"一般高": 1, "喜相逢": 1, "连六": 1}


def test_principle_4_the_best_reading_counts():
    # W222333444 as three concealed pungs (一色三节高 + 三暗刻) beats three chows (一色三同顺)
    _, got = fans_of(request("", "W2 W3 W4 W2 W3 W4 W2 W3 W4 T6 T7 T8 F1", "F1", "seat=1 prevalent=1"))
    assert "一色三节高" in got and "三暗刻" in got and "一色三同顺" not in got
    # a seven-pairs hand read as 一色双龙会 (64) rather than 七对 (24)
    _, got = fans_of(request("", "W1 W1 W2 W2 W3 W3 W5 W7 W7 W8 W8 W9 W9", "W5"))
    assert "一色双龙会" in got and "七对" not in got
    # on equal points (一色三节高 + 双暗刻 or 一色三同顺 + 平和) the reading with 一色三同顺 is kept
    _, got = fans_of(request("", "W2 W2 W2 W3 W3 W3 W4 W4 T6 T7 T8 B5 B5", "W4"))
    assert got == {"一色三同顺": 1, "门前清": 1, "平和": 1, "断幺": 1}


def test_principle_5_a_set_combines_once_more():
    # 234567s 234567p: 喜相逢 x2 + 连六 x1
    _, got = fans_of(request("", "T2 T3 T4 T5 T6 T7 B2 B3 B4 B5 B6 B7 J1", "J1"))
    assert got["喜相逢"] == 2 and got["连六"] == 1
    # the chow left beside 清龙 pairs once: 一般高, not also 连六 and 老少副
    _, got = fans_of(request("", "T1 T2 T3 T1 T2 T3 T4 T5 T6 T7 T8 T9 F2", "F2"))
    assert got["清龙"] == 1 and got["一般高"] == 1 and "连六" not in got and "老少副" not in got


# --- flags, winds, kongs, waits --------------------------------------------------------------------

CHOWS = ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7")


@pytest.mark.parametrize("flags, present, absent", [
    ("self_drawn", {"自摸"}, {"妙手回春", "杠上开花"}),
    ("self_drawn wall_last", {"妙手回春"}, {"自摸", "海底捞月"}),
    ("wall_last", {"海底捞月"}, {"自摸", "妙手回春"}),
    ("kong_related", {"抢杠和"}, {"杠上开花"}),
    ("kong_related fourth_tile", {"抢杠和"}, {"和绝张"}),
    ("self_drawn kong_related", {"自摸"}, {"杠上开花"}),  # no kong: not a replacement draw
    ("fourth_tile", {"和绝张"}, set()),
])
def test_win_flags(flags, present, absent):
    _, got = fans_of(request(*CHOWS, flags))
    assert present <= set(got) and not absent & set(got)


def test_flags_the_hand_disproves_or_proves():
    # 和绝张 when the hand holds another copy of the winning tile: dropped
    _, got = fans_of(request("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "fourth_tile"))
    assert "和绝张" not in got
    # three copies in its own melds: the winning tile is the fourth
    _, got = fans_of(request("PENG W5 1, CHI T3 2", "W4 W6 B2 B3 B4 J1 J1", "W5"))
    assert "和绝张" in got
    # robbing a kong of a tile the hand holds cannot be
    _, got = fans_of(request("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "kong_related"))
    assert "抢杠和" not in got
    # a replacement draw with a kong is 杠上开花
    _, got = fans_of(request("GANG W3 2, PENG B5 2", "T2 T3 T4 T6 T7 T8 W7", "W7", "self_drawn kong_related"))
    assert "杠上开花" in got and "自摸" not in got


def test_seat_and_prevalent_wind_on_one_pung():
    _, got = fans_of(request("CHI W3 1", "F2 F2 F2 T2 T3 T4 B6 B7 B8 J2", "J2", "seat=1 prevalent=1"))
    assert got["圈风刻"] == 1 and got["门风刻"] == 1 and "幺九刻" not in got
    _, got = fans_of(request("CHI W3 1", "F2 F2 F2 T2 T3 T4 B6 B7 B8 J2", "J2", "seat=0 prevalent=3"))
    assert got["幺九刻"] == 1 and "圈风刻" not in got and "门风刻" not in got


def test_one_exposed_and_one_concealed_kong_score_3():
    # the 81-fan table has no 明暗杠 (PyMahjongGB scores 5)
    total, got = fans_of(request("GANG W2 1, GANG T6 0", "B1 B2 B3 W7 W8 W9 F1", "F1", "seat=2 prevalent=2"))
    assert got["明杠"] == 1 and got["暗杠"] == 1 and total == 1 + 2 + 1  # + 单钓将


def test_a_pung_completed_by_a_discard_is_exposed():
    # W5 W5 + W5 won on a discard: the pung is exposed, unless W5 can complete a chow instead
    _, got = fans_of(request("CHI T3 1", "B1 B1 B1 W2 W2 W2 W5 W5 J1 J1", "W5"))
    assert "三暗刻" not in got and got["双暗刻"] == 1
    _, got = fans_of(request("CHI T3 1", "B1 B1 B1 W2 W2 W2 W5 W5 J1 J1", "W5", "self_drawn"))
    assert got["三暗刻"] == 1


@pytest.mark.parametrize("concealed, win, wait", [
    ("W5 W6 W7 T4 T5 T6 B1 B2 J1 J1", "B3", "边张"),  # 12 waits for 3 only
    ("W5 W6 W7 T4 T5 T6 B4 B6 J1 J1", "B5", "坎张"),
    ("W5 W6 W7 T4 T5 T6 B4 B5 B6 J1", "J1", "单钓将"),
    ("W5 W6 W7 T4 T5 T6 B1 B2 B3 B3", "B3", "边张"),  # 1233 for 3 (seed): edge
    ("W5 W6 W7 T4 T5 T6 B4 B5 B5 B6", "B5", "坎张"),  # 4556 for 5 (seed): closed
    ("W5 W6 W7 T4 T4 B4 B5 B5 B6 B7", "B6", None),  # 45567 for 6 also waits 3 (seed): none
    ("W5 W6 W7 T4 T5 T6 B4 B5 B6 B7", "B7", None),  # 4567 waits 4 and 7
    ("W5 W6 W7 T4 T5 T6 B2 B3 J1 J1", "B4", None),  # two-sided
])
def test_waits_count_only_on_one_tile(concealed, win, wait):
    _, got = fans_of(request("CHI W3 1", concealed, win))
    assert {name for name in got if name in ("边张", "坎张", "单钓将")} == ({wait} if wait else set())


def test_flowers_count_but_not_toward_the_minimum():
    req = request(*CHOWS, "flowers=8")  # 6 points + 8 flowers
    assert mcr.fan_answer(req)["error"] == "UNDER_8"
    req = request("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "self_drawn wall_last flowers=3")
    answer = mcr.fan_answer(req)
    assert answer["fans"][-1] == ["Flower Tiles", "花牌", 1, 3]
    assert answer["total"] == sum(points * count for _, _, points, count in answer["fans"])


# --- the answer format and the refusals ----------------------------------------------------------

def test_answer_format():
    req = request("PENG F1 1, PENG F2 2", "F3 F3 F3 F4 F4 F4 W1", "W1", "flowers=2")
    assert mcr.fan_answer(req) == {"fans": [
        ["Big Four Winds", "大四喜", 88, 1], ["All Terminals and Honors", "混幺九", 32, 1],
        ["Half Flush", "混一色", 6, 1], ["Two Concealed Pungs", "双暗刻", 2, 1],
        ["Single Wait", "单钓将", 1, 1], ["Flower Tiles", "花牌", 1, 2]], "total": 131}
    result = mcr.calculate_fans(mcr.Hand.from_request(req))
    assert result.to_answer() == mcr.fan_answer(req) and result.points == 129


VALID = request(*CHOWS, "fourth_tile")


def changed(**fields) -> dict:
    return {**VALID, **fields}


@pytest.mark.parametrize("req", [
    changed(concealed=["W3"] * 4 + VALID["concealed"][4:]),  # five W3 with the chow
    changed(concealed=VALID["concealed"][1:]),  # a tile short
    changed(concealed=VALID["concealed"] + ["W1"]),
    changed(melds=VALID["melds"] + [["PENG", "F1", 1]] * 3),  # five melds
    changed(seat_wind=4), changed(seat_wind=-1), changed(prevalent_wind="E"), changed(seat_wind=True),
    changed(flowers=9), changed(flowers=-1), changed(flowers=1.0),
    changed(melds=[["CHI", "W1", 1], ["PENG", "B5", 2]]),  # a chow has a middle tile
    changed(melds=[["CHI", "F2", 1], ["PENG", "B5", 2]]),
    changed(melds=[["CHI", "W3", 0], ["PENG", "B5", 2]]),
    changed(melds=[["CHI", "W3", 1], ["PENG", "B5", 0]]),  # a pung is always exposed
    changed(melds=[["CHI", "W3", 1], ["GANG", "B5", 4]]),
    changed(melds=[["PUNG", "W3", 1], ["PENG", "B5", 2]]),
    changed(melds=[["CHI", "W3"], ["PENG", "B5", 2]]),
    changed(melds=["CHI W3 1", ["PENG", "B5", 2]]),
    changed(melds=[["CHI", "W3", 10 ** 30], ["PENG", "B5", 2]]),
    changed(concealed=VALID["concealed"][:-1] + ["H1"]),  # a flower is not a hand tile
    changed(concealed=VALID["concealed"][:-1] + ["W0"]),
    changed(concealed=VALID["concealed"][:-1] + [3]),
    changed(win_tile="J4"), changed(win_tile=None), changed(concealed=None), changed(melds="none"),
    changed(self_drawn="yes"), changed(wall_last=2),
    [VALID], "W1 W2", None,
])
def test_bad_input(req):
    answer = mcr.fan_answer(req)
    assert answer["error"] == "BAD_INPUT" and answer["message"]
    if isinstance(req, dict):
        with pytest.raises(InvalidAction):
            mcr.calculate_fans(mcr.Hand.from_request(req))


def test_not_win_and_under_8():
    not_win = changed(concealed=["T2", "T3", "T4", "T6", "T8", "J1", "J2"])
    assert mcr.fan_answer(not_win)["error"] == "NOT_WIN"
    with pytest.raises(IllegalAction) as refused:
        mcr.calculate_fans(mcr.Hand.from_request(not_win))
    assert refused.value.reason == mcr.NOT_WIN == "NOT_WIN"
    under = request("PENG W1 1", "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1", "J1", "flowers=8")
    answer = mcr.fan_answer(under)
    assert answer["error"] == "UNDER_8" and "5 points" in answer["message"]
    with pytest.raises(IllegalAction) as refused:
        mcr.calculate_fans(mcr.Hand.from_request(under))
    assert refused.value.reason == mcr.UNDER_8 == "UNDER_8"
    assert mcr.calculate_fans(mcr.Hand.from_request(under), minimum=0).points == 5


def test_bad_input_reasons():
    with pytest.raises(InvalidAction) as refused:
        mcr.calculate_fans(mcr.Hand.from_request(changed(concealed=["W3"] * 4 + VALID["concealed"][4:])))
    assert refused.value.reason == Reason.DUPLICATE_CARD
    with pytest.raises(InvalidAction) as refused:
        mcr.Hand.from_request(changed(win_tile="X9"))
    assert refused.value.reason == Reason.UNKNOWN_CARD


def test_defaults_and_int_flags():
    bare = {"melds": VALID["melds"], "concealed": VALID["concealed"], "win_tile": VALID["win_tile"]}
    assert mcr.fan_answer(bare) == mcr.fan_answer(changed(fourth_tile=False))
    assert mcr.fan_answer(changed(fourth_tile=1)) == mcr.fan_answer(VALID)


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False)
                           | st.sampled_from(["W1", "B9", "F4", "J3", "H1", "CHI", "PENG", "GANG", "x", ""]),
                           lambda inner: st.lists(inner, max_size=14) | st.dictionaries(st.text(max_size=3), inner),
                           max_leaves=30)
tile_lists = st.lists(st.sampled_from(mcr.TILE_NAMES), max_size=15)
melds = st.lists(st.tuples(st.sampled_from(["CHI", "PENG", "GANG", "PUNG"]), st.sampled_from(mcr.TILE_NAMES),
                           st.integers(-1, 4)).map(list), max_size=5)


def near_winning_hand(rnd) -> dict:
    """A request built as a winning hand is (rule 8: four sets and a pair, some sets melded, the
    sets mostly of one suit and honors so that many score 8), then often spoiled the way the
    impossible hands are (a fifth copy, a flower or an unknown tile in the hand, a tile too many
    or too few, a chow on an honor or a terminal, a pung offered by nobody, winds and flowers out
    of range) or with a tile changed."""
    suit = rnd.choice("WTB")
    suited = [f"{suit}{n}" for n in range(1, 10)]
    others = [f"{s}{n}" for s in "WTB" if s != suit for n in range(1, 10)]
    honors = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    melds, concealed = [], []
    for _ in range(4):
        shape = rnd.choice(["chow", "chow", "pung", "pung", "kong"])
        pool = rnd.choice([suited, suited, honors, others])
        if shape == "chow" and pool is not honors:
            start = rnd.randrange(7)
            tiles = pool[start:start + 3]
            meld = ["CHI", tiles[1], rnd.randint(1, 3)]
        else:
            tile = rnd.choice(pool)
            tiles = [tile] * (4 if shape == "kong" else 3)
            meld = ["GANG" if shape == "kong" else "PENG", tile, rnd.randint(0 if shape == "kong" else 1, 3)]
        if rnd.random() < 0.3:
            melds.append(meld)
        else:
            concealed += tiles[:3]  # a kong not declared is a pung in hand
    concealed += [rnd.choice(suited + honors)] * 2
    rnd.shuffle(concealed)
    win = concealed.pop()
    req = {"melds": melds, "concealed": concealed, "win_tile": win, "self_drawn": rnd.random() < 0.5,
           "fourth_tile": rnd.random() < 0.1, "kong_related": rnd.random() < 0.1, "wall_last": rnd.random() < 0.1,
           "seat_wind": rnd.randrange(4), "prevalent_wind": rnd.randrange(4), "flowers": rnd.randrange(9)}
    spoil = rnd.randrange(20)
    if spoil == 0 and len(concealed) >= 3:  # a kong of the winning tile: a fifth copy
        req["melds"], req["concealed"] = melds + [["GANG", win, 0]], concealed[3:]
    elif spoil == 1:
        req["concealed"] = concealed[:-1] + [rnd.choice(["H1", "H8", "X3", "W0"])]
    elif spoil == 2:
        req["concealed"] = concealed + [rnd.choice(suited)]
    elif spoil == 3:
        req["concealed"] = concealed[1:]
    elif spoil == 4:
        req["melds"] = melds + [["CHI", rnd.choice(honors + [f"{suit}1", f"{suit}9"]), 1]]
    elif spoil == 5:
        req["melds"] = melds + [["PENG", rnd.choice(suited), 0]]
    elif spoil == 6:
        req[rnd.choice(["seat_wind", "prevalent_wind"])] = rnd.choice([-1, 4])
    elif spoil == 7:
        req["flowers"] = rnd.choice([-1, 9])
    elif spoil in (8, 9) and concealed:  # one tile changed: mostly no winning shape
        req["concealed"] = [rnd.choice(others + honors)] + concealed[1:]
    return req


def possible(req: dict) -> bool:
    """Four copies of a tile at most (melds included), no flower or unknown tile in the hand."""
    tiles = Counter(mcr.parse_tiles(req["concealed"] + [req["win_tile"]]))
    for kind, name, _offer in req.get("melds", []):
        tile = mcr.parse_tile(name)
        tiles.update((tile - 1, tile, tile + 1) if kind == "CHI" else (tile,) * (3 if kind == "PENG" else 4))
    return max(tiles.values()) <= 4 and max(tiles) < 34


@settings(max_examples=400, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "melds": melds | json_values, "concealed": tile_lists | json_values,
    "win_tile": st.sampled_from(mcr.TILE_NAMES) | json_values, "self_drawn": json_values,
    "fourth_tile": st.booleans(), "kong_related": st.booleans(), "wall_last": json_values,
    "seat_wind": st.integers(-1, 4) | json_values, "prevalent_wind": st.integers(0, 3),
    "flowers": st.integers(-1, 9)}) | json_values | st.randoms(use_true_random=False).map(near_winning_hand))
def test_never_crashes_never_scores_the_impossible(req):
    answer = mcr.fan_answer(req)
    assert set(answer) in ({"fans", "total"}, {"error", "message"})
    if "fans" in answer:  # then the hand was possible: four copies at most, no flower in it
        assert possible(req)
        assert 0 <= req.get("seat_wind", 0) <= 3 and 0 <= req.get("prevalent_wind", 0) <= 3
        assert 0 <= req.get("flowers", 0) <= 8
        assert answer["total"] - req.get("flowers", 0) >= 8
        assert answer["total"] == sum(points * count for _, _, points, count in answer["fans"])


def test_the_fuzz_inputs_reach_the_scoring_branch():
    """The near-winning hands the fuzz test draws are scored often, and refused for each reason."""
    import random

    answers = Counter()
    for seed in range(300):
        req = near_winning_hand(random.Random(seed))
        answer = mcr.fan_answer(req)
        answers[answer.get("error", "scored")] += 1
        if "fans" in answer:
            assert possible(req)
    assert answers["scored"] >= 60, answers
    assert min(answers[reason] for reason in ("BAD_INPUT", "NOT_WIN", "UNDER_8")) >= 15, answers


def test_mcr_rule_12_both_request_paths_agree():
    """fan_answer parses the request in the compiled module; the service goes through
    Hand.from_request + calculate_fans. Same hands, same answers (errors by kind)."""
    import random

    for seed in range(600):
        request = mcr.random_winning_hand(random.Random(seed))
        answer = mcr.fan_answer(request)
        try:
            expected = mcr.calculate_fans(mcr.Hand.from_request(request)).to_answer()
        except IllegalAction as refusal:
            expected = {"error": refusal.reason}
        if "error" in answer:
            assert answer["error"] == expected["error"], seed
        else:
            assert answer == expected, seed
