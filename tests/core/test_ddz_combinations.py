"""Dou Dizhu combinations (spec rules 10-11 and the combination table of rules/doudizhu.md).

Every case is checked twice: on each twin of the hot path (``hot.readings`` / ``hot.beats``,
fixture ``hot``) and through the game surface (``DOUDIZHU.classify`` / ``DOUDIZHU.compare``).
A reading is written (kind, main rank character, chain links); rank characters are
``3456789TJQKA2BR`` (B small joker, R big joker).
"""
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.games.doudizhu import rules as doudizhu
from referee.core.games.doudizhu.rules import DOUDIZHU, Options
from referee.core.errors import InvalidAction, Reason

RANK_CHARS = "3456789TJQKA2BR"
DEFAULT = Options()
ROCKET_KICKERS = Options(rocket_as_kickers=True)


def hot_readings(hot, text, options=DEFAULT):
    plays = hot.readings(doudizhu.parse_hand(text), options.rocket_as_kickers)
    return {(hot.KIND_NAMES[hot.play_kind(p)], RANK_CHARS[hot.play_main(p)], hot.play_chain(p))
            for p in plays}


def api_readings(text, options=DEFAULT):
    return {(c.kind, RANK_CHARS[c.main_rank], c.chain) for c in DOUDIZHU.classify(text, options)}


def check_readings(hot, text, expected, options=DEFAULT):
    assert hot_readings(hot, text, options) == expected
    assert api_readings(text, options) == expected


# --- the combination table: each of the 14 types ------------------------------------------

EVERY_TYPE = [
    ("BR", {("rocket", "R", 1)}),
    ("2222", {("bomb", "2", 1)}),
    ("3333", {("bomb", "3", 1)}),
    ("3", {("single", "3", 1)}),
    ("B", {("single", "B", 1)}),
    ("R", {("single", "R", 1)}),
    ("22", {("pair", "2", 1)}),
    ("TT", {("pair", "T", 1)}),
    ("AAA", {("trio", "A", 1)}),
    ("3334", {("trio_single", "3", 1)}),
    ("222R", {("trio_single", "2", 1)}),
    ("33344", {("trio_pair", "3", 1)}),
    ("22233", {("trio_pair", "2", 1)}),
    ("34567", {("straight", "7", 5)}),
    ("334455", {("pair_straight", "5", 3)}),
    ("333444", {("trio_straight", "4", 2)}),
    ("33344456", {("airplane_singles", "4", 2)}),
    ("333444555789", {("airplane_singles", "5", 3)}),
    ("3334445566", {("airplane_pairs", "4", 2)}),
    ("333444555667722", {("airplane_pairs", "5", 3)}),
    ("555534", {("four_two_singles", "5", 1)}),
    ("55553344", {("four_two_pairs", "5", 1)}),
    ("2222AAKK", {("four_two_pairs", "2", 1)}),
]


@pytest.mark.parametrize("text, expected", EVERY_TYPE, ids=[t for t, _ in EVERY_TYPE])
def test_ddz_table_every_type_classifies(hot, text, expected):
    check_readings(hot, text, expected)


def test_ddz_table_lists_fourteen_types(hot):
    kinds = {kind for _, readings in EVERY_TYPE for kind, _, _ in readings}
    assert kinds == set(hot.KIND_NAMES) - {""}
    assert len(kinds) == 14


def test_ddz_table_card_notation_classifies_like_ranks():
    assert api_readings("3S 3H") == {("pair", "3", 1)}
    assert api_readings("BJ RJ") == {("rocket", "R", 1)}
    assert api_readings("10S JH QD KC AS") == {("straight", "A", 5)}


# --- chains (rule 11g, length bounds of the table) ------------------------------------------

CHAINS = [
    # straight: 5..12 single ranks within 3..A
    ("3456", set()),
    ("34567", {("straight", "7", 5)}),
    ("3456789TJQKA", {("straight", "A", 12)}),
    ("TJQKA", {("straight", "A", 5)}),
    ("JQKA2", set()),
    ("QKA23", set()),
    ("9TJQKAB", set()),
    ("3456789TJQKA2", set()),
    ("34568", set()),
    # pair straight: 3..10 pairs
    ("3344", set()),
    ("334455", {("pair_straight", "5", 3)}),
    ("33445566778899TTJJQQ", {("pair_straight", "Q", 10)}),
    ("445566778899TTJJQQKK", {("pair_straight", "K", 10)}),
    ("33445566778899TTJJQQKK", set()),
    ("QQKKAA", {("pair_straight", "A", 3)}),
    ("KKAA22", set()),
    ("334466", set()),
    # trio straight: 2..6 trios
    ("333444", {("trio_straight", "4", 2)}),
    ("333444555666777888", {("trio_straight", "8", 6)}),
    ("999TTTJJJQQQKKKAAA", {("trio_straight", "A", 6)}),
    ("333444555666777888999", set()),
    ("AAA222", set()),
    ("333555", set()),
]


@pytest.mark.parametrize("text, expected", CHAINS, ids=[t for t, _ in CHAINS])
def test_ddz_rule_11g_chains_bounds_and_no_2_or_jokers(hot, text, expected):
    check_readings(hot, text, expected)


# --- kicker rules 11a-11f -------------------------------------------------------------------

def test_ddz_table_rocket_is_not_a_pair(hot):
    check_readings(hot, "BR", {("rocket", "R", 1)})
    check_readings(hot, "333BR", set())  # a trio + the jokers is no trio+pair
    check_readings(hot, "3334445566BR", set())


def test_ddz_table_two_jokers_of_a_kind_are_not_one_deck():
    with pytest.raises(InvalidAction) as error:
        DOUDIZHU.classify("BB", DEFAULT)
    assert error.value.reason == Reason.DUPLICATE_CARD


@pytest.mark.parametrize("text", ["34", "3344", "345", "3456", "33445", "33334", "3333444"])
def test_ddz_table_not_a_combination(hot, text):
    check_readings(hot, text, set())


def test_ddz_rule_11c_four_two_singles_may_be_a_pair(hot):
    check_readings(hot, "555533", {("four_two_singles", "5", 1)})
    check_readings(hot, "222233", {("four_two_singles", "2", 1)})
    check_readings(hot, "5555B3", {("four_two_singles", "5", 1)})


def test_ddz_rule_11d_four_two_pairs_need_two_ranks(hot):
    check_readings(hot, "44445555", set())
    check_readings(hot, "4444555566", set())
    check_readings(hot, "44445566", {("four_two_pairs", "4", 1)})


@pytest.mark.parametrize("text, reading", [("5555BR", ("four_two_singles", "5", 1)),
                                           ("2222BR", ("four_two_singles", "2", 1)),
                                           ("333444BR", ("airplane_singles", "4", 2))])
def test_ddz_rule_11b_rocket_as_kickers_only_by_option(hot, text, reading):
    check_readings(hot, text, set())
    check_readings(hot, text, {reading}, ROCKET_KICKERS)


def test_ddz_rule_11b_one_joker_is_a_kicker_by_default(hot):
    check_readings(hot, "5555B4", {("four_two_singles", "5", 1)})
    check_readings(hot, "333444B2", {("airplane_singles", "4", 2)})
    check_readings(hot, "3333445BR", set())  # 9 cards is nothing, rocket or not
    check_readings(hot, "3333445BR", set(), ROCKET_KICKERS)


def test_ddz_rule_11e_wings_may_share_a_rank(hot):
    check_readings(hot, "33344455", {("airplane_singles", "4", 2)})
    check_readings(hot, "33344422", {("airplane_singles", "4", 2)})
    # three wings of one rank, not next to the body: one reading only
    check_readings(hot, "333444555999", {("airplane_singles", "5", 3)})


def test_ddz_rule_11e_wings_at_most_three_a_rank(hot):
    # body 3456 + wings 7777: four wings of one rank are no airplane (and nothing else)
    check_readings(hot, "3334445556667777", set())
    # body 3456 + 7778 also reads as body 4567 + 3338
    check_readings(hot, "3334445556667778", {("airplane_singles", "6", 4),
                                             ("airplane_singles", "7", 4)})


def test_ddz_rule_11_wings_not_body_rank(hot):
    # 333 444 + wings 3, 5: the fourth 3 would be a wing of a body rank (rule 11a)
    check_readings(hot, "33334445", set())
    check_readings(hot, "33344445", set())
    # the same multiset read with a body elsewhere is fine: 444555 + 3, 3 (wings share a rank)
    check_readings(hot, "33444555", {("airplane_singles", "5", 2)})


def test_ddz_rule_11f_pair_wings_of_different_ranks(hot):
    check_readings(hot, "3334445555", set())
    check_readings(hot, "3334445577", {("airplane_pairs", "4", 2)})
    check_readings(hot, "33344455667", set())
    check_readings(hot, "333444BR55", set())


def test_ddz_rule_11_airplane_body_of_two_to_six_trios(hot):
    check_readings(hot, "333444555666777888" + "9TJQKA", {("airplane_singles", "8", 6)})
    check_readings(hot, "333444555666777888" + "99TTJJQQKKAA", {("airplane_pairs", "8", 6)})
    check_readings(hot, "33345", set())  # a body of one trio is a trio+single at most
    # seven trios (28 cards) are kept as a regression sample: tests/regressions


def test_ddz_rule_11g_no_airplane_body_of_2(hot):
    check_readings(hot, "AAA22234", set())
    check_readings(hot, "KKKAAA34", {("airplane_singles", "A", 2)})


def test_ddz_rule_11g_a_split_bomb_serves_as_kickers(hot):
    # 4444 gives one of its cards as a wing of 555666 (rule 11g); 555 666 + 4 + 4 is fine
    check_readings(hot, "44555666", {("airplane_singles", "6", 2)})


def test_ddz_rule_11e_333444555666_has_three_readings(hot):
    check_readings(hot, "333444555666", {("airplane_singles", "5", 3),   # 345 + 666
                                         ("airplane_singles", "6", 3),   # 456 + 333
                                         ("trio_straight", "6", 4)})


def test_ddz_rule_11i_666777888999_reads_as_chain_or_airplane(hot):
    check_readings(hot, "666777888999", {("airplane_singles", "8", 3),
                                         ("airplane_singles", "9", 3),
                                         ("trio_straight", "9", 4)})


def test_ddz_rule_11i_classify_lists_the_strongest_reading_last():
    combos = DOUDIZHU.classify("333444555666", DEFAULT)
    assert (combos[-1].kind, combos[-1].chain, combos[-1].size) == ("trio_straight", 4, 12)
    assert [c.main_rank for c in combos[:2]] == [2, 3]  # airplanes 345+666, 456+333


# --- rule 10: beats -------------------------------------------------------------------------

BEATS = [
    # same type, higher main rank
    ("4", "3", True), ("3", "4", False), ("3", "3", False), ("2", "A", True),
    ("B", "2", True), ("R", "B", True), ("B", "R", False),
    ("44", "33", True), ("22", "AA", True), ("33", "22", False), ("444", "333", True),
    # different type or card count never beats
    ("44", "3", False), ("3", "44", False), ("444", "33", False), ("33", "3", False),
    ("44455", "3336", False), ("4445", "33366", False),
    ("45678", "34567", True), ("34567", "45678", False), ("TJQKA", "9TJQK", True),
    ("3456789", "45678", False), ("456789", "34567", False),
    ("445566", "334455", True), ("44556677", "334455", False),
    ("444555", "333444", True), ("444555666", "333444", False),
    ("666634", "55557788", False), ("4445553366", "33344456", False),
    ("444555666789", "33344456", False),
    # kickers never matter
    ("4443", "3332", True), ("3332", "4443", False), ("33322", "44433", False),
    ("44433", "333AA", True), ("666634", "5555AK", True), ("555522", "6666AK", False),
    ("66663344", "5555AAKK", True),
    # rule 11h: airplanes by the highest trio of the body, never the wings
    ("44455536", "33344422", True), ("33344422", "44455536", False),
    ("444555AK", "3334442B", True), ("3334442B", "44455567", False),
    ("4445553366", "3334447788", True), ("3334447788", "4445553366", False),
    # bombs
    ("3333", "22", True), ("3333", "34567", True), ("3333", "3456789TJQKA", True),
    ("3333", "5555AK", True), ("3333", "333444555666", True), ("5555", "4444", True),
    ("4444", "5555", False), ("2222", "AAAA", True), ("4444", "4444", False),
    ("22", "3333", False), ("666634", "5555", False), ("3456789TJQKA", "3333", False),
    # rocket
    ("BR", "2222", True), ("BR", "3", True), ("BR", "333444555666", True),
    ("2222", "BR", False), ("R", "BR", False),
]


@pytest.mark.parametrize("a, b, expected", BEATS, ids=[f"{a}-on-{b}" for a, b, _ in BEATS])
def test_ddz_rule_10_beats(hot, a, b, expected):
    table, _ = doudizhu.choose_reading(doudizhu.classify(doudizhu.parse_hand(b)), 0)
    assert table
    plays = hot.readings(doudizhu.parse_hand(a), False)
    assert plays
    assert any(hot.beats(p, table) for p in plays) is expected
    assert DOUDIZHU.compare(a, b, DEFAULT)[0] is expected


def test_ddz_rule_10_anything_may_lead(hot):
    for text in ("3", "BR", "2222", "333444555666", "55553344"):
        assert all(hot.beats(p, 0) for p in hot.readings(doudizhu.parse_hand(text), False))


@pytest.mark.parametrize("a, b, reading", [
    # table 678+345 (main 8): 678+999 does not beat, 789+666 (main 9) does
    ("666777888999", "666777888345", ("airplane_singles", "9", 3)),
    # table 789+345 (main 9): no reading of 666777888999 beats it
    ("666777888999", "777888999345", None),
    # the table 333444555666 is read as when led: a trio chain of four (6 high)
    ("666777888999", "333444555666", ("trio_straight", "9", 4)),
    # table 456+789 (main 6): 567+888, 678+555 both beat; the higher main is taken
    ("555666777888", "444555666789", ("airplane_singles", "8", 3)),
])
def test_ddz_rule_11i_legal_if_any_reading_beats(hot, a, b, reading):
    beats, a_combo, _ = DOUDIZHU.compare(a, b, DEFAULT)
    assert beats is (reading is not None)
    if reading:
        assert (a_combo.kind, RANK_CHARS[a_combo.main_rank], a_combo.chain) == reading
    table, _ = doudizhu.choose_reading(doudizhu.classify(doudizhu.parse_hand(b)), 0)
    assert any(hot.beats(p, table) for p in hot.readings(doudizhu.parse_hand(a), False)) is beats


def test_ddz_rule_11i_table_read_as_when_led():
    _, _, b_combo = DOUDIZHU.compare("3", "333444555666", DEFAULT)
    assert (b_combo.kind, RANK_CHARS[b_combo.main_rank], b_combo.chain) == ("trio_straight", "6", 4)


@pytest.mark.parametrize("a, b", [("34", "3"), ("3", "34"), ("3344", "5")])
def test_ddz_compare_refuses_what_is_no_combination(a, b):
    with pytest.raises(InvalidAction) as error:
        DOUDIZHU.compare(a, b, DEFAULT)
    assert error.value.reason == Reason.NOT_A_COMBINATION


# --- a reference classifier written from the spec, differential ------------------------------

ACE, SMALL, BIG = 11, 13, 14


def reference_readings(c, rocket_kickers=False):
    """The spec's combination table and rules 11a-g, read literally: {(kind, main, chain)}."""
    n, ranks = sum(c), [r for r in range(15) if c[r]]
    if n == 0:
        return set()
    if n == 2 and c[SMALL] == c[BIG] == 1:
        return {("rocket", BIG, 1)}
    if len(ranks) == 1:
        return {(("single", "pair", "trio", "bomb")[n - 1], ranks[0], 1)}
    out = set()

    def rest(body):
        return [c[r] - body.get(r, 0) for r in range(15)]

    def shape(counts):
        return sorted(x for x in counts if x)

    def rocket(counts):
        return counts[SMALL] == counts[BIG] == 1 and not rocket_kickers

    for r in range(13):
        if c[r] == 3 and n == 4:
            out.add(("trio_single", r, 1))
        if c[r] == 3 and n == 5 and shape(rest({r: 3})) == [2]:
            out.add(("trio_pair", r, 1))
        if c[r] == 4 and n == 6 and not rocket(rest({r: 4})):
            out.add(("four_two_singles", r, 1))
        if c[r] == 4 and n == 8 and shape(rest({r: 4})) == [2, 2]:
            out.add(("four_two_pairs", r, 1))
    for width, kind, shortest, longest in ((1, "straight", 5, 12), (2, "pair_straight", 3, 10),
                                           (3, "trio_straight", 2, 6)):
        links = len(ranks)
        if (shape(c) == [width] * links and shortest <= links <= longest and ranks[-1] <= ACE
                and ranks[-1] - ranks[0] + 1 == links):
            out.add((kind, ranks[-1], links))
    for links in range(2, 7):
        for low in range(0, ACE - links + 2):
            body = {r: 3 for r in range(low, low + links)}
            if any(c[r] != 3 for r in body):  # a fourth card would be a wing of a body rank
                continue
            wings = rest(body)
            if n == 4 * links and max(wings) <= 3 and not rocket(wings):
                out.add(("airplane_singles", low + links - 1, links))
            if n == 5 * links and shape(wings) == [2] * links:
                out.add(("airplane_pairs", low + links - 1, links))
    return out


def hot_reading_set(hot, counts, rocket_kickers):
    packed = sum(x << (3 * r) for r, x in enumerate(counts))
    return {(hot.KIND_NAMES[hot.play_kind(p)], hot.play_main(p), hot.play_chain(p))
            for p in hot.readings(packed, rocket_kickers)}


def sub_multisets(counts):
    for sub in itertools.product(*(range(x + 1) for x in counts)):
        if any(sub):
            yield list(sub)


def rank_counts(text):
    counts = [0] * 15
    for ch in text:
        counts[RANK_CHARS.index(ch)] += 1
    return counts


@pytest.mark.parametrize("hand", ["33344455566677BR", "3334445555666789TJ",
                                  "999TTTJJJQQQKKKAA22R"])
def test_ddz_rules_10_11_readings_match_reference_on_every_part_of_a_hand(hot, hand):
    for rocket_kickers in (False, True):
        for sub in sub_multisets(rank_counts(hand)):
            assert hot_reading_set(hot, sub, rocket_kickers) == reference_readings(sub, rocket_kickers), sub


DECK_RANKS = [r for r in range(13) for _ in range(4)] + [SMALL, BIG]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(range(54)), min_size=1, max_size=10, unique=True), st.booleans())
def test_ddz_rules_10_11_readings_match_reference_on_random_hands(cards, rocket_kickers):
    counts = [0] * 15
    for card in cards:
        counts[DECK_RANKS[card]] += 1
    for sub in sub_multisets(counts):
        assert hot_reading_set(doudizhu.hot, sub, rocket_kickers) == reference_readings(sub, rocket_kickers)
