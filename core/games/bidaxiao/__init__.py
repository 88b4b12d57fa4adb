"""比大小 compare sizes: rules."""
from .rules import BIDAXIAO as GAME

__all__ = ["GAME"]
