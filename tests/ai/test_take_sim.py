"""The ``hard`` TAKE player's simulator (`bot.ai.take_sim`) against the engine: random
hands played through both agree on every legal action list, on every position and on
how each hand ends; ``normal`` played on the simulator chooses as on the engine."""

from __future__ import annotations

import pytest

from bot.ai.take import _normal, _normal_move
from bot.ai.take_sim import Sim, from_action, to_action
from bot.engines.base import SeededRng
from bot.engines.take import ENGINE, TakeAction, TakeOptions, TakeState, parse_action

GAMES = 300


def as_action(answer: object) -> TakeAction:
    if isinstance(answer, str):
        return parse_action(answer)
    assert isinstance(answer, TakeAction)
    return answer


def same_position(sim: Sim, state: TakeState) -> None:
    assert sim.hands == state.hands
    assert [(r.id, r.owner, r.suit, r.low, r.cards) for r in sim.runs] == [
        (r.id, r.owner, r.suit, r.low, r.cards) for r in state.runs
    ]
    assert sim.stock[sim.stock_at :] == state.stock
    assert sim.pile == state.pile
    assert (sim.turn, sim.phase, sim.taken, sim.turned_over, sim.next_id) == (
        state.turn,
        state.phase,
        state.taken,
        state.turned_over,
        state.next_run_id,
    )


def play_hand(seed: int, players: int, hand_size: int) -> tuple[int, bool]:
    """One hand of random play through both: the number of positions compared and
    whether someone went out."""
    ids = [f"p{i}" for i in range(players)]
    state = ENGINE.new_game(ids, seed, TakeOptions(target=1, hand_size=hand_size))
    sim = Sim.from_state(state)
    rng = SeededRng.from_seed(seed)
    checked = 0
    while not sim.ended:
        same_position(sim, state)
        (player,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, player)
        moves = sim.legal()
        assert [to_action(m) for m in moves] == legal
        assert [from_action(a) for a in legal] == moves
        # Lean towards melds and adds so that tables fill up, takes and floats happen.
        plays = [m for m in moves if m[0] in ("meld", "add")]
        pool = plays if plays and rng.below(4) else moves
        move = pool[rng.below(len(pool))]
        sim.apply(move)
        state = ENGINE.apply(state, player, to_action(move))
        checked += 1
    assert state.results, "the engine's hand ended too"
    (result,) = state.results
    assert sim.went_out == result.went_out
    assert [sim.laid(s) for s in range(players)] == result.laid
    assert [sim.held(s) for s in range(players)] == result.held
    return checked, sim.went_out is not None


@pytest.mark.parametrize(("players", "hand_size"), [(2, 7), (2, 10), (3, 7), (4, 7)])
def test_random_hands_agree_with_the_engine(players: int, hand_size: int) -> None:
    hands = [play_hand(seed, players, hand_size) for seed in range(GAMES // 4)]
    assert sum(positions for positions, _ in hands) > 1000
    assert sum(out for _, out in hands) > 5


def test_copies_are_independent() -> None:
    state = ENGINE.new_game(["a", "b"], 3, TakeOptions())
    sim = Sim.from_state(state)
    twin = sim.copy()
    twin.apply(twin.legal()[-1])
    twin.apply(twin.legal()[0])
    same_position(sim, state)


def test_normal_on_the_simulator_plays_as_normal() -> None:
    """hard plays the others' turns as ``normal`` on the simulator: the same choices as
    ``normal`` on the engine's view, in every position of whole hands."""
    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        ids = [f"p{i}" for i in range(players)]
        state = ENGINE.new_game(ids, seed, TakeOptions(target=1))
        while not state.results:
            (player,) = ENGINE.to_act(state)
            action = as_action(_normal(ENGINE.view(state, player), SeededRng.from_seed(seed)))
            assert to_action(_normal_move(Sim.from_state(state))) == action
            state = ENGINE.apply(state, player, action)
            checked += 1
    assert checked > 300
