"""Which format a tournament of each game is played in, by default and when chosen."""

from __future__ import annotations

import pytest

from bot.engines.base import GameError
from bot.games import GAMES
from bot.play.tournaments import computer_name, format_for, options_from_text


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


def test_options_are_read_as_the_game_takes_them() -> None:
    take = next(spec for spec in GAMES if spec.name == "take").engine
    options = options_from_text(take, ["hand_size", "target"], "hand_size=10, target=300")
    assert (options["hand_size"], options["target"]) == (10, 300)
    assert options_from_text(take, ["hand_size", "target"], None) == take.Options().model_dump(
        mode="json"
    )


@pytest.mark.parametrize(
    "typed",
    [
        "hand_size",
        "deck=1,2,3",
        "hand_size=many",
        "hand_size=9",
        "hand_size=10 hand_size=7",
        "`**x**`=1",
    ],
)
def test_an_option_the_game_does_not_take_is_refused_without_echoing_it(typed: str) -> None:
    take = next(spec for spec in GAMES if spec.name == "take").engine
    with pytest.raises(GameError) as refused:
        options_from_text(take, ["hand_size", "target"], typed)
    assert refused.value.params == {"names": "hand_size, target"}


@pytest.mark.parametrize(
    ("lang", "name"), [("en", "🤖 Computer 2"), ("es", "🤖 Bot 2"), ("tr", "🤖 Bilgisayar 2")]
)
def test_computer_entrants_are_named_in_the_tournaments_language(lang: str, name: str) -> None:
    assert computer_name(lang, 2) == name
