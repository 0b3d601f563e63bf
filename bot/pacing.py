"""This process's share of Discord's global limit, kept before Discord has to refuse.

Discord allows a bot token 50 requests a second, counted over every shard and process
together (interaction callbacks and the interaction's own webhook are exempt).
discord.py keeps each route's limit by the headers Discord sends, but learns of the
global one only from a 429: a burst (200 tables whose computers move at once after a
start) is refused first and retried after. `RequestPacer` starts at most
``per_second`` requests in any second, so such a burst waits its turn instead.

`pacing_trace` holds each request where it leaves: aiohttp awaits a trace's
``on_request_start`` before it sends, after discord.py has taken the route's own lock.
Pacing earlier, when discord.py is first asked, let requests that then queued on one
route's window leave together when it reset, past the global limit. Interaction
callbacks and webhooks share discord.py's session but not the global limit, so they
pass unpaced (`counts_globally`).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import aiohttp
from yarl import URL

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


def counts_globally(url: URL) -> bool:
    """Whether a request to ``url`` counts in the bot token's global limit: everything
    but an interaction's callback and its webhook."""
    return "/interactions/" not in url.path and "/webhooks/" not in url.path


def pacing_trace(pacer: RequestPacer) -> aiohttp.TraceConfig:
    """A trace for discord.py's session (`discord.Client`'s ``http_trace``) that starts
    each bot-token request only when ``pacer`` lets it."""

    async def wait_for_turn(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if counts_globally(params.url):
            await pacer.wait()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(wait_for_turn)
    return trace
