"""Provably fair, reproducible dealing.

The server draws a secret 32-byte seed from the OS CSPRNG and publishes ``commitment(seed) =
sha256(seed)`` at the deal. The caller may add its own entropy. Every shuffle is driven by
``deal_key = sha256(b"referee/v1/deal" || len(seed) || seed || len(entropy) || entropy)``,
so neither side alone picks the cards; Score reveals the seed and anyone can recompute.

Stream: block i = sha256(deal_key || label || i as 8 bytes big-endian); numbers are 8-byte
big-endian words of the blocks; ``randbelow(n)`` rejects words >= n * floor(2^64 / n) (no
bias). Shuffle: Fisher-Yates from the last index down, swapping i with randbelow(i + 1).
"""
import hashlib
import secrets
import struct

SEED_BYTES = 32
MAX_ENTROPY_BYTES = 256


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> bytes:
    return hashlib.sha256(seed).digest()


def deal_key(seed: bytes, entropy: bytes = b"") -> bytes:
    h = hashlib.sha256(b"referee/v1/deal")
    h.update(struct.pack(">I", len(seed)) + seed)
    h.update(struct.pack(">I", len(entropy)) + entropy)
    return h.digest()


class Stream:
    """Deterministic random numbers from a key and a label (one stream per purpose)."""

    __slots__ = ("_prefix", "_block", "_buffer")

    def __init__(self, key: bytes, label: str):
        self._prefix = key + label.encode()
        self._block = 0
        self._buffer: list[int] = []

    def _word(self) -> int:
        if not self._buffer:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._buffer = list(struct.unpack(">4Q", digest))[::-1]
        return self._buffer.pop()

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) // n * n
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def shuffle(self, items) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
