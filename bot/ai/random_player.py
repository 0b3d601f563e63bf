"""The simplest computer player: a uniformly random legal action, never giving up.

Actions that end or concede a game without playing it (resigning, offering or
accepting a draw) are left out while any other action is legal: a random player
that resigns one game in ten is no opponent at all.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.engines.base import Engine, GameError, PlayerId, SeededRng

CONCESSIONS = frozenset({"resign", "offer draw", "accept draw"})


def choose_uniform(
    engine: Engine[Any, Any, Any], state: BaseModel, player: PlayerId, rng: SeededRng
) -> BaseModel:
    actions = engine.legal_actions(state, player)
    if not actions:
        raise GameError(f"{player} has no legal action.")
    playing = [action for action in actions if str(action) not in CONCESSIONS]
    choices = playing or actions
    return choices[rng.below(len(choices))]  # type: ignore[no-any-return]
