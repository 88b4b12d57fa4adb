"""A game's own API beside the generic one: ``service/games/<game id>.py``, found through the
registry (a registered game with such a module gets it served and its commands in the CLI).

A module may define, all optional:

- ``services() -> [(grpc ServiceDescriptor, servicer)]``: gRPC services of the game's own proto
  (``protos/referee/<game>/v1/``), added to every server beside ``referee.v1.RefereeService``;
- ``add_commands(subparsers)``: sub-commands of the ``referee`` CLI (``referee fan``);
- ``bench(seconds) -> [(label, baseline, ours, unit)]``: lines for ``referee bench``.

Nothing else in ``service/`` names a game.
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from referee.core.registry import GAMES


def modules() -> dict[str, ModuleType]:
    """The per-game modules of the registered games, by game id."""
    found = {}
    for game_id in sorted(GAMES):
        name = f"{__name__}.{game_id}"
        if game_id.isidentifier() and importlib.util.find_spec(name) is not None:
            found[game_id] = importlib.import_module(name)
    return found


def services() -> list:
    """(descriptor, servicer) of every game's own gRPC services."""
    return [pair for module in modules().values() if hasattr(module, "services") for pair in module.services()]
