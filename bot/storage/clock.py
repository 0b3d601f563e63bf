"""The bot's sense of time for deadlines: turn clocks, choice timeouts, lobby expiry.

Deadlines are absolute times kept in Redis with the game (`Table.turn_deadline`),
so a restarted bot waits only for what is left. The clock is injectable: with
``CLOCK_OFFSET_KEY`` set, the bot's time is the system time plus the seconds stored
under that Redis key, which a test (or an operator rehearsing a timeout) raises to
move the bot's time forward instead of waiting.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

import redis.asyncio as aioredis

from bot.storage.errors import StoreUnavailable, guarded


class Clock(Protocol):
    async def now(self) -> float:
        """Unix time as this bot sees it."""

    async def sleep_until(self, when: float) -> None:
        """Return once ``now()`` has reached ``when``."""


class SystemClock:
    async def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(max(when - time.time(), 0.0))


class OffsetClock:
    """The system clock moved forward by a number of seconds read from Redis.

    `sleep_until` wakes every ``poll_seconds`` to read the offset again, so a jump
    forward ends the waits it passes within one poll."""

    def __init__(self, client: aioredis.Redis, key: str, poll_seconds: float = 0.05) -> None:
        self._client = client
        self._key = key
        self._poll = poll_seconds

    async def now(self) -> float:
        raw = await guarded(self._client.get(self._key))
        return time.time() + (float(raw) if raw is not None else 0.0)

    async def sleep_until(self, when: float) -> None:
        """A wait survives Redis going away (a restart, the bot closing its client):
        until it can read the offset again it goes by the system time, which is never
        ahead of this clock."""
        while True:
            try:
                left = when - await self.now()
            except StoreUnavailable:
                left = when - time.time()
            if left <= 0:
                return
            await asyncio.sleep(min(left, self._poll))
