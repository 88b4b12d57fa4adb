"""The platform's clock (core/clock.py) on games of each shape, with times given by the test: who
gets a new deadline, who keeps one, a window closed late, autoplay and settings in the record."""
from __future__ import annotations

import pytest

from referee.core import clock as clocks
from referee.core.clock import ClockSettings, Limit
from referee.core.errors import InvalidAction
from referee.core.game import Action
from referee.core.registry import get_game

T0 = 1_900_000_000_000
SECONDS = ClockSettings("seconds", 10)


def test_a_seat_awaited_again_after_its_own_answer_gets_a_new_deadline():
    """比大小: every seat answers each round; the round's last answer resolves it and every seat is
    awaited anew, the last answerer too."""
    game = get_game("bidaxiao")
    state = game.deal(game.make_options(), b"clock", b"")
    clock = clocks.start(game, state, SECONDS, T0)
    assert clock.deadlines == (T0 + 10_000, T0 + 10_000)
    first, last = state.to_act
    after, _ = game.apply(state, game.default_action(state, first))
    clock = clocks.advance(game, clock, state, after, first, T0 + 1_000)
    assert clock.deadlines == ((0, T0 + 10_000) if first == 0 else (T0 + 10_000, 0))  # the other keeps its own
    again, _ = game.apply(after, game.default_action(after, last))
    clock = clocks.advance(game, clock, after, again, last, T0 + 2_000)
    assert set(again.to_act) == {first, last} and clock.deadlines == (T0 + 12_000, T0 + 12_000)
    assert clock.opened == T0 + 2_000


def test_a_turn_gets_now_plus_its_limit_and_nobody_else_a_deadline():
    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"clock", b"")
    clock = clocks.start(game, state, SECONDS, T0)
    seat = state.to_act[0]
    assert [bool(d) for d in clock.deadlines] == [s == seat for s in range(3)]
    after, _ = game.apply(state, game.default_action(state, seat))
    clock = clocks.advance(game, clock, state, after, seat, T0 + 4_000)
    assert clock.deadlines[after.to_act[0]] == T0 + 14_000 and clock.deadlines[seat] == 0


def test_off_sets_no_deadline_and_a_finished_round_none():
    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"clock", b"")
    assert clocks.start(game, state, ClockSettings(), T0).deadlines == (0, 0, 0)
    clock = clocks.start(game, state, SECONDS, T0)
    left, _ = game.apply(state, Action(0, "ABANDON"))
    assert clocks.advance(game, clock, state, left, 0, T0 + 1).deadlines == (0, 0, 0)


def test_a_window_closed_past_its_deadlines_adds_the_delay_to_the_turn_that_counts_from_it():
    """rule 14: a turn after a claim window counts 15 s from the discard; when the owner closed the
    window late (its 3 s long past), the delay is added: the seat on turn still has 12 s."""
    game = get_game("mcr")
    seed = ClockSettings("seed")
    state = game.deal(game.make_options(), b"late window", b"")
    clock = clocks.start(game, state, seed, T0)
    now = T0
    while game.phase_name(state) != "claim":
        now += 1_000
        seat = state.to_act[0]
        before = state
        state, _ = game.apply(state, game.default_action(state, seat))
        clock = clocks.advance(game, clock, before, state, seat, now)
    opened = clock.opened
    assert opened == now and all(clock.deadlines[s] == now + 3_000 for s in state.to_act)
    late = now + 10_000
    while game.phase_name(state) == "claim":
        seat = state.to_act[0]
        before = state
        state, _ = game.apply(state, Action(seat, "TIMEOUT"))
        clock = clocks.advance(game, clock, before, state, seat, late)
    assert game.phase_name(state) == "turn"
    assert clock.deadlines[state.to_act[0]] == late + 12_000


def test_the_record_keeps_the_settings_the_autoplay_mask_and_every_seat():
    game = get_game("chuanpai")
    state = game.deal(game.make_options(), b"record", b"", 7) if game.max_seats >= 7 else None
    if state is None:
        return
    clock = clocks.start(game, state, ClockSettings("seconds", 3600), T0, autoplay=0b1000001)
    assert clocks.unpack(game, clocks.pack(game, clock), 7) == clock
    assert game.time_limit(state, state.to_act[0], clock.settings) == Limit(3_600_000)


def test_a_seat_the_record_does_not_hold_has_no_deadline():
    """0: a spectator (-1), a seat past the record, and every seat of a token sealed before the
    clock (no record: no deadlines)."""
    clock = clocks.Clock(SECONDS, (T0 + 1, T0 + 2))
    assert [clock.deadline(s) for s in (-1, 0, 1, 2)] == [0, T0 + 1, T0 + 2, 0]
    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"clock", b"")
    assert clocks.Clock().deadline(0) == 0 and clocks.Clock().expired(state, T0, 0) == ()


def test_a_decision_still_open_keeps_the_time_it_opened():
    """比大小: after the first answer the other seat still answers the decision opened at the
    deal, so the record's opening stays the deal's time (a limit counted from the window's opening
    reads it)."""
    game = get_game("bidaxiao")
    state = game.deal(game.make_options(), b"clock", b"")
    clock = clocks.start(game, state, SECONDS, T0)
    first = state.to_act[0]
    after, _ = game.apply(state, game.default_action(state, first))
    clock = clocks.advance(game, clock, state, after, first, T0 + 1_000)
    assert clock.opened == T0 and len(after.to_act) == 1


def test_the_record_is_version_1_byte_for_byte():
    """Tokens sealed by this release carry this record (version 1): a server of a later release
    must open them, so its layout is pinned: version u8, mode u8, seconds u16, autoplay u8,
    opened i64, then 8 deadlines i64, big-endian."""
    game = get_game("doudizhu")
    literal = (bytes([1, 1]) + (10).to_bytes(2, "big") + bytes([0b100]) + (T0 - 5).to_bytes(8, "big")
               + T0.to_bytes(8, "big") + bytes(8 * 7))
    clock = clocks.Clock(SECONDS, (T0, 0, 0), T0 - 5, 0b100)
    assert clocks.RECORD_BYTES == len(literal) and clocks.pack(game, clock) == literal
    assert clocks.unpack(game, literal, 3) == clock
    with pytest.raises(ValueError):
        clocks.unpack(game, bytes([2]) + literal[1:], 3)


def test_a_seat_without_a_deadline_never_expires():
    """Only a deadline that passed counts (a seat with none, 0, is never late, however late it is)."""
    game = get_game("bidaxiao")
    state = game.deal(game.make_options(), b"clock", b"")
    assert set(state.to_act) == {0, 1}
    clock = clocks.Clock(SECONDS, (0, T0))
    assert clock.expired(state, T0 + 60_000, 500) == (1,)
    assert clock.expired(state, T0 + 500, 500) == ()  # within the tolerance


def test_a_fresh_clock_puts_on_autoplay_only_the_seats_it_is_told():
    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"clock", b"")
    assert clocks.start(game, state, SECONDS, T0).autoplay == 0
    assert clocks.start(game, state, SECONDS, T0, autoplay=0b101).autoplay == 0b101


def test_the_platform_gives_no_limit_for_a_mode_it_does_not_know():
    """Game.time_limit: ``seconds`` is the platform's; a game's own mode is the game's to time
    (a game that names one and does not time it gives no deadline)."""
    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"clock", b"")
    seat = state.to_act[0]
    assert game.time_limit(state, seat, SECONDS) == Limit(10_000)
    assert game.time_limit(state, seat, ClockSettings("a game's own", 10)) == Limit(0)


def test_clock_seconds_runs_from_1_to_3600():
    game = get_game("doudizhu")
    for seconds in (1, 3600):
        game.make_options(overrides={"clock": "seconds", "clock_seconds": seconds})  # accepted
    for seconds in (0, 3601):
        with pytest.raises(InvalidAction):
            game.make_options(overrides={"clock": "seconds", "clock_seconds": seconds})
