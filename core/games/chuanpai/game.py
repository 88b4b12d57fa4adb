"""川牌 Sichuan long cards, one hand refereed (spec rules/chuanpai.md); registered as ``chuanpai``.

Deal (2.3, 4.2, 4.3, 4.6, P-1, P-13, C-2). The deck (``cards.py``: ids 0..83, 84 cards; C-2
``deck = 84_plus_2_wild``: ids 0..85, 86 cards, ids 84 and 85 the third and fourth 3-point
cards) is shuffled by ``rng.Stream(deal_key, "deck")`` and dealt one card at a time in turn order from 头家 (16 to 头家,
15 to the others; 5-7 players: the extra players 5, 3 and 1 cards, ``deal.py``); the rest is
the stock, drawn from its top (``state.deck[state.pos:]``). The first 头家 of a match (4.2,
P-13): the players turn cards in seat order from ``Stream(deal_key, "toujia")``'s shuffle of the
deck, a 经牌 turned again, the highest points win, tied players turn again in the same order.
Later hands (the Match carry, ``Carry``): the winner shuffles; the second player after him
turns a card (the first natural card of ``Stream(deal_key, "cut")``'s shuffle) and, counting
from the turner as 1, the player reached at its points is 头家 (C-4 ``winner_leads``: the
winner). After a void hand (荒 6.2, or a violation 5.7/P-11) the same 头家 leads again (C-11
``next_toujia``: the next player). Seats run counter-clockwise as s -> s + 1 (C-6 ``clockwise``:
s -> s - 1); the 7th player is passed over.

Lay-down (4.4, 3.3-3.5, 5.4 c, P-5, P-10, P-12, P-14): the ``laydown`` phase
(``asking.AskInTurn``) asks the seats in turn order from 头家 that have a set to lay: LAY one set
(暗, 扛, 燕, the 3.5 sets, or a fourth card onto a laid 暗/碰; other copies of the listed cards
make the same set), then its replacement draws (偷牌: 1 per 暗/燕, 2 per 扛; C-5
``no_replacements``: none); the seat is asked again at once while it has a set; PASS ends its
turn and is refused (MUST_LAY) while a compulsory set is left. No win check during 4.4 (P-3);
after it every player is checked in turn order from 头家, then 头家 discards. The same phase
follows a take with replacement draws, or an extra player's kept card (5.3, P-8): the seat lays
what its draws completed, then discards.

Play (5.1-5.6). ``turn``: DISCARD one card, only an unpaired one (5.5, BREAKS_PAIR); an extra
player's turned card is his draw (4.6): KEEP it (then lay and discard) or DISCARD it as it is;
a player with an empty hand discards nothing and his 下家 turns (P-7). Every discard and every
turned card is offered in claim order (5.1: from the 下家 of the discarder or turner; the
discarder never, the turner last) in the ``claim`` window (``decisions.DecisionPhase``), which
asks only the seats that can use the card (P-2; nobody: the card is dead at once): PAIR (摆,
with a hand card or a 过 card), PENG (碰), GANG (扛: three in hand, or the fourth onto a laid
暗/碰), YAN (燕/起), WIN (和), PASS. A PASS the rules forbid is refused with MUST_TAKE naming the
rule (5.4 a/b/c, 5.6a, 3.5, 5.6; the fourth card onto a laid 暗/碰 as a 扛: 5.4 c by the hand's
齐头 table, P-10, or 3.5); a player obliged by 5.6 takes only with his 过 card (or wins
with it, P-6); a compulsory take that can win must win (P-9). Priority (5.2, C-8): 和 > 扛 >
碰/燕 > 摆 (C-9 ``qi_is_peng``: 燕 ranks as 摆; claims on a passing 经牌 rank as 摆), ties to the
first in claim order; a take after which the cards are complete is a win (P-9). An unused card
is dead and the 下家 of the discarder or turner turns the next (C-13). 过牌 (5.6, P-4, P-6): a
card passing a player (every offered player but the taker) while his hand holds no natural card
of a partner value flags its value (a 经牌 never; extra players are exempt); his next
replacement draw of a partner value is laid face down as a 过 card answering every flagged
value it partners, and may only 摆 a card of those values. Extra players (4.6, P-10) never 摆
and have no 5.4 a obligation; the 7th holds one card and takes no turn, card or claim.

End (6.1-6.3, 5.7). A player whose cards (hand and laid sets) are complete, with no unused 过
card, wins at once: on a take (WIN), after every draw and every set laid after a take (P-3:
not during 4.4). A card due from an empty
stock voids the hand (荒); replacement draws from an empty stock are skipped. ABANDON is the
violation of 5.7 (timeout, abandonment): the hand is void and the offender pays each other
player 1 (C-10 ``no_violation_penalty``: nobody pays). A win: each other player pays the winner
1 (6.3, C-12); the 7th player neither pays nor is paid. C-7 ``seventh_bonus = n``: once three
cards identical to the 7th player's card have been discarded or turned up (normally: an extra
player's drawn card does not count until he discards it), each other player pays him n,
whatever the outcome (P-8). Every settlement sums to zero.

Knowledge: hands are their seats'; laid sets face up, dead cards and the card on offer are
public; 过 cards lie face down (their owner's; the others see a ``guo`` meld without cards);
C-14 ``an_face_down``: laid 暗 are their owner's until the hand ends; an extra player's turned
card is his (his view's ``turned``); the stock is nobody's. When the hand ends the winner's hand
and every 暗 are shown; other hands stay hidden. A view's ``guo_pending`` counter (the flagged
values) is the viewer's own.

Legal actions, in this order: laydown: PASS (when no set is compulsory), then each LAY; turn:
DISCARD once per discardable kind (its lowest id), or KEEP and DISCARD of the turned card;
claim: PASS (when allowed), PAIR per hand kind then per 过 card, PENG, GANG (from the hand, then
onto each laid set), YAN, WIN. State: hands are bitmasks, laid sets bytes (kind, source + 1,
ids), the deck bytes; the codec declarations bound every field.

The 86-card deck (C-2 ``84_plus_2_wild``, 2.3, P-12): the 3.5 family is {经牌, 3-point cards}
with four natural 3-point cards; three natural 3-point cards are an optional 暗 (like {经, 3, 3});
a 碰 of a passing 3 with two natural 3s is optional too (3.5 governs the family, 5.4 c; only 5.4 a
can oblige it); any four of the family are a compulsory 扛 (in hand, three in hand and the fourth
passing, or the fourth onto a laid 暗/碰); {经, 经, 3} is no triple (neither laid, 碰 nor part of
a complete hand, 6.1). Every other rule is the default deck's.

Left open and noted:
- No mutation triage by ``make mutate`` yet.
- Whether a claim window opens at all tells the table that somebody can use the card (as in
  mahjong's claims); who was asked is not told.
- A declined optional set is offered again only after a new draw of its owner.
- Choices the spec leaves open: with ``qi_is_peng`` a 燕 with a passing 7 stays compulsory
  (5.6a); the 7th player is counted when a turned card picks the next 头家 (4.2).
- A hand-run mutation pass (not ``make mutate``, before the 86-card deck) left four survivors:
  the PENG of a passing 3 with two natural 3s in hand (impossible with two 3-point cards; the
  86-card deck's tests now pin it), and three equivalent ones: ``obligation``'s guard for a
  reason with no take (every reason implies a take), the lay-down signature's {3, 经, 经} check
  (one 经 in a three-card option leaves none to name, in either deck), and ``_seat_view``'s
  winner clause for 过 cards (a winner has none).
"""
from __future__ import annotations

from typing import Annotated, NamedTuple

from ... import rng
from ...asking import Ask, AskInTurn
from ...cards import from_mask, to_mask
from ...codec import Blob, Choice, Index, Int, Mask, OneOf, Seq, Small
from ...decisions import DecisionPhase, Window
from ...errors import Reason
from ...game import (ABANDON, COMMON_KINDS, PASS, Action, ActionKind, Combo, DealKey, Event, EventType, Finished,
                     Game, Knowledge, Match, Meld, Moves, SeatView, Settlement, Verdict, View, held)
from . import analysis as an
from .cards import JING, KIND_TEXT, NOTATION, NUM_KINDS, POINTS, SEVENS, THREE, deck_ids
from .deal import Options, checked_options, deal as deal_cards, hand_sizes, turn_order

LAYDOWN, TURN, CLAIM, FINISHED = range(4)
PLAYING, WON, VOID, VIOLATION = range(4)
OUTCOME_NAMES = ("", "won", "void", "violation")

# the game's action kinds (PASS and ABANDON are common)
LAY, DISCARD, KEEP = "LAY", "DISCARD", "KEEP"
PAIR, PENG, GANG, YAN, WIN = "PAIR", "PENG", "GANG", "YAN", "WIN"
TAKES = (PAIR, PENG, GANG, YAN)

# meld kinds: a laid meld is bytes (kind, source seat + 1 (0: from the hand), card ids...)
PAIR_M, AN_M, PENG_M, GANG_M, YAN_M = range(5)
MELD_NAMES = ("pair", "an", "peng", "gang", "yan")
TAKE_MELD = {PAIR: PAIR_M, PENG: PENG_M, GANG: GANG_M, YAN: YAN_M}

MUST_TAKE, MUST_LAY, BREAKS_PAIR, NOT_COMPLETE = "MUST_TAKE", "MUST_LAY", "BREAKS_PAIR", "NOT_COMPLETE"
TURNED_ONLY = "TURNED_ONLY"
RULE_TEXT = {"5.4 a": "rule 5.4 a: the card raises your pairs M(H)",
             "5.4 b": "rule 5.4 b: you hold two identical cards not both paired (碰)",
             "5.4 c": "rule 5.4 c: 齐头 makes the 碰/扛 compulsory",
             "5.6a": "rule 5.6a: 起 is compulsory like 碰 (two unpaired 7s)",
             "3.5": "rule 3.5: three of {经牌, 3-point cards} must 扛 the fourth",
             "5.6": "rule 5.6: take it with your 过 card",
             "P-9": "P-9: the take is compulsory and a take wins: the win may not be declined"}

KIND_OF = NOTATION.kind_of
KIND_MASK = NOTATION.rank_masks
CARD_COUNT = NOTATION.id_count
MAX_MELDS = CARD_COUNT // 2  # every laid card in one meld of two cards or more
VALUES_MASK = (1 << 13) - 1  # 过 trigger values 2..12 as bits


class Carry(NamedTuple):
    """What a hand carries into the next one (4.2, 6.2, C-4, C-11): ``seat`` is 头家 when
    ``by_turn`` is False (a void hand, or ``winner_leads``), else the winner, from whom a turned
    card picks 头家 in the next deal."""

    seat: Annotated[int, Index("seats", 0)]
    by_turn: bool = False


class GuoCard(NamedTuple):
    """A 过 card laid face down (5.6): the card and the trigger values it answered (bits 2..12)."""

    card: Annotated[int, Index("cards", 0)]
    values: Annotated[int, Int(0, VALUES_MASK)]


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    toujia: int
    deck: bytes  # the shuffled deck, top first; the stock is deck[pos:]
    pos: int
    hands: tuple[int, ...]  # per seat, a mask of card ids
    melds: tuple[tuple[bytes, ...], ...]  # per seat, laid sets (see PAIR_M)
    guo: tuple[tuple[GuoCard, ...], ...]  # per seat, face-down 过 cards
    pending: tuple[int, ...]  # per seat, flagged 过 trigger values (bits), P-6
    dead: tuple[bytes, ...]  # per seat, its dead discards and turned cards
    phase: int
    to_act: tuple[int, ...]
    asking: tuple[Ask, ...] = ()  # lay-down: the seats still to lay, in turn (task 0: 4.4, 1: after a take)
    turn: int = -1  # seat on turn; in a window the discarder or turner; -1 during 4.4
    card: int = -1  # the card on offer, or on turn an extra player's turned card (his draw)
    turned: bool = False  # the card on offer was turned up (not discarded)
    window: Window = Window()
    winner: int = -1
    outcome: int = PLAYING
    offender: int = -1
    seen: int = 0  # cards identical to the 7th player's card discarded or turned up (C-7)
    step: int = 0

    @property
    def num_seats(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


class _Table:
    """A mutable copy of a State while an action is applied (per-seat tables as lists)."""

    def __init__(self, state: State):
        self.__dict__.update(zip(State._fields, state))
        for name in ("hands", "melds", "guo", "pending", "dead"):
            setattr(self, name, list(getattr(state, name)))

    @property
    def num_seats(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    def freeze(self) -> State:
        values = self.__dict__
        for name in ("hands", "melds", "guo", "pending", "dead"):
            values[name] = tuple(values[name])
        return State._make(map(values.__getitem__, State._fields))


# --- seats -----------------------------------------------------------------------------------------

def _step(t) -> int:
    return -1 if t.options.clockwise else 1


def position(t, seat: int) -> int:
    """The seat's place in turn order from 头家 (0 = 头家; 4.. the extra players, 4.6)."""
    return (seat - t.toujia) * _step(t) % t.num_seats


def is_extra(t, seat: int) -> bool:
    """Players 5-7 (4.6): no 摆, no 5.4 a obligation, no 过."""
    return position(t, seat) >= 4


def seventh(t) -> int:
    """The 7th player's seat (4.6), or -1."""
    return (t.toujia + 6 * _step(t)) % 7 if t.num_seats == 7 else -1


def playing_order(t, first: int) -> tuple[int, ...]:
    """Every seat but the 7th player, in turn order from ``first`` (4.5)."""
    return tuple(s for s in turn_order(first, t.num_seats, t.options.clockwise) if s != seventh(t))


def next_seat(t, seat: int) -> int:
    """The 下家 (the 7th player is passed over, 4.6)."""
    return playing_order(t, seat)[1]


def claim_order(t, seat: int, turned: bool) -> tuple[int, ...]:
    """5.1: from the 下家 of the discarder or turner; a discarder is never offered his discard, a
    turner is offered his turned card last."""
    order = playing_order(t, seat)
    return order[1:] + (seat,) if turned else order[1:]


# --- cards -----------------------------------------------------------------------------------------

def counts(mask: int) -> list[int]:
    out = [0] * NUM_KINDS
    for c in from_mask(mask):
        out[KIND_OF[c]] += 1
    return out


def lowest(mask: int, kind: int, n: int = 1) -> tuple[int, ...]:
    return from_mask(mask & KIND_MASK[kind])[:n]


def stock_left(t) -> int:
    return len(t.deck) - t.pos


def _meld(kind: int, source: int, cards) -> bytes:
    return bytes((kind, source + 1) + tuple(sorted(cards)))


def meld_kind(meld: bytes) -> int:
    return meld[0]


def meld_source(meld: bytes) -> int:
    return meld[1] - 1


def meld_cards(meld: bytes) -> tuple[int, ...]:
    return tuple(meld[2:])


def _same_class(t, kind: int, other: int) -> bool:
    """3.3/3.5: ``kind`` and ``other`` make one set: identical, or both of {经牌, 3-point cards}."""
    if an.is_three_set(kind) or an.is_three_set(other):
        return an.is_three_set(kind) and an.is_three_set(other)
    return an.identical(kind, other, t.options.same_points)


def _pairs_with(kind: int, other: int) -> bool:
    """3.1-3.2: two cards that pair (10 or 20 points; a 经牌 with any natural card)."""
    if kind in JING or other in JING:
        return (kind in JING) != (other in JING)
    return POINTS[kind] + POINTS[other] in (10, 20)


def _values_bits(values) -> int:
    bits = 0
    for v in values:
        bits |= 1 << v
    return bits


def _bits_values(bits: int) -> frozenset[int]:
    return frozenset(v for v in range(13) if bits >> v & 1)


def complete(t, seat: int) -> bool:
    """6.1: the seat's cards are complete (laid sets are; the hand splits into sets) and no
    unused 过 card is left; the 7th player never wins."""
    if seat == seventh(t) or t.guo[seat]:
        return False
    return an.is_complete(counts(t.hands[seat]), t.options.same_points)


# --- lay-down (4.4) --------------------------------------------------------------------------------

def lay_options(t, seat: int) -> list[tuple[tuple[int, ...], bool, int]]:
    """The sets the seat can lay now: (card ids, compulsory, index of the laid 暗/碰 it makes a
    扛 of or -1). Sets in hand from ``analysis.laydown_sets`` (the lowest ids of their kinds),
    then a fourth card onto a laid 暗 or 碰 (3.3), compulsory as a 扛 (5.4 c: by the 齐头 table of
    the hand, P-10; 5, 7, 10 and 3.5 always)."""
    if seat == seventh(t):
        return []
    hand = t.hands[seat]
    c = counts(hand)
    out = []
    for kinds, compulsory in an.laydown_sets(c, t.options.same_points):
        picked, mask = [], hand
        for k in kinds:
            card = lowest(mask, k)[0]
            picked.append(card)
            mask &= ~(1 << card)
        cards = tuple(sorted(picked))
        same = [i for i, o in enumerate(out) if o[0] == cards]  # same_points: three 7s are 暗 and 燕
        if same:
            out[same[0]] = (cards, out[same[0]][1] or compulsory, -1)
        else:
            out.append((cards, compulsory, -1))
    for i, meld in enumerate(t.melds[seat]):
        if meld_kind(meld) not in (AN_M, PENG_M):
            continue
        base = KIND_OF[meld[2]]
        for k in range(NUM_KINDS):
            if c[k] and _same_class(t, base, k):
                cards = lowest(hand, k)
                # a fourth card for two laid sets of one class (same_points: an 暗 and a 碰 of nine
                # points) is one choice, onto the first, as check resolves it (3.3); equal points,
                # the same compulsion
                if all(o[0] != cards for o in out):
                    qitou = an.qitou_compulsory(c, POINTS[base]) if not an.is_three_set(base) else None
                    out.append((cards, True if qitou is None else qitou, i))
                break
    return out


def lay_actions(state: State, ask: Ask):
    options = lay_options(state, ask.seat)
    out = [(Action(ask.seat, LAY, cards), _set_combo(cards, AN_M if len(cards) == 3 and i < 0 else GANG_M))
           for cards, _, i in options]
    if not any(compulsory for _, compulsory, _ in options):
        out.insert(0, (Action(ask.seat, PASS), None))
    return out


def _set_combo(cards, mkind: int) -> Combo:
    kinds = tuple(sorted(KIND_OF[c] for c in cards))
    if mkind == AN_M and kinds == SEVENS:
        mkind = YAN_M
    return Combo(MELD_NAMES[mkind], kinds[0], 1, len(kinds), kinds, MELD_NAMES[mkind])


def _match(options, action: Action, cards_of):
    """The option an action names exactly (its card ids as a set, or its ranks as kinds), or the
    first when it names none."""
    for option in options:
        cards = cards_of(option)
        if action.cards:
            if sorted(action.cards) == sorted(cards):
                return option
        elif action.ranks:
            if sorted(action.ranks) == sorted(KIND_OF[c] for c in cards):
                return option
        else:
            return option
    return None


def _class_key(t, kind: int) -> int:
    """One key per identity class (3.3, C-3; the 3.5 family is one class)."""
    if an.is_three_set(kind):
        return -1
    return 100 + POINTS[kind] if t.options.same_points else kind


def _lay_signature(t, cards) -> tuple | None:
    """What makes two sets the same lay-down choice: a 燕, or the size and identity class of a
    set of one class (P-12: a triple of the 3.5 family holds one 经牌 at most)."""
    kinds = sorted(KIND_OF[c] for c in cards)
    if tuple(kinds) == SEVENS:  # under same_points too: other three 7s are an 暗, never the 燕 (P-5)
        return ("yan",)
    if not all(_same_class(t, kinds[0], k) for k in kinds):
        return None
    if an.is_three_set(kinds[0]) and len(kinds) == 3 and sum(k in JING for k in kinds) > 1:
        return None
    return (len(kinds), _class_key(t, kinds[0]))


def check_lay(state: State, action: Action, ask: Ask) -> Verdict:
    options = lay_options(state, ask.seat)
    if action.kind == PASS:
        forced = [cards for cards, compulsory, _ in options if compulsory]
        if forced:
            return Verdict.no(MUST_LAY, f"rule 4.4 (5.4 c, 3.5): lay {NOTATION.format_cards(forced[0])} first")
        return Verdict.ok("done laying down", action=Action(ask.seat, PASS))
    option = _match(options, action, lambda o: o[0])
    if option is None:  # other copies of an option's cards: the same set
        mask = held(state.hands[ask.seat], action, NOTATION)
        if type(mask) is Verdict:
            return mask
        cards = from_mask(mask)
        signature = _lay_signature(state, cards)
        option = next(((cards, o[1], o[2]) for o in options if signature and _lay_signature(state, o[0]) == signature),
                      None)
    if option is None:
        return Verdict.no(Reason.NOT_A_COMBINATION, "no set to lay with those cards (暗, 扛, 燕, or a "
                                                    "fourth card onto a laid 暗/碰)")
    return Verdict.ok("lay", action=Action(ask.seat, LAY, option[0]), detail=option)


def answer_lay(state: State, action: Action, verdict: Verdict, ask: Ask, events: list) -> State:
    if action.kind == PASS:
        return state
    t = _Table(state)
    seat = ask.seat
    cards, _, index = verdict.detail
    for c in cards:
        t.hands[seat] &= ~(1 << c)
    melds = list(t.melds[seat])
    if index >= 0:  # a fourth card onto a laid 暗/碰 (3.3)
        old = melds[index]
        melds[index] = _meld(GANG_M, meld_source(old), meld_cards(old) + cards)
        laid = melds[index]
    else:
        kinds = tuple(sorted(KIND_OF[c] for c in cards))
        laid = _meld(GANG_M if len(cards) == 4 else YAN_M if kinds == SEVENS else AN_M, -1, cards)
        melds.append(laid)
    t.melds[seat] = tuple(melds)
    shown = () if meld_kind(laid) == AN_M and t.options.an_face_down else meld_cards(laid)
    events.append(Event("LAY", seat, shown, values={"meld": meld_kind(laid)}))
    draws = 0 if t.options.no_replacements else 2 if meld_kind(laid) == GANG_M else 1  # 4.4, C-5
    if ask.task == 1 and complete(t, seat):  # 6.1: complete at once (not during 4.4, P-3)
        _win(t, seat, -1, events)
        return t.freeze()
    for _ in range(draws):
        _draw(t, seat, events, check_win=ask.task == 1)
        if t.finished:
            break
    if not t.finished and lay_options(t, seat):  # 4.4: until no new set appears, then the next
        t.asking = (ask,) + t.asking
    return t.freeze()


def lay_stop(state: State) -> bool:
    return state.finished


def resolve_lay(state: State, events: list) -> State:
    if state.finished:
        return state
    t = _Table(state)
    if t.turn < 0:
        _laydown_done(t, events)
    else:
        _start_turn(t, t.turn, events)
    return t.freeze()


# --- the flow on a table --------------------------------------------------------------------------

def _open_laydown(t: _Table, seats, task: int, events: list) -> None:
    queue = tuple(Ask(s, task) for s in seats if lay_options(t, s))
    if queue:
        t.phase, t.asking, t.to_act = LAYDOWN, queue, (queue[0].seat,)
    elif task == 0:
        _laydown_done(t, events)
    else:
        _start_turn(t, t.turn, events)


def _laydown_done(t: _Table, events: list) -> None:
    """P-3: when 4.4 is over, every player is checked in turn order from 头家; then 头家 discards."""
    for s in playing_order(t, t.toujia):
        if complete(t, s):
            _win(t, s, -1, events)
            return
    _start_turn(t, t.toujia, events)


def _start_turn(t: _Table, seat: int, events: list) -> None:
    """The seat discards; P-7: with an empty hand he discards nothing and his 下家 turns."""
    t.window, t.card, t.turned, t.asking = Window(), -1, False, ()
    if not t.hands[seat]:
        _turn_up(t, next_seat(t, seat), events)
        return
    t.phase, t.to_act, t.turn = TURN, (seat,), seat


def _count_seventh(t: _Table, card: int) -> None:
    s7 = seventh(t)
    if s7 >= 0:
        own = from_mask(t.hands[s7])
        if own and _seen_identical(t, KIND_OF[own[0]], KIND_OF[card]):
            t.seen += 1


def _seen_identical(t, kind: int, other: int) -> bool:
    return an.identical(kind, other, t.options.same_points)


def _turn_up(t: _Table, seat: int, events: list) -> None:
    """5.1: ``seat`` turns the stock's top card; 6.2: from an empty stock the hand is void. An
    extra player's turned card is his draw (4.6, P-8)."""
    t.window, t.asking = Window(), ()
    if stock_left(t) == 0:
        t.phase, t.to_act, t.outcome, t.card, t.turn = FINISHED, (), VOID, -1, seat
        events.append(Event("VOID", seat))
        return
    card = t.deck[t.pos]
    t.pos += 1
    if is_extra(t, seat):
        t.phase, t.to_act, t.turn, t.card, t.turned = TURN, (seat,), seat, card, False
        events.append(Event("TURN", seat, (card,), values={"extra": 1, "stock": stock_left(t)}))
        return
    _count_seventh(t, card)
    events.append(Event("TURN", seat, (card,), values={"extra": 0, "stock": stock_left(t)}))
    _offer(t, seat, card, True, events)


def _offer(t: _Table, seat: int, card: int, turned: bool, events: list) -> None:
    """5.1, P-2: the seats that can use the card are asked at once; nobody: the card is dead."""
    t.turn, t.card, t.turned = seat, card, turned
    asked = tuple(s for s in claim_order(t, seat, turned) if take_options(t, s))
    if asked:
        t.phase, t.window, t.to_act = CLAIM, Window.open(asked), asked
        events.append(Event("OFFER", seat, (card,), values={"turned": int(turned)}))
        return
    t.window = Window()
    _close(t, events)


def _draw(t: _Table, seat: int, events: list, check_win: bool) -> None:
    """A replacement draw (4.4, 5.3): skipped from an empty stock (6.2); a card answering a
    flagged 过 value is laid face down (5.6, P-6); then a complete player wins at once (6.1)."""
    if stock_left(t) == 0:
        return
    card = t.deck[t.pos]
    t.pos += 1
    answered = an.guo_answers(_bits_values(t.pending[seat]), KIND_OF[card]) if not is_extra(t, seat) else ()
    if answered:
        bits = _values_bits(answered)
        t.guo[seat] = t.guo[seat] + (GuoCard(card, bits),)
        t.pending[seat] &= ~bits
        events.append(Event("GUO", seat, (card,), values={"values": bits, "stock": stock_left(t)}))
    else:
        t.hands[seat] |= 1 << card
        events.append(Event("DRAW", seat, (card,), values={"stock": stock_left(t)}))
    if check_win and complete(t, seat):
        _win(t, seat, -1, events)


def _win(t: _Table, seat: int, source: int, events: list) -> None:
    t.phase, t.to_act, t.winner, t.outcome, t.asking = FINISHED, (), seat, WON, ()
    t.window = Window()
    events.append(Event("WIN", seat, values={"from": source}))


def _passes(t: _Table, taker: int) -> None:
    """5.6, P-4: the card passes every offered player but the taker; with no natural card of a
    partner value in his hand, its value is flagged (a 经牌 never; extra players are exempt)."""
    kind = KIND_OF[t.card]
    for s in claim_order(t, t.turn, t.turned):
        if s != taker:
            value = an.guo_trigger(counts(t.hands[s]), kind, is_extra(t, s))
            if value is not None:
                t.pending[s] |= 1 << value


def _close(t: _Table, events: list) -> None:
    window = t.window
    best = window.best(lambda answer: _priority(t, answer)) if window.asked else None
    taker = best[0] if best else -1
    _passes(t, taker)
    if best is None:  # 5.1: the card is dead; the 下家 of the discarder or turner turns
        t.dead[t.turn] = t.dead[t.turn] + bytes((t.card,))
        events.append(Event("DEAD", t.turn, (t.card,)))
        _turn_up(t, next_seat(t, t.turn), events)
        return
    _take(t, taker, best[1], events)


def _take(t: _Table, seat: int, answer: tuple, events: list) -> None:
    card, source = t.card, t.turn
    t.window, t.card, t.turned = Window(), -1, False
    completes = answer[0] == WIN  # 和: the take (WIN, kind, cards...) leaves the cards complete
    kind, own = (answer[1], answer[2:]) if completes else (answer[0], answer[1:])
    melds = list(t.melds[seat])
    guo_ids = {g.card for g in t.guo[seat]}
    laid = None
    if kind == GANG:
        for i, meld in enumerate(melds):
            if meld_cards(meld) == tuple(sorted(own)):  # the fourth card onto a laid 暗/碰
                melds[i] = laid = _meld(GANG_M, source, meld_cards(meld) + (card,))
                break
    if laid is None:
        for c in own:
            if c in guo_ids:
                t.guo[seat] = tuple(g for g in t.guo[seat] if g.card != c)
            else:
                t.hands[seat] &= ~(1 << c)
        laid = _meld(TAKE_MELD[kind], source, own + (card,))
        melds.append(laid)
    t.melds[seat] = tuple(melds)
    events.append(Event(kind, seat, meld_cards(laid), values={"from": source, "claimed": card}))
    if completes:  # P-9: a take after which the cards are complete is a win
        _win(t, seat, source, events)
        return
    draws = 0 if kind == PAIR or t.options.no_replacements else 2 if kind == GANG else 1
    t.turn = seat
    for _ in range(draws):
        _draw(t, seat, events, check_win=True)
        if t.finished:
            return
    _open_laydown(t, (seat,), 1, events)


def _discard(t: _Table, seat: int, card: int, events: list) -> None:
    t.hands[seat] &= ~(1 << card)
    _count_seventh(t, card)
    events.append(Event("DISCARD", seat, (card,)))
    _offer(t, seat, card, False, events)


# --- claims (5.2-5.6) -----------------------------------------------------------------------------

def _guo_fits(g: GuoCard, kind: int) -> bool:
    return an.guo_obliges(_bits_values(g.values), kind)


def _priority(t, answer) -> int:
    """5.2, C-8, C-9, P-9: 和 > 扛 > 碰/燕 (起) > 摆; on a passing 经牌 every take ranks as 摆."""
    kind = answer[0]
    if kind == PASS:
        return 0
    if kind == WIN:
        return 4
    if KIND_OF[t.card] in JING:
        return 1
    if kind == YAN:
        return 1 if t.options.qi_is_peng else 2
    return {GANG: 3, PENG: 2, PAIR: 1}[kind]


def _rest_complete(t, seat: int, own) -> bool:
    """P-9: after taking with the hand cards ``own`` (过 cards among them leave the 过 pile), the
    seat's cards are complete."""
    guo_ids = {g.card for g in t.guo[seat]}
    used = sum(1 for c in own if c in guo_ids)
    if len(t.guo[seat]) - used:
        return False
    hand = t.hands[seat]
    for c in own:
        hand &= ~(1 << c)
    return an.is_complete(counts(hand), t.options.same_points)


def take_options(t, seat: int, all_takes: bool = False) -> list[tuple[Action, Combo]]:
    """The takes of the card on offer ``seat`` may make (5.3, 3.2-3.5), in legal-action order:
    PAIR (each hand kind it pairs, then each 过 card fitting it), PENG, GANG (three in hand, then
    each laid 暗/碰), YAN, WIN. A player obliged by 5.6 only takes with his 过 card (P-6), unless
    ``all_takes``."""
    if seat == seventh(t) or t.card < 0:
        return []
    card, kind = t.card, KIND_OF[t.card]
    hand = t.hands[seat]
    c = counts(hand)
    extra = is_extra(t, seat)
    guo = t.guo[seat]
    fitting = [g for g in guo if _guo_fits(g, kind)]
    restricted = bool(fitting) and not all_takes
    out: list[tuple[Action, Combo]] = []
    if not extra:
        if not restricted:
            for k in range(NUM_KINDS):
                if c[k] and _pairs_with(kind, k):
                    out.append((Action(seat, PAIR, lowest(hand, k)), _take_combo(PAIR_M, kind, lowest(hand, k))))
        for g in fitting:
            out.append((Action(seat, PAIR, (g.card,)), _take_combo(PAIR_M, kind, (g.card,))))
    if not restricted:
        same = [k for k in range(NUM_KINDS) if c[k] and _same_class(t, kind, k)]
        pool = [x for k in same for x in lowest(hand, k, 4)]
        if an.is_three_set(kind):
            # 3.5, P-12: a triple holds one 经牌 at most; any four of {经, 3} are a 扛
            naturals = [x for x in pool if KIND_OF[x] == THREE]
            jings = [x for x in pool if KIND_OF[x] in JING]
            if kind in JING:
                if len(naturals) >= 2:
                    out.append((Action(seat, PENG, tuple(naturals[:2])), _take_combo(PENG_M, kind, naturals[:2])))
            else:
                if len(naturals) >= 2:  # three natural 3-point cards: the 86-card deck only (P-12)
                    out.append((Action(seat, PENG, tuple(naturals[:2])), _take_combo(PENG_M, kind, naturals[:2])))
                if naturals and jings:
                    out.append((Action(seat, PENG, (naturals[0], jings[0])),
                                _take_combo(PENG_M, kind, (naturals[0], jings[0]))))
        elif len(pool) >= 2:
            out.append((Action(seat, PENG, tuple(pool[:2])), _take_combo(PENG_M, kind, pool[:2])))
        if len(pool) >= 3:
            out.append((Action(seat, GANG, tuple(pool[:3])), _take_combo(GANG_M, kind, pool[:3])))
        for meld in t.melds[seat]:
            if meld_kind(meld) in (AN_M, PENG_M) and _same_class(t, kind, KIND_OF[meld[2]]):
                out.append((Action(seat, GANG, meld_cards(meld)), _take_combo(GANG_M, kind, meld_cards(meld))))
        if an.yan_possible(c, kind):
            own = tuple(lowest(hand, k)[0] for k in SEVENS if k != kind)
            out.append((Action(seat, YAN, own), _take_combo(YAN_M, kind, own)))
    if _can_win(t, seat, out):
        out.append((Action(seat, WIN), Combo("win", kind, 1, 1, (kind,), "和")))
    return out


def _can_win(t, seat: int, takes) -> bool:
    """6.1, P-9: some take leaves the cards complete (extra players: never by 摆)."""
    return any(_completes(t, seat, action) for action, _ in takes)


def _take_combo(mkind: int, kind: int, cards) -> Combo:
    """A take described by its kinds: the card on offer's and those of the ``cards`` it joins
    (3.5, P-12: a 扛 of {3, 3, 3, 财神} names them, not four 财神)."""
    kinds = tuple(sorted((kind, *(KIND_OF[c] for c in cards))))
    return Combo(MELD_NAMES[mkind], kinds[0], 1, len(kinds), kinds, MELD_NAMES[mkind])


def obligation(t, seat: int) -> str | None:
    """Why the seat may not pass the card on offer (5.4 a-c, 5.6a, 3.5, 5.6), or None. Extra
    players have no 5.4 a obligation (P-10)."""
    kind = KIND_OF[t.card]
    if any(_guo_fits(g, kind) for g in t.guo[seat]):
        return "5.6"
    c = counts(t.hands[seat])
    reason = an.take_reason(c, kind, same_points=t.options.same_points, extra=is_extra(t, seat))
    if reason is None and _onto_laid(t, seat, kind):
        # the fourth card onto a laid 暗/碰 (3.3): a 扛, compulsory for 5, 7 and 10 and by the 齐头
        # table of the hand (5.4 c, P-10), always for the 3.5 family
        qitou = None if an.is_three_set(kind) else an.qitou_compulsory(c, POINTS[kind])
        if qitou is None or qitou:
            reason = "3.5" if an.is_three_set(kind) else "5.4 c"
    if reason and not take_options(t, seat):
        return None
    return reason


def _onto_laid(t, seat: int, kind: int) -> bool:
    return any(meld_kind(m) in (AN_M, PENG_M) and _same_class(t, kind, KIND_OF[m[2]]) for m in t.melds[seat])


def must_win(t, seat: int) -> bool:
    """P-9: declining a win is allowed unless the take is compulsory."""
    return bool(obligation(t, seat)) and _winning_take(t, seat) is not None


def claim_actions(state: State, seat: int):
    takes = take_options(state, seat)
    if must_win(state, seat):
        return [(a, c) for a, c in takes if a.kind == WIN or a.kind in TAKES and _completes(state, seat, a)]
    return takes if obligation(state, seat) else [(Action(seat, PASS), None)] + takes


def check_claim(state: State, action: Action) -> Verdict:
    seat = action.seat
    if action.kind == PASS:
        reason = obligation(state, seat)
        if reason:
            return Verdict.no(MUST_TAKE, f"{RULE_TEXT[reason]}: {NOTATION.format_cards((state.card,))}")
        return Verdict.ok("pass", action=Action(seat, PASS))
    options = [a for a, _ in take_options(state, seat) if a.kind == action.kind]
    if action.kind == WIN:
        take = _winning_take(state, seat) if options else None
        if take is None:
            return Verdict.no(NOT_COMPLETE, "rule 6.1: the card does not complete your cards")
        return Verdict.ok("和", action=Action(seat, WIN), detail=take)
    chosen = _match(options, action, lambda a: a.cards)
    if chosen is None and options and (action.cards or action.ranks):
        mask = held(state.hands[seat], action, NOTATION)
        if type(mask) is not Verdict and _valid_take(state, seat, action.kind, from_mask(mask), options):
            chosen = Action(seat, action.kind, from_mask(mask))
    if chosen is None and action.cards:  # the platform's reason for a card the seat does not have
        own = state.hands[seat] | to_mask(g.card for g in state.guo[seat])
        if action.kind == GANG:  # the fourth card onto a laid 暗/碰 names the laid cards
            own |= to_mask(c for m in state.melds[seat] for c in meld_cards(m))
        missing = [c for c in action.cards if not own >> c & 1]
        if missing:
            return Verdict.no(Reason.CARDS_NOT_IN_HAND, f"not in hand: {NOTATION.format_cards(tuple(missing))}")
    if chosen is None:
        every = [a for a, _ in take_options(state, seat, all_takes=True) if a.kind == action.kind]
        if _match(every, action, lambda a: a.cards) is not None:
            return Verdict.no(MUST_TAKE, RULE_TEXT["5.6"])
        if action.kind == PAIR and is_extra(state, seat):
            return Verdict.no(Reason.NOT_A_COMBINATION, "rule 4.6: players 5-7 may not 摆")
        return Verdict.no(Reason.NOT_A_COMBINATION,
                          f"no {action.kind} of {NOTATION.format_cards((state.card,))} with those cards")
    completes = _completes(state, seat, chosen)
    if not completes and must_win(state, seat):
        return Verdict.no(MUST_TAKE, RULE_TEXT["P-9"])
    return Verdict.ok(action.kind, action=chosen, detail=completes)


def _valid_take(t, seat: int, kind_name: str, cards, options) -> bool:
    """Hand cards other than the listed ones (other copies) that make the same take (3.1-3.5,
    P-12), when a take of that kind from the hand is listed."""
    hand = t.hands[seat]
    if not any(all(hand >> c & 1 for c in o.cards) for o in options):
        return False
    kind, kinds = KIND_OF[t.card], [KIND_OF[c] for c in cards]
    if kind_name == PAIR:
        return len(kinds) == 1 and _pairs_with(kind, kinds[0])
    if kind_name == YAN:
        return sorted(kinds + [kind]) == list(SEVENS)
    need = 2 if kind_name == PENG else 3
    if len(kinds) != need or not all(_same_class(t, kind, k) for k in kinds):
        return False
    return kind_name == GANG or not an.is_three_set(kind) or sum(k in JING for k in kinds + [kind]) <= 1


def _winning_take(t, seat: int) -> Action | None:
    """The first take (in legal-action order) after which the seat's cards are complete."""
    for action, _ in take_options(t, seat):
        if action.kind in TAKES and _completes(t, seat, action):
            return action
    return None


def _completes(t, seat: int, action: Action) -> bool:
    gang_onto = action.kind == GANG and not t.hands[seat] >> action.cards[0] & 1
    return _rest_complete(t, seat, () if gang_onto else action.cards)


def record_claim(verdict: Verdict, action: Action) -> tuple:
    """What a window keeps of an answer: (kind, cards...); a win, or a take after which the cards
    are complete (P-9), as (WIN, the take's kind, its cards...)."""
    if action.kind == WIN:
        return (WIN, verdict.detail.kind) + verdict.detail.cards
    if action.kind in TAKES and verdict.detail:
        return (WIN, action.kind) + action.cards
    return (action.kind,) + action.cards


def resolve_claim(state: State, events: list) -> State:
    t = _Table(state)
    _close(t, events)
    return t.freeze()


# --- the turn (5.1, 5.5, 4.6) -----------------------------------------------------------------------

def turn_actions(state: State, seat: int):
    if state.card >= 0:  # an extra player's turned card: keep it, or discard it
        return [(Action(seat, KEEP), None), (Action(seat, DISCARD, (state.card,)), None)]
    hand = state.hands[seat]
    return [(Action(seat, DISCARD, lowest(hand, k)), None) for k in an.discardable(counts(hand))]


def check_turn(state: State, action: Action) -> Verdict:
    seat = action.seat
    if action.kind == KEEP:
        if state.card < 0:
            return Verdict.no(Reason.WRONG_PHASE, "KEEP is an extra player's choice for his turned card (4.6)")
        return Verdict.ok("keep the turned card", action=Action(seat, KEEP))
    hand, turned = state.hands[seat], state.card
    if turned >= 0 and action.cards in ((), (turned,)) and action.ranks in ((), (KIND_OF[turned],)):
        return Verdict.ok("discard the turned card", action=Action(seat, DISCARD, (turned,)))
    if action.cards:
        if len(action.cards) != 1:
            return Verdict.no(Reason.BAD_ACTION, "a discard is one card")
        card = action.cards[0]
        if not hand >> card & 1:
            return Verdict.no(Reason.CARDS_NOT_IN_HAND, f"not in hand: {NOTATION.format_cards((card,))}")
    elif len(action.ranks) == 1:
        ids = lowest(hand, action.ranks[0])
        if not ids:
            return Verdict.no(Reason.CARDS_NOT_IN_HAND, f"hand lacks {KIND_TEXT[action.ranks[0]]}")
        card = ids[0]
    else:
        return Verdict.no(Reason.BAD_ACTION, "a discard is one card")
    if turned >= 0:  # a card of his hand, while his turned card waits: a rule broken, not a request malformed
        return Verdict.no(TURNED_ONLY, "rule 4.6: discard the turned card, or KEEP it and then discard")
    if KIND_OF[card] not in an.discardable(counts(hand)):
        return Verdict.no(BREAKS_PAIR, f"rule 5.5: {NOTATION.format_cards((card,))} is paired; discard an "
                                       "unpaired card")
    return Verdict.ok("discard", action=Action(seat, DISCARD, (card,)))


def apply_turn(state: State, action: Action, verdict: Verdict):
    t = _Table(state)
    events: list[Event] = []
    seat = action.seat
    if action.kind == KEEP:  # P-8: the kept card is a draw
        t.hands[seat] |= 1 << t.card
        t.card = -1
        events.append(Event("KEEP", seat))
        if complete(t, seat):
            _win(t, seat, -1, events)
        else:
            _open_laydown(t, (seat,), 1, events)
    else:
        _discard(t, seat, action.cards[0], events)
    return t.freeze(), events


# --- settlement -----------------------------------------------------------------------------------

def settle(state: State) -> Settlement:
    """6.3, 5.7, C-7, C-10, C-12: zero-sum."""
    n = state.num_seats
    points = [0] * n
    s7 = seventh(state)
    breakdown: list[tuple[str, int]] = [("toujia", state.toujia)]
    if state.outcome == WON:
        for s in range(n):
            if s not in (state.winner, s7):
                points[s] -= 1
                points[state.winner] += 1
        breakdown.append(("winner", state.winner))
    elif state.outcome == VIOLATION:
        breakdown.append(("offender", state.offender))
        if not state.options.no_violation_penalty:
            for s in range(n):
                if s != state.offender:
                    points[s] += 1
                    points[state.offender] -= 1
    if s7 >= 0 and state.options.seventh_bonus and state.seen >= 3:
        bonus = state.options.seventh_bonus
        for s in range(n):
            if s != s7:
                points[s] -= bonus
                points[s7] += bonus
        breakdown.append(("seventh_bonus", bonus * (n - 1)))
    winners = (state.winner,) if state.outcome == WON else ()
    return Settlement(tuple(points), winners, OUTCOME_NAMES[state.outcome], tuple(breakdown))


# --- 头家 (4.2, P-13) --------------------------------------------------------------------------------

def first_toujia(sequence, seats: int) -> int:
    """P-13: the players turn cards in seat order from ``sequence``; a 经牌 is turned again; the
    highest points win; tied players turn again in the same order."""
    cards = iter(sequence)
    players = list(range(seats))
    while True:
        turned = {}
        for s in players:
            card = next(cards, None)
            while card is not None and KIND_OF[card] in JING:
                card = next(cards, None)
            if card is None:  # the sequence ran out (two players tied to its end): the first of them
                return players[0]
            turned[s] = POINTS[KIND_OF[card]]
        top = max(turned.values())
        players = [s for s in players if turned[s] == top]
        if len(players) == 1:
            return players[0]


def counted_toujia(winner: int, sequence, seats: int, clockwise: bool) -> int:
    """4.2: the second player after the winner turns a card (a 经牌 turned again); counting from
    the turner as 1, the player reached at its points is 头家."""
    step = -1 if clockwise else 1
    card = next(c for c in sequence if KIND_OF[c] not in JING)
    turner = (winner + 2 * step) % seats
    return (turner + step * (POINTS[KIND_OF[card]] - 1)) % seats


class Chuanpai(Game):
    id = "chuanpai"
    name = "川牌 Sichuan long cards"
    min_seats, max_seats, default_seats = 2, 7, 4
    notation = NOTATION
    Options = Options
    presets = {"84_plus_2_wild": Options(deck="84_plus_2_wild")}  # C-2's 86-card deck (2.3, P-12)
    phases = (AskInTurn("laydown", (LAY, PASS), legal=lay_actions, check=check_lay, answer=answer_lay,
                        resolve=resolve_lay, stop=lay_stop),
              Moves("turn", (DISCARD, KEEP), legal=turn_actions, check=check_turn, apply=apply_turn),
              DecisionPhase("claim", (PASS, PAIR, PENG, GANG, YAN, WIN), check=check_claim, legal=claim_actions,
                            resolve=resolve_claim, record=record_claim),
              Finished())
    State = State
    state_fields = {
        "match.carry": Carry | None, "toujia": Index("seats", 0), "deck": Blob("cards"),
        "pos": Int(0, CARD_COUNT), "hands": Seq(Mask, "seats"),
        "melds": Seq(Seq(Blob(6), MAX_MELDS), "seats", total=MAX_MELDS),
        "guo": Seq(Seq(GuoCard, MAX_MELDS), "seats", total=MAX_MELDS),
        "pending": Seq(Int(0, VALUES_MASK), "seats"), "dead": Seq(Blob("cards"), "seats", total="cards"),
        "phase": Index(4, 0), "to_act": Seq(Index("seats", 0), "seats"), "asking": Seq(Ask, "seats"),
        "turn": Index("seats"), "card": Index("cards"),
        "window.answers": Seq(OneOf(None, Seq(OneOf(Choice(PASS, PAIR, PENG, GANG, YAN, WIN), Index("cards", 0)),
                                                  5)), "seats"),
        "winner": Index("seats"), "outcome": Index(len(OUTCOME_NAMES), 0), "offender": Index("seats"),
        "seen": Int(0, CARD_COUNT), "step": Small}
    action_kinds = (
        ActionKind(LAY, "lay down a set (4.4): 暗, 扛, 燕, or a fourth card onto a laid 暗/碰 (name its cards)",
                   ("cards",)),
        ActionKind(DISCARD, "discard one unpaired card (5.5); an extra player's turned card may be "
                            "discarded as it is (4.6)", ("cards",)),
        ActionKind(KEEP, "an extra player keeps his turned card (4.6, P-8), then discards"),
        ActionKind(PAIR, "摆: pair the card on offer with a hand card or a 过 card (name it)", ("cards",)),
        ActionKind(PENG, "碰: three identical cards with two from the hand", ("cards",)),
        ActionKind(GANG, "扛: the fourth card, with three in hand or onto a laid 暗/碰 (name its cards)", ("cards",)),
        ActionKind(YAN, "燕 (起): complete a 燕 with the two other 7-point cards in hand", ("cards",)),
        ActionKind(WIN, "和: the card on offer completes your cards"),
        COMMON_KINDS[PASS], COMMON_KINDS[ABANDON])
    reasons = {MUST_TAKE: "the rules oblige you to take the card (5.4 a-c, 5.6a, 3.5), or to take it with "
                          "your 过 card (5.6); the message names the rule",
               MUST_LAY: "a compulsory set is still to be laid down (4.4, 5.4 c, 3.5)",
               BREAKS_PAIR: "only an unpaired card may be discarded (5.5)",
               TURNED_ONLY: "an extra player with a turned card keeps it or discards that card, no other (4.6)",
               NOT_COMPLETE: "the card does not complete your cards (6.1)"}
    counters = {"stock": "cards left in the stock", "toujia": "头家's seat", "turn": "the seat on turn; in a "
                "claim window the discarder or turner", "round": "hands of the match before this one",
                "winner": "the winner's seat, -1", "guo_pending": "the viewer's own flagged 过 values (bits 2..12)",
                "seventh_seen": "cards identical to the 7th player's card passed so far (7 seats)"}
    seat_counters = {"guo": "face-down 过 cards (5.6)"}
    seat_cards = {"dead": "the seat's dead discards and turned cards",
                  "turned": "an extra player's own turned card, in his own view (4.6)",
                  "hand": "the winner's hand, once the hand is won"}
    public_cards = {"offered": "the card on offer in a claim window"}
    roles = {"toujia": "头家, the first player", "extra": "the 5th or 6th player (4.6)",
             "seventh": "the 7th player: one card, no turn (4.6)"}
    meld_kinds = {"pair": "摆 a pair of 10 or 20 points", "an": "暗 three identical cards from the hand",
                  "peng": "碰 three identical cards with a passing card", "gang": "扛 four identical cards",
                  "yan": "燕 the three 7-point cards", "guo": "a face-down 过 card (5.6)"}
    combination_kinds = {**{name: f"a {name} laid or claimed" for name in MELD_NAMES},
                         "win": "和 (main: the winning card's kind)"}
    outcomes = {"won": "a player won (和, 6.1)", "void": "荒: the stock ran out (6.2)",
                "violation": "a violation voided the hand (5.7): a seat left or timed out"}
    breakdown = {"toujia": "头家's seat", "winner": "the winning seat; each other player (not the 7th) pays 1",
                 "offender": "the seat that broke the rules (5.7)",
                 "seventh_bonus": "what the 7th player collects (C-7)"}
    deal_cards = {
        "seat": DealKey("the seat's dealt cards in deal order (P-1)", per_seat=True),
        "stock": DealKey("the cards not dealt, top first"),
    }
    deal_values = {
        "toujia": "头家 of the hand (4.2)",
    }
    event_types = {
        "DEAL": EventType("the seat's cards (private)", private_cards=True),
        "TOUJIA": EventType("头家 of the hand (4.2)", {"toujia": "the seat"}),
        "LAY": EventType("a set laid down (4.4); a face-down 暗 shows no cards", {"meld": "0..4 pair an peng gang yan"}),
        "DRAW": EventType("a replacement draw 偷牌 (private)", {"stock": "cards left"}, private_cards=True),
        "GUO": EventType("a drawn card laid face down as a 过 card (5.6; private)",
                         {"values": "the flagged values it answers (bits)", "stock": "cards left"},
                         private_cards=True),
        "DISCARD": EventType("a discard"),
        "TURN": EventType("a stock card turned up (an extra player's is his, private)",
                          {"extra": "1: an extra player's own card", "stock": "cards left"}, private_cards=True),
        "KEEP": EventType("an extra player kept his turned card"),
        "OFFER": EventType("the card is offered (who is asked is not told)", {"turned": "1: a turned card"}),
        "DEAD": EventType("nobody used the card"),
        **{k: EventType(f"{k} taken", {"from": "the discarder or turner", "claimed": "the card taken"})
           for k in TAKES},
        "WIN": EventType("和", {"from": "the discarder or turner, -1 on a draw"}),
        "VOID": EventType("荒: a card must be turned and the stock is empty (6.2)"),
        "ABANDON": EventType("a seat left: the hand is void (5.7)"),
    }

    def _deal(self, options: Options, seed: bytes, entropy: bytes, seats: int, match: Match) -> State:
        checked_options(options, seats)
        key = rng.deal_key(seed, entropy)
        ids = deck_ids(options.deck)  # C-2: 0..83, or 0..85 with 84_plus_2_wild
        carry = match.carry
        if carry is None:
            toujia = first_toujia(rng.Stream(key, "toujia").shuffle(ids), seats)
        elif carry.by_turn:
            toujia = counted_toujia(carry.seat, rng.Stream(key, "cut").shuffle(ids), seats, options.clockwise)
        else:
            toujia = carry.seat
        deck = bytes(rng.Stream(key, "deck").shuffle(ids))
        return self.deal_from(options, deck, toujia, seats, match, seed, entropy)

    def deal_from(self, options: Options, deck: bytes, toujia: int, seats: int, match: Match | None = None,
                  seed: bytes = b"", entropy: bytes = b"") -> State:
        """The hand dealt from ``deck`` (top first) with ``toujia`` (tests and verifiers): the
        deal (P-1), then the lay-down (4.4)."""
        hands, _ = deal_cards(deck, toujia, seats, options.clockwise)
        masks = tuple(sum(1 << c for c in h) for h in hands)
        state = State(options, seed, entropy, match or Match(0, (0,) * seats), toujia, bytes(deck),
                      sum(hand_sizes(seats)), masks, ((),) * seats, ((),) * seats, (0,) * seats,
                      (b"",) * seats, LAYDOWN, ())
        t = _Table(state)
        _open_laydown(t, playing_order(t, toujia), 0, [])
        return t.freeze()

    def deal_events(self, state: State) -> list[Event]:
        hands, _ = deal_cards(state.deck, state.toujia, state.num_seats, state.options.clockwise)
        events = [Event("DEAL", s, hands[s]) for s in range(state.num_seats)]
        events.append(Event("TOUJIA", state.toujia, values={"toujia": state.toujia}))
        if state.winner >= 0:  # P-3: complete at once, nobody having a set to lay
            events.append(Event("WIN", state.winner, values={"from": -1}))
        return events

    def _carry(self, finished: State) -> Carry:
        """4.2, 6.2, C-4, C-11, P-11."""
        if finished.outcome == WON:
            return Carry(finished.winner, not finished.options.winner_leads)
        if finished.options.next_toujia:
            return Carry(next_seat(finished, finished.toujia))
        return Carry(finished.toujia)

    def _abandon(self, state: State, seat: int):
        """5.7: a violation (abandonment, timeout) voids the hand."""
        return (state._replace(phase=FINISHED, to_act=(), asking=(), outcome=VIOLATION, offender=seat),
                [Event("ABANDON", seat)])

    def _settle(self, state: State) -> Settlement:
        return settle(state)

    # --- cards, knowledge, views ---------------------------------------------------------------
    def dealt(self, state: State):
        """The deck as shuffled: each seat's dealt cards in deal order (P-1) and the stock, top
        first; 头家."""
        hands, stock = deal_cards(state.deck, state.toujia, state.num_seats, state.options.clockwise)
        cards = {f"seat{s}": tuple(h) for s, h in enumerate(hands)}
        cards["stock"] = tuple(stock)
        return cards, {"toujia": state.toujia}

    def all_cards(self, state: State):
        """The deck's cards (C-2): ids 0..83, or 0..85 with ``84_plus_2_wild``."""
        return deck_ids(state.options.deck)

    def card_zones(self, state: State):
        zones = {"stock": tuple(state.deck[state.pos:])}
        for s in range(state.num_seats):
            zones[f"hand{s}"] = from_mask(state.hands[s])
            zones[f"melds{s}"] = tuple(c for m in state.melds[s] for c in meld_cards(m))
            zones[f"guo{s}"] = tuple(g.card for g in state.guo[s])
            zones[f"dead{s}"] = tuple(state.dead[s])
        zones["card"] = (state.card,) if state.card >= 0 else ()
        return zones

    def knowledge(self, state: State) -> Knowledge:
        over = state.finished
        public = 0
        seats = []
        for s in range(state.num_seats):
            own = state.hands[s]
            for c in state.dead[s]:
                public |= 1 << c
            for m in state.melds[s]:
                mask = sum(1 << c for c in meld_cards(m))
                if meld_kind(m) == AN_M and state.options.an_face_down and not over:
                    own |= mask
                else:
                    public |= mask
            for g in state.guo[s]:
                own |= 1 << g.card
            if s == state.winner:
                public |= own
            seats.append(own)
        if state.card >= 0:
            if state.window.asked:  # on offer (still public when the hand ended during the window)
                public |= 1 << state.card
            else:
                seats[state.turn] |= 1 << state.card
        return Knowledge(public, tuple(seats))

    def _views(self, state: State, seats) -> list[View]:
        over = state.finished
        counters = {"stock": stock_left(state), "toujia": state.toujia, "turn": state.turn,
                    "round": state.match.round, "winner": state.winner}
        if seventh(state) >= 0:
            counters["seventh_seen"] = state.seen
        public = {"offered": (state.card,)} if state.phase == CLAIM else {}
        table_cards = (state.card,) if state.phase == CLAIM else ()
        table_seat = state.turn if table_cards else -1
        others = tuple(_seat_view(state, s, False) for s in range(state.num_seats))
        phase = self.phases[state.phase].name
        views = []
        for seat in seats:
            seat_views, own_counters = others, counters
            if seat >= 0:
                seat_views = others[:seat] + (_seat_view(state, seat, True),) + others[seat + 1:]
                own_counters = {**counters, "guo_pending": state.pending[seat]}
            views.append(View(seat, phase, state.to_act, from_mask(state.hands[seat]) if seat >= 0 else (),
                              seat_views, public, None, table_seat, table_cards, own_counters, over))
        return views


def _role(state: State, seat: int) -> str:
    pos = position(state, seat)
    if pos == 0:
        return "toujia"
    if seat == seventh(state):
        return "seventh"
    return "extra" if pos >= 4 else ""


def _seat_view(state: State, seat: int, own: bool) -> SeatView:
    over = state.finished
    melds = []
    for m in state.melds[seat]:
        hidden = meld_kind(m) == AN_M and state.options.an_face_down and not (own or over)
        melds.append(Meld(MELD_NAMES[meld_kind(m)], () if hidden else meld_cards(m), meld_source(m)))
    shown = own or seat == state.winner
    for g in state.guo[seat]:
        melds.append(Meld("guo", (g.card,) if shown else (), -1))
    cards = {"dead": tuple(state.dead[seat])}
    if own and state.phase == TURN and state.turn == seat and state.card >= 0:
        cards["turned"] = (state.card,)
    if over and seat == state.winner:
        cards["hand"] = from_mask(state.hands[seat])
    return SeatView(state.hands[seat].bit_count(), _role(state, seat), -1, {"guo": len(state.guo[seat])},
                    cards, tuple(melds))


CHUANPAI = Chuanpai()
