"""Properties of whole Swiss events with random fields and results (Hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines.base import PlayerId
from bot.tournament import Tournament, advance, table_of
from bot.tournament.scoring import bye_counts, meetings, pair_key
from tests.tournament.helpers import NOW, play_round, swiss


def clean_pairing_exists(tournament: Tournament) -> bool:
    """Whether the next round can be paired with no rematch and no second bye (every
    pairing of the field tried, by a memo over who is left)."""
    players = [e.id for e in tournament.entrants]
    met = meetings(tournament)
    byes = bye_counts(tournament)
    odd = len(players) % 2 == 1

    @cache
    def pairable(left: frozenset[PlayerId], bye_open: bool) -> bool:
        if not left:
            return not bye_open
        first = min(left)
        rest = left - {first}
        if bye_open and byes[first] == 0 and pairable(rest, False):
            return True
        return any(
            met[pair_key(first, other)] == 0 and pairable(rest - {other}, bye_open)
            for other in rest
        )

    return pairable(frozenset(players), odd)


def rematches_and_second_byes(before: Tournament, after: Tournament) -> int:
    met = meetings(before)
    byes = bye_counts(before)
    current = after.rounds[-1]
    rematched = sum(met[pair_key(*table.seats)] > 0 for table in current.tables)
    return rematched + sum(byes[player] > 0 for player in current.byes)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(
    people=st.integers(min_value=2, max_value=13),
    rounds=st.integers(min_value=1, max_value=7),
    fill=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
    draws=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_swiss_rounds_seat_everyone_once_and_rematch_only_when_forced(
    people: int, rounds: int, fill: bool, seed: int, draws: float
) -> None:
    rng = random.Random(seed)

    def result(table: object, _: random.Random) -> dict[PlayerId, int]:
        seats = table.seats  # type: ignore[attr-defined]
        if rng.random() < draws:
            return dict.fromkeys(seats, 1)
        winner = rng.choice(seats)
        return {p: 1 if p == winner else 2 for p in seats}

    tournament = swiss(people, rounds=rounds, fill=fill, seed=seed)
    everyone = sorted(e.id for e in tournament.entrants)
    assert len(everyone) == people + (people % 2 if fill else 0)
    previous = tournament.model_copy(update={"rounds": ()})
    while True:
        current = tournament.rounds[-1]
        seated = [p for table in current.tables for p in table.seats]
        assert len(seated) == len(set(seated)), "someone sits twice"
        assert sorted(seated + list(current.byes)) == everyone, "someone is left out"
        assert len(current.byes) == len(everyone) % 2
        assert all(len(table.seats) == 2 for table in current.tables)
        for player in everyone:
            assert (table_of(tournament, player) is None) == (player in current.byes)
        if clean_pairing_exists(previous):
            assert rematches_and_second_byes(previous, tournament) == 0
        tournament = play_round(tournament, rng, result)
        previous = tournament
        tournament = advance(tournament, NOW)
        if tournament.state == "finished":
            break
    assert len(tournament.rounds) == rounds
    byes = Counter(p for round_ in tournament.rounds for p in round_.byes)
    if rounds <= len(everyone):
        assert all(count <= 1 for count in byes.values())
