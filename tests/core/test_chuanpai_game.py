"""川牌: the hand as a Game (spec rules/chuanpai.md), one test per rule, pinned decision and
option the table implements. States are built by ``table`` (every card of the deck accounted
for: cards not named lie in the stock, below the ones named), so each test shows its rule."""
from __future__ import annotations

import random

import pytest
from game_contract import check_step

from referee.core import rng
from referee.core.errors import InvalidAction, Reason
from referee.core.game import ABANDON, PASS, Action, Match
from referee.core.games.chuanpai import game as g
from referee.core.games.chuanpai.cards import NOTATION, TOKENS, deck_ids, kind_ids
from referee.core.games.chuanpai.deal import Options

IDS = kind_ids()
G = g.CHUANPAI


# --- table builders ---------------------------------------------------------------------------------

class Picker:
    """Card text -> ids of the deck C-2 names, each copy of a kind used once over the whole table."""

    def __init__(self, deck: str = "84"):
        self.used: list[int] = []
        self.deck = frozenset(deck_ids(deck))

    def take(self, text: str) -> tuple[int, ...]:
        out = []
        for token in text.split():
            out.append(next(c for c in IDS[TOKENS[token]] if c in self.deck and c not in self.used and c not in out))
        self.used += out
        return tuple(out)


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def table(hands, stock: str = "", *, toujia: int = 0, turn: int | None = None, options: Options = Options(),
          melds=None, guo=None, pending=None) -> g.State:
    """``hands`` card text per seat, ``stock`` on top of the stock (top first), ``melds`` per seat
    [(meld kind, source, text)], ``guo`` per seat [(text, values bits)]; seat ``turn`` (default
    头家) to discard."""
    n = len(hands)
    pick = Picker(options.deck)
    masks = tuple(mask(pick.take(h)) for h in hands)
    laid = tuple(tuple(g._meld(kind, source, pick.take(text)) for kind, source, text in (melds or {}).get(s, ()))
                 for s in range(n))
    guo_cards = tuple(tuple(g.GuoCard(pick.take(text)[0], bits) for text, bits in (guo or {}).get(s, ()))
                      for s in range(n))
    head = list(pick.used)
    top = pick.take(stock)
    deck = bytes(head + list(top) + [c for c in deck_ids(options.deck) if c not in pick.used])
    seat = toujia if turn is None else turn
    state = g.State(options, b"test", b"", Match(0, (0,) * n), toujia, deck, len(head), masks, laid, guo_cards,
                    tuple(pending or (0,) * n), (b"",) * n, g.TURN, (seat,), turn=seat)
    check_step(G, state)
    return state


def laydown(state: g.State) -> g.State:
    """The state at 4.4: the lay-down queue opened from 头家."""
    t = g._Table(state._replace(turn=-1, to_act=()))
    g._open_laydown(t, g.playing_order(t, t.toujia), 0, [])
    return t.freeze()


def turn_up(state: g.State, seat: int):
    """``seat`` turns the stock's top card (5.1)."""
    t = g._Table(state)
    events: list = []
    g._turn_up(t, seat, events)
    return t.freeze(), events


def ids(state: g.State, seat: int, text: str) -> tuple[int, ...]:
    """The ids of ``text`` in the seat's hand (lowest copies first)."""
    out: list[int] = []
    for token in text.split():
        out.append(next(c for c in IDS[TOKENS[token]] if state.hands[seat] >> c & 1 and c not in out))
    return tuple(out)


def act(state: g.State, seat: int, kind: str, cards=()):
    before = state
    state, events = G.apply(state, Action(seat, kind, tuple(cards)))
    check_step(G, state, events, random.Random(0), before)
    return state, events


def discard(state: g.State, seat: int, text: str):
    return act(state, seat, g.DISCARD, ids(state, seat, text))


def kinds(state, seat, kind_name: str) -> list[str]:
    return [a.kind for a, _ in G.legal_actions(state, seat) if a.kind == kind_name]


def legal_kinds(state, seat) -> list[str]:
    return [a.kind for a, _ in G.legal_actions(state, seat)]


def types(events) -> list[str]:
    return [e.type for e in events]


FOUR = ["[4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"]


# --- 4.4 lay-down, P-14, P-3, C-5 -----------------------------------------------------------------

def test_chuanpai_rule_4_4_p_14_overlapping_compulsory_sets_lay_one_then_draw_and_ask_again():
    state = laydown(table(["[1:6]高高 [1:6]高高 [1:6]高高 [2:5]二五 [3:4]三四 [5:6]斧头", "[4:6]四六 [2:2]长二",
                           "[3:3]长三", "[1:5]猫猫"], "[6:6]天牌 [6:6]天牌"))
    assert G.phase_name(state) == "laydown" and state.to_act == (0,)
    lays = [a for a, _ in G.legal_actions(state, 0)]
    assert [a.kind for a in lays] == [g.LAY, g.LAY]  # both compulsory: no PASS
    refused = G.check(state, Action(0, PASS))
    assert refused.reason == g.MUST_LAY and "4.4" in refused.message
    yan = next(a for a in lays if len({NOTATION.kind_of[c] for c in a.cards}) == 3)
    state, events = act(state, 0, g.LAY, yan.cards)
    assert types(events) == ["LAY", "DRAW"] and g.meld_kind(state.melds[0][0]) == g.YAN_M
    assert state.hands[0].bit_count() == 3 + 1  # two [1:6] and [5:6] left, one replacement (偷牌)
    assert G.phase_name(state) == "turn" and state.to_act == (0,)  # nobody else has a set: 头家 discards


def test_chuanpai_rule_4_4_each_seat_in_turn_order_and_a_replacement_that_completes_a_set_is_laid_too():
    state = laydown(table(["[5:6]斧头", "[2:2]长二 [2:2]长二 [2:2]长二", "[3:3]长三 [3:3]长三 [3:3]长三", "[1:5]猫猫"],
                          "[2:2]长二 [4:6]四六", toujia=1))
    assert state.to_act == (1,) and [a.seat for a in state.asking] == [1, 2]
    state, events = act(state, 1, g.LAY, G.legal_actions(state, 1)[0][0].cards)
    assert state.to_act == (1,)  # the drawn fourth [2:2] goes onto his 暗: asked again first
    onto = [a for a, _ in G.legal_actions(state, 1)]
    # P-10: the 齐头 count for a 扛 onto a laid 暗 uses the hand only: one 4 (good), no 6: g - b = 1, optional
    assert [a.kind for a in onto] == [PASS, g.LAY]
    state, events = act(state, 1, g.LAY, onto[1].cards)
    assert g.meld_kind(state.melds[1][0]) == g.GANG_M and types(events) == ["LAY", "DRAW", "DRAW"]
    assert state.to_act == (2,)


def test_chuanpai_rule_3_3_a_fourth_ten_onto_a_laid_an_is_a_compulsory_gang():
    state = laydown(table(["[5:5]梅子 [5:6]斧头", "[1:5]猫猫", "[3:3]长三", "[1:4]幺四"],
                          melds={0: [(g.AN_M, -1, "[5:5]梅子 [5:5]梅子 [5:5]梅子")]}))
    assert legal_kinds(state, 0) == [g.LAY] and G.check(state, Action(0, PASS)).reason == g.MUST_LAY


def test_chuanpai_c_5_no_replacements():
    state = laydown(table(["[1:6]高高 [2:5]二五 [3:4]三四 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          options=Options(no_replacements=True)))
    pos = state.pos
    state, events = act(state, 0, g.LAY, G.legal_actions(state, 0)[0][0].cards)
    assert types(events) == ["LAY"] and state.pos == pos


def test_chuanpai_rule_5_4_c_qitou_makes_an_optional_in_laydown():
    # three 8s [2:6] against three good cards (2 and 12): b = g, 齐头: optional
    state = laydown(table(["[2:6]二六 [2:6]二六 [2:6]二六 [1:1]地牌 [6:6]天牌 [6:6]天牌 [5:6]斧头", "[4:6]四六", "[3:3]长三",
                           "[1:5]猫猫"]))
    assert legal_kinds(state, 0) == [PASS, g.LAY]
    state, _ = act(state, 0, PASS)
    assert G.phase_name(state) == "turn" and not state.melds[0]


@pytest.mark.parametrize("toujia, winner", [(0, 1), (2, 2)])
def test_chuanpai_p_3_win_check_after_laydown_in_turn_order_from_toujia(toujia, winner):
    state = laydown(table(["[5:6]斧头 [1:5]猫猫", "[4:6]四六 [4:6]四六", "[5:5]梅子 [5:5]梅子", "[1:6]高高"],
                          toujia=toujia))
    assert state.finished and state.winner == winner and G.settle(state).outcome == "won"


# --- 5.5 no breaking pairs -------------------------------------------------------------------------

def test_chuanpai_rule_5_5_one_4_and_one_6_cannot_be_discarded():
    state = table(["[1:3]合牌 [3:3]长三 [5:6]斧头"] + FOUR[1:])
    assert [NOTATION.kind_of[a.cards[0]] for a, _ in G.legal_actions(state, 0)] == [TOKENS["[5:6]"]]
    refused = G.check(state, Action(0, g.DISCARD, ids(state, 0, "[1:3]合牌")))
    assert refused.reason == g.BREAKS_PAIR and "5.5" in refused.message


def test_chuanpai_rule_5_5_with_one_4_and_two_6s_one_6_can_be_discarded():
    state = table(["[1:3]合牌 [3:3]长三 [1:5]猫猫"] + FOUR[1:])
    discards = {NOTATION.kind_of[a.cards[0]] for a, _ in G.legal_actions(state, 0)}
    assert discards == {TOKENS["[3:3]"], TOKENS["[1:5]"]}
    assert G.check(state, Action(0, g.DISCARD, ids(state, 0, "[1:3]合牌"))).reason == g.BREAKS_PAIR


def test_chuanpai_rule_5_5_every_card_paired_any_may_go():
    state = table(["[1:3]合牌 [3:3]长三"] + FOUR[1:])
    assert len(G.legal_actions(state, 0)) == 2


# --- claims: who is asked (P-2) and the must-take rules (5.4, 5.6a, 3.5) --------------------------

def test_chuanpai_rule_5_4_a_must_take_pair_and_p_2_only_seats_that_can_use_it_are_asked():
    state = table(["[4:4]人牌 [5:6]斧头", "[6:6]天牌 [1:5]猫猫", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, events = discard(state, 0, "[4:4]人牌")
    assert G.phase_name(state) == "claim" and state.to_act == (1,)
    assert legal_kinds(state, 1) == [g.PAIR]  # no PASS
    refused = G.check(state, Action(1, PASS))
    assert refused.reason == g.MUST_TAKE and "5.4 a" in refused.message
    views = G.views(state, (-1, 0, 1, 2, 3))
    assert [v.to_act for v in views] == [(), (), (1,), (), ()]
    assert all(e.type != "PASS" for e in events)


def test_chuanpai_rule_5_4_b_must_peng_two_unpaired_identical_cards():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert state.to_act == (1,) and PASS not in legal_kinds(state, 1)
    assert "5.4 b" in G.check(state, Action(1, PASS)).message


def test_chuanpai_rule_5_4_b_optional_when_both_are_paired():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [1:2]丁丁 [1:2]丁丁", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert legal_kinds(state, 1)[0] == PASS and g.PENG in legal_kinds(state, 1)
    state, events = act(state, 1, PASS)
    assert "DEAD" in types(events)


@pytest.mark.parametrize("hand, compulsory", [("[2:6]二六 [2:6]二六 [6:6]天牌", True),
                                              ("[2:6]二六 [2:6]二六 [6:6]天牌 [6:6]天牌", False)])
def test_chuanpai_rule_5_4_c_qitou_table_decides_the_peng(hand, compulsory):
    # b - g = 1: compulsory; b = g (齐头): optional
    state = table(["[2:6]二六 [5:6]斧头", hand, "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[2:6]二六")
    assert 1 in state.to_act and (PASS not in legal_kinds(state, 1)) == compulsory
    if compulsory:
        assert "5.4 c" in G.check(state, Action(1, PASS)).message


def test_chuanpai_rule_5_6a_qi_is_compulsory_like_peng():
    state = table(["[1:6]高高 [5:6]斧头", "[3:4]三四 [2:5]二五 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert legal_kinds(state, 1) == [g.YAN] and "5.6a" in G.check(state, Action(1, PASS)).message
    state, events = act(state, 1, g.YAN)
    assert types(events)[:2] == ["YAN", "DRAW"] and g.meld_kind(state.melds[1][0]) == g.YAN_M


def test_chuanpai_rule_3_5_three_of_jing_and_3_must_gang_the_fourth():
    state = table(["[1:2]丁丁 [5:6]斧头", "[1:2]丁丁 财神 听用 [1:6]高高 [5:6]斧头 [5:6]斧头", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:2]丁丁")
    assert 1 in state.to_act and PASS not in legal_kinds(state, 1) and g.GANG in legal_kinds(state, 1)
    assert "3.5" in G.check(state, Action(1, PASS)).message
    state, events = act(state, 1, g.GANG, ids(state, 1, "[1:2]丁丁 财神 听用"))
    assert types(events)[:3] == ["GANG", "DRAW", "DRAW"]


# --- priority (5.2, C-8, C-9) --------------------------------------------------------------------

def _answer_all(state, answers):
    events = []
    for seat, (kind, cards) in answers.items():
        state, events = act(state, seat, kind, cards)
    return state, events


def test_chuanpai_rule_5_2_peng_beats_pair_of_an_earlier_seat():
    state = table(["[1:6]高高 [5:6]斧头", "[1:2]丁丁 [5:6]斧头", "[1:6]高高 [1:6]高高 [5:6]斧头", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert state.to_act == (1, 2)
    state, events = _answer_all(state, {1: (g.PAIR, ()), 2: (g.PENG, ())})
    assert "PENG" in types(events) and events[types(events).index("PENG")].seat == 2
    assert g.PAIR not in types(events) and not state.melds[1]


def test_chuanpai_rule_5_2_gang_beats_pair():
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [1:6]高高", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [1:5]猫猫",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[5:5]梅子")
    state, events = _answer_all(state, {1: (g.PAIR, ()), 2: (g.GANG, ())})
    assert types(events)[:3] == ["GANG", "DRAW", "DRAW"] and events[0].seat == 2


def test_chuanpai_c_8_ties_go_to_the_first_in_claim_order_from_the_xiajia():
    state = table(["[6:6]天牌 [1:5]猫猫", "[4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[6:6]天牌 [1:5]猫猫"], toujia=1)
    state, _ = discard(state, 1, "[4:4]人牌")
    assert state.to_act == (3, 0)  # from seat 1's 下家: 2 (cannot use it), 3, 0
    state, events = _answer_all(state, {0: (g.PAIR, ()), 3: (g.PAIR, ())})
    assert events[0].type == "PAIR" and events[0].seat == 3


def test_chuanpai_rule_5_1_turned_card_offered_to_the_turner_last():
    state = table(["[6:6]天牌 [1:5]猫猫", "[6:6]天牌 [1:5]猫猫", "[6:6]天牌 [1:5]猫猫", "[3:3]长三 [2:2]长二"], "[4:4]人牌")
    state, events = turn_up(state, 1)
    assert types(events) == ["TURN", "OFFER"] and state.window.asked == (2, 0, 1)
    state, events = _answer_all(state, {1: (g.PAIR, ()), 0: (g.PAIR, ()), 2: (g.PAIR, ())})
    assert events[0].seat == 2


def test_chuanpai_rule_5_1_unused_card_is_dead_and_the_xiajia_turns():
    state = table(FOUR, "[2:3]拐子")
    state, events = discard(state, 0, "[5:6]斧头")
    assert types(events)[:3] == ["DISCARD", "DEAD", "TURN"] and events[2].seat == 1
    assert state.dead[0] == bytes(ids(table(FOUR), 0, "[5:6]斧头"))
    assert "[5:6]" in NOTATION.format_cards(G.view(state, -1).seats[0].cards["dead"])


def test_chuanpai_rule_5_2_claims_on_a_passing_jing_rank_as_pair():
    state = table(["财神 [5:6]斧头", "[1:5]猫猫 [5:6]斧头", "[1:2]丁丁 [1:2]丁丁 [5:6]斧头", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "财神")
    assert state.to_act == (1, 2, 3)
    state, events = _answer_all(state, {1: (g.PAIR, ids(state, 1, "[1:5]猫猫")), 2: (g.PENG, ()), 3: (PASS, ())})
    assert events[0].type == "PAIR" and events[0].seat == 1


@pytest.mark.parametrize("qi_is_peng, taker", [(False, 2), (True, 1)])
def test_chuanpai_c_9_qi_is_peng_ranks_the_yan_as_pair(qi_is_peng, taker):
    state = table(["[1:6]高高 [5:6]斧头", "[1:2]丁丁 [5:6]斧头", "[3:4]三四 [2:5]二五 [5:6]斧头", "[3:3]长三 [2:2]长二"],
                  options=Options(qi_is_peng=qi_is_peng))
    state, _ = discard(state, 0, "[1:6]高高")
    state, events = _answer_all(state, {1: (g.PAIR, ()), 2: (g.YAN, ())})
    assert events[0].seat == taker


def test_chuanpai_p_9_a_take_that_completes_the_cards_is_a_win_above_gang_and_rule_6_3_pays_one_each():
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [1:5]猫猫", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[5:5]梅子")
    assert g.WIN in legal_kinds(state, 1)
    state, events = _answer_all(state, {1: (g.PAIR, ()), 2: (g.GANG, ())})
    assert state.finished and state.winner == 1 and types(events) == ["PAIR", "WIN"]
    settlement = G.settle(state)
    assert settlement.points == (-1, 3, -1, -1) and settlement.outcome == "won" and sum(settlement.points) == 0


def test_chuanpai_rule_6_1_win_claim_and_a_refused_one():
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六", "[4:6]四六 [1:5]猫猫", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[5:5]梅子")
    assert G.check(state, Action(2, g.WIN)).reason == g.NOT_COMPLETE
    state, events = _answer_all(state, {1: (g.WIN, ()), 2: (g.PAIR, ())})
    assert state.winner == 1 and g.meld_kind(state.melds[1][0]) == g.PAIR_M


# --- 过牌 (5.6, P-4, P-6) ------------------------------------------------------------------------

def test_chuanpai_rule_5_6_guo_card_set_aside_then_must_be_used():
    hands = ["[4:4]人牌 [4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子 [1:4]幺四 [1:4]幺四 [5:6]斧头", "[3:3]长三 [2:2]长二",
             "[1:6]高高 [1:2]丁丁"]
    state = table(hands, "[1:4]幺四 [6:6]天牌")
    state, events = discard(state, 0, "[4:4]人牌")  # passes 1, 2, 3: none holds a 2 or 12
    assert [state.pending[s] >> 8 & 1 for s in range(4)] == [0, 1, 1, 1]  # P-4
    assert types(events)[-2:] == ["TURN", "OFFER"] and state.to_act == (1,)  # seat 1 turned [1:4]
    state, events = act(state, 1, g.PENG)
    guo = next(e for e in events if e.type == "GUO")  # the drawn [6:6] partners the flagged 8
    assert guo.seat == 1 and state.guo[1][0].card == guo.cards[0] and state.pending[1] == 0
    known = G.knowledge(state)
    assert not known.public >> guo.cards[0] & 1 and known.seats[1] >> guo.cards[0] & 1
    assert G.view(state, 2).seats[1].melds[-1] == g.Meld("guo", (), -1)
    assert G.view(state, 1).seats[1].melds[-1].cards == guo.cards
    # the 过 card is no hand card: it cannot be discarded
    assert G.check(state, Action(1, g.DISCARD, guo.cards)).reason == Reason.CARDS_NOT_IN_HAND
    assert state.to_act == (1,) and G.phase_name(state) == "turn"
    # the next 8 passing him must be taken with the 过 card
    state = state._replace(to_act=(0,), turn=0)
    state, _ = discard(state, 0, "[4:4]人牌")
    assert state.to_act == (1,) and [a.cards for a, _ in G.legal_actions(state, 1)] == [guo.cards]
    refused = G.check(state, Action(1, PASS))
    assert refused.reason == g.MUST_TAKE and "5.6" in refused.message
    state, events = act(state, 1, g.PAIR, guo.cards)
    assert state.guo[1] == () and events[0].type == "PAIR" and set(events[0].cards) >= set(guo.cards)


def test_chuanpai_rule_5_6_guo_obliged_player_takes_only_with_the_guo_card():
    state = table(["[4:4]人牌 [5:6]斧头", "[6:6]天牌 [1:5]猫猫", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"],
                  guo={1: [("[1:1]地牌", 1 << 8)]})
    state, _ = discard(state, 0, "[4:4]人牌")
    assert [a.cards for a, _ in G.legal_actions(state, 1)] == [ids_guo(state, 1)]
    refused = G.check(state, Action(1, g.PAIR, ids(state, 1, "[6:6]天牌")))
    assert refused.reason == g.MUST_TAKE and "5.6" in refused.message


def ids_guo(state, seat):
    return tuple(g.card for g in state.guo[seat])


def test_chuanpai_rule_5_6_a_passing_jing_never_starts_the_rule():
    state = table(["财神 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"])
    for text, pending in (("财神", (0, 0, 0, 0)), ("[5:6]斧头", (0, 1 << 11, 1 << 11, 1 << 11))):
        t = g._Table(state._replace(card=ids(state, 0, text)[0], turn=0))
        g._passes(t, -1)
        assert tuple(t.pending) == pending


def test_chuanpai_rule_6_1_an_unused_guo_card_prevents_a_win():
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"],
                  guo={1: [("[1:1]地牌", 1 << 8)]})
    state, _ = discard(state, 0, "[5:5]梅子")
    assert g.WIN not in legal_kinds(state, 1)


# --- extra players (4.6, P-8, P-10) and the 7th player -------------------------------------------

FIVE = FOUR + ["[6:6]天牌 [1:5]猫猫 [2:4]二四"]


def test_chuanpai_rule_4_6_extra_players_turned_card_is_his_own_draw():
    state = table(FIVE, "[2:3]拐子")
    state = state._replace(to_act=(3,), turn=3)
    state, events = discard(state, 3, "[1:6]高高")
    turn = next(e for e in events if e.type == "TURN")
    assert turn.seat == 4 and turn.values["extra"] == 1 and state.to_act == (4,)
    assert legal_kinds(state, 4) == [g.KEEP, g.DISCARD]
    assert not G.knowledge(state).public >> turn.cards[0] & 1
    assert G.view(state, 4).seats[4].cards["turned"] == turn.cards and "turned" not in G.view(state, 0).seats[4].cards
    kept, _ = act(state, 4, g.KEEP)
    assert kept.hands[4] >> turn.cards[0] & 1 and G.phase_name(kept) == "turn" and kept.to_act == (4,)
    thrown, events = act(state, 4, g.DISCARD, turn.cards)
    assert events[0].type == "DISCARD" and events[0].cards == turn.cards


def test_chuanpai_rule_4_6_p_10_extra_players_may_not_pair_and_have_no_5_4_a_obligation():
    state = table(FIVE, "[2:3]拐子")
    state, _ = discard(state, 0, "[4:4]人牌")  # the 5th holds [6:6]: 12 + 8, but he may not 摆
    assert 4 not in state.window.asked


def test_chuanpai_rule_5_6_extra_players_are_exempt_from_guo():
    state = table(FIVE, "[2:3]拐子")
    state, _ = discard(state, 0, "[5:6]斧头")  # 11: the 5th holds no 9
    assert state.pending[4] == 0 and state.pending[1] >> 11 & 1


SEVEN = FIVE + ["[5:6]斧头 [5:6]斧头", "[1:6]高高"]


def test_chuanpai_rule_4_6_the_7th_player_takes_no_turn_and_is_passed_over():
    state = table(SEVEN, "[2:3]拐子")
    assert g.seventh(state) == 6 and g.claim_order(state, 5, False) == (0, 1, 2, 3, 4)
    state = state._replace(to_act=(5,), turn=5)
    state, events = discard(state, 5, "[5:6]斧头")
    assert next(e for e in events if e.type == "TURN").seat == 0


def test_chuanpai_c_7_seventh_bonus_once_three_identical_cards_passed_whatever_the_outcome():
    hands = ["[5:6]斧头 [5:6]斧头", "[5:5]梅子", "[3:3]长三 [2:2]长二", "[6:6]天牌 [4:4]人牌", "[1:5]猫猫 [1:3]合牌",
             "[2:4]二四 [2:2]长二", "[1:6]高高"]
    state = table(hands, "[1:6]高高 [1:6]高高 [1:6]高高", options=Options(seventh_bonus=2, no_violation_penalty=True))
    state, events = discard(state, 0, "[5:6]斧头")  # dead, then seats 1, 2, 3 turn a [1:6] each: all dead
    assert [e.seat for e in events if e.type == "TURN"] == [1, 2, 3, 4] and state.seen == 3
    assert G.view(state, -1).counters["seventh_seen"] == 3
    state, _ = act(state, 2, ABANDON)
    settlement = G.settle(state)
    assert settlement.points == (-2,) * 6 + (12,) and ("seventh_bonus", 12) in settlement.breakdown


def test_chuanpai_c_7_no_bonus_before_the_third_card_and_the_7th_seat_by_direction():
    state = table(SEVEN, options=Options(seventh_bonus=2))._replace(phase=g.FINISHED, to_act=(), outcome=g.VOID, seen=2)
    assert G.settle(state).points == (0,) * 7
    assert g.seventh(state._replace(toujia=3)) == 2
    assert g.seventh(state._replace(toujia=3, options=Options(clockwise=True))) == 4


def test_chuanpai_rule_6_3_seventh_player_neither_pays_nor_is_paid_on_a_win():
    state = table(SEVEN)._replace(phase=g.FINISHED, to_act=(), outcome=g.WON, winner=2)
    assert G.settle(state).points == (-1, -1, 5, -1, -1, -1, 0)


# --- P-7, 6.2, 5.7 ---------------------------------------------------------------------------------

def test_chuanpai_p_7_an_empty_hand_discards_nothing_and_the_xiajia_turns():
    # seat 1's 摆 empties his hand; his unused 过 card keeps him from a win (6.1)
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"], "[2:3]拐子",
                  guo={1: [("[1:1]地牌", 1 << 8)]})
    state, _ = discard(state, 0, "[5:5]梅子")
    assert state.to_act == (1,) and g.WIN not in legal_kinds(state, 1)
    state, events = act(state, 1, g.PAIR)
    assert types(events)[:2] == ["PAIR", "TURN"] and events[1].seat == 2 and state.hands[1] == 0


def test_chuanpai_rule_6_2_void_when_a_card_must_be_turned_from_an_empty_stock():
    state = table(FOUR)
    state = state._replace(pos=len(state.deck))
    dead = bytes(c for c in state.deck if not any(h >> c & 1 for h in state.hands))
    state = state._replace(dead=(dead,) + state.dead[1:])
    state, events = discard(state, 0, "[5:6]斧头")
    assert state.finished and types(events)[-1] == "VOID" and G.settle(state).points == (0, 0, 0, 0)
    assert G.next_round(state).carry == g.Carry(0, False)
    nxt = G.next_round(state._replace(options=Options(next_toujia=True)))
    assert nxt.carry == g.Carry(1, False)


def test_chuanpai_rule_6_2_replacement_draws_from_an_empty_stock_are_skipped():
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [1:6]高高", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [1:5]猫猫",
                   "[3:3]长三 [2:2]长二"])
    dead = bytes(state.deck[state.pos:])
    state = state._replace(pos=len(state.deck), dead=(dead,) + state.dead[1:])
    state, _ = discard(state, 0, "[5:5]梅子")
    state, events = _answer_all(state, {1: (g.PAIR, ()), 2: (g.GANG, ())})
    assert types(events) == ["GANG"] and state.to_act == (2,) and G.phase_name(state) == "turn"


@pytest.mark.parametrize("penalty, points", [(False, (1, -3, 1, 1)), (True, (0, 0, 0, 0))])
def test_chuanpai_rule_5_7_violation_voids_the_hand_c_10(penalty, points):
    state = table(FOUR, options=Options(no_violation_penalty=penalty))
    state, events = act(state, 1, ABANDON)
    settlement = G.settle(state)
    assert state.finished and settlement.outcome == "violation" and settlement.points == points
    assert G.next_round(state).carry == g.Carry(0, False)  # P-11: as after 荒


# --- 头家 and the carry (4.2, P-13, C-4) ------------------------------------------------------------

def _cards(text):
    return Picker().take(text)


def test_chuanpai_p_13_first_toujia_highest_turned_card_ties_turn_again_jing_turned_again():
    seq = _cards("[6:6]天牌 [1:1]地牌 [6:6]天牌 [4:4]人牌 [5:6]斧头")
    assert g.first_toujia(seq, 3) == 2  # 0 and 2 tie at 12, then 8 against 11
    seq = _cards("[6:6]天牌 [1:1]地牌 [6:6]天牌 财神 [5:6]斧头 [4:4]人牌")
    assert g.first_toujia(seq, 3) == 0  # seat 0 turns 财神 again: 11 against 8


def test_chuanpai_rule_4_2_later_hands_toujia_counted_from_the_second_player_after_the_winner():
    assert g.counted_toujia(1, _cards("听用 [1:6]高高"), 4, False) == (1 + 2 + 6) % 4
    assert g.counted_toujia(1, _cards("[1:6]高高"), 4, True) == (1 - 2 - 6) % 4


@pytest.mark.parametrize("winner_leads", [False, True])
def test_chuanpai_c_4_carry_of_a_won_hand(winner_leads):
    options = Options(winner_leads=winner_leads)
    state = table(FOUR, options=options)._replace(phase=g.FINISHED, to_act=(), outcome=g.WON, winner=2)
    match = G.next_round(state)
    assert match.carry == g.Carry(2, not winner_leads) and match.totals == (-1, -1, 3, -1)
    nxt = G.deal(options, b"next", b"", 4, match)
    expected = 2 if winner_leads else g.counted_toujia(
        2, rng.Stream(rng.deal_key(b"next", b""), "cut").shuffle(range(84)), 4, False)
    assert nxt.toujia == expected


def test_chuanpai_rule_4_3_deal_and_dealt_record():
    state = G.deal(G.make_options(), b"seed", b"", 4)
    cards, numbers = G.dealt(state)
    assert numbers["toujia"] == state.toujia and len(cards[f"seat{state.toujia}"]) == 16
    assert sorted(c for v in cards.values() for c in v) == list(range(84))


# --- options (C-2, C-3, C-6, C-14) ----------------------------------------------------------------

WILD = Options(deck="84_plus_2_wild")
THREES = "[1:2]丁丁 [1:2]丁丁 [1:2]丁丁"


@pytest.mark.parametrize("seats", [2, 4, 5, 7])
def test_chuanpai_rule_2_3_c_2_wild_deck_deals_86_cards_and_the_default_deal_is_unchanged(seats):
    assert G.make_options(overrides={"deck": "84_plus_2_wild"}) == WILD == G.make_options("84_plus_2_wild")
    state = G.deal(WILD, b"wild", b"", seats)
    cards, numbers = G.dealt(state)
    every = sorted(c for v in cards.values() for c in v)
    assert every == list(range(86)) and list(G.all_cards(state)) == list(range(86))
    assert len(cards["stock"]) == 86 - sum(g.hand_sizes(seats)) and numbers["toujia"] == state.toujia
    assert sum(g.KIND_OF[c] == g.THREE for c in every) == 4  # four 3-point cards (2.3)
    default = G.deal(Options(), b"wild", b"", seats)
    assert sorted(default.deck) == list(range(84))  # ids 84, 85 only in the 86-card deck
    # the default deal is the shuffle of ids 0..83 it always was (C-2 adds ids, it moves none)
    key = rng.deal_key(b"wild", b"")
    assert default.deck == bytes(rng.Stream(key, "deck").shuffle(range(84)))
    assert state.deck == bytes(rng.Stream(key, "deck").shuffle(range(86)))


def test_chuanpai_rule_2_3_ids_of_the_86_card_deck_are_cards_not_held_in_a_default_hand():
    state = table(FOUR)
    for card in (84, 85):
        assert G.check(state, Action(0, g.DISCARD, (card,))).reason == Reason.CARDS_NOT_IN_HAND
    third = NOTATION.parse_cards_or_ranks("丁丁 丁丁 丁丁")[0][2]  # the text names id 84
    assert third == 84 and G.check(state, Action(0, g.DISCARD, (third,))).reason == Reason.CARDS_NOT_IN_HAND


def test_chuanpai_p_12_three_natural_threes_are_an_optional_an():
    state = laydown(table([THREES + " [5:6]斧头", "[4:6]四六 [2:2]长二", "[3:3]长三", "[1:5]猫猫"], "[6:6]天牌",
                          options=WILD))
    assert state.to_act == (0,)
    lays = [a for a, _ in G.legal_actions(state, 0)]
    assert [a.kind for a in lays] == [PASS, g.LAY]  # optional (3.5): PASS listed
    assert sorted(g.KIND_OF[c] for c in lays[1].cards) == [g.THREE] * 3
    passed, _ = act(state, 0, PASS)
    assert G.phase_name(passed) == "turn" and not passed.melds[0]
    state, events = act(state, 0, g.LAY, lays[1].cards)
    assert types(events)[:2] == ["LAY", "DRAW"] and g.meld_kind(state.melds[0][0]) == g.AN_M


@pytest.mark.parametrize("hand", [THREES + " [1:2]丁丁", THREES + " 财神", "[1:2]丁丁 [1:2]丁丁 财神 听用"])
def test_chuanpai_p_12_any_four_of_jing_and_threes_are_a_compulsory_gang_in_laydown(hand):
    state = laydown(table([hand + " [5:6]斧头", "[4:6]四六 [2:2]长二", "[3:3]长三", "[1:5]猫猫"], "[6:6]天牌 [6:6]天牌",
                          options=WILD))
    lays = [a for a, _ in G.legal_actions(state, 0)]
    assert [a.kind for a in lays] == [g.LAY] and len(lays[0].cards) == 4
    assert G.check(state, Action(0, PASS)).reason == g.MUST_LAY
    state, events = act(state, 0, g.LAY, lays[0].cards)
    assert types(events)[:3] == ["LAY", "DRAW", "DRAW"] and g.meld_kind(state.melds[0][0]) == g.GANG_M


def test_chuanpai_p_12_jing_jing_3_is_no_triple_in_the_86_card_deck():
    state = table(["财神 听用 [1:2]丁丁 [5:6]斧头", "[4:6]四六 [2:2]长二", "[3:3]长三", "[1:5]猫猫"], options=WILD)
    assert g.lay_options(state, 0) == []  # neither 暗 nor 扛
    assert not G.check(state, Action(0, g.LAY, ids(state, 0, "财神 听用 [1:2]丁丁"))).legal


@pytest.mark.parametrize("passing", ["[1:2]丁丁", "财神"])
def test_chuanpai_p_12_three_natural_threes_must_gang_the_fourth(passing):
    # every 3 paired with a 7: no card raises M(H) (5.4 a), 3.5 alone obliges the 扛
    state = table([passing + " [5:6]斧头", THREES + " [1:6]高高 [1:6]高高 [3:4]三四", "[3:3]长三 [2:2]长二",
                   "[5:5]梅子 [5:5]梅子"], options=WILD)
    state, _ = discard(state, 0, passing)
    assert 1 in state.to_act and PASS not in legal_kinds(state, 1) and g.GANG in legal_kinds(state, 1)
    refused = G.check(state, Action(1, PASS))
    assert refused.reason == g.MUST_TAKE and "3.5" in refused.message
    others = {s: (PASS, ()) for s in state.to_act if s != 1}
    state, events = _answer_all(state, {1: (g.GANG, ids(state, 1, THREES)), **others})
    assert types(events)[:3] == ["GANG", "DRAW", "DRAW"]
    gang = state.melds[1][0]
    assert g.meld_kind(gang) == g.GANG_M and g.meld_source(gang) == 0 and len(g.meld_cards(gang)) == 4


def test_chuanpai_p_12_peng_of_a_3_with_two_natural_threes_is_optional():
    # 3.5 governs the 3-point cards (5.4 c): no 5.4 b obligation for two unpaired 3s
    state = table(["[1:2]丁丁 [5:6]斧头", "[1:2]丁丁 [1:2]丁丁 [5:6]斧头 [5:6]斧头", "[3:3]长三 [3:3]长三",
                   "[2:2]长二 [2:2]长二"], options=WILD)
    state, _ = discard(state, 0, "[1:2]丁丁")
    assert legal_kinds(state, 1) == [PASS, g.PENG]
    taken, events = act(state, 1, g.PENG)
    assert types(events)[:2] == ["PENG", "DRAW"] and g.meld_kind(taken.melds[1][0]) == g.PENG_M
    assert sorted(g.KIND_OF[c] for c in g.meld_cards(taken.melds[1][0])) == [g.THREE] * 3
    passed, events = act(state, 1, PASS)
    assert "DEAD" in types(events)


def test_chuanpai_p_12_both_pengs_of_a_3_with_two_threes_and_a_jing_are_listed_and_the_gang_is_compulsory():
    state = table(["[1:2]丁丁 [5:6]斧头", "[1:2]丁丁 [1:2]丁丁 财神 [5:6]斧头 [5:6]斧头", "[3:3]长三 [3:3]长三",
                   "[2:2]长二 [2:2]长二"], options=WILD)
    state, _ = discard(state, 0, "[1:2]丁丁")
    takes = [(a.kind, sorted(g.KIND_OF[c] for c in a.cards)) for a, _ in G.legal_actions(state, 1)
             if a.kind in (g.PENG, g.GANG)]
    jing = TOKENS["财神"]
    assert takes == [(g.PENG, [g.THREE, g.THREE]), (g.PENG, [g.THREE, jing]), (g.GANG, [g.THREE, g.THREE, jing])]
    assert "3.5" in G.check(state, Action(1, PASS)).message


def test_chuanpai_p_12_and_p_9_four_threes_complete_the_cards_and_the_compulsory_gang_must_win():
    state = table(["[1:2]丁丁 [5:6]斧头", THREES + " [4:6]四六 [4:6]四六", "[3:3]长三 [3:3]长三", "[2:2]长二 [2:2]长二"],
                  options=WILD)
    state, _ = discard(state, 0, "[1:2]丁丁")
    assert g.must_win(state, 1) and PASS not in legal_kinds(state, 1)
    state, events = act(state, 1, g.WIN)
    assert state.finished and state.winner == 1 and types(events) == [g.GANG, "WIN"]
    settlement = G.settle(state)
    assert settlement.points == (-1, 3, -1, -1) and sum(settlement.points) == 0


def test_chuanpai_rule_2_3_deal_record_of_the_86_card_deck_verifies():
    from referee.service import verify
    from referee.service.games import chuanpai as service_chuanpai

    for options, seats, seed in ((WILD, 4, b"v1"), (Options(), 4, b"v2"), (Options(deck="84_plus_2_wild", clockwise=True), 7,
                                                                          b"v3")):
        state = G.deal(options, seed, b"ent", seats)
        cards, values = G.dealt(state)
        record = {"seats": seats, "options": {i.name: getattr(options, i.name) for i in G.option_infos()},
                  "cards": {k: list(v) for k, v in cards.items()}, "values": dict(values), "round": 0}
        key = verify.deal_key(seed, b"ent")
        assert not any(service_chuanpai.verify_deal(record, key, verify.Stream).values())
        other = dict(record, options=dict(record["options"], deck="84" if options.deck != "84" else "84_plus_2_wild"))
        assert service_chuanpai.verify_deal(other, key, verify.Stream)["cards"]


def test_chuanpai_codec_round_trip_of_an_86_card_state():
    hands = ["[4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 财神",
             "[6:6]天牌 [1:5]猫猫 [2:4]二四", "[5:6]斧头 [5:6]斧头", "[1:6]高高"]
    state = table(hands, melds={2: [(g.GANG_M, 1, THREES + " [1:2]丁丁")]}, options=WILD)
    assert {84, 85} <= set(g.meld_cards(state.melds[2][0]))
    assert G.unpack(G.pack(state)) == state and len(G.pack(state)) <= G.state_bytes


def test_chuanpai_c_7_seventh_bonus_refused_below_seven_seats():
    with pytest.raises(InvalidAction) as refused:
        G.deal(Options(seventh_bonus=1), b"s", b"", 6)
    assert refused.value.reason == Reason.BAD_OPTION


@pytest.mark.parametrize("same_points", [False, True])
def test_chuanpai_c_3_same_points_identical_for_peng(same_points):
    state = table(["[2:6]二六 [5:6]斧头", "[3:5]三五 [4:4]人牌 [6:6]天牌 [6:6]天牌", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"], options=Options(same_points=same_points))
    state, _ = discard(state, 0, "[2:6]二六")
    assert (g.PENG in legal_kinds(state, 1)) == same_points


def test_chuanpai_c_6_clockwise_claim_order():
    state = table(["[4:4]人牌 [5:6]斧头", "[6:6]天牌 [1:5]猫猫", "[5:5]梅子 [5:5]梅子", "[6:6]天牌 [1:5]猫猫"],
                  options=Options(clockwise=True))
    assert g.claim_order(state, 0, False) == (3, 2, 1)
    state, _ = discard(state, 0, "[4:4]人牌")
    state, events = _answer_all(state, {1: (g.PAIR, ()), 3: (g.PAIR, ())})
    assert events[0].seat == 3


@pytest.mark.parametrize("face_down", [False, True])
def test_chuanpai_c_14_an_face_down_seen_only_by_its_owner(face_down):
    state = laydown(table(["[2:2]长二 [2:2]长二 [2:2]长二 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          options=Options(an_face_down=face_down)))
    state, events = act(state, 0, g.LAY, G.legal_actions(state, 0)[0][0].cards)
    an_cards = g.meld_cards(state.melds[0][0])
    assert (events[0].cards == ()) == face_down
    assert (G.view(state, 1).seats[0].melds[0].cards == ()) == face_down
    assert G.view(state, 0).seats[0].melds[0].cards == an_cards
    assert bool(G.knowledge(state).public >> an_cards[0] & 1) != face_down
    over, _ = act(state, 2, ABANDON)
    assert G.knowledge(over).public >> an_cards[0] & 1  # shown once the hand ends


# --- the codec ---------------------------------------------------------------------------------------

def test_chuanpai_codec_round_trip_and_size():
    state = table(SEVEN, guo={1: [("[1:1]地牌", 1 << 8)]}, melds={2: [(g.PENG_M, 1, "[2:4]二四 [2:4]二四 [2:4]二四")]})
    assert G.unpack(G.pack(state)) == state and len(G.pack(state)) <= G.state_bytes


def test_chuanpai_p_9_a_compulsory_take_that_can_win_must_win():
    # seat 1 must take the 7 (5.4 b: two unpaired [1:6]); 碰 leaves [4:6][4:6]: complete, a win
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [4:6]四六 [4:6]四六", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert legal_kinds(state, 1) == [g.PENG, g.WIN]
    assert G.check(state, Action(1, PASS)).reason == g.MUST_TAKE


def test_chuanpai_p_9_an_optional_win_may_be_declined():
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [4:6]四六 [4:6]四六", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"])
    state, _ = discard(state, 0, "[5:5]梅子")  # 10 with three 10s: M(H) 1 -> 2 raises: compulsory
    assert PASS not in legal_kinds(state, 1)
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [4:6]四六 [5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二",
                   "[1:6]高高 [1:2]丁丁"])
    state, _ = discard(state, 0, "[5:5]梅子")  # 10 with four paired 10s: optional (no raise, paired)
    assert legal_kinds(state, 1)[0] == PASS and g.WIN in legal_kinds(state, 1)  # 碰 would leave [4:6][4:6]
    state, events = act(state, 1, PASS)
    assert not state.finished and "DEAD" in types(events)


def test_chuanpai_rule_3_3_other_copies_of_the_listed_cards_make_the_same_take_and_set():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [1:6]高高 [5:6]斧头", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    three = ids(state, 1, "[1:6]高高 [1:6]高高 [1:6]高高")
    verdict = G.check(state, Action(1, g.PENG, three[1:]))
    assert verdict.legal and verdict.action.cards == three[1:]
    assert G.check(state, Action(1, g.PENG, three[:1] + ids(state, 1, "[5:6]斧头"))).reason == Reason.NOT_A_COMBINATION
    assert G.check(state, Action(1, g.PENG, ranks=())).legal
    lay = laydown(table(["[2:2]长二 [2:2]长二 [2:2]长二 [2:2]长二 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"]))
    four = ids(lay, 0, "[2:2]长二 [2:2]长二 [2:2]长二 [2:2]长二")
    assert G.check(lay, Action(0, g.LAY, four[1:])).reason == Reason.NOT_A_COMBINATION  # P-5: four are only a 扛
    assert G.check(lay, Action(0, g.LAY, ranks=(TOKENS["[2:2]"],) * 4)).legal


def test_chuanpai_p_12_jing_jing_3_is_no_triple():
    state = table(["[1:2]丁丁 [5:6]斧头", "财神 听用 [5:6]斧头 [5:6]斧头 [1:6]高高", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:2]丁丁")
    assert G.check(state, Action(1, g.PENG, ids(state, 1, "财神 听用"))).reason == Reason.NOT_A_COMBINATION
    # with a 3 in hand the 碰 {3, 3, 经} is listed; naming the two 经 is still no triple
    state = table(["[1:2]丁丁 [5:6]斧头", "[1:2]丁丁 财神 听用 [4:6]四六", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:2]丁丁")
    assert g.PENG in legal_kinds(state, 1)
    assert G.check(state, Action(1, g.PENG, ids(state, 1, "财神 听用"))).reason == Reason.NOT_A_COMBINATION
    # a passing 经 with one 3 and the other 经 in hand: {经, 经, 3} is no 碰
    state = table(["财神 [5:6]斧头", "[1:2]丁丁 听用 [4:6]四六 [4:6]四六", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "财神")
    assert g.PENG not in legal_kinds(state, 1)


def test_chuanpai_rule_5_6_a_guo_card_pairs_only_its_flagged_value():
    # the 过 card [4:4] (8) answered a passing 12: a passing 2 pairs it by points, but not as a 过 card
    state = table(["[1:1]地牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"],
                  "[2:3]拐子", guo={1: [("[4:4]人牌", 1 << 12)]})
    two = state._replace(card=ids(state, 0, "[1:1]地牌")[0])
    assert g.take_options(two, 1) == [] and g.obligation(two, 1) is None
    twelve = state._replace(card=IDS[TOKENS["[6:6]"]][0])
    assert [(a.kind, a.cards) for a, _ in g.take_options(twelve, 1)] == [(g.PAIR, (state.guo[1][0].card,)), (g.WIN, ())]
    assert g.obligation(twelve, 1) == "5.6"


@pytest.mark.parametrize("fours, compulsory", [(3, False), (2, True), (4, False), (5, True)])
def test_chuanpai_rule_5_4_c_seed_rule_4_qitou_for_an_an_of_three_6s(fours, compulsory):
    """Seed rule 4: as many 4s as 6s: optional; one bad (6) more: compulsory; one good (4)
    more: optional; two more: compulsory."""
    good = " ".join(["[1:3]合牌"] * min(fours, 4) + ["[2:2]长二"] * (fours - 4))
    state = laydown(table([f"[3:3]长三 [3:3]长三 [3:3]长三 {good} [5:6]斧头", "[4:6]四六", "[5:5]梅子", "[1:5]猫猫"]))
    sixes = [o for o in g.lay_options(state, 0) if g.KIND_OF[o[0][0]] == TOKENS["[3:3]"]]
    assert len(sixes) == 1 and sixes[0][1] == compulsory


def test_chuanpai_p_6_one_drawn_card_answers_every_flagged_value_it_partners():
    state = table(FOUR, "[4:4]人牌", pending=(0, 1 << 2 | 1 << 12 | 1 << 6, 0, 0))
    t = g._Table(state)
    events: list = []
    g._draw(t, 1, events, check_win=True)
    state = t.freeze()
    assert types(events) == ["GUO"] and state.guo[1][0].values == 1 << 2 | 1 << 12 and state.pending[1] == 1 << 6
    for text in ("[1:1]地牌", "[6:6]天牌"):
        probe = state._replace(card=IDS[TOKENS[text.split("]")[0] + "]"]][3])
        assert g.obligation(probe, 1) == "5.6"


def test_chuanpai_p_8_kept_card_that_makes_an_an_opens_the_laydown_for_him():
    hands = FOUR + ["[2:4]二四 [2:4]二四 [5:6]斧头"]
    state = table(hands, "[2:4]二四 [1:5]猫猫")
    state, events = turn_up(state._replace(to_act=(), phase=g.TURN), 4)
    assert state.to_act == (4,) and legal_kinds(state, 4) == [g.KEEP, g.DISCARD]
    state, events = act(state, 4, g.KEEP)
    assert G.phase_name(state) == "laydown" and state.asking[0] == g.Ask(4, 1)
    assert legal_kinds(state, 4) == [g.LAY]  # 4 is good: g - b = 3 - 0, compulsory
    state, events = act(state, 4, g.LAY)
    assert types(events) == ["LAY", "DRAW"] and G.phase_name(state) == "turn" and state.to_act == (4,)


def test_chuanpai_rule_6_1_an_extra_player_wins_on_his_kept_card_never_by_pairing_a_passing_card():
    state = table(FOUR + ["[4:6]四六"], "[4:6]四六", toujia=0)
    offered = table(["[4:6]四六 [5:6]斧头"] + FOUR[1:] + ["[4:6]四六"])
    offered, _ = discard(offered, 0, "[4:6]四六")
    assert 4 not in offered.window.asked  # [4:6] would pair his [4:6], but players 5-7 never 摆
    state, _ = turn_up(state, 4)
    state, events = act(state, 4, g.KEEP)
    assert state.finished and state.winner == 4 and types(events) == ["KEEP", "WIN"]
    assert G.settle(state).points == (-1, -1, -1, -1, 4)


def test_chuanpai_views_never_show_another_seats_hidden_cards():
    state = G.deal(G.make_options(), b"views", b"", 6)
    known = G.knowledge(state)
    for seat in range(-1, 6):
        view = G.view(state, seat)
        assert view.hand == (g.from_mask(state.hands[seat]) if seat >= 0 else ())
        for other in range(6):
            assert "hand" not in view.seats[other].cards or other == state.winner
        shown = set(view.hand) | {c for sv in view.seats for m in sv.melds for c in m.cards}
        assert all(known.allowed(seat) >> c & 1 for c in shown)


# --- 3.1, 3.2, 4.1, 5.3, 5.4 d-e -----------------------------------------------------------------

def _pairs_for(card_text: str, hand_text: str) -> set[str]:
    state = table(["[5:6]斧头", hand_text, "", ""])
    probe = state._replace(card=IDS[TOKENS[card_text.split("]")[0] + "]" if "]" in card_text else card_text]][-1])
    return {g.KIND_TEXT[g.KIND_OF[a.cards[0]]] for a, _ in g.take_options(probe, 1) if a.kind == g.PAIR}


def test_chuanpai_rule_3_1_pairs_total_10_or_20():
    hand = "[1:1]地牌 [6:6]天牌 [4:4]人牌 [1:4]幺四 [4:6]四六 [1:3]合牌 [5:6]斧头"
    assert _pairs_for("[2:6]", hand) == {"[1:1]地牌", "[6:6]天牌"}  # 8 with 2 and 12, never with 8
    assert _pairs_for("[2:3]", hand) == {"[1:4]幺四"}  # 5 with 5
    assert _pairs_for("[5:5]", hand) == {"[4:6]四六"}  # 10 with 10
    assert _pairs_for("[3:3]", hand) == {"[1:3]合牌"}  # 6 with 4
    assert _pairs_for("[4:5]", hand) == {"[5:6]斧头"}  # 9 with 11


def test_chuanpai_rule_3_2_jing_pairs_any_natural_card_never_the_other_jing():
    assert _pairs_for("财神", "听用 [5:6]斧头") == {"[5:6]斧头"}
    assert _pairs_for("财神", "听用") == set()
    assert _pairs_for("[5:6]", "听用 [5:5]梅子") == {"听用"}


@pytest.mark.parametrize("seats", [1, 8])
def test_chuanpai_rule_4_1_two_to_seven_seats(seats):
    with pytest.raises(InvalidAction) as refused:
        G.deal(G.make_options(), b"s", b"", seats)
    assert refused.value.reason == Reason.BAD_SEAT_COUNT


def test_chuanpai_rule_5_3_after_pair_he_discards_after_peng_he_draws_then_discards():
    hands = ["[1:6]高高 [5:6]斧头", "[1:2]丁丁 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"]
    state, _ = discard(table(hands), 0, "[1:6]高高")
    paired, events = act(state, 1, g.PAIR)
    assert types(events) == ["PAIR"] and G.phase_name(paired) == "turn" and paired.to_act == (1,)
    hands[1] = "[1:6]高高 [1:6]高高 [5:6]斧头 [1:5]猫猫"
    state, _ = discard(table(hands, "[2:3]拐子"), 0, "[1:6]高高")
    penged, events = act(state, 1, g.PENG)
    assert types(events) == ["PENG", "DRAW"] and penged.to_act == (1,) and penged.hands[1].bit_count() == 3


def test_chuanpai_rule_5_4_d_an_obliged_player_chooses_how_to_use_the_card():
    # 5.4 b obliges seat 1 to take the 7: he may 碰 it, or 摆 it with his 3
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [1:2]丁丁 [5:6]斧头", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert g.obligation(state, 1) and legal_kinds(state, 1) == [g.PAIR, g.PENG]
    state, events = act(state, 1, g.PAIR)
    assert events[0].type == "PAIR"


def test_chuanpai_rule_5_4_e_an_obligation_lapses_under_a_higher_claim():
    # seat 1 must 摆 the 10 (5.4 a); seat 2's 扛 has priority: seat 1 passes it, no violation
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [1:6]高高", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [1:5]猫猫",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[5:5]梅子")
    assert g.obligation(state, 1) == "5.4 a"
    state, events = _answer_all(state, {1: (g.PAIR, ()), 2: (g.GANG, ())})
    assert events[0].type == "GANG" and not state.finished and state.offender == -1


def test_chuanpai_rule_6_1_complete_once_a_set_is_laid_after_a_take():
    # no replacements: seat 1's 碰 of [1:6] is his take; laying his fourth [2:2] onto his 暗 leaves [4:6][4:6]
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [2:2]长二 [4:6]四六 [4:6]四六",
                   "[5:5]梅子 [5:5]梅子", "[3:3]长三 [5:6]斧头"], options=Options(no_replacements=True),
                  melds={1: [(g.AN_M, -1, "[2:2]长二 [2:2]长二 [2:2]长二")]})
    state, _ = discard(state, 0, "[1:6]高高")
    state, events = act(state, 1, g.PENG)
    assert G.phase_name(state) == "laydown" and state.asking[0] == g.Ask(1, 1)
    state, events = act(state, 1, g.LAY, ids(state, 1, "[2:2]长二"))
    assert state.finished and state.winner == 1 and types(events) == ["LAY", "WIN"]


@pytest.mark.parametrize("laid, card, hand, compulsory", [
    ("[5:5]梅子 [5:5]梅子 [5:5]梅子", "[5:5]梅子", "[5:6]斧头", True),  # 10: the 扛 is compulsory (5.4 c)
    ("[3:3]长三 [3:3]长三 [3:3]长三", "[3:3]长三", "[5:6]斧头", False),  # 6: no 4, no 6 in hand: 齐头
    ("[3:3]长三 [3:3]长三 [3:3]长三", "[3:3]长三", "[1:5]猫猫 [5:6]斧头", True),  # one bad 6 more: b - g = 1
    ("[2:2]长二 [2:2]长二 [2:2]长二", "[2:2]长二", "[1:3]合牌 [5:6]斧头", False),  # one good 4 more: g - b = 1
    ("[2:2]长二 [2:2]长二 [2:2]长二", "[2:2]长二", "[1:3]合牌 [1:3]合牌 [5:6]斧头", True),  # g - b = 2
    ("[1:2]丁丁 [1:2]丁丁 财神", "听用", "[4:6]四六 [4:6]四六", True),  # 3.5: the fourth of {经, 3}
])
def test_chuanpai_p_10_gang_onto_a_laid_an_by_the_qitou_of_the_hand(laid, card, hand, compulsory):
    state = table([f"{card} [4:5]红九", hand, "[1:6]高高", "[2:5]二五"], melds={1: [(g.AN_M, -1, laid)]})
    state, _ = discard(state, 0, card)
    assert 1 in state.to_act and g.GANG in legal_kinds(state, 1)
    assert (PASS not in legal_kinds(state, 1)) == compulsory
    if compulsory:
        assert ("3.5" if card == "听用" else "5.4 c") in G.check(state, Action(1, PASS)).message


def test_chuanpai_rule_5_2_gang_beats_peng_of_an_earlier_seat():
    # same_points (C-3): any 8-point cards are identical, so one 8 can be 碰 by one seat, 扛 by another
    state = table(["[2:6]二六 [5:6]斧头", "[3:5]三五 [3:5]三五 [6:6]天牌 [6:6]天牌", "[4:4]人牌 [4:4]人牌 [4:4]人牌 [1:5]猫猫",
                   "[3:3]长三 [2:2]长二"], options=Options(same_points=True))
    state, _ = discard(state, 0, "[2:6]二六")
    assert state.to_act == (1, 2)
    state, events = _answer_all(state, {1: (g.PENG, ()), 2: (g.GANG, ())})
    assert events[0].type == "GANG" and events[0].seat == 2


def test_chuanpai_rule_5_2_a_gang_of_a_passing_jing_ranks_as_pair():
    state = table(["财神 [5:6]斧头", "[1:5]猫猫 [5:6]斧头", "[1:2]丁丁 [1:2]丁丁 听用 [5:6]斧头 [1:5]猫猫",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "财神")
    state, events = _answer_all(state, {1: (g.PAIR, ids(state, 1, "[1:5]猫猫")), 2: (g.GANG, ()), 3: (g.PAIR, ())})
    assert events[0].type == "PAIR" and events[0].seat == 1


def test_chuanpai_p_4_the_card_passes_a_claimer_that_lost_not_the_taker():
    # seat 1's 碰 (no 3 in hand) loses to seat 2's 摆 that completes his cards (和): the 7 passed seat 1
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [5:6]斧头", "[1:2]丁丁", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    state, events = _answer_all(state, {1: (g.PENG, ()), 2: (g.PAIR, ())})
    assert state.winner == 2 and state.pending[1] == 1 << 7 and state.pending[2] == 0


def test_chuanpai_p_4_the_taker_is_not_flagged():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [5:6]斧头 [1:5]猫猫", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"], "[2:3]拐子")
    state, _ = discard(state, 0, "[1:6]高高")
    state, _ = act(state, 1, g.PENG)
    assert state.pending[1] == 0 and state.pending[2] == 1 << 7


def test_chuanpai_p_9_a_compulsory_take_refuses_the_take_that_declines_the_win():
    # the 10 onto seat 1's laid 暗 of 10s is a compulsory 扛 that leaves [4:6][4:6]: a win; 摆 would not
    state = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [4:6]四六", "[1:6]高高", "[2:5]二五"],
                  melds={1: [(g.AN_M, -1, "[5:5]梅子 [5:5]梅子 [5:5]梅子")]})
    state, _ = discard(state, 0, "[5:5]梅子")
    assert g.obligation(state, 1) == "5.4 c" and legal_kinds(state, 1) == [g.GANG, g.WIN]
    refused = G.check(state, Action(1, g.PAIR, ids(state, 1, "[4:6]四六")))
    assert refused.reason == g.MUST_TAKE and "P-9" in refused.message
    state, events = act(state, 1, g.GANG)
    assert state.winner == 1 and types(events) == ["GANG", "WIN"]


def test_chuanpai_rule_3_3_a_fourth_card_for_two_laid_sets_is_one_choice_onto_the_first():
    """same_points (3.3): seat 0 has laid an 暗 (三六 三六 红九) and a 碰 (三六 红九 红九), both
    nine-point sets, and holds another 红九. The 扛 is one legal action (it was listed once per
    laid set: the same action twice) and goes onto the first laid set, as check resolves it.
    Found by test_chuanpai_playouts (84_plus_2_wild, seed c\xe1\x1d\xf1, 3 seats, choices 187290)."""
    state = laydown(table(["[4:5]红九 [5:6]斧头", "[1:5]猫猫", "[3:3]长三", "[1:4]幺四"],
                          options=Options(same_points=True),
                          melds={0: [(g.AN_M, -1, "[3:6]三六 [3:6]三六 [4:5]红九"),
                                     (g.PENG_M, 1, "[3:6]三六 [4:5]红九 [4:5]红九")]}))
    legal = [a for a, _ in G.legal_actions(state, 0)]
    assert len(set(legal)) == len(legal)
    gang = Action(0, g.LAY, ids(state, 0, "[4:5]红九"))
    assert legal.count(gang) == 1
    state, events = act(state, 0, g.LAY, gang.cards)
    an, peng = state.melds[0][:2]
    assert (g.meld_kind(an), g.meld_kind(peng)) == (g.GANG_M, g.PENG_M) and gang.cards[0] in g.meld_cards(an)
