"""Leaderboard seasons: each season's own board, ratings carried or restarted, the
overall counts untouched, a game counted once per season."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from bot.engines.base import Outcome
from bot.storage.clients import client_for_url
from bot.storage.stats import SeasonTally, StatsStore

GUILD = 4242
NAMES = {"1": "Ada", "2": "Bo"}


def won_by(winner: str) -> Outcome:
    loser = "2" if winner == "1" else "1"
    return Outcome(scores={winner: 10, loser: 0}, places={winner: 1, loser: 2})


@pytest.fixture
async def stats(redis_server: str) -> AsyncIterator[StatsStore]:
    client: aioredis.Redis = client_for_url(redis_server)
    await client.flushdb()
    yield StatsStore(client)
    await client.aclose()


async def test_a_restarted_season_rates_its_games_from_scratch(stats: StatsStore) -> None:
    october, november = SeasonTally("2026-10", restart=True), SeasonTally("2026-11", restart=True)
    for n in range(3):
        await stats.record(GUILD, "draughts", f"oct{n}", won_by("1"), NAMES, october)
    await stats.record(GUILD, "draughts", "nov0", won_by("2"), NAMES, november)

    season = await stats.leaderboard(GUILD, "draughts", season="2026-11")
    assert [row.player_id for row in season] == ["2", "1"], "November starts from scratch"
    assert [(row.played, row.wins) for row in season] == [(1, 1), (1, 0)]
    earlier = await stats.leaderboard(GUILD, "draughts", season="2026-10")
    assert [(row.player_id, row.played, row.wins) for row in earlier] == [
        ("1", 3, 3),
        ("2", 3, 0),
    ]
    all_time = await stats.leaderboard(GUILD, "draughts")
    assert [row.player_id for row in all_time] == ["1", "2"], "three wins outweigh one"
    assert [row.played for row in all_time] == [4, 4]
    assert await stats.seasons(GUILD) == ["2026-11", "2026-10"]


async def test_a_carried_season_shows_the_ratings_as_they_stand(stats: StatsStore) -> None:
    october, november = SeasonTally("2026-10", restart=False), SeasonTally("2026-11", False)
    for n in range(3):
        await stats.record(GUILD, "draughts", f"oct{n}", won_by("1"), NAMES, october)
    await stats.record(GUILD, "draughts", "nov0", won_by("2"), NAMES, november)

    season = await stats.leaderboard(GUILD, "draughts", season="2026-11")
    all_time = await stats.leaderboard(GUILD, "draughts")
    assert [row.player_id for row in season] == ["1", "2"], "October's wins carry over"
    assert [row.rating for row in season] == [row.rating for row in all_time]
    assert [(row.played, row.wins) for row in season] == [(1, 0), (1, 1)]


async def test_a_season_leaves_the_overall_counts_alone_and_counts_a_game_once(
    stats: StatsStore,
) -> None:
    november = SeasonTally("2026-11", restart=True)
    assert await stats.record(GUILD, "geschenkt", "g1", won_by("1"), NAMES, november)
    assert not await stats.record(GUILD, "geschenkt", "g1", won_by("1"), NAMES, november)

    player = await stats.player(GUILD, "1")
    assert (player.overall.played, player.overall.wins) == (1, 1)
    assert list(player.games) == ["geschenkt"], "a season's fields are not a game"
    season = await stats.leaderboard(GUILD, "geschenkt", season="2026-11")
    assert [(row.played, row.wins) for row in season] == [(1, 1), (1, 0)]
