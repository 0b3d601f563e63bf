"""The ``hard`` draughts search's bitboards (`bot.ai.draughts_bits`) against the engine:
the same legal moves (as a set, move for move), the same position after each, the same
captures and quiet-move flag, on positions of random games and on random boards full
of kings (where most multi-jumps are); and the evaluation against its definition
worked out square by square."""

from __future__ import annotations

import random

import pytest

from bot.ai import draughts_bits as bits
from bot.ai.draughts import evaluate
from bot.engines.draughts import (
    BLACK,
    BLACK_KING,
    BLACK_MAN,
    RAYS,
    WHITE,
    WHITE_KING,
    WHITE_MAN,
    Position,
    Ruleset,
    _generate,
    _make,
    position_of,
)
from tests.ai.test_draughts_ai import random_states

RULESETS: tuple[Ruleset, ...] = ("give-and-take", "turkish")
PIECES = (WHITE_MAN, WHITE_MAN, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_MAN, BLACK_MAN, BLACK_KING)


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
    played = [position_of(state) for state in random_states(ruleset, games=10, seed=3)]
    return played + random_positions(ruleset, 600, seed=5)


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


def worth_by_squares(board: list[int], side: int) -> int:
    """The evaluation as defined, square by square on the engine's board: the
    reference for `evaluate`'s masks and tables."""
    white = black = pieces = 0
    for square, piece in enumerate(board):
        if not piece:
            continue
        pieces += 1
        if abs(piece) == 1:
            rank, file = divmod(square, 8)
            advanced = rank if piece == WHITE_MAN else 7 - rank
            worth = bits.MAN + bits.ADVANCE[advanced] + bits.CENTRE[file]
        else:
            reach = 0
            for ray in RAYS[square]:
                for target in ray:
                    if board[target]:
                        break
                    reach += 1
            worth = bits.KING + bits.KING_MOBILITY * reach
        if piece > 0:
            white += worth
        else:
            black += worth
    score = white - black
    trade = abs(score) * bits.TRADE // (pieces + 1)
    score += trade if score > 0 else -trade
    return score if side == WHITE else -score


@pytest.mark.parametrize("ruleset", RULESETS)
def test_evaluation_is_worked_out_as_defined(ruleset: Ruleset) -> None:
    for position in positions(ruleset):
        board = list(position.board)
        expected = worth_by_squares(board, position.side)
        assert bits.evaluate(bits.bits_of(board), position.side) == expected
        assert evaluate(position) == expected  # every searching level's


def test_last_man_is_crowned_in_give_and_take_only() -> None:
    position = Position.from_fen("W:Wc3,d4:Bc4,h7", "give-and-take")
    board = list(position.board)
    capture = next(move for move in _generate(board, WHITE, -1, False) if move[1])
    after = bits.board_of(bits.make(bits.bits_of(board), WHITE, capture, True))
    assert after.count(BLACK_KING) == 1
    turkish = bits.board_of(bits.make(bits.bits_of(board), WHITE, capture, False))
    assert turkish.count(BLACK_MAN) == 1
