"""Q783 / 378Q: one test per numbered rule of rules/q783.md and per variant option, named after
them. Tables set up by hand (``table``) play through the game's own apply, as the API does."""
from __future__ import annotations

import random

import pytest

from referee.core import cards as cardlib
from referee.core import rng
from referee.core.games.q783 import rules as q783
from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.game import ABANDON, PASS, PLAY, Action
from referee.core.games.q783.rules import Q783, State

from q783_tables import act, cards_of, opts, run, table


def of_type(events, kind: str) -> list:
    return [e for e in events if e.type == kind]


def pays(events, kind: str = "PAY") -> list[tuple[int, int, int]]:
    return [(e.seat, e.values["to"], e.values["amount"]) for e in of_type(events, kind)]


def beats(a: str, b: str, options=None) -> bool:
    return Q783.compare(a, b, options or opts())[0]


def combo(text: str, options=None):
    readings = Q783.classify(text, options or opts())
    return readings[0] if readings else None


def play_out(state: State, rnd: random.Random) -> State:
    while not state.finished:
        state, _ = Q783.apply(state, rnd.choice(Q783.legal_actions(state, state.to_act[0]))[0])
    return state


# --- 1. players, teams, equipment ------------------------------------------------------------------

def test_q783_rule_1_1_camps_and_individual():
    for seats, camps in ((3, False), (4, True), (5, False), (6, True)):
        state = Q783.deal(opts(), b"camps", b"", seats)
        assert state.camps == camps
        teams = [sv.team for sv in Q783.view(state, -1).seats]
        assert teams == ([s % 2 for s in range(seats)] if camps else [-1] * seats)
        assert len(state.banks) == (2 if camps else seats)
    assert Q783.default_seats == 4 and (Q783.min_seats, Q783.max_seats) == (3, 6)


def test_q783_variant_individual():
    for seats in (4, 6):
        state = Q783.deal(opts(individual=True), b"alone", b"", seats)
        assert not state.camps and len(state.banks) == seats
        assert {sv.team for sv in Q783.view(state, 0).seats} == {-1}


def test_q783_rule_1_2_two_packs():
    state = Q783.deal(opts(), b"packs", b"")
    assert sum(h.bit_count() for h in state.hands) == 80  # two packs' play cards
    assert set(Q783.all_cards(state)) == set(range(108))


def test_q783_variant_decks_one_pack():
    state = Q783.deal(opts(decks=1), b"packs", b"")
    assert sum(h.bit_count() for h in state.hands) == 40
    assert max(c for h in state.hands for c in cardlib.from_mask(h)) < 54
    with pytest.raises(InvalidAction) as refused:
        Q783.hint_strings("QS QS", "", opts(decks=1))
    assert refused.value.reason == Reason.DUPLICATE_CARD


def test_q783_rule_1_3_counter_clockwise_turns():
    state = table("4S 6S", "9S JS", "AS 2S", "3S 8S")
    state, _ = act(state, 0, "4S")
    assert state.to_act == (1,)
    state, _ = act(state, 1)
    assert state.to_act == (2,)


@pytest.mark.parametrize("seats, sizes", [(3, (27, 27, 26)), (4, (20,) * 4), (5, (16,) * 5),
                                          (6, (14, 14, 13, 13, 13, 13))])
def test_q783_rule_1_4_deal_one_card_at_a_time_from_the_dealer(seats, sizes):
    options = opts(negative_allowed=True)  # the 大局 goes on whatever the banks
    state = Q783.deal(options, b"deal", b"e", seats)
    deck = rng.Stream(rng.deal_key(b"deal", b"e"), "deal").shuffle(q783.deck_of(options, False))
    for i, card in enumerate(deck):
        assert state.hands[i % seats] >> card & 1  # the first 小局 is dealt from seat 0
    assert tuple(h.bit_count() for h in state.hands) == sizes
    # later 小局: dealt from the previous first finisher, who gets the first (extra) card
    finished = play_out(state, random.Random(1))
    nxt = Q783.deal(options, b"next", b"", seats, Q783.next_round(finished))
    assert nxt.dealer == finished.out[0] == nxt.first_lead
    deck = rng.Stream(rng.deal_key(b"next", b""), "deal").shuffle(q783.deck_of(options, False))
    assert nxt.hands[nxt.dealer] >> deck[0] & 1 and nxt.hands[(nxt.dealer + 1) % seats] >> deck[1] & 1


# --- 2. score cards ---------------------------------------------------------------------------------

def test_q783_rule_2_1_score_cards_are_never_dealt_nor_played():
    state = Q783.deal(opts(), b"score", b"")
    dealt = [cardlib.card_rank(c) for h in state.hands for c in cardlib.from_mask(h)]
    assert not {cardlib.RANK_CHARS.index(r) for r in "5TKBR"} & set(dealt)
    assert combo("5S") is None and combo("KS KH") is None and combo("BJ") is None
    assert Q783.hint_strings("KC 5S TD BJ QH", "", opts()) == ["Q"]  # score cards in a hand are ignored
    seat = state.to_act[0]
    refused = Q783.check(state, Action(seat, PLAY, (cardlib.card_id(2, 0),)))  # 5S: no hand holds it
    assert refused.reason == Reason.CARDS_NOT_IN_HAND


def test_q783_rule_2_2_score_values():
    assert q783.score_total(opts()) == 500 and q783.score_total(opts(decks=1)) == 250
    assert q783.score_total(opts(ace_scores=True)) == 1500
    assert q783.score_total(opts("378q")) == 680 and q783.score_total(opts("378q", decks=1)) == 340


def test_q783_variant_ace_scores():
    assert q783.score_total(opts("378q", ace_scores=True)) == 2 * (340 + 200)
    state = Q783.deal(opts(ace_scores=True), b"aces", b"")
    assert sum(h.bit_count() for h in state.hands) == 72 and state.banks == (750, 750)
    assert combo("AS", opts(ace_scores=True)) is None
    assert q783.rank_order(opts(ace_scores=True)) == "Q7832J964"


def test_q783_rule_2_3_banks_one_per_seat_or_per_camp():
    state, events = run(table("4S 6S", "9S JS", "AS 2S", "3S 8S"), (0, "4S"), (1, "9S"), (2, None), (3, None),
                        (0, None))
    assert state.banks == (990, 1010)  # camp 1 gained from camp 0 once per opposing player
    assert pays(events) == [(0, 1, 5), (2, 1, 5)]
    views = Q783.views(state, (0, 1, 2, 3))
    assert [sv.counters["bank"] for sv in views[0].seats] == [990, 1010, 990, 1010]


def test_q783_rule_2_4_bank_formation():
    assert Q783.deal(opts(), b"b", b"").banks == (250, 250)
    assert Q783.deal(opts(individual=True), b"b", b"").banks == (125,) * 4
    assert Q783.deal(opts(), b"b", b"", 3).banks == (166,) * 3
    assert Q783.deal(opts(), b"b", b"", 6).banks == (249, 249)
    first = play_out(Q783.deal(opts(), b"b", b""), random.Random(2))
    if not Q783.match_over(first):
        assert Q783.deal(opts(), b"c", b"", 4, Q783.next_round(first)).banks == first.banks  # banks carry


def test_q783_variant_start_bank():
    assert Q783.deal(opts(start_bank=300), b"b", b"").banks == (600, 600)
    assert Q783.deal(opts(start_bank=300), b"b", b"", 5).banks == (300,) * 5


def test_q783_variant_drawn_bank():
    options = opts(drawn_bank=True, individual=True)
    state = Q783.deal(options, b"drawn", b"")
    assert sum(h.bit_count() + m.bit_count() for h, m in zip(state.hands, state.score_cards)) == 108
    assert state.banks == tuple(q783.score_value(options, m) for m in state.score_cards)
    assert sum(state.banks) == 500 and state.set_aside == 0
    shown = {e.seat: e for e in Q783.deal_events(state) if e.type == "SCORE_CARDS"}
    assert all(set(shown[s].cards) == set(cardlib.from_mask(m)) for s, m in enumerate(state.score_cards) if m)
    assert Q783.view(state, 1).seats[0].cards.get("score_cards", ()) == cardlib.from_mask(state.score_cards[0])
    finished = play_out(state, random.Random(3))
    if not Q783.match_over(finished):  # later 小局 deal the play cards only
        nxt = Q783.deal(options, b"later", b"", 4, Q783.next_round(finished))
        assert sum(h.bit_count() for h in nxt.hands) == 80 and not any(nxt.score_cards)
    camps = Q783.deal(opts(drawn_bank=True), b"drawn", b"")
    assert camps.banks == (sum(state.banks[0::2]), sum(state.banks[1::2]))


def _deal_with_a_seat_without_score_cards(options, seats: int):
    """The first deal (seeds b"zero 0", b"zero 1" ...) where a seat other than the first lead
    draws no score card: (state, that seat)."""
    for k in range(500):
        state = Q783.deal(options, b"zero %d" % k, b"", seats)
        empty = [s for s in range(seats) if not state.score_cards[s] and s != state.first_lead]
        if empty:
            return state, empty[0]
    raise AssertionError("no deal with a seat that drew no score card")


def test_q783_rule_2_4_drawn_bank_a_seat_dealt_no_score_card_starts_at_0_and_ends_the_big_game():
    """2.4 (amended): under drawn_bank a player dealt no score card starts with a bank of 0; in
    individual play the 大局 then ends at his first payment (2.5, 9.1): he pays nothing of what
    he owes, the other payments of the trick are made, no 小局 penalty."""
    options = opts(drawn_bank=True, decks=1)
    state, zero = _deal_with_a_seat_without_score_cards(options, 5)  # 5 seats: individual play
    assert not state.camps and state.banks[zero] == 0
    assert state.banks == tuple(q783.score_value(options, m) for m in state.score_cards)
    assert Q783.view(state, -1).seats[zero].counters["bank"] == 0
    assert zero not in {e.seat for e in Q783.deal_events(state) if e.type == "SCORE_CARDS"}
    lead = state.first_lead
    action, combo = Q783.legal_actions(state, lead)[0]
    assert combo.kind == "single"
    state, events = Q783.apply(state, action)
    for k in range(1, 5):  # every other seat passes, in turn: the leader wins the trick (5, 7.2)
        state, more = act(state, (lead + k) % 5)
        events += more
    assert [e.seat for e in of_type(events, "TRICK_WON")] == [lead]
    others = [s for s in range(5) if s != lead]
    assert pays(events) == [(s, lead, 0 if s == zero else 5) for s in others]
    assert [e.values["due"] for e in of_type(events, "PAY")] == [5, 5, 5, 5]
    assert [e.values["bank"] for e in of_type(events, "EXHAUSTED")] == [zero]
    assert state.finished and state.outcome == q783.EXHAUSTED and state.winners == ()
    assert not of_type(events, "PENALTY") and Q783.match_over(state)
    assert state.banks[zero] == 0 and state.banks[lead] == state.opening[lead] + 15


def test_q783_rule_2_5_a_short_bank_pays_what_it_has():
    state, events = run(table("4S 6S", "9S JS", "AS 2S", options=opts(), banks=(3, 100, 100)),
                        (0, "4S"), (1, "9S"), (2, None), (0, None))
    assert pays(events) == [(0, 1, 3), (2, 1, 5)] and state.banks == (0, 108, 95)
    assert of_type(events, "PAY")[0].values["due"] == 5


# --- 3. rank order --------------------------------------------------------------------------------

def _assert_order(order: str, options) -> None:
    assert q783.rank_order(options) == order
    for high, low in zip(order, order[1:]):
        assert beats(high + "S", low + "S", options) and not beats(low + "S", high + "S", options)


def test_q783_rule_3_1_rank_order():
    _assert_order("Q7832AJ964", opts())


def test_q783_rule_3_2_variant_two_low():
    _assert_order("Q783AJ9642", opts(two_low=True))


def test_q783_rule_3_3_378q_rank_order():
    _assert_order("378QAJ9642", opts("378q"))


def test_q783_variant_two_378q():
    _assert_order("378Q2AJ964", opts("378q", two_378q="between"))
    removed = opts("378q", two_378q="removed")
    _assert_order("378QAJ964", removed)
    state = Q783.deal(removed, b"no twos", b"")
    twos = Q783.notation.rank_masks[cardlib.RANKS.index("2")]
    assert not any(h & twos for h in state.hands) and state.set_aside & twos == twos
    with pytest.raises(InvalidAction):
        Q783.hint_strings("2S 3S", "", removed)


# --- 4. combinations ----------------------------------------------------------------------------------

def test_q783_rule_4_1_sets_of_one_rank_up_to_eight():
    queens = "QS QH QD QC QS QH QD QC".split()
    kinds = [combo(" ".join(queens[:n])).kind for n in range(1, 9)]
    assert kinds == ["single", "pair", "trio", "bomb", "bomb", "bomb", "bomb", "bomb"]
    assert [combo(" ".join(queens[:n])).size for n in range(1, 9)] == list(range(1, 9))


def test_q783_rule_4_2_bombs_of_four_or_more():
    assert beats("4S 4H 4D 4C", "QS QH QD") and beats("4S 4H 4D 4C", "QS")
    assert not beats("4S 4H 4D", "QS QH") and combo("4S 4H 4D").kind == "trio"


def test_q783_variant_triple_bomb():
    options = opts(triple_bomb=True)
    assert combo("4S 4H 4D", options).kind == "triple_bomb"
    assert beats("4S 4H 4D", "QS QH", options) and beats("6S 6H 6D", "4S 4H 4D", options)
    assert beats("QS 7H 8H 3H", "QS QH QD", options)  # the lowest of the bomb class (5.2)
    assert Q783.hint_strings("4S 4H 4D QS", "QH QD", options) == ["444"]


def test_q783_rule_4_3_q783_is_q_7_8_3():
    assert combo("QS 7H 8H 3H").kind == "mixed_q783" and "Q783" in combo("QS 7H 8H 3H").label
    assert "378Q" in combo("QS 7H 8H 3H", opts("378q")).label
    assert combo("QS 7H 8H") is None and combo("QS 7H 8H 3H 3D") is None


def test_q783_rule_4_4_pure_by_real_suits():
    assert combo("QH 7H 8H 3H").kind == "pure_q783" and combo("QH 7H 8H 3S").kind == "mixed_q783"
    # two packs: the second copy of a suit is the same suit
    state = table("QH 7H 8H 3H QH", "4S", "4D", options=opts(individual=True))
    legal = Q783.legal_actions(state, 0)
    assert {c.kind for _, c in legal if c and "q783" in c.kind} == {"pure_q783"}


def test_q783_rule_4_5_variant_double_q783():
    eight = "QH QH 7H 7H 8H 8H 3H 3H"
    assert combo(eight) is None
    options = opts(double_q783=True)
    assert combo(eight, options).kind == "pure_double_q783"
    assert combo("QH QS 7H 7H 8H 8H 3H 3H", options).kind == "mixed_double_q783"
    assert combo("QH QS 7H 7H 8H 8H 3H 3H", opts(double_q783=True, decks=2)).size == 8


def test_q783_rule_4_6_no_straights_no_kickers():
    for text in ("3S 4S 6S 7S 8S", "QS QH 7S", "QS 7S", "QS 7S 8S 3S 4S", "4S 4H 6S 6H"):
        assert combo(text) is None, text


# --- 5. beating -----------------------------------------------------------------------------------------

def test_q783_rule_5_1_same_size_higher_rank():
    assert beats("QS QH", "7S 7H") and not beats("7S 7H", "QS QH")
    assert not beats("QS QH", "QD QC")  # equal plays do not beat each other
    assert not beats("QS QH", "4S") and not beats("4S", "QS QH")


def test_q783_variant_more_cards_beat():
    options = opts(more_cards_beat=True)
    assert beats("4S 4H", "QS", options) and beats("4S 4H 4D", "QS QH", options)
    assert not beats("4S", "QS QH", options) and beats("QS QH", "7S 7H", options)
    assert not beats("QS QH QD", "4S 4H 4D 4C", options)  # bombs are unchanged


Q783_LADDER = ["6S 6H 6D", "QS 7H 8H 3H", "QH 7H 8H 3H", "4S 4H 4D 4C", "4S 4H 4D 4C 4S",
               "4S 4H 4D 4C 4S 4H", "4S 4H 4D 4C 4S 4H 4D", "QS QH 7H 7H 8H 8H 3H 3H",
               "QH QH 7H 7H 8H 8H 3H 3H", "4S 4H 4D 4C 4S 4H 4D 4C"]


def _assert_ladder(ladder: list[str], options) -> None:
    for i, low in enumerate(ladder):
        for high in ladder[i + 1:]:
            assert beats(high, low, options) and not beats(low, high, options), (high, low)


def test_q783_rule_5_2_bomb_class_order():
    options = opts(triple_bomb=True, double_q783=True)
    _assert_ladder(Q783_LADDER, options)
    assert beats("QS QS QH QH QD QD QC QC", "7S 7S 7H 7H 7D 7D 7C 7C", options)  # eight Qs: the largest
    assert not beats("QS 7H 8H 3H", "QD 7C 8C 3D", options) and not beats("QH 7H 8H 3H", "QS 7S 8S 3S", options)
    assert not beats("QH QS 7H 7H 8H 8H 3H 3H", "QD QC 7D 7C 8D 8D 3D 3D", options)
    assert beats("4S 4H 4D 4C", "QS QH QD", options) and beats("QS 7H 8H 3H", "QS QH QD", options)


def test_q783_rule_5_3_378q_bomb_ladder():
    options = opts("378q", triple_bomb=True, double_q783=True)
    ladder = Q783_LADDER[:2] + [Q783_LADDER[3], Q783_LADDER[2]] + Q783_LADDER[4:]
    _assert_ladder(ladder, options)


def test_q783_variant_pure_378q_top():
    options = opts("378q", double_q783=True, pure_378q_top=True)
    pure = "QH 7H 8H 3H"
    for bomb in Q783_LADDER[3:]:
        assert beats(pure, bomb, options) and not beats(bomb, pure, options)
    assert not beats("QS 7S 8S 3S", pure, options)


def test_q783_rule_5_4_variant_pure_suit_order():
    options = opts(pure_suit_order=True)
    suits = ["QD 7D 8D 3D", "QC 7C 8C 3C", "QH 7H 8H 3H", "QS 7S 8S 3S"]  # ♦ < ♣ < ♥ < ♠
    _assert_ladder(suits, options)
    assert not beats("QS 7H 8H 3H", "QD 7C 8C 3D", options)  # mixed ones never by suit
    assert not beats("QS 7S 8S 3S", "QD 7D 8D 3D")  # off by default: pure ones are equal
    state = table("QS 7S 8S 3S QH 7H 8H 3H", "4S", "4D", options=opts(pure_suit_order=True, individual=True))
    assert sorted(c.label for _, c in Q783.legal_actions(state, 0) if c.kind == "pure_q783") == [
        "pure Q783 纯Q783 (hearts)", "pure Q783 纯Q783 (spades)"]


# --- 6. the trick -----------------------------------------------------------------------------------------

def test_q783_rule_6_1_lead_then_beat_or_pass():
    state = table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True))
    assert Q783.check(state, Action(0, PASS)).reason == Reason.MUST_LEAD
    state, _ = act(state, 0, "4S")
    legal = Q783.legal_actions(state, 1)
    assert legal[0][0].kind == PASS and len(legal) == 3  # may pass though it can beat
    assert Q783.check(state, Action(1, PLAY, cards_of(state, 1, "9S"))).legal
    # a seat that is out is skipped
    state = table("4S 6S", "", "AS 2S", "3S", options=opts(individual=True), out=(1,))
    state, _ = act(state, 0, "4S")
    assert state.to_act == (2,)


def test_q783_rule_6_2_a_pass_does_not_bar():
    state, _ = run(table("4S 6S", "9S 2D", "AS 2S", options=opts(individual=True)), (0, "4S"), (1, None),
                   (2, "AS"), (0, None))
    assert state.to_act == (1,) and Q783.check(state, Action(1, PLAY, cards_of(state, 1, "2D"))).legal


def test_q783_variant_pass_bars_trick():
    options = opts(individual=True, pass_bars_trick=True)
    state, events = run(table("4S 6S", "9S 2D", "AS 2S", options=options), (0, "4S"), (1, None), (2, "AS"),
                        (0, None))
    assert of_type(events, "TRICK_WON")[0].seat == 2 and state.to_act == (2,)  # seat 1 was barred


def test_q783_rule_6_3_trick_won_when_all_others_pass_in_succession():
    state, events = run(table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True)), (0, "4S"), (1, "9S"),
                        (2, None), (0, None))
    assert of_type(events, "TRICK_WON")[0].seat == 1 and state.to_act == (1,) and state.trick.top == 0


def test_q783_rule_6_4_first_lead_earliest_heart_three():
    options = opts()
    for k in range(20):
        seed = b"lead %d" % k
        state = Q783.deal(options, seed, b"")
        deck = rng.Stream(rng.deal_key(seed, b""), "deal").shuffle(q783.deck_of(options, False))
        first = min(i for i, c in enumerate(deck) if c % 54 == q783.HEART_THREE)
        assert state.first_lead == first % 4 == state.to_act[0]


def test_q783_variant_first_score_card_drawer():
    options = opts(drawn_bank=True, first_lead="first_score_card_drawer")
    for k in range(10):
        seed = b"score lead %d" % k
        state = Q783.deal(options, seed, b"")
        deck = rng.Stream(rng.deal_key(seed, b""), "deal").shuffle(q783.deck_of(options, True))
        first = min(i for i, c in enumerate(deck) if q783.rules_of(options).score_mask >> c & 1)
        assert state.first_lead == first % 4


def test_q783_rule_6_5_jiefeng():
    state, events = run(table("7H", "4S 6S", "4D 6D", "4C 6C"), (0, "7H"), (1, None), (2, None), (3, None))
    assert of_type(events, "OUT")[0].seat == 0 and of_type(events, "TRICK_WON")[0].seat == 0
    assert pays(events) == [(1, 0, 5), (3, 0, 5)]  # the winning last play is paid
    lead = of_type(events, "LEAD")[0]
    assert lead.seat == 1 and lead.values["from"] == 0 and state.to_act == (1,)


def test_q783_rule_6_6_baopai():
    state = table("4S 6S 9S", "AS 2S QS", "4D 6D 9D", options=opts(individual=True))
    state, events = act(state, 0, "4S")
    assert not of_type(events, "BAOPAI")
    state, events = run(state, (1, None), (2, None), (0, "6S"))
    assert [(e.seat, e.values["cards"]) for e in of_type(events, "BAOPAI")] == [(0, 1)]
    assert [sv.hand_size for sv in Q783.view(state, 2).seats] == [1, 3, 3]  # counts are public


def test_q783_variant_baopai():
    _, events = run(table("4S 6S 9S", "AS 2S QS", "4D", options=opts(individual=True, baopai=0)), (0, "4S"),
                    (1, None), (2, None), (0, "6S"))
    assert not of_type(events, "BAOPAI")
    _, events = act(table("4S 4H 6S 9S", "AS", "4D", options=opts(individual=True, baopai=3)), 0, "4S 4H")
    assert [e.values["cards"] for e in of_type(events, "BAOPAI")] == [2]


# --- 7. trick payments ----------------------------------------------------------------------------------------

def test_q783_rule_7_1_who_pays_the_winner():
    _, events = run(table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True)), (0, "4S"), (1, "9S"),
                    (2, None), (0, None))
    assert pays(events) == [(0, 1, 5), (2, 1, 5)]  # individual: every other seat
    state = table("4S 6S", "9S JS", "AS 2S", "", out=(3,))
    state, events = run(state, (0, "4S"), (1, None), (2, None))
    assert pays(events) == [(1, 0, 5), (3, 0, 5)]  # camps: once per opposing player, in or out
    assert state.banks == (1010, 990)


def test_q783_rule_7_2_by_type():
    _, events = run(table("QH 7H 8H 3H 4S", "9S JS", "AS 2S", options=opts(individual=True)),
                    (0, "QH 7H 8H 3H"), (1, None), (2, None))
    assert pays(events) == [(1, 0, 40), (2, 0, 40)]


def test_q783_rule_7_3_variant_by_count():
    options = opts(individual=True, payment="by_count")
    _, events = run(table("4S 9S JS", "6S AS", "2D", options=options), (0, "4S"), (1, "6S"), (2, None),
                    (0, "9S"), (1, None), (2, None))
    assert pays(events) == [(1, 0, 10), (2, 0, 10)]  # seat 0 played two cards in the trick


def test_q783_rule_7_4_variant_by_type_378q():
    options = opts("378q", individual=True)
    assert options.payment == "by_type_378q"
    _, events = run(table("QS QH 4S", "9S JS", "AS 2S", options=options), (0, "QS QH"), (1, None), (2, None))
    assert pays(events) == [(1, 0, 10), (2, 0, 10)]  # 5 a card
    _, events = run(table("QH 7H 8H 3H 4S", "9S JS", "AS 2S", options=options), (0, "QH 7H 8H 3H"), (1, None),
                    (2, None))
    assert pays(events) == [(1, 0, 10), (2, 0, 10)]


def test_q783_rule_7_4_variant_pay_on_pass():
    options = opts("378q", pay_on_pass=True)
    state, events = act(table("QS QH 4S", "9S JS", "AS 2S", "3S 3H", options=options), 0, "QS QH")
    state, events = act(state, 1)
    assert pays(events) == [(1, 0, 10)] and state.banks == (1010, 990)  # paid at once, on the pass
    state, events = act(state, 2)
    assert pays(events) == []  # a partner pays nothing
    state, events = act(state, 3)
    assert pays(events) == [(3, 0, 10)] and of_type(events, "TRICK_WON") and state.banks == (1020, 980)


@pytest.mark.parametrize("preset", ["q783", "378q"])
def test_q783_rule_7_4_pay_on_pass_by_count_pays_5_a_card_of_the_play_passed_on(preset):
    """7.4 (amended): under pay_on_pass with by_count each pass pays 5 per card of the play passed
    on, not 5 per card its owner played in the trick (7.3); by_count may be chosen under 378q."""
    options = opts(preset, pay_on_pass=True, payment="by_count")
    state, events = run(table("4S 4H 9S 9H 3D", "6S 6H JS", "AS 2S QD", options=options),
                        (0, "4S 4H"), (1, "6S 6H"), (2, None))
    assert pays(events) == [(2, 1, 10)]  # a pair passed on: 10
    state, events = run(state, (0, "9S 9H"), (1, None), (2, None))
    assert pays(events) == [(1, 0, 10), (2, 0, 10)]  # seat 0 has played 4 cards in the trick: still 10
    assert [e.seat for e in of_type(events, "TRICK_WON")] == [0]  # and nothing more when it is won
    assert state.banks == (1020, 1000, 980)


# --- 8. end of a 小局 ---------------------------------------------------------------------------------------

def test_q783_rule_8_1_points_are_the_bank_changes():
    state = play_out(Q783.deal(opts(), b"points", b""), random.Random(4))
    settlement = Q783.settle(state)
    assert settlement.points == tuple(state.banks[s % 2] - state.opening[s % 2] for s in range(4))
    assert sum(settlement.points) == 0


def test_q783_rule_8_2_the_trick_is_played_out_first():
    options = opts(individual=True)
    state, events = run(table("4S", "6S JS", "9D 2D", options=options), (0, "4S"))
    assert not state.finished and of_type(events, "OUT")  # seat 0 is out, the trick goes on
    state, events = run(state, (1, "6S"), (2, None))
    assert state.finished and of_type(events, "TRICK_WON")[0].seat == 1
    assert pays(events) == [(0, 1, 5), (2, 1, 5)]
    assert state.winners == (0,)  # the first seat out wins the 小局
    # camps: over when every seat of one camp is out
    state, events = run(table("4S", "6S 9S", "7H", "6D 9D"), (0, "4S"), (1, None), (2, None), (3, None))
    assert not state.finished  # seat 2 still holds a card
    state, events = run(state, (1, "6S"), (2, "7H"), (3, None), (1, None))
    assert state.finished and state.winners == (0, 2)


def test_q783_variant_end_at_once():
    options = opts(individual=True, end_at_once=True)
    state, events = act(table("4S", "6S JS", "9D 2D", options=options), 0, "4S")
    assert state.finished and of_type(events, "TRICK_WON")[0].seat == 0
    assert pays(events) == [(1, 0, 5), (2, 0, 5)]


def test_q783_rule_8_2_end_at_once_under_pay_on_pass_the_last_play_is_paid_as_if_passed_on():
    """8.2 (amended): under end_at_once and pay_on_pass the play that ends the 小局 is paid as if
    every opponent still holding cards had passed on it (each pays its amount, 7.4), in turn
    order; then the 小局 result and penalties as always."""
    options = opts(end_at_once=True, pay_on_pass=True)  # 3 seats: individual
    state, events = act(table("QS QH", "9S JS", "AS 2S", options=options), 0, "QS QH")
    assert state.finished and [e.seat for e in of_type(events, "TRICK_WON")] == [0]
    assert pays(events) == [(1, 0, 5), (2, 0, 5)]  # by_type: an ordinary play 5
    assert pays(events, "PENALTY") == [(1, 0, 50), (2, 0, 50)]
    assert state.banks == (1110, 945, 945) and Q783.settle(state).points == (110, -55, -55)
    # 378q: a pair is 5 a card
    state, events = act(table("QS QH", "9S JS", "AS 2S", options=opts("378q", end_at_once=True, pay_on_pass=True)),
                        0, "QS QH")
    assert pays(events) == [(1, 0, 10), (2, 0, 10)]
    # in turn order from the last play's owner
    state, events = act(table("4S 6S", "QS", "9S JS", "AS 2S", leader=1, options=opts(individual=True, **{
        "end_at_once": True, "pay_on_pass": True})), 1, "QS")
    assert pays(events) == [(2, 1, 5), (3, 1, 5), (0, 1, 5)]
    # camps: an opponent already out passes on nothing and pays nothing (7.1's "in or out" is the
    # trick payment's, not a pass's)
    state, events = act(table("", "", "4S", "6S 9S", leader=2, out=(0, 1), options=options), 2, "4S")
    assert state.finished and pays(events) == [(3, 2, 5)]
    assert pays(events, "PENALTY") == [(1, 2, 100), (3, 0, 100)] and state.banks == (1205, 795)
    # without pay_on_pass: the trick payment, once per opposing player in or out (7.1)
    _, events = act(table("", "", "4S", "6S 9S", leader=2, out=(0, 1), options=opts(end_at_once=True)), 2, "4S")
    assert pays(events) == [(1, 2, 5), (3, 2, 5)]


def test_q783_rule_8_2_end_at_once_under_pay_on_pass_with_by_count():
    """8.2 and 7.4 (amended): the last play is paid 5 per card of that play by every opponent
    still holding cards, not 5 per card its owner played in the trick; the passes made on the
    plays before it were paid as they came."""
    options = opts(end_at_once=True, pay_on_pass=True, payment="by_count")
    state, events = run(table("4S 4H 9S 9H", "6S 6H JS", "AS 2S", options=options), (0, "4S 4H"), (1, "6S 6H"),
                        (2, None))
    assert pays(events) == [(2, 1, 10)] and not state.finished
    state, events = act(state, 0, "9S 9H")  # seat 0 out: the 小局 ends at once
    assert state.finished and [e.seat for e in of_type(events, "TRICK_WON")] == [0]
    assert pays(events) == [(1, 0, 10), (2, 0, 10)]  # 5 a card of 9S 9H (seat 0 played 4 in the trick)
    assert pays(events, "PENALTY") == [(1, 0, 50), (2, 0, 50)]
    assert state.banks == (1120, 950, 930)


def test_q783_rule_8_3_result_by_finishing_order():
    def camp_result(out):
        hands = ["4S" if s not in out else "" for s in range(4)]
        return q783.result(table(*hands, out=out))[:2]

    assert camp_result((0, 2)) == (q783.CAMP_WON, (0, 2))  # 1st + 2nd
    assert camp_result((1, 0, 3)) == (q783.CAMP_WON, (1, 3))  # 1st + 3rd beats 2nd + 4th
    assert camp_result((0, 1, 3, 2)) == (q783.DRAW, ())  # 1st + 4th against 2nd + 3rd
    assert q783.result(table("", "4S", "6S", options=opts(individual=True), out=(0,)))[:2] == (
        q783.FIRST_OUT_WON, (0,))


def test_q783_variant_by_points():
    options = opts(individual=True, by_points=True)
    state, events = run(table("4S 6S", "QH 7H 8H 3H 4D 9D", "AS 2S", options=options), (0, "4S"),
                        (1, "QH 7H 8H 3H"), (2, None), (0, None), (1, "4D"), (2, None), (0, "6S"), (1, None),
                        (2, None))
    assert state.out[0] == 0  # first out, but seat 1 gained most: 80 - 5 against 10 - 40
    assert state.finished and state.outcome == q783.POINTS_WON and state.winners == (1,)
    assert pays(events, "PENALTY") == [(0, 1, 50), (2, 1, 50)]
    state = table("4S", "6S", "9S", options=options)
    assert q783.result(state)[0] == q783.DRAW  # nobody gained: a tie for the most


def test_q783_rule_8_4_loss_penalties():
    state, events = run(table("4S", "6S JS", "9D 2D", options=opts(individual=True)), (0, "4S"), (1, None),
                        (2, None))
    assert pays(events, "PENALTY") == [(1, 0, 50), (2, 0, 50)]
    state, events = run(table("4S", "6S 9S", "7H", "6D 9D"), (0, "4S"), (1, None), (2, None), (3, None),
                        (1, "6S"), (2, "7H"), (3, None), (1, None))
    assert pays(events, "PENALTY") == [(1, 2, 100), (3, 0, 100)]  # to the opponent next counter-clockwise


def test_q783_rule_8_4_six_seat_camps_pay_the_opponent_next_counter_clockwise():
    """8.4 with three against three: each losing player pays the opponent seated next to him
    counter-clockwise (seat + 1): 1 -> 2, 3 -> 4, 5 -> 0 when camp 0 wins; 0 -> 1, 2 -> 3, 4 -> 5
    when camp 1 does; camp bank to camp bank."""
    state, events = run(table("4S", "6S 9S", "6H", "JS AS", "9D", "2S 3S"), (0, "4S"), (1, None), (2, "6H"),
                        (3, None), (4, "9D"), (5, None), (1, None), (3, None))
    assert state.finished and state.out == (0, 2, 4) and state.winners == (0, 2, 4)
    assert pays(events) == [(1, 4, 5), (3, 4, 5), (5, 4, 5)]  # the trick, played out (8.2)
    assert pays(events, "PENALTY") == [(1, 2, 100), (3, 4, 100), (5, 0, 100)]
    assert state.banks == (1315, 685)
    state, events = run(table("JS AS", "4S", "6S 9S", "6H", "2S 3S", "9D", leader=1), (1, "4S"), (2, None),
                        (3, "6H"), (4, None), (5, "9D"), (0, None), (2, None), (4, None))
    assert state.finished and state.out == (1, 3, 5) and state.winners == (1, 3, 5)
    assert pays(events, "PENALTY") == [(0, 1, 100), (2, 3, 100), (4, 5, 100)]
    assert state.banks == (685, 1315)


def test_q783_variant_penalty_individual_and_penalty_camp():
    for name, allowed in (("penalty_individual", (25, 50, 100)), ("penalty_camp", (50, 100, 200))):
        info = next(i for i in Q783.option_infos() if i.name == name)
        assert info.type == "int" and info.allowed == allowed  # the seed's amounts, and only those
        with pytest.raises(InvalidAction):
            Q783.make_options("", {name: 75})
    options = opts(individual=True, penalty_individual=25)
    _, events = run(table("4S", "6S JS", "9D 2D", options=options), (0, "4S"), (1, None), (2, None))
    assert pays(events, "PENALTY") == [(1, 0, 25), (2, 0, 25)]
    _, events = run(table("4S", "6S 9S", "7H", "6D 9D", options=opts(penalty_camp=200)), (0, "4S"), (1, None),
                    (2, None), (3, None), (1, "6S"), (2, "7H"), (3, None), (1, None))
    assert pays(events, "PENALTY") == [(1, 2, 200), (3, 0, 200)]


def test_q783_rule_8_4_a_draw_pays_no_penalty():
    state, events = run(table("4S", "6S", "7H 9H", "8D"), (0, "4S"), (1, "6S"), (2, None), (3, "8D"), (2, None))
    assert [p for p in q783.places(state)] == [1, 2, 4, 3]  # 1st + 4th against 2nd + 3rd
    assert state.finished and state.outcome == q783.DRAW and not of_type(events, "PENALTY")


# --- 9. end of a 大局 ------------------------------------------------------------------------------------

def test_q783_rule_9_1_an_exhausted_bank_ends_the_big_game():
    state, events = run(table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True), banks=(5, 100, 100)),
                        (0, "4S"), (1, "9S"), (2, None), (0, None))
    assert pays(events) == [(0, 1, 5), (2, 1, 5)]  # the other payment of the trick is still made
    assert state.finished and state.outcome == q783.EXHAUSTED and not of_type(events, "PENALTY")
    assert of_type(events, "EXHAUSTED")[0].values["bank"] == 0 and state.exhausted == 1
    assert Q783.match_over(state)
    nxt = Q783.next_round(state)  # the next 大局 at the same table: banks start again
    assert (nxt.round, nxt.number, nxt.carry) == (0, 1, None)
    assert Q783.deal(state.options, b"next", b"", 3, nxt).banks == Q783.deal(state.options, b"next", b"", 3).banks
    # pay_on_pass: play stops at the pass that empties the bank
    state, events = run(table("QS QH 4S", "9S JS", "AS 2S", options=opts(individual=True, pay_on_pass=True),
                              banks=(100, 5, 100)), (0, "QS QH"), (1, None))
    assert state.finished and state.exhausted == 2 and pays(events) == [(1, 0, 5)]


def test_q783_rule_9_1_banks_never_go_negative():
    for k in range(10):
        state = Q783.deal(opts(start_bank=20), b"short %d" % k, b"")
        rnd = random.Random(k)
        while not state.finished:
            state, _ = Q783.apply(state, rnd.choice(Q783.legal_actions(state, state.to_act[0]))[0])
            assert min(state.banks) >= 0


def test_q783_rule_9_2_variant_negative_allowed():
    options = opts(individual=True, negative_allowed=True)
    state, events = run(table("4S 6S", "9S JS", "AS 2S", options=options, banks=(3, 100, 100)), (0, "4S"),
                        (1, "9S"), (2, None), (0, None))
    assert state.banks[0] == -2 and not state.exhausted and not state.finished
    assert not of_type(events, "EXHAUSTED")


def test_q783_variant_xiaoju_limit():
    options = opts(negative_allowed=True, xiaoju_limit=3)
    state = play_out(Q783.deal(options, b"limit 0", b""), random.Random(5))
    rounds = 1
    while not Q783.match_over(state):
        state = play_out(Q783.deal(options, b"limit %d" % rounds, b"", 4, Q783.next_round(state)),
                         random.Random(rounds))
        rounds += 1
    assert rounds == 3 and state.match.round == 2


def test_q783_rule_9_3_the_exhausted_bank_loses():
    state, _ = run(table("4S 6S", "9S JS", "AS 2S", options=opts(individual=True), banks=(5, 100, 100)),
                   (0, "4S"), (1, "9S"), (2, None), (0, None))
    assert Q783.view(state, -1).counters["exhausted"] == 1
    breakdown = dict(Q783.settle(state).breakdown)
    assert (breakdown["bank0"], breakdown["bank1"], breakdown["bank2"]) == (0, 110, 95)
    assert Q783.settle(state).outcome == "bank_exhausted"


# --- options, presets, the rest ---------------------------------------------------------------------------

def test_q783_presets():
    assert Q783.make_options("q783") == q783.Options()
    assert Q783.make_options("378q") == q783.Options(rules="378q", payment="by_type_378q")
    assert set(Q783.presets) == {"q783", "378q"}


@pytest.mark.parametrize("preset, overrides", [
    ("q783", {"two_378q": "between"}), ("q783", {"pure_378q_top": True}), ("378q", {"two_low": True}),
    ("q783", {"first_lead": "first_score_card_drawer"}), ("q783", {"drawn_bank": True, "start_bank": 100}),
    ("q783", {"decks": 3}), ("q783", {"payment": "by_magic"}), ("q783", {"no_such": 1})])
def test_q783_options_refused_together(preset, overrides):
    with pytest.raises(InvalidAction) as refused:
        Q783.make_options(preset, overrides)
    assert refused.value.reason == Reason.BAD_OPTION


def test_q783_every_option_is_typed_with_its_default():
    infos = {i.name: i for i in Q783.option_infos()}
    assert {"rules", "decks", "individual", "ace_scores", "two_low", "two_378q", "triple_bomb", "double_q783",
            "more_cards_beat", "pure_378q_top", "pure_suit_order", "pass_bars_trick", "first_lead", "baopai",
            "payment", "pay_on_pass", "end_at_once", "by_points", "penalty_individual", "penalty_camp",
            "start_bank", "drawn_bank", "negative_allowed", "xiaoju_limit"} == set(infos)
    assert infos["payment"].allowed == ("by_type", "by_count", "by_type_378q")
    assert (infos["decks"].default, infos["decks"].minimum, infos["decks"].maximum) == (2, 1, 2)
    assert all(i.help for i in infos.values())


def test_q783_abandon_ends_the_xiaoju_without_penalty():
    state = Q783.deal(opts(), b"leave", b"")
    state, events = Q783.apply(state, Action(2, ABANDON))
    settlement = Q783.settle(state)
    assert state.finished and settlement.outcome == "abandoned" and settlement.points == (0,) * 4
    assert not Q783.match_over(state) and Q783.next_round(state).carry == (state.dealer, state.banks)


def test_q783_deal_record_verifies():
    from referee.service.games import q783 as service_q783
    from referee.service import verify

    for options, seats, seed in ((opts(), 4, b"v1"), (opts("378q", two_378q="removed", decks=1), 5, b"v2"),
                                 (opts(drawn_bank=True, first_lead="first_score_card_drawer"), 6, b"v3")):
        state = Q783.deal(options, seed, b"ent", seats)
        cards, values = Q783.dealt(state)
        record = {"seats": seats, "options": {i.name: getattr(options, i.name) for i in Q783.option_infos()},
                  "cards": {k: list(v) for k, v in cards.items()}, "values": values, "round": 0}
        found = service_q783.verify_deal(record, verify.deal_key(seed, b"ent"), verify.Stream)
        assert not any(found.values()), found
        seat0, seat1 = record["cards"]["seat0"], record["cards"]["seat1"]
        seat0[0], seat1[0] = seat1[0], seat0[0]
        assert service_q783.verify_deal(record, verify.deal_key(seed, b"ent"), verify.Stream)["cards"]
