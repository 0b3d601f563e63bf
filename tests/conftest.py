"""Shared fixtures: a real Redis server, the fake Discord, its driver, the bot process."""

from tests.harness.fixtures import bot_process, driver, fake_discord, redis_server

__all__ = ["bot_process", "driver", "fake_discord", "redis_server"]
