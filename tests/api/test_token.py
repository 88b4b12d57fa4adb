"""State-token sealing: round trip, nonces, tampering, wrong game, key rotation, key sources."""
import base64
import json
import logging
import os

import pytest

from referee.core.errors import IllegalAction, InvalidAction, Reason
from referee.core.registry import get_game
from referee.service import token as token_module
from referee.service.token import ENV_KEYS, KeyRing, Sealer, check_seq

K1, K2 = bytes(range(32)), bytes(range(32, 64))
PAYLOAD = b"packed state bytes" * 8


def _invalid(sealer: Sealer, token: bytes, game=None):
    with pytest.raises(InvalidAction) as caught:
        sealer.open(token, game)
    assert caught.value.reason == Reason.STATE_TOKEN_INVALID


def test_round_trip_carries_game_seq_and_key():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    opened = sealer.open(sealer.seal("doudizhu", 7, PAYLOAD), "doudizhu")
    assert (opened.game, opened.seq, opened.payload, opened.key_id) == ("doudizhu", 7, PAYLOAD, "k1")


def test_nonce_is_fresh_every_time():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    assert sealer.seal("doudizhu", 0, PAYLOAD) != sealer.seal("doudizhu", 0, PAYLOAD)


def _nonce(token: bytes) -> bytes:
    end = 2 + token[1] + 1 + token[2 + token[1]] + 8
    return token[end:end + 12]


def test_nonces_never_repeat_across_pool_refills():
    """The nonces come from a pool refilled a block at a time: none may come back twice."""
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    nonces = [_nonce(sealer.seal("doudizhu", 0, PAYLOAD)) for _ in range(3 * token_module._Nonces.BLOCK + 7)]
    assert len(set(nonces)) == len(nonces)
    assert all(len(n) == 12 for n in nonces)


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
    token = sealer.seal("doudizhu", 3, PAYLOAD)
    for i in range(len(token)):
        _invalid(sealer, token[:i] + bytes([token[i] ^ 0x01]) + token[i + 1:])
    for n in (0, 1, 5, len(token) - 1):
        _invalid(sealer, token[:n])


def test_wrong_game_is_refused():
    sealer = Sealer(KeyRing("k1", {"k1": K1}))
    _invalid(sealer, sealer.seal("q783", 0, PAYLOAD), "doudizhu")


def test_rotation_old_key_opens_while_configured():
    old = Sealer(KeyRing("k1", {"k1": K1})).seal("doudizhu", 1, PAYLOAD)
    rotated = Sealer(KeyRing("k2", {"k2": K2, "k1": K1}))
    assert rotated.open(old).payload == PAYLOAD
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
    timed unit test); the figures describe a real Dou Dizhu state."""
    from referee.service import bench

    costs = bench.token_costs(0.03)
    game = get_game("doudizhu")
    assert costs["state_bytes"] == len(game.pack(game.deal(game.make_options(), b"bench")))
    assert costs["token_bytes"] == costs["state_bytes"] + 2 + len("ephemeral") + 1 + len("doudizhu") + 8 + 12 + 16
    assert all(costs[k] > 0 for k in ("sha256_us", "seal_us", "open_us"))
