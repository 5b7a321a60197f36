"""One sub-package per game. Each provides a *plugin* the batch runner drives.

A plugin module offers ``check_arm(arm)``, ``engine_for(arm)``, ``fingerprint(arm)`` and
``run_chunk(arm, first_index, count, decisions)`` (see :mod:`sims.games.nyslice.plugin`).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from sims.core.registry import get_game

_PLUGINS = {"nyslice": "sims.games.nyslice.plugin"}


def plugin_for(game: str) -> ModuleType:
    """The batch plugin of a registered game."""
    get_game(game)
    return import_module(_PLUGINS[game])
