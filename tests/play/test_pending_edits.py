"""Which move a table's next panel round draws (`PendingEdits`): the newest of its game
handed in, whatever order the moves' tasks hand them in."""

from __future__ import annotations

from pydantic import BaseModel

from bot.play.panels import PendingEdits, SavedMove
from bot.table import Seat, Table


class State(BaseModel):
    turn: int


def a_move(rev: int, gid: str = "g1") -> SavedMove:
    table = Table(
        game="geschenkt",
        gid=gid,
        guild_id=10,
        channel_id=20,
        host="1",
        seats=[Seat(id="1", name="Ann"), Seat(id="2", name="Bo")],
    )
    return SavedMove(table, State(turn=rev), rev)


async def test_a_later_revision_replaces_the_move_to_draw() -> None:
    pending = PendingEdits(a_move(4))
    pending.mark(a_move(5), {"1"}, frozenset())
    assert pending.latest.rev == 5
    assert pending.stale == {"1"}


async def test_a_move_handed_in_late_doesn_t_replace_a_newer_one() -> None:
    pending = PendingEdits(a_move(4))
    pending.mark(a_move(6), {"1"}, frozenset())
    pending.mark(a_move(5), {"2"}, frozenset())
    assert pending.latest.rev == 6
    assert pending.stale == {"1", "2"}


async def test_a_new_game_s_move_doesn_t_replace_the_game_the_round_edits() -> None:
    pending = PendingEdits(a_move(4))
    pending.mark(a_move(9, gid="g2"), {"1"}, frozenset())
    assert (pending.latest.rev, pending.latest.table.gid) == (4, "g1")
