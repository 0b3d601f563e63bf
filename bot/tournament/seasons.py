"""Seasons: which season a day falls in, for a leaderboard that restarts with each.

A season is a calendar month (``monthly``, id ``2026-03``), a calendar quarter
(``quarterly``, id ``2026-Q1``: January–March) or everything (``none``, id ``all``).
Days are calendar days in UTC; take ``datetime.now(UTC).date()``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

SeasonLength = Literal["monthly", "quarterly", "none"]

ALL_TIME = "all"


class Season(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    length: SeasonLength
    start: dt.date | None
    """The first day (None: since ever)."""
    end: dt.date | None
    """The first day after it (None: no end)."""
    previous: str | None
    """The season before it (None for ``all``)."""

    def contains(self, day: dt.date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day < self.end)


def season_of(day: dt.date, length: SeasonLength) -> Season:
    """The season that ``day`` falls in."""
    if length == "none":
        return Season(id=ALL_TIME, length=length, start=None, end=None, previous=None)
    months = 1 if length == "monthly" else 3
    first_month = (day.month - 1) // months * months + 1
    start = dt.date(day.year, first_month, 1)
    end = (
        _add_months(start, months)
        if start.year < dt.MAXYEAR or start.month <= 12 - months
        else None
    )
    previous = (
        None if start.year == dt.MINYEAR and start.month == 1 else _add_months(start, -months)
    )
    return Season(
        id=_season_id(start, length),
        length=length,
        start=start,
        end=end,
        previous=None if previous is None else _season_id(previous, length),
    )


def season_by_id(season_id: str) -> Season:
    """The season named ``season_id`` (``2026-03``, ``2026-Q1`` or ``all``), to browse
    earlier ones; raises ``ValueError`` for anything else."""
    if season_id == ALL_TIME:
        return season_of(dt.date(2000, 1, 1), "none")
    if match := re.fullmatch(r"(\d{4})-(\d{2})", season_id):
        year, month = int(match[1]), int(match[2])
        if 1 <= month <= 12:
            return season_of(dt.date(year, month, 1), "monthly")
    if match := re.fullmatch(r"(\d{4})-Q([1-4])", season_id):
        return season_of(dt.date(int(match[1]), 3 * int(match[2]) - 2, 1), "quarterly")
    raise ValueError(f"not a season id: {season_id!r}")


def _season_id(start: dt.date, length: SeasonLength) -> str:
    if length == "monthly":
        return f"{start.year:04d}-{start.month:02d}"
    return f"{start.year:04d}-Q{(start.month - 1) // 3 + 1}"


def _add_months(day: dt.date, months: int) -> dt.date:
    """The first of the month ``months`` after ``day``'s month."""
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)
