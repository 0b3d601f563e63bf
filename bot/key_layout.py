"""The names of the bot's Redis keys, and the move from the layout before hash tags.

Layout 2 (now): every key of a guild carries the Redis Cluster hash tag ``{guild_id}``
(``game:{G}:C``, ``quarantine:{G}:C``, ``stats:{G}:…``, ``settings:{G}``,
``lock:{G}:C``), so the keys one Lua script touches always share a hash slot. Layout 1
had no tags (``game:G:C``, ``stats:G:…``, ``settings:G``) and ``quarantine:{G:C}``.

`migrate_keys` renames layout-1 keys once, at start, before the bot serves. RENAME
keeps a key's value and TTL. It is safe when several processes start at once: a key
another process renamed first is simply gone, and the layout marker is written last.
"""

from __future__ import annotations

import logging
import re

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from bot.store import GameStore

log = logging.getLogger(__name__)

LAYOUT_KEY = "tablebot:key-layout"
LAYOUT = 2

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
    """Rename every layout-1 key, unless this Redis is on layout 2 already; how many
    keys were renamed."""
    if int(await GameStore._call(client.get(LAYOUT_KEY)) or 0) >= LAYOUT:
        return 0
    renamed = 0
    for match in _OLD_PATTERNS:
        async for key in client.scan_iter(match=match, count=500):
            renamed += await _rename(client, str(key))
    await GameStore._call(client.set(LAYOUT_KEY, LAYOUT))
    if renamed:
        log.info("Renamed %d Redis keys to the hash-tagged layout %d", renamed, LAYOUT)
    return renamed


async def _rename(client: aioredis.Redis, old: str) -> int:
    new = new_name(old)
    if new is None:
        return 0
    try:
        moved = await GameStore._call(client.renamenx(old, new))
    except ResponseError:  # gone meanwhile: another process renamed it first
        return 0
    if not moved:
        log.warning("Kept %s as it was: %s exists already", old, new)
    return int(bool(moved))
