"""Finished games' records and each server's history of them.

A running game's record is its `Table` (options, seed, seats and ``moves``), saved with
every move. When the game ends, `RecordStore.keep` copies it as a `GameRecord` to
``record:{guild}:{gid}`` and lists the game in the server's ``history:{guild}`` (a
sorted set: game id -> when it ended), both expiring after ``HISTORY_DAYS`` (0: nothing
is kept). Keeping is idempotent (the same game id is written again), so the resume path
may repeat it after a crash. A server the bot has left stops writing, and its keys
expire like the rest.
"""

from __future__ import annotations

import base64
import binascii
import logging
import time
import zlib
from typing import Any

import redis.asyncio as aioredis
from pydantic import BaseModel, Field, ValidationError, field_serializer, model_validator

from bot.engines.base import Outcome, PlayerId
from bot.storage.errors import guarded
from bot.storage.keys import history_key, record_key
from bot.table import Move, Seat, Table, decode_moves, encode_moves

log = logging.getLogger(__name__)

HISTORY_LONGEST = 1000
"""The most games a server's history lists (the oldest beyond are dropped from it)."""
HISTORY_SCANNED = 200
"""How many of the newest games `/history player:` looks through for that player."""


class GameRecord(BaseModel):
    """Everything needed to tell and replay a finished game."""

    gid: str
    game: str
    guild_id: int
    channel_id: int
    lang: str = "en"
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seats: list[Seat]
    moves: list[Move] = Field(default_factory=list)
    started: int = 0
    ended: int = 0
    places: dict[PlayerId, int] = Field(default_factory=dict)
    scores: dict[PlayerId, int] = Field(default_factory=dict)

    @classmethod
    def of(cls, table: Table, outcome: Outcome | None, ended: float) -> GameRecord:
        return cls(
            gid=table.gid,
            game=table.game,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            lang=table.lang,
            options=table.options,
            seed=table.seed,
            seats=table.seats,
            moves=table.moves,
            started=int(table.moves[0].t if table.moves else table.opened),
            ended=int(ended),
            places=dict(outcome.places) if outcome else {},
            scores=dict(outcome.scores) if outcome else {},
        )

    @model_validator(mode="before")
    @classmethod
    def _read_moves(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("moves"):
            return {**data, "moves": decode_moves(data["moves"], data.get("seats", []))}
        return data

    @field_serializer("moves")
    def _write_moves(self, moves: list[Move]) -> list[str]:
        return encode_moves(moves, self.seats)

    def names(self) -> dict[PlayerId, str]:
        return {seat.id: seat.name for seat in self.seats}


# KEYS: record, history. ARGV: data, ttl, gid, ended, oldest kept score, longest list.
_KEEP = """
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
redis.call('ZADD', KEYS[2], tonumber(ARGV[4]), ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1 - tonumber(ARGV[6]))
redis.call('EXPIRE', KEYS[2], ttl)
return 1
"""


class RecordStore:
    """Finished games' records and the servers' histories."""

    def __init__(self, client: aioredis.Redis, *, days: int) -> None:
        self.client = client
        self.days = days
        self._keep_script = client.register_script(_KEEP)

    @property
    def ttl(self) -> int:
        return self.days * 24 * 3600

    async def keep(self, record: GameRecord) -> bool:
        """Keep ``record`` for ``days`` and list it in its server's history; False when
        history is off (``HISTORY_DAYS=0``)."""
        if self.days <= 0:
            return False
        keys = [record_key(record.guild_id, record.gid), history_key(record.guild_id)]
        args: list[str | int] = [
            encode_record(record),
            self.ttl,
            record.gid,
            record.ended,
            int(time.time()) - self.ttl,
            HISTORY_LONGEST,
        ]
        await guarded(self._keep_script(keys=keys, args=args))
        return True

    async def load(self, guild_id: int, gid: str) -> GameRecord | None:
        """The record of the server's finished game ``gid``; None if there is none (an
        unknown id, another server's game, or one older than ``days``)."""
        if not gid or len(gid) > 32:
            return None
        raw = await guarded(self.client.get(record_key(guild_id, gid)))
        return None if raw is None else _decode(raw, gid)

    async def recent(
        self, guild_id: int, *, limit: int = 10, player: PlayerId | None = None
    ) -> list[GameRecord]:
        """The server's last finished games, newest first (only ``player``'s, if given)."""
        scan = HISTORY_SCANNED if player else limit
        gids = await guarded(self.client.zrevrange(history_key(guild_id), 0, scan - 1))
        if not gids:
            return []
        keys = [record_key(guild_id, str(gid)) for gid in gids]
        raws = await guarded(self.client.mget(keys))
        found: list[GameRecord] = []
        for gid, raw in zip(gids, raws, strict=True):
            record = None if raw is None else _decode(raw, str(gid))
            if record is None:
                continue
            if player is not None and all(seat.id != player for seat in record.seats):
                continue
            found.append(record)
            if len(found) >= limit:
                break
        return found


COMPRESSED = "z:"
"""A stored record is its JSON compressed (zlib, then base64: the client reads text),
marked by this prefix: a long match's moves repeat a few words, and shrink about
fourfold."""


def encode_record(record: GameRecord) -> str:
    packed = zlib.compress(record.model_dump_json().encode(), 9)
    return COMPRESSED + base64.b64encode(packed).decode("ascii")


def decode_record(raw: str | bytes) -> GameRecord:
    text = raw.decode() if isinstance(raw, bytes) else raw
    if text.startswith(COMPRESSED):
        text = zlib.decompress(base64.b64decode(text[len(COMPRESSED) :])).decode()
    return GameRecord.model_validate_json(text)


def _decode(raw: str | bytes, gid: str) -> GameRecord | None:
    try:
        return decode_record(raw)
    except (ValidationError, ValueError, zlib.error, binascii.Error):
        log.warning("The record of game %s can't be read", gid)
        return None
