"""斗地主 Dou Dizhu, QQ rules, as implemented (spec: rules/doudizhu.md; seed: doudizhu.zh.txt).

Deal (rules 1-2): one 54-card deck, 17 cards to each of seats 0-2, 3 to the kitty; seat s is
followed by (s + 1) mod 3. Deal n of a round (n = 0, then 1, 2 ... after all-pass redeals)
shuffles with the stream labelled ``deal/n`` of the round's deal key (rng.py); the first
17 cards go to seat 0, the next 17 to seat 1, then seat 2, the last 3 to the kitty.

Bidding (rules 3-7), on the shared ask-in-turn phase (``asking.AskInTurn``: the queue of
seats still to bid is the state's ``asking``): from the first bidder in seat order, each seat
bids once: 1, 2, 3 (action BID, value) or passes (PASS); a bid must exceed every earlier bid. A bid of 3 ends
bidding at once; otherwise after three decisions the highest bidder is landlord. Three passes:
the service redeals itself (event REDEAL, deal n + 1) and bidding restarts from the same first
bidder. The first bidder is ``options.first_bidder`` or, when -1, drawn from the stream
``first_bidder``; in a match (Deal from the finished round's token) it rotates to the next seat
every round (rule 6). The landlord takes the kitty, which becomes public in every view.

Play (rules 8-12), on the shared trick flow (``tricks.py``): the landlord leads; each seat
plays a combination that beats the table or passes; after two passes in a row the last player
leads anything; a leader may not pass. The round ends when a hand is empty. Combinations, comparison and kicker rules 10-11 live in
``ddz_hot.py`` (compiled). Variant choices: kickers never share the rank of their body (11a);
the rocket is not used as kickers unless ``rocket_as_kickers`` (11b); four + two singles may
be a pair (11c); four + two pairs need two different ranks (11d); at most 3 single wings of a
rank, none of a body rank (11e/f); a bomb may be split (11g). A multiset with several
readings (11i) is legal if any reading beats the table; a play may declare its reading
(Action.declared = kind name); otherwise the referee takes the reading that beats the table,
on a free lead the one with the largest body, then the highest main rank. The legal-action
list (rule 12) has each rank multiset once; when a caller names ranks only, the cards taken
are, for each rank, the ones with the lowest ids (suits S, H, D, C).

Scoring (rules 13-16): base = winning bid; multiplier = 2^(bombs and rockets played), x2 more
for spring (landlord out, no farmer played a card) or anti-spring (a farmer out, landlord
played one hand). Landlord wins: landlord +2 x base x multiplier, farmers -base x multiplier
each; loses: the signs flip. Escape (ABANDON, any seat at any time): that seat loses
base x multiplier x 3 (3 if nobody has bid yet, base = highest bid so far), the others score
0, and the house takes the penalty, so points + house sum to 0.

Coins (rules 17-18), the ``scoring`` option: ``coins_fixed_fee`` X = base x multiplier x
(2 landlord, 1 farmer), loser -(X*N + A), winner X*N - A, the house takes A from everyone;
``coins_rake``: X = 2 x base landlord, base farmer; loser pays X*multiplier*N, winner gets
X*multiplier*N*9/10 rounded down, the house keeps the rest. On an escape the escaper pays
penalty*N (+ A under the fixed fee) to the house. Points are always reported too.

Level titles: ``title_for(points)``, the seed's table (``Game.titles``).

Phases: ``bidding`` (PASS, BID), ``playing`` (PLAY, PASS), ``finished``. Views: counters base,
multiplier, bombs, first_bidder, deal_no, landlord, passes; per seat: counters bid (-1 not yet,
0 passed, 1-3) and plays (hands played), role landlord/farmer and team (landlord 0, farmers 1)
once known; public cards: the kitty once taken, and every card played so far (``played``).
Other seats' cards left when the round ends stay hidden (the table's owner sees every seat's
view).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, NamedTuple

from ... import cards as cardlib
from ... import rng, speedups
from ...errors import InvalidAction, Reason, quote
from ...asking import Ask, AskInTurn, queue_in_order
from ...codec import Index, Layout, Mask, Seq, Small
from ...game import (ABANDON, COMMON_KINDS, PASS, PLAY, Action, ActionKind, Combo, DealKey, Event, EventType, EMPTY,
                   Finished, Game, Knowledge, Match, SeatView, Settlement, Verdict, View, option)
from ...tricks import Trick, TrickPlay

hot = speedups.load("games.doudizhu.hot")

SEATS = 3
NOTATION = cardlib.PokerNotation(1)
HAND_SIZE = 17
KITTY_SIZE = 3

Kind = IntEnum("Kind", [(name.upper(), i) for i, name in enumerate(hot.KIND_NAMES) if name])

KIND_LABELS = {
    Kind.SINGLE: "single 单牌", Kind.PAIR: "pair 对牌", Kind.TRIO: "trio 三张",
    Kind.TRIO_SINGLE: "trio+single 三带一", Kind.TRIO_PAIR: "trio+pair 三带二",
    Kind.STRAIGHT: "straight 单顺", Kind.PAIR_STRAIGHT: "pair straight 双顺",
    Kind.TRIO_STRAIGHT: "trio straight 三顺", Kind.AIRPLANE_SINGLES: "airplane+singles 飞机带单",
    Kind.AIRPLANE_PAIRS: "airplane+pairs 飞机带对", Kind.FOUR_TWO_SINGLES: "four+two singles 四带二",
    Kind.FOUR_TWO_PAIRS: "four+two pairs 四带两对", Kind.BOMB: "bomb 炸弹", Kind.ROCKET: "rocket 火箭",
}

TITLES = ((0, "包身工"), (10, "短工"), (25, "長工"), (40, "佃户"), (80, "貧農"), (140, "漁夫"),
          (230, "獵人"), (365, "中農"), (500, "富農"), (700, "掌櫃"), (1000, "商人"), (1500, "衙役"),
          (2200, "小財主"), (3000, "大財主"), (4000, "小地主"), (5500, "大地主"), (7700, "知縣"),
          (10000, "通判"), (14000, "知府"), (20000, "總督"), (30000, "巡撫"), (45000, "丞相"),
          (70000, "帝王"))

BIDDING, PLAYING, FINISHED = 0, 1, 2
BID = "BID"
# the game's own reasons (rules 3 and 11i)
BID_TOO_LOW = "BID_TOO_LOW"
DECLARED_READING_INVALID = "DECLARED_READING_INVALID"


@dataclass(frozen=True, slots=True)
class Options:
    rocket_as_kickers: bool = option(False, "rule 11b: the two jokers may be used as kickers")
    scoring: str = option("points", "settlement mode (rules 14, 17, 18)",
                          allowed=("points", "coins_fixed_fee", "coins_rake"))
    room_coefficient: int = option(1, "N, the room coefficient of the coin modes", minimum=1,
                                   maximum=1_000_000)
    room_fee: int = option(0, "A, the fee the house takes from every player (coins_fixed_fee)",
                           minimum=0, maximum=1_000_000)
    first_bidder: int = option(-1, "rule 6: first bidder seat; -1 draws it from the seed",
                               minimum=-1, maximum=SEATS - 1)


class Carry(NamedTuple):
    """What a round carries into the next one of its match (rule 6)."""

    first_bidder: Annotated[int, Index("seats", 0)]


class State(NamedTuple):
    """A round in progress; immutable (a NamedTuple: cheap to build, copy and pack on every call)."""

    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    deal_no: int
    first_bidder: int
    hands: tuple[int, ...]  # card-id bitmasks per seat
    kitty: int  # bitmask
    phase: int
    bids: tuple[int, ...]  # -1 not yet, 0 passed, 1..3
    to_act: tuple[int, ...]
    asking: tuple[Ask, ...] = ()  # while bidding: the seats still to bid, in turn (asking.AskInTurn)
    landlord: int = -1
    base: int = 0
    bombs: int = 0
    trick: Trick = Trick()  # the trick in progress; trick.top is a packed play (ddz_hot)
    played: int = 0  # the cards played so far, a bitmask
    plays: tuple[int, ...] = (0, 0, 0)  # hands played per seat
    out: tuple[int, ...] = ()  # the seat that played out (the round ends with the first)
    abandoned: int = -1
    step: int = 0

    num_seats = SEATS

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def winner(self) -> int:
        return self.out[0] if self.out else -1




# --- cards and combinations -----------------------------------------------------------------

def counts_of_ranks(ranks) -> int:
    """Packed rank counts (ddz_hot encoding) of rank indexes.

    Raises:
        InvalidAction: more copies of a rank than one deck has (DUPLICATE_CARD).
    """
    counts = [0] * cardlib.NUM_RANKS
    for r in ranks:
        counts[r] += 1
    for r, c in enumerate(counts):
        if c > (1 if r >= cardlib.SMALL_JOKER else 4):
            raise InvalidAction(f"{c} cards of rank {cardlib.RANK_CHARS[r]} in one deck",
                                Reason.DUPLICATE_CARD)
    return sum(c << (3 * r) for r, c in enumerate(counts))


def counts_of_mask(mask: int) -> int:
    """Rank counts (ddz_hot encoding) of a card bitmask."""
    return hot.hand_counts(mask)


def ranks_of_counts(counts: int) -> tuple[int, ...]:
    return tuple(r for r in range(cardlib.NUM_RANKS) for _ in range((counts >> (3 * r)) & 7))


def parse_hand(text: str) -> int:
    """Packed counts of a hand given as cards (``3S 3H``) or as a rank string (``33BR``)."""
    values, are_cards = cardlib.parse_cards_or_ranks(text)
    return counts_of_ranks(cardlib.ranks_of(values) if are_cards else values)


def format_play(play: int) -> str:
    return cardlib.format_ranks(ranks_of_counts(hot.play_counts(play)))


@functools.lru_cache(maxsize=8192)
def to_combo(play: int) -> Combo:
    """The game-neutral description of a packed play (cached: plays repeat, Combo is frozen)."""
    kind = hot.play_kind(play)
    ranks = ranks_of_counts(hot.play_counts(play))
    return Combo(hot.KIND_NAMES[kind], hot.play_main(play), hot.play_chain(play), len(ranks), ranks,
                 KIND_LABELS[kind])


def _body_size(play: int) -> int:
    kind, chain = hot.play_kind(play), hot.play_chain(play)
    if kind in (Kind.STRAIGHT, Kind.PAIR_STRAIGHT, Kind.TRIO_STRAIGHT, Kind.ROCKET):
        return hot.card_total(hot.play_counts(play))
    if kind in (Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS):
        return 3 * chain
    return {Kind.TRIO_SINGLE: 3, Kind.TRIO_PAIR: 3, Kind.FOUR_TWO_SINGLES: 4,
            Kind.FOUR_TWO_PAIRS: 4}.get(kind, hot.card_total(hot.play_counts(play)))


def choose_reading(readings: list[int], table: int, declared: str = "") -> tuple[int, Reason]:
    """Rule 11i: the reading a play stands for, or (0, reason) when none may be played."""
    if not readings:
        return 0, Reason.NOT_A_COMBINATION
    if declared:
        readings = [p for p in readings if hot.KIND_NAMES[hot.play_kind(p)] == declared]
        if not readings:
            return 0, DECLARED_READING_INVALID
    if len(readings) == 1:
        play = readings[0]
        return (play, Reason.OK) if not table or hot.beats(play, table) else (0, Reason.DOES_NOT_BEAT)
    if table:
        beating = [p for p in readings if hot.beats(p, table)]
        if not beating:
            return 0, Reason.DOES_NOT_BEAT
        return max(beating, key=lambda p: (hot.play_main(p), _body_size(p))), Reason.OK
    return max(readings, key=lambda p: (_body_size(p), hot.play_main(p))), Reason.OK


def classify(counts: int, options: Options = Options()) -> list[int]:
    """All readings of a rank multiset (packed counts), strongest reading last."""
    return sorted(hot.readings(counts, options.rocket_as_kickers),
                  key=lambda p: (_body_size(p), hot.play_main(p)))


def legal_plays(hand: int, table: int, options: Options = Options()) -> list[int]:
    """Rule 12: each distinct legal play once, ordered by kind, chain length, main rank."""
    plays = hot.legal_plays(hand, table, options.rocket_as_kickers)
    plays.sort()
    return plays


def legal_rank_strings(hand_text: str, last_text: str, options: Options = Options(),
                       last_kind: str = "") -> list[str]:
    """The ``referee legal`` answer: legal plays as rank strings sorted 3..R lexicographically.

    ``last_text`` empty is a free lead; otherwise it is read as ``last_kind`` when given, else
    as it would be when led (rule 11i: largest body, then highest main). The compiled core
    answers from the texts; a text it declines, and a named ``last_kind``, go through
    ``parse_hand`` and ``choose_reading``, whose errors are the answer.
    Raises:
        InvalidAction: unknown cards, or ``last_text`` is not a combination (NOT_A_COMBINATION).
    """
    if not last_kind:
        moves = hot.legal_rank_strings_of_text(hand_text, last_text, options.rocket_as_kickers)
        if moves is not None:
            return moves
    hand = parse_hand(hand_text)
    table = 0
    if last_text.strip():
        table, reason = choose_reading(classify(parse_hand(last_text), options), 0, last_kind)
        if not table:
            raise InvalidAction(f"{quote(last_text)} is not a combination"
                                + (f" read as {last_kind}" if last_kind else ""), reason)
    return hot.legal_rank_strings(hand, table, options.rocket_as_kickers)


def legal_moves_json(hand_text: str, last_text: str, options: Options = Options(),
                     last_kind: str = "") -> str:
    """``legal_rank_strings`` as the JSON text ``referee legal`` prints, ``{"moves": [...]}``."""
    if not last_kind:
        text = hot.legal_moves_json_of_text(hand_text, last_text, options.rocket_as_kickers)
        if text is not None:
            return text
    import json

    return json.dumps({"moves": legal_rank_strings(hand_text, last_text, options, last_kind)})


def title_for(points: int) -> str:
    """Level title (级别) for cumulative points."""
    title = TITLES[0][1]
    for threshold, name in TITLES:
        if points >= threshold:
            title = name
    return title


# card ids of a bitmask, cached: a Play answers with every seat's hand, two of them the hands of
# the last Play, and the same plays are offered again and again
_ids_of = functools.lru_cache(maxsize=16384)(cardlib.from_mask)


# --- the game -------------------------------------------------------------------------------

# --- bidding (rules 3-7) on the shared ask-in-turn phase ----------------------------------------

def bid_actions(state: State, ask: Ask):
    """Rule 3: PASS, or a bid above every earlier bid."""
    top = max(state.bids)
    return [(Action(ask.seat, PASS), None)] + [
        (Action(ask.seat, BID, value=v), None) for v in range(max(top, 0) + 1, 4)]


def check_bid(state: State, action: Action, ask: Ask) -> Verdict:
    if action.kind == PASS:
        return Verdict.ok("no bid")
    if not 1 <= action.value <= 3:
        return Verdict.no(Reason.BAD_ACTION, f"a bid is 1, 2 or 3, not {action.value}")
    if action.value <= max(state.bids):
        return Verdict.no(BID_TOO_LOW, f"bid {action.value} must exceed the highest bid {max(state.bids)}")
    return Verdict.ok(f"bid {action.value}")


def record_bid(state: State, action: Action, verdict: Verdict, ask: Ask, events: list) -> State:
    seat = action.seat
    value = action.value if action.kind == BID else 0
    events.append(Event("BID", seat, values={"bid": value}))
    return state._replace(bids=state.bids[:seat] + (value,) + state.bids[seat + 1:])


def bid_of_three(state: State) -> bool:
    return max(state.bids) == 3  # rule 4: a bid of 3 ends bidding at once


def close_bidding(state: State, events: list) -> State:
    """Rule 5: three passes redeal (bidding restarts from the same seat); else rule 7: the
    highest bidder is landlord and takes the kitty."""
    bids = state.bids
    if max(bids) <= 0:
        deal_no = state.deal_no + 1
        hands, kitty = _deal_cards(rng.deal_key(state.seed, state.entropy), deal_no)
        events.append(Event("REDEAL", state.first_bidder, values={"deal_no": deal_no}))
        events += [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(hands)]
        return state._replace(deal_no=deal_no, hands=hands, kitty=kitty, bids=(-1,) * SEATS,
                              asking=queue_in_order(state.first_bidder, SEATS), to_act=(state.first_bidder,))
    landlord = bids.index(max(bids))
    hands = tuple(h | state.kitty if s == landlord else h for s, h in enumerate(state.hands))
    events.append(Event("LANDLORD", landlord, cardlib.from_mask(state.kitty), values={"base": max(bids)}))
    return state._replace(hands=hands, phase=PLAYING, landlord=landlord, base=max(bids),
                          trick=Trick(landlord), to_act=(landlord,))


# --- play (rules 8-12) on the shared trick flow ---------------------------------------------------

def read_play(state: State, action: Action, mask: int) -> Verdict:
    readings = hot.readings(counts_of_mask(mask), state.options.rocket_as_kickers)
    table = state.trick.top
    play, reason = choose_reading(readings, table, action.declared)
    if not play:
        text = cardlib.format_cards(cardlib.from_mask(mask))
        message = {Reason.NOT_A_COMBINATION: f"{text} is not a combination",
                   DECLARED_READING_INVALID: f"{text} cannot be read as {action.declared}",
                   Reason.DOES_NOT_BEAT: f"{text} does not beat {format_play(table) if table else ''}"}[reason]
        return Verdict.no(reason, message)
    resolved = Action(action.seat, PLAY, _ids_of(mask), (), action.value, action.declared)
    combo = to_combo(play)
    return Verdict.ok(combo.label, combo, resolved, play)


def table_plays(state: State, seat: int):
    hand = state.hands[seat]
    return [(Action(seat, PLAY, _ids_of(hot.pick_cards(hand, hot.play_counts(play))),  # rule 12
                    declared=hot.KIND_NAMES[hot.play_kind(play)]), to_combo(play))
            for play in legal_plays(hot.hand_counts(hand), state.trick.top, state.options)]


def count_play(state: State, seat: int, verdict: Verdict, beaten: Trick, events: list) -> State:
    """Hands played per seat (spring, rule 15); bombs and rockets double (rule 13)."""
    plays = state.plays[:seat] + (state.plays[seat] + 1,) + state.plays[seat + 1:]
    if hot.play_kind(verdict.detail) in (Kind.BOMB, Kind.ROCKET):
        bombs = state.bombs + 1
        events.append(Event("BOMB", seat, values={"multiplier": 1 << bombs}))
        return state._replace(plays=plays, bombs=bombs)
    return state._replace(plays=plays)


def someone_out(state: State) -> bool:
    return bool(state.out)  # rule 9: the first seat out ends the round


def finish(state: State, events: list) -> State:
    events.append(Event("FINISH", state.out[0], values={"winner": state.out[0]}))
    return state._replace(phase=FINISHED, to_act=())


class Doudizhu(Game):
    id = "doudizhu"
    name = "斗地主 Dou Dizhu"
    min_seats = max_seats = SEATS
    Options = Options
    presets = {"qq": Options(), "coins_fixed_fee": Options(scoring="coins_fixed_fee"),
               "coins_rake": Options(scoring="coins_rake")}
    notation = NOTATION
    phases = (AskInTurn("bidding", (PASS, BID), legal=bid_actions, check=check_bid, answer=record_bid,
                        stop=bid_of_three, resolve=close_bidding),
              TrickPlay("playing", read_play=read_play, legal_plays=table_plays, after_play=count_play,
                        round_over=someone_out, finish=finish),
              Finished())
    State = State
    state_fields = {"match.carry": Carry | None, "deal_no": Small, "first_bidder": Index("seats", 0),
                    "hands": Seq(Mask, "seats"), "kitty": Mask, "phase": Index(3, 0), "bids": Seq(Index(4), "seats"),
                    "to_act": Seq(Index("seats", 0), "seats"), "asking": Seq(Ask, "seats"),
                    "landlord": Index("seats"), "base": Index(4, 0), "bombs": Index(16, 0), "played": Mask,
                    "plays": Seq(Small, "seats"), "out": Seq(Index("seats", 0), "seats"), "abandoned": Index("seats"),
                    "step": Small}
    # the release before the state codec: no version byte, no ask-in-turn queue (rebuilt from the bids)
    state_layouts = {1: Layout("options seed entropy match deal_no first_bidder hands kitty phase bids to_act landlord "
                               "base bombs trick played plays out abandoned step", upgrade=lambda old: {
                                   **old, "asking": _bids_to_ask(old["first_bidder"], old["bids"], old["phase"])})}
    action_kinds = (COMMON_KINDS[PASS], ActionKind(BID, "bid 1, 2 or 3 (叫分), above every earlier bid", ("value",)),
                    ActionKind(PLAY, "play cards (ids, card text, or a rank string: the lowest ids of each "
                               "rank are taken, rule 12); `declared` may name the reading (rule 11i)",
                               ("cards", "declared")),
                    COMMON_KINDS[ABANDON])
    reasons = {BID_TOO_LOW: "a bid must exceed every earlier bid (rule 3)",
               DECLARED_READING_INVALID: "the declared reading does not fit the cards or does not beat the "
                                         "table (rule 11i)"}
    counters = {"base": "the winning bid (0 while bidding)",
                "multiplier": "2^(bombs and rockets played) (rule 13)",
                "bombs": "bombs and rockets played", "first_bidder": "the seat that bid first (rule 6)",
                "deal_no": "redeals after three passes (rule 5)", "landlord": "the landlord's seat, -1 while bidding",
                "passes": "passes in a row on the table's play", "round": "rounds of the match before this one"}
    seat_counters = {"bid": "-1 not yet, 0 passed, 1-3 the bid", "plays": "hands the seat played"}
    public_cards = {"kitty": "the three kitty cards, once the landlord took them (rule 7)",
                    "played": "every card played so far"}
    roles = {"landlord": "地主 (team 0)", "farmer": "农民 (team 1)"}
    combination_kinds = {hot.KIND_NAMES[k]: label for k, label in KIND_LABELS.items()}
    outcomes = {"landlord_won": "the landlord played out first", "farmers_won": "a farmer played out first",
                "abandoned": "a seat left (rule 16)"}
    breakdown = {"base": "the winning bid", "multiplier": "2^bombs, x2 for a spring (rule 13)",
                 "bombs": "bombs and rockets played", "spring": "1: spring (rule 15)",
                 "anti_spring": "1: anti-spring (rule 15)", "landlord": "the landlord's seat",
                 "penalty": "what the seat that left pays (rule 16)", "escaped_seat": "the seat that left"}
    seat_values = {"coins": "coin modes (rules 17-18): each seat's coins; empty in points mode"}
    values = {"coins_house": "coin modes: what the house collects (fees, rake)"}
    balances = (("coins", "coins_house"),)
    standings = {"title": "the level title (级别) of each seat's cumulative points"}
    hint_context = {"table_kind": "the reading of the table to beat, a combination kind (rule 11i); "
                                  "default: as it would be read when led"}
    deal_cards = {
        "seat": DealKey("the seat's 17 cards, the shuffled deck's 17 * seat to 17 * seat + 16", per_seat=True),
        "kitty": DealKey("the 3 kitty cards (底牌), the deck's last"),
    }
    deal_values = {
        "deal_no": "redeals before this deal (rule 5): the deck is shuffled on the stream deal/<deal_no>",
        "first_bidder": "the seat that bids first (drawn from the seed when the option is -1 in a match's first round)",
    }
    event_types = {
        "DEAL": EventType("the seat's 17 cards (private: the seat's own)", private_cards=True),
        "BID_TURN": EventType("the seat that bids first"),
        "BID": EventType("a bid or a pass while bidding", {"bid": "0 pass, 1-3"}),
        "REDEAL": EventType("all passed: the cards are dealt again (rule 5)", {"deal_no": "the new deal's number"}),
        "LANDLORD": EventType("the landlord and the kitty it takes", {"base": "the winning bid"}),
        "PLAY": EventType("cards played, with their combination"),
        "PASS": EventType("the seat passes"),
        "BOMB": EventType("a bomb or rocket doubled the multiplier", {"multiplier": "the new multiplier"}),
        "TRICK_WON": EventType("the two others passed: the seat leads anything"),
        "ABANDON": EventType("the seat left the round (escape, rule 16)"),
        "FINISH": EventType("the round is over", {"winner": "the seat that played out",
                                                  "abandoned": "the seat that left"}),
    }

    def default_action(self, state: State, seat: int) -> Action:
        """A seat whose time ran out, or on autoplay (托管): bidding, PASS (不叫), but the last seat
        asked bids 1 when nobody has bid, so defaults never redeal forever; playing, PASS (不出),
        and on a lead the lowest single (the hint list's first play)."""
        if state.phase == BIDDING and len(state.asking) == 1 and max(state.bids) <= 0:
            return Action(seat, BID, value=1)
        return super().default_action(state, seat)

    def _deal(self, options: Options, seed: bytes, entropy: bytes, seats: int, match: Match) -> State:
        key = rng.deal_key(seed, entropy)
        if match.round:
            first = match.carry.first_bidder  # rule 6: the next seat of the previous round's first bidder
        elif options.first_bidder >= 0:
            first = options.first_bidder
        else:
            first = rng.Stream(key, "first_bidder").randbelow(SEATS)
        hands, kitty = _deal_cards(key, 0)
        return State(options, seed, entropy, match, 0, first, hands, kitty, BIDDING, (-1,) * SEATS, (first,),
                     queue_in_order(first, SEATS))

    def deal_events(self, state: State) -> list[Event]:
        events = [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]
        return events + [Event("BID_TURN", state.first_bidder)]

    def _carry(self, finished: State) -> Carry:
        return Carry((finished.first_bidder + 1) % SEATS)

    def _abandon(self, state: State, seat: int):
        return (state._replace(phase=FINISHED, to_act=(), abandoned=seat),
                [Event("ABANDON", seat), Event("FINISH", -1, values={"abandoned": seat})])

    # views, settlement, cards --------------------------------------------------------------------
    def _views(self, state: State, seats) -> list[View]:
        """Every seat's view shares one public part (the same objects: cheap to compare)."""
        phase, public, seat_views, table, table_seat, table_cards, counters = _public_view(state)
        to_act, finished, hands = state.to_act, state.finished, state.hands
        return [View(seat, phase, to_act, _ids_of(hands[seat]) if seat >= 0 else (), seat_views, public,
                     table, table_seat, table_cards, counters, finished) for seat in seats]

    def _settle(self, state: State) -> Settlement:
        return settle(state)

    def dealt(self, state: State):
        """Deal ``deal_no`` (after ``deal_no`` redeals) as shuffled: seats 0-2 the first 17 cards
        each, the kitty the last 3; the first bidder (drawn from the seed when the option is -1
        in a match's first round)."""
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), f"deal/{state.deal_no}").shuffle(
            cardlib.full_deck())
        cards = {f"seat{s}": tuple(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(SEATS)}
        cards["kitty"] = tuple(deck[SEATS * HAND_SIZE:])
        return cards, {"deal_no": state.deal_no, "first_bidder": state.first_bidder}

    def card_zones(self, state: State):
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        zones["played"] = cardlib.from_mask(state.played)
        if state.landlord < 0:  # the kitty joins the landlord's hand
            zones["kitty"] = cardlib.from_mask(state.kitty)
        return zones

    def knowledge(self, state: State) -> Knowledge:
        """Hands are their seats'; played cards are public, and the kitty once the landlord took it
        (rule 7): before that nobody knows it, even when the round ends by an ABANDON."""
        public = state.played | (state.kitty if state.landlord >= 0 else 0)
        return Knowledge(public, state.hands)

    def standing(self, totals):
        """Level titles (级别) of cumulative points."""
        return {"title": tuple(title_for(t) for t in totals)}

    # stateless helpers ---------------------------------------------------------------------------
    def classify(self, cards_text: str, options: Options) -> list[Combo]:
        return [to_combo(p) for p in classify(parse_hand(cards_text), options)]

    def compare(self, a_text: str, b_text: str, options: Options):
        """Can ``a`` be played on ``b`` (b read as when led)? Returns (beats, a reading, b reading).

        Raises:
            InvalidAction: either is not a combination (NOT_A_COMBINATION).
        """
        b, reason = choose_reading(classify(parse_hand(b_text), options), 0)
        if not b:
            raise InvalidAction(f"{b_text[:40]!r} is not a combination", reason)
        a_readings = classify(parse_hand(a_text), options)
        if not a_readings:
            raise InvalidAction(f"{a_text[:40]!r} is not a combination", Reason.NOT_A_COMBINATION)
        a, _ = choose_reading(a_readings, b)
        return bool(a), to_combo(a or choose_reading(a_readings, 0)[0]), to_combo(b)

    def hint_strings(self, hand_text: str, table_text: str, options: Options, context=EMPTY) -> list[str]:
        return legal_rank_strings(hand_text, table_text, options, context.get("table_kind", ""))

    def hint_json(self, hand_text: str, table_text: str, options: Options, context=EMPTY) -> str:
        return legal_moves_json(hand_text, table_text, options, context.get("table_kind", ""))

PHASE_NAMES = tuple(p.name for p in Doudizhu.phases)
# roles by landlord seat (-1: not yet known)
_ROLES = {-1: ("",) * SEATS, **{ll: tuple("landlord" if s == ll else "farmer" for s in range(SEATS))
                               for ll in range(SEATS)}}


def _public_view(state: State) -> tuple:
    """What every seat's view of ``state`` shares (built once per state by ``_views``; the
    mappings are shared between the views and never changed)."""
    public = {"kitty": _ids_of(state.kitty), "played": _ids_of(state.played)} if state.landlord >= 0 else {}
    bids, hands, plays, landlord = state.bids, state.hands, state.plays, state.landlord
    roles = _ROLES[landlord]
    seat_views = tuple(
        SeatView(hands[s].bit_count(), roles[s], -1 if landlord < 0 else int(s != landlord),
                 {"bid": bids[s], "plays": plays[s]}) for s in range(SEATS))
    trick = state.trick
    counters = {"base": state.base, "multiplier": 1 << state.bombs, "bombs": state.bombs,
                "first_bidder": state.first_bidder, "deal_no": state.deal_no, "landlord": landlord,
                "passes": trick.passed.bit_count(), "round": state.match.round}
    return (PHASE_NAMES[state.phase], public, seat_views, to_combo(trick.top) if trick.top else None,
            trick.top_seat, _ids_of(trick.top_cards), counters)



def _bids_to_ask(first: int, bids: tuple[int, ...], phase: int) -> tuple[Ask, ...]:
    """The seats still to bid while bidding: in turn from the first bidder, those that have not."""
    if phase != BIDDING:
        return ()
    return tuple(tuple(a) for a in queue_in_order(first, SEATS) if bids[a.seat] == -1)


def _deal_cards(key: bytes, deal_no: int) -> tuple[tuple[int, ...], int]:
    deck = rng.Stream(key, f"deal/{deal_no}").shuffle(cardlib.full_deck())
    hands = tuple(cardlib.to_mask(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(SEATS))
    return hands, cardlib.to_mask(deck[SEATS * HAND_SIZE:])


def settle(state: State) -> Settlement:
    """Rules 13-18 for a finished or abandoned round."""
    o = state.options
    n, fee = o.room_coefficient, o.room_fee
    multiplier = 1 << state.bombs
    if state.abandoned >= 0:
        base = state.base or max(state.bids)  # while bidding: the highest bid so far
        penalty = base * multiplier * 3 if base > 0 else 3
        points = tuple(-penalty if s == state.abandoned else 0 for s in range(SEATS))
        coins_pen = penalty * n + (fee if o.scoring == "coins_fixed_fee" else 0)
        coins = tuple(-coins_pen if s == state.abandoned else 0 for s in range(SEATS))
        return Settlement(points, (), "abandoned", (("penalty", penalty), ("escaped_seat", state.abandoned)),
                          house=penalty, **_coins(o, coins, coins_pen))
    landlord = state.landlord
    landlord_won = state.winner == landlord
    farmers = [s for s in range(SEATS) if s != landlord]
    spring = landlord_won and all(state.plays[f] == 0 for f in farmers)
    anti_spring = not landlord_won and state.plays[landlord] == 1
    if spring or anti_spring:
        multiplier *= 2
    unit = state.base * multiplier
    sign = 1 if landlord_won else -1
    points = tuple(sign * 2 * unit if s == landlord else -sign * unit for s in range(SEATS))
    winners = (landlord,) if landlord_won else tuple(farmers)
    breakdown = (("base", state.base), ("multiplier", multiplier), ("bombs", state.bombs),
                 ("spring", int(spring)), ("anti_spring", int(anti_spring)), ("landlord", landlord))
    coins, house = (), 0
    if o.scoring == "coins_fixed_fee":
        coins = tuple((1 if s in winners else -1) * unit * (2 if s == landlord else 1) * n - fee
                      for s in range(SEATS))
        house = fee * SEATS
    elif o.scoring == "coins_rake":
        x = tuple((2 if s == landlord else 1) * state.base * multiplier * n for s in range(SEATS))
        coins = tuple(x[s] * 9 // 10 if s in winners else -x[s] for s in range(SEATS))
        house = -sum(coins)
    return Settlement(points, winners, "landlord_won" if landlord_won else "farmers_won", breakdown,
                      **_coins(o, coins, house))


def _coins(options: Options, coins: tuple[int, ...], house: int) -> dict:
    """The coin modes' results (rules 17-18) as the game's own settlement values; none in points mode."""
    if options.scoring == "points":
        return {}
    return {"seat_values": {"coins": coins}, "values": {"coins_house": house}}


DOUDIZHU = Doudizhu()
