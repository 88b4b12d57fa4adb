"""README's curl round ("The HTTP port") runs as written against a server's HTTP port."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def curl_block() -> str:
    text = README.read_text().split("### The HTTP port", 1)[1]
    return re.search(r"```sh\n(.*?)```", text, re.S).group(1)


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_readme_curl_round_plays_a_bid(make_server):
    srv, _, _ = make_server(http_port=0)
    script = curl_block().replace("http://127.0.0.1:8080", srv.http.url)
    assert script.count("curl -s") == 4  # ListGames, Deal, LegalActions, Play
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    first_game, hint, seq = done.stdout.strip().splitlines()
    assert first_game == "bidaxiao"  # ListGames is sorted by id
    assert "'kind': 'BID'" in hint and seq == "1"
