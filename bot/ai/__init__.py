"""Computer players: one module per game behind one interface.

A computer seat sees exactly what a person in that seat would: it is handed the
seat's own view (``engine.view(state, seat)``), never the state, so hidden cards
stay hidden (a strong player samples them or reasons over what is public).

Each game module ``bot/ai/<engine name>.py`` exposes ``PLAYERS``, a mapping from
level to a `Chooser`. Games without a module get a uniformly random player.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel

from bot.engines.base import SeededRng

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = get_args(Level)

Chooser = Callable[[Any, SeededRng], BaseModel | str]
"""``choose(view, rng) -> action``: the action (or its text form) for the seat whose
view this is. It must be legal and should take well under a second."""


def players_for(game: str) -> Mapping[Level, Chooser] | None:
    """The game's computer players by level, or None when it has none of its own."""
    try:
        module = importlib.import_module(f"bot.ai.{game}")
    except ModuleNotFoundError as missing:
        if missing.name != f"bot.ai.{game}":
            raise
        return None
    players: Mapping[Level, Chooser] = module.PLAYERS
    return players
