"""川牌 (chuanpai): deal verification for ``referee verify``, written from the README's layout, not
from core/games/chuanpai."""
from __future__ import annotations


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """The layout: ``shuffle(range(84))`` (option ``deck = 84_plus_2_wild``: ``range(86)``) on the
    stream ``deck``; one card at a time in turn order from 头家 (value ``toujia``; counter-clockwise
    s -> s + 1, or s -> s - 1 under ``clockwise``), 16 to 头家 and 15 to each next of the first four players, then 5, 3 and 1 to
    the extra players (5-7 seats), a player with his count skipped; the rest is the stock, top
    first. Returns check name -> a problem, or "" when it holds."""
    n, toujia = record["seats"], record["values"].get("toujia", 0)
    step = -1 if record["options"].get("clockwise") else 1
    order = [(toujia + step * i) % n for i in range(n)]
    sizes = [16] + [15] * (min(n, 4) - 1) + {5: [3], 6: [5, 3], 7: [5, 3, 1]}.get(n, [])
    size = 86 if record["options"].get("deck") == "84_plus_2_wild" else 84
    deck = stream(key, "deck").shuffle(range(size))
    hands, pos = {s: [] for s in range(n)}, 0
    for round_ in range(max(sizes)):
        for seat, size in zip(order, sizes):
            if round_ < size:
                hands[seat].append(deck[pos])
                pos += 1
    expected = {f"seat{s}": hands[s] for s in range(n)}
    expected["stock"] = deck[pos:]
    return {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}
