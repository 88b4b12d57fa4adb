"""凑数字 make the number: rules."""
from .rules import COUSHU as GAME

__all__ = ["GAME"]
