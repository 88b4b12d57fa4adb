"""README's "The API in five calls" runs as written with buf curl over gRPC and reflection v1."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BIN = Path(sys.executable).parent


def block() -> str:
    text = README.read_text().split("### The API in five calls", 1)[1]
    return re.search(r"```sh\n(.*?)```", text, re.S).group(1)


@pytest.mark.skipif(not (BIN / "buf").exists() and shutil.which("buf") is None, reason="buf is not installed")
def test_readme_five_calls(server):
    script = block().replace("http://127.0.0.1:50051", f"http://{server.address}")
    assert script.count("$GRPC ") == 5
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    name, can_pass, phase, to_act = done.stdout.strip().splitlines()
    assert "斗地主" in name and can_pass == "True" and phase == "playing" and re.fullmatch(r"\[[0-2]\]", to_act)
