"""Small facts about an interaction that every command and click needs: where it
happened, who made it, which language to answer in, and which message it came from."""

from __future__ import annotations

from typing import Any

import discord

from bot import table_life
from bot.ai import LEVELS, Level
from bot.engines.base import GameError, IllegalAction, PlayerId
from bot.i18n import Lang, lang_of
from bot.table import Seat

Interaction = discord.Interaction[Any]


def place_of(interaction: Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise IllegalAction("Games are played in server channels.")
    return interaction.guild_id, interaction.channel_id


def chosen_level(values: tuple[str, ...]) -> Level:
    for level in LEVELS:
        if values == (level,):
            return level
    raise GameError("Pick easy, normal or hard.")


def message_id_of(interaction: Interaction) -> int | None:
    return interaction.message.id if interaction.message is not None else None


def is_ephemeral(interaction: Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def public_lang(interaction: Interaction) -> Lang:
    """The language of public messages started by this interaction: the server's
    (its community locale). A server that never chose one reports American English,
    and then the language of the person starting is the better guess."""
    guild = interaction.guild_locale
    if guild is None or guild == discord.Locale.american_english:
        return lang_of(interaction.locale)
    return lang_of(guild)


def user_lang(interaction: Interaction) -> Lang:
    """The language of this user's own (ephemeral) answers: their Discord locale's."""
    return lang_of(interaction.locale)


async def answer_privately(interaction: Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


def player_of(interaction: Interaction) -> PlayerId:
    return str(interaction.user.id)


def person_of(interaction: Interaction) -> Seat:
    return table_life.person_seat(player_of(interaction), interaction.user.display_name)


def can_manage_messages(interaction: Interaction) -> bool:
    return bool(interaction.permissions.manage_messages)


UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction it no longer knows: answered after its 3 s."""


def expired(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an answer that came too late (10062)."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION
