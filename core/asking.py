"""Asking seats in turn, shared by every game that asks one seat at a time: Dou Dizhu's bidding,
够级's 预点, 明点 and 革命, tribute and its return, 川牌's laying down.

The state holds the queue of what is still to be asked (``state.asking``: :class:`Ask` items
in order, the first one awaited). Each seat is asked once per item; an answer is recorded by
the game, which may then stop early (a bid of 3), ask the seat again while it still has a
choice (``again``), or add obligations to the queue (a tribute owed, then its return). When the
queue is empty (or the game stops it) the game resolves the phase: the next phase, a redeal,
the end. Whose turn it is in such a phase is public (``public_turn``).
"""
from __future__ import annotations

from typing import Annotated, Callable, NamedTuple

from .codec import Index, Small
from .game import Action, Phase, Verdict


class Ask(NamedTuple):
    """One question of the queue: the seat asked, and what about (the game's own number: a bid,
    a tribute of ``amount`` cards to ``to`` ...)."""

    seat: Annotated[int, Index("seats", 0)]
    task: Annotated[int, Small] = 0
    to: Annotated[int, Index("seats")] = -1
    amount: Annotated[int, Small] = 0


def queue_in_order(first: int, n: int, task: int = 0, among: int = -1, step: int = 1) -> tuple[Ask, ...]:
    """Every seat of ``among`` (a mask, default all) once, in turn order from ``first``."""
    return tuple(Ask((first + i * step) % n, task) for i in range(n) if among >> ((first + i * step) % n) & 1)


def _never(*_) -> bool:
    return False


class AskInTurn(Phase):
    """A phase asking ``state.asking[0].seat``, configured by the game: ``legal(state, ask)``,
    ``check(state, action, ask) -> Verdict``, ``answer(state, action, verdict, ask, events) ->
    state`` (records it; may change the queue's tail), ``stop(state) -> bool`` (checked after
    every answer: the queue is dropped and the phase resolved), ``again(state, ask) -> bool``
    (the seat is asked once more, at the end of the queue) and ``resolve(state, events) -> state``
    (the queue is done: the next phase, or a new queue)."""

    def __init__(self, name: str, kinds, *, legal: Callable, check: Callable, answer: Callable,
                 resolve: Callable, stop: Callable = _never, again: Callable = _never):
        self.name, self.kinds = name, frozenset(kinds)
        self._legal, self._check, self._answer, self._resolve = legal, check, answer, resolve
        self._stop, self._again = stop, again

    def legal(self, game, state, seat: int):
        return self._legal(state, state.asking[0])

    def check(self, game, state, action: Action) -> Verdict:
        return self._check(state, action, state.asking[0])

    def apply(self, game, state, action: Action, verdict: Verdict):
        ask = state.asking[0]
        events: list = []
        state = self._answer(state._replace(asking=state.asking[1:]), action, verdict, ask, events)
        if not self._stop(state) and self._again(state, ask):
            state = state._replace(asking=state.asking + (ask,))
        if self._stop(state) or not state.asking:
            return self._resolve(state._replace(asking=()), events), events
        return state._replace(to_act=(state.asking[0].seat,)), events
