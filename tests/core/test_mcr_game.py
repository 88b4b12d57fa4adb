"""国标麻将 as a refereed game: deal, draws, claims, kongs, wins and payments (rules/mcr.md 1-11).

Positions are built from a real deal with ``position``: each test names the hands, melds,
rivers and the live wall it is about; tile ids are allocated copy by copy, so a kind named in
several places gets distinct physical tiles.
"""
import random

import pytest

from referee.core import rng
from referee.core.games.mcr import fans as mcr
from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.game import ABANDON, PASS, Action, Event, Meld, SeatView, View
from referee.core.games.mcr.fan_table import FANS, TILE_IDS
from referee.core.games.mcr.rules import (CHOW, CHOW_MELD, CLAIM, DISCARD, KONG, KONG_MELD, MCR, NOT_WIN, NOTATION,
                                   PUNG, PUNG_MELD, ROB, TURN, UNDER_8, WIN, Options, State,
                                   claim_options, tile_kind, win_hand, win_result)
from referee.core.registry import get_game

MELD_KINDS = {"chow": CHOW_MELD, "pung": PUNG_MELD, "kong": KONG_MELD}

# hands used below (13 tiles): WIN_A wins on a self-drawn B5 (清龙), WIN_B on W5 (清龙, 坎张);
# SMALL wins on F1 with 3 points (5 self-drawn); JUNK wins on nothing. Seats not named hold
# quiet tiles (``quiet_hand``).
WIN_A = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"
WIN_B = "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B1 W4 W6"
SMALL = "W2 W3 W4 T6 T7 T8 B3 B4 B5 W7 W8 W9 F1"
JUNK = "W1 W2 W4 T1 T3 T5 B2 B6 B8 F1 F2 J1 J3"


class Tiles:
    """Physical ids for tile names: each name takes the lowest copy not yet taken."""

    def __init__(self):
        self.used: list[int] = []

    def take(self, text: str) -> tuple[int, ...]:
        out = []
        for name in text.split():
            kind = TILE_IDS[name]
            tile = next(t for t in range(144) if tile_kind(t) == kind and t not in self.used)
            self.used.append(tile)
            out.append(tile)
        return tuple(out)


def mask(ids) -> int:
    return sum(1 << t for t in ids)


_QUIET_ORDER = ("F1 F2 F3 F4 J1 J2 J3 W1 W5 W9 T1 T5 T9 B1 B5 B9 W2 W6 T2 T6 B2 B6 W3 W7 T3 T7 B3 B7 "
                 "W4 W8 T4 T8 B4 B8").split()


def quiet_hand(tiles, avoid, base=(), size=13) -> tuple[int, ...]:
    """``base`` topped up to ``size`` tiles that claim nothing and add no win: no kind twice, no
    two of a suit within two ranks (no pung, no chow), kinds in ``avoid`` left out. A hand of
    quiet tiles only (and no meld) also holds a simple (no thirteen orphans) and two tiles of a
    suit four ranks apart (not knitted), so it wins on nothing."""
    kinds = [tile_kind(t) for t in base]
    for name in _QUIET_ORDER:
        kind = TILE_IDS[name]
        if len(kinds) == size or kind in avoid or kind in kinds:
            continue
        if kind < 27 and any(k < 27 and k // 9 == kind // 9 and abs(k - kind) <= 2 for k in kinds):
            continue
        if all(t in tiles.used for t in range(kind * 4, kind * 4 + 4)):
            continue
        kinds.append(kind)
    assert len(kinds) == size
    if not base and size == 13:
        assert any(k < 27 and k + 4 in kinds and (k + 4) // 9 == k // 9 for k in kinds)
    added = kinds[len(base):]
    return tuple(base) + tiles.take(" ".join(NOTATION.format_ranks([k]) for k in added))


def position(hands, turn=0, drawn="", melds=None, discards=None, flowers=None, front="", back="",
             live=None, dealer=0, after_kong=False, avoid="", **options) -> State:
    """A TURN state: ``hands`` four texts (None: no tile named), each topped up to 13 tiles less 3
    per meld with quiet tiles (``quiet_hand``, avoiding the drawn, front and back tiles and
    ``avoid``); ``drawn`` a tile added to the turn seat's hand as its draw;
    ``melds`` {seat: [(kind, source, text)]} (claimed tile first; source -1 concealed);
    ``front``/``back`` the next tiles drawn from either end; ``live`` the live wall's size (``front`` included)."""
    tiles = Tiles()
    hand_ids = [list(tiles.take(h or "")) for h in hands]
    drawn_id = -1
    if drawn:
        drawn_id = tiles.take(drawn)[0]
    meld_tuples = [()] * 4
    for seat, items in (melds or {}).items():
        out = []
        for kind, source, text in items:
            ids = tiles.take(text)
            out.append((MELD_KINDS[kind], source, ids[0] if source >= 0 else -1) + tuple(sorted(ids)))
        meld_tuples[seat] = tuple(out)
    river = [()] * 4
    for seat, text in (discards or {}).items():
        river[seat] = tiles.take(text)
    flower_ids = [()] * 4
    for seat, text in (flowers or {}).items():
        flower_ids[seat] = tiles.take(text)
    front_ids, back_ids = tiles.take(front), tiles.take(back)
    avoid_kinds = {TILE_IDS[n] for n in (avoid + " " + drawn + " " + front + " " + back).split()}
    for seat in range(4):
        size = 13 - 3 * len(meld_tuples[seat])
        hand_ids[seat] = list(quiet_hand(tiles, avoid_kinds, hand_ids[seat], size)) + (
            [drawn_id] if seat == turn and drawn else [])
    plain = [t for t in range(136) if t not in tiles.used]  # flowers in the middle of the wall
    rest = plain[:len(plain) // 2] + [t for t in range(136, 144) if t not in tiles.used] + plain[len(plain) // 2:]
    live_ids = list(front_ids) + rest + list(reversed(back_ids))
    gone = []
    if live is not None:
        gone = live_ids[len(front_ids):len(live_ids) - (live - len(front_ids))]
        live_ids = [t for t in live_ids if t not in gone]
    used = [t for t in tiles.used if t not in front_ids and t not in back_ids]
    wall = bytes(used + gone + live_ids)
    assert sorted(wall) == list(range(144))
    state = MCR.deal(Options(dealer=dealer, **options), b"position")
    return state._replace(
        wall=wall, front=len(used) + len(gone), back=144, hands=tuple(mask(h) for h in hand_ids),
        melds=tuple(meld_tuples), discards=tuple(river), flowers=tuple(flower_ids), phase=TURN,
        to_act=(turn,), turn=turn, drawn=drawn_id, after_kong=after_kong)


def ids_of(state, seat, text):
    """The lowest ids of the named kinds in ``seat``'s hand."""
    kinds, _ = NOTATION.parse_cards_or_ranks(text.replace(" ", ""))
    hand, out = state.hands[seat], []
    for kind in kinds:
        tile = next(t for t in range(144) if (hand >> t) & 1 and tile_kind(t) == kind and t not in out)
        out.append(tile)
    return tuple(out)


def discard(state, seat, name):
    return MCR.apply(state, Action(seat, DISCARD, ranks=(TILE_IDS[name],)))


def run(state, *actions):
    events = []
    for action in actions:
        state, new = MCR.apply(state, action)
        events += new
    return state, events


def others(seat):
    """The three other seats, counterclockwise from ``seat`` (the order a window asks them in;
    only those that can claim are asked)."""
    return tuple((seat + i) % 4 for i in (1, 2, 3))


def pass_window(state):
    """The open window answered PASS by every seat still asked, in the order of ``to_act``;
    (state, []) when no window is open (nobody could claim: the next seat drew already)."""
    if state.phase not in (CLAIM, ROB):
        return state, []
    return run(state, *[Action(s, PASS) for s in state.to_act])


# the reasons of input that cannot be used (InvalidAction); every other refusal breaks a rule
MALFORMED = (Reason.MALFORMED_REQUEST, Reason.UNKNOWN_CARD, Reason.DUPLICATE_CARD, Reason.BAD_OPTION,
             Reason.BAD_SEAT_COUNT, Reason.BAD_SEAT, Reason.BAD_ACTION, Reason.STATE_TOKEN_INVALID, Reason.BAD_SEED)


def refused(state, action, reason):
    """Refused with ``reason``, and applying it raises and changes nothing."""
    before = MCR.digest(state)
    verdict = MCR.check(state, action)
    assert not verdict.legal and verdict.reason == reason, verdict
    with pytest.raises(InvalidAction if reason in MALFORMED else IllegalAction) as error:
        MCR.apply(state, action)
    assert error.value.reason == reason
    assert MCR.digest(state) == before


def shown_cards(view):
    """Every tile a view shows besides its own hand: public cards, each seat's cards and melds."""
    out = [t for cards in view.public_cards.values() for t in cards]
    for seat in view.seats:
        out += [t for cards in seat.cards.values() for t in cards]
        out += [t for meld in seat.melds for t in meld.cards]
    return out


def types(events):
    return [e.type for e in events]


def fan_lines(state):
    """The settlement's fan lines, ("fan_<id>", the fan's points x its count), checked against the
    won hand's ``fans`` (id, count, id, count ... one byte each)."""
    lines = [(name, value) for name, value in MCR.settle(state).breakdown
             if name.startswith("fan_") and name != "fan_points"]
    fans = state.fans
    assert type(fans) is bytes and len(fans) % 2 == 0
    assert lines == [(f"fan_{i}", FANS[i - 1].points * n) for i, n in zip(fans[0::2], fans[1::2])]
    return set(lines)


def test_the_fan_lines_these_tests_name():
    """The breakdown names a fan ``fan_<id>`` (its id in the seed's table); ListGames' declared
    breakdown names gives each its display name."""
    named = {28: ("清龙", "Pure Straight", 16), 44: ("妙手回春", "Last Tile Draw", 8),
             45: ("海底捞月", "Last Tile Claim", 8), 46: ("杠上开花", "Out with Replacement Tile", 8),
             47: ("抢杠和", "Robbing the Kong", 8), 52: ("全求人", "Melded Hand", 6), 58: ("和绝张", "Last Tile", 4),
             59: ("箭刻", "Dragon Pung", 2), 81: ("花牌", "Flower Tiles", 1)}
    for fan_id, (cn, en, points) in named.items():
        assert FANS[fan_id - 1][:4] == (fan_id, cn, en, points)
        assert MCR.breakdown[f"fan_{fan_id}"].startswith(f"{cn} {en}: {points} points")


def all_tiles(state):
    tiles = [t for h in state.hands for t in range(144) if (h >> t) & 1]
    tiles += [t for seat in state.melds for m in seat for t in m[3:]]
    tiles += [t for r in state.discards for t in r] + [t for f in state.flowers for t in f]
    return tiles + list(state.wall[state.front:state.back])


# --- tiles and notation (rule 1) -------------------------------------------------------------------

def test_rule_1_tile_ids_and_notation():
    assert NOTATION.id_count == 144 and MCR.notation is NOTATION
    assert NOTATION.format_cards([0, 1, 9 * 4 + 4 * 4, 27 * 4, 138]) == "W1 W1 T5 F1 H3"
    ids, concrete = NOTATION.parse_cards_or_ranks("W1 W1 T5 F1 H3")
    assert concrete and ids == (0, 1, 52, 108, 138)
    assert NOTATION.parse_cards_or_ranks("w1, j3") == ((0, 33 * 4), True)
    assert NOTATION.parse_cards_or_ranks("W119T5F1H3") == ((0, 0, 8, 13, 27, 36), False)
    assert NOTATION.format_ranks((13, 0, 8, 0, 27, 36)) == "W119T5F1H3"
    assert NOTATION.ranks_of((138, 0, 1, 52)) == (0, 0, 13, 36)
    for t in range(144):  # each id prints and parses back to itself (as the first copy of its kind)
        text = NOTATION.format_cards([t])
        assert tile_kind(NOTATION.parse_cards_or_ranks(text)[0][0]) == tile_kind(t)
    every = NOTATION.format_cards(range(144))
    assert NOTATION.parse_cards_or_ranks(every) == (tuple(range(144)), True)


@pytest.mark.parametrize("text,reason", [("W1 W1 W1 W1 W1", Reason.DUPLICATE_CARD),
                                         ("H1 H1", Reason.DUPLICATE_CARD), ("W0", Reason.UNKNOWN_CARD),
                                         ("F5", Reason.UNKNOWN_CARD), ("X1", Reason.UNKNOWN_CARD),
                                         ("W1 3S", Reason.UNKNOWN_CARD)])
def test_rule_1_bad_tile_text(text, reason):
    with pytest.raises(InvalidAction) as error:
        NOTATION.parse_cards_or_ranks(text)
    assert error.value.reason == reason


def test_registry_and_options():
    assert get_game("mcr") is MCR and MCR.min_seats == MCR.max_seats == 4
    assert {i.name: i.default for i in MCR.option_infos()} == {"dealer": 0, "prevalent_wind": 0,
                                                                "min_points": 8, "hands": 16,
                                                                "false_win_penalty": 0}
    assert MCR.make_options(overrides={"prevalent_wind": 3}).prevalent_wind == 3
    assert MCR.make_options(overrides={"hands": 4}).hands == 4
    for bad in ({"prevalent_wind": 4}, {"dealer": 4}, {"dealer": -2}, {"min_points": True}, {"hands": 0}):
        with pytest.raises(InvalidAction):
            MCR.make_options(overrides=bad)


# --- deal (rules 2-3) ---------------------------------------------------------------------------------

def test_rule_2_deal_from_the_seeded_wall():
    state = MCR.deal(Options(), b"seed-1")
    key = rng.deal_key(b"seed-1")
    assert state.wall == bytes(rng.Stream(key, "wall").shuffle(range(144)))
    assert sorted(all_tiles(state)) == list(range(144))
    sizes = [h.bit_count() for h in state.hands]
    assert sizes == [14, 13, 13, 13] and state.to_act == (0,) and state.phase == TURN
    assert all(not h >> 136 for h in state.hands)  # no flower stays in a hand
    assert state.front == 53 and state.back == 144 - sum(len(f) for f in state.flowers)
    assert MCR.digest(MCR.deal(Options(), b"seed-1")) == MCR.digest(state)
    assert MCR.digest(MCR.deal(Options(), b"seed-2")) != MCR.digest(state)
    assert MCR.digest(MCR.deal(Options(), b"seed-1", b"caller")) != MCR.digest(state)


def test_rule_2_dealer_and_seat_winds():
    state = MCR.deal(Options(dealer=2), b"seed-1")
    assert state.to_act == (2,) and state.hands[2].bit_count() == 14
    assert tuple(s.role for s in MCR.view(state, 0).seats) == ("west", "north", "east", "south")
    drawn = MCR.deal(Options(dealer=-1), b"seed-1")
    assert drawn.dealer == rng.Stream(rng.deal_key(b"seed-1"), "dealer").randbelow(4)
    # seat winds from the dealer reach the calculator: seat 3 is south when seat 2 deals
    win = position([None, None, None, WIN_A], turn=3, drawn="B5", dealer=2, prevalent_wind=1)
    hand = win_hand(win, 3, win.drawn, True, False)  # seat 3 is south when seat 2 deals
    assert (hand.seat_wind, hand.prevalent_wind) == (1, 1)


def test_rule_3_flowers_set_aside_at_deal_and_replaced_from_the_back():
    for n in range(40):
        state = MCR.deal(Options(), f"flowers-{n}".encode())
        if sum(len(f) for f in state.flowers) >= 2:
            break
    events = MCR.deal_events(state)
    flower_events = [e for e in events if e.type == "FLOWER"]
    assert sorted(t for e in flower_events for t in e.cards) == sorted(t for f in state.flowers for t in f)
    assert all(t >= 136 for f in state.flowers for t in f)
    dealt = set(state.wall[:53])
    replacements = set(state.wall[state.back:])
    assert {t for f in state.flowers for t in f} <= dealt | replacements
    held = {t for h in state.hands for t in range(136) if (h >> t) & 1}
    assert replacements - {t for f in state.flowers for t in f} <= held
    assert [e.type for e in events[:4]] == ["DEAL"] * 4


def test_rule_3_flower_drawn_in_play_is_replaced_from_the_back():
    state = position([None] * 4, drawn="T9", front="H2 W9", back="B7")
    state, events = discard(state, 0, "T9")  # nobody can claim T9: no window, seat 1 draws at once
    assert types(events) == ["DISCARD", "FLOWER", "DRAW"]
    assert events[1].seat == 1 and NOTATION.format_cards(events[1].cards) == "H2"
    assert events[2].seat == 1 and NOTATION.format_cards(events[2].cards) == "B7"
    assert events[2].values["replacement"] == 1
    assert NOTATION.format_cards(state.flowers[1]) == "H2" and state.drawn == events[2].cards[0]
    assert state.to_act == (1,) and not state.after_kong


def test_draws_are_private():
    state = position([None] * 4, drawn="T9", front="W9")
    state, events = discard(state, 0, "T9")  # nobody can claim T9: seat 1 draws in the same apply
    assert types(events) == ["DISCARD", "DRAW"]
    draw = events[-1]
    known = MCR.knowledge(state)
    assert draw.type == "DRAW" and draw.seat == 1
    assert known.seats[1] >> draw.cards[0] & 1 and not known.public >> draw.cards[0] & 1
    assert all(not known.allowed(s) >> draw.cards[0] & 1 for s in (0, 2, 3, -1))
    assert draw.cards[0] in MCR.view(state, 1).hand and MCR.view(state, 1).counters["drawn"] == draw.cards[0]
    for seat in (0, 2, 3, -1):
        view = MCR.view(state, seat)
        assert view.counters["drawn"] == -1
        assert draw.cards[0] not in view.hand
        assert draw.cards[0] not in shown_cards(view)
    assert MCR.view(state, -1).hand == ()
    assert tuple(s.hand_size for s in MCR.view(state, 2).seats) == (13, 14, 13, 13)


# --- turn: self-drawn wins, refused wins (rules 4, 6, 10, 11) ----------------------------------------

def test_rule_11_self_drawn_win_every_other_seat_pays_8_plus_fans():
    state = position([WIN_A, None, None, None], drawn="B5", flowers={0: "H1 H5"})
    legal = MCR.legal_actions(state, 0)
    assert legal[-1][0].kind == WIN and legal[-1][1].kind == "win"
    state, events = MCR.apply(state, Action(0, WIN))
    assert types(events) == ["WIN"] and state.finished
    settlement = MCR.settle(state)
    fans = mcr.calculate_fans(mcr.Hand((), mcr.parse_tiles(WIN_A), mcr.parse_tile("B5"), self_drawn=True,
                                       flowers=2))
    assert state.total == fans.total and state.points == fans.points and fans.total == fans.points + 2
    pay = 8 + fans.total
    assert settlement.points == (3 * pay, -pay, -pay, -pay) and settlement.outcome == "self_drawn"
    assert settlement.winners == (0,) and sum(settlement.points) == 0
    assert ("fan_28", 16) in fan_lines(state) and ("fan_81", 2) in fan_lines(state)  # 清龙 x1, 花牌 x2
    assert dict(settlement.breakdown)["total"] == fans.total
    assert MCR.view(state, 1).seats[0].cards["hand"] == tuple(sorted(MCR.view(state, 0).hand))
    for viewer in range(-1, 4):  # the losers' hands stay hidden
        assert ["hand" in s.cards for s in MCR.view(state, viewer).seats] == [True, False, False, False]


def test_rule_6_not_a_winning_hand_is_refused_and_changes_nothing():
    state = position([JUNK, None, None, None], drawn="W9")
    refused(state, Action(0, WIN), NOT_WIN)
    assert all(a.kind != WIN for a, _ in MCR.legal_actions(state, 0))


def test_rule_10_under_8_points_is_refused_and_changes_nothing():
    state = position([SMALL, None, None, None], drawn="F1", flowers={0: "H1 H2 H3 H4"})
    refused(state, Action(0, WIN), UNDER_8)  # 5 points: flowers never count toward 8
    assert all(a.kind != WIN for a, _ in MCR.legal_actions(state, 0))
    lower = state._replace(options=Options(min_points=5))
    assert MCR.check(lower, Action(0, WIN)).legal


def test_rule_10_under_8_on_a_discard_is_refused():
    state = position([None, None, SMALL, None], drawn="F1")
    with pytest.raises(IllegalAction) as error:  # seat 2's only claim would be a win under 8 ...
        win_result(state, 2, state.drawn, False, False)
    assert error.value.reason == UNDER_8
    state, events = discard(state, 0, "F1")  # ... which is no claim: nobody is asked, seat 1 draws
    assert types(events) == ["DISCARD", "DRAW"] and events[1].seat == 1
    assert state.phase == TURN and state.to_act == (1,)
    state = position([None, None, "W2 W3 W4 T6 T7 T8 B3 B4 B5 F2 F2 W9 W9", None], drawn="F2")
    state, _ = discard(state, 0, "F2")
    assert state.phase == CLAIM and state.to_act == (2,)  # asked for its pung
    assert [a.kind for a, _ in MCR.legal_actions(state, 2)] == [PASS, PUNG]
    assert all(MCR.legal_actions(state, s) == [] for s in (0, 1, 3))
    refused(state, Action(2, WIN), UNDER_8)


def test_rule_4_after_a_chow_or_pung_only_a_discard():
    state = position([None, "T1 T1 T1 T1 B4 B5", None, None], drawn="B3")
    state, _ = discard(state, 0, "B3")
    assert state.phase == CLAIM and state.to_act == (1,)
    state, _ = MCR.apply(state, Action(1, CHOW, ids_of(state, 1, "B4 B5")))
    assert state.phase == TURN and state.to_act == (1,) and state.drawn == -1
    refused(state, Action(1, WIN), NOT_WIN)
    refused(state, Action(1, KONG, ranks=(TILE_IDS["T1"],)), Reason.WRONG_PHASE)
    assert {a.kind for a, _ in MCR.legal_actions(state, 1)} == {DISCARD}


def test_turn_actions_are_checked():
    state = position([JUNK, None, None, None], drawn="W9")
    refused(state, Action(0, PASS), Reason.WRONG_PHASE)
    refused(state, Action(0, CHOW), Reason.WRONG_PHASE)
    refused(state, Action(0, DISCARD, (200,)), Reason.UNKNOWN_CARD)
    refused(state, Action(0, DISCARD, (1, 1)), Reason.DUPLICATE_CARD)
    refused(state, Action(0, DISCARD, ids_of(state, 0, "W1 W2")), Reason.BAD_ACTION)
    other = next(t for t in range(136) if not (state.hands[0] >> t) & 1)
    refused(state, Action(0, DISCARD, (other,)), Reason.CARDS_NOT_IN_HAND)
    refused(state, Action(0, DISCARD, ranks=(TILE_IDS["B9"],)), Reason.CARDS_NOT_IN_HAND)
    refused(state, Action(1, DISCARD, ranks=(TILE_IDS["W1"],)), Reason.NOT_YOUR_TURN)
    refused(state, Action(0, KONG, ranks=(TILE_IDS["W1"],)), Reason.NOT_A_COMBINATION)
    legal = MCR.legal_actions(state, 0)
    assert [a.kind for a, _ in legal] == [DISCARD] * 14  # once per kind held
    assert all(MCR.check(state, a).legal for a, _ in legal)
    assert MCR.legal_actions(state, 1) == []


# --- claims (rule 5) -----------------------------------------------------------------------------------

def claim_table():
    """Seat 0 discards W5: seat 1 may chow (W3 W4), seat 2 pung (W5 W5), seat 3 win (WIN_B)."""
    return discard(position([None, "W3 W4", "W5 W5", WIN_B], drawn="W5"), 0, "W5")


def test_rule_5_claim_window_offers_each_seat_its_claims():
    state, events = claim_table()
    assert types(events) == ["DISCARD", "CLAIM_WINDOW"] and events[1].values == {"robbing": 0}
    assert state.phase == CLAIM and state.to_act == (1, 2, 3)  # each of them can claim
    assert [a.kind for a, _ in MCR.legal_actions(state, 1)] == [PASS, CHOW]
    assert [a.kind for a, _ in MCR.legal_actions(state, 2)] == [PASS, PUNG]
    assert [a.kind for a, _ in MCR.legal_actions(state, 3)] == [PASS, WIN]
    assert MCR.view(state, 0).public_cards["claim_tile"] == state.discards[0][-1:]
    for seat in (1, 2, 3):
        assert all(MCR.check(state, a).legal for a, _ in MCR.legal_actions(state, seat))


def test_rule_5_win_beats_pung_beats_chow():
    state, _ = claim_table()
    chow = Action(1, CHOW, ids_of(state, 1, "W3 W4"))
    won, events = run(state, chow, Action(2, PUNG), Action(3, WIN))
    assert types(events) == ["WIN"] and won.winner == 3 and MCR.settle(won).outcome == "won_on_discard"
    state, events = run(state, chow, Action(2, PUNG), Action(3, PASS))
    assert types(events) == ["PUNG"] and events[0].seat == 2 and events[0].values["from"] == 0
    assert state.phase == TURN and state.to_act == (2,) and state.melds[2][0][:2] == (PUNG_MELD, 0)
    assert state.discards[0] == () and sorted(all_tiles(state)) == list(range(144))
    assert {a.kind for a, _ in MCR.legal_actions(state, 2)} == {DISCARD}  # a pung is followed by a discard


def test_rule_5_a_lone_chow_is_taken():
    state, _ = claim_table()
    state, events = run(state, Action(1, CHOW, ids_of(state, 1, "W3 W4")), Action(2, PASS), Action(3, PASS))
    assert types(events) == ["CHOW"] and events[0].seat == 1
    assert NOTATION.format_cards(events[-1].cards) == "W3 W4 W5"
    assert state.to_act == (1,) and state.drawn == -1
    assert state.melds[1][0][:3] == (CHOW_MELD, 0, events[-1].values["claimed"])
    assert {a.kind for a, _ in MCR.legal_actions(state, 1)} == {DISCARD}


def test_rule_5_nobody_claims_the_next_seat_draws():
    state, _ = claim_table()
    state, events = run(state, Action(1, PASS), Action(2, PASS), Action(3, PASS))
    assert types(events) == ["DRAW"] and events[0].seat == 1 and state.to_act == (1,)  # no PASS event
    assert len(state.discards[0]) == 1 and state.phase == TURN


@pytest.mark.parametrize("discarder", range(4))
def test_mcr_a_claim_window_asks_only_the_seats_that_can_claim(discarder):
    """Trust rule: a discard nobody can claim opens no window (the next seat draws in the same
    apply: DISCARD then DRAW, the state as if the discard and the draw were one move); a discard
    the next seat may chow and the one after may pung asks those two alone, counterclockwise
    from the discarder, and no view tells anybody else who is asked (each asked seat sees itself
    awaited, every other viewer nobody); their PASS answers lead to the same draw, with no PASS
    event."""
    quiet = position([None] * 4, turn=discarder, drawn="T9", front="W9")
    nxt, across, last = others(discarder)
    t9, w9, live = quiet.drawn, quiet.wall[quiet.front], quiet.back - quiet.front
    state, events = discard(quiet, discarder, "T9")
    draw = Event("DRAW", nxt, (w9,), values={"replacement": 0, "wall": live - 1})
    assert events == [Event("DISCARD", discarder, (t9,)), draw]

    def drawn_after(before, step):
        hands = list(before.hands)
        hands[discarder] &= ~(1 << before.drawn)
        hands[nxt] |= 1 << w9
        discards = list(before.discards)
        discards[discarder] += (before.drawn,)
        return before._replace(hands=tuple(hands), discards=tuple(discards), front=before.front + 1,
                               to_act=(nxt,), turn=nxt, drawn=w9, step=before.step + step)

    assert state == drawn_after(quiet, 1)
    hands = [None] * 4
    hands[nxt], hands[across] = "T7 T8", "T9 T9"
    before = position(hands, turn=discarder, drawn="T9", front="W9")
    assert before.wall[before.front] == w9
    claimable, events = discard(before, discarder, "T9")
    assert events == [Event("DISCARD", discarder, (before.drawn,)),
                      Event("CLAIM_WINDOW", discarder, (before.drawn,), values={"robbing": 0})]
    assert claimable.phase == CLAIM and claimable.to_act == (nxt, across)
    assert [a.kind for a, _ in MCR.legal_actions(claimable, nxt)] == [PASS, CHOW]
    assert [a.kind for a, _ in MCR.legal_actions(claimable, across)] == [PASS, PUNG]
    assert MCR.legal_actions(claimable, last) == [] and MCR.legal_actions(claimable, discarder) == []
    refused(claimable, Action(last, PASS), Reason.NOT_YOUR_TURN)
    refused(claimable, Action(discarder, PASS), Reason.NOT_YOUR_TURN)
    seen = {v.seat: (v.phase, v.to_act) for v in MCR.views(claimable, range(-1, 4))}
    assert seen == {s: ("claim", (s,) if s in (nxt, across) else ()) for s in range(-1, 4)}
    state, events = MCR.apply(claimable, Action(across, PASS))
    assert events == [] and state.phase == CLAIM and state.to_act == (nxt,)
    assert MCR.view(state, across).to_act == () and MCR.view(state, nxt).to_act == (nxt,)
    state, events = MCR.apply(state, Action(nxt, PASS))
    assert events == [draw]
    assert state == drawn_after(before, 3)


def test_rule_5_answers_are_simultaneous_and_collected():
    state, _ = claim_table()
    chow = Action(1, CHOW, ids_of(state, 1, "W3 W4"))
    one, events = MCR.apply(state, Action(3, PASS))
    assert events == [] and one.to_act == (1, 2) and one.phase == CLAIM  # secret until all answer
    two, events = MCR.apply(one, chow)
    assert events == [] and two.to_act == (2,)
    three, events = MCR.apply(two, Action(2, PUNG))
    assert types(events) == ["PUNG"]
    in_order, _ = run(state, chow, Action(2, PUNG), Action(3, PASS))
    assert MCR.digest(three) == MCR.digest(in_order)


def test_rule_5_a_seat_answers_only_once():
    state, _ = claim_table()
    state, _ = MCR.apply(state, Action(2, PASS))
    refused(state, Action(2, PUNG), Reason.NOT_YOUR_TURN)
    refused(state, Action(2, PASS), Reason.NOT_YOUR_TURN)
    refused(state, Action(0, PASS), Reason.NOT_YOUR_TURN)  # the discarder is not asked
    refused(state, Action(1, DISCARD, ranks=(TILE_IDS["W3"],)), Reason.WRONG_PHASE)


@pytest.mark.parametrize("discarder,winners,expected", [(1, (2, 3), 2), (3, (0, 2), 0), (3, (2, 1), 1),
                                                        (0, (3, 1), 1), (2, (0, 1), 0)])
def test_rule_5_several_wins_first_counterclockwise_from_the_discarder_wins(discarder, winners, expected):
    hands = [None] * 4
    for w in winners:
        hands[w] = WIN_B
    state = position(hands, turn=discarder, drawn="W5")
    state, _ = discard(state, discarder, "W5")
    assert state.to_act == tuple(s for s in others(discarder) if s in winners)  # the third seat cannot claim
    for seat in state.to_act:  # a winner next to the discarder may also chow (W4 W6)
        assert [a.kind for a, _ in MCR.legal_actions(state, seat)][-1] == WIN
    (passer,) = set(others(discarder)) - set(winners)
    assert MCR.legal_actions(state, passer) == []
    refused(state, Action(passer, PASS), Reason.NOT_YOUR_TURN)
    state, events = run(state, *[Action(s, WIN) for s in reversed(state.to_act)])
    assert types(events) == ["WIN"] and events[0].seat == state.winner == expected  # 截和
    settlement = MCR.settle(state)
    pay = 8 + state.total
    assert settlement.points[discarder] == -pay and settlement.points[expected] == pay + 16
    assert sorted(settlement.points)[1:3] == [-8, -8] and sum(settlement.points) == 0
    assert settlement.outcome == "won_on_discard" and dict(settlement.breakdown)["payer"] == discarder


def test_rule_5_chow_only_from_the_previous_seat():
    state = position([None, "W1 W2", "W2 W4", None], drawn="W3")
    state, _ = discard(state, 0, "W3")
    assert state.to_act == (1,) and [a.kind for a, _ in MCR.legal_actions(state, 1)] == [PASS, CHOW]
    assert MCR.legal_actions(state, 2) == []  # seat 2 could chow W3 only from seat 1: not asked
    refused(state, Action(2, CHOW, ids_of(state, 2, "W2 W4")), Reason.NOT_YOUR_TURN)
    state = position([None, None, "W2 W4 W3 W3", None], drawn="W3")
    state, _ = discard(state, 0, "W3")  # seat 2 is asked (for its pung), and still may not chow
    assert state.to_act == (2,) and [a.kind for a, _ in MCR.legal_actions(state, 2)] == [PASS, PUNG]
    refused(state, Action(2, CHOW, ids_of(state, 2, "W2 W4")), Reason.NOT_YOUR_TURN)


def test_rule_5_chow_shapes_and_refusals():
    state = position([None, "W1 W2 W4 W5", None, None], drawn="W3")
    state, _ = discard(state, 0, "W3")
    chows = [(a, c) for a, c in MCR.legal_actions(state, 1) if a.kind == CHOW]
    assert [NOTATION.format_cards(a.cards) for a, _ in chows] == ["W1 W2", "W2 W4", "W4 W5"]
    assert [c.ranks for _, c in chows] == [(0, 1, 2), (1, 2, 3), (2, 3, 4)]
    refused(state, Action(1, CHOW), Reason.BAD_ACTION)  # three chows: name the tiles
    refused(state, Action(1, CHOW, ids_of(state, 1, "W1 W5")), Reason.NOT_A_COMBINATION)
    refused(state, Action(1, PUNG), Reason.CARDS_NOT_IN_HAND)
    three_kinds = MCR.check(state, Action(1, CHOW, ranks=(2, 3, 4)))
    assert three_kinds.legal and NOTATION.format_cards(three_kinds.action.cards) == "W4 W5"


def test_rule_5_an_exposed_kong_draws_its_replacement_from_the_back():
    state = position([None, None, "J1 J1 J1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B5", None], drawn="J1", back="B5")
    state, _ = discard(state, 0, "J1")
    assert [a.kind for a, _ in MCR.legal_actions(state, 2)] == [PASS, PUNG, KONG]
    back_tile = state.wall[state.back - 1]
    assert state.to_act == (2,)
    state, events = MCR.apply(state, Action(2, KONG))
    assert types(events) == ["KONG", "DRAW"] and events[1].values["replacement"] == 1
    assert state.drawn == back_tile and state.after_kong and state.to_act == (2,)
    assert state.melds[2][0][:2] == (KONG_MELD, 0) and len(state.melds[2][0]) == 7
    state, events = MCR.apply(state, Action(2, WIN))  # 杠上开花 on the replacement
    assert ("fan_46", 8) in fan_lines(state)  # 杠上开花 Out with Replacement Tile x1
    assert MCR.settle(state).outcome == "self_drawn"


def test_rule_4_concealed_kong_is_hidden_and_replaced():
    state = position(["F1 F1 F1 F1", None, None, None], drawn="W9", back="T9")
    kongs = [a for a, _ in MCR.legal_actions(state, 0) if a.kind == KONG]
    assert len(kongs) == 1 and MCR.check(state, Action(0, KONG, ranks=(TILE_IDS["F1"],))).legal
    state, events = MCR.apply(state, Action(0, KONG, ranks=(TILE_IDS["F1"],)))
    assert types(events) == ["KONG", "DRAW"] and events[0].cards == () and events[0].values["concealed"] == 1
    assert NOTATION.format_cards(events[1].cards) == "T9" and state.after_kong and state.to_act == (0,)
    assert MCR.view(state, 1).seats[0].melds == (Meld("kong", (), -1),)  # face down to the others
    assert NOTATION.format_cards(MCR.view(state, 0).seats[0].melds[0].cards) == "F1 F1 F1 F1"
    state, events = discard(state, 0, "T9")  # nobody can claim T9: seat 1 draws at once
    assert types(events) == ["DISCARD", "DRAW"] and events[1].values["replacement"] == 0
    assert not state.after_kong and state.to_act == (1,)


def robbing_table(robber_hand=WIN_B):
    """Seat 0 holds an exposed W5 pung (from seat 1) and draws the fourth W5; seat 2 holds
    ``robber_hand``."""
    return position([None, None, robber_hand, None], drawn="W5", melds={0: [("pung", 1, "W5 W5 W5")]},
                    back="B2")


def test_rule_4_robbing_an_added_kong():
    state = robbing_table()
    kongs = [(a, c) for a, c in MCR.legal_actions(state, 0) if a.kind == KONG]
    assert len(kongs) == 1 and kongs[0][1].label == "added kong 加杠"
    state, events = MCR.apply(state, kongs[0][0])
    assert types(events) == ["CLAIM_WINDOW"] and events[0].values == {"robbing": 1}
    assert state.phase == ROB and state.to_act == (2,)  # only seat 2 can rob
    assert [a.kind for a, _ in MCR.legal_actions(state, 2)] == [PASS, WIN]
    assert all(MCR.legal_actions(state, s) == [] for s in (0, 1, 3))
    refused(state, Action(2, PUNG), Reason.WRONG_PHASE)
    refused(state, Action(1, WIN), Reason.NOT_YOUR_TURN)
    won, events = MCR.apply(state, Action(2, WIN))
    assert types(events) == ["WIN"] and events[0].values["robbed_kong"] == 1
    assert ("fan_47", 8) in fan_lines(won)  # 抢杠和 Robbing the Kong x1
    settlement = MCR.settle(won)
    pay = 8 + won.total
    assert settlement.outcome == "robbed_kong" and settlement.points == (-pay, -8, pay + 16, -8)
    assert won.melds[0][0][0] == PUNG_MELD and sorted(all_tiles(won)) == list(range(144))


def test_rule_4_added_kong_stands_when_nobody_robs():
    state = robbing_table()
    kong = next(a for a, _ in MCR.legal_actions(state, 0) if a.kind == KONG)
    passed, events = run(state, kong, Action(2, PASS))  # seat 2, the one seat asked, passes the win
    assert types(events) == ["CLAIM_WINDOW", "KONG", "DRAW"]
    assert events[1].values["added"] == 1
    assert passed.melds[0][0][:2] == (KONG_MELD, 1) and len(passed.melds[0][0]) == 7
    assert NOTATION.format_cards(events[2].cards) == "B2" and passed.after_kong and passed.to_act == (0,)
    state = robbing_table(None)
    kong = next(a for a, _ in MCR.legal_actions(state, 0) if a.kind == KONG)
    state, events = MCR.apply(state, kong)  # nobody can win on the W5: no window, the kong stands at once
    assert types(events) == ["KONG", "DRAW"] and events[0].values["added"] == 1
    assert state.phase == TURN and state.tile == -1
    assert state.melds[0][0][:2] == (KONG_MELD, 1) and len(state.melds[0][0]) == 7
    assert NOTATION.format_cards(events[1].cards) == "B2" and state.after_kong and state.to_act == (0,)
    assert state.drawn == events[1].cards[0] and events[1].values["replacement"] == 1


def test_rule_4_a_concealed_kong_cannot_be_robbed():
    orphans_but_w1 = "W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3 B9"
    state = position(["W1 W1 W1", None, orphans_but_w1, None], drawn="W1")
    assert [a.kind for a, _ in claim_options(state, 2, state.drawn, True)] == [WIN]  # 十三幺 waits on W1
    state, events = MCR.apply(state, Action(0, KONG, ranks=(0,)))
    assert types(events) == ["KONG", "DRAW"] and state.phase == TURN


# --- the end of the wall (rule 7) --------------------------------------------------------------------

def test_rule_7_exhausted_wall_is_a_drawn_hand():
    state = position([None] * 4, drawn="T9", live=0)
    assert all(a.kind != KONG for a, _ in MCR.legal_actions(state, 0))
    state, events = discard(state, 0, "T9")  # nobody can claim it: no window, and seat 1 cannot draw
    assert types(events) == ["DISCARD", "DRAWN_GAME"] and state.finished
    settlement = MCR.settle(state)
    assert settlement.points == (0, 0, 0, 0) and settlement.outcome == "drawn" and settlement.winners == ()
    assert state.to_act == () and MCR.legal_actions(state, 0) == []
    refused(state, Action(0, DISCARD, ranks=(0,)), Reason.GAME_OVER)


def test_rule_7_the_last_discard_may_only_be_won():
    state = position([None, "W3 W4", "W5 W5", None], drawn="W5", live=0)
    state, events = discard(state, 0, "W5")  # the chow and the pung are no claims now: no window
    assert types(events) == ["DISCARD", "DRAWN_GAME"] and state.finished
    # seat 1 (WIN_B: W4 W6, the next seat) is asked for its win only, seat 2 (W5 W5) not at all
    state = position([None, WIN_B, "W5 W5", None], drawn="W5", live=0)
    state, events = discard(state, 0, "W5")
    assert types(events) == ["DISCARD", "CLAIM_WINDOW"] and state.to_act == (1,)
    assert [a.kind for a, _ in MCR.legal_actions(state, 1)] == [PASS, WIN]
    assert MCR.legal_actions(state, 2) == []
    refused(state, Action(1, CHOW, ids_of(state, 1, "W4 W6")), Reason.WRONG_PHASE)
    refused(state, Action(2, PUNG), Reason.NOT_YOUR_TURN)
    state, events = pass_window(state)
    assert types(events) == ["DRAWN_GAME"] and state.finished


def test_rule_7_last_tile_claim_and_last_tile_draw():
    state = position([None, None, WIN_B, None], drawn="W5", live=0)
    state, _ = discard(state, 0, "W5")
    assert state.to_act == (2,)
    state, _ = MCR.apply(state, Action(2, WIN))
    assert ("fan_45", 8) in fan_lines(state)  # 海底捞月 Last Tile Claim x1
    state = position([None, None, None, WIN_A], turn=2, drawn="T9", front="B5", live=1)
    state, events = discard(state, 2, "T9")  # nobody can claim T9: seat 3 draws the last tile at once
    assert types(events) == ["DISCARD", "DRAW"] and events[1].seat == 3
    assert state.to_act == (3,) and state.front == state.back
    state, _ = MCR.apply(state, Action(3, WIN))
    assert ("fan_44", 8) in fan_lines(state)  # 妙手回春 Last Tile Draw x1


def test_last_tile_win_when_three_copies_are_visible():
    state = position([None, None, WIN_B, None], drawn="W5", discards={1: "W5", 3: "W5 W5"})
    state, _ = discard(state, 0, "W5")
    assert state.to_act == (2,)
    state, _ = MCR.apply(state, Action(2, WIN))
    assert ("fan_58", 4) in fan_lines(state)  # 和绝张 Last Tile x1


# --- abandon, views, serialization -------------------------------------------------------------------

def test_abandon_the_leaver_pays_8_to_each_other_seat():
    state, _ = claim_table()
    state, events = MCR.apply(state, Action(0, ABANDON))
    assert types(events) == ["ABANDON"] and state.finished
    settlement = MCR.settle(state)
    assert settlement.points == (-24, 8, 8, 8) and settlement.outcome == "abandoned"


def kong_win():
    """Seat 0 wins by self-draw holding a concealed kong of F1; seat 2, a loser, holds one of J1."""
    kongs = {0: [("kong", -1, "F1 F1 F1 F1")], 2: [("kong", -1, "J1 J1 J1 J1")]}
    state = position(["W1 W2 W3 W4 W5 W6 W7 W8 W9 B5", None, None, None], drawn="B5", melds=kongs)
    return MCR.apply(state, Action(0, WIN))[0]


def _reference_view(state: State, seat: int) -> View:
    """Rule by rule, one seat at a time: what ``MCR.views`` builds once for every seat."""
    over = state.finished
    public, counters = {}, {"wall": state.back - state.front, "dealer": state.dealer,
                            "prevalent_wind": state.prevalent_wind,
                            "min_points": state.options.min_points, "turn": state.turn,
                            "drawn": state.drawn if seat == state.turn and seat >= 0 else -1,
                            "after_kong": int(state.after_kong), "round": state.match.round}
    winds = ("east", "south", "west", "north")
    meld_names = {kind: name for name, kind in MELD_KINDS.items()}
    seats = []
    for s in range(4):
        won = over and s == state.winner  # a win is shown; the losers' tiles stay hidden
        cards = {"discards": state.discards[s], "flowers": state.flowers[s]}
        if won:
            cards["hand"] = ids(state.hands[s])
        melds = []
        for meld in state.melds[s]:
            hidden = meld[1] < 0 and s != seat and not won  # rule 4: a concealed kong is face down
            melds.append(Meld(meld_names[meld[0]], () if hidden else meld[3:], meld[1]))
        seats.append(SeatView(state.hands[s].bit_count(), winds[(s - state.dealer) % 4], -1, {}, cards,
                              tuple(melds)))
    if state.phase in (CLAIM, ROB):
        public["claim_tile"] = (state.tile,)
    if state.winner >= 0:
        public["win_tile"] = ((state.drawn if state.outcome == 1 else state.tile),)  # 1: self-drawn
        counters.update(winner=state.winner, payer=state.payer, points=state.points, total=state.total)
    table_cards = (state.tile,) if state.phase in (CLAIM, ROB) else ()
    to_act = state.to_act  # rule 5: who is asked in a window is not public, a seat sees only itself
    if state.phase in (CLAIM, ROB):
        to_act = (seat,) if seat in state.to_act else ()
    return View(seat, ("turn", "claim", "rob_kong", "finished")[state.phase], to_act,
                ids(state.hands[seat]) if seat >= 0 else (), tuple(seats), public,
                None, state.turn if table_cards else -1, table_cards, counters, over)


def ids(mask: int) -> tuple[int, ...]:
    return tuple(t for t in range(144) if (mask >> t) & 1)


def test_views_equal_the_rule_by_rule_view_of_each_seat():
    """Along random rounds, and with a concealed kong on the table, during and after the round
    (abandoned, and won with a concealed kong in the winner's and a loser's melds)."""
    rnd = random.Random(11)
    states = []
    for n in range(6):
        state = MCR.deal(Options(), f"views-{n}".encode())
        while not state.finished:
            states.append(state)
            seat = rnd.choice(state.to_act)
            state, _ = MCR.apply(state, rnd.choice(MCR.legal_actions(state, seat))[0])
        states.append(state)
    kong = position(["F1 F1 F1 F1", None, None, None], drawn="W9", back="T9")
    kong, _ = MCR.apply(kong, Action(0, KONG, ranks=(TILE_IDS["F1"],)))
    states += [kong, MCR.apply(kong, Action(1, ABANDON))[0], kong_win()]
    for state in states:
        seats = range(-1, 4)
        assert MCR.views(state, seats) == [_reference_view(state, s) for s in seats]
        assert [MCR.view(state, s) for s in seats] == [_reference_view(state, s) for s in seats]


def test_win_checks_equal_the_full_calculation_on_every_claim():
    """``win_result`` judges the shape first (cached) and looks at 和绝张 only for a winning
    shape: along random rounds, every other seat's check of every discard, asked or not (the
    check that decides who is asked, made here on the state before the discard: the same hands,
    wall and face-up copies), of an added kong's tile, and of every self-drawn tile answers as the
    calculator does with everything counted up front: fans, or the refusal's reason and message."""
    from referee.core.games.mcr import rules as mcr_game

    def outcome(compute):
        try:
            return compute()
        except IllegalAction as error:
            return error.reason, error.message

    rnd = random.Random(12)
    checked = 0
    for n in range(12):
        state = MCR.deal(Options(), f"wins-{n}".encode())
        while not state.finished:
            cases = []
            if state.phase == ROB:
                cases = [(seat, state.tile, False, True) for seat in others(state.turn)]
            elif state.phase == TURN and state.drawn >= 0:
                cases = [(state.turn, state.drawn, True, state.after_kong)]
            seat = rnd.choice(state.to_act)
            action = rnd.choice(MCR.legal_actions(state, seat))[0]
            if action.kind == DISCARD:
                cases += [(other, action.cards[0], False, False) for other in others(seat)]
            for who, tile, self_drawn, kong_related in cases:
                full = mcr_game.win_hand(state, who, tile, self_drawn, kong_related)
                fast = outcome(lambda: mcr_game.win_result(state, who, tile, self_drawn, kong_related))
                assert fast == outcome(lambda: mcr.calculate_fans(full, state.options.min_points))
                checked += 1
            state, _ = MCR.apply(state, action)
    assert checked > 1000
    # and a win on the last copy of a kind (和绝张), counted in the fast path too
    state = position([None, None, WIN_B, None], drawn="W5", discards={1: "W5", 3: "W5 W5"})
    state, _ = discard(state, 0, "W5")
    fast = mcr_game.win_result(state, 2, state.tile, False, False)
    assert fast == mcr.calculate_fans(mcr_game.win_hand(state, 2, state.tile, False, False), 8)
    assert any(f.name_cn == "和绝张" for f in fast.fans)


def test_lowest_ids_of_a_kind():
    from referee.core.games.mcr.rules import _lowest

    hand = 0
    for t in (4, 6, 7, 40, 41, 136):  # W2 (kind 1) copies 0, 2, 3; T2 (kind 10) copies 0, 1; H1
        hand |= 1 << t
    assert _lowest(hand, 1) == (4,) and _lowest(hand, 1, 2) == (4, 6) and _lowest(hand, 1, 4) == (4, 6, 7)
    assert _lowest(hand, 10, 3) == (40, 41) and _lowest(hand, 0, 2) == ()
    assert _lowest(hand, 34) == (136,)


def test_views_hide_other_seats_concealed_tiles():
    state = MCR.deal(Options(), b"views")
    for seat in range(4):
        view = MCR.view(state, seat)
        assert set(view.hand) == {t for t in range(144) if (state.hands[seat] >> t) & 1}
        shown = set(view.hand) | set(shown_cards(view))
        for other in range(4):
            if other != seat:
                assert not shown & {t for t in range(144) if (state.hands[other] >> t) & 1}
    with pytest.raises(InvalidAction):
        MCR.view(state, 4)
    assert MCR.check(state, Action(5, DISCARD, ranks=(0,))).reason == Reason.BAD_SEAT


def concealed_tiles(state, seat):
    """The seat's concealed hand and the tiles of its concealed kongs."""
    return set(ids(state.hands[seat])) | {t for m in state.melds[seat] if m[1] < 0 for t in m[3:]}


def test_mcr_finished_views_hide_the_losers_tiles():
    """Trust rule: once the hand is won, every view shows the winner's concealed tiles (hand and
    concealed kongs); no view but a loser's own shows a tile of its hand or concealed kong."""
    self_drawn = kong_win()
    on_discard, _ = run(claim_table()[0], Action(1, PASS), Action(2, PASS), Action(3, WIN))
    robbed, _ = run(robbing_table(), Action(0, KONG, ranks=(TILE_IDS["W5"],)), Action(2, WIN))
    assert [MCR.settle(s).outcome for s in (self_drawn, on_discard, robbed)] == ["self_drawn", "won_on_discard",
                                                                               "robbed_kong"]
    finished = [self_drawn, on_discard, robbed]
    rnd = random.Random(13)
    for n in range(24):  # random hands (min_points 0), every win on the way taken in a branch
        state = MCR.deal(Options(min_points=0), f"hidden-{n}".encode())
        while not state.finished:
            for seat in state.to_act:
                for win in (a for a, _ in MCR.legal_actions(state, seat) if a.kind == WIN):
                    finished.append(run(state, *[win if s == seat else Action(s, PASS) for s in state.to_act])[0])
            seat = rnd.choice(state.to_act)
            state, _ = MCR.apply(state, rnd.choice([a for a, _ in MCR.legal_actions(state, seat) if a.kind != WIN]))
    assert len(finished) > 6
    for viewer in range(-1, 4):  # the concealed kongs: the winner's face up, a loser's face down to others
        melds = [s.melds for s in MCR.view(self_drawn, viewer).seats]
        assert NOTATION.format_cards(melds[0][0].cards) == "F1 F1 F1 F1"
        assert NOTATION.format_cards(melds[2][0].cards) == ("J1 J1 J1 J1" if viewer == 2 else "")
    for state in finished:
        winner = state.winner
        assert state.finished and MCR.secret_cards(state, winner) == ()
        for viewer in range(-1, 4):
            view = MCR.view(state, viewer)
            assert view.seats[winner].cards["hand"] == ids(state.hands[winner])
            assert concealed_tiles(state, winner) <= set(shown_cards(view))
            for loser in set(range(4)) - {winner}:
                secret = concealed_tiles(state, loser)
                assert set(MCR.secret_cards(state, loser)) == secret and "hand" not in view.seats[loser].cards
                if viewer != loser:
                    assert not secret & (set(view.hand) | set(shown_cards(view)))


def test_unfinished_hand_is_not_settled_and_states_pack():
    state, _ = claim_table()
    with pytest.raises(IllegalAction) as error:
        MCR.settle(state)
    assert error.value.reason == Reason.GAME_NOT_FINISHED
    assert MCR.unpack(MCR.pack(state)) == state
    assert MCR.pack(MCR.unpack(MCR.pack(state))) == MCR.pack(state)
    with pytest.raises(InvalidAction) as error:
        MCR.unpack(b"not a state")
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


# --- the match: 盘, 圈 and 局 (rule 13) -------------------------------------------------------------

WINDS = ("east", "south", "west", "north")


def finish(state, rnd, leaver=-1):
    """The hand played to its end by random legal actions (a win always taken), or, when
    ``leaver`` >= 0, abandoned by that seat at once."""
    if leaver >= 0:
        return MCR.apply(state, Action(leaver, ABANDON))[0]
    while not state.finished:
        seat = rnd.choice(state.to_act)
        legal = [a for a, _ in MCR.legal_actions(state, seat)]
        wins = [a for a in legal if a.kind == WIN]
        state, _ = MCR.apply(state, wins[0] if wins else rnd.choice(legal))
    return state


def match_hands(options, seed, hands, leavers=()):
    """(dealt, finished) for each hand of a match, each dealt from the previous one's
    ``next_round``; hand k is abandoned by ``leavers[k]`` when that is >= 0, else played out."""
    rnd = random.Random(seed)
    out = []
    dealt = MCR.deal(options, seed)
    for k in range(hands):
        finished = finish(dealt, rnd, leavers[k] if k < len(leavers) else -1)
        out.append((dealt, finished))
        if k + 1 < hands:
            dealt = MCR.deal(options, seed + b"-%d" % (k + 1), match=MCR.next_round(finished))
    return out


def test_mcr_rule_13_dealer_rotates_every_hand():
    # whoever wins: the dealer (self-drawn), another seat (on a discard), nobody (荒牌), a seat leaving
    dealer_won, _ = MCR.apply(position([None, None, WIN_A, None], turn=2, drawn="B5", dealer=2), Action(2, WIN))
    other_won, _ = run(claim_table()[0], Action(1, PASS), Action(2, PASS), Action(3, WIN))
    drawn, _ = discard(position([None] * 4, turn=1, drawn="T9", live=0, dealer=1), 1, "T9")  # no window: 荒牌
    left, _ = MCR.apply(position([None] * 4, turn=3, drawn="T9", dealer=3), Action(1, ABANDON))
    cases = [(dealer_won, 2, 2, "self_drawn"), (other_won, 0, 3, "won_on_discard"), (drawn, 1, -1, "drawn"),
             (left, 3, -1, "abandoned")]
    for finished, dealer, winner, outcome in cases:
        settlement = MCR.settle(finished)
        assert finished.dealer == dealer and finished.winner == winner and settlement.outcome == outcome
        assert dict(settlement.breakdown)["dealer"] == dealer
        match = MCR.next_round(finished)
        following = (dealer + 1) % 4  # the dealer's 下家, never the dealer again
        assert match.round == 1 and match.carry[0] == following
        nxt = MCR.deal(finished.options, b"next hand", match=match)
        assert nxt.dealer == following and nxt.to_act == (following,) and nxt.hands[following].bit_count() == 14
        assert MCR.view(nxt, -1).counters["dealer"] == following
        assert tuple(s.role for s in MCR.view(nxt, -1).seats) == tuple(WINDS[(s - following) % 4] for s in range(4))
    # a whole 局 from a dealer drawn from the seed: each hand dealt by the seat after the last dealer
    hands = match_hands(Options(dealer=-1), b"rotation", 16)
    first = hands[0][0].dealer
    assert first == rng.Stream(rng.deal_key(b"rotation"), "dealer").randbelow(4)
    assert [dealt.dealer for dealt, _ in hands] == [(first + k) % 4 for k in range(16)]
    assert [finished.dealer for _, finished in hands] == [(first + k) % 4 for k in range(16)]


def test_mcr_rule_13_prevalent_wind_turns_every_four_hands():
    hands = match_hands(Options(dealer=1), b"winds", 16)
    assert [dealt.prevalent_wind for dealt, _ in hands] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    for k, (dealt, finished) in enumerate(hands):
        assert dealt.match.round == k and finished.prevalent_wind == k // 4
        counters = MCR.view(dealt, -1).counters
        assert counters["round"] == k and counters["prevalent_wind"] == k // 4
        # the calculator is told the hand's winds (圈风刻, 门风刻): the dealer is east
        hand = win_hand(dealt, dealt.dealer, dealt.drawn, True, False)
        assert (hand.seat_wind, hand.prevalent_wind) == (0, k // 4)
    for q in range(4):  # a 圈: four hands, each seat deals once
        assert sorted(dealt.dealer for dealt, _ in hands[4 * q:4 * q + 4]) == [0, 1, 2, 3]


def test_mcr_rule_13_match_ends_after_hands():
    assert Options().hands == 16
    hands = match_hands(Options(), b"length", 16)
    for k, (_, finished) in enumerate(hands[:-1]):
        assert MCR.next_round(finished).round == k + 1
    nxt = MCR.next_round(hands[-1][1])  # the next 局 at the same table
    assert (nxt.round, nxt.totals, nxt.carry, nxt.number) == (0, (0,) * 4, None, 1)
    short = match_hands(Options(hands=2), b"short", 2)
    assert MCR.next_round(short[0][1]).round == 1
    assert MCR.next_round(short[1][1]).number == 1
    with pytest.raises(IllegalAction) as error:  # a hand in progress has no next hand
        MCR.next_round(short[1][0])
    assert error.value.reason == Reason.GAME_NOT_FINISHED


def test_mcr_rule_13_match_totals_add_up_the_settlements():
    leavers = [-1, 2, -1, -1, 0, -1, -1, 3]
    hands = match_hands(Options(), b"totals", 16, leavers)
    running = (0, 0, 0, 0)
    for k, (dealt, finished) in enumerate(hands):
        assert dealt.match.totals == running and MCR.unpack(MCR.pack(dealt)) == dealt
        running = tuple(a + b for a, b in zip(running, MCR.settle(finished).points))
        if k < 15:
            assert MCR.next_round(finished).totals == running
    outcomes = {MCR.settle(finished).outcome for _, finished in hands}
    assert "abandoned" in outcomes and outcomes & {"self_drawn", "won_on_discard"}, outcomes
    assert sum(running) == 0 and running != (0, 0, 0, 0)


# --- pinned by direct examples: the last tile of the wall (rule 7, fans 妙手回春 海底捞月) and the
# 8-point minimum (rule 10); each number from the seed's fan table -------------------------------

def won_on_the_last_discard(live):
    """Seat 0 discards W5 with ``live`` tiles left in the wall; seat 2 (WIN_B: 清龙, 平和, 门前清,
    坎张) wins on it."""
    state = position([None, None, WIN_B, None], drawn="W5", live=live)
    state, _ = discard(state, 0, "W5")
    assert state.to_act == (2,)  # the one seat that can claim
    state, _ = MCR.apply(state, Action(2, WIN))
    return state


def test_rule_7_last_tile_claim_exactly_at_the_end_of_the_wall():
    at_end, before = won_on_the_last_discard(live=0), won_on_the_last_discard(live=1)
    assert fan_lines(at_end) - fan_lines(before) == {("fan_45", 8)}  # 海底捞月 Last Tile Claim x1
    assert fan_lines(before) and fan_lines(before) - fan_lines(at_end) == set()
    assert at_end.total == before.total + 8  # 海底捞月 is 8 points and strikes nothing out
    assert MCR.settle(at_end).points[2] == 8 + at_end.total + 2 * 8  # the discarder 8 + total, the others 8


def drawn_last(live):
    """Seat 2 discards T9, nobody claims, seat 3 (WIN_A: 清龙, 不求人, ...) draws B5 from a wall
    of ``live`` tiles and wins."""
    state = position([None, None, None, WIN_A], turn=2, drawn="T9", front="B5", live=live)
    state, events = discard(state, 2, "T9")  # nobody can claim T9: no window
    assert types(events) == ["DISCARD", "DRAW"] and NOTATION.format_cards(events[1].cards) == "B5"
    assert state.to_act == (3,) and state.back - state.front == live - 1
    state, _ = MCR.apply(state, Action(3, WIN))
    return state


def test_rule_7_last_tile_draw_exactly_at_the_end_of_the_wall():
    at_end, before = drawn_last(live=1), drawn_last(live=2)
    assert fan_lines(at_end) - fan_lines(before) == {("fan_44", 8)}  # 妙手回春 Last Tile Draw x1
    assert fan_lines(before) and fan_lines(before) - fan_lines(at_end) == set()  # 自摸 is in 不求人 either way
    assert at_end.total == before.total + 8
    assert MCR.settle(at_end).points[3] == 3 * (8 + at_end.total)


ALL_MELDED = [("chow", 1, "W1 W2 W3"), ("chow", 1, "T4 T5 T6"), ("pung", 3, "B7 B7 B7")]


def test_rule_10_seven_points_are_refused_eight_are_taken():
    # 全求人 (6) + 幺九刻 of W9 (1) = 7 points: UNDER_8 (单钓将 is not counted with 全求人)
    seven = position([None, None, "J1", None], drawn="J1", melds={2: ALL_MELDED + [("pung", 0, "W9 W9 W9")]})
    with pytest.raises(IllegalAction) as error:
        win_result(seven, 2, seven.drawn, False, False)
    assert error.value.reason == UNDER_8
    seven, events = discard(seven, 0, "J1")  # a win under the minimum is no claim: no window
    assert types(events) == ["DISCARD", "DRAW"] and seven.to_act == (1,)
    # the same seven points at a minimum of 7: seat 2 is asked and wins
    taken = position([None, None, "J1", None], drawn="J1", melds={2: ALL_MELDED + [("pung", 0, "W9 W9 W9")]},
                     min_points=7)
    taken, _ = discard(taken, 0, "J1")
    assert taken.to_act == (2,) and [a.kind for a, _ in MCR.legal_actions(taken, 2)] == [PASS, WIN]
    taken, _ = MCR.apply(taken, Action(2, WIN))
    assert taken.finished and taken.points == 7
    # 全求人 (6) + 箭刻 of J2 (2) = 8 points: a win
    eight = position([None, None, "J1", None], drawn="J1", melds={2: ALL_MELDED + [("pung", 0, "J2 J2 J2")]})
    eight, _ = discard(eight, 0, "J1")
    assert eight.to_act == (2,) and [a.kind for a, _ in MCR.legal_actions(eight, 2)] == [PASS, WIN]
    eight, _ = MCR.apply(eight, Action(2, WIN))
    assert eight.finished and eight.points == 8 and eight.total == 8
    assert fan_lines(eight) == {("fan_52", 6), ("fan_59", 2)}  # 全求人 Melded Hand x1, 箭刻 Dragon Pung x1


def test_rule_10_the_calculator_refuses_seven_points_and_takes_eight():
    seven = mcr.Hand.from_request({"melds": [["CHI", "W2", 1], ["CHI", "T5", 2], ["PENG", "B7", 3], ["PENG", "W9", 1]],
                                   "concealed": ["J1"], "win_tile": "J1"})
    with pytest.raises(IllegalAction) as refusal:
        mcr.calculate_fans(seven)
    assert refusal.value.reason == UNDER_8
    assert mcr.calculate_fans(seven, minimum=7).points == 7
    eight = mcr.Hand.from_request({"melds": [["CHI", "W3", 1], ["CHI", "T7", 2], ["PENG", "T3", 3]],
                                   "concealed": ["B5", "B6", "F1", "F1"], "win_tile": "B7",
                                   "seat_wind": 1, "prevalent_wind": 2})
    assert mcr.calculate_fans(eight).points == 8  # 无番和


# --- pinned by direct examples found by mutation testing (make mutate GAME=mcr) --------------------

def test_rule_9_last_tile_counts_the_copies_in_exposed_melds():
    # 和绝张: the three other W5 lie in seat 1's pung, claimed from seat 0; seat 2 wins on the last
    state = position([None, None, WIN_B, None], drawn="W5", melds={1: [("pung", 0, "W5 W5 W5")]})
    state, _ = discard(state, 0, "W5")
    assert state.to_act == (2,)
    state, _ = MCR.apply(state, Action(2, WIN))
    assert ("fan_58", 4) in fan_lines(state)  # 和绝张 Last Tile x1


def test_rule_9_no_last_tile_while_a_copy_is_unseen():
    # WIN_B waits on W5 alone (W4 W6) and holds none; one W5 in a river: not the last tile
    state = position([None, None, WIN_B, None], drawn="W5", discards={3: "W5"})
    state, _ = discard(state, 0, "W5")
    assert state.to_act == (2,)
    state, _ = MCR.apply(state, Action(2, WIN))
    assert state.finished and state.winner == 2 and fan_lines(state)
    assert all(name != "fan_58" for name, _ in fan_lines(state))  # no 和绝张


def test_rule_2_deal_events_carry_each_seats_wind_from_the_dealer():
    state = MCR.deal(Options(dealer=2), b"winds")
    deals = [e for e in MCR.deal_events(state) if e.type == "DEAL"]
    assert [(e.seat, e.values) for e in deals] == [(s, {"seat_wind": (s - 2) % 4, "dealer": 2}) for s in range(4)]
    assert [e.values["seat_wind"] for e in deals] == [2, 3, 0, 1]


def test_rule_4_the_tile_of_an_added_kong_is_shown_while_it_may_be_robbed():
    state = robbing_table()
    kong = next(a for a, _ in MCR.legal_actions(state, 0) if a.kind == KONG)
    state, _ = MCR.apply(state, kong)
    assert state.phase == ROB
    assert state.tile not in MCR.secret_cards(state, 0)
    assert set(MCR.secret_cards(state, 0)) == {t for t in range(144) if state.hands[0] >> t & 1} - {state.tile}


def test_rule_4_kong_hints_name_four_tiles():
    concealed = position(["F1 F1 F1 F1", None, None, None], drawn="W9")
    added = robbing_table()
    for state, label in ((concealed, "concealed kong 暗杠"), (added, "added kong 加杠")):
        combos = [c for a, c in MCR.legal_actions(state, 0) if a.kind == KONG]
        assert len(combos) == 1 and combos[0].label == label
        assert combos[0].size == 4 and len(combos[0].ranks) == 4 and len(set(combos[0].ranks)) == 1
