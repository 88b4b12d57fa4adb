"""出一样的花色 follow the suit: rules."""
from .rules import TONGHUA as GAME

__all__ = ["GAME"]
