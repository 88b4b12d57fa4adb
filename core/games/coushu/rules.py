"""凑数字 Coushu, make the number (spec: rules/small-games.md rules 9-11).

Cards and deal (rule 9): 2 seats; a target T in 3..13 (option ``target``, default 7). Card
values are the numbers on the cards, A=1, 2..10, J=11, Q=12, K=13. The four cards of value T
and the jokers are removed; the other 48 cards, in ascending id order (card id = suit * 13 +
rank, suits S H D C, ranks 3 4 5 6 7 8 9 T J Q K A 2: the removed ones are the ids of rank
index T - 3), are shuffled on the stream ``deal`` of the round's deal key and dealt one card at a
time from seat 0 upwards: card i to seat i mod 2, 24 each.

Play (rule 10): seat 0 leads first. The leader plays any card x. If the other seat holds a card
of value T - x it must play one (its choice of suit: the only legal actions are those cards);
the pair is set aside face up and the answering seat leads next. If it holds none it passes
[automatically: no action is asked of it, a PASS event says so], x stays dead on the table face
up for the rest of the game, and the leader plays another card. A value T - x below 1 (x > T)
cannot be answered.

End (rule 11): the first seat with no cards wins, at once: a leader who plays his last card
wins before any answer. Every action plays a card, so a game ends within 48 actions.

Settlement (our choice, the spec is silent): the loser pays the winner 1 point. ABANDON (any
seat, any time): the round ends and the leaver pays the other seat 1 point.

Phases: ``play`` (PLAY one card), ``finished``. Legal actions: one PLAY per playable card,
ascending ids. Views: ``hand`` (own; the other hand stays hidden, also when the game is over);
public ``dead`` (unanswered cards) and ``pairs`` (the pairs made); the table is the card
awaiting an answer and its seat; counters ``target``, ``need`` (the value that answers the
table's card, 0 when none waits) and ``leader``. Events: DEAL (private), PLAY, PASS (the seat
holds no answer), PAIR (the answering seat, the two cards), FINISH, ABANDON.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ... import cards as cardlib
from ... import rng
from ...codec import Index, Layout, Mask, Seq, Small
from ...errors import Reason
from ...game import (ABANDON, COMMON_KINDS, PLAY, Action, ActionKind, DealKey, Event, EventType, Finished, Game,
                     Knowledge, Match, Moves, SeatView, Settlement, Verdict, View, held, leaver_pays,
                     losers_pay_winners, option)

PLAYING, FINISHED = 0, 1
SEATS = 2
NOTATION = cardlib.PokerNotation(1)
# number 1..13 -> the four cards of that number (bitmask)
NUMBER_MASKS = {n: sum(1 << (s * 13 + r) for s in range(4)) for r, n in enumerate(cardlib.NUMBERS[:13])}
WRONG_NUMBER = "WRONG_NUMBER"  # the game's own reason (rule 10)


@dataclass(frozen=True, slots=True)
class Options:
    target: int = option(7, "rule 9: the number to make; its four cards are removed", minimum=3, maximum=13)


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    hands: tuple[int, ...]  # card bitmasks
    pending: int  # the card led and awaiting an answer, -1 none
    leader: int
    dead: int  # unanswered cards (bitmask)
    pairs: int  # the pairs made (bitmask)
    phase: int
    to_act: tuple[int, ...]
    abandoned: int = -1
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def num_seats(self) -> int:
        return len(self.hands)




def number(card: int) -> int:
    return cardlib.card_number(card)


def deck_of(target: int) -> list[int]:
    """Rule 9: the 48 cards played, ascending ids (no jokers, no card of value ``target``)."""
    return [c for c in range(52) if not NUMBER_MASKS[target] >> c & 1]


def answers(state: State, seat: int, card: int) -> int:
    """The cards of ``seat`` that make the target with ``card`` (bitmask)."""
    return state.hands[seat] & NUMBER_MASKS.get(state.options.target - number(card), 0)


def _playable(state: State, seat: int) -> int:
    return state.hands[seat] if state.pending < 0 else answers(state, seat, state.pending)


def card_actions(state: State, seat: int):
    return [(Action(seat, PLAY, (c,)), None) for c in cardlib.from_mask(_playable(state, seat))]


def check_card(state: State, action: Action) -> Verdict:
    """Rule 10: lead any card; the other seat answers with T - x when it holds one."""
    mask = held(state.hands[action.seat], action, NOTATION)
    if type(mask) is Verdict:
        return mask
    if mask.bit_count() != 1:
        return Verdict.no(Reason.BAD_ACTION, "play one card")
    if not mask & _playable(state, action.seat):
        need = state.options.target - number(state.pending)
        return Verdict.no(WRONG_NUMBER, f"answer {cardlib.format_card(state.pending)} with a {need}")
    return Verdict.ok("card", action=action._replace(cards=cardlib.from_mask(mask), ranks=()))


def play_card(state: State, action: Action, verdict: Verdict):
    seat, card = action.seat, action.cards[0]
    hands = state.hands[:seat] + (state.hands[seat] & ~(1 << card),) + state.hands[seat + 1:]
    state = state._replace(hands=hands)
    events = [Event("PLAY", seat, (card,))]
    if state.pending >= 0:  # an answer: the pair is made, the answering seat leads next
        events.append(Event("PAIR", seat, (state.pending, card)))
        state = state._replace(pending=-1, leader=seat, pairs=state.pairs | 1 << state.pending | 1 << card)
    elif not hands[seat] or answers(state, 1 - seat, card):  # a lead to answer (or the last card: it wins)
        state = state._replace(pending=card, leader=seat)
    else:  # nobody can answer: the card is dead, the leader plays again
        events.append(Event("PASS", 1 - seat, values={"need": max(state.options.target - number(card), 0)}))
        state = state._replace(dead=state.dead | 1 << card, leader=seat)
    if not hands[seat]:  # rule 11: the first seat with no cards wins at once
        events.append(Event("FINISH", seat, values={"winner": seat}))
        return state._replace(phase=FINISHED, to_act=()), events
    return state._replace(to_act=(1 - seat if state.pending >= 0 else seat,)), events


class Coushu(Game):
    id = "coushu"
    name = "凑数字 Coushu (make the number)"
    min_seats = max_seats = SEATS
    Options = Options
    presets = {"make_10": Options(target=10), "make_13": Options(target=13)}
    notation = NOTATION
    phases = (Moves("play", (PLAY,), legal=card_actions, check=check_card, apply=play_card), Finished())
    State = State
    state_fields = {"hands": Seq(Mask, "seats"), "pending": Index("cards"), "leader": Index("seats", 0), "dead": Mask,
                    "pairs": Mask, "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"), "abandoned": Index("seats"), "step": Small}
    # the release before the state codec: num_seats stored, no version byte
    state_layouts = {1: Layout("options seed entropy match num_seats hands pending leader dead pairs phase "
                               "to_act abandoned step")}
    action_kinds = (ActionKind(PLAY, "play one card (an id, card text, or a rank: the lowest id of that rank "
                                     "held): any card on a lead, else one that makes the target with it",
                               ("cards",)),
                    COMMON_KINDS[ABANDON])
    reasons = {WRONG_NUMBER: "the answer must make the target with the card led (rule 10)"}
    counters = {"target": "the number to make (rule 9)",
                "need": "the value that answers the card on the table, 0 when none waits",
                "leader": "the seat that leads (or led the card on the table)"}
    outcomes = {"played_out": "the first seat with no cards wins (rule 11)", "abandoned": "a seat left: it pays 1 point to each other seat"}
    breakdown = {"pairs": "pairs made", "dead": "dead cards", "cards_left": "the loser's cards", "left": "the seat that left"}
    public_cards = {"dead": "cards nobody could answer, dead on the table (rule 10)",
                    "pairs": "the pairs made, set aside"}
    deal_cards = {
        "seat": DealKey("the seat's cards: i = seat, seat + 2 ... of the shuffled deck", per_seat=True),
    }
    event_types = {
        "DEAL": EventType("the seat's cards (private)", private_cards=True),
        "PLAY": EventType("the seat played a card"),
        "PASS": EventType("the seat holds no card that makes the target: the card led is dead and its "
                          "leader plays again (rule 10)",
                          {"need": "the value it would have needed (0: no card can answer)"}),
        "PAIR": EventType("the seat answered: the two cards make the target and are set aside; it leads next"),
        "FINISH": EventType("the seat has no cards left and wins (rule 11)", {"winner": "the winning seat"}),
        "ABANDON": EventType("the seat left"),
    }

    def _deal(self, options, seed, entropy, seats, match):
        deck = rng.Stream(rng.deal_key(seed, entropy), "deal").shuffle(deck_of(options.target))
        hands = tuple(cardlib.to_mask(deck[s::SEATS]) for s in range(SEATS))
        return State(options, seed, entropy, match, hands, -1, 0, 0, 0, PLAYING, (0,))

    def deal_events(self, state):
        return [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seats):
        seat_views = tuple(SeatView(h.bit_count()) for h in state.hands)
        public = {"dead": cardlib.from_mask(state.dead), "pairs": cardlib.from_mask(state.pairs)}
        pending = state.pending
        need = max(state.options.target - number(pending), 0) if pending >= 0 else 0
        counters = {"target": state.options.target, "need": need, "leader": state.leader}
        table_seat, table_cards = (state.leader, (pending,)) if pending >= 0 else (-1, ())
        phase = self.phases[state.phase].name
        return [View(s, phase, state.to_act, cardlib.from_mask(state.hands[s]) if s >= 0 else (), seat_views,
                     public, None, table_seat, table_cards, counters, state.finished) for s in seats]

    def _settle(self, state):
        if state.abandoned >= 0:
            return Settlement(leaver_pays(SEATS, state.abandoned), (), "abandoned", (("left", state.abandoned),))
        winner = next(s for s, h in enumerate(state.hands) if not h)
        return Settlement(losers_pay_winners(SEATS, (winner,)), (winner,), "played_out",
                          (("pairs", state.pairs.bit_count() // 2), ("dead", state.dead.bit_count()),
                           ("cards_left", state.hands[1 - winner].bit_count())))

    def dealt(self, state):
        """The shuffled 48 cards as dealt: seat s the cards i = s, s + 2 ..., in that order."""
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), "deal").shuffle(deck_of(state.options.target))
        return {f"seat{s}": tuple(deck[s::SEATS]) for s in range(SEATS)}, {}

    def card_zones(self, state):
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        zones["table"] = (state.pending,) if state.pending >= 0 else ()
        zones["dead"] = cardlib.from_mask(state.dead)
        zones["pairs"] = cardlib.from_mask(state.pairs)
        zones["removed"] = cardlib.from_mask(cardlib.to_mask(self.all_cards(state))
                                             & ~cardlib.to_mask(deck_of(state.options.target)))
        return zones

    def knowledge(self, state):
        """Hands are their seats'; dead cards, pairs and the card to answer are public."""
        pending = 1 << state.pending if state.pending >= 0 else 0
        return Knowledge(state.dead | state.pairs | pending, state.hands)

COUSHU = Coushu()
