"""``loadtest/aio_serve.py`` (issue 26): the same calls on grpc.aio with inline handlers, to
compare gRPC's own work per call; it answers as ``referee serve`` does, refusals included."""
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

if importlib.util.find_spec("locust") is None:
    pytest.skip("needs the [load] extra", allow_module_level=True)
pytestmark = pytest.mark.load
REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "loadtest" / "aio_serve.py"
sys.path.insert(0, str(REPO / "loadtest"))
from runner import free_port  # noqa: E402


@pytest.fixture
def aio_stub():
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    break
            except grpc.RpcError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()[-2000:]
            time.sleep(0.2)
        yield pb_grpc.RefereeServiceStub(channel)
    finally:
        channel.close()
        proc.kill()
        proc.wait()


def test_the_aio_server_plays_and_refuses_as_referee_serve_does(aio_stub):
    deal = aio_stub.Deal(pb.DealRequest(game="doudizhu"))
    assert deal.state and len(deal.seat_credentials) == 3 and list(deal.to_act)
    with pytest.raises(grpc.RpcError) as caught:
        aio_stub.LegalActions(pb.LegalActionsRequest(state=b"not a token", seat=0))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    info = error_details_pb2.ErrorInfo()
    details = rpc_status.from_call(caught.value).details
    assert len(details) == 1 and details[0].Unpack(info)
    assert (info.domain, info.reason) == ("referee.v1", "STATE_TOKEN_INVALID")


def test_referee_load_runs_the_games_profile_on_it_without_failures(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "referee.service.cli", "load", "--workers", "1", "--users", "4",
                           "--seconds", "4", "--profile", "games", "--server-script", str(SCRIPT),
                           "--out", str(tmp_path / "report")], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["calls"] > 100 and summary["failures"] == 0 and summary["server_cpu_s"] > 0
