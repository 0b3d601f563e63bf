"""Withdrawing after the start: paired no more, points kept, the tournament ending
early when those left can't be paired."""

from __future__ import annotations

import random

import pytest

from bot.tournament import Round, TournamentError, advance, standings, withdraw
from tests.tournament.helpers import NOW, groups, people, play_round, swiss


def seated(played: Round) -> set[str]:
    return {p for table in played.tables for p in table.seats}


def test_a_withdrawn_swiss_player_is_not_paired_again_but_keeps_their_points() -> None:
    tournament = swiss(8, rounds=4)
    gone = people(8)[3][0]
    tournament = play_round(tournament, random.Random(1))
    before = next(line for line in standings(tournament) if line.id == gone)
    tournament = advance(withdraw(tournament, gone), NOW)

    assert tournament.current is not None and tournament.current.number == 2
    assert gone not in seated(tournament.current)
    assert len(tournament.current.byes) == 1, "seven left: one bye"
    after = next(line for line in standings(tournament) if line.id == gone)
    assert after.points == before.points and after.games == before.games


def test_withdrawing_mid_round_leaves_the_current_game_to_count() -> None:
    tournament = swiss(4, rounds=3)
    assert tournament.current is not None
    table = tournament.current.tables[0]
    gone = table.seats[0]
    tournament = withdraw(tournament, gone)
    assert tournament.current is not None and gone in tournament.current.tables[0].seats
    tournament = play_round(tournament, random.Random(2))
    assert tournament.current is not None and tournament.current.tables[0].result is not None


def test_grouped_rounds_reseat_those_left() -> None:
    tournament = groups(7, rounds=3, sizes=(3, 4))
    gone = people(7)[0][0]
    tournament = advance(withdraw(play_round(tournament, random.Random(3)), gone), NOW)
    assert tournament.current is not None
    assert seated(tournament.current) == {p for p, _ in people(7)} - {gone}
    assert sorted(len(t.seats) for t in tournament.current.tables) == [3, 3]


def test_a_field_that_cant_be_seated_any_more_ends_after_this_round() -> None:
    tournament = groups(3, rounds=3, sizes=(3, 4))
    tournament = withdraw(tournament, people(3)[1][0])
    tournament = advance(play_round(tournament, random.Random(4)), NOW)
    assert tournament.state == "finished" and len(tournament.rounds) == 1


def test_a_swiss_ends_when_only_one_person_is_left() -> None:
    tournament = swiss(2, rounds=3)
    tournament = withdraw(tournament, people(2)[0][0])
    tournament = advance(play_round(tournament, random.Random(5)), NOW)
    assert tournament.state == "finished"


def test_withdrawing_twice_or_before_the_start_is_refused() -> None:
    tournament = swiss(4)
    player = people(4)[0][0]
    once = withdraw(tournament, player)
    with pytest.raises(TournamentError) as twice:
        withdraw(once, player)
    assert twice.value.code == "withdrawn"
    with pytest.raises(TournamentError) as early:
        withdraw(swiss(4, started=False), player)
    assert early.value.code == "not_running"
    with pytest.raises(TournamentError) as stranger:
        withdraw(tournament, "999")
    assert stranger.value.code == "not_joined"
