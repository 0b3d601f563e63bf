"""Draughts computer players: legal moves at every level in both rulesets, material
won and not thrown away, short forced wins found, searches bounded by depth and nodes
(no timing here), and the same move for the same rng state."""

from __future__ import annotations

import gc
import random
from dataclasses import replace

import pytest

from bot.ai import LEVELS, Level
from bot.ai.draughts import (
    FAST_NODES,
    NORMAL,
    PLAYERS,
    WIN,
    WON,
    Limits,
    Searcher,
    choose_easy,
    evaluate,
    fast_searcher,
    searcher,
)
from bot.ai.draughts_bits import bits_of, generate
from bot.ai.draughts_search import FastSearcher
from bot.engines.base import GameError, SeededRng
from bot.engines.draughts import (
    ENGINE,
    SQUARE_NAMES,
    DraughtsState,
    DraughtsView,
    Position,
    Ruleset,
    perft,
    position_of,
)
from bot.games import game as registered

RULESETS: tuple[Ruleset, ...] = ("give-and-take", "turkish")
DUO = ["w", "b"]

# The real players stop at a node budget first and at a wall-clock cap only on a busy
# machine; the test players have no clock at all, so every answer is reproducible.
TEST_PLAYERS = {
    "easy": choose_easy,
    "normal": searcher(replace(NORMAL, seconds=None)),
    "hard": fast_searcher(nodes=3_000, seconds=None),
}


def state_of(
    fen: str, ruleset: Ruleset = "give-and-take", last: str | None = None
) -> DraughtsState:
    return ENGINE.setup(DUO, Position.from_fen(fen, ruleset, last))


def view_of(state: DraughtsState) -> DraughtsView:
    return ENGINE.view(state, ENGINE.to_act(state)[0])


def view(fen: str, ruleset: Ruleset = "give-and-take", last: str | None = None) -> DraughtsView:
    return view_of(state_of(fen, ruleset, last))


def choose(level: str, position: DraughtsView, seed: int = 0) -> str:
    move = TEST_PLAYERS[level](position, SeededRng.from_seed(seed))
    assert isinstance(move, str)
    return move


def random_states(ruleset: Ruleset, games: int, seed: int) -> list[DraughtsState]:
    """Positions from random games, every fifth ply, openings to endgames."""
    chooser = random.Random(seed)
    states = []
    for game in range(games):
        state = ENGINE.new_game(DUO, game, ENGINE.Options(ruleset=ruleset))
        while not ENGINE.is_over(state) and state.plies < 120:
            if state.plies % 5 == 0:
                states.append(state)
            moves = view_of(state).legal_moves
            state = ENGINE.apply(state, ENGINE.to_act(state)[0], chooser.choice(moves))
    return states


# --- Interface ------------------------------------------------------------------------


def test_every_level_is_registered() -> None:
    players = registered("draughts").players
    assert players is PLAYERS
    assert set(PLAYERS) == set(LEVELS)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("level", ["easy", pytest.param("normal", marks=pytest.mark.slow)])
def test_legal_move_from_many_positions(ruleset: Ruleset, level: Level) -> None:
    states = random_states(ruleset, games=4, seed=7)
    assert len(states) > 40
    for index, state in enumerate(states):
        position = view_of(state)
        assert PLAYERS[level](position, SeededRng.from_seed(index)) in position.legal_moves


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hard_legal_move_from_positions(ruleset: Ruleset) -> None:
    states = random_states(ruleset, games=2, seed=11)[::3]
    for index, state in enumerate(states):
        position = view_of(state)
        assert choose("hard", position, index) in position.legal_moves


@pytest.mark.parametrize("level", LEVELS)
def test_real_players_move_from_the_start(level: Level) -> None:
    for ruleset in RULESETS:
        position = view_of(ENGINE.new_game(DUO, 0, ENGINE.Options(ruleset=ruleset)))
        assert PLAYERS[level](position, SeededRng.from_seed(1)) in position.legal_moves


def test_hard_searches_without_the_cyclic_collector_and_puts_it_back() -> None:
    collections: list[str] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(phase)

    position = view_of(ENGINE.new_game(DUO, 0, ENGINE.Options(ruleset="turkish")))
    gc.callbacks.append(count)
    try:
        PLAYERS["hard"](position, SeededRng.from_seed(1))
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled()
    assert len(collections) <= 2, "a search of 70,000 nodes with the collector on runs it often"


def offered(fen: str, move: str) -> DraughtsState:
    """White offers a draw, then plays ``move``: Black is to answer the offer."""
    state = ENGINE.apply(state_of(fen), "w", "offer draw")
    return ENGINE.apply(state, "w", move)


@pytest.mark.parametrize("level", LEVELS)
def test_accepts_a_draw_offer_when_behind(level: Level) -> None:
    state = offered("W:WKa1,Kb1,Kc1:Bh7,g7", "a1-a2")
    answer = choose(level, view_of(state))
    assert answer == "accept draw"
    after = ENGINE.apply(state, "b", answer)
    assert (after.result, after.reason) == ("draw", "agreement")


@pytest.mark.parametrize("level", LEVELS)
def test_declines_a_draw_offer_by_moving_on_when_ahead(level: Level) -> None:
    state = offered("W:WKa2:BKh8,Kg8,Kf8,e7", "a2-b2")
    position = view_of(state)
    assert position.draw_offer_by == "w"
    move = choose(level, position)
    assert move in position.legal_moves
    after = ENGINE.apply(state, "b", move)
    assert not ENGINE.is_over(after) and after.draw_offer is None


@pytest.mark.parametrize("level", LEVELS)
def test_never_offers_a_draw_or_resigns(level: Level) -> None:
    position = view_of(ENGINE.new_game(DUO, 0))
    assert choose(level, position) in position.legal_moves


def test_no_move_once_the_game_is_over() -> None:
    state = state_of("B:Wd4:Bd5,a7")
    state = ENGINE.resign(state, "b")
    for level in LEVELS:
        with pytest.raises(GameError):
            PLAYERS[level](ENGINE.view(state, "b"), SeededRng.from_seed(0))


def test_a_single_legal_move_is_played_at_once() -> None:
    # Turkish: the capture is compulsory, so there is nothing to search.
    position = view("W:Wd4,a2:Bd5,h6", "turkish")
    assert position.legal_moves == ["d4xd6"]
    result = Searcher(Limits(depth=64, nodes=3_500)).search(
        Position.from_fen(position.fen, "turkish")
    )
    assert (str(result.move), result.nodes, result.depth) == ("d4xd6", 0, 0)


# --- Tactics --------------------------------------------------------------------------


FREE_PIECE = "W:Wd4,a2,b2:Bd5,g7,h7"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_a_free_piece(level: Level) -> None:
    # Give and take: the capture is optional; if White doesn't take, d5 takes d4.
    # (With one black piece left over, it would be crowned and take d6 back.)
    position = view(FREE_PIECE, last="h7")
    assert not position.capture_required
    for seed in range(4):
        assert choose(level, position, seed) == "d4xd6"


def test_easy_mostly_takes_a_free_piece() -> None:
    position = view(FREE_PIECE, last="h7")
    taken = sum(choose("easy", position, seed) == "d4xd6" for seed in range(40))
    assert 25 <= taken < 40  # greedy, but one move in four is random


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_avoids_stepping_into_a_capture(ruleset: Ruleset, level: Level) -> None:
    # d4-d5 lets d6 jump it (and in give-and-take d5, the piece just moved, must be
    # taken); any other move is safe.
    position = view("W:Wd4,a2,b2:Bd6,g7,h7", ruleset, last="h7")
    assert "d4-d5" in position.legal_moves
    for seed in range(6):
        assert choose(level, position, seed) != "d4-d5"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_give_and_take_sacrifice_wins_in_three_plies(level: Level) -> None:
    # g8-d8 must be taken (c8xe8: the piece just moved), then a8xg8xg2x… takes all
    # three. The greedy g8xg2xc2 takes two but loses the king to c8xc1.
    position = view("W:WKg8,Ka8,f3:Bc8,d2,g5")
    for seed in range(3):
        assert choose(level, position, seed) == "g8-d8"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_turkish_capture_lands_where_it_wins(level: Level) -> None:
    # Three landing squares after g8xg2; only c2 covers the c-file, so every move of
    # the man left on c8 is taken next.
    position = view("W:WKg8,Ka8,f3:Bc8,d2,g5", "turkish")
    assert {"g8xg2xa2", "g8xg2xb2", "g8xg2xc2"} <= set(position.legal_moves)
    for seed in range(3):
        assert choose(level, position, seed) == "g8xg2xc2"


def test_search_scores_the_forced_win() -> None:
    position = Position.from_fen("W:WKg8,Ka8,f3:Bc8,d2,g5")
    result = Searcher(Limits(depth=3, iterative=False, quiescence=0)).search(position)
    assert str(result.move) == "g8-d8"
    assert result.score == WIN - 3
    # Iterative deepening stops as soon as a win is proven.
    deepening = Searcher(Limits(depth=20)).search(position)
    assert str(deepening.move) == "g8-d8"
    assert deepening.score >= WON
    assert deepening.depth <= 3


# --- Evaluation -----------------------------------------------------------------------


def test_evaluation_is_symmetric() -> None:
    white = Position.from_fen("W:Wc3,d4,Ke5:Bf6,g7")
    black = Position.from_fen("B:Wf3,g2:Bc6,d5,Ke4")  # the same, colours swapped
    assert evaluate(white) == evaluate(black)
    assert evaluate(Position.initial()) == 0
    assert evaluate(Position.from_fen("W:Wa2,b2,c2:Ba7,b7")) > 0
    assert evaluate(Position.from_fen("B:Wa2,b2,c2:Ba7,b7")) < 0


def test_kings_and_advanced_men_are_worth_more() -> None:
    king = Position.from_fen("W:WKd4,a2:Ba7,h7")
    man = Position.from_fen("W:Wd4,a2:Ba7,h7")
    advanced = Position.from_fen("W:Wd6,a2:Ba7,h7")
    assert evaluate(king) > evaluate(advanced) > evaluate(man)


# --- Bounds and reproducibility -------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fixed_depth_search_visits_at_most_the_full_tree(ruleset: Ruleset) -> None:
    for state in random_states(ruleset, games=1, seed=3)[1:6]:
        position = Position.from_fen(state.position, ruleset, state.last_moved)
        if len(position.legal_moves()) < 2:
            continue
        result = Searcher(Limits(depth=2, iterative=False, quiescence=0)).search(position)
        assert result.depth == 2
        assert 0 < result.nodes <= perft(position, 1) + perft(position, 2)


def test_node_budget_bounds_the_search() -> None:
    position = Position.initial()
    result = Searcher(Limits(depth=64, nodes=300)).search(position)
    assert result.nodes <= 300
    assert 1 <= result.depth < 64
    assert result.move in position.legal_moves()


def test_deeper_iterations_cost_more_nodes() -> None:
    position = Position.initial("turkish")
    nodes = [Searcher(Limits(depth=depth)).search(position).nodes for depth in (1, 2, 3)]
    assert nodes == sorted(nodes)
    assert nodes[0] < nodes[2]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_rng_state_same_move(level: Level, ruleset: Ruleset) -> None:
    for state in random_states(ruleset, games=1, seed=5)[2:8:2]:
        position = view_of(state)
        rng = SeededRng.from_seed(42)
        rng.next_u64()
        first = TEST_PLAYERS[level](position, rng.model_copy())
        assert all(TEST_PLAYERS[level](position, rng.model_copy()) == first for _ in range(2))


def test_the_rng_varies_equal_moves() -> None:
    # From the start many moves are equally good: different seeds, different openings.
    position = view_of(ENGINE.new_game(DUO, 0))
    for level in ("easy", "normal"):
        openings = {choose(level, position, seed) for seed in range(12)}
        assert len(openings) > 1


# --- The hard player's search -----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_hard_search_reaches_depth_8_from_the_opening(ruleset: Ruleset) -> None:
    """Within the ``hard`` player's node budget (no clock: the same on any machine)."""
    position = Position.initial(ruleset)
    board = list(position.board)
    moves = [(move.path, move.captured) for move in position.legal_moves()]
    result = FastSearcher(position.turkish, FAST_NODES, None).search(
        board, position.side, -1, moves
    )
    assert result.depth >= 8


def test_hard_search_scores_the_forced_win() -> None:
    position = Position.from_fen("W:WKg8,Ka8,f3:Bc8,d2,g5")
    board = list(position.board)
    moves = [(move.path, move.captured) for move in position.legal_moves()]
    result = FastSearcher(position.turkish, 50_000, None).search(board, position.side, -1, moves)
    assert "-".join(SQUARE_NAMES[s] for s in result.move[0]) == "g8-d8"
    assert result.score >= WON
    assert result.depth <= 3


@pytest.mark.parametrize("ruleset", RULESETS)
def test_quiet_moves_are_ordered_as_the_general_order_would(ruleset: Ruleset) -> None:
    """`_order_quiet`, the shortcut for lists of quiet moves, keeps `_order`'s order:
    the table's move, promotions, killers, then history, equals as listed."""
    chooser = random.Random(9)
    compared = promotions = 0
    for state in random_states(ruleset, games=6, seed=13):
        position = position_of(state)
        last = -1 if position.last_moved is None else position.last_moved
        bits = bits_of(list(position.board))
        moves = generate(bits, position.side, last, position.turkish)
        if len(moves) < 2 or moves[0][1]:
            continue
        searcher = FastSearcher(position.turkish, None, None)
        for move in chooser.sample(moves, len(moves) // 2):
            searcher.history[move] = chooser.choice((1, 4, 4, 9))
        searcher.killers[3] = chooser.sample(moves, 2)
        best = chooser.choice([None, *moves])
        ordered = searcher._order_quiet(bits, position.side, moves, 3, best)
        assert ordered == searcher._order(bits, position.side, moves, 3, best)
        promotions += any(
            abs(position.board[move[0][0]]) == 1 and move[0][1] // 8 in (0, 7) for move in moves
        )
        compared += 1
    assert compared > 50 and promotions > 0
