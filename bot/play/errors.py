"""One place that turns errors into short ephemeral answers, and counts interactions.

Every command and click runs inside `answering_errors`, so it is also where the bot
keeps track of the interactions in flight (a shutdown lets them finish) and counts them
by kind and outcome for the metrics. `answer_unexpected_error` is the command tree's
fallback for whatever escapes a handler.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

from bot import metrics
from bot.engines.base import GameError
from bot.i18n import N_, lang_of, tr
from bot.play.interactions import expired
from bot.storage.errors import Refusal, StoreError

log = logging.getLogger(__name__)

UNEXPECTED = N_(
    "Something went wrong on our side; the game is unchanged. Please try again. (Reference: {ref})"
)

STALE_COMMAND = N_("This command has changed since your app loaded it; try again, or see `/help`.")

_in_flight: set[asyncio.Task[Any]] = set()
"""The tasks handling an interaction right now."""


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer only the user who interacted, whether or not we already responded."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


@asynccontextmanager
async def answering_errors(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Run an interaction handler; a `GameError` (a game's rules say no) or a `Refusal`
    (the bot says no: busy, too fast, a setting) becomes an ephemeral explanation.

    Anything else is a bug: it is logged once, with its traceback and a reference id
    that the user is shown next to the news that the game is unchanged (true, because
    saves happen last and atomically). Either answer is in the user's own language.
    """
    lang = lang_of(interaction.locale)
    task = asyncio.current_task()
    if task is not None:
        _in_flight.add(task)
    if interaction.type is discord.InteractionType.component:
        metrics.click_arrived(interaction.id)
    outcome = "ok"
    try:
        yield
    except (GameError, Refusal) as error:
        outcome = "refused"
        await _reply_quietly(interaction, tr(lang, error.template, **error.params))
    except StoreError as error:
        outcome = "store_error"
        log.warning("Store fault in interaction %s: %s", interaction.id, error)
        await _reply_quietly(interaction, tr(lang, error.template))
    except Exception as error:
        if expired(error):  # too late for any answer: a slow moment, not a bug
            outcome = "expired"
            log.warning("Interaction %s expired before it was answered", interaction.id)
        else:
            outcome = "error"
            await _apologise(interaction, error)
    finally:
        if task is not None:
            _in_flight.discard(task)
        metrics.click_done(interaction.id)
        metrics.INTERACTIONS.labels(kind=interaction.type.name, outcome=outcome).inc()


async def answer_unexpected_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    """The command tree's `on_error`: whatever a command's own handling let through
    (a failed option conversion, a bug outside `answering_errors`) is answered with
    the same apology and reference id, so no interaction is left unanswered."""
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # A client with commands cached from before an upgrade: not a bug.
        metrics.INTERACTIONS.labels(kind=interaction.type.name, outcome="stale_command").inc()
        lang = lang_of(interaction.locale)
        await _reply_quietly(interaction, tr(lang, STALE_COMMAND))
        return
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    metrics.INTERACTIONS.labels(kind=interaction.type.name, outcome="error").inc()
    await _apologise(interaction, cause)


async def _apologise(interaction: discord.Interaction[Any], error: BaseException) -> None:
    ref = secrets.token_hex(4)
    log.error(
        "Unexpected error (reference %s) in interaction %s",
        ref,
        interaction.id,
        exc_info=(type(error), error, error.__traceback__),
    )
    await _reply_quietly(interaction, tr(lang_of(interaction.locale), UNEXPECTED, ref=ref))


async def finish_interactions(timeout: float) -> int:
    """Wait up to ``timeout`` seconds for the interactions being handled (a move being
    saved and shown); returns how many were still running at the end."""
    running = {task for task in _in_flight if task is not asyncio.current_task()}
    if not running:
        return 0
    _, pending = await asyncio.wait(running, timeout=timeout)
    return len(pending)


async def _reply_quietly(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        await reply_privately(interaction, text)
    except discord.HTTPException as error:
        log.warning("Could not answer interaction %s: %s", interaction.id, error)
