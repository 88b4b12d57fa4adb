"""`referee load` run by a measurement script (breakdown.py, bars.py, scaling.py): one run, its
JSON summary (the last line it prints)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path


def referee_load(options: list[str], *, env: dict | None = None, timeout: float | None = None,
                 strict: bool = True) -> dict:
    """``referee load OPTIONS``'s JSON summary. Raises SystemExit when it printed none or, with
    ``strict``, when it exited non-zero (failed calls or games: exit 1)."""
    referee = shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"
    proc = subprocess.run([referee, "load", *options], env=env, capture_output=True, text=True, timeout=timeout)
    lines = proc.stdout.strip().splitlines()
    if (strict and proc.returncode) or not lines or not lines[-1].startswith("{"):
        raise SystemExit(f"referee load {' '.join(options)} exited {proc.returncode}:\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return json.loads(lines[-1])
