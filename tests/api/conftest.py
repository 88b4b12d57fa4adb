"""A real Referee server on 127.0.0.1, port 0, for the whole session, and helpers to call it.

The server takes caller seeds (--allow-caller-seed: the tests deal fixed rounds). ``stub`` calls
as a platform backend does: it sends each table's owner credential (OwnerInterceptor);
``raw_stub`` sends no credential unless a test gives one.
"""
import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from referee.service.credentials import OwnerInterceptor
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import actions_pb2, options_pb2
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

KEY1 = bytes(range(32))
KEY2 = bytes(range(32, 64))


@pytest.fixture(scope="session")
def server():
    # a session-long server: no max connection age, or a long suite sees calls end UNAVAILABLE
    srv = RefereeServer(Config(port=0, drain=0, grace=1, max_connection_age_s=86400, allow_caller_seed=True),
                        KeyRing("k1", {"k1": KEY1})).start()
    yield srv
    srv.stop(drain=0, grace=0)


@pytest.fixture(scope="session")
def channel(server):
    with grpc.insecure_channel(server.address) as ch:
        yield ch


@pytest.fixture(scope="session")
def stub(channel):
    """Calls as the owner of every table it deals."""
    return pb_grpc.RefereeServiceStub(grpc.intercept_channel(channel, OwnerInterceptor()))


@pytest.fixture(scope="session")
def raw_stub(channel):
    """Calls with no credential but the ones a test passes as metadata."""
    return pb_grpc.RefereeServiceStub(channel)


@pytest.fixture
def make_server():
    """Start extra servers (own config or keys); all are stopped at the end of the test."""
    started = []

    def make(keys: KeyRing | None = None, **config):
        config.setdefault("allow_caller_seed", True)
        srv = RefereeServer(Config(port=0, drain=0, grace=0, **config), keys or KeyRing.generate()).start()
        channel = grpc.insecure_channel(srv.address)
        started.append((srv, channel))
        return srv, channel, pb_grpc.RefereeServiceStub(grpc.intercept_channel(channel, OwnerInterceptor()))

    yield make
    for srv, channel in started:
        channel.close()
        srv.stop(drain=0, grace=0)


def error_of(call, request):
    """Call expecting an error: (status code, ErrorInfo or None, message)."""
    with pytest.raises(grpc.RpcError) as caught:
        call(request)
    error = caught.value
    status = rpc_status.from_call(error)
    info = None
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
    return error.code(), info, error.details()


@pytest.fixture
def expect_error():
    """expect_error(call, request, code, reason) -> ErrorInfo, asserting code and reason."""
    def check(call, request, code: grpc.StatusCode, reason: str):
        got, info, message = error_of(call, request)
        assert got == code, message
        assert info is not None and info.domain == "referee.v1"
        assert info.reason == reason, message
        return info

    return check


@pytest.fixture
def seeded_deal(stub):
    """A Dou Dizhu deal from a fixed seed with seat 0 bidding first."""
    def deal(seed: bytes = b"api-tests", **fields):
        options = {"first_bidder": options_pb2.OptionValue(int_value=fields.pop("first_bidder", 0))}
        return stub.Deal(pb.DealRequest(game="doudizhu", seed=seed, options=options, **fields))

    return deal


@pytest.fixture
def landlord_leads(stub, seeded_deal):
    """A round where seat 0 bid 3 and now leads: (PlayResponse after the bid)."""
    deal = seeded_deal()
    bid = actions_pb2.Action(seat=0, kind="BID", value=3)
    return stub.Play(pb.PlayRequest(state=deal.state, action=bid))
