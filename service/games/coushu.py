"""凑数字 (coushu): deal verification for ``referee verify``, written from the README's layout,
not from core/coushu.py."""
from __future__ import annotations

RANK_OF_NUMBER = {1: 11, 2: 12, **{v: v - 3 for v in range(3, 14)}}  # A=1 .. K=13 -> rank index


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """The layout: the 48 ids of ``range(52)`` whose rank is not the target's (option target,
    default 7), ascending, shuffled on the stream ``deal``; card i to seat i mod 2. Returns
    check name -> a problem, or "" when it holds."""
    removed = RANK_OF_NUMBER[record["options"].get("target") or 7]
    deck = stream(key, "deal").shuffle([c for c in range(52) if c % 13 != removed])
    expected = {f"seat{s}": deck[s::2] for s in range(2)}
    return {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}
