"""Turn clocks kept without state: each awaited seat's deadline, computed in one place.

A table's clock is a platform setting read from two options every game lists (``clock``: ``off``,
``seconds`` or one of the game's own modes, ``Game.clock_modes``; ``clock_seconds`` for
``seconds``). It is not part of the game's state: the service keeps a :class:`Clock` record beside
the state in the sealed token, so a state's digest, a Replay and a golden transcript never depend
on time. The core never reads the wall clock: the service passes ``now`` (ms since the epoch, its
own time source) to :func:`advance`.

Deadlines: when a seat becomes awaited its deadline is ``now`` + the game's limit for it
(``Game.time_limit``); a seat still awaited in the same decision after another seat's action (a
claim window's other askees, a seat that did not leave) keeps its deadline. A limit may count from
the opening of the decision window the state leaves (``Limit.from_window``: 国标麻将's turn after a
claim window runs from the discard, rule 14; when the window closed after its own deadlines, the
delay is added, so a late owner never shortens the next seat's time). A seat on autoplay (托管, ``Clock.autoplay``) is
played by the game's default action (``Game.default_action``) whenever it is awaited.
"""
from __future__ import annotations

import struct
from typing import NamedTuple

OFF, SECONDS = "off", "seconds"
CLOCK, CLOCK_SECONDS = "clock", "clock_seconds"
CLOCK_OPTIONS = (CLOCK, CLOCK_SECONDS)
DEFAULT_SECONDS = 15
MAX_SECONDS = 3600
MAX_SEATS = 8  # the record has room for this many seats' deadlines
TIMEOUT = "TIMEOUT"  # the action kind: the game's default action for an awaited seat


class ClockSettings(NamedTuple):
    """A table's clock: its mode (``off``, ``seconds`` or a game's own) and the seconds of ``seconds``."""

    mode: str = OFF
    seconds: int = DEFAULT_SECONDS


class Limit(NamedTuple):
    """The time an awaited seat has (ms; 0: no limit), counted from now, or with ``from_window``
    from the opening of the decision window the state has just left (when it left one)."""

    ms: int
    from_window: bool = False


NO_LIMIT = Limit(0)


class Clock(NamedTuple):
    """The clock record sealed beside a state: the settings, each seat's deadline (ms since the
    epoch, server time; 0 when the seat is not awaited or has no limit), when the current decision
    opened (ms) and the seats on autoplay (a mask)."""

    settings: ClockSettings = ClockSettings()
    deadlines: tuple[int, ...] = ()
    opened: int = 0
    autoplay: int = 0

    def deadline(self, seat: int) -> int:
        return self.deadlines[seat] if 0 <= seat < len(self.deadlines) else 0

    def expired(self, state, now: int, tolerance: int) -> tuple[int, ...]:
        """The awaited seats whose deadline passed more than ``tolerance`` ms before ``now``."""
        return tuple(s for s in state.to_act if 0 < self.deadline(s) < now - tolerance)


def start(game, state, settings: ClockSettings, now: int, autoplay: int = 0) -> Clock:
    """The clock of a freshly dealt ``state``."""
    return _deadlines(game, Clock(settings, (), now, autoplay), None, state, None, now)  # it sets every seat's


def advance(game, clock: Clock, before, after, actor: int, now: int) -> Clock:
    """The clock after ``actor``'s action took ``before`` to ``after`` at ``now``."""
    return _deadlines(game, clock, before, after, actor, now)


def _deadlines(game, clock: Clock, before, after, actor: int | None, now: int) -> Clock:
    """The clock of ``after`` (reached from ``before`` by ``actor``'s action; a deal: None, None)."""
    n = after.num_seats
    deadlines = [0] * n
    kept = False
    awaited_before = () if before is None else before.to_act
    simultaneous_before = before is not None and game.phases[before.phase].simultaneous
    on = clock.settings.mode != OFF
    for seat in (() if after.finished else after.to_act):
        if seat in awaited_before and seat != actor and clock.deadline(seat):
            deadlines[seat] = clock.deadline(seat)
            kept = True
            continue
        if not on:
            continue
        limit = game.time_limit(after, seat, clock.settings)
        if limit.ms:
            base = now
            if limit.from_window and simultaneous_before:
                # from the window's opening; a window closed past its deadlines (the platform was
                # late) does not shorten the seat's time: the delay is added
                base = clock.opened + max(0, now - max(clock.deadlines)) if any(clock.deadlines) else now
            deadlines[seat] = base + limit.ms
    return clock._replace(deadlines=tuple(deadlines), opened=clock.opened if kept else now)


# --- the sealed record: version u8 | mode u8 | seconds u16 | autoplay u8 | opened i64 | 8 x i64 --
_RECORD = struct.Struct(">BBHBq" + "q" * MAX_SEATS)
RECORD_BYTES = _RECORD.size
_VERSION = 1


def mode_names(game) -> tuple[str, ...]:
    """The clock modes of ``game`` in their record order: off, seconds, then the game's own."""
    return (OFF, SECONDS) + tuple(game.clock_modes)


def pack(game, clock: Clock) -> bytes:
    deadlines = tuple(clock.deadlines) + (0,) * (MAX_SEATS - len(clock.deadlines))
    return _RECORD.pack(_VERSION, mode_names(game).index(clock.settings.mode), clock.settings.seconds,
                        clock.autoplay, clock.opened, *deadlines)


def unpack(game, data: bytes, seats: int) -> Clock:
    """Raises: ValueError for bytes ``pack`` never writes."""
    version, mode, seconds, autoplay, opened, *deadlines = _RECORD.unpack(data)
    names = mode_names(game)
    if version != _VERSION or mode >= len(names) or autoplay >> seats:
        raise ValueError("not a clock record")
    return Clock(ClockSettings(names[mode], seconds), tuple(deadlines[:seats]), opened, autoplay)
