"""This process's share of Discord's global limit, kept before Discord has to refuse.

Discord allows a bot token 50 requests a second, counted over every shard and process
together (interaction callbacks and the interaction's own webhook are exempt).
discord.py keeps each route's limit by the headers Discord sends, but learns of the
global one only from a 429: a burst (200 tables whose computers move at once after a
start) is refused first and retried after. `RequestPacer` starts at most
``per_second`` requests in any second, so such a burst waits its turn instead.
`paced` puts it in front of discord.py's ``HTTPClient.request``, which carries every
request made with the bot token and no other (interaction responses go through the
webhook adapter).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

WINDOW_SECONDS = 1.0


class RequestPacer:
    """At most ``per_second`` request starts in any window of one second (0: no limit),
    in the order they asked."""

    def __init__(
        self,
        per_second: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.per_second = per_second
        self._clock = clock
        self._sleep = sleep
        self._starts: deque[float] = deque()
        self._turn = asyncio.Lock()

    async def wait(self) -> None:
        """Return when one more request may start."""
        if self.per_second <= 0:
            return
        async with self._turn:
            now = self._forget_before(self._clock())
            if len(self._starts) >= self.per_second:
                await self._sleep(self._starts[0] + WINDOW_SECONDS - now)
                now = self._forget_before(self._clock())
            self._starts.append(now)

    def _forget_before(self, now: float) -> float:
        while self._starts and now - self._starts[0] >= WINDOW_SECONDS:
            self._starts.popleft()
        return now


Request = Callable[..., Awaitable[Any]]


def paced(request: Request, pacer: RequestPacer) -> Request:
    """``request`` (discord.py's ``HTTPClient.request``) started only when ``pacer``
    lets it."""

    async def request_paced(*args: Any, **kwargs: Any) -> Any:
        await pacer.wait()
        return await request(*args, **kwargs)

    return request_paced
