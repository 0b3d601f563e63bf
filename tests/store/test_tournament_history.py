"""Finished tournaments in a server's history: listed when they finish, newest first,
once; cancelled ones never; one player's only where they played."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from bot.storage.clients import client_for_url
from bot.storage.tournaments import TournamentStore
from bot.tournament import Entrant, Tournament
from tests.store.tournaments import a_tournament

GUILD, CHANNEL = 4242, 4343


@pytest.fixture
async def store(redis_server: str) -> AsyncIterator[TournamentStore]:
    client: aioredis.Redis = client_for_url(redis_server)
    await client.flushdb()
    yield TournamentStore(client, keep_days=1)
    await client.aclose()


def ended_as(state: str, tournament_id: str, *players: str) -> Tournament:
    """A tournament of ``players`` in ``state``, at revision 2 (stored at 1 before)."""
    base = a_tournament(GUILD, CHANNEL, tournament_id)
    entrants = tuple(Entrant(id=p, name=f"P{p}") for p in players)
    return base.model_copy(update={"state": state, "entrants": entrants, "revision": 2})


async def finish(store: TournamentStore, tournament: Tournament, now: float) -> None:
    await store.save(tournament.model_copy(update={"state": "running", "revision": 1}), 0)
    await store.save(tournament, 1, now=now)


async def test_finished_tournaments_are_listed_newest_first(store: TournamentStore) -> None:
    await finish(store, ended_as("finished", "0000000a", "1", "2"), now=1_000)
    await finish(store, ended_as("finished", "0000000b", "2", "3"), now=2_000)
    await finish(store, ended_as("cancelled", "0000000c", "1", "3"), now=3_000)

    listed = await store.finished(GUILD, limit=10)
    assert [(e.tournament.id, e.ended) for e in listed] == [("0000000b", 2000), ("0000000a", 1000)]
    assert [e.tournament.id for e in await store.finished(GUILD, limit=1)] == ["0000000b"]
    mine = await store.finished(GUILD, limit=10, player="1")
    assert [e.tournament.id for e in mine] == ["0000000a"], "not b; c was cancelled"
    assert await store.finished(GUILD + 1, limit=10) == [], "another server's history"


async def test_a_finished_tournament_saved_again_keeps_when_it_ended(
    store: TournamentStore,
) -> None:
    finished = ended_as("finished", "0000000a", "1", "2")
    await finish(store, finished, now=1_000)
    await store.save(finished.model_copy(update={"revision": 3}), 2, now=5_000)
    [entry] = await store.finished(GUILD, limit=10)
    assert entry.ended == 1000 and entry.tournament.revision == 3
