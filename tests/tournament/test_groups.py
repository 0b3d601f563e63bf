"""Grouped rounds: table sizes, tables by standing, few rematches; a 12-player event."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines.base import PlayerId
from bot.tournament import advance, standings
from bot.tournament.groups import group_tables, seats_to_fill, table_sizes
from bot.tournament.scoring import meetings, pair_key, totals
from tests.tournament.helpers import NOW, groups, play_out, play_round, rematches


def test_twelve_players_three_grouped_rounds_of_geschenkt() -> None:
    tournament = groups(12, rounds=3, sizes=(3, 4))
    rng = random.Random(8)
    while tournament.state == "running":
        current = tournament.current
        assert current is not None
        assert [len(table.seats) for table in current.tables] == [4, 4, 4]
        seated = [p for table in current.tables for p in table.seats]
        assert sorted(seated) == sorted(e.id for e in tournament.entrants)
        tournament = advance(play_round(tournament, rng), NOW)
    assert tournament.state == "finished" and len(tournament.rounds) == 3
    # four seats from three earlier tables: every table of rounds 2 and 3 seats an
    # earlier pair, at least 6 rematches; the search found no fewer than 8 in 10 events
    # even with standing ignored and 200 restarts
    assert 6 <= rematches(tournament) <= 9
    final = standings(tournament)
    assert len(final) == 12
    assert sum(line.points for line in final) == pytest.approx(3 * 3 * 2)  # n/2 a table
    assert all(line.games == 3 for line in final)
    assert [line.place for line in final] == sorted(line.place for line in final)
    assert final[0].points >= final[-1].points


def test_later_rounds_seat_the_leaders_together() -> None:
    tournament = groups(16, rounds=2, sizes=(4, 4))
    tournament = advance(play_round(tournament, random.Random(3)), NOW)
    points = totals(tournament)
    assert tournament.current is not None
    means = [sum(points[p] for p in t.seats) / 4 for t in tournament.current.tables]
    assert means == sorted(means, reverse=True)
    assert means[0] > means[-1]


def test_the_seating_spares_rematches_that_the_standing_order_would_make() -> None:
    """Against cutting the standings into tables in order (swaps off)."""
    ours = naive = 0
    for seed in range(6):
        tournament = groups(16, rounds=4, sizes=(4, 4), seed=seed)
        finished = play_out(tournament, seed=seed)
        ours += rematches(finished)
        naive += _rematches_of_cut_seating(16, 4, seed)
    assert ours < naive / 2


def _rematches_of_cut_seating(count: int, rounds: int, seed: int) -> int:
    import bot.tournament.groups as grouping

    saved = grouping.MAX_PASSES
    grouping.MAX_PASSES = 0
    try:
        return rematches(play_out(groups(count, rounds=rounds, sizes=(4, 4), seed=seed), seed=seed))
    finally:
        grouping.MAX_PASSES = saved


def test_the_leader_stays_and_the_nearest_player_moves_to_spare_a_rematch() -> None:
    """p0 and p1 met: p1, the nearer to the second table, drops to its top and p4 comes
    up; the leader stays."""
    ranked = [f"p{n}" for n in range(8)]
    points = {p: Fraction(8 - n) for n, p in enumerate(ranked)}
    tables = group_tables(ranked, points, {pair_key("p0", "p1"): 1}, [4, 4], seed=0)
    assert tables == [("p0", "p2", "p3", "p4"), ("p1", "p5", "p6", "p7")]


def test_two_rematches_spared_at_the_least_move() -> None:
    """p0–p1 and p2–p3 met: p1 and p3 go down (3 and 1 places), p4 and p5 come up (1
    and 2): 9 + 1 + 1 + 4, the cheapest way to part both pairs."""
    ranked = [f"p{n}" for n in range(8)]
    points = {p: Fraction(8 - n) for n, p in enumerate(ranked)}
    met = {pair_key("p0", "p1"): 1, pair_key("p2", "p3"): 1}
    tables = group_tables(ranked, points, met, [4, 4], seed=0)
    assert tables == [("p0", "p2", "p4", "p5"), ("p1", "p3", "p6", "p7")]


def test_rematches_spared_by_the_fewest_moves_and_never_far() -> None:
    """The top three all met: they split over the top three tables (moves 0 + 1 + 4,
    and three players up one table, cost 8) rather than play again (3 × 10); the
    bottom table doesn't move."""
    ranked = [f"p{n}" for n in range(12)]
    points = {p: Fraction(12 - n) for n, p in enumerate(ranked)}
    met = {pair_key(a, b): 1 for a, b in combinations(ranked[:3], 2)}
    tables = group_tables(ranked, points, met, [3, 3, 3, 3], seed=0)
    assert [sum(p in table for p in ranked[:3]) for table in tables] == [1, 1, 1, 0]
    assert tables[3] == ("p9", "p10", "p11")
    assert set(tables[0] + tables[1]) >= {"p3", "p4", "p5"}


def test_seating_is_decided_by_the_seed() -> None:
    ranked = [f"p{n}" for n in range(12)]
    points = dict.fromkeys(ranked, Fraction(0))
    met = {pair_key(a, b): 1 for a, b in combinations(ranked[:6], 2)}
    one = group_tables(ranked, points, met, [4, 4, 4], seed=1)
    assert one == group_tables(ranked, points, met, [4, 4, 4], seed=1)


@pytest.mark.parametrize(
    ("players", "limits", "sizes"),
    [
        (12, (3, 4), [4, 4, 4]),
        (13, (3, 4), [4, 3, 3, 3]),
        (5, (3, 4), None),
        (2, (3, 7), None),
        (7, (3, 7), [7]),
        (8, (3, 7), [4, 4]),
        (15, (3, 7), [5, 5, 5]),
        (16, (3, 7), [6, 5, 5]),
        (6, (4, 5), None),
    ],
)
def test_table_sizes(players: int, limits: tuple[int, int], sizes: list[int] | None) -> None:
    assert table_sizes(players, *limits) == sizes


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    players=st.integers(min_value=0, max_value=60),
    low=st.integers(min_value=2, max_value=7),
    span=st.integers(min_value=0, max_value=5),
)
def test_table_sizes_are_the_fewest_tables_as_even_as_can_be(
    players: int, low: int, span: int
) -> None:
    high = low + span
    sizes = table_sizes(players, low, high)
    seatable = [k for k in range(1, players + 1) if k * low <= players <= k * high]
    if not seatable:
        assert sizes is None
        return
    assert sizes is not None
    assert len(sizes) == min(seatable)
    assert sum(sizes) == players
    assert all(low <= size <= high for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    filled = players + seats_to_fill(players, low, high)
    assert table_sizes(filled, low, high) is not None


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    players=st.integers(min_value=3, max_value=24),
    low=st.integers(min_value=3, max_value=5),
    span=st.integers(min_value=0, max_value=2),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_every_entrant_sits_at_exactly_one_table_each_round(
    players: int, low: int, span: int, rounds: int, seed: int
) -> None:
    finished = play_out(
        groups(players, rounds=rounds, sizes=(low, low + span), fill=True, seed=seed), seed=seed
    )
    everyone = sorted(e.id for e in finished.entrants)
    sizes = table_sizes(len(everyone), low, low + span)
    for round_ in finished.rounds:
        seated: list[PlayerId] = [p for table in round_.tables for p in table.seats]
        assert sorted(seated) == everyone
        assert [len(t.seats) for t in round_.tables] == sizes
        assert round_.byes == ()
    assert sum(meetings(finished).values()) >= rematches(finished)
