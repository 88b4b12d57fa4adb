"""斗地主 Dou Dizhu: rules (the game), hot (classification, comparison and legal plays; compiled)."""
from .rules import DOUDIZHU as GAME

__all__ = ["GAME"]
