"""An option of the wrong type, which a modified client can send (Discord's client
cannot), is refused in words like an out-of-range one, never with the generic apology."""

from __future__ import annotations

from typing import Any

import pytest

from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("geschenkt start", {"tactical": "yes"}, "`tactical` must be one of: True, False."),
    ("geschenkt start", {"tactical": 1}, "`tactical` must be one of: True, False."),
    ("geschenkt start", {"turn_time": "60"}, "`turn_time` must be between 0 and 3600."),
    ("geschenkt start", {"turn_time": True}, "`turn_time` must be between 0 and 3600."),
    ("take start", {"target": 500.5}, "`target` must be between 50 and 2000."),
    ("take start", {"hand_size": "7"}, "`hand_size` must be one of: 7, 10."),
    ("escalation start", {"deals": "2"}, "`deals` must be between 1 and 10."),
    ("give_and_take start", {"auto": "yes"}, "`auto` must be one of: True, False."),
    ("give_and_take start", {"turn_cap": 10.5}, "`turn_cap` must be between 10 and 2000."),
    ("draughts start", {"colour": 3}, "`colour` must be one of:"),
    ("draughts move", {"move": 5}, "Invalid options: `move`"),
]


@pytest.mark.parametrize(("command", "options", "refusal"), CASES)
async def test_an_option_of_the_wrong_type_is_refused_in_words(
    driver: Driver, bot_process: BotFactory, command: str, options: dict[str, Any], refusal: str
) -> None:
    await bot_process("bot")
    alice = driver.user("alice")
    answer = await driver.slash(alice, command, options=options, forged=True)
    assert answer.message.ephemeral_to == alice.id, answer.message.text
    assert refusal in answer.message.text, answer.message.text
    assert [m for m in driver.messages() if not m.ephemeral] == [], "no lobby may open"
