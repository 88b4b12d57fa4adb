"""examples/node: a Node backend and one client per seat, each with only its own credential, play
a whole Dou Dizhu round and a whole mcr hand through a real server over gRPC (grpc-js with the
proto-loader options docs/clients.md names), decode ErrorInfo, and call over Connect (connect-node).
The packages come from the committed lock file (npm ci)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "node"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")), reason="node and npm are not installed")]


@pytest.fixture(scope="module")
def installed():
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for command in (["npm", "ci", "--no-audit", "--no-fund"], ["npm", "run", "gen"]):
        done = subprocess.run(command, cwd=EXAMPLE, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
    return env


def test_node_plays_whole_rounds_and_reads_the_errors(make_server, installed):
    srv, _, _ = make_server(http_port=0, allow_caller_seed=False)
    done = subprocess.run(["node", "play.mjs", srv.address, srv.http.url], cwd=EXAMPLE, env=installed,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    ddz, mcr = out["rounds"]
    assert ddz["game"] == "doudizhu" and ddz["outcome"] in ("landlord_won", "farmers_won") and ddz["zero_sum"]
    assert mcr["game"] == "mcr" and mcr["outcome"] and mcr["zero_sum"]
    assert mcr["answers"] > 0  # claim windows: the seats' sealed answers applied by the owner
    for rnd in (ddz, mcr):
        assert [(e["code"], e["reason"], e["domain"]) for e in rnd["errors"]] == [
            ("FAILED_PRECONDITION", "NOT_YOUR_TURN", "referee.v1"), ("PERMISSION_DENIED", "NOT_YOUR_SEAT", "referee.v1")]
    assert "doudizhu" in out["connect"]["games"] and out["connect"]["seats"] == 4
    assert out["connect"]["refused"] == {"code": 5, "reason": "UNKNOWN_GAME"}  # Code.NotFound
