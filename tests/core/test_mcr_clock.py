"""国标麻将's clock (spec rules 14-15) on the platform's clock (core/clock.py): the seed's limits,
the defaults, and deadlines computed in one place from an injected time."""
from __future__ import annotations

import random

import pytest

from referee.core import clock as clocks
from referee.core.clock import TIMEOUT, ClockSettings, Limit
from referee.core.errors import InvalidAction
from referee.core.game import PASS, Action
from referee.core.registry import get_game

MCR = get_game("mcr")
SEED = ClockSettings("seed")
T0 = 1_800_000_000_000  # ms: any time; the core never reads the wall clock


def _playout(rnd, until, seed=b"clock"):
    """States of a random hand, until ``until(state)``; None when the hand ended first."""
    for n in range(40):
        state = MCR.deal(MCR.make_options(), seed + b"%d" % n, b"")
        while not state.finished:
            if until(state):
                return state
            seat = rnd.choice(state.to_act)
            legal = MCR.legal_actions(state, seat)
            claims = [a for a, _ in legal if a.kind in ("PUNG", "CHOW")]
            state, _ = MCR.apply(state, claims[0] if claims else rnd.choice(legal)[0])
    raise AssertionError("no state found")


def test_rule_14_is_the_default_clock_with_its_three_limits():
    infos = {i.name: i for i in MCR.clock_option_infos()}
    assert infos["clock"].default == "seed" and set(infos["clock"].allowed) == {"off", "seconds", "seed"}
    assert MCR.clock_settings() == SEED
    state = MCR.deal(MCR.make_options(), b"rule 14", b"")
    dealer = state.to_act[0]
    assert MCR.time_limit(state, dealer, SEED) == Limit(30_000)  # the dealer's first discard
    rnd = random.Random(1)
    window = _playout(rnd, lambda s: MCR.phase_name(s) == "claim")
    assert all(MCR.time_limit(window, s, SEED) == Limit(3_000) for s in window.to_act)
    later = _playout(rnd, lambda s: MCR.phase_name(s) == "turn" and any(s.discards))
    assert MCR.time_limit(later, later.to_act[0], SEED) == Limit(15_000, from_window=True)


def test_rule_14_off_and_seconds():
    state = MCR.deal(MCR.make_options(), b"off", b"")
    assert MCR.time_limit(state, state.to_act[0], ClockSettings("off")) == clocks.NO_LIMIT
    assert MCR.time_limit(state, state.to_act[0], ClockSettings("seconds", 20)) == Limit(20_000)
    assert MCR.clock_settings({"clock": "seconds", "clock_seconds": 20}) == ClockSettings("seconds", 20)
    assert MCR.make_options("", {"clock": "off", "clock_seconds": 9}) == MCR.make_options()  # not game state
    with pytest.raises(InvalidAction):
        MCR.make_options("", {"clock": "fast"})
    with pytest.raises(InvalidAction):
        MCR.make_options("", {"clock_seconds": 0})


def test_rule_15_a_turn_discards_the_tile_just_drawn():
    rnd = random.Random(2)
    state = _playout(rnd, lambda s: MCR.phase_name(s) == "turn" and s.drawn >= 0 and any(s.discards))
    seat = state.to_act[0]
    assert MCR.default_action(state, seat) == Action(seat, "DISCARD", (state.drawn,))
    after, events = MCR.apply(state, Action(seat, TIMEOUT))
    assert [e.type for e in events[:2]] == ["TIMEOUT", "DISCARD"] and events[1].cards == (state.drawn,)


def test_rule_15_after_a_claim_the_rightmost_concealed_tile_is_discarded():
    rnd = random.Random(3)
    state = _playout(rnd, lambda s: MCR.phase_name(s) == "turn" and s.drawn < 0)
    seat = state.to_act[0]
    assert MCR.default_action(state, seat) == Action(seat, "DISCARD", (state.hands[seat].bit_length() - 1,))


def test_rule_15_a_claim_window_answer_passes_and_tells_nobody():
    rnd = random.Random(4)
    state = _playout(rnd, lambda s: MCR.phase_name(s) == "claim")
    seat = state.to_act[0]
    assert MCR.default_action(state, seat) == Action(seat, PASS)
    after, events = MCR.apply(state, Action(seat, TIMEOUT))
    assert not [e for e in events if e.type == TIMEOUT]  # who was asked is nobody else's business


def test_rule_14_deadlines_dealer_30_s_then_15_s_from_the_discard_and_3_s_per_window():
    rnd = random.Random(5)
    state = MCR.deal(MCR.make_options(), b"deadlines", b"")
    clock = clocks.start(MCR, state, SEED, T0)
    dealer = state.to_act[0]
    assert clock.deadlines[dealer] == T0 + 30_000 and sum(1 for d in clock.deadlines if d) == 1
    now = T0
    seen_window = seen_claimed_turn = False
    while not state.finished and not (seen_window and seen_claimed_turn):
        now += 1_000
        seat = state.to_act[0]
        before, before_clock = state, clock
        legal = MCR.legal_actions(state, seat)
        claims = [a for a, _ in legal if a.kind in ("PUNG", "CHOW")]
        state, _ = MCR.apply(state, claims[0] if claims else rnd.choice(legal)[0])
        clock = clocks.advance(MCR, clock, before, state, seat, now)
        phase = MCR.phase_name(state)
        if phase == "claim":
            kept = [s for s in state.to_act if s in before.to_act and s != seat]
            for s in state.to_act:
                expected = before_clock.deadlines[s] if s in kept else now + 3_000
                assert clock.deadlines[s] == expected
            seen_window = True
        elif phase == "turn" and MCR.phase_name(before) == "claim":
            # the turn after a window runs 15 s from the discard that opened it
            assert clock.deadlines[state.to_act[0]] == before_clock.opened + 15_000
            seen_claimed_turn = seen_claimed_turn or state.drawn < 0
        for s in range(4):
            assert bool(clock.deadlines[s]) == (s in state.to_act and not state.finished)
    assert seen_window


def test_the_clock_record_round_trips_and_refuses_what_pack_never_writes():
    state = MCR.deal(MCR.make_options(), b"record", b"")
    clock = clocks.start(MCR, state, SEED, T0, autoplay=0b0100)
    data = clocks.pack(MCR, clock)
    assert len(data) == clocks.RECORD_BYTES
    assert clocks.unpack(MCR, data, 4) == clock
    with pytest.raises(ValueError):
        clocks.unpack(MCR, bytes([9]) + data[1:], 4)
    with pytest.raises(ValueError):
        clocks.unpack(MCR, data[:1] + bytes([7]) + data[2:], 4)


def test_expired_seats_are_past_the_deadline_and_the_tolerance():
    state = MCR.deal(MCR.make_options(), b"expired", b"")
    clock = clocks.start(MCR, state, SEED, T0)
    dealer = state.to_act[0]
    assert clock.expired(state, T0 + 30_500, 500) == ()
    assert clock.expired(state, T0 + 30_501, 500) == (dealer,)
