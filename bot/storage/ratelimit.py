"""Per-user limits on clicks and commands, kept in Redis so every bot process shares them.

A fixed window per user: the first action in a window sets a counter that expires with
the window; past ``limit`` actions the user is told to slow down. One user's flood
then costs the bot a Redis round trip per click, and never another table's turn.
"""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bot.i18n import N_
from bot.storage.errors import Refusal
from bot.storage.keys import limit_key

log = logging.getLogger(__name__)

CHECK_SECONDS = 0.3
"""How long a check may take; past it (or on a Redis fault) the action is let through:
the limit protects other tables, it must never hold up play when Redis is slow."""

_COUNT_IN_WINDOW = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
"""


class SlowDown(Refusal):
    def __init__(self) -> None:
        super().__init__(N_("You're clicking very fast; slow down for a few seconds."))


class RateLimiter:
    """At most ``limit`` actions per user in each ``window_seconds``."""

    def __init__(self, client: aioredis.Redis, *, limit: int, window_seconds: float) -> None:
        self._client = client
        self._limit = limit
        self._window_ms = max(1, round(window_seconds * 1000))
        self._script = client.register_script(_COUNT_IN_WINDOW)

    async def check(self, user_id: int) -> None:
        """Count one action of ``user_id``; raise `SlowDown` past the limit."""
        if self._limit <= 0:
            return
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                count = int(await self._script(keys=[limit_key(user_id)], args=[self._window_ms]))
        except (RedisError, TimeoutError) as error:
            log.info("Rate limit not checked for a click: %s", type(error).__name__)
            return
        if count > self._limit:
            raise SlowDown()
