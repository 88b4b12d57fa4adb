"""比大小 Bidaxiao, compare sizes (spec: rules/small-games.md rules 1-4; seed: 378q-small-games...).

Cards (rule 1): one deck of 52 cards, or 54 with ``jokers``. Values are the numbers on the
cards, A=1, 2..10, J=11, Q=12, K=13, small joker 14, big joker 15; with ``ace_high`` the ace is
14, above the king and below the jokers (then 15 and 16). Suits never count.

Deal (rule 1): 2-4 seats (default 2: the seed's game is for two). The deck, ``range(52)`` (or
``range(54)`` with ``jokers``; card id = suit * 13 + rank, rank 3 4 5 6 7 8 9 T J Q K A 2, 52
small joker, 53 big joker), is shuffled on the stream ``deal`` of the round's deal key and
dealt one card at a time from seat 0 upwards, ``hand_size`` cards each (8-10, default 10):
card i of the shuffled deck goes to seat i mod n for i < n * hand_size. The rest is set aside
face down for the whole round.

Rounds (rules 2-3): every seat still in plays one card of its choice face down: the shared
simultaneous decision (``decisions.DecisionPhase``): each seat answers once, answers stay in
the sealed state (through the API a seat's answer comes back sealed and the table's owner
applies it), and nothing shows which card a seat chose until the last answer is in. Then the
cards are shown (SHOW events) and the round resolves:

- the single highest card takes every card played that round into its owner's hand;
- several equal highest cards: their owners take back their own cards and the other cards go to
  the first of them in seat order from seat 0;
- every card equal: everyone takes his own card back.

End (rule 4): a seat with no cards is out (OUT event) and plays no more. When one seat is left
holding cards it wins. After ``max_rounds`` rounds (default 200) the seat holding most cards
wins; seats tied on most cards share the win.

Settlement (our choice, the spec is silent): each losing seat pays each winning seat 1 point
(ties share: with two winners each loser pays 2); all seats tied, nobody pays. ABANDON (any
seat, any time): the round ends and the leaver pays 1 point to each other seat.

Hidden information: a seat's hand is secret, except the cards everybody saw go into it (a card
shown in a round is in its taker's hand from then on, in public: the seat's ``known`` cards).
Views: ``hand`` (own), per seat ``played`` (the card it played in the last round) and ``known``;
counters ``rounds`` (rounds resolved) and ``max_rounds``. Other hands stay hidden when the round
is over (the table's owner sees every seat's view).

Phases: ``rounds`` (PLAY one card: by id, card text, or a rank, the lowest id of that rank held),
``finished``. Legal actions: one PLAY per card held, ascending ids. Events: DEAL (private),
SHOW, ROUND (the seat that took the other cards, with them; -1 when every card tied), OUT,
FINISH, ABANDON. State: hands as bitmasks. Who still has to play a round is nobody else's
business: the phase's turn is not public (each seat sees only whether it is awaited).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ... import cards as cardlib
from ... import rng
from ...decisions import DecisionPhase, Window
from ...codec import Index, Layout, Mask, OneOf, Seq, Small
from ...errors import Reason
from ...game import (ABANDON, COMMON_KINDS, EMPTY, PLAY, Action, ActionKind, DealKey, Event, EventType, Finished, Game,
                   Knowledge, Match, SeatView, Settlement, Verdict, View, held, leaver_pays, losers_pay_winners, option)
from ...tricks import seats_in

ROUNDS, FINISHED = 0, 1
NOTATION = cardlib.PokerNotation(1)


@dataclass(frozen=True, slots=True)
class Options:
    hand_size: int = option(10, "rule 1: cards dealt to each seat (the rest is set aside)", minimum=8, maximum=10)
    jokers: bool = option(False, "rule 1: the two jokers are in the deck (small 14, big 15)")
    ace_high: bool = option(False, "rule 3: the ace is above the king (and below the jokers), not 1")
    max_rounds: int = option(200, "rule 4: after this many rounds the seat holding most cards wins",
                             minimum=1, maximum=2000)


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    hands: tuple[int, ...]  # card bitmasks
    revealed: int  # every card shown so far: where it is is public from then on
    last: tuple[int, ...]  # the card each seat played in the last round, -1 none
    rounds: int  # rounds resolved
    phase: int
    to_act: tuple[int, ...]
    window: Window
    abandoned: int = -1
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def num_seats(self) -> int:
        return len(self.hands)




def strength(card: int, ace_high: bool = False) -> int:
    """Rule 3: the card's value (A=1 .. K=13, jokers 14, 15; ace_high: A=14, jokers 15, 16)."""
    n = cardlib.card_number(card)
    if ace_high and (n == 1 or n >= 14):
        return 14 if n == 1 else n + 1
    return n


def resolve_round(played: dict[int, int], ace_high: bool = False) -> dict[int, int]:
    """Rule 3: where each card played goes, card -> seat, from seat -> card played."""
    values = {s: strength(c, ace_high) for s, c in played.items()}
    top = max(values.values())
    best = sorted(s for s, v in values.items() if v == top)
    if len(best) == len(played):  # every card equal: each takes his own back
        return {c: s for s, c in played.items()}
    return {c: (s if s in best else best[0]) for s, c in played.items()}


def _deck(options: Options) -> range:
    return range(cardlib.CARDS_PER_DECK if options.jokers else 52)


def _record(verdict: Verdict, action: Action) -> int:
    return action.cards[0]


# --- rounds (rules 2-4) on the shared simultaneous decision ---------------------------------

def check_card(state, action):
    mask = held(state.hands[action.seat], action, NOTATION)
    if type(mask) is Verdict:
        return mask
    if mask.bit_count() != 1:
        return Verdict.no(Reason.BAD_ACTION, "play one card")
    return Verdict.ok("card", action=action._replace(cards=cardlib.from_mask(mask), ranks=()))

def card_actions(state, seat):
    return [(Action(seat, PLAY, (c,)), None) for c in cardlib.from_mask(state.hands[seat])]

def resolve_cards(state, events):
    played = dict(zip(state.window.asked, state.window.answers))
    goes_to = resolve_round(played, state.options.ace_high)
    hands = list(state.hands)
    last = [-1] * state.num_seats
    revealed = state.revealed
    for seat, card in played.items():
        hands[seat] &= ~(1 << card)
        last[seat] = card
        revealed |= 1 << card
        events.append(Event("SHOW", seat, (card,)))
    for card, seat in goes_to.items():
        hands[seat] |= 1 << card
    takers = {s for c, s in goes_to.items() if played[s] != c}
    taker = takers.pop() if takers else -1
    taken = tuple(sorted(c for c, s in goes_to.items() if s == taker and played[s] != c))
    events.append(Event("ROUND", taker, taken))
    events += [Event("OUT", s) for s in played if not hands[s]]
    state = state._replace(hands=tuple(hands), last=tuple(last), revealed=revealed, rounds=state.rounds + 1)
    inside = seats_in(state.hands)
    if inside.bit_count() <= 1 or state.rounds >= state.options.max_rounds:
        winners = winning_seats(state)
        events.append(Event("FINISH", -1, values={"winners": sum(1 << s for s in winners),
                                                  "rounds": state.rounds}))
        return state._replace(phase=FINISHED, to_act=(), window=Window())
    window = Window.open(cardlib.from_mask(inside))
    return state._replace(window=window, to_act=window.awaiting())

def winning_seats(state) -> tuple[int, ...]:
    """Rule 4: the last seat holding cards, else (the round limit) the seats holding most."""
    top = max(h.bit_count() for h in state.hands)
    return tuple(s for s, h in enumerate(state.hands) if h.bit_count() == top)

# views, settlement, cards ---------------------------------------------------------------------


class Bidaxiao(Game):
    id = "bidaxiao"
    name = "比大小 Bidaxiao (compare sizes)"
    min_seats, max_seats, default_seats = 2, 4, 2
    Options = Options
    presets = {"jokers_ace_high": Options(jokers=True, ace_high=True), "short": Options(hand_size=8)}
    notation = NOTATION
    phases = (DecisionPhase("rounds", (PLAY,), check=check_card, legal=card_actions, resolve=resolve_cards,
                            record=_record),
              Finished())
    State = State
    state_fields = {"hands": Seq(Mask, "seats"), "revealed": Mask, "last": Seq(Index("cards"), "seats"), "rounds": Small,
                    "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"), "window.answers": Seq(OneOf(None, Index("cards", 0)), "seats"),
                    "abandoned": Index("seats"), "step": Small}
    # the release before the state codec: num_seats stored, no version byte
    state_layouts = {1: Layout("options seed entropy match num_seats hands revealed last rounds phase to_act "
                               "window abandoned step")}
    action_kinds = (ActionKind(PLAY, "play one card face down (an id, card text, or a rank: the lowest id of "
                                     "that rank held); shown when every seat has played", ("cards",)),
                    COMMON_KINDS[ABANDON])
    counters = {"rounds": "rounds resolved", "max_rounds": "the round limit (rule 4)"}
    outcomes = {"took_all": "one seat holds every card left (rule 4)", "most_cards": "the round limit: most cards wins",
                "tie": "every seat holds as many cards", "abandoned": "a seat left: it pays 1 point to each other seat"}
    breakdown = {"rounds": "rounds played", "cards": "the winner's cards", "left": "the seat that left"}
    seat_cards = {"played": "the card the seat played in the last round",
                  "known": "cards of the seat's hand everybody saw go into it"}
    deal_cards = {
        "seat": DealKey("the seat's cards: i = seat, seat + n ... of the shuffled deck, below n * "
                        "hand_size", per_seat=True),
        "set_aside": DealKey("the rest of the shuffled deck, in deck order"),
    }
    event_types = {
        "DEAL": EventType("the seat's cards (private)", private_cards=True),
        "SHOW": EventType("the card a seat played this round, shown once every seat has played"),
        "ROUND": EventType("the seat whose card took the round, with the other seats' cards it takes "
                           "(-1: every card equal, each took his own back)"),
        "OUT": EventType("the seat has no cards left and is out (rule 4)"),
        "FINISH": EventType("the round is over", {"winners": "bitmask of the winning seats",
                                                  "rounds": "rounds played"}),
        "ABANDON": EventType("the seat left"),
    }

    def default_action(self, state, seat):
        """A seat whose time ran out, or on autoplay (托管), plays its lowest card (the lowest id
        of the lowest value)."""
        ace_high = state.options.ace_high
        low = min(cardlib.from_mask(state.hands[seat]), key=lambda c: (strength(c, ace_high), c))
        return Action(seat, PLAY, (low,))

    def _deal(self, options, seed, entropy, seats, match):
        deck = rng.Stream(rng.deal_key(seed, entropy), "deal").shuffle(_deck(options))
        dealt = seats * options.hand_size
        hands = tuple(cardlib.to_mask(deck[s:dealt:seats]) for s in range(seats))
        window = Window.open(range(seats))
        return State(options, seed, entropy, match, hands, 0, (-1,) * seats, 0, ROUNDS,
                     window.awaiting(), window)

    def deal_events(self, state):
        return [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seats):
        hands, revealed = state.hands, state.revealed
        seat_views = tuple(
            SeatView(h.bit_count(), cards={"played": (c,) if c >= 0 else (), "known": cardlib.from_mask(h & revealed)})
            for h, c in zip(hands, state.last))
        counters = {"rounds": state.rounds, "max_rounds": state.options.max_rounds}
        phase = self.phases[state.phase].name
        return [View(s, phase, state.to_act, cardlib.from_mask(hands[s]) if s >= 0 else (), seat_views, EMPTY,
                     None, -1, (), counters, state.finished) for s in seats]

    def _settle(self, state):
        n = state.num_seats
        if state.abandoned >= 0:
            return Settlement(leaver_pays(n, state.abandoned), (), "abandoned", (("left", state.abandoned),))
        winners = winning_seats(state)
        outcome = ("took_all" if seats_in(state.hands).bit_count() == 1
                   else "tie" if len(winners) == n else "most_cards")
        return Settlement(losers_pay_winners(n, winners), winners, outcome,
                          (("rounds", state.rounds), ("cards", state.hands[winners[0]].bit_count())))

    def dealt(self, state):
        """The shuffled deck as dealt: seat s the cards i = s, s + n ... below n * hand_size, in
        that order; ``set_aside`` the rest in deck order."""
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), "deal").shuffle(_deck(state.options))
        n, dealt = state.num_seats, state.num_seats * state.options.hand_size
        cards = {f"seat{s}": tuple(deck[s:dealt:n]) for s in range(n)}
        cards["set_aside"] = tuple(deck[dealt:])
        return cards, {}

    def card_zones(self, state):
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        in_hands = 0
        for h in state.hands:
            in_hands |= h
        zones["set_aside"] = cardlib.from_mask(cardlib.to_mask(self.all_cards(state)) & ~in_hands)
        return zones

    def knowledge(self, state):
        """Hands are their seats'; every card shown in a round is public from then on."""
        return Knowledge(state.revealed, state.hands)

BIDAXIAO = Bidaxiao()
