"""Which format a tournament of each game is played in, by default and when chosen."""

from __future__ import annotations

import pytest

from bot.engines.base import GameError
from bot.games import GAMES
from bot.play.tournaments import format_for


def test_each_game_defaults_to_what_it_is_for() -> None:
    defaults = {
        spec.name: format_for(spec.engine.min_players, spec.engine.max_players, None)
        for spec in GAMES
    }
    assert defaults == {
        "geschenkt": "groups",
        "give_and_take": "groups",
        "escalation": "groups",
        "take": "groups",
        "draughts": "swiss",
    }


def test_a_game_for_two_or_more_may_be_played_as_a_swiss() -> None:
    assert format_for(2, 4, "swiss") == "swiss"  # TAKE for two


def test_a_format_the_game_cannot_be_played_in_is_refused() -> None:
    with pytest.raises(GameError):
        format_for(3, 7, "swiss")  # Geschenkt needs three
    with pytest.raises(GameError):
        format_for(2, 2, "groups")  # draughts is for two
