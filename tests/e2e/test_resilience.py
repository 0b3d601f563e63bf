"""When Redis stops answering, a click gets a short "try again" and nothing is lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.engines import draughts
from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore
from bot.table import SCHEMA_VERSION
from tests.e2e.tables import drawn_after, stored_game
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


async def test_a_computer_move_lost_to_an_outage_is_made_once_redis_is_back(
    driver: Driver, bot_process: BotFactory, frozen_redis: RedisServer
) -> None:
    """Redis stops just as the turn passes to a computer: its move waits, then happens."""
    env = {"REDIS_URL": frozen_redis.url, "COMPUTER_PAUSE_SECONDS": "0.3"}
    await bot_process("bot", env={**env, "FOLLOWUP_SWEEP_SECONDS": "1"})
    alice = driver.user("alice")
    table = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.click(alice, table, "Start")
    store = GameStore(client_for_url(frozen_redis.url))

    assert frozen_redis.process is not None
    await driver.slash(alice, "draughts move", move="c3-c4")
    os.kill(frozen_redis.process.pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(5)
    finally:
        os.kill(frozen_redis.process.pid, signal.SIGCONT)

    async def plies() -> int:
        stored = await store.load(driver.fake.guild_id, driver.channel)
        assert stored is not None and stored.table.state is not None
        return int(stored.table.state["plies"])

    deadline = asyncio.get_running_loop().time() + 20
    while await plies() < 2 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.2)
    assert await plies() == 2, "the computer never moved after the outage"
    await driver.wait_for(lambda: f"<@{alice.id}>" in driver.table().content, what="Alice's turn")
    await store.client.aclose()


async def test_three_clicks_at_once_during_an_outage_are_all_answered_in_time(
    driver: Driver, bot_process: BotFactory, frozen_redis: RedisServer
) -> None:
    """Each click is answered (a late answer would be refused by the fake, as Discord
    does after 3 s), with words that say what to do."""
    await bot_process("bot", env={"REDIS_URL": frozen_redis.url})
    alice, bernd, chloe = driver.users[:3]
    await driver.slash(alice, "geschenkt start")
    lobby = driver.table()
    await driver.click(bernd, lobby, "Join")
    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    table = driver.table()

    assert frozen_redis.process is not None
    os.kill(frozen_redis.process.pid, signal.SIGSTOP)
    try:
        seen = await asyncio.gather(
            *(driver.click(user, table, "My hand") for user in (alice, bernd, chloe))
        )
    finally:
        os.kill(frozen_redis.process.pid, signal.SIGCONT)
    for user, response in zip((alice, bernd, chloe), seen, strict=True):
        text = response.ephemeral.text
        assert "try again" in text or "noch einmal" in text, text  # Bernd reads German
        assert response.ephemeral.ephemeral_to == user.id


async def test_an_unreadable_record_is_set_aside_and_an_old_one_migrates_and_resumes(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    """Stored before the bot starts: a broken table in one channel, and in another a
    version-1 table where a computer is to move. The broken one never stops the other."""
    broken, older = driver.fake.channel_ids[:2]
    guild = driver.fake.guild_id
    alice = driver.user("alice")
    state = draughts.ENGINE.new_game(["ai:1", str(alice.id)], 5)
    version_1 = {
        "schema_version": 1,
        "game": "draughts",
        "gid": "0a1b2c3d",
        "guild_id": guild,
        "channel_id": older,
        "host": str(alice.id),
        "phase": "playing",
        "seats": [
            {"id": "ai:1", "name": "Computer 1 (normal)", "level": "normal"},
            {"id": str(alice.id), "name": "Alice"},
        ],
        "state": state.model_dump(mode="json"),
    }
    raw = aioredis.Redis.from_url(redis_server)
    await raw.hset(f"game:{guild}:{broken}", mapping={"rev": 2, "data": "{", "gid": "x"})
    await raw.hset(
        f"game:{guild}:{older}",
        mapping={"rev": 4, "data": json.dumps(version_1), "gid": "0a1b2c3d"},
    )
    await raw.aclose()

    await bot_process("bot")
    store = GameStore(client_for_url(redis_server))

    async def computer_moved() -> bool:
        stored = await store.load(guild, older)
        return stored is not None and stored.rev > 4

    deadline = asyncio.get_running_loop().time() + 20
    while not await computer_moved() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.2)
    stored = await store.load(guild, older)
    assert stored is not None and stored.rev > 4, "the migrated game never resumed"
    assert stored.table.seats[0].name == "🤖 Normal"
    assert stored.table.schema_version == SCHEMA_VERSION
    assert await store.load(guild, broken) is None, "the broken table was not set aside"
    lobby = await driver.slash(alice, "geschenkt start", channel=broken)
    assert "Join" in lobby.message.labels
    await store.client.aclose()


async def test_a_move_whose_answer_came_too_late_is_still_shown(
    driver: Driver, bot_process: BotFactory, store: GameStore
) -> None:
    """Discord drops an interaction the bot answers after 3 s (404, 10062: the gateway
    delivered it late, the machine was busy). The move was saved before the answer, so
    the table is edited through the channel instead, and nothing is logged as a bug."""
    await bot_process("bot")
    alice, bernd, chloe = driver.users[:3]
    lobby = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(bernd, lobby, "Join")
    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    table = driver.table()
    before = await stored_game(driver, store)
    to_act = next(u for u in (alice, bernd, chloe) if f"<@{u.id}>" in table.content)
    (button,) = [b for b in table.buttons if b.get("label") == "No thanks"]

    late = driver.fake.create_interaction(
        type=3,
        user=to_act,
        channel_id=table.channel_id,
        data={"custom_id": button["custom_id"], "component_type": 2},
        message_id=table.id,
    )
    late.created_at -= 3.5  # delivered after Discord's deadline had passed
    await driver.fake.send_interaction(late)

    await driver.wait_for(drawn_after(table, before.rev), what="the late move on the table")
    assert "with **1** chip on it" in table.text
    assert (await stored_game(driver, store)).rev == before.rev + 1
    assert [v.kind for v in driver.fake.pop_violations()] == ["late_callback"]
