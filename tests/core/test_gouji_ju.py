"""够级: the phases before the play (预点, 买三, tribute and return, 明点, 革命 with 要头), 憋三 and 闷,
the 四科 reservation, 开点 of a revolution, knowledge, leavers, and whole 局 of random play under
the contract checks (rules/gouji.md §5, §7-§9, §12, §15-§18)."""
import random

import game_contract
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards as cardlib
from referee.core.game import Action, Match
from referee.core.games.gouji import game as g
from referee.core.games.gouji import rules
from referee.core.games.gouji.game import GOUJI
from referee.core.tricks import Trick

G = GOUJI
FILL = "4S 5S 6S 7S 8S 9S"


def ids(text):
    return cardlib.parse_cards(text, 4)


def masks(*hands):
    """Hands as masks; copies of one card over the hands take the next pack."""
    every = ids(" ".join(h for h in hands if h))
    out, i = [], 0
    for h in hands:
        n = len(h.split())
        out.append(cardlib.to_mask(every[i:i + n]))
        i += n
    return out


def pick(state, seat, text):
    """The seat's own copies of the cards named."""
    hand, chosen = cardlib.from_mask(state.hands[seat]), []
    for card in ids(text):
        chosen.append(next(c for c in hand if c % 54 == card % 54 and c not in chosen))
    return tuple(chosen)


def carry(order=(0, 1, 2, 3, 4, 5), calls=(0,) * 6, opened=0, shao=(0,) * 6, men=(-1,) * 6):
    return g.Carry(tuple(order), tuple(calls), opened, tuple(shao), tuple(men))


def at_tribute(hands, the_carry, **options):
    s = g.new_state(masks(*hands), 0, g.Options(**options), match=Match(1, (0,) * 6, the_carry), phase=g.TRIBUTE)
    events = []
    s = g._skip_empty(s._replace(asking=g.payments(s), trick=Trick()), events)
    return s._replace(to_act=(s.asking[0].seat,)), events


def answer(state, seat, kind, cards=""):
    assert state.to_act == (seat,), (state.to_act, seat)
    state, events = G.apply(state, Action(seat, kind, pick(state, seat, cards) if cards else ()))
    return state, events


RICH = ["RJ BJ 2S 2H 3S 4S", "RJ BJ 2D 3H 4H", "BJ 2C 2S 3D 4D", "2H 3C 4C", "BJ 2D 3S 5S", "RJ RJ 2C 3H 5H"]


def test_gouji_rule_12_2_12_4_12_7_payments_in_order():
    s, _ = at_tribute(RICH, carry(opened=1))
    owed = [(a.to, a.seat, a.task, a.amount) for a in g.payments(s)]
    # 点贡 (12.4): 3 -> 0 two (only 0 opened), 4 <-> 1 and 5 <-> 2 one each; payers from the 头科 (12.2)
    assert owed == [(1, 4, g.T_DIAN, 1), (2, 5, g.T_DIAN, 1), (3, 0, g.T_DIAN, 2), (4, 1, g.T_DIAN, 1),
                    (5, 2, g.T_DIAN, 1), (4, 1, g.T_LUO, 1), (5, 0, g.T_LUO, 2)]  # 落贡 (12.7) last


def test_gouji_rule_12_2_4pl_order_and_men_shao_kinds():
    c = carry(opened=0b111111, shao=(0, 0, 1 << 5, 0, 0, 0), men=(-1, 3, -1, -1, -1, -1))
    s, _ = at_tribute(RICH, c)
    assert [(a.task, a.to, a.seat) for a in g.payments(s)] == [(g.T_MEN, 1, 3), (g.T_SHAO, 2, 5),
                                                              (g.T_LUO, 4, 1), (g.T_LUO, 5, 0)]
    s, _ = at_tribute(RICH, c, tribute_order="4pl_order")
    assert [a.task for a in g.payments(s)] == [g.T_SHAO, g.T_MEN, g.T_LUO, g.T_LUO]


def test_gouji_rule_12_1_12_3_the_highest_cards_are_offered_and_accepted():
    s, _ = at_tribute(RICH, carry(opened=0b111111))  # both opened everywhere: 落贡 only
    assert s.asking[0] == g.Ask(1, g.T_LUO, 4, 1)
    assert cardlib.format_cards(cardlib.from_mask(s.offer)) == "BJ"  # 12.1: 小花 before 钱
    view = G.view(s, 1)
    assert view.seats[4].cards["offered"] == cardlib.from_mask(s.offer)  # the receiver sees it
    assert "offered" not in G.view(s, 2).seats[4].cards
    s, events = answer(s, 1, "ACCEPT")
    assert events[0].type == "TRIBUTE" and events[0].values["accepted"] == 1
    assert s.hands[1] & s.received[1] and list(cardlib.ranks_of(cardlib.from_mask(s.received[1]))) == [13]
    assert s.asking[0] == g.Ask(0, g.T_LUO, 5, 2)
    assert cardlib.format_cards(cardlib.from_mask(s.offer)) == "RJ RJ"  # 大花 first


def test_gouji_rule_12_3_a_refused_tribute_stays_with_its_payer_and_only_the_two_know_it():
    s, _ = at_tribute(RICH, carry(opened=0b111111))
    offer, payer_hand = s.offer, s.hands[4]
    s, _ = answer(s, 1, "REFUSE")
    assert s.hands[4] == payer_hand and not s.received[1]
    known = G.knowledge(s)
    assert known.allowed(1) & offer == offer and known.allowed(2) & offer == 0
    assert not any(a.task == g.T_RETURN and a.seat == 1 for a in s.asking)  # nothing to return


def test_gouji_rule_12_8_return_small_cards_chosen_by_the_receiver():
    s, _ = at_tribute(RICH, carry(opened=0b111111))
    s, _ = answer(s, 1, "ACCEPT")
    s, _ = answer(s, 0, "ACCEPT")
    assert [a.task for a in s.asking] == [g.T_RETURN, g.T_RETURN]  # 12.8: after all tribute
    assert s.to_act == (1,) and s.asking[0] == g.Ask(1, g.T_RETURN, 4, 1)
    refused = G.check(s, Action(1, "RETURN", ids("2D")))
    assert not refused.legal and refused.reason == g.RETURN_NOT_ALLOWED
    assert G.check(s, Action(1, "ACCEPT")).reason == g.NOT_ASKED_THAT
    assert G.check(s, Action(1, "RETURN", ids("3H 4H"))).reason == g.RETURN_NOT_ALLOWED  # one card owed
    choices = {cardlib.format_cards(a.cards) for a, _ in G.legal_actions(s, 1)}
    assert choices == {"3H", "4H"}
    s, events = answer(s, 1, "RETURN", "4H")
    assert events[0].type == "RETURN" and events[0].values["to"] == 4 and s.hands[4] >> ids("4H")[0] & 1
    assert G.knowledge(s).allowed(4) >> ids("4H")[0] & 1 and not G.knowledge(s).allowed(3) >> ids("4H")[0] & 1


def test_gouji_rule_12_8_free_choice_and_lowest_only():
    s, _ = at_tribute(RICH, carry(opened=0b111111), return_cards="free_choice")
    s, _ = answer(s, 1, "ACCEPT")
    s, _ = answer(s, 0, "ACCEPT")
    assert G.check(s, Action(1, "RETURN", ids("2D"))).legal
    s, _ = at_tribute(RICH, carry(opened=0b111111), return_cards="lowest_only")
    s, _ = answer(s, 1, "ACCEPT")
    s, _ = answer(s, 0, "ACCEPT")
    assert [cardlib.format_cards(a.cards) for a, _ in G.legal_actions(s, 1)] == ["3H"]


def test_gouji_rule_12_1_a_payer_without_jokers_or_money_pays_nothing():
    hands = list(RICH)
    hands[4] = "3S 5S"
    s, events = at_tribute(hands, carry(opened=0b111111))
    assert [e.type for e in events] == ["NO_TRIBUTE"] and events[0].seat == 4
    assert s.asking[0] == g.Ask(0, g.T_LUO, 5, 2)


def test_gouji_rule_12_9_no_repass_tribute():
    # 4 receives a 大花 from 1 (点贡), then owes 1 a 落贡: by default he may pay it on
    hands = ["RJ 3S", "RJ 3H", "3D", "3C", "5S", "5H"]
    c = carry(order=(1, 0, 2, 3, 4, 5), opened=0b101101)  # 1 and 4 opened neither: they exchange one each
    s, _ = at_tribute(hands, c)
    assert s.asking[0].to == 1 and s.asking[0].seat == 4
    s, _ = answer(s, 4, "ACCEPT")
    assert s.asking[0] == g.Ask(1, g.T_DIAN, 4, 1) and s.offer  # 4 pays on the 大花 he received
    s, _ = at_tribute(hands, c, no_repass_tribute=True)
    s, events = answer(s, 4, "ACCEPT")
    assert "NO_TRIBUTE" in [e.type for e in events]  # 12.9 variant: nothing else to pay


def test_gouji_rule_8_1_yudian_before_the_deal_then_8_2_mingdian():
    s = G.deal(G.Options(), b"y" * 32)
    assert G.phase_name(s) == "yudian" and s.to_act == (0,) and not G.deal_events(s)
    assert all(not v.hand for v in G.views(s, range(6))) and G.knowledge(s).allowed(0) == 0
    s, _ = answer(s, 0, "DECLARE")
    for seat in range(1, 5):
        s, _ = answer(s, seat, "PASS")
    s, events = answer(s, 5, "PASS")
    assert [e.type for e in events].count("DEAL") == 6 and s.calls[0] == rules.YUDIAN
    assert G.phase_name(s) == "mingdian" and all(len(v.hand) == 36 for v in G.views(s, range(6)))
    asked = [a.seat for a in s.asking]
    # 8.1: no 明点 after 预点; 8.2 counter-clockwise from the first leader
    assert asked == [t for t in ((s.leader + k) % 6 for k in range(6)) if t != 0]
    s, _ = answer(s, asked[0], "DECLARE")
    assert s.calls[asked[0]] == rules.MINGDIAN


def geming(hands, leader=0, **options):
    s = g.new_state(masks(*hands), leader, g.Options(**options), phase=g.GEMING)
    return g._to_geming(s._replace(trick=Trick()), [])


POOR = ["RJ 4S", "5S 6S", "5H 6H", "2S 7S", "BJ 7H", "2H 8S"]


def test_gouji_rule_9_1_9_2_two_revolutionaries_void_the_round():
    s = geming(POOR)
    assert [a.seat for a in s.asking] == [1, 2]  # no joker and no 钱
    s, events = answer(s, 1, "REVOLT")
    s, events = answer(s, 2, "REVOLT")
    assert s.finished and s.void and "VOID" in [e.type for e in events]
    assert G.settle(s).outcome == "void" and G.settle(s).points == (0,) * 6
    nxt = G.next_round(s)
    assert nxt.round == s.match.round and nxt.number == s.match.number  # replayed, not counted
    s2 = geming(POOR, void_ju=True)
    s2, _ = answer(s2, 1, "REVOLT")
    s2, _ = answer(s2, 2, "REVOLT")
    assert G.next_round(s2).number == s2.match.number + 1  # the 局 is void


def test_gouji_rule_9_5_yaotou_makes_three_siji_that_close_the_trick():
    hands = ["RJ 4S", "5S 6S", "KS KH 4H 4D", "2S 7S", "BJ 7H", "2H 8S"]
    s = geming(hands)
    s, _ = answer(s, 1, "REVOLT")
    s, _ = answer(s, 2, "PASS")
    assert s.rev == 1 and s.to_act == (4,)  # the 对头 chooses
    s, events = answer(s, 4, "YAOTOU")
    assert s.yaotou_left == 3 and G.phase_name(s) == "playing" and s.to_act == (0,)
    s, _ = answer(s, 0, "PLAY", "4S")
    s, _ = answer(s, 2, "PASS")  # 1 is in 革命: not asked
    s, _ = answer(s, 3, "PASS")
    s, events = answer(s, 4, "PLAY", "BJ")  # a 够级牌 of the 要头 对头: a 够死级
    types = [e.type for e in events]
    assert "SIJI" in types and "TRICK_WON" in types and s.yaotou_left == 2 and s.to_act == (4,)


def test_gouji_rule_9_5_wutou_and_9_4_17_3_revolution_opens_for_the_duitou():
    s = geming(POOR)
    s, _ = answer(s, 1, "REVOLT")
    s, _ = answer(s, 2, "PASS")
    s, events = answer(s, 4, "PASS")
    assert s.yaotou_left == 0 and events[0].values["yaotou"] == 0
    assert not rules.has_head(4, g.active(s), s.rev, 0)  # 11.5: 无头 at once
    s, _ = G.apply(s, Action(0, "ABANDON"))
    s, _ = G.apply(s, Action(2, "ABANDON"))
    s, _ = G.apply(s, Action(4, "ABANDON"))
    assert s.finished
    c = G._carry(s)
    assert c.opened >> 4 & 1 and not c.opened >> 1 & 1  # 17.3


def test_gouji_rule_9_3_the_revolutionary_takes_sanke_after_his_mates_take_touke_and_erke():
    s = g.new_state(masks("RJ", "5S 5C", "RJ", "5H 6H", "RJ 4S", "6S"), 0)
    s = s._replace(revolution=1 << 4, rev=4)
    s, _ = answer(s, 0, "PLAY", "RJ")  # closes at once (3.4); 0 out: 头科
    s, _ = answer(s, 1, "PLAY", "5S")  # 接风
    s, _ = answer(s, 2, "PLAY", "RJ")
    assert (s.places[0], s.places[2], s.places[4]) == (1, 2, 3)  # 9.3: 三科 for the revolutionary
    assert s.finished and rules.chuan_san_hu(g.order_of(s)) and G.settle(s).points[4] == 12


def test_gouji_rule_9_3_sike_is_skipped_while_reserved():
    s = g.new_state(masks("RJ", "RJ", "5S 5H", "RJ 5D", "6S 6H 7S", "6D"), 0)
    s = s._replace(revolution=1 << 4, rev=4)
    s, _ = answer(s, 0, "PLAY", "RJ")
    s, _ = answer(s, 1, "PLAY", "RJ")
    s, _ = answer(s, 2, "PLAY", "5S")
    s, _ = answer(s, 3, "PLAY", "RJ")  # not out: 5D left
    s, _ = answer(s, 3, "PLAY", "5D")
    assert (s.places[0], s.places[1], s.places[3]) == (1, 2, 3)
    s, _ = answer(s, 5, "PLAY", "6D")
    assert s.places[5] == 5  # 四科 skipped
    assert s.finished and s.places[4] == 4 and s.places[2] == 6


def test_gouji_rule_7_2_maisan_buys_from_the_duitou_and_only_the_two_see_it():
    s = g.new_state(masks("2S 5S", "3S", "3H", "3D 3C", "3S 3H", "3D"), 0, g.Options(biesan=True))
    events = []
    s = g._maisan(s, events)
    assert [(e.type, e.seat, e.values["seller"]) for e in events] == [("MAISAN", 0, 3)]
    three, two = ids("3D")[0], ids("2S")[0]
    assert s.hands[0] & THREE_MASK and s.hands[3] >> two & 1
    known = G.knowledge(s)
    moved = cardlib.to_mask(events[0].cards)
    assert known.allowed(0) & moved == moved and known.allowed(3) & moved == moved
    assert known.allowed(1) & moved == 0 and s.hands[3] >> three & 1 == 0


THREE_MASK = rules.NOTATION.rank_masks[0]


def test_gouji_rule_7_2_teammate_free_and_7_3_no_money_is_revolution():
    s = g.new_state(masks("2S 5S", "6S", "3H 3S", "4D", "3S 3H", "3D"), 0, g.Options(biesan=True, teammate_free=True))
    events = []
    s = g._maisan(s, events)
    sold = {e.seat: (e.values["seller"], len(e.cards)) for e in events if e.type == "MAISAN"}
    assert sold[0] == (2, 1)  # nobody but the team-mate 2 holds two 3s: given for nothing
    assert [e.seat for e in events if e.type == "REVOLT"] == [1, 3]  # 7.3


def test_gouji_rule_7_4_threes_only_last_and_all_at_once():
    s = g.new_state(masks("3S 3H 5S", "6S", "7S", "8S", "9S", "TS"), 0, g.Options(biesan=True))
    assert G.check(s, Action(0, "PLAY", ids("3S"))).reason == g.THREES_LAST
    assert all(not any(cardlib.card_rank(c) == 0 for c in a.cards) for a, _ in G.legal_actions(s, 0))
    s2 = g.new_state(masks("3S 3H", "6S", "7S", "8S", "9S", "TS"), 0, g.Options(biesan=True))
    assert G.check(s2, Action(0, "PLAY", ids("3S"))).reason == g.THREES_LAST
    assert G.check(s2, Action(0, "PLAY", ids("3S 3H"))).legal


def test_gouji_rule_7_5_men_to_the_first_beater_then_paid_next_round():
    s = g.new_state(masks("5S 3S", "6S 7S", "4S 4H", "4D 4C", "4S 4H", "8S"), 0, g.Options(biesan=True))
    s, _ = answer(s, 0, "PLAY", "5S")
    s, _ = answer(s, 1, "PLAY", "6S")
    for seat in (2, 3, 4):
        s, _ = answer(s, seat, "PASS")
    s, _ = answer(s, 5, "PLAY", "8S")  # out
    for seat in (0, 1, 2):  # 2: the 对头 of 5 is asked again (10.3)
        s, _ = answer(s, seat, "PASS")
    s, events = answer(s, 0, "PLAY", "3S")  # 接风, then his 3s
    assert s.men[0] == 1 and ("MEN", 0) in [(e.type, e.seat) for e in events]


def test_gouji_rule_7_5_men_to_duitou():
    s = g.new_state(masks("5S 3S", "6S 7S", "4S 4H", "4D 4C", "4S 4H", "8S"), 0,
                    g.Options(biesan=True, men_to_duitou=True))
    for seat, move in ((0, "5S"), (1, "6S"), (2, ""), (3, ""), (4, ""), (5, "8S"), (0, ""), (1, ""), (2, ""),
                       (0, "3S")):
        s, _ = answer(s, seat, "PLAY" if move else "PASS", move)
    assert s.men[0] == 3


def test_gouji_rule_7_5_men_is_daluo_at_once():
    s = g.new_state(masks("5S 3S", "6S 9S", "4S", "4H", "4D", "4C"), 0,
                    g.Options(biesan=True, men_is_daluo=True))
    s, _ = answer(s, 0, "PLAY", "5S")
    s, events = answer(s, 1, "PLAY", "6S")
    assert "MEN" in [e.type for e in events] and s.men[0] == 1 and s.places[0] == 6 and s.failed >> 0 & 1


def test_gouji_rule_18_1_team_sees_at_10():
    hands = ["5S 6S", "5H 6H", "7S 8S", "7H 8H", "9S TS", "9H TH"]
    s = g.new_state(masks(*hands), 0, g.Options(team_sees_at_10=True))
    views = G.views(s, range(6))
    assert views[0].seats[2].cards["hand"] == cardlib.from_mask(s.hands[2])
    assert "hand" not in views[0].seats[1].cards and "hand" not in views[1].seats[0].cards
    s = g.new_state(masks(*hands), 0, g.Options())
    assert "hand" not in G.view(s, 0).seats[2].cards
    game_contract.check_views(G, s)


def test_gouji_rule_15_6_a_leaver_in_the_tribute_phase_drops_his_questions():
    s, _ = at_tribute(RICH, carry(opened=0b111111))
    s, events = G.apply(s, Action(4, "ABANDON"))
    assert s.places[4] == 6 and s.asking[0] == g.Ask(0, g.T_LUO, 5, 2) and s.to_act == (0,)
    before = at_tribute(RICH, carry(opened=0b111111))[0]
    game_contract.check_abandon_policy(G, before, s, 4)


def test_gouji_rule_5_1_ju_length_and_chuan_san_hu_end_the_ju():
    s = g.new_state(masks("RJ", "5S 5H", "RJ", "5D 6H", "RJ", "6S 6D"), 0, g.Options(ju_length=3))
    for seat, move in ((0, "RJ"), (1, "5S"), (2, "RJ"), (3, "5D"), (4, "RJ")):
        s, _ = answer(s, seat, "PLAY", move)
    assert s.finished and rules.chuan_san_hu(g.order_of(s)) and G.match_over(s)  # 15.4
    nxt = G.next_round(s)
    assert nxt.round == 0 and nxt.number == 1 and nxt.carry.places[0] == 0
    fresh = G.deal(G.Options(), b"n" * 32, match=nxt)
    assert not g.payments(fresh) and fresh.to_act == (0,)  # 5.1: no tribute in a 局's first 回合; 6.2


def test_gouji_rule_5_1_a_ju_of_ju_length_rounds():
    s = g.new_state(masks("RJ", "5S", "6S", "5D", "7S", "6D"), 0, g.Options(ju_length=2))
    s, _ = answer(s, 0, "PLAY", "RJ")
    s, _ = G.apply(s, Action(2, "ABANDON"))
    s, _ = G.apply(s, Action(4, "ABANDON"))  # 15.6: 大落 and 二落; 1, 3 and 5 are one team
    assert s.places[2] == 6 and s.places[4] == 5
    assert s.finished and not rules.chuan_san_hu(g.order_of(s))
    assert not G.match_over(s)
    nxt = G.next_round(s)
    assert nxt.round == 1 and g.Carry(*nxt.carry).places == g.order_of(s)
    assert G.match_over(s._replace(match=nxt))


def play_out(state, rnd, abandon=0.0, check=True):
    steps = 0
    while not state.finished:
        seat = state.to_act[0]
        legal = G.legal_actions(state, seat)
        action = rnd.choice(legal)[0]
        if rnd.random() < abandon:
            action = Action(rnd.randrange(6), "ABANDON")
            if G.left(state) >> action.seat & 1:
                continue
        before = state
        state, events = G.apply(state, action)
        steps += 1
        assert steps < game_contract.MAX_STEPS
        if check:
            game_contract.check_cards_conserved(G, state)
            game_contract.check_events(G, before, state, events)
            if steps % 7 == 0 or before.phase != state.phase:
                game_contract.check_views(G, state)
                game_contract.check_legal_actions(G, state) if not state.finished else None
                game_contract.check_pack_round_trip(G, state)
                game_contract.check_packed_size(G, state)
            if action.kind == "ABANDON":
                game_contract.check_abandon_policy(G, before, state, action.seat)
    game_contract.check_settlement(G, state)
    return state


def play_ju(seed: int, options, abandon=0.0, check=True):
    rnd = random.Random(seed)
    match, rounds, totals = Match(0, (0,) * 6), [], [0] * 6
    while True:
        s = G.deal(options, seed.to_bytes(4, "big") + bytes([len(rounds)]) * 28, match=match)
        s = play_out(s, rnd, abandon, check)
        rounds.append(s)
        points = G.settle(s).points
        assert sum(points) == 0
        if not s.void:
            assert sorted(s.places) == [1, 2, 3, 4, 5, 6]
            assert len({points[t] for t in (0, 2, 4)}) == 1 and len({points[t] for t in (1, 3, 5)}) == 1
        nxt = G.next_round(s)
        if nxt.number != match.number:
            return rounds
        assert nxt.totals == tuple(a + b for a, b in zip(match.totals, points))
        match = nxt
        assert len(rounds) < 40


@pytest.mark.parametrize("preset", ["gouji", "4pl", "kelei"])
@pytest.mark.parametrize("seed", range(3))
def test_gouji_whole_ju_under_the_contract(preset, seed):
    rounds = play_ju(seed, G.make_options(preset, {"ju_length": 3}), abandon=0.003)
    counted = [r for r in rounds if not r.void]
    assert len(counted) == 3 or rules.chuan_san_hu(g.order_of(counted[-1]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 16), biesan=st.booleans(), sees=st.booleans(), wind=st.booleans())
def test_gouji_hypothesis_ju_playouts_conserve_cards_and_balance(seed, biesan, sees, wind):
    options = G.make_options("", {"biesan": biesan, "team_sees_at_10": sees, "partner_catches_wind": wind,
                                  "ju_length": 2})
    rounds = play_ju(seed, options, abandon=0.002, check=False)
    for r in rounds:
        assert sorted(c for zone in G.card_zones(r).values() for c in zone) == list(range(216))


def test_gouji_capabilities_classify_compare_and_hints():
    o = G.Options()
    assert [c.kind for c in G.classify("RJ RJ TH TS TD", o)] == ["gouji"] and not G.classify("5S 6S", o)
    assert G.compare("9S 9H 9D 9C 9S", "2S 2H 8S 8H 8D", o)[0]  # 3.3: five 9s beat 2×钱 + 3×8
    assert G.compare("RJ RJ TH TS TD", "BJ BJ 9H 9S 9D", o)[0]
    assert not G.compare("RJ RJ 8H 8S 8D", "BJ BJ 9H 9S 9D", o)[0]
    with pytest.raises(Exception):
        G.compare("5S 6S", "7S", o)
    assert G.hint_strings("5S 5H 2S BJ", "", o) == [rules.play_text(p) for p in
                                                    rules.hot.free_leads(*rules.counts_of([2, 2, 12, 13]))]
    # a 够级牌 not from the 对头 is answered by burns only (13.3 d): two naturals and no joker left fail
    hand = "QS QH QD 2S 4S 5H"
    assert "2QQQ" in G.hint_strings(hand, "JS JH JD JC", o, {"duitou": "1"})
    assert "2QQQ" not in G.hint_strings(hand, "JS JH JD JC", o)
    big = " ".join(["RJ", "RJ", "BJ", "BJ", "2S", "2H", "2D"] + [f"{r}S {r}H {r}D" for r in "3456789TJQKA"][:9])
    hints = G.hint_strings(big, "", o)
    assert len(rules.hot.free_leads(*rules.counts_of(rules.NOTATION.ranks_of(ids(big))))) > g.HINT_LIMIT
    assert hints[0].startswith("3") and all("+2:0-3 +B:0-2 +R:0-2" in h for h in hints)


def test_gouji_dealt_record_is_the_shuffle_dealt_from_the_start_seat():
    s = G.deal(G.Options(), b"d" * 32, match=Match(1, (0,) * 6, carry(order=(3, 1, 2, 0, 4, 5))))
    cards, values = G.dealt(s)
    assert values["start"] == 3 and s.to_act == (3,)  # 6.2: from the previous 头科
    for _ in range(6):
        s, events = G.apply(s, Action(s.to_act[0], "PASS"))
    dealt = {f"seat{e.seat}": set(e.cards) for e in events if e.type == "DEAL"}
    assert {k: set(v) for k, v in cards.items()} == dealt and values["first_leader"] == s.leader


def _siji_table(**options):
    s = g.new_state(masks("5S", "6S", "7S", "8S", "KS KH 9S", "AS AH RJ"), 4, g.Options(**options))
    return s._replace(revolution=1 << 1, rev=1, yaotou_left=3)


def test_gouji_rule_9_5_siji_closes_the_trick_by_default():
    s, events = answer(_siji_table(), 4, "PLAY", "KS KH")
    assert "SIJI" in [e.type for e in events] and s.to_act == (4,) and not s.trick.top


def test_gouji_variant_g10_kelei_burnable_siji_may_be_burned():
    s, events = answer(_siji_table(kelei_burnable=True), 4, "PLAY", "KS KH")
    assert "SIJI" in [e.type for e in events] and s.to_act == (5,) and g.right_of(s, 5) == g.BURN
    s, events = answer(s, 5, "PLAY", "AS AH")
    assert "BURN" in [e.type for e in events] and s.burns[5] == 4


def _opening(play, **options):
    s = g.new_state(masks(play + " 5S", "6S", "7S", "8S", "9S", "TS"), 0, g.Options(**options))
    s, _ = answer(s, 0, "PLAY", play)
    while s.to_act != (0,):
        s, _ = answer(s, s.to_act[0], "PASS")
    return s.opened >> 0 & 1


def test_gouji_rule_17_1_and_variants_g21_what_opens():
    assert _opening("QS QH 2S") and _opening("2S 2H")  # 17.1: a protected 够级牌 still on top
    assert not _opening("QS QH 2S", exclude_attached_2=True) and _opening("2S 2H", exclude_attached_2=True)
    assert not _opening("2S 2H", exclude_pure_2=True) and _opening("QS QH 2S", exclude_pure_2=True)
    assert not _opening("9S 9H")  # no 够级牌


def test_gouji_variant_g5_daluo_leads_in_the_ju_s_later_rounds():
    s = G.deal(G.Options(first_leader="daluo_leads"), b"l" * 32, match=Match(1, (0,) * 6, carry(opened=63)))
    for _ in range(6):
        s, _ = G.apply(s, Action(s.to_act[0], "PASS"))
    assert s.leader == 5  # the previous 大落


def test_gouji_variant_g14_exchange_one_each():
    s, _ = at_tribute(RICH, carry(opened=0b111111), exchange_one_each=True)
    dian = [(a.to, a.seat, a.amount) for a in g.payments(s) if a.task == g.T_DIAN]
    assert sorted(dian) == [(0, 3, 1), (1, 4, 1), (2, 5, 1), (3, 0, 1), (4, 1, 1), (5, 2, 1)]


def test_gouji_rule_6_3_a_first_leader_in_revolution_passes_the_lead():
    s = geming(POOR, leader=1)
    s, _ = answer(s, 1, "REVOLT")
    s, _ = answer(s, 2, "PASS")
    s, events = answer(s, 4, "PASS")
    assert s.to_act == (2,) and ("LEAD", 2) in [(e.type, e.seat) for e in events]
