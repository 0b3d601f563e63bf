"""Swiss tournaments of two-player games, start to final standings."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

import bot.tournament.swiss as swiss_module
from bot.engines.base import PlayerId
from bot.tournament import Table, Tournament, advance, record_result, standings
from bot.tournament.scoring import totals
from bot.tournament.swiss import pair_swiss
from tests.tournament.helpers import NOW, play_out, play_round, rematches, swiss


def decisive(table: Table, rng: random.Random) -> dict[PlayerId, int]:
    """One of the two wins, at random."""
    winner = rng.choice(table.seats)
    return {player: 1 if player == winner else 2 for player in table.seats}


def test_sixteen_players_four_rounds_pair_within_score_groups_to_one_winner() -> None:
    """With 2⁴ players and decisive games a Swiss keeps every pair on equal points,
    so the points end binomial: one 4/4, four 3/4, six 2/4, four 1/4, one 0/4."""
    tournament = swiss(16, rounds=4)
    rng = random.Random(5)
    gaps = []
    while tournament.state == "running":
        current = tournament.current
        assert current is not None
        assert len(current.tables) == 8 and current.byes == ()
        points = totals(tournament)
        gaps += [abs(points[a] - points[b]) for a, b in (table.seats for table in current.tables)]
        tournament = play_round(tournament, rng, decisive)
        tournament = advance(tournament, NOW)
    assert tournament.state == "finished"
    assert len(tournament.rounds) == 4
    assert gaps == [0] * 32
    assert rematches(tournament) == 0
    final = standings(tournament)
    assert Counter(line.points for line in final) == {4: 1, 3: 4, 2: 6, 1: 4, 0: 1}
    assert final[0].place == 1 and final[0].points == 4 and final[1].place == 2
    assert [line.place for line in final] == sorted(line.place for line in final)
    assert sum(line.points for line in final) == 32
    assert all(line.games == 4 and line.byes == 0 for line in final)


def test_fifteen_people_get_a_computer_and_no_byes() -> None:
    tournament = swiss(15, rounds=4, fill=True)
    computers = [e for e in tournament.entrants if e.computer]
    assert [(e.id, e.level) for e in computers] == [("ai:1", "normal")]
    assert len(tournament.entrants) == 16
    finished = play_out(tournament, seed=3, results=decisive)
    assert all(round_.byes == () and len(round_.tables) == 8 for round_ in finished.rounds)
    assert rematches(finished) == 0
    final = standings(finished)
    assert len(final) == 16 and sum(line.computer for line in final) == 1
    assert Counter(line.points for line in final) == {4: 1, 3: 4, 2: 6, 1: 4, 0: 1}


def test_fifteen_people_without_computers_take_one_bye_each_at_most() -> None:
    finished = play_out(swiss(15, rounds=4, fill=False), seed=2)
    byes = [player for round_ in finished.rounds for player in round_.byes]
    assert len(byes) == 4 and len(set(byes)) == 4
    assert all(len(round_.tables) == 7 for round_ in finished.rounds)
    final = {line.id: line for line in standings(finished)}
    assert all(final[player].byes == 1 for player in byes)


def test_the_bye_scores_a_win_and_goes_to_the_lowest_score() -> None:
    tournament = swiss(5, rounds=3, fill=False)
    rng = random.Random(0)
    tournament = play_round(tournament, rng, decisive)
    points = totals(tournament)
    first_bye = tournament.rounds[0].byes[0]
    assert points[first_bye] == 1
    tournament = advance(tournament, NOW)
    second_bye = tournament.rounds[1].byes[0]
    assert second_bye != first_bye
    assert points[second_bye] == min(points.values())


def test_pairing_is_decided_by_the_seed() -> None:
    one = play_out(swiss(12, rounds=3, seed=7), seed=1)
    again = play_out(swiss(12, rounds=3, seed=7), seed=1)
    other = swiss(12, rounds=3, seed=8)
    assert one == again
    assert one.rounds[0].tables != other.rounds[0].tables


def test_the_library_pairs_ordinary_rounds() -> None:
    tournament = play_round(swiss(10, rounds=3), random.Random(1))
    tournament = advance(tournament, NOW)
    tournament = play_round(tournament, random.Random(2))
    assert pair_swiss(tournament).by_library


def test_forced_rematches_are_as_few_as_can_be() -> None:
    """Four players, five rounds: after three everyone has met everyone; rounds 4 and
    5 then rematch exactly two pairs each, by the fallback."""
    tournament = swiss(4, rounds=5)
    rng = random.Random(4)
    for _ in range(3):
        tournament = advance(play_round(tournament, rng), NOW)
    assert rematches(tournament) == 0 + 2  # round 4 already paired, with two rematches
    assert not pair_swiss(_without_last_round(tournament)).by_library
    finished = play_out(tournament, seed=1)
    assert rematches(finished) == 4


def test_three_players_share_the_byes_before_anyone_takes_a_second() -> None:
    finished = play_out(swiss(3, rounds=4, fill=False), seed=6)
    byes = Counter(player for round_ in finished.rounds for player in round_.byes)
    assert sorted(byes.values()) == [1, 1, 2]
    assert set(byes) == {e.id for e in finished.entrants}


def test_a_swiss_of_two_plays_them_against_each_other_every_round() -> None:
    finished = play_out(swiss(2, rounds=3), seed=0)
    assert [len(r.tables) for r in finished.rounds] == [1, 1, 1]
    assert rematches(finished) == 2


def test_results_shape_the_next_round() -> None:
    """Round 2 pairs round 1's winners together."""
    tournament = swiss(8, rounds=2)
    first = tournament.rounds[0]
    winners = set()
    for table in first.tables:
        tournament = record_result(tournament, table.id, {table.seats[0]: 1, table.seats[1]: 2})
        winners.add(table.seats[0])
    tournament = advance(tournament, NOW)
    for table in tournament.rounds[1].tables:
        assert (table.seats[0] in winners) == (table.seats[1] in winners)


def _without_last_round(tournament: Tournament) -> Tournament:
    return tournament.model_copy(update={"rounds": tournament.rounds[:-1]})


def test_the_fallback_avoids_rematches_and_second_byes_it_can(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the library out of the way, the least-cost pairing alone still pairs five
    players through five rounds without a rematch, each taking the bye once."""
    monkeypatch.setattr(swiss_module, "_by_library", lambda *_: None)
    finished = play_out(swiss(5, rounds=5, fill=False), seed=9)
    assert rematches(finished) == 0
    byes = Counter(p for round_ in finished.rounds for p in round_.byes)
    assert sorted(byes.values()) == [1, 1, 1, 1, 1]


def test_the_fallback_pairs_within_score_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(swiss_module, "_by_library", lambda *_: None)
    tournament = swiss(8, rounds=2)
    rng = random.Random(1)
    tournament = advance(play_round(tournament, rng, decisive), NOW)
    points = totals(tournament)
    assert all(points[a] == points[b] for a, b in (t.seats for t in tournament.rounds[1].tables))


def test_an_incomplete_answer_from_the_library_is_not_trusted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pairing that leaves someone out goes to the fallback, never to the tables."""
    board = SimpleNamespace(white_id=1, black_id=2, is_bye=False)
    monkeypatch.setattr(swiss_module, "pair_canonical", lambda _: SimpleNamespace(pairings=[board]))
    tournament = swiss(4, rounds=2)
    pairing = pair_swiss(tournament)
    assert not pairing.by_library
    seated = sorted(p for pair in pairing.pairs for p in pair)
    assert seated == sorted(e.id for e in tournament.entrants)
