"""比大小 (bidaxiao): deal verification for ``referee verify``, written from the README's layout,
not from core/bidaxiao.py."""
from __future__ import annotations


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """The layout: ``shuffle(range(52))`` (``range(54)`` with the option jokers) on the stream
    ``deal``; card i goes to seat i mod n for i < n * hand_size (``seat0`` ... in that order),
    the rest is ``set_aside``. Returns check name -> a problem, or "" when it holds."""
    n, size = record["seats"], record["options"].get("hand_size") or 10
    deck = stream(key, "deal").shuffle(range(54 if record["options"].get("jokers") else 52))
    expected = {f"seat{s}": deck[s:n * size:n] for s in range(n)}
    expected["set_aside"] = deck[n * size:]
    return {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}
