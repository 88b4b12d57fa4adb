"""国标麻将 Chinese Official Mahjong: rules (the table: wall, turns, claims, payments), fans (the stateless fan calculator), fan_table (the 81 fans and tile tables), hot (fan search; compiled)."""
from .rules import MCR as GAME

__all__ = ["GAME"]
