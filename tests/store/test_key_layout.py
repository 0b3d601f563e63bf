"""The Redis key layout works on Redis Cluster, and older deployments move to it.

Every Lua script in `bot/` is found by reading the source (so a script added later is
checked too) and run, through the bot's own stores, on a real single-node Redis
Cluster: a node that owns every slot serves a plain client, but refuses a script whose
keys are in different slots (CROSSSLOT). `SCRIPT EXISTS` then shows each one ran.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import importlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import redis.asyncio as aioredis
from redis.crc import key_slot

from bot.engines.base import Outcome
from bot.storage.clients import client_for_url
from bot.storage.keys import (
    GUILDS_KEY,
    LAYOUT_KEY,
    elo_key,
    finished_tournaments_key,
    history_key,
    index_key,
    lock_key,
    panel_key,
    player_key,
    quarantine_key,
    record_key,
    recorded_key,
    running_tournaments_key,
    settings_key,
    skill_key,
    table_key,
    tournament_channel_key,
    tournament_key,
    tournament_thread_key,
)
from bot.storage.layout import LAYOUT, migrate_keys, new_name
from bot.storage.locks import ChannelLocks
from bot.storage.ratelimit import RateLimiter
from bot.storage.records import GameRecord, RecordStore
from bot.storage.settings import GuildSettingsStore
from bot.storage.stats import StatsStore
from bot.storage.tables import GameStore
from bot.storage.tournaments import TournamentStore
from bot.table import Seat, Table
from tests.harness.fixtures import RedisServer
from tests.store.tournaments import a_tournament

BOT = Path(__file__).resolve().parents[2] / "bot"
GUILD, CHANNEL = 1174109840998400001, 1174109840998400010
ALL_SLOTS = range(16384)


def scripts_in_bot() -> dict[str, str]:
    """Every Lua script the bot registers: ``module.NAME`` -> its source."""
    found: dict[str, str] = {}
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register_script"
            ):
                continue
            (argument,) = node.args
            assert isinstance(argument, ast.Name), f"{path}: register a module constant"
            module = ".".join(path.relative_to(BOT.parent).with_suffix("").parts)
            found[f"{module}.{argument.id}"] = getattr(importlib.import_module(module), argument.id)
    return found


@pytest.fixture
def cluster_node(tmp_path: Path) -> Iterator[str]:
    """A real Redis in cluster mode, alone, owning all 16384 slots."""
    options = ("--cluster-enabled", "yes", "--cluster-config-file", str(tmp_path / "nodes.conf"))
    server = RedisServer(tmp_path / "cluster", options)
    for _ in range(5):  # a node can't start on a port whose port + 10000 (its bus) is past 65535
        try:
            url = server.start()
            break
        except RuntimeError:
            continue
    else:
        pytest.fail("no port for the cluster node")
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture
async def cluster(cluster_node: str) -> AsyncIterator[aioredis.Redis]:
    client = client_for_url(cluster_node)
    command = cast(Callable[..., Awaitable[Any]], client.execute_command)
    await command("CLUSTER", "ADDSLOTS", *ALL_SLOTS)
    for _ in range(200):
        if "cluster_state:ok" in await command("CLUSTER", "INFO"):
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("the cluster node never became ready")
    yield client
    await client.aclose()


def a_table() -> Table:
    return Table(
        game="geschenkt",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host="1",
        seats=[Seat(id="1", name="Alice"), Seat(id="2", name="Bernd")],
        lang="en",
    )


async def test_the_cluster_node_refuses_keys_in_two_slots(cluster: aioredis.Redis) -> None:
    """The check below could fail: a script over two slots is refused."""
    with pytest.raises(Exception, match=r"CROSSSLOT|same slot"):
        await cluster.eval("return redis.call('GET', KEYS[1])", 2, "a", "b")


async def test_every_lua_script_runs_on_redis_cluster(cluster: aioredis.Redis) -> None:
    scripts = scripts_in_bot()
    assert len(scripts) >= 8, scripts.keys()

    store = GameStore(cluster)
    table = a_table()
    rev = await store.save(table, 0)
    await store.set_message(table, 123)
    await store.set_ping(table, None)
    await store.delete(table, rev)
    await store.save(table, 0)
    await store.set_aside(GUILD, CHANNEL, "a test")
    await store.save(table, 0)
    await cluster.delete(LAYOUT_KEY)
    await cluster.hset(index_key(GUILD), str(CHANNEL + 1), "geschenkt lobby 1")  # expired
    await migrate_keys(cluster)  # indexes the stored table again
    assert [entry.channel_id for entry in await store.tables_in(GUILD)] == [CHANNEL]
    outcome = Outcome(scores={"1": 3, "2": 9}, places={"1": 1, "2": 2})
    await StatsStore(cluster).record(GUILD, "geschenkt", "g1", outcome, {"1": "A", "2": "B"})
    await GuildSettingsStore(cluster, ["geschenkt"]).update(GUILD, lambda s: s)
    await RateLimiter(cluster, limit=5, window_seconds=10.0).check(42)
    locks = ChannelLocks(cluster)
    async with locks.hold(GUILD, CHANNEL):
        pass
    await locks.settled()  # the lease is given back in the background
    records = RecordStore(cluster, days=1)
    kept = GameRecord.of(table, outcome, time.time())  # older than a day: trimmed
    await records.keep(kept)
    assert await records.load(GUILD, table.gid) == kept
    assert [record.gid for record in await records.recent(GUILD)] == [table.gid]
    await TournamentStore(cluster, keep_days=1).save(a_tournament(GUILD, CHANNEL), 0)

    for name, source in scripts.items():
        sha = hashlib.sha1(source.encode()).hexdigest()
        (loaded,) = await cluster.script_exists(sha)
        assert loaded, f"{name} never ran"


def test_every_key_of_a_guild_is_in_one_slot() -> None:
    keys = [
        table_key(GUILD, CHANNEL),
        index_key(GUILD),
        panel_key(GUILD, CHANNEL, "1"),
        quarantine_key(GUILD, CHANNEL),
        lock_key(GUILD, CHANNEL),
        lock_key(GUILD, CHANNEL, "announce"),
        settings_key(GUILD),
        player_key(GUILD, "1"),
        skill_key(GUILD, "take"),
        elo_key(GUILD, "take"),
        recorded_key(GUILD, "g1"),
        record_key(GUILD, "g1"),
        history_key(GUILD),
        tournament_key(GUILD, "0a1b2c3d"),
        tournament_channel_key(GUILD, CHANNEL),
        tournament_thread_key(GUILD, CHANNEL + 1),
        running_tournaments_key(GUILD),
        finished_tournaments_key(GUILD),
    ]
    assert len({key_slot(key.encode()) for key in keys}) == 1


# ---------------------------------------------------------------- the move from layout 1


def test_layout_1_names_map_to_tagged_ones() -> None:
    assert new_name("game:5:6") == "game:{5}:6"
    assert new_name("quarantine:{5:6}") == "quarantine:{5}:6"
    assert new_name("stats:5:player:77") == "stats:{5}:player:77"
    assert new_name("stats:5:recorded:ab12") == "stats:{5}:recorded:ab12"
    assert new_name("settings:5") == "settings:{5}"
    assert new_name("game:{5}:6") is None
    assert new_name("quarantine:{5}:6") is None
    assert new_name("panel:{6}:1") is None


@pytest.fixture
async def client(redis_server: str) -> AsyncIterator[aioredis.Redis]:
    client = client_for_url(redis_server)
    yield client
    await client.aclose()


async def layout_1_deployment(client: aioredis.Redis) -> None:
    """What a bot before hash tags left in Redis: a running game, a set-aside record,
    a recorded game's stats and the server's settings."""
    store, stats = GameStore(client), StatsStore(client)
    await store.save(a_table(), 0)
    await client.rename(table_key(GUILD, CHANNEL), f"game:{GUILD}:{CHANNEL}")
    await client.delete(index_key(GUILD), GUILDS_KEY)  # no index before layout 3
    await client.hset(f"quarantine:{{{GUILD}:{CHANNEL + 1}}}", mapping={"reason": "old"})
    outcome = Outcome(scores={"1": 3, "2": 9}, places={"1": 1, "2": 2})
    await stats.record(GUILD, "geschenkt", "g1", outcome, {"1": "Alice", "2": "Bernd"})
    for key in [k async for k in client.scan_iter(match="stats:{*")]:
        _, tagged, rest = key.split(":", 2)
        await client.rename(key, f"stats:{tagged.strip('{}')}:{rest}")
    await client.set(f"settings:{GUILD}", '{"pings": false}')


async def test_a_layout_1_deployment_is_renamed_once_and_read_as_before(
    client: aioredis.Redis,
) -> None:
    await layout_1_deployment(client)
    await client.expire(f"game:{GUILD}:{CHANNEL}", 1000)

    renamed = await migrate_keys(client)

    assert renamed == 7  # table, quarantine, 2 players' and the game's stats, marker, settings
    stored = await GameStore(client).load(GUILD, CHANNEL)
    assert stored is not None and stored.table.seats[0].name == "Alice"
    assert 0 < await client.ttl(table_key(GUILD, CHANNEL)) <= 1000
    alice = await StatsStore(client).player(GUILD, "1")
    assert alice.overall.played == 1 and alice.overall.wins == 1
    settings = await GuildSettingsStore(client, ["geschenkt"]).get(GUILD)
    assert settings.pings is False
    assert await client.hget(quarantine_key(GUILD, CHANNEL + 1), "reason") == "old"
    assert [k async for k in client.scan_iter() if new_name(k) is not None] == []
    assert await client.get(LAYOUT_KEY) == str(LAYOUT)
    assert [place async for place in GameStore(client).places()] == [(GUILD, CHANNEL)]
    assert await GameStore(client).live_tables_in(GUILD) == 1
    assert await migrate_keys(client) == 0


async def test_two_processes_migrating_at_once_rename_each_key_once(
    client: aioredis.Redis,
) -> None:
    await layout_1_deployment(client)

    counts = await asyncio.gather(migrate_keys(client), migrate_keys(client))

    assert sum(counts) == 7
    assert await GameStore(client).load(GUILD, CHANNEL) is not None
