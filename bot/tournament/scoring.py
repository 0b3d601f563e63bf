"""Points: what one finished table gives each seat, and the history pairings look at.

Every game is worth between 0 and 1 point, whatever its size, so a win at a table of
five weighs what a win at a table of three does:

- an ``n``-seat table's positions 1 … n score (n − 1)/(n − 1) … 0/(n − 1): first 1,
  last 0, evenly spaced between (three seats: 1, ½, 0; four: 1, ⅔, ⅓, 0);
- players sharing a place share the positions they cover (two sharing first at a
  table of three: (1 + ½)/2 = ¾ each), so a table that everyone played hands out
  n/2 points in all;
- a two-seat table is then exactly Swiss scoring: a win 1, a draw ½, a loss 0;
- no-shows (``forfeits``) score 0 and take the last positions; the players who came
  take the first ones, by their places;
- a Swiss bye scores 1, a win.

Points are exact fractions (`fractions.Fraction`) so that equal totals tie exactly for
the tie-breaks; show them as floats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from bot.engines.base import PlayerId
from bot.tournament.model import Table, TableResult, Tournament

BYE_POINTS = Fraction(1)


def position_points(position: int, size: int) -> Fraction:
    """The points of ``position`` (1 = first) at a table of ``size`` seats."""
    return Fraction(size - position, size - 1)


def result_scores(seats: Iterable[PlayerId], result: TableResult) -> dict[PlayerId, Fraction]:
    """Each seat's points from ``result`` (see the module's rules)."""
    seats = tuple(seats)
    size = len(seats)
    forfeits = set(result.forfeits)
    scores = {player: Fraction(0) for player in seats}
    for player, place in result.places.items():
        if player in forfeits:
            continue
        sharing = sum(1 for other in result.places.values() if other == place)
        covered = range(place, place + sharing)
        scores[player] = sum((position_points(p, size) for p in covered), Fraction(0)) / sharing
    return scores


def table_scores(table: Table) -> dict[PlayerId, Fraction]:
    """Each seat's points at a finished table ({} while it is still being played)."""
    if table.result is None:
        return {}
    return result_scores(table.seats, table.result)


def totals(tournament: Tournament) -> dict[PlayerId, Fraction]:
    """Each entrant's points from the finished tables and the byes so far."""
    points = {entrant.id: Fraction(0) for entrant in tournament.entrants}
    for round_ in tournament.rounds:
        for player in round_.byes:
            points[player] += BYE_POINTS
        for table in round_.tables:
            for player, score in table_scores(table).items():
                points[player] += score
    return points


def pair_key(a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId]:
    return (a, b) if a <= b else (b, a)


def meetings(tournament: Tournament) -> Counter[tuple[PlayerId, PlayerId]]:
    """How often each two entrants sat at one table (played or not: a no-show still
    met its opponents, so they aren't seated together again)."""
    met: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for round_ in tournament.rounds:
        for table in round_.tables:
            for i, a in enumerate(table.seats):
                for b in table.seats[i + 1 :]:
                    met[pair_key(a, b)] += 1
    return met


def bye_counts(tournament: Tournament) -> Counter[PlayerId]:
    return Counter(player for round_ in tournament.rounds for player in round_.byes)
