"""够级 Gouji: rules (options, plays and the pieces of a 回合), game (one 回合 of trick play, a
draft), hot (plays; compiled)."""
from .game import GOUJI as GAME

__all__ = ["GAME"]
