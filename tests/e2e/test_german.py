"""A German server: public messages in German, each user's own messages in their
language, and the slash commands localized for German clients."""

from __future__ import annotations

import pytest

from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage

pytestmark = pytest.mark.guild_locale("de")


async def test_the_lobby_speaks_german_and_each_user_their_own_language(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = driver.user("alice"), driver.user("bernd"), driver.user("chloe")

    lobby: FakeMessage = (await driver.slash(bernd, "escalation start")).message
    assert "neuer Tisch" in lobby.text and "Gastgeber: **Bernd**" in lobby.text
    assert [button["label"] for button in lobby.buttons] == [
        "Beitreten",
        "Verlassen",
        "Starten",
        "🔔 Zug-Pings: an",
        "Regeln",
    ]

    joined = await driver.slash(alice, "escalation join")
    assert joined.message.text == "You joined the table."  # Alice's client is English
    assert "Alice" in lobby.text
    again = await driver.click(chloe, lobby, "Beitreten")
    assert again.message is None or not again.message.ephemeral
    twice = await driver.click(chloe, lobby, "Beitreten")
    assert twice.message.text == "You're already at this table.", "French falls back to English"
    not_host = await driver.click(alice, lobby, "Starten")
    assert not_host.message.text == "Only the host can start the game."

    await driver.choose(bernd, lobby, "Computerspieler hinzufügen …", ["hard"])
    assert "🤖 Schwer" in lobby.text

    await driver.click(bernd, lobby, "Starten")
    table = driver.table()
    assert "Partie" in table.text, "the public table's footer is German"
    refused = await driver.slash(bernd, "escalation join")
    assert refused.message.text == "Die Partie hat schon begonnen; warte auf die nächste."
    refused = await driver.slash(alice, "escalation join")
    assert refused.message.text == "The game has already started; wait for the next one."


async def test_help_follows_the_reader(driver: Driver, bot_process: BotFactory) -> None:
    await bot_process("bot")
    german = await driver.slash(driver.user("bernd"), "help")
    english = await driver.slash(driver.user("alice"), "help")
    assert "Spiele in diesem Kanal" in german.message.text
    assert "Eskalation" in german.message.text
    assert "Games in this channel" in english.message.text


async def test_slash_commands_are_localized_for_german_clients(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    group = driver.fake.find_command("geschenkt")
    assert group["description_localizations"]["de"] == "Geschenkt in diesem Kanal spielen"
    by_name = {option["name"]: option for option in group["options"]}
    assert by_name["join"]["name_localizations"]["de"] == "beitreten"
    assert by_name["rules"]["description_localizations"]["de"].startswith("Eine kurze")
    start_options = {option["name"]: option for option in by_name["start"]["options"]}
    assert start_options["turn_time"]["name_localizations"]["de"] == "zugzeit"
    stats = driver.fake.find_command("stats")
    assert stats["name_localizations"]["de"] == "statistik"
    assert stats["description_localizations"]["de"].startswith("Partien, Siege")


@pytest.mark.guild_locale("en-US")
async def test_a_server_without_a_language_gets_its_host_s(
    driver: Driver, bot_process: BotFactory
) -> None:
    """Discord reports en-US for servers that never chose a language: a table opened by
    a German user is then German, one opened by an English user English."""
    await bot_process("bot")
    german = (await driver.slash(driver.user("bernd"), "geschenkt start")).message
    english = (
        await driver.slash(
            driver.user("alice"), "geschenkt start", channel=driver.fake.channel_ids[1]
        )
    ).message
    assert "neuer Tisch" in german.text
    assert "new table" in english.text
