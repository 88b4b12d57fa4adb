"""The games under contract: every game of the registry and the toy game of these tests, which
is registered for the contract suite only (and removed after it)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.core import registry

sys.path.insert(0, str(Path(__file__).parent))
from toy_highcard import HIGHCARD  # noqa: E402

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
