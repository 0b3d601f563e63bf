"""`bot.pacing`: this process's share of Discord's global limit, kept by waiting."""

from __future__ import annotations

import asyncio

from bot.pacing import RequestPacer, paced


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


def test_no_more_than_the_share_starts_in_any_second() -> None:
    clock = Clock()
    pacer = RequestPacer(3, clock=clock, sleep=clock.sleep)
    starts: list[float] = []

    async def burst() -> None:
        for _ in range(7):
            await pacer.wait()
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
            clock.now += 0.6

    asyncio.run(spread())
    assert clock.slept == []


def test_a_paced_request_passes_its_arguments_and_answer_on() -> None:
    calls: list[tuple[tuple[object, ...], dict[str, object]]] = []

    async def request(*args: object, **kwargs: object) -> str:
        calls.append((args, kwargs))
        return "answer"

    clock = Clock()
    send = paced(request, RequestPacer(1, clock=clock, sleep=clock.sleep))
    answers = asyncio.run(asyncio.wait_for(_twice(send), 5))
    assert answers == ["answer", "answer"]
    assert calls == [(("route",), {"json": 1}), (("route",), {"json": 1})]
    assert clock.slept == [1.0], "the second waited for the first's second to pass"


async def _twice(send: object) -> list[object]:
    assert callable(send)
    return [await send("route", json=1), await send("route", json=1)]


def test_a_share_of_zero_never_waits() -> None:
    clock = Clock()
    pacer = RequestPacer(0, clock=clock, sleep=clock.sleep)

    async def many() -> None:
        for _ in range(100):
            await pacer.wait()

    asyncio.run(many())
    assert clock.slept == []
