"""川牌 pinned (make mutate GAME=chuanpai): what the survivors showed no test asserted."""
from __future__ import annotations

import pytest

from referee.core.errors import IllegalAction, InvalidAction, Reason, error_for
from referee.core.game import PASS, Action
from referee.core.games.chuanpai import analysis as an
from referee.core.games.chuanpai import game as g
from referee.core.games.chuanpai.cards import NOTATION, TOKENS, deck_ids
from referee.core.games.chuanpai.deal import Options, turn_order

from test_chuanpai_analysis import hand, kind  # noqa: E402
from test_chuanpai_game import FOUR, G, IDS, Picker, act, discard, ids, laydown, legal_kinds, table, turn_up, types  # noqa: E402


# --- the codec's declarations ------------------------------------------------------------------------

def test_chuanpai_codec_declarations_bound_every_field():
    """The state codec's declarations: seats and cards are indexes from 0 (-1 only where a field
    says none), the phase and outcome one of four, a laid set at most 6 bytes (kind, source, four
    ids), a claim answer at most 5 items (WIN, the take's kind, three cards), 过 values bits 2..12."""
    state = table(FOUR)
    for phase in (g.LAYDOWN, g.TURN, g.CLAIM, g.FINISHED):
        assert not G.codec.conforms(state._replace(phase=phase, outcome=phase))
    claim, _ = discard(table(["[5:5]梅子 [5:6]斧头", "[4:6]四六", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [1:5]猫猫",
                              "[3:3]长三 [2:2]长二"]), 0, "[5:5]梅子")
    gang = (g.WIN, g.GANG) + ids(claim, 2, "[5:5]梅子 [5:5]梅子 [5:5]梅子")
    assert not G.codec.conforms(claim._replace(window=claim.window._replace(answers=(None, gang))))
    assert not G.codec.conforms(claim._replace(window=claim.window._replace(answers=(None, (g.PAIR, 0)))))
    pairs = tuple(g._meld(g.PAIR_M, 1, (c, c + 1)) for c in range(0, 86, 2))  # all 86 cards laid in 43 pairs
    wild = table(FOUR, options=WILD)._replace(hands=(0,) * 4, pos=86, melds=(pairs, (), (), ()))
    assert len(pairs) == g.MAX_MELDS and not G.codec.conforms(wild)
    ok_meld = g._meld(g.GANG_M, 1, range(4))
    assert not G.codec.conforms(state._replace(melds=((ok_meld,), (), (), ())))
    assert not G.codec.conforms(state._replace(guo=((), (g.GuoCard(5, 1 << 2 | 1 << 12),), (), ())))
    assert not G.codec.conforms(state._replace(guo=((), (g.GuoCard(0, 1 << 8),), (), ())))  # id 0: a [6:6]
    assert not G.codec.conforms(state._replace(match=state.match._replace(carry=g.Carry(0, True))))
    bad = [state._replace(toujia=-1), state._replace(pos=-1), state._replace(phase=4), state._replace(phase=-1),
           state._replace(to_act=(-1,)), state._replace(outcome=4), state._replace(outcome=-1),
           state._replace(seen=-1), state._replace(melds=((ok_meld + bytes([5]),), (), (), ())),
           claim._replace(window=claim.window._replace(answers=(None, gang + (7,)))),
           claim._replace(window=claim.window._replace(answers=(None, (g.PAIR, -1))))]
    bad += [state._replace(pending=(value, 0, 0, 0)) for value in (-1, 1 << 13)]
    bad += [state._replace(guo=((), (g.GuoCard(5, value),), (), ())) for value in (-1, 1 << 13)]
    bad += [state._replace(guo=((), (g.GuoCard(-1, 1 << 8),), (), ())),
            state._replace(match=state.match._replace(carry=g.Carry(-1, True)))]
    assert all(G.codec.conforms(s) for s in bad)


@pytest.mark.parametrize("text", ["[6:6]天牌高", "[6:6] 高", "天牌W1", "[1:6][1:6"])
def test_chuanpai_rule_2_2_a_card_text_that_goes_on_past_its_cards_with_no_card_is_refused(text):
    # a rank string is the kinds' pips or names run together: text left over names no card
    with pytest.raises(InvalidAction) as refused:
        NOTATION.parse_cards_or_ranks(text)
    assert refused.value.reason == Reason.UNKNOWN_CARD


# --- 4.4 lay-down: other copies name the same set -----------------------------------------------------

def test_chuanpai_rule_3_3_c_3_another_identical_card_is_the_same_fourth_onto_a_laid_an():
    # same_points: every 8 is identical; the listed fourth is the lowest 8 in hand, the other 8 lays too
    state = laydown(table(["[4:4]人牌 [3:5]三五 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          melds={0: [(g.AN_M, -1, "[2:6]二六 [2:6]二六 [2:6]二六")]},
                          options=Options(same_points=True)))
    listed = [a.cards for a, _ in G.legal_actions(state, 0) if a.kind == g.LAY]
    other = ids(state, 0, "[3:5]三五")
    assert listed == [ids(state, 0, "[4:4]人牌")]
    verdict = G.check(state, Action(0, g.LAY, other))
    assert verdict.legal and verdict.action.cards == other
    state, events = act(state, 0, g.LAY, other)
    assert g.meld_kind(state.melds[0][0]) == g.GANG_M and set(other) <= set(g.meld_cards(state.melds[0][0]))


@pytest.mark.parametrize("natural", ["[6:6]天牌", "[1:1]地牌"])
def test_chuanpai_rule_3_3_a_jing_is_no_fourth_card_onto_a_laid_an_of_naturals(natural):
    # 3.2, 3.5: a 经牌 makes sets only with 3-point cards; the fourth natural onto the laid 暗 is the one set
    state = laydown(table([f"{natural} 财神 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          melds={0: [(g.AN_M, -1, " ".join([natural] * 3))]}))
    assert [a.cards for a, _ in G.legal_actions(state, 0) if a.kind == g.LAY] == [ids(state, 0, natural)]
    assert G.check(state, Action(0, g.LAY, ids(state, 0, "财神"))).reason == Reason.NOT_A_COMBINATION


def test_chuanpai_rule_3_4_a_yan_named_with_another_copy_of_a_7_is_the_same_yan():
    state = laydown(table(["[1:6]高高 [1:6]高高 [3:4]三四 [2:5]二五 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"]))
    listed = [a.cards for a, _ in G.legal_actions(state, 0)]
    other = ids(state, 0, "[1:6]高高 [1:6]高高 [3:4]三四 [2:5]二五")[1:]
    assert listed == [ids(state, 0, "[1:6]高高 [3:4]三四 [2:5]二五")] and other != listed[0]
    state, events = act(state, 0, g.LAY, other)
    assert g.meld_kind(state.melds[0][0]) == g.YAN_M and g.meld_cards(state.melds[0][0]) == tuple(sorted(other))


def test_chuanpai_rule_3_4_a_yan_completed_by_a_passing_7_is_the_combination_of_a_yan_laid_from_the_hand():
    state = table(["[1:6]高高 [5:6]斧头", "[3:4]三四 [2:5]二五 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    taken = [c for a, c in G.legal_actions(state, 1) if a.kind == g.YAN]
    lay = laydown(table(["[1:6]高高 [3:4]三四 [2:5]二五 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"]))
    assert len(taken) == 1 and taken == [c for a, c in G.legal_actions(lay, 0) if a.kind == g.LAY]


def test_chuanpai_p_5_c_3_three_of_four_seven_point_cards_that_are_no_yan_are_no_an():
    state = laydown(table(["[1:6]高高 [1:6]高高 [3:4]三四 [2:5]二五 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          options=Options(same_points=True)))
    assert sorted(len(a.cards) for a, _ in G.legal_actions(state, 0)) == [3, 4]  # the 燕 and the 扛 of four 7s
    assert not G.check(state, Action(0, g.LAY, ids(state, 0, "[1:6]高高 [1:6]高高 [3:4]三四"))).legal



def test_chuanpai_rule_3_4_c_3_three_different_7s_are_one_set_to_lay_the_yan():
    # same_points: [1:6] [3:4] [2:5] are three identical 7s (an 暗) and a 燕: one compulsory set
    state = laydown(table(["[1:6]高高 [3:4]三四 [2:5]二五 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          options=Options(same_points=True)))
    yan = ids(state, 0, "[1:6]高高 [3:4]三四 [2:5]二五")
    assert [(a.kind, a.cards) for a, _ in G.legal_actions(state, 0)] == [(g.LAY, yan)]
    state, events = act(state, 0, g.LAY, yan)
    assert state.melds[0] == (g._meld(g.YAN_M, -1, yan),) and types(events)[:2] == ["LAY", "DRAW"]


def test_chuanpai_rule_3_3_a_fourth_card_onto_a_laid_an_behind_a_laid_pair():
    state = laydown(table(["[5:5]梅子 [5:6]斧头", "[1:5]猫猫", "[3:3]长三", "[1:4]幺四"],
                          melds={0: [(g.PAIR_M, 1, "[4:6]四六 [4:6]四六"), (g.AN_M, -1, "[5:5]梅子 [5:5]梅子 [5:5]梅子")]}))
    assert [(a.kind, a.cards) for a, _ in G.legal_actions(state, 0)] == [(g.LAY, ids(state, 0, "[5:5]梅子"))]
    state, _ = act(state, 0, g.LAY, ids(state, 0, "[5:5]梅子"))
    assert [g.meld_kind(m) for m in state.melds[0]] == [g.PAIR_M, g.GANG_M]


def test_chuanpai_rule_4_4_p_14_a_refused_pass_names_the_first_listed_set_and_ranks_name_a_set():
    state = laydown(table(["[1:6]高高 [1:6]高高 [1:6]高高 [2:5]二五 [3:4]三四 [5:6]斧头", "[4:6]四六 [2:2]长二",
                           "[3:3]长三", "[1:5]猫猫"]))
    first, second = [a.cards for a, _ in G.legal_actions(state, 0)]
    message = G.check(state, Action(0, PASS)).message
    assert NOTATION.format_cards(first) in message and NOTATION.format_cards(second) not in message
    for cards in (first, second):
        ranks = tuple(sorted(g.KIND_OF[c] for c in cards))
        assert G.check(state, Action(0, g.LAY, ranks=ranks)).action.cards == cards


def test_chuanpai_rule_4_4_pass_comes_first_and_each_set_is_described_as_laid():
    # 齐头 makes the 暗 of 8s optional (b = g), {3, 3, 经} is an optional 暗 (3.5): PASS, then both
    state = laydown(table(["[2:6]二六 [2:6]二六 [2:6]二六 [1:1]地牌 [6:6]天牌 [6:6]天牌 [1:2]丁丁 [1:2]丁丁 财神",
                           "[4:6]四六", "[3:3]长三", "[1:5]猫猫"]))
    assert [(a.kind, c and c.kind) for a, c in G.legal_actions(state, 0)] == [(PASS, None), (g.LAY, "an"), (g.LAY, "an")]
    # a 扛 of four in hand, and a fourth card onto a laid 暗, are laid as 扛
    state = laydown(table(["[5:5]梅子 [5:5]梅子 [5:5]梅子 [5:5]梅子 [4:6]四六 [5:6]斧头", "[1:5]猫猫", "[3:3]长三", "[1:4]幺四"],
                          melds={0: [(g.AN_M, -1, "[4:6]四六 [4:6]四六 [4:6]四六")]}))
    assert [(c.kind, len(a.cards)) for a, c in G.legal_actions(state, 0)] == [("gang", 4), ("gang", 1)]


WILD = Options(deck="84_plus_2_wild")
THREES = "[1:2]丁丁 [1:2]丁丁 [1:2]丁丁"


def test_chuanpai_p_12_any_four_of_jing_and_threes_and_any_fourth_onto_a_laid_an_of_threes_lay_alike():
    # 86 cards: of five cards of {经, 3}, any four are the 扛 (3.5, P-12); {3, 经, 经} is no set
    state = laydown(table([THREES + " 财神 听用 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"], options=WILD))
    assert [len(a.cards) for a, _ in G.legal_actions(state, 0)] == [4]
    other = ids(state, 0, "[1:2]丁丁 [1:2]丁丁 财神 听用")
    verdict = G.check(state, Action(0, g.LAY, other))
    assert verdict.legal and verdict.action.cards == other
    assert G.check(state, Action(0, g.LAY, ids(state, 0, "[1:2]丁丁 财神 听用"))).reason == Reason.NOT_A_COMBINATION
    # the fourth onto a laid 暗 of three 3s: the 3 in hand is listed, the 经 makes the same 扛
    state = laydown(table(["[1:2]丁丁 财神 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          melds={0: [(g.AN_M, -1, THREES)]}, options=WILD))
    assert [a.cards for a, _ in G.legal_actions(state, 0)] == [ids(state, 0, "[1:2]丁丁")]  # compulsory (3.5)
    jing = ids(state, 0, "财神")
    state, events = act(state, 0, g.LAY, jing)
    assert g.meld_kind(state.melds[0][0]) == g.GANG_M and jing[0] in g.meld_cards(state.melds[0][0])




# --- winning on a draw (6.1, P-3) --------------------------------------------------------------------

def test_chuanpai_rule_6_1_a_replacement_draw_after_a_take_that_completes_the_cards_wins_at_once():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [4:6]四六", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"],
                  "[4:6]四六")
    state, _ = discard(state, 0, "[1:6]高高")
    state, events = act(state, 1, g.PENG)
    assert types(events) == ["PENG", "DRAW", "WIN"] and state.winner == 1 and events[-1].values == {"from": -1}


def test_chuanpai_p_3_no_win_check_during_the_laydown_then_in_turn_order_from_toujia():
    # seat 1's replacement draw completes his cards during 4.4; 头家 (seat 0) is complete too: he wins
    state = laydown(table(["[4:6]四六 [4:6]四六", "[2:2]长二 [2:2]长二 [2:2]长二 [5:5]梅子", "[3:3]长三", "[1:5]猫猫"],
                          "[5:5]梅子"))
    assert state.to_act == (1,)
    state, events = act(state, 1, g.LAY, ids(state, 1, "[2:2]长二 [2:2]长二 [2:2]长二"))
    assert types(events) == ["LAY", "DRAW", "WIN"] and state.winner == 0 and events[-1].values == {"from": -1}


def test_chuanpai_rule_6_1_a_gang_laid_after_a_take_whose_first_replacement_wins_draws_no_more():
    # 碰 of [1:6], draw [5:5]; the fourth [2:2] onto the laid 暗 (optional: g - b = 1); its first
    # replacement [4:6] completes [5:5] [4:6]: a win, and the second replacement is not drawn
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [2:2]长二", "[5:5]梅子 [5:6]斧头", "[3:3]长三 [1:5]猫猫"],
                  "[5:5]梅子 [4:6]四六 [4:6]四六", melds={1: [(g.AN_M, -1, "[2:2]长二 [2:2]长二 [2:2]长二")]})
    state, _ = discard(state, 0, "[1:6]高高")
    state, events = act(state, 1, g.PENG)
    assert types(events) == ["PENG", "DRAW"] and legal_kinds(state, 1) == [PASS, g.LAY]
    assert state.card == -1 and not G.codec.conforms(state)  # nothing on offer in the lay-down after a take
    pos = state.pos
    state, events = act(state, 1, g.LAY, ids(state, 1, "[2:2]长二"))
    assert types(events) == ["LAY", "DRAW", "WIN"] and state.winner == 1
    assert state.pos == pos + 1 and state.hands[1].bit_count() == 2



def test_chuanpai_rule_6_1_a_set_laid_after_a_take_that_completes_the_cards_wins_at_once_on_his_own_cards():
    # 扛 of [5:5], replacements [1:6] (the fourth onto his laid 暗, compulsory) and [1:3] (pairs his
    # [3:3]): laying the [1:6] leaves the cards complete: a win from nobody's card, no more draws
    state = table(["[5:5]梅子 [5:6]斧头", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [3:3]长三", "[2:2]长二 [1:1]地牌",
                   "[3:6]三六 [2:4]二四"], "[1:6]高高 [1:3]合牌", melds={1: [(g.AN_M, -1, "[1:6]高高 [1:6]高高 [1:6]高高")]})
    state, _ = discard(state, 0, "[5:5]梅子")
    state, events = act(state, 1, g.GANG)
    assert types(events) == ["GANG", "DRAW", "DRAW"] and legal_kinds(state, 1) == [g.LAY]
    pos = state.pos
    state, events = act(state, 1, g.LAY, ids(state, 1, "[1:6]高高"))
    assert types(events) == ["LAY", "WIN"] and state.winner == 1 and events[-1].values == {"from": -1}
    assert state.pos == pos


def _deal_with_a_laydown(toujia: int) -> g.State:
    for n in range(200):
        state = G.deal(G.make_options(), b"laydown %d" % n, b"")
        if state.toujia == toujia and G.phase_name(state) == "laydown" and state.asking[0].seat != toujia:
            return state
    raise AssertionError("no such deal")


def test_chuanpai_rule_4_4_p_3_after_the_laydown_toujia_discards_first():
    state = _deal_with_a_laydown(2)
    assert G.view(state, -1).counters["turn"] == -1  # nobody is on turn during 4.4
    while G.phase_name(state) == "laydown":
        state, _ = act(state, state.to_act[0], *G.legal_actions(state, state.to_act[0])[0][0][1:3])
    assert state.finished or (G.phase_name(state) == "turn" and state.to_act == (2,) and state.turn == 2)


def test_chuanpai_a_fresh_deal_has_counted_no_action_and_each_action_counts_one():
    state = G.deal(G.make_options(), b"steps", b"")
    assert state.step == 0
    seat = state.to_act[0]
    after, _ = G.apply(state, G.legal_actions(state, seat)[0][0])
    assert after.step == 1



# --- 头家 of a later hand (4.2, C-6) ------------------------------------------------------------------

@pytest.mark.parametrize("clockwise, toujia", [(False, 3), (True, 2)])
def test_chuanpai_rule_4_2_c_6_the_turner_and_the_count_go_the_way_of_play(clockwise, toujia):
    # five seats, seat 0 won: the second player after him turns [6:6] (12 points) and counts 12
    # players from himself as 1: counter-clockwise 2 -> 3; clockwise 3 -> 2
    card = IDS[TOKENS["[6:6]"]][:1]
    assert g.counted_toujia(0, card, 5, clockwise) == toujia


def test_chuanpai_p_13_two_players_tied_to_the_last_card_make_the_first_of_them_toujia():
    # the 84 cards in order of points: every round of two turned cards ties (each value has an even
    # count, the 经牌 are turned again) until the cards run out; the first tied player is 头家
    by_points = sorted(range(84), key=lambda c: g.POINTS[g.KIND_OF[c]])
    assert g.first_toujia(by_points, 2) == 0


# --- the table and the deal (4.1, 4.3, P-1, P-3) -----------------------------------------------------

def test_chuanpai_rule_4_1_a_deal_without_a_seat_count_seats_four():
    state = G.deal(G.make_options(), b"default", b"")
    assert state.num_seats == 4 and sorted(h.bit_count() for h in state.hands) == [15, 15, 15, 16]


def _deck_dealing(hands, toujia: int = 0) -> bytes:
    """A deck that P-1 deals as ``hands`` (card text per seat, each as many cards as 4.3 gives the
    seat) from 头家 ``toujia``; the stock is the other cards."""
    pick = Picker()
    cards = [pick.take(text) for text in hands]
    order = turn_order(toujia, len(hands))
    assert [len(cards[s]) for s in order] == list(g.hand_sizes(len(hands)))
    dealt = [cards[s][r] for r in range(len(cards[toujia])) for s in order if r < len(cards[s])]
    return bytes(dealt + [c for c in deck_ids("84") if c not in pick.used])


def test_chuanpai_rule_4_3_p_1_a_hand_dealt_again_from_its_deck_and_toujia_is_that_hand():
    state = G.deal(G.make_options(), b"again", b"more", 4)
    assert G.deal_from(state.options, state.deck, state.toujia, 4, seed=b"again", entropy=b"more") == state


def test_chuanpai_rule_6_1_p_3_toujia_complete_at_the_deal_wins_and_the_deal_events_say_so():
    # two players: 头家 is dealt eight pairs and nobody has a set to lay (4.4): he wins at once
    complete = ("[6:6]天牌 [4:4]人牌 [6:6]天牌 [4:4]人牌 [1:1]地牌 [2:6]二六 [1:1]地牌 [2:6]二六 [5:5]梅子 [5:5]梅子 "
                "[4:6]四六 [4:6]四六 [1:4]幺四 [1:4]幺四 [2:3]拐子 [2:3]拐子")
    other = ("[1:3]合牌 [1:3]合牌 [3:3]长三 [3:3]长三 [2:2]长二 [2:2]长二 [5:6]斧头 [5:6]斧头 [1:6]高高 [1:6]高高 "
             "[1:5]猫猫 [1:5]猫猫 [3:6]三六 [3:6]三六 [4:5]红九")
    state = G.deal_from(Options(), _deck_dealing([complete, other]), 0, 2)
    assert state.finished and state.winner == 0
    events = G.deal_events(state)
    assert types(events) == ["DEAL", "DEAL", "TOUJIA", "WIN"] and events[-1].seat == 0
    assert events[-1].values == {"from": -1}
    assert [tuple(sorted(e.cards)) for e in events[:2]] == [g.from_mask(h) for h in state.hands]
    unfinished = G.deal(G.make_options(), b"steps", b"")
    assert not unfinished.finished and types(G.deal_events(unfinished)) == ["DEAL"] * 4 + ["TOUJIA"]


# --- claims: other copies name the same take ---------------------------------------------------------

def test_chuanpai_rule_3_5_a_peng_of_a_passing_3_with_a_3_and_either_jing():
    state = table(["[1:2]丁丁 [5:6]斧头", "[1:2]丁丁 财神 听用 [5:6]斧头 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:2]丁丁")
    listed = [(a.cards, c.ranks) for a, c in G.legal_actions(state, 1) if a.kind == g.PENG]
    other = ids(state, 1, "[1:2]丁丁 听用")
    assert listed == [(ids(state, 1, "[1:2]丁丁 财神"), (g.THREE, g.THREE, TOKENS["财神"]))]
    verdict = G.check(state, Action(1, g.PENG, other))
    assert verdict.legal and verdict.action.cards == other
    state, events = act(state, 1, g.PENG, other)
    assert events[0].type == g.PENG and set(other) < set(g.meld_cards(state.melds[1][0]))



def test_chuanpai_rule_5_3_another_copy_makes_the_same_pair_and_yan_and_a_card_that_does_not_pair_is_no_pair():
    state = table(["[4:4]人牌 [1:6]高高", "[6:6]天牌 [6:6]天牌 [5:6]斧头", "[3:4]三四 [3:4]三四 [2:5]二五", "[3:3]长三 [2:2]长二"])
    eight, _ = discard(state, 0, "[4:4]人牌")
    assert [a.cards for a, _ in G.legal_actions(eight, 1) if a.kind == g.PAIR] == [ids(eight, 1, "[6:6]天牌")]
    other = ids(eight, 1, "[6:6]天牌 [6:6]天牌")[1:]
    verdict = G.check(eight, Action(1, g.PAIR, other))
    assert verdict.legal and verdict.action.cards == other
    assert G.check(eight, Action(1, g.PAIR, ids(eight, 1, "[5:6]斧头"))).reason == Reason.NOT_A_COMBINATION
    seven, _ = discard(state, 0, "[1:6]高高")
    assert [a.cards for a, _ in G.legal_actions(seven, 2)] == [ids(seven, 2, "[3:4]三四 [2:5]二五")]
    other = ids(seven, 2, "[3:4]三四 [3:4]三四 [2:5]二五")[1:]
    state, events = act(seven, 2, g.YAN, other)
    assert events[0].type == g.YAN and set(other) < set(g.meld_cards(state.melds[2][0]))


def test_chuanpai_rule_3_3_c_3_a_gang_is_three_identical_cards_from_the_hand_any_three():
    # same_points: four 8s against four 2s and 12s (齐头) stay in hand; a passing 8 is 扛 with any three
    state = table(["[2:6]二六 [5:6]斧头", "[4:4]人牌 [3:5]三五 [3:5]三五 [2:6]二六 [1:1]地牌 [1:1]地牌 [6:6]天牌 [6:6]天牌",
                   "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"], options=Options(same_points=True))
    state, _ = discard(state, 0, "[2:6]二六")
    gangs = [(a.cards, c.size) for a, c in G.legal_actions(state, 1) if a.kind == g.GANG]
    assert gangs == [(ids(state, 1, "[4:4]人牌 [2:6]二六 [3:5]三五"), 4)]  # four cards with the passing one
    other = ids(state, 1, "[3:5]三五 [3:5]三五 [2:6]二六")
    verdict = G.check(state, Action(1, g.GANG, other))
    assert verdict.legal and sorted(verdict.action.cards) == sorted(other)
    for wrong in (other[:2], ids(state, 1, "[4:4]人牌 [3:5]三五 [3:5]三五 [2:6]二六")):
        assert G.check(state, Action(1, g.GANG, wrong)).reason == Reason.NOT_A_COMBINATION



def test_chuanpai_p_6_an_obliged_player_may_not_pair_with_a_hand_card_of_his_guo_cards_kind():
    state = table(["[4:4]人牌 [5:6]斧头", "[1:1]地牌 [1:1]地牌 [1:5]猫猫", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"],
                  guo={1: [("[1:1]地牌", 1 << 8)]})
    low, high = ids(state, 1, "[1:1]地牌")[0], state.guo[1][0].card  # the 过 card takes the lowest id, the hand the rest
    hands = state.hands[:1] + (state.hands[1] & ~(1 << low) | 1 << high,) + state.hands[2:]
    state = state._replace(hands=hands, guo=((), (g.GuoCard(low, 1 << 8),), (), ()))
    state, _ = discard(state, 0, "[4:4]人牌")
    assert [a.cards for a, _ in G.legal_actions(state, 1)] == [(low,)]
    refused = G.check(state, Action(1, g.PAIR, ids(state, 1, "[1:1]地牌")))
    assert refused.reason == g.MUST_TAKE and "5.6" in refused.message




def test_chuanpai_p_12_check_resolves_a_listed_take_to_that_very_take():
    # 86 cards: the third 3 (id 84) and 财神 (id 82) make the listed 碰 (84, 82) of a passing 3
    state = table(["[1:2]丁丁 [1:2]丁丁 [5:6]斧头", "[1:2]丁丁 财神 [5:6]斧头 [5:6]斧头", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"], options=WILD)
    state, _ = discard(state, 0, "[1:2]丁丁")
    listed = [a for a, _ in G.legal_actions(state, 1)]
    assert (g.PENG, (84, 82)) in [(a.kind, a.cards) for a in listed]
    for action in listed:
        assert G.check(state, action).action == action



def test_chuanpai_p_12_listed_takes_name_the_lowest_copies_of_their_kinds():
    # 86 cards: a passing 3 (id 80) with the 3s 84 and 85 and 财神 (82) in hand
    state = table(["[1:2]丁丁 [1:2]丁丁 [5:6]斧头", "[1:2]丁丁 [1:2]丁丁 财神 [5:6]斧头 [5:6]斧头", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"], options=WILD)
    state, _ = discard(state, 0, "[1:2]丁丁")
    takes = [(a.kind, a.cards) for a, _ in G.legal_actions(state, 1) if a.kind in (g.PENG, g.GANG)]
    assert takes == [(g.PENG, (84, 85)), (g.PENG, (84, 82)), (g.GANG, (84, 85, 82))]



@pytest.mark.parametrize("passing, peng_ranks", [("财神", (g.THREE, g.THREE, TOKENS["财神"])), ("[1:2]丁丁", (g.THREE,) * 3)])
def test_chuanpai_p_12_a_peng_names_two_of_three_kept_threes_and_the_gang_three(passing, peng_ranks):
    # 86 cards: three natural 3s are an optional 暗 (P-12), kept in hand; the fourth of {经, 3} passes
    state = table([passing + " [5:6]斧头", THREES + " [1:6]高高 [1:6]高高 [3:4]三四", "[3:3]长三 [2:2]长二",
                   "[5:5]梅子 [5:5]梅子"], options=WILD)
    state, _ = discard(state, 0, passing)
    takes = [(a.kind, len(a.cards), c.size) for a, c in G.legal_actions(state, 1) if a.kind in (g.PENG, g.GANG)]
    assert takes == [(g.PENG, 2, 3), (g.GANG, 3, 4)]
    assert [c.ranks for a, c in G.legal_actions(state, 1) if a.kind == g.PENG] == [peng_ranks]


def test_chuanpai_p_12_a_gang_of_the_3_5_family_is_described_by_its_kinds():
    state = table(["财神 [5:6]斧头", THREES + " [1:6]高高 [1:6]高高 [3:4]三四", "[3:3]长三 [2:2]长二",
                   "[5:5]梅子 [5:5]梅子"], options=WILD)
    state, _ = discard(state, 0, "财神")
    gang = [c.ranks for a, c in G.legal_actions(state, 1) if a.kind == g.GANG]
    assert gang == [(g.THREE, g.THREE, g.THREE, TOKENS["财神"])]


def test_chuanpai_rule_5_3_a_claimed_gang_draws_two_replacement_cards():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [1:6]高高 [5:6]斧头 [2:2]长二", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"], "[4:5]红九 [4:5]红九 [4:5]红九")
    state, _ = discard(state, 0, "[1:6]高高")
    pos = state.pos
    state, events = act(state, 1, g.GANG)
    assert types(events) == ["GANG", "DRAW", "DRAW"] and state.pos == pos + 2 and state.hands[1].bit_count() == 4
    assert not G.codec.conforms(state)


# --- claims: refusals name their reason --------------------------------------------------------------

def test_chuanpai_claims_naming_cards_the_seat_does_not_have_and_a_gang_onto_a_set_that_is_no_such_set():
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [5:6]斧头", "[1:6]高高 [5:5]梅子", "[3:3]长三 [2:2]长二"],
                  melds={1: [(g.AN_M, -1, "[2:2]长二 [2:2]长二 [2:2]长二")]})
    state, _ = discard(state, 0, "[1:6]高高")
    laid = g.meld_cards(state.melds[1][0])
    elsewhere = ids(state, 1, "[1:6]高高")[:1] + ids(state, 2, "[1:6]高高")
    for kind, cards in ((g.PENG, elsewhere), (g.PENG, laid[:2])):  # another seat's card, his own laid cards
        assert G.check(state, Action(1, kind, cards)).reason == Reason.CARDS_NOT_IN_HAND
    # a 扛 onto a laid set names its cards: his own, but no set of the card on offer
    assert G.check(state, Action(1, g.GANG, laid)).reason == Reason.NOT_A_COMBINATION


def test_chuanpai_rule_4_6_an_extra_players_pair_is_refused_by_rule_4_6_and_other_refusals_are_not():
    state = table(["[1:6]高高 [5:6]斧头", "[1:2]丁丁 [5:6]斧头 [4:5]红九", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二",
                   "[1:6]高高 [1:6]高高 [1:2]丁丁"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert state.to_act == (1, 4)
    extra_pair = G.check(state, Action(4, g.PAIR, ids(state, 4, "[1:2]丁丁")))
    assert extra_pair.reason == Reason.NOT_A_COMBINATION and "4.6" in extra_pair.message
    for refused in (G.check(state, Action(1, g.PAIR, ids(state, 1, "[4:5]红九"))),
                    G.check(state, Action(4, g.PENG, ids(state, 4, "[1:6]高高 [1:2]丁丁")))):
        assert refused.reason == Reason.NOT_A_COMBINATION and "4.6" not in refused.message


def test_chuanpai_rule_5_4_c_a_laid_pair_is_no_set_to_gang_onto():
    # a laid 摆 {[6:6], [2:6]}: a passing [6:6] is no fourth card of a set; g - b = 2 would make a
    # 扛 compulsory (5.4 c), but there is none, and the 12 raises no pairs: the take is optional
    state = table(["[6:6]天牌 [5:6]斧头", "[4:4]人牌 [1:1]地牌 [1:1]地牌 [6:6]天牌", "[5:5]梅子 [5:5]梅子",
                   "[3:3]长三 [2:2]长二"], melds={1: [(g.PAIR_M, 0, "[6:6]天牌 [2:6]二六")]})
    state, _ = discard(state, 0, "[6:6]天牌")
    assert legal_kinds(state, 1) == [PASS, g.PAIR] and g.obligation(state, 1) is None



# --- the turn (5.5, 4.6) -----------------------------------------------------------------------------

def test_chuanpai_rule_5_5_a_discard_named_by_its_kind_and_discards_that_are_not_one_card():
    state = table(["[5:6]斧头 [5:6]斧头 [1:3]合牌 [3:3]长三", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"])
    eleven = TOKENS["[5:6]"]
    verdict = G.check(state, Action(0, g.DISCARD, ranks=(eleven,)))
    assert verdict.legal and verdict.action.cards == ids(state, 0, "[5:6]斧头")[:1]
    lacks = G.check(state, Action(0, g.DISCARD, ranks=(TOKENS["[6:6]"],)))
    assert lacks.reason == Reason.CARDS_NOT_IN_HAND and "[6:6]天牌" in lacks.message
    assert G.check(state, Action(0, g.DISCARD, ranks=(TOKENS["[1:3]"],))).reason == g.BREAKS_PAIR
    for one_card_no in (Action(0, g.DISCARD), Action(0, g.DISCARD, ranks=(eleven, eleven)),
                        Action(0, g.DISCARD, ids(state, 0, "[5:6]斧头 [5:6]斧头"))):
        assert G.check(state, one_card_no).reason == Reason.BAD_ACTION
    assert G.check(state, Action(0, g.KEEP)).reason == Reason.WRONG_PHASE  # no turned card to keep


def test_chuanpai_rule_4_6_an_extra_players_turned_card_of_id_0_is_his_to_keep_or_discard():
    hands = ["[4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁", "[1:5]猫猫 [2:4]二四 [2:4]二四"]
    state, _ = turn_up(table(hands, "[6:6]天牌")._replace(to_act=(), phase=g.TURN), 4)
    assert state.card == 0 and state.to_act == (4,)  # the first [6:6]
    assert [(a.kind, a.cards) for a, _ in G.legal_actions(state, 4)] == [(g.KEEP, ()), (g.DISCARD, (0,))]
    assert G.view(state, 4).seats[4].cards["turned"] == (0,)
    assert G.check(state, Action(4, g.DISCARD, ranks=(TOKENS["[6:6]"],))).action.cards == (0,)
    assert G.check(state, Action(4, g.KEEP)).legal
    kept, _ = act(state, 4, g.KEEP)
    assert kept.hands[4] & 1 and kept.card == -1 and not G.codec.conforms(kept)


def test_chuanpai_rule_4_6_another_discard_than_the_turned_card_is_a_rule_broken_not_a_malformed_action():
    """A 7-seat load run drew these: an extra player with a turned card who discards another card
    of his hand broke 4.6 (FAILED_PRECONDITION TURNED_ONLY, so Validate answers legal=false), one
    he does not hold is CARDS_NOT_IN_HAND, and only a discard of more than one card is malformed."""
    hands = ["[4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁", "[1:5]猫猫 [2:4]二四 [2:4]二四"]
    state, _ = turn_up(table(hands, "[6:6]天牌")._replace(to_act=(), phase=g.TURN), 4)
    assert state.card == 0 and state.to_act == (4,)
    held = ids(state, 4, "[1:5]猫猫")
    for other in (Action(4, g.DISCARD, held), Action(4, g.DISCARD, ranks=(TOKENS["[1:5]"],))):
        refused = G.check(state, other)
        assert refused.reason == g.TURNED_ONLY and "4.6" in refused.message
        assert refused.reason in G.reasons and type(error_for(refused.reason, "")) is IllegalAction
    not_held = next(c for c in range(84) if c != state.card and not state.hands[4] >> c & 1)
    assert G.check(state, Action(4, g.DISCARD, (not_held,))).reason == Reason.CARDS_NOT_IN_HAND
    lacks = G.check(state, Action(4, g.DISCARD, ranks=(TOKENS["[5:5]"],)))
    assert lacks.reason == Reason.CARDS_NOT_IN_HAND and "[5:5]" in lacks.message
    for malformed in (Action(4, g.DISCARD, (0,) + held), Action(4, g.DISCARD, ranks=(TOKENS["[6:6]"],) * 2)):
        assert G.check(state, malformed).reason == Reason.BAD_ACTION
    assert G.check(state, Action(4, g.DISCARD, (0,))).legal and G.check(state, Action(4, g.DISCARD)).legal


def test_chuanpai_rule_6_1_an_extra_players_kept_card_wins_as_a_draw():
    state = table(FOUR + ["[4:6]四六"], "[4:6]四六")
    state, _ = turn_up(state, 4)
    state, events = act(state, 4, g.KEEP)
    assert state.winner == 4 and events[-1].type == "WIN" and events[-1].values == {"from": -1}
    assert state.card == -1 and not G.codec.conforms(state)
    view = G.view(state, 0)
    assert view.seats[4].cards["hand"] == g.from_mask(state.hands[4])  # the winner's hand is shown
    assert all(sv.team == -1 for sv in view.seats)  # no teams: each plays for himself



def test_chuanpai_rule_5_1_5_3_seat_0_takes_lays_the_set_his_replacement_completes_and_discards_not_toujia():
    # 头家 seat 1; seat 3 discards [1:6], seat 0 (his 下家) 碰s it, draws a third [5:5] (an 暗, 4.4) and
    # lays it: he discards next (5.1: play continues from him), not 头家
    state = table(["[1:6]高高 [1:6]高高 [5:5]梅子 [5:5]梅子 [5:6]斧头", "[4:4]人牌 [3:3]长三", "[2:2]长二 [2:2]长二",
                   "[1:6]高高 [1:5]猫猫"], "[5:5]梅子 [3:3]长三", toujia=1, turn=3)
    state, _ = discard(state, 3, "[1:6]高高")
    assert state.to_act == (0,)
    state, events = act(state, 0, g.PENG)
    assert types(events) == ["PENG", "DRAW"] and legal_kinds(state, 0) == [g.LAY]
    state, events = act(state, 0, g.LAY, ids(state, 0, "[5:5]梅子 [5:5]梅子 [5:5]梅子"))
    assert types(events) == ["LAY", "DRAW"] and G.phase_name(state) == "turn" and state.to_act == (0,)
    assert state.turn == 0


def test_chuanpai_rule_5_6_p_4_a_dead_discard_passes_every_other_seat_seat_0_too():
    # nobody can use seat 1's [5:6] (11 points) and nobody holds a 9: it passes seats 2, 3 and 0,
    # whose 11s are flagged (5.6), not the discarder's; seat 2 then turns [5:5] and may take it
    state = table(["[4:4]人牌 [1:3]合牌", "[5:6]斧头 [2:2]长二 [3:3]长三", "[5:5]梅子 [5:5]梅子", "[1:6]高高 [1:2]丁丁"],
                  "[5:5]梅子", turn=1)
    state, events = discard(state, 1, "[5:6]斧头")
    assert types(events)[:3] == ["DISCARD", "DEAD", "TURN"] and state.to_act == (2,)
    assert state.pending == (1 << 11, 0, 1 << 11, 1 << 11)


@pytest.mark.parametrize("seat, extra", [(1, 0), (4, 1)])
def test_chuanpai_rule_4_6_5_1_a_turned_cards_event_says_whether_it_is_an_extra_players_own(seat, extra):
    # five players, 头家 seat 0: seat 4 (the 5th player) turns his own card; seat 1 turns one to offer
    hands = FOUR + ["[1:5]猫猫 [2:4]二四 [2:4]二四"]
    state, events = turn_up(table(hands, "[6:6]天牌")._replace(to_act=(), phase=g.TURN), seat)
    assert events[0].type == "TURN" and events[0].seat == seat
    assert events[0].values == {"extra": extra, "stock": g.stock_left(state)}
    assert types(events)[1:] == ([] if extra else ["OFFER"])


def test_chuanpai_rule_6_2_a_hand_voided_by_an_empty_stock_has_no_card_on_offer():
    state = table(FOUR)
    state = state._replace(pos=len(state.deck))
    dead = bytes(c for c in state.deck if not any(h >> c & 1 for h in state.hands))
    state, events = discard(state._replace(dead=(dead,) + state.dead[1:]), 0, "[5:6]斧头")
    assert types(events)[-2:] == ["DEAD", "VOID"] and state.finished and state.outcome == g.VOID
    assert not G.codec.conforms(state) and state.card == -1  # the state packs as declared
    assert all(view.table_cards == () and "offered" not in view.public_cards for view in G.views(state, (-1, 0, 1)))


# --- settlement (6.3, 4.6, C-7) ----------------------------------------------------------------------

def test_chuanpai_rule_6_3_the_settlement_names_the_winner_and_a_void_hand_none():
    won = table(FOUR)._replace(phase=g.FINISHED, to_act=(), outcome=g.WON, winner=2)
    assert G.settle(won).winners == (2,)
    void = table(FOUR)._replace(phase=g.FINISHED, to_act=(), outcome=g.VOID)
    assert G.settle(void).winners == () and G.settle(void).points == (0,) * 4


def test_chuanpai_c_7_the_seventh_bonus_when_the_7th_player_is_seat_0():
    seven = FOUR + ["[6:6]天牌 [1:5]猫猫 [2:4]二四", "[5:6]斧头 [5:6]斧头", "[1:6]高高"]
    state = table(seven[1:] + seven[:1], toujia=1, options=Options(seventh_bonus=2))
    state = state._replace(phase=g.FINISHED, to_act=(), outcome=g.VOID, seen=3)
    assert g.seventh(state) == 0 and G.settle(state).points == (12,) + (-2,) * 6


DISCARDS_12 = "[6:6]天牌 [5:5]梅子 [5:5]梅子"


@pytest.mark.parametrize("hands, toujia, seen", [
    (["[6:6]天牌", DISCARDS_12, "[4:4]人牌 [2:2]长二", "[1:6]高高 [1:2]丁丁", "[5:6]斧头 [3:6]三六", "[1:5]猫猫 [2:4]二四",
      "[4:5]红九 [4:5]红九"], 1, 1),  # 头家 seat 1: the 7th player is seat 0
    ([DISCARDS_12, "[4:4]人牌 [2:2]长二", "[1:6]高高 [1:2]丁丁", "[6:6]天牌"], 0, 0)])  # no 7th player
def test_chuanpai_c_7_a_discard_identical_to_the_7th_players_card_counts_at_seat_0_and_nothing_counts_without_him(
        hands, toujia, seen):
    # the 下家 may 摆 the [6:6] with his 8: it is on offer, nothing more is turned
    state, _ = discard(table(hands, toujia=toujia), toujia, "[6:6]天牌")
    assert G.phase_name(state) == "claim" and state.seen == seen


# --- views -------------------------------------------------------------------------------------------

def test_chuanpai_rule_5_1_views_show_the_card_on_offer_and_its_discarder_and_nothing_on_a_turn():
    state = table(["[6:6]天牌 [1:5]猫猫", "[4:4]人牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[6:6]天牌 [1:5]猫猫"], toujia=1)
    for view in G.views(state, (-1, 0, 1)):
        assert view.table_seat == -1 and view.table_cards == () and view.public_cards == {}
    eight = ids(state, 1, "[4:4]人牌")
    state, _ = discard(state, 1, "[4:4]人牌")
    assert G.phase_name(state) == "claim"
    for view in G.views(state, (-1, 0, 1, 3)):
        assert view.table_seat == 1 and view.table_cards == eight and view.public_cards == {"offered": eight}


def test_chuanpai_rule_4_6_the_seventh_seen_counter_only_at_a_table_with_a_7th_player():
    assert "seventh_seen" not in G.view(table(FOUR), -1).counters
    seven = FOUR + ["[6:6]天牌 [1:5]猫猫 [2:4]二四", "[5:6]斧头 [5:6]斧头", "[1:6]高高"]
    assert G.view(table(seven), -1).counters["seventh_seen"] == 0
    at_seat_0 = table(seven[1:] + seven[:1], toujia=1)  # 头家 seat 1: the 7th player is seat 0
    assert g.seventh(at_seat_0) == 0 and G.view(at_seat_0, -1).counters["seventh_seen"] == 0


@pytest.mark.parametrize("seats", [4, 5, 6, 7])
def test_chuanpai_rule_4_6_views_name_toujia_the_extra_players_and_the_7th(seats):
    hands = (FOUR + ["[6:6]天牌 [1:5]猫猫 [2:4]二四", "[5:6]斧头 [5:6]斧头", "[1:6]高高"])[:seats]
    state = table(hands[-1:] + hands[:-1], toujia=1)
    expected = {4: ["", "toujia", "", ""], 5: ["extra", "toujia", "", "", ""],
                6: ["extra", "toujia", "", "", "", "extra"], 7: ["seventh", "toujia", "", "", "", "extra", "extra"]}
    assert [sv.role for sv in G.view(state, -1).seats] == expected[seats]




# --- identical cards (3.3, C-3) ----------------------------------------------------------------------

def test_chuanpai_rule_3_3_identical_cards_have_the_same_pips_unless_same_points_is_asked():
    eights = hand("二六 三五 人牌")
    assert an.identical_count(eights, kind("二六")) == 1 and an.identical_count(eights, kind("二六"), True) == 3
    assert not an.identical(kind("二六"), kind("三五")) and an.identical(kind("二六"), kind("三五"), True)
    assert an.laydown_sets(eights) == () and an.laydown_sets(eights, True) == (((2, 13, 14), True),)
    assert not an.is_complete(eights) and an.is_complete(eights, True)


@pytest.mark.parametrize("text", ["丁丁 丁丁 丁丁 丁丁", "丁丁 丁丁 丁丁 丁丁 梅子 梅子", "丁丁 丁丁 丁丁 财神 梅子 梅子"])
def test_chuanpai_p_12_rule_6_1_four_3s_or_three_3s_and_a_jing_are_a_quad_of_complete_cards(text):
    # 86 cards: held in hand between a replacement draw and the lay-down, the 扛 counts as one (6.1)
    assert an.is_complete(hand(text))


def test_chuanpai_rule_5_4_only_a_card_in_the_hand_is_paired():
    # one 4 and two 6s (5.5's example): the 4 is paired, a 6 is not, and another 4 he lacks is not
    four_six_six = hand("合牌 长三 长三")
    assert an.is_paired(four_six_six, kind("合牌")) and not an.is_paired(four_six_six, kind("长三"))
    assert not an.is_paired(four_six_six, kind("长二"))


# --- must-take rules (5.4) ---------------------------------------------------------------------------

def test_chuanpai_rule_5_4_c_qitou_decides_a_peng_or_gang_not_a_card_he_holds_one_of():
    # one [4:4] in hand: no 碰; b - g = 1 (two 8s, one 2) would oblige a 碰, but there is none to make,
    # and the 8 raises no pairs (5.4 a): he may pass it or 摆 it with his 2
    state = table(["[4:4]人牌 [5:6]斧头", "[4:4]人牌 [2:6]二六 [1:1]地牌", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[4:4]人牌")
    assert state.to_act == (1,) and legal_kinds(state, 1) == [PASS, g.PAIR]



def test_chuanpai_rule_3_5_two_3s_and_tingyong_must_gang_a_passing_caishen():
    # 3, 3, 7 and 听用: the passing 财神 raises no pairs (M stays 2), 3.5 alone obliges the 扛
    state = table(["财神 [5:6]斧头", "[1:2]丁丁 [1:2]丁丁 [1:6]高高 听用", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "财神")
    refused = G.check(state, Action(1, PASS))
    assert refused.reason == g.MUST_TAKE and "3.5" in refused.message and g.obligation(state, 1) == "3.5"


def test_chuanpai_p_5_c_3_five_identical_8s_lay_a_gang_of_four():
    state = laydown(table(["[4:4]人牌 [4:4]人牌 [2:6]二六 [2:6]二六 [3:5]三五 [5:6]斧头", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"],
                          options=Options(same_points=True)))
    assert [len(a.cards) for a, _ in G.legal_actions(state, 0)] == [4]



def test_chuanpai_rule_5_4_c_2s_are_good_against_8s_not_against_9s():
    # two 2s, no 8, one 11: g - b = 2 in the 2/12 against 8 family: the 碰 of a passing 2 is compulsory
    state = table(["[1:1]地牌 [5:6]斧头", "[1:1]地牌 [1:1]地牌 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:1]地牌")
    assert "5.4 c" in G.check(state, Action(1, PASS)).message


# --- priority (5.2, C-8) -----------------------------------------------------------------------------

@pytest.mark.parametrize("seat1, seat2, taker, kind", [
    ("[3:4]三四 [2:5]二五 [5:6]斧头", "[1:6]高高 [1:6]高高 [1:6]高高 [5:6]斧头", 2, g.GANG),  # 扛 > 燕
    ("[1:6]高高 [1:6]高高 [5:6]斧头", "[3:4]三四 [2:5]二五 [5:6]斧头", 1, g.PENG),  # 碰 = 燕: the first in claim order
])
def test_chuanpai_rule_5_2_qi_ranks_with_peng_below_gang(seat1, seat2, taker, kind):
    state = table(["[1:6]高高 [5:6]斧头", seat1, seat2, "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    assert state.to_act == (1, 2)
    answers = {1: kind if taker == 1 else g.YAN, 2: kind if taker == 2 else g.YAN}
    state, _ = act(state, 1, answers[1])
    state, events = act(state, 2, answers[2])
    assert events[0].type == kind and events[0].seat == taker
    assert [g.meld_kind(m) for m in state.melds[3 - taker]] == []



def test_chuanpai_rule_5_2_a_win_of_a_later_seat_beats_a_gang_of_an_earlier_one():
    state = table(["[5:5]梅子 [5:6]斧头", "[5:5]梅子 [5:5]梅子 [5:5]梅子 [1:5]猫猫", "[4:6]四六", "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[5:5]梅子")
    assert state.to_act == (1, 2)
    state, _ = act(state, 1, g.GANG)
    state, events = act(state, 2, g.WIN)
    assert state.winner == 2 and types(events) == [g.PAIR, "WIN"] and not state.melds[1]


def test_chuanpai_c_9_qi_is_peng_a_lone_yan_claim_is_still_taken():
    state = table(["[1:6]高高 [5:6]斧头", "[3:4]三四 [2:5]二五 [5:6]斧头", "[5:5]梅子 [5:5]梅子", "[3:3]长三 [2:2]长二"],
                  options=Options(qi_is_peng=True))
    state, _ = discard(state, 0, "[1:6]高高")
    assert state.to_act == (1,)
    state, events = act(state, 1, g.YAN)
    assert events[0].type == g.YAN and g.meld_kind(state.melds[1][0]) == g.YAN_M


# --- the combinations legal actions describe ----------------------------------------------------------

def _combos(state, seat):
    return {a.kind: (c.kind, c.chain, c.size, c.ranks) for a, c in G.legal_actions(state, seat) if c}


def test_chuanpai_rule_3_1_to_3_4_and_6_1_legal_takes_and_sets_describe_their_combination():
    seven, eleven = TOKENS["[1:6]"], TOKENS["[5:6]"]
    state = table(["[1:6]高高 [5:6]斧头", "[1:6]高高 [1:6]高高 [1:6]高高 [1:2]丁丁 [5:6]斧头", "[3:4]三四 [2:5]二五 [4:6]四六 [4:6]四六",
                   "[3:3]长三 [2:2]长二"])
    state, _ = discard(state, 0, "[1:6]高高")
    three = TOKENS["[1:2]"]
    assert _combos(state, 1) == {g.PAIR: ("pair", 1, 2, (seven, three)), g.PENG: ("peng", 1, 3, (seven,) * 3),
                                 g.GANG: ("gang", 1, 4, (seven,) * 4)}
    assert [len(a.cards) for a, _ in G.legal_actions(state, 1)] == [1, 2, 3]  # the hand's cards of 摆, 碰, 扛
    yan = tuple(sorted((seven, TOKENS["[3:4]"], TOKENS["[2:5]"])))
    assert _combos(state, 2) == {g.YAN: ("yan", 1, 3, yan), g.WIN: ("win", 1, 1, (seven,))}
    onto = table(["[5:5]梅子 [5:6]斧头", "[4:6]四六 [1:5]猫猫", "[1:6]高高", "[2:5]二五"],
                 melds={1: [(g.AN_M, -1, "[5:5]梅子 [5:5]梅子 [5:5]梅子")]})
    onto, _ = discard(onto, 0, "[5:5]梅子")
    ten = TOKENS["[5:5]"]
    assert _combos(onto, 1) == {g.PAIR: ("pair", 1, 2, (ten, TOKENS["[4:6]"])), g.GANG: ("gang", 1, 4, (ten,) * 4)}
    lay = laydown(table(["[5:6]斧头 [5:6]斧头 [5:6]斧头 [1:6]高高 [3:4]三四 [2:5]二五", "[4:6]四六", "[3:3]长三", "[1:5]猫猫"]))
    assert sorted((c.kind, c.chain, c.size, c.ranks) for a, c in G.legal_actions(lay, 0) if c) == [("an", 1, 3, (eleven,) * 3), ("yan", 1, 3, yan)]


# --- 过牌 (5.6, P-6) ---------------------------------------------------------------------------------

def test_chuanpai_rule_5_6_a_2_partners_an_8_a_held_2_stops_its_flag_and_a_drawn_2_answers_it():
    # 3.1: 2 + 8 = 10. Seat 1 holds a 2 (paired with his 8, so the passing 8 is optional) and passes
    # it: he is not flagged; seats 2 and 3 hold neither 2 nor 12: flagged (the discarder never)
    state = table(["[4:4]人牌 [5:6]斧头", "[1:1]地牌 [4:4]人牌", "[3:3]长三 [2:2]长二", "[1:6]高高 [1:2]丁丁"])
    state, _ = discard(state, 0, "[4:4]人牌")
    assert state.to_act == (1,) and legal_kinds(state, 1)[0] == PASS
    state, _ = act(state, 1, PASS)
    assert [state.pending[s] >> 8 & 1 for s in range(4)] == [0, 0, 1, 1]
    # a flagged 8 is answered by a drawn 2: it is laid as a 过 card
    state = table(FOUR, "[1:1]地牌", pending=(0, 1 << 8, 0, 0))
    t = g._Table(state)
    events: list = []
    g._draw(t, 1, events, check_win=True)
    state = t.freeze()
    assert types(events) == ["GUO"] and state.guo[1][0].values == 1 << 8 and state.pending[1] == 0
