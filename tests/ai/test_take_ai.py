"""TAKE computer players: legal everywhere, reproducible, sensible where the decision
is obvious, and blind to cards they can't see."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import pytest

from bot.ai import LEVELS, Level
from bot.ai.budget import set_think_seconds, think_seconds
from bot.ai.random_player import choose_uniform
from bot.ai.take import KIND_SPREAD, OTHER_KINDS, PLAYERS, STYLE, Style, hard_player
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.take import (
    DRAW_DISCARD,
    DRAW_STOCK,
    ENGINE,
    Run,
    TakeAction,
    TakeOptions,
    TakeState,
    add,
    discard,
    meld,
    parse_action,
)
from tests.ai.levels import LEVELS_HARD_SLOW


@pytest.fixture(autouse=True)
def node_budget_decides() -> Iterator[None]:
    """A wall-clock net far above any decision: on a loaded machine hard's sampling must
    stop at its own budget, so that its answers are reproducible."""
    before = think_seconds()
    set_think_seconds(60.0)
    yield
    set_think_seconds(before)


DUO = ["ai:0", "ai:1"]
TRIO = ["ai:0", "ai:1", "ai:2"]


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def as_action(answer: object) -> TakeAction:
    if isinstance(answer, str):
        return parse_action(answer)
    assert isinstance(answer, TakeAction)
    return answer


def positions(games: int, players: list[str], seed: int) -> Iterator[TakeState]:
    """Every position of a few single-hand games between uniformly random players."""
    rng = SeededRng.from_seed(seed)
    for game in range(games):
        state = ENGINE.new_game(players, seed * 100 + game, TakeOptions(target=1))
        while not ENGINE.is_over(state):
            yield state
            (player,) = ENGINE.to_act(state)
            state = ENGINE.apply(
                state, player, as_action(choose_uniform(ENGINE, state, player, rng))
            )


def choose(level: Level, state: TakeState, seed: int = 7) -> TakeAction:
    (player,) = ENGINE.to_act(state)
    return as_action(PLAYERS[level](ENGINE.view(state, player), SeededRng.from_seed(seed)))


def make_run(run_id: int, owner: int, text: str) -> Run:
    """``"5C 6C 7C"``: a run of natural cards in order."""
    laid = cards(text)
    return Run(id=run_id, owner=owner, suit=laid[0].suit, low=laid[0].rank, cards=laid)


def table(
    hands: Sequence[str],
    runs: Sequence[tuple[int, str]] = (),
    *,
    phase: str = "play",
    pile: str = "2C",
) -> TakeState:
    """Seat 0 to act with these hands, runs (owner seat, cards) and discard pile (bottom
    first); the stock is the unused cards."""
    used = {c for text in [*hands, pile, *(text for _, text in runs)] for c in cards(text)}
    spare = [card for card in standard_deck() if card not in used]
    base = ENGINE.new_game(TRIO[: len(hands)], 0, TakeOptions())
    return base.model_copy(
        update={
            "hands": [sorted(cards(hand)) for hand in hands],
            "runs": [make_run(i, owner, text) for i, (owner, text) in enumerate(runs, start=1)],
            "next_run_id": len(runs) + 1,
            "pile": cards(pile),
            "stock": spare[:20],
            "turn": 0,
            "phase": phase,
            "taken": None,
        }
    )


# --- Legal everywhere -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [DUO, TRIO])
def test_every_level_is_legal_in_every_position_of_random_games(
    level: Level, players: list[str]
) -> None:
    count = 0
    for state in positions(2, players, seed=len(players)):  # 556 and 421 positions
        (player,) = ENGINE.to_act(state)
        action = choose(level, state)
        assert action in ENGINE.legal_actions(state, player), (str(action), state.hands)
        ENGINE.apply(state, player, action)
        count += 1
    assert count > 100


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_whole_match(level: Level) -> None:
    state = ENGINE.new_game(DUO, 5, TakeOptions(target=150))
    rng = SeededRng.from_seed(5)
    for _ in range(5000):
        if ENGINE.is_over(state):
            break
        (player,) = ENGINE.to_act(state)
        action = as_action(PLAYERS[level](ENGINE.view(state, player), rng))
        assert action in ENGINE.legal_actions(state, player)
        state = ENGINE.apply(state, player, action)
    assert ENGINE.is_over(state)


# --- Reproducible -----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS_HARD_SLOW)
def test_the_same_view_and_rng_state_give_the_same_answer(level: Level) -> None:
    checked = 0
    for i, state in enumerate(positions(2, DUO, seed=11)):
        (player,) = ENGINE.to_act(state)
        view = ENGINE.view(state, player)
        first, second = SeededRng.from_seed(i), SeededRng.from_seed(i)
        assert PLAYERS[level](view, first) == PLAYERS[level](view, second)
        assert first == second
        checked += 1
    assert checked > 50


# --- Obvious decisions ------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_melds_a_ready_run_rather_than_discard(level: Level) -> None:
    state = table(["5H 6H 7H 9C KD 2S", "3D 4D 8S 10S QS JD"])
    assert choose(level, state) == meld("5H", "6H", "7H")


@pytest.mark.parametrize("level", LEVELS)
def test_takes_an_opponents_run(level: Level) -> None:
    state = table(["8C 2D 9S KH", "3D 4D 8S 10S QS JD"], runs=[(1, "5C 6C 7C")])
    assert choose(level, state) == add("8C", 1)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_lays_off_onto_its_own_run(level: Level) -> None:
    state = table(["8C 2D 9S", "3D 4D 8S 10S QS JD"], runs=[(0, "5C 6C 7C")])
    assert choose(level, state) == add("8C", 1)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_draws_the_discard_that_completes_a_run(level: Level) -> None:
    state = table(["5H 6H 9C KD 2S 10D QS", "3D 4D 8S 10S QS JD 4C"], phase="draw", pile="7H")
    assert choose(level, state) == DRAW_DISCARD


@pytest.mark.parametrize("level", LEVELS)
def test_draws_from_the_stock_when_the_discard_is_no_use(level: Level) -> None:
    state = table(["5H 6H 9C KD 2S 10D QS", "3D 4D 8S 10S QS JD 4C"], phase="draw", pile="3C")
    assert choose(level, state) == DRAW_STOCK


@pytest.mark.parametrize("level", ["normal"])
def test_discards_a_loose_card_rather_than_break_a_pair(level: Level) -> None:
    state = table(["5H 6H 9C", "3D 4D 8S 10S QS JD"])
    assert choose(level, state) == discard("9C")


# hard may hold a ready run or the end card of its own run back (a run on the table can
# be taken, a card held blocks that end), so it is asked about plays that end the hand.


@pytest.mark.parametrize("seed", range(4))
def test_hard_melds_and_goes_out(seed: int) -> None:
    state = table(["5H 6H 7H 9C", "3D 4D 8S 10S QS JD"])
    assert choose("hard", state, seed) == meld("5H", "6H", "7H")
    after = ENGINE.apply(state, "ai:0", meld("5H", "6H", "7H"))
    assert choose("hard", after, seed) == discard("9C")


@pytest.mark.parametrize("seed", range(4))
def test_hard_lays_off_and_goes_out(seed: int) -> None:
    state = table(["8C 2D", "3D 4D 8S 10S QS JD"], runs=[(0, "5C 6C 7C")])
    assert choose("hard", state, seed) == add("8C", 1)


def test_hard_lays_its_joker_off_to_go_out() -> None:
    # normal keeps the joker and discards the 5; hard sees that laying the joker on
    # its own run and discarding the 5 ends the hand.
    state = table(["JK 5S", "3D 4D 8S 10S QS JD"], runs=[(0, "8D 9D 10D")])
    assert choose("normal", state) == discard("5S")
    action = choose("hard", state)
    assert action.kind == "add" and action.card.is_joker
    after = ENGINE.apply(state, "ai:0", action)
    assert choose("hard", after) == discard("5S")


# --- Hidden cards stay hidden -----------------------------------------------------------


def shuffle_hidden(state: TakeState, seed: int) -> TakeState:
    """The same public position with the cards the player to act can't see dealt
    afresh: the other hands, the stock and the discard pile under its top card."""
    me = state.turn
    others = [i for i in range(len(state.players)) if i != me]
    pool = [c for i in others for c in state.hands[i]] + list(state.stock) + state.pile[:-1]
    SeededRng.from_seed(seed).shuffle(pool)
    hands = list(state.hands)
    for i in others:
        hands[i] = sorted(pool[: len(hands[i])])
        pool = pool[len(hands[i]) :]
    stock = pool[: len(state.stock)]
    below = pool[len(state.stock) :]
    return state.model_copy(
        update={"hands": hands, "stock": stock, "pile": below + state.pile[-1:]}
    )


@pytest.mark.parametrize("level", LEVELS_HARD_SLOW)
def test_answers_ignore_the_cards_the_seat_cannot_see(level: Level) -> None:
    checked = changed = 0
    for i, state in enumerate(positions(2, TRIO, seed=21)):
        (player,) = ENGINE.to_act(state)
        other = shuffle_hidden(state, i)
        changed += other.hands != state.hands
        view = ENGINE.view(state, player)
        assert ENGINE.view(other, player) == view
        here = PLAYERS[level](view, SeededRng.from_seed(i))
        there = PLAYERS[level](ENGINE.view(other, player), SeededRng.from_seed(i))
        assert here == there
        assert as_action(there) in ENGINE.legal_actions(other, player)
        checked += 1
    assert checked > 50
    assert changed > checked // 2


# --- hard's model of the others ----------------------------------------------------------


def test_hard_seats_the_others_as_normal_and_kinds_unlike_it() -> None:
    """hard doesn't assume normal: its playouts draw each other seat from normal's style
    and seven others, each weight within e**KIND_SPREAD of normal's."""
    assert OTHER_KINDS[0] == STYLE
    assert len(set(OTHER_KINDS)) == 8
    normal = (STYLE.useful, STYLE.danger, STYLE.points)
    for kind in OTHER_KINDS[1:]:
        ratios = [
            mine / theirs
            for mine, theirs in zip((kind.useful, kind.danger, kind.points), normal, strict=True)
        ]
        assert all(math.exp(-KIND_SPREAD) <= r <= math.exp(KIND_SPREAD) for r in ratios)
        assert any(abs(r - 1) > 0.25 for r in ratios)


def test_the_kinds_hard_seats_the_others_as_change_its_play() -> None:
    """The kinds reach the playouts: seating the others as players who keep their high
    cards and feed runs gives other choices than seating them as normal, somewhere."""
    as_normal = hard_player(other_kinds=(STYLE,))
    as_feeders = hard_player(other_kinds=(Style(useful=0.0, danger=-5.0, points=-1.0),))
    differ = 0
    for i, state in enumerate([*positions(2, DUO, seed=5), *positions(1, TRIO, seed=5)]):
        if state.phase != "play":
            continue
        (player,) = ENGINE.to_act(state)
        view = ENGINE.view(state, player)
        differ += as_normal(view, SeededRng.from_seed(i)) != as_feeders(
            view, SeededRng.from_seed(i)
        )
    assert differ > 0
