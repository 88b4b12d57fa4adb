"""The surface every game exposes, and the policy shared by all of them.

A game is a `Game` subclass instance registered in :mod:`referee.core.registry`. States are
immutable; ``apply`` returns a new state and the events it caused. Shared policy lives here
once: an action for a finished game, an unknown seat or a seat that is not awaited is refused
before the game's own ``_check`` sees it.

An ABANDON (a player leaves, 逃跑) is taken from any seat at any time.

Every state has at least: ``num_seats``, ``to_act``, ``finished``, ``step``, ``seed``,
``entropy`` (the caller's) and ``options``.

Seats are ints 0..n-1. ``State.to_act`` is the tuple of seats whose decision is awaited: one
seat in turn-based play, several for simultaneous decisions (claims, simultaneous plays).
``State.step`` counts applied actions; the service uses it as the token's sequence number.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Mapping, NamedTuple, TypeVar

from .cards import PokerNotation
from .errors import IllegalAction, InvalidAction, Reason, UnknownName, error_for


@functools.lru_cache(maxsize=256)
def option_values(options) -> tuple:
    """An Options record's values in field order, as a packed state stores them (cached: a
    server sees few distinct option sets, and every state is packed with its options)."""
    return tuple(getattr(options, f.name) for f in dataclasses.fields(options))


class ActionType(enum.IntEnum):
    """Action kinds across games (values mirror proto `referee.v1.ActionType`)."""

    ACTION_TYPE_UNSPECIFIED = 0
    PASS = 1
    PLAY = 2
    BID = 3
    ABANDON = 4
    DRAW = 5
    DISCARD = 6
    CHOW = 7
    PUNG = 8
    KONG = 9
    WIN = 10


class Action(NamedTuple):
    """One seat's decision. ``cards`` are concrete ids; ``ranks`` are rank indexes for games
    that let the caller name ranks only (the game then picks the concrete cards)."""

    seat: int
    type: ActionType
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
    reason: Reason
    message: str = ""
    combo: Combo | None = None
    action: Action | None = None  # the action resolved to concrete cards, when legal
    detail: Any = None  # what the game's check learned, handed to its _apply

    @classmethod
    def ok(cls, message: str = "legal", combo: Combo | None = None, action: Action | None = None,
           detail: Any = None):
        return cls(True, Reason.OK, message, combo, action, detail)

    @classmethod
    def no(cls, reason: Reason, message: str):
        return cls(False, reason, message)


class Event(NamedTuple):
    """Something an action caused (a NamedTuple, like View: built on every Play)."""

    type: str  # DEAL, REDEAL, BID, LANDLORD, KITTY, PLAY, PASS, TRICK_WON, BOMB, ABANDON, FINISH
    seat: int = -1
    cards: tuple[int, ...] = ()
    combo: Combo | None = None
    values: Mapping[str, int] = MappingProxyType({})


class View(NamedTuple):
    """What one seat may see (seat -1: a spectator's public view)."""

    seat: int
    phase: str
    to_act: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    public_cards: Mapping[str, tuple[int, ...]]  # e.g. {"kitty": (...)} once shown
    table: Combo | None  # the combination to beat, None on a free lead
    table_seat: int
    table_cards: tuple[int, ...]
    roles: tuple[str, ...]  # per seat: "landlord", "farmer", "" ...
    counters: Mapping[str, int]  # game numbers: base, multiplier, bids, ...
    finished: bool


@dataclass(frozen=True, slots=True)
class Settlement:
    """Result of a round. ``points`` per seat; ``house`` what the house gains (escape, fees);
    zero-sum means ``sum(points) + house == 0``."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    outcome: str  # e.g. "landlord_won", "farmers_won", "abandoned"
    breakdown: tuple[tuple[str, int], ...]
    house: int = 0
    coins: tuple[int, ...] = ()
    coins_house: int = 0
    mode: str = "points"


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    type: str  # "bool", "int", "enum"
    default: Any
    allowed: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""


S = TypeVar("S")
O = TypeVar("O")


def option(default, help: str, allowed: tuple = (), minimum=None, maximum=None):
    """A dataclass field for an ``Options`` record, with what ListGames shows."""
    return field(default=default, metadata={"help": help, "allowed": allowed,
                                            "minimum": minimum, "maximum": maximum})


class Game(Generic[S, O]):
    """Base for all games. Subclasses set the class attributes and implement the _methods."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    decks: ClassVar[int] = 1
    notation: ClassVar[Any] = PokerNotation(1)  # card ids and text of the API (cards.PokerNotation)
    Options: ClassVar[type]
    # event types whose cards only the event's own seat may see (the rest see the event bare)
    private_events: ClassVar[frozenset] = frozenset({"DEAL"})
    presets: ClassVar[Mapping[str, Any]] = {}

    # --- options -------------------------------------------------------------------------
    def option_infos(self) -> tuple[OptionInfo, ...]:
        infos = []
        for f in dataclasses.fields(self.Options):
            kind = "bool" if f.type in (bool, "bool") else ("enum" if f.metadata.get("allowed") else "int")
            infos.append(OptionInfo(f.name, kind, f.default, tuple(f.metadata.get("allowed", ())),
                                    f.metadata.get("minimum"), f.metadata.get("maximum"),
                                    f.metadata.get("help", "")))
        return tuple(infos)

    def make_options(self, preset: str = "", overrides: Mapping[str, Any] | None = None) -> O:
        """Options from a preset (or the spec's defaults) with named overrides checked.

        Raises:
            UnknownName: unknown preset (UNKNOWN_PRESET).
            InvalidAction: unknown option or value out of range (BAD_OPTION).
        """
        if preset:
            if preset not in self.presets:
                raise UnknownName(f"game {self.id!r} has no preset {preset!r}", Reason.UNKNOWN_PRESET)
            base = self.presets[preset]
        else:
            base = self.Options()
        if not overrides:
            return base
        infos = {i.name: i for i in self.option_infos()}
        for name, value in overrides.items():
            info = infos.get(name)
            if info is None:
                raise InvalidAction(f"game {self.id!r} has no option {name!r}", Reason.BAD_OPTION)
            is_int = isinstance(value, int) and not isinstance(value, bool)
            bad = ((info.type == "bool" and not isinstance(value, bool))
                   or (info.type == "int" and not is_int)
                   or (info.type == "enum" and (not isinstance(value, type(info.default))
                                                or value not in info.allowed))
                   or (info.minimum is not None and is_int and value < info.minimum)
                   or (info.maximum is not None and is_int and value > info.maximum))
            if bad:
                raise InvalidAction(f"option {name}={value!r} is not allowed", Reason.BAD_OPTION)
        return dataclasses.replace(base, **overrides)

    # --- the surface -----------------------------------------------------------------------
    def deal(self, options: O, seed: bytes, entropy: bytes = b"", seats: int = 0) -> S:
        """A new round dealt from ``seed`` (+ caller ``entropy``); seats 0 means the default."""
        seats = seats or self.min_seats
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidAction(f"{self.id} is played by {self.min_seats}-{self.max_seats} seats, not {seats}",
                                Reason.BAD_SEAT_COUNT)
        return self._deal(options, seed, entropy, seats)

    def deal_events(self, state: S) -> list[Event]:
        """Events announcing a fresh deal (one DEAL per seat with its cards)."""
        return []

    def check(self, state: S, action: Action) -> Verdict:
        """Is ``action`` legal now? Never raises for a well-formed action; changes nothing."""
        if state.finished:
            return Verdict.no(Reason.GAME_OVER, "the round is over")
        if not 0 <= action.seat < state.num_seats:
            return Verdict.no(Reason.BAD_SEAT, f"no seat {action.seat}")
        if action.type is not ActionType.ABANDON and action.seat not in state.to_act:
            return Verdict.no(Reason.NOT_YOUR_TURN,
                              f"seat {action.seat} is not to act (awaiting {list(state.to_act)})")
        return self._check(state, action)

    def apply(self, state: S, action: Action) -> tuple[S, list[Event]]:
        """Apply a legal action.

        Raises:
            IllegalAction: the verdict's reason (InvalidAction for a malformed action).
        """
        verdict = self.check(state, action)
        if not verdict.legal:
            raise error_for(verdict.reason, verdict.message)
        return self._apply(state, verdict.action or action, verdict)

    def legal_actions(self, state: S, seat: int) -> list[tuple[Action, Combo | None]]:
        """Every distinct legal action of ``seat`` now, in the game's documented order."""
        if state.finished or seat not in state.to_act:
            return []
        return self._legal_actions(state, seat)

    def view(self, state: S, seat: int) -> View:
        if not -1 <= seat < state.num_seats:
            raise InvalidAction(f"no seat {seat}", Reason.BAD_SEAT)
        return self._view(state, seat)

    def views(self, state: S, seats) -> list[View]:
        """The views of several seats, in order (a Play answers with every seat's): equal to
        ``[view(state, s) for s in seats]``; a game may share the work between seats."""
        seats = tuple(seats)
        for seat in seats:
            if not -1 <= seat < state.num_seats:
                raise InvalidAction(f"no seat {seat}", Reason.BAD_SEAT)
        return self._views(state, seats)

    def settle(self, state: S) -> Settlement:
        """Settlement of a finished or abandoned round. Raises IllegalAction (GAME_NOT_FINISHED)."""
        if not state.finished:
            raise IllegalAction("the round is not finished", Reason.GAME_NOT_FINISHED)
        return self._settle(state)

    def digest(self, state: S) -> bytes:
        """sha256 of the packed state: equal states, equal digests (replay audits)."""
        return hashlib.sha256(self.pack(state)).digest()

    # stateless helpers and serialization, implemented per game
    def classify(self, cards_text: str, options: O) -> list[Combo]:
        raise NotImplementedError

    def compare(self, a_text: str, b_text: str, options: O) -> tuple[bool, Combo | None, Combo | None]:
        raise NotImplementedError

    def pack(self, state: S) -> bytes:
        raise NotImplementedError

    def unpack(self, data: bytes) -> S:
        raise NotImplementedError

    # implemented per game
    def _deal(self, options, seed, entropy, seats): raise NotImplementedError
    def _check(self, state, action) -> Verdict: raise NotImplementedError
    def _apply(self, state, action, verdict): raise NotImplementedError
    def _legal_actions(self, state, seat): raise NotImplementedError
    def _view(self, state, seat) -> View: raise NotImplementedError
    def _views(self, state, seats) -> list[View]: return [self._view(state, s) for s in seats]
    def _settle(self, state) -> Settlement: raise NotImplementedError
