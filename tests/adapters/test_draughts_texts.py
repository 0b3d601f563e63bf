"""Draughts' words: the table's title names the rules being played, its hint is a move
the side to move may type, and the commands say what leaving and the panel do."""

from __future__ import annotations

import random
from unittest.mock import MagicMock

import pytest

from bot.adapters.draughts import DraughtsAdapter
from bot.engines.draughts import ENGINE, DraughtsOptions, DraughtsState, Ruleset
from bot.games import game
from bot.i18n import Lang
from bot.play.game_commands import GameCommands

ADAPTER = DraughtsAdapter()


def test_a_turkish_game_is_titled_turkish_draughts() -> None:
    turkish = ENGINE.new_game(["1", "2"], 3, DraughtsOptions(ruleset="turkish"))
    assert ADAPTER.table_title(ENGINE.view(turkish, None), "en") == "Turkish draughts"
    assert ADAPTER.table_title(ENGINE.view(turkish, None), "de") == "Türkische Dame"
    usual = ENGINE.new_game(["1", "2"], 3)
    assert ADAPTER.table_title(ENGINE.view(usual, None), "en") == "Give and Take draughts"


NAMES = {"1": "Alice", "2": "Bernd"}


def hint(state: DraughtsState, lang: Lang = "en") -> str:
    """The table's last line: the Move button, and a move to type."""
    return ADAPTER.table_text(ENGINE.view(state, None), NAMES, lang).description.splitlines()[-1]


def typed_move(line: str) -> str:
    return line.split("`/draughts move ")[1].split("`")[0]


def test_the_hint_is_a_move_of_the_side_to_move_never_the_last_one_played() -> None:
    state = ENGINE.new_game(["1", "2"], 3)
    assert typed_move(hint(state)) in ENGINE.view(state, None).legal_moves
    state = ENGINE.apply(state, "1", "c3-c4")
    black = ENGINE.view(state, None)
    assert black.to_move == "black"
    assert typed_move(hint(state)) != "c3-c4"
    assert typed_move(hint(state)) in black.legal_moves
    assert hint(state, "de").startswith("Drück **Zug** oder tippe `/draughts zug ")


@pytest.mark.parametrize("ruleset", ["give-and-take", "turkish"])
def test_a_forced_capture_is_the_hint(ruleset: Ruleset) -> None:
    state = ENGINE.new_game(["1", "2"], 3, DraughtsOptions(ruleset=ruleset))
    rng = random.Random(7)
    for _ in range(200):
        view = ENGINE.view(state, None)
        if view.capture_required:
            break
        state = ENGINE.apply(state, view.to_act or "", rng.choice(view.legal_moves))
    view = ENGINE.view(state, None)
    assert view.capture_required
    captures = {move.notation for move in view.moves if move.captures}
    assert typed_move(hint(state)) in captures


def test_leave_says_it_resigns_and_hand_names_the_move_panel() -> None:
    game_commands = GameCommands(MagicMock(), game("draughts"))
    descriptions = {command.name: command.description for command in game_commands.group.commands}
    assert descriptions["leave"] == "Leave the table (in a running game you resign and lose)"
    assert descriptions["hand"].startswith("Open your Move panel")
    other = GameCommands(MagicMock(), game("take"))
    leave = next(command for command in other.group.commands if command.name == "leave")
    assert "a computer takes your seat" in leave.description
