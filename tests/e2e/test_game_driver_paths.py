"""Self-test of the game driver's check of computer moves (`reaches`): a stored game
after a person's move must be reached by exactly as many computer moves as the
revisions count, no more and no fewer."""

from __future__ import annotations

from bot.engines.geschenkt import ENGINE, REFUSE, TAKE, GeschenktState
from tests.e2e.game_driver import reaches

PLAYERS = ["ai:1", "ai:2", "alice"]


def dealt() -> GeschenktState:
    """A deal where ``ai:1`` acts first, then ``ai:2``, then alice."""
    state = ENGINE.new_game(PLAYERS, 0, None)
    assert ENGINE.to_act(state) == ["ai:1"]
    return state


def test_two_refusals_reach_the_persons_turn_in_exactly_two_moves() -> None:
    start = dealt()
    refused_twice = ENGINE.apply(ENGINE.apply(start, "ai:1", REFUSE), "ai:2", REFUSE)
    assert ENGINE.to_act(refused_twice) == ["alice"]
    assert reaches(ENGINE, start, refused_twice, 2)
    assert not reaches(ENGINE, start, refused_twice, 1)
    assert not reaches(ENGINE, start, refused_twice, 3)


def test_a_take_and_two_refusals_take_three_moves() -> None:
    start = dealt()
    taken = ENGINE.apply(start, "ai:1", TAKE)
    assert ENGINE.to_act(taken) == ["ai:1"], "the taker turns the next card"
    target = ENGINE.apply(ENGINE.apply(taken, "ai:1", REFUSE), "ai:2", REFUSE)
    assert reaches(ENGINE, start, target, 3)
    assert not reaches(ENGINE, start, target, 2)


def test_a_persons_move_is_no_computer_move() -> None:
    start = dealt()
    persons_turn = ENGINE.apply(ENGINE.apply(start, "ai:1", REFUSE), "ai:2", REFUSE)
    assert reaches(ENGINE, persons_turn, persons_turn, 0)
    moved = ENGINE.apply(persons_turn, "alice", REFUSE)
    assert not any(reaches(ENGINE, persons_turn, moved, n) for n in range(3))
