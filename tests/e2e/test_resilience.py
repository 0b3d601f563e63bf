"""When Redis stops answering, a click gets a short "try again" and nothing is lost."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory, RedisServer


@pytest.fixture
def frozen_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "frozen-redis")
    server.start()
    yield server
    if server.process is not None:
        os.kill(server.process.pid, signal.SIGCONT)
    server.stop()


async def test_a_click_while_redis_hangs_is_answered_and_the_game_goes_on(
    driver: Driver, bot_process: BotFactory, frozen_redis: RedisServer
) -> None:
    await bot_process("bot", env={"REDIS_URL": frozen_redis.url})
    alice, bernd, chloe = driver.users[:3]
    await driver.slash(alice, "geschenkt start")
    lobby = driver.table()
    await driver.click(bernd, lobby, "Join")
    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    table = driver.table()
    before = table.text

    assert frozen_redis.process is not None
    os.kill(frozen_redis.process.pid, signal.SIGSTOP)
    try:
        seen = await driver.click(alice, table, "My hand")
        assert "try again" in seen.ephemeral.text
        assert seen.ephemeral.ephemeral_to == alice.id
    finally:
        os.kill(frozen_redis.process.pid, signal.SIGCONT)

    assert driver.table().text == before
    to_act = next(u for u in (alice, bernd, chloe) if f"<@{u.id}>" in table.content)
    await driver.click(to_act, table, "No thanks")
    assert "with **1** chip on it" in driver.table().text
