"""The statelessness claim under faults: three `referee serve` processes on 127.0.0.1 sharing a
key file, a client with round_robin, retries on UNAVAILABLE and health checking
(referee.service.client_config) playing games on several threads, while servers are killed,
terminated and restarted with rotated keys. No game is lost, no call fails past the retries,
and every game replays to the same states and settlement on an unfaulted server.

The servers run as deployed (no --allow-caller-seed): they draw every seed, the seats play with
their own credentials, and the owner's Score reveals the seed and entropy the replay needs.

Progress is counted in games, never in seconds (a shared 2-core machine); waits are bounded.
Every server started is killed when its test ends, failed or not (fixture teardown), and by the
kernel if the test process itself dies.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from referee.service import bots, client_config
from referee.service.credentials import bearer
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

SERVING = health_pb2.HealthCheckResponse.SERVING
DRAIN_S, GRACE_S = 1.0, 3.0
# A test on a crawling machine fails with a message instead of hanging: these bound the waits.
WAIT_S = 60.0
CALLS = re.compile(r'^referee_rpc_total\{[^}]*method="/referee\.v1\.RefereeService/[^"]*"[^}]*\} (\S+)$', re.M)


_HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A free port below the kernel's ephemeral range: the servers are restarted on the same
    ports, and a port of that range can meanwhile become some client connection's source port
    (a CI run once met "Address already in use" on a metrics port so)."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 0
    for _ in range(200):
        port = random.randrange(10000, low) if low > 11000 else 0
        if port in _HANDED_OUT:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            _HANDED_OUT.add(s.getsockname()[1])
            return s.getsockname()[1]
    raise RuntimeError("no free port below the ephemeral range")


def key_id(token: bytes) -> str:
    """The key id in a state token's authenticated header (service/token.py layout)."""
    return token[2:2 + token[1]].decode()


def credential_key_id(credential: bytes) -> str:
    """The key id a credential was made under (service/credentials.py layout)."""
    return credential[3:3 + credential[2]].decode()


def _referee_command() -> list[str]:
    script = Path(sys.executable).with_name("referee")
    if script.exists():
        return [str(script)]
    found = shutil.which("referee")
    return [found] if found else [sys.executable, "-m", "referee.service.cli"]


def _die_with_the_test() -> list[str]:
    """A prefix that has the server SIGKILLed if the test process dies (even killed outright):
    util-linux's setpriv sets the parent-death signal and execs, so the pid stays the server's."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--"] if setpriv and sys.platform == "linux" else []


def wait_until(predicate, what: str, timeout: float = WAIT_S, abort=None) -> None:
    """Poll ``predicate`` until true; fail after ``timeout`` or as soon as ``abort()`` says why."""
    deadline = time.monotonic() + timeout
    while not predicate():
        reason = abort() if abort else None
        if reason:
            pytest.fail(f"while waiting for {what}: {reason}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


class Fleet:
    """Server processes ``i = 0..n-1`` on fixed ports; each restart reuses its ports."""

    def __init__(self, directory: Path, n: int = 3):
        self.dir = directory
        self.key_file = directory / "keys.json"
        self.ports = [free_port() for _ in range(n)]
        self.metrics_ports = [free_port() for _ in range(n)]
        self.procs: list[subprocess.Popen | None] = [None] * n
        self.started: list[subprocess.Popen] = []
        self.logs: list[Path] = []

    @property
    def addresses(self) -> list[str]:
        return [f"127.0.0.1:{p}" for p in self.ports]

    def write_keys(self, active: str, keys: dict[str, bytes]) -> None:
        """Replace the shared key file atomically (what a Secret update does to a mounted file)."""
        tmp = self.key_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"active": active,
                                   "keys": {k: base64.b64encode(v).decode() for k, v in keys.items()}}))
        os.replace(tmp, self.key_file)

    def start(self, i: int) -> subprocess.Popen:
        log = self.dir / f"server{i}-{len(self.started)}.log"
        self.logs.append(log)
        argv = _referee_command() + [
            "serve", "--host", "127.0.0.1", "--port", str(self.ports[i]),
            "--metrics-port", str(self.metrics_ports[i]), "--key-file", str(self.key_file),
            "--threads", "8", "--drain", str(DRAIN_S), "--grace", str(GRACE_S), "--log-level", "WARNING"]
        with open(log, "wb") as out:
            proc = subprocess.Popen(_die_with_the_test() + argv, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL)
        self.started.append(proc)
        self.procs[i] = proc
        return proc

    def wait_serving(self, i: int) -> None:
        """Wait until process i answers grpc.health.v1 SERVING (a readiness probe)."""
        proc = self.procs[i]
        with grpc.insecure_channel(self.addresses[i]) as channel:
            health = health_pb2_grpc.HealthStub(channel)

            def serving() -> bool:
                try:
                    request = health_pb2.HealthCheckRequest(service=client_config.SERVICE)
                    return health.Check(request, timeout=1).status == SERVING
                except grpc.RpcError:
                    return False

            wait_until(serving, f"server {i} to serve",
                       abort=lambda: proc.poll() is not None and f"it exited {proc.returncode}: {self.tail(proc)}")

    def referee_calls(self, i: int) -> int:
        """Referee calls process i has handled (its Prometheus counter); -1 when unreachable."""
        try:
            url = f"http://127.0.0.1:{self.metrics_ports[i]}/metrics"
            text = urllib.request.urlopen(url, timeout=2).read().decode()
        except OSError:
            return -1
        return int(sum(float(v) for v in CALLS.findall(text)))

    def signal(self, i: int, sig: int) -> None:
        os.kill(self.procs[i].pid, sig)

    def wait_exit(self, i: int, timeout: float = DRAIN_S + GRACE_S + 30) -> int:
        try:
            return self.procs[i].wait(timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"server {i} still running {timeout:.0f} s after the signal\n{self.stacks(self.procs[i])}"
                        f"\nits log:\n{self.tail(self.procs[i])}")

    @staticmethod
    def stacks(proc: subprocess.Popen) -> str:
        """Where a process that does not exit is stuck: py-spy's dump of its threads, when it can."""
        pyspy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
        if pyspy is None:
            return "(no py-spy to show its threads)"
        try:
            dump = subprocess.run([pyspy, "dump", "--pid", str(proc.pid)], capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            return "(py-spy dump timed out)"
        return f"its threads (py-spy dump):\n{dump.stdout[-6000:]}{dump.stderr[-1000:]}"

    def tail(self, proc: subprocess.Popen) -> str:
        log = self.logs[self.started.index(proc)]
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""

    def close(self) -> None:
        for proc in self.started:
            if proc.poll() is None:
                proc.kill()
        for proc in self.started:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass


@pytest.fixture
def fleet(tmp_path):
    f = Fleet(tmp_path)
    try:
        yield f
    finally:
        f.close()


@dataclass
class Game:
    round: bots.Round

    def replay_request(self) -> pb.ReplayRequest:
        """The round's replay from what the owner's Score revealed."""
        score = self.round.score
        return pb.ReplayRequest(game="doudizhu", seed=score.seed, client_entropy=score.client_entropy,
                                seat_entropy=score.seat_entropy, actions=self.round.actions)


@dataclass
class Load:
    """Bots playing whole games on ``workers`` threads until stopped; every call is recorded."""

    stub: pb_grpc.RefereeServiceStub
    workers: int = 4
    games: list[Game] = field(default_factory=list)
    started: dict[int, int] = field(default_factory=dict)  # worker -> games it began (Deal called or not)
    lost: list[str] = field(default_factory=list)  # games begun that did not finish, and why
    failures: list[str] = field(default_factory=list)
    live: dict[int, str] = field(default_factory=dict)  # worker -> key id of its game's token
    live_credentials: dict[int, str] = field(default_factory=dict)  # worker -> key id of its game's credentials
    key_ids: set[str] = field(default_factory=set)  # of every token handed out
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Load:
        self.threads = [threading.Thread(target=self._run, args=(w,), daemon=True) for w in range(self.workers)]
        for t in self.threads:
            t.start()
        return self

    def _run(self, worker: int) -> None:
        rng = random.Random(worker)
        stub = _Recording(self.stub, self, worker)
        n = 0
        while not self.stop.is_set():
            n += 1
            self.started[worker] = n
            try:  # the server draws the seed
                played = bots.play_round(stub, rng, game="doudizhu", illegal_rate=0.05, abandon_rate=0.002)
            except grpc.RpcError as error:  # a refusal the bots did not expect, or a call that failed
                self.lost.append(f"worker {worker}: round {n}: {error.code().name}: {error.details()}")
                self.failures.append(f"worker {worker}: round {n} lost: {error.code().name}: {error.details()}")
                continue
            except Exception as error:  # noqa: BLE001 - a bot error or a bug: the test fails on it
                self.lost.append(f"worker {worker}: round {n}: {type(error).__name__}: {error}")
                self.failures.append(f"worker {worker}: {type(error).__name__}: {error}")
                continue
            finally:
                self.live.pop(worker, None)
                self.live_credentials.pop(worker, None)
            self.games.append(Game(played))

    def wait_games(self, more: int, what: str) -> None:
        """Wait until ``more`` further games have finished (progress, not time)."""
        target = len(self.games) + more
        wait_until(lambda: len(self.games) >= target, f"{more} games {what}",
                   abort=lambda: self.failures and f"failed calls: {self.failures[:5]}")

    def close(self) -> None:
        """Stop: each worker finishes the game it is playing, then the books must balance."""
        self.stop.set()
        for t in self.threads:
            t.join(WAIT_S)
        assert not [t for t in self.threads if t.is_alive()], "a worker is still playing a game"
        started = sum(self.started.values())
        assert self.lost == [], f"{len(self.lost)} of {started} games lost: {self.lost[:5]}"
        assert started == len(self.games), f"{started} games started, {len(self.games)} finished"


class _Recording:
    """A RefereeService stub that records failures other than the bots' illegal tries (refused
    FAILED_PRECONDITION, or PERMISSION_DENIED for another seat's action), and the key ids of
    tokens and credentials."""

    def __init__(self, stub, load: Load, worker: int):
        self._stub, self._load, self._worker = stub, load, worker

    def __getattr__(self, name):
        method = getattr(self._stub, name)

        def call(request, **kwargs):
            try:
                reply = method(request, **kwargs)
            except grpc.RpcError as error:
                if error.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.PERMISSION_DENIED):
                    self._load.failures.append(f"{name}: {error.code().name}: {error.details()}")
                raise
            state = getattr(reply, "state", b"")
            if state:
                kid = key_id(state)
                self._load.live[self._worker] = kid
                self._load.key_ids.add(kid)
            if getattr(reply, "owner_credential", b""):
                kid = credential_key_id(reply.owner_credential)
                self._load.live_credentials[self._worker] = kid
                assert {credential_key_id(c) for c in reply.seat_credentials} == {kid}
            return reply

        return call


@pytest.fixture
def balanced(fleet):
    """(stub, channel) over all fleet addresses with the documented client config; reconnects
    to a restarted address quickly (the test's only change to it)."""
    options = [("grpc.initial_reconnect_backoff_ms", 200), ("grpc.max_reconnect_backoff_ms", 1000)]
    channel = client_config.channel(client_config.ipv4_target(fleet.addresses), options)
    try:
        yield pb_grpc.RefereeServiceStub(channel), channel
    finally:
        channel.close()


@pytest.fixture
def load(balanced):
    loads = []

    def make(workers: int = 4) -> Load:
        started = Load(balanced[0], workers).start()
        loads.append(started)
        return started

    yield make
    for started in loads:
        if not started.stop.is_set():
            started.stop.set()  # a test that failed before closing it: let the workers end
    for started in loads:
        for t in started.threads:
            t.join(WAIT_S)


def check_games(games: list[Game], stub: pb_grpc.RefereeServiceStub) -> None:
    """Each game, replayed from the seed and entropy its owner's Score revealed and its actions on
    an unfaulted server, passes through the same states (digests) and ends with the same
    settlement, which adds up to zero; no deal was a test deal."""
    for game in games:
        r = game.round
        s = r.score.settlement
        assert sum(s.points) + s.house == 0, s
        assert len(r.score.seed) == 32 and r.score.commitment == r.deal.commitment and not s.test_deal
        replay = stub.Replay(game.replay_request(), timeout=30)
        assert replay.deal.state_digest == r.deal.state_digest and replay.commitment == r.deal.commitment
        assert [step.state_digest for step in replay.steps] == [p.state_digest for p in r.plays]
        assert replay.settlement == s and not replay.state


# --- the tests --------------------------------------------------------------------------------
K1, K2 = bytes(range(32)), bytes(range(32, 64))


def _refusal(call, request) -> tuple[grpc.StatusCode, str]:
    """The status code and ErrorInfo reason of a call that must fail."""
    try:
        call(request, timeout=10)
    except grpc.RpcError as error:
        status = rpc_status.from_call(error)
        for detail in status.details if status else ():
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                return error.code(), info.reason
        return error.code(), ""
    raise AssertionError("the call succeeded")


@pytest.fixture
def unfaulted():
    """A stub of an in-process server outside the fleet, to replay the games on."""
    with RefereeServer(Config(port=0, drain=0, grace=0), KeyRing.generate()) as server:
        with grpc.insecure_channel(server.address) as channel:
            yield pb_grpc.RefereeServiceStub(channel)


def _start_fleet(fleet) -> None:
    for i in range(3):
        fleet.start(i)
    for i in range(3):
        fleet.wait_serving(i)


class InFlight:
    """Calls on a direct channel to one server (no retries: the server alone must finish them);
    ``signal_when_busy`` sends the signal while at least one call is in flight."""

    def __init__(self, address: str, request: pb.ReplayRequest, threads: int = 3):
        self.channel = grpc.insecure_channel(address, options=[("grpc.enable_retries", 0)])
        self.stub = pb_grpc.RefereeServiceStub(self.channel)
        self.request = request
        self.lock = threading.Lock()
        self.in_flight: set[tuple[int, int]] = set()
        self.at_signal: set[tuple[int, int]] = set()
        self.signalled = False
        self.results: dict[tuple[int, int], tuple[bool, grpc.StatusCode | None]] = {}
        self.done = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(k,), daemon=True) for k in range(threads)]
        for t in self.threads:
            t.start()

    def _run(self, k: int) -> None:
        n = 0
        while not self.done.is_set():
            with self.lock:
                call, before = (k, n), not self.signalled
                self.in_flight.add(call)
            n += 1
            try:
                self.stub.Replay(self.request, timeout=30)
                code = None
            except grpc.RpcError as error:
                code = error.code()
            with self.lock:
                self.in_flight.discard(call)
                self.results[call] = (before, code)
            if code is not None:
                return  # the server has stopped

    def signal_when_busy(self, send) -> None:
        def busy() -> bool:
            with self.lock:
                if not self.in_flight:
                    return False
                send()
                self.signalled = True
                self.at_signal = set(self.in_flight)
                return True

        wait_until(busy, "a call in flight on the server to terminate")

    def close(self) -> None:
        self.done.set()
        for t in self.threads:
            t.join(30)
        self.channel.close()


def test_health_watchers_see_the_drain_and_do_not_hold_the_stop():
    """A Watch stream (what every health-checking client keeps open) gets NOT_SERVING at the
    drain and ends with OK after it, so the stop does not wait out its whole grace."""
    server = RefereeServer(Config(port=0, drain=0.5, grace=120), KeyRing.generate()).start()
    try:
        with grpc.insecure_channel(server.address) as channel:
            watch = health_pb2_grpc.HealthStub(channel).Watch(
                health_pb2.HealthCheckRequest(service=client_config.SERVICE), timeout=60)
            assert next(watch).status == SERVING
            stopper = threading.Thread(target=server.stop)
            stopper.start()
            assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
            assert list(watch) == [] and watch.code() == grpc.StatusCode.OK
            stopper.join(60)
            assert not stopper.is_alive(), "the stop waited for the Watch stream"
    finally:
        server.stop(drain=0, grace=0)


def test_no_game_lost_when_a_server_is_killed_and_another_terminated(fleet, balanced, load, unfaulted):
    fleet.write_keys("k1", {"k1": K1})
    _start_fleet(fleet)
    games = load()
    games.wait_games(30, "on three servers")
    assert all(fleet.referee_calls(i) > 0 for i in range(3)), "round_robin spreads calls over every server"

    fleet.signal(0, signal.SIGKILL)
    assert fleet.wait_exit(0) == -signal.SIGKILL
    games.wait_games(20, "after SIGKILL of server 0")

    inflight = InFlight(fleet.addresses[1], games.games[0].replay_request())
    try:
        inflight.signal_when_busy(lambda: fleet.signal(1, signal.SIGTERM))
        assert fleet.wait_exit(1) == 0, fleet.tail(fleet.procs[1])  # drained and stopped cleanly
    finally:
        inflight.close()
    assert inflight.at_signal, "calls were in flight on the server at SIGTERM"
    started_before = {call: code for call, (before, code) in inflight.results.items() if before}
    assert inflight.at_signal <= started_before.keys()
    assert all(code is None for code in started_before.values()), started_before

    games.wait_games(20, "on the last server")
    games.close()
    assert games.failures == []
    assert len(games.games) >= 70
    check_games(games.games, unfaulted)
    print(f"{len(games.games)} games, {len(inflight.at_signal)} calls in flight at SIGTERM")


def test_key_rotation_under_load(fleet, balanced, load, unfaulted):
    stub, _ = balanced
    fleet.write_keys("k1", {"k1": K1})
    _start_fleet(fleet)
    games = load()
    pinned = stub.Deal(pb.DealRequest(game="doudizhu"))  # sealed with k1, kept aside
    owner = (bearer(pinned.owner_credential),)
    assert key_id(pinned.state) == "k1" and credential_key_id(pinned.owner_credential) == "k1"
    games.wait_games(10, "before the rotation")

    def rolling_restart(what: str) -> None:
        """Restart the servers one by one, like a Deployment rollout gated on readiness."""
        for i in range(3):
            fleet.signal(i, signal.SIGTERM)
            assert fleet.wait_exit(i) == 0, fleet.tail(fleet.procs[i])
            fleet.start(i)
            fleet.wait_serving(i)
            wait_until(lambda: fleet.referee_calls(i) > 0, f"the client to use restarted server {i}",
                       abort=lambda: games.failures and f"failed calls: {games.failures[:5]}")
            games.wait_games(3, f"after restarting server {i} {what}")

    def on_each_server(request: pb.LegalActionsRequest):
        for address in fleet.addresses:
            with grpc.insecure_channel(address) as channel:
                yield functools.partial(pb_grpc.RefereeServiceStub(channel).LegalActions, metadata=owner), request

    legal = pb.LegalActionsRequest(state=pinned.state, seat=pinned.to_act[0])

    # 1. the new key is added everywhere; the old one still seals
    fleet.write_keys("k1", {"k1": K1, "k2": K2})
    rolling_restart("with k2 added")
    assert games.key_ids == {"k1"}

    # 2. the new key first: it seals everywhere, and tokens sealed with the old key still open
    fleet.write_keys("k2", {"k2": K2, "k1": K1})
    rolling_restart("with k2 active")
    for call, request in on_each_server(legal):
        assert call(request, timeout=10).actions
    bid = stub.Play(pb.PlayRequest(state=pinned.state, action=actions_pb2.Action(
        seat=pinned.to_act[0], kind="BID", value=1)), metadata=owner)
    assert key_id(bid.state) == "k2"
    after_bid = pb.LegalActionsRequest(state=bid.state, seat=bid.to_act[0])
    assert stub.LegalActions(after_bid, metadata=owner).actions  # the k1 credential opens while k1 is held
    # each live game holds a k2 token after its next action, and credentials made under k2 once
    # every game dealt under k1 has finished (a table's credentials are made at its deal)
    wait_until(lambda: "k1" not in games.live.copy().values() and "k1" not in games.live_credentials.copy().values(),
               "every live game to hold a k2 token and k2 credentials",
               abort=lambda: games.failures and f"failed calls: {games.failures[:5]}")

    # 3. the old key is removed: its tokens and credentials stop opening, nothing live used it any more
    fleet.write_keys("k2", {"k2": K2})
    rolling_restart("with k1 removed")
    for call, request in on_each_server(legal):
        assert _refusal(call, request) == (grpc.StatusCode.INVALID_ARGUMENT, "STATE_TOKEN_INVALID")
    # the pinned table's k2 token still opens; its k1 credentials no longer do
    assert [v.seat for v in stub.GetView(pb.GetViewRequest(state=bid.state), timeout=10).views] == [-1]
    for call, request in on_each_server(after_bid):
        assert _refusal(call, request) == (grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_INVALID")

    games.close()
    assert games.failures == []
    assert games.key_ids == {"k1", "k2"}
    check_games(games.games, unfaulted)
    print(f"{len(games.games)} games through 9 restarts")
