"""出一样的花色 (tonghua): deal verification for ``referee verify``, written from the README's
layout, not from core/tonghua.py."""
from __future__ import annotations

TWO_OF_HEARTS = 13 + 12  # suit H (1) * 13 + rank 2 (index 12)


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """The layout: ``shuffle(range(52))`` on the stream ``deal``; with n seats the first
    d = n * floor(52 / n) cards are dealt, card i to seat i mod n, the rest is ``set_aside``;
    when the first set-aside card is the 2H it changes places with card d - 1 first. Returns
    check name -> a problem, or "" when it holds."""
    n = record["seats"]
    deck = stream(key, "deal").shuffle(range(52))
    d = n * (52 // n)
    if d < 52 and deck[d] == TWO_OF_HEARTS:
        deck[d - 1], deck[d] = deck[d], deck[d - 1]
    expected = {f"seat{s}": deck[s:d:n] for s in range(n)}
    expected["set_aside"] = deck[d:]
    return {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}
