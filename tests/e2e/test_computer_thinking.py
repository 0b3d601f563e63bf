"""Computer players think in worker processes: while a hard computer searches at one
table, another table in another channel is answered as usual (issue 28); and a
computer thinks during the pause people get to follow the table, moving after it."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.engines.geschenkt import ENGINE, GeschenktAction, GeschenktState
from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore
from tests.e2e.game_driver import ADD_COMPUTER, REFUSE, TAKE, GameDriver, coin
from tests.e2e.tables import stored_game
from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory
from tests.harness.metrics import metric_sample

ROUNDS = 2
"""Moves of the person at the thinking table; each hands two hard searches to a worker."""
DECISIONS = "tablebot_computer_decision_seconds_count"
AFTER_START = "stored games after start"
"""The bot's log line once it has looked at the stored games after its start."""
THINK_SECONDS = 1.0
Game = GameDriver[GeschenktState, GeschenktAction]


class SecondChannel(Driver):
    """A driver whose default channel is the guild's second one."""

    @property
    def channel(self) -> int:
        return self.fake.channel_ids[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        yield session


async def test_another_table_is_answered_while_a_hard_computer_thinks_in_a_worker(
    driver: Driver,
    fake_discord: FakeDiscord,
    redis_server: str,
    bot_process: BotFactory,
    http: aiohttp.ClientSession,
) -> None:
    port = free_port()
    await bot_process("bot", env={"METRICS_PORT": str(port), "COMPUTER_THINK_SECONDS": "1"})
    client = client_for_url(redis_server)
    store = GameStore(client)
    alice, chloe, dmitri, emma = (driver.user(n) for n in ("alice", "chloe", "dmitri", "emma"))

    # The thinking table: Alice and two hard computers, in the first channel.
    thinking = Game("geschenkt", driver, store, [alice])
    thinking.table = (await driver.slash(alice, "geschenkt start")).message
    for _ in range(2):
        await driver.choose(alice, thinking.table, ADD_COMPUTER, ["hard"])
    assert "🤖 Hard 2" in thinking.table.text
    await driver.click(alice, thinking.table, "Start")
    await thinking.computers_done()
    computer_moves = 0

    # The other table: three people, in the second channel.
    other = Game("geschenkt", SecondChannel(fake_discord), store, [chloe, dmitri, emma])
    await other.open(chloe, [dmitri, emma])
    policy = coin(random.Random(28), 0.3)
    other_moves = 0

    for _ in range(ROUNDS):
        before = await thinking.stored()
        state = ENGINE.State.model_validate(before.table.state)
        if ENGINE.is_over(state):
            break
        assert thinking.to_act() == alice
        chips = state.chips[thinking.seat(state, alice)]
        # Alice's move is acknowledged; the two computers after her think in a worker...
        await driver.click(alice, thinking.message, REFUSE if chips else TAKE)
        # ...while the other channel's people click: each click is answered and shown.
        for _ in range(3):
            if other.to_act() is None:
                break
            await other.turn(policy)
            other_moves += 1
        await thinking.computers_done()
        after = await thinking.stored()
        computer_moves += after.rev - before.rev - 1  # a revision for Alice's move, one each

    assert other_moves > 0, "the other table never moved"
    assert computer_moves > 0, "the computers never moved"
    in_workers = await metric_sample(
        http, port, DECISIONS, game="geschenkt", level="hard", ran_in="worker"
    )
    in_bot = await metric_sample(
        http, port, DECISIONS, game="geschenkt", level="hard", ran_in="bot"
    )
    assert in_workers >= computer_moves, "a computer move was not decided in a worker process"
    assert in_bot == 0, "a computer decided in the bot's own process"
    await client.aclose()


async def test_a_computer_thinks_during_the_pause_and_moves_only_after_it(
    driver: Driver,
    redis_server: str,
    bot_process: BotFactory,
    http: aiohttp.ClientSession,
) -> None:
    port = free_port()
    # A 30 s pause (the most allowed): the decision must come well inside it.
    env = {
        "METRICS_PORT": str(port),
        "COMPUTER_PAUSE_SECONDS": "30",
        "COMPUTER_THINK_SECONDS": str(THINK_SECONDS),
    }
    bot = await bot_process("bot", env=env)
    client = client_for_url(redis_server)
    store = GameStore(client)
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(bernd, table, "Join")
    await driver.choose(alice, table, ADD_COMPUTER, ["hard"])
    await driver.click(alice, table, "Start")
    for _ in range(60):
        stored = await stored_game(driver, store)
        state = ENGINE.State.model_validate(stored.table.state)
        (player,) = ENGINE.to_act(state)
        if player.startswith("ai:"):
            break
        user = alice if player == str(alice.id) else bernd
        await driver.click(user, table, REFUSE if state.chips[state.turn] else TAKE)
    else:
        pytest.fail("the computer never came to act")

    # Discord delivers the clicks before the bot is ready; its look at the stored games
    # once ready must leave the computer's planned move alone (not think it over again).
    for _ in range(200):
        if AFTER_START in bot.output():
            break
        await asyncio.sleep(0.1)
    else:
        pytest.fail("the bot never looked at the stored games after its start")
    decided = 0.0
    for _ in range(200):  # up to 20 s of the 30 s pause
        decided = await metric_sample(http, port, DECISIONS, game="geschenkt", level="hard")
        if decided:
            break
        await asyncio.sleep(0.1)
    # A second thought, if the look had planned the move again, ends within its budget.
    await asyncio.sleep(3 * THINK_SECONDS)
    decided = await metric_sample(http, port, DECISIONS, game="geschenkt", level="hard")
    assert decided == 1, f"the computer thought {decided:g} times during the pause, not once"
    still = await stored_game(driver, store)
    assert still.rev == stored.rev, "the computer moved before the pause was over"
    await client.aclose()
