"""Sealed tokens (format 2): round trip, nonces, tampering with every header field, wrong game or
kind, one length per game, key rotation, key sources."""
import base64
import json
import logging
import os
import random
import re
from pathlib import Path

import grpc
import pytest

from referee.core import clock as clocks
from referee.core import rng
from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.registry import GAMES, get_game
from referee.service import token as token_module
from referee.service.credentials import bearer
from referee.service.token import ANSWER, CALLER_SEED, CLOCKED, ENV_KEYS, SEED, STATE, KeyRing, Sealer, check_seq
from referee.v1 import actions_pb2, options_pb2
from referee.v1 import referee_service_pb2 as pb

K1, K2 = bytes(range(32)), bytes(range(32, 64))
PAYLOAD = b"packed state bytes" * 8
TABLE = bytes(range(100, 116))
KINDS = (STATE, SEED, ANSWER)


def _invalid(sealer: Sealer, token: bytes, game=None, kind=STATE):
    with pytest.raises(InvalidAction) as caught:
        sealer.open(token, game, kind)
    assert caught.value.reason == Reason.STATE_TOKEN_INVALID


def _fields(token: bytes) -> dict[str, slice]:
    """Where each field of a format-2 token lies (see service/token.py)."""
    kid = slice(2, 2 + token[1])
    game = slice(kid.stop + 1, kid.stop + 1 + token[kid.stop])
    seq = slice(game.stop, game.stop + 8)
    table = slice(seq.stop, seq.stop + 16)
    kind, flags = slice(table.stop, table.stop + 1), slice(table.stop + 1, table.stop + 2)
    nonce = slice(flags.stop, flags.stop + 12)
    return {"version": slice(0, 1), "key id": kid, "game": game, "seq": seq, "table": table, "kind": kind,
            "flags": flags, "nonce": nonce, "ciphertext and tag": slice(nonce.stop, len(token))}


def SEALED(game) -> int:  # noqa: N802 - what a state token's payload is padded to
    return clocks.RECORD_BYTES + game.state_bytes


def _token_bytes(game: str, kid: str, size: int) -> int:
    """The length of a token of ``game`` whose payload is padded to ``size``."""
    header = 2 + len(kid) + 1 + len(game) + 8 + 16 + 2
    return header + 12 + 4 + size + 16


def _nonce(token: bytes) -> bytes:
    return token[_fields(token)["nonce"]]


def test_round_trip_carries_game_seq_key_table_kind_and_flags():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    for kind in KINDS:
        for flags in (0, CALLER_SEED):
            opened = sealer.open(sealer.seal("doudizhu", 7, PAYLOAD, TABLE, kind=kind, flags=flags), "doudizhu", kind)
            assert (opened.game, opened.seq, opened.payload, opened.key_id, opened.table, opened.kind, opened.flags) \
                == ("doudizhu", 7, PAYLOAD, "k1", TABLE, kind, flags)
    token = sealer.seal("doudizhu", 7, PAYLOAD, TABLE, flags=CALLER_SEED)
    at = _fields(token)
    assert token[0] == token_module.VERSION == 2
    assert (token[at["key id"]], token[at["game"]], int.from_bytes(token[at["seq"]], "big")) == (b"k1", b"doudizhu", 7)
    assert (token[at["table"]], token[at["kind"]], token[at["flags"]]) == (TABLE, bytes([STATE]), bytes([CALLER_SEED]))
    # by default the table id is zeros, the kind a state, no flags
    opened = sealer.open(sealer.seal("doudizhu", 1, PAYLOAD))
    assert (opened.table, opened.kind, opened.flags) == (bytes(16), STATE, 0)


def test_payload_is_padded_to_the_size_asked_or_the_next_256():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    for n in (0, 1, 100, 252, 253, 700):
        payload = os.urandom(n)
        sized = sealer.seal("doudizhu", 0, payload, TABLE, size=1024)
        assert len(sized) == _token_bytes("doudizhu", "k1", 1024) and sealer.open(sized).payload == payload
        free = sealer.seal("doudizhu", 0, payload, TABLE)
        assert len(free) == _token_bytes("doudizhu", "k1", (n + 4 + 255) // 256 * 256 - 4)
        assert sealer.open(free).payload == payload
    with pytest.raises(ValueError):
        sealer.seal("doudizhu", 0, bytes(1025), TABLE, size=1024)


def test_nonce_is_fresh_every_time():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    assert sealer.seal("doudizhu", 0, PAYLOAD) != sealer.seal("doudizhu", 0, PAYLOAD)


def test_nonces_never_repeat_across_pool_refills():
    """The nonces come from a pool refilled a block at a time: none may come back twice."""
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    nonces = [_nonce(sealer.seal("doudizhu", 0, PAYLOAD, TABLE)) for _ in range(3 * token_module._Nonces.BLOCK + 7)]
    assert len(set(nonces)) == len(nonces)
    assert all(len(n) == 12 for n in nonces)
    pooled = set(token_module._nonce._pool)  # the pool holds nonces not handed out yet
    assert pooled and not pooled & set(nonces)


def test_forked_child_does_not_reuse_the_parents_pooled_nonces():
    """A worker forked after its parent sealed must not hand out the parent's unused nonces."""
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    sealer.seal("doudizhu", 0, PAYLOAD)  # the pool now holds BLOCK - 1 nonces
    pooled = set(token_module._nonce._pool)
    assert pooled
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: report its next nonces and leave at once
        try:
            os.write(write, b"".join(_nonce(sealer.seal("doudizhu", 0, PAYLOAD)) for _ in range(5)))
        finally:
            os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 4096):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    child = {data[i:i + 12] for i in range(0, len(data), 12)}
    assert len(child) == 5 and not child & pooled


def test_every_flipped_byte_and_truncation_is_refused():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    for kind in KINDS:
        token = sealer.seal("doudizhu", 3, PAYLOAD, TABLE, kind=kind, flags=CALLER_SEED)
        for i in range(len(token)):
            _invalid(sealer, token[:i] + bytes([token[i] ^ 0x01]) + token[i + 1:], kind=kind)
        for n in (0, 1, 5, _fields(token)["nonce"].start, len(token) - 1):
            _invalid(sealer, token[:n], kind=kind)


def _with(token: bytes, field: slice, value: bytes) -> bytes:
    assert len(value) == field.stop - field.start
    return token[:field.start] + value + token[field.stop:]


def test_header_table_kind_and_flags_are_authenticated():
    """Each header field the format adds is under the tag: another table id (a real one), another
    kind (opened as that kind or as its own) or other flags (marking a test deal fair, or a fair
    one a test deal) refuse to open."""
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    other_table = bytes(range(16))
    for kind in KINDS:
        for flags in (0, CALLER_SEED):
            token = sealer.seal("doudizhu", 3, PAYLOAD, TABLE, kind=kind, flags=flags)
            at = _fields(token)
            assert sealer.open(token, "doudizhu", kind).table == TABLE
            _invalid(sealer, _with(token, at["table"], other_table), kind=kind)
            _invalid(sealer, _with(token, at["table"], bytes(16)), kind=kind)
            for i in range(16):
                flipped = bytearray(TABLE)
                flipped[i] ^= 0x80
                _invalid(sealer, _with(token, at["table"], bytes(flipped)), kind=kind)
            for other in set(KINDS) - {kind}:
                relabelled = _with(token, at["kind"], bytes([other]))
                _invalid(sealer, relabelled, kind=other)
                _invalid(sealer, relabelled, kind=kind)
            for other in {0, CALLER_SEED, 2, 0x80, 0xFF} - {flags}:
                _invalid(sealer, _with(token, at["flags"], bytes([other])), kind=kind)


def test_a_token_of_one_kind_does_not_open_as_another():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    for kind in KINDS:
        game = "" if kind == SEED else "doudizhu"
        token = sealer.seal(game, 0, PAYLOAD, TABLE, kind=kind)
        assert sealer.open(token, game, kind).payload == PAYLOAD
        for other in set(KINDS) - {kind}:
            _invalid(sealer, token, None, other)
            _invalid(sealer, token, game, other)


def test_wrong_game_is_refused():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    _invalid(sealer, sealer.seal("q783", 0, PAYLOAD), "doudizhu")
    _invalid(sealer, sealer.seal("doudizhu", 0, PAYLOAD, kind=ANSWER), "mcr", ANSWER)


def test_rotation_old_key_opens_while_configured():
    old = Sealer(KeyRing("k1", {"k1": K1})).seal("doudizhu", 1, PAYLOAD, TABLE, flags=CALLER_SEED)
    rotated = Sealer(KeyRing("k2", {"k2": K2, "k1": K1}))
    opened = rotated.open(old)
    assert (opened.payload, opened.table, opened.flags, opened.key_id) == (PAYLOAD, TABLE, CALLER_SEED, "k1")
    assert rotated.open(rotated.seal("doudizhu", 2, PAYLOAD)).key_id == "k2"
    _invalid(Sealer(KeyRing("k2", {"k2": K2})), old)


def test_stale_seq():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    seq = sealer.open(sealer.seal("doudizhu", 4, PAYLOAD)).seq
    check_seq(seq, None)
    check_seq(seq, 4)
    with pytest.raises(IllegalAction) as caught:
        check_seq(seq, 3)
    assert caught.value.reason == Reason.STALE_STATE


# --- tokens the server hands out ---------------------------------------------------------------------

def _round_tokens(stub, game: str, rnd: random.Random, **deal) -> tuple[list[bytes], list[bytes]]:
    """A round played to the end by the seats with their own credentials, the owner applying the
    sealed answers, then the next round's deal unless the match is over: (state tokens, sealed
    answers)."""
    seats = GAMES[game].default_seats or GAMES[game].min_seats
    seed = rnd.choice((0, 1, 32, rng.MAX_SEED_BYTES))  # 0: the server's own
    request = pb.DealRequest(game=game, seed=rnd.randbytes(seed) if seed else None,
                             client_entropy=rnd.randbytes(rnd.choice((0, 8, rng.MAX_ENTROPY_BYTES))),
                             seat_entropy=[rnd.randbytes(rnd.choice((0, rng.MAX_SEAT_ENTROPY_BYTES)))
                                           for _ in range(seats)], **deal)
    first = stub.Deal(request)
    tokens, answers = [first.state], []
    owner = (bearer(first.owner_credential),)
    table_seats = [(bearer(c),) for c in first.seat_credentials]
    state, to_act, finished = first.state, list(first.to_act), False
    while not finished:
        asked, replies = list(to_act), []
        for seat in asked:
            legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat), metadata=table_seats[seat])
            reply = stub.Play(pb.PlayRequest(state=state, action=rnd.choice(legal.actions).action),
                              metadata=table_seats[seat])
            if not reply.answer:
                replies.append(reply)
                break
            answers.append(reply.answer)
            assert not reply.state
        if len(answers) and not replies:
            window = answers[-len(asked):]
            replies.append(stub.Play(pb.PlayRequest(state=state, answers=window), metadata=owner))
        reply = replies[-1]
        tokens.append(reply.state)
        state, to_act, finished = reply.state, list(reply.to_act), reply.finished
        if not to_act and not finished:  # a seat's reply shows it only itself where the turn is not public
            to_act = list(stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).to_act)
    if stub.Score(pb.ScoreRequest(state=state)).match.over:  # the round ended its match (a Q783 bank ran out)
        return tokens, answers
    nxt = stub.Deal(pb.DealRequest(previous_state=state, seed=b"next"), metadata=owner)
    tokens.append(nxt.state)
    replay = stub.Replay(pb.ReplayRequest(previous_state=state, seed=b"next",
                                          client_entropy=bytes(rng.MAX_ENTROPY_BYTES),
                                          seat_entropy=[bytes(rng.MAX_SEAT_ENTROPY_BYTES)] * seats), metadata=owner)
    tokens.append(replay.state)
    return tokens, answers


def _readme_token_table() -> dict[str, tuple[int, int]]:
    """README "State tokens and keys": game -> (padded state, state token with key id k1)."""
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text.split("## State tokens and keys", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([\d,]+) \| ([\d,]+) \|$", section, re.M)
    return {g: (int(a.replace(",", "")), int(b.replace(",", ""))) for g, a, b in rows}


def test_readme_states_the_token_size_of_every_game(stub):
    """Issue 24: the README's table of token sizes is every registered game's, as dealt (key id
    k1, every preset and seat count, with and without entropy)."""
    table = _readme_token_table()
    shipped = {g: game for g, game in GAMES.items() if type(game).__module__.startswith("referee.core.games.")}
    assert set(table) == set(shipped)  # not a toy game another test registered
    for game_id, game in shipped.items():
        dealt = {len(stub.Deal(pb.DealRequest(game=game_id, preset=preset, seats=seats,
                                              client_entropy=entropy)).state)
                 for preset in ["", *game.presets] for seats in range(game.min_seats, game.max_seats + 1)
                 for entropy in (b"", bytes(256))}
        assert table[game_id] == (game.state_bytes, *dealt), game_id
        assert dealt == {_token_bytes(game_id, "k1", SEALED(game))}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_token_of_a_game_has_one_length(stub, game):
    """Over many deals (seeds, entropy and options of every size) and every play of whole rounds
    played by the seats, the next rounds and replays: one length, the game's state_bytes sealed;
    and the seats' sealed answers and relayed moves one length too (a pass and a claim look alike)."""
    rnd = random.Random(game)
    infos = {o.name: o for o in GAMES[game].option_infos()}
    lengths, answer_lengths, states, answers = set(), set(), 0, 0
    for n in range(6):
        if game == "doudizhu":
            options = {"room_coefficient": infos["room_coefficient"].maximum, "room_fee": infos["room_fee"].maximum}
            preset = ("", "qq", "coins_fixed_fee", "coins_rake")[n % 4]
        elif game == "mcr":
            options, preset = {"dealer": n % 4 - 1, "min_points": 0 if n % 2 else infos["min_points"].maximum}, ""
        else:
            options, preset = {}, ""
        values = {k: _option_value(v) for k, v in options.items()}
        tokens, sealed = _round_tokens(stub, game, rnd, preset=preset, options=values)
        lengths |= {len(t) for t in tokens}
        answer_lengths |= {len(a) for a in sealed}
        states, answers = states + len(tokens), answers + len(sealed)
    for n in range(40):  # and many deals
        lengths.add(len(stub.Deal(pb.DealRequest(game=game, client_entropy=rnd.randbytes(n * 6))).state))
    assert states > 100
    assert lengths == {_token_bytes(game, "k1", SEALED(GAMES[game]))}
    # every seat's move is sealed (SEAT_PLAY_RELAYED; mcr's claim windows too): all of one length,
    # a pass and a play alike
    assert answers > 30 and len(answer_lengths) == 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_longest_caller_seed_and_entropy_still_seal_to_the_games_size(stub, game):
    """A test server takes caller seeds up to rng.MAX_SEED_BYTES (and the owner's and each seat's
    entropy up to theirs): the round still seals, every token at the game's one length."""
    seats = GAMES[game].default_seats or GAMES[game].min_seats
    deal = stub.Deal(pb.DealRequest(game=game, seed=bytes(rng.MAX_SEED_BYTES),
                                    client_entropy=bytes(rng.MAX_ENTROPY_BYTES),
                                    seat_entropy=[bytes(rng.MAX_SEAT_ENTROPY_BYTES)] * seats))
    longer = pb.DealRequest(game=game, seed=bytes(rng.MAX_SEED_BYTES + 1))
    with pytest.raises(grpc.RpcError) as caught:
        stub.Deal(longer)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    rnd, tokens, state, to_act, finished = random.Random(9), [deal.state], deal.state, deal.to_act, False
    while not finished:
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=to_act[0]))
        reply = stub.Play(pb.PlayRequest(state=state, action=rnd.choice(legal.actions).action))
        tokens.append(reply.state)
        state, to_act, finished = reply.state, reply.to_act, reply.finished
    assert {len(t) for t in tokens} == {_token_bytes(game, "k1", SEALED(GAMES[game]))}


def _option_value(value: int) -> options_pb2.OptionValue:
    return options_pb2.OptionValue(int_value=value)


def test_the_server_opens_no_token_as_another_kind(stub, expect_error):
    """A state, a sealed seed and a seat's sealed answer each open only where one is expected."""
    invalid, reason = grpc.StatusCode.INVALID_ARGUMENT, "STATE_TOKEN_INVALID"
    commit = stub.Commit(pb.CommitRequest(client_entropy=b"kinds"))
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"kinds"))
    seats = [(bearer(c),) for c in deal.seat_credentials]
    state, to_act = deal.state, list(deal.to_act)
    rnd = random.Random(4)
    answer, window = b"", None
    for _ in range(200):  # to the first claim window: a seat's answer comes back sealed
        seat = to_act[0]
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat), metadata=seats[seat])
        reply = stub.Play(pb.PlayRequest(state=state, action=rnd.choice(legal.actions).action), metadata=seats[seat])
        if reply.answer:
            answer, window = reply.answer, reply.seq
            break
        state, to_act = reply.state, list(reply.to_act)
        if not to_act:  # a claim window: who is asked is the owner's to know
            owner = (bearer(deal.owner_credential),)
            to_act = list(stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).to_act)
    assert answer and to_act
    pass_ = actions_pb2.Action(seat=0, kind="PASS")
    for token in (commit.sealed_seed, answer):  # not states
        expect_error(stub.Play, pb.PlayRequest(state=token, action=pass_), invalid, reason)
        expect_error(stub.GetView, pb.GetViewRequest(state=token), invalid, reason)
        expect_error(stub.Score, pb.ScoreRequest(state=token), invalid, reason)
        expect_error(stub.Deal, pb.DealRequest(previous_state=token), invalid, reason)
    for token in (state, answer):  # not sealed seeds
        expect_error(stub.Deal, pb.DealRequest(game="mcr", sealed_seed=token), invalid, reason)
    for token in (state, commit.sealed_seed):  # not answers
        expect_error(stub.Play, pb.PlayRequest(state=state, answers=[token]), invalid, reason)
    # each where it belongs
    assert stub.Play(pb.PlayRequest(state=state, answers=[answer])).seq == window + 1
    assert stub.Deal(pb.DealRequest(game="mcr", sealed_seed=commit.sealed_seed)).commitment == commit.commitment


@pytest.mark.parametrize("field", ["table", "kind", "flags"])
def test_the_server_refuses_a_token_whose_header_was_changed(stub, seeded_deal, expect_error, field):
    """A live token with its table id, kind or flags changed (to values another token really
    carries) opens nowhere: not as a state, not with its own table's owner credential."""
    deal, other = seeded_deal(b"header-1"), seeded_deal(b"header-2")
    owner = (bearer(deal.owner_credential),)
    at = _fields(deal.state)
    assert deal.state[at["flags"]] == bytes([CALLER_SEED | CLOCKED])  # dealt from a caller's seed, with a clock
    value = {"table": other.state[_fields(other.state)["table"]], "kind": bytes([ANSWER]), "flags": bytes([0])}[field]
    assert value != deal.state[at[field]]
    bad = _with(deal.state, at[field], value)
    invalid, reason = grpc.StatusCode.INVALID_ARGUMENT, "STATE_TOKEN_INVALID"
    bid = actions_pb2.Action(seat=0, kind="BID", value=3)
    for call, request in ((stub.Play, pb.PlayRequest(state=bad, action=bid)),
                          (stub.Validate, pb.ValidateRequest(state=bad, action=bid)),
                          (stub.LegalActions, pb.LegalActionsRequest(state=bad, seat=0)),
                          (stub.GetView, pb.GetViewRequest(state=bad))):
        expect_error(lambda r: call(r, metadata=owner), request, invalid, reason)
        expect_error(call, request, invalid, reason)
    expect_error(stub.Play, pb.PlayRequest(state=deal.state, answers=[bad]), invalid, reason)
    assert stub.Play(pb.PlayRequest(state=deal.state, action=bid), metadata=owner).seq == 1  # the original opens


# --- key sources and the bench -----------------------------------------------------------------------

def test_key_sources(tmp_path, caplog):
    b1, b2 = base64.b64encode(K1).decode(), base64.b64encode(K2).decode()
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"active": "k2", "keys": {"k1": b1, "k2": b2}}))
    from_file = KeyRing.load(str(path), environ={})
    from_env = KeyRing.load(None, environ={ENV_KEYS: f"k2:{b2},k1:{b1}"})
    assert from_file == from_env and from_file.active == "k2"
    assert KeyRing.from_env_value(from_file.env_value()) == from_file
    with caplog.at_level(logging.WARNING):
        ephemeral = KeyRing.load(None, environ={})
    assert ephemeral.ephemeral and "ephemeral" in caplog.text
    for bad in ("k1", f"k1:{base64.b64encode(b'short').decode()}", "k1:not-base64!"):
        with pytest.raises(ValueError):
            KeyRing.from_env_value(bad)


def test_bench_reports_token_costs():
    """`referee bench` prints sealing and opening costs (the 20 µs target lives there, not in a
    timed unit test); the figures describe a real Dou Dizhu state and a token as the server
    seals it (padded to the game's state_bytes)."""
    from referee.service import bench

    costs = bench.token_costs(0.03)
    game = get_game("doudizhu")
    assert costs["state_bytes"] == len(game.pack(game.deal(game.make_options(), b"bench")))
    assert costs["token_bytes"] == _token_bytes("doudizhu", "ephemeral", SEALED(game))
    assert all(costs[k] > 0 for k in ("sha256_us", "seal_us", "open_us", "credential_check_us",
                                      "credential_check_cached_us"))
