"""Command options checked on the bot's side, against what the command declares.

Discord's clients keep to a command's ranges, choices and types, but nothing stops a
client with an old command cached, or a forged request, from sending
``turn_time=-5``, ``colour="purple"``, ``tactical="yes"`` or an option the command
doesn't have, and discord.py passes such values through unchecked. Every command
calls `check_options` first, so a bad value gets a clear refusal before anything is
loaded or saved.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from bot.engines.base import GameError

MAX_TEXT_OPTION = 100
"""The longest text a free-text option may carry (a move is far shorter)."""
DISCORD_MAX_INTEGER = 2**53
"""Discord's bounds for an integer or number option without a range of its own."""
SNOWFLAKE_TYPES = frozenset(
    {
        AppCommandOptionType.user,
        AppCommandOptionType.channel,
        AppCommandOptionType.role,
        AppCommandOptionType.mentionable,
        AppCommandOptionType.attachment,
    }
)

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
    _check_type(parameter, value)
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


def _has_type(kind: AppCommandOptionType, value: object) -> bool:
    """Whether ``value`` is of the JSON type Discord sends for an option of ``kind``."""
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if kind is AppCommandOptionType.integer:
        return isinstance(value, int)
    if kind is AppCommandOptionType.number:
        return isinstance(value, int | float)
    if kind in SNOWFLAKE_TYPES:
        return isinstance(value, str) and value.isdigit()
    return isinstance(value, str)


def _check_type(parameter: app_commands.Parameter, value: object) -> None:
    """Refuse a value of the wrong type in the words of the check it fails: the
    choices, True or False, the range, or else the option named as invalid."""
    kind = parameter.type
    if _has_type(kind, value):
        return
    name = parameter.display_name
    if parameter.choices:
        choices = ", ".join(str(choice.value) for choice in parameter.choices)
        raise GameError("`{option}` must be one of: {choices}.", option=name, choices=choices)
    if kind is AppCommandOptionType.boolean:
        raise GameError("`{option}` must be one of: {choices}.", option=name, choices="True, False")
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        low = -DISCORD_MAX_INTEGER if parameter.min_value is None else parameter.min_value
        high = DISCORD_MAX_INTEGER if parameter.max_value is None else parameter.max_value
        raise GameError(
            "`{option}` must be between {low} and {high}.", option=name, low=low, high=high
        )
    raise GameError("Invalid options: {error}", error=f"`{name}`")
