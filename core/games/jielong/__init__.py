"""接龙 the train: rules."""
from .rules import JIELONG as GAME

__all__ = ["GAME"]
