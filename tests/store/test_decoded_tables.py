"""A store keeps the tables it last read or wrote decoded, and answers a load of the
very same stored data with a copy of it instead of decoding it again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from unittest import mock

import pytest

from bot.storage import tables
from bot.storage.clients import client_for_url
from bot.storage.tables import DecodedTables, GameStore
from bot.table import Move, Seat, Table, decode_table, encode_table


@pytest.fixture
async def stores(redis_server: str) -> AsyncIterator[tuple[GameStore, GameStore]]:
    """Two stores on one Redis: two bot processes."""
    clients = [client_for_url(redis_server) for _ in range(2)]
    await clients[0].flushdb()
    yield GameStore(clients[0]), GameStore(clients[1])
    for client in clients:
        await client.aclose()


def a_game(channel_id: int = 20) -> Table:
    return Table(
        game="geschenkt",
        guild_id=10,
        channel_id=channel_id,
        host="1",
        phase="playing",
        seats=[Seat(id="1", name="Ann"), Seat(id="2", name="Bo")],
        state={"pot": 3, "hands": [[3, 4], []]},
        moves=[Move(p="1", k="take", t=1_750_000_000)],
    )


def counting_decodes() -> mock._patch[mock.MagicMock]:
    """`decode_table` as the store calls it, counting its calls."""
    return mock.patch.object(tables, "decode_table", wraps=decode_table)


async def test_loading_what_this_store_saved_decodes_nothing(
    stores: tuple[GameStore, GameStore],
) -> None:
    store, _ = stores
    table = a_game()
    rev = await store.save(table, 0)
    with counting_decodes() as decode:
        first, second = await store.load(10, 20), await store.load(10, 20)
    assert decode.call_count == 0
    assert first is not None and second is not None
    assert first.rev == second.rev == rev
    assert first.table == second.table == table


async def test_each_load_is_a_copy_of_its_own(stores: tuple[GameStore, GameStore]) -> None:
    store, _ = stores
    table = a_game()
    await store.save(table, 0)
    saved = table.model_copy(deep=True)
    table.seats[0].missed = 5  # the saver's object changes after the save
    first = await store.load(10, 20)
    assert first is not None
    first.table.seats[1].name = "changed"
    assert first.table.state is not None
    first.table.state["hands"][0].append(99)
    first.table.moves.append(Move(p="2", k="pass"))
    second = await store.load(10, 20)
    assert second is not None
    assert second.table == saved


async def test_a_save_by_another_process_is_decoded(stores: tuple[GameStore, GameStore]) -> None:
    mine, theirs = stores
    rev = await mine.save(a_game(), 0)
    loaded = await theirs.load(10, 20)
    assert loaded is not None
    changed = loaded.table.model_copy(deep=True)
    changed.seats.append(Seat(id="3", name="Cy"))
    await theirs.save(changed, rev)
    with counting_decodes() as decode:
        seen = await mine.load(10, 20)
    assert decode.call_count == 1
    assert seen is not None and seen.rev == rev + 1
    assert [seat.name for seat in seen.table.seats] == ["Ann", "Bo", "Cy"]


async def test_a_new_game_with_the_same_revision_is_decoded(
    stores: tuple[GameStore, GameStore],
) -> None:
    """Revisions count anew in each game of a channel: the data decides, not the revision."""
    mine, theirs = stores
    first = a_game()
    await mine.save(first, 0)
    await theirs.delete(first, 1)
    second = a_game()
    second.seats = [Seat(id="7", name="Dee")]
    await theirs.save(second, 0)
    seen = await mine.load(10, 20)
    assert seen is not None and seen.rev == 1
    assert seen.table.gid == second.gid and seen.table.seats == second.seats


def test_the_least_recently_used_table_goes_first() -> None:
    kept = DecodedTables(kept=2)
    tables_ = [a_game(channel) for channel in (1, 2, 3)]
    for table in tables_[:2]:
        kept.put((10, table.channel_id), 1, encode_table(table), table)
    assert kept.get((10, 1), 1, encode_table(tables_[0])) is not None  # 1 is used again
    kept.put((10, 3), 1, encode_table(tables_[2]), tables_[2])
    assert kept.get((10, 2), 1, encode_table(tables_[1])) is None
    assert kept.get((10, 1), 1, encode_table(tables_[0])) == tables_[0]
    assert kept.get((10, 3), 1, encode_table(tables_[2])) == tables_[2]
    assert kept.get((10, 3), 2, encode_table(tables_[2])) is None, "another revision"
