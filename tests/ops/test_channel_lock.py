"""The channel lock holds across processes: two `ChannelLocks` on one real Redis stand for
two bot processes (the old and the new one of a rolling restart)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.storage.clients import client_for_url, close_client
from bot.storage.errors import NoConnectionFree
from bot.storage.keys import lock_key
from bot.storage.locks import CLEANUP_RETRY_SECONDS, ChannelBusy, ChannelLocks
from tests.store.clusters import Node

GUILD, CHANNEL = 1, 20


@pytest.fixture
async def client(redis_server: str) -> AsyncIterator[aioredis.Redis]:
    client = client_for_url(redis_server)
    yield client
    await client.aclose()


async def test_two_processes_never_hold_one_channel_at_once(client: aioredis.Redis) -> None:
    first, second = ChannelLocks(client), ChannelLocks(client)
    inside: list[str] = []
    overlaps: list[tuple[str, ...]] = []

    async def work(locks: ChannelLocks, name: str) -> None:
        async with locks.hold(GUILD, CHANNEL):
            inside.append(name)
            if len(inside) > 1:
                overlaps.append(tuple(inside))
            await asyncio.sleep(0.005)
            inside.remove(name)

    jobs = [work(first if n % 2 else second, f"job {n}") for n in range(20)]
    await asyncio.gather(*jobs)
    await first.settled()
    await second.settled()

    assert overlaps == []
    assert await client.exists(lock_key(GUILD, CHANNEL)) == 0


async def test_other_channels_are_not_held_up(client: aioredis.Redis) -> None:
    first, second = ChannelLocks(client), ChannelLocks(client)
    async with first.hold(GUILD, CHANNEL), second.hold(GUILD, CHANNEL + 1, wait=0.5):
        assert await client.exists(lock_key(GUILD, CHANNEL + 1)) == 1


async def test_a_wait_that_runs_out_is_busy_and_leaves_no_lease(client: aioredis.Redis) -> None:
    first, second = ChannelLocks(client), ChannelLocks(client)
    async with first.hold(GUILD, CHANNEL):
        held_by_first = await client.get(lock_key(GUILD, CHANNEL))
        with pytest.raises(ChannelBusy):
            async with second.hold(GUILD, CHANNEL, wait=0.2):
                pytest.fail("the second process got a held channel")
        assert await client.get(lock_key(GUILD, CHANNEL)) == held_by_first
    async with second.hold(GUILD, CHANNEL, wait=0.5):
        assert await client.get(lock_key(GUILD, CHANNEL)) != held_by_first


async def test_a_lease_of_a_killed_process_runs_out(client: aioredis.Redis) -> None:
    """A process killed while holding the lock never releases it: the next holder waits
    only until the lease runs out."""
    await client.set(lock_key(GUILD, CHANNEL), "killed-holder", px=300)
    locks = ChannelLocks(client)
    async with locks.hold(GUILD, CHANNEL, wait=5.0):
        assert await client.get(lock_key(GUILD, CHANNEL)) != "killed-holder"


async def test_a_release_never_deletes_another_holders_lease(client: aioredis.Redis) -> None:
    """A holder that outlived its lease, while another process took it over, leaves the
    other's lease alone."""
    locks = ChannelLocks(client)
    async with locks.hold(GUILD, CHANNEL):
        await client.set(lock_key(GUILD, CHANNEL), "the next holder")
    await locks.settled()
    assert await client.get(lock_key(GUILD, CHANNEL)) == "the next holder"


async def test_a_waiting_task_of_the_same_process_gets_the_lease_handed_over(
    client: aioredis.Redis,
) -> None:
    locks = ChannelLocks(client)
    seen: list[str | None] = []

    async def look() -> None:
        async with locks.hold(GUILD, CHANNEL):
            value = await client.get(lock_key(GUILD, CHANNEL))
            seen.append(None if value is None else str(value))
            await asyncio.sleep(0.01)

    await asyncio.gather(look(), look(), look())
    await locks.settled()

    assert len(seen) == 3 and seen[0] is not None
    assert seen == [seen[0]] * 3, "the lease was taken anew instead of handed over"
    assert await client.exists(lock_key(GUILD, CHANNEL)) == 0


async def test_closing_gives_the_leases_back(client: aioredis.Redis) -> None:
    locks = ChannelLocks(client)
    async with locks.hold(GUILD, CHANNEL):
        pass
    await locks.close()
    assert await client.exists(lock_key(GUILD, CHANNEL)) == 0


async def test_a_job_with_a_purpose_of_its_own_runs_beside_the_game(
    client: aioredis.Redis,
) -> None:
    first, second = ChannelLocks(client), ChannelLocks(client)
    async with first.hold(GUILD, CHANNEL), second.hold(GUILD, CHANNEL, wait=0.5, purpose="pings"):
        assert await client.exists(lock_key(GUILD, CHANNEL, "pings")) == 1
        with pytest.raises(ChannelBusy):
            async with second.hold(GUILD, CHANNEL, wait=0.1, purpose="pings"):
                pytest.fail("two holders of one channel's pings lock")


async def test_a_lease_request_that_never_left_the_pool_sends_no_clean_up(
    redis_server: str, client: aioredis.Redis
) -> None:
    """With every connection of the pool busy, the lease request is never sent: the
    caller is told Redis is unavailable, and no clean-up follows to release a lease that
    was never asked for (under load, those clean-ups kept the pool busy themselves)."""
    pool = aioredis.BlockingConnectionPool.from_url(redis_server, max_connections=1, timeout=0.1)
    crowded = aioredis.Redis.from_pool(pool)
    locks = ChannelLocks(crowded)
    blocker = asyncio.ensure_future(crowded.blpop(["nothing-arrives"], timeout=1))
    await asyncio.sleep(0.05)  # the pool's one connection is now waiting in BLPOP

    def scripts_run(stats: dict[str, dict[str, int]]) -> int:
        return sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("evalsha", "eval"))

    before = scripts_run(await client.info("commandstats"))
    with pytest.raises(NoConnectionFree):
        async with locks.hold(GUILD, CHANNEL, wait=0.5):
            pytest.fail("got a lease without a connection")
    await blocker
    await asyncio.sleep(1.5)  # a clean-up would have tried again by now (0.2 s, then twice as long)
    assert scripts_run(await client.info("commandstats")) == before
    assert await client.exists(lock_key(GUILD, CHANNEL)) == 0
    await crowded.aclose()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Node]:
    """A Redis server of this test's own, which it may hang (SIGSTOP)."""
    node = Node(tmp_path / "redis")
    node.start()
    yield node
    if node.alive:
        node.resume()
    node.stop()


async def test_a_lease_left_behind_by_a_cut_short_request_does_not_block_its_own_process(
    own_redis: Node,
) -> None:
    """Redis hangs while a click asks for the lease: the click is told the table is busy,
    and Redis, answering again, makes the lease nobody holds. The process's next click
    releases that lease of its own and goes ahead, sooner than the background clean-up
    would (its first try is `CLEANUP_RETRY_SECONDS` later; after a failover its tries
    are up to 2 s apart, and clicks were told "busy" meanwhile)."""
    client = client_for_url(own_redis.url)
    locks = ChannelLocks(client)
    key = lock_key(GUILD, CHANNEL)
    try:
        await client.ping()
        own_redis.pause()
        with pytest.raises(ChannelBusy):
            async with locks.hold(GUILD, CHANNEL, wait=0.05):
                pytest.fail("got a lease from a hung Redis")
        own_redis.resume()
        watcher = own_redis.client()
        async with asyncio.timeout(5):  # the hung request reaches Redis as it wakes
            while not await asyncio.to_thread(watcher.exists, key):
                await asyncio.sleep(0.005)
        left_behind = await asyncio.to_thread(watcher.get, key)
        async with locks.hold(GUILD, CHANNEL, wait=CLEANUP_RETRY_SECONDS / 4):
            assert await client.get(key) not in (None, left_behind)
    finally:
        await locks.close()
        await close_client(client)
