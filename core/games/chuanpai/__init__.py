"""川牌 Sichuan long cards (spec rules/chuanpai.md): ``cards`` (both decks of C-2, ids and the
pips/name notation, 2.1-2.4), ``analysis`` (M(H), paired cards, discards 5.5, compulsory takes
5.4/5.6a/3.5, 过牌 5.6/P-6, lay-down 4.4, the win check 6.1), ``deal`` (options C-1..C-14, the deal
4.3/4.6/P-1) and ``game`` (the hand as a ``Game``: ``game.CHUANPAI``, whose docstring is the rules
as implemented), registered in ``core/registry.py``."""
from .game import CHUANPAI as GAME

__all__ = ["GAME"]
