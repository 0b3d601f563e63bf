"""`/settings`: admins (Manage Server) see and change the server's settings privately;
everyone else is refused, and so is a value the bot can't take.

The shared fake gives every member the same permissions, without Manage Server. Here
the fake also grants Manage Server to the members in ``admins`` (in the interaction's
``member.permissions``, as Discord computes them), so both sides can be tested.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games import GAMES
from tests.e2e.test_bad_input import forged_command, private_answer
from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeInteraction, FakeUser

MANAGE_GUILD = 1 << 5
Json = dict[str, Any]
GAME = GAMES[0]


class FakeDiscordWithAdmins(FakeDiscord):
    """The fake, where the members in ``admins`` also hold Manage Server."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.admins: set[int] = set()

    def _interaction_payload(self, interaction: FakeInteraction) -> Json:
        payload = super()._interaction_payload(interaction)
        if interaction.user.id in self.admins:
            member = payload["member"]
            member["permissions"] = str(int(member["permissions"]) | MANAGE_GUILD)
        return payload


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscordWithAdmins]:
    """Overrides the shared fixture (same teardown: the test fails on any violation)."""
    fake = await FakeDiscordWithAdmins().start()
    yield fake
    try:
        violations = await fake.verify()
    finally:
        await fake.stop()
    if violations:
        pytest.fail("Discord rule violations:\n" + "\n".join(f"  {v}" for v in violations))


def admin(driver: Driver, name: str) -> FakeUser:
    user = driver.user(name)
    fake = driver.fake
    assert isinstance(fake, FakeDiscordWithAdmins)
    fake.admins.add(user.id)
    return user


async def shown(driver: Driver, user: FakeUser, command: str, **values: Any) -> str:
    """The private answer to ``/settings <command>``."""
    response = await driver.slash(user, f"settings {command}", options=values)
    assert response.message.ephemeral_to == user.id
    assert [m for m in driver.messages() if not m.ephemeral] == []
    return response.message.text


async def test_the_group_asks_discord_for_manage_server(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    command = driver.fake.find_command("settings")
    assert int(command["default_member_permissions"]) == MANAGE_GUILD
    assert command["dm_permission"] is False


async def test_a_member_without_manage_server_is_refused(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = driver.user("alice"), driver.user("bernd")
    for user, words in ((alice, "Manage Server"), (bernd, "Server verwalten")):
        text = await shown(driver, user, "pings", value="off")
        assert words in text, text
        assert "Saved" not in text and "Gespeichert" not in text
    boss = admin(driver, "emma")
    assert "Ping the next player: **on**" in await shown(driver, boss, "show")


async def test_an_admin_sets_every_setting_and_show_reflects_it(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    boss = admin(driver, "alice")
    first, second = driver.fake.channel_ids[:2]

    defaults = await shown(driver, boss, "show")
    assert "Language of public messages: **automatic" in defaults
    assert "Ping the next player: **on**" in defaults
    assert "Wait before a ping: **20 s (the bot's default)**" in defaults
    assert "Game channels: all channels" in defaults
    assert f"{GAME.engine.title}: **the game's default**" in defaults

    assert "**German**" in await shown(driver, boss, "language", value="de")
    assert "Ping the next player: **off**" in await shown(driver, boss, "pings", value="off")
    waits = await shown(driver, boss, "ping_after", seconds=45)
    assert "Wait before a ping: **45 s**" in waits
    saved = await shown(driver, boss, "turn_time", game=GAME.name, seconds=90)
    assert "\nSaved.\n" in saved
    assert f"{GAME.engine.title}: **90 s**" in saved
    await shown(driver, boss, "channel_add", channel=first)
    await shown(driver, boss, "channel_add", channel=second)

    text = await shown(driver, boss, "show")
    assert "Language of public messages: **German**" in text
    assert "Ping the next player: **off**" in text
    assert "Wait before a ping: **45 s**" in text
    assert f"{GAME.engine.title}: **90 s**" in text
    assert f"Game channels: <#{first}>, <#{second}>" in text

    assert f"Game channels: <#{second}>" in await shown(
        driver, boss, "channel_remove", channel=first
    )
    assert "Game channels: all channels" in await shown(driver, boss, "channels_clear")
    unset = await shown(driver, boss, "turn_time", game=GAME.name)
    assert f"{GAME.engine.title}: **the game's default**" in unset

    reset = await shown(driver, boss, "reset")
    assert reset.split("\n\n", 1)[1] == defaults.split("\n\n", 1)[1]


async def test_a_german_admin_reads_the_settings_in_german(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    boss = admin(driver, "bernd")
    text = await shown(driver, boss, "turn_time", game=GAME.name, seconds=0)
    assert "Gespeichert." in text
    assert "keine Uhr" in text
    assert "Den nächsten Spieler anpingen: **an**" in text


async def test_bad_values_are_refused_in_words(driver: Driver, bot_process: BotFactory) -> None:
    await bot_process("bot")
    boss = admin(driver, "alice")
    channel = driver.fake.channel_ids[0]

    text = await shown(driver, boss, "channel_remove", channel=channel)
    assert "That channel isn't on the list." in text
    await shown(driver, boss, "channel_add", channel=channel)
    assert "That channel is listed already." in await shown(
        driver, boss, "channel_add", channel=channel
    )

    game = {"name": "game", "type": 3, "value": GAME.name}
    forgeries = [
        ("language", [{"name": "value", "type": 3, "value": "fr"}], "must be one of: auto, en, de"),
        ("pings", [{"name": "value", "type": 3, "value": "maybe"}], "must be one of: on, off"),
        ("turn_time", [{**game, "value": "chess"}], "`game` must be one of"),
        ("turn_time", [game, {"name": "seconds", "type": 4, "value": 5000}], "between 0 and 3600"),
        ("turn_time", [game, {"name": "seconds", "type": 4, "value": -1}], "between 0 and 3600"),
    ]
    for sub, options, words in forgeries:
        forged = await forged_command(driver, boss, "settings", sub, options)
        answer = private_answer(driver, forged)
        assert words in answer, answer

    text = await shown(driver, boss, "show")
    assert "Language of public messages: **automatic" in text
    assert "Ping the next player: **on**" in text
    assert f"Game channels: <#{channel}>" in text


async def test_the_games_follow_the_servers_settings(
    driver: Driver, bot_process: BotFactory
) -> None:
    """Language, pings, turn time and game channels, as an admin set them, reach the
    next table opened on the server."""
    await bot_process("bot")
    boss = admin(driver, "alice")
    dmitri = driver.user("dmitri")
    first, second = driver.fake.channel_ids[:2]
    await shown(driver, boss, "language", value="de")
    await shown(driver, boss, "pings", value="off")
    await shown(driver, boss, "turn_time", game="geschenkt", seconds=45)
    await shown(driver, boss, "channel_add", channel=second)

    refused = await driver.slash(dmitri, "geschenkt start", channel=first)
    assert f"<#{second}>" in refused.message.text and refused.message.ephemeral

    lobby = (await driver.slash(dmitri, "geschenkt start", channel=second)).message
    assert "Beitreten" in lobby.labels, "the server's language, not Dmitri's"
    assert "45 s pro Zug" in lobby.text, "the server's turn time for this game"
    assert "🔕 Zug-Pings: aus" in lobby.labels, "the server's default for pings"
    timed = (await driver.slash(dmitri, "draughts start", channel=second)).message
    assert timed.ephemeral, "one table per channel"


async def test_a_server_that_waits_no_time_pings_the_first_player_at_once(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    boss = admin(driver, "alice")
    assert "none, ping at once" in await shown(driver, boss, "ping_after", seconds=0)
    await shown(driver, boss, "language", value="en")
    dmitri = driver.user("dmitri")
    table = (await driver.slash(boss, "draughts start", colour="white")).message
    await driver.click(dmitri, table, "Join")
    await driver.click(boss, table, "Start")
    [ping] = await driver.wait_for(lambda: driver.notified(boss), what="Alice's ping")
    assert "your turn in" in ping.text


async def test_a_server_with_seasons_shows_the_current_seasons_leaderboard(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    boss = admin(driver, "alice")
    text = await shown(driver, boss, "season", value="monthly")
    assert "Leaderboard seasons: **monthly**" in text
    text = await shown(driver, boss, "season_ratings", value="restart")
    assert "Ratings in a season: **from scratch every season**" in text
    this_month = datetime.now(UTC).strftime("%Y-%m")

    board = (await driver.slash(boss, "leaderboard", game=GAME.name)).message
    assert f"Saison {this_month}" in board.text, "public, in the server's German"
    all_time = (await driver.slash(boss, "leaderboard", game=GAME.name, season="all")).message
    assert "Saison" not in all_time.text
    refused = await driver.slash(boss, "leaderboard", game=GAME.name, season="`**x**`")
    assert "That is no season" in refused.message.text
    assert refused.message.ephemeral_to == boss.id
