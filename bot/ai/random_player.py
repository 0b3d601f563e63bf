"""The simplest computer player: a uniformly random legal action."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.engines.base import Engine, GameError, PlayerId, SeededRng


def choose_uniform(
    engine: Engine[Any, Any], state: BaseModel, player: PlayerId, rng: SeededRng
) -> BaseModel:
    actions = engine.legal_actions(state, player)
    if not actions:
        raise GameError(f"{player} has no legal action.")
    return actions[rng.below(len(actions))]  # type: ignore[no-any-return]
