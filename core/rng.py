"""Provably fair, reproducible dealing.

The server draws a secret 32-byte seed from the OS CSPRNG and publishes ``commitment(seed) =
sha256(seed)`` before anyone gives entropy (Commit, or the one-call Deal). The owner and the
seats may add entropy. Every shuffle is driven by ``deal_key = sha256(b"referee/v1/deal" ||
len(seed) || seed || len(E) || E)`` (lengths u32 big-endian), where E is the owner's entropy
alone, or, when seats gave entropy, ``entropy(owner, seats)`` = ``b"referee/v1/seats" || len(owner)
|| owner || count u8 || (len || seat entropy) for each seat``; so no single party picks the
cards. Score reveals the seed and every entropy and anyone can recompute.

Stream: block i = sha256(deal_key || label || i as 8 bytes big-endian); numbers are 8-byte
big-endian words of the blocks; ``randbelow(n)`` rejects words >= n * floor(2^64 / n) (no
bias). Shuffle: Fisher-Yates from the last index down, swapping i with randbelow(i + 1).
"""
import hashlib
import secrets
import struct

SEED_BYTES = 32
MAX_SEED_BYTES = 64  # a caller's seed (test servers); the server's own are SEED_BYTES
MAX_ENTROPY_BYTES = 256  # the owner's
MAX_SEAT_ENTROPY_BYTES = 32  # each seat's
_SEATS_LABEL = b"referee/v1/seats"


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> bytes:
    return hashlib.sha256(seed).digest()


def entropy(owner: bytes, seats=()) -> bytes:
    """The round's entropy E from the owner's and the seats' (the owner's alone without seats)."""
    seats = tuple(seats)
    if not seats:
        return owner
    parts = [_SEATS_LABEL, struct.pack(">I", len(owner)), owner, bytes((len(seats),))]
    for part in seats:
        parts += [struct.pack(">I", len(part)), part]
    return b"".join(parts)


def split_entropy(combined: bytes) -> tuple[bytes, tuple[bytes, ...]]:
    """(owner's, seats') entropy of E: the inverse of ``entropy``."""
    if not combined.startswith(_SEATS_LABEL):
        return combined, ()
    try:
        pos = len(_SEATS_LABEL)
        n = struct.unpack_from(">I", combined, pos)[0]
        owner, pos = combined[pos + 4:pos + 4 + n], pos + 4 + n
        seats = []
        for _ in range(combined[pos]):
            n = struct.unpack_from(">I", combined, pos + 1)[0]
            seats.append(combined[pos + 5:pos + 5 + n])
            pos += 4 + n
        return owner, tuple(seats)
    except (struct.error, IndexError):
        return combined, ()  # an owner's entropy that only looks like the encoding


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
