"""Tournaments in Redis: each one a hash of its JSON and its revision, saved with
compare-and-set like a table; the channel it runs in, the threads its tables are
played in, and each server's set of live tournaments, for the round clocks after a
restart. Finished and cancelled tournaments keep their record for ``HISTORY_DAYS``, and
the finished ones are listed by when they ended, for `/history`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import cast

import redis.asyncio as aioredis

from bot.storage.errors import StaleRevision, guarded
from bot.storage.keys import (
    GUILDS_KEY,
    finished_tournaments_key,
    running_tournaments_key,
    tournament_channel_key,
    tournament_key,
    tournament_thread_key,
)
from bot.tournament import Tournament, decode_tournament, encode_tournament

SAVE_IF_REVISION = """
local stored = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if stored ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'data', ARGV[3])
if ARGV[4] == 'live' then
  redis.call('SET', KEYS[2], ARGV[5])
  redis.call('SADD', KEYS[3], ARGV[5])
  redis.call('PERSIST', KEYS[1])
else
  if redis.call('GET', KEYS[2]) == ARGV[5] then redis.call('DEL', KEYS[2]) end
  redis.call('SREM', KEYS[3], ARGV[5])
  redis.call('EXPIRE', KEYS[1], ARGV[6])
end
if ARGV[4] == 'finished' then
  redis.call('ZADD', KEYS[4], 'NX', ARGV[7], ARGV[5])
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. (tonumber(ARGV[7]) - tonumber(ARGV[6])))
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -1 - tonumber(ARGV[8]))
  redis.call('EXPIRE', KEYS[4], ARGV[6])
end
return 1
"""
"""Save a tournament over the revision it was read at; keep the channel's pointer, the
server's set of live tournaments and its list of finished ones with it, in the same
step."""
FINISHED_LONGEST = 200
"""A server's list of finished tournaments keeps at most this many."""
FINISHED_SCANNED = 50
"""`TournamentStore.finished` looks through at most this many for one player's."""


@dataclass(frozen=True)
class TableInThread:
    """The tournament table a thread's game is."""

    tournament_id: str
    table_id: str


@dataclass(frozen=True)
class FinishedTournament:
    """A finished tournament, and when it ended (seconds since the epoch)."""

    ended: int
    tournament: Tournament


class TournamentStore:
    def __init__(self, client: aioredis.Redis, *, keep_days: int) -> None:
        self.client = client
        self.keep_seconds = max(keep_days, 1) * 86400
        self._save = client.register_script(SAVE_IF_REVISION)

    async def load(self, guild_id: int, tournament_id: str) -> Tournament | None:
        raw = await guarded(self.client.hget(tournament_key(guild_id, tournament_id), "data"))
        return None if raw is None else decode_tournament(raw)

    async def in_channel(self, guild_id: int, channel_id: int) -> Tournament | None:
        """The tournament signing up or running in the channel, if any."""
        tournament_id = await guarded(self.client.get(tournament_channel_key(guild_id, channel_id)))
        if tournament_id is None:
            return None
        return await self.load(guild_id, _text(tournament_id))

    async def save(self, tournament: Tournament, read_at: int, *, now: float | None = None) -> None:
        """Save ``tournament`` (whose ``revision`` is the new one) over revision
        ``read_at``; raises `StaleRevision` when another save came first. A finished
        tournament is listed as ended at ``now`` (default: this machine's clock), the
        first time it is saved finished."""
        guild_id, channel_id = _place(tournament)
        if tournament.state in ("signup", "running"):
            kind = "live"
        else:
            kind = "finished" if tournament.state == "finished" else "over"
        saved = await guarded(
            self._save(
                keys=[
                    tournament_key(guild_id, tournament.id),
                    tournament_channel_key(guild_id, channel_id),
                    running_tournaments_key(guild_id),
                    finished_tournaments_key(guild_id),
                ],
                args=[
                    read_at,
                    tournament.revision,
                    encode_tournament(tournament),
                    kind,
                    tournament.id,
                    self.keep_seconds,
                    int(time.time() if now is None else now),
                    FINISHED_LONGEST,
                ],
            )
        )
        if not saved:
            raise StaleRevision()

    async def set_message(
        self, guild_id: int, tournament_id: str, message_id: int, lang: str
    ) -> None:
        """The sign-up message, and the language the tournament speaks in its channel."""
        key = tournament_key(guild_id, tournament_id)
        await guarded(self.client.hset(key, mapping={"message": message_id, "lang": lang}))

    async def lang_of(self, tournament: Tournament) -> str:
        guild_id, _ = _place(tournament)
        raw = await guarded(self.client.hget(tournament_key(guild_id, tournament.id), "lang"))
        return "en" if raw is None else _text(raw)

    async def set_thread(self, tournament: Tournament, table_id: str, thread_id: int) -> None:
        guild_id, _ = _place(tournament)
        key = tournament_key(guild_id, tournament.id)
        await guarded(self.client.hset(key, f"thread:{table_id}", thread_id))

    async def thread_of(self, tournament: Tournament, table_id: str) -> int | None:
        """The thread a table of the tournament is played in."""
        guild_id, _ = _place(tournament)
        key = tournament_key(guild_id, tournament.id)
        raw = await guarded(self.client.hget(key, f"thread:{table_id}"))
        return None if raw is None else int(_text(raw))

    async def mark_thread(self, guild_id: int, thread_id: int, table: TableInThread) -> None:
        value = f"{table.tournament_id} {table.table_id}"
        await guarded(
            self.client.set(tournament_thread_key(guild_id, thread_id), value, ex=self.keep_seconds)
        )

    async def table_in_thread(self, guild_id: int, thread_id: int) -> TableInThread | None:
        raw = await guarded(self.client.get(tournament_thread_key(guild_id, thread_id)))
        if raw is None:
            return None
        tournament_id, _, table_id = _text(raw).partition(" ")
        return TableInThread(tournament_id, table_id)

    async def finished(
        self, guild_id: int, *, limit: int, player: str | None = None
    ) -> list[FinishedTournament]:
        """The server's last finished tournaments, newest first (only those ``player``
        played in, if given)."""
        scan = FINISHED_SCANNED if player else limit
        key = finished_tournaments_key(guild_id)
        listed = cast(
            list[tuple[bytes | str, float]],
            await guarded(self.client.zrevrange(key, 0, scan - 1, withscores=True)),
        )
        loaded = await asyncio.gather(*(self.load(guild_id, _text(tid)) for tid, _ in listed))
        found: list[FinishedTournament] = []
        for (_, ended), tournament in zip(listed, loaded, strict=True):
            if tournament is None or tournament.state != "finished":
                continue
            if player is not None and all(entrant.id != player for entrant in tournament.entrants):
                continue
            found.append(FinishedTournament(int(ended), tournament))
        return found[:limit]

    async def live(self) -> AsyncIterator[Tournament]:
        """Every server's tournaments signing up or running."""
        guilds = await guarded(self.client.smembers(GUILDS_KEY))
        for guild in sorted(int(_text(g)) for g in guilds):
            ids = await guarded(self.client.smembers(running_tournaments_key(guild)))
            for tournament_id in sorted(_text(i) for i in ids):
                tournament = await self.load(guild, tournament_id)
                if tournament is not None:
                    yield tournament


def _place(tournament: Tournament) -> tuple[int, int]:
    if tournament.guild_id is None or tournament.channel_id is None:
        raise ValueError("a stored tournament belongs to a server's channel")
    return tournament.guild_id, tournament.channel_id


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
