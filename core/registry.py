"""The game registry: id -> Game instance. A new game is one package (``core/games/<id>/``, whose
``GAME`` is the instance) and one line in ``GAME_PACKAGES``.

``register`` adds a game at run time (a test's toy game, a plug-in): the service reads the
registry on every call, so a registered game is served at once.
"""
from __future__ import annotations

import importlib

from .errors import Reason, UnknownName
from .game import Game


# the games shipped, one line each: the package core/games/<id>/ and its GAME
GAME_PACKAGES = ("doudizhu", "mcr", "bidaxiao", "tonghua", "coushu", "jielong", "q783", "gouji", "chuanpai")


def _load() -> dict[str, Game]:
    games = (importlib.import_module(f"{__package__}.games.{name}").GAME for name in GAME_PACKAGES)
    return {g.id: g for g in games}


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
