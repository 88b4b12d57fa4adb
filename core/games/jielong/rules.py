"""接龙 Jielong, the train (排火车) (spec: rules/small-games.md rules 12-14).

Deal (rule 12): 2-4 seats (default 2). The deck without jokers, ``range(52)`` (option
``jokers``: all 54; card id = suit * 13 + rank, ranks 3 4 5 6 7 8 9 T J Q K A 2, 52 small
joker, 53 big joker), is shuffled on the stream ``deal`` of the round's deal key and dealt out
one card at a time from seat 0 upwards as face-down piles: card i to seat i mod n, the first
card dealt to a seat the top of its pile (seat s's pile is cards s, s + n, s + 2n ... top first).
Nobody looks at a pile, its owner included: views show its size only.

Play (rule 13): seat 0 starts; in turn each seat turns over the top card of its pile and puts
it at the end of the train (PLAY, which names no card: nobody chooses). If its rank equals a
card already in the train, the seat takes that card, the new one and every card between them
and puts them under its pile, oldest first [taking is automatic: taking is never worse]. With
``jokers``, a joker takes the whole train, itself included (put last). A train never holds two
cards of one rank, so it is at most 13 cards long.

End (rule 14): a seat whose pile is empty is out (OUT event) and skipped; it can never take
again. The game ends when at most one seat still holds cards [the seed's "one player holds all
cards": the others are out for good, so the result is settled then; the train's cards belong to
nobody], or after ``max_turns`` turns (default 1000): the seat holding most cards wins ("谁的牌多
谁就是获胜者"), seats tied on most cards share the win.

Settlement (our choice, the spec is silent): each losing seat pays each winning seat 1 point
(ties share); all seats tied, nobody pays. ABANDON (any seat, any time): the round ends and the
leaver pays 1 point to each other seat.

Phases: ``play`` (PLAY, no cards; the one legal action of the seat on turn), ``finished``.
Views: no hands; per seat counter ``pile`` (cards in its pile); public ``train`` (oldest
first); counters ``turns`` and ``max_turns``. A card that has been on the train is public from
then on (everybody saw where it went), so a pile's secret cards are the ones never turned
over. Events: DEAL (each seat's pile size, no cards), PLAY, TAKE (the cards the seat takes, in
the order they go under its pile), OUT, FINISH, ABANDON. State: piles and the train as bytes of
card ids. The play phase is a ``Moves`` phase of this module's own: one forced action per
turn is no trick. Nobody knows a face-down card, not even its pile's seat (``knowledge``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ... import cards as cardlib
from ... import rng
from ...codec import Blob, Index, Layout, Mask, Seq, Small
from ...errors import Reason
from ...game import (ABANDON, COMMON_KINDS, PLAY, Action, ActionKind, DealKey, Event, EventType, Finished, Game,
                     Knowledge, Match, Moves, SeatView, Settlement, Verdict, View, leaver_pays, losers_pay_winners,
                     option)
from ...seats import next_seat
from ...tricks import seats_in

PLAYING, FINISHED = 0, 1
NOTATION = cardlib.PokerNotation(1)


@dataclass(frozen=True, slots=True)
class Options:
    jokers: bool = option(False, "rule 12: all 54 cards; a joker takes the whole train (rule 13)")
    max_turns: int = option(1000, "rule 14: after this many turns the seat holding most cards wins",
                            minimum=1, maximum=10000)


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    piles: tuple[bytes, ...]  # card ids, top first
    train: bytes  # card ids, oldest first
    revealed: int  # every card that has been on the train (bitmask)
    turns: int
    phase: int
    to_act: tuple[int, ...]
    abandoned: int = -1
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def num_seats(self) -> int:
        return len(self.piles)




def deck_size(options: Options) -> int:
    return cardlib.CARDS_PER_DECK if options.jokers else 52


def lay(train: bytes, card: int) -> tuple[bytes, bytes]:
    """Rule 13: (the train after ``card`` is laid, the cards taken oldest first)."""
    rank = cardlib.card_rank(card)
    if rank >= cardlib.SMALL_JOKER:
        return b"", train + bytes((card,))
    for i, other in enumerate(train):
        if cardlib.card_rank(other) == rank:
            return train[:i], train[i:] + bytes((card,))
    return train + bytes((card,)), b""


def turn_actions(state: State, seat: int):
    return [(Action(seat, PLAY), None)]


def check_turn(state: State, action: Action) -> Verdict:
    """Rules 13-14: the seat on turn lays its top card; a match takes the cards between."""
    if action.cards or action.ranks:
        return Verdict.no(Reason.BAD_ACTION, "PLAY turns over the top card of the pile: it names no card")
    return Verdict.ok("turn over the top card")


def turn_over(state: State, action: Action, verdict: Verdict):
    seat = action.seat
    pile = state.piles[seat]
    card = pile[0]
    train, taken = lay(state.train, card)
    pile = pile[1:] + taken
    events = [Event("PLAY", seat, (card,))]
    if taken:
        events.append(Event("TAKE", seat, tuple(taken)))
    elif not pile:
        events.append(Event("OUT", seat))
    piles = state.piles[:seat] + (pile,) + state.piles[seat + 1:]
    state = state._replace(piles=piles, train=train, revealed=state.revealed | 1 << card, turns=state.turns + 1)
    inside = seats_in(piles)
    if inside.bit_count() <= 1 or state.turns >= state.options.max_turns:
        winners = winning_seats(state)
        events.append(Event("FINISH", -1, values={"winners": sum(1 << s for s in winners), "turns": state.turns}))
        return state._replace(phase=FINISHED, to_act=()), events
    return state._replace(to_act=(next_seat(seat, state.num_seats, inside),)), events


def winning_seats(state) -> tuple[int, ...]:
    """Rule 14: the seats holding most cards."""
    top = max(len(p) for p in state.piles)
    return tuple(s for s, p in enumerate(state.piles) if len(p) == top)


class Jielong(Game):
    id = "jielong"
    name = "接龙 Jielong (the train, 排火车)"
    min_seats, max_seats, default_seats = 2, 4, 2
    Options = Options
    presets = {"jokers": Options(jokers=True)}
    notation = NOTATION
    phases = (Moves("play", (PLAY,), legal=turn_actions, check=check_turn, apply=turn_over), Finished())
    State = State
    state_fields = {"piles": Seq(Blob("cards"), "seats", total="cards"), "train": Blob("cards"), "revealed": Mask,
                    "turns": Small, "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"), "abandoned": Index("seats"), "step": Small}
    # the release before the state codec: num_seats stored, no version byte
    state_layouts = {1: Layout("options seed entropy match num_seats piles train revealed turns phase to_act "
                               "abandoned step")}
    action_kinds = (ActionKind(PLAY, "turn over the top card of the pile onto the train (names no card: "
                                     "nobody chooses)"),
                    COMMON_KINDS[ABANDON])
    counters = {"turns": "turns played", "max_turns": "the turn limit (rule 14)"}
    outcomes = {"last_holding": "one seat still holds cards (rule 14)", "most_cards": "the turn limit: most cards wins",
                "tie": "every seat holds as many cards", "abandoned": "a seat left: it pays 1 point to each other seat"}
    breakdown = {"turns": "turns played", "cards": "the winner's cards", "left": "the seat that left"}
    seat_counters = {"pile": "cards in the seat's face-down pile"}
    public_cards = {"train": "the train, oldest card first"}
    deal_cards = {
        "seat": DealKey("the seat's face-down pile, top first: i = seat, seat + n ... of the shuffled "
                        "deck", per_seat=True),
    }
    event_types = {
        "DEAL": EventType("the seat's face-down pile (no cards: nobody looks)", {"cards": "cards in the pile"}),
        "PLAY": EventType("the seat put its top card at the end of the train"),
        "TAKE": EventType("the card matched a rank in the train (or was a joker): the seat takes these cards, "
                          "in this order, under its pile (rule 13)"),
        "OUT": EventType("the seat's pile is empty: it is out (rule 14)"),
        "FINISH": EventType("the game is over (rule 14)", {"winners": "bitmask of the winning seats",
                                                            "turns": "turns played"}),
        "ABANDON": EventType("the seat left"),
    }

    def _deal(self, options, seed, entropy, seats, match):
        deck = rng.Stream(rng.deal_key(seed, entropy), "deal").shuffle(range(deck_size(options)))
        piles = tuple(bytes(deck[s::seats]) for s in range(seats))
        return State(options, seed, entropy, match, piles, b"", 0, 0, PLAYING, (0,))

    def deal_events(self, state):
        return [Event("DEAL", s, values={"cards": len(p)}) for s, p in enumerate(state.piles)]

    def _views(self, state, seats):
        seat_views = tuple(SeatView(0, counters={"pile": len(p)}) for p in state.piles)
        public = {"train": tuple(state.train)}
        counters = {"turns": state.turns, "max_turns": state.options.max_turns}
        phase = self.phases[state.phase].name
        return [View(s, phase, state.to_act, (), seat_views, public, None, -1, (), counters, state.finished)
                for s in seats]

    def _settle(self, state):
        n = state.num_seats
        if state.abandoned >= 0:
            return Settlement(leaver_pays(n, state.abandoned), (), "abandoned", (("left", state.abandoned),))
        winners = winning_seats(state)
        outcome = ("last_holding" if seats_in(state.piles).bit_count() == 1
                   else "tie" if len(winners) == n else "most_cards")
        return Settlement(losers_pay_winners(n, winners), winners, outcome,
                          (("turns", state.turns), ("cards", len(state.piles[winners[0]]))))

    def all_cards(self, state):
        return range(deck_size(state.options))

    def dealt(self, state):
        """The piles as dealt, top first: seat s the cards i = s, s + n ... of the shuffled deck."""
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), "deal").shuffle(range(deck_size(state.options)))
        return {f"seat{s}": tuple(deck[s::state.num_seats]) for s in range(state.num_seats)}, {}

    def card_zones(self, state):
        zones = {f"pile{s}": tuple(p) for s, p in enumerate(state.piles)}
        zones["train"] = tuple(state.train)
        return zones

    def knowledge(self, state):
        """The piles are face down: nobody knows a card before it is turned over, not even the
        pile's seat; every card turned over is public from then on."""
        return Knowledge(state.revealed, (0,) * state.num_seats)

JIELONG = Jielong()
