"""The games under contract: every game of the registry and the toy games of these tests, which
are registered for the contract suite only (and removed after it)."""
from __future__ import annotations

import pytest
from toy_highcard import HIGHCARD
from toy_team import TEAM

from referee.core import registry

TOYS = {HIGHCARD.id: HIGHCARD, TEAM.id: TEAM}
GAME_IDS = sorted(registry.GAMES) + list(TOYS)
# every game with its default options, and each of its presets
GAME_PRESETS = [(g, "") for g in GAME_IDS] + [
    (g, p) for g in GAME_IDS for p in (registry.GAMES.get(g) or TOYS[g]).presets]


@pytest.fixture(scope="package", autouse=True)
def toy_registered():
    """The toy games, registered as any game is: one call each, no other change. Yields the
    first (the high-card toy), as before."""
    for toy in TOYS.values():
        registry.register(toy)
    yield HIGHCARD
    for toy in TOYS.values():
        registry.unregister(toy.id)



@pytest.fixture(params=GAME_IDS)
def game(request, toy_registered):
    return registry.get_game(request.param)


@pytest.fixture(params=GAME_PRESETS, ids=lambda p: f"{p[0]}-{p[1] or 'default'}")
def game_preset(request, toy_registered):
    """(game, options) for every game's defaults and each of its presets."""
    game_id, preset = request.param
    game = registry.get_game(game_id)
    return game, game.make_options(preset)
