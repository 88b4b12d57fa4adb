"""接龙 (jielong): deal verification for ``referee verify``, written from the README's layout,
not from core/jielong.py."""
from __future__ import annotations


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """The layout: ``shuffle(range(52))`` (``range(54)`` with the option jokers) on the stream
    ``deal``; card i to seat i mod n, each seat's pile top first (``seat0`` ...). Returns check
    name -> a problem, or "" when it holds."""
    n = record["seats"]
    deck = stream(key, "deal").shuffle(range(54 if record["options"].get("jokers") else 52))
    expected = {f"seat{s}": deck[s::n] for s in range(n)}
    return {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}
