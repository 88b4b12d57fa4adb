"""够级, one 回合 of trick play (the draft ``core/games/gouji/game.py``, not registered): scenarios
named after the spec's rules, and random playouts checking invariants."""
import random

import pytest

from referee.core import cards as cardlib
from referee.core.errors import IllegalAction, InvalidAction
from referee.core.game import Action
from referee.core.games.gouji import game as g
from referee.core.games.gouji.game import GOUJI

G = GOUJI


def ids(text):
    return cardlib.parse_cards(text, 4)


def start(*hands, leader=0, **options):
    return g.new_state([cardlib.to_mask(ids(h)) for h in hands], leader, g.Options(**options))


def play(state, seat, text):
    assert state.to_act == (seat,), (state.to_act, seat)
    state, events = G.apply(state, Action(seat, "PLAY", ids(text)))
    return state, [e.type for e in events]


def pass_(state, seat):
    assert state.to_act == (seat,), (state.to_act, seat)
    state, events = G.apply(state, Action(seat, "PASS"))
    return state, [e.type for e in events]


BURN_HANDS = ("TS TH TD TC TS 4S 4H", "JS JH JD JC JS BJ 3S", "5S 5H", "6S 6H", "7S 7H", "8S 8H")


def burned():
    s = start(*BURN_HANDS)
    s, _ = play(s, 0, "TS TH TD TC TS")
    s, ev = play(s, 1, "JS JH JD JC JS")
    assert "BURN" in ev and s.burns[1] == 0
    for seat in (2, 3, 4, 5, 0):
        s, ev = pass_(s, seat)
    assert "TRICK_WON" in ev and s.to_act == (1,)
    return s


def test_gouji_rule_13_7_a_burn_that_plays_out_owes_shao_gong():
    s = burned()
    assert s.opened >> 1 & 1  # 17.1: the burn stood
    s, _ = play(s, 1, "BJ")
    for seat in (2, 3, 4, 5, 0):
        s, _ = pass_(s, seat)
    s, ev = play(s, 1, "3S")
    assert "BURN_SUCCEEDED" in ev and s.places[1] == 1 and s.shao[0] == 1 << 1


def test_gouji_rule_13_8_a_burner_leading_without_a_joker_fails():
    s = burned()
    s, ev = play(s, 1, "3S")
    assert "BURN_FAILED" in ev and s.places[1] == 6 and s.failed == 1 << 1
    assert s.to_act == (0,) and not s.trick.top  # the trick ended at once; the burned player leads


def test_gouji_rule_13_5_no_fanshao_and_11_1_team_mates_pass_only():
    s = start(*BURN_HANDS[:2], "5S 5H", "6S 6H", "7S 7H", "8S 8H")
    s, _ = play(s, 0, "TS TH TD TC TS")
    assert g.right_of(s, 2) == g.PASS_ONLY and g.right_of(s, 4) == g.PASS_ONLY and g.right_of(s, 3) == g.BEAT
    s, _ = play(s, 1, "JS JH JD JC JS")
    assert g.right_of(s, 0) == g.PASS_ONLY  # the burned player may not burn back


def test_gouji_rule_13_3_d_a_burn_the_hand_cannot_follow_is_refused():
    s = start("TS TH TD TC TS 4S", "JS JH JD JC JS 3S 4S", "5S", "6S", "7S", "8S")
    s, _ = play(s, 0, "TS TH TD TC TS")
    with pytest.raises(IllegalAction):
        G.apply(s, Action(1, "PLAY", ids("JS JH JD JC JS")))
    assert all(a.kind != "PLAY" for a, _ in G.legal_actions(s, 1))


def test_gouji_rule_13_4_the_burners_duitou_cancels_the_burn():
    s = start(BURN_HANDS[0], BURN_HANDS[1], "5S 5H", "6S 6H", "QS QH QD QC QS 7S", "8S 8H")
    s, _ = play(s, 0, "TS TH TD TC TS")
    s, _ = play(s, 1, "JS JH JD JC JS")
    s, _ = pass_(s, 2)
    s, _ = pass_(s, 3)
    s, ev = play(s, 4, "QS QH QD QC QS")
    assert "BURN_CANCELLED" in ev and s.burns[1] == -1


def test_gouji_rule_10_5_yield_then_asked_again():
    s = start("TS TH TD TC TS 4S", "5S", "6S", "JS JH JD JC JS 9S", "7S", "8S")
    s, _ = play(s, 0, "TS TH TD TC TS")
    s, _ = pass_(s, 1)
    s, _ = pass_(s, 2)
    assert any(a.kind == "YIELD" for a, _ in G.legal_actions(s, 3))
    s, ev = G.apply(s, Action(3, "YIELD"))
    s, _ = pass_(s, 4)
    s, _ = pass_(s, 5)
    assert s.to_act == (3,) and all(a.kind != "YIELD" for a, _ in G.legal_actions(s, 3))
    s, _ = play(s, 3, "JS JH JD JC JS")
    assert s.to_act == (0,)  # only the 对头 may answer: everyone else has passed


def test_gouji_rule_10_3_a_pass_bars_but_on_the_duitou():
    s = start("4S 9S", "5S TS", "6S JS", "7S QS", "8S KS", "3S AS")
    s, _ = play(s, 0, "4S")
    s, _ = pass_(s, 1)
    s, _ = play(s, 2, "6S")
    s, _ = pass_(s, 3)
    s, _ = pass_(s, 4)
    s, _ = play(s, 5, "AS")
    # 1 passed; 5 is not his 对头 (4 is): 1 is not asked; 2's 对头 is 5: 2 is asked
    assert s.to_act == (0,)
    s, _ = pass_(s, 0)
    assert s.to_act == (2,)


def test_gouji_rule_3_4_a_big_joker_closes_the_trick():
    s = start("RJ 4S", "5S", "6S", "7S", "8S", "9S")
    s, ev = play(s, 0, "RJ")
    assert "TRICK_WON" in ev and s.to_act == (0,)


def test_gouji_rule_15_2_jiefeng_to_the_next_active_seat():
    s = start("RJ", "5S 5H", "6S 6H", "7S 7H", "8S 8H", "9S 9H")
    s, ev = play(s, 0, "RJ")
    assert s.places[0] == 1 and s.to_act == (1,)


def test_gouji_variant_g23_partner_catches_wind():
    s = start("RJ", "5S 5H", "6S 6H", "7S 7H", "8S 8H", "9S 9H", partner_catches_wind=True)
    s, ev = play(s, 0, "RJ")
    assert s.to_act == (2,)


def test_gouji_rule_15_4_16_2_a_round_ends_when_one_team_is_left_chuan_san_hu():
    s = start("RJ", "5S 5H", "RJ", "6S 6H", "RJ", "7S 7H")
    s, _ = play(s, 0, "RJ")  # out first (头科); 3.4 closes the trick; 接风 to 1
    s, _ = play(s, 1, "5S")
    s, _ = play(s, 2, "RJ")  # 二科
    s, _ = play(s, 3, "6S")
    s, ev = play(s, 4, "RJ")  # 三科: only team 1 is left
    assert s.finished and "FINISH" in ev
    assert s.places[0::2] == (1, 2, 3) and sorted(s.places) == [1, 2, 3, 4, 5, 6]
    assert G.settle(s).points == (12, -12, 12, -12, 12, -12)


def test_gouji_rule_15_3_the_last_places_by_cards_left():
    s = start("RJ", "5S 5H 5D", "RJ", "6S", "RJ", "7S 7H")
    s, _ = play(s, 0, "RJ")
    s, _ = play(s, 1, "5S")
    s, _ = play(s, 2, "RJ")
    s, _ = play(s, 3, "6S")  # out: 三科
    assert s.places[3] == 3 and not s.finished
    s, _ = play(s, 4, "RJ")  # 四科: only team 1 is left, 1 and 5 with two cards each
    assert s.finished
    assert s.places[5] == 5 and s.places[1] == 6  # a tie: counter-clockwise after the last out (4)


def test_gouji_every_variant_is_accepted_and_nonsense_refused():
    assert G.make_options("", {"biesan": True, "men_is_daluo": True}).men_is_daluo
    assert G.make_options("", {"team_sees_at_10": True, "kelei_burnable": True}).team_sees_at_10
    with pytest.raises(InvalidAction):
        G.make_options("", {"men_is_daluo": True})  # 闷 exists only in 憋三 mode


@pytest.mark.parametrize("k", range(30))
def test_gouji_random_round_invariants(k):
    rnd = random.Random(k)
    s = G.deal(G.Options(), bytes([k]) * 32)
    steps = 0
    while not s.finished:
        seat = s.to_act[0]
        acts = G.legal_actions(s, seat)
        a = acts[0][0] if acts[0][0].kind == "PASS" and rnd.random() < 0.3 else rnd.choice(acts)[0]
        if rnd.random() < 0.002:
            a = Action(seat, "ABANDON")
        s, _ = G.apply(s, a)
        steps += 1
        assert sorted(c for ids in G.card_zones(s).values() for c in ids) == list(range(216))
        assert steps < 5000
    assert G.unpack(G.pack(s)) == s
    assert sorted(s.places) == ([0] * 6 if s.void else [1, 2, 3, 4, 5, 6])
    points = G.settle(s).points
    assert sum(points) == 0 and len({points[t] for t in (0, 2, 4)}) == 1


def test_gouji_rule_14_luanchan_no_bars_no_protection():
    # 0 and 2 go out at once (big jokers): four active, 四人乱缠
    s = start("RJ", "5S 5H", "RJ", "6S 9S", "TS TH TD TC TS 4S", "7S 8S")
    s, _ = play(s, 0, "RJ")
    s, _ = play(s, 1, "5S")
    s, _ = play(s, 2, "RJ")
    assert g.luanchan(s) and s.to_act == (3,)
    s, _ = play(s, 3, "6S")
    s, _ = pass_(s, 4)
    s, _ = play(s, 5, "7S")
    s, _ = pass_(s, 1)
    assert s.to_act == (3,)
    s, _ = play(s, 3, "9S")  # 3 played before; 4 passed before and is asked again (14.3)
    assert s.to_act == (4,)


def test_gouji_rule_11_6_a_headless_neighbour_beats_directly_no_burn():
    # 4 is out (no cards): 1, whose 对头 is 4, is headless; five active, not 四人乱缠
    s = start("TS TH TD TC TS 4S", "JS JH JD JC JS 5S 6S 7S", "RJ 3S", "8S", "", "9S")
    s, _ = play(s, 0, "TS TH TD TC TS")  # 0 has a head (3 is active): protected
    assert s.protected and g.right_of(s, 1) == g.BEAT and g.right_of(s, 5) == g.BURN
    s, ev = play(s, 1, "JS JH JD JC JS")  # three natural ranks left, no joker: a direct beat, no burn
    assert "BURN" not in ev and s.burns[1] == -1
    assert not s.protected  # 1 is headless: his 够级牌 is an ordinary play (11.5)


def test_gouji_rule_10_5_after_a_yield_a_downstream_neighbour_burns():
    s = start("TS TH TD TC TS 4S", "5S", "6S", "JS JH JD JC JS", "7S", "QS QH QD QC QS BJ")
    s, _ = play(s, 0, "TS TH TD TC TS")
    s, _ = pass_(s, 1)
    s, _ = pass_(s, 2)
    s, _ = G.apply(s, Action(3, "YIELD"))
    s, _ = pass_(s, 4)
    s, ev = play(s, 5, "QS QH QD QC QS")
    assert "BURN" in ev and s.burns[5] == 0
    assert s.trick.barred >> 3 & 1  # the yield counts as 3's pass
    # only the burner's 对头 (2) may answer; 0, the burned player, may not burn back
    assert s.to_act == (0,) and g.right_of(s, 0) == g.PASS_ONLY


def test_gouji_rule_14_1_luanchan_starts_within_the_trick_and_lifts_bars():
    s = start("4S 9S 9H", "7S 8S", "5S", "6S", "3S 3H", "3D 3C")
    s, _ = play(s, 0, "4S")
    s, _ = pass_(s, 1)  # barred (6 active)
    s, _ = play(s, 2, "5S")  # out
    s, _ = play(s, 3, "6S")  # out: four active, 四人乱缠 within this trick
    assert g.luanchan(s) and not s.finished
    for seat in (4, 5, 0):
        s, _ = pass_(s, seat)
    assert s.to_act == (1,)  # his earlier pass no longer bars him (14.3)
    s, _ = play(s, 1, "7S")
