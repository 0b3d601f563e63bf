"""Several bot processes on Discord's shards, sharing one Redis.

The fake Discord serves 2 shards and routes each guild's events by Discord's formula,
``(guild_id >> 22) % 2``: its first guild is on shard 0, and each test adds a guild on
shard 1. A process started with ``SHARD_COUNT=2 SHARD_IDS=n`` serves shard n only.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import pytest

from bot.engines import geschenkt
from bot.storage.tables import GameStore, Stored
from tests.e2e.tables import CLOCK_KEY, drawn_after
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory, BotProcess
from tests.harness.models import FakeMessage, FakeUser

pytestmark = pytest.mark.shards(2)

RAN_OUT = re.compile(r"\*\*(\w+)\*\*'s time ran out; the computer moved for them \(1 of 3\)\.")
SWEEP_WINDOW_SECONDS = 3.0
"""How long a check that something does NOT happen watches: three sweeps of a process
running with FOLLOWUP_SWEEP_SECONDS=1."""


def shard(n: int, **extra: str) -> dict[str, str]:
    return {"SHARD_COUNT": "2", "SHARD_IDS": str(n), **extra}


async def stored_in(driver: Driver, store: GameStore, channel: int) -> Stored:
    stored = await store.load(driver.fake.guild_of(channel), channel)
    assert stored is not None, f"no game in channel {channel}"
    return stored


def to_act(stored: Stored) -> str:
    state = geschenkt.ENGINE.State.model_validate(stored.table.state)
    (player,) = geschenkt.ENGINE.to_act(state)
    return player


def choice_for(stored: Stored) -> str:
    state = geschenkt.ENGINE.State.model_validate(stored.table.state)
    return "No thanks" if state.chips[state.turn] else "Take"


async def open_game_with_computers(driver: Driver, channel: int, alice: FakeUser) -> FakeMessage:
    """Alice and two easy computers at a Geschenkt table in ``channel``, started."""
    table = (await driver.slash(alice, "geschenkt start", channel=channel)).message
    await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.click(alice, table, "Start")
    return table


async def play_to_the_end(
    driver: Driver, store: GameStore, channel: int, table: FakeMessage, alice: FakeUser
) -> Stored:
    """Alice clicks whenever it is her turn; the computers' moves are the bot's."""
    for _ in range(200):
        stored = await stored_in(driver, store, channel)
        if stored.table.phase == "over":
            return stored
        if to_act(stored) == str(alice.id):
            await driver.click(alice, table, choice_for(stored))
        else:
            await driver.wait_for(drawn_after(table, stored.rev), what="a computer's move")
    pytest.fail("the game never ended")


async def test_two_processes_each_play_the_games_of_their_own_shard(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    fake = driver.fake
    guild_on_1 = fake.add_guild(shard=1)
    channels = {0: fake.channels_of(fake.guild_id)[0], 1: fake.channels_of(guild_on_1)[0]}
    assert fake.shard_of(fake.guild_id) == 0
    await bot_process("bot", env=shard(0))
    await bot_process("bot", env=shard(1))
    assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]

    alice = driver.user("alice")
    tables = {n: await open_game_with_computers(driver, channels[n], alice) for n in (0, 1)}
    finished = await asyncio.gather(
        *(play_to_the_end(driver, store, channels[n], tables[n], alice) for n in (0, 1))
    )

    assert [game.table.phase for game in finished] == ["over", "over"]
    for n in (0, 1):  # the results (with or without a tie) are drawn after the final save
        await driver.wait_for(
            lambda n=n: "Places" in tables[n].text,  # type: ignore[misc]
            what=f"the results in channel {n}",
        )


async def test_a_killed_process_s_games_wait_for_it_while_the_other_shard_plays_on(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    fake = driver.fake
    channels = {0: fake.channels_of(fake.guild_id)[0], 1: fake.channels_of(fake.add_guild(1))[0]}
    alice = driver.user("alice")
    sweeping = {"FOLLOWUP_SWEEP_SECONDS": "1"}
    # Shard 1's computers think for 30 s, so one is still to move when it is killed.
    second = await bot_process("bot", env=shard(1, COMPUTER_PAUSE_SECONDS="30", **sweeping))
    tables = {1: await open_game_with_computers(driver, channels[1], alice)}
    waiting = await until_a_computer_is_to_act(driver, store, channels[1], tables[1], alice)
    # Shard 0's process starts with that game in Redis: it must leave it to shard 1.
    first = await bot_process("bot", env=shard(0, **sweeping))
    await driver.wait_for(lambda: resumed(first), what="shard 0's look at stored games")
    await kill(second)  # well inside its computer's 30 s, however slow the machine

    tables[0] = await open_game_with_computers(driver, channels[0], alice)
    before = await stored_in(driver, store, channels[0])
    finished = await play_to_the_end(driver, store, channels[0], tables[0], alice)
    await asyncio.sleep(SWEEP_WINDOW_SECONDS)  # shard 0's sweeps must leave shard 1 alone

    assert finished.rev > before.rev and finished.table.phase == "over"
    untouched = await stored_in(driver, store, channels[1])
    assert untouched.rev == waiting.rev, "a game of the dead shard moved"

    second.env["COMPUTER_PAUSE_SECONDS"] = "0"
    await second.start()
    await driver.wait_for(lambda: resumed(second), what="shard 1's look at stored games")
    await driver.wait_for(drawn_after(tables[1], waiting.rev), what="the resumed computer move")
    carried_on = await play_to_the_end(driver, store, channels[1], tables[1], alice)
    assert carried_on.table.phase == "over"


async def until_a_computer_is_to_act(
    driver: Driver, store: GameStore, channel: int, table: FakeMessage, alice: FakeUser
) -> Stored:
    for _ in range(50):
        stored = await stored_in(driver, store, channel)
        if to_act(stored) != str(alice.id):
            return stored
        await driver.click(alice, table, choice_for(stored))
    pytest.fail("no computer came to act")


def resumed(process: BotProcess) -> bool:
    """Whether the process has looked at the stored games since it last started."""
    last_start = process.output().rsplit("----- python -m bot -----", 1)[-1]
    return "stored games after start" in last_start


async def kill(process: BotProcess) -> None:
    process.kill()
    await process.wait_exit()


async def test_a_rolling_restart_fires_each_timer_once_and_applies_each_click_once(
    driver: Driver,
    store: GameStore,
    bot_process: BotFactory,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    """The new process of shard 0 starts before the old one stops. Both plan the
    running game's turn clock; when it runs out, one of them moves and the other finds
    the game moved on. Clicks meanwhile are applied once each."""
    env = shard(0, CLOCK_OFFSET_KEY=CLOCK_KEY)
    old = await bot_process("bot", env=env)
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    channel = driver.channel
    table = (await driver.slash(alice, "geschenkt start", turn_time=60)).message
    await driver.click(bernd, table, "Join")
    await driver.click(chloe, table, "Join")
    await driver.click(alice, table, "Start")
    started = await stored_in(driver, store, channel)

    new = await bot_process("bot", env=env)
    await driver.wait_for(lambda: resumed(new), what="the new process's look at stored games")
    await move_clock(61)
    await driver.wait_for(lambda: RAN_OUT.search(table.text) is not None, what="the clock")
    await driver.wait_for(
        lambda: skipped(old) + skipped(new) == 1, what="the other process to find it made"
    )
    after_clock = await stored_in(driver, store, channel)
    assert after_clock.rev == started.rev + 1
    ran_out = [e for e in after_clock.table.events if "time ran out" in e.template]
    assert len(ran_out) == 1
    assert sorted(seat.missed for seat in after_clock.table.seats) == [0, 0, 1]

    people = {str(u.id): u for u in (alice, bernd, chloe)}
    for n in range(1, 4):
        stored = await stored_in(driver, store, channel)
        await driver.click(people[to_act(stored)], table, choice_for(stored))
        assert (await stored_in(driver, store, channel)).rev == after_clock.rev + n

    await old.stop()
    stored = await stored_in(driver, store, channel)
    await driver.click(people[to_act(stored)], table, choice_for(stored))
    assert (await stored_in(driver, store, channel)).rev == stored.rev + 1


def skipped(process: BotProcess) -> int:
    """How often the process found that a follow-up's move was already made."""
    return process.output().count("the game has moved on")
