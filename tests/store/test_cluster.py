"""The bot's storage on a real multi-node Redis Cluster: 3 masters and 3 replicas
(`tests.store.clusters.LocalCluster`), reached through a ``redis+cluster://`` URL.

Three servers whose keys land on three different masters each play a game's worth of
store calls: saves (with a `WAIT` for a replica), loads, the per-server index, turn
pings, messages, setting aside, stats, settings, panels, locks and the click limit,
and the start-up key migration (a scan over every master). Every key is then found
on the master its server's hash tag names, and on that master's replica.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.crc import key_slot

from bot.engines.base import Outcome
from bot.engines.geschenkt import GeschenktAction, GeschenktState
from bot.storage.clients import client_for_url, close_client
from bot.storage.errors import StaleRevision
from bot.storage.keys import (
    GUILDS_KEY,
    LAYOUT_KEY,
    index_key,
    limit_key,
    lock_key,
    panel_key,
    player_key,
    quarantine_key,
    recorded_key,
    running_tournaments_key,
    settings_key,
    skill_key,
    table_key,
    tournament_channel_key,
    tournament_key,
)
from bot.storage.layout import LAYOUT, migrate_keys
from bot.storage.locks import ChannelLocks
from bot.storage.panels import OpenPanel, PanelRecords
from bot.storage.ratelimit import RateLimiter, SlowDown
from bot.storage.records import GameRecord, RecordStore
from bot.storage.settings import GuildSettingsStore
from bot.storage.stats import StatsStore
from bot.storage.tables import GameStore, NotReplicated
from bot.storage.tournaments import TournamentStore
from bot.table import Seat, Table
from tests.e2e.game_driver import GameDriver, greedy_with_a_miser
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.store.clusters import LocalCluster, Node, command, wait_for
from tests.store.test_key_layout import scripts_in_bot
from tests.store.tournaments import a_tournament

pytestmark = pytest.mark.slow

CHANNEL = 1174109840998400010


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@pytest.fixture
async def client(cluster: LocalCluster) -> AsyncIterator[aioredis.Redis]:
    for master in cluster.masters:
        master.client().flushall()
    client = client_for_url(cluster.url)
    yield client
    await close_client(client)


def guilds_on_each_master(cluster: LocalCluster) -> dict[int, Node]:
    """One server id whose keys land on each master."""
    found: dict[int, Node] = {}
    guild = 1174109840998400001
    while len(set(found.values())) < len(cluster.masters):
        master = cluster.owner_of(table_key(guild, CHANNEL))
        if master not in found.values():
            found[guild] = master
        guild += 1
    return found


def a_table(guild_id: int, channel_id: int = CHANNEL) -> Table:
    return Table(
        game="geschenkt",
        guild_id=guild_id,
        channel_id=channel_id,
        host="1",
        seats=[Seat(id="1", name="Alice"), Seat(id="2", name="Bernd")],
        lang="en",
    )


def test_the_cluster_is_three_masters_each_with_a_replica(cluster: LocalCluster) -> None:
    for master in cluster.masters:
        assert cluster.role(master) == "master"
        assert cluster.role(cluster.replica_of(master)) == "slave"
    slots = [
        key_slot(table_key(guild, CHANNEL).encode()) for guild in guilds_on_each_master(cluster)
    ]
    assert len(set(slots)) == 3


def test_a_cluster_url_names_every_node(cluster: LocalCluster) -> None:
    assert cluster.url.startswith("redis+cluster://127.0.0.1:")
    assert cluster.url.count(",") == 5


async def test_a_game_on_each_master(cluster: LocalCluster, client: aioredis.Redis) -> None:
    guilds = guilds_on_each_master(cluster)
    store = GameStore(client, min_replicas=1)
    stats, panels = StatsStore(client), PanelRecords(client)
    settings = GuildSettingsStore(client, ["geschenkt"])
    records = RecordStore(client, days=1)
    locks = ChannelLocks(client)
    limiter = RateLimiter(client, limit=3, window_seconds=10.0)
    tournaments = TournamentStore(client, keep_days=1)

    for guild in guilds:
        table = a_table(guild)
        async with locks.hold(guild, CHANNEL, wait=2.0):
            rev = await store.save(table, 0)
            assert await store.set_message(table, 555)
            table.phase = "playing"
            table.state = {"moves": [1]}
            rev = await store.save(table, rev)
            with pytest.raises(StaleRevision):
                await store.save(table, rev - 1)
            assert await store.set_ping(table, None)
        stored = await store.load(guild, CHANNEL)
        assert stored is not None and stored.rev == rev == 2
        assert stored.table.state == {"moves": [1]} and stored.table.message_id == 555

        other = a_table(guild, CHANNEL + 1)  # a lobby, then closed
        await store.delete(other, await store.save(other, 0))
        aside = a_table(guild, CHANNEL + 2)
        await store.save(aside, 0)
        await store.set_aside(guild, CHANNEL + 2, "a test")

        outcome = Outcome(scores={"1": 3, "2": 9}, places={"1": 1, "2": 2})
        assert await stats.record(guild, "geschenkt", f"g{guild}", outcome, {"1": "A", "2": "B"})
        assert not await stats.record(guild, "geschenkt", f"g{guild}", outcome, {})
        assert (await stats.player(guild, "1")).overall.wins == 1
        record = GameRecord.of(table, outcome, time.time())
        assert await records.keep(record)
        assert await records.load(guild, table.gid) == record
        board = await stats.leaderboard(guild, "geschenkt")
        assert [row.player_id for row in board] == ["1", "2"]

        await settings.update(guild, lambda s: s.model_copy(update={"pings": False}))
        assert (await settings.get(guild)).pings is False

        panel = OpenPanel(application_id=1, token="t", message_id=2, lang="en", expires=0.0)
        assert await panels.put(guild, CHANNEL, "1", panel, 60_000) is None
        assert await panels.get(guild, CHANNEL, "1") == panel
        second = panel.model_copy(update={"view_hash": "h"})
        assert await panels.put(guild, CHANNEL, "2", second, 60_000) is None
        found = await panels.get_many_and_game(guild, CHANNEL, ["1", "2", "3"])
        assert found == ({"1": panel, "2": second}, (2, table.gid))

        for _ in range(3):
            await limiter.check(guild)
        with pytest.raises(SlowDown):
            await limiter.check(guild)

        tournament = a_tournament(guild, CHANNEL)
        await tournaments.save(tournament, 0)
        with pytest.raises(StaleRevision):
            await tournaments.save(tournament, 0)
        assert await tournaments.in_channel(guild, CHANNEL) == tournament
    await locks.settled()

    # The index, read server by server (GUILDS_KEY is a slot of its own); an entry of
    # a table Redis expired is dropped.
    for guild in guilds:
        await client.hset(index_key(guild), str(CHANNEL + 5), "geschenkt lobby 1")
    assert await store.guilds() == sorted(guilds)
    assert [place async for place in store.places()] == [(g, CHANNEL) for g in sorted(guilds)]
    assert await store.count_tables() == {("geschenkt", "playing"): 3}
    assert [await client.hlen(index_key(guild)) for guild in guilds] == [1, 1, 1]

    # The start-up migration scans every master and finds every table indexed already.
    await client.delete(LAYOUT_KEY)
    await client.hdel(index_key(min(guilds)), str(CHANNEL))
    assert await migrate_keys(client) == 0
    assert await client.get(LAYOUT_KEY) == str(LAYOUT)
    assert await store.live_tables_in(min(guilds)) == 1

    for guild, master in guilds.items():
        keys = [
            table_key(guild, CHANNEL),
            index_key(guild),
            quarantine_key(guild, CHANNEL + 2),
            player_key(guild, "1"),
            skill_key(guild, "geschenkt"),
            recorded_key(guild, f"g{guild}"),
            settings_key(guild),
            panel_key(guild, CHANNEL, "1"),
            tournament_key(guild, "0a1b2c3d"),
            tournament_channel_key(guild, CHANNEL),
            running_tournaments_key(guild),
        ]
        assert master.holds(*keys) == len(keys), guild
        replica = cluster.replica_of(master)
        wait_for(lambda r=replica, k=keys: r.holds(*k) == len(k), "the replica")  # type: ignore[misc]
        assert master.client().exists(lock_key(guild, CHANNEL)) == 0  # given back
        assert cluster.owner_of(limit_key(guild)) in cluster.masters
    assert cluster.owner_of(GUILDS_KEY).client().scard(GUILDS_KEY) == 3

    scripts = scripts_in_bot()
    ran: set[str] = set()
    for master in cluster.masters:
        for name, source in scripts.items():
            sha = hashlib.sha1(source.encode()).hexdigest()
            if command(master.client(), "SCRIPT", "EXISTS", sha)[0]:
                ran.add(name)
    assert ran == set(scripts), set(scripts) - ran


async def test_a_save_waits_for_the_replica_of_its_own_master(
    cluster: LocalCluster, client: aioredis.Redis
) -> None:
    """WAIT goes to the master that made the save: with two replicas asked of masters
    that have one, every save on every master is answered "not yet safely copied", and
    stands."""
    one, two = GameStore(client, min_replicas=1), GameStore(client, min_replicas=2)
    guilds = guilds_on_each_master(cluster)
    for guild in guilds:
        assert await one.save(a_table(guild), 0) == 1
    for guild, master in guilds.items():
        with pytest.raises(NotReplicated, match="not yet safely copied"):
            await two.save(a_table(guild), 1)
        assert master.client().hget(table_key(guild, CHANNEL), "rev") == "2"
    for guild in guilds:
        assert await one.save(a_table(guild), 2) == 3


async def test_a_new_server_is_listed_with_a_replica_confirming(
    cluster: LocalCluster, client: aioredis.Redis
) -> None:
    """The list of servers (a slot of its own) is written with its WAIT too, before
    the first table: too few replicas, and no table is made."""
    guild = next(iter(guilds_on_each_master(cluster)))
    with pytest.raises(NotReplicated):
        await GameStore(client, min_replicas=2).save(a_table(guild), 0)
    assert await GameStore(client).load(guild, CHANNEL) is None
    assert await client.sismember(GUILDS_KEY, str(guild))


def test_keys_land_on_the_three_masters(cluster: LocalCluster, tmp_path: Path) -> None:
    masters = {cluster.owner_of(table_key(guild, CHANNEL)).port for guild in range(1, 40)}
    assert masters == {master.port for master in cluster.masters}


# ---------------------------------------------------------------- the bot itself


@pytest.fixture
def redis_server(cluster: LocalCluster) -> str:
    """The bot under test (`bot_process`) runs on the cluster."""
    for master in cluster.masters:
        master.client().flushall()
    return cluster.url


async def test_the_bot_plays_a_whole_game_on_the_cluster(
    cluster: LocalCluster, redis_server: str, driver: Driver, bot_process: BotFactory
) -> None:
    """``python -m bot`` with ``REDIS_URL=redis+cluster://…`` and one replica asked:
    three people play Geschenkt to the results, checked against the stored game."""
    client = client_for_url(redis_server)
    people = [driver.user(name) for name in ("alice", "bernd", "chloe")]
    store = GameStore(client)
    game = GameDriver[GeschenktState, GeschenktAction]("geschenkt", driver, store, people)
    try:
        await bot_process("bot", env={"REDIS_MIN_REPLICAS": "1"})
        alice, bernd, chloe = people
        await game.open(alice, [bernd, chloe])
        await game.play_to_end(greedy_with_a_miser(random.Random(1), chloe))
        scores = await game.check_results()
        assert sorted(scores) == ["Alice", "Bernd", "Chloe"]
        guild = driver.fake.guild_id
        master = cluster.owner_of(table_key(guild, driver.channel))
        assert master.holds(table_key(guild, driver.channel), player_key(guild, str(alice.id)))
        assert (await StatsStore(client).player(guild, str(alice.id))).overall.played == 1
    finally:
        await close_client(client)
