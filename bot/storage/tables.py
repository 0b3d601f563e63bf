"""The Redis game store: one table per channel, saved with compare-and-set, and each
server's index of its tables.

Each channel's table lives in a hash ``game:{guild_id}:channel_id`` (the braces are
literal: a Redis Cluster hash tag) with the fields ``rev`` (a counter that only grows),
``data`` (the `Table` JSON), ``gid``, ``message`` and ``ping``. A Lua script saves only
if ``rev`` is still the one the caller loaded, so of two concurrent saves of the same
revision exactly one wins.

The same scripts keep the server's index ``tables:{guild_id}`` (channel -> "game phase
expiry"), so the table cap, `/metrics`, resume and the sweep read a few small hashes
instead of scanning the keyspace; `GUILDS_KEY` lists the servers that have an index.
An entry past its expiry is a table Redis has expired: readers skip it and drop it.

With ``min_replicas`` (the setting ``REDIS_MIN_REPLICAS``) a save is answered only once
that many replicas have it (`WAIT`), so a failover that promotes a replica keeps every
move a player was told was made (`GameStore.save`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import (
    AskError,
    ClusterError,
    RedisClusterException,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.i18n import N_
from bot.metrics import REDIS_ERRORS
from bot.storage.errors import (
    NoConnectionFree,
    StaleRevision,
    StoreError,
    StoreUnavailable,
    TableSetAside,
    guarded,
)
from bot.storage.keys import GUILDS_KEY, index_key, quarantine_key, table_key
from bot.table import Phase, Ping, Table, UnreadableTable, decode_table, encode_table

log = logging.getLogger(__name__)

LOBBY_TTL_SECONDS = 6 * 3600
PLAYING_TTL_SECONDS = 14 * 24 * 3600
FINISHED_TTL_SECONDS = 24 * 3600
QUARANTINE_TTL_SECONDS = 30 * 24 * 3600
REPLICA_WAIT_MS = 500
"""The longest a save waits for its replicas (`GameStore.save` with ``min_replicas``):
a healthy replica answers within a round trip; well inside the client's socket
time-out and the 3 s an interaction has to be answered."""

COPY_CHECKS = 10
"""How many times `GameStore.copied` waits `REPLICA_WAIT_MS` for a replica to confirm a
save it first missed: about 5 s, long enough for a replica to reconnect after a short
network hiccup, short enough that a player still looking at the table sees the move."""

LANDED_CHECKS = 12
"""How many times `GameStore.landed` asks an unreachable store again, backing off from
`REPLICA_WAIT_MS` to `LANDED_LONGEST_WAIT_SECONDS`: about 45 s, longer than a cluster
takes to promote a replica, so a move made just before a failover is found."""
LANDED_LONGEST_WAIT_SECONDS = 5.0

REDIRECTS = (AskError, TryAgainError, ClusterError)
"""A cluster's answers that a command went to the wrong node or came mid-failover
(MOVED is an AskError, CLUSTERDOWN a ClusterError)."""


class SaveUnanswered(StoreUnavailable):
    """A save whose answer was lost: the connection broke or timed out after it was
    sent (a failover, a Redis restart), so Redis may have made it or not. ``rev`` and
    ``data`` are what the save would have stored, so `GameStore.landed` can tell once
    Redis answers (`bot.play.saving.Saving` then shows the move if it was made, and
    answers the move's player with `MoveUnanswered`)."""

    def __init__(self, rev: int, data: str) -> None:
        super().__init__()
        self.rev = rev
        self.data = data


class NotReplicated(StoreUnavailable):
    """A save that Redis made, but that fewer replicas than ``REDIS_MIN_REPLICAS``
    confirmed in time (the write itself stands on the master; see `GameStore.save`).
    ``rev`` is the revision the master saved: once `GameStore.copied` confirms it, the
    move counts as made (`bot.play.saving.Saving` then shows it)."""

    def __init__(self, rev: int = 0) -> None:
        StoreError.__init__(
            self,
            N_(
                "Your move is saved but not yet safely copied. The table shows it as "
                "soon as it is; if it doesn't within a few seconds, make it again."
            ),
        )
        self.rev = rev


@dataclass(frozen=True)
class Stored:
    table: Table
    rev: int


DECODED_KEPT = 256
"""Tables whose last decoded revision a store keeps (the least recently used go first):
a move's three reads come within a second or two, so the tables in play fit in about
10 MB (a 5-player Geschenkt table mid-game takes some 45 KB decoded), where keeping
every live table would cost a second copy of each."""


class DecodedTables:
    """The tables this process last read or wrote, decoded, by channel: a load whose
    stored data is exactly the data kept is answered with a copy instead of decoding
    it again. A move is read three times (the click, the turn ping, the private
    panels), and a long match's record takes far longer to decode (thousands of moves,
    compressed) than to copy (its moves are frozen, so copies share them).

    What is kept is checked against what Redis holds on every load (revision and the
    whole data), so a save by another process, or a new game, is never hidden."""

    def __init__(self, kept: int = DECODED_KEPT) -> None:
        self._kept = kept
        self._tables: OrderedDict[tuple[int, int], tuple[int, str | bytes, Table]] = OrderedDict()

    def get(self, place: tuple[int, int], rev: int, data: str | bytes) -> Table | None:
        """A copy of the table kept for ``place``, if it is revision ``rev`` from
        exactly ``data``."""
        found = self._tables.get(place)
        if found is None or found[0] != rev or found[1] != data:
            return None
        self._tables.move_to_end(place)
        return found[2].model_copy(deep=True)

    def put(self, place: tuple[int, int], rev: int, data: str | bytes, table: Table) -> None:
        """Keep (a copy of) ``table``: revision ``rev``, decoded from or encoded to
        ``data``."""
        self._tables[place] = (rev, data, table.model_copy(deep=True))
        self._tables.move_to_end(place)
        while len(self._tables) > self._kept:
            self._tables.popitem(last=False)

    def forget(self, place: tuple[int, int]) -> None:
        self._tables.pop(place, None)


# KEYS: table, index. ARGV: expected rev, data, ttl, message, gid, channel, game, phase.
_SAVE_IF_UNCHANGED = """
local current = redis.call('HGET', KEYS[1], 'rev')
if current == false then current = '0' end
if current ~= ARGV[1] then return -1 end
local new = tonumber(current) + 1
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'rev', new, 'data', ARGV[2], 'gid', ARGV[5])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'message', ARGV[4]) end
redis.call('EXPIRE', KEYS[1], ttl)
local expiry = tonumber(redis.call('TIME')[1]) + ttl
redis.call('HSET', KEYS[2], ARGV[6], ARGV[7] .. ' ' .. ARGV[8] .. ' ' .. expiry)
if redis.call('TTL', KEYS[2]) < ttl then redis.call('EXPIRE', KEYS[2], ttl) end
return new
"""

_SET_MESSAGE_IF_SAME_GAME = """
if redis.call('HGET', KEYS[1], 'gid') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'message', ARGV[2])
return 1
"""

# KEYS: table, index. ARGV: expected rev, channel.
_DELETE_IF_UNCHANGED = """
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[2], ARGV[2])
return 1
"""

_SET_PING_IF_SAME_GAME = """
if redis.call('HGET', KEYS[1], 'gid') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'ping') else
redis.call('HSET', KEYS[1], 'ping', ARGV[2]) end
return 1
"""

# KEYS: table, quarantine, index. ARGV: reason, quarantine ttl, channel.
_SET_ASIDE = """
redis.call('HDEL', KEYS[3], ARGV[3])
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local data = redis.call('HGET', KEYS[1], 'data')
redis.call('HSET', KEYS[2], 'data', data or '', 'reason', ARGV[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
redis.call('DEL', KEYS[1])
return 1
"""


# KEYS: index. ARGV: channel, the entry found expired. Drops it unless a save
# replaced it meanwhile.
_DROP_EXPIRED_ENTRIES = """
local dropped = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    dropped = dropped + redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return dropped
"""
"""Drop index entries (ARGV: channel, entry, channel, entry…) still as they were read:
one saved again meanwhile has a new entry and stays."""


@dataclass(frozen=True)
class IndexEntry:
    """One table as the server's index lists it."""

    channel_id: int
    game: str
    phase: str
    expiry: int
    """Unix time at which Redis expires the table unless it is saved again."""

    @classmethod
    def parse(cls, channel: str, value: str) -> IndexEntry:
        game, phase, expiry = value.split(" ")
        return cls(int(channel), game, phase, int(expiry))

    @property
    def value(self) -> str:
        return f"{self.game} {self.phase} {self.expiry}"


def ttl_for(phase: Phase) -> int:
    return {
        "lobby": LOBBY_TTL_SECONDS,
        "playing": PLAYING_TTL_SECONDS,
        "over": FINISHED_TTL_SECONDS,
    }[phase]


class GameStore:
    """Loads and saves tables; every Redis failure becomes `StoreUnavailable`."""

    def __init__(self, client: aioredis.Redis, *, min_replicas: int = 0) -> None:
        self.client = client
        self.min_replicas = min_replicas
        """Replicas that must have a save before it is answered (0: none asked)."""
        self._save_script = client.register_script(_SAVE_IF_UNCHANGED)
        self._delete_script = client.register_script(_DELETE_IF_UNCHANGED)
        self._set_message_script = client.register_script(_SET_MESSAGE_IF_SAME_GAME)
        self._set_aside_script = client.register_script(_SET_ASIDE)
        self._set_ping_script = client.register_script(_SET_PING_IF_SAME_GAME)
        self._drop_entries_script = client.register_script(_DROP_EXPIRED_ENTRIES)
        self.decoded = DecodedTables()

    async def load(self, guild_id: int, channel_id: int) -> Stored | None:
        key = table_key(guild_id, channel_id)
        rev, data, message, ping = await guarded(
            self.client.hmget(key, "rev", "data", "message", "ping")
        )
        if rev is None or data is None:
            return None
        place, revision = (guild_id, channel_id), int(rev)
        table = self.decoded.get(place, revision, data)
        if table is None:
            try:
                table = decode_table(data)
            except UnreadableTable as error:
                self.decoded.forget(place)
                await self.set_aside(guild_id, channel_id, str(error))
                raise TableSetAside() from error
            self.decoded.put(place, revision, data, table)
        table.message_id = int(message) if message else None
        table.ping = Ping.model_validate_json(ping) if ping else None
        return Stored(table, revision)

    async def set_aside(self, guild_id: int, channel_id: int, reason: str) -> None:
        """Move the channel's unreadable table to a quarantine key (kept a while, with
        the reason, for a developer to look at) and free the channel. Logged once: the
        first caller moves it, later callers find nothing to move."""
        key = table_key(guild_id, channel_id)
        keys = [key, quarantine_key(guild_id, channel_id), index_key(guild_id)]
        args: list[str | int] = [reason, QUARANTINE_TTL_SECONDS, channel_id]
        moved = await guarded(self._set_aside_script(keys=keys, args=args))
        if moved:
            log.warning("Set aside the unreadable table of channel %s: %s", channel_id, reason)

    async def save(self, table: Table, expected_rev: int) -> int:
        """Save if the stored revision is still ``expected_rev`` (0: no table yet).

        Returns the new revision; raises `StaleRevision` if someone saved first.

        With ``min_replicas`` > 0 the save is followed, on the same connection to the
        master that made it, by ``WAIT min_replicas REPLICA_WAIT_MS``, and returns only
        once that many replicas have it: a failover (which promotes a replica) then
        keeps it. If fewer confirm in time (a replica down or lagging, a failover under
        way) it raises `NotReplicated` (with the new revision), a `StoreUnavailable`:
        the player is told the move isn't safe yet, and nothing is shown or planned
        until `copied` confirms it (`bot.play.saving.Saving` does that in the
        background; other saves, such as lobby joins, are simply tried again). The
        write itself stands on the master and reaches the replicas when they catch up.
        Only if that master is lost before any replica has it is the move gone, and
        then its player was never told it was made.
        """
        if expected_rev == 0:  # a new table: its server must be listed before it exists
            await self._list_guild(table.guild_id)
        keys = [table_key(table.guild_id, table.channel_id), index_key(table.guild_id)]
        message = "" if table.message_id is None else str(table.message_id)
        data = encode_table(table)
        args: list[str | int] = [
            expected_rev,
            data,
            ttl_for(table.phase),
            message,
            table.gid,
            table.channel_id,
            table.game,
            table.phase,
        ]
        try:
            if self.min_replicas <= 0:
                new_rev = int(await guarded(self._save_script(keys=keys, args=args)))
            else:  # EVAL, not EVALSHA: a master just promoted has no scripts loaded
                command = ("EVAL", _SAVE_IF_UNCHANGED, len(keys), *keys, *args)
                saved, replicas = await guarded(self._then_wait(keys[0], command))
                new_rev = int(saved)
        except NoConnectionFree:
            raise  # never sent: nothing was saved
        except StoreUnavailable as error:
            raise SaveUnanswered(expected_rev + 1, data) from error
        if new_rev < 0:
            raise StaleRevision()
        self.decoded.put((table.guild_id, table.channel_id), new_rev, data, table)
        if self.min_replicas > 0:
            self._check_replicas(replicas, f"revision {new_rev} of a table", new_rev)
        return new_rev

    async def landed(self, table: Table, rev: int, data: str) -> bool:
        """Whether a save whose answer was lost (`SaveUnanswered`) was made: revision
        ``rev`` is stored with exactly ``data`` (and, with ``min_replicas``, a replica
        has it: `copied`). Asks again while the store is unreachable, up to
        `LANDED_CHECKS` times; False if it never answers or holds something else."""
        key = table_key(table.guild_id, table.channel_id)
        wait = REPLICA_WAIT_MS / 1000
        for _ in range(LANDED_CHECKS):
            try:
                stored_rev, stored_data = await guarded(self.client.hmget(key, "rev", "data"))
            except StoreUnavailable:
                await asyncio.sleep(wait)
                wait = min(wait * 2, LANDED_LONGEST_WAIT_SECONDS)
                continue
            if stored_rev is None or int(stored_rev) != rev or stored_data != data:
                return False
            return self.min_replicas <= 0 or await self.copied(table, rev)
        return False

    async def _list_guild(self, guild_id: int) -> None:
        """Add the server to `GUILDS_KEY` (a replica confirming it, as a save does: a
        failover must not leave a table whose server resume and the sweep don't know)."""
        if self.min_replicas <= 0:
            await guarded(self.client.sadd(GUILDS_KEY, guild_id))
            return
        _, replicas = await guarded(self._then_wait(GUILDS_KEY, ("SADD", GUILDS_KEY, guild_id)))
        self._check_replicas(replicas, f"server {guild_id} in the list of servers")

    async def _then_wait(self, key: str, command: tuple[str | int, ...]) -> tuple[Any, Any]:
        """``command`` (whose first key is ``key``) and ``WAIT min_replicas
        REPLICA_WAIT_MS`` in one pipeline: one connection, so the `WAIT` counts the
        replicas that have this very write. Their answers (the WAIT's may be an error).

        On a cluster the pipeline sends both to the master owning ``key``'s slot (the
        `WAIT` routed there explicitly: it has no key), and a MOVED answer isn't
        followed (the command then never ran): the store is unavailable this time, and
        the next call knows the slot's new master."""
        wait = ("WAIT", self.min_replicas, REPLICA_WAIT_MS)
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.execute_command(*command)
            if isinstance(self.client, RedisCluster):
                try:
                    master = self.client.get_node_from_key(key)
                except RedisClusterException as error:  # the slot has no master now
                    raise RedisConnectionError(str(error)) from error
                pipe.execute_command(*wait, target_nodes=master)
                results = await pipe.execute(raise_on_error=False, allow_redirections=False)
            else:
                pipe.execute_command(*wait)
                results = await pipe.execute(raise_on_error=False)
        answer, replicas = results
        if isinstance(answer, REDIRECTS):
            raise RedisConnectionError(f"the slot of {key} is moving: {answer}") from answer
        if isinstance(answer, Exception):
            raise answer
        return answer, replicas

    async def copied(self, table: Table, rev: int) -> bool:
        """Whether a replica now has revision ``rev`` of ``table``, which a save answered
        with `NotReplicated`: after up to `COPY_CHECKS` waits of `REPLICA_WAIT_MS`, False
        if another revision is stored by then or the replicas still lag.

        A `WAIT` counts only its own connection's writes, so each check rewrites the
        table's time to live (to what the save set) and waits for that: replication keeps
        its order, so a replica that has it has the save too."""
        key = table_key(table.guild_id, table.channel_id)
        expire = ("EXPIRE", key, ttl_for(table.phase))
        for _ in range(COPY_CHECKS):
            try:
                stored_rev = await guarded(self.client.hget(key, "rev"))
                if stored_rev is None or int(stored_rev) != rev:
                    return False
                _, replicas = await guarded(self._then_wait(key, expire))
            except StoreUnavailable:
                await asyncio.sleep(REPLICA_WAIT_MS / 1000)
                continue
            if isinstance(replicas, int) and replicas >= self.min_replicas:
                return True
        return False

    def _check_replicas(self, replicas: object, what: str, rev: int = 0) -> None:
        """`NotReplicated` unless ``replicas`` (a WAIT's answer) is enough."""
        if isinstance(replicas, int) and replicas >= self.min_replicas:
            return
        REDIS_ERRORS.inc()
        log.warning(
            "Saved %s; %s of %d replicas confirmed it in %d ms",
            what,
            replicas,
            self.min_replicas,
            REPLICA_WAIT_MS,
        )
        raise NotReplicated(rev)

    async def delete(self, table: Table, expected_rev: int) -> None:
        keys = [table_key(table.guild_id, table.channel_id), index_key(table.guild_id)]
        args: list[str | int] = [expected_rev, table.channel_id]
        deleted = await guarded(self._delete_script(keys=keys, args=args))
        if not deleted:
            raise StaleRevision()

    async def set_ping(self, table: Table, ping: Ping | None) -> bool:
        """Record the table's live turn ping (None: there is none) beside its data, if the
        channel still holds this game; no new revision."""
        key = table_key(table.guild_id, table.channel_id)
        value = "" if ping is None else ping.model_dump_json()
        args: list[str | int] = [table.gid, value]
        return bool(await guarded(self._set_ping_script(keys=[key], args=args)))

    async def set_message(self, table: Table, message_id: int) -> bool:
        """Record the table's public message without bumping the revision.

        Returns False if the channel now holds another game.
        """
        key = table_key(table.guild_id, table.channel_id)
        args: list[str | int] = [table.gid, message_id]
        return bool(await guarded(self._set_message_script(keys=[key], args=args)))

    async def places(self) -> AsyncIterator[tuple[int, int]]:
        """(guild id, channel id) of every stored table, from the servers' indexes."""
        for guild_id in await self.guilds():
            for entry in await self.tables_in(guild_id):
                yield guild_id, entry.channel_id

    async def guilds(self) -> list[int]:
        """Every server that has an index of tables."""
        return sorted(int(guild) for guild in await guarded(self.client.smembers(GUILDS_KEY)))

    async def tables_in(self, guild_id: int) -> list[IndexEntry]:
        """The server's tables that Redis still holds, from its index (one small hash:
        at most one entry per channel), dropping the entries of expired ones."""
        raw = await guarded(self.client.hgetall(index_key(guild_id)))
        entries = [IndexEntry.parse(str(channel), str(value)) for channel, value in raw.items()]
        now = time.time()
        expired = [entry for entry in entries if entry.expiry <= now]
        if expired:  # all in one call
            args: list[str | int] = []
            for entry in expired:
                args += [entry.channel_id, entry.value]
            await guarded(self._drop_entries_script(keys=[index_key(guild_id)], args=args))
        return [entry for entry in entries if entry.expiry > now]

    async def ping(self) -> None:
        await guarded(self.client.ping())

    async def count_tables(
        self, counts_guild: Callable[[int], bool] = lambda _: True
    ) -> dict[tuple[str, str], int]:
        """How many tables each (game, phase) has, for the metrics: those of the guilds
        ``counts_guild`` picks (a process's own shards, so processes don't count one
        table twice)."""
        guilds = [guild_id for guild_id in await self.guilds() if counts_guild(guild_id)]
        async with self.client.pipeline(transaction=False) as pipe:
            for guild_id in guilds:
                pipe.hgetall(index_key(guild_id))
            indexes: list[dict[str, str]] = await guarded(pipe.execute())
        now = time.time()
        counts: Counter[tuple[str, str]] = Counter()
        for index in indexes:
            entries = (IndexEntry.parse(str(c), str(v)) for c, v in index.items())
            counts.update((e.game, e.phase) for e in entries if e.expiry > now)
        return dict(counts)

    async def live_tables_in(self, guild_id: int) -> int:
        """How many lobbies and running games the server has (finished ones not)."""
        return sum(1 for entry in await self.tables_in(guild_id) if entry.phase != "over")
