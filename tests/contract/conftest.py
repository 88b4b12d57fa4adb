"""The games under contract: every game of the registry and the toy game of these tests, which
is registered for the contract suite only (and removed after it)."""
from __future__ import annotations

import pytest
from toy_highcard import HIGHCARD

from referee.core import registry

GAME_IDS = sorted(registry.GAMES) + [HIGHCARD.id]


@pytest.fixture(scope="package", autouse=True)
def toy_registered():
    """The toy game, registered as any game is: one call, no other change."""
    registry.register(HIGHCARD)
    yield HIGHCARD
    registry.unregister(HIGHCARD.id)


@pytest.fixture(params=GAME_IDS)
def game(request, toy_registered):
    return registry.get_game(request.param)
