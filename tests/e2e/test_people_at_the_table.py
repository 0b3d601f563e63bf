"""The table as people meet it: the last person leaving ends the game, and a name is
always text, never markup, in every game's lobby, table, panel, results and stats."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from bot.adapters.spec import GameSpec
from bot.games import GAMES
from bot.i18n import tr
from bot.storage.tables import GameStore
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

HOSTILE_NAMES = ("[Nitro](https://x.io) **b**", "# ||s|| @everyone \u202eevil")
UNESCAPED = re.compile(r"(?<!\\)(\]\(|\*\*b|\|\|s|^# )", re.MULTILINE)


def renamed(driver: Driver, user: FakeUser, display_name: str) -> FakeUser:
    """``user`` with another display name (a server nickname), as the fake sends it."""
    members = driver.fake.members
    changed = dataclasses.replace(user, display_name=display_name)
    members[members.index(user)] = changed
    return changed


def assert_names_are_text(message: FakeMessage) -> None:
    text = message.text
    assert UNESCAPED.search(text) is None, text
    assert "\u202e" not in text and "@everyone" not in text, text


async def test_the_last_person_leaving_abandons_the_game(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = driver.user("alice")
    table: FakeMessage = (await driver.slash(alice, "geschenkt start")).message
    await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.choose(alice, table, "Add computer player…", ["normal"])
    await driver.click(alice, table, "Start")

    left = await driver.slash(alice, "geschenkt leave")

    assert "abandoned" in left.message.text and left.message.ephemeral_to == alice.id
    assert await store.load(driver.fake.guild_id, driver.channel) is None
    await driver.wait_for(lambda: "nothing was recorded" in table.text, what="the closed table")
    assert not table.components, "a closed table keeps no buttons (no Rematch)"
    reopened = await driver.slash(alice, "geschenkt start")
    assert "Join" in str(reopened.message.components), "the channel is free again"


@pytest.mark.parametrize("spec", GAMES, ids=[spec.name for spec in GAMES])
async def test_hostile_names_stay_text_at_every_game(
    spec: GameSpec[Any, Any, Any], driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    host = renamed(driver, driver.user("alice"), HOSTILE_NAMES[0])
    guest = renamed(driver, driver.user("bernd"), HOSTILE_NAMES[1])
    table: FakeMessage = (await driver.slash(host, f"{spec.name} start")).message
    await driver.click(guest, table, "Join")
    for _ in range(spec.engine.min_players - 2):
        await driver.choose(host, table, "Add computer player…", ["easy"])
    assert_names_are_text(table)
    assert "Nitro" in table.text, "the name is still shown"
    await driver.click(host, table, "Start")
    assert_names_are_text(driver.table())

    panel = await driver.click(host, driver.table(), tr("en", spec.adapter.hand_label))
    assert_names_are_text(panel.message)
    for message in driver.messages():
        assert_names_are_text(message)
