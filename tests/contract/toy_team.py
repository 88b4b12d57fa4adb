"""A second toy game of the tests, a team climbing game written only on the platform's public
pieces (``tricks.TrickPlay`` configured with the game's own functions, nothing else): it
exercises the trick flow's declared configuration the way 够级 uses it (rules 10.2-10.5, 3.4 of
the 够级 spec), and registering it is enough for the contract suite and the server to play it.

Team tricks, 6 seats: seats 0, 2, 4 play against 1, 3, 5 (each seat's 对头 is the seat across,
``seats.opposite``, on the other team). One 54-card deck, 9 cards each. Seat 0 leads the first
trick; the leader plays one or more cards of one rank (each joker its own rank, the small below
the big) and may not pass; the others are asked in turn (s + 1) and beat the top play (the same
number of cards, a strictly higher rank) or pass.

- **对头 bar** (10.3): a pass bars the seat for the rest of the trick, except on a play made by
  its 对头 (``bars``, ``lifts_bar``).
- **让 YIELD** (10.5): the 对头 O of the top play's owner P, asked on P's play when every seat
  asked before him on it passed, may yield: the seats after him (P+4, P+5) are asked first; if
  they all pass O is asked again and must play or pass (no second yield on that play); if one of
  them beats P's play, O's yield counts as his pass (he is barred).
- **closed at once** (3.4): a play holding the big joker wins the trick at once; its owner leads
  next (``closes``).
- every play that beats another counts for its seat (``beats``) and against the beaten play's
  owner (``beaten``): the beaten play the trick flow hands ``after_play``.
- a seat whose hand empties goes out (``out``); a trick won by a seat that is out is led by the
  next seat holding cards (接风). The round ends when every seat of one team is out: that team
  wins, every winner +3 and every loser -3. A seat that leaves (ABANDON) goes out of play and the
  round goes on (abandon policy OUT_OF_PLAY); a team out of play because of a leaver loses.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee.core import cards, rng, seats
from referee.core.errors import Reason
from referee.core.codec import Index, Mask, Seq, Small
from referee.core.game import (OUT_OF_PLAY, ABANDON, COMMON_KINDS, PASS, PLAY, Action, ActionKind, Combo, DealKey,
                               Event, EventType, Finished, Game, Knowledge, Match, SeatView, Settlement, Verdict, View)
from referee.core.tricks import Trick, TrickMove, TrickPlay, seats_in

SEATS, HAND_SIZE = 6, 9
PLAYING, FINISHED = 0, 1
YIELD = "YIELD"
YIELD_NOT_ALLOWED = "YIELD_NOT_ALLOWED"
BIG_JOKER_ID = 53
TEAMS = seats.alternating_teams(SEATS)
TEAM_MASKS = tuple(seats.team_mask(TEAMS, t) for t in (0, 1))
UNIT = 3  # every winner +3, every loser -3
NOTATION = cards.PokerNotation(1)


@dataclass(frozen=True, slots=True)
class Options:
    """The toy has no options."""


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    num_seats: int
    hands: tuple[int, ...]  # card bitmasks per seat
    played: int  # every card played so far (a bitmask)
    trick: Trick
    out: tuple[int, ...]  # seats in the order they went out
    beats: tuple[int, ...]  # per seat: its plays that beat another play
    beaten: tuple[int, ...]  # per seat: its plays that another play beat
    yielded: int  # the seat that yielded (让) on the top play, -1: none
    phase: int
    to_act: tuple[int, ...]
    left: int = 0  # seats that left (ABANDON): out of play, the round goes on without them
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


_KINDS = ("single", "pair", "trio", "four")


# --- plays: n cards of one rank, packed as n * 16 + rank + 1 (never 0) ----------------------------
def pack_play(count: int, rank: int) -> int:
    return count * 16 + rank + 1


def play_count(play: int) -> int:
    return play >> 4


def play_rank(play: int) -> int:
    return (play & 15) - 1


def combo_of(play: int) -> Combo:
    count, rank = play_count(play), play_rank(play)
    return Combo(_KINDS[count - 1], rank, 1, count, (rank,) * count,
                 f"{_KINDS[count - 1]} of {cards.RANK_CHARS[rank]}")


def beats(play: int, top: int) -> bool:
    """Whether ``play`` beats ``top`` (0: a free lead, beaten by any play)."""
    return not top or (play_count(play) == play_count(top) and play_rank(play) > play_rank(top))


def read_play(state: State, action: Action, mask: int) -> Verdict:
    ids = cards.from_mask(mask)
    ranks = {cards.card_rank(c) for c in ids}
    if len(ranks) != 1:
        return Verdict.no(Reason.NOT_A_COMBINATION, f"{cards.format_cards(ids)}: cards of one rank only")
    play = pack_play(len(ids), ranks.pop())
    if not beats(play, state.trick.top):
        return Verdict.no(Reason.DOES_NOT_BEAT, f"{cards.format_cards(ids)} does not beat "
                                                f"{cards.format_cards(cards.from_mask(state.trick.top_cards))}")
    combo = combo_of(play)
    return Verdict.ok(combo.label, combo, Action(action.seat, PLAY, ids), play)


def legal_plays(state: State, seat: int):
    """The plays of ``seat`` on the table, the lowest cards of each rank: by rank, then count."""
    hand, top = state.hands[seat], state.trick.top
    plays = []
    for rank in range(cards.NUM_RANKS):
        of_rank = cards.from_mask(hand & NOTATION.rank_masks[rank])
        for count in range(1, len(of_rank) + 1):
            play = pack_play(count, rank)
            if beats(play, top):
                plays.append((Action(seat, PLAY, of_rank[:count]), combo_of(play)))
    return plays


# --- the trick flow's configuration ------------------------------------------------------------------
def _bars(state: State) -> bool:
    return True  # 10.3: a pass bars the seat for the rest of the trick ...


def _lifts_bar(state: State, seat: int, trick: Trick) -> bool:
    return trick.top_seat == seats.opposite(seat, SEATS)  # ... except on a play by its 对头


def _closes(state: State, seat: int) -> int:
    return seat if state.trick.top_cards >> BIG_JOKER_ID & 1 else -1  # 3.4: the big joker


def _add(counts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return counts[:seat] + (counts[seat] + 1,) + counts[seat + 1:]


def _after_play(state: State, seat: int, verdict: Verdict, beaten: Trick, events: list) -> State:
    """The play beat ``beaten`` (a free lead beats nothing); a yield on the beaten play ends: it
    counts as the yielder's pass when another seat beat the play (10.5)."""
    if beaten.top:
        state = state._replace(beats=_add(state.beats, seat), beaten=_add(state.beaten, beaten.top_seat))
    if state.yielded >= 0:
        if state.yielded != seat:
            trick = state.trick
            state = state._replace(trick=trick._replace(barred=trick.barred | 1 << state.yielded))
        state = state._replace(yielded=-1)
    return state


def _after_pass(state: State, seat: int, events: list) -> State:
    return state._replace(yielded=-1) if seat == state.yielded else state


def _after_trick(state: State, trick: Trick, winner: int, events: list) -> State:
    return state._replace(yielded=-1)


def _gone(state: State) -> int:
    """The seats out of play: played out, or left."""
    gone = state.left
    for s in state.out:
        gone |= 1 << s
    return gone


def _round_over(state: State) -> bool:
    gone = _gone(state)
    return any(gone & team == team for team in TEAM_MASKS)


def winning_team(state: State) -> int:
    """The first team whose every seat is out of play wins, unless one of them left: a team that
    is out of play because of a leaver loses (the leaver is last, 大落-like)."""
    gone = _gone(state)
    for t, team in enumerate(TEAM_MASKS):
        if gone & team == team:
            return t if not state.left & team else 1 - t
    return -1


def _active(state: State) -> int:
    return seats_in(state.hands) & ~state.left


def _finish(state: State, events: list) -> State:
    events.append(Event("FINISH", state.out[-1] if state.out else -1, values={"team": winning_team(state)}))
    return state._replace(phase=FINISHED, to_act=(), yielded=-1)


def may_yield(state: State, seat: int) -> bool:
    """10.5: ``seat`` is the top play's owner's 对头 and did not yield on it yet (every seat asked
    before him on the play passed: else the play would not be the top any more)."""
    trick = state.trick
    return bool(trick.top) and trick.top_seat == seats.opposite(seat, SEATS) and state.yielded < 0


def _check_yield(state: State, action: Action) -> Verdict:
    if action.cards or action.ranks:
        return Verdict.no(Reason.BAD_ACTION, "YIELD takes no cards")
    if not state.trick.top or state.trick.top_seat != seats.opposite(action.seat, SEATS):
        return Verdict.no(YIELD_NOT_ALLOWED, "only the top play's owner's 对头 may yield (让)")
    if state.yielded >= 0:
        return Verdict.no(YIELD_NOT_ALLOWED, "no second yield on one play: play or pass")
    return Verdict.ok("yield (让)")


def _apply_yield(phase: TrickPlay, state: State, action: Action, verdict: Verdict, events: list) -> State:
    """The seats after the yielder are asked first; he is asked again (not passed) after them."""
    events.append(Event(YIELD, action.seat))
    return phase.ask_next(state._replace(yielded=action.seat), action.seat, events)


def _yield_actions(state: State, seat: int):
    return [(Action(seat, YIELD), None)] if may_yield(state, seat) else []


PLAY_PHASE = TrickPlay("playing", read_play=read_play, legal_plays=legal_plays, round_over=_round_over,
                       finish=_finish, after_play=_after_play, after_pass=_after_pass, after_trick=_after_trick,
                       bars=_bars, lifts_bar=_lifts_bar, closes=_closes, active=_active,
                       extra={YIELD: TrickMove(_check_yield, _apply_yield, _yield_actions)})


def deck_of(seed: bytes, entropy: bytes) -> list[int]:
    return rng.Stream(rng.deal_key(seed, entropy), "deal").shuffle(cards.full_deck())


def new_state(hands, *, leader: int = 0, options: Options = Options(), seed: bytes = b"", entropy: bytes = b"",
              match: Match = Match(0, (0,) * SEATS)) -> State:
    """A round whose ``leader`` leads the first trick with ``hands`` (bitmasks)."""
    hands = tuple(hands)
    return State(options, seed, entropy, match, SEATS, hands, 0, Trick(leader), (), (0,) * SEATS, (0,) * SEATS,
                 -1, PLAYING, (leader,))


class TeamTricks(Game):
    id = "toy_team"
    name = "Team tricks, a toy game of the tests"
    min_seats = max_seats = SEATS
    Options = Options
    notation = NOTATION
    phases = (PLAY_PHASE, Finished())
    abandon_policy = OUT_OF_PLAY
    State = State
    state_fields = {"num_seats": Index(7, 6), "hands": Seq(Mask, "seats"), "played": Mask, "out": Seq(Index("seats", 0), "seats"),
                    "beats": Seq(Small, "seats"), "beaten": Seq(Small, "seats"), "yielded": Index("seats"),
                    "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"), "left": Mask("seats"), "step": Small}
    action_kinds = (COMMON_KINDS[PASS],
                    ActionKind(PLAY, "play one or more cards of one rank (ids, card text or ranks); on the table: "
                               "as many cards, a higher rank", ("cards",)),
                    ActionKind(YIELD, "让: the top play's owner's 对头, asked first on it, lets the next seats "
                               "answer first; asked again after them, he must play or pass"),
                    COMMON_KINDS[ABANDON])
    reasons = {YIELD_NOT_ALLOWED: "only the top play's owner's 对头 may yield, once on a play"}
    counters = {"leader": "the seat that led the trick", "yielded": "the seat that yielded on the top play, -1: none",
                "round": "rounds of the match before this one"}
    seat_counters = {"beats": "the seat's plays that beat another play",
                     "beaten": "the seat's plays that another play beat",
                     "passed": "1: the seat passed on the top play", "barred": "1: the seat passed in this trick",
                     "place": "the place the seat went out in, 0: still in"}
    public_cards = {"played": "every card played so far"}
    combination_kinds = {k: f"{n} card(s) of one rank" for n, k in enumerate(_KINDS, 1)}
    outcomes = {"team0_won": "every seat of team 0 went out first (or team 1 is out with a leaver)",
                "team1_won": "every seat of team 1 went out first (or team 0 is out with a leaver)"}
    breakdown = {"unit": "what each loser pays each winner"}
    deal_cards = {
        "seat": DealKey("the seat's 9 cards, the shuffled deck's next 9 from seat 0 on", per_seat=True),
    }
    event_types = {"DEAL": EventType("the seat's 9 cards (private)", private_cards=True),
                   "PLAY": EventType("cards played, with their combination"),
                   "PASS": EventType("the seat passes (and is barred for the rest of the trick)"),
                   YIELD: EventType("the seat yields (让) to the seats after it"),
                   "TRICK_WON": EventType("the seat won the trick"),
                   "LEAD": EventType("the seat leads in place of the trick's winner, out (接风)",
                                     {"from": "the trick's winner"}),
                   "OUT": EventType("the seat played its last card", {"place": "its place"}),
                   "FINISH": EventType("every seat of one team is out: the round ends", {"team": "the winning team"}),
                   "ABANDON": EventType("the seat left: out of play, the round goes on without it")}

    def _deal(self, options, seed, entropy, num_seats, match):
        deck = deck_of(seed, entropy)
        hands = [cards.to_mask(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(num_seats)]
        return new_state(hands, options=options, seed=seed, entropy=entropy, match=match)

    def deal_events(self, state):
        return [Event("DEAL", s, cards.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seat_list):
        trick = state.trick
        place = {s: i + 1 for i, s in enumerate(state.out)}
        seat_views = tuple(SeatView(h.bit_count(), team=TEAMS[s],
                                    counters={"beats": state.beats[s], "beaten": state.beaten[s],
                                              "passed": trick.passed >> s & 1, "barred": trick.barred >> s & 1,
                                              "place": place.get(s, 0)})
                           for s, h in enumerate(state.hands))
        public = {"played": cards.from_mask(state.played)}
        table = combo_of(trick.top) if trick.top else None
        table_cards = cards.from_mask(trick.top_cards)
        counters = {"leader": trick.leader, "yielded": state.yielded, "round": state.match.round}
        phase = self.phases[state.phase].name
        return [View(s, phase, state.to_act, cards.from_mask(state.hands[s]) if s >= 0 else (), seat_views, public,
                     table, trick.top_seat if trick.top else -1, table_cards, counters, state.finished)
                for s in seat_list]

    def left(self, state):
        return state.left

    def _abandon(self, state, seat):
        """The seat goes out of play (abandon policy OUT_OF_PLAY); its cards stay dead in its hand.
        The turn moves on if it was awaited; the round ends if its team is now out of play."""
        state = state._replace(left=state.left | 1 << seat, yielded=-1 if state.yielded == seat else state.yielded)
        events = [Event("ABANDON", seat)]
        if _round_over(state):
            return _finish(state, events), events
        if seat in state.to_act:
            state = PLAY_PHASE.ask_next(state, seat, events)
        return state, events

    def _settle(self, state):
        team = winning_team(state)
        winners = tuple(s for s in range(SEATS) if TEAMS[s] == team)
        points = tuple(UNIT if TEAMS[s] == team else -UNIT for s in range(SEATS))
        return Settlement(points, winners, f"team{team}_won", (("unit", UNIT),))

    def dealt(self, state):
        deck = deck_of(state.seed, state.entropy)
        return {f"seat{s}": tuple(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(state.num_seats)}, {}

    def card_zones(self, state):
        zones = {f"hand{s}": cards.from_mask(h) for s, h in enumerate(state.hands)}
        zones["played"] = cards.from_mask(state.played)
        return zones

    def knowledge(self, state):
        """Hands are their seats'; played cards are public."""
        return Knowledge(state.played, state.hands)

TEAM = TeamTricks()
