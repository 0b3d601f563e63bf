"""Games that move on without a click, whatever happened to this process.

At start every stored game is looked at once: its follow-ups (computer moves, timed
defaults, turn clocks, lobby expiry) lived only in the process that stopped, and a
finished game's stats may not have been counted. A channel that already has follow-ups
waiting in this process is left alone: a move made here since the start (Discord
delivers clicks before the bot is ready) planned them from the game as it is, and
planning again would only restart them (a computer would think its move over again).
After that a sweep runs every `Settings.followup_sweep_seconds`: a running game that
has no follow-up waiting in this process (one was lost to a Redis outage, or its save
failed half-way) gets them planned again from what Redis holds. Each record is handled
on its own, so one that can't be read never stops the others. A process looks only at
the guilds of its own shards (`Settings.owns_guild`); the others belong to the
processes serving them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.engines.base import GameError
from bot.storage.errors import Refusal, StoreError

if TYPE_CHECKING:
    from bot.play.shared import Shared

log = logging.getLogger(__name__)


async def resume_all(shared: Shared, *, after_start: bool) -> int:
    """Plan again what stored games wait for, where nothing waits in this process;
    returns how many games were looked at. ``after_start``: finished games too (their
    stats); otherwise only running games and lobbies."""
    looked_at = 0
    async for guild_id, channel_id in shared.store.places():
        if not shared.owns_guild(guild_id):
            continue
        if shared.followups.pending(channel_id):
            continue
        if await _resume_one(shared, guild_id, channel_id, after_start=after_start):
            looked_at += 1
    return looked_at


async def _resume_one(shared: Shared, guild_id: int, channel_id: int, *, after_start: bool) -> bool:
    """Plan one channel's follow-ups again. The table is read under the channel's lock,
    so a move made meanwhile can't be overtaken by a plan for the revision before it."""
    try:
        async with shared.locks.hold(guild_id, channel_id):
            if shared.followups.pending(channel_id):
                return False
            stored = await shared.store.load(guild_id, channel_id)
            game_commands = shared.games.get(stored.table.game) if stored else None
            if stored is None or game_commands is None:
                return False
            if not after_start and stored.table.phase == "over":
                return False
            await game_commands.moves.resume(stored)
        return True
    except (StoreError, GameError, Refusal, ValidationError) as error:
        log.warning("Game in channel %s not resumed: %s", channel_id, error)
        return False


async def keep_games_moving(shared: Shared, interval: float) -> None:
    """Sweep every ``interval`` seconds until cancelled (when the bot closes)."""
    while True:
        await asyncio.sleep(interval)
        try:
            swept = await resume_all(shared, after_start=False)
        except StoreError as error:
            log.info("Sweep skipped: %s", error)
            continue
        if swept:
            log.info("Planned follow-ups again for %d games", swept)
