"""Q783 / 378Q: rules (the game), hot (combinations, beating, legal plays; compiled)."""
from .rules import Q783 as GAME

__all__ = ["GAME"]
