"""Player statistics and ratings: the Elo math alone, and the store against a real Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from bot.engines.base import Outcome
from bot.stats import (
    RECORDED_TTL_SECONDS,
    START_RATING,
    StatsStore,
    elo_update,
    expected_score,
    rating_key,
    recorded_key,
)
from bot.store import StoreUnavailable, client_for_url

# --- Elo math ---------------------------------------------------------------------------


def test_equal_ratings_the_winner_gains_16_and_the_loser_loses_16() -> None:
    new = elo_update({"a": 1000, "b": 1000}, {"a": 1, "b": 2})
    assert new == pytest.approx({"a": 1016, "b": 984})


def test_a_draw_between_equals_changes_nothing() -> None:
    assert elo_update({"a": 1000, "b": 1000}, {"a": 1, "b": 1}) == {"a": 1000, "b": 1000}


def test_a_draw_moves_the_stronger_player_down() -> None:
    new = elo_update({"a": 1200, "b": 1000}, {"a": 1, "b": 1})
    # Expected score of 1200 against 1000 is 1 / (1 + 10 ** -0.5) = 0.7597.
    assert new["a"] == pytest.approx(1200 + 32 * (0.5 - 0.759747), abs=1e-3)
    assert new["a"] + new["b"] == pytest.approx(2200)


def test_an_upset_gains_more_than_an_expected_win() -> None:
    upset = elo_update({"a": 1000, "b": 1400}, {"a": 1, "b": 2})
    expected = elo_update({"a": 1400, "b": 1000}, {"a": 1, "b": 2})
    assert upset["a"] - 1000 == pytest.approx(32 * (1 - expected_score(1000, 1400)))
    assert upset["a"] - 1000 > expected["a"] - 1400 > 0


def test_three_equal_players_by_place_split_k_over_the_pairs() -> None:
    new = elo_update({"a": 1000, "b": 1000, "c": 1000}, {"a": 1, "b": 2, "c": 3})
    # K/(n-1) = 16 per pair: a wins two (+8 each), b wins one and loses one, c loses two.
    assert new == pytest.approx({"a": 1016, "b": 1000, "c": 984})


def test_shared_places_are_draws_in_a_multiplayer_game() -> None:
    new = elo_update({"a": 1000, "b": 1000, "c": 1000, "d": 1000}, {"a": 1, "b": 1, "c": 3, "d": 4})
    assert new["a"] == pytest.approx(new["b"])
    assert new["a"] == pytest.approx(1000 + 32 / 3 * (0.5 + 0.5 + 0))
    assert sum(new.values()) == pytest.approx(4000)


def test_a_single_player_keeps_their_rating_and_a_missing_rating_is_an_error() -> None:
    assert elo_update({"a": 1234}, {"a": 1}) == {"a": 1234}
    with pytest.raises(ValueError):
        elo_update({"a": 1000}, {"a": 1, "b": 2})


# --- the store against Redis -------------------------------------------------------------

GUILD = 10


@pytest.fixture
async def client(redis_server: str) -> AsyncIterator[aioredis.Redis]:
    client = client_for_url(redis_server)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
def stats(client: aioredis.Redis) -> StatsStore:
    return StatsStore(client)


NAMES = {"1": "Ann", "2": "Bob", "3": "Cy", "ai:1": "Computer 1", "ai:2": "Computer 2"}


def placed(**places: int) -> Outcome:
    """An outcome from ``p1=1, p2=2`` style keywords (``p`` + id; ``ai1`` for ``ai:1``)."""
    ids = {
        f"ai:{key[2:]}" if key.startswith("ai") else key[1:]: place for key, place in places.items()
    }
    return Outcome(scores=dict.fromkeys(ids, 0), places=ids)


async def test_recording_a_game_twice_counts_it_once(stats: StatsStore) -> None:
    outcome = placed(p1=1, p2=2)
    assert await stats.record(GUILD, "draughts", "g1", outcome, NAMES) is True
    assert await stats.record(GUILD, "draughts", "g1", outcome, NAMES) is False
    ann = await stats.player(GUILD, "1")
    assert ann.games["draughts"].played == 1
    assert ann.games["draughts"].rating == pytest.approx(1016)
    assert ann.overall.played == 1


async def test_concurrent_records_of_one_game_count_it_once(stats: StatsStore) -> None:
    outcome = placed(p1=1, p2=2, p3=3)
    results = await asyncio.gather(
        *(stats.record(GUILD, "geschenkt", "g1", outcome, NAMES) for _ in range(2))
    )
    assert sorted(results) == [False, True]
    for player in ("1", "2", "3"):
        assert (await stats.player(GUILD, player)).overall.played == 1
    board = await stats.leaderboard(GUILD, "geschenkt")
    assert [row.rating for row in board] == pytest.approx([1016, 1000, 984])


async def test_concurrent_different_games_all_count_and_ratings_chain(
    stats: StatsStore,
) -> None:
    outcome = placed(p1=1, p2=2)
    results = await asyncio.gather(
        *(stats.record(GUILD, "draughts", f"g{n}", outcome, NAMES) for n in range(8))
    )
    assert results == [True] * 8
    ratings = {"1": START_RATING, "2": START_RATING}
    for _ in range(8):
        ratings = elo_update(ratings, outcome.places)
    ann = await stats.player(GUILD, "1")
    bob = await stats.player(GUILD, "2")
    assert ann.games["draughts"].played == bob.games["draughts"].played == 8
    assert ann.games["draughts"].rating == pytest.approx(ratings["1"])
    assert bob.games["draughts"].rating == pytest.approx(ratings["2"])


async def test_the_recorded_marker_expires_after_30_days(
    stats: StatsStore, client: aioredis.Redis
) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    ttl = await client.ttl(recorded_key(GUILD, "g1"))
    assert RECORDED_TTL_SECONDS - 60 < ttl <= RECORDED_TTL_SECONDS


async def test_stats_after_two_games(stats: StatsStore) -> None:
    await stats.record(GUILD, "geschenkt", "g1", placed(p1=1, p2=2, p3=3), NAMES)
    await stats.record(GUILD, "geschenkt", "g2", placed(p1=3, p2=1, p3=2), NAMES)
    ann = await stats.player(GUILD, "1")
    assert ann.name == "Ann"
    game = ann.games["geschenkt"]
    assert (game.played, game.wins, game.place_sum) == (2, 1, 4)
    assert game.average_place == 2.0
    assert ann.overall.played == 2
    assert ann.overall.wins == 1
    assert ann.overall.average_place == 2.0
    assert ann.overall.rating is None
    first = elo_update({"1": 1000, "2": 1000, "3": 1000}, {"1": 1, "2": 2, "3": 3})
    second = elo_update(first, {"1": 3, "2": 1, "3": 2})
    assert game.rating == pytest.approx(second["1"])


async def test_an_unknown_player_has_empty_stats(stats: StatsStore) -> None:
    nobody = await stats.player(GUILD, "42")
    assert nobody.name is None
    assert nobody.games == {}
    assert nobody.overall.played == 0
    assert nobody.overall.average_place is None


async def test_the_latest_name_is_kept_and_a_missing_name_keeps_the_old_one(
    stats: StatsStore,
) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    await stats.record(GUILD, "draughts", "g2", placed(p1=1, p2=2), {"1": "Annie"})
    assert (await stats.player(GUILD, "1")).name == "Annie"
    assert (await stats.player(GUILD, "2")).name == "Bob"


async def test_the_leaderboard_is_ordered_by_rating(stats: StatsStore) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    await stats.record(GUILD, "draughts", "g2", placed(p3=1, p2=2), NAMES)
    await stats.record(GUILD, "draughts", "g3", placed(p3=1, p1=2), NAMES)
    board = await stats.leaderboard(GUILD, "draughts")
    assert [row.name for row in board] == ["Cy", "Ann", "Bob"]
    assert [row.rating for row in board] == sorted((row.rating for row in board), reverse=True)
    cy = board[0]
    assert (cy.player_id, cy.played, cy.wins) == ("3", 2, 2)
    assert [row.player_id for row in await stats.leaderboard(GUILD, "draughts", limit=2)] == [
        "3",
        "1",
    ]
    assert await stats.leaderboard(GUILD, "draughts", limit=0) == []


async def test_computers_are_not_players_but_their_places_count(
    stats: StatsStore, client: aioredis.Redis
) -> None:
    await stats.record(GUILD, "geschenkt", "g1", placed(ai1=1, p1=2, ai2=3), NAMES)
    ann = await stats.player(GUILD, "1")
    game = ann.games["geschenkt"]
    assert (game.played, game.wins, game.place_sum) == (1, 0, 2)
    # Computers play at a fixed 1000: one loss and one win against equals is no change.
    assert game.rating == pytest.approx(1000)
    assert [row.player_id for row in await stats.leaderboard(GUILD, "geschenkt")] == ["1"]
    assert (await stats.player(GUILD, "ai:1")).games == {}
    assert await client.zscore(rating_key(GUILD, "geschenkt"), "ai:1") is None


async def test_beating_a_computer_is_a_win_against_1000(stats: StatsStore) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, ai1=2), NAMES)
    await stats.record(GUILD, "draughts", "g2", placed(p1=1, ai1=2), NAMES)
    ann = (await stats.player(GUILD, "1")).games["draughts"]
    once = elo_update({"1": 1000, "ai:1": 1000}, {"1": 1, "ai:1": 2})["1"]
    twice = elo_update({"1": once, "ai:1": 1000}, {"1": 1, "ai:1": 2})["1"]
    assert ann.rating == pytest.approx(twice)
    assert ann.wins == 2


async def test_a_game_of_computers_only_records_nothing(stats: StatsStore) -> None:
    assert await stats.record(GUILD, "draughts", "g1", placed(ai1=1, ai2=2), NAMES) is True
    assert await stats.record(GUILD, "draughts", "g1", placed(ai1=1, ai2=2), NAMES) is False
    assert await stats.leaderboard(GUILD, "draughts") == []


async def test_guilds_are_kept_apart(stats: StatsStore) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    # The same gid in another guild is another game.
    assert await stats.record(GUILD + 1, "draughts", "g1", placed(p2=1, p1=2), NAMES) is True
    here = await stats.player(GUILD, "1")
    there = await stats.player(GUILD + 1, "1")
    assert here.games["draughts"].wins == 1
    assert there.games["draughts"].wins == 0
    assert [row.player_id for row in await stats.leaderboard(GUILD, "draughts")] == ["1", "2"]
    assert [row.player_id for row in await stats.leaderboard(GUILD + 1, "draughts")] == ["2", "1"]
    assert await stats.leaderboard(GUILD + 2, "draughts") == []


async def test_games_are_kept_apart(stats: StatsStore) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    await stats.record(GUILD, "take", "g2", placed(p2=1, p1=2, p3=3), NAMES)
    ann = await stats.player(GUILD, "1")
    assert set(ann.games) == {"draughts", "take"}
    assert ann.games["draughts"].rating == pytest.approx(1016)
    assert ann.games["take"].rating == pytest.approx(1000)
    assert ann.games["take"].place_sum == 2
    assert ann.overall.played == 2
    assert ann.overall.place_sum == 3
    assert [row.player_id for row in await stats.leaderboard(GUILD, "take")] == ["2", "1", "3"]
    assert [row.player_id for row in await stats.leaderboard(GUILD, "draughts")] == ["1", "2"]


async def test_an_unreachable_redis_is_store_unavailable() -> None:
    client = client_for_url("redis://127.0.0.1:1/0")
    stats = StatsStore(client)
    with pytest.raises(StoreUnavailable):
        await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    with pytest.raises(StoreUnavailable):
        await stats.player(GUILD, "1")
    with pytest.raises(StoreUnavailable):
        await stats.leaderboard(GUILD, "draughts")
    await client.aclose()
