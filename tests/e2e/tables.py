"""Reading the bot's table messages in end-to-end tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import pytest

from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore, Stored
from tests.harness.driver import Driver
from tests.harness.fake_discord import API_PREFIX, FakeDiscord
from tests.harness.models import FakeMessage, FakeUser

CLOCK_KEY = "test:clock-offset"
"""The Redis key of the bot's clock offset (``CLOCK_OFFSET_KEY``) in clock tests."""


@pytest.fixture
async def move_clock(redis_server: str) -> AsyncIterator[Callable[[float], Awaitable[None]]]:
    """Moves the bot's clock forward by some seconds, instead of waiting."""
    client = client_for_url(redis_server)

    async def forward(seconds: float) -> None:
        await client.incrbyfloat(CLOCK_KEY, seconds)

    yield forward
    await client.aclose()


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


async def stored_game(driver: Driver, store: GameStore) -> Stored:
    """The game of the driver's channel as Redis holds it (there must be one)."""
    stored = await store.load(driver.fake.guild_id, driver.channel)
    assert stored is not None
    return stored


def channel_edits_of(fake: FakeDiscord, message: FakeMessage) -> list[str]:
    """The edits of ``message`` the bot sent with its own token (through the channel)."""
    edit = f"PATCH {API_PREFIX}/channels/{message.channel_id}/messages/{message.id}"
    return [line for line in fake.request_log if line == edit]


def webhook_edits_since(fake: FakeDiscord, start: int) -> list[int]:
    """The messages the bot edited through an interaction's webhook (a panel, mostly),
    in order, since the ``start``-th request of the fake's log."""
    paths = [
        path.partition("/messages/")[2].partition("?")[0]
        for path in fake.request_log[start:]
        if path.startswith(f"PATCH {API_PREFIX}/webhooks/")
    ]
    return [int(message) for message in paths if message.isdigit()]
