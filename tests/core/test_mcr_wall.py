"""The mahjong wall and the deal re-derived from the README's documented algorithm ("Provably
fair dealing"), written again here from the text: the deal key, the sha256 stream, ``randbelow``,
the shuffle, then the deal order (13 tiles each from the front from the dealer on, the dealer a
14th, flowers set aside seat by seat from the dealer and replaced from the back). Nothing of
``rng`` is imported: the game must deal what the documentation says anyone can recompute."""
import hashlib
import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.games.mcr.rules import MCR, Options

FLOWERS = range(136, 144)


def u32(n):
    return struct.pack(">I", n)


def deal_key(seed, entropy):
    """sha256("referee/v1/deal" || u32 len(seed) || seed || u32 len(E) || E)."""
    return hashlib.sha256(b"referee/v1/deal" + u32(len(seed)) + seed + u32(len(entropy)) + entropy).digest()


class DocumentedStream:
    """Block i = sha256(key || label || u64 i); four u64 words a block, read in order."""

    def __init__(self, key, label):
        self.prefix, self.block, self.words = key + label.encode("ascii"), 0, []

    def word(self):
        if not self.words:
            digest = hashlib.sha256(self.prefix + struct.pack(">Q", self.block)).digest()
            self.words = list(struct.unpack(">4Q", digest))
            self.block += 1
        return self.words.pop(0)

    def randbelow(self, n):
        """Words until one is below n * floor(2^64 / n), answered mod n."""
        while True:
            w = self.word()
            if w < n * (2 ** 64 // n):
                return w % n

    def shuffle(self, items):
        """For i from the last index down to 1, swap items i and randbelow(i + 1)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def deal_from_wall(wall, dealer):
    """Rules 2-3 as the module docstring words them: 13 tiles to each seat from the dealer on,
    a 14th to the dealer; then seat by seat from the dealer every flower is set aside (lowest
    first) and replaced from the back of the wall, until the seat holds none. Returns the hands
    (sets of ids), the flowers (lists, in the order set aside), the dealer's last tile and the
    back of the live wall."""
    hands = {(dealer + i) % 4: set(wall[13 * i:13 * i + 13]) for i in range(4)}
    hands[dealer].add(wall[52])
    last, back = wall[52], 144
    flowers = {seat: [] for seat in range(4)}
    for i in range(4):
        seat = (dealer + i) % 4
        while hands[seat] & set(FLOWERS):
            for flower in sorted(hands[seat] & set(FLOWERS)):
                hands[seat].remove(flower)
                flowers[seat].append(flower)
                back -= 1
                hands[seat].add(wall[back])
                if seat == dealer:
                    last = wall[back]
    return hands, flowers, last, back


def documented_deal(seed, entropy, dealer):
    """(wall, dealer, hands as sets, flowers in the order set aside, the dealer's last tile, tiles
    drawn from the back)."""
    key = deal_key(seed, entropy)
    wall = DocumentedStream(key, "wall").shuffle(range(144))
    if dealer < 0:
        dealer = DocumentedStream(key, "dealer").randbelow(4)
    hands, flowers, last, back = deal_from_wall(wall, dealer)
    return bytes(wall), dealer, hands, flowers, last, 144 - back


def ids(mask):
    return {t for t in range(144) if mask >> t & 1}


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=1, max_size=64), st.binary(max_size=40), st.integers(-1, 3))
def test_mcr_wall_and_deal_follow_the_documented_algorithm(seed, entropy, option_dealer):
    wall, dealer, hands, flowers, last, replaced = documented_deal(seed, entropy, option_dealer)
    state = MCR.deal(Options(dealer=option_dealer), seed, entropy)
    assert state.wall == wall
    assert state.dealer == dealer and state.to_act == (dealer,)
    assert [ids(h) for h in state.hands] == [hands[s] for s in range(4)]
    assert [list(f) for f in state.flowers] == [flowers[s] for s in range(4)]
    assert state.drawn == last
    assert (state.front, state.back) == (53, 144 - replaced)


def test_mcr_dealer_drawn_from_the_documented_stream():
    # dealer -1 in a match's first hand: randbelow(4) on the stream "dealer"
    for n in range(12):
        seed = f"dealer-{n}".encode()
        _, dealer, _, _, _, _ = documented_deal(seed, b"", -1)
        assert MCR.deal(Options(dealer=-1), seed).dealer == dealer
