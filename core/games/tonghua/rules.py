"""出一样的花色 Tonghua, follow the suit (spec: rules/small-games.md rules 5-8).

Deal (rule 5): 2-4 seats (default 2). The deck without jokers, ``range(52)`` (card id = suit *
13 + rank, suits S H D C, ranks 3 4 5 6 7 8 9 T J Q K A 2), is shuffled on the stream ``deal``
of the round's deal key and dealt out evenly one card at a time from seat 0 upwards: card i
goes to seat i mod n for i < n * floor(52 / n). The remainder is set aside face down, never
the 2♥: with 3 seats the card at position 51 is set aside, and when that card is the 2♥ the
cards at positions 50 and 51 change places first (the 2♥ is dealt to seat 2, the card before
it set aside).

Rounds (rules 6-7): a round is played in one suit. The holder of the 2♥ starts the first round
and must play it (the only legal action): the first round's suit is hearts. Then, in
increasing seat order, each seat plays one card of the round's suit (its choice among them; it
may not pass). The first seat whose turn comes while it has no card of the round's suit wins
the round, automatically and with no action of its own [whether it just played its last one or
never had any]: the round's cards are set aside face up, and the winner starts the next round
by playing any card, whose suit is the new round's suit. "一次按比较大小出牌": nothing is
compared, the cards of a round are shown in order; with the option ``ascending`` each card
must be higher by number (A=1 lowest, 2, 3 .. K=13) than the round's previous card, and a seat
that holds the suit but no higher card has run out of it for this round (it wins the round
when its turn comes).

Out of play and the end (rule 8): a seat that holds no cards when a round is led is out of play
and skipped; a seat that plays its last card during a round stays in that round's turn order
(its turn coming, it has no card of the suit: it wins the round). If the round's winner has
an empty hand, the next seat in turn that holds cards starts the next round (LEAD event). The
game ends as soon as at most one seat holds cards ("直到手中的牌全部出完"); a round still open
then is won by nobody. The seat that won most rounds wins; seats tied on most rounds share the
win. Every action plays a card, so a game ends within 52 actions.

Settlement (our choice, the spec is silent): each losing seat pays each winning seat 1 point
(ties share); all seats tied, nobody pays. ABANDON (any seat, any time): the round ends and the
leaver pays 1 point to each other seat.

Phases: ``play`` (PLAY one card), ``finished``. Legal actions: one PLAY per playable card,
ascending ids. Views: ``hand`` (own; other hands stay hidden, also when the game is over);
public ``round`` (the open round's cards in play order) and ``done`` (the cards of finished
rounds); per seat ``round`` (its cards in the open round) and counter ``won`` (rounds won);
the table is the round's last card and its seat; counters ``suit`` (0-3 = S H D C, -1 before
a lead) and ``rounds`` (rounds won so far). Events: DEAL (private), PLAY, ROUND_WON (the
winner, with the round's cards), LEAD, OUT (values place), FINISH, ABANDON. A round is a
trick of the shared trick flow (``tricks.TrickPlay``) configured for it: no passes, the seats
that held cards at its lead are its turn order (``active``), and it closes as soon as the next
seat lacks the suit (``closes``), that seat winning it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ... import cards as cardlib
from ... import rng
from ...codec import Index, Layout, Mask, Seq, Small
from ...errors import Reason
from ...game import (ABANDON, COMMON_KINDS, PLAY, Action, ActionKind, DealKey, Event, EventType, Finished, Game,
                     Knowledge, Match, SeatView, Settlement, Verdict, View, leaver_pays, losers_pay_winners, option)
from ...seats import next_seat
from ...tricks import Trick, TrickPlay, seats_in

PLAYING, FINISHED = 0, 1
NOTATION = cardlib.PokerNotation(1)
DECK = 52
TWO_OF_HEARTS = cardlib.card_id(12, 1)  # rank index 12 is the 2, suit 1 hearts
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
# the game's own reasons (rules 6-7)
LEAD_TWO_OF_HEARTS = "LEAD_TWO_OF_HEARTS"
FOLLOW_SUIT = "FOLLOW_SUIT"
NOT_HIGHER = "NOT_HIGHER"


@dataclass(frozen=True, slots=True)
class Options:
    ascending: bool = option(False, "rule 7: each card of a round must be higher by number (A=1 lowest) than "
                                    "the one before")


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    hands: tuple[int, ...]  # card bitmasks
    suit: int  # the open round's suit, -1 before its lead
    round_cards: tuple[int, ...]  # the open round's cards, in play order
    round_seats: tuple[int, ...]  # who played each of them
    in_round: int  # seats holding cards when the round was led (bitmask)
    done: int  # the cards of finished rounds, set aside face up
    won: tuple[int, ...]  # rounds won per seat
    phase: int
    to_act: tuple[int, ...]
    trick: Trick = Trick()  # the open round on the shared trick flow (trick.top: 1 + the last card)
    played: int = 0  # every card played so far (the open round's and the done ones)
    out: tuple[int, ...] = ()  # seats in the order their hands emptied
    abandoned: int = -1
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def num_seats(self) -> int:
        return len(self.hands)




def deal_deck(key: bytes, seats: int) -> list[int]:
    """Rule 5: the shuffled deck in dealing order (card i to seat i mod n; past n * (52 // n)
    set aside), with the 2♥ moved off the set-aside place."""
    deck = rng.Stream(key, "deal").shuffle(range(DECK))
    dealt = seats * (DECK // seats)
    if dealt < DECK and deck[dealt] == TWO_OF_HEARTS:
        deck[dealt - 1], deck[dealt] = deck[dealt], deck[dealt - 1]
    return deck


def playable(state: State, seat: int) -> int:
    """The cards ``seat`` may play now (bitmask): on a lead any card (the first lead: the 2♥),
    else the round's suit (``ascending``: higher than the round's last card)."""
    hand = state.hands[seat]
    if not state.round_cards:
        return hand & (1 << TWO_OF_HEARTS) if not state.done else hand
    cards = hand & SUIT_MASKS[state.suit]
    if state.options.ascending:
        floor = cardlib.card_number(state.round_cards[-1])
        cards &= sum(1 << c for c in cardlib.from_mask(cards) if cardlib.card_number(c) > floor)
    return cards


# --- rounds (rules 6-8) on the shared trick flow: no passes; the first seat out of the suit wins ----

def read_card(state: State, action: Action, mask: int) -> Verdict:
    """Rules 6-7: one card; on a lead any (the first lead: the 2H), else the round's suit
    (``ascending``: higher than the round's last card)."""
    if mask.bit_count() != 1:
        return Verdict.no(Reason.BAD_ACTION, "play one card")
    card = cardlib.from_mask(mask)[0]
    if not mask & playable(state, action.seat):
        if not state.round_cards:
            return Verdict.no(LEAD_TWO_OF_HEARTS, "the first round is led with the 2H (rule 6)")
        if cardlib.card_suit(card) != state.suit:
            return Verdict.no(FOLLOW_SUIT, f"play a card of the round's suit, {cardlib.SUITS[state.suit]}")
        return Verdict.no(NOT_HIGHER, f"play a card higher than {cardlib.format_card(state.round_cards[-1])}")
    return Verdict.ok("card", action=action._replace(cards=(card,), ranks=()), detail=card + 1)


def card_actions(state: State, seat: int):
    return [(Action(seat, PLAY, (c,)), None) for c in cardlib.from_mask(playable(state, seat))]


def add_to_round(state: State, seat: int, verdict: Verdict, beaten: Trick, events: list) -> State:
    card = verdict.action.cards[0]
    state = state._replace(round_cards=state.round_cards + (card,), round_seats=state.round_seats + (seat,))
    return state._replace(suit=cardlib.card_suit(card)) if len(state.round_cards) == 1 else state


def round_seats_in(state: State) -> int:
    return state.in_round  # rule 8: a seat that played out stays in the round's turn order


def out_of_suit(state: State, seat: int) -> int:
    """Rule 7: the next seat in the round has no card of the suit (or none higher): it wins."""
    nxt = next_seat(seat, state.num_seats, state.in_round)
    return -1 if playable(state, nxt) else nxt


def round_won(state: State, trick: Trick, winner: int) -> Event:
    return Event("ROUND_WON", winner, state.round_cards, values={"suit": state.suit})


def set_round_aside(state: State, trick: Trick, winner: int, events: list) -> State:
    won = state.won[:winner] + (state.won[winner] + 1,) + state.won[winner + 1:]
    return state._replace(suit=-1, round_cards=(), round_seats=(), in_round=seats_in(state.hands),
                          done=state.done | cardlib.to_mask(state.round_cards), won=won)


def one_seat_left(state: State) -> bool:
    return seats_in(state.hands).bit_count() <= 1  # rule 8


def finish(state: State, events: list) -> State:
    """Rule 8: at most one seat holds cards; a round still open is won by nobody."""
    events.append(Event("OUT", state.out[-1], values={"place": len(state.out)}))
    winners = winning_seats(state)
    events.append(Event("FINISH", -1, values={"winners": sum(1 << s for s in winners), "open_round": 1}))
    return state._replace(phase=FINISHED, to_act=())


def winning_seats(state: State) -> tuple[int, ...]:
    """Rule 8: the seats that won most rounds."""
    top = max(state.won)
    return tuple(s for s, w in enumerate(state.won) if w == top)


def _upgrade_round(old: dict) -> dict:
    """A release-format state had its own round flow: the open round as the shared trick (its last
    card on top), every card played, the seats out so far (in seat order: the order they went
    out was not kept)."""
    cards, seats = old["round_cards"], old["round_seats"]
    leader = seats[0] if seats else old["to_act"][0] if old["to_act"] else -1
    top = (leader, cards[-1] + 1, seats[-1], 1 << cards[-1], 0, 0) if cards else (leader, 0, -1, 0, 0, 0)
    return {**old, "trick": top, "played": old["done"] | cardlib.to_mask(cards),
            "out": tuple(s for s, h in enumerate(old["hands"]) if not h)}


class Tonghua(Game):
    id = "tonghua"
    name = "出一样的花色 Tonghua (follow the suit)"
    min_seats, max_seats, default_seats = 2, 4, 2
    Options = Options
    presets = {"ascending": Options(ascending=True)}
    notation = NOTATION
    phases = (TrickPlay("play", read_play=read_card, legal_plays=card_actions, after_play=add_to_round,
                        active=round_seats_in, closes=out_of_suit, won_event=round_won, after_trick=set_round_aside,
                        round_over=one_seat_left, finish=finish, can_pass=False),
              Finished())
    State = State
    state_fields = {"hands": Seq(Mask, "seats"), "suit": Index(4), "round_cards": Seq(Index("cards", 0), 13),
                    "round_seats": Seq(Index("seats", 0), 13), "in_round": Mask("seats"), "done": Mask,
                    "won": Seq(Small, "seats"), "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"), "played": Mask,
                    "out": Seq(Index("seats", 0), "seats"), "abandoned": Index("seats"), "step": Small}
    # the release before the state codec: num_seats stored, no version byte
    state_layouts = {1: Layout("options seed entropy match num_seats hands suit round_cards round_seats in_round "
                               "done won phase to_act abandoned step", upgrade=_upgrade_round)}
    action_kinds = (ActionKind(PLAY, "play one card (an id, card text, or a rank: the lowest id of that rank "
                                     "held): on a lead any card, the first lead the 2H; else the round's suit",
                               ("cards",)),
                    COMMON_KINDS[ABANDON])
    reasons = {LEAD_TWO_OF_HEARTS: "the first round is led with the 2H (rule 6)",
               FOLLOW_SUIT: "a card of the round's suit must be played (rule 6)",
               NOT_HIGHER: "option ascending: the card must be higher than the round's last card (rule 7)"}
    counters = {"suit": "the open round's suit, 0-3 = S H D C; -1 before the lead",
                "rounds": "rounds won so far"}
    outcomes = {"most_rounds": "the seats that won most rounds win (rule 8)", "tie": "every seat won as many rounds",
                "abandoned": "a seat left: it pays 1 point to each other seat"}
    breakdown = {"rounds": "rounds won by anybody", "most_rounds": "the most rounds a seat won", "left": "the seat that left"}
    seat_counters = {"won": "rounds the seat won"}
    public_cards = {"round": "the open round's cards, in play order",
                    "done": "the cards of the finished rounds, set aside face up"}
    seat_cards = {"round": "the seat's cards in the open round"}
    deal_cards = {
        "seat": DealKey("the seat's cards: i = seat, seat + n ... of the shuffled deck, below n * (52 // "
                        "n)", per_seat=True),
        "set_aside": DealKey("the rest of the shuffled deck, in deck order"),
    }
    event_types = {
        "DEAL": EventType("the seat's cards (private)", private_cards=True),
        "PLAY": EventType("the seat played a card"),
        "ROUND_WON": EventType("the seat has no card of the round's suit on its turn: it wins the round, "
                               "whose cards are set aside (rule 7)", {"suit": "the round's suit, 0-3 = S H D C"}),
        "LEAD": EventType("the round's winner has no cards: this seat leads the next round (rule 8)",
                          {"from": "the round's winner"}),
        "OUT": EventType("the seat played its last card (rule 8)", {"place": "how many seats' hands emptied so far"}),
        "FINISH": EventType("at most one seat holds cards: the game is over (rule 8)",
                            {"winners": "bitmask of the winning seats",
                             "open_round": "1: the round in progress is won by nobody"}),
        "ABANDON": EventType("the seat left"),
    }

    def _deal(self, options, seed, entropy, seats, match):
        deck = deal_deck(rng.deal_key(seed, entropy), seats)
        dealt = seats * (DECK // seats)
        hands = tuple(cardlib.to_mask(deck[s:dealt:seats]) for s in range(seats))
        first = next(s for s, h in enumerate(hands) if h >> TWO_OF_HEARTS & 1)
        return State(options, seed, entropy, match, hands, -1, (), (), seats_in(hands), 0, (0,) * seats,
                     PLAYING, (first,), Trick(first))

    def deal_events(self, state):
        return [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seats):
        round_cards, round_seats = state.round_cards, state.round_seats
        seat_views = tuple(
            SeatView(h.bit_count(), counters={"won": state.won[s]},
                     cards={"round": tuple(c for c, t in zip(round_cards, round_seats) if t == s)})
            for s, h in enumerate(state.hands))
        public = {"round": round_cards, "done": cardlib.from_mask(state.done)}
        counters = {"suit": state.suit, "rounds": sum(state.won)}
        table_seat, table_cards = (round_seats[-1], round_cards[-1:]) if round_cards else (-1, ())
        phase = self.phases[state.phase].name
        return [View(s, phase, state.to_act, cardlib.from_mask(state.hands[s]) if s >= 0 else (), seat_views,
                     public, None, table_seat, table_cards, counters, state.finished) for s in seats]

    def _settle(self, state):
        n = state.num_seats
        if state.abandoned >= 0:
            return Settlement(leaver_pays(n, state.abandoned), (), "abandoned", (("left", state.abandoned),))
        winners = winning_seats(state)
        outcome = "tie" if len(winners) == n else "most_rounds"
        return Settlement(losers_pay_winners(n, winners), winners, outcome,
                          (("rounds", sum(state.won)), ("most_rounds", max(state.won))))

    def dealt(self, state):
        """The deck in dealing order: seat s the cards i = s, s + n ... below n * (52 // n), in
        that order; ``set_aside`` the rest."""
        deck = deal_deck(rng.deal_key(state.seed, state.entropy), state.num_seats)
        n = state.num_seats
        dealt = n * (DECK // n)
        cards = {f"seat{s}": tuple(deck[s:dealt:n]) for s in range(n)}
        cards["set_aside"] = tuple(deck[dealt:])
        return cards, {}

    def card_zones(self, state):
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        zones["round"] = state.round_cards
        zones["done"] = cardlib.from_mask(state.done)
        placed = state.done | cardlib.to_mask(state.round_cards)
        for h in state.hands:
            placed |= h
        zones["set_aside"] = cardlib.from_mask(cardlib.to_mask(self.all_cards(state)) & ~placed)
        return zones

    def knowledge(self, state):
        """Hands are their seats'; every card played is public."""
        return Knowledge(state.played, state.hands)

TONGHUA = Tonghua()
