"""Fixtures every end-to-end test may use."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore


@pytest.fixture
async def store(redis_server: str) -> AsyncIterator[GameStore]:
    """The test's Redis as the bot's table store, to read (or plant) a game."""
    client = client_for_url(redis_server)
    yield GameStore(client)
    await client.aclose()
