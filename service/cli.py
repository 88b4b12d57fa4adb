"""The ``referee`` command: serve, version, demo, selfplay, legal, classify, bench, load, and
the commands the games add (``service/games/<game>.py``: ``referee fan``).

``legal`` and ``classify`` call the core the way the API does and, with ``--jsonl``, read one
JSON request a line on stdin and write one JSON answer a line (``{"error": ...}`` on bad input;
the request's ``id`` echoed first: ``service/jsonl.py``, the loop of every ``--jsonl`` command).
Modules are imported by the command that needs them: ``referee legal`` starts without gRPC.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import sys
import threading
import time

from referee.core.errors import RefereeError


# --- serve and version ----------------------------------------------------------------------------
def cmd_serve(args) -> int:
    """`referee serve`: one server process, or a supervisor of ``--workers`` processes."""
    from . import logjson
    from .server import Config, serve, serve_workers

    logjson.setup(args.log_level)
    config = Config(host=args.host, port=args.port, workers=args.workers, threads=args.threads,
                    state_cache=args.state_cache, max_concurrent=args.max_concurrent,
                    allow_caller_seed=args.allow_caller_seed,
                    key_file=args.key_file, metrics_port=args.metrics_port, grace=args.grace,
                    drain=args.drain, reuse_port=args.reuse_port, log_level=args.log_level,
                    http_port=args.http_port, cors_origins=tuple(args.cors_origin),
                    clock_tolerance_ms=args.clock_tolerance_ms)
    if args.workers > 1 and args.http_port == 0:
        raise SystemExit("--http-port 0 with --workers: give the HTTP port the workers share")
    return serve_workers(config) if args.workers > 1 else serve(config)


def cmd_version(args) -> int:
    """`referee version`: package versions and whether each hot module is the compiled one."""
    from importlib import metadata

    for dist in ("referee", "grpcio", "protobuf", "cryptography"):
        try:
            print(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            print(f"{dist} (not installed)")
    print(f"python {sys.version.split()[0]}")
    try:
        from referee.core import speedups

        loaded = speedups.loaded()
        state = ", ".join(f"{m}={'compiled' if c else 'interpreted'}" for m, c in loaded.items())
    except ImportError as error:
        state = f"unavailable ({error})"
    print(f"hot modules: {state or 'none'}")
    return 0


# --- bots through the API -------------------------------------------------------------------------
@contextlib.contextmanager
def _stub(target: str | None):
    """A RefereeService stub to ``target``, or to a server started here on 127.0.0.1, port 0."""
    import grpc

    from referee.v1 import referee_service_pb2_grpc as pb_grpc

    from .server import Config, RefereeServer
    from .token import KeyRing

    with contextlib.ExitStack() as stack:
        if not target:  # an embedded server for tests and demos: it takes the caller's seeds
            server = stack.enter_context(RefereeServer(Config(port=0, allow_caller_seed=True), KeyRing.generate()))
            target = server.address
        channel = stack.enter_context(grpc.insecure_channel(target))
        grpc.channel_ready_future(channel).result(timeout=10)
        yield pb_grpc.RefereeServiceStub(channel)


def _event_line(e) -> str:
    parts = [f"{e.type:<9}", f"seat {e.seat}" if e.seat >= 0 else "      "]
    if e.cards.ids:
        parts.append(e.cards.text)
    if e.HasField("combination"):
        parts.append(f"[{e.combination.label}]")
    parts += [f"{k}={v}" for k, v in sorted(e.values.items())]
    return "  ".join(parts)


def cmd_demo(args) -> int:
    """`referee demo`: bots play one round through the API; the round is printed."""
    from referee.core.registry import get_game

    from . import bots

    from .server import Config, RefereeServer
    from .token import KeyRing

    game = get_game(args.game or _default_game())
    seed = hashlib.sha256(f"demo/{args.seed}".encode()).digest() if args.seed is not None else None
    with contextlib.ExitStack() as stack:
        server = None
        if not args.target:  # the embedded default, with the HTTP port and its page on any free port
            server = stack.enter_context(RefereeServer(Config(port=0, http_port=0, allow_caller_seed=True),
                                                       KeyRing.generate()))
        stub = stack.enter_context(_stub(args.target or server.address))
        played = bots.play_round(stub, random.Random(args.seed), game=game.id, seed=seed, as_seats=False,
                                 card_ids=game.notation.id_count)
        ok = _print_round(game, played)
        if server is not None:
            print(f"the page (ListGames, a deal and its views over Connect from the browser): {server.http.url}/")
            if args.keep_serving:
                print(f"serving gRPC on {server.address} and HTTP on {server.http.url} until Ctrl-C", flush=True)
                with contextlib.suppress(KeyboardInterrupt):
                    threading.Event().wait()
    return 0 if ok else 1


def _print_round(game, played) -> bool:
    deal, score = played.deal, played.score
    print(f"{game.name} through the gRPC API; commitment sha256(seed) = {deal.commitment.hex()}")
    for view in deal.views:
        print(f"  seat {view.seat} ({len(view.hand.ids)} cards): {view.hand.text}")
    print(f"  to act first: seat {deal.to_act[0]}")
    for n, (action, reply) in enumerate(zip(played.actions, played.plays), 1):
        for i, e in enumerate(reply.events):
            print(f"{n:>4}  {_event_line(e)}" if i == 0 else f"      {_event_line(e)}")
    s = score.settlement
    print(f"settlement: {s.outcome}; points {list(s.points)}, house {s.house}, winners {list(s.winners)}")
    print("  breakdown: " + ", ".join(f"{b.name}={b.value}" for b in s.breakdown))
    for name, labels in score.standings.items():
        print(f"  {name}: {list(labels.labels)}")
    ok = hashlib.sha256(score.seed).digest() == score.commitment == deal.commitment
    print(f"seed revealed: {score.seed.hex()}")
    print(f"sha256(seed) equals the commitment published at the deal: {'yes' if ok else 'NO'}")
    return ok


def cmd_selfplay(args) -> int:
    """`referee selfplay`: bots play N rounds (``--match``: N whole matches) through the API; one JSON
    summary line."""
    from referee.core.registry import get_game

    from . import bots

    game = get_game(args.game or _default_game())
    args.game = game.id
    if args.seats and not game.min_seats <= args.seats <= game.max_seats:
        print(json.dumps({"error": f"{game.id} is played by {game.min_seats}-{game.max_seats} seats, not {args.seats}",
                          "reason": "BAD_SEAT_COUNT"}))
        return 2
    rng = random.Random(args.seed)
    totals, outcomes = None, {}
    games = actions = rejected = 0
    zero_sum = True
    start = time.perf_counter()
    matches = []
    with _stub(args.target) as stub:
        for i in range(args.games):
            seed = None if args.server_seeds else hashlib.sha256(f"selfplay/{args.seed}/{i}".encode()).digest()
            previous, match_points = None, None
            while True:
                try:  # one credential per seat, as real clients hold them
                    played = bots.play_round(stub, rng, game=args.game, preset=args.preset, seed=seed,
                                             illegal_rate=args.illegal_rate, abandon_rate=args.abandon_rate,
                                             card_ids=game.notation.id_count, kinds=game.kind_names(),
                                             previous=previous, seats=args.seats)
                except bots.BotError as error:
                    print(json.dumps({"error": str(error), "game_index": i}))
                    return 1
                s = played.score.settlement
                totals = [a + b for a, b in zip(totals, s.points)] if totals else list(s.points)
                outcomes[s.outcome] = outcomes.get(s.outcome, 0) + 1
                zero_sum = zero_sum and sum(s.points) + s.house == 0
                games += 1
                actions += len(played.actions)
                rejected += played.rejected
                info = played.score.match
                if not args.match:
                    break
                counted = not (info.void_round or info.void_match)
                match_points = [a + (b if counted else 0) for a, b in zip(match_points or [0] * len(s.points),
                                                                       s.points)]
                if list(info.totals) != match_points and not info.void_match:
                    print(json.dumps({"error": f"match totals {list(info.totals)} are not the rounds' sum "
                                               f"{match_points}", "game_index": i}))
                    return 1
                if info.over or info.void_match or info.round + 1 >= args.max_rounds:
                    matches.append({"rounds": info.round + 1, "totals": match_points, "void": info.void_match,
                                    "over": info.over})  # a game without a round limit stops at --max-rounds
                    break
                previous = played
    summary = {"game": args.game, "seats": len(totals or ()), "games": games, "actions": actions, "rejected_actions": rejected,
               "score_totals": totals or [], "outcomes": outcomes, "zero_sum": zero_sum,
               "seconds": round(time.perf_counter() - start, 3)}
    if args.match:
        summary["matches"] = matches
    print(json.dumps(summary))
    return 0


# --- core helpers as JSON lines -------------------------------------------------------------------
def _bad_input(error: Exception) -> dict:
    return {"error": f"{type(error).__name__}: {error}"}


def _jsonl(answer) -> int:
    """Answer each stdin line with one JSON line (``service/jsonl.py``: the request's ``id``
    echoed); bad input gives {"error": ...} and goes on. ``answer`` returns a dict, or the JSON
    text of one."""
    from . import jsonl

    def checked(request):
        try:
            if not isinstance(request, dict):
                raise ValueError("a request is a JSON object")
            return answer(request)
        except RefereeError as error:
            return {"error": error.message, "reason": error.reason}
        except (ValueError, KeyError, TypeError) as error:
            return _bad_input(error)

    return jsonl.serve(checked, _bad_input)


def _text(request: dict, key: str, required: bool = True) -> str:
    value = request.get(key, None if required else "")
    if not isinstance(value, str):
        raise ValueError(f"{key!r} must be a string")
    return value


def _context(game, request: dict) -> dict:
    """A JSON line's ``context`` object of strings, checked against the game's hint context."""
    context = request.get("context") or {}
    if not isinstance(context, dict) or not all(isinstance(v, str) for v in context.values()):
        raise ValueError("'context' must be an object of strings")
    game.check_context(context)
    return context


_OPTIONS: dict = {}  # (game, preset, options JSON) -> Options, for the JSON-lines commands


def _options(game, args, request: dict):
    """The options of a JSON line: ``args.preset`` plus the line's ``options`` object (the same
    few option sets come back line after line: kept by their JSON text)."""
    overrides = request.get("options") or {}
    if not isinstance(overrides, dict):
        raise ValueError("'options' must be an object")
    key = (game.id, args.preset, json.dumps(overrides, sort_keys=True)) if overrides else (game.id, args.preset)
    options = _OPTIONS.get(key)
    if options is None:
        overrides = dict(overrides)
        preset = overrides.pop("preset", args.preset)  # a line may name its preset among its options
        if not isinstance(preset, str):
            raise ValueError("'preset' must be a string")
        options = _OPTIONS[key] = game.make_options(preset, overrides)
    return options


def _default_game() -> str:
    from referee.core.registry import GAMES

    return next(iter(GAMES))  # the first registered game (Dou Dizhu), not the first by name


def _game(args):
    from referee.core.registry import get_game

    return get_game(args.game or _default_game())


def cmd_legal(args) -> int:
    """`referee legal`: {"hand", "last"[, "context", "options"]} -> {"moves": [...]}, the game's
    ``hint_strings`` (capability "hints"); ``context`` says more of the table by the names of the
    game's ``hint_context`` (Dou Dizhu: ``{"table_kind": "airplane_singles"}``)."""
    game = _game(args)
    if "hints" not in game.capabilities():
        print(json.dumps({"error": f"game {game.id!r} has no text hints", "reason": "UNSUPPORTED"}))
        return 2
    hints = game.hint_json

    def answer(request):
        return hints(_text(request, "hand"), _text(request, "last", False),
                     _options(game, args, request), _context(game, request))

    if args.jsonl:
        return _jsonl(answer)
    print(answer({"hand": args.hand, "last": args.last}))
    return 0


def _reading(c) -> dict:
    return {"kind": c.kind, "label": c.label, "main_rank": c.main_rank, "chain": c.chain,
            "size": c.size, "ranks": c.rank_text}


def cmd_classify(args) -> int:
    """`referee classify`: {"cards"[, "options"]} -> {"readings": [...]}."""
    from . import convert

    game = _game(args)

    def answer(request):
        readings = game.classify(_text(request, "cards"), _options(game, args, request))
        return {"readings": [_reading(convert.combination(c, game.notation)) for c in readings]}

    if args.jsonl:
        return _jsonl(answer)
    print(json.dumps(answer({"cards": args.cards}), ensure_ascii=False))
    return 0


# --- load ----------------------------------------------------------------------------------------
def _loadtest_dir(given: str | None):
    """The loadtest/ folder: --loadtest-dir, REFEREE_LOADTEST_DIR, or ./loadtest of this or a parent folder."""
    from pathlib import Path

    given = given or os.environ.get("REFEREE_LOADTEST_DIR")
    candidates = [Path(given)] if given else [p / "loadtest" for p in (Path.cwd(), *Path.cwd().parents)]
    for folder in candidates:
        if (folder / "runner.py").is_file():
            return folder
    return None


def cmd_load(args) -> int:
    """`referee load`: Locust against a server started here; the work is in loadtest/runner.py."""
    import importlib.util

    folder = _loadtest_dir(args.loadtest_dir)
    if folder is None:
        print("referee load: no loadtest/runner.py here or above (run it in a checkout, or --loadtest-dir)",
              file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("referee_loadtest_runner", folder / "runner.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    return runner.run(args)


# --- the parser -----------------------------------------------------------------------------------
def cmd_bench(args) -> int:
    from . import bench

    return bench.bench(args)


BUILTIN = ("serve", "version", "demo", "selfplay", "legal", "classify", "bench", "load", "verify", "fuzz")


def cmd_verify(args) -> int:
    from . import verify

    return verify.cmd_verify(args)


def cmd_fuzz(args) -> int:
    from . import fuzz

    return fuzz.cmd_fuzz(args)


def parser(game_commands: bool = True) -> argparse.ArgumentParser:
    """The argument parser of every sub-command (``game_commands``: with the games' own)."""
    top = argparse.ArgumentParser(prog="referee", description="Stateless gRPC referee for Chinese card games.")
    sub = top.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve", help="run the gRPC server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=50051)
    p.add_argument("--workers", type=int, default=1, help="processes sharing the port (SO_REUSEPORT)")
    p.add_argument("--threads", type=int, default=4, help="handler threads per process")
    p.add_argument("--state-cache", type=int, default=4096,
                   help="states of the tokens a process sealed lately, kept to skip opening them (0: off)")
    p.add_argument("--clock-tolerance-ms", type=int, default=500,
                   help="turn clocks: how far pods' clocks may differ; an action is late, and a seat's default "
                        "may be applied, only past its deadline plus this")
    p.add_argument("--max-concurrent", type=int, default=64,
                   help="calls in progress or waiting per process; more are refused at once (0: no limit)")
    p.add_argument("--allow-caller-seed", action="store_true",
                   help="tests and demos only: accept Deal seeds and let Replay return a live state")
    p.add_argument("--key-file", default=os.environ.get("REFEREE_KEY_FILE"),
                   help='token keys JSON {"active": id, "keys": {id: base64}} (env REFEREE_KEY_FILE)')
    p.add_argument("--metrics-port", type=int, default=0, help="Prometheus port (0: off; worker i: +i)")
    p.add_argument("--grace", type=float, default=10.0, help="seconds calls in flight may finish")
    p.add_argument("--drain", type=float, default=5.0, help="seconds NOT_SERVING before stopping")
    p.add_argument("--log-level", default="INFO")
    p.add_argument("--http-port", type=int, default=None,
                   help="also serve the API over HTTP: Connect (JSON, binary) and gRPC-Web (0: any free port)")
    p.add_argument("--cors-origin", action="append", default=[],
                   help="an origin whose browser pages may call the HTTP port (repeatable; '*': any)")
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("version", help="versions and whether the compiled core is loaded")
    p.set_defaults(func=cmd_version)

    p = sub.add_parser("demo", help="play one round with bots through the API (the first game by default)")
    p.add_argument("--game", default="", help="game id (default: the first registered game)")
    p.add_argument("--seed", type=int, help="reproducible deal and bots")
    p.add_argument("--target", help="HOST:PORT of a running server (default: start one)")
    p.add_argument("--keep-serving", action="store_true",
                   help="after the round, keep the started server (gRPC and the HTTP page) up until Ctrl-C")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("selfplay", help="bots play N games through the API; prints a JSON summary")
    p.add_argument("--game", default="", help="game id (default: the first registered game)")
    p.add_argument("--preset", default="")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seats", type=int, default=0, help="seats at each table (default: the game's default)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--target", help="HOST:PORT of a running server (default: start one)")
    p.add_argument("--illegal-rate", type=float, default=0.05, help="chance per turn of an illegal try")
    p.add_argument("--abandon-rate", type=float, default=0.002, help="chance per turn of an escape")
    p.add_argument("--server-seeds", action="store_true",
                   help="let the server draw every seed (a --target without --allow-caller-seed)")
    p.add_argument("--match", action="store_true",
                   help="--games whole matches (够级: 局), each round dealt from the last one's token")
    p.add_argument("--max-rounds", type=int, default=50,
                   help="with --match: stop a match after this many counted rounds (a game without a limit)")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("legal", help='legal plays: {"hand": "...", "last": "..."} -> {"moves": [...]}')
    p.add_argument("--game", default="", help="game id (default: the first registered game)")
    p.add_argument("--preset", default="")
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin -> JSON lines on stdout")
    p.add_argument("--hand", default="")
    p.add_argument("--last", default="")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("classify", help='readings: {"cards": "..."} -> {"readings": [...]}')
    p.add_argument("--game", default="", help="game id (default: the first registered game)")
    p.add_argument("--preset", default="")
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin -> JSON lines on stdout")
    p.add_argument("--cards", default="")
    p.set_defaults(func=cmd_classify)

    p = sub.add_parser("bench", help="throughput: Validate vs Ping RPCs/s (and the core)")
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--game", default="", help="game of the Validate calls (default: the first registered game)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("load", help="Locust plays games against a server started here; table + JSON line")
    p.add_argument("--workers", type=int, default=1, help="server processes")
    p.add_argument("--users", type=int, default=16, help="Locust users (one connection each)")
    p.add_argument("--seconds", type=int, default=20, help="run time")
    p.add_argument("--profile", choices=("games", "validate", "noop", "batch"), default="games")
    p.add_argument("--max-p99-ms", type=float, default=0, help="exit 1 when the worst call's p99 is above (0: off)")
    p.add_argument("--out", help="report folder (default loadtest/out/PROFILE-wN-TIME)")
    p.add_argument("--rate", type=float, default=0, help="calls/s of all users together (0: unpaced)")
    p.add_argument("--threads", type=int, default=4, help="server handler threads per process")
    p.add_argument("--client-processes", type=int, default=1, help="Locust processes (--processes)")
    p.add_argument("--tables", type=int, default=50, help="batch profile: tables per user")
    p.add_argument("--games", default="", help="comma-separated game ids to play (default: every registered game)")
    p.add_argument("--seed", type=int, default=0, help="seed of the users' choices")
    p.add_argument("--timeout-rate", type=float, default=-1.0,
                   help="games profiles: share of tables with a seat that never answers, its defaults applied by "
                        "the owner once its deadline passes (-1: the locustfile's 0.03)")
    p.add_argument("--rounds-each", type=int, default=0,
                   help="stop once every game and preset has played out this many rounds (--seconds: the "
                        "limit); exit 1 when one has not")
    p.add_argument("--server-cpus", default="",
                   help="CPUs the server's processes run on, e.g. 1 or 0,1 (default: any)")
    p.add_argument("--client-cpus", default="", help="CPUs Locust runs on, e.g. 0 (default: any)")
    p.add_argument("--seats", default="",
                   help="seats of some games' tables, e.g. chuanpai=7,q783=6 (default: each game's own)")
    p.add_argument("--warmup", type=int, default=0,
                   help="seconds of the same load before the measured window (the server's caches filled)")
    p.add_argument("--locustfile", help=argparse.SUPPRESS)
    p.add_argument("--server-script", help=argparse.SUPPRESS)  # loadtest/instrumented_serve.py
    p.add_argument("--loadtest-dir", help="the loadtest/ folder (default: ./loadtest here or above)")
    p.set_defaults(func=cmd_load)

    p = sub.add_parser("verify", help="re-derive every card of a round from the owner's Score answer (JSON)")
    p.add_argument("file", nargs="?", help="the Score answer as JSON (default: stdin)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("fuzz", help="random and mutated requests against every RPC; counts per status code")
    p.add_argument("--target", help="HOST:PORT of a running server (default: start one)")
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_fuzz)

    if game_commands:
        from . import games

        for module in games.modules().values():
            if hasattr(module, "add_commands"):
                module.add_commands(sub)
    return top


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``referee`` console script."""
    for stream in (sys.stdout, sys.stdin):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    argv = sys.argv[1:] if argv is None else argv
    # the games' commands are loaded unless a built-in one is asked for (a fast start)
    args = parser(game_commands=not argv or argv[0] not in BUILTIN).parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except RefereeError as error:
        print(json.dumps({"error": error.message, "reason": error.reason}), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
