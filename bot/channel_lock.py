"""One channel's game handled by one task at a time, across every bot process.

A click, `/… status` (which posts the table anew), a computer move and a turn clock all
read the channel's table, change it and then edit its message. The compare-and-set in
`GameStore.save` keeps the stored game right whatever the order, but two of them
interleaved can still leave the channel showing an old table (a status re-post racing
a move's edit). So each one holds the channel's lock.

The lock has two layers:

- an `asyncio.Lock` per channel, so the tasks of one process queue in order without
  asking Redis;
- a lease in Redis (``lock:{guild}:channel``, ``SET NX PX``), so that processes sharing a
  shard (the old and the new one during a rolling restart) also take turns. A lease
  ends when its holder releases it, or after `LEASE_SECONDS` if the holder died, so a
  killed process never blocks a channel for longer than that.

If a holder outlives its lease, the next one goes ahead; the compare-and-set still keeps
the game itself right, and the release deletes the lease only if it is still its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import weakref
from collections.abc import AsyncIterator

import redis.asyncio as aioredis

from bot.engines.base import GameError
from bot.i18n import N_
from bot.store import GameStore, StoreError

LEASE_SECONDS = 10.0
"""How long a lease lasts unless released: longer than any one interaction or follow-up
takes (an interaction must be answered within 3 s), short enough that a channel whose
holder was killed plays again soon."""
FIRST_RETRY_SECONDS = 0.01
LONGEST_RETRY_SECONDS = 0.05
"""Between tries for a lease another process holds: a few Redis calls a second."""
CLEANUP_RETRY_SECONDS = 0.2
"""Between tries to release a lease whose request was cut short."""

_RELEASE_IF_OWN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class ChannelBusy(GameError):
    """The channel's lock wasn't free in time for an interaction that must be answered."""

    def __init__(self) -> None:
        super().__init__(N_("This table is busy right now; please try again in a moment."))


def lock_key(guild_id: int, channel_id: int, purpose: str = "") -> str:
    """The lease's key, tagged by guild like the channel's table (one Redis Cluster slot)."""
    suffix = f":{purpose}" if purpose else ""
    return f"lock:{{{guild_id}}}:{channel_id}{suffix}"


class ChannelLocks:
    """The locks of every channel this process touches (unused ones are dropped)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client
        self._release_script = client.register_script(_RELEASE_IF_OWN)
        self._local: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cleanups: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def hold(
        self, guild_id: int, channel_id: int, *, wait: float | None = None, purpose: str = ""
    ) -> AsyncIterator[None]:
        """Hold the channel's lock for the block. ``wait``: the longest to wait for it
        before `ChannelBusy` (None: as long as it takes). ``purpose``: a lock of its
        own for one job (posting turn pings), apart from the game's. A Redis fault
        raises `StoreUnavailable`, as every store call does."""
        deadline = None if wait is None else asyncio.get_running_loop().time() + wait
        key = lock_key(guild_id, channel_id, purpose)
        local = self._local_lock(key)
        async with _until(deadline):
            await local.acquire()
        try:
            token = secrets.token_hex(8)
            try:
                async with _until(deadline):
                    await self._take_lease(key, token)
            except BaseException:
                self._clean_up_later(key, token)
                raise
            try:
                yield
            finally:
                await self._release(key, token)
        finally:
            local.release()

    def _local_lock(self, key: str) -> asyncio.Lock:
        lock = self._local.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._local[key] = lock
        return lock

    async def _take_lease(self, key: str, token: str) -> None:
        retry = FIRST_RETRY_SECONDS
        lease_ms = int(LEASE_SECONDS * 1000)
        while not await GameStore._call(self._client.set(key, token, nx=True, px=lease_ms)):
            await asyncio.sleep(retry)
            retry = min(LONGEST_RETRY_SECONDS, retry * 2)

    async def _release(self, key: str, token: str) -> None:
        """Give the lease back if it is still ours (later, if Redis can't be reached)."""
        try:
            await self._release_if_own(key, token)
        except StoreError:
            self._clean_up_later(key, token)

    async def _release_if_own(self, key: str, token: str) -> bool:
        return bool(await GameStore._call(self._release_script(keys=[key], args=[token])))

    def _clean_up_later(self, key: str, token: str) -> None:
        """A lease request that was cut short (the wait ran out, Redis stalled) may still
        be carried out by Redis afterwards, leaving a lease nobody holds that would block
        the channel until it runs out. Keep trying to release it, only ever if it is
        ours, for as long as it could live."""
        task = asyncio.create_task(self._release_within_lease(key, token))
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def _release_within_lease(self, key: str, token: str) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + LEASE_SECONDS
        while loop.time() < end:
            await asyncio.sleep(CLEANUP_RETRY_SECONDS)
            with contextlib.suppress(StoreError):
                if await self._release_if_own(key, token):
                    return

    async def close(self) -> None:
        """Stop the clean-ups (a lease left behind runs out by itself)."""
        for task in list(self._cleanups):
            task.cancel()
        for task in list(self._cleanups):
            with contextlib.suppress(asyncio.CancelledError):
                await task


@contextlib.asynccontextmanager
async def _until(deadline: float | None) -> AsyncIterator[None]:
    """Raise `ChannelBusy` if the block runs past ``deadline`` (the loop's clock)."""
    try:
        async with asyncio.timeout_at(deadline):
            yield
    except TimeoutError:
        raise ChannelBusy() from None
