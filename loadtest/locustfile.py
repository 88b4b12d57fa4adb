"""Locust users that play whole games through the Referee gRPC API, checking every answer.

Locust's gRPC pattern: gevent-friendly grpc (``init_gevent``), one channel per user wrapped in a
client interceptor that fires a Locust ``request`` event per call (name = the RPC). On top of
the call statistics each user fires a ``game`` event per completed round (name = game/preset,
or game/preset abandoned for a round a player left; response time = the round's duration), so
the reports count completed games; a check that fails (a legal move refused, an illegal one
accepted or refused with another status or reason, a verdict that contradicts LegalActions, a
round that does not finish, a settlement that does not add up, a seed that does not match its
commitment) is a ``game`` failure with the reason.

Which table a user deals next (``choose_table``): every game ListGames reports (or those of
``--referee-games``) with each preset and the defaults; first each of them once, in ListGames'
order, so that a run plays every game and preset, then by ``GAME_WEIGHTS``. With
``--referee-rounds-each N`` a user deals instead the table with the fewest rounds played out or
in progress among those with fewer than N played out (no escape), and the run stops as soon as
every table has N (per Locust process): a run bounded by work, whatever the machine's speed.

They play as a platform does (README, "Seats, owner and fair deals"): the server draws every
seed; Deal returns one credential per seat and the owner's. ``GamesUser`` and ``ValidateUser``
relay players: each seat asks LegalActions, Validates and Plays with its own credential (and
sees its own view); the tables are SEAT_PLAY_RELAYED (the default): each awaited seat's Play
comes back as a sealed answer (in a simultaneous decision, an mcr claim window, every awaited
seat's) and the owner applies them in one Play; a player who leaves is ABANDONed by the owner
(in an out_of_play game, 够级, the round goes on); the owner Scores (``reveal_abandoned``: it saw
the round end) and checks the seed against the deal's commitment. ``BatchUser`` is a backend acting as the owner for every seat.

Users (pick one or more by class name on the locust command line; ``referee load --profile``
does it): ``GamesUser`` (Deal, per turn LegalActions, often Validate, Play, then Score; a few
illegal tries that must be refused with their status and reason: an action of a seat not
awaited, a card not in the hand, a pass where none is allowed or, in a game without passes, an
unknown kind, an action for another seat), ``ValidateUser`` (a frontend checking moves: per
turn several Validate calls, legal and illegal, then Play), ``NoopUser`` (Ping only:
the cost of gRPC alone), ``BatchUser`` (one backend connection running many tables through
JudgeBatch, the owner's credential on every item). Options (after the locustfile's own
arguments): ``--referee-rate`` calls/s for all users together (0: as fast as they go),
``--referee-seed``, ``--referee-tables`` (BatchUser), ``--referee-games`` (a comma-separated
subset of the registered games), ``--referee-rounds-each``.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import time
from collections import Counter

import grpc
import grpc.experimental.gevent as grpc_gevent

grpc_gevent.init_gevent()  # before any channel: grpc calls then yield to other users

import gevent  # noqa: E402
from locust import User, constant, events, task  # noqa: E402
from locust.exception import StopUser  # noqa: E402

from runner import FRONTEND_CHECKS, GAME_WEIGHTS, VALIDATE_RATE, seat_counts  # noqa: E402  (shared with referee load; Locust puts this folder on the path)

from referee.service import bots  # noqa: E402
from referee.service.credentials import bearer  # noqa: E402
from referee.v1 import actions_pb2, options_pb2  # noqa: E402
from referee.v1 import referee_service_pb2 as pb  # noqa: E402
from referee.v1 import referee_service_pb2_grpc as pb_grpc  # noqa: E402

MAX_ACTIONS = 1000  # a round longer than this "does not finish"
ILLEGAL_RATE = 0.03  # chance per turn of an illegal try (must be refused)
ABANDON_RATE = 0.002  # chance per turn of an escape
TIMEOUT_RATE = 0.03  # chance a table has a seat that never answers (clock "seconds", 2 s): the owner applies its defaults
AUTOPLAY_AFTER = 3  # a silent seat's timeouts before the owner puts it on autoplay (托管)
CLOCK_MARGIN_MS = 600  # the server's clock tolerance (500 ms) and a little: when the owner asks for the defaults
CHANNEL_OPTIONS = [("grpc.use_local_subchannel_pool", 1)]  # one connection per user: workers share users
_USER_NUMBERS = itertools.count()


@events.init_command_line_parser.add_listener
def _arguments(parser):
    parser.add_argument("--referee-rate", type=float, default=0.0,
                        help="calls/s of all users together (0: unpaced)")
    parser.add_argument("--referee-seed", type=int, default=0, help="seed of the users' choices")
    parser.add_argument("--referee-tables", type=int, default=50, help="BatchUser: tables per user")
    parser.add_argument("--referee-games", default="", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--referee-seats", default="",
                        help="seats of some games' tables, e.g. chuanpai=7,q783=6 (default: each game's own)")
    parser.add_argument("--referee-timeout-rate", type=float, default=-1.0,
                        help=f"share of tables with a seat that never answers (-1: {TIMEOUT_RATE})")
    parser.add_argument("--referee-rounds-each", type=int, default=0,
                        help="stop once every game and preset has played out this many rounds (0: run the time)")


@events.quitting.add_listener
def _final_counts(environment, **_kwargs):
    """Every entry's request and failure counts as the run ended, beside Locust's CSV (written
    once a second, so it may miss the last events: the round that completed a --referee-rounds-each
    run, a failure in the last second): ``<csv prefix>_final.json``."""
    prefix = getattr(environment.parsed_options, "csv_prefix", None)
    if not prefix or environment.runner is None:
        return
    counts = [{"type": e.method, "name": e.name, "requests": e.num_requests, "failures": e.num_failures}
              for e in environment.runner.stats.entries.values()]
    with open(f"{prefix}_final.json", "w", encoding="utf-8") as f:
        json.dump(counts, f)


class CheckFailed(Exception):
    """An answer the referee must not give."""


class LocustInterceptor(grpc.UnaryUnaryClientInterceptor):
    """Fires one Locust request event per call. ``expect`` (set by the user before a call) is the
    refusal (status code and reason) the next call must end with: it then counts as a success
    named "X refused"."""

    def __init__(self, environment):
        self.env = environment
        self.expect: bots.Refusal | None = None

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
                failure = CheckFailed(f"{name}: expected {expect.code.name}, the call succeeded")
            else:
                wrong = expect.judge(error.code(), bots.error_reason(error))
                failure = CheckFailed(f"{name}: {wrong}: {error.details()[:200]}") if wrong else None
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
        self.seat_counts = seat_counts(getattr(options, "referee_seats", "") or "")
        self.rounds_each = getattr(options, "referee_rounds_each", 0) or 0
        timeouts = getattr(options, "referee_timeout_rate", -1.0)
        self.timeout_rate = TIMEOUT_RATE if timeouts is None or timeouts < 0 else timeouts
        self.next_call = time.perf_counter() + self.rng.random() * self.interval

    def on_stop(self):
        self.channel.close()

    def dealt(self, game: str, deal: pb.DealResponse) -> None:
        """Counts the deal by its seats ("chuanpai 7"; the summary's ``seats_dealt``)."""
        self.environment.events.request.fire(request_type="seats", name=f"{game} {len(deal.views)}", response_time=0,
                                             response_length=0, exception=None, context={})

    def pace(self) -> None:
        """Keep this user at its share of ``--referee-rate``."""
        if self.interval:
            now = time.perf_counter()
            if self.next_call > now:
                gevent.sleep(self.next_call - now)
            self.next_call = max(self.next_call, now - self.interval) + self.interval

    def call(self, method: str, request, refuse: bots.Refusal | None = None, metadata=()):
        """One RPC (``metadata``: the caller's credential); with ``refuse`` it must fail with
        that status and reason (returns None then)."""
        self.pace()
        self.interceptor.expect = refuse
        try:
            return getattr(self.stub, method)(request, metadata=metadata)
        except grpc.RpcError as error:
            if refuse is not None and not refuse.judge(error.code(), bots.error_reason(error)):
                return None
            raise

    def game_event(self, name: str, started: float, calls: int, failure: Exception | None = None) -> None:
        self.environment.events.request.fire(request_type="game", name=name, response_length=calls,
                                             response_time=(time.perf_counter() - started) * 1000,
                                             exception=failure, context=None)


# --- the games on offer -----------------------------------------------------------------------
_TABLES: list[tuple[str, str]] = []  # (game, preset) choices, shared by the users of a process
_WEIGHTS: list[float] = []
_DEALT: Counter = Counter()  # (game, preset) -> rounds dealt by this process
_OPEN: Counter = Counter()  # rounds in progress
_PLAYED_OUT: Counter = Counter()  # rounds played to their end without an escape
_STOPPING: list = []  # the greenlet ending the run once every table has its rounds (rounds_each)
ABANDONED = " abandoned"  # the game event's name for a round a player left
SHORT_CLOCK = {"clock": options_pb2.OptionValue(string_value="seconds"),
                    "clock_seconds": options_pb2.OptionValue(int_value=2)}
CARD_IDS: dict[str, int] = {}  # game -> size of its card space (GameInfo.card_ids), for illegal tries
KINDS: dict[str, frozenset] = {}  # game -> its action kind names (GameInfo.action_kinds), for illegal tries
BALANCES: dict[str, tuple] = {}  # game -> its settlement values that add up to 0 (GameInfo.balances)


def game_mix(stub, only: str = "") -> tuple[list[tuple[str, str]], list[float]]:
    """Every registered game (ListGames) or those named in ``only``, each preset (and the
    defaults) sharing the game's weight."""
    if not _TABLES:
        wanted = {g.strip() for g in only.split(",") if g.strip()}
        games = [i for i in stub.ListGames(pb.ListGamesRequest()).games if not wanted or i.id in wanted]
        if not games:
            raise StopUser()
        for info in games:
            CARD_IDS[info.id] = info.card_ids
            KINDS[info.id] = frozenset(k.name for k in info.action_kinds)
            BALANCES[info.id] = tuple((b.seat_values, b.values) for b in info.balances)
            presets = [""] + [p.name for p in info.presets]
            for preset in presets:
                _TABLES.append((info.id, preset))
                _WEIGHTS.append(GAME_WEIGHTS.get(info.id, 1) / len(presets))
    return _TABLES, _WEIGHTS


def table_name(game: str, preset: str) -> str:
    return f"{game}/{preset or 'default'}"


def choose_table(rng: random.Random, rounds_each: int = 0) -> tuple[str, str]:
    """The (game, preset) to deal next (module docstring); counts it as dealt and in progress."""
    tables = _TABLES
    short = [t for t in tables if _PLAYED_OUT[t] < rounds_each] if rounds_each else []
    fresh = [t for t in tables if not _DEALT[t]]
    if short:
        least = min(_PLAYED_OUT[t] + _OPEN[t] for t in short)
        chosen = rng.choice([t for t in short if _PLAYED_OUT[t] + _OPEN[t] == least])
    elif fresh and not rounds_each:
        chosen = fresh[0]
    else:
        chosen = rng.choices(tables, _WEIGHTS)[0]
    _DEALT[chosen] += 1
    _OPEN[chosen] += 1
    return chosen


def round_closed(environment, table: tuple[str, str], played_out: bool, rounds_each: int) -> None:
    """A round of ``table`` is over (or given up); with ``rounds_each``, end the run once every
    table has played out that many."""
    _OPEN[table] -= 1
    if played_out:
        _PLAYED_OUT[table] += 1
    if rounds_each and not _STOPPING and all(_PLAYED_OUT[t] >= rounds_each for t in _TABLES):
        _STOPPING.append(gevent.spawn(environment.runner.quit))


class Hands:
    """What each seat's client knows of its hand: its view in the last answer that showed it (a
    seat's Play answers its own view only). Every view shows each seat's hand size, so a hand
    that another seat's action changed (Dou Dizhu's kitty goes to the landlord with the last bid,
    maybe another seat's) is known to be stale: the seat asks GetView before an illegal try is
    built from it (a card "not in the hand" must not be one it holds)."""

    def __init__(self, views):
        self.ids: dict[int, list[int]] = {}
        self.own: dict[int, list[int]] = {}  # the hand and the seat's melds and card groups
        self.sizes: dict[int, int] = {}
        self.update(views)

    def update(self, views) -> None:
        for view in views:
            self.ids[view.seat] = list(view.hand.ids)
            if view.seat >= 0:
                self.own[view.seat] = bots.own_cards(view, view.seat)
        if views:
            self.sizes = {s: sv.hand_size for s, sv in enumerate(views[0].seats)}

    def stale(self, seat: int) -> bool:
        return len(self.ids.get(seat, ())) != self.sizes.get(seat, 0)


class Table:
    """A dealt table's credentials as call metadata: the owner's and each seat's."""

    def __init__(self, deal: pb.DealResponse):
        self.owner = (bearer(deal.owner_credential),)
        self.seats = [(bearer(c),) for c in deal.seat_credentials]


def check_deal(deal: pb.DealResponse) -> None:
    if deal.seq != 0 or len(deal.commitment) != 32 or not deal.views or not (deal.to_act or deal.views[0].finished):
        raise CheckFailed("deal: seq 0, a seat to act, a 32-byte commitment and views expected")
    if [v.seat for v in deal.views] != list(range(len(deal.views))) or any(v.test_deal for v in deal.views):
        raise CheckFailed("deal: every seat's view (the owner's), none a test deal, expected")
    if len(deal.seat_credentials) != len(deal.views) or not deal.owner_credential:
        raise CheckFailed("deal: a credential per seat and the owner's expected")


def check_play(reply: pb.PlayResponse, seq: int, seats, owner: bool = True) -> None:
    """An applied Play at ``seq`` (the state it was sent with, plus the steps it applied) showing
    the views of ``seats`` (a seat its own; the owner every seat's). The owner sees every awaited
    seat; a seat only itself where the turn is not public (a claim window)."""
    if reply.seq != seq or reply.answer:
        raise CheckFailed(f"play: seq {reply.seq}, expected {seq}, and no sealed answer")
    if [v.seat for v in reply.views] != list(seats) or not reply.state:
        raise CheckFailed(f"play: the views of seats {list(seats)} and a token expected, "
                          f"got views of {[v.seat for v in reply.views]}")
    if owner and not reply.finished and not reply.to_act:
        raise CheckFailed("play: an unfinished round awaits nobody")


def check_answer(reply: pb.PlayResponse, seq: int, seat: int) -> None:
    """A seat's sealed answer to a simultaneous decision: nothing of the state moves or shows
    (the seat still sees itself awaited, and nobody else)."""
    if not reply.answer or reply.state or reply.seq != seq or reply.views or reply.events:
        raise CheckFailed("play: a sealed answer alone expected (no state, views or events, the same seq)")
    if list(reply.to_act) != [seat]:
        raise CheckFailed(f"play: a sealed answer shows the seats awaited as {list(reply.to_act)}")


def check_score(score: pb.ScoreResponse, deal: pb.DealResponse, seats: int, game: str) -> None:
    """The owner's Score: the settlement adds up, the seed matches the deal's commitment and the
    deal record is there (what `referee verify` re-derives the cards from)."""
    s = score.settlement
    if len(s.points) != seats:
        raise CheckFailed(f"score: {len(s.points)} points for {seats} seats")
    if sum(s.points) + s.house != 0:
        raise CheckFailed(f"score: points {list(s.points)} + house {s.house} do not add up to 0")
    for seat_key, house_key in BALANCES.get(game, ()):  # a game's own values that balance (Dou Dizhu's coins)
        if seat_key in s.seat_values and sum(s.seat_values[seat_key].values) + s.values[house_key] != 0:
            raise CheckFailed(f"score: {seat_key} {list(s.seat_values[seat_key].values)} + {house_key} "
                              f"{s.values[house_key]} do not add up to 0")
    if list(score.cumulative_points) != list(s.points):
        raise CheckFailed("score: cumulative points differ from the round's points")
    if not hashlib.sha256(score.seed).digest() == score.commitment == deal.commitment:
        raise CheckFailed("score: the revealed seed does not match the deal's commitment")
    if s.test_deal or score.deal.game != game or score.deal.seats != seats:
        raise CheckFailed("score: the owner's answer holds the deal record of a fair deal")


class GameUser(RefereeUser):
    """Plays rounds one after another as a platform relaying its players; subclasses decide what
    a seat's turn checks before it plays."""

    abstract = True

    @task
    def play_round(self):
        game_mix(self.stub, self.only_games)
        game, preset = chosen = choose_table(self.rng, self.rounds_each)
        name = table_name(game, preset)
        started, calls, played_out = time.perf_counter(), 0, False
        try:
            silent, silent_timeouts = -1, 0
            if self.rng.random() < self.timeout_rate:  # a seat that never answers: the owner's timer applies its defaults
                deal = self.call("Deal", pb.DealRequest(game=game, preset=preset, options=SHORT_CLOCK,
                                                         seats=self.seat_counts.get(game, 0)))
                silent = self.rng.randrange(len(deal.views))
            else:
                deal = self.call("Deal", pb.DealRequest(game=game, preset=preset, seats=self.seat_counts.get(game, 0)))
            check_deal(deal)
            self.dealt(game, deal)
            owner_views, server_time = deal.views, deal.server_time_ms
            table, seats = Table(deal), len(deal.views)
            hands = Hands(deal.views)
            state, seq, to_act, finished = deal.state, deal.seq, list(deal.to_act), bool(deal.views) and deal.views[0].finished
            calls, left = 1, set()
            while not finished:
                if seq >= MAX_ACTIONS:
                    raise CheckFailed(f"round not finished after {MAX_ACTIONS} actions")
                if self.rng.random() < ABANDON_RATE and len(left) < seats:  # a player left: the owner abandons for him
                    leaver = self.rng.choice([s for s in range(seats) if s not in left])
                    left.add(leaver)  # an out_of_play game (够级) goes on without him
                    reply = self.call("Play", pb.PlayRequest(state=state, action=actions_pb2.Action(
                        seat=leaver, kind="ABANDON"), expected_seq=seq), metadata=table.owner)
                    check_play(reply, seq + len(reply.applied), range(seats))  # and a seat on autoplay's defaults
                    calls += 1
                    state, seq, to_act, finished = reply.state, reply.seq, list(reply.to_act), reply.finished
                    name += "" if name.endswith(ABANDONED) else ABANDONED
                    continue
                reply, answers = None, []
                for seat in to_act:
                    if seat == silent:
                        continue
                    mine = table.seats[seat]
                    action, n = self.turn(state, seq, seat, to_act, table, hands, game)
                    played = self.call("Play", pb.PlayRequest(state=state, action=action, expected_seq=seq),
                                       metadata=mine)
                    calls += n + 1
                    if played.answer:  # a simultaneous decision: sealed until the owner applies it
                        check_answer(played, seq, seat)
                        answers.append(played.answer)
                        continue
                    check_play(played, seq + 1, [seat], owner=False)
                    reply = played
                    break
                if reply is None and silent in to_act and silent not in left:
                    silent_timeouts += 1  # after a few, the owner puts the seat on autoplay (托管)
                    reply = self.time_out(state, seq, answers, silent, owner_views, server_time, table,
                                          autoplay=silent_timeouts >= AUTOPLAY_AFTER)
                    check_play(reply, seq + len(reply.applied), range(seats))
                    calls += 1
                elif reply is None:
                    if not answers:
                        raise CheckFailed(f"nobody answered for the awaited seats {to_act}")
                    reply = self.call("Play", pb.PlayRequest(state=state, answers=answers, expected_seq=seq),
                                      metadata=table.owner)
                    if len(reply.applied) < len(answers):  # more: the defaults of a seat on autoplay
                        raise CheckFailed("play: the answers were not all applied")
                    check_play(reply, seq + len(reply.applied), range(seats))
                    calls += 1
                if len(reply.views) == seats:  # the owner's: every seat's deadline
                    owner_views, server_time = reply.views, reply.server_time_ms
                hands.update(reply.views)
                state, seq, to_act, finished = reply.state, reply.seq, list(reply.to_act), reply.finished
                if not to_act and not finished:  # who is asked in a claim window is the owner's to know
                    to_act = list(self.call("GetView", pb.GetViewRequest(state=state, view_seat=0),
                                            metadata=table.owner).to_act)
                    calls += 1
            # the platform saw the round end, abandoned or not: it may reveal the seed
            score = self.call("Score", pb.ScoreRequest(state=state, reveal_abandoned=True), metadata=table.owner)
            check_score(score, deal, seats, game)
            self.game_event(name, started, calls + 1)
            played_out = ABANDONED not in name
        except CheckFailed as failure:
            self.game_event(name, started, calls, failure)
        except grpc.RpcError as error:  # the call itself is already a failure in the stats
            if self.channel_closing(error):
                raise StopUser() from None
            self.game_event(name, started, calls, CheckFailed(f"call failed: {error.code().name}: {error.details()}"))
        finally:
            round_closed(self.environment, chosen, played_out, self.rounds_each)

    def time_out(self, state, seq, answers, silent, views, server_time, table, autoplay: bool) -> pb.PlayResponse:
        """The silent seat's deadline passes (the owner's timer: it waits as the server's clock
        counts), then the owner applies the others' answers and asks for the defaults (with
        ``autoplay``, puts the seat on autoplay too: the referee then plays it in every owner's
        call): the silent seat's default must be among the actions applied, after the answers."""
        deadline = views[silent].deadline_ms
        if not deadline:
            raise CheckFailed(f"the silent seat {silent} is awaited without a deadline")
        gevent.sleep(max(0, deadline - server_time + CLOCK_MARGIN_MS) / 1000)
        reply = self.call("Play", pb.PlayRequest(state=state, answers=answers, timeouts=True, expected_seq=seq,
                                                 autoplay_on=[silent] if autoplay else []), metadata=table.owner)
        kinds = [(a.seat, a.kind) for a in reply.applied]
        if (silent, "TIMEOUT") not in kinds:
            raise CheckFailed(f"timeouts: no default applied for the silent seat {silent}")
        if any(kind == "TIMEOUT" for _, kind in kinds[:len(answers)]):
            raise CheckFailed("timeouts: the seats' answers were not applied first")
        self.environment.events.request.fire(request_type="timeouts", name="defaults applied", response_time=0,
                                             response_length=sum(kind == "TIMEOUT" for _, kind in kinds),
                                             exception=None, context={})
        return reply

    @staticmethod
    def channel_closing(error: grpc.RpcError) -> bool:
        return error.code() == grpc.StatusCode.CANCELLED

    def hint(self, state: bytes, seq: int, seat: int, metadata) -> pb.LegalActionsResponse:
        legal = self.call("LegalActions", pb.LegalActionsRequest(state=state, seat=seat, expected_seq=seq),
                          metadata=metadata)
        if not legal.actions:
            raise CheckFailed(f"no legal action for the awaited seat {seat}")
        return legal

    def illegal_attempts(self, state, seat, legal, to_act, table, hands: Hands, game):
        """([(action, the credential sending it, the refusal it must get)], calls made) for
        ``seat``'s turn; a stale hand is asked again first (GetView, the seat's credential)."""
        calls = 0
        if hands.stale(seat):
            hands.update(self.call("GetView", pb.GetViewRequest(state=state), metadata=table.seats[seat]).views)
            calls = 1
        tries = bots._illegal_attempts(self.rng, seat, legal, to_act, len(table.seats), CARD_IDS[game],
                                       hands.own.get(seat, ()), KINDS[game])
        return [(action, table.seats[sender], refusal) for action, sender, refusal in tries], calls

    def try_illegal(self, state, seq, seat, legal, to_act, table, hands, game) -> int:
        """Sometimes send an action the API says is illegal; it must be refused. Returns calls made."""
        if self.rng.random() >= ILLEGAL_RATE:
            return 0
        tries, calls = self.illegal_attempts(state, seat, legal, to_act, table, hands, game)
        if not tries:
            return calls
        action, metadata, refusal = self.rng.choice(tries)
        self.call("Play", pb.PlayRequest(state=state, action=action, expected_seq=seq), refuse=refusal,
                  metadata=metadata)
        return calls + 1

    def validate(self, state: bytes, seq: int, action, metadata) -> None:
        verdict = self.call("Validate", pb.ValidateRequest(state=state, action=action, expected_seq=seq),
                            metadata=metadata)
        if not verdict.legal:
            raise CheckFailed(f"a legal action judged illegal: {verdict.message}")


class GamesUser(GameUser):
    """A game backend relaying its players: the seat's LegalActions (its hint), sometimes an
    illegal try, sometimes Validate, then its Play."""

    def turn(self, state, seq, seat, to_act, table, hands, game):
        mine = table.seats[seat]
        legal = self.hint(state, seq, seat, mine)
        calls = 1 + self.try_illegal(state, seq, seat, legal, to_act, table, hands, game)
        action = self.rng.choice(legal.actions).action
        if self.rng.random() < VALIDATE_RATE:
            self.validate(state, seq, action, mine)
            calls += 1
        return action, calls


class ValidateUser(GameUser):
    """A frontend checking moves: per turn several legal candidates and one illegal try are
    validated, then one is played. Validate answers a try that breaks a rule with legal=false
    and the reason, no error; one it cannot judge is refused with its status and reason (an
    action for another seat PERMISSION_DENIED NOT_YOUR_SEAT, an unknown kind INVALID_ARGUMENT
    BAD_ACTION)."""

    def turn(self, state, seq, seat, to_act, table, hands, game):
        mine = table.seats[seat]
        legal = self.hint(state, seq, seat, mine)
        for _ in range(FRONTEND_CHECKS):
            self.validate(state, seq, self.rng.choice(legal.actions).action, mine)
        tries, asked = self.illegal_attempts(state, seat, legal, to_act, table, hands, game)
        calls = 1 + FRONTEND_CHECKS + asked
        if tries:
            attempt, metadata, refusal = self.rng.choice(tries)
            request = pb.ValidateRequest(state=state, action=attempt, expected_seq=seq)
            if refusal.code != grpc.StatusCode.FAILED_PRECONDITION:
                self.call("Validate", request, refuse=refusal, metadata=metadata)
            else:
                verdict = self.call("Validate", request, metadata=metadata)
                if verdict.legal:
                    raise CheckFailed(f"an illegal action judged legal: {attempt}")
                wrong = refusal.judge(refusal.code, verdict.reason)
                if wrong:
                    raise CheckFailed(f"an illegal action judged illegal for another reason: {wrong}")
            calls += 1
        return self.rng.choice(legal.actions).action, calls


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
    """One backend connection running ``--referee-tables`` tables through JudgeBatch as their
    owner (each item carries the table's owner credential, so the owner acts for the awaited
    seat, in a simultaneous decision too): one batch of LegalActions items for every table
    awaiting a move, then one batch with a Validate and a Play item per table. Rounds that end
    are scored (Score, as the owner) and replaced by new deals (Deal)."""

    def on_start(self):
        # table number -> [name, started, deal, game, state, seq, views, to_act, (game, preset)]
        self.tables = {}
        self.count = max(1, getattr(self.environment.parsed_options, "referee_tables", 50))
        self.serial = 0

    def new_table(self) -> None:
        game_mix(self.stub, self.only_games)
        game, preset = chosen = choose_table(self.rng, self.rounds_each)
        try:
            deal = self.call("Deal", pb.DealRequest(game=game, preset=preset, seats=self.seat_counts.get(game, 0)))
            check_deal(deal)
            self.dealt(game, deal)
        except (CheckFailed, grpc.RpcError):
            round_closed(self.environment, chosen, False, self.rounds_each)
            raise
        self.serial += 1
        self.tables[self.serial] = [table_name(game, preset), time.perf_counter(), deal, game,
                                    deal.state, deal.seq, deal.views, deal.to_act, chosen]

    def close(self, key, played_out: bool) -> list:
        """Take table ``key`` off this user's tables; returns its entry."""
        entry = self.tables.pop(key)
        round_closed(self.environment, entry[8], played_out, self.rounds_each)
        return entry

    def fail(self, key, failure: Exception) -> None:
        name, started = self.close(key, False)[:2]
        self.game_event(name, started, 0, failure)

    @task
    def round_of_moves(self):
        try:
            while len(self.tables) < self.count:
                self.new_table()
            keys = list(self.tables)
            hints = self.call("JudgeBatch", pb.JudgeBatchRequest(items=[
                pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=t[4], seat=t[7][0], expected_seq=t[5]),
                             credential=t[2].owner_credential)
                for t in map(self.tables.get, keys)])).results
            items, chosen = [], []
            for key, hint in zip(keys, hints):
                t = self.tables[key]
                if hint.WhichOneof("result") != "legal_actions" or not hint.legal_actions.actions:
                    self.fail(key, CheckFailed(f"batch hint: {hint.error.message or 'no legal action'}"))
                    continue
                action = self.rng.choice(hint.legal_actions.actions).action
                owner = t[2].owner_credential
                items += [pb.JudgeItem(validate=pb.ValidateRequest(state=t[4], action=action, expected_seq=t[5]),
                                       credential=owner),
                          pb.JudgeItem(play=pb.PlayRequest(state=t[4], action=action, expected_seq=t[5]),
                                       credential=owner)]
                chosen.append(key)
            results = self.call("JudgeBatch", pb.JudgeBatchRequest(items=items)).results
            for n, key in enumerate(chosen):
                self.judged(key, results[2 * n], results[2 * n + 1])
        except CheckFailed as failure:
            self.game_event("batch", time.perf_counter(), 0, failure)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.CANCELLED:
                raise StopUser() from None
            for key in list(self.tables):  # start over with new deals; the call is already a failure
                self.close(key, False)

    def judged(self, key, verdict: pb.JudgeResult, play: pb.JudgeResult) -> None:
        t = self.tables[key]
        try:
            if verdict.WhichOneof("result") != "validate" or not verdict.validate.legal:
                raise CheckFailed(f"a legal action judged illegal in a batch: {verdict}")
            if play.WhichOneof("result") != "play":
                raise CheckFailed(f"a legal action refused in a batch: {play.error.message}")
            reply = play.play
            seats = len(t[6])
            check_play(reply, t[5] + 1, range(seats))
            if reply.finished:
                score = self.call("Score", pb.ScoreRequest(state=reply.state, reveal_abandoned=True),
                                  metadata=(bearer(t[2].owner_credential),))
                check_score(score, t[2], seats, t[3])
                name, started = self.close(key, True)[:2]
                self.game_event(name, started, reply.seq + 2)
            elif reply.seq >= MAX_ACTIONS:
                raise CheckFailed(f"round not finished after {MAX_ACTIONS} actions")
            else:
                t[4:8] = [reply.state, reply.seq, reply.views, reply.to_act]
        except CheckFailed as failure:
            self.fail(key, failure)
