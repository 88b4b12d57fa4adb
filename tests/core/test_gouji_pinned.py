"""够级 pinned (``make mutate GAME=gouji``): what the first survivors showed no test asserted."""
import pytest

from referee.core import cards as cardlib
from referee.core.errors import InvalidAction, Reason
from referee.core.game import Action, Combo, Match
from referee.core.games.gouji import game as g
from referee.core.games.gouji import rules
from referee.core.games.gouji.game import GOUJI as G

from test_gouji_ju import RICH, answer, at_tribute, carry, masks, pick  # noqa: E402
from test_gouji_round import burned  # noqa: E402
from test_gouji_round_pieces import deal_race_first  # noqa: E402


REVOLT_HANDS = ("RJ 4S 4H", "5S 6S", "BJ 5H 6H", "2S 7S", "QS QH QD 8S 2H", "2D 9S")  # of seats rev-1 .. rev+4


def _revolted(rev=1, options=g.Options()):
    """rev holds no joker and no 钱 and revolts (9.1); his 对头, holding three Qs, is asked 要头."""
    duitou = rules.opposite(rev)
    s = g.new_state(masks(*(REVOLT_HANDS[(seat - rev + 1) % 6] for seat in range(6))), duitou, options,
                    phase=g.GEMING)
    s = g._to_geming(s._replace(trick=g.Trick()), [])
    s, _ = answer(s, rev, "REVOLT")
    return s


SINGLES = ("5S", "6S", "7S", "8S", "9S", "JS")  # a card for each seat
# the hands of seats owner .. owner+5: owner leads five 10s, his 对头 holds five Js, owner+5 can burn
YIELD_HANDS = ("TS TH TD TC TS 4S", "5S 5H", "6S 6H", "JS JH JD JC JS", "7S 7H", "QS QH QD QC QS BJ")


def _tens_led_by(owner):
    """``owner`` leads a protected 够级牌, five 10s, the seats holding YIELD_HANDS from him on."""
    s = g.new_state(masks(*(YIELD_HANDS[(seat - owner) % 6] for seat in range(6))), owner)
    s, _ = answer(s, owner, "PLAY", "TS TH TD TC TS")
    return s


def _duitou_asked_first(owner=0):
    """``owner`` leads a protected 够级牌 (five 10s); his 下家 and his team-mate pass: his 对头 is the
    first seat asked that may beat it, every seat before him on it has passed (10.5)."""
    s, _ = answer(_tens_led_by(owner), (owner + 1) % 6, "PASS")
    s, _ = answer(s, (owner + 2) % 6, "PASS")
    return s


def test_gouji_codec_declarations_bound_the_flags_and_the_phase():
    s = g.new_state(masks("5S", "6S", "7S", "8S", "9S", "TS"), 0)
    for bad in (s._replace(close=2), s._replace(close=-1), s._replace(phase=6), s._replace(phase=-1),
                s._replace(siji=2), s._replace(void=2), s._replace(void=-1),
                s._replace(yaotou_left=-1), s._replace(yaotou_left=4)):  # 9.5: 0..3 够死级
        assert G.codec.conforms(bad)
    assert not G.codec.conforms(s._replace(close=1, phase=5, siji=1, void=1))


def test_gouji_rule_15_6_a_leader_who_leaves_passes_the_lead_to_the_next_active_seat():
    s = g.new_state(masks("5S 5H", "6S 6H", "7S", "8S", "9S", "TS"), 0)
    s, _ = G.apply(s, Action(0, "ABANDON"))
    assert s.to_act == (1,) and s.trick.leader == 1
    s, _ = G.apply(s, Action(1, "ABANDON"))
    assert s.to_act == (2,)


def test_gouji_an_ordinary_play_starts_no_burn_and_a_trick_won_clears_the_burning_top():
    s = g.new_state(masks("5S 6D", "6S 6H", "7S", "8S", "9S", "TS"), 0)
    s, _ = answer(s, 0, "PLAY", "5S")
    assert s.burn_top == -1 and s.burns == (-1,) * 6
    s = g.new_state(masks("TS TH TD TC TS 4S 4H", "JS JH JD JC JS BJ 3S", "5S 5H", "6S 6H", "7S 7H", "8S 8H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, _ = answer(s, 1, "PLAY", "JS JH JD JC JS")
    assert s.burn_top == 1
    for seat in (2, 3, 4, 5, 0):
        s, events = answer(s, seat, "PASS")
    assert "TRICK_WON" in [e.type for e in events] and s.burn_top == -1 and s.burns[1] == 0


@pytest.mark.parametrize("owner", [0, 3])  # owner 3: seat 0 yields
def test_gouji_rule_10_5_a_yield_beaten_downstream_leaves_no_yield_behind(owner):
    # the 对头 yields, owner+4 passes, owner+5 burns (13.9)
    duitou = (owner + 3) % 6
    s, _ = answer(_duitou_asked_first(owner), duitou, "YIELD")
    assert s.yielded == duitou and s.to_act == ((owner + 4) % 6,)
    s, _ = answer(s, (owner + 4) % 6, "PASS")
    s, events = answer(s, (owner + 5) % 6, "PLAY", "QS QH QD QC QS")
    assert "BURN" in [e.type for e in events] and s.yielded == -1
    assert s.trick.barred >> duitou & 1  # the yield counted as the 对头's pass


@pytest.mark.parametrize("owner", [0, 3])  # owner 3: seat 0 yields
def test_gouji_rule_10_5_a_yielder_asked_again_must_beat_or_pass(owner):
    duitou = (owner + 3) % 6
    s, _ = answer(_duitou_asked_first(owner), duitou, "YIELD")
    s, _ = answer(s, (owner + 4) % 6, "PASS")
    s, _ = answer(s, (owner + 5) % 6, "PASS")
    assert s.to_act == (duitou,) and G.check(s, Action(duitou, "YIELD")).reason == g.YIELD_NOT_ALLOWED
    assert {a.kind for a, _ in G.legal_actions(s, duitou)} == {"PASS", "PLAY"}


def test_gouji_rule_13_4_a_duitou_beating_a_play_that_burns_nothing_cancels_nothing():
    s, events = answer(_duitou_asked_first(), 3, "PLAY", "JS JH JD JC JS")  # 11.2 (3 goes out)
    assert [e.type for e in events] == ["PLAY", "OUT"] and s.burns == (-1,) * 6 and s.to_act == (4,)


def test_gouji_variant_g5_daluo_leads_is_not_used_in_a_ju_s_first_round():
    for k in range(40):
        seed = bytes([k]) * 32
        shangban = rules.deal(seed, b"", rules.Options())[1]
        if shangban:
            break
    s = G.deal(G.Options(first_leader="daluo_leads"), seed)
    for _ in range(6):
        s, _ = G.apply(s, Action(s.to_act[0], "PASS"))
    assert s.leader == shangban != 0


@pytest.mark.parametrize("inside, outside", [(1, 0), (100, 101)])  # ju_length's declared 1..100 (5.1, G-6)
def test_gouji_check_accepts_an_option_at_its_bounds_and_refuses_one_past(inside, outside):
    assert rules.options_of({"ju_length": inside}).ju_length == inside
    with pytest.raises(InvalidAction):
        rules.options_of({"ju_length": outside})
    assert G.codec.conforms(g.new_state(masks(*SINGLES), 0, g.Options(ju_length=inside))) == []


def test_gouji_next_round_counts_the_round_and_sums_the_totals():
    s = g.new_state(masks("RJ", "5S", "6S", "5D", "7S", "6D"), 0, g.Options(), match=Match(2, (4, -4) * 3))
    s, _ = answer(s, 0, "PLAY", "RJ")
    s, _ = G.apply(s, Action(2, "ABANDON"))
    s, _ = G.apply(s, Action(4, "ABANDON"))
    nxt = G.next_round(s)
    points = G.settle(s).points
    assert nxt.round == 3 and nxt.totals == tuple(a + b for a, b in zip((4, -4) * 3, points))
    assert cardlib.from_mask(s.hands[2])  # a leaver's cards stay dead in his hand


def test_gouji_variant_g5_daluo_leads_seat_zero():
    for k in range(40):
        seed = bytes([k]) * 32
        if rules.deal(seed, b"", rules.Options())[1] != 0:
            break
    assert rules.deal(seed, b"", rules.Options(first_leader="daluo_leads"), daluo=0)[1] == 0


def test_gouji_rule_7_3_the_automatic_revolution_is_marked_so():
    s = g.new_state(masks("2S 5S", "6S", "3H 3S", "3D", "3S 3H", "3D"), 0, g.Options(biesan=True))
    events = []
    s = g._maisan(s, events)
    assert [(e.seat, dict(e.values)) for e in events if e.type == "REVOLT"] == [(1, {"automatic": 1})]
    assert s.revolution == 1 << 1



def test_gouji_rule_7_2_a_buyer_without_qian_pays_his_lowest_joker():
    s = g.new_state(masks("RJ BJ 5S", "BJ 6S", "3H", "3D 3C", "3S 3H", "3D"), 0, g.Options(biesan=True))
    events = []
    s = g._maisan(s, events)
    assert [(e.type, e.seat, e.values.get("seller")) for e in events] == [("MAISAN", 0, 3), ("MAISAN", 1, 4)]  # 7.3 not
    paid = [cardlib.format_card(c) for e in events for c in e.cards if cardlib.card_rank(c)]  # the card not a 3
    assert paid == ["BJ", "BJ"] and cardlib.format_cards(cardlib.from_mask(s.hands[0] & ~g.THREES)) == "5S RJ"

@pytest.mark.parametrize("jokers, closes", [("RJ", False), ("RJ RJ", False), ("RJ RJ RJ", True)])
def test_gouji_rule_3_4_3_5_option1_full_leaves_one_or_two_big_jokers_beatable(jokers, closes):
    s = g.new_state(masks(jokers + " 5S", "BJ BJ BJ", "6S", "7S", "8S", "9S"), 0, g.Options(option1_joker_counts=True))
    s, events = answer(s, 0, "PLAY", jokers)
    assert ("TRICK_WON" in [e.type for e in events]) == closes
    assert s.to_act == ((0,) if closes else (1,))


def test_gouji_a_seat_that_leaves_while_asked_leaves_the_trick_as_it_is():
    s = g.new_state(masks("5S 5H", "6S 6H", "7S", "8S", "9S", "TS"), 0)
    s, _ = answer(s, 0, "PLAY", "5S")
    s, _ = G.apply(s, Action(1, "ABANDON"))
    assert s.to_act == (2,) and s.trick.top_seat == 0 and s.trick.top and s.trick.leader == 0


def test_gouji_rule_3_6_cover_counts_every_joker_of_a_play_with_both_kinds():
    cover = rules.flags_of(rules.Options(comparison="cover_then_core_strict"))
    play, top = rules.play_of_text("RJ BJ 5S 5H"), rules.play_of_text("BJ BJ 4S 4H")
    assert rules.hot.beats(play, top, cover)  # 2.5: two 小花 cover two 小花, the 5s beat the 4s
    assert not rules.hot.beats(rules.play_of_text("RJ 5S 5H 5D"), top, cover)  # one joker for two


def test_gouji_views_show_the_revolution_and_a_manual_revolt_is_not_automatic():
    s = g.new_state(masks("RJ 4S", "5S 6S", "5H 6H", "2S 7S", "BJ 7H", "2H 8S"), 0, phase=g.GEMING)
    s = g._to_geming(s._replace(trick=g.Trick()), [])
    s, events = answer(s, 1, "REVOLT")
    assert [dict(e.values) for e in events if e.type == "REVOLT"] == [{"automatic": 0}]
    assert [sv.counters["revolution"] for sv in G.view(s, 0).seats] == [0, 1, 0, 0, 0, 0]


def test_gouji_variant_g22_team_sees_at_10_not_at_11():
    eleven = "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D"
    s = g.new_state(masks("6S", "7S", eleven, "8S", "9S", "TS"), 0, g.Options(team_sees_at_10=True))
    assert "hand" not in G.view(s, 0).seats[2].cards
    ten = "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H"
    s = g.new_state(masks("6S", "7S", ten, "8S", "9S", "TS"), 0, g.Options(team_sees_at_10=True))
    assert len(G.view(s, 0).seats[2].cards["hand"]) == 10 and "hand" not in G.view(s, 1).seats[2].cards


def test_gouji_rule_13_7_a_burn_that_plays_out_is_over_and_owed():
    s = g.new_state(masks("TS TH TD TC TS 5S", "JS JH JD JC JS RJ 4S", "6S 6H", "7S 7H", "8S 8H", "9S 9H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, events = answer(s, 1, "PLAY", "JS JH JD JC JS")  # 1 burns 0 (13.1), 4S left: 13.3 d) holds
    assert ("BURN", 1) in [(e.type, e.seat) for e in events]
    for seat in (2, 3, 4, 5, 0):
        s, _ = answer(s, seat, "PASS")
    s, events = answer(s, 1, "PLAY", "RJ 4S")  # his last set, with a joker (13.6): out while burning
    assert ("BURN_SUCCEEDED", 1) in [(e.type, e.seat) for e in events]
    assert s.burns == (-1,) * 6 and s.shao[0] == 1 << 1  # 0 owes 1 a 烧贡 (12.5)
    assert [sv.counters["burning"] for sv in G.view(s, 0).seats] == [-1] * 6


def test_gouji_rule_9_5_a_siji_ends_the_trick_at_once_and_the_state_stays_in_its_codec():
    # 1 holds no joker and no 钱 and revolts (9.1); his 对头 4 takes 要头 and leads three Qs
    s, _ = answer(_revolted(1), 4, "YAOTOU")
    assert s.yaotou_left == 3 and G.codec.conforms(s) == []  # three 够死级
    s, events = answer(s, 4, "PLAY", "QS QH QD")
    assert [e.type for e in events] == ["PLAY", "SIJI", "TRICK_WON"]
    assert s.to_act == (4,) and s.yaotou_left == 2 and not s.trick.top and not s.siji  # nothing on top
    assert G.codec.conforms(s) == []


def test_gouji_rule_13_4_a_headless_neighbour_of_the_burner_cancels_the_burn():
    # 5 is out: 2 (whose 对头 is 5) has no head; 1 burns 0, and 2, the burner's 下家, beats it directly
    s = g.new_state(masks("TS TH TD TC TS 5S", "JS JH JD JC JS 4S", "QS QH QD QC QS 6S", "7S", "8S", ""), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, events = answer(s, 1, "PLAY", "JS JH JD JC JS")
    assert ("BURN", 1) in [(e.type, e.seat) for e in events] and s.burns[1] == 0
    s, events = answer(s, 2, "PLAY", "QS QH QD QC QS")
    assert [(e.type, e.seat, dict(e.values)) for e in events if e.type.startswith("BURN")] == [
        ("BURN_CANCELLED", 1, {"by": 2})]
    assert s.burns == (-1,) * 6


def test_gouji_rule_12_3_check_names_the_answer_to_a_tribute():
    s, _ = at_tribute(RICH, carry(opened=1))
    receiver = s.to_act[0]
    assert G.check(s, Action(receiver, g.ACCEPT)).message == "accept the tribute"
    assert G.check(s, Action(receiver, g.REFUSE)).message == "refuse the tribute"


def test_gouji_rule_9_2_a_void_round_is_finished_and_can_be_viewed():
    s = g.new_state(masks("RJ 4S", "5S 6S", "5H 6H", "2S 7S", "BJ 7H", "2H 8S"), 0, phase=g.GEMING)
    s = g._to_geming(s._replace(trick=g.Trick()), [])
    s, _ = answer(s, 1, "REVOLT")
    s, events = answer(s, 2, "REVOLT")
    assert [e.seat for e in events if e.type == "VOID"] == [-1] and s.finished and s.offer == 0  # the table's
    view = G.view(s, 1)
    assert view.finished and view.counters["void"] == 1 and all("offered" not in sv.cards for sv in view.seats)
    assert G.codec.conforms(s) == [] and G.settle(s).outcome == "void"


@pytest.mark.parametrize("burner, leader", [(1, 2), (5, 1)])  # 0 is out and the burner failed
def test_gouji_rule_13_8_a_failed_burn_on_a_seat_gone_out_leads_from_the_next_active_seat_after_him(burner, leader):
    hands = ["TS TH TD TC TS", "6S 6H", "7S 7H", "8S 8H", "9S 9H", "5S 5H"]
    hands[burner] = "JS JH JD JC JS 4S 4H"
    s = g.new_state(masks(*hands), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")  # 0 goes out (头科) on a protected 够级牌
    while s.to_act != (burner,):
        s, _ = answer(s, s.to_act[0], "PASS")
    s, events = answer(s, burner, "PLAY", "JS JH JD JC JS")
    assert ("BURN", burner) in [(e.type, e.seat) for e in events]
    while s.trick.top:
        s, _ = answer(s, s.to_act[0], "PASS")
    s, events = answer(s, burner, "PLAY", "4S")  # a lead without a joker, cards left: the burn fails
    assert "BURN_FAILED" in [e.type for e in events]
    # the next active seat after 0 counter-clockwise leads
    assert s.to_act == (leader,) and s.trick.leader == leader and s.places[0] == 1 and s.places[burner] == 6


def test_gouji_rule_9_3_the_revolutionary_takes_sanke_only_while_it_is_free():
    # 1 revolts; his three opponents leave (15.6), placed from the bottom past the reserved 四科: 6, 5, 3;
    # his team-mates 3 and 5 end 头科 and 二科, and 三科 taken, he has the 四科
    s, _ = answer(_revolted(1), 4, "PASS")
    for seat in (0, 2, 4):
        s, _ = G.apply(s, Action(seat, "ABANDON"))
    assert s.finished and s.places == (6, 4, 5, 1, 3, 2)


def test_gouji_rule_13_8_a_failed_burner_burns_no_one_any_more():
    s, events = answer(burned(), 1, "PLAY", "3S")  # a lead without a joker, cards left: the burn fails
    assert ("BURN_FAILED", 1) in [(e.type, e.seat) for e in events] and s.burns == (-1,) * 6
    assert [sv.counters["burning"] for sv in G.view(s, 0).seats] == [-1] * 6 and G.codec.conforms(s) == []


def test_gouji_rule_1_7_a_seat_gone_out_has_no_right_to_answer():
    s = g.new_state(masks("5S 5H", "6S", "7S", "8S 8H", "9S 9H", "TS TH"), 0)
    for seat, cards in ((0, "5S"), (1, "6S"), (2, "7S")):  # 1 and 2 go out, 2 on top: four seats left (14.2)
        s, _ = answer(s, seat, "PLAY", cards)
    rights = [g.right_of(s, seat) for seat in range(6)]
    assert rights == [rules.BEAT, rules.NOT_ASKED, rules.NOT_ASKED, rules.BEAT, rules.BEAT, rules.BEAT]


@pytest.mark.parametrize("leaver, paid", [(0, [(5, 2)]), (5, [(0, 1)]), (1, [(5, 2)]), (2, [(0, 1)])])
def test_gouji_rule_15_6_tribute_from_a_seat_that_left_before_the_deal_is_dropped(leaver, paid):
    # the previous 回合: 头科 1, 二科 2, ..., 二落 5, 大落 0; every 对头 opened (no 点贡): only 落贡 is owed,
    # 0 to 1 and 5 to 2 (12.7); the leaver's cards are dead (15.6): he pays nothing, and is paid nothing
    match = Match(1, (0,) * 6, carry(order=(1, 2, 3, 4, 5, 0), opened=0b111111))
    s = G.deal(G.Options(), bytes(32), match=match)
    s, events = G.apply(s, Action(leaver, "ABANDON"))
    while s.phase == g.YUDIAN_PHASE:
        s, more = G.apply(s, Action(s.to_act[0], "PASS"))
        events += more
    while s.phase == g.TRIBUTE:
        ask = s.asking[0]
        kind, cards = (g.RETURN, g.return_choices(s, ask)[0]) if ask.task == g.T_RETURN else (g.ACCEPT, ())
        s, more = G.apply(s, Action(ask.seat, kind, cards))
        events += more
    assert [(e.seat, e.values["to"]) for e in events if e.type in ("TRIBUTE", "NO_TRIBUTE")] == paid
    assert [(e.seat, e.values["to"]) for e in events if e.type == "RETURN"] == [paid[0][::-1]]


def test_gouji_view_of_a_free_lead_shows_no_table():
    s = g.new_state(masks("5S", "6S", "7S", "8S", "9S", "TS"), 0)
    view = G.view(s, 0)
    assert (view.table, view.table_seat, view.table_cards) == (None, -1, ())


def test_gouji_a_play_is_one_group_of_cards():
    assert G.classify("TS TH TD TC TS", G.Options()) == [Combo("gouji", 7, 1, 5, (), "TTTTT")]


def test_gouji_rule_3_5_option1_offers_two_big_jokers_over_one():
    o = G.Options(option1_joker_counts=True)
    assert G.hint_strings("RJ RJ 5S", "RJ", o, {"duitou": "1"}) == ["RR"]


def test_gouji_rule_3_5_option1_offers_two_small_jokers_over_one():
    o = G.Options(option1_joker_counts=True)
    assert G.hint_strings("BJ BJ 5S", "BJ", o, {"duitou": "1"}) == ["BB"]


def test_gouji_variant_g14_the_4pl_preset_exchanges_one_each():
    s = g.new_state(masks(*RICH), 0, rules.PRESETS["4pl"], match=Match(1, (0,) * 6, carry(opened=0b111111)),
                    phase=g.TRIBUTE)
    dian = sorted((a.to, a.seat, a.amount) for a in g.payments(s) if a.task == g.T_DIAN)
    assert dian == [(0, 3, 1), (1, 4, 1), (2, 5, 1), (3, 0, 1), (4, 1, 1), (5, 2, 1)]


def test_gouji_rule_12_2_a_payer_pays_his_receivers_of_one_kind_counter_clockwise_from_himself():
    s, _ = at_tribute(RICH, carry(opened=0b111111, shao=(0, 0, 0, 1 << 2 | 1 << 4, 0, 0)))
    assert [(a.seat, a.to) for a in g.payments(s) if a.task == g.T_SHAO] == [(4, 3), (2, 3)]


def test_gouji_codec_declarations_bound_the_seat_count_and_the_calls_carried_or_not():
    s = g.new_state(masks("5S", "6S", "7S", "8S", "9S", "TS"), 0, match=Match(1, (0,) * 6, carry(calls=(2,) * 6)))
    assert G.codec.conforms(s) == [] and G.codec.conforms(s._replace(calls=(2,) * 6)) == []
    assert G.codec.conforms(s._replace(num_seats=7)) and G.codec.conforms(s._replace(num_seats=5))  # 1.1: six
    for calls in ((3, 0, 0, 0, 0, 0), (-1, 0, 0, 0, 0, 0)):  # 12.4: none, 明点, 预点: 0..2
        assert G.codec.conforms(s._replace(match=Match(1, (0,) * 6, carry(calls=calls))))
        assert G.codec.conforms(s._replace(calls=calls))
    assert G.codec.conforms(s._replace(out=(0,))) == [] and G.codec.conforms(s._replace(out=(-1,)))  # seats out
    assert G.codec.conforms(s._replace(to_act=(-1,)))  # a seat to act, never none


def test_gouji_rule_1_7_before_the_deal_the_six_seats_and_only_they_are_active():
    s = G.deal(G.Options(), bytes(32))
    assert not s.dealt and g.active(s) == 0b111111
    s, _ = G.apply(s, Action(2, "ABANDON"))
    assert g.active(s) == 0b111011


def test_gouji_rule_11_1_13_2_without_a_revolutionary_each_owner_has_the_same_rights_around_him():
    # answer_right's defaults: no revolutionary; every seat's 对头 is active, so every owner has a head
    for owner in range(6):
        got = [rules.answer_right(rules.Options(), (owner + k) % 6, owner, True, 0b111111, 0) for k in range(6)]
        assert got == [rules.NOT_ASKED, rules.BURN, rules.PASS_ONLY, rules.BEAT, rules.PASS_ONLY, rules.BURN], owner


def test_gouji_rule_9_5_a_wutou_duitou_plays_no_siji_and_his_gouji_play_is_ordinary():
    # 1 revolts (9.1); his 对头 4 declines 要头 (无头): his three Qs are no 够死级, and unprotected (11.5)
    s = _revolted(1)
    s, _ = answer(s, 4, "PASS")
    s, events = answer(s, 4, "PLAY", "QS QH QD")
    assert [e.type for e in events] == ["PLAY"]
    assert s.to_act == (5,) and s.yaotou_left == 0 and not s.siji and not s.protected
    assert g.right_of(s, 5) == rules.BEAT and g.right_of(s, 0) == rules.BEAT  # 11.5: any eligible seat


@pytest.mark.parametrize("places, points, winners, outcome", [
    # places 1..6 per seat; 16.1: 头科 +4, 二科 +2, 三科 0, 四科 0, 二落 -2, 大落 -4, summed per team
    ((2, 1, 4, 3, 6, 5), (-2, 2) * 3, (1, 3, 5), "team1_won"),  # 头科 and 三科 of team 1, 二科 not: no 串三户
    ((1, 4, 2, 6, 5, 3), (4, -4) * 3, (0, 2, 4), "team0_won"),
    ((1, 2, 6, 4, 3, 5), (0, 0) * 3, (), "draw"),
    ((4, 1, 5, 2, 6, 3), (-12, 12) * 3, (1, 3, 5), "team1_won"),  # 16.2: 串三户
])
def test_gouji_rule_16_1_16_2_the_winners_are_the_team_with_more_place_points(places, points, winners, outcome):
    s = g.new_state(masks("5S", "6S", "7S", "8S", "9S", "TS"), 0)._replace(places=places, phase=g.FINISHED)
    settled = G.settle(s)
    assert (settled.points, settled.winners, settled.outcome) == (points, winners, outcome)


def test_gouji_rule_12_5_a_shaogong_is_one_card():
    # 0 owes 1 a 烧贡 (1 burned him successfully): one card, his highest (12.1), not all his jokers and 钱
    s, _ = at_tribute(RICH, carry(opened=0b111111, shao=(1 << 1, 0, 0, 0, 0, 0)))
    assert s.asking[0] == g.Ask(1, g.T_SHAO, 0, 1)
    assert cardlib.format_cards(cardlib.from_mask(s.offer)) == "RJ"
    before = s.hands[1].bit_count()
    s, events = answer(s, 1, "ACCEPT")
    assert [(e.type, e.values["kind"], len(e.cards)) for e in events[:1]] == [("TRIBUTE", g.T_SHAO, 1)]
    assert s.hands[1].bit_count() == before + 1


def test_gouji_rule_7_5_men_is_judged_on_the_play_just_before_the_threes():
    # 0's 5S is beaten by 1, but 0's next play (8S) is not: his 3S after it is no 闷
    s = g.new_state(masks("5S 8S 3S", "6S 9S", "4S 4H", "4D 4C", "4S 4H", "4D"), 0, g.Options(biesan=True))
    seen = []
    for seat, move in ((0, "5S"), (1, "6S"), (2, ""), (3, ""), (4, ""), (5, ""), (0, "8S"), (1, ""), (3, ""),
                       (0, "3S")):
        s, events = answer(s, seat, "PLAY" if move else "PASS", move)
        seen += events
    assert "MEN" not in [e.type for e in seen] and s.men == (-1,) * 6 and s.places[0] == 1


def test_gouji_rule_7_5_men_is_owed_to_the_first_beater_seat_0_included():
    # 5's 5S is first beaten by 0, then by 4, who goes out: 接风 gives 5 the lead, he plays his 3S
    s = g.new_state(masks("6S 9S", "8S 8H", "4S 4H", "4D 4C", "7S", "5S 3S"), 5, g.Options(biesan=True))
    for seat, move in ((5, "5S"), (0, "6S"), (1, ""), (2, ""), (3, ""), (4, "7S"), (5, ""), (0, ""), (1, "")):
        s, _ = answer(s, seat, "PLAY" if move else "PASS", move)
    s, events = answer(s, 5, "PLAY", "3S")
    assert [(e.seat, dict(e.values)) for e in events if e.type == "MEN"] == [(5, {"to": 0})] and s.men[5] == 0


def test_gouji_variant_g9_men_is_daluo_whoever_sits_next_to_the_smothered_seat():
    # 1 left (15.6: 大落); 0's last play is beaten by 2 and only 3s are left to him: 闷 at once, 二落
    s = g.new_state(masks("5S 3S", "6S 9S", "6H 7S", "4H 4D", "4D 4C", "4C 4S"), 0,
                    g.Options(biesan=True, men_is_daluo=True))
    s, _ = G.apply(s, Action(1, "ABANDON"))
    s, _ = answer(s, 0, "PLAY", "5S")
    s, events = answer(s, 2, "PLAY", "6H")
    assert [(e.seat, dict(e.values)) for e in events if e.type == "MEN"] == [(0, {"to": 2})]
    assert s.men[0] == 2 and s.places[0] == 5 and s.places[1] == 6 and s.failed == 1
    assert s.burns == (-1,) * 6  # the smothered seat burns no one


def test_gouji_rule_10_5_15_6_a_yielder_who_leaves_leaves_no_yield_behind():
    s, _ = answer(_duitou_asked_first(), 3, "YIELD")
    s, _ = G.apply(s, Action(3, "ABANDON"))
    assert s.yielded == -1 and G.view(s, 0).counters["yielded"] == -1 and s.to_act == (4,)


def test_gouji_dealt_names_each_seats_36_cards_when_the_deal_starts_after_seat_0():
    # 6.2: the previous 头科 (here seat 1) is dealt first; dealt() names the cards the DEAL events gave
    match = Match(1, (0,) * 6, carry(order=(1, 2, 3, 4, 5, 0), opened=0b111111))
    s = G.deal(G.Options(), bytes(32), match=match)
    named, values = G.dealt(s)
    events = []
    while s.phase == g.YUDIAN_PHASE:
        s, more = G.apply(s, Action(s.to_act[0], "PASS"))
        events += more
    assert values["start"] == 1
    assert {e.seat: tuple(sorted(e.cards)) for e in events if e.type == "DEAL"} == {
        seat: tuple(sorted(named[f"seat{seat}"])) for seat in range(6)}


@pytest.mark.parametrize("rank", "JQKA")
def test_gouji_rule_13_3_d_a_burn_with_high_naturals_is_offered_when_the_rest_plays_out(rank):
    # 1 burns 0's five 10s with five of a higher rank: RJ 4S are left, one joker for one natural rank
    five = " ".join(f"{rank}{suit}" for suit in "SHDCS")
    s = g.new_state(masks("TS TH TD TC TS 5S", five + " RJ 4S", "6S 6H", "7S 7H", "8S 8H", "9S 9H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    plays = [combo.label for action, combo in G.legal_actions(s, 1) if action.kind == "PLAY"]
    assert plays == [rank * 5]


def test_gouji_rule_13_4_the_burned_seat_made_headless_cancels_the_burn_by_a_direct_beat():
    # 1 burns 0; then 3, 0's 对头, leaves: 0 is headless (11.5) and beats 1's burning play directly (11.6)
    s = g.new_state(masks("TS TH TD TC TS QS QH QD QC QS", "JS JH JD JC JS RJ 4S", "5S 5H", "6S 6H", "7S 7H",
                          "8S 8H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, events = answer(s, 1, "PLAY", "JS JH JD JC JS")
    assert ("BURN", 1) in [(e.type, e.seat) for e in events]
    s, _ = G.apply(s, Action(3, "ABANDON"))
    for seat in (2, 4, 5):
        s, _ = answer(s, seat, "PASS")
    assert g.right_of(s, 0) == rules.BEAT
    s, events = answer(s, 0, "PLAY", "QS QH QD QC QS")
    assert [(e.type, e.seat, dict(e.values)) for e in events if e.type.startswith("BURN")] == [
        ("BURN_CANCELLED", 1, {"by": 0})]
    assert s.burns == (-1,) * 6


def test_gouji_rule_10_5_yield_takes_no_cards():
    s = _duitou_asked_first()
    assert G.check(s, Action(3, "YIELD")).legal
    assert G.check(s, Action(3, "YIELD", pick(s, 3, "JS"))).reason == Reason.BAD_ACTION
    assert G.check(s, Action(3, "YIELD", ranks=(8,))).reason == Reason.BAD_ACTION


@pytest.mark.parametrize("rev", range(6))
def test_gouji_rule_9_3_the_revolutionary_takes_sanke_whatever_his_seat(rev):
    # rev's team-mates rev+2 and rev+4 go out first and second: rev takes 三科, a 串三户 (15.4)
    hands = {2: "RJ", 3: "5S 5C", 4: "RJ", 5: "5H 6H", 0: "RJ 4S", 1: "6S"}  # relative to rev
    s = g.new_state(masks(*(hands[(seat - rev) % 6] for seat in range(6))), (rev + 2) % 6)
    s = s._replace(revolution=1 << rev, rev=rev)
    s, _ = answer(s, (rev + 2) % 6, "PLAY", "RJ")  # closes at once (3.4): 头科
    s, _ = answer(s, (rev + 3) % 6, "PLAY", "5S")  # 接风
    s, events = answer(s, (rev + 4) % 6, "PLAY", "RJ")  # 二科
    assert s.finished and s.places[rev] == 3 and rules.chuan_san_hu(g.order_of(s))
    assert [(e.seat, dict(e.values)) for e in events if e.type == "FINISH"] == [((rev + 2) % 6, {"chuan_san_hu": 1})]


def test_gouji_hint_groups_only_for_the_seat_leading_a_free_trick():
    s = g.new_state(masks("5S 5H 6S", "7S 8S", "9S", "TS", "JS", "QS"), 0)
    assert G.hint_groups(s, 0) == [group.text() for group in rules.grouped_leads(rules.counts_of_mask(s.hands[0]))]
    assert G.hint_groups(s, 0) == ["51-2 +2:0-0 +B:0-0 +R:0-0", "61-1 +2:0-0 +B:0-0 +R:0-0"]
    assert G.hint_groups(s, 1) == []  # not asked
    s, _ = answer(s, 0, "PLAY", "5S")
    assert s.to_act == (1,) and G.hint_groups(s, 1) == []  # a table: no free lead
    t, _ = at_tribute(RICH, carry(opened=1))
    assert G.hint_groups(t, t.to_act[0]) == []  # not the play


def test_gouji_rule_11_1_a_team_mate_holding_a_beat_may_only_pass():
    s = g.new_state(masks("TS TH TD TC TS 4S", "5S 5H", "JS JH JD JC JS", "6S 6H", "7S 7H", "8S 8H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, _ = answer(s, 1, "PASS")
    verdict = G.check(s, Action(2, "PLAY", pick(s, 2, "JS JH JD JC JS")))
    assert not verdict.legal and verdict.reason == g.PASS_ONLY_HERE
    assert [a.kind for a, _ in G.legal_actions(s, 2)] == ["PASS"]


@pytest.mark.parametrize("scope, hand, top, beats", [
    # 3.4 with 3.5: one 大花 only by two 大花 or three 小花 (a play holding both counts all as 小花, 2.5)
    ("full", "RJ RJ BJ BJ 5S", "RJ", ["RR", "RBB", "RRB"]),
    ("full", "RJ RJ BJ BJ 5S", "BJ", ["R", "BB", "RB"]),  # one 小花: a 大花, or two 小花
    ("2kill1_only", "RJ RJ BJ BJ BJ 5S", "RJ", ["RR"]),
    ("4pl_table", "BJ BJ BJ BJ 5S", "BJ BJ", ["BBBB"]),
])
def test_gouji_rule_3_5_option1_beats_are_the_plays_a_lead_would_list(scope, hand, top, beats):
    # the plays listed are the hot path's canonical ints (hot.classify of their cards), as free_leads lists them
    hot = rules.hot
    counts = rules.counts_of_mask(masks(hand)[0])
    flags = rules.flags_of(rules.Options(option1_joker_counts=True, option1_scope=scope))
    got = hot.beating_plays(*counts, rules.play_of_text(top), flags)
    assert sorted(got) == sorted(rules.play_of_text(b) for b in beats)
    assert set(got) <= set(hot.free_leads(*counts))


def test_gouji_rule_11_4_without_a_revolutionary_a_head_is_an_active_duitou():
    for seat in range(6):
        assert rules.has_head(seat, 0b111111)
        assert not rules.has_head(seat, 0b111111 & ~(1 << rules.opposite(seat)))


NAME_50, VALUE_50 = "no_such_option_" + "x" * 35, "no_such_leader_" + "x" * 35  # 50 characters each
NO_PLAY_50 = "5S 6S 7S 8S 9S TS JS QS KS AS 5H 6H 7H 8H 9H TH JH"  # 50 characters, many natural ranks (2.1)


def _hint_refused(table):
    with pytest.raises(InvalidAction) as refused:
        G.hint_strings("5S", table, G.Options())
    return {"error": str(refused.value)}


@pytest.mark.parametrize("call, echoed", [
    (lambda: rules.check_answer({"play": "5S", "options": {NAME_50: True}}), NAME_50),
    (lambda: rules.check_answer({"play": "5S", "options": {"first_leader": VALUE_50}}), VALUE_50),
    (lambda: _hint_refused(NO_PLAY_50), NO_PLAY_50),
    (lambda: rules.check_answer({"play": "5S", "table": NO_PLAY_50}), NO_PLAY_50),
], ids=["check option name", "check option value", "hint table", "check table"])
def test_gouji_errors_echo_at_most_40_characters_of_the_callers_input(call, echoed):
    # README (trust model): an error message echoes at most 40 characters of the caller's input
    error = call()["error"]
    assert repr(echoed[:40]) in error and echoed[:41] not in error


def test_gouji_variant_g23_partner_catches_wind_skips_a_team_mate_gone_to_the_next():
    # 15.2 partner_catches_wind: 0 goes out on the trick; 2 left: the wind goes to 4, not to the opponent 5
    s = g.new_state(masks("RJ", "5S 5H", "6S 6H", "7S 7H", "8S 8H", "9S 9H"), 0, g.Options(partner_catches_wind=True))
    s, _ = G.apply(s, Action(2, "ABANDON"))
    s, events = answer(s, 0, "PLAY", "RJ")  # 3.4: the trick ends at once
    assert "TRICK_WON" in [e.type for e in events] and s.to_act == (4,) and s.trick.leader == 4


def test_gouji_view_of_a_table_names_its_seat_and_cards():
    s = g.new_state(masks("5S 6S", "6H 7S", "7H", "8S", "9S", "TS"), 0)
    five = pick(s, 0, "5S")
    s, _ = answer(s, 0, "PLAY", "5S")
    view = G.view(s, 3)
    assert (view.table.label, view.table_seat, view.table_cards) == ("5", 0, five)


def test_gouji_rule_13_3_d_2s_left_in_the_burners_hand_are_not_counted():
    # after five Js, 1 holds 2S 4S and no joker: one natural rank, so no joker is needed (2s ride with any set)
    s = g.new_state(masks("TS TH TD TC TS 5S", "JS JH JD JC JS 2S 4S", "6S 6H", "7S 7H", "8S 8H", "9S 9H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    assert G.check(s, Action(1, "PLAY", pick(s, 1, "JS JH JD JC JS"))).legal
    assert [combo.label for action, combo in G.legal_actions(s, 1) if action.kind == "PLAY"] == ["JJJJJ"]


def test_gouji_hot_encode_ignores_the_rank_without_naturals():
    hot = rules.hot
    assert hot.encode(0, 2, 1, 0, 7) == hot.encode(0, 2, 1, 0, 15) == rules.play_of_text("B22")
    assert hot.natural_rank(hot.encode(0, 2, 0, 0, 3)) == 15


def test_gouji_rule_9_5_a_duitou_who_left_is_not_asked_for_yaotou():
    # 4 left (15.6) before 1, his 对头, revolts: nobody chooses 要头 and the play starts
    s = g.new_state(masks("RJ 4S 4H", "5S 6S", "BJ 5H 6H", "2S 7S", "QS QH QD 8S 2H", "2D 9S"), 0, phase=g.GEMING)
    s = g._to_geming(s._replace(trick=g.Trick()), [])
    s, _ = G.apply(s, Action(4, "ABANDON"))
    s, events = answer(s, 1, "REVOLT")
    assert "YAOTOU" not in [e.type for e in events]
    assert G.phase_name(s) == "playing" and s.rev == 1 and s.to_act == (0,) and s.yaotou_left == 0


def test_gouji_rule_17_1_a_round_ended_before_the_play_opened_for_nobody():
    # 0, 2 and 4 leave during the tribute: the 回合 is over (15.3) without a play, so nobody opened
    s, _ = at_tribute(RICH, carry(opened=0b111111))
    for seat in (0, 2, 4):
        s, _ = G.apply(s, Action(seat, "ABANDON"))
    assert s.finished and s.opened == 0 and G.codec.conforms(s) == []


def test_gouji_hint_lists_up_to_256_free_leads_one_by_one_and_groups_more():
    # 10.1: a free lead of n naturals, t 2s, s 小花 and b 大花 has (n + 1)(t + 1)(s + 1)(b + 1) - 1 plays
    o = G.Options()
    listed = G.hint_strings("3" * 16 + "4" * 15 + "2BR", "", o)  # 32 x 8 - 1 = 255 plays
    assert len(listed) == 255 and "RB2" + "3" * 16 in listed
    assert G.hint_strings("3" * 16 + "4" * 16 + "5" * 10 + "2" * 5, "", o) == [  # 43 x 6 - 1 = 257 plays
        "31-16 +2:0-5 +B:0-0 +R:0-0", "41-16 +2:0-5 +B:0-0 +R:0-0", "51-10 +2:0-5 +B:0-0 +R:0-0",
        "- +2:0-5 +B:0-0 +R:0-0"]


def test_gouji_rule_1_4_a_rank_string_past_four_packs_is_refused():
    """Four packs hold 16 of a natural rank and 4 of each joker; a rank string past that is refused
    (it was read, and past 255 copies the per-rank byte counters overflowed: '3' x 256 read as a 4)."""
    o = G.Options()
    for text in ("3" * 17, "R" * 5, "B" * 5, "3" * 256, "3" * 16 + "2" * 17):
        for call in (lambda: G.hint_strings(text, "", o), lambda: G.classify(text, o),
                     lambda: G.hint_strings("3", text, o), lambda: G.compare(text, "3", o)):
            with pytest.raises(InvalidAction) as refused:
                call()
            assert refused.value.reason == "DUPLICATE_CARD"
    assert G.classify("3" * 16, o) and G.classify("RRRR", o) and G.hint_strings("RRRRBBBB", "", o)


def test_gouji_rule_8_1_check_names_the_answer_to_a_call():
    s = G.deal(G.Options(), bytes(32))
    assert G.check(s, Action(0, g.DECLARE)).message == "declare"
    assert G.check(s, Action(0, "PASS")).message == "no call"


def test_gouji_variant_g22_a_seat_sees_the_one_card_hands_of_its_two_team_mates_only():
    s = g.new_state(masks("6S", "7S", "5S", "8S", "9S", "TS"), 0, g.Options(team_sees_at_10=True))
    known = G.knowledge(s)
    for seat in range(6):  # 1.3: P's team-mates are P+2 and P+4
        assert {o for o in range(6) if known.allowed(seat) & s.hands[o]} == {seat, (seat + 2) % 6, (seat + 4) % 6}
    assert G.view(s, 0).seats[2].cards["hand"] == cardlib.from_mask(s.hands[2])


def test_gouji_a_dealt_round_has_no_lead_owed_by_a_failed_burn():
    s = G.deal(G.Options(), bytes(32))
    assert (s.next_lead, s.close, s.yielded, s.burn_top, s.siji, s.rev) == (-1, 0, -1, -1, 0, -1)


def test_gouji_rule_12_6_a_mengong_owed_to_seat_0_is_paid():
    s, _ = at_tribute(RICH, carry(opened=0b111111, men=(-1, 0, -1, -1, -1, -1)))
    assert s.asking[0] == g.Ask(0, g.T_MEN, 1, 1) and s.offer.bit_count() == 1


def test_gouji_rule_15_3_the_round_goes_on_while_both_teams_have_an_active_seat():
    s = g.new_state(masks("5S 6S", "7S 8S", "9S", "TS", "JS", "QS"), 0)
    for seat in (2, 3, 4, 5):
        s, _ = G.apply(s, Action(seat, "ABANDON"))
        assert not s.finished, seat
    assert g.active(s) == 0b11 and s.to_act == (0,)
    s, events = G.apply(s, Action(1, "ABANDON"))
    assert s.finished and "FINISH" in [e.type for e in events]


@pytest.mark.parametrize("text, kind", [
    ("JS 2S 2H", "play"), ("JS JH 2S 2H", "gouji"),  # 4.1: J x4, attached 2s counted once each
    ("TS TH 2S 2H", "play"), ("TS TH 2S 2H 2D", "gouji"), ("QS 2S 2H", "gouji"), ("2S", "gouji"),
    ("KS", "play"), ("AS 2S", "gouji"),
])
def test_gouji_rule_4_1_attached_2s_count_once_toward_the_gouji_threshold(text, kind):
    assert [c.kind for c in G.classify(text, G.Options())] == [kind]


def test_gouji_rule_12_8_small_cards_only_returns_no_3_in_biesan_mode():
    hand = masks("3S 4S 5S")[0]
    three_four, four_five = masks("3S 4S")[0], masks("4S 5S")[0]
    assert not rules.return_allowed(hand, three_four, 2, "small_cards_only", biesan=True)
    assert rules.return_allowed(hand, four_five, 2, "small_cards_only", biesan=True)
    assert rules.return_allowed(hand, three_four, 2, "small_cards_only")  # outside 憋三 a 3 is a small card


def test_gouji_rule_12_8_too_few_small_cards_an_ace_among_them_are_made_up_with_the_lowest_qian():
    hand = masks("4S AS 2S 2H BJ")[0]  # two small cards (an A is one: not a joker or 钱) for three owed
    assert rules.return_allowed(hand, masks("4S AS 2S")[0], 3)
    assert not rules.return_allowed(hand, masks("4S AS BJ")[0], 3)  # his lowest: a 钱 before a joker


def test_gouji_rule_15_6_a_burner_who_leaves_burns_nobody_any_more():
    s = g.new_state(masks("TS TH TD TC TS 5S", "JS JH JD JC JS RJ 4S", "6S 6H", "7S 7H", "QS QH QD QC QS 8S",
                          "9S 9H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, _ = answer(s, 1, "PLAY", "JS JH JD JC JS")
    assert s.burns[1] == 0
    s, _ = G.apply(s, Action(1, "ABANDON"))
    assert s.burns == (-1,) * 6 and [sv.counters["burning"] for sv in G.view(s, 0).seats] == [-1] * 6
    s, _ = answer(s, 2, "PASS")
    s, _ = answer(s, 3, "PASS")
    s, events = answer(s, 4, "PLAY", "QS QH QD QC QS")  # his 对头 beats the leaver's play: no burn to cancel
    assert [e.type for e in events] == ["PLAY"]


@pytest.mark.parametrize("rev", range(6))
def test_gouji_rule_9_4_17_3_the_revolutionarys_duitou_has_opened_and_he_has_not(rev):
    # rev is in 革命; rev+1 opens (17.1): everyone passes on his five 10s; rev's team-mates leave: the
    # 回合 is over (15.3). The 对头 rev+3 counts as opened, rev+1 keeps his 开点
    leader = (rev + 1) % 6
    s = g.new_state(masks(*("TS TH TD TC TS 4S" if seat == leader else SINGLES[seat] for seat in range(6))), leader)
    s, _ = answer(s._replace(revolution=1 << rev, rev=rev), leader, "PLAY", "TS TH TD TC TS")
    for k in (2, 3, 4, 5):
        s, _ = answer(s, (rev + k) % 6, "PASS")
    for mate in (2, 4):
        s, _ = G.apply(s, Action((rev + mate) % 6, "ABANDON"))
    assert s.finished and s.opened == 1 << leader | 1 << rules.opposite(rev)


def test_gouji_rule_7_2_a_buyer_pays_a_qian_before_his_jokers():
    # 0 holds no 3, but a 大花, a 小花 and a 钱: he buys his 3 from his 对头 3 with the 钱
    s = g.new_state(masks("RJ BJ 2S 5S", "3S", "3H", "3D 3C", "3S 3H", "3D"), 0, g.Options(biesan=True))
    events = []
    s = g._maisan(s, events)
    assert [(e.type, e.seat, e.values["seller"]) for e in events] == [("MAISAN", 0, 3)]
    assert sorted(cardlib.card_rank(c) for c in events[0].cards) == [0, 12]  # a 3 for a 钱
    assert sorted(cardlib.card_rank(c) for c in cardlib.from_mask(s.hands[0])) == [0, 2, 13, 14]  # 3, 5, 小花, 大花


def test_gouji_rule_11_5_the_revolutionary_duitou_gives_no_head_without_the_yaotou_allowance():
    for seat in range(6):
        rev = rules.opposite(seat)
        inside = 0b111111 & ~(1 << rev)  # 1.7: a seat in 革命 is not active
        assert not rules.has_head(seat, inside, rev) and not rules.has_head(seat, inside, rev, 0)
        assert rules.has_head(seat, inside, rev, 1)  # 11.4: 要头 with 够死级 left


def test_gouji_rule_10_1_each_hint_group_is_named_by_the_natural_rank_of_its_plays():
    groups = rules.grouped_leads(rules.counts_of_mask(masks("5S 5H 9S 2S BJ RJ")[0]))
    assert [group.text() for group in groups] == [
        "51-2 +2:0-1 +B:0-1 +R:0-1", "91-1 +2:0-1 +B:0-1 +R:0-1", "- +2:0-1 +B:0-1 +R:0-1"]
    for group in groups:  # the plays without naturals: natural_rank 15, none
        assert {rules.hot.natural_rank(p) for p in group.plays()} == {group.rank}


def test_gouji_state_bytes_are_the_padded_state_the_readme_states():
    # README "State tokens and keys": every gouji token seals a state padded to 2,917 bytes
    assert G.state_bytes == 2917


def test_gouji_variant_g5_deal_race_seat_zero_dealt_two_3s_first_leads():
    seeds = [bytes([k]) * 32 for k in range(60)]
    seed = next(seed for seed in seeds if deal_race_first(seed, 0) == 0)  # later seats get two 3s too
    assert rules.deal(seed, b"", rules.Options(first_leader="deal_race"))[1] == 0


def test_gouji_rule_10_3_11_1_a_seat_that_passed_is_not_asked_a_team_mate_may_only_pass():
    # on 0's protected 够级牌 his team-mate 2 is asked and may only pass (11.1); once he passed he
    # is not asked again in the trick (10.3)
    o = rules.Options()
    asked, passed = (rules.answer_right(o, 2, 0, True, 0b111111, barred) for barred in (0, 1 << 2))
    assert (asked, passed) == (rules.PASS_ONLY, rules.NOT_ASKED) and asked != passed



@pytest.mark.parametrize("owner", range(6))
def test_gouji_rule_13_2_both_neighbours_may_burn_a_protected_gouji_only_the_duitou_beats_it(owner):
    s = _tens_led_by(owner)
    assert [g.right_of(s, (owner + k) % 6) for k in range(1, 6)] == [
        rules.BURN, rules.PASS_ONLY, rules.BEAT, rules.PASS_ONLY, rules.BURN]


@pytest.mark.parametrize("play, top", [("BJ BJ 5S", "RJ"), ("BJ 5S", "BJ"), ("BJ BJ BJ BJ", "BJ 5S")])
def test_gouji_rule_3_5_option1_changes_no_count_for_a_play_with_a_natural(play, top):
    o = G.Options(option1_joker_counts=True)
    assert not G.compare(play, top, o)[0]
    assert G.compare(play.replace("5S", "BJ"), top.replace("5S", "BJ"), o)[0]  # a 小花 for the 5: 3.5 applies


@pytest.mark.parametrize("play, top", [("BJ BJ BJ BJ", "RJ BJ"), ("RJ RJ BJ BJ", "BJ BJ")])
def test_gouji_variant_g3_option1_changes_no_count_for_a_play_left_mixed(play, top):
    # 3.5 reads the jokers after 2.5: downgraded, the mixed play is 小花 only and 2k 小花 beat k 小花;
    # without 2.5 (G-3) it is neither k 大花 nor k 小花, and no count-changing beat applies
    assert G.compare(play, top, G.Options(option1_joker_counts=True))[0]
    assert not G.compare(play, top, G.Options(option1_joker_counts=True, mixed_jokers_downgrade=False))[0]


def test_gouji_rule_10_5_the_duitou_may_yield_again_in_the_next_trick():
    # trick 1: 3 yields on 0's five 10s, everyone passes, 3 too; 0 leads five Js: 3 may yield again
    s = g.new_state(masks("TS TH TD TC TS JS JH JD JC JS 4S", "5S 5H", "6S 6H", "QS QH QD QC QS 9S", "7S 7H",
                          "8S 8H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    for seat, kind in ((1, "PASS"), (2, "PASS"), (3, "YIELD"), (4, "PASS"), (5, "PASS"), (3, "PASS")):
        s, events = answer(s, seat, kind)
    assert "TRICK_WON" in [e.type for e in events] and s.yielded == -1
    s, _ = answer(s, 0, "PLAY", "JS JH JD JC JS")
    s, _ = answer(s, 1, "PASS")
    s, _ = answer(s, 2, "PASS")
    assert G.check(s, Action(3, "YIELD")).legal


def test_gouji_variant_g7_a_team_mate_gives_his_3_and_takes_nothing():
    # 0 holds no 3; only his team-mate 2 holds two: 2 gives him a 3, and no card goes back (7.2)
    s = g.new_state(masks("2S 5S", "3C", "3H 3D", "3C", "3H", "3D"), 0, g.Options(biesan=True, teammate_free=True))
    before = s.hands
    s = g._maisan(s, [])
    moved = before[2] & ~s.hands[2]
    assert moved.bit_count() == 1 and s.hands[0] == before[0] | moved and s.hands[2] == before[2] & ~moved
    assert s.hands[1:2] + s.hands[3:] == before[1:2] + before[3:]


def test_gouji_hot_minus_takes_every_card_of_the_play():
    hand = rules.counts_of(rules.ranks_of_text("2S 2H 2D 5S 5H BJ RJ"))
    for play, rest in (("222", "55BR"), ("2", "2255BR"), ("225BR", "25"), ("55", "222BR")):
        assert rules.hot.minus(*hand, rules.play_of_text(play)) == rules.counts_of(rules.ranks_of_text(rest)), play


def test_gouji_rule_6_2_without_a_previous_round_ties_go_from_seat_0():
    hands = masks("3S 3S", "", "", "", "", "3H 3H")
    assert rules.shangban(hands) == 0


def test_gouji_presets_are_the_readmes():
    # README "Presets": 4pl is option 1 with 4PL's table, 4PL's tribute order, exchange_one_each, 憋三 with
    # men_is_daluo, no_repass_tribute, exclude_attached_2; kelei is kelei_burnable, return_cards free_choice
    assert rules.PRESETS == {
        "gouji": rules.Options(),
        "4pl": rules.Options(option1_joker_counts=True, option1_scope="4pl_table", tribute_order="4pl_order",
                             exchange_one_each=True, biesan=True, men_is_daluo=True, no_repass_tribute=True,
                             exclude_attached_2=True),
        "kelei": rules.Options(kelei_burnable=True, return_cards="free_choice")}


def test_gouji_variant_g10_kelei_the_third_siji_is_protected_while_on_top():
    # kelei_burnable (9.5): 4 plays his third 够死级; his allowance is spent, yet this play is protected
    # (11.1): his team-mates 0 and 2 may only pass, his neighbours 3 and 5 may burn it
    s = _revolted(1, g.Options(kelei_burnable=True))
    s, _ = answer(s, 4, "YAOTOU")
    s, events = answer(s._replace(yaotou_left=1), 4, "PLAY", "QS QH QD")  # two 够死级 played before
    assert [(e.type, dict(e.values)) for e in events if e.type == "SIJI"] == [("SIJI", {"left": 0})]
    assert [g.right_of(s, seat) for seat in (5, 0, 2, 3)] == [rules.BURN, rules.PASS_ONLY, rules.PASS_ONLY, rules.BURN]


def test_gouji_rule_15_3_a_round_over_during_a_yield_leaves_no_yield():
    s, _ = answer(_duitou_asked_first(), 3, "YIELD")
    for seat in (2, 4, 0):  # 0's team leaves: every active seat is of 3's team
        s, _ = G.apply(s, Action(seat, "ABANDON"))
    assert s.finished and s.yielded == -1 and G.view(s, 3).counters["yielded"] == -1


@pytest.mark.parametrize("rev", range(6))
def test_gouji_rule_11_4_the_revolutionarys_duitou_has_a_head_while_he_has_siji_left(rev):
    # rev+2 leads a protected 够级牌; his 下家 rev+3, the revolutionary's 对头, burns it with a head
    # (13.1), beats it directly without one (11.5, 11.6)
    duitou, owner = (rev + 3) % 6, (rev + 2) % 6
    s = g.new_state(masks(*("TS TH TD TC TS 4S" if seat == owner else SINGLES[seat] for seat in range(6))), owner)
    for left, right in ((3, rules.BURN), (0, rules.BEAT)):
        t, _ = answer(s._replace(revolution=1 << rev, rev=rev, yaotou_left=left), owner, "PLAY", "TS TH TD TC TS")
        assert g.right_of(t, duitou) == right, left


def test_gouji_rule_2_5_sixteen_2s_hold_no_small_joker():
    # a 大花 with an A and sixteen 2s is a 大花 carrying seventeen As (2.3): it beats a 小花 carrying seventeen Ks
    assert G.compare("R" + "2" * 16 + "A", "B" + "K" * 16 + "2", G.Options())[0]


@pytest.mark.parametrize("rev", range(6))
def test_gouji_rule_9_5_the_duitou_chooses_once_then_the_play_starts(rev):
    s, events = answer(_revolted(rev), rules.opposite(rev), "YAOTOU")
    assert [e.type for e in events] == ["YAOTOU"] and G.phase_name(s) == "playing"
    assert (s.rev, s.yaotou_left, s.to_act) == (rev, 3, (rules.opposite(rev),))


def test_gouji_rule_17_1_a_protected_gouji_on_top_when_the_round_ends_opens():
    s = _tens_led_by(0)
    for seat in (1, 5, 3):  # 0's opponents leave, his 对头 last: the 回合 is over (15.3) with his 10s on top
        s, _ = G.apply(s, Action(seat, "ABANDON"))
    assert s.finished and s.opened == 1 << 0


@pytest.mark.parametrize("kelei, left", [(False, 3), (True, 0)])
def test_gouji_variant_g10_kelei_ends_the_siji_allowance_when_anyone_goes_out(kelei, left):
    # 1 is in 革命, his 对头 4 chose 要头 (9.5); 0 plays his last card and goes out
    s = g.new_state(masks(*SINGLES), 0, g.Options(kelei_burnable=kelei))
    s, events = answer(s._replace(revolution=1 << 1, rev=1, yaotou_left=3), 0, "PLAY", "5S")
    assert "OUT" in [e.type for e in events] and s.yaotou_left == left


@pytest.mark.parametrize("callers", [(3,), (1, 4), (0, 2, 5)])
def test_gouji_rule_8_1_no_seat_that_declared_yudian_is_asked_mingdian(callers):
    s = G.deal(G.Options(), b"y" * 32)
    for seat in range(6):
        s, _ = answer(s, seat, "DECLARE" if seat in callers else "PASS")
    assert G.phase_name(s) == "mingdian" and [s.calls[c] for c in callers] == [rules.YUDIAN] * len(callers)
    # 8.2: the others, counter-clockwise from the first leader
    assert [a.seat for a in s.asking] == [t for t in ((s.leader + k) % 6 for k in range(6)) if t not in callers]
    assert s.to_act == (s.asking[0].seat,)


def test_gouji_rule_9_5_kelei_burnable_a_siji_stays_on_top_and_the_state_in_its_codec():
    # 1 is in 革命, his 对头 4 takes 要头 and leads three Qs, a 够死级 that his neighbours may answer
    s, _ = answer(_revolted(1, g.Options(kelei_burnable=True)), 4, "YAOTOU")
    s, events = answer(s, 4, "PLAY", "QS QH QD")
    assert [e.type for e in events] == ["PLAY", "SIJI"] and s.trick.top and s.to_act == (5,)
    assert s.siji == 1 and s.yaotou_left == 2 and G.codec.conforms(s) == []  # siji is 0 or 1
    assert G.codec.unpack(G.pack(s), check=True) == s  # its token is one that decodes


def test_gouji_codec_declarations_bound_the_places_carried_to_seats():
    # 15.1, 12.7: the carry names the seat of each place, 头科 .. 大落: six seats, never none
    s = g.new_state(masks(*SINGLES), 0, match=Match(1, (0,) * 6, carry(order=(5, 4, 3, 2, 1, 0))))
    assert G.codec.conforms(s) == []
    for order in ((-1, 1, 2, 3, 4, 5), (0, 1, 2, 3, 4, -1), (6, 1, 2, 3, 4, 5)):
        assert G.codec.conforms(s._replace(match=Match(1, (0,) * 6, carry(order=order))))


def test_gouji_rule_12_2_payers_of_one_kind_pay_counter_clockwise_from_the_previous_toke():
    # 头科 2, 二科 4 ... 二落 3, 大落 5; nobody opened: each 对头 gives the other one 点贡 (12.4)
    s, _ = at_tribute(RICH, carry(order=(2, 4, 0, 1, 3, 5)))
    owed = [(a.task, a.to) for a in g.payments(s)]
    assert [payer for task, payer in owed if task == g.T_DIAN] == [2, 3, 4, 5, 0, 1]
    assert [payer for task, payer in owed if task == g.T_LUO] == [3, 5]  # 二落, then 大落 (12.7)
    assert s.asking[0] == g.Ask(5, g.T_DIAN, 2, 1) and s.to_act == (5,)  # 2 pays his 对头 first


def test_gouji_codec_declarations_bound_the_first_leader_to_a_seat():
    # 6.1: the 回合's first leader is always a seat, never none
    s = g.new_state(masks(*SINGLES), 5)
    assert G.codec.conforms(s) == [] and G.codec.conforms(s._replace(leader=0)) == []
    assert G.codec.conforms(s._replace(leader=-1)) and G.codec.conforms(s._replace(leader=6))


@pytest.mark.parametrize("x", range(6))
def test_gouji_variant_g9_men_is_daluo_smothers_any_seat_at_once(x):
    # 7.5 men_is_daluo: x's last play but his 3s is beaten by his 下家: 闷 at once, placed 大落 (15.5)
    hands = ["5S 3S", "6S 9S", "4S", "4H", "4D", "4C"]  # of seats x .. x+5
    s = g.new_state(masks(*(hands[(seat - x) % 6] for seat in range(6))), x, g.Options(biesan=True, men_is_daluo=True))
    s, _ = answer(s, x, "PLAY", "5S")
    s, events = answer(s, (x + 1) % 6, "PLAY", "6S")
    assert [(e.seat, dict(e.values)) for e in events if e.type == "MEN"] == [(x, {"to": (x + 1) % 6})]
    assert s.men[x] == (x + 1) % 6 and s.places[x] == 6 and s.failed == 1 << x


@pytest.mark.parametrize("x", [0, 3])
def test_gouji_rule_15_6_a_seat_that_left_is_not_smothered_by_a_beat_on_his_last_play(x):
    # 7.5 men_is_daluo: x leads his 5, leaves with his 3 (15.6: 大落, his cards dead); his 下家 beats the 5
    hands = ["5S 3S", "6S 9S", "4S", "4H", "4D", "4C"]  # of seats x .. x+5
    s = g.new_state(masks(*(hands[(seat - x) % 6] for seat in range(6))), x, g.Options(biesan=True, men_is_daluo=True))
    s, _ = answer(s, x, "PLAY", "5S")
    s, _ = G.apply(s, Action(x, "ABANDON"))
    assert s.places[x] == 6
    s, events = answer(s, (x + 1) % 6, "PLAY", "6S")
    assert "MEN" not in [e.type for e in events] and s.men == (-1,) * 6  # no 闷贡 owed (12.6)
    assert s.places[x] == 6 and s.failed == 0


def test_gouji_rule_12_8_free_choice_lists_each_distinct_return_once_jokers_included():
    # 1 accepts 4's 小花 (落贡) and returns one card of his choice: 3, 4, 钱, 小花 or 大花, each once
    s, _ = at_tribute(RICH, carry(opened=0b111111), return_cards="free_choice")
    s, _ = answer(s, 1, "ACCEPT")
    s, _ = answer(s, 0, "ACCEPT")
    assert s.asking[0] == g.Ask(1, g.T_RETURN, 4, 1)
    choices = [cardlib.format_cards(a.cards) for a, _ in G.legal_actions(s, 1)]
    assert sorted(choices) == ["2D", "3H", "4H", "BJ", "RJ"]


@pytest.mark.parametrize("play, top, downgraded", [("RJ RJ BJ", "RJ", True), ("BJ BJ BJ", "RJ BJ", False)])
def test_gouji_variant_g3_option1_changes_no_count_when_either_play_is_left_mixed(play, top, downgraded):
    # 3.5 after 2.5: RJ RJ BJ is three 小花, which beat one 大花; RJ BJ two 小花, which three do not.
    # Without 2.5 (G-3) a play holding both jokers is neither 大花 nor 小花 only: no count changes
    assert G.compare(play, top, G.Options(option1_joker_counts=True))[0] == downgraded
    assert not G.compare(play, top, G.Options(option1_joker_counts=True, mixed_jokers_downgrade=False))[0]


def test_gouji_rule_3_2_2_5_a_top_holding_both_jokers_counts_them_all_as_small_jokers():
    # BJ RJ 5 5 is two 小花 carrying two 5s (2.5): its vector 小 小 5 5. A 大花 with three 6s (大 6 6 6)
    # is not higher at its second entry; a 大花 and a 小花 with two 6s (小 小 6 6 after 2.5) neither
    o = G.Options()
    for play in ("RJ 6S 6H 6D", "RJ BJ 6S 6H", "BJ 6S 6H 6D"):
        assert not G.compare(play, "BJ RJ 5S 5H", o)[0]
    assert G.compare("RJ RJ 6S 6H", "BJ RJ 5S 5H", o)[0]  # 大 大 6 6: higher everywhere


def _most_of_one_card(hand, rank):
    """6.1: the largest number of copies of one card (one suit) of ``rank`` ("3", "4") in the hand."""
    return max((hand & cardlib.to_mask(cardlib.parse_cards(" ".join([rank + suit] * 4), rules.DECKS))).bit_count()
               for suit in "SHDC")


@pytest.mark.parametrize("biesan, rank", [(False, "3"), (True, "4")])
def test_gouji_rule_6_1_shangban_counts_3s_of_one_suit_or_4s_in_biesan(biesan, rank):
    told = 0
    for k in range(24):
        hands, leader = rules.deal(bytes([k]) * 32, b"", rules.Options(biesan=biesan))
        counts = [_most_of_one_card(h, rank) for h in hands]
        if max(counts) >= 2:  # 6.2: ties from seat 0, the first 回合's starting seat
            told += 1
            assert leader == counts.index(max(counts)), k
    assert told >= 10


@pytest.mark.parametrize("rev", range(6))
def test_gouji_rule_9_5_the_duitou_s_first_gouji_is_a_siji_whoever_revolted(rev):
    # 9.5: rev's 对头 D took 要头; his three Qs (a 够级牌, 4.1) are 够死级: the trick ends at once, D leads
    duitou = rules.opposite(rev)
    s, _ = answer(_revolted(rev), duitou, "YAOTOU")
    s, events = answer(s, duitou, "PLAY", "QS QH QD")
    assert [e.type for e in events] == ["PLAY", "SIJI", "TRICK_WON"]
    assert s.yaotou_left == 2 and s.to_act == (duitou,) and not s.trick.top


def test_gouji_rule_16_3_new_state_deals_a_ju_s_first_round_whose_points_are_the_totals():
    # new_state without a match: a 局's first 回合, no points yet (16.3: the 局 score sums the 回合 scores)
    s = g.new_state(masks("5S", "6S 6H", "7S 7H", "8S 8H", "9S 9H", "TS TH"), 0)
    assert s.match == Match(0, (0,) * 6)
    s, _ = answer(s, 0, "PLAY", "5S")  # 头科
    for seat in (2, 4):  # 0's team-mates leave: 大落, 二落 (15.6); 1, 3, 5 are left, of one team (15.3)
        s, _ = G.apply(s, Action(seat, "ABANDON"))
    assert s.finished and G.settle(s).points == (-2, 2) * 3  # 4 - 4 - 2 against 2 + 0 + 0 (16.1)
    nxt = G.next_round(s)
    assert nxt.round == 1 and nxt.totals == (-2, 2) * 3


@pytest.mark.parametrize("rev", range(6))
def test_gouji_rule_9_3_sike_is_skipped_while_reserved_whatever_the_revolutionary_s_seat(rev):
    hands = {2: "RJ", 3: "RJ", 4: "5S 5H", 5: "RJ 5D", 0: "6S 6H 7S", 1: "6D"}  # relative to rev
    s = g.new_state(masks(*(hands[(seat - rev) % 6] for seat in range(6))), (rev + 2) % 6)
    s = s._replace(revolution=1 << rev, rev=rev)
    for d, cards in ((2, "RJ"), (3, "RJ"), (4, "5S"), (5, "RJ"), (5, "5D")):  # 头科, 二科, then 三科
        s, _ = answer(s, (rev + d) % 6, "PLAY", cards)
    s, _ = answer(s, (rev + 1) % 6, "PLAY", "6D")
    assert s.places[(rev + 1) % 6] == 5  # 四科 skipped: 二落
    assert s.finished and s.places[rev] == 4 and s.places[(rev + 4) % 6] == 6


def test_gouji_rule_13_4_a_neighbour_of_the_burner_with_a_head_burns_him_and_cancels_nothing():
    # 1 burns 0's five 10s (13.1); 2, the burner's 下家 with a head (his 对头 5 is in), beats the five Js:
    # he burns 1 in turn, and 1's burn goes on (13.4: only 1's 对头 or a headless seat cancels it)
    s = g.new_state(masks("TS TH TD TC TS 5S", "JS JH JD JC JS 4S", "QS QH QD QC QS 6S", "7S 7H", "8S 8H", "9S 9H"), 0)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, _ = answer(s, 1, "PLAY", "JS JH JD JC JS")
    s, events = answer(s, 2, "PLAY", "QS QH QD QC QS")
    assert [(e.type, e.seat, dict(e.values)) for e in events if e.type.startswith("BURN")] == [
        ("BURN", 2, {"burned": 1})]
    assert s.burns[1] == 0 and s.burns[2] == 1


def test_gouji_variant_g5_daluo_leads_without_a_previous_daluo_is_shangban():
    # 6.4 daluo_leads: a 局's first 回合 has no previous 大落 (deal's default), so 上班 (6.1) picks the leader
    o = rules.Options(first_leader="daluo_leads")
    told = 0
    for k in range(12):
        hands, leader = rules.deal(bytes([k]) * 32, b"", o)
        counts = [_most_of_one_card(h, "3") for h in hands]
        if max(counts) >= 2 and counts.index(max(counts)) != 1:
            told += 1
            assert leader == counts.index(max(counts)), k
    assert told >= 3
    assert rules.deal(bytes(32), b"", o, daluo=4)[1] == 4  # a previous 大落 leads


@pytest.mark.parametrize("k", range(4))
def test_gouji_rule_18_1_in_mingdian_no_tribute_is_offered_and_hands_stay_private(k):
    s = G.deal(G.Options(), bytes([k]) * 32)
    for seat in range(6):
        s, _ = answer(s, seat, "PASS")
    assert G.phase_name(s) == "mingdian"  # 8.2 comes after the tribute (12.3): none is offered now
    known = G.knowledge(s)
    for seat in range(6):  # each seat knows his own hand only
        assert known.allowed(seat) == s.hands[seat]
        assert all("offered" not in sv.cards for sv in G.view(s, seat).seats)
    assert s.offer == 0


def test_gouji_codec_declarations_bound_the_places_to_none_and_the_six():
    # 15.1: a seat's place is 0 (none yet) or 1..6, 头科 .. 大落
    s = g.new_state(masks(*SINGLES), 0)
    assert G.codec.conforms(s._replace(places=(0, 1, 2, 3, 4, 6))) == []
    for places in ((7, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, -1)):
        assert G.codec.conforms(s._replace(places=places))


def test_gouji_codec_declarations_bound_the_siji_flag_to_0_and_1():
    # 9.5: the top play is a 够死级 or it is not
    s = g.new_state(masks(*SINGLES), 0)
    assert G.codec.conforms(s._replace(siji=1)) == [] and G.codec.conforms(s._replace(siji=0)) == []
    assert G.codec.conforms(s._replace(siji=-1)) and G.codec.conforms(s._replace(siji=2))


@pytest.mark.parametrize("hand, paid", [("RJ 5S", "RJ"), ("RJ BJ 5S", "BJ"), ("RJ BJ 2H 5S", "2H")])
def test_gouji_rule_7_2_7_3_a_buyer_holding_a_joker_pays_his_lowest_money_and_is_no_revolutionary(hand, paid):
    # 0 holds no 3: he buys one from his 对头 3, paying his lowest 钱, else his lowest joker (a 大花 too)
    s = g.new_state(masks(hand, "3S", "3H", "3D 3C", "3S 3H", "3D"), 0, g.Options(biesan=True))
    events = []
    s = g._maisan(s, events)
    assert [(e.type, e.seat, e.values["seller"]) for e in events] == [("MAISAN", 0, 3)]
    assert s.revolution == 0 and s.hands[3] & masks(paid)[0] and not s.hands[0] & masks(paid)[0]


def test_gouji_rule_18_1_after_the_last_tribute_no_offer_is_left_for_the_geming_question():
    # every seat called 预点 (8.1: no 明点 to ask); after the 落贡 and their returns 3, holding no joker
    # and no 钱, is asked 革命 (9.1): he knows his own hand only, and nobody sees an offer
    hands = list(RICH)
    hands[3] = "3C 4C 5C"
    s, _ = at_tribute(hands, carry(opened=0b111111))
    s = s._replace(calls=(rules.YUDIAN,) * 6)
    s, _ = answer(s, 1, "ACCEPT")
    s, _ = answer(s, 0, "ACCEPT")
    while s.asking and s.asking[0].task == g.T_RETURN:
        s, _ = answer(s, s.asking[0].seat, "RETURN", cardlib.format_cards(g.return_choices(s, s.asking[0])[0]))
    assert G.phase_name(s) == "geming" and s.to_act == (3,)
    assert G.knowledge(s).allowed(3) == s.hands[3]
    assert all("offered" not in sv.cards for viewer in range(6) for sv in G.view(s, viewer).seats)
    assert s.offer == 0



SIXTEEN_2S = " ".join(["2S", "2H", "2D", "2C"] * 4)  # every 2 of the four packs


@pytest.mark.parametrize("natural, gouji", [("5S", False), ("9S", False), ("TS", True)])
def test_gouji_rule_4_1_sixteen_attached_2s_make_no_gouji_of_rank_3_to_9(natural, gouji):
    # 2.2: the 2s count as naturals (seventeen 5s); 4.1: rank 3-9 without jokers is never a 够级牌
    text = f"{natural} {SIXTEEN_2S}"
    assert rules.check_answer({"play": text})["gouji"] is gouji
    assert [c.kind for c in G.classify(text, G.Options())] == ["gouji" if gouji else "play"]


@pytest.mark.parametrize("free, duitou, seller, cards", [
    (False, "4D", 2, 2),  # only the team-mate 2 holds two 3s: without teammate_free he is paid
    (True, "3D 3C", 3, 2),  # the 对头 sells: teammate_free frees team-mates only
    (True, "4D", 2, 1),  # the team-mate sells under teammate_free: the 3 only
])
def test_gouji_rule_7_2_variant_teammate_free_frees_only_a_team_mate_seller(free, duitou, seller, cards):
    s = g.new_state(masks("2S 5S", "3S", "3H 3S", duitou, "3H", "3D"), 0, g.Options(biesan=True, teammate_free=free))
    events = []
    s = g._maisan(s, events)
    sold = {e.seat: (e.values["seller"], len(e.cards)) for e in events if e.type == "MAISAN"}
    assert sold[0] == (seller, cards)
    assert bool(s.hands[seller] & masks("2S")[0]) == (cards == 2)  # the 钱 paid, or kept


def test_gouji_rule_11_5_answer_right_gives_the_revolutionary_s_duitou_no_siji_unless_told():
    # 1 is in 革命 (out of play); his 对头 4 leads a 够级牌 and 5, 4's neighbour with a head, is asked
    o, active = rules.Options(), 0b111101
    assert rules.answer_right(o, 5, 4, True, active, 0, revolutionary=1) == rules.BEAT  # 无头: an ordinary play
    assert rules.answer_right(o, 5, 4, True, active, 0, revolutionary=1, yaotou_left=(0, 0, 0, 0, 2, 0)) == rules.BURN


def test_gouji_rule_13_8_a_failed_burn_that_leaves_no_seat_active_finishes_the_round_in_its_codec():
    # 憋三 with men_is_daluo: 1 burns 0's five 10s, the other four leave (四人乱缠, 14.1: the burn goes
    # on); 0 leads his 5 (a 3 left), 1 beats it with a 小花 and keeps 7 and 8 without a joker: 0 is 闷
    # (7.5) and 1's burn fails (13.3 d, 13.8): nobody is active, the 回合 is over (15.3)
    o = g.Options(biesan=True, men_is_daluo=True)
    s = g.new_state(masks("TS TH TD TC TS RJ 9S 5S 3S", "JS JH JD JC JS BJ BJ 6S 7S 8S", "9H 9D", "4S 4H", "4D 4C",
                          "6H 6D"), 0, o)
    s, _ = answer(s, 0, "PLAY", "TS TH TD TC TS")
    s, _ = answer(s, 1, "PLAY", "JS JH JD JC JS")
    for seat in (2, 3, 4, 5):
        s, _ = G.apply(s, Action(seat, "ABANDON"))
    for seat, kind, cards in ((0, "PASS", ""), (1, "PLAY", "BJ 6S"), (0, "PLAY", "RJ 9S"), (0, "PLAY", "5S")):
        s, _ = answer(s, seat, kind, cards)
    s, events = answer(s, 1, "PLAY", "BJ")
    assert [e.type for e in events] == ["PLAY", "MEN", "BURN_FAILED", "TRICK_WON", "FINISH"]
    assert s.finished and g.active(s) == 0 and G.codec.conforms(s) == []
    assert G.codec.unpack(G.pack(s), check=True) == s


def test_gouji_rule_12_8_a_return_of_two_may_take_two_neighbouring_ranks():
    # 0 accepts 5's two 大花 (落贡, 12.7) and returns two small cards: his 3 and his 4, the only ones
    s, _ = at_tribute(RICH, carry(opened=0b111111))
    s, _ = answer(s, 1, "ACCEPT")
    s, _ = answer(s, 0, "ACCEPT")
    s, _ = answer(s, 1, "RETURN", "4H")
    assert s.asking[0] == g.Ask(0, g.T_RETURN, 5, 2)
    assert [cardlib.format_cards(a.cards) for a, _ in G.legal_actions(s, 0)] == ["3S 4S"]


@pytest.mark.parametrize("burn", ["QS QH QD QC QS", "KS KH KD KC KS", "AS AH AD AC AS"])
def test_gouji_rule_13_3_d_a_burn_of_high_naturals_leaves_them_out_of_the_hand_counted(burn):
    # 1 may burn 0's five Js with five Qs (Ks, As): the 4 left is one set, no joker needed (13.3 d)
    s = g.new_state(masks("JS JH JD JC JS 5S", burn + " 4S", "6S 6H", "7S 7H", "8S 8H", "9S 9H"), 0)
    s, _ = answer(s, 0, "PLAY", "JS JH JD JC JS")
    assert g.right_of(s, 1) == rules.BURN
    plays = [cardlib.format_cards(a.cards) for a, _ in G.legal_actions(s, 1) if a.kind == "PLAY"]
    assert plays == [cardlib.format_cards(pick(s, 1, burn))]
    assert G.hint_strings(burn + " 4S", "JS JH JD JC JS", G.Options()) == [burn[0] * 5]
