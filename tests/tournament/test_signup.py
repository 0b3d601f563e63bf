"""Sign-up: joining, leaving, cancelling and starting, with computers filling seats."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.tournament import TournamentError, cancel, computers_needed, create, join, leave, start
from bot.tournament.model import MAX_ENTRANTS
from tests.tournament.helpers import NOW, groups, swiss


def test_join_and_leave_bump_the_revision_and_keep_the_order() -> None:
    tournament = swiss(0, started=False)
    one = join(tournament, "1", "Ann")
    two = join(one, "2", "Bob", rating=1500)
    assert [(e.id, e.name, e.rating) for e in two.entrants] == [("1", "Ann", 0), ("2", "Bob", 1500)]
    assert (tournament.revision, one.revision, two.revision) == (0, 1, 2)
    left = leave(two, "1")
    assert [e.id for e in left.entrants] == ["2"]
    assert tournament.entrants == ()  # nothing was changed in place


def test_joining_twice_is_refused() -> None:
    tournament = join(swiss(0, started=False), "1", "Ann")
    with pytest.raises(TournamentError) as refused:
        join(tournament, "1", "Ann again")
    assert refused.value.code == "already_joined"


def test_leaving_without_having_joined_is_refused() -> None:
    with pytest.raises(TournamentError) as refused:
        leave(swiss(2, started=False), "stranger")
    assert refused.value.code == "not_joined"


def test_no_joining_or_leaving_after_the_start() -> None:
    tournament = swiss(4)
    with pytest.raises(TournamentError) as refused:
        join(tournament, "9", "Late")
    assert refused.value.code == "not_signup"
    with pytest.raises(TournamentError) as refused:
        leave(tournament, tournament.entrants[0].id)
    assert refused.value.code == "not_signup"
    with pytest.raises(TournamentError):
        start(tournament, NOW)


def test_a_full_sign_up_is_refused() -> None:
    tournament = swiss(MAX_ENTRANTS, started=False)
    with pytest.raises(TournamentError) as refused:
        join(tournament, "one-more", "One more")
    assert refused.value.code == "full"


def test_starting_needs_two_people() -> None:
    with pytest.raises(TournamentError) as refused:
        start(swiss(1, started=False), NOW)
    assert refused.value.code == "too_few"
    assert refused.value.params == {"entrants": 1, "needed": 2}


def test_start_pairs_round_one_and_runs() -> None:
    tournament = swiss(6, rounds=3)
    assert tournament.state == "running"
    assert len(tournament.rounds) == 1 and len(tournament.rounds[0].tables) == 3
    assert tournament.revision == 7  # six joins, then the start


def test_higher_ratings_come_first_in_the_initial_order() -> None:
    tournament = swiss(0, started=False)
    for player, rating in (("1", 1000), ("2", 1800), ("3", 1400), ("4", 0)):
        tournament = join(tournament, player, f"P{player}", rating=rating)
    started = start(tournament, NOW)
    assert [e.id for e in started.entrants] == ["2", "3", "1", "4"]
    # Dutch round one: the top half against the bottom half
    assert {frozenset(t.seats) for t in started.rounds[0].tables} == {
        frozenset({"2", "1"}),
        frozenset({"3", "4"}),
    }


def test_cancel_from_sign_up_or_mid_tournament_but_not_twice() -> None:
    assert cancel(swiss(3, started=False)).state == "cancelled"
    running = swiss(4)
    cancelled = cancel(running)
    assert cancelled.state == "cancelled" and cancelled.rounds == running.rounds
    with pytest.raises(TournamentError) as refused:
        cancel(cancelled)
    assert refused.value.code == "over"


@pytest.mark.parametrize(
    ("people", "fill", "computers"),
    [(15, True, 1), (16, True, 0), (15, False, 0), (3, True, 1)],
)
def test_swiss_computers_fill_an_odd_field(people: int, fill: bool, computers: int) -> None:
    tournament = swiss(people, fill=fill, started=False)
    assert computers_needed(tournament, people) == computers
    started = start(tournament, NOW)
    assert sum(e.computer for e in started.entrants) == computers
    assert len(started.rounds[0].byes) == (people + computers) % 2


@pytest.mark.parametrize(
    ("people", "sizes", "computers", "tables"),
    [
        (5, (3, 4), 1, [3, 3]),  # five can't sit at tables of three or four
        (2, (3, 7), 1, [3]),  # a short group
        (12, (3, 4), 0, [4, 4, 4]),
        (13, (3, 4), 0, [4, 3, 3, 3]),
        (12, (3, 7), 0, [6, 6]),
        (6, (4, 5), 2, [4, 4]),
        (9, (4, 5), 0, [5, 4]),
    ],
)
def test_groups_computers_fill_a_field_tables_cant_seat(
    people: int, sizes: tuple[int, int], computers: int, tables: list[int]
) -> None:
    started = groups(people, sizes=sizes, fill=True)
    assert sum(e.computer for e in started.entrants) == computers
    assert [len(t.seats) for t in started.rounds[0].tables] == tables


def test_groups_without_computers_refuse_a_field_tables_cant_seat() -> None:
    with pytest.raises(TournamentError) as refused:
        groups(5, sizes=(3, 4), fill=False)
    assert refused.value.code == "cannot_seat"
    assert refused.value.params == {"entrants": 5, "table_min": 3, "table_max": 4}


@pytest.mark.parametrize(
    ("format", "table_min", "table_max", "min_players"),
    [("swiss", 2, 3, 2), ("groups", 2, 4, 2), ("groups", 5, 4, 3), ("groups", 3, 4, 4)],
)
def test_impossible_settings_are_refused(
    format: str, table_min: int, table_max: int, min_players: int
) -> None:
    with pytest.raises(ValidationError):
        create(
            id="t",
            game="g",
            format=format,  # type: ignore[arg-type]
            round_count=3,
            round_seconds=60,
            computer_fill=False,
            organiser="1",
            min_players=min_players,
            table_min=table_min,
            table_max=table_max,
            seed=0,
        )


def test_computers_are_named_as_the_caller_asks() -> None:
    tournament = swiss(0, started=False)
    for player in ("1", "2", "3"):
        tournament = join(tournament, player, f"P{player}")
    started = start(tournament, NOW, computer_name=lambda n: f"Maschine {n}")
    assert [e.name for e in started.entrants if e.computer] == ["Maschine 1"]
