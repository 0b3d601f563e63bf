"""A game's record: every registered game replays from its record to the same final
state, and finished records are kept per server for ``HISTORY_DAYS``."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from pydantic import BaseModel

from bot.engines.base import SeededRng
from bot.games import GAMES, GameSpec
from bot.play.records import keep_record, replay, replays_to
from bot.storage.clients import client_for_url
from bot.storage.keys import history_key, record_key
from bot.storage.records import GameRecord, RecordStore
from bot.table import Move, Seat, Table, UnreadableTable, decode_table, encode_table

MOVE_LIMIT = 3000


def played(spec: GameSpec[Any, Any, Any], seed: int) -> tuple[Table, BaseModel]:
    """A whole game between easy computers, every other move noted as a click (the key a
    button carries) and the others as computer moves (the action as text)."""
    players = [f"ai:{n}" for n in range(spec.typical_players)]
    seats = [Seat(id=p, name=f"🤖 {p}", level="easy") for p in players]
    table = Table(game=spec.name, guild_id=1, channel_id=2, host=players[0], seats=seats)
    table.seed = seed
    engine = spec.engine
    state: BaseModel = engine.new_game(players, seed, engine.Options.model_validate({}))
    rng = SeededRng.from_seed(seed)
    for n in range(MOVE_LIMIT):
        if engine.is_over(state):
            break
        player = engine.to_act(state)[0]
        action = spec.players["easy"](engine.view(state, player), rng)
        if n % 2:
            key = spec.adapter.action_key(action)
            state = spec.adapter.perform(state, player, key)
            table.moves.append(Move(p=player, k=key, by="click", t=n))
        else:
            state = engine.apply(state, player, action)
            table.moves.append(Move(p=player, k=str(action), by="computer", t=n))
    assert engine.is_over(state), spec.name
    table.phase = "over"
    table.state = state.model_dump(mode="json")
    return table, state


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_every_game_replays_from_its_record_to_the_same_final_state(
    spec: GameSpec[Any, Any, Any],
) -> None:
    for seed in range(3):
        table, state = played(spec, seed)
        states = replay(spec.adapter, table.seats, table.seed, table.options, table.moves)
        assert len(states) == len(table.moves) + 1
        assert states[-1].model_dump(mode="json") == state.model_dump(mode="json")
        assert replays_to(spec.adapter, table, state)


def test_a_record_that_does_not_replay_is_found() -> None:
    spec = GAMES[0]
    table, state = played(spec, 5)
    broken = table.model_copy(update={"moves": table.moves[:-1]})
    assert not replays_to(spec.adapter, broken, state)
    wrong = table.model_copy(update={"seed": table.seed + 1})
    assert not replays_to(spec.adapter, wrong, state)


@pytest.fixture
async def client(redis_server: str) -> AsyncIterator[aioredis.Redis]:
    client = client_for_url(redis_server)
    try:
        yield client
    finally:
        await client.aclose()


def record_of(spec: GameSpec[Any, Any, Any], seed: int, ended: int) -> GameRecord:
    table, state = played(spec, seed)
    table.gid = f"g{seed:03d}"
    return GameRecord.of(table, spec.engine.outcome(state), ended)


async def test_finished_records_are_kept_per_server_for_history_days(
    client: aioredis.Redis,
) -> None:
    import time

    now = int(time.time())
    store = RecordStore(client, days=30)
    geschenkt, draughts = GAMES[0], next(s for s in GAMES if s.name == "draughts")
    first = record_of(geschenkt, 1, now - 100)
    second = record_of(draughts, 2, now - 50)
    assert await store.keep(first) and await store.keep(second)
    assert await store.keep(first)  # again after a crash: nothing changes
    ttl = await client.ttl(record_key(1, first.gid))
    assert 29 * 24 * 3600 < ttl <= 30 * 24 * 3600
    assert 29 * 24 * 3600 < await client.ttl(history_key(1)) <= 30 * 24 * 3600
    assert await store.load(1, first.gid) == first
    assert await store.load(1, "nope") is None
    assert await store.load(999, first.gid) is None  # another server's game
    assert [r.gid for r in await store.recent(1)] == [second.gid, first.gid]
    assert [r.gid for r in await store.recent(1, limit=1)] == [second.gid]
    assert [r.gid for r in await store.recent(1, player="ai:2")] == [first.gid]
    assert await store.recent(2) == []


async def test_history_days_0_keeps_nothing(client: aioredis.Redis) -> None:
    store = RecordStore(client, days=0)
    assert not await store.keep(record_of(GAMES[0], 1, 0))
    assert await client.dbsize() == 0


async def test_a_mismatch_is_logged_once_at_error_and_the_record_kept_anyway(
    client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    spec = GAMES[0]
    table, state = played(spec, 7)
    table.gid = "broken1"
    table.moves = table.moves[:-2]
    records = RecordStore(client, days=1)
    with caplog.at_level(logging.ERROR, logger="bot.play.records"):
        await keep_record(records, spec.adapter, table, state)
        await keep_record(records, spec.adapter, table, state)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "broken1" in errors[0].getMessage()
    assert await records.load(1, "broken1") is not None
    good, final = played(spec, 8)
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="bot.play.records"):
        await keep_record(records, spec.adapter, good, final)
    assert not caplog.records


def test_moves_are_stored_short_and_read_back() -> None:
    seats = [Seat(id="111", name="Ann"), Seat(id="ai:1", name="🤖 Easy", level="easy")]
    table = Table(game="draughts", guild_id=1, channel_id=2, host="111", seats=seats)
    table.moves = [
        Move(p="111", k="c3-d4", by="click", t=1_700_000_000),
        Move(p="ai:1", k="f6-e5, x", by="computer", t=1_700_000_004),
        Move(p="999", k="", by="takeover", t=1_700_000_010),
        Move(p="111", k="", by="resign", t=1_700_000_010),
    ]
    data = json.loads(encode_table(table))
    assert data["moves"] == ["0,c,1700000000,c3-d4", "1,a,4,f6-e5, x", "@999,t,6,", "0,r,0,"]
    assert decode_table(encode_table(table)).moves == table.moves
    record = GameRecord.of(table, None, 1_700_000_010)
    assert GameRecord.model_validate_json(record.model_dump_json()) == record


def test_the_log_tells_every_move_in_words_grouped_by_deal() -> None:
    from bot.play.history import log_entries, log_page, tell

    spec = next(s for s in GAMES if s.name == "take")
    table, _ = played(spec, 0)
    told = tell(spec.adapter, table.seats, table.seed, table.options, table.moves, "en")
    assert len(told.lines) == len(table.moves) and told.broken_at is None
    entries = log_entries(told, "en")
    headings = [entry for entry in entries if entry.startswith("__Deal")]
    assert headings[0] == "__Deal 1__" and len(headings) >= 2
    assert len(entries) == len(table.moves) + len(headings)
    text, page, pages = log_page(entries, -1, "en")
    assert page == pages - 1 and text.splitlines()[-1].startswith(f"`{len(table.moves):>3}.`")
    first, _, _ = log_page(entries, 0, "en")
    assert first.startswith("__Deal 1__\n`  1.` **\u2068🤖 ai\\:0\u2069**: drew")


def test_a_long_game_keeps_its_moves_packed_in_the_table() -> None:
    spec = next(s for s in GAMES if s.name == "take")
    table, state = played(spec, 0)
    assert len(table.moves) > 100
    stored = encode_table(table)
    packed = json.loads(stored)["moves"]
    assert isinstance(packed, str) and packed.startswith("z:")
    assert len(stored) < 16_000
    back = decode_table(stored)
    assert back.moves == table.moves
    assert replays_to(spec.adapter, back, state)
    broken = json.loads(stored)
    broken["moves"] = "z:AAAA"
    with pytest.raises(UnreadableTable):
        decode_table(json.dumps(broken))


async def test_history_forgets_games_older_than_history_days(client: aioredis.Redis) -> None:
    import time

    store = RecordStore(client, days=30)
    old = record_of(GAMES[0], 1, int(time.time()) - 31 * 24 * 3600)
    new = record_of(GAMES[0], 2, int(time.time()))
    await store.keep(old)
    await store.keep(new)
    assert [record.gid for record in await store.recent(1)] == [new.gid]
