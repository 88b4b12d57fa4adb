"""Fixtures of the core suite: the two twins of the Dou Dizhu hot path."""
import pytest

from referee.core import speedups
from referee.core.games.doudizhu import rules as doudizhu


@pytest.fixture(params=["interpreted", "compiled"])
def hot(request, monkeypatch):
    """Each twin of ``ddz_hot`` in turn; ``referee.core.games.doudizhu.rules`` is patched to use it too,
    so ``legal_plays``/``legal_rank_strings``/``classify`` run on the twin under test."""
    interpreted = speedups.interpreted("games.doudizhu.hot")
    module = interpreted
    if request.param == "compiled":
        module = speedups.load("games.doudizhu.hot")
        if module is interpreted:
            pytest.skip("no compiled twin: referee.core.games.doudizhu.hot_c is not installed "
                        "(or REFEREE_FORCE_PURE=1), so load() gives the interpreted module")
    monkeypatch.setattr(doudizhu, "hot", module)
    return module
