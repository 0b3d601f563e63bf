"""A finished game's private panel offers nothing to do: no select to pick from and no
button that acts. A control left on it would answer "this game is over" to a click
that the panel invited."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import GAMES, GameSpec

SEATS = 3
MAX_ACTIONS = 5_000


def finished_game(spec: GameSpec[Any, Any, Any], seed: int) -> Any:
    """A game of ``spec`` played to its end by random legal moves."""
    engine = spec.engine
    players = [f"p{n}" for n in range(max(engine.min_players, min(SEATS, engine.max_players)))]
    state = engine.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if engine.is_over(state):
            return state
        player = engine.to_act(state)[0]
        state = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))
    pytest.fail(f"{spec.name} did not end in {MAX_ACTIONS} random actions")


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_a_finished_game_s_panel_has_no_controls(spec: GameSpec[Any, Any, Any]) -> None:
    state = finished_game(spec, seed=7)
    names = {player: player for player in state.players}
    for player in state.players:
        panel = spec.adapter.private_panel(spec.engine.view(state, player), {}, names, "en")
        assert panel.selects == [], f"{spec.name}: a select on a finished game's panel"
        assert all(button.disabled for button in panel.buttons), spec.name
