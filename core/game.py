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
``step`` counts applied actions (the token's sequence number).

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
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple

from .cards import PokerNotation, to_mask
from .errors import IllegalAction, InvalidAction, Reason, UnknownName, Unsupported, error_for

EMPTY: Mapping = MappingProxyType({})

# the action kinds every game reads the same way (proto referee.v1.ActionKind)
PASS, PLAY, ABANDON = "PASS", "PLAY", "ABANDON"


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
    the round balances when ``sum(points) + house == 0``."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    outcome: str  # e.g. "landlord_won", "farmers_won", "abandoned"
    breakdown: tuple[tuple[str, int], ...]
    house: int = 0
    coins: tuple[int, ...] = ()
    coins_house: int = 0
    mode: str = "points"


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
    """Where a round stands in its match: rounds dealt before it, each seat's points over them,
    and what the game's rules carry into it (its own values, e.g. the dealer)."""

    round: int = 0
    totals: tuple[int, ...] = ()
    carry: tuple = ()


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
    """An event type a game emits: what it means and its ``values`` keys."""

    help: str
    values: Mapping[str, str] = EMPTY


def option(default, help: str, allowed: tuple = (), minimum=None, maximum=None):
    """A dataclass field for an ``Options`` record, with what ListGames shows."""
    return field(default=default, metadata={"help": help, "allowed": allowed,
                                            "minimum": minimum, "maximum": maximum})


class Phase:
    """One phase of a game (bidding, play, a claim window ...): the action kinds it accepts and
    their legal/check/apply. ``check`` and ``apply`` see only actions that passed the shared
    policy (seat awaited, kind of this phase); ``apply`` returns the next state without
    counting the step (the game does) and the events."""

    name: str = ""
    kinds: frozenset = frozenset()
    simultaneous: bool = False  # several seats answer at once (decisions.DecisionPhase)

    def legal(self, game: Game, state, seat: int) -> list[tuple[Action, Combo | None]]:
        return []

    def check(self, game: Game, state, action: Action) -> Verdict:
        raise NotImplementedError

    def apply(self, game: Game, state, action: Action, verdict: Verdict):
        raise NotImplementedError


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
    notation: ClassVar[Any] = PokerNotation(1)  # the card space: ids and text (cards.PokerNotation)
    # every packed state fits in this many bytes, with the largest options and entropy: tokens
    # are padded to it, so all tokens of a game have one length (the contract suite checks it)
    state_bytes: ClassVar[int] = 1024
    Options: ClassVar[type]
    presets: ClassVar[Mapping[str, Any]] = {}
    phases: ClassVar[tuple[Phase, ...]]
    # what ListGames publishes besides the options
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (COMMON_KINDS[PASS], COMMON_KINDS[PLAY],
                                                      COMMON_KINDS[ABANDON])
    reasons: ClassVar[Mapping[str, str]] = {}  # the game's own reason names -> meaning
    counters: ClassVar[Mapping[str, str]] = {}  # View.counters keys -> meaning
    seat_counters: ClassVar[Mapping[str, str]] = {}  # SeatView.counters keys
    public_cards: ClassVar[Mapping[str, str]] = {}  # View.public_cards keys
    seat_cards: ClassVar[Mapping[str, str]] = {}  # SeatView.cards keys
    roles: ClassVar[Mapping[str, str]] = {}  # SeatView.role values
    event_types: ClassVar[Mapping[str, EventType]] = {}
    private_events: ClassVar[frozenset] = frozenset({"DEAL"})  # cards seen by the event's seat only
    extras: ClassVar[tuple[str, ...]] = ()  # the game's own API (a per-game proto and service)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "action_kinds" in cls.__dict__:
            cls._kind_names = frozenset(k.name for k in cls.action_kinds)

    _kind_names: ClassVar[frozenset] = frozenset((PASS, PLAY, ABANDON))

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
        infos = {i.name: i for i in self.option_infos()}
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
        return self._checked_options(dataclasses.replace(base, **overrides))

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
        points so far and the game's carry-over.

        Raises:
            IllegalAction: the round is not finished (GAME_NOT_FINISHED) or the match is over
                (MATCH_OVER).
        """
        if not finished.finished:
            raise IllegalAction("the round is not finished", Reason.GAME_NOT_FINISHED)
        if self.match_over(finished):
            raise IllegalAction(f"the match ended with round {finished.match.round + 1}", Reason.MATCH_OVER)
        points = self.settle(finished).points
        totals = tuple(a + b for a, b in zip(finished.match.totals, points))
        return Match(finished.match.round + 1, totals, self._carry(finished))

    def match_over(self, state) -> bool:
        """Whether the match ends with the finished round ``state`` (a game with a round limit)."""
        return False

    def _carry(self, finished) -> tuple:
        """What the game's rules carry from ``finished`` into the next round."""
        return ()

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
            return Verdict.ok("abandon (escape)")
        if action.seat not in state.to_act:
            return Verdict.no(Reason.NOT_YOUR_TURN,
                              f"seat {action.seat} is not to act (awaiting {list(state.to_act)})")
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
        action = verdict.action or action
        if action.kind == ABANDON:
            nxt, events = self._abandon(state, action.seat)
        else:
            nxt, events = self.phases[state.phase].apply(self, state, action, verdict)
        return nxt._replace(step=state.step + 1), events

    def _abandon(self, state, seat: int):
        """The round ends: the seat left (逃跑). Games say what it costs in their settlement."""
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
        return self._views(state, seats)

    def visible_to(self, event: Event) -> frozenset | None:
        """The seats that may see ``event``'s cards; None: everybody. Others get it without
        cards. By default the cards of a private event (a DEAL) are its own seat's."""
        if event.type in self.private_events:
            return frozenset((event.seat,))
        return None

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

    def secret_cards(self, state, seat: int) -> Iterable[int]:
        """The cards only ``seat`` may know now (its concealed hand, its face-down melds): no
        other seat's view, no spectator's view and no event another seat sees shows them."""
        raise NotImplementedError

    # --- capabilities (optional): stateless helpers -------------------------------------------
    def classify(self, cards_text: str, options) -> list[Combo]:
        """Every reading of the cards. Raises: Unsupported unless the game implements it."""
        raise Unsupported(f"{self.id} does not classify cards", Reason.UNSUPPORTED)

    def compare(self, a_text: str, b_text: str, options) -> tuple[bool, Combo | None, Combo | None]:
        """Does ``a`` beat ``b``? Raises: Unsupported unless the game implements it."""
        raise Unsupported(f"{self.id} does not compare combinations", Reason.UNSUPPORTED)

    def titles(self, totals: Iterable[int]) -> list[str]:
        """Level titles (级别) of cumulative points, for games that have them; else []."""
        return []

    def hint_strings(self, hand_text: str, table_text: str, options, table_kind: str = "") -> list[str]:
        """The legal plays of a hand on a table as the game's canonical text (``referee legal``).
        Raises: Unsupported unless the game implements it."""
        raise Unsupported(f"{self.id} has no text hints", Reason.UNSUPPORTED)

    def hint_json(self, hand_text: str, table_text: str, options, table_kind: str = "") -> str:
        """``{"moves": hint_strings(...)}`` as JSON text (a game may write it faster)."""
        import json

        return json.dumps({"moves": self.hint_strings(hand_text, table_text, options, table_kind)},
                          ensure_ascii=False)

    # --- serialization and the rest, per game --------------------------------------------------
    def pack(self, state) -> bytes:
        raise NotImplementedError

    def unpack(self, data: bytes):
        raise NotImplementedError

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
