"""够级 Gouji (Qingdao / Shandong: 6 players, 4 packs, two teams) (spec: rules/gouji.md; seed
seeds/gouji.zh.txt).

This module holds the options (every variant of the decision table G-1 .. G-26, typed, with
the spec's defaults, presets and the combinations refused as BAD_OPTION), the plays (§2-§4,
13.3 d) on the compiled hot path (``hot``) and the pieces of a 回合 as functions of plain values;
``game.py`` plays them: the phases of a 回合 (预点, the deal with 上班 and 买三, tribute and 还贡,
明点, 革命 with 要头, the tricks) and the 局 as the match.

Implemented rules
2.1 A play: all natural cards (3 to A) of one rank, with any 2s and jokers (``hot.classify``;
    0 for two natural ranks).
2.2-2.4 Attached 2s take the natural rank; without naturals 2s stay 2s; jokers keep their identity;
    jokers alone are a play (``hot.vector``).
2.5 A play holding both 大花 and 小花 counts every 大花 as 小花 (option ``mixed_jokers_downgrade``,
    G-3, default on).
3.1-3.2 Same number of cards, strictly higher position by position on the sorted vectors
    (``hot.beats``). 3.4: a play with a 大花 (not downgraded) is never beaten at equal size.
3.5 ``option1_joker_counts`` (G-1/G-4) with ``option1_scope`` ``full`` / ``2kill1_only`` /
    ``4pl_table``: count-changing beats between plays of jokers only.
3.6 ``comparison = cover_then_core_strict`` (G-2).
4.1 The 够级牌 test (``hot.is_gouji``).
13.3 d) The burn feasibility test (``hot.can_burn_out``); 13.3 c)-d) together: ``may_burn``.
10.1 Free leads (``hot.free_leads``) and their grouped hints (``grouped_leads``); plays that beat
    a table (``hot.beating_plays``).
``check_answer``: one line of ``referee check --game gouji --jsonl`` (README).

Pieces of the 回合, as functions of plain values (``game.py`` wires them into its phases)
1.1-1.3 ``team``, ``opposite``.
1.4, 6.1-6.4 ``deal``: the six hands of 36 (216 ids, dealt one at a time from the previous 头科)
    and the first leader (上班, ``deal_race``, ``daluo_leads``; drawn when nobody qualifies);
    ``shangban`` and ``three_counts`` (3s, or 4s in 憋三 mode).
10.3-10.4, 11.1-11.6, 13.1-13.5, 14.2-14.3 ``answer_right``: what a seat asked on a play may do
    (not asked, pass only, beat, burn); ``has_head`` (11.4).
12.4 ``dian_gong`` (the seed's 18-row table; ``exchange_one_each``); 12.7 ``luo_gong``.
15.3 ``remaining_places`` (``seat_order``); 15.4 ``chuan_san_hu``; 16.1-16.2 ``round_scores``.
7.2 ``maisan_seller``; 12.1 (12.9) ``tribute_cards``; 12.2 ``payment_order`` (``4pl_order``);
    12.8 ``return_allowed`` (``small_cards_only``, ``free_choice``, ``lowest_only``).

Option checks (BAD_OPTION): ``option1_scope`` other than ``full`` needs ``option1_joker_counts``;
``men_is_daluo`` and ``men_to_duitou`` need ``biesan`` (闷 exists only in 憋三 mode) and exclude
each other (``men_is_daluo`` pays its 闷贡 to the beater); ``teammate_free`` (买三) needs
``biesan``. ``deal_race`` and ``daluo_leads`` are values of one option (``first_leader``), as are
the tribute orders, the 还贡 choices and the comparisons, so they cannot be combined.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ... import cards as cardlib
from ... import rng, speedups
from ...errors import InvalidAction, Reason
from ...game import option

hot = speedups.load("games.gouji.hot")

DECKS = 4
SEATS = 6
NOTATION = cardlib.PokerNotation(DECKS)


@dataclass(frozen=True, slots=True)
class Options:
    # G-1, G-4 (3.1, 3.5)
    option1_joker_counts: bool = option(False, "3.5 (G-1): plays of jokers only may beat with another count")
    option1_scope: str = option("full", "3.5 (G-4): k 大花 by 2k 大花 or 3k 小花, k 小花 by 2k 小花; or only two "
                                "大花 over one; or 4PL's table (2 小 > 1 小, 4 小 > 2 小, 2 大 or 3 小 > 1 大)",
                                allowed=("full", "2kill1_only", "4pl_table"))
    # G-2 (3.2, 3.6)
    comparison: str = option("strict", "3.2/3.6 (G-2): strictly higher at every position, or jokers covered by "
                             "jokers at least as high and the rest strictly higher",
                             allowed=("strict", "cover_then_core_strict"))
    # G-3 (2.5)
    mixed_jokers_downgrade: bool = option(True, "2.5 (G-3): a play holding both jokers counts every 大花 as 小花")
    # G-5 (6.1-6.4)
    first_leader: str = option("shangban", "6.1-6.4 (G-5): most 3s of one suit leads; or the first dealt two "
                               "3s of one suit; or the previous 大落", allowed=("shangban", "deal_race", "daluo_leads"))
    # G-6 (5.1)
    ju_length: int = option(5, "5.1 (G-6): 回合 in a 局", minimum=1, maximum=100)
    # G-26, G-7, G-8, G-9 (§7)
    biesan: bool = option(False, "7.1 (G-26): 憋三 mode, every player finishes with his 3s; 买三")
    teammate_free: bool = option(False, "7.2 (G-7): a team-mate seller gives the 3 for nothing")
    men_is_daluo: bool = option(False, "7.5 (G-9): a hand of only 3s whose last play is beaten is 闷 at once")
    men_to_duitou: bool = option(False, "7.5 (G-9): the 闷贡 goes to the 闷 player's 对头")
    # G-10 (9.5)
    kelei_burnable: bool = option(False, "9.5 (G-10): a 够死级 may be burned, or beaten by a headless neighbour")
    # G-12 (11.6)
    headless_beat: bool = option(True, "11.6 (G-12): a headless neighbour may beat a protected 够级牌 directly")
    # G-13 (12.2)
    tribute_order: str = option("men_shao_dian_luo", "12.2 (G-13): 闷, 烧, 点, 落; or 4PL's 点, 烧, 闷, 落",
                                allowed=("men_shao_dian_luo", "4pl_order"))
    # G-14 (12.4)
    exchange_one_each: bool = option(False, "12.4 (G-14): both 对头 opened: each gives the other one card")
    # G-15 (12.8)
    return_cards: str = option("small_cards_only", "12.8 (G-15): 还贡 without jokers or 钱; any cards; the lowest",
                               allowed=("small_cards_only", "free_choice", "lowest_only"))
    # G-19 (15.3)
    seat_order: bool = option(False, "15.3 (G-19): the players left are placed in seat order, not by cards left")
    # G-21 (17.2)
    exclude_attached_2: bool = option(False, "17.2 (G-21): a play with 2s attached to naturals does not open")
    exclude_pure_2: bool = option(False, "17.2 (G-21): a play of 2s only does not open")
    # G-22 (18.1)
    team_sees_at_10: bool = option(False, "18.1 (G-22): team-mates see a hand of 10 cards or fewer")
    # G-23 (15.2)
    partner_catches_wind: bool = option(False, "15.2 (G-23): 接风 goes to the first active team-mate")
    # G-24 (9.2)
    void_ju: bool = option(False, "9.2 (G-24): two revolutionaries void the whole 局, not the 回合")
    # G-25 (12.9)
    no_repass_tribute: bool = option(False, "12.9 (G-25): tribute just received may not be paid on")
    # G-11, G-16, G-17, G-18, G-20 have no variant (the spec's rules 8.1-8.2, 13.2, 13.3, 13.5, 16)


PRESETS = {
    "gouji": Options(),
    # 4PL够级规则: option 1 with its table, 4PL's tribute order, both opened exchange one each,
    # 闷 is 大落 (7.5), no re-pass of tribute, 3s only last (憋三)
    "4pl": Options(option1_joker_counts=True, option1_scope="4pl_table", tribute_order="4pl_order",
                   exchange_one_each=True, biesan=True, men_is_daluo=True, no_repass_tribute=True,
                   exclude_attached_2=True),
    # zhoujxMT/gouji (KELEI): 够死级 burnable, any cards returned
    "kelei": Options(kelei_burnable=True, return_cards="free_choice"),
}


def option_problems(options: Options) -> list[str]:
    """The combinations of options that make no sense (BAD_OPTION)."""
    problems = []
    if options.option1_scope != "full" and not options.option1_joker_counts:
        problems.append("option1_scope needs option1_joker_counts (3.5)")
    if not options.biesan:
        for name in ("teammate_free", "men_is_daluo", "men_to_duitou"):
            if getattr(options, name):
                problems.append(f"{name} needs biesan: 买三 and 闷 exist only in 憋三 mode (§7)")
    if options.men_is_daluo and options.men_to_duitou:
        problems.append("men_is_daluo and men_to_duitou name two receivers of one 闷贡 (7.5)")
    return problems


def checked_options(options: Options) -> Options:
    """Options with their combinations checked.

    Raises:
        InvalidAction: a combination that makes no sense (BAD_OPTION).
    """
    problems = option_problems(options)
    if problems:
        raise InvalidAction("; ".join(problems), Reason.BAD_OPTION)
    return options


_SCOPE_FLAGS = {scope: hot.FLAGS[f"option1_{scope}"] for scope in ("full", "2kill1_only", "4pl_table")}


def flags_of(options: Options) -> int:
    """The hot path's flags for ``options`` (2.5, 3.5, 3.6)."""
    flags = hot.FLAGS["downgrade"] if options.mixed_jokers_downgrade else 0
    if options.comparison == "cover_then_core_strict":
        flags |= hot.FLAGS["cover"]
    if options.option1_joker_counts:
        flags |= _SCOPE_FLAGS[options.option1_scope]
    return flags


# --- cards and plays ---------------------------------------------------------------------------

def counts_of(ranks) -> tuple[int, int]:
    """The hot path's counts (lo, hi) of an iterable of rank indexes (0..14)."""
    lo = hi = 0
    for r in ranks:
        if r < 8:
            lo += 1 << (8 * r)
        else:
            hi += 1 << (8 * (r - 8))
    return lo, hi


def counts_of_mask(mask: int) -> tuple[int, int]:
    """The counts of a card bitmask over four packs."""
    return counts_of(cardlib.card_rank(c) for c in cardlib.from_mask(mask))


def play_of_ranks(ranks) -> int:
    """The play (hot encoding) of the rank indexes, 0 when they are no play (2.1)."""
    return hot.classify(*counts_of(ranks))


def ranks_of_text(text: str) -> tuple[int, ...]:
    """The rank indexes of card or rank text (``"RJ RJ TH TS TD"``, ``"RRTTT"``), within what four
    packs hold (1.4: 16 of a natural rank, 4 of each joker; the per-rank counts are bytes).

    Raises:
        InvalidAction: an unknown card (UNKNOWN_CARD), more copies than four packs hold
            (DUPLICATE_CARD).
    """
    ids, are_cards = NOTATION.parse_cards_or_ranks(text)  # card text: four of each card at most
    if are_cards:
        return NOTATION.ranks_of(ids)
    for rank in set(ids):
        most = DECKS if rank >= cardlib.SMALL_JOKER else 4 * DECKS
        if ids.count(rank) > most:
            raise InvalidAction(f"{ids.count(rank)} of rank {cardlib.RANK_CHARS[rank]}: four packs hold {most} (1.4)",
                                Reason.DUPLICATE_CARD)
    return ids


def play_of_text(text: str) -> int:
    """The play of card or rank text, 0 when none (raises as ``ranks_of_text``)."""
    return play_of_ranks(ranks_of_text(text))


def play_text(play: int) -> str:
    """A play as a rank string, high to low: big jokers, small jokers, 2s, naturals."""
    rank = hot.natural_rank(play)
    return ("R" * hot.bigs(play) + "B" * hot.smalls(play) + "2" * hot.twos(play)
            + (cardlib.RANKS[rank] * hot.naturals(play) if hot.naturals(play) else ""))


# --- pieces of the 回合, as functions of plain values (wired into game.py's phases) -----------

NONE, MINGDIAN, YUDIAN = 0, 1, 2  # call(X) of 12.4
WIN = (1, 2, 4)  # win(X) by call
LOSE = (1, 4, 8)  # lose(X) by call


def opposite(seat: int) -> int:
    """1.3: P's 对头 is P+3."""
    return (seat + 3) % SEATS


def team(seat: int) -> int:
    """1.1: seats 0, 2, 4 against 1, 3, 5."""
    return seat % 2


def dian_gong(call_a: int, call_b: int, opened_a: bool, opened_b: bool,
              exchange_one_each: bool = False) -> tuple[int, int]:
    """12.4: the 点贡 between the 对头 A and B, as (cards A receives from B, cards B receives from A)."""
    if opened_a and opened_b:
        return (1, 1) if exchange_one_each else (0, 0)
    if opened_a:
        return WIN[call_a] + LOSE[call_b], 0
    if opened_b:
        return 0, WIN[call_b] + LOSE[call_a]
    return WIN[call_a], WIN[call_b]


def luo_gong(places: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """12.7: the 落贡 as (payer, receiver, cards): 大落 gives 头科 two, 二落 gives 二科 one.
    ``places[k]`` is the seat of place k (0 头科 .. 5 大落)."""
    return (places[5], places[0], 2), (places[4], places[1], 1)


def three_counts(hand: int, rank: int = 0) -> int:
    """6.1: the largest number of 3s (``rank`` 1: 4s, 憋三 mode) of one suit in a hand (a card
    bitmask over four packs)."""
    return max(sum(hand >> (deck * cardlib.CARDS_PER_DECK + suit * 13 + rank) & 1 for deck in range(DECKS))
               for suit in range(4))


def shangban(hands, start: int = 0, revolution: int = 0, rank: int = 0) -> int:
    """6.1-6.3: the first leader: the most 3s of one suit (at least 2), ties counter-clockwise from
    ``start`` (the previous 头科, seat 0 when none); -1 when no count reaches 2 (the caller draws
    the leader). A leader in 革命 (``revolution``, a seat mask) passes it to the next seat not in 革命."""
    counts = [three_counts(h, rank) for h in hands]
    best = max(counts)
    if best < 2:
        return -1
    leader = next(s for s in ((start + k) % SEATS for k in range(SEATS)) if counts[s] == best)
    while revolution >> leader & 1:
        leader = (leader + 1) % SEATS
    return leader


PLACE_POINTS = (4, 2, 0, 0, -2, -4)  # 16.1: 头科 .. 大落


def remaining_places(cards_left: dict[int, int], last_out: int, seat_order: bool = False) -> list[int]:
    """15.3: the players left (seat -> cards held) in place order: fewer cards first, ties
    counter-clockwise after ``last_out``; under ``seat_order`` counter-clockwise regardless of cards."""
    order = {(last_out + k) % SEATS: k for k in range(1, SEATS + 1)}
    if seat_order:
        return sorted(cards_left, key=order.__getitem__)
    return sorted(cards_left, key=lambda s: (cards_left[s], order[s]))


def chuan_san_hu(places: tuple[int, ...]) -> bool:
    """15.4: one team holds 头科, 二科 and 三科."""
    return team(places[0]) == team(places[1]) == team(places[2])


def round_scores(places: tuple[int, ...]) -> tuple[int, ...]:
    """16.1-16.2: each seat's 回合 score, his team's sum of place points; ±12 after a 串三户.
    ``places[k]`` is the seat of place k."""
    if chuan_san_hu(places):
        winners = team(places[0])
        return tuple(12 if team(s) == winners else -12 for s in range(SEATS))
    sums = [0, 0]
    for k, seat in enumerate(places):
        sums[team(seat)] += PLACE_POINTS[k]
    return tuple(sums[team(s)] for s in range(SEATS))


# --- who may answer a play before and in 四人乱缠 (10.3-10.4, 11, 13.2-13.5, 14) ----------------

NOT_ASKED, PASS_ONLY, BEAT, BURN = 0, 1, 2, 3


def has_head(seat: int, active: int, revolutionary: int = -1, yaotou_left: int = 0) -> bool:
    """11.4: a seat has a head while its 对头 is active, or while its 对头 is the revolutionary and
    it chose 要头 and has 够死级 left (``yaotou_left``). ``active`` is a seat mask."""
    duitou = opposite(seat)
    if duitou == revolutionary:
        return yaotou_left > 0
    return bool(active >> duitou & 1)


def answer_right(options: Options, seat: int, owner: int, gouji: bool, active: int, barred: int,
                 revolutionary: int = -1, yaotou_left: tuple = (0,) * SEATS, burned_by: int = -1) -> int:
    """What ``seat`` may do when asked on the top play of ``owner`` (``gouji``: it is a 够级牌;
    ``active`` and ``barred`` (seats that passed in the trick) are seat masks; ``burned_by``: the
    seat burning a play of ``seat`` now, for 13.5). NOT_ASKED, PASS_ONLY, BEAT or BURN."""
    if seat == owner or not active >> seat & 1:
        return NOT_ASKED
    if bin(active).count("1") <= 4:
        return BEAT  # 14.2-14.3: no 对头 rule, no burning, a pass bars nothing
    duitou = seat == opposite(owner)
    if barred >> seat & 1 and not duitou:
        return NOT_ASKED  # 10.3-10.4: a pass bars the trick but on the 对头's plays
    protected = gouji and has_head(owner, active, revolutionary, yaotou_left[owner])
    if not protected or duitou:
        return BEAT  # 11.1-11.2 (the 对头), 11.5 (a headless owner's 够级牌 is an ordinary play)
    if team(seat) == team(owner):
        return PASS_ONLY  # 11.1, 13.2
    # a neighbour, P+1 or P+5
    if not has_head(seat, active, revolutionary, yaotou_left[seat]):
        return BEAT if options.headless_beat else PASS_ONLY  # 11.6
    if burned_by == owner:
        return PASS_ONLY  # 13.5: no 反烧
    return BURN  # 13.1-13.3 (a), (b): a seat barred never gets here


def may_burn(hand: tuple[int, int], play: int, top: int, flags: int) -> bool:
    """13.3 c)-d): the play beats the 够级牌 and the hand left can be played out with a joker in
    every set but the last."""
    return hot.beats(play, top, flags) and hot.can_burn_out(*hot.minus(*hand, play))


# --- ``referee check --game gouji --jsonl`` ------------------------------------------------------

def options_of(overrides) -> Options:
    """Options with the request's overrides (names and types checked, then the combinations);
    ``option1`` is accepted for ``option1_joker_counts``.

    Raises:
        InvalidAction: an unknown option, a value of the wrong type or not allowed (BAD_OPTION).
    """
    import dataclasses

    if not isinstance(overrides, dict):
        raise InvalidAction("options must be an object", Reason.BAD_OPTION)
    if "option1" in overrides:  # the issue's name for 3.5 (S003's "option 1")
        overrides = {("option1_joker_counts" if k == "option1" else k): v for k, v in overrides.items()}
    fields = {f.name: f for f in dataclasses.fields(Options)}
    for name, value in overrides.items():
        f = fields.get(name)
        if f is None:
            raise InvalidAction(f"gouji has no option {str(name)[:40]!r}", Reason.BAD_OPTION)
        default, meta = f.default, f.metadata
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if (type(value) is not type(default) or (meta["allowed"] and value not in meta["allowed"])
                or (is_int and meta["minimum"] is not None and value < meta["minimum"])
                or (is_int and meta["maximum"] is not None and value > meta["maximum"])):
            raise InvalidAction(f"option {name}={str(value)[:40]!r} is not allowed", Reason.BAD_OPTION)
    return checked_options(dataclasses.replace(Options(), **overrides))


def check_answer(request) -> dict:
    """One ``check`` line: ``{"play": cards, "table": cards or "", "options": {...}}`` ->
    ``{"legal", "beats", "gouji"}`` (2.1-2.5, 3.1-3.6, 4.1; ``beats`` equals ``legal`` on a free
    lead) or ``{"error": message}`` (a malformed card, more than four copies of a card in the
    play, the table or both, an illegal table, an unknown option). Never raises."""
    try:
        if not isinstance(request, dict) or not isinstance(request.get("play"), str) \
                or not isinstance(request.get("table", ""), str):
            return {"error": "a request is an object with a string play and table"}
        options = options_of(request.get("options", {}))
        play_text_, table_text = request["play"], request.get("table", "")
        cardlib.parse_cards(play_text_ + " " + table_text, DECKS)  # four copies at most, in all
        play = hot.classify(*counts_of(cardlib.ranks_of(cardlib.parse_cards(play_text_, DECKS))))
        table = 0
        if table_text.strip():
            table = hot.classify(*counts_of(cardlib.ranks_of(cardlib.parse_cards(table_text, DECKS))))
            if not table:
                return {"error": f"the table is no play: {table_text[:40]!r}"}
    except InvalidAction as error:
        return {"error": str(error)}
    legal = play != 0
    beats = legal and (not table or hot.beats(play, table, flags_of(options)))
    return {"legal": legal, "beats": bool(beats), "gouji": legal and bool(hot.is_gouji(play))}


# --- grouped hints (a free lead can have over a thousand plays) ---------------------------------

class Group(NamedTuple):
    """A group of free leads: ``naturals`` 1..max cards of natural ``rank`` (rank 15: none), each
    with any 0..``twos`` 2s, 0..``smalls`` 小花 and 0..``bigs`` 大花 attached."""

    rank: int
    naturals: int
    twos: int
    smalls: int
    bigs: int

    def text(self) -> str:
        """``T1-4 +2:0-3 +B:0-2 +R:0-1`` (a group without naturals: ``2/B/R`` with their ranges)."""
        head = f"{cardlib.RANKS[self.rank]}1-{self.naturals}" if self.naturals else "-"
        return f"{head} +2:0-{self.twos} +B:0-{self.smalls} +R:0-{self.bigs}"

    def plays(self) -> list[int]:
        """The plays of the group (hot encoding), as ``hot.free_leads`` lists them."""
        counts = range(1, self.naturals + 1) if self.naturals else (0,)
        return [p for b in range(self.bigs + 1) for s in range(self.smalls + 1) for t in range(self.twos + 1)
                for n in counts if (p := hot.encode(n, t, s, b, self.rank))]


def grouped_leads(hand: tuple[int, int]) -> list[Group]:
    """Rule 10.1 as grouped hints: one group a natural rank held, then the plays without naturals;
    together the groups hold every play of ``hot.free_leads`` once."""
    lo, hi = hand
    extras = [hot.rank_count(lo, hi, r) for r in (12, 13, 14)]
    groups = [Group(r, c, *extras) for r in range(12) if (c := hot.rank_count(lo, hi, r))]
    if any(extras):
        groups.append(Group(15, 0, *extras))
    return groups


# --- tribute, return and 买三 (12.1, 12.2, 12.8, 7.2), as functions of plain values -------------

KIND_ORDER = {"men_shao_dian_luo": ("men", "shao", "dian", "luo"), "4pl_order": ("dian", "shao", "men", "luo")}


def _rank_ids(hand: int, rank: int) -> list[int]:
    return [c for c in cardlib.from_mask(hand & NOTATION.rank_masks[rank])]


def tribute_cards(hand: int, count: int, exclude: int = 0) -> int:
    """12.1 (12.9): the cards a payer owing ``count`` gives: his highest jokers and 钱 first (大花,
    小花, 钱; lowest ids within a rank), as many as he holds; never the cards of ``exclude``
    (under ``no_repass_tribute``, the tribute he received)."""
    paid = []
    for rank in (cardlib.BIG_JOKER, cardlib.SMALL_JOKER, 12):
        paid += _rank_ids(hand & ~exclude, rank)
    return cardlib.to_mask(paid[:count])


def payment_order(payments, previous_toke: int, order: str = "men_shao_dian_luo"):
    """12.2: tribute payments ``(kind, payer, receiver, cards)`` in the order they are paid: by
    kind, then payers counter-clockwise from the previous 头科, then receivers counter-clockwise
    from the payer."""
    kinds = KIND_ORDER[order]
    return sorted(payments, key=lambda p: (kinds.index(p[0]), (p[1] - previous_toke) % SEATS, (p[2] - p[1]) % SEATS))


def return_allowed(hand: int, returned: int, count: int, choice: str = "small_cards_only",
                   biesan: bool = False) -> bool:
    """12.8: may the receiver of ``count`` 落贡 cards return ``returned`` (a mask of his ``hand``)?"""
    if returned & ~hand or returned.bit_count() != count:
        return False
    if choice == "free_choice":
        return True
    ranks = sorted(cardlib.card_rank(c) for c in cardlib.from_mask(hand) if not (biesan and cardlib.card_rank(c) == 0))
    given = sorted(cardlib.card_rank(c) for c in cardlib.from_mask(returned))
    if biesan and 0 in given:
        return False
    if choice == "lowest_only":
        return given == ranks[:count]
    small = [r for r in ranks if r < 12]
    if len(small) >= count:
        return all(r < 12 for r in given)
    # too few small cards: all of them, then his lowest 钱 and jokers
    return given == sorted(small + [r for r in ranks if r >= 12][:count - len(small)])


def maisan_seller(buyer: int, threes: tuple[int, ...]) -> int:
    """7.2: who sells a 3 to ``buyer``: the first holding at least two 3s of his 对头, his other two
    opponents, then his team-mates, each group counter-clockwise from the buyer; -1 when none."""
    order = [opposite(buyer)] + [(buyer + k) % SEATS for k in (1, 5)] + [(buyer + k) % SEATS for k in (2, 4)]
    return next((s for s in order if threes[s] >= 2), -1)


# --- the deal and the first leader (1.4, 6.1-6.4) ------------------------------------------------

def deal(seed: bytes, entropy: bytes, options: Options, start: int = 0, daluo: int = -1,
         revolution: int = 0) -> tuple[tuple[int, ...], int]:
    """1.4, 6.1-6.4: (the six hands as card bitmasks, the first leader). The 216 ids are shuffled
    with the stream ``deal`` of the deal key and dealt one at a time counter-clockwise from
    ``start`` (the previous 头科, seat 0 when none: 6.2). The leader: 上班 (6.1-6.3); under
    ``deal_race`` the first seat dealt two 3s of one suit (4s in 憋三 mode); under ``daluo_leads``
    the previous 大落 (``daluo``, -1 in a 局's first 回合: then 上班). When nobody qualifies the
    leader is drawn with the stream ``first_leader`` (randbelow(6))."""
    key = rng.deal_key(seed, entropy)
    deck = rng.Stream(key, "deal").shuffle(range(NOTATION.id_count))
    hands = [0] * SEATS
    leader = -1
    low = 1 if options.biesan else 0  # the rank counted: 3, or 4 in 憋三 mode
    for i, card in enumerate(deck):
        seat = (start + i) % SEATS
        hands[seat] |= 1 << card
        if (leader < 0 and options.first_leader == "deal_race" and cardlib.card_rank(card) == low
                and _suit_count(hands[seat], card % cardlib.CARDS_PER_DECK) >= 2):
            leader = seat
    if options.first_leader == "daluo_leads" and daluo >= 0:
        leader = daluo
    elif options.first_leader != "deal_race":
        leader = shangban(hands, start, 0, low)
    if leader < 0:
        leader = rng.Stream(key, "first_leader").randbelow(SEATS)
    while revolution >> leader & 1:  # 6.3
        leader = (leader + 1) % SEATS
    return tuple(hands), leader


def _suit_count(hand: int, k: int) -> int:
    """How many copies of the card ``k`` (0..53 within a pack) the hand holds over the four packs."""
    return sum(hand >> (deck * cardlib.CARDS_PER_DECK + k) & 1 for deck in range(DECKS))
