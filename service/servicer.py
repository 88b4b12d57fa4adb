"""The `referee.v1.RefereeService` servicer: converts protobuf, opens/seals tokens, delegates to
the core. It names no game: each game describes itself (ListGames) and decides what it shows.

Errors are raised as core exceptions and mapped to statuses in one place (:mod:`.errors`).
"""
from __future__ import annotations

import collections
import functools
import hashlib
import logging

import grpc

from referee.core import rng
from referee.core.errors import InvalidAction, LimitExceeded, Reason, RefereeError
from referee.core.game import PASS, Game
from referee.core.registry import GAMES, get_game
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc
from referee.v1 import state_pb2

from . import convert, errors
from .token import Sealer, check_seq

MAX_REPLAY_ACTIONS = 1000
MAX_SEED_BYTES = 1024
MAX_POINTS = 10**15  # |cumulative_points|: far from int64 overflow
MAX_BATCH_ITEMS = 500  # JudgeBatch; with every seat's views a Play answer is ~2 KB

log = logging.getLogger(__name__)


def _digest(game: Game, state, packed: bytes) -> bytes:
    if type(game).digest is Game.digest:  # the base digest is sha256(pack(state)): reuse the bytes
        return hashlib.sha256(packed).digest()
    return game.digest(state)


# LegalActions answers with up to a few hundred actions and the same (action, combination) pairs
# come back all the time (80% of them in bot games): each entry is kept serialized, as the
# generated code writes a response holding only that entry (frozen core objects as keys). A
# response is then parsed from the entries joined: protobuf parses concatenated messages as
# their merge, and a repeated field's entries as appended, in order.
@functools.lru_cache(maxsize=32768)
def _legal_action_entry(action, combo, notation) -> bytes:
    return pb.LegalActionsResponse(actions=[convert.legal_action(action, combo, notation)]).SerializeToString()


def _views(game: Game, state, view_seat: int | None, into=None):
    """The views a caller asked for: appended to the repeated field ``into`` (no copies; returns
    None), or returned as a list. The first is converted; the others are copies of it with the
    fields where they differ converted (seat and hand; games share equal parts as the same
    objects, so finding them is cheap)."""
    views = [] if into is None else into
    seats = range(state.num_seats) if view_seat is None else (view_seat,)
    notation = game.notation
    first = first_msg = None
    for v in game.views(state, seats):
        msg = state_pb2.View() if into is None else into.add()
        if first_msg is None:
            first, first_msg = v, convert.view_into(msg, v, notation)
        else:
            convert.view_like_into(msg, v, first, first_msg, notation)
        if into is None:
            views.append(msg)
    return views if into is None else None


def _events(game: Game, events, view_seat: int | None, into=None):
    """Events as one caller may see them: an event's cards reach only the seats the game lets
    see them (``Game.visible_to``: a DEAL its own seat); a caller that asked for every seat gets
    them all. Appended to the repeated field ``into`` (returns None), or returned as a list."""
    if view_seat is not None:
        visible_to = game.visible_to
        events = [e if not e.cards or _sees(visible_to(e), view_seat) else e._replace(cards=())
                  for e in events]
    return convert.events(events, game.notation, into)


def _sees(seats, seat: int) -> bool:
    return seats is None or seat in seats


class RecentStates:
    """The (seq, game, state) of the tokens this process sealed lately, by the token's bytes.

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


def _optional(request, name: str):
    return getattr(request, name) if request.HasField(name) else None


class RefereeServicer(pb_grpc.RefereeServiceServicer):
    """Stateless: every call carries what it needs; the sealed token carries the round."""

    def __init__(self, sealer: Sealer, state_cache: int = 4096):
        self.sealer = sealer
        self.recent = RecentStates(state_cache)

    # --- tokens ---------------------------------------------------------------------------------
    def _open(self, token: bytes, expected_seq: int | None = None, opened_tokens: dict | None = None,
              last_use: bool = False):
        """(game, state) of a token. ``opened_tokens`` (JudgeBatch) remembers tokens opened in this
        call: a table's Validate and Play items carry the same token, and states are immutable.
        ``last_use`` (Play) takes the state out again, so a batch holds no more than a unary call
        does (and a game whose packing depended on the old state being alive would still pack
        the next state as the unary Play does)."""
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
                raise InvalidAction(f"state token invalid: unknown game {opened.game!r}", Reason.STATE_TOKEN_INVALID)
            hit = opened.seq, game, game.unpack(opened.payload)
            if opened_tokens is not None and not last_use:
                opened_tokens[token] = hit
        seq, game, state = hit
        check_seq(seq, expected_seq)
        return game, state

    def _seal(self, game: Game, state) -> tuple[bytes, bytes]:
        packed = game.pack(state)
        token = self.sealer.seal(game.id, state.step, packed)
        self.recent.put(token, (state.step, game, state))
        return token, _digest(game, state, packed)

    @staticmethod
    def _setup(request):
        game = get_game(request.game)
        return game, convert.options_in(game, request.preset, request.options)

    def _start(self, request):
        """(game, options, seats, match) of a Deal or Replay: from the request, or for the next
        round of a match from the finished round's token (authenticated: nothing the caller
        claims is carried over)."""
        if not request.previous_state:
            game, options = self._setup(request)
            return game, options, request.seats, None
        if request.game or request.preset or request.options or request.seats:
            raise InvalidAction("the next round of a match takes its game, options and seats from "
                                "previous_state: leave game, preset, options and seats empty",
                                Reason.MALFORMED_REQUEST)
        game, finished = self._open(request.previous_state)
        return game, finished.options, finished.num_seats, game.next_round(finished)

    # --- RPCs -----------------------------------------------------------------------------------
    def ListGames(self, request, context):
        return pb.ListGamesResponse(games=[convert.game_info(GAMES[g]) for g in sorted(GAMES)])

    def Deal(self, request, context):
        game, options, seats, match = self._start(request)
        seed = _optional(request, "seed")
        if seed is None:
            seed = rng.new_seed()
        _check_seed(seed, request.client_entropy)
        state = game.deal(options, seed, request.client_entropy, seats, match)
        view_seat = _optional(request, "view_seat")
        token, digest = self._seal(game, state)
        return pb.DealResponse(state=token, state_digest=digest, seq=state.step,
                               views=_views(game, state, view_seat), to_act=state.to_act,
                               commitment=rng.commitment(seed),
                               events=_events(game, game.deal_events(state), view_seat),
                               match=convert.match_info(state.match))

    def Validate(self, request, context):
        return self._validate(request)

    def Play(self, request, context):
        return self._play(request)

    def LegalActions(self, request, context):
        return self._legal_actions(request)

    # The bodies of Validate, Play and LegalActions, shared with JudgeBatch. Each fills ``out``
    # (a new response, or a JudgeBatch result's member: no copy) after everything that can raise.
    def _validate(self, request, opened_tokens: dict | None = None, out=None) -> pb.ValidateResponse:
        game, state = self._open(request.state, _optional(request, "expected_seq"), opened_tokens)
        verdict = game.check(state, convert.action_in(request.action, game))
        resolved = verdict.action
        out = pb.ValidateResponse() if out is None else out
        out.legal, out.reason, out.message = verdict.legal, verdict.reason, verdict.message
        if verdict.combo is not None:
            out.combination.CopyFrom(convert.shared_combination(verdict.combo, game.notation))
        if resolved and resolved.cards:
            out.cards.CopyFrom(convert.shared_card_set(tuple(resolved.cards), game.notation))
        return out

    def _play(self, request, opened_tokens: dict | None = None, out=None) -> pb.PlayResponse:
        game, state = self._open(request.state, _optional(request, "expected_seq"), opened_tokens, last_use=True)
        state, events = game.apply(state, convert.action_in(request.action, game))
        view_seat = _optional(request, "view_seat")
        token, digest = self._seal(game, state)
        out = pb.PlayResponse() if out is None else out
        _events(game, events, view_seat, into=out.events)
        _views(game, state, view_seat, into=out.views)
        out.state, out.seq, out.state_digest, out.finished = token, state.step, digest, state.finished
        out.to_act.extend(state.to_act)
        return out

    def _legal_actions(self, request, opened_tokens: dict | None = None, out=None) -> pb.LegalActionsResponse:
        game, state = self._open(request.state, _optional(request, "expected_seq"), opened_tokens)
        if request.seat >= state.num_seats:
            raise InvalidAction(f"no seat {request.seat}", Reason.BAD_SEAT)
        legal = game.legal_actions(state, request.seat)
        notation = game.notation
        entries = b"".join([_legal_action_entry(a, c, notation) for a, c in legal])
        out = pb.LegalActionsResponse() if out is None else out
        out.MergeFromString(entries)
        out.can_pass = any(a.kind == PASS for a, _ in legal)
        return out

    def JudgeBatch(self, request, context):
        if len(request.items) > MAX_BATCH_ITEMS:
            raise LimitExceeded(f"at most {MAX_BATCH_ITEMS} items per batch", Reason.REQUEST_TOO_LARGE)
        response = pb.JudgeBatchResponse()
        results, opened_tokens = response.results, {}
        for item in request.items:
            kind = item.WhichOneof("call")
            if kind is None:
                raise InvalidAction("a batch item sets none of validate, play, legal_actions",
                                    Reason.MALFORMED_REQUEST)
            result = results.add()
            try:
                self._judges[kind](self, getattr(item, kind), opened_tokens, getattr(result, kind))
            except RefereeError as error:
                result.error.CopyFrom(_item_error(error))  # setting the oneof clears a partial answer
            except Exception:
                log.exception("internal error in a JudgeBatch %s item", kind)
                result.error.CopyFrom(pb.ItemError(code=grpc.StatusCode.INTERNAL.value[0], message="internal error"))
        return response

    _judges = {"validate": _validate, "play": _play, "legal_actions": _legal_actions}

    def Score(self, request, context):
        game, state = self._open(request.state)
        settlement = game.settle(state)
        cumulative = list(request.cumulative_points) or [0] * state.num_seats
        if len(cumulative) != state.num_seats or any(abs(c) > MAX_POINTS for c in cumulative):
            raise InvalidAction(f"cumulative_points: {state.num_seats} values of at most {MAX_POINTS:.0e}",
                                Reason.MALFORMED_REQUEST)
        totals = [c + p for c, p in zip(cumulative, settlement.points)]
        return pb.ScoreResponse(settlement=convert.settlement(settlement), seed=state.seed,
                                client_entropy=state.entropy, commitment=rng.commitment(state.seed),
                                titles=game.titles(totals), cumulative_points=totals,
                                match=convert.match_info(state.match, settlement.points, game.match_over(state)))

    def Replay(self, request, context):
        if len(request.actions) > MAX_REPLAY_ACTIONS:
            raise LimitExceeded(f"at most {MAX_REPLAY_ACTIONS} actions per replay", Reason.REQUEST_TOO_LARGE)
        game, options, seats, match = self._start(request)
        if not request.seed:
            raise InvalidAction("a replay needs the seed", Reason.BAD_SEED)
        _check_seed(request.seed, request.client_entropy)
        state = game.deal(options, request.seed, request.client_entropy, seats, match)
        view_seat = _optional(request, "view_seat")
        deal = self._step(game, state, game.deal_events(state), view_seat)
        steps = []
        for index, msg in enumerate(request.actions):
            try:
                state, events = game.apply(state, convert.action_in(msg, game))
            except RefereeError as error:
                raise errors.with_metadata(error, action_index=index) from None
            steps.append(self._step(game, state, events, view_seat))
        return pb.ReplayResponse(deal=deal, steps=steps, commitment=rng.commitment(request.seed),
                                 settlement=convert.settlement(game.settle(state)) if state.finished else None,
                                 state=self._seal(game, state)[0])

    def _step(self, game: Game, state, events, view_seat: int | None) -> pb.ReplayStep:
        return pb.ReplayStep(seq=state.step, state_digest=_digest(game, state, game.pack(state)),
                             events=_events(game, events, view_seat), views=_views(game, state, view_seat),
                             to_act=state.to_act, finished=state.finished)

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


def _item_error(error: RefereeError) -> pb.ItemError:
    """A core error as a batch item's answer: the status the unary call would have ended with."""
    return pb.ItemError(code=errors.status_code(error).value[0], reason=error.reason, message=error.message,
                        metadata={k: str(v) for k, v in getattr(error, "metadata", {}).items()})


def _check_seed(seed: bytes, entropy: bytes) -> None:
    if not 0 < len(seed) <= MAX_SEED_BYTES:
        raise InvalidAction(f"a seed is 1-{MAX_SEED_BYTES} bytes", Reason.BAD_SEED)
    if len(entropy) > rng.MAX_ENTROPY_BYTES:
        raise InvalidAction(f"client entropy is at most {rng.MAX_ENTROPY_BYTES} bytes", Reason.BAD_SEED)
