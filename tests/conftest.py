"""Shared fixtures: a real Redis server, the fake Discord, its driver, the bot process,
and the bot's clock moved forward by the tests."""

from tests.e2e.tables import move_clock
from tests.harness.fixtures import bot_process, driver, fake_discord, redis_server

__all__ = ["bot_process", "driver", "fake_discord", "move_clock", "redis_server"]
