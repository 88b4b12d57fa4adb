"""国标麻将 tiles: the id space and the W/T/B/F/J/H notation, round-tripping."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core.games.mcr import fans as mcr
from referee.core.errors import InvalidAction, Reason


def test_id_space():
    names = [mcr.format_tile(t) for t in range(42)]
    assert names[:9] == [f"W{r}" for r in range(1, 10)]
    assert names[9] == "T1" and names[17] == "T9" and names[18] == "B1" and names[26] == "B9"
    assert names[27:31] == ["F1", "F2", "F3", "F4"] and names[31:34] == ["J1", "J2", "J3"]
    assert names[34:] == [f"H{r}" for r in range(1, 9)] and list(mcr.FLOWER_TILES) == list(range(34, 42))


@given(st.lists(st.integers(0, 41), max_size=20))
def test_round_trip(tiles):
    text = mcr.format_tiles(tiles)
    assert mcr.parse_tiles(text) == tuple(sorted(tiles))
    assert mcr.format_tiles(mcr.parse_tiles(text)) == text
    assert mcr.parse_tiles(text.split()) == mcr.parse_tiles(text)


@pytest.mark.parametrize("bad", ["W0", "T10", "F5", "J4", "H9", "w1", "1W", "", "BJ", "W 1"])
def test_unknown_tiles(bad):
    with pytest.raises(InvalidAction) as refused:
        mcr.parse_tile(bad)
    assert refused.value.reason == Reason.UNKNOWN_CARD


def test_hand_round_trip():
    req = {"melds": [["CHI", "W3", 2], ["GANG", "F1", 0]], "concealed": "T1 T1 B5 B6 B7 J2 J2".split(),
           "win_tile": "J2", "self_drawn": True, "fourth_tile": False, "kong_related": True,
           "wall_last": False, "seat_wind": 3, "prevalent_wind": 1, "flowers": 2}
    hand = mcr.Hand.from_request(req)
    assert hand.melds == (mcr.Meld(mcr.MeldKind.CHI, 2, 2), mcr.Meld(mcr.MeldKind.GANG, 27, 0))
    assert hand.concealed == mcr.parse_tiles("T1 T1 B5 B6 B7 J2 J2") and hand.win_tile == 32
    assert hand.to_request() == req
