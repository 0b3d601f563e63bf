"""Commands every game shares: /help lists the games, each game's rules explain it."""

from __future__ import annotations

import pytest

from bot.games import GAMES as REGISTERED
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory

GAMES = [spec.name for spec in REGISTERED]


async def test_help_lists_every_game_and_how_to_start_it(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = driver.user("alice")
    response = await driver.slash(alice, "help")
    help_text = response.message.text
    assert response.message.ephemeral_to == alice.id
    for game in GAMES:
        assert f"/{game} start" in help_text, f"{game} is missing from /help"


@pytest.mark.parametrize("game", GAMES)
async def test_rules_explain_the_game_with_an_example(
    driver: Driver, bot_process: BotFactory, game: str
) -> None:
    """In each reader's language: Alice reads English, Bernd German."""
    await bot_process("bot")
    for name, example in (("alice", "Example"), ("bernd", "Beispiel")):
        user = driver.user(name)
        response = await driver.slash(user, f"{game} rules")
        assert response.message.ephemeral_to == user.id
        assert example in response.message.text, response.message.text
