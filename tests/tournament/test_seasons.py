"""Seasons: a day's season, its bounds, the one before, and ids read back."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import season_by_id, season_of
from bot.tournament.seasons import SeasonLength


@pytest.mark.parametrize(
    ("day", "length", "season", "start", "end", "previous"),
    [
        ("2026-03-15", "monthly", "2026-03", "2026-03-01", "2026-04-01", "2026-02"),
        ("2026-01-01", "monthly", "2026-01", "2026-01-01", "2026-02-01", "2025-12"),
        ("2026-12-31", "monthly", "2026-12", "2026-12-01", "2027-01-01", "2026-11"),
        ("2026-03-31", "quarterly", "2026-Q1", "2026-01-01", "2026-04-01", "2025-Q4"),
        ("2026-04-01", "quarterly", "2026-Q2", "2026-04-01", "2026-07-01", "2026-Q1"),
        ("2026-11-30", "quarterly", "2026-Q4", "2026-10-01", "2027-01-01", "2026-Q3"),
    ],
)
def test_a_days_season(
    day: str, length: SeasonLength, season: str, start: str, end: str, previous: str
) -> None:
    found = season_of(dt.date.fromisoformat(day), length)
    assert (found.id, found.start, found.end, found.previous) == (
        season,
        dt.date.fromisoformat(start),
        dt.date.fromisoformat(end),
        previous,
    )


def test_no_seasons_is_one_season_for_all_time() -> None:
    found = season_of(dt.date(2026, 5, 5), "none")
    assert (found.id, found.start, found.end, found.previous) == ("all", None, None, None)
    assert found.contains(dt.date(1970, 1, 1)) and season_by_id("all") == found


@pytest.mark.parametrize("bad", ["2026-13", "2026-00", "2026-Q5", "26-01", "Q1-2026", ""])
def test_other_ids_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="season"):
        season_by_id(bad)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    day=st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2200, 12, 31)),
    length=st.sampled_from(["monthly", "quarterly"]),
)
def test_seasons_tile_the_calendar(day: dt.date, length: SeasonLength) -> None:
    season = season_of(day, length)
    assert season.contains(day)
    assert season.start is not None and season.end is not None and season.previous is not None
    assert season_of(season.start, length) == season
    assert season_of(season.end, length).previous == season.id
    assert not season.contains(season.end)
    before = season_by_id(season.previous)
    assert before.end == season.start
    assert season_by_id(season.id) == season
    assert (season.end - season.start).days in (
        (28, 29, 30, 31) if length == "monthly" else (90, 91, 92)
    )


def test_the_calendars_edges() -> None:
    assert season_of(dt.date(1, 1, 1), "monthly").previous is None
    assert season_of(dt.date(9999, 12, 31), "quarterly").end is None
