"""The game store against a real Redis server."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.clients import client_for_url, open_store
from bot.storage.errors import StaleRevision, StoreUnavailable, TableSetAside
from bot.storage.keys import index_key, quarantine_key, table_key
from bot.storage.tables import FINISHED_TTL_SECONDS, GameStore, SaveUnanswered
from bot.table import Seat, Table, encode_table
from tests.harness.fixtures import RedisServer


@pytest.fixture
async def store(redis_server: str) -> AsyncIterator[GameStore]:
    client = client_for_url(redis_server)
    await client.flushdb()
    yield GameStore(client)
    await client.aclose()


@pytest.fixture
async def lone_store(tmp_path: Path) -> AsyncIterator[GameStore]:
    """A store on a Redis server of its own: for tests that count commands in the
    server-wide `INFO commandstats`, which another process's call on the shared
    server (a bot of an earlier test winding down) would change."""
    server = RedisServer(tmp_path / "redis")
    client = client_for_url(server.start())
    try:
        yield GameStore(client)
    finally:
        await client.aclose()
        server.stop()


def a_table(channel_id: int = 20) -> Table:
    return Table(
        game="geschenkt",
        guild_id=10,
        channel_id=channel_id,
        host="1",
        seats=[Seat(id="1", name="Ann")],
    )


async def test_a_saved_table_loads_back_equal(store: GameStore) -> None:
    table = a_table()
    rev = await store.save(table, 0)
    loaded = await store.load(10, 20)
    assert loaded is not None
    assert loaded.rev == rev == 1
    assert loaded.table == table


async def test_an_empty_channel_has_no_table(store: GameStore) -> None:
    assert await store.load(10, 99) is None


async def test_saving_an_outdated_revision_is_refused_and_changes_nothing(
    store: GameStore,
) -> None:
    table = a_table()
    first = await store.save(table, 0)
    moved = table.model_copy(update={"phase": "playing"})
    await store.save(moved, first)
    with pytest.raises(StaleRevision):
        await store.save(table.model_copy(update={"host": "2"}), first)
    loaded = await store.load(10, 20)
    assert loaded is not None
    assert loaded.table.phase == "playing"
    assert loaded.table.host == "1"


async def test_two_concurrent_saves_of_one_revision_exactly_one_wins(store: GameStore) -> None:
    rev = await store.save(a_table(), 0)
    contenders = [a_table().model_copy(update={"host": str(n)}) for n in range(20)]
    results = await asyncio.gather(
        *(store.save(table, rev) for table in contenders), return_exceptions=True
    )
    winners = [r for r in results if isinstance(r, int)]
    assert winners == [rev + 1]
    assert sum(isinstance(r, StaleRevision) for r in results) == 19
    loaded = await store.load(10, 20)
    assert loaded is not None
    assert loaded.table.host == contenders[results.index(rev + 1)].host


async def test_creating_where_a_table_exists_is_refused(store: GameStore) -> None:
    await store.save(a_table(), 0)
    with pytest.raises(StaleRevision):
        await store.save(a_table(), 0)


async def test_finished_tables_expire(store: GameStore) -> None:
    rev = await store.save(a_table(), 0)
    await store.save(a_table().model_copy(update={"phase": "over"}), rev)
    ttl = await store.client.ttl(table_key(10, 20))
    assert 0 < ttl <= FINISHED_TTL_SECONDS


async def test_message_id_is_recorded_without_a_new_revision(store: GameStore) -> None:
    table = a_table()
    rev = await store.save(table, 0)
    assert await store.set_message(table, 555)
    loaded = await store.load(10, 20)
    assert loaded is not None
    assert (loaded.rev, loaded.table.message_id) == (rev, 555)
    other_game = a_table().model_copy(update={"gid": "ffffffff"})
    assert not await store.set_message(other_game, 777)


async def test_delete_needs_the_current_revision(store: GameStore) -> None:
    table = a_table()
    rev = await store.save(table, 0)
    with pytest.raises(StaleRevision):
        await store.delete(table, rev + 1)
    await store.delete(table, rev)
    assert await store.load(10, 20) is None


async def test_an_unreachable_redis_is_a_clear_game_error() -> None:
    client = client_for_url("redis://127.0.0.1:1/0")
    store = GameStore(client)
    with pytest.raises(StoreUnavailable, match="try again"):
        await store.load(10, 20)
    with pytest.raises(StoreUnavailable):
        await store.save(a_table(), 0)
    await client.aclose()


async def test_a_save_whose_answer_was_lost_is_found_once_redis_answers(tmp_path: Path) -> None:
    """Redis hangs (SIGSTOP) with a save on its way: the save times out as
    `SaveUnanswered`, carrying what it would have stored. Once Redis runs again it makes
    the save after all, and `landed` finds exactly that; a save with other contents, or
    of another revision, isn't taken for it."""
    server = RedisServer(tmp_path / "redis")
    client = client_for_url(server.start())
    assert server.process is not None
    try:
        store = GameStore(client)
        table = a_table()
        rev = await store.save(table, 0)
        table.host = "2"
        server.process.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(SaveUnanswered) as lost:
                await store.save(table, rev)
        finally:
            server.process.send_signal(signal.SIGCONT)
        assert lost.value.rev == rev + 1
        assert await store.landed(table, lost.value.rev, lost.value.data)
        stored = await store.load(table.guild_id, table.channel_id)
        assert stored is not None and stored.rev == rev + 1 and stored.table.host == "2"
        other = encode_table(a_table().model_copy(update={"host": "3"}))
        assert not await store.landed(table, lost.value.rev, other)
        assert not await store.landed(table, lost.value.rev + 1, lost.value.data)
    finally:
        await client.aclose()
        server.stop()


async def test_the_embedded_redis_keeps_games_across_restarts(tmp_path: Path) -> None:
    async with open_store(None, tmp_path) as store:
        await store.save(a_table(), 0)
    async with open_store(None, tmp_path) as store:
        loaded = await store.load(10, 20)
    assert loaded is not None
    assert loaded.table.seats[0].name == "Ann"


async def test_an_unreadable_table_is_set_aside_once_and_the_channel_freed(
    store: GameStore,
) -> None:
    table = a_table(channel_id=31)
    key = table_key(table.guild_id, table.channel_id)
    await store.client.hset(key, mapping={"rev": 3, "data": "{broken", "gid": "x"})
    with pytest.raises(TableSetAside):
        await store.load(table.guild_id, table.channel_id)
    aside = await store.client.hgetall(quarantine_key(table.guild_id, table.channel_id))
    assert aside["data"] == "{broken" and "not JSON" in aside["reason"]
    assert await store.load(table.guild_id, table.channel_id) is None
    assert await store.save(table, 0) == 1


async def test_live_tables_are_counted_per_server_without_finished_ones(
    store: GameStore,
) -> None:
    for channel in (41, 42, 43):
        await store.save(a_table(channel_id=channel).model_copy(update={"guild_id": 77}), 0)
    over = a_table(channel_id=44).model_copy(update={"guild_id": 77, "phase": "over"})
    await store.save(over, 0)
    await store.save(a_table(channel_id=45).model_copy(update={"guild_id": 78}), 0)
    assert await store.live_tables_in(77) == 3


async def test_the_index_follows_saves_deletes_and_set_asides(store: GameStore) -> None:
    lobby = a_table(channel_id=51).model_copy(update={"guild_id": 90})
    running = a_table(channel_id=52).model_copy(update={"guild_id": 90, "phase": "playing"})
    lobby_rev = await store.save(lobby, 0)
    await store.save(running, 0)
    await store.save(a_table(channel_id=53).model_copy(update={"guild_id": 91}), 0)

    assert [(e.channel_id, e.phase) for e in await store.tables_in(90)] == [
        (51, "lobby"),
        (52, "playing"),
    ]
    assert {(90, 51), (90, 52), (91, 53)} <= {place async for place in store.places()}
    counts = await store.count_tables(lambda guild: guild == 90)
    assert counts == {(lobby.game, "lobby"): 1, (lobby.game, "playing"): 1}

    await store.delete(lobby, lobby_rev)
    await store.set_aside(90, 52, "a test")
    assert await store.tables_in(90) == []
    assert await store.live_tables_in(91) == 1


async def test_an_entry_of_an_expired_table_is_skipped_and_dropped(store: GameStore) -> None:
    table = a_table(channel_id=61).model_copy(update={"guild_id": 92})
    await store.save(table, 0)
    await store.client.hset(index_key(92), "62", f"{table.game} playing 1")  # long expired

    assert [entry.channel_id for entry in await store.tables_in(92)] == [61]
    assert await store.client.hkeys(index_key(92)) == ["61"]


async def test_expired_entries_are_dropped_in_one_call(lone_store: GameStore) -> None:
    store = lone_store
    await store.client.hset(index_key(95), "62", "geschenkt playing 1")
    assert await store.tables_in(95) == []  # the script is loaded now (a fresh server has none)
    for channel in (63, 64, 65):
        await store.client.hset(index_key(94), str(channel), "geschenkt playing 1")
    calls = await eval_calls(store)
    assert await store.tables_in(94) == []
    assert await store.client.hkeys(index_key(94)) == []
    assert await eval_calls(store) == calls + 1


async def eval_calls(store: GameStore) -> int:
    stats = await store.client.info("commandstats")
    return sum(
        int(stats.get(f"cmdstat_{command}", {}).get("calls", 0)) for command in ("eval", "evalsha")
    )


async def test_counting_tables_scans_no_keys(lone_store: GameStore) -> None:
    """The cap check and the metrics read the index: no SCAN, however many tables."""
    store = lone_store
    for channel in range(70, 80):
        await store.save(a_table(channel_id=channel).model_copy(update={"guild_id": 93}), 0)
    before = await scan_calls(store)
    assert await store.live_tables_in(93) == 10
    await store.count_tables()
    assert [place async for place in store.places()]
    assert await scan_calls(store) == before


async def scan_calls(store: GameStore) -> int:
    stats = await store.client.info("commandstats")
    return int(stats.get("cmdstat_scan", {}).get("calls", 0))
