"""Simultaneous decisions, shared by every game that asks several seats at once (mahjong and
川牌 claim windows, 比大小's face-down plays): boardgame.io's "every other player answers once".

A :class:`Window` holds the seats asked, in priority order (the first has priority on a tie),
and one answer slot per seat. Every asked seat answers once; the answers stay in the sealed
state, and views show only who is still awaited, until the last answer is in and the game
resolves the window (``best`` picks the winning answer by the game's priority). A game uses
:class:`DecisionPhase` for such a phase and supplies what an answer may be and how the window
resolves.
"""
from __future__ import annotations

from typing import Annotated, Any, Callable, NamedTuple

from .codec import Index, Seq, Slot
from .game import Action, Event, Phase, Verdict

NO_ANSWER = None


class Window(NamedTuple):
    """Seats asked (priority order) and their answers (``None`` while awaited)."""

    asked: Annotated[tuple[int, ...], Seq(Index("seats", 0), "seats")] = ()
    answers: Annotated[tuple[Any, ...], Slot()] = ()  # each game declares its answers ("window.answers")

    @classmethod
    def open(cls, asked) -> Window:
        asked = tuple(asked)
        return cls(asked, (NO_ANSWER,) * len(asked))

    def awaiting(self) -> tuple[int, ...]:
        """The asked seats that have not answered, in priority order."""
        return tuple(s for s, a in zip(self.asked, self.answers) if a is NO_ANSWER)

    def answered(self, seat: int, answer) -> Window:
        """The window with ``seat``'s answer recorded (each asked seat answers once)."""
        i = self.asked.index(seat)
        if self.answers[i] is not NO_ANSWER:
            raise ValueError(f"seat {seat} answered already")
        return self._replace(answers=self.answers[:i] + (answer,) + self.answers[i + 1:])

    def complete(self) -> bool:
        return NO_ANSWER not in self.answers

    def answer_of(self, seat: int):
        return self.answers[self.asked.index(seat)]

    def best(self, priority: Callable[[Any], int]) -> tuple[int, Any] | None:
        """(seat, answer) of the answer with the highest ``priority`` (> 0), the earliest asked
        seat winning a tie; None when every answer has priority 0 (all passed)."""
        top, chosen = 0, None
        for seat, answer in zip(self.asked, self.answers):
            p = priority(answer)
            if p > top:
                top, chosen = p, (seat, answer)
        return chosen


class DecisionPhase(Phase):
    """A phase in which the seats of ``state.window`` answer at once, configured by the game:
    ``check(state, action) -> Verdict`` (may this seat answer so?), ``legal(state, seat)``,
    ``record(verdict, action) -> answer`` (what is kept of a legal answer) and ``resolve(state,
    events) -> state`` (called once the last answer is in, with ``state.window`` complete).
    Recording an answer yields no event: answers are secret until the window resolves, and who
    is asked is nobody else's business (``public_turn`` False: a view shows a seat whether it is
    awaited itself, not who else is).
    """

    simultaneous = True
    public_turn = False

    def __init__(self, name: str, kinds, *, check: Callable, legal: Callable, resolve: Callable,
                 record: Callable[[Verdict, Action], Any]):
        self.name, self.kinds = name, frozenset(kinds)
        self._check, self._legal, self._resolve, self._record = check, legal, resolve, record

    def check(self, game, state, action: Action) -> Verdict:
        return self._check(state, action)

    def legal(self, game, state, seat: int):
        return self._legal(state, seat)

    def opened_at(self, state) -> int:
        """The step at which the window opened (answers since then belong to it)."""
        return state.step - sum(answer is not NO_ANSWER for answer in state.window.answers)

    def apply(self, game, state, action: Action, verdict: Verdict):
        window = state.window.answered(action.seat, self._record(verdict, action))
        state = state._replace(window=window, to_act=window.awaiting())
        events: list[Event] = []
        if window.complete():
            state = self._resolve(state, events)
        return state, events
