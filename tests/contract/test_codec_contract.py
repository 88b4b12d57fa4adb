"""The state codec's side of the contract, for every game that packs with one (``game.codec``, a
``referee.core.codec.StateCodec``): its tokens' padding holds the longest state its declarations
allow, and every state a playout reaches is within those declarations. Together they make "every
token fits its padding" a proof, not a sample. Games without a codec are skipped.
"""
from __future__ import annotations

import random

import pytest
from game_contract import choose

from referee.core import registry


def codec_of(game):
    codec = getattr(game, "codec", None)
    if codec is None:
        pytest.skip(f"{game.id} packs without a StateCodec")
    return codec


def test_the_padding_holds_the_longest_state_the_declarations_allow(game):
    codec = codec_of(game)
    assert codec.max_size() <= game.state_bytes, (
        f"{game.id}: a state may pack to {codec.max_size()} bytes, over state_bytes {game.state_bytes}; "
        f"longest fields: {sorted(codec.sizes().items(), key=lambda kv: -kv[1])[:4]}")
    largest = codec.largest_state()
    assert codec.conforms(largest) == [] and len(game.pack(largest)) == codec.max_size()


@pytest.mark.parametrize("round_seed", range(3))
def test_every_state_a_playout_reaches_is_within_its_declarations(game_preset, round_seed):
    game, options = game_preset
    codec = codec_of(game)
    rnd = random.Random(round_seed)
    for seats in range(game.min_seats, game.max_seats + 1):
        state = game.deal(options, b"declared %d" % round_seed, b"", seats)
        states = [state]
        while not state.finished:
            state, _ = game.apply(state, choose(game, state, rnd, 0.002))
            states.append(state)
        if not game.match_over(state):
            states.append(game.deal(state.options, b"next", b"", seats, game.next_round(state)))
        for reached in states:
            assert codec.conforms(reached) == [], (game.id, reached.step, codec.conforms(reached)[:3])


def test_a_registered_codec_is_its_games_state_type():
    for game in registry.GAMES.values():
        codec = getattr(game, "codec", None)
        if codec is not None:
            assert type(game.deal(game.make_options(), b"type", b"")) is codec.state_type, game.id
