"""Reading the bot's table messages in end-to-end tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tests.harness.driver import Driver
from tests.harness.models import FakeMessage, FakeUser


def table_rev(message: FakeMessage) -> int:
    """The game revision the message's buttons were drawn for (``g:<game>:<gid>:<rev>:…``);
    -1 when it has none."""
    revs = [
        int(button["custom_id"].split(":")[3])
        for button in message.buttons
        if str(button.get("custom_id", "")).startswith("g:")
    ]
    return max(revs, default=-1)


def drawn_at(message: FakeMessage, rev: int) -> Callable[[], bool]:
    """A wait condition: the message shows revision ``rev``."""
    return lambda: table_rev(message) == rev


def drawn_after(message: FakeMessage, rev: int) -> Callable[[], bool]:
    """A wait condition: the message shows a revision later than ``rev``."""
    return lambda: table_rev(message) > rev


async def start_german_table(
    driver: Driver, game: str, host: FakeUser, guests: Sequence[FakeUser]
) -> FakeMessage:
    """Open ``game``'s lobby on a German server, seat ``guests`` and start: the table."""
    table: FakeMessage = (await driver.slash(host, f"{game} start")).message
    for guest in guests:
        await driver.click(guest, table, "Beitreten")
    await driver.click(host, table, "Starten")
    return table
