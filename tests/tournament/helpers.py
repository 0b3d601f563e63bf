"""Tournaments for the tests: made, filled and played with seeded random results."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from bot.engines.base import PlayerId
from bot.tournament import (
    Table,
    Tournament,
    advance,
    create,
    join,
    record_result,
    start,
)
from bot.tournament.model import Format
from bot.tournament.scoring import pair_key

NOW = 1_000_000.0
ROUND_SECONDS = 600

Results = Callable[[Table, random.Random], dict[PlayerId, int]]


def people(count: int) -> list[tuple[PlayerId, str]]:
    """Distinct Discord-like ids and names."""
    return [(str(100_000 + n), f"Player {n}") for n in range(count)]


def swiss(
    count: int, *, rounds: int = 4, fill: bool = True, seed: int = 1, started: bool = True
) -> Tournament:
    return _made(
        "swiss",
        count,
        rounds=rounds,
        fill=fill,
        seed=seed,
        sizes=(2, 2),
        game_min=2,
        started=started,
    )


def groups(
    count: int,
    *,
    rounds: int = 3,
    sizes: tuple[int, int] = (3, 4),
    fill: bool = False,
    seed: int = 1,
    started: bool = True,
) -> Tournament:
    return _made(
        "groups",
        count,
        rounds=rounds,
        fill=fill,
        seed=seed,
        sizes=sizes,
        game_min=3,
        started=started,
    )


def _made(
    format: Format,
    count: int,
    *,
    rounds: int,
    fill: bool,
    seed: int,
    sizes: tuple[int, int],
    game_min: int,
    started: bool,
) -> Tournament:
    tournament = create(
        id="t1",
        game="draughts" if format == "swiss" else "geschenkt",
        format=format,
        round_count=rounds,
        round_seconds=ROUND_SECONDS,
        computer_fill=fill,
        organiser="100000",
        min_players=game_min,
        table_min=sizes[0],
        table_max=sizes[1],
        seed=seed,
    )
    for player, name in people(count):
        tournament = join(tournament, player, name)
    return start(tournament, NOW) if started else tournament


def random_places(table: Table, rng: random.Random) -> dict[PlayerId, int]:
    """A random finish, ties included (a draw in a quarter of two-player games)."""
    seats = [p for p in table.seats if p not in table.absent]
    if len(seats) == 2 and rng.random() < 0.25:
        return dict.fromkeys(seats, 1)
    rng.shuffle(seats)
    return {player: index + 1 for index, player in enumerate(seats)}


def play_round(
    tournament: Tournament, rng: random.Random, results: Results = random_places
) -> Tournament:
    """Record a result at every open table of the current round."""
    assert tournament.current is not None
    for table in tournament.current.tables:
        if not table.finished:
            tournament = record_result(tournament, table.id, results(table, rng))
    return tournament


def play_out(tournament: Tournament, seed: int = 0, results: Results = random_places) -> Tournament:
    """Play every round to the end; the tournament finishes."""
    rng = random.Random(seed)
    while tournament.state == "running":
        tournament = play_round(tournament, rng, results)
        tournament = advance(tournament, NOW)
    return tournament


def rematches(tournament: Tournament) -> int:
    """Meetings beyond the first of every two entrants."""
    met: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for round_ in tournament.rounds:
        for table in round_.tables:
            for i, a in enumerate(table.seats):
                for b in table.seats[i + 1 :]:
                    met[pair_key(a, b)] += 1
    return sum(count - 1 for count in met.values())
