"""国标麻将 fan calculator pinned: worked hands and refusals for the places of ``core/mcr_hot.py``
a mutant got past (``make mutate GAME=mcr``, tests/mutation), each test named after its rule of
rules/mcr.md (9: the fans and their 不计 lists, 12: the calculator API and its reasons). Every
expected answer (each fan, its points, the total, the message) is worked out by hand from the
seed's fan table, not computed with the calculator's helpers; the hands were also checked against
PyMahjongGB. Each test runs on both twins of ``mcr_hot`` (``twin``: interpreted and compiled).
"""
import pytest

from referee.core import speedups
from referee.core.games.mcr.fan_table import FAN_IDS


@pytest.fixture(params=["interpreted", "compiled"])
def twin(request):
    """Each twin of ``mcr_hot`` in turn."""
    interpreted = speedups.interpreted("games.mcr.hot")
    if request.param == "compiled":
        compiled = speedups.load("games.mcr.hot")
        if compiled is interpreted:
            pytest.skip("no compiled twin: referee.core.games.mcr.hot_c is not installed "
                        "(or REFEREE_FORCE_PURE=1), so load() gives the interpreted module")
        return compiled
    return interpreted


def request(concealed: str, win: str, melds=(), **fields) -> dict:
    return {"melds": [list(m) for m in melds], "concealed": concealed.split(), "win_tile": win, **fields}


# tile ids for ``evaluate``: W1-9 0-8, T1-9 9-17, B1-9 18-26, F1-4 27-30, J1-3 31-33
W, T, B, F, J = 0 - 1, 9 - 1, 18 - 1, 27 - 1, 31 - 1  # + the number: W + 1 is W1


def ids(text: str) -> list[int]:
    return [{"W": W, "T": T, "B": B, "F": F, "J": J}[name[0]] + int(name[1]) for name in text.split()]


def evaluate(twin, concealed: str, win: str, melds=(), seat=0, prevalent=0, flowers=0) -> tuple:
    return twin.evaluate(list(melds), ids(concealed), ids(win)[0], False, False, False, False,
                         seat, prevalent, flowers)


# --- 9. fans -------------------------------------------------------------------------------------

def test_mcr_rule_9_four_pure_shifted_chows_step_two(twin):
    """一色四步高 also steps by two: 123 345 567 789 of 万 and a pair of 中 won on the 中 (its only
    wait). 32 一色四步高 (not 一色三步高, 连六, 老少副) + 6 混一色 + 2 门前清 + 1 单钓将 = 41."""
    req = request("W1 W2 W3 W3 W4 W5 W5 W6 W7 W7 W8 W9 J1", "J1")
    assert twin.answer(req) == {"fans": [
        ["Four Pure Shifted Chows", "一色四步高", 32, 1], ["Half Flush", "混一色", 6, 1],
        ["Concealed Hand", "门前清", 2, 1], ["Single Wait", "单钓将", 1, 1]], "total": 41}
    assert evaluate(twin, "W1 W2 W3 W3 W4 W5 W5 W6 W7 W7 W8 W9 J1", "J1") == (
        "OK", "", 41, ((16, 1), (49, 1), (62, 1), (79, 1)))


def test_mcr_rule_9_four_pure_shifted_chows_step_one(twin):
    """The step of one beside it: 234 345 456 567 of 条 and a pair of 东 (seat and prevalent wind
    south, so no wind fan): 32 + 6 混一色 + 2 门前清 + 1 单钓将 = 41."""
    req = request("T2 T3 T4 T3 T4 T5 T4 T5 T6 T5 T6 T7 F1", "F1", seat_wind=1, prevalent_wind=1)
    assert twin.answer(req) == {"fans": [
        ["Four Pure Shifted Chows", "一色四步高", 32, 1], ["Half Flush", "混一色", 6, 1],
        ["Concealed Hand", "门前清", 2, 1], ["Single Wait", "单钓将", 1, 1]], "total": 41}


def test_mcr_rule_9_three_suited_terminal_chows_needs_both_chows_of_both_suits(twin):
    """三色双龙会 is 123 and 789 of two suits each with a pair of 5s of the third: 123 123 789 of 万
    with 789 of 条 and a pair of B5 is not it. Its chows combine (principle 5, at most three
    fans of four chows): 一般高 (123 123 of 万), 老少副 once (123 789 of 万), 喜相逢 (789 of 万
    and of 条); 2 平和 + 2 门前清 + 1 + 1 + 1 + 1 单钓将 (the B5 is its only wait) = 8."""
    req = request("W1 W2 W3 W1 W2 W3 W7 W8 W9 T7 T8 T9 B5", "B5")
    assert twin.answer(req) == {"fans": [
        ["Concealed Hand", "门前清", 2, 1], ["All Chows", "平和", 2, 1],
        ["Pure Double Chow", "一般高", 1, 1], ["Mixed Double Chow", "喜相逢", 1, 1],
        ["Two Terminal Chows", "老少副", 1, 1], ["Single Wait", "单钓将", 1, 1]], "total": 8}


def test_mcr_rule_9_three_suited_terminal_chows(twin):
    """The real one: 123 789 of 万 and of 条, a pair of B5: 16 三色双龙会 (not 喜相逢, 老少副, 无字,
    平和) + 2 门前清 + 1 单钓将 = 19."""
    req = request("W1 W2 W3 W7 W8 W9 T1 T2 T3 T7 T8 T9 B5", "B5")
    assert twin.answer(req) == {"fans": [
        ["Three-Suited Terminal Chows", "三色双龙会", 16, 1], ["Concealed Hand", "门前清", 2, 1],
        ["Single Wait", "单钓将", 1, 1]], "total": 19}


def scored(twin, melds: str, concealed: str, win: str, flags: str = "") -> tuple[int, dict[str, int]]:
    """(points, {Chinese name: count}) of a hand, any number of points: ``"CHI W2 1, PENG B5 2"``
    (CHI 1, PENG 2, GANG 3), ``"W1 W1 ..."``, ``"W5"``, ``"self_drawn seat=1 prevalent=2"``."""
    kinds = {"CHI": 1, "PENG": 2, "GANG": 3}
    triples = [(kinds[kind], ids(tile)[0], int(offer))
               for kind, tile, offer in (m.split() for m in melds.split(",") if m.strip())]
    words = dict(w.partition("=")[::2] for w in flags.split())
    status, message, points, fans = twin.evaluate(
        triples, ids(concealed), ids(win)[0], "self_drawn" in words, "fourth_tile" in words,
        "kong_related" in words, "wall_last" in words, int(words.get("seat", 0)),
        int(words.get("prevalent", 0)), 0)
    assert status == "OK", message
    names = {number: name for name, number in FAN_IDS.items()}
    return points, {names[number]: count for number, count in fans}


def fans(text: str) -> dict[str, int]:
    """``"一般高x2 连六"`` -> {"一般高": 2, "连六": 1}."""
    return {name: int(count or 1) for name, _, count in (word.partition("x") for word in text.split())}


# (melds, concealed, winning tile, flags, points, every fan of the best reading): each worked by
# hand from the seed's table (points in the comment, 不计 lists applied) and checked with PyMahjongGB
WORKED = [
    # principle 5 (套算一次) on chows: 123 123 456 456 of 万 make six pairs (一般高 x2, 连六 x4);
    # four chows combine at most three times, so repeated 连六 go first: 一般高 x2 + 连六 (3) +
    # 平和 2 + 缺一门 1 + 单钓将 1 (the melded chow stops the seven-pairs reading) = 7
    ("CHI W2 1", "W1 W2 W3 W4 W5 W6 W4 W5 W6 T8", "T8", "", 7, "平和 一般高x2 连六 缺一门 单钓将"),
    # three chows combine at most twice: 123 123 of 万 (一般高) and each with 123 of 条 (喜相逢 x2):
    # 一般高 + 喜相逢 (2) + 门前清 2 + 单钓将 1 = 5 (the pung of B5 is no 幺九刻)
    ("", "W1 W2 W3 W1 W2 W3 T1 T2 T3 B5 B5 B5 J1", "J1", "", 5, "门前清 一般高 喜相逢 单钓将"),
    # a chow related to no other lowers the limit: B789 pairs with nothing, so 123 123 456 of 万
    # keep two of 一般高, 连六, 连六: 一般高 + 连六 (2) + 门前清 2 + 缺一门 1 + 单钓将 1 = 6
    ("", "W1 W2 W3 W1 W2 W3 W4 W5 W6 B7 B8 B9 J2", "J2", "", 6, "门前清 一般高 连六 缺一门 单钓将"),
    # ... wherever the unrelated chow sorts: first (W789 beside 123 123 456 of 条: 一般高 + 连六 +
    # 门前清 2 + 缺一门 1 + 单钓将 1 = 6), second or third (W678 beside W234, and T234 T234 or W234
    # T234: 一般高 + 喜相逢 + 平和 2 + 门前清 2 + 单钓将 1 = 7)
    ("", "W7 W8 W9 T1 T2 T3 T1 T2 T3 T4 T5 T6 J2", "J2", "", 6, "门前清 一般高 连六 缺一门 单钓将"),
    ("", "W2 W3 W4 W6 W7 W8 T2 T3 T4 T2 T3 T4 B9", "B9", "", 7, "门前清 平和 一般高 喜相逢 单钓将"),
    ("", "W2 W3 W4 W2 W3 W4 W6 W7 W8 T2 T3 T4 B9", "B9", "", 7, "门前清 平和 一般高 喜相逢 单钓将"),
    # 234 and 678 of 万 are neither 连六 (four apart) nor 老少副 (that is 123 with 789): 喜相逢 for
    # W234 T234 + 平和 2 + 门前清 2 + 单钓将 1 = 6
    ("", "W2 W3 W4 W6 W7 W8 T2 T3 T4 B5 B6 B7 T9", "T9", "", 6, "门前清 平和 喜相逢 单钓将"),
    # 123 789 of 万 and of 条 with a pair of 条: no 三色双龙会 (the pair is not of the third suit);
    # 喜相逢 x2 (123s, 789s) and 老少副 once (of four pairs, the repeated 老少副 goes): 2 + 1 +
    # 平和 2 + 门前清 2 + 缺一门 1 + 单钓将 1 = 9
    ("", "W1 W2 W3 W7 W8 W9 T1 T2 T3 T7 T8 T9 T5", "T5", "", 9, "门前清 平和 喜相逢x2 老少副 缺一门 单钓将"),
    # 一色双龙会 needs 123 123 789 789 of the pair's suit: 123 123 of 万 with 789 789 of 条 and a pair
    # of W5 is 一般高 x2 + 平和 2 + 缺一门 1 + 单钓将 1 = 6 (a melded chow, so no seven pairs); so is
    # 789 789 of 万 with 123 123 of 条
    ("CHI W2 1", "W1 W2 W3 T7 T8 T9 T7 T8 T9 W5", "W5", "", 6, "平和 一般高x2 缺一门 单钓将"),
    ("CHI W8 1", "W7 W8 W9 T1 T2 T3 T1 T2 T3 W5", "W5", "", 6, "平和 一般高x2 缺一门 单钓将"),
    # 三色双龙会 with both 万 chows melded: 16 + 单钓将 1 = 17
    ("CHI W2 1, CHI W8 2", "T1 T2 T3 T7 T8 T9 B5", "B5", "", 17, "三色双龙会 单钓将"),
    # three-chow fans whatever the order of the ranks: 花龙 of W789 T123 B456 (8) + 五门齐 6 +
    # 箭刻 2 + 门前清 2 + 单钓将 1 = 19
    ("", "W7 W8 W9 T1 T2 T3 B4 B5 B6 J1 J1 J1 F2", "F2", "", 19, "花龙 五门齐 箭刻 门前清 单钓将"),
    # 三色三步高 of W567 T345 B456 (6) + 门前清 2 + 无字 1 + 单钓将 1 = 10
    ("", "W5 W6 W7 T3 T4 T5 B4 B5 B6 B8 B8 B8 T9", "T9", "", 10, "三色三步高 门前清 无字 单钓将"),
    # 一色三步高 stepping by two: W123 W345 W567 (16) + 门前清 2 + 缺一门 1 + 单钓将 1 = 20
    ("", "W1 W2 W3 W3 W4 W5 W5 W6 W7 T2 T2 T2 J3", "J3", "", 20, "一色三步高 门前清 缺一门 单钓将"),
    # principle 5 beside a three-chow fan: the fourth chow pairs once with one of its chows
    # 清龙 of 万 (16, not 连六 or 老少副) + 喜相逢 W123 T123 (1) + 平和 2 + 门前清 2 + 单钓将 1 = 22
    ("", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B5", "B5", "", 22, "清龙 门前清 平和 喜相逢 单钓将"),
    # 三色三同顺 of the 456s (8), and W123 beside it makes 连六 with W456 (1) + 门前清 2 + 单钓将 1 = 12
    ("", "W1 W2 W3 W4 W5 W6 T4 T5 T6 B4 B5 B6 J2", "J2", "", 12, "三色三同顺 门前清 连六 单钓将"),
    # the chow beside a three-chow fan takes its best pair: 一般高 before 喜相逢 (W456 beside 三色三同顺
    # of 456: 8 + 1 + 门前清 2 + 单钓将 1 = 12), 喜相逢 before 连六 (T123 beside 花龙 W123 T456 B789:
    # 喜相逢 with W123, 连六 with T456; 8 + 1 + 门前清 2 + 单钓将 1 = 12)
    ("", "W4 W5 W6 W4 W5 W6 T4 T5 T6 B4 B5 B6 J1", "J1", "", 12, "三色三同顺 门前清 一般高 单钓将"),
    ("", "W1 W2 W3 T4 T5 T6 B7 B8 B9 T1 T2 T3 J1", "J1", "", 12, "花龙 门前清 喜相逢 单钓将"),
    # 三色三步高 W234 T345 B456 (6), T678 beside it: 连六 with T345 (1) + 门前清 2 + 单钓将 1 = 10
    ("", "W2 W3 W4 T3 T4 T5 T6 T7 T8 B4 B5 B6 F3", "F3", "", 10, "三色三步高 门前清 连六 单钓将"),
    # 三色三步高 W234 T345 B456 (6), W345 beside it: 喜相逢 with T345 (1) + 门前清 2 + 单钓将 1 = 10
    ("", "W2 W3 W3 W4 W4 W5 T3 T4 T5 B4 B5 B6 J1", "J1", "", 10, "三色三步高 门前清 喜相逢 单钓将"),
    # 全带五 needs a 5 in every set: W345 W567 T456 B555 and a pair of T5: 16 (not 断幺, 无字) +
    # 门前清 2 + 坎张 1 (T4 T5 T5 T6 waits on the T5 only: the T456 chow's middle, beating the pair)
    ("", "W3 W4 W5 W5 W6 W7 T4 T5 T6 B5 B5 B5 T5", "T5", "", 19, "全带五 门前清 坎张"),
    # ... and W678 has none: 断幺 2 + 门前清 2 + 连六 W345 W678 (1) + 坎张 1 = 6
    ("", "W3 W4 W5 W6 W7 W8 T4 T5 T6 B5 B5 B5 T5", "T5", "", 6, "门前清 断幺 连六 坎张"),
    # pung fans: 三色三节高 W3 T4 B5 (8), T3 beside it with W3: 双同刻 (2) + 碰碰和 6 + 双暗刻 2 +
    # 单钓将 1 = 19
    ("PENG W3 1, PENG T3 2", "T4 T4 T4 B5 B5 B5 J1", "J1", "", 19, "三色三节高 碰碰和 双同刻 双暗刻 单钓将"),
    # 一色三节高 W111 W222 W333 (24) beside a melded W555 (no 四节高: W4 is missing) + 三暗刻 16 +
    # 碰碰和 6 + 混一色 6 + 幺九刻 (W1) 1 + 单钓将 1 = 54
    ("PENG W5 1", "W1 W1 W1 W2 W2 W2 W3 W3 W3 J1", "J1", "", 54, "一色三节高 三暗刻 碰碰和 混一色 幺九刻 单钓将"),
    # W8 W9 T1 are no shifted pungs (T1 is another suit): 幺九刻 x2 (W9, T1) + 单钓将 1 = 3
    ("PENG W8 1, PENG W9 2", "T1 T1 T1 B2 B3 B4 J1", "J1", "", 3, "幺九刻x2 单钓将"),
    # W7 W8 W9 T1: 一色三节高 24 (not 一色四节高) + 碰碰和 6 + 幺九刻 x2 + 缺一门 1 + 单钓将 1 = 34
    ("PENG W7 1, PENG W8 2, PENG W9 3", "T1 T1 T1 J1", "J1", "", 34, "一色三节高 碰碰和 幺九刻x2 缺一门 单钓将"),
    # 三色三节高 in any order of the suits' ranks (W5 T3 B4): 8 + 单钓将 1 = 9
    ("PENG W5 1, PENG T3 2", "B4 B4 B4 W7 W8 W9 F2", "F2", "", 9, "三色三节高 单钓将"),
    # 三同刻 W3 T3 B3 (16, not 双同刻) and W6: 碰碰和 6 + 单钓将 1 = 23
    ("PENG W3 1, PENG T3 2, PENG B3 3", "W6 W6 W6 J2", "J2", "", 23, "三同刻 碰碰和 单钓将"),
    # every pair of pungs: 双同刻 W2 T2 (2) + 双箭刻 (6, not 箭刻) + 碰碰和 6 + 双暗刻 2 + 单钓将 1 = 17
    ("PENG W2 1, PENG T2 2", "J1 J1 J1 J2 J2 J2 B7", "B7", "", 17, "碰碰和 双箭刻 双同刻 双暗刻 单钓将"),
    # seven pairs across a suit's end are not 连七对 (W789 T1234): 七对 24 + 缺一门 1 + 无字 1 = 26
    ("", "W7 W7 W8 W8 W9 W9 T1 T1 T2 T2 T3 T3 T4", "T4", "", 26, "七对 缺一门 无字"),
    ("", "W9 W9 T1 T1 T2 T2 T3 T3 T4 T4 T5 T5 T6", "T6", "", 26, "七对 缺一门 无字"),
    ("", "W8 W8 W9 W9 T1 T1 T2 T2 T3 T3 T4 T4 T5", "T5", "", 26, "七对 缺一门 无字"),
    # six pairs in a row (W2..W7) and a pair of 中 are not 连七对: 七对 24 + 混一色 6 = 30
    ("", "W2 W2 W3 W3 W4 W4 W5 W5 W6 W6 W7 W7 J1", "J1", "", 30, "七对 混一色"),
    # 连七对 of B3..B9: 88 alone (not 清一色, 七对, 门前清, 单钓将, 无字)
    ("", "B3 B3 B4 B4 B5 B5 B6 B6 B7 B7 B8 B8 B9", "B9", "", 88, "连七对"),
    # four of a kind are two of the seven pairs: 七对 24 + 四归一 2 = 26
    ("", "W2 W2 W2 W2 T3 T3 T5 T5 B6 B6 B8 B8 F1", "F1", "", 26, "七对 四归一"),
    # 全不靠 holding a whole knitted straight: 全不靠 12 + 组合龙 12 = 24
    ("", "W1 W4 W7 T2 T5 T8 B3 B6 B9 F1 F2 F3 J1", "J2", "", 24, "全不靠 组合龙"),
    # 组合龙 + a melded pung of 东 (south seat, west round: no wind fan) + a pair of 中: 12 + 五门齐 6 +
    # 幺九刻 1 + 单钓将 1 (the J1 is the knitted hand's only wait) = 20
    ("PENG F1 1", "W1 W4 W7 T2 T5 T8 B3 B6 B9 J1", "J1", "seat=1 prevalent=2", 20, "组合龙 五门齐 幺九刻 单钓将"),
    # 组合龙 waits: completing the straight is no wait fan (组合龙 12 + 门前清 2 = 14); 12 of 万 for the 3
    # is 边张 (15); W5 W5 J1 J1 for either is none, a 中 pung adds 箭刻 (16); W5 W6 for W4 or W7 none
    ("", "W1 W4 W7 T2 T5 T8 B3 B6 W5 W5 W5 J1 J1", "B9", "", 14, "组合龙 门前清"),
    ("", "W1 W4 W7 T2 T5 T8 B3 B6 B9 W1 W2 J1 J1", "W3", "", 15, "组合龙 门前清 边张"),
    ("", "W1 W4 W7 T2 T5 T8 B3 B6 B9 W5 W5 J1 J1", "J1", "", 16, "组合龙 箭刻 门前清"),
    ("", "W1 W4 W7 T2 T5 T8 B3 B6 B9 W5 W5 J1 J1", "W5", "", 14, "组合龙 门前清"),
    ("", "W1 W4 W7 T2 T5 T8 B3 B6 B9 W5 W6 J1 J1", "W7", "", 14, "组合龙 门前清"),
    # --- how the hand won (rule 12's flags), concealment, kongs --------------------------------
    # W234 melded, B5 pung melded, T234, T6 T8 waiting for the T7 only, a pair of 中: 喜相逢 (W234
    # T234) 1 + 坎张 1 = 2, and each flag adds its fan
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "", 2, "喜相逢 坎张"),
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "self_drawn", 3, "喜相逢 坎张 自摸"),
    # 妙手回春 8 (not 自摸) / 海底捞月 8
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "self_drawn wall_last", 10, "妙手回春 喜相逢 坎张"),
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "wall_last", 10, "海底捞月 喜相逢 坎张"),
    # 抢杠和 8 (not 和绝张): the hand holds no other T7, so it can rob a kong of it
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "kong_related", 10, "抢杠和 喜相逢 坎张"),
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "kong_related fourth_tile", 10, "抢杠和 喜相逢 坎张"),
    # self-drawn after a kong, with no kong: a plain 自摸
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "self_drawn kong_related", 3, "喜相逢 坎张 自摸"),
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T8 J1 J1", "T7", "fourth_tile", 6, "和绝张 喜相逢 坎张"),
    # won on the 中 while holding another: neither 和绝张 nor 抢杠和 can be; 喜相逢 + 单钓将 = 2
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "fourth_tile", 2, "喜相逢 单钓将"),
    ("CHI W3 1, PENG B5 2", "T2 T3 T4 T6 T7 T8 J1", "J1", "kong_related", 2, "喜相逢 单钓将"),
    # three W5 melded and the W5 won: 和绝张 4 without the flag, 四归一 2 (four W5, no kong), 喜相逢
    # T234 B234 1, 坎张 W4 W6 1 = 8
    ("PENG W5 1, CHI T3 2", "W4 W6 B2 B3 B4 J1 J1", "W5", "", 8, "和绝张 四归一 喜相逢 坎张"),
    # 杠上开花 8 (not 自摸) + 断幺 2 + 明杠 1 + 单钓将 1 = 12; on the last tile also 妙手回春 8 = 20
    ("GANG W3 2, PENG B5 2", "T2 T3 T4 T6 T7 T8 W7", "W7", "self_drawn kong_related", 12, "杠上开花 断幺 明杠 单钓将"),
    ("GANG W3 2, PENG B5 2", "T2 T3 T4 T6 T7 T8 W7", "W7", "self_drawn kong_related wall_last", 20,
     "妙手回春 杠上开花 断幺 明杠 单钓将"),
    # kongs (west seat, west round: no wind fan for the F1 pair): 双暗杠 6 (not 双暗刻, 暗杠) +
    # 门前清 2 (concealed kongs keep the hand concealed) + 单钓将 1 = 9; 双明杠 4 + 单钓将 1 = 5;
    # 明杠 1 + 单钓将 1 = 2; 暗杠 2 + 门前清 2 + 单钓将 1 = 5, self-drawn 不求人 4 (not 门前清, 自摸) = 7
    ("GANG W2 0, GANG T6 0", "B1 B2 B3 W7 W8 W9 F1", "F1", "seat=2 prevalent=2", 9, "双暗杠 门前清 单钓将"),
    ("GANG W2 1, GANG T6 2", "B1 B2 B3 W7 W8 W9 F1", "F1", "seat=2 prevalent=2", 5, "双明杠 单钓将"),
    ("GANG W2 1", "B1 B2 B3 W7 W8 W9 T5 T6 T7 F1", "F1", "seat=2 prevalent=2", 2, "明杠 单钓将"),
    ("GANG W2 0", "B1 B2 B3 W7 W8 W9 T5 T6 T7 F1", "F1", "seat=2 prevalent=2", 5, "门前清 暗杠 单钓将"),
    ("GANG W2 0", "B1 B2 B3 W7 W8 W9 T5 T6 T7 F1", "F1", "seat=2 prevalent=2 self_drawn", 7, "不求人 暗杠 单钓将"),
    # 全求人 6 (all four sets melded, won on a discard; not 单钓将) + 三色三步高 6 + 五门齐 6 +
    # 幺九刻 1 (东 in a west round, west seat) = 19; self-drawn: 自摸 1 + 单钓将 1 instead = 15
    ("CHI W3 1, CHI T4 2, CHI B5 3, PENG F1 1", "J1", "J1", "seat=2 prevalent=2", 19, "三色三步高 五门齐 全求人 幺九刻"),
    ("CHI W3 1, CHI T4 2, CHI B5 3, PENG F1 1", "J1", "J1", "seat=2 prevalent=2 self_drawn", 15,
     "三色三步高 五门齐 幺九刻 单钓将 自摸"),
    # --- concealed pungs and waits of one reading ---------------------------------------------------
    # a pung completed by a discard is exposed (双暗刻 of B1 W2, 幺九刻 B1: 3), self-drawn concealed
    # (三暗刻 16 + 幺九刻 1 + 自摸 1 = 18); W5 W5 + W5 with J1 J1 is a 双碰 wait, no wait fan
    ("CHI T3 1", "B1 B1 B1 W2 W2 W2 W5 W5 J1 J1", "W5", "", 3, "双暗刻 幺九刻"),
    ("CHI T3 1", "B1 B1 B1 W2 W2 W2 W5 W5 J1 J1", "W5", "self_drawn", 18, "三暗刻 幺九刻 自摸"),
    # ... unless the winning tile may sit in a chow of the reading: W456 + W555 won on a discard W5
    # keeps W555 concealed: 双暗刻 (W5, T1) 2 + 四归一 2 + 幺九刻 1 + 门前清 2 = 7 (J1 also wins:
    # W55 + W456, no wait fan); self-drawn 不求人 4 instead of 门前清: 9
    ("", "W4 W5 W5 W5 W6 T1 T1 T1 B7 B8 B9 J1 J1", "W5", "", 7, "门前清 四归一 双暗刻 幺九刻"),
    ("", "W4 W5 W5 W5 W6 T1 T1 T1 B7 B8 B9 J1 J1", "W5", "self_drawn", 9, "不求人 四归一 双暗刻 幺九刻"),
    # a concealed kong is a concealed pung: 暗杠 W2 + T555 + B777 = 三暗刻 16 + 暗杠 2 + 门前清 2 +
    # 单钓将 1 = 21
    ("GANG W2 0", "T5 T5 T5 B7 B7 B7 W7 W8 W9 F1", "F1", "seat=2 prevalent=2", 21, "三暗刻 门前清 暗杠 单钓将"),
    # a melded chow holding the winning tile is no wait: T3 won single beside a melded T234 is
    # 单钓将 (not 坎张): 平和 2 + 连六 B456 B789 1 + 单钓将 1 = 4
    ("CHI T3 1", "W1 W2 W3 B4 B5 B6 B7 B8 B9 T3", "T3", "", 4, "平和 连六 单钓将"),
    # 89 for the 7 is 边张 (1; no other fan: the chows relate to none); 1112 for the 3 also waits on the
    # 2, so no wait fan (箭刻 2)
    ("CHI T3 1", "W8 W9 B4 B5 B6 T6 T7 T8 J1 J1", "W7", "", 1, "边张"),
    ("CHI T3 1", "W1 W1 W1 W2 B4 B5 B6 J1 J1 J1", "W3", "", 2, "箭刻"),
    # W4 W5 W5 W5 W6 won on the W5 (W456 + W555, the W5 in the chow's middle) is no 坎张 beside a
    # lone pair, which is a second wait (T7 or 中 makes a pung, W55 the pair): 门前清 2 + 四归一 2 +
    # 老少副 B123 B789 1 + 无字 1 (or 缺一门 1) = 6
    ("", "W4 W5 W5 W5 W6 T7 T7 B1 B2 B3 B7 B8 B9", "W5", "", 6, "门前清 四归一 老少副 无字"),
    ("", "W4 W5 W5 W5 W6 J1 J1 B1 B2 B3 B7 B8 B9", "W5", "", 6, "门前清 四归一 老少副 缺一门"),
    # --- every set and the pair: 全带幺 W123 T789 B111 北北北 and a pair of W9 (south seat, south
    # round): 4 + 门前清 2 + 双暗刻 2 + 幺九刻 x2 (B1, 北) + 单钓将 1 = 11; with W234 no 全带幺: 7
    ("", "W1 W2 W3 T7 T8 T9 B1 B1 B1 F4 F4 F4 W9", "W9", "seat=1 prevalent=1", 11, "全带幺 门前清 双暗刻 幺九刻x2 单钓将"),
    ("", "W2 W3 W4 T7 T8 T9 B1 B1 B1 F4 F4 F4 W9", "W9", "seat=1 prevalent=1", 7, "门前清 双暗刻 幺九刻x2 单钓将"),
    # 全双刻 W222 T444 B666 W888 and a pair of T6: 24 (not 碰碰和, 断幺) + 双暗刻 2 + 单钓将 1 = 27; a pair
    # of T5: 碰碰和 6 + 双暗刻 2 + 断幺 2 + 单钓将 1 = 11
    ("PENG W2 1, PENG T4 2", "B6 B6 B6 W8 W8 W8 T6", "T6", "", 27, "全双刻 双暗刻 单钓将"),
    ("PENG W2 1, PENG T4 2", "B6 B6 B6 W8 W8 W8 T5", "T5", "", 11, "碰碰和 双暗刻 断幺 单钓将"),
    # --- wind pungs: 三风刻 12 + 全带幺 4 + 圈风刻 (东) 2 + 门风刻 (南) 2 + 缺一门 1 + 单钓将 1 = 22
    # (no 幺九刻 for winds that make a wind fan)
    ("PENG F1 1, PENG F2 2", "F3 F3 F3 B7 B8 B9 T1", "T1", "seat=1", 22, "三风刻 全带幺 圈风刻 门风刻 缺一门 单钓将"),
    # two wind pungs: 东 is the round's wind (圈风刻 2), 西 a plain 幺九刻 1; 缺一门 1 + 单钓将 1 = 5
    ("PENG F1 1, PENG F3 2", "B7 B8 B9 T2 T3 T4 J1", "J1", "seat=1", 5, "圈风刻 幺九刻 缺一门 单钓将"),
    # three suits and a wind but no dragon: no 五门齐; 花龙 8 + 圈风刻 2 + 门风刻 2 (东 both) + 门前清 2
    # + 单钓将 1 = 15
    ("", "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1 T9", "T9", "", 15, "花龙 圈风刻 门风刻 门前清 单钓将"),
    # principle 5 when the chow left beside a three-chow fan is the lowest: W789 T678 B567 make
    # 三色三步高 6, and W123 pairs with W789 once as 老少副 1 (123 sorts before 789, so the pair is
    # taken high-low); 门前清 2 + 平和 2 = 11 (B5 B6 B7 B5 B5 waits on B5 and B8: no wait fan)
    ("", "W1 W2 W3 W7 W8 W9 T6 T7 T8 B5 B6 B7 B5", "B5", "", 11, "三色三步高 老少副 门前清 平和"),
    # principle 4 on a tie: T456 T456 B456 B456 and a pair of B5 also read as seven pairs (七对 24 +
    # 全中 24 + 四归一 2 + 缺一门 1 = 51); as sets and a pair it is 全中 24 + 全带五 16 + 门前清 2 +
    # 平和 2 + 四归一 2 + 一般高 x2 + 喜相逢 1 + 缺一门 1 + 坎张 1 = 51 as well, and the reference
    # calculator takes the sets reading on a tie with seven pairs
    ("", "T4 T4 T5 T6 T6 B4 B4 B5 B5 B5 B5 B6 B6", "T5", "", 51,
     "全中 全带五 门前清 平和 四归一 一般高x2 喜相逢 缺一门 坎张"),
    # principle 5 when the left-over chow is the same as one of the three: W234 T234 B234 make
    # 三色三同顺 8, and the second T234 pairs once, best first: 一般高 with its twin, not 喜相逢 with
    # W234 or B234 (those are 三色三同顺's); + 门前清 2 + 平和 2 + 断幺 2 + 单钓将 1 = 16
    ("", "W2 W3 W4 T2 T3 T4 T2 T3 T4 B2 B3 B4 B8", "B8", "", 16, "三色三同顺 一般高 门前清 平和 断幺 单钓将"),
    # 九莲宝灯 needs 111 and 999 both: W111 W234 W567 W88 + T555 (no 999) and W22 W345 W678 W999 +
    # T555 (no 111) are 双暗刻 2 + 连六 1 + 幺九刻 1 + 门前清 2 + 缺一门 1 + 无字 1 = 8
    ("", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 T5 T5 T5", "W8", "", 8, "双暗刻 连六 幺九刻 门前清 缺一门 无字"),
    ("", "W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 T5 T5 T5", "W2", "", 8, "双暗刻 连六 幺九刻 门前清 缺一门 无字"),
    # 三色双龙会 needs the third suit's pair to be 5s: W123 W789 T123 T789 with a pair of B2 is 喜相逢
    # x2 + 老少副 (the repeated one goes, principle 5) + 平和 2 + 门前清 2 + 单钓将 1 = 8
    ("", "W1 W2 W3 W7 W8 W9 T1 T2 T3 T7 T8 T9 B2", "B2", "", 8, "喜相逢x2 老少副 平和 门前清 单钓将"),
    # ... and 123 with 789 in each of the other two suits: T123 T789 B123 B123 with a pair of W5 is
    # 一般高 (B123 x2) + 喜相逢 (T123 B123; the second goes, principle 5) + 老少副 (T123 T789) + 平和 2
    # + 门前清 2 + 单钓将 1 = 8
    ("", "T1 T2 T3 T7 T8 T9 B1 B2 B3 B1 B2 B3 W5", "W5", "", 8, "一般高 喜相逢 老少副 平和 门前清 单钓将"),
]


@pytest.mark.parametrize("melds, concealed, win, flags, points, expected", WORKED)
def test_mcr_rule_9_worked_hands(twin, melds, concealed, win, flags, points, expected):
    assert scored(twin, melds, concealed, win, flags) == (points, fans(expected))


@pytest.mark.parametrize("concealed, win", [
    ("F1 F2 F3 W1 W2 W3 T4 T5 T6 B7 B8 B9 J1", "J1"),  # winds in a row are no chow
    ("J1 J2 J3 W1 W2 W3 T4 T5 T6 B7 B8 B9 F1", "F1"),  # nor are the dragons
    ("F3 F4 J1 W1 W2 W3 T4 T5 T6 B7 B8 B9 F1", "F1"),
    ("W8 W9 T1 W1 W2 W3 T4 T5 T6 B7 B8 B9 J1", "J1"),  # a chow does not run on into the next suit
    ("B8 B9 F1 W1 W2 W3 T4 T5 T6 B1 B2 B3 J1", "J1"),  # ... nor into the honors
    ("F1 F1 F1 W1 W2 W3 T4 T5 T6 B7 B8 B9 J1", "F1"),  # four 东 concealed are no set (and no 九莲宝灯)
    ("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3", "W5"),  # thirteen orphans with a 5 instead of a pair
    ("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2", "W2"),  # 全不靠 with W2 beside W1 W4 W7
    ("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2", "T9"),  # ... with T9 beside T2 T5 T8
    ("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J1", "J2"),  # ... with a pair
    ("W1 W4 W7 T2 T5 T8 B3 B6 B9 W2 W3 W3 J1", "J1"),  # 组合龙 with W2 W3 W3 and a pair: no set
])
def test_mcr_rule_8_no_winning_shape(twin, concealed, win):
    """Rule 8: a chow is three numbered tiles in a row of one suit; 十三幺 pairs one of its tiles;
    全不靠 is 14 single tiles, its numbered ones of one knitted pattern (147, 258, 369 in three suits)."""
    assert twin.answer(request(concealed, win)) == {"error": "NOT_WIN", "message": "the tiles do not form a winning hand"}
    assert evaluate(twin, concealed, win) == ("NOT_WIN", "the tiles do not form a winning hand", 0, ())


# --- 12. the calculator API: what a malformed request gets back ---------------------------------

MELD_MESSAGE = ('meld 1 is malformed: ["CHI", W2-W8/T2-T8/B2-B8 middle tile, 1-3], '
                '["PENG", tile, 1-3] or ["GANG", tile, 0-3]')
FOUR_SETS = "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1"  # with a pung meld: four sets and a single J1


@pytest.mark.parametrize("meld", [
    ("PENG", "W9", -1),  # no seat offers at -1
    ("PUNG", "W9", 1),  # an unknown kind of meld
    ("PENG", "W0", 1),  # an unknown tile
    ("CHI", 5, 1),
])
def test_mcr_rule_12_a_malformed_meld_is_the_reason(twin, meld):
    """The melds are checked before the concealed tiles and the winning tile: a malformed meld is
    the reason given even when the winning tile is unknown too."""
    assert twin.answer(request(FOUR_SETS, "X1", [meld])) == {"error": "BAD_INPUT", "message": MELD_MESSAGE}
    assert twin.answer(request(FOUR_SETS, "J1", [meld])) == {"error": "BAD_INPUT", "message": MELD_MESSAGE}


def test_mcr_rule_12_the_winning_tile_is_quoted_to_40_characters(twin):
    """An unknown winning tile is quoted in the message, cut to its first 40 characters."""
    win = "ABCDEFGHIJ" * 5
    assert twin.answer(request(FOUR_SETS, win, [("PENG", "W9", 1)])) == {
        "error": "BAD_INPUT", "message": "unknown win_tile 'ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJ'"}


@pytest.mark.parametrize("field", ["seat_wind", "prevalent_wind"])
def test_mcr_rule_12_a_wind_out_of_range(twin, field):
    """A seat or prevalent wind is 0..3 (E S W N): 4 is refused with the winds' own message, and
    ``evaluate`` names the status BAD_WIND."""
    message = "seat_wind and prevalent_wind are 0..3 (E S W N)"
    assert twin.answer(request(FOUR_SETS, "J1", [("PENG", "W9", 1)], **{field: 4})) == {
        "error": "BAD_INPUT", "message": message}
    winds = {"seat": 4} if field == "seat_wind" else {"prevalent": 4}
    assert evaluate(twin, FOUR_SETS, "J1", [(2, W + 9, 1)], **winds) == ("BAD_WIND", message, 0, ())


def test_mcr_rule_12_flowers_out_of_range(twin):
    """Flowers are 0..8: 9 is refused with the flowers' own message (status BAD_FLOWERS)."""
    assert twin.answer(request(FOUR_SETS, "J1", [("PENG", "W9", 1)], flowers=9)) == {
        "error": "BAD_INPUT", "message": "flowers is 0..8"}
    assert evaluate(twin, FOUR_SETS, "J1", [(2, W + 9, 1)], flowers=9) == (
        "BAD_FLOWERS", "flowers is 0..8", 0, ())


def test_mcr_rule_12_status_messages(twin):
    """Each status of ``evaluate`` has its own message; a request field of the wrong type (BAD_FIELD)
    is a malformed hand."""
    message = {name: twin.error_message(status, 0) for status, name in enumerate(twin.STATUS_NAMES)}
    assert message["BAD_FLOWERS"] == "flowers is 0..8"
    assert message["BAD_WIND"] == "seat_wind and prevalent_wind are 0..3 (E S W N)"
    assert message["BAD_TILE"] == "tiles are W1-W9 T1-T9 B1-B9 F1-F4 J1-J3"
    assert message["BAD_FIELD"] == "malformed hand"
    assert message["NOT_WIN"] == "the tiles do not form a winning hand"


COUNT_MESSAGE = "at most 4 melds, and 13 - 3 x melds concealed tiles besides the winning tile"
WIND_MESSAGE = "seat_wind and prevalent_wind are 0..3 (E S W N)"
FLAG_MESSAGE = "self_drawn, fourth_tile, kong_related and wall_last are true or false"
PENG_W9 = [("PENG", "W9", 1)]


def meld_message(number: int) -> str:
    return MELD_MESSAGE.replace("meld 1", f"meld {number}")


@pytest.mark.parametrize("req, error, message", [
    # the request's shape
    (["W1"], "BAD_INPUT", "a hand is a JSON object"),
    (dict(request(FOUR_SETS, "J1"), melds="PENG W9 1"), "BAD_INPUT", "melds must be a list of [TYPE, TILE, OFFER]"),
    ({"concealed": "W1 W2", "win_tile": "W3"}, "BAD_INPUT", "concealed must be a list of tiles"),
    (request(FOUR_SETS + " J2 J2 J2 J3 J3", "J1"), "BAD_INPUT", COUNT_MESSAGE),  # 15 concealed
    (request(FOUR_SETS + " J2 J2 J2 J3", "J1"), "BAD_INPUT", COUNT_MESSAGE),  # 14 concealed
    (request("J1", "J1", PENG_W9 * 5), "BAD_INPUT", COUNT_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9 + [("PENG", "W8")]), "BAD_INPUT", meld_message(2)),
    (request(FOUR_SETS, "J1", PENG_W9 + ["PENG W8 1"]), "BAD_INPUT", meld_message(2)),
    (request(FOUR_SETS, "J1", PENG_W9 + [("PENG", "W8", True)]), "BAD_INPUT", meld_message(2)),
    (request(FOUR_SETS, "J1", PENG_W9 + [("PENG", "W8", 4)]), "BAD_INPUT", meld_message(2)),
    (request(FOUR_SETS, "J1", PENG_W9 + [("PENG", "W8", 1.0)]), "BAD_INPUT", meld_message(2)),
    (request("W2 W3 W4 T5 T6 T7 B1 B1 B1 " + "Z" * 45, "J1", PENG_W9), "BAD_INPUT",
     "unknown tile 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' in concealed"),
    (request("W2 W3 W4 T5 T6 T7 B1 B1 B1 H1", "J1", PENG_W9), "BAD_INPUT", "unknown tile 'H1' in concealed"),
    (dict(request(FOUR_SETS, "J1", PENG_W9), concealed=FOUR_SETS.split()[:-1] + [31]), "BAD_INPUT",
     "unknown tile '31' in concealed"),
    (request(FOUR_SETS, None, PENG_W9), "BAD_INPUT", "unknown win_tile 'None'"),
    # the flags and numbers
    (request(FOUR_SETS, "J1", PENG_W9, self_drawn=2), "BAD_INPUT", FLAG_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, fourth_tile="yes"), "BAD_INPUT", FLAG_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, kong_related=-1), "BAD_INPUT", FLAG_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, wall_last=None), "BAD_INPUT", FLAG_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, seat_wind=-1), "BAD_INPUT", WIND_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, prevalent_wind=True), "BAD_INPUT", WIND_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, seat_wind="1"), "BAD_INPUT", WIND_MESSAGE),
    (request(FOUR_SETS, "J1", PENG_W9, flowers=-1), "BAD_INPUT", "flowers is 0..8"),
    (request(FOUR_SETS, "J1", PENG_W9, flowers=False), "BAD_INPUT", "flowers is 0..8"),
    # the hand
    (request(FOUR_SETS.replace(" J1", ""), "J1", PENG_W9), "BAD_INPUT", COUNT_MESSAGE),  # a tile short
    (request(FOUR_SETS, "J1", PENG_W9 + [("PENG", "W8", 1)]), "BAD_INPUT", COUNT_MESSAGE),  # one meld too many
    (request("W3 W3 W3 W3 W4 W5 T5 T6 T7 B1 B1 B1 J1", "W3"), "BAD_INPUT", "more than four copies of W3"),
    (request("W2 W3 W4 T5 T6 T7 J3 J3 J3 J3", "J3", PENG_W9), "BAD_INPUT", "more than four copies of J3"),
    (request("W2 W3 W4 T5 T6 T7 B1 B1 B1 W9", "W9", PENG_W9), "BAD_INPUT", "more than four copies of W9"),
    (request("W2 W3 W4 T5 T6 T7 J1", "J1", PENG_W9 + [("CHI", "W1", 2)]), "BAD_INPUT", meld_message(2)),
    (request("W2 W3 W4 T5 T6 T7 J1", "J1", PENG_W9 + [("CHI", "B9", 2)]), "BAD_INPUT", meld_message(2)),
    (request("W2 W3 W4 T5 T6 T7 J1", "J1", PENG_W9 + [("CHI", "J2", 2)]), "BAD_INPUT", meld_message(2)),
    (request("W2 W3 W4 T5 T6 T7 J1", "J1", PENG_W9 + [("CHI", "B5", 0)]), "BAD_INPUT", meld_message(2)),
    (request("W2 W3 W4 T5 T6 T7 J1", "J1", PENG_W9 + [("PENG", "B5", 0)]), "BAD_INPUT", meld_message(2)),
    (request(FOUR_SETS, "J2", PENG_W9), "NOT_WIN", "the tiles do not form a winning hand"),
    (request(FOUR_SETS, "J1", PENG_W9, flowers=8), "UNDER_8", "3 points (flowers not counted); a win needs at least 8"),
])
def test_mcr_rule_12_every_refusal_and_its_message(twin, req, error, message):
    """Each refusal of ``referee fan`` and its message (the reason a hand does not win, rule 12).
    The hand W2 W3 W4 T5 T6 T7 B1 B1 B1 J1 + a melded pung of W9, won on the J1, is worth 3 (幺九刻
    x2 for B1 B1 B1 and W9 W9 W9, 单钓将): under the minimum of 8, flowers not counted (rule 10)."""
    assert twin.answer(req) == {"error": error, "message": message}


@pytest.mark.parametrize("melds, concealed, win, status, message", [
    ([(2, W + 9, 1)] * 5, "J1", "J1", "BAD_COUNT", COUNT_MESSAGE),
    ([], "W1 " * 14, "W1", "BAD_COUNT", COUNT_MESSAGE),
    ([], "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4 T5 T6", "W1", "BAD_COUNT", COUNT_MESSAGE),
    ([], "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4 T5", "W1", "BAD_COUNT", COUNT_MESSAGE),
    ([(2, W + 9, 1)], "W2 W3 W4 T5 T6 T7 B1 B1 B1", "J1", "BAD_COUNT", COUNT_MESSAGE),
    ([(2, W + 9, 1)], "W9 W9 W3 W4 T5 T6 T7 B1 B1 B1", "W2", "BAD_COPIES", "more than four copies of W9"),
    ([(2, W + 9, 1), (1, T + 9, 1)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (4, T + 5, 1)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (3, T + 5, 4)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (2, 34, 1)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (2, -1, 1)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (1, W + 3, 4)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (1, W + 3, 0)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (1, J + 2, 1)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (2, T + 5, 4)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (2, T + 5, 0)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 1), (3, T + 5, -1)], "W2 W3 W4 T5 T6 T7 J1", "J1", "BAD_MELD", meld_message(2)),
    ([(2, W + 9, 0)], FOUR_SETS, "J1", "BAD_MELD", meld_message(1)),
    ([(1, W + 1, 1)], FOUR_SETS, "J1", "BAD_MELD", meld_message(1)),
    ([(1, B + 9, 1)], FOUR_SETS, "J1", "BAD_MELD", meld_message(1)),
    ([(1, F + 1, 1)], FOUR_SETS, "J1", "BAD_MELD", meld_message(1)),
    ([(2, W + 9, 1)], FOUR_SETS, "J2", "NOT_WIN", "the tiles do not form a winning hand"),
])
def test_mcr_rule_12_evaluate_names_each_status(twin, melds, concealed, win, status, message):
    """``evaluate`` (the calculator under ``calculate_fans``) names the status of a refused hand and
    gives its message, no points and no fans."""
    assert evaluate(twin, concealed, win, melds) == (status, message, 0, ())


@pytest.mark.parametrize("fields, status, message", [
    ({"flowers": 9}, "BAD_FLOWERS", "flowers is 0..8"),
    ({"flowers": "1"}, "BAD_FLOWERS", "flowers is 0..8"),
    ({"seat": 4}, "BAD_WIND", WIND_MESSAGE),
    ({"prevalent": -1}, "BAD_WIND", WIND_MESSAGE),
    ({"seat": None}, "BAD_WIND", WIND_MESSAGE),
    ({"seat": -1}, "BAD_WIND", WIND_MESSAGE),
    ({"prevalent": 4}, "BAD_WIND", WIND_MESSAGE),
    ({"flowers": -1}, "BAD_FLOWERS", "flowers is 0..8"),
    ({"win": 34}, "BAD_TILE", "tiles are W1-W9 T1-T9 B1-B9 F1-F4 J1-J3"),
    ({"win": -1}, "BAD_TILE", "tiles are W1-W9 T1-T9 B1-B9 F1-F4 J1-J3"),
    ({"win": "J1"}, "BAD_TILE", "tiles are W1-W9 T1-T9 B1-B9 F1-F4 J1-J3"),
])
def test_mcr_rule_12_evaluate_refuses_numbers_out_of_range(twin, fields, status, message):
    args = {"seat": 0, "prevalent": 0, "flowers": 0, "win": J + 1, **fields}
    assert twin.evaluate([(2, W + 9, 1)], ids(FOUR_SETS), args["win"], False, False, False, False,
                         args["seat"], args["prevalent"], args["flowers"]) == (status, message, 0, ())


@pytest.mark.parametrize("fields", [{"seat_wind": 3, "prevalent_wind": 3, "flowers": 8},
                                    {"self_drawn": 0, "fourth_tile": False, "kong_related": 0, "wall_last": 0}])
def test_mcr_rule_12_the_largest_numbers_and_false_flags_are_accepted(twin, fields):
    """Winds 0..3 and flowers 0..8 include their ends; 0 and false are the same flag."""
    req = request("W2 W3 W4 T5 T6 T7 B1 B1 B1 F4", "F4", PENG_W9, **fields)
    # north seat in a north round (3, 3): the F4 pair is no pung; still 3 points without flowers
    assert twin.answer(req) == {"error": "UNDER_8", "message": "3 points (flowers not counted); a win needs at least 8"}
    assert twin.evaluate([(2, W + 9, 1)], ids("W2 W3 W4 T5 T6 T7 B1 B1 B1 F4"), F + 4, False, False, False, False,
                         fields.get("seat_wind", 0), fields.get("prevalent_wind", 0), fields.get("flowers", 0)) == (
        "OK", "", 3, ((73, 2), (79, 1)))


@pytest.mark.parametrize("bad", [-1, 34, "J1", None, 2.0])
def test_mcr_rule_12_evaluate_refuses_a_concealed_tile_that_is_none(twin, bad):
    """A concealed tile is an id 0..33: -1 (or what is not an int) is no tile, not the last one."""
    concealed = ids(FOUR_SETS)[:-1] + [bad]
    assert twin.evaluate([(2, W + 9, 1)], concealed, J + 1, False, False, False, False, 0, 0, 0) == (
        "BAD_TILE", "tiles are W1-W9 T1-T9 B1-B9 F1-F4 J1-J3", 0, ())


@pytest.mark.parametrize("fields, message", [
    ({"seat_wind": 4, "flowers": 9}, WIND_MESSAGE),
    ({"prevalent_wind": 4, "flowers": 9}, WIND_MESSAGE),
    ({"prevalent_wind": -1, "flowers": -1}, WIND_MESSAGE),
    ({"prevalent_wind": "S", "concealed": FOUR_SETS.split()[1:]}, WIND_MESSAGE),
    ({"flowers": 9, "concealed": FOUR_SETS.split()[1:]}, "flowers is 0..8"),
    ({"self_drawn": "no", "seat_wind": 4}, FLAG_MESSAGE),
    ({"seat_wind": 4, "concealed": FOUR_SETS.split() + ["J2", "J2", "J2", "J3"]}, WIND_MESSAGE),  # 14 tiles
])
def test_mcr_rule_12_the_first_bad_field_is_the_reason(twin, fields, message):
    """Fields are checked in order: the flags, the winds, the flowers, then the hand (its size: 14
    concealed tiles are a wrong count found after the winds). Only a request too large for the
    calculator's arrays, more than 4 melds or 14 concealed tiles, is refused before everything."""
    assert twin.answer({**request(FOUR_SETS, "J1", PENG_W9), **fields}) == {"error": "BAD_INPUT", "message": message}


def test_mcr_rule_12_four_melds_answered(twin):
    """All four sets melded (rule 12's melds, each with the seat it was claimed from), won on a discard
    of 中 in a west round, west seat: 三色三步高 W234 T345 B456 6 + 五门齐 6 + 全求人 6 (not 单钓将) +
    幺九刻 (东) 1 = 19, and two flowers on top: 21."""
    req = request("J1", "J1", [("CHI", "W3", 1), ("CHI", "T4", 2), ("CHI", "B5", 3), ("PENG", "F1", 1)],
                  seat_wind=2, prevalent_wind=2, flowers=2)
    assert twin.answer(req) == {"fans": [
        ["Mixed Shifted Chows", "三色三步高", 6, 1], ["All Types", "五门齐", 6, 1], ["Melded Hand", "全求人", 6, 1],
        ["Pung of Terminals or Honors", "幺九刻", 1, 1], ["Flower Tiles", "花牌", 1, 2]], "total": 21}


def test_mcr_rule_12_evaluate_checks_the_flowers_before_the_hand(twin):
    """``evaluate`` refuses more than 4 melds or 14 concealed tiles first, then the flowers, then the
    hand: 14 concealed tiles (one too many) with 9 flowers is a flowers refusal, 15 a count one."""
    tiles = ids("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4 T5")
    assert twin.evaluate([], tiles, T + 6, False, False, False, False, 0, 0, 9) == (
        "BAD_FLOWERS", "flowers is 0..8", 0, ())
    assert twin.evaluate([], tiles + [T + 6], T + 6, False, False, False, False, 0, 0, 9) == (
        "BAD_COUNT", COUNT_MESSAGE, 0, ())
    assert twin.evaluate([], tiles, T + 6, False, False, False, False, 0, 0, 8) == ("BAD_COUNT", COUNT_MESSAGE, 0, ())
