"""This process's share of Discord's global limit, kept before Discord has to refuse.

Discord allows a bot token 50 requests a second, counted over every shard and process
together (interaction callbacks and the interaction's own webhook are exempt).
discord.py keeps each route's limit by the headers Discord sends, but learns of the
global one only from a 429: a burst (200 tables whose computers move at once after a
start) is refused first and retried after. `RequestPacer` sends at most
``per_second`` requests in any second, so such a burst waits its turn instead.

`pacing_trace` holds each request where it leaves: aiohttp awaits a trace's
``on_request_start`` before it sends, after discord.py has taken the route's own lock,
and tells the trace when the request's headers were written. Pacing earlier, when
discord.py is first asked, let requests that then queued on one route's window leave
together when it reset; counting requests when they were let go rather than sent let
those that then waited on a busy event loop leave together. Both went past the global
limit. Interaction callbacks and webhooks share discord.py's session but not the
global limit, so they pass unpaced (`counts_globally`).
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
    """At most ``per_second`` requests sent in any window of one second (0: no limit),
    in the order they asked.

    It counts requests by when they were sent (`sent`), not when they were let go: a
    request let go may wait on the event loop before it leaves (a busy machine), and
    requests let go a second apart then leave together. So a request is let go only
    while those sent within the last second and those let go but not sent yet are
    fewer than ``per_second``; then any second of send times holds at most
    ``per_second`` of them, however late each one left."""

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
        self._sent: deque[float] = deque()
        self._in_flight = 0
        self._turn = asyncio.Lock()
        self._left = asyncio.Event()
        """Set when a request let go is sent or dropped."""

    async def wait(self) -> None:
        """Return when one more request may be sent; the caller then reports it `sent`,
        or `dropped` if it never was."""
        if self.per_second <= 0:
            return
        async with self._turn:
            while True:
                now = self._forget_before(self._clock())
                if len(self._sent) + self._in_flight < self.per_second:
                    break
                if self._sent:
                    await self._sleep(self._sent[0] + WINDOW_SECONDS - now)
                else:
                    self._left.clear()
                    await self._left.wait()
            self._in_flight += 1

    def sent(self) -> None:
        """A request let go by `wait` was sent now."""
        self._in_flight -= 1
        self._sent.append(self._clock())
        self._left.set()

    def dropped(self) -> None:
        """A request let go by `wait` failed before it was sent."""
        self._in_flight -= 1
        self._left.set()

    def _forget_before(self, now: float) -> float:
        while self._sent and now - self._sent[0] >= WINDOW_SECONDS:
            self._sent.popleft()
        return now


def counts_globally(url: URL) -> bool:
    """Whether a request to ``url`` counts in the bot token's global limit: everything
    but an interaction's callback and its webhook."""
    return "/interactions/" not in url.path and "/webhooks/" not in url.path


def pacing_trace(pacer: RequestPacer) -> aiohttp.TraceConfig:
    """A trace for discord.py's session (`discord.Client`'s ``http_trace``) that lets
    each bot-token request go only when ``pacer`` says, and tells it when the request
    was sent (its headers written) or failed before."""

    async def wait_for_turn(
        _session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if counts_globally(params.url) and pacer.per_second > 0:
            await pacer.wait()
            context.paced = True

    async def on_sent(
        _session: aiohttp.ClientSession, context: SimpleNamespace, _params: object
    ) -> None:
        if getattr(context, "paced", False):
            context.paced = False
            pacer.sent()

    async def on_failed(
        _session: aiohttp.ClientSession, context: SimpleNamespace, _params: object
    ) -> None:
        if getattr(context, "paced", False):
            context.paced = False
            pacer.dropped()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(wait_for_turn)
    trace.on_request_headers_sent.append(on_sent)
    trace.on_request_exception.append(on_failed)
    return trace
