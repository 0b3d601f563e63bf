"""Points by finishing place, and the standings' tie-breaks on hand-worked events."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import Entrant, Round, Table, TableResult, Tournament, ranking, standings
from bot.tournament.model import Format
from bot.tournament.scoring import position_points, result_scores


def test_places_score_evenly_from_one_to_nothing() -> None:
    assert [position_points(p, 3) for p in (1, 2, 3)] == [1, Fraction(1, 2), 0]
    assert [position_points(p, 4) for p in (1, 2, 3, 4)] == [1, Fraction(2, 3), Fraction(1, 3), 0]


def test_two_seats_score_as_swiss() -> None:
    win = result_scores(("a", "b"), TableResult(places={"a": 1, "b": 2}))
    draw = result_scores(("a", "b"), TableResult(places={"a": 1, "b": 1}))
    assert win == {"a": Fraction(1), "b": Fraction(0)}
    assert draw == {"a": Fraction(1, 2), "b": Fraction(1, 2)}


def test_shared_places_share_the_positions_they_cover() -> None:
    seats = ("a", "b", "c", "d")
    scores = result_scores(seats, TableResult(places={"a": 1, "b": 2, "c": 2, "d": 4}))
    assert scores == {"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 2), "d": 0}


def test_no_shows_score_nothing_and_the_others_keep_the_top_positions() -> None:
    scores = result_scores(("a", "b", "c"), TableResult(places={"a": 1, "b": 2}, forfeits=("c",)))
    assert scores == {"a": 1, "b": Fraction(1, 2), "c": 0}


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(min_value=0, max_value=6), min_size=2, max_size=7))
def test_a_table_hands_out_half_its_seats_in_points(scores: list[int]) -> None:
    """Whatever the ties: n/2 points, each between 0 and 1, a better place more."""
    seats = [f"s{i}" for i in range(len(scores))]
    ordered = sorted(scores, reverse=True)
    places = {seat: ordered.index(score) + 1 for seat, score in zip(seats, scores, strict=True)}
    points = result_scores(seats, TableResult(places=places))
    assert sum(points.values()) == Fraction(len(seats), 2)
    assert all(0 <= value <= 1 for value in points.values())
    for a in seats:
        for b in seats:
            if places[a] < places[b]:
                assert points[a] > points[b]


def _event(
    format: Format, rounds: list[list[tuple[tuple[str, ...], dict[str, int]]]]
) -> Tournament:
    players = sorted({p for tables in rounds for seats, _ in tables for p in seats})
    return Tournament(
        id="t",
        game="g",
        format=format,
        round_count=len(rounds),
        round_seconds=60,
        computer_fill=False,
        min_players=2 if format == "swiss" else 3,
        table_min=2 if format == "swiss" else 3,
        table_max=2 if format == "swiss" else 4,
        organiser="a",
        seed=0,
        state="finished",
        entrants=tuple(Entrant(id=p, name=p.upper()) for p in players),
        rounds=tuple(
            Round(
                number=n + 1,
                opened_at=0,
                deadline=60,
                tables=tuple(
                    Table(id=f"r{n + 1}t{i + 1}", seats=seats, result=TableResult(places=places))
                    for i, (seats, places) in enumerate(tables)
                ),
            )
            for n, tables in enumerate(rounds)
        ),
    )


def test_swiss_buchholz_and_sonneborn_berger_by_hand() -> None:
    """Round 1: a beats b, c draws d. Round 2: a draws c, b beats d.
    Points a 1½, b 1, c 1, d ½; every Buchholz is 2; Sonneborn–Berger a 1 + ½ = 1½,
    b 0 + ½ = ½, c ¼ + ¾ = 1, d ½ + 0 = ½: c is second, ahead of b."""
    event = _event(
        "swiss",
        [
            [(("a", "b"), {"a": 1, "b": 2}), (("c", "d"), {"c": 1, "d": 1})],
            [(("a", "c"), {"a": 1, "c": 1}), (("b", "d"), {"b": 1, "d": 2})],
        ],
    )
    lines = {line.id: line for line in standings(event)}
    assert {p: lines[p].points for p in "abcd"} == {"a": 1.5, "b": 1, "c": 1, "d": 0.5}
    assert {lines[p].buchholz for p in "abcd"} == {2}
    assert {p: lines[p].sonneborn_berger for p in "abcd"} == {"a": 1.5, "b": 0.5, "c": 1, "d": 0.5}
    assert ranking(event) == [(1, "a"), (2, "c"), (3, "b"), (4, "d")]
    assert lines["a"].firsts == 2 and lines["d"].firsts == 1


def test_group_tie_breaks_average_the_table_mates() -> None:
    """a 1st, b 2nd, c 3rd: points 1, ½, 0; Buchholz (mates' mean) ¼, ½, ¾;
    Sonneborn–Berger ¼, ¼, 0."""
    event = _event("groups", [[(("a", "b", "c"), {"a": 1, "b": 2, "c": 3})]])
    lines = {line.id: line for line in standings(event)}
    assert [lines[p].buchholz for p in "abc"] == [0.25, 0.5, 0.75]
    assert [lines[p].sonneborn_berger for p in "abc"] == [0.25, 0.25, 0]
    assert [lines[p].place for p in "abc"] == [1, 2, 3]


def test_entrants_equal_on_everything_share_a_place() -> None:
    event = _event("swiss", [[(("a", "b"), {"a": 1, "b": 1}), (("c", "d"), {"c": 1, "d": 2})]])
    assert ranking(event) == [(1, "c"), (2, "a"), (2, "b"), (4, "d")]
    assert [line.name for line in standings(event)] == ["C", "A", "B", "D"]


def test_a_bye_scores_a_win_but_no_tie_break() -> None:
    event = _event("swiss", [[(("a", "b"), {"a": 1, "b": 2})]])
    with_bye = event.model_copy(
        update={
            "entrants": (*event.entrants, Entrant(id="c", name="C")),
            "rounds": (event.rounds[0].model_copy(update={"byes": ("c",)}),),
        }
    )
    lines = {line.id: line for line in standings(with_bye)}
    assert (lines["c"].points, lines["c"].buchholz, lines["c"].byes, lines["c"].games) == (
        1,
        0,
        1,
        0,
    )
    # a beat b, who has nothing: a's Buchholz is 0 too, so a and c share first
    assert (lines["a"].place, lines["c"].place, lines["b"].place) == (1, 1, 3)


def test_buchholz_comes_before_sonneborn_berger() -> None:
    """e, b and c have a point each; e met the strongest (Buchholz 2½ against 1½) but
    beat only the weak f (Sonneborn–Berger ½ against ¾): e is second, b and c share
    third."""
    event = _event(
        "swiss",
        [
            [
                (("d", "a"), {"d": 1, "a": 2}),
                (("e", "f"), {"e": 1, "f": 2}),
                (("b", "c"), {"b": 1, "c": 1}),
            ],
            [
                (("f", "c"), {"f": 1, "c": 1}),
                (("d", "e"), {"d": 1, "e": 2}),
                (("a", "b"), {"a": 1, "b": 1}),
            ],
        ],
    )
    lines = {line.id: line for line in standings(event)}
    assert (lines["e"].buchholz, lines["e"].sonneborn_berger) == (2.5, 0.5)
    assert (lines["b"].buchholz, lines["b"].sonneborn_berger) == (1.5, 0.75)
    assert ranking(event) == [(1, "d"), (2, "e"), (3, "b"), (3, "c"), (5, "a"), (6, "f")]
