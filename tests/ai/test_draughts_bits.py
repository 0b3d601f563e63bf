"""The ``hard`` draughts search's bitboards (`bot.ai.draughts_bits`) against the engine:
the same legal moves (as a set, move for move), the same position after each, the same
captures and quiet-move flag, and `bot.ai.draughts.evaluate`'s score, on positions of
random games and on random boards full of kings (where most multi-jumps are)."""

from __future__ import annotations

import random

import pytest

from bot.ai import draughts_bits as bits
from bot.ai.draughts import evaluate
from bot.engines.draughts import (
    BLACK,
    BLACK_KING,
    BLACK_MAN,
    ENGINE,
    WHITE,
    WHITE_KING,
    WHITE_MAN,
    Position,
    Ruleset,
    _generate,
    _make,
    position_of,
)

RULESETS: tuple[Ruleset, ...] = ("give-and-take", "turkish")
PIECES = (WHITE_MAN, WHITE_MAN, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_MAN, BLACK_MAN, BLACK_KING)


def game_positions(ruleset: Ruleset, games: int, seed: int) -> list[Position]:
    """Every third position of random games, openings to endgames."""
    chooser = random.Random(seed)
    found = []
    for game in range(games):
        state = ENGINE.new_game(["w", "b"], game, ENGINE.Options(ruleset=ruleset))
        while not ENGINE.is_over(state) and state.plies < 150:
            if state.plies % 3 == 0:
                found.append(position_of(state))
            player = ENGINE.to_act(state)[0]
            state = ENGINE.apply(
                state, player, chooser.choice(ENGINE.view(state, player).legal_moves)
            )
    return found


def random_positions(ruleset: Ruleset, count: int, seed: int) -> list[Position]:
    """Random boards of 2-30 pieces, and every fourth one nearly full (56-63: pieces
    that can't step), a quarter of them kings; no man on its crowning rank; in give
    and take, the last-moved piece is one of the side that just moved."""
    chooser = random.Random(seed)
    found = []
    for index in range(count):
        board = [0] * 64
        pieces = chooser.randint(56, 63) if index % 4 == 0 else chooser.randint(2, 30)
        for square in chooser.sample(range(64), pieces):
            piece = chooser.choice(PIECES)
            if (piece == WHITE_MAN and square >= 56) or (piece == BLACK_MAN and square < 8):
                piece *= 2
            board[square] = piece
        side = chooser.choice((WHITE, BLACK))
        theirs = [square for square in range(64) if board[square] * side < 0]
        last = chooser.choice(theirs) if theirs and ruleset == "give-and-take" else None
        found.append(Position(board, side, last, ruleset))
    return found


def positions(ruleset: Ruleset) -> list[Position]:
    return game_positions(ruleset, games=10, seed=3) + random_positions(ruleset, 600, seed=5)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_moves_and_results_agree_with_the_engine(ruleset: Ruleset) -> None:
    kings_jumping = 0
    checked = 0
    for position in positions(ruleset):
        board = list(position.board)
        last = -1 if position.last_moved is None else position.last_moved
        engine = _generate(list(board), position.side, last, position.turkish)
        position_bits = bits.bits_of(board)
        assert bits.board_of(position_bits) == board
        ours = bits.generate(position_bits, position.side, last, position.turkish)
        assert len(ours) == len(engine)
        assert set(ours) == set(engine)
        for move in engine:
            after = bits.make(position_bits, position.side, move, not position.turkish)
            assert bits.board_of(after) == _make(board, move, not position.turkish)
            if move[1] and abs(board[move[0][0]]) == 2 and len(move[1]) > 1:
                kings_jumping += 1
        checked += 1
    assert checked > 700
    assert kings_jumping > 50  # the boards held multi-jumps of kings to compare


@pytest.mark.parametrize("ruleset", RULESETS)
def test_captures_and_the_quiet_flag_agree_with_the_engine(ruleset: Ruleset) -> None:
    forced = free = stuck = 0
    for position in positions(ruleset):
        last = -1 if position.last_moved is None else position.last_moved
        engine = _generate(list(position.board), position.side, last, position.turkish)
        found, can_step = bits.captures(
            bits.bits_of(position.board), position.side, last, position.turkish
        )
        assert set(found) == {move for move in engine if move[1]}
        assert can_step == any(not move[1] for move in engine)
        if found:
            forced += not can_step
            free += can_step
        elif not can_step:
            stuck += 1
    assert forced > 50
    assert stuck > 0  # a side with no move at all, to tell a wrong quiet flag
    if ruleset == "give-and-take":
        assert free > 50  # captures there are optional unless the last-moved piece falls


@pytest.mark.parametrize("ruleset", RULESETS)
def test_evaluation_agrees_with_the_players(ruleset: Ruleset) -> None:
    for position in positions(ruleset):
        assert bits.evaluate(bits.bits_of(position.board), position.side) == evaluate(position)


def test_last_man_is_crowned_in_give_and_take_only() -> None:
    position = Position.from_fen("W:Wc3,d4:Bc4,h7", "give-and-take")
    board = list(position.board)
    capture = next(move for move in _generate(board, WHITE, -1, False) if move[1])
    after = bits.board_of(bits.make(bits.bits_of(board), WHITE, capture, True))
    assert after.count(BLACK_KING) == 1
    turkish = bits.board_of(bits.make(bits.bits_of(board), WHITE, capture, False))
    assert turkish.count(BLACK_MAN) == 1
