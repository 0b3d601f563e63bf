"""Command options checked on the bot's side, against what the command declares.

Discord's clients keep to a command's ranges and choices, but nothing stops a
client with an old command cached, or a forged request, from sending
``turn_time=-5``, ``colour="purple"`` or an option the command doesn't have, and
discord.py passes such values through unchecked. Every command calls `check_options`
first, so a bad value gets a clear refusal before anything is loaded or saved.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.engines.base import GameError

MAX_TEXT_OPTION = 100
"""The longest text a free-text option may carry (a move is far shorter)."""

Json = Mapping[str, Any]


def check_options(interaction: discord.Interaction[Any]) -> None:
    """Raise `GameError` unless every option sent is one the command declares, within
    its range or among its choices."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    declared = {parameter.name: parameter for parameter in command.parameters}
    for name, value in _sent_options(interaction.data or {}):
        parameter = declared.get(name)
        if parameter is None:
            raise GameError("`{option}` is not an option of this command.", option=name[:32])
        _check_value(parameter, value)


def sent_option_names(interaction: discord.Interaction[Any]) -> set[str]:
    """The names of the options the user actually sent (not left at their defaults)."""
    return {name for name, _ in _sent_options(interaction.data or {})}


def _sent_options(data: Json) -> Iterator[tuple[str, object]]:
    """The (name, value) of every option sent, inside subcommand groups too."""
    for option in data.get("options", []):
        if "options" in option:
            yield from _sent_options(option)
        elif "value" in option:
            yield str(option.get("name", "")), option["value"]


def _check_value(parameter: app_commands.Parameter, value: object) -> None:
    name = parameter.display_name
    if parameter.choices and value not in {choice.value for choice in parameter.choices}:
        choices = ", ".join(str(choice.value) for choice in parameter.choices)
        raise GameError("`{option}` must be one of: {choices}.", option=name, choices=choices)
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            raise GameError(
                "`{option}` must be between {low} and {high}.", option=name, low=low, high=high
            )
    elif isinstance(value, str) and len(value) > MAX_TEXT_OPTION:
        raise GameError(
            "`{option}` is too long (at most {n} characters).", option=name, n=MAX_TEXT_OPTION
        )
