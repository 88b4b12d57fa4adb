"""`referee serve` with the steps of a call timed: where a Play's CPU goes under load.

Wraps the functions a call goes through (token open and seal, packing, encryption, the state
cache, the digest, action conversion, the rules, events and views) to add their thread CPU
time (``time.thread_time``) to a total per step and game. Nested steps count in both (sealing
includes packing). SIGUSR1 or the end writes ``{step: {game: [calls, us_each]}}`` to the file
named by REFEREE_STAGES_OUT. Compare with the same steps alone (``referee bench``,
``loadtest/RESULTS.md``):

    REFEREE_STAGES_OUT=/tmp/stages.json referee load --workers 1 --seconds 15 \\
        --server-script loadtest/stages_serve.py
"""
import atexit
import json
import os
import signal
import sys
import time

from referee.core.registry import GAMES
from referee.service import cli, convert, servicer, token

_totals: dict[tuple[str, str], list] = {}


def _timed(step: str, function, game_of):
    def call(*args, **kwargs):
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            entry = _totals.setdefault((step, game_of(args)), [0, 0.0])
            entry[0] += 1
            entry[1] += time.thread_time() - start
    return call


def _game_id(args) -> str:
    """The game of a call: a Game, an opened Table or a game id among the arguments, else "-"."""
    for a in args:
        if isinstance(a, servicer.Table):
            return a.game.id
        if getattr(a, "id", None) in GAMES:
            return a.id
        if isinstance(a, str) and a in GAMES:
            return a
    return "-"


def install() -> None:
    """Wrap the steps (once per process)."""
    for game in {type(g) for g in GAMES.values()}:
        for name in ("apply", "check", "legal_actions", "views", "pack", "unpack"):
            setattr(game, name, _timed(f"rules.{name}", getattr(game, name), _game_id))
    S = servicer.RefereeServicer
    S._seal = _timed("seal (pack, encrypt, cache, digest)", S._seal, _game_id)
    S._open = _timed("open (cache or decrypt + unpack)", S._open, lambda a: "-")
    servicer.RecentStates.put = _timed("state cache put", servicer.RecentStates.put, lambda a: "-")
    token.Sealer.seal = _timed("encrypt", token.Sealer.seal, _game_id)
    servicer._digest = _timed("digest", servicer._digest, _game_id)
    servicer._events = _timed("events", servicer._events, _game_id)
    servicer._views = _timed("views (core + conversion)", servicer._views, _game_id)
    convert.action_in = _timed("action_in", convert.action_in, lambda a: "-")


def report() -> dict:
    """{step: {game: [calls, µs each]}} so far."""
    out: dict = {}
    for (step, game), (n, spent) in sorted(_totals.items()):
        out.setdefault(step, {})[game] = [n, round(1e6 * spent / n, 1)]
    return out


def serve_writing(snapshot, path_variable: str, default: str) -> int:
    """``referee`` (argv) with ``snapshot()`` written as JSON to the file named by
    ``path_variable`` on SIGUSR1, SIGTERM and exit (the steps installed beforehand)."""
    def dump(*_):
        path = os.environ.get(path_variable, default)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(snapshot(), f, indent=1)
        os.replace(path + ".tmp", path)

    signal.signal(signal.SIGUSR1, dump)
    signal.signal(signal.SIGTERM, lambda *_: (dump(), os._exit(0)))
    atexit.register(dump)
    return cli.main(sys.argv[1:])


if __name__ == "__main__":
    install()
    sys.exit(serve_writing(report, "REFEREE_STAGES_OUT", "stages.json"))
