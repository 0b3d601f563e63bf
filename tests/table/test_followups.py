"""Which follow-ups a game waits for (`bot.play.followups.plan`), from the table alone."""

from __future__ import annotations

from pydantic import BaseModel

from bot.games import game
from bot.play.followups import FollowUp, plan
from bot.table import Seat, Table


def running(game_name: str, seats: list[Seat], **changes: object) -> tuple[Table, BaseModel]:
    spec = game(game_name)
    state = spec.engine.new_game([seat.id for seat in seats], 7)
    table = Table(
        game=game_name,
        guild_id=1,
        channel_id=2,
        host=seats[0].id,
        seats=seats,
        phase="playing",
        state=state.model_dump(mode="json"),
    ).model_copy(update=changes)
    return table, state


def test_a_computer_to_act_gets_its_move_planned() -> None:
    seats = [Seat(id="ai:1", name="🤖 Easy", level="easy"), Seat(id="bob", name="Bob")]
    table, state = running("draughts", seats, turn_deadline=None)
    assert plan(table, state, game("draughts").adapter) == [FollowUp("computer", "ai:1")]


def test_a_person_with_a_running_clock_gets_the_clock() -> None:
    seats = [Seat(id="ann", name="Ann"), Seat(id="bob", name="Bob")]
    table, state = running("draughts", seats, turn_deadline=1234.0)
    assert plan(table, state, game("draughts").adapter) == [FollowUp("clock", "ann")]


def test_no_deadline_and_no_computer_waits_for_the_person() -> None:
    seats = [Seat(id="ann", name="Ann"), Seat(id="bob", name="Bob")]
    table, state = running("draughts", seats, turn_deadline=None)
    assert plan(table, state, game("draughts").adapter) == []


def test_a_finished_or_unstarted_game_plans_nothing() -> None:
    seats = [Seat(id="ai:1", name="🤖 Easy", level="easy"), Seat(id="bob", name="Bob")]
    table, state = running("draughts", seats, phase="over")
    assert plan(table, state, game("draughts").adapter) == []
