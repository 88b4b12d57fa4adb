"""Climbing-game trick flow, shared by every game in which a trick is led, then beaten or
passed in turn (Dou Dizhu, Q783, 够级, 出一样的花色).

The flow, once for all of them: the leader plays any combination and may not pass (MUST_LEAD);
each other seat still in, in turn order, beats the top play or passes. By default a pass does
not bar a seat from the trick: the trick is won when every other seat still in has passed on
the top play in succession; with ``bars`` (Q783's ``pass_bars_trick``) a seat that passed is
skipped until the trick ends, and the trick is won when every other seat still in has passed.
The winner leads the next trick; if the winner has gone out, the lead passes to the next seat
still in after him (接风). A seat whose hand empties goes out and takes the next place in the
finishing order (``state.out``).

A game uses :class:`TrickPlay` as its play phase; its state has ``hands`` (card bitmasks per
seat), ``played`` (the cards played in the round, a bitmask), ``trick`` (:class:`Trick`), ``out``
(seats in the order they went out), ``to_act`` and ``phase``. The game supplies the
combinations and the consequences through these methods:

- ``read_play(state, action, mask) -> Verdict``: may ``action.seat`` play the cards ``mask``
  (held) on ``state.trick``? A legal verdict carries the combination and, as ``detail``, the
  game's packed play (non-zero), and the action with its concrete cards.
- ``legal_plays(state, seat) -> [(Action, Combo)]``: the plays that may be made now.
- ``after_play(state, seat, verdict, events) -> state``: after the cards left the hand
  (counts, bombs); ``after_pass(state, seat, events) -> state``: after a pass (Q783's
  payment on each pass); ``after_trick(state, trick, events) -> state``: after a trick is won
  (payments).
- ``round_over(state) -> bool``: checked when a seat goes out and when a trick ends;
  ``finish(state, events) -> state``: the round ends.
- ``plays_out_trick(state) -> bool``: when a seat going out ends the round, is the trick in
  progress played out first (the others may still beat; the round ends when that trick is
  won)? Otherwise the round ends at once.
- ``play_stops(state) -> bool``: checked after every pass: the round ends at once whatever
  the trick (a payment emptied a bank).
- ``bars(state) -> bool``: whether a pass bars the seat for the rest of the trick.

:class:`TrickHooks` has the defaults of ``after_play``, ``after_pass``, ``after_trick`` (nothing),
``bars``, ``plays_out_trick`` and ``play_stops`` (False): a game playing TrickPlay inherits it.
The cards played in the round gather in ``state.played`` (a bitmask).

Events: PLAY (seat, cards, combination), PASS, TRICK_WON (the winner), LEAD (the seat the lead
passes to under 接风), OUT (a seat that went out while the round goes on; values: place).
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import from_mask
from .errors import Reason
from .game import PASS, PLAY, Action, Event, Phase, Verdict, held
from .seats import next_seat


class Trick(NamedTuple):
    """The trick in progress: the play to beat, who made it and who passed on it."""

    leader: int = -1  # the seat that led
    top: int = 0  # the game's packed play to beat; 0 while nobody has played (a free lead)
    top_seat: int = -1
    top_cards: int = 0  # the cards of the top play, a bitmask
    passed: int = 0  # seats that passed on the top play (with bars: in the whole trick)


def seats_in(hands) -> int:
    """The seats still holding cards, as a mask."""
    mask = 0
    for s, h in enumerate(hands):
        if h:
            mask |= 1 << s
    return mask


class TrickPlay(Phase):
    """The play phase of a climbing game (see the module docstring)."""

    kinds = frozenset((PLAY, PASS))

    def __init__(self, name: str = "play"):
        self.name = name

    def legal(self, game, state, seat):
        plays = game.legal_plays(state, seat)
        return plays if not state.trick.top else [(Action(seat, PASS), None)] + plays

    def check(self, game, state, action: Action) -> Verdict:
        if action.kind == PASS:
            if not state.trick.top:
                return Verdict.no(Reason.MUST_LEAD, "the leader may not pass")
            return Verdict.ok("pass")
        mask = held(state.hands[action.seat], action, game.notation)
        if type(mask) is Verdict:
            return mask
        return game.read_play(state, action, mask)

    def apply(self, game, state, action: Action, verdict: Verdict):
        seat = action.seat
        trick = state.trick
        n = state.num_seats
        bars = game.bars(state)
        if action.kind == PASS:
            passed = trick.passed | 1 << seat
            events = [Event("PASS", seat)]
            state = game.after_pass(state._replace(trick=trick._replace(passed=passed)), seat, events)
            if game.play_stops(state):
                return game.finish(state, events), events
            still = seats_in(state.hands) & ~(1 << trick.top_seat) & ~passed
            if not still:
                return self._won(game, state, events)
            waiting = still if bars else seats_in(state.hands) & ~(1 << trick.top_seat)
            return state._replace(to_act=(next_seat(seat, n, waiting),)), events
        mask = 0
        for c in action.cards:
            mask |= 1 << c
        hand = state.hands[seat] & ~mask
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
        trick = trick._replace(top=verdict.detail, top_seat=seat, top_cards=mask,
                               passed=trick.passed if bars else 0)
        events = [Event("PLAY", seat, action.cards, verdict.combo)]
        state = game.after_play(state._replace(hands=hands, trick=trick, played=state.played | mask),
                                seat, verdict, events)
        if not hand:
            state = state._replace(out=state.out + (seat,))
            if game.round_over(state) and not game.plays_out_trick(state):
                return game.finish(state, events), events
            events.append(Event("OUT", seat, values={"place": len(state.out)}))
        others = seats_in(state.hands) & ~(1 << seat) & ~trick.passed
        if not others:
            return self._won(game, state, events)
        return state._replace(to_act=(next_seat(seat, n, others),)), events

    def _won(self, game, state, events):
        trick = state.trick
        winner = trick.top_seat
        events.append(Event("TRICK_WON", winner))
        state = game.after_trick(state, trick, events)
        if game.round_over(state):
            return game.finish(state, events), events
        inside = seats_in(state.hands)
        leader = winner if inside >> winner & 1 else next_seat(winner, state.num_seats, inside)
        if leader != winner:
            events.append(Event("LEAD", leader, values={"from": winner}))
        return state._replace(trick=Trick(leader), to_act=(leader,)), events


class TrickHooks:
    """Defaults of the optional methods a game playing :class:`TrickPlay` may override."""

    def after_play(self, state, seat: int, verdict: Verdict, events: list) -> object:
        return state

    def after_pass(self, state, seat: int, events: list) -> object:
        return state

    def after_trick(self, state, trick: Trick, events: list) -> object:
        return state

    def bars(self, state) -> bool:
        return False

    def plays_out_trick(self, state) -> bool:
        return False

    def play_stops(self, state) -> bool:
        return False


def trick_cards(trick: Trick) -> tuple[int, ...]:
    """The ids of the top play's cards."""
    return from_mask(trick.top_cards)
