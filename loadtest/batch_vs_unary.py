"""Judged actions per server core: JudgeBatch against unary Validate + Play, in one run.

One server worker (``referee serve --allow-caller-seed`` on 127.0.0.1, a free port: the
recorded rounds are dealt again from their seeds) judges the same recorded games both ways.
First bots play ``--games`` Dou Dizhu rounds from fixed seeds through the unary API (the
owner acting for every seat: LegalActions, Play) and their actions are kept. Then windows
alternate: a *unary* window deals ``--unary-tables`` tables (not measured) and replays their
actions with one Validate and one Play call per action from ``--clients`` threads; a *batch*
window deals ``--batch-tables`` tables and replays them through JudgeBatch, one call per round
carrying a Validate item and a Play item for every table still playing (``--batch`` tables per
call, ``--batch-clients`` threads: a backend keeps a few batches in flight on its connection).
Every call carries the table's owner credential (batch items each their own).
Every answer is checked (the verdict is legal, the play is accepted with seq + 1, the last
action finishes the round, the settlement adds up). A judged action is one Validate or Play
answer; per window we take the server worker's CPU seconds (psutil) and the wall time.

Prints per-window lines, the medians, and one JSON line with ``unary_per_core``,
``batch_per_core`` (judged actions per server CPU-second) and their ratio.

    .venv/bin/python loadtest/batch_vs_unary.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from runner import Server  # noqa: E402

from referee.service import bots  # noqa: E402
from referee.service.credentials import bearer  # noqa: E402
from referee.v1 import referee_service_pb2 as pb  # noqa: E402
from referee.v1 import referee_service_pb2_grpc as pb_grpc  # noqa: E402


class Failed(Exception):
    """The referee answered what it must not."""


def record(stub, games: int, seed: int) -> list[tuple[bytes, list]]:
    """(deal seed, actions) of ``games`` rounds played by bots through the unary API."""
    rng = random.Random(seed)
    scripts = []
    for i in range(games):
        deal_seed = hashlib.sha256(f"batch-vs-unary/{seed}/{i}".encode()).digest()
        played = bots.play_round(stub, rng, game="doudizhu", seed=deal_seed, as_seats=False)
        scripts.append((deal_seed, list(played.actions)))
    return scripts


def deal_tables(stub, scripts, count: int, offset: int) -> list[list]:
    """``count`` tables [state, seq, actions, deal commitment, owner credential] dealt from the
    recorded seeds."""
    tables = []
    for i in range(count):
        seed, actions = scripts[(offset + i) % len(scripts)]
        deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=seed))
        tables.append([deal.state, deal.seq, actions, deal.commitment, deal.owner_credential])
    return tables


def check_pair(verdict: pb.ValidateResponse, play: pb.PlayResponse, table: list) -> None:
    if not verdict.legal:
        raise Failed(f"a recorded legal action judged illegal: {verdict.message}")
    if play.seq != table[1] + 1:
        raise Failed(f"play: seq {play.seq} after {table[1]}")
    if play.finished != (play.seq == len(table[2])):
        raise Failed(f"play {play.seq} of {len(table[2])}: finished={play.finished}")


def unary_worker(stub, tables: list[list]) -> int:
    judged = 0
    for table in tables:
        owner = (bearer(table[4]),)
        for action in table[2]:
            verdict = stub.Validate(pb.ValidateRequest(state=table[0], action=action, expected_seq=table[1]),
                                    metadata=owner)
            play = stub.Play(pb.PlayRequest(state=table[0], action=action, expected_seq=table[1]), metadata=owner)
            check_pair(verdict, play, table)
            table[0], table[1] = play.state, play.seq
            judged += 2
    return judged


def batch_worker(stub, tables: list[list], size: int) -> int:
    judged = 0
    for start in range(0, len(tables), size):
        live = tables[start:start + size]
        while live:
            items = []
            for t in live:
                action = t[2][t[1]]
                items.append(pb.JudgeItem(validate=pb.ValidateRequest(state=t[0], action=action, expected_seq=t[1]),
                                          credential=t[4]))
                items.append(pb.JudgeItem(play=pb.PlayRequest(state=t[0], action=action, expected_seq=t[1]),
                                          credential=t[4]))
            results = stub.JudgeBatch(pb.JudgeBatchRequest(items=items)).results
            for n, t in enumerate(live):
                verdict, play = results[2 * n], results[2 * n + 1]
                if verdict.WhichOneof("result") != "validate" or play.WhichOneof("result") != "play":
                    raise Failed(f"batch item error: {verdict.error.message or play.error.message}")
                check_pair(verdict.validate, play.play, t)
                t[0], t[1] = play.play.state, play.play.seq
            judged += len(items)
            live = [t for t in live if t[1] < len(t[2])]
    return judged


def window(server: Server, stub, tables: list[list], clients: int, work) -> tuple[int, float, float]:
    """Run ``work(stub, share)`` in ``clients`` threads: (judged, wall s, server CPU s)."""
    shares = [tables[i::clients] for i in range(clients)]
    counts, errors = [0] * clients, []

    def run(i: int) -> None:
        try:
            counts[i] = work(stub, shares[i])
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    cpu0, wall0 = server.cpu(), time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall, cpu = time.perf_counter() - wall0, server.cpu() - cpu0
    if errors:
        raise errors[0]
    return sum(counts), wall, cpu


def settle(stub, tables: list[list]) -> None:
    for state, seq, actions, commitment, owner in tables:
        if seq != len(actions):
            raise Failed(f"a round stopped at {seq} of {len(actions)} actions")
        score = stub.Score(pb.ScoreRequest(state=state, reveal_abandoned=True), metadata=(bearer(owner),))  # with the seed
        s = score.settlement
        if sum(s.points) + s.house != 0 or hashlib.sha256(score.seed).digest() != commitment:
            raise Failed("a settlement does not add up or the seed does not match")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=60, help="recorded rounds")
    p.add_argument("--rounds", type=int, default=5, help="unary + batch window pairs")
    p.add_argument("--unary-tables", type=int, default=40)
    p.add_argument("--batch-tables", type=int, default=400)
    p.add_argument("--batch", type=int, default=200, help="tables per JudgeBatch call (2 items each)")
    p.add_argument("--clients", type=int, default=4, help="client threads of the unary windows")
    p.add_argument("--batch-clients", type=int, default=2, help="client threads of the batch windows")
    p.add_argument("--threads", type=int, default=4, help="server handler threads")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rows = {"unary": [], "batch": []}
    with tempfile.TemporaryDirectory() as tmp, \
            Server(1, args.threads, Path(tmp) / "server.log", allow_caller_seed=True) as server:
        server.wait_ready()
        options = [("grpc.max_receive_message_length", 64 << 20)]
        with grpc.insecure_channel(server.address, options=options) as channel:
            stub = pb_grpc.RefereeServiceStub(channel)
            scripts = record(stub, args.games, args.seed)
            actions = sum(len(a) for _, a in scripts)
            print(f"recorded {len(scripts)} rounds, {actions / len(scripts):.1f} actions a round; "
                  f"server worker pid {server.procs[0].pid}", flush=True)
            try:
                for r in range(args.rounds):
                    for mode in ("unary", "batch"):
                        count = args.unary_tables if mode == "unary" else args.batch_tables
                        tables = deal_tables(stub, scripts, count, r * count)
                        work = unary_worker if mode == "unary" else (
                            lambda s, share: batch_worker(s, share, args.batch))
                        clients = args.clients if mode == "unary" else args.batch_clients
                        judged, wall, cpu = window(server, stub, tables, clients, work)
                        settle(stub, tables)
                        rows[mode].append((judged / cpu, judged / wall))
                        print(f"  round {r + 1} {mode:<5} {judged:>7} judged in {wall:6.2f} s, server CPU {cpu:6.2f} s: "
                              f"{judged / cpu:8.0f} per server CPU-s, {judged / wall:8.0f}/s wall", flush=True)
            except (Failed, grpc.RpcError) as error:
                print(f"FAILED: {error}", file=sys.stderr)
                return 1
    unary = statistics.median(c for c, _ in rows["unary"])
    batch = statistics.median(c for c, _ in rows["batch"])
    unary_wall = statistics.median(w for _, w in rows["unary"])
    batch_wall = statistics.median(w for _, w in rows["batch"])
    print(f"median judged actions per server CPU-second: unary {unary:.0f}, batch {batch:.0f}, "
          f"ratio {batch / unary:.1f}x (target >= 5x)")
    print(json.dumps({"unary_per_core": round(unary), "batch_per_core": round(batch), "ratio": round(batch / unary, 2),
                      "unary_per_s_wall": round(unary_wall), "batch_per_s_wall": round(batch_wall),
                      "rounds": args.rounds, "batch_tables_per_call": args.batch, "clients": args.clients,
                      "batch_clients": args.batch_clients}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
