"""The packed state of every shipped game, pinned byte for byte: a token sealed by one release
must open on the next (pods are replaced one by one in a rolling update, and a round's token
crosses them), so a change of the state's encoding (a field added or moved, marshal's version,
an option's order) or of the deal has to be deliberate. When it is, say so in the release notes
(tokens in flight across the update will not open: STATE_TOKEN_INVALID) and update the digests
here from ``python tests/golden/test_state_format.py``.
"""
import hashlib

import pytest

from referee.core import registry

SEED, ENTROPY = b"golden format", b"entropy"

# (game, preset) -> the first 32 hex digits of sha256(pack(deal(preset, SEED, ENTROPY)))
PACKED = {
    ("bidaxiao", ""): "9be2b1e6a2f1e0cbeb7010d2eb281df6",
    ("bidaxiao", "jokers_ace_high"): "eaf9baa4ced376756db5a91922a634d0",
    ("bidaxiao", "short"): "5d3ccf68beef7b9afda7a3492d499c06",
    ("coushu", ""): "faed015e0a98b784715310f080b6f4ae",
    ("coushu", "make_10"): "3e2f499228dd4cd3b38d0bc53326db70",
    ("coushu", "make_13"): "4eddf93bdfed439bd69cfb0ee9fce6a8",
    ("doudizhu", ""): "26e8b663e839cd3b64ac21ef5cbab7d4",
    ("doudizhu", "coins_fixed_fee"): "20ad90c0e6346913a31ea4f9c1eadc70",
    ("doudizhu", "coins_rake"): "8778c0a2b9bda9dd69d66963e2fda878",
    ("doudizhu", "qq"): "26e8b663e839cd3b64ac21ef5cbab7d4",
    ("jielong", ""): "98da6af1d8a78d5de987f9c2ba36c571",
    ("jielong", "jokers"): "85193e0ede680f2c48d7fa9037798f3c",
    ("mcr", ""): "0aa4386b3b229a23f3d2f236794843bb",
    ("q783", ""): "c141bf5d54da273f3fba6e2113b4972e",
    ("q783", "378q"): "ad9b060cf68a3b8765aa1e34995b8b5e",
    ("q783", "q783"): "c141bf5d54da273f3fba6e2113b4972e",
    ("tonghua", ""): "680a86b546903bcde0b035d66eb86ae6",
    ("tonghua", "ascending"): "ed546a04fec9410e1bbbef6911651e9f",
}


def packed_digest(game_id: str, preset: str) -> str:
    game = registry.GAMES[game_id]
    return hashlib.sha256(game.pack(game.deal(game.make_options(preset), SEED, ENTROPY))).hexdigest()[:32]


@pytest.mark.parametrize("game_id, preset", sorted(PACKED))
def test_the_packed_deal_is_the_released_format(game_id, preset):
    assert packed_digest(game_id, preset) == PACKED[(game_id, preset)]


def test_every_shipped_game_and_preset_is_pinned():
    shipped = {(g, p) for g, game in registry.GAMES.items() for p in ["", *game.presets]
               if type(game).__module__.startswith("referee.core.")}  # not a toy a test registered
    assert shipped <= set(PACKED), sorted(shipped - set(PACKED))


if __name__ == "__main__":
    for game_id, game in sorted(registry.GAMES.items()):
        for preset in ["", *sorted(game.presets)]:
            print(f'    ("{game_id}", "{preset}"): "{packed_digest(game_id, preset)}",')
