"""国标麻将 (MCR) hand and match rules pinned by direct examples, one test per rule a mutant of
``core/mcr_game.py`` got past (``make mutate GAME=mcr``, tests/mutation). Every expected value
is worked out by hand from rules/mcr.md and the module docstring (what the API promises: legal
actions with their combinations, events, views, states), not computed with the game's helpers.

Positions come from ``test_mcr_game.position``: tile ids are taken copy by copy in the order
the hands, the drawn tile, the melds, the rivers and the wall ends are named, so the ids below
follow from ``id = kind * 4 + copy`` (W1..W9 are kinds 0..8, T1..T9 9..17, B1..B9 18..26, F1..F4
27..30, J1..J3 31..33).
"""
import dataclasses
import marshal

import pytest

from referee.core.games.mcr import fans as mcr
from referee.core.decisions import Window
from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.game import PASS, Action, Combo, Event, Meld
from referee.core.games.mcr.rules import (CHOW, CHOW_MELD, DISCARD, KONG, KONG_MELD, MCR, NOTATION, PUNG, PUNG_MELD, TURN, WIN,
                                   Options, win_hand)

from test_mcr_wall import deal_from_wall
from test_mcr_game import WIN_B, claim_table, match_hands, position, robbing_table, run, types

W5 = 4  # the kind of W5: ids 16..19


# --- rule 1: the tiles and their notation -------------------------------------------------------------

def test_mcr_rule_1_the_notation_knows_42_kinds_and_144_ids():
    """34 kinds of four copies (ids kind*4 .. kind*4+3) and 8 flowers of one (ids 136-143)."""
    assert (NOTATION.id_count, NOTATION.rank_count) == (144, 42)
    masks = NOTATION.rank_masks
    assert len(masks) == 42 and masks[0] == 0b1111 and masks[33] == 0b1111 << 132
    assert masks[34] == 1 << 136 and masks[41] == 1 << 143
    assert NOTATION.parse_cards_or_ranks("H8 J3 J3 J3 J3") == ((143, 132, 133, 134, 135), True)
    assert NOTATION.parse_cards_or_ranks("H18") == ((34, 41), False)


def test_mcr_rule_1_an_unknown_tile_is_named_in_the_refusal():
    with pytest.raises(InvalidAction) as error:
        NOTATION.parse_cards_or_ranks("W1F5")
    assert error.value.reason == Reason.UNKNOWN_CARD and str(error.value) == "unknown tile F5 in 'W1F5'"


def test_mcr_rule_1_a_fifth_copy_is_refused_and_kind_strings_round_trip():
    assert NOTATION.parse_cards_or_ranks("W9 W9 W9 W9") == ((32, 33, 34, 35), True)
    for text in ("W9 W9 W9 W9 W9", "H8 H8"):
        with pytest.raises(InvalidAction) as error:
            NOTATION.parse_cards_or_ranks(text)
        assert error.value.reason == Reason.DUPLICATE_CARD
    assert NOTATION.format_ranks((35, 8, 0, 9, 33, 27, 0)) == "W119T1F1J3H2"
    assert NOTATION.parse_cards_or_ranks("W119T1F1J3H2") == ((0, 0, 8, 9, 27, 33, 35), False)


# --- the options (rules 2, 10, 13) --------------------------------------------------------------------

def test_mcr_options_their_defaults_and_ranges():
    """dealer 0 (-1 draws it, seats 0..3), prevalent_wind 0 (E S W N = 0..3), min_points 8 (0..88),
    hands 16 (1..64): each bound is accepted, one past it refused."""
    infos = {i.name: (i.type, i.default, i.minimum, i.maximum) for i in MCR.option_infos()}
    assert infos == {"dealer": ("int", 0, -1, 3), "prevalent_wind": ("int", 0, 0, 3),
                     "min_points": ("int", 8, 0, 88), "hands": ("int", 16, 1, 64),
                     "false_win_penalty": ("int", 0, 0, 1000)}
    for name, (_, _, low, high) in infos.items():
        assert getattr(MCR.make_options(overrides={name: low}), name) == low
        assert getattr(MCR.make_options(overrides={name: high}), name) == high
        for bad in (low - 1, high + 1):
            with pytest.raises(InvalidAction) as error:
                MCR.make_options(overrides={name: bad})
            assert error.value.reason == Reason.BAD_OPTION


def test_mcr_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().dealer = 1  # type: ignore[misc]
    assert hash(Options()) == hash(Options(dealer=0))


# --- rules 2-3: the deal, flowers ---------------------------------------------------------------------

def test_mcr_rule_2_a_dealt_hand_starts_with_no_window_no_winner_and_no_score():
    """A fresh deal: the dealer on turn with its 14th tile as the drawn one, no window (tile -1,
    no answers), no winner or payer (-1), no fans or points, still playing, nobody gone, step 0."""
    state = MCR.deal(Options(dealer=1), b"fresh")
    assert (state.phase, state.to_act, state.turn) == (TURN, (1,), 1)
    assert (state.tile, state.window, state.after_kong) == (-1, Window(), False)
    assert (state.winner, state.payer, state.fans, state.points, state.total) == (-1, -1, b"", 0, 0)
    assert (state.outcome, state.abandoned, state.step) == (0, -1, 0)
    assert state.melds == ((),) * 4 and state.discards == ((),) * 4
    assert MCR.unpack(MCR.pack(state)) == state


def test_mcr_rule_2_3_the_deal_goes_round_from_the_dealer_and_flowers_are_replaced_from_the_back():
    """Dealt with dealer 2 (so seat 3 takes the second 13 tiles, seat 0 the third): each seat's
    tiles, flowers, the dealer's drawn tile and the two ends of the live wall as the rules deal
    them; among the seeds some seat other than the dealer replaces a flower, and some seat draws
    a flower as a replacement."""
    seen_other_seat = seen_chain = seen_dealer = False
    for n in range(60):
        state = MCR.deal(Options(dealer=2), b"deal order %d" % n)
        hands, flowers, last, back = deal_from_wall(state.wall, 2)
        assert [set(t for t in range(144) if state.hands[s] >> t & 1) for s in range(4)] == [hands[s] for s in range(4)]
        assert [list(state.flowers[s]) for s in range(4)] == [flowers[s] for s in range(4)]
        assert (state.drawn, state.front, state.back) == (last, 53, back)
        deals = [e for e in MCR.deal_events(state) if e.type == "DEAL"]
        assert [(e.seat, e.values) for e in deals] == [(s, {"seat_wind": (s + 2) % 4, "dealer": 2}) for s in range(4)]
        assert [(e.seat, e.cards) for e in MCR.deal_events(state) if e.type == "FLOWER"] == [
            (s, tuple(flowers[s])) for s in range(4) if flowers[s]]
        seen_other_seat |= any(flowers[s] for s in (0, 1, 3))
        seen_dealer |= bool(flowers[2])
        seen_chain |= any(t >= 136 for t in state.wall[back:])
    assert seen_other_seat and seen_dealer and seen_chain


def test_mcr_rule_2_the_deal_events_give_each_seat_its_wind():
    """Seat 1 deals: seat winds E S W N run from it, seat 0 is north (3)."""
    state = MCR.deal(Options(dealer=1), b"winds of a deal")
    deals = [e for e in MCR.deal_events(state) if e.type == "DEAL"]
    assert [(e.seat, e.values["seat_wind"], e.values["dealer"]) for e in deals] == [
        (0, 3, 1), (1, 0, 1), (2, 1, 1), (3, 2, 1)]
    assert all(set(e.values) == {"seat_wind", "dealer"} for e in deals)


def test_mcr_rule_3_h1_drawn_in_play_is_a_flower_and_so_is_its_replacement():
    """Seat 0 discards T9 (id 68) nobody can claim, so seat 1 draws at once: H1 (id 136, the
    first flower) from the front, set aside, replaced from the back by H2 (137), set aside too,
    replaced by B7 (id 96): three tiles leave the wall."""
    state = position([None] * 4, drawn="T9", front="H1 W9", back="H2 B7")
    live = state.back - state.front
    assert state.drawn == 68
    state, events = run(state, Action(0, DISCARD, (68,)))
    assert events == [Event("DISCARD", 0, (68,)), Event("FLOWER", 1, (136,)), Event("FLOWER", 1, (137,)),
                      Event("DRAW", 1, (96,), values={"replacement": 1, "wall": live - 3})]
    assert state.flowers[1] == (136, 137) and state.drawn == 96 and not state.after_kong
    assert MCR.view(state, 1).counters["wall"] == live - 3 and MCR.view(state, 1).counters["drawn"] == 96
    assert not state.hands[1] >> 136


# --- rule 4: the turn (self-drawn wins, kongs) --------------------------------------------------------

# seat 0 holds W2-W9, a T1 pung and a B5 pair and draws W1: W1 is the first tile id (0)
W1_DRAWN = "W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5 B5"


def test_mcr_rule_4_a_drawn_tile_with_id_0_counts_as_drawn():
    """The drawn tile W1 is id 0: the seat may still win by self-draw with it (清龙 16, 不求人 4,
    幺九刻 of T1 1, 无字 1 = 22; W1, W4 and W7 all complete the hand, so no wait fan), and sees
    it as its drawn tile."""
    state = position([W1_DRAWN, None, None, None], drawn="W1")
    assert state.drawn == 0
    assert MCR.view(state, 0).counters["drawn"] == 0
    assert [MCR.view(state, s).counters["drawn"] for s in (-1, 1, 2, 3)] == [-1] * 4
    legal = MCR.legal_actions(state, 0)
    assert legal[-1] == (Action(0, WIN), Combo("win", 0, 1, 1, (0,), "win 和 22 points"))
    # one DISCARD per kind held, its lowest id: W1-W9 (ids 0 4 .. 32), T1 (36 of 36-38), B5 (88 of 88 89)
    assert [a for a, _ in legal[:-1]] == [Action(0, DISCARD, (t,)) for t in (0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 88)]
    won, events = MCR.apply(state, Action(0, WIN))
    assert events == [Event("WIN", 0, (0,), values={"from": -1, "points": 22, "total": 22, "self_drawn": 1,
                                                     "robbed_kong": 0})]
    assert MCR.view(won, -1).public_cards == {"win_tile": (0,)}
    assert {k: MCR.view(won, 2).counters[k] for k in ("winner", "payer", "points", "total")} == \
        {"winner": 0, "payer": -1, "points": 22, "total": 22}
    settlement = MCR.settle(won)
    assert (settlement.points, settlement.winners, settlement.outcome) == ((90, -30, -30, -30), (0,), "self_drawn")


def test_mcr_rule_4_the_seat_on_turn_sees_its_drawn_tile_id_1():
    """The drawn W1 is id 1 (seat 1 holds id 0): seat 0's view counts it as drawn."""
    state = position([W1_DRAWN, "W1", None, None], drawn="W1")
    assert state.drawn == 1
    assert [MCR.view(state, s).counters["drawn"] for s in range(-1, 4)] == [-1, 1, -1, -1, -1]


def test_mcr_rule_4_a_win_names_no_tile_or_the_winning_tile():
    """WIN may name the winning tile (by id or kind) or none; naming another tile, or another
    copy of the kind, is refused (BAD_ACTION). Seat 0 won on W1 (id 0); seat 2 on W5 (id 16)."""
    state = position([W1_DRAWN, None, None, None], drawn="W1")
    for action in (Action(0, WIN), Action(0, WIN, (0,)), Action(0, WIN, ranks=(0,))):
        verdict = MCR.check(state, action)
        assert verdict.legal and verdict.action == Action(0, WIN), action
    for action in (Action(0, WIN, (1,)), Action(0, WIN, (4,)), Action(0, WIN, ranks=(1,)), Action(0, WIN, (0, 4))):
        verdict = MCR.check(state, action)
        assert not verdict.legal and verdict.reason == Reason.BAD_ACTION, action
    claim = position([None, None, WIN_B, None], drawn="W5")
    claim, _ = run(claim, Action(0, DISCARD, (16,)))
    assert MCR.check(claim, Action(2, WIN, (16,))).legal and MCR.check(claim, Action(2, WIN, ranks=(W5,))).legal
    assert MCR.check(claim, Action(2, WIN, (17,))).reason == Reason.BAD_ACTION


def test_mcr_rule_4_a_self_drawn_win_leaves_the_rivers_alone():
    """A self-drawn win takes no tile from a river (B9 in seat 0's, J3 in seat 3's) nor a hand."""
    state = position([W1_DRAWN, None, None, None], drawn="W1", discards={0: "B9", 3: "J3"})
    won, _ = MCR.apply(state, Action(0, WIN))
    assert won.discards == state.discards == ((104,), (), (), (132,))
    assert won.hands == state.hands and won.outcome == 1 and won.payer == -1


def test_mcr_rule_4_a_self_drawn_win_on_the_fourth_copy_of_a_kind():
    """The drawn W1 is the kind's fourth copy (id 3: the other three are held by seats 1-3) and
    seat 0 holds W2's first copy (id 4) next to it: still the 22-point self-drawn win."""
    state = position([W1_DRAWN, "W1", "W1", "W1"], drawn="W1")
    assert state.drawn == 3 and state.hands[0] >> 4 & 1
    assert MCR.legal_actions(state, 0)[-1] == (Action(0, WIN), Combo("win", 0, 1, 1, (0,), "win 和 22 points"))
    won, events = MCR.apply(state, Action(0, WIN))
    assert (won.winner, won.points, events[0].cards) == (0, 22, (3,))


def test_mcr_rule_4_a_self_drawn_win_with_four_melds():
    """Four exposed pungs (J1 from seat 1, W9 from 2, T9 from 3, B1 from 1) and F2 standing:
    drawing the other F2 wins: 混幺九 32, 五门齐 6, 箭刻 2, 双同刻 (W9 T9) 2, 单钓将 1, 自摸 1 = 44."""
    melds = [("pung", 1, "J1 J1 J1"), ("pung", 2, "W9 W9 W9"), ("pung", 3, "T9 T9 T9"), ("pung", 1, "B1 B1 B1")]
    state = position(["F2", None, None, None], drawn="F2", melds={0: melds})
    assert state.hands[0].bit_count() == 2
    assert MCR.legal_actions(state, 0)[-1][0] == Action(0, WIN)
    won, _ = MCR.apply(state, Action(0, WIN))
    assert (won.winner, won.points, MCR.settle(won).outcome) == (0, 44, "self_drawn")


def test_mcr_rule_4_a_kong_may_be_declared_after_drawing_tile_id_0():
    """Four F1 (ids 108-111) in hand and W1 (id 0) just drawn: the concealed kong is offered and
    taken; its event shows no tiles and says it is concealed."""
    state = position(["F1 F1 F1 F1", None, None, None], drawn="W1", back="T9")
    assert state.drawn == 0
    kong = (Action(0, KONG, (108, 109, 110, 111)), Combo("kong", 27, 1, 4, (27,) * 4, "concealed kong 暗杠"))
    assert [(a, c) for a, c in MCR.legal_actions(state, 0) if a.kind == KONG] == [kong]
    verdict = MCR.check(state, Action(0, KONG, ranks=(27,)))
    assert verdict.legal and (verdict.action, verdict.combo) == kong
    state, events = MCR.apply(state, Action(0, KONG, ranks=(27,)))
    assert events[0] == Event("KONG", 0, values={"concealed": 1})
    own = MCR.view(state, 0)
    assert own.seats[0].melds == (Meld("kong", (108, 109, 110, 111), -1),)
    assert own.hand == tuple(t for t in range(144) if state.hands[0] >> t & 1) and 0 in own.hand
    assert MCR.view(state, 1).seats[0].melds == (Meld("kong", (), -1),)
    assert state.melds[0] == ((KONG_MELD, -1, -1, 108, 109, 110, 111),)
    assert events[1].type == "DRAW" and events[1].values == {"replacement": 1, "wall": state.back - state.front}


def test_mcr_rule_4_a_kong_needs_a_tile_left_in_the_wall():
    """With one tile left the kong is declared and its replacement is that last tile; with none
    it is neither offered nor accepted (WRONG_PHASE)."""
    one = position(["F1 F1 F1 F1", None, None, None], drawn="W9", back="T9", live=1)
    assert one.back - one.front == 1
    assert [a for a, _ in MCR.legal_actions(one, 0) if a.kind == KONG] == [Action(0, KONG, (108, 109, 110, 111))]
    state, events = MCR.apply(one, Action(0, KONG, ranks=(27,)))
    assert types(events) == ["KONG", "DRAW"] and events[1].values == {"replacement": 1, "wall": 0}
    assert events[1].cards == (68,)  # T9: kind 17, copy 0
    none = position(["F1 F1 F1 F1", None, None, None], drawn="W9", live=0)
    assert [a for a, _ in MCR.legal_actions(none, 0) if a.kind == KONG] == []
    verdict = MCR.check(none, Action(0, KONG, ranks=(27,)))
    assert not verdict.legal and verdict.reason == Reason.WRONG_PHASE


def test_mcr_rule_4_a_kong_names_one_kind():
    """KONG naming F1 and W9 (two kinds) is refused, F1 alone is the concealed kong."""
    state = position(["F1 F1 F1 F1", None, None, None], drawn="W9")
    verdict = MCR.check(state, Action(0, KONG, (108, state.drawn)))
    assert not verdict.legal and verdict.reason == Reason.NOT_A_COMBINATION
    assert MCR.check(state, Action(0, KONG, (108,))).action == Action(0, KONG, (108, 109, 110, 111))


def test_mcr_rule_4_the_added_kong_offered():
    """Seat 0 holds the pung W5 W5 W5 (ids 17-19) and draws the fourth (id 16): the added kong
    is offered by that one tile, as a kong of four W5."""
    state = robbing_table()
    assert [(a, c) for a, c in MCR.legal_actions(state, 0) if a.kind == KONG] == [
        (Action(0, KONG, (16,)), Combo("kong", W5, 1, 4, (W5,) * 4, "added kong 加杠"))]


def test_mcr_rule_4_an_added_kong_event_shows_its_four_tiles():
    """An added kong (加杠) that nobody robs stands: its KONG event shows the whole kong, the
    three W5 of the pung (ids 17 18 19, claimed from seat 1) and the added fourth (id 16).
    Seat 2 (WIN_B), the one seat that could rob it, passes."""
    state = robbing_table()
    assert state.drawn == 16 and state.melds[0][0][3:] == (17, 18, 19)
    state, events = run(state, Action(0, KONG, (16,)), Action(2, PASS))
    assert types(events) == ["CLAIM_WINDOW", "KONG", "DRAW"]
    kong = events[1]
    assert (kong.seat, kong.cards, kong.values) == (0, (16, 17, 18, 19), {"added": 1, "from": 1})
    assert state.melds[0] == ((KONG_MELD, 1, 17, 16, 17, 18, 19),)  # from seat 1, claimed 17


# --- rule 5: claims -----------------------------------------------------------------------------------

def test_mcr_rule_5_the_claim_window_state():
    """A discard seat 1 may chow (W3 W4) and seat 2 pung (W5 W5) opens the window: the tile
    leaves the hand for the river, those two seats are asked from the discarder's next seat
    (seat 3, with nothing to claim, is not), and nothing is drawn. Each asked seat's view shows
    it awaited, the other views nobody."""
    before = position([None, "W3 W4", "W5 W5", None], drawn="W5")
    state, events = run(before, Action(0, DISCARD, (18,)))
    hands = list(before.hands)
    hands[0] &= ~(1 << 18)
    assert state == before._replace(hands=tuple(hands), discards=((18,), (), (), ()), phase=1, to_act=(1, 2),
                                    turn=0, tile=18, window=Window.open((1, 2)), drawn=-1, after_kong=False,
                                    step=1)
    assert events == [Event("DISCARD", 0, (18,)), Event("CLAIM_WINDOW", 0, (18,), values={"robbing": 0})]
    assert [MCR.view(state, s).counters["drawn"] for s in range(-1, 4)] == [-1] * 5
    awaited = {-1: (), 0: (), 1: (1,), 2: (2,), 3: ()}
    for viewer in range(-1, 4):  # the window's tile is on the table, the discarder's
        view = MCR.view(state, viewer)
        assert (view.phase, view.to_act, view.table_seat, view.table_cards) == ("claim", awaited[viewer], 0, (18,))
        assert view.public_cards == {"claim_tile": (18,)} and view.counters["turn"] == 0
    view = MCR.view(before, 2)
    assert (view.phase, view.table_seat, view.table_cards, view.public_cards) == ("turn", -1, (), {})


def test_mcr_rule_5_a_discard_nobody_can_claim_opens_no_window():
    """Seat 0 discards T9 (id 68) and no seat can claim it (quiet hands): no window opens, seat 1
    draws W9 (id 32) from the front in the same apply; the events are DISCARD then DRAW, the
    state is seat 1's turn (no window, no window tile), one step on."""
    before = position([None] * 4, drawn="T9", front="W9")
    live = before.back - before.front
    assert before.drawn == 68 and before.wall[before.front] == 32
    state, events = run(before, Action(0, DISCARD, (68,)))
    assert events == [Event("DISCARD", 0, (68,)), Event("DRAW", 1, (32,), values={"replacement": 0, "wall": live - 1})]
    hands = list(before.hands)
    hands[0] &= ~(1 << 68)
    hands[1] |= 1 << 32
    assert state == before._replace(hands=tuple(hands), discards=((68,), (), (), ()), front=before.front + 1,
                                    phase=TURN, to_act=(1,), turn=1, tile=-1, window=Window(), drawn=32,
                                    after_kong=False, step=1)
    for viewer in range(-1, 4):  # a turn is public: every viewer sees seat 1 on turn, no claim tile
        view = MCR.view(state, viewer)
        assert (view.phase, view.to_act, view.public_cards, view.table_cards) == ("turn", (1,), {}, ())
        assert view.counters["drawn"] == (32 if viewer == 1 else -1)
    assert [a.kind for a, _ in MCR.legal_actions(state, 1)] == [DISCARD] * 14


def test_mcr_rule_5_only_the_seats_that_can_claim_are_asked():
    """Seat 0 discards W5 (id 18) and only seat 2 (W5 W5: ids 16 17) can claim it, by a pung:
    the window asks seat 2 alone. Seat 2's view shows it awaited; the discarder's, seat 1's,
    seat 3's and a spectator's show nobody (who is asked is not public; the table's owner sees
    the asked seat), and the seats not asked have no legal action (NOT_YOUR_TURN)."""
    state, events = run(position([None, None, "W5 W5", None], drawn="W5"), Action(0, DISCARD, (18,)))
    assert types(events) == ["DISCARD", "CLAIM_WINDOW"]
    assert (state.phase, state.to_act, state.window, state.tile) == (1, (2,), Window.open((2,)), 18)
    assert MCR.to_act_for(state, None) == (2,)
    for viewer in range(-1, 4):
        view = MCR.view(state, viewer)
        assert (view.phase, view.to_act, view.public_cards) == ("claim", (2,) if viewer == 2 else (),
                                                                 {"claim_tile": (18,)})
    assert [v.to_act for v in MCR.views(state, range(-1, 4))] == [(), (), (), (2,), ()]
    assert MCR.legal_actions(state, 2) == [(Action(2, PASS), None),
                                           (Action(2, PUNG, (16, 17)), Combo("pung", W5, 1, 3, (W5,) * 3, "pung 碰"))]
    for seat in (0, 1, 3):
        assert MCR.legal_actions(state, seat) == []
        verdict = MCR.check(state, Action(seat, PASS))
        assert not verdict.legal and verdict.reason == Reason.NOT_YOUR_TURN
    passed, events = run(state, Action(2, PASS))
    assert types(events) == ["DRAW"] and events[0].seat == 1 and passed.to_act == (1,)


def test_mcr_rule_5_no_pass_event_when_a_window_closes_with_all_passes():
    """Seats 1 (chow W3 W4), 2 (pung W5 W5) and 3 (WIN_B, a win) are asked about seat 0's W5
    (id 18); they all pass: the window closes with no PASS event, only seat 1's draw of B7 (id
    96). The seat that could rob an added kong passes: only the kong and its replacement B2 (id
    76) are told. The game has no PASS event type."""
    before = position([None, "W3 W4", "W5 W5", WIN_B], drawn="W5", front="B7")
    live = before.back - before.front
    state, _ = run(before, Action(0, DISCARD, (18,)))
    assert state.to_act == (1, 2, 3)
    answers = []
    for seat in (3, 1, 2):
        state, events = MCR.apply(state, Action(seat, PASS))
        answers.append(events)
    assert answers == [[], [], [Event("DRAW", 1, (96,), values={"replacement": 0, "wall": live - 1})]]
    robbing = robbing_table()
    live = robbing.back - robbing.front
    state, events = run(robbing, Action(0, KONG, (16,)))
    assert types(events) == ["CLAIM_WINDOW"] and state.to_act == (2,)
    state, events = MCR.apply(state, Action(2, PASS))
    assert events == [Event("KONG", 0, (16, 17, 18, 19), values={"added": 1, "from": 1}),
                      Event("DRAW", 0, (76,), values={"replacement": 1, "wall": live - 1})]
    assert "PASS" not in MCR.event_types


def test_mcr_rule_5_an_added_kong_nobody_can_rob_stands_at_once():
    """Seat 0 adds the fourth W5 (id 16) to its pung (ids 17-19, from seat 1) and no seat can win
    on it: no robbing window opens; in the same apply the kong stands (KONG, its four tiles) and
    the replacement B2 (id 76) is drawn from the back: seat 0 on turn after a kong."""
    before = robbing_table(None)
    live = before.back - before.front
    assert before.drawn == 16 and before.wall[before.back - 1] == 76
    state, events = run(before, Action(0, KONG, (16,)))
    assert events == [Event("KONG", 0, (16, 17, 18, 19), values={"added": 1, "from": 1}),
                      Event("DRAW", 0, (76,), values={"replacement": 1, "wall": live - 1})]
    hands = list(before.hands)
    hands[0] = hands[0] & ~(1 << 16) | 1 << 76
    assert state == before._replace(hands=tuple(hands), melds=(((KONG_MELD, 1, 17, 16, 17, 18, 19),), (), (), ()),
                                    back=before.back - 1, phase=TURN, to_act=(0,), turn=0, tile=-1,
                                    window=Window(), drawn=76, after_kong=True, step=1)


def test_mcr_rule_5_the_claim_window_event_carries_no_seats_value():
    """CLAIM_WINDOW names the seat that discarded (or adds the kong) and the tile, with the one
    value ``robbing``: the window asking seat 2 alone and the one asking seats 1 and 2 about
    the same W5 (id 18) are told alike; a robbing window says robbing 1."""
    alone, events_alone = run(position([None, None, "W5 W5", None], drawn="W5"), Action(0, DISCARD, (18,)))
    both, events_both = run(position([None, "W3 W4", "W5 W5", None], drawn="W5"), Action(0, DISCARD, (18,)))
    assert (alone.to_act, both.to_act) == ((2,), (1, 2))
    window = Event("CLAIM_WINDOW", 0, (18,), values={"robbing": 0})
    assert events_alone == events_both == [Event("DISCARD", 0, (18,)), window]
    _, events = run(robbing_table(), Action(0, KONG, (16,)))
    assert events == [Event("CLAIM_WINDOW", 0, (16,), values={"robbing": 1})]
    assert set(MCR.event_types["CLAIM_WINDOW"].values) == {"robbing"}


def test_mcr_rule_5_a_pung_is_offered_as_three_tiles():
    """Seat 0 discards W5 (id 18); seat 2 holds W5 W5 (ids 16 17): its PUNG option names those
    two and its combination is the pung of three W5, the same one the check of that claim gives."""
    state, _ = claim_table()
    assert state.tile == 18
    legal = MCR.legal_actions(state, 2)
    pung = Combo("pung", W5, 1, 3, (W5, W5, W5), "pung 碰")
    assert legal == [(Action(2, PASS), None), (Action(2, PUNG, (16, 17)), pung)]
    verdict = MCR.check(state, Action(2, PUNG))
    assert verdict.legal and verdict.combo == pung and verdict.action == Action(2, PUNG, (16, 17))


def test_mcr_rule_5_the_combinations_of_each_claim():
    """Seat 0 discards W5 (id 19): seat 1 (W3 W4: ids 8 12) may chow, its run W3 W4 W5 named by
    its middle tile W4 (kind 3); seat 2 (W5 x3: ids 16-18) may pung or kong; seat 3 (WIN_B) wins."""
    state = position([None, "W3 W4", "W5 W5 W5", WIN_B], drawn="W5", back="B7")
    state, _ = run(state, Action(0, DISCARD, (19,)))
    assert MCR.legal_actions(state, 1) == [(Action(1, PASS), None),
                                           (Action(1, CHOW, (8, 12)), Combo("chow", 3, 1, 3, (2, 3, 4), "chow 吃"))]
    pung = (Action(2, PUNG, (16, 17)), Combo("pung", W5, 1, 3, (W5,) * 3, "pung 碰"))
    kong = (Action(2, KONG, (16, 17, 18)), Combo("kong", W5, 1, 4, (W5,) * 4, "exposed kong 明杠"))
    assert MCR.legal_actions(state, 2) == [(Action(2, PASS), None), pung, kong]
    for action, combo in (pung, kong):
        verdict = MCR.check(state, Action(2, action.kind))
        assert verdict.legal and (verdict.action, verdict.combo) == (action, combo)
    verdict = MCR.check(state, Action(1, CHOW, ranks=(2, 3, 4)))
    assert verdict.legal and (verdict.action.cards, verdict.combo) == ((8, 12), Combo("chow", 3, 1, 3, (2, 3, 4),
                                                                                          "chow 吃"))
    # seat 3 wins on a discard: 清龙 16, 门前清 2, 平和 2, 喜相逢 (T456 W456) 1, 坎张 1 = 22
    assert MCR.legal_actions(state, 3) == [(Action(3, PASS), None),
                                           (Action(3, WIN), Combo("win", W5, 1, 1, (W5,), "win 和 22 points"))]


def test_mcr_rule_5_a_kong_claim_beats_a_chow_and_loses_to_a_win():
    """WIN beats PUNG/KONG beats CHOW, whatever the order of the seats asked: seat 2's exposed
    kong beats seat 1's chow (seat 1 is asked first), and loses to seat 3's win."""
    state = position([None, "W3 W4", "W5 W5 W5", WIN_B], drawn="W5", back="B7")
    state, _ = run(state, Action(0, DISCARD, (19,)))
    chow = Action(1, CHOW, (8, 12))
    assert state.to_act == (1, 2, 3)
    kong, events = run(state, chow, Action(2, KONG), Action(3, PASS))
    assert types(events) == ["KONG", "DRAW"]
    assert events[0] == Event("KONG", 2, (16, 17, 18, 19), values={"from": 0, "claimed": 19})
    assert events[1].cards == (96,) and events[1].values["replacement"] == 1  # B7 from the back
    assert kong.melds[2] == ((KONG_MELD, 0, 19, 16, 17, 18, 19),) and kong.after_kong and kong.to_act == (2,)
    won, events = run(state, chow, Action(2, KONG), Action(3, WIN))
    assert types(events) == ["WIN"] and won.winner == 3 and won.payer == 0


def claimed_state(before, claimer, meld_kind, own, discarder, tile, asked):
    """The state after ``claimer``'s chow or pung of ``discarder``'s ``tile`` (the discard and the
    answers of the ``asked`` seats), worked out by hand: the claimed tile leaves the river, the
    claimer's own tiles its hand, the meld is recorded, and the claimer is on turn with no drawn
    tile, no open window and no window tile (-1)."""
    hands = list(before.hands)
    hands[discarder] &= ~(1 << tile)
    for t in own:
        hands[claimer] &= ~(1 << t)
    melds = list(before.melds)
    melds[claimer] = melds[claimer] + ((meld_kind, discarder, tile) + tuple(sorted(own + (tile,))),)
    # the rivers are as before: the claimed tile went into the discarder's river and left it
    return before._replace(hands=tuple(hands), melds=tuple(melds), phase=TURN, to_act=(claimer,), turn=claimer,
                           drawn=-1, after_kong=False, tile=-1, window=Window(), step=before.step + 1 + asked)


def test_mcr_rule_5_after_a_pung_or_chow_the_state_has_no_window_tile():
    """After a chow or pung claim the window is closed: the state (and so its token and digest)
    is the hand-built one, the window tile back to -1 as in every state on turn."""
    before = position([None, "W3 W4 F1 F1 F1 F1", "W5 W5", None], drawn="W5", discards={0: "B9 J3"})
    # ids: seat 1 W3 W4 = 8 12, seat 2 W5 W5 = 16 17, the drawn W5 = 18; seat 0's river B9 J3 = 104 132
    assert before.drawn == 18 and before.discards[0] == (104, 132)
    # seat 1 may chow, seat 2 pung: those two are asked (seat 3 is not)
    assert run(before, Action(0, DISCARD, (18,)))[0].to_act == (1, 2)
    state, _ = run(before, Action(0, DISCARD, (18,)), Action(1, PASS), Action(2, PUNG))
    assert state.discards[0] == (104, 132)
    assert state == claimed_state(before, 2, PUNG_MELD, (16, 17), 0, 18, 2)
    assert MCR.digest(state) == MCR.digest(claimed_state(before, 2, PUNG_MELD, (16, 17), 0, 18, 2))
    # the pung claimed from seat 0 is face up to everybody
    assert [MCR.view(state, s).seats[2].melds for s in (-1, 0, 1, 2, 3)] == [(Meld("pung", (16, 17, 18), 0),)] * 5
    state, _ = run(before, Action(0, DISCARD, (18,)), Action(1, CHOW, (8, 12)), Action(2, PASS))
    assert state == claimed_state(before, 1, CHOW_MELD, (8, 12), 0, 18, 2)
    # rule 4: after a claim the seat only discards: no self-drawn win, no kong
    assert {a.kind for a, _ in MCR.legal_actions(state, 1)} == {DISCARD}
    assert MCR.check(state, Action(1, WIN)).reason == "NOT_WIN"
    assert MCR.check(state, Action(1, KONG, ranks=(27,))).reason == Reason.WRONG_PHASE  # F1 x4 in hand


def test_mcr_rule_5_a_tile_won_on_a_discard_leaves_the_discarders_river():
    """Seat 0's river holds B9 J3 (ids 104 132) when its W5 (id 16) is won: the river is B9 J3
    again, and the winner's hand holds the W5."""
    state = position([None, None, WIN_B, None], drawn="W5", discards={0: "B9 J3"})
    assert state.drawn == 16 and state.discards[0] == (104, 132)
    won, _ = run(state, Action(0, DISCARD, (16,)), Action(2, WIN))  # seat 2 alone is asked
    assert won.discards == ((104, 132), (), (), ()) and won.hands[2] >> 16 & 1


def test_mcr_rule_5_claims_are_offered_while_one_tile_is_left():
    """One tile left in the wall: the discard may still be chowed or punged (the last tile will
    be drawn after them); the pung is taken."""
    state = position([None, "W3 W4", "W5 W5", None], drawn="W5", live=1)
    state, _ = run(state, Action(0, DISCARD, (18,)))
    assert state.back - state.front == 1
    assert [a.kind for a, _ in MCR.legal_actions(state, 1)] == [PASS, CHOW]
    assert [a.kind for a, _ in MCR.legal_actions(state, 2)] == [PASS, PUNG]
    assert MCR.check(state, Action(1, CHOW, (8, 12))).legal and MCR.check(state, Action(2, PUNG)).legal
    assert state.to_act == (1, 2)
    state, events = run(state, Action(1, PASS), Action(2, PUNG))
    assert types(events) == ["PUNG"] and state.to_act == (2,)
    # no tile left: no claim but a win. Nobody can win: no window, the hand is drawn at once
    last = position([None, "W3 W4", "W5 W5", None], drawn="W5", live=0)
    last, events = run(last, Action(0, DISCARD, (18,)))
    assert events == [Event("DISCARD", 0, (18,)), Event("DRAWN_GAME")] and last.finished
    # seat 3 (WIN_B) can win on it: it alone is asked, seat 1's chow and seat 2's pung are not offered
    last = position([None, "W3 W4", "W5 W5", WIN_B], drawn="W5", live=0)
    last, _ = run(last, Action(0, DISCARD, (18,)))
    assert last.to_act == (3,) and [MCR.legal_actions(last, s) for s in (1, 2)] == [[], []]
    assert [a.kind for a, _ in MCR.legal_actions(last, 3)] == [PASS, WIN]


def test_mcr_rule_5_a_pung_names_two_tiles_of_the_discards_kind_a_kong_three():
    """Seat 2 holds W5 x3 (ids 16-18) and W3 (id 8, named for it) when W5 (id 19) is discarded: a
    pung naming three W5, one W5, or W5 and W3 is no pung; a kong naming two W5 or W5 W5 W3 is no
    kong (NOT_A_COMBINATION); two W5, and three, are."""
    state = position([None, None, "W5 W5 W5 W3", None], drawn="W5")
    state, _ = run(state, Action(0, DISCARD, (19,)))
    for kind, cards in ((PUNG, (16, 17, 18)), (PUNG, (16,)), (PUNG, (8, 16)), (KONG, (16, 17)), (KONG, (8, 16, 17))):
        verdict = MCR.check(state, Action(2, kind, cards))
        assert not verdict.legal and verdict.reason == Reason.NOT_A_COMBINATION, (kind, cards)
    assert MCR.check(state, Action(2, PUNG, (17, 18))).action == Action(2, PUNG, (17, 18))
    assert MCR.check(state, Action(2, KONG, (16, 17, 18))).legal


def test_mcr_rule_5_a_pung_named_by_kind():
    """A PUNG may name the discard's kind (the lowest two copies held are taken); naming another
    kind is no pung. Seat 2 holds W5 W5 (ids 16 17) and W3 (id 8) when W5 (id 18) is discarded."""
    state = position([None, None, "W5 W5 W3", None], drawn="W5")
    state, _ = run(state, Action(0, DISCARD, (18,)))
    verdict = MCR.check(state, Action(2, PUNG, ranks=(W5,)))
    assert verdict.legal and verdict.action == Action(2, PUNG, (16, 17))
    assert MCR.check(state, Action(2, PUNG, ranks=(W5, W5))).action == Action(2, PUNG, (16, 17))
    for ranks in ((2,), (2, 2), (W5, 2)):  # W3 is kind 2
        verdict = MCR.check(state, Action(2, PUNG, ranks=ranks))
        assert not verdict.legal and verdict.reason == Reason.NOT_A_COMBINATION, ranks
    verdict = MCR.check(state, Action(2, KONG, ranks=(W5,)))  # two W5 are no kong
    assert not verdict.legal and verdict.reason == Reason.CARDS_NOT_IN_HAND


def test_mcr_rule_5_one_copy_of_the_discard_claims_nothing():
    """Seat 2 holds one W5 (id 16) when W5 (id 17) is discarded: no pung, no kong. With nothing
    else it is not asked (no window: seat 1 draws B7, id 96, at once); waiting on W5 with it
    (T1-T9 B1 B2 B3 W5: 清龙) it is asked for the win only, and a pung or a kong is refused."""
    state = position([None, None, "W5", None], drawn="W5", front="B7")
    live = state.back - state.front
    state, events = run(state, Action(0, DISCARD, (17,)))
    assert events == [Event("DISCARD", 0, (17,)), Event("DRAW", 1, (96,), values={"replacement": 0, "wall": live - 1})]
    assert MCR.legal_actions(state, 2) == []
    waiting = position([None, None, "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 W5", None], drawn="W5")
    waiting, _ = run(waiting, Action(0, DISCARD, (17,)))
    assert waiting.to_act == (2,) and [a.kind for a, _ in MCR.legal_actions(waiting, 2)] == [PASS, WIN]
    assert MCR.check(waiting, Action(2, PUNG)).reason == Reason.CARDS_NOT_IN_HAND
    assert MCR.check(waiting, Action(2, KONG)).reason == Reason.CARDS_NOT_IN_HAND


def test_mcr_rule_5_a_chow_named_or_not():
    """CHOW with no tiles: taken when the hand has one chow, refused NOT_A_COMBINATION ("no chow")
    with none, BAD_ACTION ("name the two tiles") with several. Seat 1 holds W8 W9 T2 T3 (ids 28 32
    40 44) when T1 (id 36) is discarded: W9 T2 (kinds 8 10, across the suits) is no chow either."""
    state = position([None, "W8 W9 T2 T3", None, None], drawn="T1")
    state, _ = run(state, Action(0, DISCARD, (36,)))
    assert MCR.check(state, Action(1, CHOW)).action == Action(1, CHOW, (40, 44))
    for cards in ((32, 40), (28, 32), (28, 40), (40,), (40, 44, 28)):
        assert MCR.check(state, Action(1, CHOW, cards)).reason == Reason.NOT_A_COMBINATION, cards
    assert MCR.check(state, Action(1, CHOW, ranks=(10,))).reason == Reason.NOT_A_COMBINATION  # T2 alone
    # naming the discard's kind T1 (9) alone, or with T2, names no tiles of the hand's run
    for ranks in ((9,), (9, 10)):
        verdict = MCR.check(state, Action(1, CHOW, ranks=ranks))
        assert not verdict.legal and verdict.reason == Reason.CARDS_NOT_IN_HAND, ranks
    assert MCR.check(state, Action(1, CHOW, ranks=(9, 10, 11))).action == Action(1, CHOW, (40, 44))
    none = position([None, "B1 B5 W5 W5", None, None], drawn="W5")  # asked for its pung, no chow
    none, _ = run(none, Action(0, DISCARD, (none.drawn,)))
    assert none.to_act == (1,) and [a.kind for a, _ in MCR.legal_actions(none, 1)] == [PASS, PUNG]
    verdict = MCR.check(none, Action(1, CHOW))
    assert (verdict.legal, verdict.reason, verdict.message) == (False, Reason.NOT_A_COMBINATION, "no chow")
    several = position([None, "W3 W4 W6", None, None], drawn="W5")
    several, _ = run(several, Action(0, DISCARD, (several.drawn,)))
    verdict = MCR.check(several, Action(1, CHOW))
    assert (verdict.legal, verdict.reason, verdict.message) == (False, Reason.BAD_ACTION,
                                                                "name the two tiles of the chow")


def test_mcr_rule_5_no_chow_of_honors_or_across_suits():
    """A chow is a run of one suit: F2 F3 do not chow F1 (seat 1, asked for its F1 pung, ids
    108 109); W8 W9 do not chow T1 (T2 T3 do); W8 T1 do not chow W9 (W7 W8 do)."""
    honors = position([None, "F1 F1 F2 F3 B8 B9", None, None], drawn="F1")
    honors, _ = run(honors, Action(0, DISCARD, (honors.drawn,)))
    assert honors.to_act == (1,)
    assert MCR.legal_actions(honors, 1) == [(Action(1, PASS), None),
                                            (Action(1, PUNG, (108, 109)), Combo("pung", 27, 1, 3, (27,) * 3, "pung 碰"))]
    f2, f3 = 112, 116
    verdict = MCR.check(honors, Action(1, CHOW, (f2, f3)))
    assert not verdict.legal and verdict.reason == Reason.NOT_A_COMBINATION
    low = position([None, "W8 W9 T2 T3", None, None], drawn="T1")  # W8 28, W9 32, T2 40, T3 44, T1 36
    assert low.drawn == 36
    low, _ = run(low, Action(0, DISCARD, (36,)))
    assert MCR.legal_actions(low, 1) == [(Action(1, PASS), None),
                                         (Action(1, CHOW, (40, 44)), Combo("chow", 10, 1, 3, (9, 10, 11), "chow 吃"))]
    assert MCR.check(low, Action(1, CHOW, (28, 32))).reason == Reason.NOT_A_COMBINATION
    high = position([None, "W7 W8 T1 T2", None, None], drawn="W9")  # W7 24, W8 28, T1 36, T2 40, W9 32
    assert high.drawn == 32
    high, _ = run(high, Action(0, DISCARD, (32,)))
    assert MCR.legal_actions(high, 1) == [(Action(1, PASS), None),
                                          (Action(1, CHOW, (24, 28)), Combo("chow", 7, 1, 3, (6, 7, 8), "chow 吃"))]
    assert MCR.check(high, Action(1, CHOW, (28, 36))).reason == Reason.NOT_A_COMBINATION
    refused = MCR.check(high, Action(1, CHOW))  # the one chow is taken when none is named
    assert refused.legal and refused.action == Action(1, CHOW, (24, 28))


def test_mcr_rule_5_b9_ends_a_run_of_dots():
    """B9 (kind 26, the last suited kind) is chowed by B7 B8 (ids 96 100)."""
    state = position([None, "B7 B8", None, None], drawn="B9")
    state, _ = run(state, Action(0, DISCARD, (state.drawn,)))
    chow = Combo("chow", 25, 1, 3, (24, 25, 26), "chow 吃")
    assert MCR.legal_actions(state, 1) == [(Action(1, PASS), None), (Action(1, CHOW, (96, 100)), chow)]
    assert MCR.check(state, Action(1, CHOW, (96, 100))).legal


def test_mcr_rule_5_a_robbing_window_offers_only_the_win():
    """While an added kong of W5 may be robbed, seat 1 (WIN_B, holding W4 W6, the next seat) may
    win but not chow it: the robbing window offers WIN or PASS only, where a discarded W5 would
    be offered to it as a chow too."""
    state = position([None, WIN_B, None, None], drawn="W5", melds={0: [("pung", 1, "W5 W5 W5")]}, back="B2")
    state, events = MCR.apply(state, Action(0, KONG, ranks=(W5,)))
    assert state.phase == 2 and types(events) == ["CLAIM_WINDOW"] and state.to_act == (1,)
    assert [a.kind for a, _ in MCR.legal_actions(state, 1)] == [PASS, WIN]
    assert MCR.check(state, Action(1, CHOW, ranks=(3, 5))).reason == Reason.WRONG_PHASE
    discarded = position([None, WIN_B, None, None], drawn="W5")
    discarded, _ = run(discarded, Action(0, DISCARD, (discarded.drawn,)))
    assert [a.kind for a, _ in MCR.legal_actions(discarded, 1)] == [PASS, CHOW, WIN]


# --- rule 7: the end of the wall ----------------------------------------------------------------------

def test_mcr_rule_7_an_exhausted_wall_ends_the_hand_with_nothing_drawn():
    """Nobody can claim the last discard (T9, id 68) and the wall is empty: no window opens, the
    hand is drawn in the same apply, nobody on turn, no drawn tile in any view, the state
    otherwise that of the discard."""
    state = position([None] * 4, drawn="T9", live=0)
    assert state.drawn == 68
    over, events = run(state, Action(0, DISCARD, (68,)))
    assert events == [Event("DISCARD", 0, (68,)), Event("DRAWN_GAME")]
    hands = list(state.hands)
    hands[0] &= ~(1 << 68)
    assert over == state._replace(hands=tuple(hands), discards=((68,), (), (), ()), phase=3, to_act=(), turn=1,
                                  tile=-1, window=Window(), drawn=-1, outcome=4, step=state.step + 1)
    assert [MCR.view(over, s).counters["drawn"] for s in range(-1, 4)] == [-1] * 5
    settlement = MCR.settle(over)
    assert (settlement.points, settlement.winners, settlement.outcome) == ((0, 0, 0, 0), (), "drawn")
    assert settlement.breakdown == (("dealer", 0),)


# --- rules 9-10: 和绝张, the last tile (three other copies face up), and the minimum ---------------------

def last_tile(state) -> bool:
    """Whether the won hand counts 和绝张 (fan 58, 4 points, once): its breakdown line and its fans."""
    breakdown = dict(MCR.settle(state).breakdown)
    assert breakdown["total"] == state.total > 0  # a won hand
    pairs = dict(zip(state.fans[0::2], state.fans[1::2]))
    assert ("fan_58" in breakdown) == (58 in pairs)
    if 58 in pairs:
        assert (breakdown["fan_58"], pairs[58]) == (4, 1)
    return "fan_58" in breakdown


def test_mcr_rule_9_last_tile_self_drawn_with_the_three_others_face_up():
    """Seat 0 (WIN_B) draws W5 (id 16) while the other three (17 in seat 1's river, 18 19 in
    seat 3's) are face up: a self-drawn 和绝张."""
    state = position([WIN_B, None, None, None], drawn="W5", discards={1: "W5", 3: "W5 W5"})
    assert state.drawn == 16 and state.discards[1] == (17,) and state.discards[3] == (18, 19)
    won, _ = MCR.apply(state, Action(0, WIN))
    assert last_tile(won)


def test_mcr_rule_9_last_tile_self_drawn_with_the_three_others_in_an_exposed_pung():
    """Seat 0 (WIN_B) draws W5 (id 16); the other three (17-19) are seat 3's pung, claimed
    from seat 2: a self-drawn 和绝张."""
    state = position([WIN_B, None, None, None], drawn="W5", melds={3: [("pung", 2, "W5 W5 W5")]})
    assert state.drawn == 16 and state.melds[3] == ((PUNG_MELD, 2, 17, 17, 18, 19),)
    won, _ = MCR.apply(state, Action(0, WIN))
    assert last_tile(won)


def test_mcr_rule_9_the_discarded_tile_is_not_one_of_the_three():
    """Seat 0 discards W5 with one other W5 in seat 1's river and one in seat 3's: two copies
    face up besides the tile won (three tiles in the rivers), so no 和绝张."""
    state = position([None, None, WIN_B, None], drawn="W5", discards={1: "W5", 3: "W5"})
    won, _ = run(state, Action(0, DISCARD, (state.drawn,)), Action(2, WIN))  # seat 2 alone is asked
    assert won.winner == 2 and not last_tile(won)


def test_mcr_rule_9_only_copies_of_the_winning_kind_count():
    """No other W5 is face up, but seat 1 shows a chow T1 T2 T3 claimed from seat 0: three face-up
    tiles of other kinds are no 和绝张."""
    state = position([None, None, WIN_B, None], drawn="W5", melds={1: [("chow", 0, "T1 T2 T3")]})
    won, _ = run(state, Action(0, DISCARD, (state.drawn,)), Action(2, WIN))  # seat 2 alone is asked
    assert won.winner == 2 and not last_tile(won)


# waits on W6 alone (坎张, W5 W7) and holds none: 平和 2, 门前清 2, 坎张 1 = 5 points (无字 is not
# counted with 平和)
SIX_ON_W6 = "W1 W2 W3 T3 T4 T5 B6 B7 B8 T7 T7 W5 W7"


def test_mcr_rule_10_the_last_tile_counts_toward_the_minimum():
    """The hand is worth 5 points on seat 1's W6: refused (UNDER_8) while two other W6 are face
    up (seat 2, the next seat, is asked for its chow W5 W7); with all three other W6 face up
    和绝张 adds 4: a 9-point win. Discarded by seat 0, the two-copies W6 asks nobody (seat 2 may
    not chow it, and a win under 8 is no claim): seat 1 draws at once."""
    two = position([None, None, SIX_ON_W6, None], turn=1, drawn="W6", discards={0: "W6", 3: "W6"})
    two, _ = run(two, Action(1, DISCARD, (two.drawn,)))
    assert two.to_act == (2,) and [a.kind for a, _ in MCR.legal_actions(two, 2)] == [PASS, CHOW]
    verdict = MCR.check(two, Action(2, WIN))
    assert not verdict.legal and verdict.reason == "UNDER_8"
    across = position([None, None, SIX_ON_W6, None], drawn="W6", discards={1: "W6", 3: "W6"})
    across, events = run(across, Action(0, DISCARD, (across.drawn,)))
    assert types(events) == ["DISCARD", "DRAW"] and across.to_act == (1,)
    three = position([None, None, SIX_ON_W6, None], turn=1, drawn="W6", discards={0: "W6", 3: "W6 W6"})
    three, _ = run(three, Action(1, DISCARD, (three.drawn,)))
    assert three.to_act == (2,) and [a.kind for a, _ in MCR.legal_actions(three, 2)] == [PASS, CHOW, WIN]
    won, _ = run(three, Action(2, WIN))
    assert (won.winner, won.points, won.total) == (2, 9, 9)
    # 和绝张 Last Tile 4, 门前清 Concealed Hand 2, 平和 All Chows 2, 坎张 Closed Wait 1, once each
    assert MCR.settle(won).breakdown[:4] == (("fan_58", 4), ("fan_62", 2), ("fan_63", 2), ("fan_78", 1))
    assert won.fans == bytes((58, 1, 62, 1, 63, 1, 78, 1))


# --- rule 11: settlement ------------------------------------------------------------------------------

def test_mcr_rule_11_the_breakdown_of_a_win_on_a_discard_with_flowers():
    """Seat 2 (全求人 6 + 箭刻 of J2 2 = 8 points, 2 flowers: total 10) wins on seat 0's J1: the
    discarder pays 8 + 10, the two others 8 each; the breakdown lists the fans by id, then the
    sums, the base, winner, payer and dealer."""
    melded = [("chow", 1, "W1 W2 W3"), ("chow", 1, "T4 T5 T6"), ("pung", 3, "B7 B7 B7"), ("pung", 0, "J2 J2 J2")]
    state = position([None, None, "J1", None], drawn="J1", melds={2: melded}, flowers={2: "H1 H2"})
    state, _ = run(state, Action(0, DISCARD, (state.drawn,)), Action(2, WIN))  # seat 2 alone is asked
    settlement = MCR.settle(state)
    assert settlement.points == (-18, -8, 34, -8) and settlement.winners == (2,)
    assert settlement.outcome == "won_on_discard"
    # 全求人 Melded Hand x1 (6), 箭刻 Dragon Pung x1 (2), 花牌 Flower Tiles x2 (1 each)
    assert state.fans == bytes((52, 1, 59, 1, 81, 2))
    assert settlement.breakdown == (("fan_52", 6), ("fan_59", 2), ("fan_81", 2),
                                    ("fan_points", 8), ("flowers", 2), ("total", 10), ("base", 8),
                                    ("winner", 2), ("payer", 0), ("dealer", 0))


def test_mcr_rule_11_the_seat_that_leaves_pays_8_to_each_other_seat():
    """ABANDON (逃跑) by seat 2 right after seat 1's discard (nobody could claim it: seat 2 drew
    and is on turn) in a hand seat 1 deals: seat 2 pays 8 to each other seat; nobody wins."""
    state = position([None] * 4, turn=1, drawn="T9", dealer=1)
    state, _ = run(state, Action(1, DISCARD, (state.drawn,)), Action(2, "ABANDON"))
    settlement = MCR.settle(state)
    assert (settlement.points, settlement.winners, settlement.outcome) == ((8, 8, -24, 8), (), "abandoned")
    assert settlement.breakdown == (("escaped_seat", 2), ("dealer", 1))


# --- rule 12: what the calculator is told -------------------------------------------------------------

def test_mcr_rule_12_the_calculator_is_told_each_meld_and_where_it_came_from():
    """Seat 2's melds and winds as ``win_hand`` describes them (mcr.Meld: a chow by its middle tile and the
    claimed tile's place from the lowest, 1-3; a pung or kong by its tile and the seat it came
    from, 1 left 上家, 2 opposite, 3 right 下家, 0 concealed): a chow W3 W4 W5 claiming W4 from
    seat 1, a pung of B7 from seat 3, an exposed kong of F1 from seat 0, a concealed kong of J1."""
    melds = [("chow", 1, "W4 W3 W5"), ("pung", 3, "B7 B7 B7"), ("kong", 0, "F1 F1 F1 F1"), ("kong", -1, "J1 J1 J1 J1")]
    state = position([None, None, "B5", None], turn=2, drawn="B5", melds={2: melds}, dealer=1, prevalent_wind=3)
    hand = win_hand(state, 2, state.drawn, True, False)
    assert hand.melds == (mcr.Meld(mcr.MeldKind.CHI, 3, 2), mcr.Meld(mcr.MeldKind.PENG, 24, 3),
                          mcr.Meld(mcr.MeldKind.GANG, 27, 2), mcr.Meld(mcr.MeldKind.GANG, 31, 0))
    # seat 2 is south (1) when seat 1 deals; the prevalent wind is the option's, north (3)
    assert (hand.concealed, hand.win_tile, hand.seat_wind, hand.prevalent_wind) == ((22,), 22, 1, 3)
    other = position([None, None, "B5", None], turn=2, drawn="B5",
                     melds={2: [("chow", 3, "W5 W3 W4"), ("chow", 3, "T1 T2 T3"), ("pung", 1, "B7 B7 B7")]})
    assert win_hand(other, 2, other.drawn, True, False).melds[:3] == (
        mcr.Meld(mcr.MeldKind.CHI, 3, 3), mcr.Meld(mcr.MeldKind.CHI, 10, 1), mcr.Meld(mcr.MeldKind.PENG, 24, 1))


# --- rule 13: the match -------------------------------------------------------------------------------

def test_mcr_rule_13_prevalent_wind_turns_from_north_back_to_east():
    """The prevalent wind turns E S W N every four hands, and after N comes E again (0..3): a
    match from a North round (3) deals its fifth hand in an East round (0); a match of 20 hands
    from East goes round the four winds and starts again."""
    leave = [0] * 20  # every hand abandoned at once: the carry does not depend on how a hand ends
    north = match_hands(Options(prevalent_wind=3), b"north", 5, leave)
    assert [dealt.prevalent_wind for dealt, _ in north] == [3, 3, 3, 3, 0]
    assert [dealt.dealer for dealt, _ in north] == [0, 1, 2, 3, 0]  # the deal passes to the next seat
    assert MCR.view(north[4][0], -1).counters["prevalent_wind"] == 0
    long = match_hands(Options(hands=20), b"twenty", 20, leave)
    assert [dealt.prevalent_wind for dealt, _ in long] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4 + [0] * 4
    assert all(MCR.settle(finished).outcome == "abandoned" for _, finished in long)
    assert [MCR.match_over(finished) for _, finished in long[17:]] == [False, False, True]
    assert MCR.next_round(long[19][1]).number == 1  # the next 局 at the same table


# --- views and state tokens ---------------------------------------------------------------------------

def test_mcr_views_a_concealed_kong_of_the_last_seat_is_face_down_to_a_spectator():
    """Seat 3 holds a concealed kong of J1 (ids 124-127): a spectator (seat -1) and the other
    seats see four seats and that kong face down; seat 3 sees its tiles."""
    state = position([None] * 4, drawn="T9", melds={3: [("kong", -1, "J1 J1 J1 J1")]})
    for viewer in (-1, 0, 1, 2):
        seats = MCR.view(state, viewer).seats
        assert len(seats) == 4 and seats[3].melds == (Meld("kong", (), -1),)
        assert [s.role for s in seats] == ["east", "south", "west", "north"]
    own = MCR.view(state, 3).seats
    assert len(own) == 4 and own[3].melds == (Meld("kong", (124, 125, 126, 127), -1),)
    assert own[:3] == MCR.view(state, -1).seats[:3]


def test_mcr_views_a_won_hand_shows_the_winners_tiles_only():
    """Seat 0 wins by self-draw on W1 (W1_DRAWN): every view shows its hand (ids 0 4 .. 32, T1
    36-38, B5 88 89); the concealed kongs of seat 2 (J1: 124-127) and seat 3 (J2: 128-131) stay
    face down but to their own seat; a spectator holds no hand; no seat has a team (-1)."""
    kongs = {2: [("kong", -1, "J1 J1 J1 J1")], 3: [("kong", -1, "J2 J2 J2 J2")]}
    state = position([W1_DRAWN, None, None, None], drawn="W1", melds=kongs)
    won, _ = MCR.apply(state, Action(0, WIN))
    winner_hand = (0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 37, 38, 88, 89)
    for viewer in (-1, 0, 1, 2, 3):
        view = MCR.view(won, viewer)
        seats = view.seats
        assert len(seats) == 4 and seats[0].cards == {"discards": (), "flowers": (), "hand": winner_hand}
        assert all(seat.cards == {"discards": (), "flowers": ()} for seat in seats[1:])
        assert [seat.team for seat in seats] == [-1] * 4 and seats[0].hand_size == 14
        assert seats[2].melds == (Meld("kong", (124, 125, 126, 127) if viewer == 2 else (), -1),)
        assert seats[3].melds == (Meld("kong", (128, 129, 130, 131) if viewer == 3 else (), -1),)
    assert MCR.view(won, -1).hand == () and MCR.view(won, 0).hand == winner_hand


def test_mcr_a_state_token_is_a_packed_tuple():
    """``pack`` writes the version byte 3 (rule 16's false wins), then marshal format 2 of the state's fields in declared
    order (records flattened to tuples, the fans as bytes); ``unpack`` takes those bytes and
    nothing else: the same values marshalled as a list are refused (STATE_TOKEN_INVALID), so
    are too few or too many values, another version byte and bytes that are no state."""
    state = MCR.deal(Options(), b"token")
    packed = MCR.pack(state)
    assert packed[0] == 3 and MCR.unpack(packed) == state
    values = marshal.loads(packed[1:])
    assert packed == b"\x03" + marshal.dumps(values, 2)
    assert values == ((0, 0, 8, 16, 0), b"token", b"", (0, (0, 0, 0, 0), None, 0), 0, 0, state.wall, state.front,
                      state.back, state.hands, ((), (), (), ()), ((), (), (), ()), state.flowers, TURN, (0,), 0,
                      state.drawn, False, -1, ((), ()), -1, -1, b"", 0, 0, 0, -1, 0, (0, 0, 0, 0))
    for data in (b"\x03" + marshal.dumps(list(values), 2), b"\x03" + marshal.dumps(values[:-1], 2),
                 b"\x03" + marshal.dumps(values + (0,), 2), b"\x04" + packed[1:], packed[:-1], b"not a state"):
        with pytest.raises(InvalidAction) as error:
            MCR.unpack(data)
        assert error.value.reason == Reason.STATE_TOKEN_INVALID


def test_mcr_equal_states_pack_to_equal_bytes():
    """``pack`` is marshal format 2, without references: two equal states pack alike whether or
    not they share objects (here the entropy is the seed object itself, or an equal copy)."""
    state = MCR.deal(Options(), b"shared bytes" * 3)
    shared = state._replace(entropy=state.seed)
    copied = state._replace(entropy=bytes(bytearray(state.seed)))
    assert shared == copied and shared.entropy is not copied.entropy
    assert MCR.pack(shared) == MCR.pack(copied) and MCR.digest(shared) == MCR.digest(copied)
    assert MCR.unpack(MCR.pack(shared)) == copied


def test_mcr_the_secret_cards_of_a_seat():
    """A seat's secret tiles are its concealed hand and its concealed kongs (not an exposed meld,
    whichever seat it came from); while its added kong may be robbed, that tile is shown; a
    winner has none."""
    melds = {1: [("pung", 0, "B7 B7 B7"), ("kong", -1, "J1 J1 J1 J1")], 0: [("pung", 1, "W5 W5 W5")]}
    state = position([None, None, WIN_B, None], drawn="W5", melds=melds, back="B2")
    hand1 = {t for t in range(144) if state.hands[1] >> t & 1}
    assert set(MCR.secret_cards(state, 1)) == hand1 | {124, 125, 126, 127}
    assert len(MCR.secret_cards(state, 1)) == len(hand1) + 4
    hand0 = {t for t in range(144) if state.hands[0] >> t & 1}
    assert set(MCR.secret_cards(state, 0)) == hand0 and state.drawn in hand0
    robbable, _ = MCR.apply(state, Action(0, KONG, (state.drawn,)))
    assert set(MCR.secret_cards(robbable, 0)) == hand0 - {state.drawn}
    assert set(MCR.secret_cards(robbable, 1)) == hand1 | {124, 125, 126, 127}
    assert robbable.to_act == (2,)
    won, _ = MCR.apply(robbable, Action(2, WIN))
    assert MCR.secret_cards(won, 2) == () and set(MCR.secret_cards(won, 1)) == hand1 | {124, 125, 126, 127}


def test_mcr_rule_12_the_calculator_is_told_the_last_tile_and_the_end_of_the_wall():
    """``win_hand`` looks up 和绝张 when not told (the three other copies face up) and tells
    whether the wall is empty (海底捞月 / 妙手回春): seat 2 (WIN_B) and seat 0's W5 (id 16)."""
    def hand(discards, live):
        state = position([None, None, WIN_B, None], drawn="W5", discards=discards, live=live)
        state, _ = run(state, Action(0, DISCARD, (16,)))
        return win_hand(state, 2, 16, False, False)

    assert (hand({1: "W5", 3: "W5 W5"}, None).fourth_tile, hand({1: "W5", 3: "W5"}, None).fourth_tile) == (True, False)
    assert [(hand({}, live).wall_last, hand({}, live).fourth_tile) for live in (0, 1, 2)] == [
        (True, False), (False, False), (False, False)]


def test_mcr_state_bytes_are_the_padded_state_the_readme_states():
    # README "State tokens and keys": every mcr token seals a state padded to 2,847 bytes; a won
    # hand's fans take two bytes each (id, count) for up to every fan of the table
    assert MCR.state_bytes == 2847
    assert MCR.codec.max_size() <= MCR.state_bytes
