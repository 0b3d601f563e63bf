"""A game button whose action key no longer decodes (drawn by an older bot, or tampered
with) is answered with a short explanation and changes nothing: the real bot, the fake
Discord, the real Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.play.action_keys import UNREADABLE
from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage

TAKE = "Take"


def rewrite_arg(message: FakeMessage, label: str, arg: str) -> str:
    """Give the button labelled ``label`` the raw ``arg`` in the fake Discord's copy of
    ``message``, as a message drawn by an older bot would hold it."""
    (button,) = [
        button
        for row in message.components
        for button in row.get("components", [])
        if button.get("label") == label
    ]
    prefix, _, _ = button["custom_id"].partition(".")
    button["custom_id"] = f"{prefix}.{arg}"
    return str(button["custom_id"])


@pytest.fixture
async def store(redis_server: str) -> AsyncIterator[GameStore]:
    client = client_for_url(redis_server)
    yield GameStore(client)
    await client.aclose()


async def test_a_button_whose_key_does_not_decode_is_explained_and_moves_nothing(
    driver: Driver, bot_process: BotFactory, store: GameStore
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    table = (await driver.slash(alice, "geschenkt start")).message
    for guest in (bernd, chloe):
        await driver.click(guest, table, "Join")
    await driver.click(alice, table, "Start")
    before = await store.load(driver.fake.guild_id, driver.channel)
    assert before is not None and before.table.phase == "playing"

    custom_id = rewrite_arg(driver.fake.messages[table.id], TAKE, "JK.6H")
    response = await driver.click(alice, table, TAKE, expect_change=False)

    assert response.ephemeral.content == UNREADABLE, f"{custom_id} answered otherwise"
    after = await store.load(driver.fake.guild_id, driver.channel)
    assert after is not None and after.rev == before.rev
