"""``referee verify``: re-derive a round's cards from a Score answer, independently of the rules
core (this module imports nothing of ``referee.core``: it is the README's algorithm written
again, so a mistake in one is caught by the other).

Input: the owner's Score answer as JSON (protobuf's JSON mapping: ``seed``, ``clientEntropy``,
``seatEntropy`` base64; ``commitment``; ``deal``: game, seats, options, cards, values, match).
Output: one JSON object, ``{"ok": true|false, "checks": {...}, "problems": [...]}``; exit 0
when every check passes.

The algorithm (README "Provably fair dealing"):

- E = the owner's entropy, or with seats' entropy ``"referee/v1/seats" || u32 len(owner) ||
  owner || u8 n || (u32 len || entropy) for each seat``;
- key = sha256(``"referee/v1/deal"`` || u32 len(seed) || seed || u32 len(E) || E);
- a stream labelled L: block i = sha256(key || L || u64 i), each block four u64 words read
  big-endian in order; ``randbelow(n)`` takes words until one is below n * floor(2^64 / n) and
  answers it mod n; ``shuffle(items)``: for i from the last index down to 1, swap i with
  randbelow(i + 1).

Each game's layout (which stream, how the shuffled deck maps to seats) is its service module's
``verify_deal`` (``service/games/<game>.py``).
"""
from __future__ import annotations

import base64
import hashlib
import json
import struct
import sys


class Stream:
    """The documented stream (written from the README, not from referee.core.rng)."""

    def __init__(self, key: bytes, label: str):
        self.key, self.label, self.block, self.words = key, label.encode(), 0, []

    def word(self) -> int:
        if not self.words:
            digest = hashlib.sha256(self.key + self.label + struct.pack(">Q", self.block)).digest()
            self.block += 1
            self.words = [struct.unpack(">Q", digest[i:i + 8])[0] for i in range(0, 32, 8)]
        return self.words.pop(0)

    def randbelow(self, n: int) -> int:
        limit = (2 ** 64 // n) * n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, items) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def combined_entropy(owner: bytes, seats: list[bytes]) -> bytes:
    if not seats:
        return owner
    out = b"referee/v1/seats" + struct.pack(">I", len(owner)) + owner + bytes([len(seats)])
    for e in seats:
        out += struct.pack(">I", len(e)) + e
    return out


def deal_key(seed: bytes, entropy: bytes) -> bytes:
    return hashlib.sha256(b"referee/v1/deal" + struct.pack(">I", len(seed)) + seed
                          + struct.pack(">I", len(entropy)) + entropy).digest()


def _b64(text: str) -> bytes:
    return base64.b64decode(text or "")


def _option(value: dict):
    for name in ("boolValue", "intValue", "stringValue"):
        if name in value:
            return int(value[name]) if name == "intValue" else value[name]
    return None


def verify(score: dict) -> dict:
    """The checks of one Score answer (a dict from its JSON)."""
    from . import games

    seed = _b64(score.get("seed", ""))
    owner, seats = _b64(score.get("clientEntropy", "")), [_b64(e) for e in score.get("seatEntropy", [])]
    deal = score.get("deal") or {}
    checks, problems = {}, []
    checks["commitment"] = bool(seed) and hashlib.sha256(seed).digest() == _b64(score.get("commitment", ""))
    if not seed:
        problems.append("no seed: only the table owner's Score answer reveals it")
    elif not checks["commitment"]:
        problems.append("sha256(seed) is not the commitment")
    module = games.modules().get(deal.get("game", ""))
    if module is None or not hasattr(module, "verify_deal"):
        problems.append(f"no deal verifier for game {deal.get('game', '')!r}")
    elif seed:
        record = {"seats": int(deal.get("seats", 0)),
                  "options": {k: _option(v) for k, v in (deal.get("options") or {}).items()},
                  "cards": {k: [int(i) for i in v.get("ids", [])] for k, v in (deal.get("cards") or {}).items()},
                  "values": {k: int(v) for k, v in (deal.get("values") or {}).items()},
                  "round": int((deal.get("match") or {}).get("round", 0))}
        found = module.verify_deal(record, deal_key(seed, combined_entropy(owner, seats)), Stream)
        checks.update({name: not trouble for name, trouble in found.items()})
        problems += [trouble for trouble in found.values() if trouble]
    return {"ok": not problems and all(checks.values()), "checks": checks, "problems": problems}


def cmd_verify(args) -> int:
    """`referee verify [FILE]`: a Score answer as JSON (stdin without FILE) -> a JSON report."""
    text = open(args.file, encoding="utf-8").read() if args.file else sys.stdin.read()
    try:
        score = json.loads(text)
    except ValueError as error:
        print(json.dumps({"ok": False, "problems": [f"not JSON: {error}"]}))
        return 2
    report = verify(score)
    print(json.dumps(report))
    return 0 if report["ok"] else 1
