"""Server lifecycle and the standard services: health, reflection, shutdown, key rotation, metrics,
and no INTERNAL from any input."""
import functools
import socket
import threading
import time
import urllib.request

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.service import client_config
from referee.service.credentials import bearer
from referee.service.server import SERVICE
from referee.service.token import KeyRing
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

SERVING, NOT_SERVING = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
K1, K2 = bytes(range(32)), bytes(range(32, 64))


def _health(channel, service=""):
    stub = health_pb2_grpc.HealthStub(channel)
    return stub.Check(health_pb2.HealthCheckRequest(service=service)).status


def test_health_serving(channel):
    assert _health(channel) == SERVING
    assert _health(channel, "referee.v1.RefereeService") == SERVING


def test_client_config_watches_and_retries_the_served_service(server):
    """The documented client config (service/client_config.py) health-checks and retries the
    service the server serves, and a channel made with it gets answers."""
    assert client_config.SERVICE == SERVICE.full_name == "referee.v1.RefereeService"
    assert client_config.SERVICE_CONFIG["healthCheckConfig"]["serviceName"] == SERVICE.full_name
    retried = [n["service"] for m in client_config.SERVICE_CONFIG["methodConfig"] for n in m["name"]]
    assert retried == [SERVICE.full_name]
    with client_config.channel(client_config.ipv4_target([server.address])) as channel:
        assert _health(channel, client_config.SERVICE) == SERVING
        pb_grpc.RefereeServiceStub(channel).Ping(pb.PingRequest(), timeout=10)


def test_shutdown_turns_health_not_serving_while_draining(make_server):
    server, channel, stub = make_server()
    assert _health(channel) == SERVING
    stopper = threading.Thread(target=server.stop, kwargs={"drain": 3.0, "grace": 0})
    stopper.start()
    deadline = time.monotonic() + 2.5  # well inside the drain: a loaded machine is slow
    while _health(channel, "referee.v1.RefereeService") != NOT_SERVING:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert _health(channel) == NOT_SERVING
    stub.Ping(pb.PingRequest())  # still answering while draining
    stopper.join()
    try:
        stub.Ping(pb.PingRequest(), timeout=1)
        raise AssertionError("a stopped server answered")
    except grpc.RpcError as error:
        assert error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def test_reflection_lists_the_services(channel):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    reply = next(iter(stub.ServerReflectionInfo(iter([request]))))
    names = {s.name for s in reply.list_services_response.service}
    assert {"referee.v1.RefereeService", "grpc.health.v1.Health"} <= names
    request = reflection_pb2.ServerReflectionRequest(file_containing_symbol="referee.v1.RefereeService")
    reply = next(iter(stub.ServerReflectionInfo(iter([request]))))
    assert reply.file_descriptor_response.file_descriptor_proto


def test_key_rotation_across_servers(make_server, expect_error):
    """Tokens and credentials follow the key ring: the old key opens both while configured, the
    active key seals; once the old key is retired its tokens and the credentials made under it
    no longer open (a table's credentials are made once, at its deal)."""
    _, _, old = make_server(KeyRing("k1", {"k1": K1}))
    deal = old.Deal(pb.DealRequest(game="doudizhu", seed=b"rotation"))
    owner = (bearer(deal.owner_credential),)
    pass_ = pb.PlayRequest(state=deal.state, action=actions_pb2.Action(seat=deal.to_act[0], kind="PASS"))
    _, _, rotated = make_server(KeyRing("k2", {"k2": K2, "k1": K1}))
    resealed = rotated.Play(pass_, metadata=owner).state  # the old key still opens the token and credential ...
    assert deal.state[2:4] == b"k1" and resealed[2:4] == b"k2"  # ... and the active key seals
    nxt = (deal.to_act[0] + 1) % 3
    legal = pb.LegalActionsRequest(state=resealed, seat=nxt)
    assert rotated.LegalActions(legal, metadata=(bearer(deal.seat_credentials[nxt]),)).actions
    _, _, retired = make_server(KeyRing("k2", {"k2": K2}))
    expect_error(functools.partial(retired.Play, metadata=owner), pass_, grpc.StatusCode.INVALID_ARGUMENT,
                 "STATE_TOKEN_INVALID")
    assert [v.seat for v in retired.GetView(pb.GetViewRequest(state=resealed)).views] == [-1]  # the new token opens
    for credential in (deal.owner_credential, deal.seat_credentials[nxt]):
        expect_error(functools.partial(retired.LegalActions, metadata=(bearer(credential),)), legal,
                     grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_INVALID")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_metrics_count_calls_by_method_and_code(make_server):
    port = _free_port()
    _, _, stub = make_server(metrics_port=port)
    stub.Ping(pb.PingRequest())
    try:
        stub.Deal(pb.DealRequest(game="nope"))
    except grpc.RpcError:
        pass
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    assert 'referee_rpc_total{code="OK",method="/referee.v1.RefereeService/Ping"} 1.0' in text
    assert 'referee_rpc_total{code="NOT_FOUND",method="/referee.v1.RefereeService/Deal"} 1.0' in text
    assert 'referee_rpc_seconds_count{method="/referee.v1.RefereeService/Ping"}' in text


METHODS = tuple(f"/referee.v1.RefereeService/{m}" for m in (
    "Deal", "Validate", "Play", "LegalActions", "Score", "Replay", "Classify", "Compare", "Commit", "GetView",
    "JudgeBatch")) + (
    "/referee.mcr.v1.McrService/CalculateFans",)
# every action kind a game reads, and names that are none
KINDS = st.one_of(st.sampled_from(["", "PASS", "PLAY", "ABANDON", "BID", "DISCARD", "CHOW", "PUNG", "KONG", "WIN",
                                   "pass", "ACTION_KIND_PASS"]), st.text(max_size=20))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=st.sampled_from(METHODS), data=st.binary(max_size=300))
def test_no_input_gives_internal(channel, method, data):
    call = channel.unary_unary(method)
    try:
        call(data, timeout=5)
    except grpc.RpcError as error:
        assert error.code() not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN), error.details()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=KINDS, seat=st.integers(0, 5), value=st.integers(-5, 5),
       ids=st.lists(st.integers(0, 60), max_size=6), text=st.text(max_size=12), flip=st.integers(0, 400))
def test_no_action_gives_internal(stub, kind, seat, value, ids, text, flip):
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"fuzz"))
    token = deal.state
    if flip < len(token):
        token = token[:flip] + bytes([token[flip] ^ 1]) + token[flip + 1:]
    action = actions_pb2.Action(seat=seat, kind=kind, value=value, cards={"ids": ids, "text": text})
    for call, request in ((stub.Validate, pb.ValidateRequest(state=token, action=action)),
                          (stub.Play, pb.PlayRequest(state=token, action=action)),
                          (stub.LegalActions, pb.LegalActionsRequest(state=token, seat=seat))):
        try:
            call(request)
        except grpc.RpcError as error:
            assert error.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION,
                                    grpc.StatusCode.RESOURCE_EXHAUSTED), error.details()
