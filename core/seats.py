"""Seats, turn order and teams, shared by every game.

Seats are ints 0..n-1 and play goes from seat s to s + 1 (mod n) unless a game says otherwise.
A set of seats is a bitmask (bit s = seat s): the seats still in a round, the seats that
passed, the seats asked in a decision. ``next_seat`` walks the turn order skipping the seats
that are out.

Teams: ``teams`` is a tuple giving each seat's team number (``()`` when every seat plays
alone); ``opposite`` is the seat across the table at an even table (partners in Q783 camps,
对头 in 够级).
"""
from __future__ import annotations


def all_seats(n: int) -> int:
    """The mask of seats 0..n-1."""
    return (1 << n) - 1


def seats_of(mask: int) -> tuple[int, ...]:
    """The seats of a mask, ascending."""
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)


def next_seat(seat: int, n: int, among: int = -1, step: int = 1) -> int:
    """The first seat after ``seat`` in turn order (``step`` 1: s + 1, -1: s - 1) that is in
    the mask ``among`` (default every seat); -1 when none is."""
    for i in range(1, n + 1):
        s = (seat + i * step) % n
        if among >> s & 1:
            return s
    return -1


def in_order(first: int, n: int, among: int = -1) -> tuple[int, ...]:
    """The seats of ``among`` in turn order starting with ``first`` (included when in it)."""
    return tuple(s for s in ((first + i) % n for i in range(n)) if among >> s & 1)


def opposite(seat: int, n: int) -> int:
    """The seat across the table (n even)."""
    return (seat + n // 2) % n


def alternating_teams(n: int, teams: int = 2) -> tuple[int, ...]:
    """Seats 0, 2, 4 ... in team 0 and 1, 3, 5 ... in team 1 (partners sit apart)."""
    return tuple(s % teams for s in range(n))


def team_mask(teams: tuple[int, ...], team: int) -> int:
    """The seats of ``team``."""
    return sum(1 << s for s, t in enumerate(teams) if t == team)
