"""够级 Gouji: rules (options, plays and the pieces of a 回合), game (the phases of a 回合 and the
局), hot (plays; compiled)."""
from .game import GOUJI as GAME

__all__ = ["GAME"]
