"""Player statistics and ratings: the openskill rating alone, and the store against a
real Redis (including stats written when ratings were Elo)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from hypothesis import given
from hypothesis import strategies as st

from bot.engines.base import Outcome
from bot.storage.clients import client_for_url
from bot.storage.errors import StoreUnavailable
from bot.storage.keys import elo_key, player_key, recorded_key, skill_key
from bot.storage.stats import (
    DISPLAY_SCALE,
    NEW_SKILL,
    RECORDED_TTL_SECONDS,
    Skill,
    StatsStore,
    rate,
)

# --- the rating alone ----------------------------------------------------------------


def fresh(*players: str) -> dict[str, Skill]:
    return dict.fromkeys(players, NEW_SKILL)


def alike(a: Skill | None, b: Skill | None) -> bool:
    """Equal up to float rounding (tied players' sums run in another order)."""
    if a is None or b is None:
        return False
    return (a.mu, a.sigma) == pytest.approx((b.mu, b.sigma))


def test_a_newcomer_shows_1000_and_a_sure_average_player_about_1400() -> None:
    assert NEW_SKILL.display == pytest.approx(1000)
    assert Skill(mu=NEW_SKILL.mu, sigma=0).display == pytest.approx(1500)
    assert Skill(mu=NEW_SKILL.mu, sigma=1).display == pytest.approx(1440)
    assert Skill(mu=30, sigma=2).display == pytest.approx(1000 + DISPLAY_SCALE * 24)


def test_a_rating_stays_near_1000_after_one_game_and_never_goes_below_0() -> None:
    once = rate(fresh("a", "b"), {"a": 1, "b": 2})
    assert 900 < once["b"].display < 1000 < once["a"].display < 1100
    assert Skill(mu=-100, sigma=8).display == 0


def test_between_newcomers_the_winner_rises_and_the_loser_falls() -> None:
    new = rate(fresh("a", "b"), {"a": 1, "b": 2})
    assert new["a"].mu > NEW_SKILL.mu > new["b"].mu
    assert new["a"].mu - NEW_SKILL.mu == pytest.approx(NEW_SKILL.mu - new["b"].mu)
    assert new["a"].display > NEW_SKILL.display > new["b"].display
    assert new["a"].sigma == new["b"].sigma < NEW_SKILL.sigma


def test_a_draw_between_equals_moves_no_mu_but_makes_both_surer() -> None:
    new = rate(fresh("a", "b"), {"a": 1, "b": 1})
    assert alike(new["a"], new["b"])
    assert new["a"].mu == pytest.approx(NEW_SKILL.mu)
    assert new["a"].sigma < NEW_SKILL.sigma


def test_a_draw_moves_the_stronger_player_down_and_the_weaker_up() -> None:
    strong, weak = Skill(mu=32, sigma=3), Skill(mu=20, sigma=3)
    new = rate({"a": strong, "b": weak}, {"a": 1, "b": 1})
    assert new["a"].mu < strong.mu
    assert new["b"].mu > weak.mu


def test_an_upset_gains_more_than_an_expected_win() -> None:
    strong, weak = Skill(mu=32, sigma=3), Skill(mu=20, sigma=3)
    upset = rate({"a": weak, "b": strong}, {"a": 1, "b": 2})
    expected = rate({"a": strong, "b": weak}, {"a": 1, "b": 2})
    assert upset["a"].mu - weak.mu > expected["a"].mu - strong.mu > 0


def test_four_newcomers_are_ordered_by_place() -> None:
    new = rate(fresh("a", "b", "c", "d"), {"c": 3, "a": 1, "d": 4, "b": 2})
    assert new["a"].mu > new["b"].mu > new["c"].mu > new["d"].mu
    assert new["a"].mu > NEW_SKILL.mu > new["d"].mu


def test_players_sharing_a_place_are_rated_alike() -> None:
    new = rate(fresh("a", "b", "c", "d"), {"a": 1, "b": 1, "c": 3, "d": 4})
    assert alike(new["a"], new["b"])
    assert new["a"].mu > NEW_SKILL.mu > new["d"].mu


def test_the_order_players_are_given_in_changes_nothing() -> None:
    skills = {"a": Skill(mu=27, sigma=5), "b": Skill(mu=24, sigma=7), "c": NEW_SKILL}
    places = {"a": 2, "b": 1, "c": 2}
    backwards = dict(reversed(places.items()))
    assert rate(skills, places) == rate(dict(reversed(skills.items())), backwards)


def test_a_single_player_keeps_their_skill_and_a_missing_skill_is_an_error() -> None:
    mine = Skill(mu=30, sigma=2)
    assert rate({"a": mine}, {"a": 1}) == {"a": mine}
    with pytest.raises(ValueError):
        rate(fresh("a"), {"a": 1, "b": 2})


@given(st.lists(st.integers(0, 4), min_size=2, max_size=7))
def test_newcomers_by_place(scores: list[int]) -> None:
    """Any finish of 2-7 newcomers (ties included): everyone gets surer, tied players
    alike, a better place never rated below a worse one unless a tie is between them,
    the best place rises and the worst falls (unless all tie: then nothing moves)."""
    places = Outcome.from_scores({str(i): s for i, s in enumerate(scores)}, lower_wins=False)
    by_place = places.places
    new = rate(fresh(*by_place), by_place)
    assert all(skill.sigma < NEW_SKILL.sigma for skill in new.values())
    counts = {place: list(by_place.values()).count(place) for place in by_place.values()}
    for a, b in itertools.permutations(by_place, 2):
        if by_place[a] == by_place[b]:
            assert alike(new[a], new[b])
        elif by_place[a] < by_place[b] and counts[by_place[a]] == counts[by_place[b]] == 1:
            assert new[a].mu > new[b].mu
    best, worst = min(counts), max(counts)
    for player, place in by_place.items():
        if best == worst:
            assert new[player].mu == pytest.approx(NEW_SKILL.mu)
        elif place == best:
            assert new[player].mu > NEW_SKILL.mu
        elif place == worst:
            assert new[player].mu < NEW_SKILL.mu


# --- the store against Redis -----------------------------------------------------------

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


NAMES = {"1": "Ann", "2": "Bob", "3": "Cy", "4": "Di", "ai:1": "Computer 1", "ai:2": "Computer 2"}


def placed(**places: int) -> Outcome:
    """An outcome from ``p1=1, p2=2`` style keywords (``p`` + id; ``ai1`` for ``ai:1``)."""
    ids = {
        f"ai:{key[2:]}" if key.startswith("ai") else key[1:]: place for key, place in places.items()
    }
    return Outcome(scores=dict.fromkeys(ids, 0), places=ids)


def chained(*outcomes: Outcome) -> dict[str, Skill]:
    """The skills after these games in turn, everyone starting new (computers too, each game)."""
    skills: dict[str, Skill] = {}
    for outcome in outcomes:
        before = {p: skills.get(p, NEW_SKILL) for p in outcome.places}
        skills |= rate(before, outcome.places)
    return skills


async def test_recording_a_game_twice_counts_it_once(stats: StatsStore) -> None:
    outcome = placed(p1=1, p2=2)
    assert await stats.record(GUILD, "draughts", "g1", outcome, NAMES) is True
    assert await stats.record(GUILD, "draughts", "g1", outcome, NAMES) is False
    ann = await stats.player(GUILD, "1")
    assert ann.games["draughts"].played == 1
    assert ann.games["draughts"].skill == chained(outcome)["1"]
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
    once = chained(outcome)
    assert [row.rating for row in board] == pytest.approx([once[p].display for p in "123"])


async def test_concurrent_different_games_all_count_and_skills_chain(
    stats: StatsStore,
) -> None:
    outcome = placed(p1=1, p2=2)
    results = await asyncio.gather(
        *(stats.record(GUILD, "draughts", f"g{n}", outcome, NAMES) for n in range(8))
    )
    assert results == [True] * 8
    expected = chained(*[outcome] * 8)
    ann = await stats.player(GUILD, "1")
    bob = await stats.player(GUILD, "2")
    assert ann.games["draughts"].played == bob.games["draughts"].played == 8
    assert ann.games["draughts"].skill == expected["1"]
    assert bob.games["draughts"].skill == expected["2"]


async def test_the_recorded_marker_expires_after_30_days(
    stats: StatsStore, client: aioredis.Redis
) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, p2=2), NAMES)
    ttl = await client.ttl(recorded_key(GUILD, "g1"))
    assert RECORDED_TTL_SECONDS - 60 < ttl <= RECORDED_TTL_SECONDS


async def test_stats_after_two_games(stats: StatsStore) -> None:
    first, second = placed(p1=1, p2=2, p3=3), placed(p1=3, p2=1, p3=2)
    await stats.record(GUILD, "geschenkt", "g1", first, NAMES)
    await stats.record(GUILD, "geschenkt", "g2", second, NAMES)
    ann = await stats.player(GUILD, "1")
    assert ann.name == "Ann"
    game = ann.games["geschenkt"]
    assert (game.played, game.wins, game.place_sum) == (2, 1, 4)
    assert game.average_place == 2.0
    assert ann.overall.played == 2
    assert ann.overall.wins == 1
    assert ann.overall.average_place == 2.0
    assert ann.overall.skill is None
    assert ann.overall.rating is None
    skill = chained(first, second)["1"]
    assert game.skill == skill
    assert game.rating == pytest.approx(skill.display)


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
    for row in board:
        shown = (await stats.player(GUILD, row.player_id)).games["draughts"].rating
        assert row.rating == pytest.approx(shown)
    cy = board[0]
    assert (cy.player_id, cy.played, cy.wins) == ("3", 2, 2)
    assert [row.player_id for row in await stats.leaderboard(GUILD, "draughts", limit=2)] == [
        "3",
        "1",
    ]
    assert await stats.leaderboard(GUILD, "draughts", limit=0) == []


async def test_a_four_player_game_ranks_the_leaderboard_by_place(stats: StatsStore) -> None:
    outcome = placed(p2=1, p4=2, p1=3, p3=4)
    await stats.record(GUILD, "take", "g1", outcome, NAMES)
    board = await stats.leaderboard(GUILD, "take")
    assert [row.player_id for row in board] == ["2", "4", "1", "3"]
    assert [(row.played, row.wins) for row in board] == [(1, 1), (1, 0), (1, 0), (1, 0)]
    assert board[0].rating > NEW_SKILL.display > board[-1].rating


async def test_a_shared_place_gives_the_same_rating(stats: StatsStore) -> None:
    await stats.record(GUILD, "escalation", "g1", placed(p1=1, p2=1, p3=3), NAMES)
    ann, bob, cy = [(await stats.player(GUILD, p)).games["escalation"] for p in "123"]
    assert (ann.wins, bob.wins, cy.wins) == (1, 1, 0)
    assert alike(ann.skill, bob.skill)
    assert ann.rating is not None and cy.rating is not None
    assert ann.rating > cy.rating


async def test_computers_are_not_players_but_their_places_count(
    stats: StatsStore, client: aioredis.Redis
) -> None:
    outcome = placed(ai1=1, p1=2, ai2=3)
    await stats.record(GUILD, "geschenkt", "g1", outcome, NAMES)
    ann = await stats.player(GUILD, "1")
    game = ann.games["geschenkt"]
    assert (game.played, game.wins, game.place_sum) == (1, 0, 2)
    # Computers play as newcomers: Ann's skill is that of a newcomer between two.
    assert game.skill == chained(outcome)["1"]
    assert [row.player_id for row in await stats.leaderboard(GUILD, "geschenkt")] == ["1"]
    assert (await stats.player(GUILD, "ai:1")).games == {}
    assert await client.zscore(skill_key(GUILD, "geschenkt"), "ai:1") is None


async def test_a_computer_is_a_newcomer_in_every_game(stats: StatsStore) -> None:
    await stats.record(GUILD, "draughts", "g1", placed(p1=1, ai1=2), NAMES)
    await stats.record(GUILD, "draughts", "g2", placed(p1=1, ai1=2), NAMES)
    ann = (await stats.player(GUILD, "1")).games["draughts"]
    once = rate({"1": NEW_SKILL, "ai:1": NEW_SKILL}, {"1": 1, "ai:1": 2})["1"]
    twice = rate({"1": once, "ai:1": NEW_SKILL}, {"1": 1, "ai:1": 2})["1"]
    assert ann.skill == twice
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
    draughts, take = placed(p1=1, p2=2), placed(p2=1, p1=2, p3=3)
    await stats.record(GUILD, "draughts", "g1", draughts, NAMES)
    await stats.record(GUILD, "take", "g2", take, NAMES)
    ann = await stats.player(GUILD, "1")
    assert set(ann.games) == {"draughts", "take"}
    assert ann.games["draughts"].skill == chained(draughts)["1"]
    assert ann.games["take"].skill == chained(take)["1"]
    assert ann.games["take"].place_sum == 2
    assert ann.overall.played == 2
    assert ann.overall.place_sum == 3
    assert [row.player_id for row in await stats.leaderboard(GUILD, "take")] == ["2", "1", "3"]
    assert [row.player_id for row in await stats.leaderboard(GUILD, "draughts")] == ["1", "2"]


# --- stats from the Elo days ---------------------------------------------------------


async def write_elo_record(
    client: aioredis.Redis, player: str, name: str, played: int, wins: int, rating: float
) -> None:
    """A player's draughts stats as the Elo version of the bot left them."""
    place_sum = played + (played - wins)  # wins were 1st places, the rest 2nd
    await client.hset(
        player_key(GUILD, player),
        mapping={
            "name": name,
            "played": played,
            "wins": wins,
            "place_sum": place_sum,
            "g:draughts:played": played,
            "g:draughts:wins": wins,
            "g:draughts:place_sum": place_sum,
            "g:draughts:rating": rating,
        },
    )
    await client.zadd(elo_key(GUILD, "draughts"), {player: rating})


async def test_an_elo_record_keeps_its_counts_but_is_unrated(
    stats: StatsStore, client: aioredis.Redis
) -> None:
    await write_elo_record(client, "1", "Ann", played=5, wins=4, rating=1090.5)
    ann = await stats.player(GUILD, "1")
    game = ann.games["draughts"]
    assert (game.played, game.wins, game.place_sum) == (5, 4, 6)
    assert game.skill is None
    assert game.rating is None
    assert ann.overall.played == 5
    assert await stats.leaderboard(GUILD, "draughts") == []


async def test_the_next_game_starts_a_fresh_skill_and_counts_on(
    stats: StatsStore, client: aioredis.Redis
) -> None:
    await write_elo_record(client, "1", "Ann", played=5, wins=4, rating=1090.5)
    await write_elo_record(client, "2", "Bob", played=3, wins=0, rating=950.0)
    await write_elo_record(client, "3", "Cy", played=2, wins=1, rating=1010.0)
    outcome = placed(p1=1, p2=2)
    await stats.record(GUILD, "draughts", "g1", outcome, NAMES)
    ann = (await stats.player(GUILD, "1")).games["draughts"]
    assert (ann.played, ann.wins, ann.place_sum) == (6, 5, 7)
    assert ann.skill == chained(outcome)["1"]
    assert await client.hget(player_key(GUILD, "1"), "g:draughts:rating") is None
    assert [row.player_id for row in await stats.leaderboard(GUILD, "draughts")] == ["1", "2"]
    # Cy has not played since: their Elo entry is all that is left of the old board.
    assert await client.zrange(elo_key(GUILD, "draughts"), 0, -1) == ["3"]
    assert await client.hget(player_key(GUILD, "3"), "g:draughts:rating") == "1010.0"


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
