"""Unexpected errors: the user gets a short private apology with a reference id, and the
log has that id once, with the traceback. Logs can be JSON, one object a line."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis

from bot.storage.keys import table_key
from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotProcess, bot_env

REFERENCE = re.compile(r"\(Reference: ([0-9a-f]{8})\)")


@pytest.fixture
async def json_logging_bot(
    fake_discord: FakeDiscord, redis_server: str, tmp_path: Path
) -> AsyncIterator[BotProcess]:
    """The bot logging JSON; unlike `bot_process` its log may hold tracebacks (logged
    on purpose here), which the tests read themselves."""
    env = bot_env(fake_discord, redis_server, {"LOG_FORMAT": "json"})
    process = BotProcess(
        "bot", fake_discord, env, tmp_path / "bot.log", expect_commands=True, ready_timeout=30
    )
    await process.start()
    yield process
    await process.stop()


def log_records(bot: BotProcess) -> list[dict[str, Any]]:
    """Every line the bot wrote, as JSON (the harness's own header lines left out)."""
    lines = [line for line in bot.output().splitlines() if not line.startswith("-----")]
    return [json.loads(line) for line in lines]


def records_naming(bot: BotProcess, reference: str) -> list[dict[str, Any]]:
    return [r for r in log_records(bot) if reference in json.dumps(r)]


async def test_a_broken_game_state_gets_an_apology_with_the_reference_logged_once(
    driver: Driver, redis_server: str, json_logging_bot: BotProcess
) -> None:
    """A table that reads fine but whose engine state doesn't: a bug, not bad input."""
    alice = driver.users[0]
    key = table_key(driver.fake.guild_id, driver.channel)
    table = {
        "game": "geschenkt",
        "gid": "abcd1234",
        "guild_id": driver.fake.guild_id,
        "channel_id": driver.channel,
        "host": str(alice.id),
        "phase": "playing",
        "seats": [{"id": str(alice.id), "name": "Alice"}],
        "state": {"not": "a geschenkt state"},
    }
    with redis.Redis.from_url(redis_server) as client:
        client.hset(key, mapping={"rev": 1, "data": json.dumps(table), "gid": "abcd1234"})

    seen = await driver.slash(alice, "geschenkt status")

    assert seen.ephemeral.ephemeral_to == alice.id
    assert "Something went wrong on our side" in seen.ephemeral.text
    match = REFERENCE.search(seen.ephemeral.text)
    assert match is not None, seen.ephemeral.text
    [record] = records_naming(json_logging_bot, match.group(1))
    assert record["level"] == "ERROR"
    assert "ValidationError" in record["traceback"]


async def test_an_unreadable_table_is_set_aside_and_the_channel_plays_again(
    driver: Driver, redis_server: str, json_logging_bot: BotProcess
) -> None:
    alice = driver.users[0]
    key = table_key(driver.fake.guild_id, driver.channel)
    with redis.Redis.from_url(redis_server) as client:
        client.hset(key, mapping={"rev": 1, "data": "{not a table", "gid": "x"})

    seen = await driver.slash(alice, "geschenkt status")
    assert "set aside" in seen.ephemeral.text
    lobby = await driver.slash(alice, "geschenkt start")
    assert "Join" in lobby.message.labels
    assert not [r for r in log_records(json_logging_bot) if r["level"] == "ERROR"]
    warnings = [r for r in log_records(json_logging_bot) if "Set aside" in r["message"]]
    assert len(warnings) == 1


async def test_a_retired_command_is_answered_as_changed_and_logged_as_no_error(
    driver: Driver, fake_discord: FakeDiscord, json_logging_bot: BotProcess
) -> None:
    """Clients keep old commands cached after an upgrade: the tree's fallback answers."""
    alice = driver.users[0]
    retired = {"id": "1", "name": "retired", "type": 1, "guild_id": str(fake_discord.guild_id)}
    interaction = fake_discord.create_interaction(
        type=2, user=alice, channel_id=driver.channel, data=retired
    )

    await fake_discord.send_interaction(interaction)
    await fake_discord.wait_for(lambda: interaction.answered, timeout=10, what="the answer")

    [answer] = [fake_discord.messages[m] for m in interaction.touched]
    assert answer.ephemeral_to == alice.id
    assert "has changed" in answer.text and "/help" in answer.text
    assert not [r for r in log_records(json_logging_bot) if r["level"] == "ERROR"]


async def test_json_logs_are_one_object_a_line_without_voice_warnings(
    driver: Driver, json_logging_bot: BotProcess
) -> None:
    await driver.slash(driver.users[0], "geschenkt rules")

    records = log_records(json_logging_bot)
    assert any(r["message"].startswith("Synced") for r in records)
    assert all({"time", "level", "logger", "message"} <= r.keys() for r in records)
    assert not [r for r in records if "voice" in r["message"]]
