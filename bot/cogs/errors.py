"""One place that turns errors into short ephemeral answers."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.engines.base import GameError
from bot.i18n import N_, lang_of, tr
from bot.store import StoreError

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on our side; the game is unchanged. Please try again.")


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer only the user who interacted, whether or not we already responded."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


@asynccontextmanager
async def answering_errors(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Run an interaction handler; a `GameError` becomes an ephemeral explanation.

    Anything else is a bug: it is logged with its traceback and the user is told
    the game is unchanged (true, because saves happen last and atomically). Either
    answer is in the user's own language.
    """
    lang = lang_of(interaction.locale)
    try:
        yield
    except GameError as error:
        await _reply_quietly(interaction, tr(lang, error.template, **error.params))
    except StoreError as error:
        log.warning("Store fault in interaction %s: %s", interaction.id, error)
        await _reply_quietly(interaction, tr(lang, error.template))
    except Exception:
        log.exception("Unhandled error in interaction %s", interaction.id)
        await _reply_quietly(interaction, tr(lang, UNEXPECTED))


async def _reply_quietly(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        await reply_privately(interaction, text)
    except discord.HTTPException as error:
        log.warning("Could not answer interaction %s: %s", interaction.id, error)
