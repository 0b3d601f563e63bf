"""Standings: points, then two tie-breaks, the same two for both formats.

- **Buchholz** (``buchholz``): the sum, over one's finished games, of the opponents'
  points now. At a table of more than two it counts the *mean* points of one's
  table-mates, so a game at a big table weighs what a game at a small one does; at two
  seats that is the Swiss Buchholz exactly.
- **Sonneborn–Berger** (``sonneborn_berger``): the same sum with each game's term
  multiplied by one's own points from that game (a win counts the opponent in full, a
  draw half, a loss not at all) — the Swiss Sonneborn–Berger at two seats.

A bye scores a win but adds nothing to either tie-break (it had no opponent), and so
does a table still being played. Entrants equal on all three share a place (1, 1, 3
style) and are listed in their initial order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from bot.engines.base import PlayerId
from bot.tournament.model import Tournament
from bot.tournament.scoring import bye_counts, table_scores, totals


class Standing(BaseModel):
    """One line of the standings, ready to show."""

    model_config = ConfigDict(frozen=True)

    place: int
    id: PlayerId
    name: str
    computer: bool
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    """Finished tables (byes apart)."""
    byes: int
    firsts: int
    """Games finished first, alone or shared."""


@dataclass
class _Tally:
    """One entrant's exact figures while the standings are summed."""

    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    games: int = 0
    firsts: int = 0
    order: int = 0

    def key(self) -> tuple[Fraction, Fraction, Fraction]:
        return (self.points, self.buchholz, self.sonneborn_berger)


def _tallies(tournament: Tournament) -> dict[PlayerId, _Tally]:
    points = totals(tournament)
    tallies = {
        entrant.id: _Tally(points=points[entrant.id], order=index)
        for index, entrant in enumerate(tournament.entrants)
    }
    for round_ in tournament.rounds:
        for table in round_.tables:
            scores = table_scores(table)
            if not scores or table.result is None:
                continue
            for player in table.seats:
                mates = [other for other in table.seats if other != player]
                opposition = sum((points[m] for m in mates), Fraction(0)) / len(mates)
                tally = tallies[player]
                tally.games += 1
                tally.buchholz += opposition
                tally.sonneborn_berger += scores[player] * opposition
                if table.result.places.get(player) == 1:
                    tally.firsts += 1
    return tallies


def ranking(tournament: Tournament) -> list[tuple[int, PlayerId]]:
    """(place, entrant id), best first: points, Buchholz, Sonneborn–Berger, then the
    initial order among those who share a place."""
    tallies = _tallies(tournament)
    ordered = sorted(tallies, key=lambda p: (_negated(tallies[p].key()), tallies[p].order))
    ranked: list[tuple[int, PlayerId]] = []
    for index, player in enumerate(ordered):
        if index and tallies[ordered[index - 1]].key() == tallies[player].key():
            ranked.append((ranked[-1][0], player))
        else:
            ranked.append((index + 1, player))
    return ranked


def standings(tournament: Tournament) -> list[Standing]:
    """The standings now (final once the tournament is finished)."""
    tallies = _tallies(tournament)
    byes: Counter[PlayerId] = bye_counts(tournament)
    lines = []
    for place, player in ranking(tournament):
        entrant = tournament.entrant(player)
        assert entrant is not None
        tally = tallies[player]
        lines.append(
            Standing(
                place=place,
                id=player,
                name=entrant.name,
                computer=entrant.computer,
                points=float(tally.points),
                buchholz=float(tally.buchholz),
                sonneborn_berger=float(tally.sonneborn_berger),
                games=tally.games,
                byes=byes[player],
                firsts=tally.firsts,
            )
        )
    return lines


def _negated(key: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    return tuple(-value for value in key)
