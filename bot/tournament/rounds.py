"""A running tournament: pair rounds, record results and no-shows, close rounds, finish.

Each function takes a `Tournament` and returns a new one, ``revision`` one higher; a
call that changes nothing (the same result recorded again, a round closed twice)
returns the tournament it was given, so a retried click or a replayed event after a
restart does no harm. Refusals raise `TournamentError` with a reason code.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from bot.engines.base import PlayerId
from bot.tournament.errors import TournamentError
from bot.tournament.groups import group_tables, table_sizes
from bot.tournament.model import Round, Table, TableResult, Tournament
from bot.tournament.scoring import meetings, totals
from bot.tournament.standings import ranking
from bot.tournament.swiss import pair_swiss


def round_complete(tournament: Tournament) -> bool:
    """Whether the current round has ended at every table (False before the start)."""
    current = tournament.current
    return current is not None and current.complete


def overdue(tournament: Tournament, now: float) -> bool:
    """Whether the running round's clock has run out with tables still open."""
    current = tournament.current
    if current is None or tournament.state != "running":
        return False
    return not current.complete and now >= current.deadline


def table_of(tournament: Tournament, player: PlayerId) -> Table | None:
    """``player``'s table in the current round ("my next table"); None for a bye, or
    when no round is on."""
    current = tournament.current
    if current is None or tournament.state != "running":
        return None
    return next((table for table in current.tables if player in table.seats), None)


def pair_next_round(tournament: Tournament, now: float) -> Tournament:
    """Pair the next round; its clock starts ``now``."""
    _require_running(tournament)
    current = tournament.current
    if current is not None and not current.complete:
        raise TournamentError(
            "round_open", f"round {current.number} is still being played", round=current.number
        )
    if len(tournament.rounds) >= tournament.round_count:
        raise TournamentError(
            "no_more_rounds",
            f"all {tournament.round_count} rounds are paired",
            rounds=tournament.round_count,
        )
    number = len(tournament.rounds) + 1
    byes: list[PlayerId] = []
    if tournament.format == "swiss":
        pairing = pair_swiss(tournament)
        seatings: list[tuple[PlayerId, ...]] = [tuple(pair) for pair in pairing.pairs]
        byes = pairing.byes
    else:
        sizes = table_sizes(len(tournament.paired), tournament.table_min, tournament.table_max)
        if sizes is None:
            raise TournamentError(
                "cannot_seat", f"{len(tournament.paired)} entrants left can't be seated"
            )
        paired = {entrant.id for entrant in tournament.paired}
        ranked = [player for _, player in ranking(tournament) if player in paired]
        seatings = group_tables(
            ranked,
            totals(tournament),
            meetings(tournament),
            sizes,
            seed=tournament.seed + number,
        )
    tables = tuple(
        Table(id=f"r{number}t{index}", seats=seats) for index, seats in enumerate(seatings, 1)
    )
    new = Round(
        number=number,
        tables=tables,
        byes=tuple(byes),
        opened_at=now,
        deadline=now + tournament.round_seconds,
    )
    return _changed(tournament, rounds=(*tournament.rounds, new))


def advance(tournament: Tournament, now: float) -> Tournament:
    """After a complete round: pair the next one, or finish after the last."""
    _require_running(tournament)
    if not round_complete(tournament):
        current = tournament.current
        number = current.number if current else 0
        raise TournamentError("round_open", f"round {number} is still being played", round=number)
    if len(tournament.rounds) >= tournament.round_count or not can_pair(tournament):
        return _changed(tournament, state="finished")
    return pair_next_round(tournament, now)


def can_pair(tournament: Tournament) -> bool:
    """Whether those who haven't withdrawn can still be paired, with a person among
    them: two or more for a Swiss, enough to fill tables of the tournament's size for
    grouped rounds. If not, the tournament ends after the current round."""
    people = [entrant for entrant in tournament.paired if not entrant.computer]
    if tournament.format == "swiss":
        return len(people) >= 1 and len(tournament.paired) >= 2
    sizes = table_sizes(len(tournament.paired), tournament.table_min, tournament.table_max)
    return bool(people) and sizes is not None


def record_result(
    tournament: Tournament, table_id: str, places: Mapping[PlayerId, int]
) -> Tournament:
    """A table's game ended: each seat's place (1 = first, ties 1, 1, 3 style), the
    seats recorded absent apart. Recording the same result again changes nothing."""
    index, table = _locate(tournament, table_id)
    result = TableResult(places=dict(places), forfeits=table.absent)
    if table.result == result:
        return tournament
    _require_running(tournament)
    if table.result is not None:
        raise TournamentError(
            "table_finished", f"table {table_id} already has its result", table=table_id
        )
    present = set(table.seats) - set(table.absent)
    if set(places) != present:
        raise TournamentError(
            "bad_result",
            f"table {table_id} seats {sorted(present)}, not {sorted(places)}",
            table=table_id,
        )
    if not _well_placed(places):
        raise TournamentError(
            "bad_result", f"places {dict(places)} are not 1, 1, 3 style", table=table_id
        )
    return _with_table(tournament, index, table.model_copy(update={"result": result}))


def record_forfeit(
    tournament: Tournament, table_id: str, absent: Collection[PlayerId]
) -> Tournament:
    """``absent`` didn't show within the round clock: they forfeit (no points, last
    places). If fewer than the game's minimum are left, the table ends now, those
    who came sharing the first places (a lone Swiss player wins); nobody left: all
    forfeit. Otherwise the table waits for the others' result (`record_result`)."""
    index, table = _locate(tournament, table_id)
    stray = set(absent) - set(table.seats)
    if stray:
        raise TournamentError(
            "not_seated", f"{sorted(stray)} don't sit at {table_id}", table=table_id
        )
    computers = [p for p in absent if (e := tournament.entrant(p)) is not None and e.computer]
    if computers:
        raise TournamentError(
            "computer_absent", f"computers {computers} are never absent", table=table_id
        )
    if table.result is not None and set(absent) <= set(table.result.forfeits):
        return tournament
    _require_running(tournament)
    if table.result is not None:
        raise TournamentError(
            "table_finished", f"table {table_id} already has its result", table=table_id
        )
    gone = tuple(p for p in table.seats if p in set(absent) | set(table.absent))
    if gone == table.absent:
        return tournament
    present = [p for p in table.seats if p not in gone]
    result = None
    if len(present) < tournament.min_players:
        result = TableResult(places=dict.fromkeys(present, 1), forfeits=gone)
    updated = table.model_copy(update={"absent": gone, "result": result})
    return _with_table(tournament, index, updated)


def close_round(tournament: Tournament, showed_up: Collection[PlayerId]) -> Tournament:
    """The organiser ends the round: every table still open ends now. Who never
    showed (not in ``showed_up``; computers always count as there) forfeits; those who
    came share the first places, as if their unfinished game were drawn. A round
    already complete is left as it is."""
    _require_running(tournament)
    current = tournament.current
    if current is None or current.complete:
        return tournament
    came = set(showed_up) | {e.id for e in tournament.entrants if e.computer}
    tables = []
    for table in current.tables:
        if table.result is None:
            gone = tuple(p for p in table.seats if p in table.absent or p not in came)
            present = [p for p in table.seats if p not in gone]
            result = TableResult(places=dict.fromkeys(present, 1), forfeits=gone)
            table = table.model_copy(update={"absent": gone, "result": result})
        tables.append(table)
    closed = current.model_copy(update={"tables": tuple(tables)})
    return _changed(tournament, rounds=(*tournament.rounds[:-1], closed))


# ----- helpers ------------------------------------------------------------------------


def _require_running(tournament: Tournament) -> None:
    if tournament.state != "running":
        raise TournamentError(
            "not_running", f"the tournament is {tournament.state}", state=tournament.state
        )


def _locate(tournament: Tournament, table_id: str) -> tuple[int, Table]:
    """The table ``table_id`` and its index in its round (a table of an earlier round
    is finished, as its round is, so only a repeat of its result gets past the
    caller's checks); refuses unknown tables."""
    for round_ in reversed(tournament.rounds):
        for index, table in enumerate(round_.tables):
            if table.id == table_id:
                return index, table
    raise TournamentError(
        "unknown_table", f"no table {table_id} in this tournament", table=table_id
    )


def _well_placed(places: Mapping[PlayerId, int]) -> bool:
    """Each place is one more than the number of players strictly ahead."""
    values = list(places.values())
    return all(place == 1 + sum(1 for other in values if other < place) for place in values)


def _with_table(tournament: Tournament, index: int, table: Table) -> Tournament:
    current = tournament.current
    assert current is not None and current.tables[index].id == table.id, "open tables are current"
    tables = (*current.tables[:index], table, *current.tables[index + 1 :])
    updated = current.model_copy(update={"tables": tables})
    return _changed(tournament, rounds=(*tournament.rounds[:-1], updated))


def _changed(tournament: Tournament, **update: Any) -> Tournament:
    return tournament.model_copy(update={**update, "revision": tournament.revision + 1})
