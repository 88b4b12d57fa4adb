"""Locust users that play whole games through the Referee gRPC API, checking every answer.

Locust's gRPC pattern: gevent-friendly grpc (``init_gevent``), one channel per user wrapped in a
client interceptor that fires a Locust ``request`` event per call (name = the RPC). On top of
the call statistics each user fires a ``game`` event per completed round (name = game/preset,
response time = the round's duration), so the reports count completed games; a check that
fails (a legal move refused, a verdict that contradicts LegalActions, a round that does not
finish, a settlement that does not add up, a seed that does not match its commitment) is a
``game`` failure with the reason.

Users (pick one or more by class name on the locust command line; ``referee load --profile``
does it): ``GamesUser`` (a game backend: Deal, per turn LegalActions, often Validate, Play,
then Score; a few illegal tries that must be refused), ``ValidateUser`` (a frontend checking
moves: per turn several Validate calls, legal and illegal, then Play), ``NoopUser`` (Ping only:
the cost of gRPC alone), ``BatchUser`` (one backend connection running many tables through
JudgeBatch). Options (after the locustfile's own arguments): ``--referee-rate`` calls/s for all
users together (0: as fast as they go), ``--referee-seed``, ``--referee-tables`` (BatchUser),
``--referee-games`` (a comma-separated subset of the registered games).
"""
from __future__ import annotations

import hashlib
import itertools
import random
import time

import grpc
import grpc.experimental.gevent as grpc_gevent

grpc_gevent.init_gevent()  # before any channel: grpc calls then yield to other users

import gevent  # noqa: E402
from locust import User, constant, events, task  # noqa: E402
from locust.exception import StopUser  # noqa: E402

from referee.service import bots  # noqa: E402
from referee.v1 import actions_pb2  # noqa: E402
from referee.v1 import referee_service_pb2 as pb  # noqa: E402
from referee.v1 import referee_service_pb2_grpc as pb_grpc  # noqa: E402

# Relative weights of the games in the mix (only registered games are played, see game_mix); a
# registered game not named here weighs 1.
GAME_WEIGHTS = {"doudizhu": 10, "q783": 3, "gouji": 2, "mcr": 3, "chuanpai": 2}
MAX_ACTIONS = 1000  # a round longer than this "does not finish"
ILLEGAL_RATE = 0.03  # chance per turn of an illegal try (must be refused)
ABANDON_RATE = 0.002  # chance per turn of an escape
VALIDATE_RATE = 0.5  # GamesUser: chance a chosen action is validated before it is played
FRONTEND_CHECKS = 3  # ValidateUser: legal candidates checked per turn (plus one illegal try)
CHANNEL_OPTIONS = [("grpc.use_local_subchannel_pool", 1)]  # one connection per user: workers share users
_USER_NUMBERS = itertools.count()


@events.init_command_line_parser.add_listener
def _arguments(parser):
    parser.add_argument("--referee-rate", type=float, default=0.0,
                        help="calls/s of all users together (0: unpaced)")
    parser.add_argument("--referee-seed", type=int, default=0, help="seed of the users' choices")
    parser.add_argument("--referee-tables", type=int, default=50, help="BatchUser: tables per user")
    parser.add_argument("--referee-games", default="", help="comma-separated game ids (default: every registered game)")


class CheckFailed(Exception):
    """An answer the referee must not give."""


class LocustInterceptor(grpc.UnaryUnaryClientInterceptor):
    """Fires one Locust request event per call. ``expect`` (set by the user before a call) is a
    status code the next call must end with: it then counts as a success named "X refused"."""

    def __init__(self, environment):
        self.env = environment
        self.expect: grpc.StatusCode | None = None

    def intercept_unary_unary(self, continuation, details, request):
        expect, self.expect = self.expect, None
        name = details.method.rsplit("/", 1)[-1]
        start = time.perf_counter()
        outcome = continuation(details, request)
        elapsed = (time.perf_counter() - start) * 1000
        error = outcome.exception()
        length = 0
        failure = error
        if expect is not None:
            name += " refused"
            if error is None:
                failure = CheckFailed(f"{name}: expected {expect.name}, the call succeeded")
            elif error.code() == expect:
                failure = None
        elif error is None:
            length = outcome.result().ByteSize()
        self.env.events.request.fire(request_type="grpc", name=name, response_time=elapsed,
                                     response_length=length, exception=failure, context=None)
        return outcome


class RefereeUser(User):
    """A user with its own channel (own connection) through the Locust interceptor."""

    abstract = True
    wait_time = constant(0)

    def __init__(self, environment):
        super().__init__(environment)
        options = environment.parsed_options
        self.interceptor = LocustInterceptor(environment)
        self.channel = grpc.insecure_channel(self.host, options=CHANNEL_OPTIONS)
        self.stub = pb_grpc.RefereeServiceStub(grpc.intercept_channel(self.channel, self.interceptor))
        self.rng = random.Random(f"{getattr(options, 'referee_seed', 0)}/{next(_USER_NUMBERS)}")
        rate = getattr(options, "referee_rate", 0.0) or 0.0
        users = max(1, getattr(options, "num_users", 1) or 1)
        self.interval = users / rate if rate > 0 else 0.0
        self.only_games = getattr(options, "referee_games", "") or ""
        self.next_call = time.perf_counter() + self.rng.random() * self.interval

    def on_stop(self):
        self.channel.close()

    def pace(self) -> None:
        """Keep this user at its share of ``--referee-rate``."""
        if self.interval:
            now = time.perf_counter()
            if self.next_call > now:
                gevent.sleep(self.next_call - now)
            self.next_call = max(self.next_call, now - self.interval) + self.interval

    def call(self, method: str, request, refuse: grpc.StatusCode | None = None):
        """One RPC; with ``refuse`` it must fail with that code (returns None then)."""
        self.pace()
        self.interceptor.expect = refuse
        try:
            return getattr(self.stub, method)(request)
        except grpc.RpcError as error:
            if refuse is not None and error.code() == refuse:
                return None
            raise

    def game_event(self, name: str, started: float, calls: int, failure: Exception | None = None) -> None:
        self.environment.events.request.fire(request_type="game", name=name, response_length=calls,
                                             response_time=(time.perf_counter() - started) * 1000,
                                             exception=failure, context=None)


# --- the games on offer -----------------------------------------------------------------------
_TABLES: list[tuple[str, str]] = []  # (game, preset) choices, shared by the users of a process
_WEIGHTS: list[float] = []


def game_mix(stub, only: str = "") -> tuple[list[tuple[str, str]], list[float]]:
    """Every registered game (ListGames) or those named in ``only``, each preset (and the
    defaults) sharing the game's weight."""
    if not _TABLES:
        wanted = {g.strip() for g in only.split(",") if g.strip()}
        games = [i for i in stub.ListGames(pb.ListGamesRequest()).games if not wanted or i.id in wanted]
        if not games:
            raise StopUser()
        for info in games:
            presets = [""] + [p.name for p in info.presets]
            for preset in presets:
                _TABLES.append((info.id, preset))
                _WEIGHTS.append(GAME_WEIGHTS.get(info.id, 1) / len(presets))
    return _TABLES, _WEIGHTS


def check_deal(deal: pb.DealResponse) -> None:
    if deal.seq != 0 or not deal.to_act or len(deal.commitment) != 32 or not deal.views:
        raise CheckFailed("deal: seq 0, a seat to act, a 32-byte commitment and views expected")


def check_play(reply: pb.PlayResponse, seq: int, seats: int) -> None:
    if reply.seq != seq + 1:
        raise CheckFailed(f"play: seq {reply.seq} after {seq}")
    if len(reply.views) != seats or not reply.state:
        raise CheckFailed("play: a view per seat and a token expected")
    if not reply.finished and not reply.to_act:
        raise CheckFailed("play: an unfinished round awaits nobody")


def check_score(score: pb.ScoreResponse, deal: pb.DealResponse, seats: int) -> None:
    s = score.settlement
    if len(s.points) != seats:
        raise CheckFailed(f"score: {len(s.points)} points for {seats} seats")
    if sum(s.points) + s.house != 0:
        raise CheckFailed(f"score: points {list(s.points)} + house {s.house} do not add up to 0")
    if s.coins and sum(s.coins) + s.coins_house != 0:
        raise CheckFailed(f"score: coins {list(s.coins)} + house {s.coins_house} do not add up to 0")
    if list(score.cumulative_points) != list(s.points):
        raise CheckFailed("score: cumulative points differ from the round's points")
    if not hashlib.sha256(score.seed).digest() == score.commitment == deal.commitment:
        raise CheckFailed("score: the revealed seed does not match the deal's commitment")


class GameUser(RefereeUser):
    """Plays rounds one after another; subclasses decide what a turn checks."""

    abstract = True

    @task
    def play_round(self):
        tables, weights = game_mix(self.stub, self.only_games)
        game, preset = self.rng.choices(tables, weights)[0]
        name = f"{game}/{preset or 'default'}"
        started, calls = time.perf_counter(), 0
        try:
            deal = self.call("Deal", pb.DealRequest(game=game, preset=preset))
            check_deal(deal)
            seats = len(deal.views)
            state, seq, views, to_act, finished = deal.state, deal.seq, deal.views, deal.to_act, False
            calls = 1
            while not finished:
                if seq >= MAX_ACTIONS:
                    raise CheckFailed(f"round not finished after {MAX_ACTIONS} actions")
                action, n = self.turn(state, seq, views, to_act)
                reply = self.call("Play", pb.PlayRequest(state=state, action=action, expected_seq=seq))
                check_play(reply, seq, seats)
                calls += n + 1
                state, seq, views, to_act, finished = reply.state, reply.seq, reply.views, reply.to_act, reply.finished
            score = self.call("Score", pb.ScoreRequest(state=state))
            check_score(score, deal, seats)
            self.game_event(name, started, calls + 1)
        except CheckFailed as failure:
            self.game_event(name, started, calls, failure)
        except grpc.RpcError as error:  # the call itself is already a failure in the stats
            if self.channel_closing(error):
                raise StopUser() from None
            self.game_event(name, started, calls, CheckFailed(f"call failed: {error.code().name}: {error.details()}"))

    @staticmethod
    def channel_closing(error: grpc.RpcError) -> bool:
        return error.code() == grpc.StatusCode.CANCELLED

    def hint(self, state: bytes, seq: int, seat: int) -> pb.LegalActionsResponse:
        legal = self.call("LegalActions", pb.LegalActionsRequest(state=state, seat=seat, expected_seq=seq))
        if not legal.actions:
            raise CheckFailed(f"no legal action for the awaited seat {seat}")
        return legal

    def try_illegal(self, state, seq, legal, views, to_act) -> int:
        """Sometimes send an action the API says is illegal; it must be refused. Returns calls made."""
        if self.rng.random() >= ILLEGAL_RATE:
            return 0
        attempt = bots._illegal_attempt(self.rng, to_act[0], legal, views, to_act)
        if attempt is None:
            return 0
        self.call("Play", pb.PlayRequest(state=state, action=attempt, expected_seq=seq),
                  refuse=grpc.StatusCode.FAILED_PRECONDITION)
        return 1

    def choose(self, legal: pb.LegalActionsResponse, views) -> actions_pb2.Action:
        if self.rng.random() < ABANDON_RATE:
            return actions_pb2.Action(seat=self.rng.randrange(len(views)), kind="ABANDON")
        return self.rng.choice(legal.actions).action

    def validate(self, state: bytes, seq: int, action) -> None:
        verdict = self.call("Validate", pb.ValidateRequest(state=state, action=action, expected_seq=seq))
        if not verdict.legal:
            raise CheckFailed(f"a legal action judged illegal: {verdict.message}")


class GamesUser(GameUser):
    """A game backend: LegalActions (the player's hint), sometimes Validate, then Play."""

    def turn(self, state, seq, views, to_act):
        legal = self.hint(state, seq, to_act[0])
        calls = 1 + self.try_illegal(state, seq, legal, views, to_act)
        action = self.choose(legal, views)
        if self.rng.random() < VALIDATE_RATE:
            self.validate(state, seq, action)
            calls += 1
        return action, calls


class ValidateUser(GameUser):
    """A frontend checking moves: per turn several legal candidates and one illegal try are
    validated (Validate answers legal=false for the latter, no error), then one is played."""

    def turn(self, state, seq, views, to_act):
        legal = self.hint(state, seq, to_act[0])
        for _ in range(FRONTEND_CHECKS):
            self.validate(state, seq, self.rng.choice(legal.actions).action)
        calls = 1 + FRONTEND_CHECKS
        attempt = bots._illegal_attempt(self.rng, to_act[0], legal, views, to_act)
        if attempt is not None:
            verdict = self.call("Validate", pb.ValidateRequest(state=state, action=attempt, expected_seq=seq))
            if verdict.legal:
                raise CheckFailed(f"an illegal action judged legal: {attempt}")
            calls += 1
        return self.choose(legal, views), calls


class NoopUser(RefereeUser):
    """Ping only: what gRPC costs without any rules."""

    @task
    def ping(self):
        try:
            self.call("Ping", pb.PingRequest())
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.CANCELLED:
                raise StopUser() from None


class BatchUser(RefereeUser):
    """One backend connection running ``--referee-tables`` tables through JudgeBatch: one batch
    of LegalActions items for every table awaiting a move, then one batch with a Validate and a
    Play item per table. Rounds that end are scored (Score) and replaced by new deals (Deal)."""

    def on_start(self):
        self.tables = {}  # table number -> [name, started, deal, state, seq, views, to_act]
        self.count = max(1, getattr(self.environment.parsed_options, "referee_tables", 50))
        self.serial = 0

    def new_table(self) -> None:
        tables, weights = game_mix(self.stub, self.only_games)
        game, preset = self.rng.choices(tables, weights)[0]
        deal = self.call("Deal", pb.DealRequest(game=game, preset=preset))
        check_deal(deal)
        self.serial += 1
        self.tables[self.serial] = [f"{game}/{preset or 'default'}", time.perf_counter(), deal,
                                    deal.state, deal.seq, deal.views, deal.to_act]

    def fail(self, key, failure: Exception) -> None:
        name, started = self.tables.pop(key)[:2]
        self.game_event(name, started, 0, failure)

    @task
    def round_of_moves(self):
        try:
            while len(self.tables) < self.count:
                self.new_table()
            keys = list(self.tables)
            hints = self.call("JudgeBatch", pb.JudgeBatchRequest(items=[
                pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=t[3], seat=t[6][0], expected_seq=t[4]))
                for t in map(self.tables.get, keys)])).results
            items, chosen = [], []
            for key, hint in zip(keys, hints):
                t = self.tables[key]
                if hint.WhichOneof("result") != "legal_actions" or not hint.legal_actions.actions:
                    self.fail(key, CheckFailed(f"batch hint: {hint.error.message or 'no legal action'}"))
                    continue
                action = self.rng.choice(hint.legal_actions.actions).action
                items += [pb.JudgeItem(validate=pb.ValidateRequest(state=t[3], action=action, expected_seq=t[4])),
                          pb.JudgeItem(play=pb.PlayRequest(state=t[3], action=action, expected_seq=t[4]))]
                chosen.append(key)
            results = self.call("JudgeBatch", pb.JudgeBatchRequest(items=items)).results
            for n, key in enumerate(chosen):
                self.judged(key, results[2 * n], results[2 * n + 1])
        except CheckFailed as failure:
            self.game_event("batch", time.perf_counter(), 0, failure)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.CANCELLED:
                raise StopUser() from None
            self.tables.clear()  # start over with new deals; the call is already a failure

    def judged(self, key, verdict: pb.JudgeResult, play: pb.JudgeResult) -> None:
        t = self.tables[key]
        try:
            if verdict.WhichOneof("result") != "validate" or not verdict.validate.legal:
                raise CheckFailed(f"a legal action judged illegal in a batch: {verdict}")
            if play.WhichOneof("result") != "play":
                raise CheckFailed(f"a legal action refused in a batch: {play.error.message}")
            reply = play.play
            check_play(reply, t[4], len(t[5]))
            if reply.finished:
                score = self.call("Score", pb.ScoreRequest(state=reply.state))
                check_score(score, t[2], len(t[5]))
                name, started = self.tables.pop(key)[:2]
                self.game_event(name, started, reply.seq + 2)
            elif reply.seq >= MAX_ACTIONS:
                raise CheckFailed(f"round not finished after {MAX_ACTIONS} actions")
            else:
                t[3:] = [reply.state, reply.seq, reply.views, reply.to_act]
        except CheckFailed as failure:
            self.fail(key, failure)
