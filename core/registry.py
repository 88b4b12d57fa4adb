"""The game registry: id -> Game instance. A new game is one module and one line here."""
from .errors import Reason, UnknownName
from .game import Game


def _load() -> dict[str, Game]:
    from .doudizhu import DOUDIZHU
    from .mcr_game import MCR

    return {g.id: g for g in (DOUDIZHU, MCR)}


GAMES: dict[str, Game] = _load()


def get_game(game_id: str) -> Game:
    """Raises: UnknownName (UNKNOWN_GAME)."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownName(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}",
                          Reason.UNKNOWN_GAME) from None
