"""Redis clients for each `REDIS_URL` form, and the embedded server when there is none."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import redis.asyncio as aioredis
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

from bot.storage.embedded import EmbeddedRedis
from bot.storage.tables import GameStore
from bot.storage.urls import SENTINEL_SCHEME, SentinelTarget, parse_sentinel_url

MAX_CONNECTIONS = 32
"""Redis connections per bot; more interactions at once queue for one (briefly)."""


FAIL_FAST: dict[str, float] = {"socket_timeout": 1.5, "socket_connect_timeout": 1.0}
"""A stalled Redis call gives up in time for the interaction to be answered."""


def client_for_url(url: str) -> aioredis.Redis:
    """A client that fails fast, so an interaction can still answer in time (any form
    of `bot.redis_urls`; ``rediss://`` is TLS, by redis-py's own URL parsing).

    The pool blocks (up to a second) when all its connections are busy, instead of
    refusing with "Too many connections" as the default pool does under a burst."""
    if url.startswith(f"{SENTINEL_SCHEME}://"):
        return _sentinel_client(parse_sentinel_url(url))
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=MAX_CONNECTIONS, timeout=1.0, decode_responses=True, **FAIL_FAST
    )
    return aioredis.Redis.from_pool(pool)


def _sentinel_client(target: SentinelTarget) -> aioredis.Redis:
    """The master of ``target.service`` as the sentinels name it, asked again after a
    failover (redis-py's `Sentinel`). Its pool doesn't block: past `MAX_CONNECTIONS`
    calls at once, one fails as the store being unavailable."""
    sentinel = Sentinel(target.sentinels, sentinel_kwargs=dict(FAIL_FAST), **FAIL_FAST)  # type: ignore[no-untyped-call]
    client: aioredis.Redis = sentinel.master_for(
        target.service,
        db=target.db,
        username=target.username,
        password=target.password,
        max_connections=MAX_CONNECTIONS,
        decode_responses=True,
        socket_timeout=FAIL_FAST["socket_timeout"],
        socket_connect_timeout=FAIL_FAST["socket_connect_timeout"],
    )
    return client


async def close_client(client: aioredis.Redis) -> None:
    """Close the client and, for Sentinel, its connections to the sentinels."""
    await client.aclose()
    pool = client.connection_pool
    if isinstance(pool, SentinelConnectionPool):
        for sentinel in pool.sentinel_manager.sentinels:
            await sentinel.aclose()


@asynccontextmanager
async def open_store(redis_url: str | None, data_dir: Path) -> AsyncIterator[GameStore]:
    """The store on ``redis_url``, or on an embedded Redis with data under ``data_dir``.

    The embedded server is stopped on every way out, a failed start included."""
    with contextlib.ExitStack() as servers:
        if redis_url is None:
            embedded = servers.enter_context(EmbeddedRedis(data_dir))
            redis_url = f"unix://{embedded.socket}"
        client = client_for_url(redis_url)
        try:
            yield GameStore(client)
        finally:
            await close_client(client)
