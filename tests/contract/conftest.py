"""The games under contract: every game of the registry and the toy game of these tests, which
is registered for the contract suite only (and removed after it)."""
from __future__ import annotations

import pytest
from toy_highcard import HIGHCARD

from referee.core import registry

GAME_IDS = sorted(registry.GAMES) + [HIGHCARD.id]
# every game with its default options, and each of its presets
GAME_PRESETS = [(g, "") for g in GAME_IDS] + [
    (g, p) for g in GAME_IDS for p in (registry.GAMES.get(g) or HIGHCARD).presets]


@pytest.fixture(scope="package", autouse=True)
def toy_registered():
    """The toy game, registered as any game is: one call, no other change."""
    registry.register(HIGHCARD)
    yield HIGHCARD
    registry.unregister(HIGHCARD.id)


@pytest.fixture(params=GAME_IDS)
def game(request, toy_registered):
    return registry.get_game(request.param)


@pytest.fixture(params=GAME_PRESETS, ids=lambda p: f"{p[0]}-{p[1] or 'default'}")
def game_preset(request, toy_registered):
    """(game, options) for every game's defaults and each of its presets."""
    game_id, preset = request.param
    game = registry.get_game(game_id)
    return game, game.make_options(preset)
