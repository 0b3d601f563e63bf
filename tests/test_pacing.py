"""`bot.pacing`: this process's share of Discord's global limit, kept by waiting."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
from yarl import URL

from bot.pacing import RequestPacer, counts_globally, pacing_trace


class Clock:
    """A clock that moves only when the pacer sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_no_more_than_the_share_is_sent_in_any_second() -> None:
    clock = Clock()
    pacer = RequestPacer(3, clock=clock, sleep=clock.sleep)
    starts: list[float] = []

    async def burst() -> None:
        for _ in range(7):
            await pacer.wait()
            pacer.sent()
            starts.append(clock.now)

    asyncio.run(burst())
    assert starts == [100.0, 100.0, 100.0, 101.0, 101.0, 101.0, 102.0]
    assert all(sum(1 for t in starts if start <= t < start + 1.0) <= 3 for start in starts), starts


def test_requests_spread_out_wait_for_nothing() -> None:
    clock = Clock()
    pacer = RequestPacer(2, clock=clock, sleep=clock.sleep)

    async def spread() -> None:
        for _ in range(5):
            await pacer.wait()
            pacer.sent()
            clock.now += 0.6

    asyncio.run(spread())
    assert clock.slept == []


def test_requests_let_go_but_not_sent_yet_count_until_they_leave() -> None:
    """A busy event loop holds two requests let go a second apart; they leave together
    with a third, and the three sent together must not exceed the share of 2."""
    clock = Clock()
    pacer = RequestPacer(2, clock=clock, sleep=clock.sleep)
    let_go: list[float] = []

    async def stalled() -> None:
        await pacer.wait()  # let go at 100.0, not sent yet
        clock.now += 1.0
        await pacer.wait()  # let go at 101.0: the first is still in flight, 2 < 3
        let_go.append(clock.now)
        third = asyncio.ensure_future(pacer.wait())
        await asyncio.sleep(0)
        assert not third.done(), "two let go and unsent fill the share"
        pacer.sent()  # the loop catches up: both leave at 101.0
        pacer.sent()
        await third  # the third waits for a second after they left
        let_go.append(clock.now)

    asyncio.run(stalled())
    assert let_go == [101.0, 102.0]


def test_a_request_that_fails_before_it_is_sent_frees_its_place() -> None:
    clock = Clock()
    pacer = RequestPacer(1, clock=clock, sleep=clock.sleep)

    async def failing() -> None:
        await pacer.wait()
        pacer.dropped()
        await pacer.wait()

    asyncio.run(failing())
    assert clock.slept == []


def test_only_bot_token_requests_count_in_the_global_limit() -> None:
    base = "https://discord.com/api/v10"
    assert counts_globally(URL(f"{base}/channels/1/messages/2"))
    assert counts_globally(URL(f"{base}/channels/1/threads"))
    assert not counts_globally(URL(f"{base}/interactions/1/tok/callback"))
    assert not counts_globally(URL(f"{base}/webhooks/9/tok/messages/@original"))


def test_the_trace_holds_a_bot_token_request_until_its_turn() -> None:
    clock = Clock()
    trace = pacing_trace(RequestPacer(1, clock=clock, sleep=clock.sleep))
    (on_start,) = trace.on_request_start
    (on_sent,) = trace.on_request_headers_sent
    headers: Any = {}
    session = cast(aiohttp.ClientSession, None)

    async def requests(*paths: str) -> None:
        for path in paths:
            params = aiohttp.TraceRequestStartParams("PATCH", URL(path), headers)
            context = SimpleNamespace()
            await on_start(session, context, params)
            await on_sent(session, context, params)  # type: ignore[arg-type]

    base = "http://fake/api/v10"
    asyncio.run(requests(f"{base}/interactions/1/t/callback", f"{base}/channels/1/messages/2"))
    assert clock.slept == [], "an interaction's callback is not paced"
    asyncio.run(requests(f"{base}/channels/1/messages/3"))
    assert clock.slept == [1.0], "the second bot-token request waited for its second"


def test_a_share_of_zero_never_waits() -> None:
    clock = Clock()
    pacer = RequestPacer(0, clock=clock, sleep=clock.sleep)

    async def many() -> None:
        for _ in range(100):
            await pacer.wait()

    asyncio.run(many())
    assert clock.slept == []
