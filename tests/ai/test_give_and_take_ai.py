"""Give & Take computer players: legal everywhere, reproducible, the pile rules as
described, and blind to the face-down piles."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.ai import LEVELS, Level
from bot.ai.give_and_take import PLAYERS, SAFE_PILE, expected_difference, quality
from bot.ai.random_player import choose_uniform
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.give_and_take import (
    ENGINE,
    GIVE,
    GO,
    TAKE,
    GiveAndTakeAction,
    GiveAndTakeOptions,
    GiveAndTakeState,
    parse_action,
)


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def as_action(answer: object) -> GiveAndTakeAction:
    if isinstance(answer, str):
        return parse_action(answer)
    assert isinstance(answer, GiveAndTakeAction)
    return answer


def positions(
    games: int, players: int, seed: int, auto: bool = False
) -> Iterator[GiveAndTakeState]:
    """Every position of a few games between uniformly random players."""
    rng = SeededRng.from_seed(seed)
    seats = [f"ai:{i}" for i in range(players)]
    for game in range(games):
        options = GiveAndTakeOptions(auto=auto, turn_cap=150)
        state = ENGINE.new_game(seats, seed * 100 + game, options)
        while not ENGINE.is_over(state):
            yield state
            (player,) = ENGINE.to_act(state)
            state = ENGINE.apply(
                state, player, as_action(choose_uniform(ENGINE, state, player, rng))
            )


def choose(level: Level, state: GiveAndTakeState) -> GiveAndTakeAction:
    (player,) = ENGINE.to_act(state)
    return as_action(PLAYERS[level](ENGINE.view(state, player), SeededRng.from_seed(3)))


def capture(give: int, take: int, board: str = "7H 7D 5S KC") -> GiveAndTakeState:
    """Seat 0 of two is choosing a pile for a capture of ``board`` (seat 0's give and
    take cards, then seat 1's), holding ``give`` and ``take`` cards in its piles."""
    shown = cards(board)
    rest = [card for card in standard_deck() if card not in shown]
    base = ENGINE.new_game(["ai:0", "ai:1"], 0)
    return base.model_copy(
        update={
            "give": [rest[:give], rest[give : give + 8]],
            "take": [rest[give + 8 : give + 8 + take], rest[give + take + 8 : give + take + 16]],
            "played_give": [[shown[0]], [shown[2]]],
            "played_take": [[shown[1]], [shown[3]]],
            "leftovers": [],
            "phase": "choose",
            "capturer": 0,
            "layers": 1,
        }
    )


# --- Legal everywhere -------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("auto", [False, True])
def test_every_level_is_legal_in_every_position_of_random_games(
    level: Level, players: int, auto: bool
) -> None:
    choices = 0
    for state in positions(8, players, seed=players, auto=auto):
        (player,) = ENGINE.to_act(state)
        action = choose(level, state)
        assert action in ENGINE.legal_actions(state, player)
        ENGINE.apply(state, player, action)
        choices += action != GO
    assert choices > 10


@pytest.mark.parametrize("level", LEVELS)
def test_the_director_always_says_go(level: Level) -> None:
    state = ENGINE.new_game(["ai:0", "ai:1", "ai:2"], 1)
    assert state.phase == "go"
    assert choose(level, state) == GO


# --- Reproducible -----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_rng_state_give_the_same_answer(level: Level) -> None:
    for i, state in enumerate(positions(1, 3, seed=11)):
        (player,) = ENGINE.to_act(state)
        view = ENGINE.view(state, player)
        first, second = SeededRng.from_seed(i), SeededRng.from_seed(i)
        assert PLAYERS[level](view, first) == PLAYERS[level](view, second)
        assert first == second


# --- The pile rules ---------------------------------------------------------------------


def test_card_quality_favours_aces_and_middle_cards() -> None:
    assert expected_difference(14) == expected_difference(7) < expected_difference(10)
    assert (
        expected_difference(2)
        == expected_difference(13)
        == max(expected_difference(rank) for rank in range(2, 15))
    )
    assert quality(ENGINE.view(capture(8, 8, "7H 7D AS 8C"), "ai:0")) > 0
    assert quality(ENGINE.view(capture(8, 8, "2H 2D KS QC"), "ai:0")) < 0


@pytest.mark.parametrize("give, take", [(3, 9), (9, 3), (8, 8), (5, 5)])
def test_easy_takes_the_default_pile(give: int, take: int) -> None:
    state = capture(give, take)
    expected = TAKE if take < give else GIVE
    assert choose("easy", state) == expected


@pytest.mark.parametrize("give, take", [(3, 9), (9, 3), (12, 11)])
def test_normal_protects_the_smaller_pile(give: int, take: int) -> None:
    for board in ("7H 7D AS 8C", "2H 2D KS QC"):
        state = capture(give, take, board)
        assert choose("normal", state) == (TAKE if take < give else GIVE)


def test_normal_breaks_a_tie_by_the_cards() -> None:
    assert choose("normal", capture(8, 8, "7H 7D AS 8C")) == TAKE
    assert choose("normal", capture(8, 8, "2H 2D KS QC")) == GIVE


def test_hard_suits_the_cards_while_the_other_pile_is_safe() -> None:
    good, bad = "7H 7D AS 8C", "2H 2D KS QC"
    assert choose("hard", capture(SAFE_PILE + 4, SAFE_PILE, good)) == TAKE
    assert choose("hard", capture(SAFE_PILE, SAFE_PILE + 4, bad)) == GIVE
    # The other pile too short: the capture goes under the smaller one.
    assert choose("hard", capture(SAFE_PILE - 1, SAFE_PILE + 4, good)) == GIVE
    assert choose("hard", capture(SAFE_PILE + 4, SAFE_PILE - 1, bad)) == TAKE


# --- Hidden cards stay hidden -----------------------------------------------------------


def shuffle_hidden(state: GiveAndTakeState, seed: int) -> GiveAndTakeState:
    """Every face-down card (all piles, the seat's own too, and the leftovers) dealt
    afresh, each pile keeping its size."""
    pool = [c for pile in (*state.give, *state.take) for c in pile] + list(state.leftovers)
    SeededRng.from_seed(seed).shuffle(pool)
    give, take = [], []
    for pile in state.give:
        give.append(pool[: len(pile)])
        pool = pool[len(pile) :]
    for pile in state.take:
        take.append(pool[: len(pile)])
        pool = pool[len(pile) :]
    return state.model_copy(update={"give": give, "take": take, "leftovers": pool})


@pytest.mark.parametrize("level", LEVELS)
def test_answers_ignore_the_face_down_cards(level: Level) -> None:
    checked = 0
    for i, state in enumerate(positions(6, 3, seed=21)):
        (player,) = ENGINE.to_act(state)
        other = shuffle_hidden(state, i)
        view = ENGINE.view(state, player)
        assert ENGINE.view(other, player) == view
        assert choose(level, state) == choose(level, other)
        checked += 1
    assert checked > 50
