"""The `referee.v1.Referee` servicer: converts protobuf, opens/seals tokens, delegates to the core.

Errors are raised as core exceptions and mapped to statuses in one place (:mod:`.errors`).
"""
from __future__ import annotations

import dataclasses
import hashlib

from referee.core import rng
from referee.core.errors import InvalidAction, LimitExceeded, Reason, RefereeError
from referee.core.game import ActionType, Game
from referee.core.registry import GAMES, get_game
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

from . import convert, errors
from .token import Sealer, check_seq

RPCS = tuple(pb.DESCRIPTOR.services_by_name["Referee"].methods_by_name)
MAX_REPLAY_ACTIONS = 1000
MAX_SEED_BYTES = 1024
MAX_POINTS = 10**15  # |cumulative_points|: far from int64 overflow


def _digest(game: Game, state, packed: bytes) -> bytes:
    if type(game).digest is Game.digest:  # the base digest is sha256(pack(state)): reuse the bytes
        return hashlib.sha256(packed).digest()
    return game.digest(state)


def _views(game: Game, state, view_seat: int | None):
    seats = range(state.num_seats) if view_seat is None else (view_seat,)
    return [convert.view(game.view(state, s)) for s in seats]


def _events(events, view_seat: int | None):
    """Events as one caller may see them: a DEAL's cards only reach the seat they were dealt to."""
    if view_seat is not None:
        events = [e if e.type != "DEAL" or e.seat == view_seat else dataclasses.replace(e, cards=())
                  for e in events]
    return convert.events(events)


def _optional(request, name: str):
    return getattr(request, name) if request.HasField(name) else None


@errors.map_errors(RPCS)
class RefereeServicer(pb_grpc.RefereeServicer):
    """Stateless: every call carries what it needs; the sealed token carries the round."""

    def __init__(self, sealer: Sealer):
        self.sealer = sealer

    # --- tokens ---------------------------------------------------------------------------------
    def _open(self, token: bytes, expected_seq: int | None = None):
        opened = self.sealer.open(token)
        game = GAMES.get(opened.game)
        if game is None:
            raise InvalidAction(f"state token invalid: unknown game {opened.game!r}", Reason.STATE_TOKEN_INVALID)
        state = game.unpack(opened.payload)
        check_seq(opened, expected_seq)
        return game, state

    def _seal(self, game: Game, state) -> tuple[bytes, bytes]:
        packed = game.pack(state)
        return self.sealer.seal(game.id, state.step, packed), _digest(game, state, packed)

    @staticmethod
    def _setup(request):
        game = get_game(request.game)
        return game, convert.options_in(game, request.preset, request.options)

    # --- RPCs -----------------------------------------------------------------------------------
    def ListGames(self, request, context):
        return pb.ListGamesResponse(games=[convert.game_info(GAMES[g]) for g in sorted(GAMES)])

    def Deal(self, request, context):
        game, options = self._setup(request)
        seed = _optional(request, "seed")
        if seed is None:
            seed = rng.new_seed()
        _check_seed(seed, request.client_entropy)
        state = game.deal(options, seed, request.client_entropy, request.seats)
        view_seat = _optional(request, "view_seat")
        token, digest = self._seal(game, state)
        return pb.DealResponse(state=token, state_digest=digest, seq=state.step,
                               views=_views(game, state, view_seat), to_act=state.to_act,
                               commitment=rng.commitment(seed),
                               events=_events(game.deal_events(state), view_seat))

    def Validate(self, request, context):
        game, state = self._open(request.state, _optional(request, "expected_seq"))
        verdict = game.check(state, convert.action_in(request.action, game.decks))
        resolved = verdict.action
        return pb.ValidateResponse(
            legal=verdict.legal, reason=int(verdict.reason), message=verdict.message,
            combination=convert.combination(verdict.combo),
            cards=convert.card_set(resolved.cards) if resolved and resolved.cards else None)

    def Play(self, request, context):
        game, state = self._open(request.state, _optional(request, "expected_seq"))
        state, events = game.apply(state, convert.action_in(request.action, game.decks))
        view_seat = _optional(request, "view_seat")
        token, digest = self._seal(game, state)
        return pb.PlayResponse(state=token, seq=state.step, state_digest=digest,
                               events=_events(events, view_seat), views=_views(game, state, view_seat),
                               to_act=state.to_act, finished=state.finished)

    def LegalActions(self, request, context):
        game, state = self._open(request.state, _optional(request, "expected_seq"))
        if request.seat >= state.num_seats:
            raise InvalidAction(f"no seat {request.seat}", Reason.BAD_SEAT)
        legal = game.legal_actions(state, request.seat)
        return pb.LegalActionsResponse(actions=[convert.legal_action(a, c) for a, c in legal],
                                       can_pass=any(a.type is ActionType.PASS for a, _ in legal))

    def Score(self, request, context):
        game, state = self._open(request.state)
        settlement = game.settle(state)
        cumulative = list(request.cumulative_points) or [0] * state.num_seats
        if len(cumulative) != state.num_seats or any(abs(c) > MAX_POINTS for c in cumulative):
            raise InvalidAction(f"cumulative_points: {state.num_seats} values of at most {MAX_POINTS:.0e}",
                                Reason.MALFORMED_REQUEST)
        totals = [c + p for c, p in zip(cumulative, settlement.points)]
        title_for = convert.game_function(game, "title_for")
        return pb.ScoreResponse(settlement=convert.settlement(settlement), seed=state.seed,
                                client_entropy=state.entropy, commitment=rng.commitment(state.seed),
                                titles=[title_for(t) for t in totals] if title_for else [],
                                cumulative_points=totals)

    def Replay(self, request, context):
        if len(request.actions) > MAX_REPLAY_ACTIONS:
            raise LimitExceeded(f"at most {MAX_REPLAY_ACTIONS} actions per replay", Reason.REQUEST_TOO_LARGE)
        game, options = self._setup(request)
        if not request.seed:
            raise InvalidAction("a replay needs the seed", Reason.BAD_SEED)
        _check_seed(request.seed, request.client_entropy)
        state = game.deal(options, request.seed, request.client_entropy, request.seats)
        deal = self._step(game, state, game.deal_events(state))
        steps = []
        for index, msg in enumerate(request.actions):
            try:
                state, events = game.apply(state, convert.action_in(msg, game.decks))
            except RefereeError as error:
                raise errors.with_metadata(error, action_index=index) from None
            steps.append(self._step(game, state, events))
        return pb.ReplayResponse(deal=deal, steps=steps, commitment=rng.commitment(request.seed),
                                 settlement=convert.settlement(game.settle(state)) if state.finished else None,
                                 state=self._seal(game, state)[0])

    def _step(self, game: Game, state, events) -> pb.ReplayStep:
        return pb.ReplayStep(seq=state.step, state_digest=_digest(game, state, game.pack(state)),
                             events=convert.events(events), views=_views(game, state, None),
                             to_act=state.to_act, finished=state.finished)

    def Classify(self, request, context):
        game, options = self._setup(request)
        readings = game.classify(convert.cards_text(request.cards, game.decks), options)
        return pb.ClassifyResponse(readings=[convert.combination(c) for c in readings])

    def Compare(self, request, context):
        game, options = self._setup(request)
        beats, a, b = game.compare(convert.cards_text(request.a, game.decks),
                                   convert.cards_text(request.b, game.decks), options)
        return pb.CompareResponse(beats=beats, a=convert.combination(a), b=convert.combination(b))

    def Ping(self, request, context):
        return pb.PingResponse()


def _check_seed(seed: bytes, entropy: bytes) -> None:
    if not 0 < len(seed) <= MAX_SEED_BYTES:
        raise InvalidAction(f"a seed is 1-{MAX_SEED_BYTES} bytes", Reason.BAD_SEED)
    if len(entropy) > rng.MAX_ENTROPY_BYTES:
        raise InvalidAction(f"client entropy is at most {rng.MAX_ENTROPY_BYTES} bytes", Reason.BAD_SEED)
