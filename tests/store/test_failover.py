"""A failover mid-game loses no acknowledged move (``REDIS_MIN_REPLICAS=1``).

A player makes moves as fast as the store answers (load, add the next move, save),
while the master holding the table is killed with SIGKILL, a replica takes over, and
the killed node is started again (it comes back empty, as a replica of the new
master). Every save is either acknowledged, or refused as `StoreUnavailable` ("busy,
try again"), or lost a compare-and-set race to its own earlier attempt; anything else
fails the test. At the end every acknowledged move is in the stored game, the moves
are one unbroken sequence, and play went on after the failover.

Once with a Redis Cluster of 3 masters and 3 replicas (the killed master's replica is
promoted by the cluster, or by ``CLUSTER FAILOVER TAKEOVER`` if that is slow), once
with Sentinel (a master, a replica, three sentinels). The timings are printed
(``pytest -s``) and kept in the test's report sections.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.engines.geschenkt import GeschenktAction, GeschenktState
from bot.storage.clients import client_for_url, close_client
from bot.storage.errors import StaleRevision, StoreUnavailable
from bot.storage.keys import table_key
from bot.storage.tables import GameStore, NotReplicated
from bot.table import Seat, Table
from tests.e2e.game_driver import TAKE, GameDriver, Policy, coin
from tests.e2e.tables import drawn_after, table_rev
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.store.clusters import LocalCluster, LocalSentinels, command, wait_for

pytestmark = pytest.mark.slow

Geschenkt = GameDriver[GeschenktState, GeschenktAction]

GUILD, CHANNEL = 1174109840998400001, 1174109840998400010
MOVES_BEFORE = 30
MOVES_AFTER = 30
"""Acknowledged moves before the kill, and after the killed node is back."""
TEST_SECONDS = 90.0
TRY_AGAIN = re.compile(
    r"try again in a moment|versuch es gleich noch einmal|not yet safely copied|noch nicht sicher"
    r"|may not be saved|vielleicht nicht gespeichert"
)
"""The store unavailable, the table busy or the move not yet on a replica, in English or
German (bernd's locale)."""
NOT_YET_COPIED = re.compile(r"not yet safely copied|noch nicht sicher")
OUTDATED_BUTTON = re.compile(r"earlier moment of the game|früheren Stand")
"""A click on a table older than the stored game."""


def a_table() -> Table:
    return Table(
        game="geschenkt",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host="1",
        seats=[Seat(id="1", name="Alice"), Seat(id="2", name="Bernd")],
        lang="en",
        phase="playing",
        state={"moves": []},
    )


@dataclass
class Player:
    """Makes one move after another and notes how each save was answered."""

    store: GameStore
    acknowledged: list[int] = field(default_factory=list)
    unavailable: int = 0
    """Loads and saves answered `StoreUnavailable` (not replicated in time included)."""
    not_replicated: int = 0
    stale: int = 0
    first_refusal: float | None = None
    last_refusal: float | None = None

    async def moves(self, count: int) -> None:
        """Until ``count`` more moves are acknowledged."""
        goal = len(self.acknowledged) + count
        while len(self.acknowledged) < goal:
            await self.move()

    async def move(self) -> None:
        try:
            stored = await self.store.load(GUILD, CHANNEL)
            assert stored is not None, "the game is gone"
            table = stored.table
            assert table.state is not None
            done: list[int] = table.state["moves"]
            move = done[-1] + 1 if done else 1
            table.state = {"moves": [*done, move]}
            await self.store.save(table, stored.rev)
        except StoreUnavailable as refusal:
            self._refused(refusal)
            await asyncio.sleep(0.02)
        except StaleRevision:
            self.stale += 1
        else:
            self.acknowledged.append(move)

    def _refused(self, refusal: StoreUnavailable) -> None:
        self.unavailable += 1
        self.not_replicated += isinstance(refusal, NotReplicated)
        now = time.monotonic()
        self.first_refusal = self.first_refusal or now
        self.last_refusal = now

    async def until(self, done: asyncio.Future[dict[str, float]]) -> None:
        """Keep moving until ``done``."""
        while not done.done():
            await self.move()

    async def check_the_game(self) -> list[int]:
        """Every acknowledged move is stored; the moves are 1, 2, 3, … with no gap."""
        stored = await self.store.load(GUILD, CHANNEL)
        assert stored is not None and stored.table.state is not None
        moves: list[int] = stored.table.state["moves"]
        assert moves == list(range(1, len(moves) + 1))
        lost = sorted(set(self.acknowledged) - set(moves))
        assert not lost, f"acknowledged moves lost in the failover: {lost}"
        return moves


async def failover_mid_game(
    store: GameStore, fail_over: Callable[[], dict[str, float]]
) -> tuple[Player, dict[str, float]]:
    """Play, run ``fail_over`` (blocking: in a thread) while still playing, play on."""
    player = Player(store)
    await store.save(a_table(), 0)
    async with asyncio.timeout(TEST_SECONDS):
        await player.moves(MOVES_BEFORE)
        before = len(player.acknowledged)
        failover = asyncio.ensure_future(asyncio.to_thread(fail_over))
        started = time.monotonic()
        await player.until(failover)
        timings = failover.result()
        during = len(player.acknowledged) - before
        await player.moves(MOVES_AFTER)
    moves = await player.check_the_game()
    timings["moves acknowledged during the failover"] = during
    timings["moves stored"] = len(moves)
    timings["moves acknowledged"] = len(player.acknowledged)
    timings["refused (unavailable)"] = player.unavailable
    timings["of which not replicated in time"] = player.not_replicated
    timings["lost a race to an earlier try"] = player.stale
    if player.first_refusal is not None and player.last_refusal is not None:
        timings["first to last refusal s"] = round(player.last_refusal - player.first_refusal, 2)
        timings["kill to first refusal s"] = round(player.first_refusal - started, 2)
    assert player.unavailable > 0, "the failover was never noticed"
    return player, timings


def report(request: pytest.FixtureRequest, title: str, timings: dict[str, float]) -> None:
    text = "\n".join(f"{name}: {value}" for name, value in timings.items())
    print(f"\n{title}\n{text}")
    request.node.add_report_section("call", title, text)


def timed(step: Callable[[], object]) -> float:
    start = time.monotonic()
    step()
    return round(time.monotonic() - start, 2)


# ---------------------------------------------------------------- Redis Cluster


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    cluster = LocalCluster(tmp_path / "cluster")
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@contextlib.asynccontextmanager
async def store_on(url: str) -> AsyncIterator[GameStore]:
    client = client_for_url(url)
    try:
        yield GameStore(client, min_replicas=1)
    finally:
        await close_client(client)


async def test_a_cluster_master_killed_mid_game_loses_no_acknowledged_move(
    cluster: LocalCluster, request: pytest.FixtureRequest
) -> None:
    master = cluster.owner_of(table_key(GUILD, CHANNEL))
    replica = cluster.replica_of(master)
    how: list[str] = []

    def fail_over() -> dict[str, float]:
        time.sleep(0.2)  # a few moves first
        start = time.monotonic()
        master.kill()
        how.append(cluster.promote(replica, after=5.0))
        promoted = round(time.monotonic() - start, 2)
        restarted = timed(master.restart)
        rejoined = cluster.wait_healthy()
        assert cluster.role(master) == "slave"
        return {
            "kill to replica promoted s": promoted,
            "restart of the killed node s": restarted,
            "restart to healthy cluster s": round(rejoined, 2),
            "kill to healthy cluster s": round(time.monotonic() - start, 2),
        }

    async with store_on(cluster.url) as store:
        _, timings = await failover_mid_game(store, fail_over)
    assert cluster.owner_of(table_key(GUILD, CHANNEL)) is replica
    report(request, f"Redis Cluster failover ({how[0]})", timings)


async def lagging_replica_then_failover(cluster: LocalCluster, min_replicas: int) -> Player:
    """Three moves made while the replica is cut off (stopped with SIGSTOP, so it
    can't connect again, and its link closed by the master: what it has not read yet
    never reaches it), then the master killed and the stale replica promoted."""
    master = cluster.owner_of(table_key(GUILD, CHANNEL))
    replica = cluster.replica_of(master)
    async with store_on(cluster.url) as store:
        store.min_replicas = min_replicas
        player = Player(store)
        await store.save(a_table(), 0)
        async with asyncio.timeout(TEST_SECONDS):
            await player.moves(5)
            replica.pause()
            command(master.client(), "CLIENT", "KILL", "TYPE", "replica")
            try:
                for _ in range(3):
                    await player.move()
            finally:
                master.kill()
                replica.resume()
            await asyncio.to_thread(cluster.promote, replica, 5.0)
            await reconnected(store, GUILD, CHANNEL)
    return player


async def reconnected(store: GameStore, guild_id: int, channel_id: int) -> None:
    """Until the store's client reads from the new master (its first call after a
    failover may still go to the dead one, and fail as unavailable)."""
    while True:
        try:
            await store.load(guild_id, channel_id)
            return
        except StoreUnavailable:
            await asyncio.sleep(0.05)


async def test_without_wait_a_failover_loses_acknowledged_moves(cluster: LocalCluster) -> None:
    """What ``REDIS_MIN_REPLICAS`` is for: replication is asynchronous, so a move the
    master acknowledged before its replica had it is gone once the replica takes over."""
    player = await lagging_replica_then_failover(cluster, min_replicas=0)
    assert len(player.acknowledged) == 8
    with pytest.raises(AssertionError, match=r"lost in the failover: \[6, 7, 8\]"):
        await player.check_the_game()


async def test_with_wait_a_lagging_replica_turns_moves_away_and_none_is_lost(
    cluster: LocalCluster,
) -> None:
    """With ``REDIS_MIN_REPLICAS=1`` the same moves are answered "try again" (each after
    `REPLICA_WAIT_MS`), and every acknowledged one survives the failover."""
    player = await lagging_replica_then_failover(cluster, min_replicas=1)
    assert len(player.acknowledged) == 5
    assert player.not_replicated == 3
    moves = await player.check_the_game()
    assert moves == [1, 2, 3, 4, 5]  # the three refused ones were on the master only


@pytest.fixture
def redis_server(cluster: LocalCluster) -> str:
    """The bot under test (`bot_process`) runs on the cluster."""
    return cluster.url


async def game_on_the_cluster(
    driver: Driver, client: aioredis.Redis, bot_process: BotFactory, *, seed: int, turns: int
) -> tuple[Geschenkt, Policy]:
    """``python -m bot`` on the cluster with one replica asked (``REDIS_MIN_REPLICAS=1``),
    and a Geschenkt game of three people ``turns`` turns in; the policy they play by."""
    people = [driver.user(name) for name in ("alice", "bernd", "chloe")]
    game = Geschenkt("geschenkt", driver, GameStore(client), people)
    await bot_process("bot", env={"REDIS_MIN_REPLICAS": "1"})
    alice, bernd, chloe = people
    await game.open(alice, [bernd, chloe])
    policy = coin(random.Random(seed), 0.4)
    for _ in range(turns):
        await game.turn(policy)
    return game, policy


async def test_the_bot_answers_every_click_through_a_cluster_failover(
    cluster: LocalCluster,
    redis_server: str,
    driver: Driver,
    bot_process: BotFactory,
    request: pytest.FixtureRequest,
) -> None:
    """``python -m bot`` on the cluster, mid-game: the master holding the game is
    killed, and the player to act keeps clicking Take. Each click is answered: applied
    (the table redrawn) or "try again". A save the master made but whose answer the
    failover cut off was told "try again": the bot finds it once Redis answers and
    redraws the table, and a click on the outdated table meanwhile is told so (and
    redraws it). After the failover the game plays on to results that agree with the
    stored game, and the bot logged no unhandled error."""
    client = client_for_url(redis_server)
    try:
        game, policy = await game_on_the_cluster(driver, client, bot_process, seed=3, turns=6)
        master = cluster.owner_of(table_key(driver.fake.guild_id, driver.channel))
        replica = cluster.replica_of(master)

        def fail_over() -> dict[str, float]:
            start = time.monotonic()
            master.kill()
            promoted = cluster.promote(replica, after=5.0)
            took = round(time.monotonic() - start, 2)
            master.restart()
            cluster.wait_healthy()
            return {f"kill to replica promoted ({promoted}) s": took}

        answers = {"applied": 0, "try again": 0, "made, answer lost": 0}
        failover = asyncio.ensure_future(asyncio.to_thread(fail_over))
        while not failover.done():
            player = game.to_act()
            assert player is not None
            before = table_rev(game.message)
            response = await driver.click(player, game.message, TAKE)
            if table_rev(game.message) > before:
                answers["applied"] += 1
            elif OUTDATED_BUTTON.search(response.ephemeral.text):
                await driver.wait_for(
                    drawn_after(game.message, before), what="the outdated table redrawn"
                )
                answers["made, answer lost"] += 1
            else:
                assert TRY_AGAIN.search(response.ephemeral.text), response.ephemeral.text
                answers["try again"] += 1
            await asyncio.sleep(0.05)
        timings: dict[str, float] = {**failover.result(), **answers}
        assert answers["try again"] > 0
        await reconnected(game.store, driver.fake.guild_id, driver.channel)  # the test's own
        await game.play_to_end(policy)
        await game.check_results()
    finally:
        await close_client(client)
    report(request, "The bot through a Redis Cluster failover (clicks)", timings)


async def test_a_move_the_replica_missed_is_shown_once_the_replica_has_it(
    cluster: LocalCluster, redis_server: str, driver: Driver, bot_process: BotFactory
) -> None:
    """``REDIS_MIN_REPLICAS=1`` with the table's replica hanging: a click is answered
    "saved but not yet safely copied" and the table stays as it was; once the replica
    is back and has the move, the table shows it without another click, and the game
    plays on to results that agree with the stored game."""
    client = client_for_url(redis_server)
    try:
        game, policy = await game_on_the_cluster(driver, client, bot_process, seed=5, turns=3)
        master = cluster.owner_of(table_key(driver.fake.guild_id, driver.channel))
        replica = cluster.replica_of(master)
        replica.pause()
        command(master.client(), "CLIENT", "KILL", "TYPE", "replica")
        try:
            player = game.to_act()
            assert player is not None
            before = table_rev(game.message)
            response = await driver.click(player, game.message, TAKE)
            assert NOT_YET_COPIED.search(response.ephemeral.text), response.ephemeral.text
            assert table_rev(game.message) == before, "shown before a replica had it"
        finally:
            replica.resume()
        await driver.wait_for(
            lambda: table_rev(game.message) > before, what="the move shown once copied"
        )
        stored = await game.stored()
        assert stored.rev == before + 1 and table_rev(game.message) == stored.rev
        await game.play_to_end(policy)
        await game.check_results()
    finally:
        await close_client(client)


# ---------------------------------------------------------------- Sentinel


@pytest.fixture
def sentinels(tmp_path: Path) -> Iterator[LocalSentinels]:
    group = LocalSentinels(tmp_path / "sentinel")
    try:
        yield group.start()
    finally:
        group.stop()


async def test_a_sentinel_master_killed_mid_game_loses_no_acknowledged_move(
    sentinels: LocalSentinels, request: pytest.FixtureRequest
) -> None:
    master, replica = sentinels.master, sentinels.replica

    def fail_over() -> dict[str, float]:
        time.sleep(0.2)
        start = time.monotonic()
        master.kill()
        wait_for(lambda: sentinels.master_port() == replica.port, "the sentinels' failover")
        promoted = round(time.monotonic() - start, 2)
        restarted = timed(master.restart)
        rejoined = sentinels.wait_replicated(replica, master)
        return {
            "kill to replica promoted s": promoted,
            "restart of the killed node s": restarted,
            "restart to replicating the new master s": round(rejoined, 2),
            "kill to a replica again s": round(time.monotonic() - start, 2),
        }

    async with store_on(sentinels.url) as store:
        _, timings = await failover_mid_game(store, fail_over)
    assert sentinels.master_port() == replica.port
    report(request, "Sentinel failover", timings)
