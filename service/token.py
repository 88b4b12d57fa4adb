"""Sealed tokens: AES-256-GCM over a game's packed state (or a sealed seed, or a seat's sealed
answer), with an authenticated header.

Layout (integers big-endian)::

    header  = version u8 (=2) | len u8 | key id | len u8 | game id | seq u64
              | table id (16 bytes) | kind u8 | flags u8
    token   = header | nonce (12 random bytes) | ciphertext | tag (16)
    plain   = len u32 | payload | zero bytes up to ``size``

The header is the associated data: the key id, game, sequence number, table, kind and flags
cannot be changed without the tag failing. ``kind`` says what the token holds (a state, a
sealed seed, a sealed answer: one never opens as another); flag bit 0 marks a table dealt from
a caller's seed (tests), bit 1 a table whose seats apply their own moves (DIRECT), bit 2 a round
that ended by ABANDON, bit 3 a payload that starts with the table's clock record (deadlines and
autoplay, ``referee.core.clock``: beside the state, never in its digest). The payload is padded to the game's fixed ``size`` before sealing, so
every token of a game under one key has one length: its size tells nothing of the cards.
Several keys may open; the active one seals (rotation).

Keys come from a JSON file ``{"active": "k2", "keys": {"k1": "<base64 32 bytes>", ...}}`` or
from ``REFEREE_TOKEN_KEYS=k2:<base64>,k1:<base64>`` (the first seals). With neither, an
ephemeral key is made and a WARNING logged; worker processes receive it through that variable.
"""
from __future__ import annotations

import base64
import binascii
import collections
import functools
import json
import logging
import os
from dataclasses import dataclass, field
from typing import Mapping

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from referee.core.errors import IllegalAction, InvalidAction, Reason

ENV_KEYS = "REFEREE_TOKEN_KEYS"
VERSION = 2
NONCE_BYTES = 12
TAG_BYTES = 16
KEY_BYTES = 32
TABLE_BYTES = 16
STATE, SEED, ANSWER = 0, 1, 2  # token kinds
CALLER_SEED = 1  # flag: dealt from a caller's seed (tests, replays)
DIRECT = 2  # flag: seats apply their own moves (SEAT_PLAY_DIRECT); without it a seat's move is relayed
ABANDONED = 4  # flag: the round ended by ABANDON (Score reveals its seed only when asked)
CLOCKED = 8  # flag: the payload is the clock record (core/clock.py, fixed size) then the packed state
PAD = 256  # a payload without a fixed size is padded to a multiple of this

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=64)
def _aead(key: bytes) -> AESGCM:
    return AESGCM(key)


@dataclass(frozen=True)
class KeyRing:
    """Token keys by id; ``active`` seals, all of them open."""

    active: str
    keys: Mapping[str, bytes]
    ephemeral: bool = field(default=False, compare=False)

    def __post_init__(self):
        if self.active not in self.keys:
            raise ValueError(f"active key {self.active!r} is not among the keys")
        for kid, key in self.keys.items():
            if not kid or len(kid.encode()) > 255 or len(key) != KEY_BYTES:
                raise ValueError(f"key {kid!r}: ids are 1-255 bytes, keys {KEY_BYTES} bytes")

    @classmethod
    def generate(cls, kid: str = "ephemeral") -> KeyRing:
        """A ring of one fresh random key (for tests, demos, and the no-key fallback)."""
        return cls(kid, {kid: os.urandom(KEY_BYTES)}, ephemeral=True)

    @classmethod
    def from_json(cls, text: str) -> KeyRing:
        """Parse ``{"active": id, "keys": {id: base64}}``. Raises: ValueError."""
        data = json.loads(text)
        return cls(data["active"], {k: _b64(v) for k, v in data["keys"].items()})

    @classmethod
    def from_env_value(cls, value: str) -> KeyRing:
        """Parse ``k2:base64,k1:base64`` (the first one seals). Raises: ValueError."""
        pairs = [item.strip().split(":", 1) for item in value.split(",") if item.strip()]
        if not pairs or any(len(p) != 2 for p in pairs):
            raise ValueError(f"{ENV_KEYS} must be id:base64[,id:base64...]")
        return cls(pairs[0][0], {k: _b64(v) for k, v in pairs})

    def env_value(self) -> str:
        """This ring in the ``REFEREE_TOKEN_KEYS`` format (active first)."""
        order = [self.active] + [k for k in self.keys if k != self.active]
        return ",".join(f"{k}:{base64.b64encode(self.keys[k]).decode()}" for k in order)

    @classmethod
    def load(cls, key_file: str | None = None, environ: Mapping[str, str] = os.environ) -> KeyRing:
        """Keys from ``key_file``, else the environment, else an ephemeral key (logged)."""
        if key_file:
            with open(key_file, encoding="utf-8") as f:
                return cls.from_json(f.read())
        if environ.get(ENV_KEYS):
            return cls.from_env_value(environ[ENV_KEYS])
        log.warning("no token keys configured (--key-file or %s): using an ephemeral key; "
                    "tokens will not open on other servers or after a restart", ENV_KEYS)
        return cls.generate()


def _b64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise ValueError(f"key is not base64: {error}") from None


@dataclass(frozen=True, slots=True)
class Opened:
    """An opened token: its header fields and the payload (a packed state)."""

    game: str
    seq: int
    payload: bytes
    key_id: str
    table: bytes = bytes(TABLE_BYTES)
    kind: int = STATE
    flags: int = 0


class _Nonces:
    """Random 96-bit GCM nonces, drawn from ``os.urandom`` a block at a time.

    One getrandom call per seal releases the GIL, and under load the handler thread then waits
    for it behind gRPC's threads (measured: a voluntary context switch on a third of Plays);
    one call per ``BLOCK`` seals does not. Each nonce leaves the pool once (``popleft`` is
    atomic), and a forked child starts empty, so no two processes share unused nonces.
    """

    BLOCK = 256

    def __init__(self):
        self._pool: collections.deque[bytes] = collections.deque()
        os.register_at_fork(after_in_child=self._pool.clear)

    def __call__(self) -> bytes:
        try:
            return self._pool.popleft()
        except IndexError:
            block = os.urandom(NONCE_BYTES * self.BLOCK)
            self._pool.extend([block[i:i + NONCE_BYTES] for i in range(NONCE_BYTES, len(block), NONCE_BYTES)])
            return block[:NONCE_BYTES]


_nonce = _Nonces()


def _invalid(why: str) -> InvalidAction:
    return InvalidAction(f"state token invalid: {why}", Reason.STATE_TOKEN_INVALID)


class Sealer:
    """Seals and opens state tokens with a key ring."""

    def __init__(self, ring: KeyRing):
        self.ring = ring
        self._active = _aead(ring.keys[ring.active])
        kid = ring.active.encode()
        self._prefix = bytes((VERSION, len(kid))) + kid
        self._open_keys = {k.encode(): _aead(v) for k, v in ring.keys.items()}

    def seal(self, game: str, seq: int, payload: bytes, table: bytes = bytes(TABLE_BYTES), *,
             kind: int = STATE, flags: int = 0, size: int = 0) -> bytes:
        """The token for ``payload`` (a packed state) of ``game`` at sequence ``seq`` at
        ``table``, padded to ``size`` bytes (0: the next multiple of 256).

        Raises:
            ValueError: the payload is longer than ``size`` (a game's size is too small: a bug).
        """
        gid = game.encode()
        header = (self._prefix + bytes((len(gid),)) + gid + seq.to_bytes(8, "big") + table
                  + bytes((kind, flags)))
        n = len(payload)
        size = size or (n + 4 + PAD - 1) // PAD * PAD - 4
        if n > size:
            raise ValueError(f"a {game} payload of {n} bytes is over the sealed size {size}")
        nonce = _nonce()
        plain = n.to_bytes(4, "big") + payload + bytes(size - n)
        return header + nonce + self._active.encrypt(nonce, plain, header)

    def open(self, token: bytes, game: str | None = None, kind: int = STATE) -> Opened:
        """Authenticate and decrypt a token of ``kind`` (and of ``game`` when given).

        Raises:
            InvalidAction: STATE_TOKEN_INVALID (malformed, unknown key, tampered, other game or kind).
        """
        try:
            if token[0] != VERSION:
                raise _invalid(f"unsupported format version {token[0]}")
            end_kid = 2 + token[1]
            kid = token[2:end_kid]
            end_game = end_kid + 1 + token[end_kid]
            gid = token[end_kid + 1:end_game]
            end_seq = end_game + 8
            end = end_seq + TABLE_BYTES + 2
            seq = int.from_bytes(token[end_game:end_seq], "big")
        except IndexError:
            raise _invalid("truncated") from None
        if len(token) < end + NONCE_BYTES + 4 + TAG_BYTES:
            raise _invalid("truncated")
        aead = self._open_keys.get(kid)
        if aead is None:
            raise _invalid("sealed with a key this server does not hold")
        try:
            plain = aead.decrypt(token[end:end + NONCE_BYTES], token[end + NONCE_BYTES:], token[:end])
            game_id = gid.decode()
        except (InvalidTag, UnicodeDecodeError):
            raise _invalid("does not authenticate") from None
        if token[end - 2] != kind:
            raise _invalid("not a token of this kind (a state, a sealed seed and an answer differ)")
        if game is not None and game_id != game:
            raise _invalid(f"a {game_id[:40]!r} state where a {game[:40]!r} state was expected")
        n = int.from_bytes(plain[:4], "big")
        return Opened(game_id, seq, plain[4:4 + n], kid.decode(), token[end_seq:end_seq + TABLE_BYTES],
                      kind, token[end - 1])


def check_seq(seq: int, expected: int | None) -> None:
    """Raises IllegalAction (STALE_STATE) when ``expected`` is given and differs from the
    token's ``seq``."""
    if expected is not None and expected != seq:
        raise IllegalAction(f"stale state: the token is at seq {seq}, expected {expected}",
                            Reason.STALE_STATE)
