"""``referee fuzz``: random and mutated requests, with and without credentials, against every RPC
of every service the server offers; the count of answers per status code is printed.

The requests grow from a pool of valid ones (tables of every game dealt and played a little,
their tokens, credentials, sealed seeds and answers): each try takes one, then mutates it as a
message (a field replaced by a random value, a token or credential of another table, a huge
repeated field) or as bytes (bits flipped, truncated, spliced, random bytes), and sends it with
no credential, the right one, another seat's, another table's or garbage. Any INTERNAL or
UNKNOWN answer is a bug: the command exits 1 and prints the first few requests that caused them.
"""
from __future__ import annotations

import base64
import collections
import contextlib
import json
import random
import time

import grpc
from google.protobuf import message_factory

from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

from .credentials import bearer

BAD = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)


class Pool:
    """Valid requests and the material to spoil them with, from tables played a little."""

    def __init__(self, stub, rnd: random.Random, games: list):
        self.rnd, self.tokens, self.credentials, self.requests = rnd, [], [], collections.defaultdict(list)
        self.answers, self.seeds = [], []
        for info in games:
            for k in range(3):
                self._table(stub, info, k)
        commit = stub.Commit(pb.CommitRequest(client_entropy=b"fuzz"))
        self.seeds.append(commit.sealed_seed)
        self.requests["Commit"].append(pb.CommitRequest(client_entropy=b"x"))
        self.requests["ListGames"].append(pb.ListGamesRequest())
        self.requests["Ping"].append(pb.PingRequest())
        for info in games:
            self.requests["Deal"].append(pb.DealRequest(game=info.id, sealed_seed=commit.sealed_seed))
            self.requests["Classify"].append(pb.ClassifyRequest(game=info.id))
            self.requests["Compare"].append(pb.CompareRequest(game=info.id))

    def _table(self, stub, info, k: int) -> None:
        deal = stub.Deal(pb.DealRequest(game=info.id))
        owner = (bearer(deal.owner_credential),)
        self.credentials += [deal.owner_credential, *deal.seat_credentials]
        state, to_act = deal.state, deal.to_act
        for _ in range(self.rnd.randrange(1, 30)):
            seat = to_act[0]
            legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat), metadata=owner)
            action = self.rnd.choice(legal.actions).action
            self.requests["Validate"].append(pb.ValidateRequest(state=state, action=action))
            self.requests["Play"].append(pb.PlayRequest(state=state, action=action))
            self.requests["LegalActions"].append(pb.LegalActionsRequest(state=state, seat=seat))
            self.requests["GetView"].append(pb.GetViewRequest(state=state))
            self.tokens.append(state)
            seat_reply = stub.Play(pb.PlayRequest(state=state, action=action),
                                   metadata=(bearer(deal.seat_credentials[seat]),))
            if seat_reply.answer:
                self.answers.append(seat_reply.answer)
                self.requests["Play"].append(pb.PlayRequest(state=state, answers=[seat_reply.answer]))
            reply = stub.Play(pb.PlayRequest(state=state, action=action), metadata=owner)
            state, to_act = reply.state, reply.to_act
            if reply.finished:
                break
        self.tokens.append(state)
        self.requests["Score"].append(pb.ScoreRequest(state=state))
        self.requests["Deal"].append(pb.DealRequest(previous_state=state))
        self.requests["JudgeBatch"].append(pb.JudgeBatchRequest(items=[
            pb.JudgeItem(legal_actions=r, credential=deal.owner_credential) for r in self.requests["LegalActions"][-3:]]))
        self.requests["Replay"].append(pb.ReplayRequest(game=info.id, seed=b"fuzz", actions=[
            r.action for r in self.requests["Play"][-5:] if r.HasField("action")]))

    def blob(self) -> bytes:
        """A token, credential, sealed seed or answer (bytes that often open), or noise."""
        choice = self.rnd.random()
        if choice < 0.3 and self.tokens:
            return self.rnd.choice(self.tokens)
        if choice < 0.45 and self.credentials:
            return self.rnd.choice(self.credentials)
        if choice < 0.55 and self.answers:
            return self.rnd.choice(self.answers)
        if choice < 0.6 and self.seeds:
            return self.rnd.choice(self.seeds)
        return self.rnd.randbytes(self.rnd.choice((0, 1, 16, 40, 300, 5000)))


def _random_value(field, rnd: random.Random, pool: Pool):
    kind = field.type
    if kind == field.TYPE_STRING:
        return rnd.choice(["", "PLAY", "PASS", "BID", "WIN", "doudizhu", "mcr", "3S 3H", "BR", "W1 W2",
                           "x" * rnd.choice((1, 100, 9000)), "\u9f99\u0000\ud7ff", "ABANDON", "CHOW"])
    if kind == field.TYPE_BYTES:
        return pool.blob()
    if kind == field.TYPE_BOOL:
        return rnd.random() < 0.5
    if kind in (field.TYPE_INT32, field.TYPE_SINT32, field.TYPE_SFIXED32):
        return rnd.choice((0, 1, -1, 7, 2**31 - 1, -(2**31)))
    if kind in (field.TYPE_UINT32, field.TYPE_FIXED32):
        return rnd.choice((0, 1, 3, 54, 143, 2**32 - 1))
    if kind in (field.TYPE_INT64, field.TYPE_SINT64, field.TYPE_SFIXED64):
        return rnd.choice((0, -1, 10**15, 2**63 - 1, -(2**63)))
    if kind in (field.TYPE_UINT64, field.TYPE_FIXED64):
        return rnd.choice((0, 1, 2**64 - 1))
    if kind == field.TYPE_ENUM:
        return rnd.choice([v.number for v in field.enum_type.values])
    return None


def mutate(message, rnd: random.Random, pool: Pool, depth: int = 0) -> None:
    """Spoil one field of ``message`` (recursing into sub-messages)."""
    fields = message.DESCRIPTOR.fields
    if not fields:
        return
    field = rnd.choice(fields)
    target = getattr(message, field.name)
    if field.message_type is not None:
        if field.message_type.GetOptions().map_entry:
            key = rnd.choice(["first_bidder", "dealer", "scoring", "x" * 300, "", "hands"])
            if field.message_type.fields_by_name["value"].message_type is not None:
                value = target[key]
                which = rnd.choice(["bool_value", "int_value", "string_value"])
                setattr(value, which, {"bool_value": True, "int_value": rnd.choice((0, -1, 2**62)),
                                       "string_value": "coins_rake"}[which])
            else:
                target[key] = _random_value(field.message_type.fields_by_name["value"], rnd, pool)
        elif field.is_repeated:
            for _ in range(rnd.choice((1, 2, 50, 600))):
                if depth < 2:
                    mutate(target.add(), rnd, pool, depth + 1)
                else:
                    target.add()
        elif depth < 3:
            mutate(target, rnd, pool, depth + 1)
        return
    value = _random_value(field, rnd, pool)
    if value is None:
        return
    if field.is_repeated:
        target.extend([value] * rnd.choice((1, 3, 500)))
    else:
        setattr(message, field.name, value)


def spoil_bytes(data: bytes, rnd: random.Random) -> bytes:
    data = bytearray(data)
    how = rnd.randrange(4)
    if how == 0 and data:
        for _ in range(rnd.randrange(1, 8)):
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
    elif how == 1 and data:
        del data[rnd.randrange(len(data)):]
    elif how == 2:
        at = rnd.randrange(len(data) + 1)
        data[at:at] = rnd.randbytes(rnd.randrange(1, 64))
    else:
        data = bytearray(rnd.randbytes(rnd.randrange(0, 200)))
    return bytes(data)


def _credential(rnd: random.Random, pool: Pool):
    pick = rnd.random()
    if pick < 0.3:
        return ()
    if pick < 0.8:
        return (bearer(rnd.choice(pool.credentials)),)
    if pick < 0.9:
        return (("authorization", "Bearer " + base64.urlsafe_b64encode(rnd.randbytes(30)).decode()),)
    return (("authorization", rnd.choice(["Basic x", "Bearer", "Bearer !!!", "bearer " + "A" * 5000])),)


@contextlib.contextmanager
def _channel(target: str | None):
    with contextlib.ExitStack() as stack:
        if not target:
            from .server import Config, RefereeServer
            from .token import KeyRing

            server = stack.enter_context(RefereeServer(Config(port=0), KeyRing.generate()))
            target = server.address
        channel = stack.enter_context(grpc.insecure_channel(target))
        grpc.channel_ready_future(channel).result(timeout=10)
        yield channel


def fuzz(channel, seconds: float = 0.0, seed: int = 0, calls: int = 0) -> dict:
    """Fuzz for ``seconds``, or for exactly ``calls`` calls (the same calls on every run of one
    seed, however busy the machine): {"calls", "codes": {method: {code: n}}, "bad": [examples]}."""
    from . import games

    rnd = random.Random(seed)
    stub = pb_grpc.RefereeServiceStub(channel)
    infos = list(stub.ListGames(pb.ListGamesRequest()).games)
    pool = Pool(stub, rnd, infos)
    services = [pb.DESCRIPTOR.services_by_name["RefereeService"]] + [s for s, _ in games.services()]
    methods = [(f"/{s.full_name}/{m.name}", m) for s in services for m in s.methods]
    stubs = {path: channel.unary_unary(path) for path, _ in methods}
    codes: dict = collections.defaultdict(collections.Counter)
    bad, total, deadline = [], 0, time.monotonic() + seconds
    while total < calls if calls else time.monotonic() < deadline:
        path, method = rnd.choice(methods)
        cls = message_factory.GetMessageClass(method.input_type)
        seeds = pool.requests.get(method.name)
        request = cls()
        if seeds and rnd.random() < 0.8:
            request.CopyFrom(rnd.choice(seeds))
        for _ in range(rnd.choice((0, 1, 1, 2, 3))):
            mutate(request, rnd, pool)
        data = request.SerializeToString()
        if rnd.random() < 0.25:
            data = spoil_bytes(data, rnd)
        try:
            stubs[path](data, metadata=_credential(rnd, pool), timeout=30)
            code = grpc.StatusCode.OK
        except grpc.RpcError as error:
            code = error.code()
        total += 1
        codes[method.name][code.name] += 1
        if code in BAD and len(bad) < 5:
            bad.append({"method": path, "request": base64.b64encode(data[:300]).decode(), "code": code.name})
    return {"calls": total, "codes": {m: dict(c) for m, c in sorted(codes.items())}, "bad": bad}


def cmd_fuzz(args) -> int:
    with _channel(args.target) as channel:
        report = fuzz(channel, args.seconds, args.seed)
    statuses = sorted({code for counts in report["codes"].values() for code in counts})
    print(f"{'method':<16}" + "".join(f"{s[:18]:>20}" for s in statuses))
    for method, counts in report["codes"].items():
        print(f"{method:<16}" + "".join(f"{counts.get(s, 0):>20}" for s in statuses))
    bad = sum(counts.get(code.name, 0) for counts in report["codes"].values() for code in BAD)
    print(json.dumps({**report, "internal_or_unknown": bad, "seconds": args.seconds}))
    return 1 if bad else 0
