"""`guarded`: a Redis client's failure becomes `StoreUnavailable`; our own bugs don't."""

from __future__ import annotations

import os

import pytest

from bot.storage.errors import StoreUnavailable, guarded

INSIDE_REDIS = os.path.join(os.sep, "site-packages", "redis", "asyncio", "connection.py")


def _compiled_at(filename: str) -> object:
    """A coroutine function whose code says it lives in ``filename``, failing as
    redis-py does when a failover closes a connection under it."""
    source = "async def send():\n    writer = None\n    writer.writelines([])\n"
    namespace: dict[str, object] = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["send"]


async def test_a_connection_closed_under_the_redis_client_is_unavailable() -> None:
    send = _compiled_at(INSIDE_REDIS)
    with pytest.raises(StoreUnavailable):
        await guarded(send())  # type: ignore[operator]


async def test_an_attribute_error_of_our_own_is_not_hidden() -> None:
    send = _compiled_at(os.path.join(os.sep, "app", "bot", "storage", "tables.py"))
    with pytest.raises(AttributeError):
        await guarded(send())  # type: ignore[operator]
