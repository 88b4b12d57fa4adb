"""川牌 hand analysis (spec 3.1-3.6, 5.4-5.5, 5.6a, P-10, P-12): M(H) against a brute-force
matching, paired cards and discards with the seed's examples, and the compulsory takes."""
import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.games.chuanpai import analysis, cards
from referee.core.games.chuanpai.cards import NOTATION, TOKENS


def hand(text, notation=NOTATION):
    counts = [0] * cards.NUM_KINDS
    for c in notation.parse_cards_or_ranks(text)[0]:
        counts[notation.kind_of[c]] += 1
    return counts


def kind(text):
    return TOKENS[text]


def pairs(a, b):
    if a in cards.JING or b in cards.JING:
        return (a in cards.JING) != (b in cards.JING)
    return cards.POINTS[a] + cards.POINTS[b] in (10, 20)


@functools.lru_cache(maxsize=None)
def brute_pairs(kinds):
    if not kinds:
        return 0
    first, rest = kinds[0], kinds[1:]
    best = brute_pairs(rest)
    for i, other in enumerate(rest):
        if pairs(first, other):
            best = max(best, 1 + brute_pairs(rest[:i] + rest[i + 1:]))
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 85), max_size=12, unique=True))
def test_chuanpai_rule_5_4_pair_count_is_the_maximum_disjoint_pairs(ids):
    kinds = tuple(sorted(NOTATION.kind_of[c] for c in ids))
    counts = [kinds.count(k) for k in range(cards.NUM_KINDS)]
    assert analysis.pair_count(counts) == brute_pairs(kinds)


@pytest.mark.parametrize("text, m", [
    ("猫猫 合牌", 1), ("天牌 人牌 地牌", 1), ("天牌 人牌 地牌 二六", 2), ("梅子 四六", 1),
    ("三六 斧头 红九", 1), ("高高 丁丁", 1), ("幺四 拐子", 1), ("高高 三四", 0)])
def test_chuanpai_rule_3_1_pairs_total_10_or_20(text, m):
    assert analysis.pair_count(hand(text)) == m


@pytest.mark.parametrize("text, m", [
    ("财神 天牌", 1), ("财神 听用", 0), ("财神 听用 梅子 梅子", 2), ("财神 听用 梅子", 1)])
def test_chuanpai_rule_3_2_jing_pairs_any_natural_card_never_the_other_jing(text, m):
    assert analysis.pair_count(hand(text)) == m


def test_chuanpai_rule_5_5_seed_one_4_and_one_6_cannot_be_discarded():
    h = hand("合牌 长三 天牌")
    assert analysis.discardable(h) == (kind("天牌"),)


def test_chuanpai_rule_5_5_seed_one_4_and_two_6s_one_6_can():
    assert analysis.discardable(hand("合牌 长三 长三")) == (kind("长三"),)
    assert analysis.discardable(hand("合牌 长三 猫猫")) == (kind("长三"), kind("猫猫"))


def test_chuanpai_rule_5_5_all_paired_discards_any_card():
    assert analysis.discardable(hand("合牌 长三")) == (kind("合牌"), kind("长三"))


def test_chuanpai_rule_5_5_jing_discarded_only_when_unpaired():
    assert kind("财神") not in analysis.discardable(hand("财神 天牌 猫猫"))
    assert kind("财神") in analysis.discardable(hand("财神 梅子 梅子"))
    assert analysis.discardable(hand("财神 天牌")) == (kind("天牌"), kind("财神"))  # all paired


def test_chuanpai_rule_5_4_a_card_raising_pairs_must_be_taken():
    assert analysis.take_reason(hand("合牌 天牌"), kind("长三")) == "5.4 a"
    assert analysis.take_reason(hand("合牌 长三 天牌"), kind("猫猫")) is None


def test_chuanpai_p_10_extra_players_have_no_5_4_a_obligation():
    assert analysis.take_reason(hand("合牌 天牌"), kind("长三"), extra=True) is None


def test_chuanpai_rule_5_4_b_pung_compulsory_unless_both_paired():
    assert analysis.take_reason(hand("高高 高高"), kind("高高")) == "5.4 b"
    assert analysis.take_reason(hand("高高 高高 丁丁"), kind("高高")) == "5.4 b"
    assert analysis.take_reason(hand("高高 高高 丁丁 丁丁"), kind("高高")) is None


def test_chuanpai_rule_3_3_same_points_makes_different_pips_identical():
    assert analysis.take_reason(hand("高高 高高"), kind("二五")) is None
    assert analysis.take_reason(hand("高高 高高"), kind("二五"), same_points=True) == "5.4 b"


@pytest.mark.parametrize("text, compulsory, reason", [
    ("长三 长三 合牌", True, "5.4 c"),        # b - g = 1
    ("长三 长三 合牌 合牌", False, None),     # 齐头, b = g
    ("长三 长三 合牌 合牌 长二", False, "5.4 a"),  # g - b = 1: optional, but the 6 raises M (P-10)
    ("长三 长三 合牌 合牌 长二 长二", True, "5.4 a"),  # g - b = 2
])
def test_chuanpai_rule_5_4_c_qitou_seed_rule_4(text, compulsory, reason):
    h = hand(text)
    assert analysis.qitou_compulsory(h, 6) is compulsory
    assert analysis.take_reason(h, kind("长三")) == reason


def test_chuanpai_p_10_rule_5_4_a_applies_on_top_of_qitou():
    h = hand("长三 长三 合牌 合牌 长二")
    assert analysis.qitou_compulsory(h, 6) is False and analysis.raises_pairs(h, kind("长三"))
    assert analysis.take_reason(h, kind("长三")) == "5.4 a"
    assert analysis.take_reason(h, kind("长三"), extra=True) is None


def test_chuanpai_rule_5_4_c_good_family_2_and_12_against_8():
    assert analysis.family_counts(hand("天牌 地牌 人牌 人牌"), 8) == (2, 2)
    assert analysis.family_counts(hand("天牌 地牌 人牌 人牌"), 12) == (2, 2)
    assert analysis.family_counts(hand("梅子"), 10) is None


def test_chuanpai_rule_5_4_c_kong_of_5_7_10_compulsory():
    assert analysis.take_reason(hand("梅子 梅子 梅子 四六"), kind("梅子")) == "5.4 c"


def test_chuanpai_rule_3_5_and_p_12_three_of_jing_and_threes_must_kong():
    assert analysis.take_reason(hand("丁丁 丁丁 丁丁", NOTATION), kind("丁丁")) == "3.5"
    assert analysis.take_reason(hand("丁丁 丁丁 财神"), kind("听用")) == "5.4 a"
    assert analysis.take_reason(hand("丁丁 丁丁 财神"), kind("听用"), extra=True) == "3.5"
    assert analysis.take_reason(hand("丁丁 丁丁 高高 高高"), kind("财神")) is None
    assert analysis.take_reason(hand("丁丁 高高"), kind("财神")) is None


def test_chuanpai_rule_5_6a_yan_compulsory_like_pung():
    assert analysis.take_reason(hand("二五 三四"), kind("高高")) == "5.6a"
    assert analysis.take_reason(hand("二五 三四 丁丁 丁丁"), kind("高高")) is None
    assert analysis.yan_possible(hand("二五 三四"), kind("高高"))
    assert not analysis.yan_possible(hand("二五 二五"), kind("高高"))


@pytest.mark.parametrize("text, complete", [
    ("合牌 长三", True), ("合牌 长三 天牌", False), ("梅子 梅子 梅子", True),
    ("高高 二五 三四", True), ("高高 二五 三四 丁丁", False), ("高高 二五 三四 丁丁 高高", True),
    ("财神 丁丁 丁丁", True), ("财神 听用 丁丁", False), ("财神 天牌 地牌 人牌", True),
    ("斧头 斧头 斧头 斧头", True), ("斧头 红九 三六", False), ("", True)])
def test_chuanpai_rule_6_1_complete_hands(text, complete):
    assert analysis.is_complete(hand(text) if text else [0] * cards.NUM_KINDS) is complete


def test_chuanpai_p_12_two_jing_and_a_three_are_no_triple_but_any_four_are_a_quad():
    assert not analysis.is_complete(hand("财神 听用 丁丁", NOTATION))
    assert analysis.is_complete(hand("财神 听用 丁丁 丁丁", NOTATION))
    assert analysis.is_complete(hand("丁丁 丁丁 丁丁", NOTATION))


def test_chuanpai_rule_3_3_same_points_triples_of_mixed_pips():
    assert not analysis.is_complete(hand("高高 高高 二五 丁丁 丁丁"))
    assert analysis.is_complete(hand("高高 高高 二五"), same_points=True)
    assert not analysis.is_complete(hand("高高 高高 二五"))


SETS = [("合牌", "长三"), ("天牌", "人牌"), ("地牌", "二六"), ("梅子", "梅子"), ("红九", "斧头"),
        ("丁丁", "高高"), ("财神", "斧头"), ("梅子", "梅子", "梅子"), ("高高", "二五", "三四"),
        ("长三", "长三", "长三", "长三"), ("四六", "四六")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(SETS), max_size=5))
def test_chuanpai_rule_6_1_hands_built_from_sets_are_complete(groups):
    counts = [0] * cards.NUM_KINDS
    for group in groups:
        for name in group:
            counts[TOKENS[name]] += 1
    if all(n <= len(NOTATION.ids[k]) for k, n in enumerate(counts)):
        assert analysis.is_complete(counts)
        if sum(counts):
            counts[TOKENS["天牌"]] += 1  # one more 12 with nothing but sets: never complete
            assert not analysis.is_complete(counts) or counts[TOKENS["人牌"]] or counts[TOKENS["二六"]] \
                or counts[TOKENS["财神"]]


def test_chuanpai_rule_5_6_a_card_passing_with_no_partner_in_hand_flags_its_value():
    assert analysis.guo_trigger(hand("天牌 梅子"), kind("长三")) == 6
    assert analysis.guo_trigger(hand("合牌 梅子"), kind("长三")) is None
    assert analysis.guo_trigger(hand("财神 梅子"), kind("长三")) == 6  # a 经牌 does not count


def test_chuanpai_rule_5_6_passing_jing_and_extra_players_never_start_guo():
    assert analysis.guo_trigger(hand("天牌"), kind("财神")) is None
    assert analysis.guo_trigger(hand("天牌"), kind("长三"), extra=True) is None


def test_chuanpai_rule_5_6_seed_rule_3_card_drawn_later_is_set_aside_and_must_take_the_next():
    # a 6 passed him with no 4 in hand; later a replacement draw brings a 4 (长二): it is a 过 card
    pending = frozenset({analysis.guo_trigger(hand("天牌"), kind("长三"))})
    answered = analysis.guo_answers(pending, kind("长二"))
    assert answered == {6}
    assert analysis.guo_obliges(answered, kind("猫猫")) and not analysis.guo_obliges(answered, kind("合牌"))
    assert analysis.guo_answers(pending, kind("天牌")) == frozenset()
    assert analysis.guo_answers(pending, kind("财神")) == frozenset()


def test_chuanpai_p_6_one_drawn_card_answers_every_trigger_it_partners():
    assert analysis.guo_answers(frozenset({2, 12, 6}), kind("人牌")) == {2, 12}
    assert analysis.guo_answers(frozenset({9, 7}), kind("斧头")) == {9}


def test_chuanpai_rule_4_4_an_of_5_7_10_and_yan_are_compulsory():
    assert analysis.laydown_sets(hand("梅子 梅子 梅子 天牌")) == (((kind("梅子"),) * 3, True),)
    assert analysis.laydown_sets(hand("高高 二五 三四")) == ((cards.SEVENS, True),)


def test_chuanpai_p_5_four_identical_are_only_a_kong():
    assert analysis.laydown_sets(hand("斧头 斧头 斧头 斧头")) == (((kind("斧头"),) * 4, True),)


def test_chuanpai_rule_5_4_c_an_optional_in_qitou():
    assert analysis.laydown_sets(hand("长三 长三 长三 合牌 合牌 合牌")) == (
        ((kind("合牌"),) * 3, False), ((kind("长三"),) * 3, False))
    assert analysis.laydown_sets(hand("长三 长三 长三 合牌")) == (((kind("长三"),) * 3, True),)


def test_chuanpai_rule_3_5_jing_and_two_threes_optional_an_four_compulsory_kong():
    assert analysis.laydown_sets(hand("丁丁 丁丁 财神")) == (((20, 20, 21), False),)
    assert analysis.laydown_sets(hand("丁丁 丁丁 财神 听用")) == (((20, 20, 21, 22), True),)
    assert analysis.laydown_sets(hand("丁丁 财神 听用")) == ()


def test_chuanpai_p_14_overlapping_compulsory_sets_are_all_offered():
    sets = analysis.laydown_sets(hand("高高 高高 高高 二五 三四"))
    assert sets == (((kind("高高"),) * 3, True), (cards.SEVENS, True))
