"""`referee load` run by a measurement script (breakdown.py, bars.py, scaling.py): one run, its
JSON summary (the last line it prints); or, for a script that attaches a profiler to the server
while the users run (profile_server.py, native_split.py), the moment they run."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path


def referee() -> str:
    """The ``referee`` command beside this interpreter (its virtualenv's), else the one on PATH."""
    return shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"


def until_users_run(lines, seen: list[str], echo=None) -> tuple[int, float]:
    """Read ``referee load``'s output ``lines`` (appended to ``seen``, each passed to ``echo``)
    until its users run: (the server worker's pid, seconds left of the run). Raises SystemExit
    when the output ends first."""
    pid = None
    for line in lines:  # "server 127.0.0.1:N, pids [P]", then "  6.0/30 s  users   20  ..."
        seen.append(line)
        if echo:
            echo(line)
        if pid is None and (m := re.search(r"pids \[(\d+)", line)):
            pid = int(m[1])
        if pid is not None and (m := re.search(r"([\d.]+)/(\d+) s +users +[1-9]", line)):
            return pid, float(m[2]) - float(m[1])
    raise SystemExit("referee load printed no server pid or no running users:\n" + "".join(seen[-20:]))


def referee_load(options: list[str], *, env: dict | None = None, timeout: float | None = None,
                 strict: bool = True) -> dict:
    """``referee load OPTIONS``'s JSON summary. Raises SystemExit when it printed none or, with
    ``strict``, when it exited non-zero (failed calls or games: exit 1)."""
    proc = subprocess.run([referee(), "load", *options], env=env, capture_output=True, text=True, timeout=timeout)
    lines = proc.stdout.strip().splitlines()
    if (strict and proc.returncode) or not lines or not lines[-1].startswith("{"):
        raise SystemExit(f"referee load {' '.join(options)} exited {proc.returncode}:\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return json.loads(lines[-1])
