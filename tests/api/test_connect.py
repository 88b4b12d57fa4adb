"""The HTTP port (``referee serve --http-port``): the same API over Connect (JSON with plain HTTP
as curl sends it, binary with connectrpc's generated client), gRPC-Web, HTTP/2, the same errors
with their ErrorInfo, credentials, limits, metrics and CORS (service/connect.py)."""
import base64
import json
import shutil
import socket
import subprocess
import threading
import urllib.error
import urllib.request

import grpc
import pytest
from google.rpc import error_details_pb2

from referee.service import metrics
from referee.service.credentials import bearer
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb

SERVICE = "/referee.v1.RefereeService"


@pytest.fixture
def http(make_server):
    """(server, url) of a server with its HTTP port on, CORS for one origin."""
    def start(**config):
        config.setdefault("cors_origins", ("http://app.example",))
        srv, _, _ = make_server(http_port=0, **config)
        return srv, srv.http.url

    return start


@pytest.fixture
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post_json(url: str, method: str, body, headers=None):
    """(HTTP status, decoded JSON body) of a Connect unary call with the JSON codec."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}{SERVICE}/{method}", data=data, method="POST",
                                     headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def error_info(body) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo detail of a Connect JSON error body."""
    (detail,) = [d for d in body["details"] if d["type"] == "google.rpc.ErrorInfo"]
    value = detail["value"]
    return error_details_pb2.ErrorInfo.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))


def owner_header(deal_json) -> dict:
    credential = base64.b64decode(deal_json["ownerCredential"])
    return dict([bearer(credential)])


def test_connect_json_lists_the_games_as_curl_would(http):
    _, url = http()
    status, body = post_json(url, "ListGames", {})
    assert status == 200
    ids = {g["id"] for g in body["games"]}
    assert {"doudizhu", "mcr", "q783"} <= ids


def test_connect_json_plays_a_bid_with_the_owner_credential_and_refuses_a_stale_one(http):
    _, url = http(allow_caller_seed=True)
    status, deal = post_json(url, "Deal", {"game": "doudizhu", "seed": base64.b64encode(b"connect").decode(),
                                           "options": {"first_bidder": {"int_value": 0}}})
    assert status == 200 and deal["toAct"] == [0]
    owner = owner_header(deal)
    # snake_case field names as in the .proto are accepted, like lowerCamelCase
    status, legal = post_json(url, "LegalActions", {"state": deal["state"], "seat": 0}, owner)
    assert status == 200 and {a["action"]["kind"] for a in legal["actions"]} >= {"PASS", "BID"}
    status, played = post_json(url, "Play", {"state": deal["state"], "action": {"seat": 0, "kind": "BID", "value": 3},
                                             "expected_seq": 0}, owner)
    assert status == 200 and played["seq"] == "1"  # uint64 in JSON: a string (proto3 JSON mapping)
    # the same token again with the seq it had: the stale-token check answers, as on the gRPC port
    status, body = post_json(url, "Play", {"state": deal["state"], "action": {"seat": 0, "kind": "BID", "value": 3},
                                           "expected_seq": 1}, owner)
    assert status == 400 and body["code"] == "failed_precondition"
    assert (error_info(body).domain, error_info(body).reason) == ("referee.v1", "STALE_STATE")


def test_connect_errors_carry_the_code_and_the_reason_of_the_grpc_port(http):
    _, url = http()
    status, body = post_json(url, "Deal", {"game": "no-such-game"})
    assert (status, body["code"]) == (404, "not_found") and error_info(body).reason == "UNKNOWN_GAME"
    # a field the message does not have is refused, named (proto-loader's silent drop cannot happen)
    status, body = post_json(url, "Play", {"state": "", "expectedseq": 1})
    assert (status, body["code"]) == (400, "invalid_argument")
    assert error_info(body).reason == "MALFORMED_REQUEST" and "expectedseq" in body["message"]
    status, body = post_json(url, "Play", b"{not json")
    assert body["code"] == "invalid_argument" and error_info(body).reason == "MALFORMED_REQUEST"
    # acting without a credential
    status, deal = post_json(url, "Deal", {"game": "doudizhu"})
    status, body = post_json(url, "Play", {"state": deal["state"], "action": {"seat": deal["toAct"][0], "kind": "PASS"}})
    assert body["code"] == "unauthenticated" and error_info(body).reason == "CREDENTIAL_REQUIRED"


def test_connect_a_seat_credential_acts_only_as_its_seat(http):
    _, url = http()
    _, deal = post_json(url, "Deal", {"game": "doudizhu"})
    first = deal["toAct"][0]
    other = (first + 1) % 3
    seat = dict([bearer(base64.b64decode(deal["seatCredentials"][other]))])
    _, body = post_json(url, "Play", {"state": deal["state"], "action": {"seat": first, "kind": "PASS"}}, seat)
    assert body["code"] == "permission_denied" and error_info(body).reason == "NOT_YOUR_SEAT"


def test_connect_requests_over_the_limit_get_the_reason(http):
    _, url = http(max_receive_bytes=2048)
    status, body = post_json(url, "Validate", {"state": base64.b64encode(bytes(4096)).decode()})
    assert (status, body["code"]) == (429, "resource_exhausted")
    assert error_info(body).reason == "REQUEST_TOO_LARGE"


def test_connect_binary_and_grpc_web_with_the_generated_client(http):
    from connectrpc.errors import ConnectError
    from connectrpc.protocol import ProtocolType

    from referee.v1.referee_service_connect import RefereeServiceClientSync

    _, url = http()
    for protocol in (ProtocolType.CONNECT, ProtocolType.GRPC_WEB):
        with RefereeServiceClientSync(url, protocol=protocol) as client:
            deal = client.deal(pb.DealRequest(game="mcr"))
            assert len(deal.seat_credentials) == 4 and deal.state
            owner = dict([bearer(deal.owner_credential)])
            view = client.get_view(pb.GetViewRequest(state=deal.state), headers=owner)
            assert len(view.views) == 4  # the owner sees every seat
            with pytest.raises(ConnectError) as caught:
                client.play(pb.PlayRequest(state=deal.state, action=actions_pb2.Action(seat=9, kind="PASS")),
                            headers=owner)
            assert caught.value.code.name == "INVALID_ARGUMENT"  # as the gRPC port answers a seat of no table
            (detail,) = caught.value.details
            info = error_details_pb2.ErrorInfo.FromString(detail.message_bytes)
            assert (info.domain, info.reason) == ("referee.v1", "BAD_SEAT")


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_connect_over_http2_with_curl(http):
    _, url = http()
    done = subprocess.run(["curl", "-sS", "--http2-prior-knowledge", "-w", "\n%{http_version}", "-H",
                           "content-type: application/json", "-d", "{}", f"{url}{SERVICE}/ListGames"],
                          capture_output=True, text=True, timeout=30, check=True)
    body, version = done.stdout.rsplit("\n", 1)
    assert version == "2" and "doudizhu" in {g["id"] for g in json.loads(body)["games"]}


def test_cors_preflight_allows_the_configured_origin_only(http):
    _, url = http()

    def preflight(origin):
        request = urllib.request.Request(f"{url}{SERVICE}/ListGames", method="OPTIONS", headers={
            "origin": origin, "access-control-request-method": "POST",
            "access-control-request-headers": "content-type,connect-protocol-version,authorization"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, dict(answer.headers)
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers)

    status, headers = preflight("http://app.example")
    assert status == 200 and headers["access-control-allow-origin"] == "http://app.example"
    assert "authorization" in headers["access-control-allow-headers"].lower()
    status, headers = preflight("http://elsewhere.example")
    assert status == 400 and "access-control-allow-origin" not in headers


def test_connect_calls_are_counted_under_the_grpc_method_names(http, free_port):
    _, url = http(metrics_port=free_port)
    # (the registry is the process's: counts relative to before, on methods test_server leaves alone)
    ok, refused = metrics.CALLS.labels(f"{SERVICE}/ListGames", "OK"), metrics.CALLS.labels(f"{SERVICE}/Compare", "NOT_FOUND")
    before = ok._value.get(), refused._value.get()
    post_json(url, "ListGames", {})
    status, _ = post_json(url, "Compare", {"game": "no-such-game"})
    assert status == 404
    assert (ok._value.get(), refused._value.get()) == (before[0] + 1, before[1] + 1)
    assert metrics.LATENCY.labels(f"{SERVICE}/ListGames")._sum.get() > 0


class _Gate:
    """A servicer method that counts the calls inside it and holds them until opened."""

    def __init__(self):
        self.inside = self.most = 0
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.opened = threading.Event()

    def __call__(self, request, context):
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
            self.changed.notify_all()
        try:
            self.opened.wait(30)
            return pb.PingResponse()
        finally:
            with self.lock:
                self.inside -= 1

    def wait_inside(self, count: int, timeout: float = 30) -> bool:
        """Whether ``count`` calls are inside at once before ``timeout`` s (a bound, not a measure)."""
        with self.lock:
            return self.changed.wait_for(lambda: self.inside >= count, timeout)


@pytest.fixture
def gate(monkeypatch):
    from referee.service.servicer import RefereeServicer

    gate = _Gate()
    # before the server binds its methods
    monkeypatch.setattr(RefereeServicer, "Ping", lambda servicer, request, context: gate(request, context))
    yield gate
    gate.opened.set()


def _ping_in_thread(url: str, answers: list) -> threading.Thread:
    thread = threading.Thread(target=lambda: answers.append(post_json(url, "Ping", {})), daemon=True)
    thread.start()
    return thread


def test_connect_calls_run_concurrently_on_the_handler_threads(http, gate):
    _, url = http(threads=2, max_concurrent=8)
    answers: list = []
    threads = [_ping_in_thread(url, answers) for _ in range(3)]
    # two calls are inside the servicer at once: the event loop does not run them one at a time
    assert gate.wait_inside(2), f"calls never overlapped: at most {gate.most} inside at once"
    gate.opened.set()
    for thread in threads:
        thread.join(30)
    assert [status for status, _ in answers] == [200] * 3
    assert gate.most == 2  # never more than the server's threads


def test_connect_sheds_calls_past_max_concurrent_as_the_grpc_port_does(http, gate):
    server, url = http(threads=2, max_concurrent=2)
    answers: list = []
    threads = [_ping_in_thread(url, answers) for _ in range(2)]
    assert gate.wait_inside(2), f"calls never overlapped: at most {gate.most} inside at once"
    # a third call while two are in progress: refused at once, with gRPC's code and message
    status, body = post_json(url, "Ping", {})
    assert (status, body["code"]) == (429, "resource_exhausted"), body
    assert body["message"] == "Concurrent RPC limit exceeded!"
    # the gRPC port counts its own calls: two more get in there, a third gets the same answer
    with grpc.insecure_channel(server.address) as channel:
        ping = channel.unary_unary(f"{SERVICE}/Ping", request_serializer=pb.PingRequest.SerializeToString,
                                   response_deserializer=pb.PingResponse.FromString)
        futures = [ping.future(pb.PingRequest(), timeout=60) for _ in range(2)]
        assert gate.wait_inside(4), f"gRPC calls never got in: {gate.inside} inside"
        with pytest.raises(grpc.RpcError) as refused:
            ping(pb.PingRequest(), timeout=30)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert refused.value.details() == body["message"]
        gate.opened.set()
        assert all(future.result() == pb.PingResponse() for future in futures)
    gate.opened.set()
    for thread in threads:
        thread.join(30)
    assert [status for status, _ in answers] == [200, 200]
    # once they are done the limit is free again
    assert post_json(url, "Ping", {})[0] == 200
    assert server.http._calls.active == 0
