"""够级 pieces of the 回合 (rules/gouji.md 1.3, 6.1-6.3, 12.4, 12.7, 15.3-15.4, 16): functions of plain
values, ahead of the trick phase that will use them."""
import pytest

from referee.core import cards as cardlib
from referee.core.games.gouji import rules
from referee.core.games.gouji.rules import MINGDIAN, NONE, YUDIAN

# the seed's 点贡 table (seeds/gouji.zh.txt lines 111-134): (self opened, self call, 对头 call) ->
# (self receives, self gives); the 对头 has not opened in any row
SEED_TABLE = [
    (True, NONE, NONE, 2, 0), (True, NONE, MINGDIAN, 5, 0), (True, NONE, YUDIAN, 9, 0),
    (True, MINGDIAN, NONE, 3, 0), (True, MINGDIAN, MINGDIAN, 6, 0), (True, MINGDIAN, YUDIAN, 10, 0),
    (True, YUDIAN, NONE, 5, 0), (True, YUDIAN, MINGDIAN, 8, 0), (True, YUDIAN, YUDIAN, 12, 0),
    (False, NONE, NONE, 1, 1), (False, NONE, MINGDIAN, 1, 2), (False, NONE, YUDIAN, 1, 4),
    (False, MINGDIAN, NONE, 2, 1), (False, MINGDIAN, MINGDIAN, 2, 2), (False, MINGDIAN, YUDIAN, 2, 4),
    (False, YUDIAN, NONE, 4, 1), (False, YUDIAN, MINGDIAN, 4, 2), (False, YUDIAN, YUDIAN, 4, 4),
]


@pytest.mark.parametrize("opened, mine, theirs, receive, give", SEED_TABLE)
def test_gouji_rule_12_4_dian_gong_seed_table(opened, mine, theirs, receive, give):
    assert rules.dian_gong(mine, theirs, opened, False) == (receive, give)
    assert rules.dian_gong(theirs, mine, False, opened) == (give, receive)  # the same pair seen from B


def test_gouji_rule_12_4_spec_examples_and_both_opened():
    assert rules.dian_gong(YUDIAN, MINGDIAN, True, False) == (8, 0)
    assert rules.dian_gong(NONE, NONE, True, True) == (0, 0)


def test_gouji_variant_g14_exchange_one_each():
    assert rules.dian_gong(YUDIAN, NONE, True, True, exchange_one_each=True) == (1, 1)
    assert rules.dian_gong(YUDIAN, NONE, True, False, exchange_one_each=True) == (4 + 1, 0)


def test_gouji_rule_1_3_opposite_and_teams():
    assert [rules.opposite(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert all(rules.team(s) != rules.team(rules.opposite(s)) for s in range(6))
    assert all(rules.team(s) == rules.team((s + 2) % 6) for s in range(6))


def test_gouji_rule_12_7_luo_gong():
    places = (4, 1, 2, 3, 0, 5)
    assert rules.luo_gong(places) == ((5, 4, 2), (0, 1, 1))


def hand(*cards_text):
    ids = cardlib.parse_cards(" ".join(cards_text), rules.DECKS)
    return cardlib.to_mask(ids)


def test_gouji_rule_6_1_most_threes_of_one_suit_leads():
    # four packs: a seat may hold up to four 3S; ids of deck d are d * 54 + ...
    hands = [0] * 6
    hands[2] = hand("3S", "3S", "3H")
    hands[4] = hand("3H", "3H", "3H")
    hands[5] = hand("3D", "3C", "3S")
    assert rules.three_counts(hands[4]) == 3 and rules.three_counts(hands[5]) == 1
    assert rules.shangban(hands) == 4


def test_gouji_rule_6_1_no_count_of_two_draws():
    hands = [hand("3S", "3H"), hand("3D"), 0, 0, 0, 0]
    assert rules.shangban(hands) == -1


def test_gouji_rule_6_2_ties_from_the_previous_toke():
    hands = [hand("3S", "3S"), 0, hand("3H", "3H"), 0, hand("3D", "3D"), 0]
    assert rules.shangban(hands, start=0) == 0
    assert rules.shangban(hands, start=1) == 2
    assert rules.shangban(hands, start=5) == 0
    assert rules.shangban(hands, start=3) == 4


def test_gouji_rule_6_3_a_revolutionary_leader_passes_the_lead():
    hands = [0, hand("3S", "3S", "3S"), 0, 0, 0, 0]
    assert rules.shangban(hands, revolution=1 << 1) == 2


def test_gouji_rule_15_3_fewer_cards_first_ties_after_the_last_out():
    left = {1: 5, 3: 2, 5: 2}
    assert rules.remaining_places(left, last_out=4) == [5, 3, 1]
    assert rules.remaining_places(left, last_out=2) == [3, 5, 1]


def test_gouji_variant_g19_seat_order():
    assert rules.remaining_places({1: 5, 3: 2, 5: 2}, last_out=0, seat_order=True) == [1, 3, 5]


def test_gouji_rule_16_1_team_sums_of_place_points():
    places = (0, 1, 3, 2, 4, 5)  # 头科 0, 二科 1, 三科 3, 四科 2, 二落 4, 大落 5
    scores = rules.round_scores(places)
    assert scores[0] == scores[2] == scores[4] == 4 + 0 - 2
    assert scores[1] == scores[3] == scores[5] == 2 + 0 - 4
    assert sum(scores) == 0


def test_gouji_rule_16_2_chuan_san_hu_is_twelve():
    places = (0, 2, 4, 1, 3, 5)
    assert rules.chuan_san_hu(places)
    assert rules.round_scores(places) == (12, -12, 12, -12, 12, -12)
    assert not rules.chuan_san_hu((0, 2, 1, 4, 3, 5))


ALL = 0b111111
A = rules.answer_right
O = rules.Options()


def test_gouji_rule_11_1_only_the_duitou_beats_a_protected_gouji_play():
    # owner 0: 对头 3, team-mates 2 and 4, neighbours 1 and 5
    got = [A(O, s, 0, True, ALL, 0) for s in range(6)]
    assert got == [rules.NOT_ASKED, rules.BURN, rules.PASS_ONLY, rules.BEAT, rules.PASS_ONLY, rules.BURN]


def test_gouji_rule_10_2_an_ordinary_play_any_eligible_beats():
    assert [A(O, s, 0, False, ALL, 0) for s in range(6)] == [rules.NOT_ASKED] + [rules.BEAT] * 5


def test_gouji_rule_10_3_a_pass_bars_but_on_the_duitou_play():
    barred = 1 << 3 | 1 << 1
    assert A(O, 3, 0, False, ALL, barred) == rules.BEAT  # 3 is 0's 对头
    assert A(O, 1, 0, False, ALL, barred) == rules.NOT_ASKED
    assert A(O, 1, 4, False, ALL, barred) == rules.BEAT  # 1 is 4's 对头


def test_gouji_rule_11_5_a_headless_owners_gouji_play_is_ordinary():
    active = ALL & ~(1 << 3)  # 0's 对头 went out: five active
    assert [A(O, s, 0, True, active, 0) for s in (1, 2, 4, 5)] == [rules.BEAT] * 4


def test_gouji_rule_11_6_a_headless_neighbour_beats_directly():
    active = ALL & ~(1 << 4)  # 1's 对头 (4) went out: 1 is headless
    assert A(O, 1, 0, True, active, 0) == rules.BEAT
    assert A(O, 5, 0, True, active, 0) == rules.BURN


def test_gouji_variant_g12_headless_beat_false():
    active = ALL & ~(1 << 4)
    assert A(rules.Options(headless_beat=False), 1, 0, True, active, 0) == rules.PASS_ONLY


def test_gouji_rule_13_5_no_fanshao():
    assert A(O, 1, 0, True, ALL, 0, burned_by=0) == rules.PASS_ONLY
    assert A(O, 1, 0, True, ALL, 0, burned_by=2) == rules.BURN


def test_gouji_rule_14_2_luanchan_everyone_beats():
    active = 0b001111  # four active
    assert [A(O, s, 0, True, active, 0b0110) for s in range(4)] == [rules.NOT_ASKED] + [rules.BEAT] * 3


def test_gouji_rule_11_4_head_of_a_revolutionarys_duitou():
    assert rules.has_head(0, ALL & ~(1 << 3), revolutionary=3, yaotou_left=2)
    assert not rules.has_head(0, ALL & ~(1 << 3), revolutionary=3, yaotou_left=0)
    assert not rules.has_head(0, ALL & ~(1 << 3))
    assert rules.has_head(0, ALL)


def test_gouji_rule_13_3_burn_needs_a_beat_and_a_hand_that_plays_out():
    from referee.core.games.gouji.rules import counts_of, flags_of, play_of_ranks
    R = {c: i for i, c in enumerate("3456789TJQKA2BR")}
    top = play_of_ranks([R[c] for c in "TTTTT"])
    play = play_of_ranks([R[c] for c in "JJJJJ"])
    assert rules.may_burn(counts_of([R[c] for c in "JJJJJB3344"]), play, top, flags_of(O))
    assert not rules.may_burn(counts_of([R[c] for c in "JJJJJ334455"]), play, top, flags_of(O))
    assert not rules.may_burn(counts_of([R[c] for c in "99999B"]), play_of_ranks([R["9"]] * 5), top, flags_of(O))


def test_gouji_rule_12_1_highest_jokers_and_twos_first():
    h = hand("RJ", "BJ", "BJ", "2S", "2H", "AS", "3S")
    assert rules.tribute_cards(h, 2) == hand("RJ") | cardlib.to_mask([cardlib.card_id(13)])
    assert rules.tribute_cards(h, 4) == h & ~hand("2H", "AS", "3S")
    assert rules.tribute_cards(h, 9) == h & ~hand("AS", "3S")  # pays what he has
    assert rules.tribute_cards(hand("AS", "3S"), 2) == 0


def test_gouji_variant_g25_no_repass_tribute():
    h = hand("RJ", "2S")
    assert rules.tribute_cards(h, 1, exclude=hand("RJ")) == hand("2S")


def test_gouji_rule_12_2_payment_order():
    pays = [("luo", 5, 0, 2), ("dian", 3, 0, 1), ("dian", 0, 3, 1), ("men", 2, 1, 1), ("shao", 4, 1, 1),
            ("dian", 1, 4, 2), ("shao", 4, 3, 1)]
    got = rules.payment_order(pays, previous_toke=1)
    assert got == [("men", 2, 1, 1), ("shao", 4, 1, 1), ("shao", 4, 3, 1), ("dian", 1, 4, 2), ("dian", 3, 0, 1),
                   ("dian", 0, 3, 1), ("luo", 5, 0, 2)]


def test_gouji_variant_g13_4pl_order():
    pays = [("luo", 5, 0, 2), ("men", 2, 1, 1), ("shao", 4, 1, 1), ("dian", 1, 4, 2)]
    assert [p[0] for p in rules.payment_order(pays, 0, "4pl_order")] == ["dian", "shao", "men", "luo"]


def test_gouji_rule_12_8_small_cards_only():
    h = hand("RJ", "2S", "AS", "5S", "4S")
    assert rules.return_allowed(h, hand("AS", "5S"), 2)
    assert not rules.return_allowed(h, hand("2S", "5S"), 2)
    assert not rules.return_allowed(h, hand("5S"), 2)  # the count returned
    few = hand("RJ", "BJ", "2S", "4S")
    assert rules.return_allowed(few, hand("4S", "2S"), 2)  # too few small: the lowest 钱 then jokers
    assert not rules.return_allowed(few, hand("4S", "RJ"), 2)


def test_gouji_variant_g15_free_choice_and_lowest_only():
    h = hand("RJ", "2S", "AS", "5S", "4S")
    assert rules.return_allowed(h, hand("RJ", "2S"), 2, "free_choice")
    assert rules.return_allowed(h, hand("4S", "5S"), 2, "lowest_only")
    assert not rules.return_allowed(h, hand("4S", "AS"), 2, "lowest_only")
    assert not rules.return_allowed(hand("3S", "4S", "5S"), hand("3S", "4S"), 2, "lowest_only", biesan=True)
    assert rules.return_allowed(hand("3S", "4S", "5S"), hand("5S", "4S"), 2, "lowest_only", biesan=True)


def test_gouji_rule_7_2_maisan_seller_priority():
    threes = (0, 2, 2, 2, 2, 2)
    assert rules.maisan_seller(0, threes) == 3  # the 对头 first
    assert rules.maisan_seller(0, (0, 2, 2, 1, 2, 2)) == 1  # then P+1, P+5
    assert rules.maisan_seller(0, (0, 1, 2, 1, 2, 2)) == 5
    assert rules.maisan_seller(0, (0, 1, 2, 1, 2, 1)) == 2  # then the team-mates, P+2 first
    assert rules.maisan_seller(0, (0, 1, 1, 1, 2, 1)) == 4
    assert rules.maisan_seller(0, (0, 1, 1, 1, 1, 1)) == -1


def test_gouji_rule_1_4_deal_216_cards_36_each():
    hands, leader = rules.deal(b"s" * 32, b"", rules.Options())
    assert [h.bit_count() for h in hands] == [36] * 6
    assert sum(hands) == (1 << 216) - 1 and 0 <= leader < 6
    assert rules.deal(b"s" * 32, b"", rules.Options()) == (hands, leader)
    assert rules.deal(b"t" * 32, b"", rules.Options())[0] != hands


def test_gouji_rule_6_1_the_deal_leader_is_shangban_or_drawn():
    for k in range(20):
        hands, leader = rules.deal(bytes([k]) * 32, b"", rules.Options(), start=k % 6)
        expected = rules.shangban(hands, k % 6)
        assert leader == expected or expected == -1


def test_gouji_rule_6_1_bie_san_counts_fours():
    h = hand("4S", "4S", "4S")
    assert rules.three_counts(h, 1) == 3 and rules.three_counts(h) == 0
    assert rules.shangban([0, h, 0, 0, 0, 0], rank=1) == 1


def deal_race_first(seed: bytes, start: int) -> int:
    """6.4 deal_race, replayed: the first seat dealt two 3s of one suit (-1: nobody)."""
    deck = rules.rng.Stream(rules.rng.deal_key(seed, b""), "deal").shuffle(range(216))
    held = [0] * 6
    for i, card in enumerate(deck):
        seat = (start + i) % 6
        held[seat] |= 1 << card
        if rules.three_counts(held[seat]) >= 2:
            return seat
    return -1


def test_gouji_variant_g5_deal_race():
    for k in range(10):
        seed = bytes([k]) * 32
        hands, leader = rules.deal(seed, b"", rules.Options(first_leader="deal_race"), start=2)
        assert leader == deal_race_first(seed, 2)


def test_gouji_variant_g5_daluo_leads():
    options = rules.Options(first_leader="daluo_leads")
    assert rules.deal(b"s" * 32, b"", options, daluo=4)[1] == 4
    assert rules.deal(b"s" * 32, b"", options, daluo=4, revolution=1 << 4)[1] == 5  # 6.3
    first = rules.deal(b"s" * 32, b"", options)  # a 局's first 回合: 上班
    assert first[1] == rules.deal(b"s" * 32, b"", rules.Options())[1]
