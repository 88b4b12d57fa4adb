"""The surface every game exposes, and the policy shared by all of them.

A game is a `Game` subclass instance registered in :mod:`referee.core.registry`. It declares
itself as data (OpenSpiel's GameType, boardgame.io's game object): its options with their
defaults, presets, the action kinds it accepts, its own reason names, the keys of its view
counters and event values, its phases and its capabilities. ListGames publishes all of it; the
service reads nothing else, so adding a game never touches the service.

States are immutable; ``apply`` returns a new state and the events it caused. Shared policy
lives here once: an action for a finished round, an unknown seat or kind, card ids outside the
game's card space, a seat that is not awaited or a kind of another phase is refused before the
game's phase sees it; an ABANDON (a player leaves, 逃跑) is taken from any seat at any time;
``step`` counts applied actions (the token's sequence number). A TIMEOUT (any awaited seat; the
service lets only the owner send it) applies the game's default action for the seat
(``default_action``): a seat whose time ran out or that is on autoplay; it is an action like any
other, so a Replay needs no clock. The clock itself (``time_limit``, the ``clock`` options every game
lists) is kept beside the state, never in it (:mod:`referee.core.clock`).

Every state has at least: ``num_seats``, ``phase`` (an index into ``Game.phases``), ``to_act``
(the seats whose decision is awaited: one in turn-based play, several for simultaneous
decisions), ``finished``, ``step``, ``seed``, ``entropy``, ``options`` and ``match``.

Matches: a round may start from a finished one. ``next_round(finished)`` gives the
:class:`Match` record of the following round (its number, every seat's points so far and what
the game's rules carry over: a dealer, a first bidder, banks); ``deal(..., match=...)`` starts
from it. The service reads the finished round from its sealed token, never from the caller.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Iterable, Mapping, NamedTuple

from . import clock as clocks
from .cards import CardSpace, to_mask
from .clock import TIMEOUT, ClockSettings, Limit
from .codec import Int, Int64, Seq, Slot, StateCodec, game_context
from .errors import IllegalAction, InvalidAction, Reason, UnknownName, Unsupported, error_for

EMPTY: Mapping = MappingProxyType({})

# the action kinds every game reads the same way (proto referee.v1.ActionKind)
PASS, PLAY, ABANDON = "PASS", "PLAY", "ABANDON"
# what ABANDON does (Game.abandon_policy): the round ends, or the seat goes out of play and the
# round goes on (够级's 大落)
END_ROUND, OUT_OF_PLAY = "end_round", "out_of_play"


@functools.lru_cache(maxsize=256)
def option_values(options) -> tuple:
    """An Options record's values in field order, as a packed state stores them (cached: a
    server sees few distinct option sets, and every state is packed with its options)."""
    return tuple(getattr(options, f.name) for f in dataclasses.fields(options))


class ActionKind(NamedTuple):
    """An action kind a game accepts: its name, what it does and the Action fields it reads
    (``cards``, ``value``, ``declared``)."""

    name: str
    help: str
    fields: tuple[str, ...] = ()


COMMON_KINDS = {
    PASS: ActionKind(PASS, "decline to play, bid or claim (不出 / 不叫 / 过)"),
    PLAY: ActionKind(PLAY, "play the cards given (ids, card text, or ranks: the game picks the cards)",
                     ("cards", "declared")),
    ABANDON: ActionKind(ABANDON, "leave the round (逃跑): any seat, any time; the round ends"),
    TIMEOUT: ActionKind(TIMEOUT, "the game's default action for an awaited seat (Game.default_action): its time ran "
                                 "out, or it is on autoplay 托管 (value 1); the owner's, recorded so that a Replay "
                                 "needs no clock", ("value",)),
}


class Action(NamedTuple):
    """One seat's decision. ``cards`` are concrete ids; ``ranks`` are rank indexes for games
    that let the caller name ranks only (the game then picks the concrete cards)."""

    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    value: int = 0
    declared: str = ""


class Combo(NamedTuple):
    """A classified combination, game-neutral: kind id, main rank index, chain length, size
    (a NamedTuple: hashed in C where converted combinations are cached)."""

    kind: str
    main_rank: int
    chain: int
    size: int
    ranks: tuple[int, ...] = ()
    label: str = ""  # human name, e.g. "trio straight 三顺"


class Verdict(NamedTuple):
    """What ``check`` says of an action (a NamedTuple: built on every Validate and Play)."""

    legal: bool
    reason: str
    message: str = ""
    combo: Combo | None = None
    action: Action | None = None  # the action resolved to concrete cards, when legal
    detail: Any = None  # what the game's check learned, handed to its apply

    @classmethod
    def ok(cls, message: str = "legal", combo: Combo | None = None, action: Action | None = None,
           detail: Any = None):
        return cls(True, Reason.OK, message, combo, action, detail)

    @classmethod
    def no(cls, reason: str, message: str):
        return cls(False, reason, message)


class Event(NamedTuple):
    """Something an action caused (a NamedTuple, like View: built on every Play). Its types and
    value keys are the game's, listed in ``Game.event_types``."""

    type: str
    seat: int = -1
    cards: tuple[int, ...] = ()
    combo: Combo | None = None
    values: Mapping[str, int] = EMPTY


class Knowledge(NamedTuple):
    """Who may know which cards now: ``public`` cards (a mask) every seat and spectator may know,
    and per seat the cards it may know besides (its hand, a tribute it gave or received, a team
    mate's hand shown to it). A card in neither is known to nobody but the table's owner (a wall,
    a kitty not yet taken, face-down piles). Views and events show a seat only what it may know."""

    public: int
    seats: tuple[int, ...]

    def allowed(self, seat: int) -> int:
        """The cards ``seat`` may know (-1: a spectator, the public ones)."""
        return self.public | self.seats[seat] if seat >= 0 else self.public


def shows_only(cards, allowed: int) -> bool:
    """Whether every card id of ``cards`` is in the mask ``allowed``."""
    for c in cards:
        if not allowed >> c & 1:
            return False
    return True


def event_for(event: Event, allowed: int) -> Event:
    """``event`` as a viewer who may know ``allowed`` sees it: its cards, or none of them."""
    return event if not event.cards or shows_only(event.cards, allowed) else event._replace(cards=())


class Meld(NamedTuple):
    """A group of cards a seat shows (a mahjong chow, pung or kong): its kind, the cards (empty
    while face down) and the seat it was claimed from (-1: none)."""

    kind: str
    cards: tuple[int, ...]
    from_seat: int = -1


class SeatView(NamedTuple):
    """What everybody may see of one seat."""

    hand_size: int
    role: str = ""
    team: int = -1
    counters: Mapping[str, int] = EMPTY  # keys: Game.seat_counters
    cards: Mapping[str, tuple[int, ...]] = EMPTY  # keys: Game.seat_cards (a river, flowers)
    melds: tuple[Meld, ...] = ()


class View(NamedTuple):
    """What one seat may see (seat -1: a spectator's public view)."""

    seat: int
    phase: str
    to_act: tuple[int, ...]
    hand: tuple[int, ...]
    seats: tuple[SeatView, ...]
    public_cards: Mapping[str, tuple[int, ...]]  # keys: Game.public_cards (a kitty once shown)
    table: Combo | None  # the combination to beat, None on a free lead
    table_seat: int
    table_cards: tuple[int, ...]
    counters: Mapping[str, int]  # keys: Game.counters
    finished: bool


@dataclass(frozen=True, slots=True)
class Settlement:
    """Result of a round. ``points`` per seat; ``house`` what the house gains (escape, fees);
    the round balances when ``sum(points) + house == 0``. The game's own results beside the
    points (Dou Dizhu's coins) are ``seat_values`` (one number per seat) and ``values`` (one
    number), under the names it declares (``Game.seat_values``, ``Game.values``)."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    outcome: str  # one of Game.outcomes, e.g. "landlord_won", "abandoned"
    breakdown: tuple[tuple[str, int], ...]  # names: Game.breakdown
    house: int = 0
    seat_values: Mapping[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    values: Mapping[str, int] = field(default_factory=dict, hash=False)

    def __post_init__(self):  # a value: the game's mappings are read-only views of copies
        object.__setattr__(self, "seat_values", MappingProxyType(dict(self.seat_values)))
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))


def losers_pay_winners(num_seats: int, winners, unit: int = 1) -> tuple[int, ...]:
    """Points when every seat not among ``winners`` pays each winner ``unit`` (ties share the
    win); all zero when every seat, or none, is a winner. Sums to zero."""
    winners = frozenset(winners)
    losers = num_seats - len(winners)
    if not winners or not losers:
        return (0,) * num_seats
    return tuple(unit * losers if s in winners else -unit * len(winners) for s in range(num_seats))


def leaver_pays(num_seats: int, leaver: int, unit: int = 1) -> tuple[int, ...]:
    """Points of an abandoned round: the seat that left pays each other seat ``unit``."""
    return tuple(-unit * (num_seats - 1) if s == leaver else unit for s in range(num_seats))


class Match(NamedTuple):
    """Where a round stands in its match: rounds of the match dealt before it (void rounds not
    counted), each seat's points over them, what the game's rules carry into it (the game's own
    record, e.g. the dealer; empty in a match's first round) and how many matches the table
    finished before this one (the next match goes on at the same table, same credentials)."""

    round: Annotated[int, Int(0)] = 0
    totals: Annotated[tuple[int, ...], Seq(Int64, "seats")] = ()
    carry: Annotated[Any, Slot(None)] = None  # a game's carry record ("match.carry"); None: a match's first round
    number: Annotated[int, Int(0)] = 0


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    type: str  # "bool", "int", "enum"
    default: Any
    allowed: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""


class EventType(NamedTuple):
    """An event type a game emits: what it means and its ``values`` keys. ``private_cards``: its
    cards may be withheld from some viewers (those that may not know them all: ``Knowledge``),
    who get the event without cards; an event type not so declared always reaches every viewer
    whole (the contract suite checks both)."""

    help: str
    values: Mapping[str, str] = EMPTY
    private_cards: bool = False


class DealKey(NamedTuple):
    """A key of a round's deal record (``Game.dealt``' cards, Score's ``DealRecord.cards``): what
    it holds; ``per_seat``: one key a seat, the name followed by the seat number (``seat``:
    ``seat0``, ``seat1`` ...)."""

    help: str
    per_seat: bool = False


TIMEOUT_EVENT = EventType("a seat's time ran out (or it is on autoplay 托管): the game's default action follows; "
                          "not sent in a phase whose turn is not public", {"autoplay": "1: the seat is on autoplay"})


def option(default, help: str, allowed: tuple = (), minimum=None, maximum=None):
    """A dataclass field for an ``Options`` record, with what ListGames shows."""
    return field(default=default, metadata={"help": help, "allowed": allowed,
                                            "minimum": minimum, "maximum": maximum})


class Phase:
    """One phase of a game (bidding, play, a claim window ...): the action kinds it accepts and
    their legal/check/apply, as the platform calls them. ``check`` and ``apply`` see only actions
    that passed the shared policy (seat awaited, kind of this phase); ``apply`` returns the next
    state without counting the step (the game does) and the events.

    A game never subclasses it: it configures the platform's phases with its own functions
    (:class:`Moves`, ``tricks.TrickPlay``, ``decisions.DecisionPhase``, ``asking.AskInTurn``,
    :class:`Finished`), so two phases of one kind are configured apart. ``public_turn``: whether
    every view shows whose decision is awaited (turn-based play), or each seat only its own (a
    claim window's askees are nobody else's business)."""

    name: str = ""
    kinds: frozenset = frozenset()
    simultaneous: bool = False  # several seats answer at once (decisions.DecisionPhase)
    public_turn: bool = True

    def legal(self, game: Game, state, seat: int) -> list[tuple[Action, Combo | None]]:
        return []

    def check(self, game: Game, state, action: Action) -> Verdict:
        raise NotImplementedError

    def apply(self, game: Game, state, action: Action, verdict: Verdict):
        raise NotImplementedError


class Moves(Phase):
    """A phase of the game's own moves (boardgame.io's ``moves``): ``legal(state, seat)``,
    ``check(state, action) -> Verdict`` and ``apply(state, action, verdict) -> (state, events)``."""

    def __init__(self, name: str, kinds, *, legal, check, apply):
        self.name, self.kinds = name, frozenset(kinds)
        self._legal, self._check, self._apply = legal, check, apply

    def legal(self, game, state, seat):
        return self._legal(state, seat)

    def check(self, game, state, action):
        return self._check(state, action)

    def apply(self, game, state, action, verdict):
        return self._apply(state, action, verdict)


class Finished(Phase):
    """The phase of a round that is over: it accepts nothing."""

    name = "finished"


class Game:
    """Base for all games. Subclasses set the class attributes and implement the hooks."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    default_seats: ClassVar[int] = 0  # 0: min_seats
    notation: ClassVar[CardSpace]  # the card space: ids and text (each game declares its own)
    # the state, an immutable NamedTuple; its codec (``codec.StateCodec``) is derived from its
    # declared fields: ``state_fields`` declares by dotted path what the annotations leave open,
    # ``state_layouts`` the earlier versions still opened (a rolling update's tokens)
    State: ClassVar[type]
    state_fields: ClassVar[Mapping[str, Any]] = {}
    state_layouts: ClassVar[Mapping[int, Any]] = {}
    state_version: ClassVar[int] = 2
    Options: ClassVar[type]
    presets: ClassVar[Mapping[str, Any]] = {}
    phases: ClassVar[tuple[Phase, ...]]
    # what ListGames publishes besides the options
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (COMMON_KINDS[PASS], COMMON_KINDS[PLAY],
                                                      COMMON_KINDS[ABANDON], COMMON_KINDS[TIMEOUT])
    reasons: ClassVar[Mapping[str, str]] = {}  # the game's own reason names -> meaning
    counters: ClassVar[Mapping[str, str]] = {}  # View.counters keys -> meaning
    seat_counters: ClassVar[Mapping[str, str]] = {}  # SeatView.counters keys
    public_cards: ClassVar[Mapping[str, str]] = {}  # View.public_cards keys
    seat_cards: ClassVar[Mapping[str, str]] = {}  # SeatView.cards keys
    roles: ClassVar[Mapping[str, str]] = {}  # SeatView.role values
    event_types: ClassVar[Mapping[str, EventType]] = {}
    # the keys of the deal record (``dealt``: Score's ``DealRecord``, what ``referee verify`` reads):
    # its cards by name and its numbers
    deal_cards: ClassVar[Mapping[str, DealKey]] = {}
    deal_values: ClassVar[Mapping[str, str]] = {}
    extras: ClassVar[tuple[str, ...]] = ()  # the game's own API (a per-game proto and service)
    # what a UI switches on, each name -> meaning (ListGames lists them; the contract suite refuses
    # anything undeclared): Combo.kind values, Settlement.outcome values, breakdown line names, Meld
    # kinds, Settlement.seat_values and values keys, standings keys (``standings``) and the keys a
    # hint request's context may carry (``hint_strings``)
    combination_kinds: ClassVar[Mapping[str, str]] = {}
    outcomes: ClassVar[Mapping[str, str]] = {}
    breakdown: ClassVar[Mapping[str, str]] = {}
    meld_kinds: ClassVar[Mapping[str, str]] = {}
    seat_values: ClassVar[Mapping[str, str]] = {}
    values: ClassVar[Mapping[str, str]] = {}
    standings: ClassVar[Mapping[str, str]] = {}
    hint_context: ClassVar[Mapping[str, str]] = {}
    # (a seat_values key, a values key) that balance: sum of the first + the second == 0
    balances: ClassVar[tuple[tuple[str, str], ...]] = ()
    abandon_policy: ClassVar[str] = END_ROUND  # or OUT_OF_PLAY: the leaver is out, the round goes on
    # the turn clock (core/clock.py): the game's own clock modes (name -> meaning) beside ``off`` and
    # ``seconds``, and its default mode (its spec's time limits, or ``off`` where the spec has none)
    clock_modes: ClassVar[Mapping[str, str]] = {}
    clock_default: ClassVar[str] = clocks.OFF

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "action_kinds" in cls.__dict__:  # every game takes TIMEOUT, as it takes ABANDON
            if TIMEOUT not in {k.name for k in cls.action_kinds}:
                cls.action_kinds = tuple(cls.action_kinds) + (COMMON_KINDS[TIMEOUT],)
            cls._kind_names = frozenset(k.name for k in cls.action_kinds)
        if "event_types" in cls.__dict__ and TIMEOUT not in cls.event_types:
            cls.event_types = {**cls.event_types, TIMEOUT: TIMEOUT_EVENT}

    _kind_names: ClassVar[frozenset] = frozenset((PASS, PLAY, ABANDON, TIMEOUT))

    # --- options -------------------------------------------------------------------------
    def option_infos(self) -> tuple[OptionInfo, ...]:
        infos = []
        for f in dataclasses.fields(self.Options):
            # an enum is a string among allowed values; an int may have allowed values too
            kind = "bool" if f.type in (bool, "bool") else ("enum" if isinstance(f.default, str) else "int")
            infos.append(OptionInfo(f.name, kind, f.default, tuple(f.metadata.get("allowed", ())),
                                    f.metadata.get("minimum"), f.metadata.get("maximum"),
                                    f.metadata.get("help", "")))
        return tuple(infos)

    def make_options(self, preset: str = "", overrides: Mapping[str, Any] | None = None):
        """Options from a preset (or the spec's defaults) with named overrides checked.

        Raises:
            UnknownName: unknown preset (UNKNOWN_PRESET).
            InvalidAction: unknown option or value of the wrong type or out of range (BAD_OPTION).
        """
        if preset:
            if preset not in self.presets:
                raise UnknownName(f"game {self.id!r} has no preset {preset[:40]!r}", Reason.UNKNOWN_PRESET)
            base = self.presets[preset]
        else:
            base = self.Options()
        if not overrides:
            return base
        infos = {i.name: i for i in self.option_infos() + self.clock_option_infos()}
        for name, value in overrides.items():
            info = infos.get(name)
            if info is None:
                raise InvalidAction(f"game {self.id!r} has no option {str(name)[:40]!r}", Reason.BAD_OPTION)
            is_int = isinstance(value, int) and not isinstance(value, bool)
            bad = ((info.type == "bool" and not isinstance(value, bool))
                   or (info.type == "int" and not is_int)
                   or (info.type == "enum" and (not isinstance(value, type(info.default))
                                                or value not in info.allowed))
                   or (info.type == "int" and info.allowed and value not in info.allowed)
                   or (info.minimum is not None and is_int and value < info.minimum)
                   or (info.maximum is not None and is_int and value > info.maximum))
            if bad:
                raise InvalidAction(f"option {name}={str(value)[:40]!r} is not allowed "
                                    f"({info.type}{_range_text(info)})", Reason.BAD_OPTION)
        own = {k: v for k, v in overrides.items() if k not in clocks.CLOCK_OPTIONS}
        return self._checked_options(dataclasses.replace(base, **own)) if own else base

    def clock_option_infos(self) -> tuple[OptionInfo, ...]:
        """The two options every game takes beside its own (ListGames lists them after them): the
        table's turn clock (``clock``) and the seconds of its ``seconds`` mode (``clock_seconds``).
        They are the platform's, kept in the sealed token beside the state, never in it."""
        modes = clocks.mode_names(self)
        meaning = "; ".join(f"{m}: {h}" for m, h in self.clock_modes.items())
        return (OptionInfo(clocks.CLOCK, "enum", self.clock_default, modes, help=(
                    "the turn clock: off; seconds: clock_seconds for every decision" + (f"; {meaning}" if meaning else "")
                    + ". A late action is refused (TOO_LATE); the owner's Play with timeouts applies the game's "
                      "default action for every seat whose deadline passed")),
                OptionInfo(clocks.CLOCK_SECONDS, "int", clocks.DEFAULT_SECONDS, (), 1, clocks.MAX_SECONDS,
                           "seconds for every decision under clock=seconds"))

    def clock_settings(self, overrides: Mapping[str, Any] | None = None) -> ClockSettings:
        """The table's clock from the options given (checked by ``make_options``)."""
        overrides = overrides or EMPTY
        return ClockSettings(overrides.get(clocks.CLOCK, self.clock_default),
                             overrides.get(clocks.CLOCK_SECONDS, clocks.DEFAULT_SECONDS))

    def time_limit(self, state, seat: int, clock: ClockSettings) -> Limit:
        """How long the awaited ``seat`` has for its decision in ``state`` under ``clock``: the
        platform's ``seconds`` mode here; a game adds its own modes (``clock_modes``)."""
        if clock.mode == clocks.SECONDS:
            return Limit(clock.seconds * 1000)
        return clocks.NO_LIMIT

    def default_action(self, state, seat: int) -> Action:
        """The action taken for the awaited ``seat`` when its time runs out or it is on autoplay
        (托管): a PASS where it may pass, else the first of its legal actions in the game's
        documented order (a climbing game's lowest single on a lead). A game may choose another,
        and says so in its docstring."""
        legal = self.legal_actions(state, seat)
        for action, _ in legal:
            if action.kind == PASS:
                return action
        return legal[0][0]

    def _checked_options(self, options):
        """A game may refuse combinations of options here (InvalidAction BAD_OPTION)."""
        return options

    # --- capabilities --------------------------------------------------------------------------
    def capabilities(self) -> tuple[str, ...]:
        """What ListGames reports: ``classify``, ``compare``, ``hints`` (legal plays as text)
        when the game implements them, then its extras."""
        own = [name for name, method in (("classify", "classify"), ("compare", "compare"),
                                         ("hints", "hint_strings"))
               if getattr(type(self), method) is not getattr(Game, method)]
        return tuple(own) + tuple(self.extras)

    def kind_names(self) -> frozenset:
        return self._kind_names

    # --- the round ---------------------------------------------------------------------------
    def deal(self, options, seed: bytes, entropy: bytes = b"", seats: int = 0, match: Match | None = None):
        """A new round dealt from ``seed`` (+ ``entropy``); seats 0 means the default; ``match``
        continues a match (see ``next_round``)."""
        seats = seats or self.default_seats or self.min_seats
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidAction(f"{self.id} is played by {self.min_seats}-{self.max_seats} seats, not {seats}",
                                Reason.BAD_SEAT_COUNT)
        return self._deal(options, seed, entropy, seats, match or Match(0, (0,) * seats))

    def deal_events(self, state) -> list[Event]:
        """Events announcing a fresh deal (one DEAL per seat with its cards)."""
        return []

    def next_round(self, finished) -> Match:
        """The match record of the round after ``finished``: the round number, each seat's
        points so far and the game's carry-over. A void round is played again and not counted
        (``round_counts``); once the match is over (``match_over``), or when the game voids it
        (``voids_match``: its results cancelled), the next match starts at the same table.

        Raises:
            IllegalAction: the round is not finished (GAME_NOT_FINISHED).
        """
        if not finished.finished:
            raise IllegalAction("the round is not finished", Reason.GAME_NOT_FINISHED)
        match = finished.match
        if self.voids_match(finished) or (self.round_counts(finished) and self.match_over(finished)):
            return Match(0, (0,) * finished.num_seats, self._new_match_carry(finished), match.number + 1)
        if not self.round_counts(finished):
            return Match(match.round, match.totals, self._carry(finished), match.number)
        points = self.settle(finished).points
        totals = tuple(a + b for a, b in zip(match.totals, points))
        return Match(match.round + 1, totals, self._carry(finished), match.number)

    def match_over(self, state) -> bool:
        """Whether the match ends with the finished round ``state`` (a game with a round limit)."""
        return False

    def round_counts(self, state) -> bool:
        """Whether the finished round ``state`` counts in its match (False: a void round, played
        again from a new deal; 够级's two revolutionaries)."""
        return True

    def voids_match(self, state) -> bool:
        """Whether the finished round ``state`` voids its whole match (够级 ``void_ju``): the
        match's results are cancelled and a new match begins."""
        return False

    def _carry(self, finished):
        """What the game's rules carry from ``finished`` into the next round (its own record; None:
        nothing)."""
        return None

    def _new_match_carry(self, finished):
        """What the game's rules carry from a match's last round into the next match (default:
        nothing, the next match starts as the table's first did)."""
        return None

    def check(self, state, action: Action) -> Verdict:
        """Is ``action`` legal now? Never raises for a well-formed action; changes nothing."""
        if state.finished:
            return Verdict.no(Reason.GAME_OVER, "the round is over")
        if not 0 <= action.seat < state.num_seats:
            return Verdict.no(Reason.BAD_SEAT, f"no seat {action.seat}")
        kind = action.kind
        if kind not in self._kind_names:
            return Verdict.no(Reason.BAD_ACTION, f"{self.id} has no action {kind[:20]!r} "
                                                 f"(kinds: {', '.join(sorted(self._kind_names))})")
        bad = self._bad_cards(action)
        if bad is not None:
            return bad
        if kind == ABANDON:
            if self.left(state) >> action.seat & 1:
                return Verdict.no(Reason.SEAT_LEFT, f"seat {action.seat} left the round")
            return Verdict.ok("abandon (escape)")
        if action.seat not in state.to_act:
            return Verdict.no(Reason.NOT_YOUR_TURN,
                              f"seat {action.seat} is not to act (awaiting {list(state.to_act)})")
        if kind == TIMEOUT:
            default = self.default_action(state, action.seat)
            verdict = self.check(state, default)
            return verdict._replace(action=verdict.action or default) if verdict.legal else verdict
        phase = self.phases[state.phase]
        if kind not in phase.kinds:
            return Verdict.no(Reason.WRONG_PHASE,
                              f"{phase.name}: {', '.join(sorted(phase.kinds))}, not {kind}")
        return phase.check(self, state, action)

    def _bad_cards(self, action: Action) -> Verdict | None:
        cards = action.cards
        if cards:
            limit = self.notation.id_count
            if min(cards) < 0 or max(cards) >= limit:
                return Verdict.no(Reason.UNKNOWN_CARD, f"card ids are 0..{limit - 1}")
            if len(set(cards)) != len(cards):
                return Verdict.no(Reason.DUPLICATE_CARD, "a card given twice")
        if action.ranks:
            limit = self.notation.rank_count
            if min(action.ranks) < 0 or max(action.ranks) >= limit:
                return Verdict.no(Reason.UNKNOWN_CARD, f"rank indexes are 0..{limit - 1}")
        return None

    def apply(self, state, action: Action):
        """Apply a legal action: (next state, events).

        Raises:
            IllegalAction: the verdict's reason (InvalidAction for a malformed action).
        """
        verdict = self.check(state, action)
        if not verdict.legal:
            raise error_for(verdict.reason, verdict.message)
        if action.kind == TIMEOUT:  # the default action, announced where the turn is public
            nxt, events = self.apply(state, verdict.action)
            if self.phases[state.phase].public_turn:
                events = [Event(TIMEOUT, action.seat, values={"autoplay": int(action.value == 1)})] + events
            return nxt, events
        action = verdict.action or action
        if action.kind == ABANDON:
            nxt, events = self._abandon(state, action.seat)
        else:
            nxt, events = self.phases[state.phase].apply(self, state, action, verdict)
        return nxt._replace(step=state.step + 1), events

    def left(self, state) -> int:
        """The seats that left the round and play no more (a mask; abandon policy OUT_OF_PLAY)."""
        return 0

    def _abandon(self, state, seat: int):
        """The round ends: the seat left (逃跑). Games say what it costs in their settlement. A
        game whose ``abandon_policy`` is OUT_OF_PLAY puts the seat out of play instead (``left``)
        and the round goes on."""
        return (state._replace(phase=len(self.phases) - 1, to_act=(), abandoned=seat),
                [Event("ABANDON", seat)])

    def legal_actions(self, state, seat: int) -> list[tuple[Action, Combo | None]]:
        """Every distinct legal action of ``seat`` now, in the game's documented order (ABANDON,
        always possible, is not listed)."""
        if state.finished or seat not in state.to_act:
            return []
        return self.phases[state.phase].legal(self, state, seat)

    def phase_name(self, state) -> str:
        return self.phases[state.phase].name

    def view(self, state, seat: int) -> View:
        return self.views(state, (seat,))[0]

    def views(self, state, seats) -> list[View]:
        """The views of several seats, in order (-1: a spectator): equal to
        ``[view(state, s) for s in seats]``; a game shares the work between seats."""
        seats = tuple(seats)
        for seat in seats:
            if not -1 <= seat < state.num_seats:
                raise InvalidAction(f"no seat {seat}", Reason.BAD_SEAT)
        views = self._views(state, seats)
        if state.to_act and not self.phases[state.phase].public_turn:
            views = [v._replace(to_act=self.to_act_for(state, v.seat)) for v in views]
        return views

    def to_act_for(self, state, viewer: int | None) -> tuple[int, ...]:
        """The awaited seats as ``viewer`` may know them: the owner (None) every one; in a phase
        whose turn is public every viewer too; else a seat itself when it is awaited, and a
        spectator (-1) nobody."""
        to_act = state.to_act
        if viewer is None or not to_act or self.phases[state.phase].public_turn:
            return to_act
        return (viewer,) if viewer in to_act else ()

    def knowledge(self, state) -> Knowledge:
        """Who may know which cards now (see :class:`Knowledge`)."""
        raise NotImplementedError

    def secret_cards(self, state, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` may know that are not public (its hand, its face-down melds)."""
        known = self.knowledge(state)
        return _ids(known.seats[seat] & ~known.public)

    def settle(self, state) -> Settlement:
        """Settlement of a finished or abandoned round. Raises IllegalAction (GAME_NOT_FINISHED)."""
        if not state.finished:
            raise IllegalAction("the round is not finished", Reason.GAME_NOT_FINISHED)
        return self._settle(state)

    def digest(self, state) -> bytes:
        """sha256 of the packed state: equal states, equal digests (replay audits)."""
        return hashlib.sha256(self.pack(state)).digest()

    # --- what the contract suite checks on every game ----------------------------------------
    def card_zones(self, state) -> Mapping[str, Iterable[int]]:
        """Where every card of the round is (hands, kitty, table, rivers ...): together they
        hold ``all_cards(state)`` exactly once each."""
        raise NotImplementedError

    def all_cards(self, state) -> Iterable[int]:
        return range(self.notation.id_count)

    def dealt(self, state) -> tuple[Mapping[str, tuple[int, ...]], Mapping[str, int]]:
        """The round's deal as the shuffle made it, for independent verification: the cards by
        name, each in shuffled order (``{"seat0": ..., "kitty": ...}``), and the numbers the
        seed decided (a drawn first bidder or dealer, the redeals)."""
        raise NotImplementedError

    def deal_record_keys(self, seats: int) -> tuple[frozenset, frozenset]:
        """The keys ``dealt`` answers for a round of ``seats`` seats, as declared: its cards'
        (a per-seat key once a seat) and its values'."""
        cards = {name for name, key in self.deal_cards.items() if not key.per_seat}
        cards.update(f"{name}{seat}" for name, key in self.deal_cards.items() if key.per_seat for seat in range(seats))
        return frozenset(cards), frozenset(self.deal_values)

    # --- capabilities (optional): stateless helpers -------------------------------------------
    def classify(self, cards_text: str, options) -> list[Combo]:
        """Every reading of the cards. Raises: Unsupported unless the game implements it."""
        raise Unsupported(f"{self.id} does not classify cards", Reason.UNSUPPORTED)

    def compare(self, a_text: str, b_text: str, options) -> tuple[bool, Combo | None, Combo | None]:
        """Does ``a`` beat ``b``? Raises: Unsupported unless the game implements it."""
        raise Unsupported(f"{self.id} does not compare combinations", Reason.UNSUPPORTED)

    def standing(self, totals: Iterable[int]) -> Mapping[str, tuple[str, ...]]:
        """The game's own labels of each seat's standing over cumulative points, by the names
        of ``standings`` (Dou Dizhu's level titles 级别); none by default."""
        return EMPTY

    def hint_strings(self, hand_text: str, table_text: str, options, context: Mapping[str, str] = EMPTY) -> list[str]:
        """The legal plays of a hand on a table as the game's canonical text (``referee legal``);
        ``context`` says more of the table, by the names of ``hint_context`` (Dou Dizhu's declared
        reading of the table). Raises: Unsupported unless the game implements it."""
        raise Unsupported(f"{self.id} has no text hints", Reason.UNSUPPORTED)

    def hint_groups(self, state, seat: int) -> list[str]:
        """The legal plays of ``seat`` as the game's grouped hints, for a LegalActions answer too
        long to list them all (``LegalActionsResponse.groups``); none by default."""
        return []

    def hint_json(self, hand_text: str, table_text: str, options, context: Mapping[str, str] = EMPTY) -> str:
        """``{"moves": hint_strings(...)}`` as JSON text (a game may write it faster)."""
        import json

        return json.dumps({"moves": self.hint_strings(hand_text, table_text, options, context)},
                          ensure_ascii=False)

    def check_context(self, context: Mapping[str, str]) -> None:
        """Raises: InvalidAction (MALFORMED_REQUEST) for a hint context key the game does not declare."""
        unknown = sorted(set(context) - set(self.hint_context))
        if unknown:
            raise InvalidAction(f"{self.id} reads no hint context {unknown[0][:40]!r} "
                                f"(known: {', '.join(sorted(self.hint_context)) or 'none'})", Reason.MALFORMED_REQUEST)

    # --- the state codec ------------------------------------------------------------------------
    @functools.cached_property
    def codec(self) -> StateCodec:
        """The state's codec, compiled once from its declarations."""
        return StateCodec(self.State, version=self.state_version, context=game_context(self),
                          fields=self.state_fields, legacy=self.state_layouts)

    @property
    def state_bytes(self) -> int:
        """The longest packed state the declarations allow: tokens are padded to it, so all the
        tokens of a game have one length (computed, never sampled)."""
        return self.codec.max_size()

    def pack(self, state) -> bytes:
        """The state's payload (version byte, marshal format 2 of its values): equal states, equal bytes."""
        return self.codec.pack(state)

    def unpack(self, data: bytes):
        """Raises: InvalidAction (STATE_TOKEN_INVALID) on bytes that are no packed state."""
        return self.codec.unpack(data)

    # --- the rest, per game ----------------------------------------------------------------------

    def _deal(self, options, seed: bytes, entropy: bytes, seats: int, match: Match):
        raise NotImplementedError

    def _views(self, state, seats) -> list[View]:
        raise NotImplementedError

    def _settle(self, state) -> Settlement:
        raise NotImplementedError


def _range_text(info: OptionInfo) -> str:
    if info.allowed:
        return ": " + ", ".join(map(str, info.allowed))
    if info.minimum is not None and info.maximum is not None:
        return f" {info.minimum}..{info.maximum}"
    if info.minimum is not None:
        return f" >= {info.minimum}"
    if info.maximum is not None:
        return f" <= {info.maximum}"
    return ""


def held(hand: int, action: Action, notation) -> int | Verdict:
    """The cards an action names, as a bitmask, taken from ``hand`` (a bitmask): the ids given,
    or for ranks the lowest ids of each rank the hand holds; a refusal when the hand lacks them."""
    if action.cards:
        mask = to_mask(action.cards)
        if mask & ~hand:
            missing = notation.format_cards(_ids(mask & ~hand))
            return Verdict.no(Reason.CARDS_NOT_IN_HAND, f"not in hand: {missing}")
        return mask
    if action.ranks:
        mask = pick_lowest(hand, action.ranks, notation.rank_masks)
        if not mask:
            return Verdict.no(Reason.CARDS_NOT_IN_HAND, f"hand lacks {notation.format_ranks(action.ranks)}")
        return mask
    return Verdict.no(Reason.BAD_ACTION, f"{action.kind} needs cards")


def pick_lowest(hand: int, ranks: Iterable[int], rank_masks) -> int:
    """For each rank given (repeats take more), the hand's card of that rank with the lowest id
    not yet taken; 0 when the hand lacks one."""
    picked = 0
    for r in ranks:
        free = hand & ~picked & rank_masks[r]
        if not free:
            return 0
        picked |= free & -free
    return picked


def _ids(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
