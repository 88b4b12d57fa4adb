"""``loadtest/breakdown.py`` (issue 26: where a served call's CPU goes) runs a short load per
profile against a server whose steps it times, and accounts for every call kind it served."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("locust") is None:
    pytest.skip("needs the [load] extra", allow_module_level=True)
pytestmark = pytest.mark.load
SCRIPT = Path(__file__).resolve().parents[2] / "loadtest" / "breakdown.py"


def test_the_breakdown_times_every_part_of_the_calls_it_served():
    out = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "4", "--users", "4", "--profiles", "noop,validate"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    noop, validate = result["profiles"]["noop"], result["profiles"]["validate"]
    assert set(noop["kinds"]) == {"Ping"} and noop["kinds"]["Ping"]["parse"] > 0
    assert noop["kinds"]["Ping"]["rules"] == 0 and noop["kinds"]["Ping"]["token open"] == 0
    for kind in ("Validate", "Play", "LegalActions"):
        row = validate["kinds"][kind]
        assert row["calls"] > 0 and row["rules"] > 0 and row["token open"] > 0 and row["credentials"] > 0
        assert row["total"] == pytest.approx(sum(row[p] for p in ("parse", "credentials", "token open", "action in",
                                                                   "rules", "views", "events", "token seal", "other",
                                                                   "serialize")), abs=0.6)
    assert validate["kinds"]["Play"]["token seal"] > 0 and validate["kinds"]["Play"]["views"] > 0
    assert validate["kinds"]["Validate"]["token seal"] == 0  # a Validate seals nothing
    assert validate["server_us_per_call"] > validate["measured_us_per_call"] > 0
    assert result["ratio_to_noop"]["noop"] == 1.0 and result["ratio_to_noop"]["validate"] > 0
