"""国标麻将 Chinese Official Mahjong (MCR), the whole hand refereed (spec: rules/mcr.md rules 1-11).

The fans come from the stateless calculator in ``mcr.py`` (rules 8-10, 12); this module is
the table: the wall, the turns, the claims and the payments of one hand.

Tile ids (rule 1). Physical tiles, 144 ids: the 136 suited and honor tiles are
``id = kind * 4 + copy`` for kinds 0..33 in ``mcr.py``'s order (W1-W9, T1-T9, B1-B9, F1-F4 E S W
N, J1-J3 中发白) and copies 0..3; the flowers H1-H8 (春夏秋冬梅兰竹菊) are ids 136..143 (kind 34..41,
as in ``mcr.py``). ``NOTATION`` (``TileNotation``) speaks them: ``W1 W1 T5 F1 H3`` is tile text
(ids; the n-th copy of a kind named in one text is copy n), ``W11T5F1H3`` a kind string (kinds,
no copies); ``format_ranks`` writes the kind string, so it round-trips.

Deal (rules 2-3). The wall is ``range(144)`` shuffled by ``rng.Stream(deal_key, "wall")``. The
dealer is ``options.dealer``, or when -1 a seat drawn from the stream ``dealer``. Seat winds
run from the dealer: seat (dealer + i) mod 4 has wind i (0..3 = E S W N); turn order is seat
s -> s + 1 (counterclockwise), so seat s - 1 is s's left (上家) and the only seat whose discard
s may chow. Dealing takes the wall from the front: 13 tiles to each seat from the dealer on,
then a 14th to the dealer. Flowers (补花): seats in turn from the dealer set aside every flower
they hold and draw replacements from the back of the wall until they hold none. Play draws
from the front; kong and flower replacements come from the back. All 144 tiles are played: no
dead wall is kept back.

Turn (rule 4). The seat on turn holds 3n + 2 tiles (with its melds). If it drew (or was dealt)
its last tile it may WIN by self-draw with that tile, declare a KONG (a concealed kong of four
tiles in hand, or an added kong 加杠 putting the fourth tile on one of its exposed pungs), or
DISCARD. After a chow or pung claim it must discard: no win, no kong. A kong needs a tile left
in the wall (for the replacement); so does any claim but a win. The dealer's first turn counts
as after a draw, with the last tile dealt to it (or its last flower replacement) as the drawn
tile. Draws are not actions: they happen inside ``apply`` (the next seat's draw after a discard
nobody claims, the replacement after a kong or a flower), as DRAW events whose tile only that
seat may know (``knowledge``).

Claims (rule 5). After a discard, the claim window asks the other seats that can claim it (WIN,
PUNG, exposed KONG, CHOW for the next seat only): a seat whose only answer would be PASS is not
asked, and when nobody can claim no window opens (the next seat draws at once). Who is asked is
nobody else's business: the claim phase's turn is not public (a seat's view shows whether it is
awaited itself, not who else is; CLAIM_WINDOW names the tile, not the seats). Each asked seat
answers once, PASS or one claim (answers are secret until the window closes: a claim answer
yields no event; through the API a seat's answer comes back sealed and the table's owner
applies the answers). When the last answer is in the window resolves by priority: WIN beats
PUNG/KONG beats CHOW; of several wins the first seat counterclockwise from the discarder wins
alone (截和); only the outcome is told (the winning claim's event, or the next draw): a PASS
event would tell who could claim. A pung or chow claimer must then discard; an exposed kong
draws its replacement from the back. A claimed tile leaves the discarder's river. An added
kong opens a robbing window (抢杠和) for the other seats that can win on its tile (none: the
kong stands at once); the first winner counterclockwise from the seat adding the kong takes
the tile, otherwise the kong stands and its replacement is drawn. Concealed kongs cannot be
robbed. There is no "passed win" restriction (no furiten): a seat that passed a win may win on
the next tile.

Winning (rules 6, 8-10). A WIN is checked by ``mcr.calculate_fans`` at ``options.min_points``
(default 8, flowers not counted); a hand that does not win is refused with NOT_WIN, one under the
minimum with UNDER_8, and the state does not change. Flags: self-drawn; 杠上开花 on the
replacement tile of a kong (a flower replacement after it still counts); 抢杠和 when robbing; 妙手回春
when the self-drawn tile was the wall's last; 海底捞月 on the discard made after the last tile was
drawn; 和绝张 when the three other copies of the winning tile are visible (in rivers and exposed
melds; concealed kongs are face down); seat wind from the dealer; ``options.prevalent_wind``;
the winner's flowers.

Exhausted wall (rule 7): when a seat must draw and the wall is empty, or the last discard is not
won, the hand is drawn (荒牌, DRAWN_GAME).

Settlement (rule 11), base 8: self-draw: each other seat pays the winner 8 + total; won on a
discard (or by robbing a kong, the seat adding the kong paying as the discarder): the discarder
pays 8 + total, each other seat 8. ``total`` is the fan points plus one per flower. Drawn hand:
all zero. The breakdown lists each fan (``fan_<id>``: its points times its count; ListGames names it),
then fan_points, flowers, total, winner, payer and dealer. ABANDON (逃跑, any seat, any time)
ends the hand: the leaver pays 8 to each other seat (our choice).

Matches (rule 13): the next hand of a match is dealt from the finished one (``next_round``):
the deal passes to the next seat whoever won, the prevalent wind turns after every four hands
(E, S, W, N from ``options.prevalent_wind``), and after ``options.hands`` hands (16) the match is
over. ``options.dealer`` and ``options.prevalent_wind`` are the first hand's.

Clock (rules 14-15), on the platform's clock (``core/clock.py``; the table's option ``clock``,
default ``seed``): the dealer's first discard within 30 s of the deal, every later turn within 15 s
of the discard that opened the claim window it follows (the claim included), 3 s for every claim
or robbing window. The default action (a timeout, autoplay): a turn discards the tile just drawn,
after a chow or pung the rightmost concealed tile in id order; a window answers PASS.

False win (rule 16): a WIN that is not one (NOT_WIN, UNDER_8) is refused and nothing changes;
with ``options.false_win_penalty`` > 0 it is taken instead as a false win 诈和 (FALSE_WIN event,
values penalty): the hand goes on (on a turn the seat still has to play; in a window the answer
counts as a pass, kept as (PASS, tile) and told when the window closes), and at the end of the
hand the claimant pays the penalty to each other seat per false win (breakdown
``false_win_penalty``), whatever the outcome. At most 15 false wins a seat a hand, then refused.

Legal actions, in this order: turn: DISCARD once per tile kind held (its lowest id), each KONG,
WIN last; claim window: PASS, each CHOW (the lowest ids of the two tiles), PUNG, KONG, WIN last.
An action may name its tiles by id (``cards``) or by kind (``ranks``: the lowest ids held are
taken); WIN and PASS need none. A CHOW names the two tiles from the hand (or the three kinds of
the run); a PUNG or claimed KONG may name none.

Phases: ``turn`` (DISCARD, KONG, WIN), ``claim`` and ``rob_kong`` (the shared simultaneous
decision, ``decisions.DecisionPhase``), ``finished``.

Views hide other seats' concealed tiles, drawn tiles and concealed kongs; when the hand is won
the winner's are shown, the others' stay hidden (the table's owner sees every seat's view).
Per seat: ``cards`` ``discards`` (the river) and ``flowers``, and the winner's ``hand``;
``melds`` (kind chow/pung/kong, tiles, the seat claimed from, -1 concealed; another seat's
concealed kong shows no tiles); ``role`` its wind, ``east`` .. ``north``.
``public_cards``: ``claim_tile`` in a window, ``win_tile`` once won. ``counters``: wall, dealer,
prevalent_wind, min_points, turn, drawn (the viewer's own drawn tile, else -1), after_kong,
round, and when won winner, payer, points, total.

Events: DEAL (per seat, its tiles; private), FLOWER (public), DRAW (private; values replacement,
wall), DISCARD, CLAIM_WINDOW (seat: the discarder or the seat adding a kong; cards: the tile;
values robbing), CHOW / PUNG / KONG (values from,
claimed; a concealed KONG shows no tiles, values concealed; an added one, values added), WIN
(values from, points, total, self_drawn, robbed_kong), DRAWN_GAME, ABANDON.

State: hands are bitmasks over tile ids, the wall the 144 shuffled ids as bytes with the two
ends ``front``/``back``, melds small int tuples, a won hand's fans as bytes (id, count, ...);
the state codec packs it (equal states, equal bytes and digests).
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import Annotated, Iterable, NamedTuple

from ... import rng
from . import fans as mcr
from ...cards import from_mask
from ...decisions import DecisionPhase, Window
from ...codec import Blob, Choice, Index, Layout, Mask, OneOf, Seq, Small
from ...clock import Limit
from ...errors import IllegalAction, InvalidAction, Reason, quote
from ...game import (ABANDON, COMMON_KINDS, EMPTY, PASS, Action, ActionKind, Combo, DealKey, Event, EventType, Finished,
                   Game, Knowledge, Match, Meld, Moves, SeatView, Settlement, Verdict, View, held, option)
from .fans import NOT_WIN, UNDER_8
from .fan_table import FANS, NUM_KINDS, TILE_IDS, TILE_NAMES

SEATS = 4
TILE_COUNT = 144
FLOWER_BASE = 136  # H1..H8 = 136..143
NUM_FLOWERS = 8
HAND_SIZE = 13
BASE_POINTS = 8
FIRST_HONOR = 27
WIND_NAMES = ("east", "south", "west", "north")

TURN, CLAIM, ROB, FINISHED = 0, 1, 2, 3

PLAYING, SELF_DRAWN, ON_DISCARD, ROBBED_KONG, DRAWN, ABANDONED = range(6)
OUTCOME_NAMES = ("", "self_drawn", "won_on_discard", "robbed_kong", "drawn", "abandoned")

# meld tuples: (kind, source seat or -1 concealed, claimed tile id or -1, tile ids ascending...)
CHOW_MELD, PUNG_MELD, KONG_MELD = int(mcr.MeldKind.CHI), int(mcr.MeldKind.PENG), int(mcr.MeldKind.GANG)


# the game's own action kinds (PASS and ABANDON are common)
DISCARD, CHOW, PUNG, KONG, WIN = "DISCARD", "CHOW", "PUNG", "KONG", "WIN"
MAX_FALSE_WINS = 15  # rule 16: a seat's false wins in a hand; past it a false win is refused as without a penalty
FALSE_WIN = "false_win"  # a verdict's detail: a false win under false_win_penalty (rule 16)
FIRST_DISCARD_MS, TURN_MS, CLAIM_MS = 30_000, 15_000, 3_000  # rule 14 (clock=seed)
CLAIM_PRIORITY = {WIN: 3, PUNG: 2, KONG: 2, CHOW: 1, PASS: 0}  # rule 5
MELD_NAMES = {CHOW_MELD: "chow", PUNG_MELD: "pung", KONG_MELD: "kong"}


# --- tiles and notation -----------------------------------------------------------------------------

def tile_kind(tile: int) -> int:
    """Kind 0..41 (``mcr.py``'s ids) of a physical tile id 0..143."""
    return tile >> 2 if tile < FLOWER_BASE else NUM_KINDS + tile - FLOWER_BASE


def kind_tiles(kind: int) -> tuple[int, ...]:
    """The physical ids of a kind: four copies, one for a flower."""
    if kind < NUM_KINDS:
        return tuple(range(kind * 4, kind * 4 + 4))
    return (FLOWER_BASE + kind - NUM_KINDS,)


_KIND_OF = tuple(tile_kind(t) for t in range(TILE_COUNT))
_KIND_MASK = tuple(sum(1 << t for t in kind_tiles(k)) for k in range(NUM_KINDS + NUM_FLOWERS))
_KIND_STRING = re.compile(r"([WTBFJH])([1-9]+)")


# roles by dealer
_ROLES = tuple(tuple(WIND_NAMES[(s - dealer) % SEATS] for s in range(SEATS)) for dealer in range(SEATS))

# tile ids of a bitmask, cached: a Play answers with every seat's hand, and three of the four
# did not change since the last one
_ids_of = functools.lru_cache(maxsize=16384)(from_mask)


def _kinds(mask: int) -> list[int]:
    return [_KIND_OF[t] for t in from_mask(mask)]


def _lowest(mask: int, kind: int, n: int = 1) -> tuple[int, ...]:
    """The ``n`` lowest ids of ``kind`` in ``mask`` (fewer when the mask holds fewer)."""
    mask &= _KIND_MASK[kind]
    ids: tuple[int, ...] = ()
    while mask and len(ids) < n:
        low = mask & -mask
        ids += (low.bit_length() - 1,)
        mask ^= low
    return ids


class TileNotation:
    """The tile notation of the API (the interface of ``cards.PokerNotation``): ranks are tile
    kinds, the lowest ids of a kind are taken first."""

    name = "mahjong"
    id_count = TILE_COUNT
    rank_count = NUM_KINDS + NUM_FLOWERS
    rank_masks = _KIND_MASK

    def format_cards(self, ids: Iterable[int]) -> str:
        """Ids in id order as tile names: ``W1 W1 T5 F1 H3``."""
        return " ".join(TILE_NAMES[_KIND_OF[t]] for t in sorted(ids))

    def parse_cards_or_ranks(self, text: str) -> tuple[tuple[int, ...], bool]:
        """Tile text -> (ids, True), the n-th copy of a kind given being copy n; a kind string
        (``W119T5F1``) -> (kinds ascending, False).

        Raises:
            InvalidAction: unknown tile (UNKNOWN_CARD), more copies than exist (DUPLICATE_CARD).
        """
        tokens = text.replace(",", " ").upper().split()
        if all(token in TILE_IDS for token in tokens):
            used = [0] * (NUM_KINDS + NUM_FLOWERS)
            ids = []
            for token in tokens:
                kind = TILE_IDS[token]
                copies = kind_tiles(kind)
                if used[kind] >= len(copies):
                    raise InvalidAction(f"tile {token} given more than {len(copies)} time(s)",
                                        Reason.DUPLICATE_CARD)
                ids.append(copies[used[kind]])
                used[kind] += 1
            return tuple(ids), True
        compact = "".join(tokens)
        kinds = []
        pos = 0
        for match in _KIND_STRING.finditer(compact):
            if match.start() != pos:
                break
            for digit in match.group(2):
                kind = TILE_IDS.get(match.group(1) + digit)
                if kind is None:
                    raise InvalidAction(f"unknown tile {match.group(1)}{digit} in {quote(text)}",
                                        Reason.UNKNOWN_CARD)
                kinds.append(kind)
            pos = match.end()
        if pos != len(compact):
            raise InvalidAction(f"not tiles: {quote(text)} (tiles W1-9 T1-9 B1-9 F1-4 J1-3 H1-8, "
                                "or a kind string such as W119T5)", Reason.UNKNOWN_CARD)
        return tuple(sorted(kinds)), False

    def format_ranks(self, kinds: Iterable[int]) -> str:
        """Kinds as a kind string: ``W119T5F1``."""
        out = []
        letter = ""
        for kind in sorted(kinds):
            name = TILE_NAMES[kind]
            if name[0] != letter:
                letter = name[0]
                out.append(letter)
            out.append(name[1])
        return "".join(out)

    def ranks_of(self, ids: Iterable[int]) -> tuple[int, ...]:
        return tuple(sorted(_KIND_OF[t] for t in ids))


NOTATION = TileNotation()


# --- options and state ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Options:
    dealer: int = option(0, "rule 2: the dealer's seat (seat wind E); -1 draws it from the seed",
                         minimum=-1, maximum=SEATS - 1)
    prevalent_wind: int = option(0, "rule 2: the round's prevalent wind, 0..3 = E S W N",
                                 minimum=0, maximum=3)
    min_points: int = option(mcr.MIN_POINTS, "rule 10: fan points a win needs, flowers not counted",
                             minimum=0, maximum=88)
    hands: int = option(16, "rule 13: hands (盘) in a match (局); the deal rotates every hand, the "
                        "prevalent wind every four", minimum=1, maximum=64)
    false_win_penalty: int = option(0, "rule 16: a false win 诈和 (not a win, or under the minimum) costs the "
                                    "claimant this many points to each other seat at the end of the hand, which goes "
                                    "on; 0: refused (NOT_WIN, UNDER_8)", minimum=0, maximum=1000)


class Carry(NamedTuple):
    """What a hand carries into the next one of its match (rule 13)."""

    dealer: Annotated[int, Index(SEATS, 0)]
    prevalent_wind: Annotated[int, Index(4, 0)]


class State(NamedTuple):
    """A hand in progress; immutable (a NamedTuple: cheap to build, copy and pack on every call)."""

    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    dealer: int
    prevalent_wind: int
    wall: bytes  # the shuffled 144 tile ids; the live wall is wall[front:back]
    front: int
    back: int
    hands: tuple[int, ...]  # concealed tiles per seat, bitmasks over tile ids
    melds: tuple[tuple[tuple[int, ...], ...], ...]  # per seat, meld tuples (see CHOW_MELD)
    discards: tuple[tuple[int, ...], ...]  # per seat, the river (claimed tiles leave it)
    flowers: tuple[tuple[int, ...], ...]
    phase: int
    to_act: tuple[int, ...]
    turn: int  # seat on turn; in a window the discarder or the seat adding the kong
    drawn: int = -1  # the turn seat's drawn tile (its self-draw winning tile); -1 after a claim
    after_kong: bool = False  # the drawn tile is a kong's replacement
    tile: int = -1  # the tile a claim or robbing window is about
    window: Window = Window()  # seats asked, counterclockwise from ``turn``; answers (kind, tile ids...)
    winner: int = -1
    payer: int = -1  # discarder or robbed seat; -1 on a self-draw
    fans: bytes = b""  # fan id, count, fan id, count ... (one byte each), flowers included
    points: int = 0  # fan points without flowers
    total: int = 0  # with flowers
    outcome: int = PLAYING
    abandoned: int = -1
    step: int = 0
    false_wins: tuple[int, ...] = (0,) * 4  # rule 16: each seat's false wins (false_win_penalty)

    num_seats = SEATS

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED




class _Table:
    """A mutable copy of a State while an action is applied: the State's fields as attributes
    (one dict update in, one tuple out), the per-seat tables as lists."""

    def __init__(self, state: State):
        self.__dict__.update(zip(State._fields, state))
        self.hands = list(state.hands)
        self.melds = list(state.melds)
        self.discards = list(state.discards)
        self.flowers = list(state.flowers)

    def freeze(self) -> State:
        """The next State (the game counts the step). The table is spent."""
        values = self.__dict__
        for name in ("hands", "melds", "discards", "flowers"):
            values[name] = tuple(values[name])
        return State._make(map(values.__getitem__, State._fields))


# --- rules on a state (State or _Table) -------------------------------------------------------------

def wall_left(t) -> int:
    return t.back - t.front


def _visible_copies(t, kind: int, exclude: int) -> int:
    """Copies of ``kind`` face up: in rivers and exposed melds, ``exclude`` (an id) not counted."""
    mask = _KIND_MASK[kind] & ~(1 << exclude)
    count = sum(1 for river in t.discards for tile in river if (mask >> tile) & 1)
    for seat_melds in t.melds:
        for meld in seat_melds:
            if meld[1] >= 0:
                count += sum(1 for tile in meld[3:] if (mask >> tile) & 1)
    return count


def _calc_meld(seat: int, meld: tuple[int, ...]) -> mcr.Meld:
    kind, source, claimed = meld[0], meld[1], meld[2]
    low = _KIND_OF[meld[3]]
    if kind == CHOW_MELD:
        return mcr.Meld(mcr.MeldKind.CHI, low + 1, _KIND_OF[claimed] - low + 1)
    offer = 0 if source < 0 else (seat - source) % SEATS
    return mcr.Meld(mcr.MeldKind.PENG if kind == PUNG_MELD else mcr.MeldKind.GANG, low, offer)


def win_hand(t, seat: int, tile: int, self_drawn: bool, kong_related: bool,
             fourth_tile: bool | None = None) -> mcr.Hand:
    """The calculator's description of ``seat`` winning on ``tile`` (in hand when self-drawn);
    ``fourth_tile`` (和绝张) is looked up unless given."""
    hand = t.hands[seat] & ~(1 << tile) if self_drawn else t.hands[seat]
    kind = _KIND_OF[tile]
    return mcr.Hand(tuple(_calc_meld(seat, m) for m in t.melds[seat]), _concealed_kinds(hand), kind,
                    self_drawn=self_drawn,
                    fourth_tile=_visible_copies(t, kind, tile) == 3 if fourth_tile is None else fourth_tile,
                    kong_related=kong_related, wall_last=wall_left(t) == 0,
                    seat_wind=(seat - t.dealer) % SEATS, prevalent_wind=t.prevalent_wind,
                    flowers=len(t.flowers[seat]))


def win_result(t, seat: int, tile: int, self_drawn: bool, kong_related: bool) -> mcr.FanResult:
    """The fans of the win.

    Raises:
        IllegalAction: NOT_WIN or UNDER_8 (under ``options.min_points``).
    """
    # Every discard is checked for every other seat's win, again when the seats ask for their
    # legal actions, and most checks end at NOT_WIN: the shape is judged first, cached by what
    # it depends on; for a winning shape the hand is judged as if the tile were not the last of
    # its kind, and the rivers and melds are only counted (和绝张) when that could matter.
    not_win = _not_a_win(t.hands[seat] & ~(1 << tile) if self_drawn else t.hands[seat], t.melds[seat], seat,
                         _KIND_OF[tile])
    if not_win:
        raise IllegalAction(not_win, NOT_WIN)
    minimum = t.options.min_points
    hand = win_hand(t, seat, tile, self_drawn, kong_related, fourth_tile=False)
    try:
        result = mcr.calculate_fans(hand, minimum)
    except IllegalAction as error:
        if error.reason == NOT_WIN or _visible_copies(t, _KIND_OF[tile], tile) != 3:
            raise
        result = None  # under the minimum without 和绝张: perhaps not with it
    if result is not None and _visible_copies(t, _KIND_OF[tile], tile) != 3:
        return result
    return mcr.calculate_fans(dataclasses.replace(hand, fourth_tile=True), minimum)


@functools.lru_cache(maxsize=16384)
def _not_a_win(concealed: int, melds: tuple, seat: int, kind: int) -> str:
    """``mcr.win_shape_failure`` of the concealed tiles (a mask), a seat's melds and a tile of
    ``kind``, cached by what the shape depends on."""
    return mcr.win_shape_failure(tuple(_calc_meld(seat, m) for m in melds), _concealed_kinds(concealed), kind)


@functools.lru_cache(maxsize=16384)
def _concealed_kinds(mask: int) -> tuple[int, ...]:
    return tuple(_kinds(mask))


def _try_win(t, seat: int, tile: int, self_drawn: bool, kong_related: bool) -> mcr.FanResult | None:
    try:
        return win_result(t, seat, tile, self_drawn, kong_related)
    except IllegalAction:
        return None


def _win_combo(tile: int, result: mcr.FanResult) -> Combo:
    kind = _KIND_OF[tile]
    return Combo("win", kind, 1, 1, (kind,), f"win 和 {result.total} points")


def _meld_combo(meld_kind: int, kinds: tuple[int, ...], label: str) -> Combo:
    name = MELD_NAMES[meld_kind]
    return Combo(name, kinds[1] if meld_kind == CHOW_MELD else kinds[0], 1, len(kinds), kinds, label)


def _chow_shapes(hand: int, tile: int) -> list[tuple[int, int]]:
    """The pairs of hand ids (lowest copies) that chow ``tile``, lowest run first."""
    kind = _KIND_OF[tile]
    if kind >= FIRST_HONOR:
        return []
    rank = kind % 9
    out = []
    for low in (kind - 2, kind - 1, kind):
        if low < kind - rank or low + 2 > kind - rank + 8:
            continue
        others = [k for k in (low, low + 1, low + 2) if k != kind]
        picked = [_lowest(hand, k) for k in others]
        if all(picked):
            out.append((picked[0][0], picked[1][0]))
    return out


def claim_options(t, seat: int, tile: int, robbing: bool) -> list[tuple[Action, Combo | None]]:
    """The claims (not PASS) ``seat`` may make on ``tile``, in legal-action order."""
    out: list[tuple[Action, Combo | None]] = []
    hand = t.hands[seat]
    kind = _KIND_OF[tile]
    if not robbing and wall_left(t) > 0:
        if seat == (t.turn + 1) % SEATS:
            for a, b in _chow_shapes(hand, tile):
                kinds = tuple(sorted((kind, _KIND_OF[a], _KIND_OF[b])))
                out.append((Action(seat, CHOW, (a, b)), _meld_combo(CHOW_MELD, kinds, "chow 吃")))
        same = _lowest(hand, kind, 3)
        if len(same) >= 2:
            out.append((Action(seat, PUNG, same[:2]), _meld_combo(PUNG_MELD, (kind,) * 3, "pung 碰")))
        if len(same) == 3:
            out.append((Action(seat, KONG, same), _meld_combo(KONG_MELD, (kind,) * 4, "exposed kong 明杠")))
    result = _try_win(t, seat, tile, False, robbing)
    if result is not None:
        out.append((Action(seat, WIN), _win_combo(tile, result)))
    return out


def turn_kongs(t, seat: int) -> list[tuple[Action, Combo]]:
    """The kongs the seat on turn may declare: concealed, then added, by kind."""
    if t.drawn < 0 or wall_left(t) == 0:
        return []
    hand = t.hands[seat]
    out = []
    for kind in sorted(set(_kinds(hand))):
        tiles = _lowest(hand, kind, 4)
        if len(tiles) == 4:
            out.append((Action(seat, KONG, tiles),
                        _meld_combo(KONG_MELD, (kind,) * 4, "concealed kong 暗杠")))
    for meld in t.melds[seat]:
        if meld[0] == PUNG_MELD:
            tiles = _lowest(hand, _KIND_OF[meld[3]])
            if tiles:
                out.append((Action(seat, KONG, tiles),
                            _meld_combo(KONG_MELD, (_KIND_OF[meld[3]],) * 4, "added kong 加杠")))
    return out


# --- the phases -------------------------------------------------------------------------------------

def turn_actions(state: State, seat: int):
    """Rule 4, in order: DISCARD once per tile kind held (its lowest id), each KONG, WIN last."""
    hand = state.hands[seat]
    out: list[tuple[Action, Combo | None]] = [
        (Action(seat, DISCARD, _lowest(hand, kind)), None) for kind in sorted(set(_kinds(hand)))]
    out += turn_kongs(state, seat)
    if state.drawn >= 0:
        result = _try_win(state, seat, state.drawn, True, state.after_kong)
        if result is not None:
            out.append((Action(seat, WIN), _win_combo(state.drawn, result)))
    return out


def check_turn(state: State, action: Action) -> Verdict:
    if action.kind == DISCARD:
        return _check_discard(state, action)
    if action.kind == KONG:
        return _check_turn_kong(state, action)
    if state.drawn < 0:
        return _false_win(state, action, Verdict.no(NOT_WIN, "no tile drawn: after a chow or pung, discard"))
    return _false_win(state, action, _check_win(state, action, state.drawn, True, state.after_kong))


def _false_win(state: State, action: Action, verdict: Verdict) -> Verdict:
    """Rule 16: under ``false_win_penalty`` a win that is not one (NOT_WIN, UNDER_8) is taken as
    a false win 诈和: penalized at the end of the hand, the hand going on (the seat still on turn;
    in a claim window the answer counts as a pass). Without it, or past MAX_FALSE_WINS, refused."""
    if (verdict.legal or verdict.reason not in (NOT_WIN, UNDER_8) or not state.options.false_win_penalty
            or state.false_wins[action.seat] >= MAX_FALSE_WINS):
        return verdict
    if state.phase == TURN:
        return Verdict.ok(f"false win 诈和: {verdict.message}", action=Action(action.seat, WIN), detail=FALSE_WIN)
    # kept in the window as a pass naming the tile: the window's close counts the penalty
    return Verdict.ok(f"false win 诈和: {verdict.message}", action=Action(action.seat, PASS, (state.tile,)),
                      detail=FALSE_WIN)


def apply_turn(state: State, action: Action, verdict: Verdict):
    t = _Table(state)
    events: list[Event] = []
    seat = action.seat
    if action.kind == DISCARD:
        _discard(t, seat, action.cards[0], events)
    elif action.kind == WIN and verdict.detail == FALSE_WIN:
        _penalize(t, seat, events)
    elif action.kind == WIN:
        _win(t, seat, t.drawn, -1, SELF_DRAWN, verdict.detail, events)
    else:
        _turn_kong(t, seat, action.cards, events)
    return t.freeze(), events


def check_claim(state: State, action: Action) -> Verdict:
    if action.kind == PASS:
        return Verdict.ok("pass", action=Action(action.seat, PASS))
    if action.kind == WIN:
        return _false_win(state, action, _check_win(state, action, state.tile, False, state.phase == ROB))
    return _check_claim(state, action)


def _penalize(t, seat: int, events: list) -> None:
    t.false_wins = t.false_wins[:seat] + (t.false_wins[seat] + 1,) + t.false_wins[seat + 1:]
    events.append(Event("FALSE_WIN", seat, values={"penalty": t.options.false_win_penalty}))


def claim_actions(state: State, seat: int):
    return [(Action(seat, PASS), None)] + claim_options(state, seat, state.tile, state.phase == ROB)


def close_window(state: State, events: list) -> State:
    t = _Table(state)
    for seat, answer in zip(t.window.asked, t.window.answers):
        if answer[0] == PASS and len(answer) > 1:  # a false win (rule 16), kept as a pass naming the tile
            _penalize(t, seat, events)
    _close_window(t, events)
    return t.freeze()


def _record(verdict: Verdict, action: Action) -> tuple:
    """What a claim window keeps of an answer: (kind, tile ids from the hand...)."""
    return (action.kind,) + action.cards


class Mahjong(Game):
    id = "mcr"
    name = "国标麻将 Chinese Official Mahjong"
    min_seats = max_seats = SEATS
    notation = NOTATION
    Options = Options
    presets = {}
    phases = (Moves("turn", (DISCARD, KONG, WIN), legal=turn_actions, check=check_turn, apply=apply_turn),
              DecisionPhase("claim", (PASS, CHOW, PUNG, KONG, WIN), check=check_claim, legal=claim_actions,
                            resolve=close_window, record=_record),
              DecisionPhase("rob_kong", (PASS, WIN), check=check_claim, legal=claim_actions, resolve=close_window,
                            record=_record),
              Finished())
    State = State
    # every tile is in one place: the rivers together hold at most every tile, a seat at most 4
    # melds of at most 4 tiles (a meld: kind, source seat or -1, claimed tile or -1, tiles)
    state_fields = {"match.carry": Carry | None, "dealer": Index(SEATS, 0), "prevalent_wind": Index(4, 0),
                    "wall": Blob(TILE_COUNT), "front": Index(TILE_COUNT + 1, 0), "back": Index(TILE_COUNT + 1, 0),
                    "hands": Seq(Mask, "seats"), "melds": Seq(Seq(Seq(Index("cards"), 7), 4), "seats"),
                    "discards": Seq(Seq(Index("cards", 0), "cards"), "seats", total="cards"),
                    "flowers": Seq(Seq(Index("cards", 0), NUM_FLOWERS), "seats", total=NUM_FLOWERS),
                    "phase": Index(4, 0), "to_act": Seq(Index(SEATS, 0), SEATS), "turn": Index(SEATS, 0),
                    "drawn": Index("cards"), "tile": Index("cards"),
                    "window.answers": Seq(OneOf(None, Seq(OneOf(Choice(PASS, CHOW, PUNG, KONG, WIN),
                                                                Index("cards", 0)), 4)), SEATS),
                    "winner": Index(SEATS), "payer": Index(SEATS), "fans": Blob(2 * len(FANS)),
                    "points": Small, "total": Small, "outcome": Index(len(OUTCOME_NAMES), 0),
                    "abandoned": Index(SEATS), "step": Small,
                    "false_wins": Seq(Index(MAX_FALSE_WINS + 1, 0), SEATS)}
    state_version = 3
    # the release before the state codec: no version byte; the fans a tuple of (id, count) pairs
    # version 2: no false wins (rule 16), and the options without false_win_penalty (read by position)
    state_layouts = {2: Layout("options seed entropy match dealer prevalent_wind wall front back hands melds discards "
                               "flowers phase to_act turn drawn after_kong tile window winner payer fans points total "
                               "outcome abandoned step"),
                     1: Layout("options seed entropy match dealer prevalent_wind wall front back hands melds discards "
                               "flowers phase to_act turn drawn after_kong tile window winner payer fans points total "
                               "outcome abandoned step", upgrade=lambda old: {
                                   **old, "fans": bytes(b for pair in old["fans"] for b in pair)})}
    action_kinds = (
        ActionKind(DISCARD, "discard one tile (on your turn)", ("cards",)),
        ActionKind(KONG, "on your turn: a concealed kong (four in hand) or an added kong (加杠, the fourth "
                         "tile on an exposed pung); in a claim window: an exposed kong of the discard", ("cards",)),
        ActionKind(WIN, "declare a win (和): self-drawn on your turn, or on the discard or the robbed kong"),
        ActionKind(CHOW, "claim the discard of the seat before you into a run (吃): name the two tiles",
                   ("cards",)),
        ActionKind(PUNG, "claim the discard into a pung (碰)", ("cards",)),
        COMMON_KINDS[PASS], COMMON_KINDS[ABANDON])
    reasons = {NOT_WIN: "the tiles are not a winning shape (rules 6, 8)",
               UNDER_8: "a winning shape worth less than the minimum (8) fan points, flowers not counted "
                        "(rule 10)"}
    counters = {"wall": "tiles left in the wall", "dealer": "the dealer's seat (seat wind E)",
                "prevalent_wind": "0..3 = E S W N", "min_points": "fan points a win needs",
                "turn": "the seat on turn; in a claim window the discarder",
                "drawn": "the viewer's own drawn tile when on turn, else -1",
                "after_kong": "1 when the drawn tile replaced a kong", "round": "hands of the match before this one",
                "winner": "the winner's seat (once won)", "payer": "the discarder or robbed seat, -1 self-drawn",
                "points": "the winner's fan points", "total": "fan points with flowers"}
    seat_cards = {"discards": "the seat's river (claimed tiles leave it)", "flowers": "flowers set aside",
                  "hand": "the winner's concealed tiles, once the hand is won"}
    public_cards = {"claim_tile": "the tile of an open claim or robbing window", "win_tile": "the winning tile"}
    roles = {name: f"seat wind {name}" for name in WIND_NAMES}
    deal_cards = {
        "wall": DealKey("the 144 tiles as shuffled: the deal takes 13 a seat from the dealer on, then the dealer's "
                        "14th, from the front; flowers are replaced from the back"),
    }
    deal_values = {
        "dealer": "the dealer's seat",
        "prevalent_wind": "the prevalent wind, 0..3 E S W N",
    }
    event_types = {
        "DEAL": EventType("the seat's tiles (private)", {"seat_wind": "0..3", "dealer": "the dealer's seat"},
                          private_cards=True),
        "FLOWER": EventType("a flower set aside (补花)"),
        "DRAW": EventType("the seat draws (private)", {"replacement": "1 from the back of the wall",
                                                       "wall": "tiles left"}, private_cards=True),
        "DISCARD": EventType("a discard"),
        "CLAIM_WINDOW": EventType("a seat may claim the tile (seat: the discarder or the seat adding a kong); "
                                  "who is asked is not told", {"robbing": "1: robbing a kong"}),
        "CHOW": EventType("a chow claimed", {"from": "the discarder", "claimed": "the claimed tile id"}),
        "PUNG": EventType("a pung claimed", {"from": "the discarder", "claimed": "the claimed tile id"}),
        "KONG": EventType("a kong", {"from": "the seat claimed from", "claimed": "the claimed tile id",
                                     "concealed": "1: concealed (no tiles shown)", "added": "1: added to a pung"}),
        "WIN": EventType("a win", {"from": "the payer, -1 self-drawn", "points": "fan points",
                                   "total": "with flowers", "self_drawn": "0/1", "robbed_kong": "0/1"}),
        "DRAWN_GAME": EventType("the wall is exhausted (荒牌)"),
        "FALSE_WIN": EventType("a false win 诈和 under false_win_penalty (rule 16): the hand goes on, the seat pays at "
                               "its end", {"penalty": "points the seat pays each other seat"}),
        "ABANDON": EventType("the seat left the hand"),
    }
    extras = ("fans",)
    combination_kinds = {"chow": "a chow claimed 吃", "pung": "a pung claimed 碰",
                         "kong": "a kong 杠 (exposed, concealed or added)", "win": "a win 和 (main: the winning tile's kind)"}
    meld_kinds = {"chow": "吃 a run of three", "pung": "碰 three of a kind", "kong": "杠 four of a kind"}
    outcomes = {"self_drawn": "won by self-draw 自摸", "won_on_discard": "won on a discard",
                "robbed_kong": "won by robbing a kong 抢杠和", "drawn": "the wall ran out 荒牌", "abandoned": "a seat left"}
    breakdown = {**{f"fan_{f.id}": f"{f.name_cn} {f.name_en}: {f.points} points each, times its count" for f in FANS},
                 "fan_points": "the fans' points, flowers not counted", "flowers": "a point per flower",
                 "total": "fan points and flowers", "base": "the base every loser pays (8)", "winner": "the winning seat",
                 "payer": "the discarder or the robbed seat, -1 self-drawn", "dealer": "the dealer's seat",
                 "escaped_seat": "the seat that left",
                 "false_win_penalty": "rule 16: points a false win 诈和 costs (false_win_penalty), when any was made"}

    def _deal(self, options: Options, seed: bytes, entropy: bytes, seats: int, match: Match) -> State:
        key = rng.deal_key(seed, entropy)
        if match.round:  # rule 13: the carried dealer and prevalent wind
            dealer, prevalent = match.carry
        else:
            dealer = options.dealer if options.dealer >= 0 else rng.Stream(key, "dealer").randbelow(SEATS)
            prevalent = options.prevalent_wind
        wall = bytes(rng.Stream(key, "wall").shuffle(range(TILE_COUNT)))
        hands = [0] * SEATS
        for i in range(SEATS):
            for tile in wall[i * HAND_SIZE:(i + 1) * HAND_SIZE]:
                hands[(dealer + i) % SEATS] |= 1 << tile
        drawn = wall[SEATS * HAND_SIZE]
        hands[dealer] |= 1 << drawn
        back = TILE_COUNT
        flowers: list[tuple[int, ...]] = [()] * SEATS
        for i in range(SEATS):
            seat = (dealer + i) % SEATS
            while hands[seat] >> FLOWER_BASE:
                for flower in from_mask(hands[seat] >> FLOWER_BASE << FLOWER_BASE):
                    hands[seat] &= ~(1 << flower)
                    flowers[seat] += (flower,)
                    back -= 1
                    hands[seat] |= 1 << wall[back]
                    if seat == dealer:
                        drawn = wall[back]
        return State(options, seed, entropy, match, dealer, prevalent, wall, SEATS * HAND_SIZE + 1, back,
                     tuple(hands), ((),) * SEATS, ((),) * SEATS, tuple(flowers), TURN, (dealer,), dealer, drawn)

    def deal_events(self, state: State) -> list[Event]:
        events = [Event("DEAL", s, from_mask(state.hands[s]),
                        values={"seat_wind": (s - state.dealer) % SEATS, "dealer": state.dealer})
                  for s in range(SEATS)]
        return events + [Event("FLOWER", s, state.flowers[s]) for s in range(SEATS) if state.flowers[s]]

    # matches (rule 13) ---------------------------------------------------------------------------
    clock_modes = {"seed": "rule 14: the dealer's first discard within 30 s of the deal, every other turn within "
                           "15 s of the previous discard (a claim's window included), 3 s for every claim window"}
    clock_default = "seed"

    def time_limit(self, state: State, seat: int, clock) -> Limit:
        """Rule 14 under ``clock=seed``: 30 s for the dealer's first discard (no tile discarded or
        claimed yet), 15 s for every other turn counted from the discard that opened the claim
        window it follows, 3 s for a claim or robbing window."""
        if clock.mode != "seed":
            return super().time_limit(state, seat, clock)
        if state.phase != TURN:
            return Limit(CLAIM_MS)
        if seat == state.dealer and not any(state.discards) and not any(state.melds):
            return Limit(FIRST_DISCARD_MS)
        return Limit(TURN_MS, from_window=True)

    def default_action(self, state: State, seat: int) -> Action:
        """Rule 15: a turn discards the tile just drawn (after a chow or pung, the rightmost
        concealed tile in id order); a claim or robbing window answers PASS."""
        if state.phase != TURN:
            return Action(seat, PASS)
        hand = state.hands[seat]
        tile = state.drawn if state.drawn >= 0 and hand >> state.drawn & 1 else hand.bit_length() - 1
        return Action(seat, DISCARD, (tile,))

    def match_over(self, state: State) -> bool:
        return state.match.round + 1 >= state.options.hands

    def _carry(self, finished: State) -> Carry:
        """The deal passes to the next seat every hand; the prevalent wind turns every four."""
        rounds = finished.match.round + 1
        prevalent = (finished.prevalent_wind + 1) % 4 if rounds % SEATS == 0 else finished.prevalent_wind
        return Carry((finished.dealer + 1) % SEATS, prevalent)

    def _abandon(self, state: State, seat: int):
        return (state._replace(phase=FINISHED, to_act=(), abandoned=seat, outcome=ABANDONED),
                [Event("ABANDON", seat)])

    # views, settlement, cards ----------------------------------------------------------------------
    def _views(self, state: State, seats) -> list[View]:
        """What every seat sees is built once; a seat's own view differs only by its hand, the
        tile it drew (counter ``drawn``, the seat on turn only) and its own concealed kongs (other
        seats see those face down, without tiles; a winner's are shown once the hand is won)."""
        over = state.finished
        counters = {"wall": state.back - state.front, "dealer": state.dealer,
                    "prevalent_wind": state.prevalent_wind, "min_points": state.options.min_points,
                    "turn": state.turn, "drawn": -1, "after_kong": int(state.after_kong),
                    "round": state.match.round}
        public = {}
        window = state.phase in (CLAIM, ROB)
        if window:
            public["claim_tile"] = (state.tile,)
        if state.winner >= 0:
            public["win_tile"] = ((state.drawn if state.outcome == SELF_DRAWN else state.tile),)
            counters.update(winner=state.winner, payer=state.payer, points=state.points, total=state.total)
        roles = _ROLES[state.dealer]
        hands = state.hands
        seat_views = tuple(_seat_view(state, s, roles[s], over, False) for s in range(SEATS))
        table_cards = (state.tile,) if window else ()
        table_seat = state.turn if table_cards else -1
        phase = self.phases[state.phase].name
        views = []
        for seat in seats:
            own_views, own_counters = seat_views, counters
            if seat >= 0 and seat != state.winner and any(m[1] < 0 for m in state.melds[seat]):
                own_views = seat_views[:seat] + (_seat_view(state, seat, roles[seat], over, True),) \
                    + seat_views[seat + 1:]
            if seat >= 0 and seat == state.turn and state.drawn != -1:
                own_counters = {**counters, "drawn": state.drawn}
            views.append(View(seat, phase, state.to_act, _ids_of(hands[seat]) if seat >= 0 else (), own_views,
                              public, None, table_seat, table_cards, own_counters, over))
        return views

    def _settle(self, state: State) -> Settlement:
        return settle(state)

    def dealt(self, state: State):
        """The wall as shuffled (the deal takes it from the front: 13 tiles a seat from the
        dealer on, then the dealer's 14th; flowers are replaced from the back)."""
        return {"wall": tuple(state.wall)}, {"dealer": state.dealer, "prevalent_wind": state.prevalent_wind}

    def card_zones(self, state: State):
        zones = {"wall": tuple(state.wall[state.front:state.back])}
        for s in range(SEATS):
            zones[f"hand{s}"] = from_mask(state.hands[s])
            zones[f"river{s}"] = state.discards[s]
            zones[f"flowers{s}"] = state.flowers[s]
            zones[f"melds{s}"] = tuple(t for m in state.melds[s] for t in m[3:])
        return zones

    def knowledge(self, state: State) -> Knowledge:
        """Concealed tiles and concealed kongs are their seats'; rivers, flowers, exposed melds and
        a robbable added kong's tile are public, and the winner's whole hand once won."""
        public = 0
        seats = []
        for s in range(SEATS):
            hand = state.hands[s]
            for tile in state.discards[s] + state.flowers[s]:
                public |= 1 << tile
            concealed = 0
            for meld in state.melds[s]:
                for tile in meld[3:]:
                    if meld[1] < 0:
                        concealed |= 1 << tile
                    else:
                        public |= 1 << tile
            if s == state.winner:
                public |= hand | concealed
            seats.append(hand | concealed)
        if state.phase == ROB:
            public |= 1 << state.tile
        return Knowledge(public, tuple(seats))

def _seat_view(state: State, seat: int, role: str, over: bool, own: bool) -> SeatView:
    """What everybody sees of ``seat`` (``own``: as the seat itself sees it, concealed kongs
    face up). A winner shows the winning hand; other hands stay hidden when the hand is over
    (the table's owner sees every seat's view)."""
    shown = own or (over and seat == state.winner)
    melds = tuple(Meld(MELD_NAMES[m[0]], m[3:] if (m[1] >= 0 or shown) else (), m[1]) for m in state.melds[seat])
    cards = {"discards": state.discards[seat], "flowers": state.flowers[seat]}
    if over and seat == state.winner:
        cards["hand"] = _ids_of(state.hands[seat])
    return SeatView(state.hands[seat].bit_count(), role, -1, EMPTY, cards, melds)


# --- checks and moves on a state (State or _Table) ----------------------------------------------------

def _check_discard(state: State, action: Action) -> Verdict:
    mask = held(state.hands[action.seat], action, NOTATION)
    if type(mask) is Verdict:
        return mask
    if mask.bit_count() != 1:
        return Verdict.no(Reason.BAD_ACTION, "a discard is one tile")
    tiles = from_mask(mask)
    return Verdict.ok(f"discard {NOTATION.format_cards(tiles)}", action=action._replace(cards=tiles, ranks=()))


def _check_turn_kong(state: State, action: Action) -> Verdict:
    if state.drawn < 0:
        return Verdict.no(Reason.WRONG_PHASE, "after a chow or pung, discard")
    if wall_left(state) == 0:
        return Verdict.no(Reason.WRONG_PHASE, "no kong on the last tile: nothing to replace it")
    mask = held(state.hands[action.seat], action, NOTATION)
    if type(mask) is Verdict:
        return mask
    kinds = {_KIND_OF[c] for c in from_mask(mask)}
    if len(kinds) != 1:
        return Verdict.no(Reason.NOT_A_COMBINATION, "a kong is one tile kind")
    for option_action, combo in turn_kongs(state, action.seat):
        if _KIND_OF[option_action.cards[0]] in kinds:
            return Verdict.ok(combo.label, combo, option_action)
    return Verdict.no(Reason.NOT_A_COMBINATION,
                      f"no kong of {NOTATION.format_ranks(kinds)}: four in hand, or one on an exposed pung")


def _check_win(state: State, action: Action, tile: int, self_drawn: bool, kong_related: bool) -> Verdict:
    named = action.cards or action.ranks
    if named and (action.cards not in ((), (tile,)) or action.ranks not in ((), (_KIND_OF[tile],))):
        return Verdict.no(Reason.BAD_ACTION, f"the winning tile is {NOTATION.format_cards((tile,))}")
    try:
        result = win_result(state, action.seat, tile, self_drawn, kong_related)
    except IllegalAction as refusal:
        return Verdict.no(refusal.reason, refusal.message)
    return Verdict.ok(f"win 和 {result.total} points", _win_combo(tile, result),
                      action._replace(cards=(), ranks=()), result)


def _check_claim(state: State, action: Action) -> Verdict:
    seat, tile = action.seat, state.tile
    kind = _KIND_OF[tile]
    if wall_left(state) == 0:
        return Verdict.no(Reason.WRONG_PHASE, "the last discard may only be won")
    hand = state.hands[seat]
    if action.kind == CHOW:
        if seat != (state.turn + 1) % SEATS:
            return Verdict.no(Reason.NOT_YOUR_TURN, "only the next seat may chow (rule 5)")
        if len(action.ranks) == 3 and kind in action.ranks:
            ranks = list(action.ranks)
            ranks.remove(kind)
            action = action._replace(ranks=tuple(ranks))
        shapes = _chow_shapes(hand, tile)
        if not action.cards and not action.ranks:
            if len(shapes) != 1:
                return Verdict.no(Reason.BAD_ACTION if shapes else Reason.NOT_A_COMBINATION,
                                  "name the two tiles of the chow" if shapes else "no chow")
            action = action._replace(cards=shapes[0])
        mask = held(hand, action, NOTATION)
        if type(mask) is Verdict:
            return mask
        tiles = from_mask(mask)
        kinds = sorted([kind] + [_KIND_OF[c] for c in tiles])
        if (len(tiles) != 2 or kinds[0] >= FIRST_HONOR or kinds[2] >= FIRST_HONOR
                or kinds[0] // 9 != kinds[2] // 9 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]):
            return Verdict.no(Reason.NOT_A_COMBINATION,
                              f"{NOTATION.format_ranks(kinds)} is not a run of one suit")
        combo = _meld_combo(CHOW_MELD, tuple(kinds), "chow 吃")
        return Verdict.ok(combo.label, combo, Action(seat, CHOW, tuple(sorted(tiles))))
    need = 2 if action.kind == PUNG else 3
    if action.cards:
        mask = held(hand, action, NOTATION)
        if type(mask) is Verdict:
            return mask
        tiles = from_mask(mask)
    elif all(k == kind for k in action.ranks):
        tiles = _lowest(hand, kind, need)
        if len(tiles) < need:
            return Verdict.no(Reason.CARDS_NOT_IN_HAND, f"a {action.kind.lower()} needs "
                              f"{need} {TILE_NAMES[kind]} in hand")
    else:
        tiles = ()
    if len(tiles) != need or any(_KIND_OF[c] != kind for c in tiles):
        return Verdict.no(Reason.NOT_A_COMBINATION,
                          f"a {action.kind.lower()} takes {need} {TILE_NAMES[kind]} from the hand")
    meld_kind = PUNG_MELD if action.kind == PUNG else KONG_MELD
    combo = _meld_combo(meld_kind, (kind,) * (need + 1), "pung 碰" if need == 2 else "exposed kong 明杠")
    return Verdict.ok(combo.label, combo, Action(seat, action.kind, tuple(sorted(tiles))))


def _draw(t: _Table, seat: int, after_kong: bool, events: list[Event]) -> None:
    """``seat`` draws (from the back after a kong; flowers set aside and replaced from the
    back) and is on turn; with the wall empty the hand is drawn."""
    t.phase, t.to_act, t.turn, t.tile, t.window = TURN, (seat,), seat, -1, Window()
    t.after_kong = after_kong
    from_back = after_kong
    while True:
        if wall_left(t) == 0:
            t.phase, t.to_act, t.outcome, t.drawn = FINISHED, (), DRAWN, -1
            events.append(Event("DRAWN_GAME"))
            return
        if from_back:
            t.back -= 1
            tile = t.wall[t.back]
        else:
            tile = t.wall[t.front]
            t.front += 1
        if tile < FLOWER_BASE:
            break
        t.flowers[seat] += (tile,)
        events.append(Event("FLOWER", seat, (tile,)))
        from_back = True
    t.hands[seat] |= 1 << tile
    t.drawn = tile
    events.append(Event("DRAW", seat, (tile,), values={"replacement": int(from_back),
                                                        "wall": wall_left(t)}))


def _open_window(t: _Table, seat: int, tile: int, robbing: bool, events: list[Event]) -> bool:
    """The other seats that can claim the tile are asked, counterclockwise from ``seat``; a seat
    with no claim but PASS is not asked, and no view or event tells anyone who was (the claim
    phase's turn is not public). False when nobody can claim: no window opens."""
    t.drawn, t.after_kong, t.turn, t.tile = -1, False, seat, tile
    asked = tuple(s for s in ((seat + i) % SEATS for i in (1, 2, 3)) if claim_options(t, s, tile, robbing))
    if not asked:
        return False
    t.phase, t.to_act, t.turn, t.tile, t.window = ROB if robbing else CLAIM, asked, seat, tile, Window.open(asked)
    events.append(Event("CLAIM_WINDOW", seat, (tile,), values={"robbing": int(robbing)}))
    return True


def _discard(t: _Table, seat: int, tile: int, events: list[Event]) -> None:
    t.hands[seat] &= ~(1 << tile)
    t.discards[seat] += (tile,)
    t.drawn, t.after_kong = -1, False
    events.append(Event("DISCARD", seat, (tile,)))
    if not _open_window(t, seat, tile, False, events):  # nobody can claim: the next seat draws
        _no_claim(t, events)


def _turn_kong(t: _Table, seat: int, tiles: tuple[int, ...], events: list[Event]) -> None:
    if len(tiles) == 4:
        for tile in tiles:
            t.hands[seat] &= ~(1 << tile)
        t.melds[seat] += ((KONG_MELD, -1, -1) + tiles,)
        events.append(Event("KONG", seat, values={"concealed": 1}))
        _draw(t, seat, True, events)
    elif not _open_window(t, seat, tiles[0], True, events):  # an added kong: robbable first
        _add_kong(t, seat, tiles[0], events)


def _add_kong(t: _Table, seat: int, tile: int, events: list[Event]) -> None:
    kind = _KIND_OF[tile]
    melds = list(t.melds[seat])
    i = next(i for i, m in enumerate(melds) if m[0] == PUNG_MELD and _KIND_OF[m[3]] == kind)
    pung = melds[i]
    melds[i] = (KONG_MELD, pung[1], pung[2]) + tuple(sorted(pung[3:] + (tile,)))
    t.melds[seat] = tuple(melds)
    t.hands[seat] &= ~(1 << tile)
    events.append(Event("KONG", seat, melds[i][3:], values={"added": 1, "from": pung[1]}))
    _draw(t, seat, True, events)


def _win(t: _Table, seat: int, tile: int, payer: int, outcome: int,
         result: mcr.FanResult, events: list[Event]) -> None:
    if outcome == ON_DISCARD:
        t.discards[payer] = t.discards[payer][:-1]
    elif outcome == ROBBED_KONG:
        t.hands[payer] &= ~(1 << tile)
    t.hands[seat] |= 1 << tile
    t.phase, t.to_act, t.winner, t.payer, t.outcome = FINISHED, (), seat, payer, outcome
    t.fans = bytes(b for f in result.fans for b in (f.id, f.count))
    t.points, t.total = result.points, result.total
    events.append(Event("WIN", seat, (tile,), values={
        "from": payer, "points": result.points, "total": result.total,
        "self_drawn": int(outcome == SELF_DRAWN), "robbed_kong": int(outcome == ROBBED_KONG)}))


def _no_claim(t: _Table, events: list[Event]) -> None:
    """Nobody claims the discard (rule 7: the last one ends the hand): the next seat draws."""
    _draw(t, (t.turn + 1) % SEATS, False, events)


def _close_window(t: _Table, events: list[Event]) -> None:
    window, seat, tile = t.window, t.turn, t.tile
    # only the outcome is told: who passed would tell who could claim. The seats were asked counterclockwise from the discarder: the first of a priority wins (截和)
    best = window.best(lambda answer: CLAIM_PRIORITY[answer[0]])
    robbing = t.phase == ROB
    if best is not None and best[1][0] == WIN:
        winner = best[0]
        result = win_result(t, winner, tile, False, robbing)
        _win(t, winner, tile, seat, ROBBED_KONG if robbing else ON_DISCARD, result, events)
        return
    if robbing:
        _add_kong(t, seat, tile, events)
        return
    if best is None:
        _no_claim(t, events)
        return
    claimer, (kind, *own) = best
    t.discards[seat] = t.discards[seat][:-1]
    for c in own:
        t.hands[claimer] &= ~(1 << c)
    meld_kind = {CHOW: CHOW_MELD, PUNG: PUNG_MELD, KONG: KONG_MELD}[kind]
    tiles = tuple(sorted(own + [tile]))
    t.melds[claimer] += ((meld_kind, seat, tile) + tiles,)
    events.append(Event(kind, claimer, tiles, values={"from": seat, "claimed": tile}))
    if kind == KONG:
        _draw(t, claimer, True, events)
    else:
        t.phase, t.to_act, t.turn, t.tile, t.window = TURN, (claimer,), claimer, -1, Window()
        t.drawn, t.after_kong = -1, False



def settle(state: State) -> Settlement:
    """Rule 11 for a finished hand (abandoned: the leaver pays 8 to each other seat)."""
    breakdown: list[tuple[str, int]] = []
    points = [0] * SEATS
    if state.outcome == ABANDONED:
        for s in range(SEATS):
            points[s] = -BASE_POINTS * (SEATS - 1) if s == state.abandoned else BASE_POINTS
        breakdown.append(("escaped_seat", state.abandoned))
    elif state.winner >= 0:
        for fan_id, count in zip(state.fans[0::2], state.fans[1::2]):
            info = FANS[fan_id - 1]
            breakdown.append((f"fan_{fan_id}", info.points * count))
        breakdown += [("fan_points", state.points), ("flowers", state.total - state.points),
                      ("total", state.total), ("base", BASE_POINTS)]
        for s in range(SEATS):
            if s == state.winner:
                continue
            pay = BASE_POINTS + state.total if state.payer in (-1, s) else BASE_POINTS
            points[s] -= pay
            points[state.winner] += pay
        breakdown += [("winner", state.winner), ("payer", state.payer)]
    breakdown.append(("dealer", state.dealer))
    penalty = state.options.false_win_penalty
    if any(state.false_wins):  # rule 16: each false win pays the penalty to each other seat
        for s, n in enumerate(state.false_wins):
            for other in range(SEATS):
                if other != s:
                    points[s] -= n * penalty
                    points[other] += n * penalty
        breakdown.append(("false_win_penalty", penalty))
    winners = (state.winner,) if state.winner >= 0 else ()
    return Settlement(tuple(points), winners, OUTCOME_NAMES[state.outcome], tuple(breakdown))


MCR = Mahjong()
