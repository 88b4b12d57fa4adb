"""Climbing-game trick flow, shared by every game in which a trick is led, then beaten or
passed in turn (Dou Dizhu, Q783, 够级, 出一样的花色).

The flow, once for all of them: the leader plays any combination and may not pass (MUST_LEAD);
then the seats are asked in turn order, each beating the top play or passing. Which seats may
answer is the turn order's configuration, with these defaults:

- **active** seats take part in the trick: by default those holding cards (``active``);
- a seat is **eligible** to answer the top play when it is active, did not make it, has not
  passed on it, and is not **barred**: with ``bars`` a pass bars the seat for the rest of the
  trick, unless the play on the table lifts its bar (``lifts_bar``: 够级's 对头 rule);
- after a play, a pass or a game's own move the next eligible seat in turn order (``step`` 1:
  s + 1, -1: s - 1) is asked (``ask_next``; ``next_asked(state, seat, eligible)`` may name
  another eligible seat); the trick
  is won by the top play's owner when no seat is eligible, or at once when a play closes it
  (``closes(state, seat) -> winner or -1``: an unbeatable play; it may name another winner,
  出一样的花色's seat out of suit);
- the winner leads the next trick, or when he is not active the next active seat after him
  (接风); ``next_leader(state, trick, winner)`` may name another (a failed burn's victim, a
  partner catching the wind); ``won_event`` is the event announcing the winner (TRICK_WON);
- a seat whose hand empties goes out and takes the next place (``state.out``).

A game configures one :class:`TrickPlay` per trick phase with its own functions (no hook is
looked up on the Game): ``read_play(state, action, mask) -> Verdict`` (may ``action.seat`` play
the held cards ``mask`` on ``state.trick``? a legal verdict carries the combination, the game's
packed play as ``detail`` (non-zero) and the action with its concrete cards), ``legal_plays(state,
seat)``, ``round_over(state)`` and ``finish(state, events)``; optionally ``after_play(state, seat,
verdict, beaten, events)`` (``beaten``: the trick as it was before the play, so the game sees
what the play beat), ``after_pass(state, seat, events)``, ``after_trick(state, trick, winner, events)``, ``plays_out_trick`` (when the round is over
at a seat going out, is the trick played out first?), ``play_stops`` (after every pass: does
the round end at once?), and ``extra`` action kinds inside the trick (让, 烧), each a
:class:`TrickMove` whose ``apply`` gets the phase to move the turn on.

A game's state has ``hands`` (card bitmasks per seat), ``played`` (a bitmask), ``trick``
(:class:`Trick`), ``out`` (seats in the order they went out), ``to_act`` and ``phase``.

Events: PLAY (seat, cards, combination), PASS, TRICK_WON (the winner), LEAD (the seat the lead
passes to, values ``from``: the winner), OUT (a seat that went out while the round goes on;
values: place).
"""
from __future__ import annotations

from typing import Annotated, Callable, NamedTuple

from .cards import from_mask
from .codec import Index, Mask
from .errors import Reason
from .game import PASS, PLAY, Action, Event, Phase, Verdict, held
from .seats import next_seat


class Trick(NamedTuple):
    """The trick in progress: the play to beat, who made it and who passed."""

    leader: Annotated[int, Index("seats")] = -1  # the seat that led
    top: Annotated[int, Mask(64)] = 0  # the game's packed play to beat (a 64-bit word); 0: a free lead
    top_seat: Annotated[int, Index("seats")] = -1
    top_cards: Annotated[int, Mask()] = 0  # the cards of the top play, a bitmask
    passed: Annotated[int, Mask("seats")] = 0  # seats that passed on the top play
    barred: Annotated[int, Mask("seats")] = 0  # with bars: seats that passed in the trick (see lifts_bar)


class TrickMove(NamedTuple):
    """An extra action kind inside a trick: ``check(state, action) -> Verdict`` and
    ``apply(phase, state, action, verdict, events) -> state`` (the phase moves the turn on:
    ``phase.ask_next``, ``phase.win_trick``)."""

    check: Callable
    apply: Callable
    legal: Callable | None = None  # (state, seat) -> [(Action, Combo | None)] when it is offered


def seats_in(hands) -> int:
    """The seats still holding cards, as a mask."""
    mask = 0
    for s, h in enumerate(hands):
        if h:
            mask |= 1 << s
    return mask


def _never(*_) -> bool:
    return False


def _same(state, *_):
    return state


def _active_holding(state) -> int:
    return seats_in(state.hands)


def _trick_won(state, trick, winner: int) -> Event:
    return Event("TRICK_WON", winner)


class TrickPlay(Phase):
    """The play phase of a climbing game, configured by the game (see the module docstring)."""

    def __init__(self, name: str, *, read_play: Callable, legal_plays: Callable, round_over: Callable,
                 finish: Callable, after_play: Callable = _same, after_pass: Callable = _same,
                 after_trick: Callable = _same, plays_out_trick: Callable = _never, play_stops: Callable = _never,
                 bars: Callable = _never, lifts_bar: Callable = _never, active: Callable = _active_holding,
                 closes: Callable | None = None, next_leader: Callable | None = None, won_event: Callable = None,
                 next_asked: Callable | None = None, can_pass: bool = True, extra: dict[str, TrickMove] | None = None,
                 step: int = 1):
        self.name = name
        self.extra = dict(extra or {})
        self.kinds = frozenset((PLAY,) + ((PASS,) if can_pass else ()) + tuple(self.extra))
        self.read_play, self.legal_plays, self.round_over, self.finish = read_play, legal_plays, round_over, finish
        self.after_play, self.after_pass, self.after_trick = after_play, after_pass, after_trick
        self.plays_out_trick, self.play_stops, self.bars, self.lifts_bar = plays_out_trick, play_stops, bars, lifts_bar
        self.active, self.closes, self.next_leader, self.next_asked = active, closes, next_leader, next_asked
        self.won_event = won_event or _trick_won
        self.can_pass, self.step = can_pass, step

    # --- the phase -------------------------------------------------------------------------
    def legal(self, game, state, seat):
        plays = self.legal_plays(state, seat)
        for move in self.extra.values():
            if move.legal is not None:
                plays = plays + move.legal(state, seat)
        return plays if not (state.trick.top and self.can_pass) else [(Action(seat, PASS), None)] + plays

    def check(self, game, state, action: Action) -> Verdict:
        if action.kind == PASS:
            if not state.trick.top:
                return Verdict.no(Reason.MUST_LEAD, "the leader may not pass")
            return Verdict.ok("pass")
        move = self.extra.get(action.kind)
        if move is not None:
            return move.check(state, action)
        mask = held(state.hands[action.seat], action, game.notation)
        if type(mask) is Verdict:
            return mask
        return self.read_play(state, action, mask)

    def apply(self, game, state, action: Action, verdict: Verdict):
        seat = action.seat
        if action.kind == PASS:
            return self._pass(state, seat)
        move = self.extra.get(action.kind)
        if move is not None:
            events: list[Event] = []
            return move.apply(self, state, action, verdict, events), events
        return self._play(state, seat, action, verdict)

    # --- the turn order ---------------------------------------------------------------------
    def eligible(self, state) -> int:
        """The seats that may still answer the top play (a mask)."""
        trick = state.trick
        mask = self.active(state) & ~trick.passed
        if trick.top_seat >= 0:
            mask &= ~(1 << trick.top_seat)
        barred = trick.barred & mask
        for s in range(state.num_seats):
            if barred >> s & 1 and not self.lifts_bar(state, s, trick):
                mask &= ~(1 << s)
        return mask

    def ask_next(self, state, seat: int, events: list):
        """Ask the next eligible seat after ``seat``; the trick is won when none is left."""
        eligible = self.eligible(state)
        if not eligible:
            return self.win_trick(state, state.trick.top_seat, events)
        if self.next_asked is not None:
            return state._replace(to_act=(self.next_asked(state, seat, eligible),))
        return state._replace(to_act=(next_seat(seat, state.num_seats, eligible, self.step),))

    def win_trick(self, state, winner: int, events: list):
        """The trick is won by ``winner``: paid (after_trick), then the next trick is led."""
        trick = state.trick
        events.append(self.won_event(state, trick, winner))
        state = self.after_trick(state, trick, winner, events)
        if self.round_over(state):
            return self.finish(state, events)
        if self.next_leader is not None:
            leader = self.next_leader(state, trick, winner)
        else:
            inside = self.active(state)
            leader = winner if inside >> winner & 1 else next_seat(winner, state.num_seats, inside, self.step)
        if leader != winner:
            events.append(Event("LEAD", leader, values={"from": winner}))
        return state._replace(trick=Trick(leader), to_act=(leader,))

    def _pass(self, state, seat: int):
        trick = state.trick
        bars = self.bars(state)
        trick = trick._replace(passed=trick.passed | 1 << seat, barred=trick.barred | (1 << seat if bars else 0))
        events = [Event("PASS", seat)]
        state = self.after_pass(state._replace(trick=trick), seat, events)
        if self.play_stops(state):
            return self.finish(state, events), events
        return self.ask_next(state, seat, events), events

    def _play(self, state, seat: int, action: Action, verdict: Verdict):
        beaten = state.trick
        mask = 0
        for c in action.cards:
            mask |= 1 << c
        hand = state.hands[seat] & ~mask
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
        trick = beaten._replace(top=verdict.detail, top_seat=seat, top_cards=mask, passed=0)
        events = [Event("PLAY", seat, action.cards, verdict.combo)]
        state = self.after_play(state._replace(hands=hands, trick=trick, played=state.played | mask),
                                seat, verdict, beaten, events)
        if not hand:
            state = state._replace(out=state.out + (seat,))
            if self.round_over(state) and not self.plays_out_trick(state):
                return self.finish(state, events), events
            events.append(Event("OUT", seat, values={"place": len(state.out)}))
        if self.closes is not None:
            winner = self.closes(state, seat)
            if winner >= 0:
                return self.win_trick(state, winner, events), events
        return self.ask_next(state, seat, events), events


def trick_cards(trick: Trick) -> tuple[int, ...]:
    """The ids of the top play's cards."""
    return from_mask(trick.top_cards)
