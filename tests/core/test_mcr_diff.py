"""国标麻将 differential tests against the reference calculator, PyMahjongGB (a test dependency):
random legal winning hands built shape first (mcr.random_winning_hand) and hypothesis-drawn ones
must get the same fans. Its known deviations are normalised or asserted here: its non-standard
明暗杠 (5 points) is our 明杠 + 暗杠 (3); it scores impossible hands, which we refuse; it returns
hands under 8 points, which we refuse as UNDER_8. MCR_DIFF_HANDS sets the random sample size."""
import os
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.core.games.mcr import fans as mcr
from referee.core.games.mcr.fan_table import FAN_IDS, FANS, KNITTED_STRAIGHTS, TILE_NAMES

MahjongGB = pytest.importorskip("MahjongGB")

HANDS = int(os.environ.get("MCR_DIFF_HANDS", "5000"))
RENAMED = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}
ORPHANS = ("W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", "J3")


def raw_reference(req: dict) -> list:
    return MahjongGB.MahjongFanCalculator(**mcr.pymahjonggb_arguments(req), verbose=True)


def reference(req: dict) -> dict[str, int]:
    """PyMahjongGB's fans by our Chinese names, its 明暗杠 replaced by 明杠 + 暗杠."""
    fans: Counter = Counter()
    for _points, count, name, _english in raw_reference(req):
        if name == "明暗杠":
            fans.update(("明杠", "暗杠"))
        else:
            fans[RENAMED.get(name, name)] += count
    return dict(fans)


def ours(req: dict) -> dict[str, int]:
    result = mcr.calculate_fans(mcr.Hand.from_request(req), minimum=0)
    return {fan.name_cn: fan.count for fan in result.fans}


def copies(req: dict) -> Counter:
    """Copies of each tile in the hand, melds included."""
    tiles = Counter(mcr.parse_tiles(req["concealed"] + [req["win_tile"]]))
    for kind, name, _offer in req["melds"]:
        tile = mcr.parse_tile(name)
        tiles.update((tile - 1, tile, tile + 1) if kind == "CHI" else (tile,) * (3 if kind == "PENG" else 4))
    return tiles


def points(fans: dict[str, int]) -> int:
    return sum(FANS[FAN_IDS[name] - 1].points * count for name, count in fans.items() if name != "花牌")


def assert_agrees(req: dict) -> None:
    got = ours(req)
    assert got == reference(req), req
    answer = mcr.fan_answer(req)
    if points(got) < 8:
        assert answer["error"] == "UNDER_8"
    else:
        assert answer["total"] == points(got) + req["flowers"]


def test_random_winning_hands_agree():
    rng = random.Random(20240601)
    mismatches, seen = [], Counter()
    for _ in range(HANDS):
        req = mcr.random_winning_hand(rng)
        got = ours(req)
        seen.update(got)
        if got != reference(req):
            mismatches.append((req, got, reference(req)))
    assert not mismatches, f"{len(mismatches)} of {HANDS} differ, first: {mismatches[:3]}"
    assert len(seen) >= 70  # the sample reaches most fans (九莲宝灯 and 双龙会 have their own tests)


@pytest.mark.parametrize("suit", "WTB")
def test_nine_gates_on_every_tile(suit):
    gates = [f"{suit}1"] * 3 + [f"{suit}{rank}" for rank in range(2, 9)] + [f"{suit}9"] * 3
    for rank in range(1, 10):
        for self_drawn in (False, True):
            assert_agrees({"melds": [], "concealed": gates, "win_tile": f"{suit}{rank}", "self_drawn": self_drawn,
                           "fourth_tile": False, "kong_related": False, "wall_last": False,
                           "seat_wind": 0, "prevalent_wind": 0, "flowers": 0})


@pytest.mark.parametrize("suit", "WTB")
def test_terminal_chows(suit):
    others = [s for s in "WTB" if s != suit]
    pure = [f"{suit}{r}" for r in "123123789789"] + [f"{suit}5"] * 2
    mixed = [f"{s}{r}" for s in others for r in "123789"] + [f"{suit}5"] * 2
    for tiles in (pure, mixed):
        for win in set(tiles):
            concealed = list(tiles)
            concealed.remove(win)
            assert_agrees({"melds": [], "concealed": concealed, "win_tile": win, "self_drawn": False,
                           "fourth_tile": False, "kong_related": False, "wall_last": False,
                           "seat_wind": 1, "prevalent_wind": 2, "flowers": 0})


# --- hypothesis: hands drawn set by set ----------------------------------------------------------

@st.composite
def sets_and_pair(draw):
    counts = [0] * 34
    sets = []
    for _ in range(4):
        if draw(st.booleans()):
            low = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            tiles, meld = [low, low + 1, low + 2], ("CHI", low + 1)
        else:
            tile = draw(st.integers(0, 33))
            tiles, meld = [tile] * 3, ("PENG", tile)
        sets.append((meld, tiles))
        for t in tiles:
            counts[t] += 1
    pair = draw(st.integers(0, 33))
    counts[pair] += 2
    assume(max(counts) <= 4)
    melds, concealed = [], [pair, pair]
    declared = draw(st.integers(0, 4))
    for i, ((kind, tile), tiles) in enumerate(sets):
        if i >= declared:
            concealed += tiles
        elif kind == "PENG" and counts[tile] < 4 and draw(st.booleans()):
            counts[tile] += 1
            melds.append(["GANG", TILE_NAMES[tile], draw(st.integers(0, 3))])
        else:
            melds.append([kind, TILE_NAMES[tile], draw(st.integers(1, 3))])
    return melds, concealed


@st.composite
def special_shapes(draw):
    shape = draw(st.sampled_from(("pairs", "orphans", "knitted")))
    if shape == "pairs":
        kinds = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7))
        assume(max(Counter(kinds).values()) <= 2)
        return [], kinds * 2
    if shape == "orphans":
        return [], [mcr.parse_tile(t) for t in ORPHANS] + [mcr.parse_tile(draw(st.sampled_from(ORPHANS)))]
    straight = list(mcr.parse_tiles(draw(st.sampled_from(KNITTED_STRAIGHTS))))
    honors = draw(st.integers(5, 7))
    if draw(st.booleans()):  # 全不靠 / 七星不靠
        return [], draw(st.permutations(range(27, 34)))[:honors] + draw(st.permutations(straight))[:14 - honors]
    pair = draw(st.integers(0, 33))
    tile = draw(st.integers(0, 33))
    chow = tile < 27 and tile % 9 <= 6 and draw(st.booleans())
    tiles = [tile, tile + 1, tile + 2] if chow else [tile] * 3
    assume(max(Counter(straight + tiles + [pair, pair]).values()) <= 4)
    return [], straight + tiles + [pair, pair]


@st.composite
def winning_hands(draw):
    melds, concealed = draw(st.one_of(sets_and_pair(), sets_and_pair(), special_shapes()))
    win = draw(st.sampled_from(concealed))
    concealed = list(concealed)
    concealed.remove(win)
    return {"melds": melds, "concealed": [TILE_NAMES[t] for t in concealed], "win_tile": TILE_NAMES[win],
            "self_drawn": draw(st.booleans()), "fourth_tile": draw(st.booleans()),
            "kong_related": draw(st.booleans()), "wall_last": draw(st.booleans()),
            "seat_wind": draw(st.integers(0, 3)), "prevalent_wind": draw(st.integers(0, 3)),
            "flowers": draw(st.integers(0, 8))}


@settings(max_examples=500, deadline=None)
@given(winning_hands())
def test_drawn_hands_agree(req):
    assert_agrees(req)


# --- the reference's known deviations --------------------------------------------------------------

def request(melds: list, concealed: str, win: str, **fields) -> dict:
    return {"melds": melds, "concealed": concealed.split(), "win_tile": win, "self_drawn": False,
            "fourth_tile": False, "kong_related": False, "wall_last": False, "seat_wind": 2,
            "prevalent_wind": 2, "flowers": 0, **fields}


def test_deviation_one_exposed_one_concealed_kong():
    req = request([["GANG", "W2", 1], ["GANG", "T6", 0]], "B1 B2 B3 W7 W8 W9 F1", "F1")
    assert ("明暗杠", 5) in {(name, value) for value, _count, name, _en in raw_reference(req)}
    assert ours(req) == {"明杠": 1, "暗杠": 1, "单钓将": 1}


@pytest.mark.parametrize("req", [
    request([], "W1 W1 W1 W1 W2 W3 W4 T5 T6 T7 B7 B8 B9", "W1"),  # a fifth W1
    request([["PENG", "W1", 0]], "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1", "J1"),  # a pung nobody offered
    request([["CHI", "W1", 1]], "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1", "J1"),  # a chow around W1
    request([["PENG", "F1", 1]], "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1", "J1", seat_wind=7),
    request([["PENG", "F1", 1]], "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1", "J1", flowers=20),
])
def test_deviation_impossible_hands_are_refused(req):
    raw_reference(req)  # the reference scores them
    assert mcr.fan_answer(req)["error"] == "BAD_INPUT"


def test_deviation_under_8_is_refused():
    req = request([["PENG", "W1", 1]], "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1", "J1")
    assert points(reference(req)) == 5
    assert mcr.fan_answer(req)["error"] == "UNDER_8"


@settings(max_examples=300, deadline=None)
@given(winning_hands(), st.data())
def test_near_winning_hands_agree(req, data):
    """One concealed tile swapped: mostly not a win any more; the reference must agree on that."""
    concealed = list(req["concealed"])
    concealed[data.draw(st.integers(0, len(concealed) - 1))] = data.draw(st.sampled_from(TILE_NAMES[:34]))
    req = dict(req, concealed=concealed)
    assume(max(copies(req).values()) <= 4)
    try:
        expected = reference(req)
    except TypeError as error:
        assert "NOT_WIN" in str(error)
        assert mcr.fan_answer(req)["error"] == "NOT_WIN"
    else:
        assert ours(req) == expected
