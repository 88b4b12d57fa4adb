"""Q783 / 378Q (三七八Q, 七八三Q), the score-card climbing game, as implemented (spec:
rules/q783.md; seeds q783.zh.txt and the 378Q paragraph of 378q-small-games-chuanpai-mcr.zh.txt).

Every numbered rule below is the spec's; where the spec names a default and variants, the
default is what runs and each variant is an option (``Options``). Presets: ``q783`` (the
defaults) and ``378q`` (``rules = "378q"``, ``payment = "by_type_378q"``), which differ in rules
2.2, 3.3, 5.3 and 7.4 only.

1. Players, teams, equipment
1.1 3-6 seats (Deal's ``seats``, default 4). Two camps (分阵营) by default: with 4 seats 0, 2
    against 1, 3; with 6 seats 0, 2, 4 against 1, 3, 5 (a seat's camp is seat mod 2, its
    ``team`` in views). Option ``individual``: every seat alone (不分阵营). 3 and 5 seats always
    play individually, whatever the option.
1.2 ``decks`` 2 (108 cards, default) or 1 (54). Card ids are those of ``cards.py`` over two
    decks (``deck * 54 + k``); with one deck only ids 0..53 are in play.
1.3 Turn order and the deal go from seat s to s + 1 (counter-clockwise).
1.4 Deal: the play cards (ascending ids) are shuffled with the stream ``deal`` of the round's deal
    key and dealt one at a time: the i-th card of the shuffled deck goes to seat
    (dealer + i) mod seats, so extra cards go to the earliest seats in dealing order. The dealer
    is seat 0 in the first 小局 of a 大局 and the previous 小局's first finisher later (the same
    dealer again when nobody went out: an abandoned 小局). Score cards are not dealt (set aside,
    public ``set_aside``) except under ``drawn_bank`` in the first 小局 (2.4), where every card is
    dealt. "The earliest ♥3" is the ♥3 at the lowest index of the shuffled deck.
2. Score cards
2.1 Score cards never reach a hand and are never played.
2.2 ``q783``: 5 = 5, 10 = 10, K = 10, small joker 50, big joker 100 (250 a pack). ``ace_scores``:
    A = 50, jokers 150 and 300, A leaves the play cards (750 a pack). ``378q``: jokers 100 each,
    K = 20, 10 = 10, 5 = 5 (340 a pack); with ``ace_scores`` A = 50 and the rest stays.
2.3 Banks: one per seat (individual) or one per camp; every payment goes from bank to bank.
2.4 A 大局's first 小局 gives every player a share: ``start_bank``, or when 0 the score-card total
    of the packs divided by the seats, rounded down (two packs, 4 seats: 125); a camp's bank is
    its members' shares (250). ``drawn_bank``: the first 小局 deals every card; each seat lays
    its score cards aside face up (seat cards ``score_cards``, event SCORE_CARDS) and their total
    is its share; later 小局 deal play cards only. Banks carry from 小局 to 小局 (the match carry).
2.5 A bank pays at most what it holds (unless ``negative_allowed``); see 9.1.
3. Rank order (high to low), as data: ``rank_order``
3.1 ``q783``: Q 7 8 3 2 A J 9 6 4; without A under ``ace_scores``.
3.2 ``two_low`` (q783 only): Q 7 8 3 A J 9 6 4 2.
3.3 ``378q``: 3 7 8 Q A J 9 6 4 2 (``two_378q = lowest``); ``between``: 3 7 8 Q 2 A J 9 6 4;
    ``removed``: the 2s are set aside before the deal (3 7 8 Q A J 9 6 4).
4. Combinations (``q783_hot.classify``)
4.1 A single, or 2-8 cards of one rank (up to 4 with one pack).
4.2 A bomb: 4 or more of a rank; ``triple_bomb``: 3 of a kind too.
4.3 Q783 (378Q under ``378q``): one Q, one 7, one 8, one 3.
4.4 Pure (纯, 正) when the four cards are of one suit, else mixed (杂, 副): by the real suits of
    the card ids.
4.5 ``double_q783``: two each of Q 7 8 3; pure when all eight are of one suit (two packs only).
4.6 Nothing else: no straights, no kickers.
5. Beating (``q783_hot.beats``)
5.1 A non-bomb play is beaten by a non-bomb play of the same size and a strictly higher rank.
    ``more_cards_beat``: also by any larger non-bomb set.
5.2 The bomb class beats every non-bomb play; ``q783`` ladder, low to high: [3 of a kind] <
    mixed Q783 < pure Q783 < 4 < 5 < 6 < 7 of a kind < mixed double < pure double < 8 of a kind.
    Bombs of one size compare by rank; equal Q783s (two mixed, two pure, two doubles of a class)
    do not beat each other.
5.3 ``378q`` ladder: [3] < mixed 378Q < 4 of a kind < pure 378Q < 5 < 6 < 7 < mixed double <
    pure double < 8. ``pure_378q_top`` (378q only): a pure 378Q beats the whole class but another
    pure 378Q.
5.4 ``pure_suit_order``: pure Q783s (not doubles, not mixed ones) rank by suit ♠ > ♥ > ♣ > ♦.
6. The trick, on the shared trick flow (``tricks.TrickPlay``)
6.1 The leader plays any combination and may not pass (MUST_LEAD); the others in turn beat the
    top play or pass (passing is always allowed); seats out are skipped.
6.2 By default a seat that passed may beat later in the trick; ``pass_bars_trick``: a pass bars
    the seat for the rest of the trick.
6.3 The trick is won when every other seat still holding cards has passed on the top play in
    succession (under ``pass_bars_trick``: has passed in this trick); the winner is paid (7) and
    leads.
6.4 First lead: the seat dealt the earliest ♥3 in a 大局's first 小局 (``first_lead =
    heart_three``); ``first_score_card_drawer`` (needs ``drawn_bank``): the seat dealt the
    earliest score card; later 小局: the dealer (the previous first finisher).
6.5 接风: a seat that went out and wins the trick with its last play is paid; the lead passes to
    the next seat still holding cards after it (event LEAD).
6.6 报牌: hand sizes are public in every view; ``baopai`` (default 1, 0 off): when a seat's card
    count falls from above the number to at most it (and not to 0), event BAOPAI.
7. Trick payments (``trick_amount``), paid when the trick is won (events PAY: seat the payer,
   values to, amount, due)
7.1 Individual: every other seat pays the winner. Camps: the opposing camp's bank pays the
    winner's camp once per opposing player, in or out.
7.2 ``payment = by_type`` (q783 default): an ordinary play 5, mixed Q783 20, pure 40, a bomb of n
    cards 10n (three of a kind under ``triple_bomb``: 30), mixed double 40, pure double 80.
7.3 ``by_count``: 5 x the cards the winner played in the whole trick.
7.4 ``by_type_378q`` (378q default): 5 a card for ordinary plays, a 378Q (mixed or pure) 10, a
    bomb of n 10n, a double 20. ``pay_on_pass``: nothing is paid when a trick is won; each time an
    opponent of the top play's owner passes on it, his bank pays the owner that play's amount at
    once (under ``by_count``: 5 a card of that play); partners pay nothing.
8. End of a 小局
8.1 (The players' aims.)
8.2 Individual: the 小局 ends when a seat has played out; camps: when every seat of a camp has.
    The trick in progress is played out first (others may still beat; more seats may go out),
    then the 小局 ends as the trick is won and paid. ``end_at_once``: it ends at the play that
    met the condition, which wins the trick in progress and is paid; under ``pay_on_pass`` as if
    every opponent still holding cards had passed on it, in turn order from its owner (each pays
    that play's amount, 7.4; an opponent already out pays nothing).
8.3 Result by finishing order: individual, the first seat out wins, every other seat loses;
    camps, the lower sum of finishing places wins (seats still holding cards take the remaining
    places), equal sums draw. ``by_points``: the seat or camp whose bank gained most in the 小局
    (before penalties) wins, the others lose; a tie for the most is a draw.
8.4 Penalties (events PENALTY): individual, each loser pays the winner ``penalty_individual``
    (50); camps, each losing player pays ``penalty_camp`` (100) to the opponent seated next to him
    counter-clockwise (seat + 1), camp bank to camp bank. A draw, or a 大局 that ended (9.1), pays
    none. The amounts are the seed's: 25, 50 or 100 individual, 50, 100 or 200 in camps.
9. End of a 大局 (a match: each 小局 is a round, Deal from the finished one's token)
9.1 A bank that pays its last point (or owes with nothing left) is exhausted (event EXHAUSTED):
    the other payments of the same trick, pass or penalties are still made, play stops at once,
    no 小局 penalty is paid for the unfinished 小局, and the match is over (MATCH_OVER). Banks
    never go negative.
9.2 ``negative_allowed``: banks may go negative and nothing is exhausted; the 大局 ends after
    ``xiaoju_limit`` 小局 (10; the option applies only then).
9.3 The exhausted bank is the 大局's loser (counter ``exhausted``); under ``negative_allowed`` the
    banks, shown in views and the settlement breakdown, rank the players.

Option checks (BAD_OPTION): ``two_low`` and ``pure_378q_top``/``two_378q`` belong to one preset
each (q783 resp. 378q); ``first_score_card_drawer`` needs ``drawn_bank``; ``start_bank`` has no
meaning under ``drawn_bank``.

Decisions where the spec leaves room: ABANDON (a player leaves) ends the 小局 at once with the
payments made so far, no penalty, and the 大局 may go on; a settlement's points are each seat's
bank change in the 小局 (in camps every member gets his camp's change: the two camps' changes are
opposite, so the points sum to 0), and Score's match totals add them up over the 大局. Plays
named by ranks take the lowest ids of each rank (deck 0 first, suits S H D C), as everywhere;
name the cards to choose the suits of a Q783.

Legal actions: PASS first when there is a play to beat, then each distinct play once, ordered by
kind (single/pair/trio, three-of-a-kind bomb, mixed Q783, pure Q783, bomb, mixed double, pure
double), then rank strength, then suit (pure Q783s: one per suit under ``pure_suit_order``,
else one, of the highest suit held), then size; its cards are the lowest ids of each rank (a
mixed Q783 swaps one card when those are all of one suit).

``referee legal``: the hand and ``last`` are cards with suits (score cards in the hand are
ignored); each legal play is its ranks high to low in the rule order, ``*`` after a pure Q783 or
pure double, the list in plain string order.

Views: counters round (小局 of the 大局 before this one), dealer, first_lead, leader (of the
trick), exhausted (a bitmask of the banks that ran out); per seat: team (camp, -1 individual),
counters bank (its bank or its camp's), place (finishing place, 0 while in), trick_cards (cards
played in the trick in progress); cards ``score_cards`` (drawn_bank). Public: ``played`` and
``set_aside``. Only a seat's own hand is secret.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, NamedTuple

from ... import cards as cardlib
from ... import rng, speedups
from ...codec import Index, Int64, Layout, Mask, Seq, Small
from ...errors import InvalidAction, Reason, quote
from ...game import (ABANDON, COMMON_KINDS, PASS, PLAY, Action, ActionKind, Combo, DealKey, Event, EventType, EMPTY,
                   Finished, Game, Knowledge, Match, SeatView, Settlement, Verdict, View, option)
from ...tricks import Trick, TrickPlay

hot = speedups.load("games.q783.hot")

Kind = IntEnum("Kind", [(name.upper(), i) for i, name in enumerate(hot.KIND_NAMES) if name])
SET, TRIPLE, MIXED, PURE, BOMB, MIXED2, PURE2 = (Kind.SET, Kind.TRIPLE_BOMB, Kind.MIXED_Q783, Kind.PURE_Q783,
                                                 Kind.BOMB, Kind.MIXED_DOUBLE_Q783, Kind.PURE_DOUBLE_Q783)
FLAGS = {name: 1 << k for k, name in enumerate(hot.FLAG_NAMES)}  # the hot path's flags by option name

NOTATION = cardlib.PokerNotation(2)
DECK_BITS = (1 << cardlib.CARDS_PER_DECK) - 1
PLAYING, FINISHED = 0, 1

# outcomes of a 小局
(IN_PLAY, FIRST_OUT_WON, CAMP_WON, POINTS_WON, DRAW, EXHAUSTED, ABANDONED) = range(7)
OUTCOME_NAMES = ("", "first_out_won", "camp_won", "points_won", "draw", "bank_exhausted", "abandoned")

RANK_INDEX = {c: i for i, c in enumerate(cardlib.RANKS)}
Q783_RANKS = tuple(RANK_INDEX[c] for c in "Q783")
HEART_THREE = cardlib.card_id(RANK_INDEX["3"], cardlib.SUITS.index("H"))
SUIT_NAMES = ("diamonds", "clubs", "hearts", "spades")  # by rule 5.4 strength
SUIT_OF_STRENGTH = tuple(next(s for s in range(4) if hot.suit_strength(s) == k) for k in range(4))

# bomb ladder slots (q783_hot): 3 of a kind, mixed, pure, 4..8 of a kind, mixed double, pure double
Q783_LADDER = (1, 2, 3, 4, 5, 6, 7, 10, 8, 9)  # 5.2
LADDER_378Q = (1, 2, 4, 3, 5, 6, 7, 10, 8, 9)  # 5.3
PURE_SLOT, PURE_TOP = 2, 11

# score values by rank index (3 4 5 6 7 8 9 T J Q K A 2, small, big joker), rule 2.2
_SCORE_VALUES = {("q783", False): {"5": 5, "T": 10, "K": 10, "B": 50, "R": 100},
                 ("q783", True): {"5": 5, "T": 10, "K": 10, "A": 50, "B": 150, "R": 300},
                 ("378q", False): {"5": 5, "T": 10, "K": 20, "B": 100, "R": 100},
                 ("378q", True): {"5": 5, "T": 10, "K": 20, "A": 50, "B": 100, "R": 100}}


@dataclass(frozen=True, slots=True)
class Options:
    rules: str = option("q783", "the preset's rules: 2.2 score values, 3.3 rank order, 5.3 bomb ladder "
                        "(378q: 3 7 8 Q A J 9 6 4, K 20, jokers 100, pure 378Q above four of a kind)",
                        allowed=("q783", "378q"))
    decks: int = option(2, "1.2: packs of 54 cards", minimum=1, maximum=2)
    individual: bool = option(False, "1.1: every seat plays alone (3 and 5 seats always do); else two camps, "
                              "seats 0, 2(, 4) against 1, 3(, 5)")
    ace_scores: bool = option(False, "2.2: A is a score card (50; q783 jokers 150 and 300), not a play card")
    two_low: bool = option(False, "3.2 (q783): the 2 ranks lowest, below 4 (2比4小)")
    two_378q: str = option("lowest", "3.3 (378q): the 2 ranks lowest, between Q and A, or is removed",
                           allowed=("lowest", "between", "removed"))
    triple_bomb: bool = option(False, "4.2: three of a kind is a bomb")
    double_q783: bool = option(False, "4.5: double Q783 (QQ778833), mixed or pure")
    more_cards_beat: bool = option(False, "5.1: a non-bomb set beats any smaller non-bomb set")
    pure_378q_top: bool = option(False, "5.3 (378q): a pure 378Q beats every bomb but another pure 378Q")
    pure_suit_order: bool = option(False, "5.4: pure Q783s rank by suit, spades > hearts > clubs > diamonds")
    pass_bars_trick: bool = option(False, "6.2: a seat that passed may not play again in the trick")
    first_lead: str = option("heart_three", "6.4: the first 小局's first lead: the earliest ♥3 dealt, or "
                             "(drawn_bank) the earliest score card dealt",
                             allowed=("heart_three", "first_score_card_drawer"))
    baopai: int = option(1, "6.6: announce a seat's card count when it falls to this many (0: off)",
                         minimum=0, maximum=20)
    payment: str = option("by_type", "7.2-7.4: trick payment by the winning play's type, 5 a card the winner "
                          "played in the trick, or 378Q's (5 a card, 378Q 10, bomb 10n)",
                          allowed=("by_type", "by_count", "by_type_378q"))
    pay_on_pass: bool = option(False, "7.4: no payment when a trick ends; an opponent pays the play's owner "
                               "each time he passes on it")
    end_at_once: bool = option(False, "8.2: the 小局 ends at the play that ends it; that play wins the trick")
    by_points: bool = option(False, "8.3: the seat or camp that gained most in the 小局 wins it")
    penalty_individual: int = option(50, "8.4: what each loser pays the winner (individual)", allowed=(25, 50, 100))
    penalty_camp: int = option(100, "8.4: what each losing player pays (camps)", allowed=(50, 100, 200))
    start_bank: int = option(0, "2.4: each player's share at the start of a 大局; 0: the score-card total "
                             "divided by the seats", minimum=0, maximum=100_000)
    drawn_bank: bool = option(False, "2.4: the first 小局 deals the score cards too; each player's share is "
                              "what he drew")
    negative_allowed: bool = option(False, "9.2: banks may go negative; the 大局 ends after xiaoju_limit 小局")
    xiaoju_limit: int = option(10, "9.2: 小局 in a 大局 under negative_allowed", minimum=1, maximum=1000)


PRESETS = {"q783": Options(), "378q": Options(rules="378q", payment="by_type_378q")}


class Rules(NamedTuple):
    """What the options make of the cards: the data the hot path works on (cached per options)."""

    order: int  # q783_hot order: strength + 1 per card rank
    ladder: int  # q783_hot ladder
    flags: int
    chars: str  # rank characters by strength, low to high
    ranks: tuple[int, ...]  # rank index by strength
    values: tuple[int, ...]  # score value by rank index (0: not a score card)
    score_mask: int  # the score-card ids of two packs
    removed_mask: int  # ids set aside that score nothing (the 2s under two_378q = removed)
    name: str  # "Q783" or "378Q"


def rank_order(options: Options) -> str:
    """Rules 3.1-3.3: the play ranks, high to low."""
    if options.rules == "q783":
        order = "Q783AJ9642" if options.two_low else "Q7832AJ964"
    else:
        order = {"lowest": "378QAJ9642", "between": "378Q2AJ964", "removed": "378QAJ964"}[options.two_378q]
    return order.replace("A", "") if options.ace_scores else order


@functools.lru_cache(maxsize=256)
def rules_of(options: Options) -> Rules:
    chars = rank_order(options)[::-1]
    ranks = tuple(RANK_INDEX[c] for c in chars)
    order = sum((s + 1) << (4 * r) for s, r in enumerate(ranks))
    ladder_slots = list(Q783_LADDER if options.rules == "q783" else LADDER_378Q)
    if options.pure_378q_top:
        ladder_slots[PURE_SLOT] = PURE_TOP
    ladder = sum(p << (4 * k) for k, p in enumerate(ladder_slots))
    flags = sum(bit for name, bit in FLAGS.items() if getattr(options, name))
    named = _SCORE_VALUES[options.rules, options.ace_scores]
    values = tuple(named.get(c, 0) for c in cardlib.RANK_CHARS)
    score_mask = removed_mask = 0
    for card in range(NOTATION.id_count):
        rank = cardlib.card_rank(card)
        if values[rank]:
            score_mask |= 1 << card
        elif rank not in ranks:
            removed_mask |= 1 << card
    return Rules(order, ladder, flags, chars, ranks, values, score_mask, removed_mask,
                 "Q783" if options.rules == "q783" else "378Q")


def pack_mask(decks: int) -> int:
    """The ids of the packs in play."""
    return (1 << (decks * cardlib.CARDS_PER_DECK)) - 1


def deck_of(options: Options, with_score_cards: bool) -> tuple[int, ...]:
    """Rule 1.4: the cards dealt, ascending ids: the play cards of ``decks`` packs, and the score
    cards too under ``drawn_bank`` in a 大局's first 小局."""
    rules = rules_of(options)
    dealt = pack_mask(options.decks) & ~rules.removed_mask & (-1 if with_score_cards else ~rules.score_mask)
    return cardlib.from_mask(dealt)


def score_value(options: Options, mask: int) -> int:
    values = rules_of(options).values
    return sum(values[cardlib.card_rank(c)] for c in cardlib.from_mask(mask))


def score_total(options: Options) -> int:
    """The score cards of the packs in play (2.2): 500 for two q783 packs."""
    return score_value(options, rules_of(options).score_mask & pack_mask(options.decks))


# --- plays -------------------------------------------------------------------------------------

def halves(mask: int) -> tuple[int, int]:
    """A card bitmask as the hot path takes it: deck 0's ids, deck 1's ids shifted down."""
    return mask & DECK_BITS, mask >> cardlib.CARDS_PER_DECK


def play_of(mask: int, rules: Rules) -> int:
    """The play (q783_hot encoding) the cards of ``mask`` stand for, 0 when none (rule 4)."""
    lo, hi = halves(mask)
    counts = hot.hand_counts(lo, hi, rules.order)
    if hot.card_total(counts) != mask.bit_count():
        return 0  # a score card, a joker or a card out of play
    return hot.classify(counts, hot.uniform_suit(lo, hi), rules.order, rules.flags)


def legal_plays(hand: int, table: int, rules: Rules) -> list[int]:
    """Every distinct play of ``hand`` (a card bitmask) that may be played on ``table``, sorted."""
    lo, hi = halves(hand)
    return hot.legal_plays(hot.hand_counts(lo, hi, rules.order), hot.combo_suits(lo, hi), table,
                           rules.order, rules.ladder, rules.flags)


def play_size(play: int) -> int:
    return hot.card_total(hot.play_counts(play))


_SUIT_MASKS = tuple(sum(1 << (d * cardlib.CARDS_PER_DECK + s * 13 + r) for d in range(2) for r in range(13))
                    for s in range(4))


def _lowest(mask: int, n: int) -> int:
    picked = 0
    for _ in range(n):
        low = mask & -mask
        picked |= low
        mask ^= low
    return picked


def pick_cards(hand: int, play: int, rules: Rules) -> int:
    """The cards a listed play takes from ``hand``: the lowest ids of each rank; a pure play's of
    its suit; a mixed Q783 (or double) swaps one card when those would all be of one suit."""
    kind = hot.play_kind(play)
    rank_masks = NOTATION.rank_masks
    if kind in (SET, TRIPLE, BOMB):
        return _lowest(hand & rank_masks[rules.ranks[hot.play_main(play)]], play_size(play))
    per = 2 if kind in (MIXED2, PURE2) else 1
    if kind in (PURE, PURE2):
        suit = _SUIT_MASKS[SUIT_OF_STRENGTH[hot.play_suit(play)]]
        return sum(_lowest(hand & rank_masks[r] & suit, per) for r in Q783_RANKS)
    picks = {r: _lowest(hand & rank_masks[r], per) for r in Q783_RANKS}
    chosen = sum(picks.values())
    for suit in _SUIT_MASKS:
        if chosen & ~suit == 0:  # all of one suit: swap a card for one of another suit
            for r in Q783_RANKS:
                other = hand & rank_masks[r] & ~suit
                if other:
                    kept = _lowest(picks[r], per - 1)
                    return chosen & ~picks[r] | kept | (other & -other)
    return chosen


_KIND_LABELS = {1: "single 单张", 2: "pair 对子", 3: "trio 三张"}


@functools.lru_cache(maxsize=4096)
def _combo(play: int, chars: str, name: str) -> Combo:
    kind = hot.play_kind(play)
    counts = hot.play_counts(play)
    ranks = tuple(sorted(RANK_INDEX[chars[s]] for s in range(len(chars)) for _ in range((counts >> 4 * s) & 15)))
    size = len(ranks)
    main = RANK_INDEX[chars[hot.play_main(play)]]
    if kind == SET:
        kind_name = ("single", "pair", "trio")[size - 1]
        label = _KIND_LABELS[size]
    elif kind == TRIPLE:
        kind_name, label = "triple_bomb", "three of a kind, a bomb 三张炸弹"
    elif kind == BOMB:
        kind_name, label = "bomb", f"bomb of {size} 炸弹"
    else:
        kind_name = hot.KIND_NAMES[kind]
        pure = kind in (PURE, PURE2)
        double = kind in (MIXED2, PURE2)
        label = (f"{'pure' if pure else 'mixed'} {'double ' if double else ''}{name} "
                 f"{'纯' if pure else '杂'}{'双' if double else ''}{name}")
        if pure:
            label += f" ({SUIT_NAMES[hot.play_suit(play)]})"
    return Combo(kind_name, main, 1, size, ranks, label)


def to_combo(play: int, rules: Rules) -> Combo:
    """The game-neutral description of a play."""
    return _combo(play, rules.chars, rules.name)


def play_amount(play: int, options: Options) -> int:
    """Rules 7.2 and 7.4: what a play is paid (``pay_on_pass``: at each opponent's pass;
    ``by_count`` then 5 a card of the play)."""
    kind, size = hot.play_kind(play), play_size(play)
    if options.payment == "by_count":
        return 5 * size
    if options.payment == "by_type":
        return {SET: 5, MIXED: 20, PURE: 40, MIXED2: 40, PURE2: 80}.get(kind, 10 * size)
    return {SET: 5 * size, MIXED: 10, PURE: 10, MIXED2: 20, PURE2: 20}.get(kind, 10 * size)


def trick_amount(play: int, winner_cards: int, options: Options) -> int:
    """Rules 7.2-7.4: what each paying opponent pays the winner of a trick won by ``play``, the
    winner having played ``winner_cards`` cards in it."""
    return 5 * winner_cards if options.payment == "by_count" else play_amount(play, options)


# card text -> id in deck 0 (``cards.parse_cards`` reads the text upper-cased; 10 is T)
_TOKEN_IDS = {cardlib.format_card(k): k for k in range(cardlib.CARDS_PER_DECK)}
_TOKEN_IDS.update({"10" + token[1]: k for token, k in list(_TOKEN_IDS.items()) if token[0] == "T"})


def parse_cards(text: str, options: Options) -> int:
    """Cards with suits (``QH 7H 8H 3H``) as a bitmask over the packs in play: the n-th copy of a
    card is deck n's, as ``cards.parse_cards`` reads them (a dictionary walk; any text it does not
    take goes to ``cards.parse_cards``, whose answer or error stands).

    Raises:
        InvalidAction: unknown cards or a rank string (UNKNOWN_CARD), more copies than the packs
            hold (DUPLICATE_CARD), 2s removed by ``two_378q`` (UNKNOWN_CARD).
    """
    return _cards_mask(text, options.decks, rules_of(options))


def _cards_mask(text: str, decks: int, rules: Rules) -> int:
    lo = hi = 0
    for token in text.replace(",", " ").upper().split():
        k = _TOKEN_IDS.get(token)
        if k is None:
            return _parsed_mask(text, decks, rules)
        bit = 1 << k
        if not lo & bit:
            lo |= bit
        elif decks == 2 and not hi & bit:
            hi |= bit
        else:
            return _parsed_mask(text, decks, rules)
    return _in_play(lo | hi << cardlib.CARDS_PER_DECK, rules)


def _parsed_mask(text: str, decks: int, rules: Rules) -> int:
    values, are_cards = cardlib.parse_cards_or_ranks(text, decks)
    if values and not are_cards:
        raise InvalidAction(f"{quote(text)}: Q783 reads cards with suits (QH 7H 8H 3H), pure combinations go "
                            "by suit", Reason.UNKNOWN_CARD)
    return _in_play(cardlib.to_mask(values), rules)


def _in_play(mask: int, rules: Rules) -> int:
    if mask & rules.removed_mask:
        raise InvalidAction("the 2s are out of the deck (two_378q = removed)", Reason.UNKNOWN_CARD)
    return mask


def _table_play(text: str, decks: int, rules: Rules) -> int:
    """The play of a table given as text (0 when blank). Raises: InvalidAction."""
    if not text.strip():
        return 0
    play = play_of(_cards_mask(text, decks, rules), rules)
    if not play:
        raise InvalidAction(f"{quote(text)} is not a combination", Reason.NOT_A_COMBINATION)
    return play


def legal_rank_strings(hand_text: str, last_text: str, options: Options = Options()) -> list[str]:
    """The ``referee legal`` answer (see the module docstring)."""
    rules = rules_of(options)
    hand = _cards_mask(hand_text, options.decks, rules)
    table = _table_play(last_text, options.decks, rules)
    lo, hi = halves(hand)
    return hot.legal_rank_strings(hot.hand_counts(lo, hi, rules.order), hot.combo_suits(lo, hi), table,
                                  rules.order, rules.ladder, rules.flags, rules.chars)


_ids_of = functools.lru_cache(maxsize=16384)(cardlib.from_mask)


# --- the state ---------------------------------------------------------------------------------

class Carry(NamedTuple):
    """What a 小局 carries into the next one of its 大局 (1.4, 2.4)."""

    dealer: Annotated[int, Index("seats", 0)]
    banks: Annotated[tuple[int, ...], Seq(Int64, "seats")]


class State(NamedTuple):
    """A 小局 in progress; immutable."""

    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    dealer: int  # the seat dealt to first (1.4)
    first_lead: int  # 6.4
    hands: tuple[int, ...]  # play cards per seat (bitmasks)
    score_cards: tuple[int, ...]  # drawn_bank: the score cards each seat laid aside (first 小局)
    set_aside: int  # not dealt: score cards, removed 2s (bitmask)
    banks: tuple[int, ...]  # one per seat, or per camp (index: seat mod 2)
    opening: tuple[int, ...]  # the banks when the 小局 was dealt
    phase: int
    to_act: tuple[int, ...]
    trick: Trick = Trick()  # trick.top: a q783_hot play
    played: int = 0
    out: tuple[int, ...] = ()
    trick_cards: tuple[int, ...] = ()  # cards each seat played in the trick in progress (7.3)
    winners: tuple[int, ...] = ()
    outcome: int = IN_PLAY
    exhausted: int = 0  # bitmask of the banks that ran out (9.1)
    abandoned: int = -1
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def num_seats(self) -> int:
        return len(self.hands)

    @property
    def camps(self) -> bool:
        """Rule 1.1: two camps at 4 or 6 seats unless ``individual``."""
        return not self.options.individual and self.num_seats in (4, 6)




def bank_of(state: State, seat: int) -> int:
    return seat % 2 if state.camps else seat


def opponents(state: State, seat: int) -> tuple[int, ...]:
    """The seats that pay ``seat``'s winning play (7.1): every other seat, or the other camp's."""
    if state.camps:
        return tuple(s for s in range(state.num_seats) if s % 2 != seat % 2)
    return tuple(s for s in range(state.num_seats) if s != seat)


def pay(state: State, payer: int, payee: int, due: int, events: list, kind: str = "PAY") -> State:
    """One payment, bank to bank (2.3, 2.5, 9.1): at most what the payer's bank holds unless
    ``negative_allowed``; a bank that pays its last point, or owes with nothing left, runs out."""
    a, b = bank_of(state, payer), bank_of(state, payee)
    banks = list(state.banks)
    paid = due if state.options.negative_allowed else max(0, min(due, banks[a]))
    banks[a] -= paid
    banks[b] += paid
    events.append(Event(kind, payer, values={"to": payee, "amount": paid, "due": due}))
    exhausted = state.exhausted
    if not state.options.negative_allowed and due > 0 and banks[a] == 0 and not exhausted >> a & 1:
        exhausted |= 1 << a
        events.append(Event("EXHAUSTED", payer, values={"bank": a}))
    return state._replace(banks=tuple(banks), exhausted=exhausted)


def _pay_trick(state: State, trick: Trick, events: list) -> State:
    winner = trick.top_seat
    amount = trick_amount(trick.top, state.trick_cards[winner], state.options)
    for seat in opponents(state, winner):
        state = pay(state, seat, winner, amount, events)
    return state


def _pay_as_passed(state: State, trick: Trick, events: list) -> State:
    """8.2 ``end_at_once`` under ``pay_on_pass``: every opponent of the last play's owner still
    holding cards pays it as if he had passed on it, in turn order."""
    owner, n = trick.top_seat, state.num_seats
    amount = play_amount(trick.top, state.options)
    for seat in sorted(opponents(state, owner), key=lambda s: (s - owner) % n):
        if state.hands[seat]:
            state = pay(state, seat, owner, amount, events)
    return state


def places(state: State) -> tuple[int, ...]:
    """Finishing places (8.3): the order out, then the seats still holding cards in seat order."""
    order = state.out + tuple(s for s in range(state.num_seats) if s not in state.out)
    place = [0] * state.num_seats
    for k, s in enumerate(order, 1):
        place[s] = k
    return tuple(place)


def result(state: State) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Rule 8.3 for a 小局 that ended: (outcome, winning seats, losing seats)."""
    n = state.num_seats
    if state.options.by_points:
        gained = [b - o for b, o in zip(state.banks, state.opening)]
        best = max(gained)
        if gained.count(best) > 1:
            return DRAW, (), ()
        top = gained.index(best)
        winners = tuple(s for s in range(n) if bank_of(state, s) == top)
        return POINTS_WON, winners, tuple(s for s in range(n) if s not in winners)
    if not state.camps:
        first = state.out[0]
        return FIRST_OUT_WON, (first,), tuple(s for s in range(n) if s != first)
    place = places(state)
    sums = [sum(place[s] for s in range(camp, n, 2)) for camp in (0, 1)]
    if sums[0] == sums[1]:
        return DRAW, (), ()
    camp = 0 if sums[0] < sums[1] else 1
    return CAMP_WON, tuple(range(camp, n, 2)), tuple(range(1 - camp, n, 2))


# --- play (rule 6) on the shared trick flow, payments (7), the end of a 小局 (8, 9) ----------------

def read_play(state: State, action: Action, mask: int) -> Verdict:
    rules = rules_of(state.options)
    play = play_of(mask, rules)
    if not play:
        return Verdict.no(Reason.NOT_A_COMBINATION,
                          f"{cardlib.format_cards(cardlib.from_mask(mask))} is not a combination")
    top = state.trick.top
    if top and not hot.beats(play, top, rules.ladder, rules.flags):
        return Verdict.no(Reason.DOES_NOT_BEAT, f"{to_combo(play, rules).label} does not beat "
                                                f"{to_combo(top, rules).label}")
    combo = to_combo(play, rules)
    return Verdict.ok(combo.label, combo, Action(action.seat, PLAY, _ids_of(mask)), play)

def table_plays(state: State, seat: int):
    rules = rules_of(state.options)
    hand = state.hands[seat]
    return [(Action(seat, PLAY, _ids_of(pick_cards(hand, play, rules))), to_combo(play, rules))
            for play in legal_plays(hand, state.trick.top, rules)]

def bars(state: State) -> bool:
    return state.options.pass_bars_trick

def count_cards(state: State, seat: int, verdict: Verdict, beaten: Trick, events: list) -> State:
    n = len(verdict.action.cards)
    trick_cards = state.trick_cards[:seat] + (state.trick_cards[seat] + n,) + state.trick_cards[seat + 1:]
    left, announce = state.hands[seat].bit_count(), state.options.baopai
    if announce and 0 < left <= announce < left + n:  # 6.6
        events.append(Event("BAOPAI", seat, values={"cards": left}))
    return state._replace(trick_cards=trick_cards)

def pay_on_pass(state: State, seat: int, events: list) -> State:
    """Rule 7.4 ``pay_on_pass``: an opponent of the top play's owner pays it as he passes."""
    owner = state.trick.top_seat
    if not state.options.pay_on_pass or seat not in opponents(state, owner):
        return state
    return pay(state, seat, owner, play_amount(state.trick.top, state.options), events)

def pay_trick(state: State, trick: Trick, winner: int, events: list) -> State:
    if not state.options.pay_on_pass:
        state = _pay_trick(state, trick, events)
    return state._replace(trick=Trick(trick.leader), trick_cards=(0,) * state.num_seats)

def bank_ran_out(state: State) -> bool:
    return bool(state.exhausted)  # 9.1

def round_over(state: State) -> bool:
    """9.1: a bank ran out; 8.2: a seat (individual) or a whole camp went out."""
    if state.exhausted:
        return True
    if not state.camps:
        return bool(state.out)
    hands = state.hands
    return not any(hands[0::2]) or not any(hands[1::2])

def plays_out_trick(state: State) -> bool:
    return not state.options.end_at_once  # 8.2

def finish(state: State, events: list) -> State:
    o = state.options
    trick = state.trick
    if trick.top and not state.exhausted:  # 8.2 end_at_once: the last play wins the trick
        events.append(Event("TRICK_WON", trick.top_seat))
        if not o.pay_on_pass:
            state = _pay_trick(state, trick, events)
        else:
            state = _pay_as_passed(state, trick, events)
        state = state._replace(trick=Trick(trick.leader))
    if state.exhausted:  # 9.1: no result, no penalty
        outcome, winners = EXHAUSTED, ()
    else:
        outcome, winners, losers = result(state)
        for loser in losers:  # 8.4
            if state.camps:
                state = pay(state, loser, (loser + 1) % state.num_seats, o.penalty_camp, events, "PENALTY")
            else:
                state = pay(state, loser, winners[0], o.penalty_individual, events, "PENALTY")
    events.append(Event("FINISH", -1, values={
        "winner": winners[0] if len(winners) == 1 else -1,
        "camp": winners[0] % 2 if state.camps and winners else -1, "draw": int(outcome == DRAW)}))
    return state._replace(phase=FINISHED, to_act=(), winners=winners, outcome=outcome)


class Q783Game(Game):
    id = "q783"
    name = "Q783 / 378Q 三七八Q"
    min_seats, max_seats, default_seats = 3, 6, 4
    notation = NOTATION
    Options = Options
    presets = PRESETS
    phases = (TrickPlay("playing", read_play=read_play, legal_plays=table_plays, bars=bars, after_play=count_cards,
                        after_pass=pay_on_pass, after_trick=pay_trick, play_stops=bank_ran_out, round_over=round_over,
                        plays_out_trick=plays_out_trick, finish=finish),
              Finished())
    State = State
    state_fields = {"match.carry": Carry | None, "dealer": Index("seats", 0), "first_lead": Index("seats", 0),
                    "hands": Seq(Mask, "seats"), "score_cards": Seq(Mask, "seats"), "set_aside": Mask,
                    "banks": Seq(Int64, "seats"), "opening": Seq(Int64, "seats"), "phase": Index(2, 0),
                    "to_act": Seq(Index("seats", 0), "seats"), "played": Mask, "out": Seq(Index("seats", 0), "seats"), "trick_cards": Seq(Small, "seats"),
                    "winners": Seq(Index("seats", 0), "seats"), "outcome": Index(len(OUTCOME_NAMES), 0), "exhausted": Mask("seats"),
                    "abandoned": Index("seats"), "step": Small}
    # the release before the state codec: num_seats stored; under pass_bars_trick a trick's passes
    # were one mask (now: passed on the top play, and barred for the trick)
    state_layouts = {1: Layout("options seed entropy match num_seats dealer first_lead hands score_cards set_aside "
                               "banks opening phase to_act trick played out trick_cards winners outcome exhausted "
                               "abandoned step", upgrade=lambda old: {**old, "trick": _old_trick(old)})}
    action_kinds = (COMMON_KINDS[PASS],
                    ActionKind(PLAY, "play cards (ids or card text with suits; a rank string takes the lowest "
                               "ids of each rank)", ("cards",)),
                    COMMON_KINDS[ABANDON])
    counters = {"round": "小局 of the 大局 before this one", "dealer": "the seat dealt to first (1.4)",
                "first_lead": "the seat that led the 小局 (6.4)", "leader": "the seat that led the trick",
                "exhausted": "bitmask of the banks that ran out (9.1): seats, or camps 0/1"}
    seat_counters = {"bank": "the seat's bank, or its camp's (2.3)", "place": "finishing place, 0 while in",
                     "trick_cards": "cards the seat played in the trick in progress (7.3)"}
    seat_cards = {"score_cards": "drawn_bank: the score cards the seat drew and laid aside (2.4)"}
    public_cards = {"played": "every card played so far",
                    "set_aside": "cards not dealt: the score cards (2.4) and removed 2s (3.3)"}
    combination_kinds = {"single": "one card", "pair": "two of a rank", "trio": "three of a rank",
                         "triple_bomb": "three of a kind, a bomb (triple_bomb, 4.2)", "bomb": "4-8 of a rank (4.2)",
                         "mixed_q783": "Q 7 8 3 of mixed suits (4.3)", "pure_q783": "Q 7 8 3 of one suit (4.4)",
                         "mixed_double_q783": "two each of Q 7 8 3 (4.5)",
                         "pure_double_q783": "two each of Q 7 8 3, one suit (4.5)"}
    outcomes = {"first_out_won": "individual: the first seat out won (8.3)",
                "camp_won": "camps: the lower sum of places won (8.3)",
                "points_won": "by_points: the bank that gained most won (8.3)", "draw": "a draw (8.3)",
                "bank_exhausted": "a bank ran out: the 大局 is over (9.1)", "abandoned": "a seat left"}
    breakdown = {"xiaoju": "the 小局's number in its 大局 (1 = the first)", "first_out": "the first seat out, -1 none",
                 "exhausted": "bitmask of the banks that ran out", "abandoned": "the seat that left, -1 none",
                 **{f"bank{b}": f"bank {b}'s points after the 小局 (a seat's, or camp {b}'s)" for b in range(6)}}
    deal_cards = {
        "seat": DealKey("the seat's cards in the order dealt, one at a time from the dealer on (with drawn_bank the "
                        "score cards it drew too)", per_seat=True),
    }
    deal_values = {
        "dealer": "the seat dealt to first (1.4)",
        "first_lead": "the seat that leads first (6.4)",
    }
    event_types = {
        "DEAL": EventType("the seat's play cards (private)", private_cards=True),
        "SCORE_CARDS": EventType("drawn_bank: the score cards the seat drew, face up (2.4)",
                                 {"share": "their value: the seat's share"}),
        "FIRST_LEAD": EventType("the seat that leads first (6.4)", {"dealer": "the seat dealt to first"}),
        "PLAY": EventType("cards played, with their combination"),
        "PASS": EventType("the seat passes"),
        "BAOPAI": EventType("报牌: the seat's card count fell to the announced number (6.6)",
                            {"cards": "the cards it holds"}),
        "OUT": EventType("the seat played out (走人) while the 小局 goes on", {"place": "its finishing place"}),
        "TRICK_WON": EventType("the seat's play won the trick (6.3)"),
        "LEAD": EventType("接风: the winner is out, this seat leads (6.5)", {"from": "the trick's winner"}),
        "PAY": EventType("a payment for a play (7): seat pays (its bank)",
                         {"to": "the seat paid", "amount": "paid", "due": "owed"}),
        "PENALTY": EventType("a loss penalty (8.4): seat pays", {"to": "the seat paid", "amount": "paid",
                                                                "due": "owed"}),
        "EXHAUSTED": EventType("a bank ran out: the 大局 ends (9.1)", {"bank": "the seat, or the camp 0/1"}),
        "ABANDON": EventType("the seat left the 小局"),
        "FINISH": EventType("the 小局 is over (8.3)", {"winner": "the winning seat, -1 none or camps",
                                                     "camp": "the winning camp, -1 none", "draw": "1: a draw"}),
    }

    def _checked_options(self, options: Options) -> Options:
        problems = []
        if options.rules == "q783":
            if options.two_378q != "lowest":
                problems.append("two_378q belongs to the 378q rules (3.3); q783 has two_low")
            if options.pure_378q_top:
                problems.append("pure_378q_top belongs to the 378q ladder (5.3)")
        elif options.two_low:
            problems.append("two_low belongs to the q783 rules (3.2); 378q places the 2 with two_378q")
        if options.first_lead == "first_score_card_drawer" and not options.drawn_bank:
            problems.append("first_lead=first_score_card_drawer needs drawn_bank (6.4)")
        if options.start_bank and options.drawn_bank:
            problems.append("start_bank has no meaning under drawn_bank: shares are the cards drawn (2.4)")
        if problems:
            raise InvalidAction("; ".join(problems), Reason.BAD_OPTION)
        return options

    # the deal (1.4, 2.4, 6.4) ---------------------------------------------------------------------
    def _deal(self, options: Options, seed: bytes, entropy: bytes, seats: int, match: Match) -> State:
        rules = rules_of(options)
        first = not match.carry
        dealer = 0 if first else match.carry.dealer
        drawn = first and options.drawn_bank
        deck = rng.Stream(rng.deal_key(seed, entropy), "deal").shuffle(deck_of(options, drawn))
        dealt = [0] * seats
        for i, card in enumerate(deck):
            dealt[(dealer + i) % seats] |= 1 << card
        hands = tuple(d & ~rules.score_mask for d in dealt)
        score_cards = tuple(d & rules.score_mask for d in dealt) if drawn else (0,) * seats
        set_aside = pack_mask(options.decks) & ~sum(dealt)
        camps = not options.individual and seats in (4, 6)
        if first:
            if drawn:
                shares = [score_value(options, m) for m in score_cards]
            else:
                shares = [options.start_bank or score_total(options) // seats] * seats
            banks = (sum(shares[0::2]), sum(shares[1::2])) if camps else tuple(shares)
        else:
            banks = match.carry.banks
        lead = dealer
        if first:
            wanted = rules.score_mask if options.first_lead == "first_score_card_drawer" else (
                1 << HEART_THREE | 1 << (HEART_THREE + cardlib.CARDS_PER_DECK))
            lead = (dealer + next(i for i, c in enumerate(deck) if wanted >> c & 1)) % seats
        return State(options, seed, entropy, match, dealer, lead, hands, score_cards, set_aside, banks,
                     banks, PLAYING, (lead,), Trick(lead), trick_cards=(0,) * seats)

    def deal_events(self, state: State) -> list[Event]:
        events = [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]
        events += [Event("SCORE_CARDS", s, cardlib.from_mask(m), values={"share": score_value(state.options, m)})
                   for s, m in enumerate(state.score_cards) if m]
        return events + [Event("FIRST_LEAD", state.first_lead, values={"dealer": state.dealer})]

    def dealt(self, state: State):
        """The deal as shuffled: each seat's cards in the order dealt (score cards included under
        ``drawn_bank``), the dealer and the first lead."""
        first = not state.match.carry
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), "deal").shuffle(
            deck_of(state.options, first and state.options.drawn_bank))
        n = state.num_seats
        cards = {f"seat{s}": tuple(deck[(s - state.dealer) % n::n]) for s in range(n)}
        return cards, {"dealer": state.dealer, "first_lead": state.first_lead}

    # matches: the 大局 (2.4, 9) ------------------------------------------------------------------------
    def _carry(self, finished: State) -> Carry:
        """The next 小局 is dealt from the first finisher (the same dealer if nobody went out);
        the banks carry."""
        return Carry(finished.out[0] if finished.out else finished.dealer, finished.banks)

    def match_over(self, state: State) -> bool:
        o = state.options
        if o.negative_allowed:
            return state.match.round + 1 >= o.xiaoju_limit
        return bool(state.exhausted)

    def _abandon(self, state: State, seat: int):
        return (state._replace(phase=FINISHED, to_act=(), abandoned=seat, outcome=ABANDONED),
                [Event("ABANDON", seat), Event("FINISH", -1, values={"winner": -1, "camp": -1, "draw": 0})])

    # views, settlement, cards ------------------------------------------------------------------------
    def _views(self, state: State, seats) -> list[View]:
        n = state.num_seats
        place = places(state) if state.finished else tuple(
            state.out.index(s) + 1 if s in state.out else 0 for s in range(n))
        camps = state.camps
        seat_views = tuple(
            SeatView(state.hands[s].bit_count(), "", s % 2 if camps else -1,
                     {"bank": state.banks[bank_of(state, s)], "place": place[s],
                      "trick_cards": state.trick_cards[s]},
                     {"score_cards": _ids_of(state.score_cards[s])} if state.score_cards[s] else {})
            for s in range(n))
        trick = state.trick
        public = {"played": _ids_of(state.played), "set_aside": _ids_of(state.set_aside)}
        counters = {"round": state.match.round, "dealer": state.dealer, "first_lead": state.first_lead,
                    "leader": trick.leader, "exhausted": state.exhausted}
        table = to_combo(trick.top, rules_of(state.options)) if trick.top else None
        table_cards = _ids_of(trick.top_cards) if trick.top else ()
        phase = self.phases[state.phase].name
        return [View(seat, phase, state.to_act, _ids_of(state.hands[seat]) if seat >= 0 else (), seat_views,
                     public, table, trick.top_seat if trick.top else -1, table_cards, counters, state.finished)
                for seat in seats]

    def _settle(self, state: State) -> Settlement:
        """The 小局: each seat's bank change (its camp's in camps), the result and the banks."""
        n = state.num_seats
        points = tuple(state.banks[bank_of(state, s)] - state.opening[bank_of(state, s)] for s in range(n))
        breakdown = [("xiaoju", state.match.round + 1), ("first_out", state.out[0] if state.out else -1),
                     ("exhausted", state.exhausted), ("abandoned", state.abandoned)]
        breakdown += [(f"bank{b}", v) for b, v in enumerate(state.banks)]
        return Settlement(points, state.winners, OUTCOME_NAMES[state.outcome], tuple(breakdown))

    def card_zones(self, state: State):
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        zones.update({f"score_cards{s}": cardlib.from_mask(m) for s, m in enumerate(state.score_cards)})
        zones["played"] = cardlib.from_mask(state.played)
        zones["set_aside"] = cardlib.from_mask(state.set_aside)
        return zones

    def all_cards(self, state: State):
        return range(state.options.decks * cardlib.CARDS_PER_DECK)

    def knowledge(self, state: State) -> Knowledge:
        """Hands are their seats'; played, set-aside and drawn score cards are public (6.6, 2.4)."""
        public = state.played | state.set_aside
        for m in state.score_cards:
            public |= m
        return Knowledge(public, state.hands)

    # stateless helpers -------------------------------------------------------------------------------
    def classify(self, cards_text: str, options: Options) -> list[Combo]:
        play = play_of(parse_cards(cards_text, options), rules_of(options))
        return [to_combo(play, rules_of(options))] if play else []

    def compare(self, a_text: str, b_text: str, options: Options):
        """Can ``a`` be played on ``b``? (beats, a's reading, b's reading).

        Raises:
            InvalidAction: either is not a combination (NOT_A_COMBINATION).
        """
        rules = rules_of(options)
        b = _table_play(b_text, options.decks, rules)
        a = _table_play(a_text, options.decks, rules)
        if not a or not b:
            raise InvalidAction("compare needs two combinations", Reason.NOT_A_COMBINATION)
        return hot.beats(a, b, rules.ladder, rules.flags), to_combo(a, rules), to_combo(b, rules)

    def hint_strings(self, hand_text: str, table_text: str, options: Options, context=EMPTY) -> list[str]:
        return legal_rank_strings(hand_text, table_text, options)

    def hint_json(self, hand_text: str, table_text: str, options: Options, context=EMPTY) -> str:
        """``{"moves": [...]}`` written at once (rank strings need no JSON escapes)."""
        moves = legal_rank_strings(hand_text, table_text, options)
        return '{"moves": [' + ", ".join(f'"{move}"' for move in moves) + "]}"


_PASS_BARS = [f.name for f in dataclasses.fields(Options)].index("pass_bars_trick")


def _old_trick(old: dict) -> tuple:
    """A release-format trick: with pass_bars_trick its passes bar the seats for the trick."""
    trick = old["trick"]
    return trick + (trick[4],) if old["options"][_PASS_BARS] and len(trick) == 5 else trick


Q783 = Q783Game()
