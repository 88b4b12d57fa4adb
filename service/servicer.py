"""The `referee.v1.RefereeService` servicer: converts protobuf, opens/seals tokens, checks who is
calling, delegates to the core. It names no game: each game describes itself (ListGames) and
decides what each seat may see.

Who may do what (the credential of a call, :mod:`.credentials`):

=============  ===============================  ==================================================
caller         acts                             sees
=============  ===============================  ==================================================
owner          any seat; applies the seats'     every seat's view and event; Score's seed, the
               sealed answers; next round       entropy and the deal record
seat s         as seat s only; in a             its own view and the events as seat s may see
               simultaneous decision its        them; Score without the seed
               answer comes back sealed
no credential  nothing (UNAUTHENTICATED)        the public (spectator) view
=============  ===============================  ==================================================

Errors are raised as core exceptions and mapped to statuses in one place (:mod:`.errors`).
"""
from __future__ import annotations

import collections
import hashlib
import logging
import marshal
import os
import time
from typing import Callable, NamedTuple

import grpc

from referee.core import clock as clocks
from referee.core import rng
from referee.core.clock import TIMEOUT, Clock
from referee.core.errors import (IllegalAction, InvalidAction, LimitExceeded, PermissionDenied, Reason, RefereeError,
                                 Unauthenticated, error_for)
from referee.core.game import ABANDON, PASS, Action, Game, event_for
from referee.core.registry import GAMES, get_game
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc
from referee.v1 import state_pb2

from . import convert, errors
from .credentials import OWNER, OWNER_CALLER, Caller, Credentials, from_metadata
from .token import ABANDONED, ANSWER, CALLER_SEED, CLOCKED, DIRECT, SEED, TABLE_BYTES, Sealer, check_seq

MAX_REPLAY_ACTIONS = 1000
MAX_POINTS = 10**15  # |cumulative_points|: far from int64 overflow
MAX_BATCH_ITEMS = 500
MAX_ANSWER_BYTES = 16 << 20  # the server's send limit: an answer must fit
ANSWER_ROOM = MAX_ANSWER_BYTES - (64 << 10)  # what a batch's results or a replay's steps may fill
# upper bounds of one JudgeBatch item's answer, checked before any work: a LegalActions answer
# holds up to a few hundred actions of ~150 bytes, a Play one view and its events
ITEM_BYTES = {"validate": 1 << 10, "play": 8 << 10, "legal_actions": 64 << 10}
LEGAL_BYTES = 60 << 10  # a LegalActions answer's actions and groups (LegalActionsResponse.truncated)
VIEW_BYTES = 4 << 10  # a view with its share of a replay step (a mahjong view ~ 2.5 KB)
CLOCK_TOLERANCE_MS = 500  # pods' clocks may differ by this much: late = past deadline + tolerance
MAX_AUTOPLAY_STEPS = 2000  # defaults one owner's call applies at most (every seat on autoplay: a whole round)
NO_CLOCK = Clock()

log = logging.getLogger(__name__)


def _digest(game: Game, state, packed: bytes) -> bytes:
    if type(game).digest is Game.digest:  # the base digest is sha256(pack(state)): reuse the bytes
        return hashlib.sha256(packed).digest()
    return game.digest(state)


def _views(game: Game, state, seats, into=None, test_deal: bool = False, clock: Clock = NO_CLOCK):
    """The views of ``seats``: appended to the repeated field ``into`` (no copies; returns
    None), or returned as a list. The first is converted; the others are copies of it with the
    fields where they differ converted (seat and hand; games share equal parts as the same
    objects, so finding them is cheap). ``clock`` adds the deadlines each viewer may know."""
    views = [] if into is None else into
    notation = game.notation
    first = first_msg = None
    for v in game.views(state, seats):
        msg = state_pb2.View() if into is None else into.add()
        if first_msg is None:
            first, first_msg = v, convert.view_into(msg, v, notation)
            first_msg.test_deal = test_deal
        else:
            convert.view_like_into(msg, v, first, first_msg, notation)
        if clock.autoplay or any(clock.deadlines):
            if msg is first_msg:
                _clock_into(msg, clock, v.to_act, fresh=True)
            elif v.to_act != first.to_act or (v.seats is not first.seats and v.seats != first.seats):
                _clock_into(msg, clock, v.to_act, fresh=False)  # what the copy of the first holds differs
            else:  # the first's seats, copied: only the viewer's own deadline differs
                msg.deadline_ms = clock.deadline(v.seat)
        if into is None:
            views.append(msg)
    return views if into is None else None


def _clock_into(msg, clock: Clock, awaited, fresh: bool) -> None:
    """A view's deadlines: the viewer's own, and each seat's that the viewer sees awaited
    (``awaited``: ``to_act`` as that viewer may know it); the seats on autoplay. A ``fresh``
    message gets its non-zero values only; a copy of another viewer's has every field set."""
    msg.deadline_ms = clock.deadline(msg.seat)
    seats, deadlines, autoplay = msg.seats, clock.deadlines, clock.autoplay
    for seat in range(len(seats)):
        deadline = deadlines[seat] if seat in awaited and seat < len(deadlines) else 0
        on = bool(autoplay >> seat & 1)
        if fresh and not deadline and not on:
            continue
        sv = seats[seat]
        sv.deadline_ms, sv.autoplay = deadline, on


def _events(game: Game, events, view_seat: int | None, states, into=None):
    """Events as one seat sees them (-1: a spectator): an event's cards reach a seat only when
    it may know every one of them in one of ``states`` (the state before the action and after
    it: ``Game.knowledge``); None (the owner asking for every seat) gets them all. Appended to
    the repeated field ``into`` (returns None), or returned as a list."""
    if view_seat is not None and any(e.cards for e in events):
        allowed = 0
        for state in states:
            allowed |= game.knowledge(state).allowed(view_seat)
        events = [event_for(e, allowed) for e in events]
    return convert.events(events, game.notation, into)


def _deliveries(game: Game, state, events, states, test_deal: bool, clock: Clock = NO_CLOCK) -> list:
    """Each seat's share (its view and the events as it may see them), then the spectators'."""
    seats = tuple(range(state.num_seats)) + (-1,)
    views = _views(game, state, seats, test_deal=test_deal, clock=clock)
    return [pb.Delivery(seat=seat, view=view, events=_events(game, events, seat, states))
            for seat, view in zip(seats, views)]


class Table(NamedTuple):
    """An opened state token: the game, the state and the table it belongs to."""

    seq: int
    game: Game
    state: object
    table: bytes  # the table id (16 bytes), the same for every round of a match
    flags: int  # token flags (CALLER_SEED, DIRECT, ABANDONED; CLOCKED is the token's own)
    clock: Clock = NO_CLOCK  # deadlines and autoplay, sealed beside the state (never in it)

    @property
    def test_deal(self) -> bool:
        return bool(self.flags & CALLER_SEED)


class RecentStates:
    """The opened Table of the tokens this process sealed lately, by the token's bytes.

    A caller sends back the token it was just given, often several times (LegalActions,
    Validate, Play): when it is one of ours, the state is at hand without decrypting and
    unpacking it. Only bytes this process produced can match, so a hit is as authentic as the
    sealer's answer; a miss (another process sealed it, or it was evicted) opens the token as
    usual. States are immutable. At most ``size`` entries, the oldest evicted first; 0: off.
    """

    def __init__(self, size: int):
        self.size = size
        # an OrderedDict drops its oldest entry in O(1) (a dict would scan past the slots its
        # earlier deletions left at the front)
        self._items: collections.OrderedDict[bytes, tuple] = collections.OrderedDict()

    def get(self, token: bytes):
        return self._items.get(token)

    def put(self, token: bytes, value: tuple) -> None:
        if not self.size:
            return
        items = self._items
        items[token] = value  # each OrderedDict call is atomic; racing puts at worst evict one more
        if len(items) > self.size:
            items.popitem(last=False)


def _table(opened, game: Game) -> Table:
    """The Table of an opened state token: a token of this release holds the clock record before
    the packed state (flag CLOCKED); an older one has no clock."""
    payload, clock = opened.payload, NO_CLOCK
    if opened.flags & CLOCKED:
        record, payload = payload[:clocks.RECORD_BYTES], payload[clocks.RECORD_BYTES:]
        state = game.unpack(payload)
        try:
            clock = clocks.unpack(game, record, state.num_seats)
        except (ValueError, IndexError):
            raise InvalidAction("state token invalid: a clock record that does not decode",
                                Reason.STATE_TOKEN_INVALID) from None
        return Table(opened.seq, game, state, opened.table, opened.flags & ~CLOCKED, clock)
    return Table(opened.seq, game, game.unpack(payload), opened.table, opened.flags)


def _optional(request, name: str):
    return getattr(request, name) if request.HasField(name) else None


class RefereeServicer(pb_grpc.RefereeServiceServicer):
    """Stateless: every call carries what it needs; the sealed token carries the round, the
    metadata's credential says who calls. ``allow_caller_seed`` (tests, demos) accepts Deal
    seeds and lets Replay return a live state."""

    def __init__(self, sealer: Sealer, state_cache: int = 4096, allow_caller_seed: bool = False,
                 time_source: Callable[[], float] = time.time, clock_tolerance_ms: int = CLOCK_TOLERANCE_MS):
        self.sealer = sealer
        self.credentials = Credentials(sealer.ring)
        self.recent = RecentStates(state_cache)
        self.allow_caller_seed = allow_caller_seed
        self.time_source = time_source  # the turn clocks' time (seconds since the epoch): injected
        self.tolerance = clock_tolerance_ms

    def _now(self) -> int:
        return int(self.time_source() * 1000)

    # --- tokens and callers ---------------------------------------------------------------------
    def _open(self, token: bytes, expected_seq: int | None = None, opened_tokens: dict | None = None,
              last_use: bool = False) -> Table:
        """The Table of a state token. ``opened_tokens`` (JudgeBatch) remembers tokens opened in
        this call: a table's Validate and Play items carry the same token, and states are
        immutable. ``last_use`` (Play) takes the state out again, so a batch holds no more than a
        unary call does."""
        if opened_tokens is None:
            hit = None
        else:
            hit = opened_tokens.pop(token, None) if last_use else opened_tokens.get(token)
        if hit is None:
            hit = self.recent.get(token)
        if hit is None:
            opened = self.sealer.open(token)
            game = GAMES.get(opened.game)
            if game is None:
                raise InvalidAction(f"state token invalid: unknown game {convert.short(opened.game)}",
                                    Reason.STATE_TOKEN_INVALID)
            hit = _table(opened, game)
            if opened_tokens is not None and not last_use:
                opened_tokens[token] = hit
        check_seq(hit.seq, expected_seq)
        return hit

    def _seal(self, table: Table) -> tuple[bytes, bytes]:
        """A token of ``table``'s state (padded to the game's fixed size) and its digest."""
        game, state = table.game, table.state
        packed = game.pack(state)
        token = self.sealer.seal(game.id, state.step, clocks.pack(game, table.clock) + packed, table.table,
                                 flags=table.flags | CLOCKED, size=clocks.RECORD_BYTES + game.state_bytes)
        self.recent.put(token, table._replace(seq=state.step))
        return token, _digest(game, state, packed)

    def _caller(self, table: Table, context=None, credential: bytes | None = None) -> Caller:
        """Who calls, from ``credential`` (a batch item's) or the call's metadata."""
        if not credential and context is not None:
            return self.credentials.caller_of(table.table, context.invocation_metadata())
        return self.credentials.caller(table.table, credential)

    @staticmethod
    def _setup(request):
        game = get_game(request.game)
        return game, convert.options_in(game, request.preset, request.options)

    def _start_clock(self, request, table: Table | None) -> Clock:
        """The clock a new round starts with (no deadlines yet): a match's next round keeps its
        table's settings and seats on autoplay; a first round takes the options' clock."""
        if table is not None:
            return table.clock._replace(deadlines=())
        return Clock(convert.clock_in(get_game(request.game), request.options))

    def _start(self, request, context):
        """(game, options, seats, match, table id, flags) of a Deal or Replay: from the request,
        or for the next round of a match from the finished round's token (authenticated and
        the owner's: nothing the caller claims is carried over)."""
        if not request.previous_state:
            game, options = self._setup(request)
            return game, options, request.seats, None, os.urandom(TABLE_BYTES), 0, self._start_clock(request, None)
        if request.game or request.preset or request.options or request.seats or getattr(request, "seat_play", 0):
            raise InvalidAction("the next round of a match takes its game, options, seats and seat-play mode "
                                "from previous_state: leave game, preset, options, seats and seat_play unset",
                                Reason.MALFORMED_REQUEST)
        finished = self._open(request.previous_state)
        _require_owner(self._caller(finished, context), "deal the next round of a match")
        state = finished.state
        return (finished.game, state.options, state.num_seats, finished.game.next_round(state),
                finished.table, finished.flags & ~ABANDONED, self._start_clock(request, finished))

    # --- RPCs -----------------------------------------------------------------------------------
    def ListGames(self, request, context):
        return pb.ListGamesResponse(games=[convert.shared_game_info(GAMES[g]) for g in sorted(GAMES)])

    def Commit(self, request, context):
        _check_entropy(request.client_entropy, (), 0)
        seed = rng.new_seed()
        sealed = self.sealer.seal("", 0, marshal.dumps((seed, request.client_entropy), 2), kind=SEED)
        return pb.CommitResponse(sealed_seed=sealed, commitment=rng.commitment(seed))

    def Deal(self, request, context):
        game, options, seats, match, table_id, flags, start = self._start(request, context)
        seed, owner_entropy = self._seed(request)
        if request.HasField("seed"):
            flags |= CALLER_SEED
        if request.seat_play == pb.SEAT_PLAY_DIRECT:
            flags |= DIRECT
        _check_entropy(owner_entropy, request.seat_entropy, game.max_seats)
        state = game.deal(options, seed, rng.entropy(owner_entropy, request.seat_entropy), seats, match)
        _check_entropy(owner_entropy, request.seat_entropy, state.num_seats)
        now = self._now()
        dealt = state
        table = Table(0, game, state, table_id, flags, clocks.start(game, state, start.settings, now, start.autoplay))
        events, applied = list(game.deal_events(state)), []
        table = self._defaults(table, events, applied, now, autoplay=True)
        state = table.state
        view_seat = _optional(request, "view_seat")
        seats_seen = _seats_of(OWNER_CALLER, state, view_seat)
        token, digest = self._seal(table)
        return pb.DealResponse(state=token, state_digest=digest, seq=state.step,
                               views=_views(game, state, seats_seen, test_deal=table.test_deal, clock=table.clock),
                               to_act=state.to_act, commitment=rng.commitment(seed),
                               events=_events(game, events, view_seat, (dealt, state)),
                               match=convert.match_info(state.match),
                               applied=[convert.action_out(a, game.notation) for a in applied],
                               server_time_ms=now,
                               seat_credentials=[self.credentials.make(table_id, s) for s in range(state.num_seats)],
                               owner_credential=self.credentials.make(table_id, OWNER),
                               seat_play=pb.SEAT_PLAY_DIRECT if flags & DIRECT else pb.SEAT_PLAY_RELAYED,
                               deliveries=_deliveries(game, state, events, (dealt, state), table.test_deal,
                                                      table.clock) if request.deliveries else ())

    def _seed(self, request) -> tuple[bytes, bytes]:
        """(seed, owner's entropy) of a Deal: sealed by Commit, the caller's (tests only), or new."""
        if request.sealed_seed:
            if request.HasField("seed") or request.client_entropy:
                raise InvalidAction("with sealed_seed, the seed and the owner's entropy are the sealed ones: "
                                    "leave seed and client_entropy unset", Reason.MALFORMED_REQUEST)
            seed, entropy = _unpack_seed(self.sealer.open(request.sealed_seed, "", kind=SEED).payload)
            return seed, entropy
        if request.HasField("seed"):
            if not self.allow_caller_seed:
                raise PermissionDenied("this server deals only from its own seeds (a caller's seed is for a "
                                       "server started with --allow-caller-seed)", Reason.CALLER_SEED_NOT_ALLOWED)
            _check_seed(request.seed)
            return request.seed, request.client_entropy
        return rng.new_seed(), request.client_entropy

    def Validate(self, request, context):
        return self._validate(request, context)

    def Play(self, request, context):
        return self._play(request, context)

    def LegalActions(self, request, context):
        return self._legal_actions(request, context)

    # The bodies of Validate, Play and LegalActions, shared with JudgeBatch. Each fills ``out``
    # (a new response, or a JudgeBatch result's member: no copy) after everything that can raise.
    def _validate(self, request, context, opened_tokens: dict | None = None, out=None,
                  credential: bytes | None = None) -> pb.ValidateResponse:
        table = self._open(request.state, _optional(request, "expected_seq"), opened_tokens)
        game = table.game
        action = convert.action_in(request.action, game)
        _require_seat(self._caller(table, context, credential), action.seat, "validate")
        verdict = game.check(table.state, action)
        resolved = verdict.action
        out = pb.ValidateResponse() if out is None else out
        out.legal, out.reason, out.message = verdict.legal, verdict.reason, verdict.message
        if verdict.combo is not None:
            out.combination.CopyFrom(convert.shared_combination(verdict.combo, game.notation))
        if resolved and resolved.cards:
            out.cards.CopyFrom(convert.shared_card_set(tuple(resolved.cards), game.notation))
        return out

    def _play(self, request, context, opened_tokens: dict | None = None, out=None,
              credential: bytes | None = None) -> pb.PlayResponse:
        table = self._open(request.state, _optional(request, "expected_seq"), opened_tokens, last_use=True)
        game, state = table.game, table.state
        caller = self._caller(table, context, credential)
        out = pb.PlayResponse() if out is None else out
        before = state
        now = self._now()
        events, applied = [], []
        owners_call = bool(request.answers or request.timeouts or request.autoplay_on or request.autoplay_off)
        if request.deliveries:
            _require_owner(caller, "ask for every seat's share")
        if owners_call:
            _require_owner(caller, "apply sealed answers, timeouts or autoplay")
            if request.answers and request.HasField("action"):
                raise InvalidAction("give either an action or answers", Reason.MALFORMED_REQUEST)
            table = self._set_autoplay(table, request.autoplay_on, request.autoplay_off)
            for answer in request.answers:
                action, made = self._answer(table, answer)
                self._in_time(table, action, made)
                table = self._apply(table, action, events, applied, now)
        if request.HasField("action") or not owners_call:
            action = convert.action_in(request.action, game)
            _require_seat(caller, action.seat, "act")
            if action.kind == TIMEOUT and not caller.owner:
                raise PermissionDenied("only the table's owner applies a seat's default (TIMEOUT)", Reason.OWNER_ONLY)
            self._in_time(table, action, now)
            if not caller.owner and (not table.flags & DIRECT or (game.phases[state.phase].simultaneous and
                                                                   action.kind in game.phases[state.phase].kinds)):
                return self._seal_answer(table, action, out, now)  # relayed, or secret until the owner resolves
            table = self._apply(table, action, events, applied, now)
        if caller.owner:
            count = len(applied)
            table = self._defaults(table, events, applied, now, timeouts=request.timeouts, autoplay=True)
            alone = not (request.answers or request.HasField("action") or request.autoplay_on or request.autoplay_off)
            if request.timeouts and alone and len(applied) == count:
                raise self._not_expired(table, now)
        state = table.state
        if state.finished and applied and applied[-1].kind == ABANDON:  # Score reveals its seed only when asked
            table = table._replace(flags=table.flags | ABANDONED)
        view_seat = _optional(request, "view_seat")
        seats = _seats_of(caller, state, view_seat)
        token, digest = self._seal(table)
        viewer = _event_seat(caller, view_seat)
        _events(game, events, viewer, (before, state), into=out.events)
        _views(game, state, seats, into=out.views, test_deal=table.test_deal, clock=table.clock)
        out.state, out.seq, out.state_digest, out.finished = token, state.step, digest, state.finished
        out.to_act.extend(game.to_act_for(state, _awaited_as(caller)))
        out.server_time_ms = now
        if caller.owner:
            out.applied.extend(convert.action_out(a, game.notation) for a in applied)
        if request.deliveries:
            out.deliveries.extend(_deliveries(game, state, events, (before, state), table.test_deal, table.clock))
        return out

    # --- the clock: late actions, timeouts and autoplay (core/clock.py computes the deadlines) ---------
    def _apply(self, table: Table, action: Action, events: list, applied: list, now: int) -> Table:
        """``table`` after ``action``, its events and the action appended; the deadlines advanced."""
        game, before = table.game, table.state
        state, new = game.apply(before, action)
        events += new
        applied.append(action)
        return table._replace(state=state, clock=clocks.advance(game, table.clock, before, state, action.seat, now))

    def _in_time(self, table: Table, action: Action, made: int | None) -> None:
        """Raises IllegalAction (TOO_LATE) for an action of a seat made past its deadline (with
        the tolerance); ABANDON and TIMEOUT are never late."""
        if made is None or action.kind in (ABANDON, TIMEOUT) or action.seat not in table.state.to_act:
            return
        deadline = table.clock.deadline(action.seat)
        if deadline and made > deadline + self.tolerance:
            raise errors.with_metadata(IllegalAction(
                f"seat {action.seat}'s time ran out {made - deadline} ms before its action: the owner applies "
                f"its default (timeouts)", Reason.TOO_LATE), deadline_ms=deadline)

    def _not_expired(self, table: Table, now: int):
        waiting = [d for d in (table.clock.deadline(s) for s in table.state.to_act) if d]
        message = "no awaited seat's deadline has passed"
        if not waiting:
            return IllegalAction(message + " (no awaited seat has a deadline)", Reason.NOT_EXPIRED)
        retry = min(waiting) + self.tolerance + 1 - now
        return errors.with_metadata(IllegalAction(f"{message}: the first passes in {retry} ms", Reason.NOT_EXPIRED),
                                    retry_after_ms=retry)

    def _set_autoplay(self, table: Table, on, off) -> Table:
        if not on and not off:  # most owner's calls: the table as it is
            return table
        n = table.state.num_seats
        if any(s >= n for s in (*on, *off)):
            raise InvalidAction(f"no seat {max((*on, *off))}", Reason.BAD_SEAT)
        mask = table.clock.autoplay
        for s in on:
            mask |= 1 << s
        for s in off:
            mask &= ~(1 << s)
        return table._replace(clock=table.clock._replace(autoplay=mask))

    def _defaults(self, table: Table, events: list, applied: list, now: int, *, timeouts: bool = False,
                  autoplay: bool = True) -> Table:
        """Apply the game's default (TIMEOUT) for every awaited seat on autoplay, and with
        ``timeouts`` for every one whose deadline passed, until none is left (at most
        MAX_AUTOPLAY_STEPS: the next owner's call goes on)."""
        for _ in range(MAX_AUTOPLAY_STEPS):
            state, clock = table.state, table.clock
            if state.finished:
                break
            seat, value = -1, 0
            if autoplay and clock.autoplay:
                seat = next((s for s in state.to_act if clock.autoplay >> s & 1), -1)
                value = 1
            if seat < 0 and timeouts:
                expired = clock.expired(state, now, self.tolerance)
                seat, value = (expired[0], 0) if expired else (-1, 0)
            if seat < 0:
                break
            table = self._apply(table, Action(seat, TIMEOUT, value=value), events, applied, now)
        return table

    def _seal_answer(self, table: Table, action: Action, out, now: int) -> pb.PlayResponse:
        """A seat's answer to a simultaneous decision, checked and sealed (with the time it was
        made, for the clock): the state stays."""
        game, state = table.game, table.state
        verdict = game.check(state, action)
        if not verdict.legal:
            raise error_for(verdict.reason, verdict.message)
        action = verdict.action or action
        payload = marshal.dumps((action.seat, action.kind, action.cards, action.ranks, action.value,
                                 action.declared, state.match.number, state.match.round, now), 2)
        out.answer = self.sealer.seal(game.id, state.step, payload, table.table, kind=ANSWER)
        out.seq = state.step
        out.to_act.extend(game.to_act_for(state, action.seat))
        out.server_time_ms = now
        return out

    def _answer(self, table: Table, token: bytes) -> tuple[Action, int | None]:
        """The action of a seat's sealed answer, for this table and this decision, and when it
        was made (None: sealed by an earlier release).

        Raises: InvalidAction (STATE_TOKEN_INVALID), IllegalAction (STALE_STATE).
        """
        opened = self.sealer.open(token, table.game.id, kind=ANSWER)
        if opened.table != table.table:
            raise InvalidAction("a sealed answer of another table", Reason.STATE_TOKEN_INVALID)
        state = table.state
        phase = table.game.phases[state.phase]
        if phase.simultaneous:
            if not phase.opened_at(state) <= opened.seq <= state.step:
                raise IllegalAction("a sealed answer to another decision than the one awaited", Reason.STALE_STATE)
        elif opened.seq != state.step:  # a relayed move: made on this very state
            raise IllegalAction(f"a relayed move made at step {opened.seq}, not on this state (step {state.step})",
                                Reason.STALE_STATE)
        try:
            fields = marshal.loads(opened.payload)
            seat, kind, cards, ranks, value, declared, number, round_ = fields[:8]
            made = fields[8] if len(fields) > 8 else None
            if len(fields) > 9 or (made is not None and type(made) is not int):
                raise ValueError
            action = Action(seat, kind, tuple(cards), tuple(ranks), value, declared)
        except (ValueError, TypeError, EOFError):
            raise InvalidAction("a sealed answer that does not decode", Reason.STATE_TOKEN_INVALID) from None
        if (number, round_) != (state.match.number, state.match.round):
            raise IllegalAction(f"an answer sealed in round {round_} of match {number}, not in this round "
                                f"({state.match.round} of match {state.match.number})", Reason.STALE_STATE)
        return action, made

    def _legal_actions(self, request, context, opened_tokens: dict | None = None, out=None,
                       credential: bytes | None = None) -> pb.LegalActionsResponse:
        table = self._open(request.state, _optional(request, "expected_seq"), opened_tokens)
        game, state = table.game, table.state
        if request.seat >= state.num_seats:
            raise InvalidAction(f"no seat {request.seat}", Reason.BAD_SEAT)
        _require_seat(self._caller(table, context, credential), request.seat, "ask the legal actions of")
        legal = game.legal_actions(state, request.seat)
        notation = game.notation
        out = pb.LegalActionsResponse() if out is None else out
        entries = out.actions
        entries.extend([convert.shared_legal_action(a, c, notation) for a, c in legal])
        if out.ByteSize() > LEGAL_BYTES:  # keep the answer within its budget: what fits, and the groups
            groups = game.hint_groups(state, request.seat)
            room = LEGAL_BYTES - sum(len(g.encode()) + 4 for g in groups)
            order = [i for i, (a, _) in enumerate(legal) if not a.cards] + [i for i, (a, _) in enumerate(legal) if a.cards]
            kept, size = set(), 0
            for i in order:
                entry = pb.LegalActionsResponse(actions=(entries[i],)).ByteSize()  # with its tag and length
                if size + entry > room:
                    break
                kept.add(i)
                size += entry
            for i in reversed(range(len(legal))):
                if i not in kept:
                    del entries[i]
            out.truncated = True
            out.groups.extend(groups)
        out.can_pass = any(a.kind == PASS for a, _ in legal)
        return out

    def GetView(self, request, context):
        table = self._open(request.state)
        state = table.state
        caller = self._caller(table, context)
        view_seat = _optional(request, "view_seat")
        seats = _seats_of(caller, state, view_seat)
        return pb.GetViewResponse(seq=state.step, views=_views(table.game, state, seats, test_deal=table.test_deal,
                                                                clock=table.clock),
                                  to_act=table.game.to_act_for(state, _awaited_as(caller)),
                                  finished=state.finished, server_time_ms=self._now())

    def JudgeBatch(self, request, context):
        items = request.items
        if len(items) > MAX_BATCH_ITEMS:
            raise LimitExceeded(f"at most {MAX_BATCH_ITEMS} items per batch", Reason.REQUEST_TOO_LARGE)
        kinds = [item.WhichOneof("call") for item in items]
        if None in kinds:
            raise InvalidAction("a batch item sets none of validate, play, legal_actions", Reason.MALFORMED_REQUEST)
        if sum(ITEM_BYTES[k] for k in kinds) > MAX_ANSWER_BYTES:
            raise LimitExceeded(f"the answer could pass {MAX_ANSWER_BYTES >> 20} MiB: split the batch (an item "
                                f"counts {', '.join(f'{k} {v >> 10} KiB' for k, v in ITEM_BYTES.items())})",
                                Reason.REQUEST_TOO_LARGE)
        call_credential = from_metadata(context.invocation_metadata()) if context is not None else None
        response = pb.JudgeBatchResponse()
        results, opened_tokens, size = response.results, {}, 0
        for index, (item, kind) in enumerate(zip(items, kinds)):
            result = results.add()
            try:
                self._judges[kind](self, getattr(item, kind), None, opened_tokens, getattr(result, kind),
                                   item.credential or call_credential)
            except RefereeError as error:
                result.error.CopyFrom(_item_error(error))  # setting the oneof clears a partial answer
            except Exception:
                log.exception("internal error in a JudgeBatch %s item", kind)
                result.error.CopyFrom(pb.ItemError(code=grpc.StatusCode.INTERNAL.value[0], message="internal error"))
            size += result.ByteSize() + 8
            if size > ANSWER_ROOM:  # it would not be sent: stop here, before the rest of the work
                raise errors.with_metadata(LimitExceeded(
                    f"the answer passes {MAX_ANSWER_BYTES >> 20} MiB at item {index}: split the batch",
                    Reason.REQUEST_TOO_LARGE), item_index=index)
        return response

    _judges = {"validate": _validate, "play": _play, "legal_actions": _legal_actions}

    def Score(self, request, context):
        table = self._open(request.state)
        game, state = table.game, table.state
        caller = self._caller(table, context)
        settlement = game.settle(state)
        cumulative = list(request.cumulative_points) or [0] * state.num_seats
        if len(cumulative) != state.num_seats or any(abs(c) > MAX_POINTS for c in cumulative):
            raise InvalidAction(f"cumulative_points: {state.num_seats} values of at most {MAX_POINTS:.0e}",
                                Reason.MALFORMED_REQUEST)
        totals = [c + p for c, p in zip(cumulative, settlement.points)]
        out = pb.ScoreResponse(settlement=convert.settlement(settlement), commitment=rng.commitment(state.seed),
                               standings={k: state_pb2.SeatLabels(labels=v) for k, v in game.standing(totals).items()},
                               cumulative_points=totals,
                               match=convert.match_info(state.match, settlement.points, game.match_over(state),
                                                        not game.round_counts(state), game.voids_match(state)))
        out.settlement.test_deal = table.test_deal
        out.abandoned = bool(table.flags & ABANDONED)
        # the seed reveals every card: the owner's alone, only now (finished), and for a round that
        # ended by ABANDON (perhaps a copy of a live round's token) only when asked for
        if caller.owner and (not out.abandoned or request.reveal_abandoned):
            owner_entropy, seat_entropy = rng.split_entropy(state.entropy)
            out.seed, out.client_entropy = state.seed, owner_entropy
            out.seat_entropy.extend(seat_entropy)
            out.deal.CopyFrom(convert.deal_record(game, state))
        return out

    def Replay(self, request, context):
        if len(request.actions) > MAX_REPLAY_ACTIONS:
            raise LimitExceeded(f"at most {MAX_REPLAY_ACTIONS} actions per replay", Reason.REQUEST_TOO_LARGE)
        view_seat = _optional(request, "view_seat")
        game, options, seats, match, table_id, flags, start = self._start(request, context)
        views = 1 if view_seat is not None else min(seats or game.default_seats or game.min_seats, game.max_seats)
        if request.deliveries:  # each seat's share too, and the spectators'
            views += min(seats or game.default_seats or game.min_seats, game.max_seats) + 1
        if (len(request.actions) + 1) * views * VIEW_BYTES > MAX_ANSWER_BYTES:
            raise LimitExceeded(f"{len(request.actions)} steps with {views} views each could pass "
                                f"{MAX_ANSWER_BYTES >> 20} MiB: replay with a view_seat, or in parts",
                                Reason.REQUEST_TOO_LARGE)
        if not request.seed:
            raise InvalidAction("a replay needs the seed", Reason.BAD_SEED)
        _check_seed(request.seed)
        _check_entropy(request.client_entropy, request.seat_entropy, game.max_seats)
        state = game.deal(options, request.seed, rng.entropy(request.client_entropy, request.seat_entropy),
                          seats, match)
        seats_seen = range(state.num_seats) if view_seat is None else _seats_of(OWNER_CALLER, state, view_seat)
        shares = request.deliveries
        deal = self._step(game, state, state, game.deal_events(state), view_seat, seats_seen, shares)
        size = deal.ByteSize()
        steps = []
        for index, msg in enumerate(request.actions):
            before = state
            try:
                state, events = game.apply(state, convert.action_in(msg, game))
            except RefereeError as error:
                raise errors.with_metadata(error, action_index=index) from None
            step = self._step(game, before, state, events, view_seat, seats_seen, shares)
            size += step.ByteSize() + 8
            if size > ANSWER_ROOM:
                raise LimitExceeded(f"the replay's answer passes {MAX_ANSWER_BYTES >> 20} MiB at action {index}: "
                                    "replay with a view_seat, or fewer actions", Reason.REQUEST_TOO_LARGE)
            steps.append(step)
        out = pb.ReplayResponse(deal=deal, steps=steps, commitment=rng.commitment(request.seed),
                                settlement=convert.settlement(game.settle(state)) if state.finished else None)
        if self.allow_caller_seed:  # a live state from a caller's seed: test servers only
            clock = clocks.start(game, state, start.settings, self._now(), start.autoplay)
            out.state = self._seal(Table(state.step, game, state, table_id, flags | CALLER_SEED, clock))[0]
            out.seat_credentials.extend(self.credentials.make(table_id, s) for s in range(state.num_seats))
            out.owner_credential = self.credentials.make(table_id, OWNER)
        return out

    def _step(self, game: Game, before, state, events, view_seat: int | None, seats,
              shares: bool = False) -> pb.ReplayStep:
        return pb.ReplayStep(seq=state.step, state_digest=_digest(game, state, game.pack(state)),
                             events=_events(game, events, view_seat, (before, state)), views=_views(game, state, seats),
                             to_act=state.to_act, finished=state.finished,
                             deliveries=_deliveries(game, state, events, (before, state), False) if shares else ())

    def Classify(self, request, context):
        game, options = self._setup(request)
        readings = game.classify(convert.cards_text(request.cards, game.notation), options)
        return pb.ClassifyResponse(readings=[convert.combination(c, game.notation) for c in readings])

    def Compare(self, request, context):
        game, options = self._setup(request)
        beats, a, b = game.compare(convert.cards_text(request.a, game.notation),
                                   convert.cards_text(request.b, game.notation), options)
        return pb.CompareResponse(beats=beats, a=convert.combination(a, game.notation),
                                  b=convert.combination(b, game.notation))

    def Ping(self, request, context):
        return pb.PingResponse()


def _require_seat(caller: Caller, seat: int, what: str) -> None:
    """The owner may act for any seat; a seat only for itself; nobody else at all."""
    if caller.owner:
        return
    if caller.role is None:
        raise Unauthenticated(f"to {what} a seat needs that seat's credential (authorization: Bearer ...)",
                              Reason.CREDENTIAL_REQUIRED)
    if seat != caller.seat:
        raise PermissionDenied(f"seat {caller.seat}'s credential cannot {what} seat {seat}", Reason.NOT_YOUR_SEAT)


def _require_owner(caller: Caller, what: str) -> None:
    if caller.role is None:
        raise Unauthenticated(f"to {what} needs the table owner's credential", Reason.CREDENTIAL_REQUIRED)
    if not caller.owner:
        raise PermissionDenied(f"only the table's owner may {what}", Reason.OWNER_ONLY)


def _seats_of(caller: Caller, state, view_seat: int | None) -> tuple[int, ...]:
    """The views a caller may have: the owner any (every seat's unless one is asked), a seat its
    own (or the spectator's), nobody known the spectator's."""
    if view_seat is not None and not -1 <= view_seat < state.num_seats:
        raise InvalidAction(f"no seat {view_seat}", Reason.BAD_SEAT)
    if caller.owner:
        return tuple(range(state.num_seats)) if view_seat is None else (view_seat,)
    if view_seat is None or view_seat == -1 or view_seat == caller.seat:
        return (-1,) if view_seat == -1 or caller.role is None else (caller.seat,)
    if caller.role is None:
        raise Unauthenticated(f"seat {view_seat}'s view needs that seat's credential", Reason.CREDENTIAL_REQUIRED)
    raise PermissionDenied(f"seat {caller.seat}'s credential cannot see seat {view_seat}'s view", Reason.NOT_YOUR_SEAT)


def _event_seat(caller: Caller, view_seat: int | None) -> int | None:
    """As whom a caller sees events: the owner as asked (None: every card), a seat as itself,
    nobody known as a spectator."""
    if caller.owner:
        return view_seat
    return -1 if caller.role is None or view_seat == -1 else caller.seat


def _awaited_as(caller: Caller) -> int | None:
    """As whom a caller sees the awaited seats (``to_act``): the owner every one (None), a seat as
    itself, nobody known as a spectator (-1)."""
    if caller.owner:
        return None
    return -1 if caller.role is None else caller.seat


def _unpack_seed(payload: bytes) -> tuple[bytes, bytes]:
    try:
        seed, entropy = marshal.loads(payload)
        if type(seed) is not bytes or type(entropy) is not bytes:
            raise ValueError
        return seed, entropy
    except (ValueError, TypeError, EOFError):
        raise InvalidAction("a sealed seed that does not decode", Reason.STATE_TOKEN_INVALID) from None


def _item_error(error: RefereeError) -> pb.ItemError:
    """A core error as a batch item's answer: the status the unary call would have ended with."""
    return pb.ItemError(code=errors.status_code(error).value[0], reason=error.reason, message=error.message,
                        metadata={k: str(v) for k, v in getattr(error, "metadata", {}).items()})


def _check_seed(seed: bytes) -> None:
    if not 0 < len(seed) <= rng.MAX_SEED_BYTES:
        raise InvalidAction(f"a seed is 1-{rng.MAX_SEED_BYTES} bytes", Reason.BAD_SEED)


def _check_entropy(owner: bytes, seats, num_seats: int) -> None:
    if len(seats) > num_seats:
        raise InvalidAction(f"seat_entropy: at most one per seat ({num_seats})", Reason.BAD_SEED)
    if len(owner) > rng.MAX_ENTROPY_BYTES:
        raise InvalidAction(f"client entropy is at most {rng.MAX_ENTROPY_BYTES} bytes", Reason.BAD_SEED)
    if any(len(e) > rng.MAX_SEAT_ENTROPY_BYTES for e in seats):
        raise InvalidAction(f"a seat's entropy is at most {rng.MAX_SEAT_ENTROPY_BYTES} bytes", Reason.BAD_SEED)
