"""国标麻将 pinned rules of core/mcr.py (tiles, the described hand, the calculator's wrapper):
tests that pin what rules/mcr.md (rules 1, 8-12) and the module's documented contract ask for
where the broader suite (test_mcr_fans.py, test_mcr_tiles.py, test_mcr_diff.py) left room, each
named after its rule. Expected values are worked out by hand, not computed with the module's
helpers. The calculator itself (core/mcr_hot.py) is pinned in test_mcr_hot_pinned.py, the game
flow (core/mcr_game.py) in test_mcr_game_pinned.py."""
from __future__ import annotations

import dataclasses

import pytest

from referee.core.games.mcr import fans as mcr
from referee.core.games.mcr.fans import Meld, MeldKind


def ids(text: str) -> tuple[int, ...]:
    """Tile ids by the documented numbering (rule 1): W1-W9 0-8, T 9-17, B 18-26, F1-F4 27-30,
    J1-J3 31-33, H1-H8 34-41; computed here, not with the module's tables."""
    base = {"W": 0, "T": 9, "B": 18, "F": 27, "J": 31, "H": 34}
    return tuple(base[name[0]] + int(name[1:]) - 1 for name in text.split())


# --- rule 8: the quick winning-shape test a claim window runs for every other seat --------------

def test_mcr_rule_8_win_shape_failure_names_a_hand_without_a_shape():
    # four sets and a pair wanting only its pair tile: W5 completes it, W6 does not
    concealed = ids("W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5")
    assert mcr.win_shape_failure((), concealed, ids("W5")[0]) == ""
    assert mcr.win_shape_failure((), concealed, ids("W6")[0]) == "the tiles do not form a winning hand"


def test_mcr_rule_8_win_shape_failure_with_melds():
    melds = (Meld(MeldKind.PENG, ids("J1")[0], 1), Meld(MeldKind.CHI, ids("T5")[0], 2))
    concealed = ids("W2 W3 W4 B6 B6 B6 F3")
    assert mcr.win_shape_failure(melds, concealed, ids("F3")[0]) == ""
    assert mcr.win_shape_failure(melds, concealed, ids("F4")[0]) == "the tiles do not form a winning hand"


# --- rule 12: the same hand for the reference calculator (the differential tests' oracle) -------

def test_mcr_rule_12_reference_arguments_of_a_bare_request():
    """A request without flags is a hand won on a discard, no kong, not the last tile, east
    seat and round, no flowers (rule 12's defaults)."""
    request = {"concealed": ["W1", "W1"], "win_tile": "W1"}
    assert mcr.pymahjonggb_arguments(request) == {
        "pack": (), "hand": ("W1", "W1"), "winTile": "W1", "flowerCount": 0,
        "isSelfDrawn": False, "is4thTile": False, "isAboutKong": False, "isWallLast": False,
        "seatWind": 0, "prevalentWind": 0}


def test_mcr_rule_12_reference_arguments_carry_every_field():
    request = {"melds": [["PENG", "J1", 1], ["CHI", "T5", 2]], "concealed": ["W2"], "win_tile": "W2",
               "flowers": 3, "self_drawn": True, "fourth_tile": True, "kong_related": True,
               "wall_last": True, "seat_wind": 2, "prevalent_wind": 3}
    assert mcr.pymahjonggb_arguments(request) == {
        "pack": (("PENG", "J1", 1), ("CHI", "T5", 2)), "hand": ("W2",), "winTile": "W2", "flowerCount": 3,
        "isSelfDrawn": True, "is4thTile": True, "isAboutKong": True, "isWallLast": True,
        "seatWind": 2, "prevalentWind": 3}


def test_mcr_rule_12_a_hand_described_without_flags_has_the_documented_defaults():
    """A Hand built with melds, concealed tiles and the winning tile only: won on a discard, no
    kong, not the last tile, east seat and round, no flowers; its request says so."""
    hand = mcr.Hand((), ids("W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5"), ids("W5")[0])
    assert hand.to_request() == {
        "melds": [], "concealed": "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5".split(), "win_tile": "W5",
        "self_drawn": False, "fourth_tile": False, "kong_related": False, "wall_last": False,
        "seat_wind": 0, "prevalent_wind": 0, "flowers": 0}


def test_mcr_rule_12_melds_hands_and_results_are_values():
    """A meld, a described hand, a fan and a result are values: equal by their fields, hashable
    (a caller may keep them in sets or as keys), never changed in place."""
    meld = Meld(MeldKind.PENG, ids("J1")[0], 1)
    hand = mcr.Hand((meld,), ids("W2 W3 W4 T5 T6 T7 B8 B8 B8 F3"), ids("F3")[0])
    result = mcr.calculate_fans(hand, minimum=0)
    fan = result.fans[0]
    for value, field in ((meld, "offer"), (hand, "flowers"), (fan, "count"), (result, "total")):
        twin = dataclasses.replace(value)
        assert twin == value and twin is not value and hash(twin) == hash(value)
        assert len({value, twin}) == 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, 2)


def test_mcr_rule_1_a_flower_is_never_a_tile_of_a_hand():
    """Flowers H1-H8 are tiles of the wall only (rule 1): named in a hand's concealed tiles or as
    its winning tile they are unknown tiles there, and the answer says which field held one."""
    concealed = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1".split()
    assert mcr.fan_answer({"concealed": concealed + ["H1"], "win_tile": "W5"}) == {
        "error": "BAD_INPUT", "message": "unknown tile 'H1' in concealed"}
    assert mcr.fan_answer({"concealed": concealed + ["W5"], "win_tile": "H1"}) == {
        "error": "BAD_INPUT", "message": "unknown win_tile 'H1'"}


@pytest.mark.parametrize("item, message", [
    # a meld's kind that is not a name (a list cannot even be looked up) is no meld
    ([["CHI"], "W2", 1], 'a meld is [CHI|PENG|GANG, TILE, OFFER], not "[[\'CHI\'], \'W2\', 1]"'),
    ([2, "W9", 1], 'a meld is [CHI|PENG|GANG, TILE, OFFER], not "[2, \'W9\', 1]"'),
    # a meld's tile that is not a name is an unknown tile, a list as much as a number
    (["CHI", ["W2"], 1], "unknown tile \"['W2']\": tiles are W1-9 T1-9 B1-9 F1-4 J1-3 H1-8"),
    (["PENG", 5, 1], "unknown tile '5': tiles are W1-9 T1-9 B1-9 F1-4 J1-3 H1-8"),
])
def test_mcr_rule_12_a_meld_of_the_wrong_types_is_refused(item, message):
    """Rule 12: a meld is [CHI|PENG|GANG, tile name, offer]; a kind or a tile of another type is
    refused with the reason (InvalidAction), never a TypeError, alone or in a described hand."""
    with pytest.raises(mcr.InvalidAction) as refused:
        Meld.parse(item)
    assert str(refused.value) == message
    request = {"melds": [item], "concealed": "W2 W3 W4 T5 T6 T7 B1 B1 B1 J1".split(), "win_tile": "J1"}
    with pytest.raises(mcr.InvalidAction) as refused:
        mcr.Hand.from_request(request)
    assert str(refused.value) == message
