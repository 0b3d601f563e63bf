"""The embedded Redis never outlives its bot, however the bot ends."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bot.storage.clients import open_store
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.ops.processes import embedded_run, none_left, processes_of, redis_servers


async def test_a_failure_inside_the_store_stops_its_embedded_redis(tmp_path: Path) -> None:
    run = embedded_run(tmp_path / "data")
    with pytest.raises(RuntimeError, match="a failed start"):
        async with open_store(None, tmp_path / "data") as store:
            await store.ping()
            assert redis_servers(processes_of(run))
            raise RuntimeError("a failed start")

    assert await none_left(run) == {}


async def test_a_killed_bot_takes_its_embedded_redis_along_and_restarts_with_the_game(
    driver: Driver, bot_process: BotFactory, tmp_path: Path
) -> None:
    env = embedded_run(tmp_path / "data")
    bot = await bot_process("bot", env=env)
    alice, bernd = driver.users[:2]
    await driver.slash(alice, "geschenkt start")
    await driver.click(bernd, driver.table(), "Join")
    [server] = redis_servers(processes_of(env))

    bot.kill(signal.SIGKILL)
    await bot.wait_exit()
    assert server not in await none_left(env)

    await bot.start()
    assert "• Bernd" in (await driver.slash(alice, "geschenkt status")).message.text
