"""川牌 options (C-1..C-14), their README table, and the deal (4.3, 4.5, 4.6, P-1)."""
import dataclasses
import re
from pathlib import Path

import pytest

from referee.core.errors import InvalidAction, Reason
from referee.core.games.chuanpai.deal import Options, checked_options, deal, hand_sizes, turn_order
from referee.core.games.chuanpai.game import CHUANPAI


def test_chuanpai_rule_4_3_deal_16_to_toujia_15_to_the_others():
    hands, stock = deal(range(84), toujia=1, seats=3)
    assert [len(h) for h in hands] == [15, 16, 15] and len(stock) == 84 - 46
    _, wild_stock = deal(range(86), toujia=1, seats=3)  # C-2's 86 cards: two more in the stock
    assert len(wild_stock) == 86 - 46
    assert hands[1][:2] == (0, 3) and hands[2][0] == 1 and hands[0][0] == 2
    assert sorted(sum(hands, ()) + stock) == list(range(84))


def test_chuanpai_p_1_one_card_at_a_time_skipping_a_player_who_has_his_count():
    hands, stock = deal(range(84), toujia=0, seats=2)
    assert hands[0] == tuple(range(0, 30, 2)) + (30,) and hands[1] == tuple(range(1, 30, 2))
    assert stock[0] == 31


@pytest.mark.parametrize("seats, sizes", [
    (2, (16, 15)), (4, (16, 15, 15, 15)), (5, (16, 15, 15, 15, 3)), (6, (16, 15, 15, 15, 5, 3)),
    (7, (16, 15, 15, 15, 5, 3, 1))])
def test_chuanpai_rule_4_6_extra_players_reduced_hands(seats, sizes):
    assert hand_sizes(seats) == sizes
    hands, stock = deal(range(84), toujia=seats - 1, seats=seats)
    order = turn_order(seats - 1, seats)
    assert tuple(len(hands[s]) for s in order) == sizes and len(stock) == 84 - sum(sizes)


def test_chuanpai_rule_4_5_counter_clockwise_by_default_clockwise_variant():
    assert turn_order(1, 4) == (1, 2, 3, 0)
    assert turn_order(1, 4, clockwise=True) == (1, 0, 3, 2)
    hands, _ = deal(range(84), toujia=1, seats=4, clockwise=True)
    assert hands[0][0] == 1 and hands[2][0] == 3


def test_chuanpai_options_defaults_are_the_spec_defaults():
    defaults = Options()
    assert defaults.deck == "84" and defaults.seventh_bonus == 0
    flags = [f.name for f in dataclasses.fields(Options) if f.type in (bool, "bool")]
    assert flags and not any(getattr(defaults, name) for name in flags)


def test_chuanpai_c_7_seventh_bonus_needs_seven_seats():
    assert checked_options(Options(seventh_bonus=2), 7).seventh_bonus == 2
    with pytest.raises(InvalidAction) as refused:
        checked_options(Options(seventh_bonus=2), 6)
    assert refused.value.reason == Reason.BAD_OPTION and "seventh_bonus" in str(refused.value)


@pytest.mark.parametrize("seats", [1, 8])
def test_chuanpai_rule_4_1_two_to_seven_players(seats):
    with pytest.raises(InvalidAction) as refused:
        checked_options(Options(), seats)
    assert refused.value.reason == Reason.BAD_OPTION


def _readme_option_rows() -> dict:
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text.split("## 川牌 (chuanpai)", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| `?([\w.]+)`? \| ([^|]+) \| ([^|]+) \|$", section, re.M)
    return {name: (default, allowed.strip(), meaning) for name, default, allowed, meaning in rows}


def test_chuanpai_readme_option_table_is_every_option_with_its_default_and_decision():
    """README's 川牌 section: one row per option (C-1 ... C-14), its default, its values, its rule."""
    rows = _readme_option_rows()
    infos = {i.name: i for i in CHUANPAI.option_infos()}
    assert set(rows) == set(infos)
    for name, info in infos.items():
        default, allowed, meaning = rows[name]
        assert default == str(info.default).lower(), name
        if info.type == "bool":
            assert allowed == "bool", name
        elif info.type == "enum":
            assert allowed == ", ".join(f"`{a}`" for a in info.allowed), name
        else:
            assert allowed == f"{info.minimum}..{info.maximum}", name
        assert meaning.strip().startswith(info.help.split(",")[0] + ","), name  # the same C-n
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text.split("## 川牌 (chuanpai)", 1)[1].split("\n## ", 1)[0]
    assert all(f"C-{n}," in section for n in range(1, 15))
