"""川牌 options (C-1..C-14) and the deal (4.3, 4.5, 4.6, P-1)."""
import dataclasses

import pytest

from referee.core.errors import InvalidAction, Reason
from referee.core.games.chuanpai.deal import Options, checked_options, deal, hand_sizes, turn_order


def test_chuanpai_rule_4_3_deal_16_to_toujia_15_to_the_others():
    hands, stock = deal(range(84), toujia=1, seats=3)
    assert [len(h) for h in hands] == [15, 16, 15] and len(stock) == 84 - 46
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
