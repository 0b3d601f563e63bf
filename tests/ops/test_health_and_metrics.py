"""METRICS_PORT: /healthz says whether the bot can serve, /metrics counts its work."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory, RedisServer
from tests.harness.metrics import metric_sample


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def stoppable_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "stoppable-redis")
    server.start()
    yield server
    if server.process is not None:
        os.kill(server.process.pid, signal.SIGCONT)
    server.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        yield session


async def health(http: aiohttp.ClientSession, port: int) -> tuple[int, dict[str, Any]]:
    async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
        return response.status, await response.json()


async def test_healthz_is_ready_while_redis_answers_and_503_when_it_does_not(
    bot_process: BotFactory, stoppable_redis: RedisServer, http: aiohttp.ClientSession
) -> None:
    port = free_port()
    await bot_process("bot", env={"REDIS_URL": stoppable_redis.url, "METRICS_PORT": str(port)})
    await wait_until_ready(http, port)

    assert stoppable_redis.process is not None
    os.kill(stoppable_redis.process.pid, signal.SIGSTOP)
    try:
        status, checks = await health(http, port)
    finally:
        os.kill(stoppable_redis.process.pid, signal.SIGCONT)
    assert (status, checks) == (503, {"ready": False, "gateway": True, "redis": False})
    assert await health(http, port) == (200, {"ready": True, "gateway": True, "redis": True})


async def wait_until_ready(http: aiohttp.ClientSession, port: int) -> None:
    """The gateway's READY may come a moment after the harness sees IDENTIFY."""
    for _ in range(100):
        status, checks = await health(http, port)
        if status == 200:
            assert checks == {"ready": True, "gateway": True, "redis": True}
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz never became ready: {checks}")


async def test_metrics_count_clicks_their_latency_renders_and_tables(
    driver: Driver, bot_process: BotFactory, http: aiohttp.ClientSession
) -> None:
    port = free_port()
    await bot_process("bot", env={"METRICS_PORT": str(port)})
    clicks = "tablebot_interactions_total"
    before = await metric_sample(http, port, clicks, kind="component", outcome="ok")
    timed = await metric_sample(http, port, "tablebot_click_callback_seconds_count")

    alice, bernd, chloe = driver.users[:3]
    await driver.slash(alice, "geschenkt start")
    lobby = driver.table()
    await driver.click(bernd, lobby, "Join")
    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    await driver.click(bernd, driver.table(), "My hand")
    await driver.click(alice, driver.table(), "My hand")

    assert await metric_sample(http, port, clicks, kind="component", outcome="ok") == before + 5
    assert await metric_sample(http, port, "tablebot_click_callback_seconds_count") == timed + 5
    assert await metric_sample(http, port, clicks, kind="application_command", outcome="ok") == 1
    assert (
        await metric_sample(http, port, "tablebot_tables", game="geschenkt", phase="playing") == 1
    )
    assert await metric_sample(http, port, "tablebot_render_seconds_count") > 0
    assert await metric_sample(http, port, "tablebot_gateway_latency_seconds") >= 0
    assert await metric_sample(http, port, "tablebot_redis_errors_total") == 0
