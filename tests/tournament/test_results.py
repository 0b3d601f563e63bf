"""Results, no-shows and closing a round: idempotent, and refused where they can't be."""

from __future__ import annotations

import random

import pytest

from bot.tournament import (
    TournamentError,
    advance,
    cancel,
    close_round,
    overdue,
    record_forfeit,
    record_result,
    round_complete,
    table_of,
)
from bot.tournament.scoring import table_scores, totals
from tests.tournament.helpers import NOW, ROUND_SECONDS, groups, play_round, swiss


def test_recording_the_same_result_twice_changes_nothing() -> None:
    tournament = swiss(4, rounds=2)
    table = tournament.rounds[0].tables[0]
    a, b = table.seats
    once = record_result(tournament, table.id, {a: 1, b: 2})
    twice = record_result(once, table.id, {a: 1, b: 2})
    assert once.revision == tournament.revision + 1
    assert twice is once


def test_a_different_result_for_a_finished_table_is_refused() -> None:
    tournament = swiss(4, rounds=2)
    table = tournament.rounds[0].tables[0]
    a, b = table.seats
    done = record_result(tournament, table.id, {a: 1, b: 2})
    with pytest.raises(TournamentError) as refused:
        record_result(done, table.id, {a: 2, b: 1})
    assert refused.value.code == "table_finished"
    assert table.id in str(refused.value)


def test_a_result_for_an_unknown_table_is_refused() -> None:
    tournament = swiss(4, rounds=2)
    with pytest.raises(TournamentError) as refused:
        record_result(tournament, "r9t1", {})
    assert refused.value.code == "unknown_table"
    assert "r9t1" in str(refused.value)


def test_an_earlier_rounds_table_takes_its_own_result_again_but_no_other() -> None:
    tournament = swiss(4, rounds=2)
    table = tournament.rounds[0].tables[0]
    a, b = table.seats
    tournament = record_result(tournament, table.id, {a: 1, b: 2})
    tournament = advance(play_round(tournament, random.Random(0)), NOW)
    assert record_result(tournament, table.id, {a: 1, b: 2}) is tournament
    with pytest.raises(TournamentError) as refused:
        record_result(tournament, table.id, {a: 1, b: 1})
    assert refused.value.code == "table_finished"


@pytest.mark.parametrize(
    "places",
    [
        {"x": 1, "y": 2},  # strangers
        {"A": 1},  # a seat missing
        {"A": 2, "B": 2},  # nobody first
        {"A": 1, "B": 3},  # a gap
    ],
)
def test_results_that_dont_fit_the_table_are_refused(places: dict[str, int]) -> None:
    tournament = swiss(4, rounds=2)
    table = tournament.rounds[0].tables[0]
    a, b = table.seats
    named = {{"A": a, "B": b}.get(player, player): place for player, place in places.items()}
    with pytest.raises(TournamentError) as refused:
        record_result(tournament, table.id, named)
    assert refused.value.code == "bad_result"


def test_no_result_before_the_start_or_after_a_cancel() -> None:
    tournament = swiss(4, rounds=2, started=False)
    with pytest.raises(TournamentError) as refused:
        record_result(tournament, "r1t1", {})
    assert refused.value.code == "unknown_table"
    cancelled = cancel(swiss(4, rounds=2))
    table = cancelled.rounds[0].tables[0]
    with pytest.raises(TournamentError) as refused:
        record_result(cancelled, table.id, {table.seats[0]: 1, table.seats[1]: 2})
    assert refused.value.code == "not_running"


def test_the_round_completes_with_its_last_table_and_only_then_advances() -> None:
    tournament = swiss(4, rounds=1)
    first, second = tournament.rounds[0].tables
    tournament = record_result(tournament, first.id, {first.seats[0]: 1, first.seats[1]: 2})
    assert not round_complete(tournament)
    with pytest.raises(TournamentError) as refused:
        advance(tournament, NOW)
    assert refused.value.code == "round_open"
    tournament = record_result(tournament, second.id, {second.seats[0]: 1, second.seats[1]: 1})
    assert round_complete(tournament)
    finished = advance(tournament, NOW)
    assert finished.state == "finished"
    with pytest.raises(TournamentError) as refused:
        advance(finished, NOW)
    assert refused.value.code == "not_running"


# ----- no-shows ------------------------------------------------------------------------


def test_a_swiss_no_show_loses_and_the_opponent_wins() -> None:
    tournament = swiss(4, rounds=2)
    table = tournament.rounds[0].tables[0]
    present, absent = table.seats
    tournament = record_forfeit(tournament, table.id, [absent])
    ended = tournament.rounds[0].tables[0]
    assert ended.finished and ended.result is not None
    assert ended.result.forfeits == (absent,)
    assert table_scores(ended) == {present: 1, absent: 0}
    assert record_forfeit(tournament, table.id, [absent]) is tournament
    with pytest.raises(TournamentError) as refused:
        record_forfeit(tournament, table.id, [present])
    assert refused.value.code == "table_finished"


def test_when_nobody_shows_everybody_forfeits() -> None:
    tournament = swiss(4, rounds=2)
    table = tournament.rounds[0].tables[0]
    tournament = record_forfeit(tournament, table.id, table.seats)
    ended = tournament.rounds[0].tables[0]
    assert ended.result is not None and ended.result.places == {}
    assert table_scores(ended) == dict.fromkeys(table.seats, 0)


def test_a_group_table_plays_on_without_its_no_show_who_takes_last_place() -> None:
    tournament = groups(12, sizes=(4, 4))
    table = tournament.rounds[0].tables[0]
    absent, *present = table.seats
    tournament = record_forfeit(tournament, table.id, [absent])
    waiting = tournament.rounds[0].tables[0]
    assert not waiting.finished and waiting.absent == (absent,)
    with pytest.raises(TournamentError) as refused:
        record_result(tournament, table.id, {p: i + 1 for i, p in enumerate(table.seats)})
    assert refused.value.code == "bad_result"
    tournament = record_result(tournament, table.id, {p: i + 1 for i, p in enumerate(present)})
    scores = table_scores(tournament.rounds[0].tables[0])
    assert scores == {
        present[0]: 1,
        present[1]: pytest.approx(2 / 3),
        present[2]: pytest.approx(1 / 3),
        absent: 0,
    }


def test_a_group_table_left_below_the_games_minimum_ends_at_once() -> None:
    tournament = groups(12, sizes=(4, 4))
    table = tournament.rounds[0].tables[0]
    tournament = record_forfeit(tournament, table.id, table.seats[:2])
    ended = tournament.rounds[0].tables[0]
    assert ended.result is not None
    assert ended.result.places == dict.fromkeys(table.seats[2:], 1)
    # the two who came share first and second of four: (1 + 2/3) / 2 each
    assert table_scores(ended) == {
        table.seats[0]: 0,
        table.seats[1]: 0,
        table.seats[2]: pytest.approx(5 / 6),
        table.seats[3]: pytest.approx(5 / 6),
    }


def test_computers_and_strangers_are_never_no_shows() -> None:
    tournament = swiss(3, rounds=2, fill=True)
    table = next(t for t in tournament.rounds[0].tables if "ai:1" in t.seats)
    with pytest.raises(TournamentError) as refused:
        record_forfeit(tournament, table.id, ["ai:1"])
    assert refused.value.code == "computer_absent"
    with pytest.raises(TournamentError) as refused:
        record_forfeit(tournament, table.id, ["nobody"])
    assert refused.value.code == "not_seated"


# ----- closing a round -----------------------------------------------------------------


def test_closing_a_round_ends_open_tables_no_shows_forfeiting() -> None:
    tournament = swiss(8, rounds=2)
    tables = tournament.rounds[0].tables
    finished, drawn, half, empty = tables
    tournament = record_result(
        tournament, finished.id, {finished.seats[0]: 2, finished.seats[1]: 1}
    )
    came = [*drawn.seats, half.seats[0]]
    closed = close_round(tournament, came)
    assert round_complete(closed)
    points = totals(closed)
    assert [points[p] for p in finished.seats] == [0, 1]
    assert [points[p] for p in drawn.seats] == [0.5, 0.5]
    assert [points[p] for p in half.seats] == [1, 0]
    assert [points[p] for p in empty.seats] == [0, 0]
    result = closed.rounds[0].tables[3].result
    assert result is not None and result.forfeits == empty.seats
    assert close_round(closed, came) is closed
    assert advance(closed, NOW).rounds[1].number == 2


def test_computers_count_as_there_when_a_round_is_closed() -> None:
    tournament = swiss(3, rounds=2, fill=True)
    table = next(t for t in tournament.rounds[0].tables if "ai:1" in t.seats)
    person = next(p for p in table.seats if p != "ai:1")
    closed = close_round(tournament, [])
    assert totals(closed)["ai:1"] == 1 and totals(closed)[person] == 0


def test_the_round_clock_and_my_table() -> None:
    tournament = swiss(4, rounds=2)
    current = tournament.rounds[0]
    assert current.deadline == NOW + ROUND_SECONDS
    assert not overdue(tournament, NOW + ROUND_SECONDS - 1)
    assert overdue(tournament, NOW + ROUND_SECONDS)
    player = current.tables[1].seats[1]
    assert table_of(tournament, player) == current.tables[1]
    assert table_of(tournament, "stranger") is None
    closed = close_round(tournament, [])
    assert not overdue(closed, NOW + 10 * ROUND_SECONDS)
    assert not overdue(cancel(tournament), NOW + 10 * ROUND_SECONDS)
