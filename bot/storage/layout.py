"""One-off moves of stored keys to the current layout, at start, before the bot serves.
These are the only keyspace scans the bot makes.

Layout 3 (now): every key of a guild carries the Redis Cluster hash tag ``{guild_id}``
(`bot.storage.keys`), and each server has an index of its tables. Layout 2 had no
index; layout 1 had no tags (``game:G:C``, ``stats:G:…``, ``settings:G``) and
``quarantine:{G:C}``.

`migrate_keys` renames layout-1 keys (RENAME keeps a key's value and TTL) and indexes
every table that has no index entry yet. It is safe when several processes start at
once: a key another process renamed first is simply gone, an entry is only added where
none is (a save's own entry wins), and the layout marker is written last.
"""

from __future__ import annotations

import logging
import re

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from bot.storage.errors import guarded
from bot.storage.keys import GUILDS_KEY, LAYOUT_KEY, index_key, place_of_key

log = logging.getLogger(__name__)

LAYOUT = 3

# KEYS: table, its server's index. ARGV: channel.
_INDEX_TABLE = """
local data = redis.call('HGET', KEYS[1], 'data')
if not data then return 0 end
local game, phase = 'unknown', 'lobby'
local ok, table = pcall(cjson.decode, data)
if ok and type(table) == 'table' then
  game = tostring(table['game'] or game)
  phase = tostring(table['phase'] or phase)
end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then ttl = 14 * 24 * 3600 end
local expiry = tonumber(redis.call('TIME')[1]) + ttl
local added = redis.call('HSETNX', KEYS[2], ARGV[1], game .. ' ' .. phase .. ' ' .. expiry)
if redis.call('TTL', KEYS[2]) < ttl then redis.call('EXPIRE', KEYS[2], ttl) end
return added
"""

_OLD_NAMES = [
    (re.compile(r"^game:(\d+):(\d+)$"), "game:{{{0}}}:{1}"),
    (re.compile(r"^quarantine:\{(\d+):(\d+)\}$"), "quarantine:{{{0}}}:{1}"),
    (re.compile(r"^stats:(\d+):(.+)$"), "stats:{{{0}}}:{1}"),
    (re.compile(r"^settings:(\d+)$"), "settings:{{{0}}}"),
]
_OLD_PATTERNS = ["game:[0-9]*", "quarantine:{[0-9]*", "stats:[0-9]*", "settings:[0-9]*"]


def new_name(old: str) -> str | None:
    """The layout-2 name of a layout-1 key (None: not a layout-1 key)."""
    for pattern, template in _OLD_NAMES:
        match = pattern.match(old)
        if match:
            return template.format(*match.groups())
    return None


async def migrate_keys(client: aioredis.Redis) -> int:
    """Bring this Redis to the current layout, unless it is there already; how many keys
    were renamed."""
    layout = int(await guarded(client.get(LAYOUT_KEY)) or 0)
    if layout >= LAYOUT:
        return 0
    renamed = 0
    if layout < 2:
        for match in _OLD_PATTERNS:
            async for key in client.scan_iter(match=match, count=500):
                renamed += await _rename(client, str(key))
        if renamed:
            log.info("Renamed %d Redis keys to the hash-tagged layout", renamed)
    indexed = await _index_tables(client)
    if indexed:
        log.info("Indexed %d stored tables by server", indexed)
    await guarded(client.set(LAYOUT_KEY, LAYOUT))
    return renamed


async def _index_tables(client: aioredis.Redis) -> int:
    """Give every stored table its entry in its server's index; how many were added."""
    script = client.register_script(_INDEX_TABLE)
    added = 0
    async for key in client.scan_iter(match="game:{*}:*", count=500):
        guild_id, channel_id = place_of_key(str(key))
        await guarded(client.sadd(GUILDS_KEY, guild_id))
        keys = [str(key), index_key(guild_id)]
        added += int(await guarded(script(keys=keys, args=[channel_id])))
    return added


async def _renamed(client: aioredis.Redis, old: str, new: str) -> bool | None:
    """Whether ``old`` was renamed to ``new`` (False: ``new`` exists); None: ``old`` is
    gone."""
    try:
        return bool(await client.renamenx(old, new))
    except ResponseError:
        return None


async def _rename(client: aioredis.Redis, old: str) -> int:
    new = new_name(old)
    if new is None:
        return 0
    moved = await guarded(_renamed(client, old, new))
    if moved is None:  # gone meanwhile: another process renamed it first
        return 0
    if not moved:
        log.warning("Kept %s as it was: %s exists already", old, new)
    return int(bool(moved))
