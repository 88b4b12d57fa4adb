"""A toy game written only on the platform's public pieces, to prove that a game is one module:
nothing outside this file changes to add it, and registering it (``registry.register``) is
enough for the contract suite and the server to play it.

High card (高牌), 2-4 seats: every seat is dealt ``hand_size`` cards (default 3) from one 54-card
deck; in each of ``hand_size`` rounds every seat plays one card face down at once (a shared
simultaneous decision: no seat sees another's card before all are in), then the cards are shown
and the highest rank takes the round (equal highest: nobody). Most rounds won wins; each loser
pays each winner 1 point (ties share the win; all equal: nobody pays).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee.core import cards, rng
from referee.core.codec import Index, Mask, OneOf, Seq, Small
from referee.core.decisions import DecisionPhase, Window
from referee.core.errors import Reason
from referee.core.game import (Knowledge, ABANDON, COMMON_KINDS, PLAY, Action, DealKey, Event, EventType, Finished,
                               Game, Match, SeatView, Settlement, Verdict, View, held, option)

ROUNDS, FINISHED = 0, 1


@dataclass(frozen=True, slots=True)
class Options:
    hand_size: int = option(3, "cards dealt to each seat, and rounds played", minimum=1, maximum=5)


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    num_seats: int
    hands: tuple[int, ...]  # bitmasks
    won: tuple[int, ...]  # rounds won per seat
    shown: int  # every card played so far (a bitmask)
    phase: int
    to_act: tuple[int, ...]
    window: Window
    abandoned: int = -1
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


NOTATION = cards.PokerNotation(1)


def _record(verdict: Verdict, action: Action) -> int:
    return action.cards[0]


def check_card(state, action):
    mask = held(state.hands[action.seat], action, NOTATION)
    if type(mask) is Verdict:
        return mask
    if mask.bit_count() != 1:
        return Verdict.no(Reason.BAD_ACTION, "play one card")
    return Verdict.ok("card", action=action._replace(cards=cards.from_mask(mask), ranks=()))

def card_actions(state, seat):
    return [(Action(seat, PLAY, (c,)), None) for c in cards.from_mask(state.hands[seat])]

def resolve_round(state, events):
    played = dict(zip(state.window.asked, state.window.answers))
    hands = list(state.hands)
    shown = state.shown
    for seat, card in played.items():
        hands[seat] &= ~(1 << card)
        shown |= 1 << card
        events.append(Event("SHOW", seat, (card,)))
    top = max(cards.card_rank(c) for c in played.values())
    best = [s for s, c in played.items() if cards.card_rank(c) == top]
    won = list(state.won)
    if len(best) == 1:
        won[best[0]] += 1
    events.append(Event("ROUND", best[0] if len(best) == 1 else -1))
    state = state._replace(hands=tuple(hands), won=tuple(won), shown=shown)
    if not hands[0]:
        return state._replace(phase=FINISHED, to_act=(), window=Window())
    window = Window.open(range(state.num_seats))
    return state._replace(window=window, to_act=window.awaiting())


class HighCard(Game):
    id = "toy_highcard"
    name = "High card (a toy game of the tests)"
    min_seats, max_seats, default_seats = 2, 4, 3
    Options = Options
    presets = {"short": Options(hand_size=1)}
    notation = NOTATION
    phases = (DecisionPhase("rounds", (PLAY,), check=check_card, legal=card_actions, resolve=resolve_round,
                            record=_record),
              Finished())
    State = State
    state_fields = {"num_seats": Index(5, 2), "hands": Seq(Mask, "seats"), "won": Seq(Small, "seats"), "shown": Mask,
                    "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"), "window.answers": Seq(OneOf(None, Index("cards", 0)), "seats"),
                    "abandoned": Index("seats"), "step": Small}
    action_kinds = (COMMON_KINDS[PLAY], COMMON_KINDS[ABANDON])
    seat_counters = {"won": "rounds the seat took"}
    public_cards = {"shown": "every card played so far"}
    outcomes = {"won": "the seats that took most rounds", "tie": "every seat took as many", "abandoned": "a seat left"}
    breakdown = {"top_rounds": "the most rounds a seat took"}
    deal_cards = {
        "seat": DealKey("the seat's hand_size cards, the shuffled deck's next hand_size from seat 0 on", per_seat=True),
    }
    event_types = {"DEAL": EventType("the seat's cards (private)", private_cards=True),
                   "SHOW": EventType("a card played this round, shown once all are in"),
                   "ROUND": EventType("the round's highest card takes it (seat -1: equal highest)"),
                   "ABANDON": EventType("the seat left")}

    def _deal(self, options, seed, entropy, seats, match):
        deck = rng.Stream(rng.deal_key(seed, entropy), "deal").shuffle(cards.full_deck())
        size = options.hand_size
        hands = tuple(cards.to_mask(deck[s * size:(s + 1) * size]) for s in range(seats))
        window = Window.open(range(seats))
        return State(options, seed, entropy, match, seats, hands, (0,) * seats, 0, ROUNDS, window.awaiting(), window)

    def deal_events(self, state):
        return [Event("DEAL", s, cards.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seats):
        public = {"shown": cards.from_mask(state.shown)}
        seat_views = tuple(SeatView(h.bit_count(), counters={"won": w}) for h, w in zip(state.hands, state.won))
        return [View(s, self.phases[state.phase].name, state.to_act,
                     cards.from_mask(state.hands[s]) if s >= 0 else (), seat_views, public, None, -1, (), {},
                     state.finished) for s in seats]

    def _settle(self, state):
        n = state.num_seats
        if state.abandoned >= 0:
            return Settlement(tuple(-(n - 1) if s == state.abandoned else 1 for s in range(n)), (), "abandoned", ())
        top = max(state.won)
        winners = tuple(s for s in range(n) if state.won[s] == top)
        if len(winners) == n:
            return Settlement((0,) * n, winners, "tie", ())
        losers = n - len(winners)
        points = tuple(losers if s in winners else -len(winners) for s in range(n))
        return Settlement(points, winners, "won", (("top_rounds", top),))

    def dealt(self, state):
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), "deal").shuffle(cards.full_deck())
        size = state.options.hand_size
        return {f"seat{s}": tuple(deck[s * size:(s + 1) * size]) for s in range(state.num_seats)}, {}

    def card_zones(self, state):
        zones = {f"hand{s}": cards.from_mask(h) for s, h in enumerate(state.hands)}
        zones["shown"] = cards.from_mask(state.shown)
        dealt = state.shown
        for h in state.hands:
            dealt |= h
        zones["undealt"] = cards.from_mask(cards.to_mask(cards.full_deck()) & ~dealt)
        return zones

    def knowledge(self, state):
        return Knowledge(state.shown, state.hands)

HIGHCARD = HighCard()
