"""The offset clock (tests and rehearsals move the bot's time through Redis) keeps
waiting sensibly when Redis can't be reached, instead of failing the waiting task."""

from __future__ import annotations

import socket
import time

import pytest

from bot.storage.clients import client_for_url
from bot.storage.clock import OffsetClock
from bot.storage.errors import StoreUnavailable


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_wait_goes_by_the_system_time_while_redis_is_unreachable() -> None:
    client = client_for_url(f"redis://127.0.0.1:{closed_port()}/0")
    clock = OffsetClock(client, "test:clock-offset", poll_seconds=0.01)
    with pytest.raises(StoreUnavailable):
        await clock.now()
    until = time.time() + 0.05
    await clock.sleep_until(until)
    assert time.time() >= until
    await client.aclose()


async def test_the_offset_moves_the_clock_forward(redis_server: str) -> None:
    client = client_for_url(redis_server)
    clock = OffsetClock(client, "test:clock-offset")
    await client.set("test:clock-offset", 3600)
    assert await clock.now() >= time.time() + 3599
    await clock.sleep_until(time.time() + 60)  # already passed on this clock
    await client.aclose()
