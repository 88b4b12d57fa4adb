"""The game registry: id -> Game instance. A new game is one module and one line in ``_load``.

``register`` adds a game at run time (a test's toy game, a plug-in): the service reads the
registry on every call, so a registered game is served at once.
"""
from __future__ import annotations

from .errors import Reason, UnknownName
from .game import Game


def _load() -> dict[str, Game]:
    from .bidaxiao import BIDAXIAO
    from .coushu import COUSHU
    from .doudizhu import DOUDIZHU
    from .jielong import JIELONG
    from .mcr_game import MCR
    from .q783 import Q783
    from .tonghua import TONGHUA

    return {g.id: g for g in (DOUDIZHU, MCR, BIDAXIAO, TONGHUA, COUSHU, JIELONG, Q783)}


GAMES: dict[str, Game] = _load()


def get_game(game_id: str) -> Game:
    """Raises: UnknownName (UNKNOWN_GAME)."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownName(f"unknown game {game_id[:40]!r}; known: {', '.join(sorted(GAMES))}",
                          Reason.UNKNOWN_GAME) from None


def register(game: Game) -> Game:
    """Add ``game`` under its id (replacing a game of that id). Returns it."""
    GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    GAMES.pop(game_id, None)
