"""够级 plays (rules/gouji.md §2-§4, 13.3 d): classification, comparison, 够级牌, burn feasibility and
legal plays, on both twins of the hot path, against a plain reference written from the rule text."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import speedups
from referee.core.games.gouji import rules
from referee.core.games.gouji.rules import Options, counts_of

TWO, SMALL, BIG = 12, 13, 14
R = {c: i for i, c in enumerate("3456789TJQKA2BR")}
STRICT = rules.flags_of(Options())


@pytest.fixture(params=["interpreted", "compiled"])
def hot(request):
    interpreted = speedups.interpreted("games.gouji.hot")
    if request.param == "compiled":
        compiled = speedups.load("games.gouji.hot")
        if compiled is interpreted:
            pytest.skip("no compiled twin: referee.core.games.gouji.hot_c is not installed (or REFEREE_FORCE_PURE)")
        return compiled
    return interpreted


def ranks(text: str) -> list[int]:
    return [R[c] for c in text]


def play(hot, text: str) -> int:
    return hot.classify(*counts_of(ranks(text)))


# --- the reference, from the rule text ---------------------------------------------------------

def ref_legal(rs) -> bool:
    """2.1: at most one natural rank (3 to A), at least one card."""
    return bool(rs) and len({r for r in rs if r < TWO}) <= 1


def ref_vector(rs, downgrade=True) -> list[int]:
    """2.2-2.5, 3.2: naturals and attached 2s at the natural rank, jokers kept (大花 as 小花 when the
    play holds both), 2s alone stay 2s; sorted high to low."""
    natural = [r for r in rs if r < TWO]
    both = SMALL in rs and BIG in rs
    out = []
    for r in rs:
        if r == TWO and natural:
            out.append(natural[0])
        elif r == BIG and both and downgrade:
            out.append(SMALL)
        else:
            out.append(r)
    return sorted(out, reverse=True)


def ref_beats(new, top, downgrade=True, cover=False, option1="") -> bool:
    a, b = ref_vector(new, downgrade), ref_vector(top, downgrade)
    if len(a) == len(b):
        if cover:
            return a != b and all((x >= y and x >= SMALL) if y >= SMALL else x > y for x, y in zip(a, b))
        return all(x > y for x, y in zip(a, b))
    if not option1 or min(a + b) < SMALL:
        return False
    na, sa, nb_, sb = a.count(BIG), a.count(SMALL), b.count(BIG), b.count(SMALL)
    if na and sa or nb_ and sb:
        return False
    if option1 == "full":
        return (na == 2 * nb_ or sa == 3 * nb_) if nb_ else (na == 0 and sa == 2 * sb)
    if option1 == "2kill1_only":
        return nb_ == 1 and na == 2
    return (na == 2 or sa == 3) if nb_ == 1 else (na == 0 and (sb, sa) in ((1, 2), (2, 4)))


def ref_gouji(rs) -> bool:
    """4.1."""
    if SMALL in rs or BIG in rs:
        return True
    rank = ref_vector(rs)[0]
    need = {R["T"]: 5, R["J"]: 4, R["Q"]: 3, R["K"]: 2, R["A"]: 2, TWO: 1}.get(rank)
    return need is not None and len(rs) >= need


plays_ranks = st.builds(lambda n, r, t, s, b: [r] * n + [TWO] * t + [SMALL] * s + [BIG] * b,
                        st.integers(0, 6), st.integers(0, 11), st.integers(0, 4), st.integers(0, 3),
                        st.integers(0, 3)).filter(bool)


# --- 2: what may be played ---------------------------------------------------------------------

def test_gouji_rule_2_1_different_natural_ranks_never_combine(hot):
    assert play(hot, "5TT") == 0
    assert play(hot, "") == 0
    assert play(hot, "TTT") != 0


def test_gouji_rule_2_2_attached_twos_take_the_natural_rank(hot):
    assert hot.vector(play(hot, "22TTTT"), STRICT) == [R["T"]] * 6
    assert hot.vector(play(hot, "222"), STRICT) == [TWO] * 3


def test_gouji_rule_2_3_jokers_keep_their_identity(hot):
    assert hot.vector(play(hot, "RR222TTTT"), STRICT) == [BIG, BIG] + [R["T"]] * 7
    assert hot.vector(play(hot, "BB888"), STRICT) == [SMALL, SMALL] + [R["8"]] * 3
    assert hot.vector(play(hot, "B22"), STRICT) == [SMALL, TWO, TWO]


def test_gouji_rule_2_4_jokers_only_is_a_play(hot):
    assert hot.jokers_only(play(hot, "RRB")) and not hot.jokers_only(play(hot, "RR2"))


def test_gouji_rule_2_5_both_jokers_count_as_small(hot):
    assert hot.vector(play(hot, "RB225555"), STRICT) == [SMALL, SMALL] + [R["5"]] * 6
    assert hot.vector(play(hot, "RB"), STRICT) == [SMALL, SMALL]


def test_gouji_variant_g3_mixed_jokers_downgrade_false(hot):
    flags = rules.flags_of(Options(mixed_jokers_downgrade=False))
    assert hot.vector(play(hot, "RB"), flags) == [BIG, SMALL]
    assert hot.beats(play(hot, "RR"), play(hot, "RB"), STRICT)  # downgraded: 小花 小花
    assert not hot.beats(play(hot, "RR"), play(hot, "RB"), flags)  # 大花 小花: 大花 does not beat 大花


# --- 3: beating ----------------------------------------------------------------------------------

def test_gouji_rule_3_1_same_number_of_cards(hot):
    assert not hot.beats(play(hot, "AAA"), play(hot, "KK"), STRICT)
    assert hot.beats(play(hot, "AA"), play(hot, "KK"), STRICT)


def test_gouji_rule_3_2_strict_position_by_position(hot):
    assert hot.beats(play(hot, "RR999"), play(hot, "BB888"), STRICT)
    assert not hot.beats(play(hot, "RRR88"), play(hot, "BB888"), STRICT)  # 8 <= 8 at the last place


@pytest.mark.parametrize("new, top, beats", [
    ("99999", "22888", True),   # five 9s beat two 钱 + three 8s
    ("RRTTT", "BB999", True),   # two 大花 + three 10s beat two 小花 + three 9s
    ("RRRTT", "BB999", True),   # three 大花 + two 10s
    ("RRBTT", "BB999", False),  # any 小花: all its jokers count as 小花 (2.5)
    ("RBBTT", "BB999", False),
    ("BBBTT", "BB999", False),
    ("RR888", "BB999", False),  # two 大花 + three 8s do not
    ("RR999", "BB999", False),  # nor two 大花 + three 9s
    ("BB999", "BB999", False),  # equal plays never beat each other
])
def test_gouji_rule_3_3_worked_examples(hot, new, top, beats):
    assert hot.beats(play(hot, new), play(hot, top), STRICT) is beats
    assert ref_beats(ranks(new), ranks(top)) is beats


def test_gouji_rule_3_4_a_big_joker_is_never_beaten(hot):
    hand = counts_of(ranks("RRRRBBBB2222AAAA"))
    for top in ("R", "RAA", "R2", "RR"):
        assert hot.beating_plays(*hand, play(hot, top), STRICT) == []
    assert hot.beating_plays(*hand, play(hot, "RB"), STRICT)  # downgraded: 小花 小花


@pytest.mark.parametrize("scope, new, top, beats", [
    ("full", "RR", "R", True), ("full", "BBB", "R", True), ("full", "RRRR", "RR", True),
    ("full", "BB", "B", True), ("full", "BBBB", "BB", True), ("full", "RRR", "R", False),
    ("full", "BBBB", "B", False), ("full", "RB", "B", True),
    ("2kill1_only", "RR", "R", True), ("2kill1_only", "BBB", "R", False), ("2kill1_only", "BB", "B", False),
    ("4pl_table", "BB", "B", True), ("4pl_table", "BBBB", "BB", True), ("4pl_table", "RR", "R", True),
    ("4pl_table", "BBB", "R", True), ("4pl_table", "RRRR", "RR", False), ("4pl_table", "BBB", "B", False),
])
def test_gouji_rule_3_5_option1_scopes(hot, scope, new, top, beats):
    flags = rules.flags_of(Options(option1_joker_counts=True, option1_scope=scope))
    assert hot.beats(play(hot, new), play(hot, top), flags) is beats
    assert not hot.beats(play(hot, new), play(hot, top), STRICT) or len(new) == len(top)
    assert ref_beats(ranks(new), ranks(top), option1=scope) is beats


def test_gouji_rule_3_5_option1_needs_jokers_only(hot):
    flags = rules.flags_of(Options(option1_joker_counts=True))
    assert not hot.beats(play(hot, "RR"), play(hot, "R2"), flags)
    assert not hot.beats(play(hot, "RRA"), play(hot, "R"), flags)


def test_gouji_rule_3_6_cover_then_core_strict(hot):
    flags = rules.flags_of(Options(comparison="cover_then_core_strict"))
    assert hot.beats(play(hot, "BBBTT"), play(hot, "BB999"), flags)
    assert hot.beats(play(hot, "BBTTT"), play(hot, "BB999"), flags)
    assert not hot.beats(play(hot, "BBTTT"), play(hot, "BB999"), STRICT)
    assert not hot.beats(play(hot, "BB999"), play(hot, "BB999"), flags)
    assert not hot.beats(play(hot, "BB888"), play(hot, "BB999"), flags)
    assert hot.beats(play(hot, "R"), play(hot, "B"), flags)


# --- 4: 够级牌 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, gouji", [
    ("TTTTT", True), ("TTTT", False), ("22TTT", True), ("JJJJ", True), ("JJJ", False), ("QQQ", True),
    ("QQ", False), ("KK", True), ("K", False), ("AA", True), ("A", False), ("2", True),
    ("99999999", False), ("3", False), ("B3", True), ("R", True), ("TTTTTT", True),
])
def test_gouji_rule_4_1_gouji_thresholds(hot, text, gouji):
    assert hot.is_gouji(play(hot, text)) is gouji
    assert ref_gouji(ranks(text)) is gouji


def test_gouji_rule_4_2_examples(hot):
    assert hot.is_gouji(play(hot, "QQ2")) and hot.is_gouji(play(hot, "QQB")) and not hot.is_gouji(play(hot, "QQ"))


# --- 13.3 d) -------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, ok", [
    ("", True), ("333", True), ("3344", False), ("B3344", True), ("22224455", False),
    ("RB334455", True), ("R2334455", False), ("2222", True),
])
def test_gouji_rule_13_3_d_burn_feasibility(hot, hand, ok):
    assert hot.can_burn_out(*counts_of(ranks(hand))) is ok


# --- properties ----------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(plays_ranks)
def test_gouji_rule_2_every_play_classifies_as_the_reference(rs):
    for hot in twins():
        p = hot.classify(*counts_of(rs))
        assert (p != 0) == ref_legal(rs)
        if p:
            assert hot.size(p) == len(rs)
            assert hot.vector(p, STRICT) == ref_vector(rs)
            assert hot.is_gouji(p) == ref_gouji(rs)


FLAG_CASES = [(dict(), {}), (dict(mixed_jokers_downgrade=False), dict(downgrade=False)),
              (dict(comparison="cover_then_core_strict"), dict(cover=True))] + [
    (dict(option1_joker_counts=True, option1_scope=s), dict(option1=s)) for s in ("full", "2kill1_only", "4pl_table")]


def twins():
    interpreted = speedups.interpreted("games.gouji.hot")
    compiled = speedups.load("games.gouji.hot")
    return (interpreted,) if compiled is interpreted else (interpreted, compiled)


@settings(max_examples=400, deadline=None)
@given(plays_ranks, plays_ranks, st.sampled_from(FLAG_CASES))
def test_gouji_rule_3_beats_agrees_with_the_reference_on_both_twins(a, b, case):
    options, ref = case
    flags = rules.flags_of(Options(**options))
    for hot in twins():
        pa, pb = hot.classify(*counts_of(a)), hot.classify(*counts_of(b))
        if pa and pb:
            assert hot.beats(pa, pb, flags) == ref_beats(a, b, **ref)


@settings(max_examples=300, deadline=None)
@given(plays_ranks, plays_ranks, plays_ranks, st.sampled_from(FLAG_CASES[:3]))
def test_gouji_rule_3_comparison_is_a_strict_partial_order(a, b, c, case):
    flags = rules.flags_of(Options(**case[0]))
    hot = speedups.load("games.gouji.hot")
    pa, pb, pc = (hot.classify(*counts_of(x)) for x in (a, b, c))
    if pa and pb and pc:
        assert not hot.beats(pa, pa, flags)
        assert not (hot.beats(pa, pb, flags) and hot.beats(pb, pa, flags))
        if hot.beats(pa, pb, flags) and hot.beats(pb, pc, flags):
            assert hot.beats(pa, pc, flags)


@settings(max_examples=300, deadline=None)
@given(plays_ranks, plays_ranks)
def test_gouji_rule_4_3_what_beats_a_gouji_play_is_one(a, b):
    hot = speedups.load("games.gouji.hot")
    pa, pb = hot.classify(*counts_of(a)), hot.classify(*counts_of(b))
    if pa and pb and hot.is_gouji(pb) and hot.beats(pa, pb, STRICT):
        assert hot.is_gouji(pa)


hands = st.lists(st.integers(0, 14), min_size=1, max_size=36).filter(lambda h: all(h.count(r) <= 16 for r in h))


def submultisets(hand):
    """Every distinct play of the hand, by brute force over the reference."""
    from collections import Counter
    from itertools import product
    have = Counter(hand)
    keys = sorted(have)
    out = set()
    for take in product(*(range(have[k] + 1) for k in keys)):
        rs = tuple(r for k, n in zip(keys, take) for r in [k] * n)
        if ref_legal(rs):
            out.add(rs)
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 14), min_size=1, max_size=12), plays_ranks, st.sampled_from(FLAG_CASES))
def test_gouji_rule_10_legal_plays_are_the_reference_plays(hand, top, case):
    flags = rules.flags_of(Options(**case[0]))
    every = submultisets(hand)
    for hot in twins():
        lo, hi = counts_of(hand)
        leads = hot.free_leads(lo, hi)
        assert len(leads) == len(set(leads)) == len(every)
        assert {tuple(sorted(hot.vector(p, 0) if False else ranks_of_play(hot, p))) for p in leads} == every
        tp = hot.classify(*counts_of(top))
        if tp:
            want = {p for p in every if ref_beats(list(p), top, **case[1])}
            got = hot.beating_plays(lo, hi, tp, flags)
            assert len(got) == len(set(got))
            assert {ranks_of_play(hot, p) for p in got} == want


def ranks_of_play(hot, p):
    rank = hot.natural_rank(p)
    return tuple(sorted([rank] * hot.naturals(p) + [TWO] * hot.twos(p) + [SMALL] * hot.smalls(p)
                        + [BIG] * hot.bigs(p)))


def test_gouji_hot_minus_takes_the_play_out(hot):
    lo, hi = counts_of(ranks("RRBB2222TTTT55"))
    assert hot.minus(lo, hi, play(hot, "RB22TTT")) == counts_of(ranks("RB22T55"))


# --- referee check --------------------------------------------------------------------------------

@pytest.mark.parametrize("request_, answer", [
    ({"play": "RJ RJ TH TS TD", "table": "BJ BJ 9H 9S 9D", "options": {"option1_joker_counts": False}},
     {"legal": True, "beats": True, "gouji": True}),
    ({"play": "9S 9S 9H 9D 9C", "table": "2S 2H 8S 8H 8D"}, {"legal": True, "beats": True, "gouji": False}),
    ({"play": "RJ RJ 8S 8H 8D", "table": "BJ BJ 9H 9S 9D"}, {"legal": True, "beats": False, "gouji": True}),
    ({"play": "5S TS TH", "table": ""}, {"legal": False, "beats": False, "gouji": False}),
    ({"play": "TS TH TD TC 2S", "table": ""}, {"legal": True, "beats": True, "gouji": True}),
    ({"play": "RJ RJ", "table": "RJ", "options": {"option1_joker_counts": True, "option1_scope": "2kill1_only"}},
     {"legal": True, "beats": True, "gouji": True}),
    ({"play": "RJ RJ", "table": "RJ", "options": {"option1": True}}, {"legal": True, "beats": True, "gouji": True}),
    ({"play": "RJ RJ", "table": "RJ", "options": {"option1": False}}, {"legal": True, "beats": False, "gouji": True}),
])
def test_gouji_check_answers(request_, answer):
    assert rules.check_answer(request_) == answer


@pytest.mark.parametrize("request_", [
    {"play": "XS", "table": ""}, {"play": "3S 3S 3S 3S 3S", "table": ""}, {"play": "3S 3S 3S", "table": "3S 3S"},
    {"play": "TS", "table": "5S TS"}, {"play": "TS", "table": "", "options": {"nope": 1}},
    {"play": "TS", "table": "", "options": {"ju_length": "5"}}, {"play": "TS", "table": "", "options": {"option1_scope": "4pl_table"}},
    {"play": 5}, [],
])
def test_gouji_check_errors(request_):
    assert set(rules.check_answer(request_)) == {"error"}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 14), min_size=1, max_size=36))
def test_gouji_rule_10_1_grouped_leads_hold_every_free_lead_once(hand):
    counts = counts_of(hand)
    groups = rules.grouped_leads(counts)
    plays = [p for g in groups for p in g.plays()]
    assert sorted(plays) == sorted(rules.hot.free_leads(*counts))
    assert len(groups) <= 13


def test_gouji_grouped_lead_text():
    (tens, bare) = rules.grouped_leads(counts_of(ranks("TTTT222BBR")))
    assert tens.text() == "T1-4 +2:0-3 +B:0-2 +R:0-1" and bare.text() == "- +2:0-3 +B:0-2 +R:0-1"
    assert len(tens.plays()) == 4 * 4 * 3 * 2 and len(bare.plays()) == 4 * 3 * 2 - 1


four_pack_hands = st.lists(st.integers(0, 14), min_size=36, max_size=36).filter(
    lambda h: all(h.count(r) <= (4 if r >= SMALL else 16) for r in set(h)))


@settings(max_examples=60, deadline=None)
@given(four_pack_hands, four_pack_hands, st.sampled_from(FLAG_CASES), st.randoms(use_true_random=False))
def test_gouji_rule_10_twins_agree_on_36_card_hands(hand, other, case, rnd):
    flags = rules.flags_of(Options(**case[0]))
    counts = counts_of(hand)
    leads = [hot.free_leads(*counts) for hot in twins()]
    assert all(x == leads[0] for x in leads)
    extras = [hand.count(r) + 1 for r in (TWO, SMALL, BIG)]
    per = extras[0] * extras[1] * extras[2]
    assert len(leads[0]) == sum(hand.count(r) for r in range(12)) * per + per - 1  # the perft count of 10.1
    top = rnd.choice(speedups.interpreted("games.gouji.hot").free_leads(*counts_of(other)))
    answers = [hot.beating_plays(*counts, top, flags) for hot in twins()]
    assert all(x == answers[0] for x in answers)
    pure = speedups.interpreted("games.gouji.hot")
    assert sorted(answers[0]) == sorted(p for p in leads[0] if pure.beats(p, top, flags))
