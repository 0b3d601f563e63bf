"""One channel's game handled by one task at a time, across every bot process.

A click, `/… status` (which posts the table anew), a computer move and a turn clock all
read the channel's table, change it and then edit its message. The compare-and-set in
`GameStore.save` keeps the stored game right whatever the order, but two of them
interleaved can still leave the channel showing an old table (a status re-post racing
a move's edit). So each one holds the channel's lock.

The lock has two layers:

- an `asyncio.Lock` per channel, so the tasks of one process queue in order without
  asking Redis (and pass the lease on among themselves);
- a lease in Redis (``lock:{guild}:channel``, ``SET NX PX``), so that processes sharing a
  shard (the old and the new one during a rolling restart) also take turns. A lease
  ends when its holder releases it, or after `LEASE_SECONDS` if the holder died, so a
  killed process never blocks a channel for longer than that.

If a holder outlives its lease, the next one goes ahead; the compare-and-set still keeps
the game itself right, and the release deletes the lease only if it is still its own.

A lease request cut short (the wait ran out, Redis stalled or failed over) may still be
carried out, leaving a lease nobody holds. A clean-up releases it in the background; and
a task of the same process that finds the channel taken releases such leases of its own
at once, so once Redis answers again its clicks go ahead without waiting for the
clean-up's next try (up to 2 s apart after a failover).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import redis.asyncio as aioredis

from bot.i18n import N_
from bot.storage.errors import NoConnectionFree, Refusal, StoreError, guarded
from bot.storage.keys import lock_key

LEASE_SECONDS = 10.0
"""How long a lease lasts unless released: longer than any one interaction or follow-up
takes (an interaction must be answered within 3 s), short enough that a channel whose
holder was killed plays again soon."""
FIRST_RETRY_SECONDS = 0.01
LONGEST_RETRY_SECONDS = 0.05
"""Between tries for a lease another process holds: a few Redis calls a second."""
CLOSE_SECONDS = 1.0
"""The longest closing waits for leases to be given back."""
CLEANUP_RETRY_SECONDS = 0.2
"""Before the first try to release a lease whose request was cut short; each next try
waits twice as long (up to `LONGEST_CLEANUP_RETRY_SECONDS`), so that when many clicks
fail at once their clean-ups don't keep Redis's connections busy."""
LONGEST_CLEANUP_RETRY_SECONDS = 2.0

_RELEASE_IF_OWN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class ChannelBusy(Refusal):
    """The channel's lock wasn't free in time for an interaction that must be answered."""

    def __init__(self) -> None:
        super().__init__(N_("This table is busy right now; please try again in a moment."))


@dataclass
class _Channel:
    """One channel's lock in this process, and the lease it holds for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Tasks of this process holding or waiting for the lock."""
    token: str | None = None
    """The lease this process holds, if any."""
    taken_at: float = 0.0
    releasing: asyncio.Task[None] | None = None
    """The lease being given back in the background."""

    @property
    def idle(self) -> bool:
        return self.users == 0 and self.token is None and self.releasing is None


class ChannelLocks:
    """The locks of every channel this process touches (idle ones are dropped).

    A lease passes from one task of the process to the next waiting one without asking
    Redis, and is given back in the background once nobody here wants the channel: a
    click pays for one Redis call (taking the lease) at most, and none on a busy table.
    """

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client
        self._release_script = client.register_script(_RELEASE_IF_OWN)
        self._channels: dict[str, _Channel] = {}
        self._releases: set[asyncio.Task[None]] = set()
        self._cleanups: set[asyncio.Task[None]] = set()
        self._left_behind: dict[str, set[str]] = {}
        """Per lock key, the tokens of this process's cut-short lease requests that may
        have left a lease in Redis (while their clean-up runs)."""
        self._closed = False
        """Closed: leases still held run out by themselves (no new background tasks)."""

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
        channel = self._channels.setdefault(key, _Channel())
        channel.users += 1
        try:
            async with _until(deadline):
                await channel.lock.acquire()
            try:
                await self._own_lease(key, channel, deadline)
                yield
            finally:
                if channel.users == 1:  # nobody here waits for it: give the lease back
                    self._release_soon(key, channel)
                channel.lock.release()
        finally:
            channel.users -= 1
            self._forget_if_idle(key, channel)

    async def _own_lease(self, key: str, channel: _Channel, deadline: float | None) -> None:
        """Make sure this process holds the channel's lease: the one the task before
        handed over (if young enough to outlive this task), or a new one."""
        loop = asyncio.get_running_loop()
        if channel.releasing is not None:
            async with _until(deadline):
                await asyncio.shield(channel.releasing)
        if channel.token is not None:
            if loop.time() - channel.taken_at < LEASE_SECONDS / 2:
                return
            await self._release(key, channel.token)
            channel.token = None
        token = secrets.token_hex(8)
        try:
            async with _until(deadline):
                await self._take_lease(key, token)
        except NoConnectionFree:
            raise  # the request never left: no lease to clean up
        except BaseException:
            self._clean_up_later(key, token)
            raise
        channel.token, channel.taken_at = token, loop.time()

    def _release_soon(self, key: str, channel: _Channel) -> None:
        token, channel.token = channel.token, None
        if token is None or self._closed:
            return
        task = asyncio.create_task(self._release_and_forget(key, channel, token))
        channel.releasing = task
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release_and_forget(self, key: str, channel: _Channel, token: str) -> None:
        try:
            await self._release(key, token)
        finally:
            channel.releasing = None
            self._forget_if_idle(key, channel)

    def _forget_if_idle(self, key: str, channel: _Channel) -> None:
        if channel.idle and self._channels.get(key) is channel:
            del self._channels[key]

    async def _take_lease(self, key: str, token: str) -> None:
        retry = FIRST_RETRY_SECONDS
        lease_ms = int(LEASE_SECONDS * 1000)
        while not await guarded(self._client.set(key, token, nx=True, px=lease_ms)):
            if await self._release_left_behind(key):
                continue
            await asyncio.sleep(retry)
            retry = min(LONGEST_RETRY_SECONDS, retry * 2)

    async def _release_left_behind(self, key: str) -> bool:
        """Release a lease on ``key`` that one of this process's cut-short requests left
        behind; whether there was one."""
        for token in list(self._left_behind.get(key, ())):
            if await self._release_if_own(key, token):
                self._forget_left_behind(key, token)
                return True
        return False

    def _forget_left_behind(self, key: str, token: str) -> None:
        tokens = self._left_behind.get(key)
        if tokens is None:
            return
        tokens.discard(token)
        if not tokens:
            del self._left_behind[key]

    async def _release(self, key: str, token: str) -> None:
        """Give the lease back if it is still ours (later, if Redis can't be reached)."""
        try:
            await self._release_if_own(key, token)
        except StoreError:
            self._clean_up_later(key, token)

    async def _release_if_own(self, key: str, token: str) -> bool:
        return bool(await guarded(self._release_script(keys=[key], args=[token])))

    def _clean_up_later(self, key: str, token: str) -> None:
        """A lease request that was cut short (the wait ran out, Redis stalled) may still
        be carried out by Redis afterwards, leaving a lease nobody holds that would block
        the channel until it runs out. Keep trying to release it, only ever if it is
        ours, for as long as it could live."""
        if self._closed:
            return
        self._left_behind.setdefault(key, set()).add(token)
        task = asyncio.create_task(self._release_within_lease(key, token))
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def _release_within_lease(self, key: str, token: str) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + LEASE_SECONDS
        retry = CLEANUP_RETRY_SECONDS
        try:
            while loop.time() < end and token in self._left_behind.get(key, ()):
                await asyncio.sleep(retry)
                retry = min(LONGEST_CLEANUP_RETRY_SECONDS, retry * 2)
                with contextlib.suppress(StoreError):
                    if await self._release_if_own(key, token):
                        return
        finally:
            self._forget_left_behind(key, token)

    async def settled(self) -> None:
        """Wait until every lease given back is released in Redis."""
        while self._releases:
            await asyncio.wait(list(self._releases))

    async def close(self) -> None:
        """Give the leases back (so a process taking over needn't wait for them to run
        out), for a second at most, and stop the clean-ups (a lease left behind runs
        out by itself)."""
        self._closed = True
        if self._releases:
            await asyncio.wait(list(self._releases), timeout=CLOSE_SECONDS)
        stopping = [*self._releases, *self._cleanups]
        for task in stopping:
            task.cancel()
        for task in stopping:
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
