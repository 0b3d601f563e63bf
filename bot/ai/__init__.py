"""Computer players: one module per game behind one interface.

A computer seat sees exactly what a person in that seat would: it is handed the
seat's own view (``engine.view(state, seat)``), never the state, so hidden cards
stay hidden (a strong player samples them or reasons over what is public).

Each game module ``bot/ai/<engine name>.py`` exposes ``PLAYERS``, a mapping from
level to a `Chooser`; the registry (`bot.games`) names it, and the bot refuses to
start when a level is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args

from pydantic import BaseModel

from bot.engines.base import SeededRng

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = get_args(Level)

Chooser = Callable[[Any, SeededRng], BaseModel | str]
"""``choose(view, rng) -> action``: the action (or its text form) for the seat whose
view this is. It must be legal and should take well under a second."""
