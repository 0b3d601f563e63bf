"""What a real server needs: turn pings that notify, panels that keep themselves
current, a clock people can see, and old buttons that stop offering what is gone."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.store import GameStore, client_for_url
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

CLOCK_KEY = "test:clock-offset"
DEADLINE = re.compile(r"<t:(\d+):R>")


@pytest.fixture
async def move_clock(redis_server: str) -> AsyncIterator[Callable[[float], Awaitable[None]]]:
    """Moves the bot's clock forward by some seconds, instead of waiting."""
    client = client_for_url(redis_server)

    async def forward(seconds: float) -> None:
        await client.incrbyfloat(CLOCK_KEY, seconds)

    yield forward
    await client.aclose()


def pings(driver: Driver) -> list[FakeMessage]:
    """The live (not deleted) public messages of the bot that are turn pings."""
    return [m for m in driver.messages() if not m.ephemeral and "your turn in" in m.text]


async def draughts_table(driver: Driver, white: FakeUser, black: FakeUser) -> FakeMessage:
    table: FakeMessage = (await driver.slash(white, "draughts start", colour="white")).message
    await driver.click(black, table, "Join")
    await driver.click(white, table, "Start")
    return table


async def test_the_turn_is_pinged_in_a_new_message_and_the_old_ping_deleted(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    [first] = pings(driver)
    assert first.text.startswith(f"<@{alice.id}>") and f"<@{dmitri.id}>" not in first.text

    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: first.deleted, what="the first ping deleted")
    [second] = pings(driver)
    assert second.text.startswith(f"<@{dmitri.id}>") and f"<@{alice.id}>" not in second.text
    assert second.id > table.id


async def test_the_table_shows_the_deadline_as_a_live_timestamp(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    match = DEADLINE.search(table.text)
    assert match is not None, table.text
    store = GameStore(client_for_url(redis_server))
    stored = await store.load(driver.fake.guild_id, driver.channel)
    assert stored is not None and stored.table.turn_deadline is not None
    assert int(match.group(1)) == int(stored.table.turn_deadline)
    await store.client.aclose()


async def test_the_lobby_says_the_turn_time(driver: Driver, bot_process: BotFactory) -> None:
    await bot_process("bot")
    lobby = await driver.slash(driver.user("alice"), "geschenkt start", turn_time=45)
    assert "45 s per turn" in lobby.message.text
    untimed = await driver.slash(driver.user("alice"), "draughts start", channel=None)
    assert untimed.message.ephemeral  # one table per channel: refused in words


async def test_an_open_panel_follows_the_game_without_a_click(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    panel = (await driver.click(dmitri, table, "Move")).ephemeral
    before = panel.text
    assert "opponent's move" in before

    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: panel.text != before, what="Dmitri's panel to follow")
    assert "opponent's move" not in panel.text
    assert panel.ephemeral_to == dmitri.id
    assert "Updates itself until <t:" in panel.text


async def test_a_panel_past_its_token_life_is_left_alone_and_says_how_to_reopen(
    driver: Driver,
    bot_process: BotFactory,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    panel = (await driver.click(dmitri, table, "Move")).ephemeral
    assert "open a fresh one with **" in panel.text
    edits = panel.revision

    await move_clock(15 * 60)
    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.settle()
    assert panel.revision == edits, "a panel past its token's life was edited"


async def test_a_new_game_takes_the_rematch_button_off_the_old_results(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    await driver.slash(alice, "draughts leave")  # two players: leaving concedes
    await driver.wait_for(lambda: "Rematch" in table.labels, what="the results")
    await driver.slash(dmitri, "geschenkt start")
    await driver.wait_for(lambda: "Rematch" not in table.labels, what="the old Rematch gone")
