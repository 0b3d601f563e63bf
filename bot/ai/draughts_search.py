"""The ``hard`` draughts player's search: alpha-beta straight on the engine's move
generator (lists of ints), without a `Position` per node.

The rules are the engine's own hot path (`_generate`, `_make`: the last-moved piece
taken first in give-and-take, the longest capture in Turkish, last-man crowning), so
the search can't disagree with the game; only the bookkeeping around them is here.

- Negamax with alpha-beta, iterative deepening from one ply, principal-variation
  search, late-move reductions of quiet moves, and quiescence on captures (standing
  pat where a quiet move is legal).
- A transposition table keyed by the board, the side to move and the last-moved square
  (give-and-take), holding depth, score, bound and best move.
- Move ordering: the table's move, then captures (most pieces, kings first),
  promotions, two killer moves a ply, and the history of quiet moves that cut off.
- A node budget (reproducible) under a wall-clock cap (answers in time on a busy
  machine). The previous iteration's result stands when the budget ends one early,
  unless a move already beat it in the unfinished iteration.
- Draws as the game scores them: one piece each with no capture, the 100th quiet ply,
  and a position recurring along the searched line (the view has no history).

The evaluation is `bot.ai.draughts.evaluate`'s, written out for a bare board.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.engines.draughts import (
    BLACK_MAN,
    MAN_DIRECTIONS,
    QUIET_PLY_LIMIT,
    RAYS,
    WHITE,
    WHITE_KING,
    WHITE_MAN,
    RawMove,
    _generate,
    _make,
)

MAN = 100
KING = 300
WIN = 1_000_000
WON = WIN - 10_000
ADVANCE = (0, 0, 3, 7, 13, 22, 36, 0)
CENTRE = (0, 1, 3, 4, 4, 3, 1, 0)
KING_MOBILITY = 3
TRADE = 5
CONTEMPT = 15
PROGRESS = 2
"""Per quiet ply at a leaf (no capture, no man's forward move since), the searching
side's score drops by this much: in a level position it shuffles less and pushes on,
instead of repeating moves it can't know it has made before."""


def _man_table(side: int) -> tuple[int, ...]:
    table = []
    for square in range(64):
        rank, file = divmod(square, 8)
        advanced = rank if side == WHITE else 7 - rank
        table.append(MAN + ADVANCE[advanced] + CENTRE[file])
    return tuple(table)


WHITE_MEN = _man_table(WHITE)
BLACK_MEN = _man_table(-WHITE)


def evaluate(board: list[int], side: int) -> int:
    """The board's worth to ``side`` (as `bot.ai.draughts.evaluate`)."""
    white = black = white_count = black_count = 0
    for square in range(64):
        piece = board[square]
        if not piece:
            continue
        if piece == WHITE_MAN:
            white += WHITE_MEN[square]
            white_count += 1
        elif piece == BLACK_MAN:
            black += BLACK_MEN[square]
            black_count += 1
        else:
            reach = 0
            for ray in RAYS[square]:
                for target in ray:
                    if board[target]:
                        break
                    reach += 1
            if piece == WHITE_KING:
                white += KING + KING_MOBILITY * reach
                white_count += 1
            else:
                black += KING + KING_MOBILITY * reach
                black_count += 1
    score = white - black
    trade = abs(score) * TRADE // (white_count + black_count + 1)
    score += trade if score > 0 else -trade
    return score if side == WHITE else -score


def _man_steps(side: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square, each direction a man of ``side`` may go: (next square, the one after
    it, or -1 at the edge)."""
    table = []
    for square in range(64):
        steps = []
        for direction in MAN_DIRECTIONS[side]:
            ray = RAYS[square][direction]
            if ray:
                steps.append((ray[0], ray[1] if len(ray) > 1 else -1))
        table.append(tuple(steps))
    return tuple(table)


MAN_STEPS = {WHITE: _man_steps(WHITE), -WHITE: _man_steps(-WHITE)}


def generate(board: list[int], side: int, last: int, turkish: bool) -> list[RawMove]:
    """The legal moves, as the engine's `_generate` (the same set; quiet moves may come
    in another order). A side of men only with no capture anywhere is answered here
    without building capture lists; anything else goes to the engine."""
    steps = MAN_STEPS[side]
    moves: list[RawMove] = []
    man, king = side, 2 * side
    for square, piece in enumerate(board):
        if piece == man:
            for target, beyond in steps[square]:
                occupant = board[target]
                if not occupant:
                    moves.append(((square, target), ()))
                elif occupant != man and occupant != king and beyond >= 0 and not board[beyond]:
                    return _generate(board, side, last, turkish)
        elif piece == king:
            return _generate(board, side, last, turkish)
    return moves


class OutOfBudget(Exception):
    """The node or time budget ran out in the middle of an iteration."""


EXACT, LOWER, UPPER = 0, 1, 2
TT_SIZE = 400_000
CHECK_EVERY = 256
LMR_DEPTH, LMR_AFTER = 3, 3
LMR_DEEP, LMR_LATE = 5, 6
"""Quiet moves from the fourth on are searched a ply shallower where three plies
remain; from the seventh on, two plies shallower where five remain."""
MAX_DEPTH = 64
QUIESCENCE = 10


@dataclass(frozen=True, slots=True)
class Result:
    move: RawMove
    score: int
    depth: int
    """The last depth searched to the end (0 when only one move was legal)."""
    nodes: int
    seconds: float


Key = tuple[int, ...]


class FastSearcher:
    """One search from one position (a fresh one per decision)."""

    def __init__(
        self,
        turkish: bool,
        nodes: int | None,
        seconds: float | None,
        quiet_plies: int = 0,
        max_depth: int = MAX_DEPTH,
    ) -> None:
        self.turkish = turkish
        self.max_nodes = nodes if nodes is not None else 1 << 62
        self.seconds = seconds
        self.quiet_plies = quiet_plies
        self.max_depth = max_depth
        self.nodes = 0
        self.deadline = 0.0
        self.table: dict[Key, tuple[int, int, int, RawMove | None]] = {}
        self.killers: list[list[RawMove]] = [[] for _ in range(MAX_DEPTH + QUIESCENCE + 8)]
        self.history: dict[tuple[int, int], int] = {}
        self.line: set[Key] = set()
        self.generated: dict[Key, list[RawMove]] = {}
        self.root_side = WHITE
        self.partial: tuple[int, RawMove] | None = None

    def _key(self, board: list[int], side: int, last: int) -> Key:
        return (*board, side, -1 if self.turkish else last)

    def _moves(self, key: Key, board: list[int], side: int, last: int) -> list[RawMove]:
        """The legal moves, generated once per position and search (iterative deepening
        visits most positions again)."""
        moves = self.generated.get(key)
        if moves is None:
            if len(self.generated) >= TT_SIZE:
                self.generated.clear()
            moves = self.generated[key] = generate(board, side, last, self.turkish)
        return moves

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise OutOfBudget
        if (
            self.seconds is not None
            and not self.nodes % CHECK_EVERY
            and time.perf_counter() > self.deadline
        ):
            raise OutOfBudget

    def _order(
        self, board: list[int], side: int, moves: list[RawMove], ply: int, best: RawMove | None
    ) -> list[RawMove]:
        killers = self.killers[ply]
        history = self.history
        far_low = 56 if side == WHITE else 0

        def rank(move: RawMove) -> int:
            if move == best:
                return 1 << 40
            path, captured = move
            if captured:
                taken = 0
                for square in captured:
                    taken += abs(board[square])
                return (1 << 36) + (taken << 8) + len(captured)
            start, end = path[0], path[-1]
            if abs(board[start]) == 1 and far_low <= end < far_low + 8:
                return 1 << 35
            if move in killers:
                return (1 << 34) - killers.index(move)
            return history.get((start, end), 0)

        return sorted(moves, key=rank, reverse=True)

    def _remember(self, move: RawMove, ply: int, depth: int) -> None:
        if move[1]:
            return
        killers = self.killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        key = (move[0][0], move[0][-1])
        self.history[key] = self.history.get(key, 0) + depth * depth

    @staticmethod
    def _draw(ply: int) -> int:
        return -CONTEMPT if ply % 2 == 0 else CONTEMPT

    @staticmethod
    def _quiet_after(board: list[int], move: RawMove, quiet: int) -> int:
        path, captured = move
        start, end = path[0], path[-1]
        if captured or (abs(board[start]) == 1 and start >> 3 != end >> 3):
            return 0
        return quiet + 1

    def search(self, board: list[int], side: int, last: int, moves: list[RawMove]) -> Result:
        """The best of ``moves`` (the legal moves, in the caller's order for ties)."""
        started = time.perf_counter()
        self.deadline = started + (self.seconds or 0.0)
        if len(moves) == 1:
            return Result(moves[0], 0, 0, 0, 0.0)
        best, best_score, done = moves[0], -WIN, 0
        self.root_side = side
        key = self._key(board, side, last)
        self.line = {key}
        for depth in range(1, self.max_depth + 1):
            ordered = self._order(board, side, moves, 0, best if done else None)
            self.partial = None
            try:
                score, move = self._root(board, side, ordered, depth)
            except OutOfBudget:
                if self.partial is not None:
                    best, best_score = self.partial[1], self.partial[0]
                break
            best, best_score, done = move, score, depth
            if abs(score) >= WON:
                break
        return Result(best, best_score, done, self.nodes, time.perf_counter() - started)

    def _root(
        self, board: list[int], side: int, moves: list[RawMove], depth: int
    ) -> tuple[int, RawMove]:
        alpha, beta = -WIN - 1, WIN + 1
        best = moves[0]
        give_and_take = not self.turkish
        for index, move in enumerate(moves):
            child = _make(board, move, give_and_take)
            quiet = self._quiet_after(board, move, self.quiet_plies)
            end = move[0][-1]
            if index == 0:
                score = -self._negamax(child, -side, end, depth - 1, -beta, -alpha, 1, quiet)
            else:
                score = -self._negamax(child, -side, end, depth - 1, -alpha - 1, -alpha, 1, quiet)
                if score > alpha:
                    score = -self._negamax(child, -side, end, depth - 1, -beta, -alpha, 1, quiet)
            if score > alpha:
                alpha, best = score, move
                self.partial = (alpha, best)
        return alpha, best

    def _store(self, key: Key, depth: int, score: int, bound: int, move: RawMove | None) -> None:
        if len(self.table) >= TT_SIZE:
            self.table.clear()
        self.table[key] = (depth, score, bound, move)

    def _negamax(
        self,
        board: list[int],
        side: int,
        last: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        quiet: int,
    ) -> int:
        self._tick()
        key = self._key(board, side, last)
        moves = self._moves(key, board, side, last)
        if not moves:
            return -WIN + ply
        if quiet >= QUIET_PLY_LIMIT:
            return self._draw(ply)
        if not moves[0][1] and board.count(0) == 62:
            return self._draw(ply)  # one piece each (two pieces, one per side, no capture)
        if key in self.line:
            return self._draw(ply)
        if depth <= 0:
            return self._quiesce(board, side, moves, alpha, beta, ply, QUIESCENCE, quiet)
        entry = self.table.get(key)
        hint: RawMove | None = None
        if entry is not None:
            stored_depth, stored, bound, hint = entry
            if stored_depth >= depth:
                if stored >= WON:
                    stored -= ply
                elif stored <= -WON:
                    stored += ply
                if bound == EXACT:
                    return stored
                if bound == LOWER and stored >= beta:
                    return stored
                if bound == UPPER and stored <= alpha:
                    return stored
        original_alpha = alpha
        best_score, best_move = -WIN - 1, moves[0]
        give_and_take = not self.turkish
        killers = self.killers[ply]
        self.line.add(key)
        try:
            for index, move in enumerate(self._order(board, side, moves, ply, hint)):
                child = _make(board, move, give_and_take)
                after = self._quiet_after(board, move, quiet)
                end = move[0][-1]
                if index == 0:
                    score = -self._negamax(
                        child, -side, end, depth - 1, -beta, -alpha, ply + 1, after
                    )
                else:
                    reduced = 0
                    if depth >= LMR_DEPTH and index >= LMR_AFTER and not move[1]:
                        start = move[0][0]
                        far = end >= 56 if side == WHITE else end < 8
                        if move not in killers and not (abs(board[start]) == 1 and far):
                            reduced = 2 if depth >= LMR_DEEP and index >= LMR_LATE else 1
                    score = -self._negamax(
                        child, -side, end, depth - 1 - reduced, -alpha - 1, -alpha, ply + 1, after
                    )
                    if reduced and score > alpha:
                        score = -self._negamax(
                            child, -side, end, depth - 1, -alpha - 1, -alpha, ply + 1, after
                        )
                    if alpha < score < beta:
                        score = -self._negamax(
                            child, -side, end, depth - 1, -beta, -alpha, ply + 1, after
                        )
                if score > best_score:
                    best_score, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            self._remember(move, ply, depth)
                            break
        finally:
            self.line.discard(key)
        if best_score <= original_alpha:
            bound = UPPER
        elif best_score >= beta:
            bound = LOWER
        else:
            bound = EXACT
        stored = best_score
        if stored >= WON:
            stored += ply
        elif stored <= -WON:
            stored -= ply
        self._store(key, depth, stored, bound, best_move)
        return best_score

    def _quiesce(
        self,
        board: list[int],
        side: int,
        moves: list[RawMove],
        alpha: int,
        beta: int,
        ply: int,
        left: int,
        quiet: int = 0,
    ) -> int:
        captures = [move for move in moves if move[1]]
        forced = len(captures) == len(moves)
        if not forced or left <= 0:
            stand = evaluate(board, side)
            # Progress: the searching side likes lines that capture or move a man
            # forward (it can't see the game's repetitions, only the quiet plies).
            stand += -PROGRESS * quiet if side == self.root_side else PROGRESS * quiet
            if not captures or left <= 0 or stand >= beta:
                return stand
            alpha = max(alpha, stand)
            best = stand
        else:
            best = -WIN - 1
        give_and_take = not self.turkish
        for move in self._order(board, side, captures, ply, None):
            child = _make(board, move, give_and_take)
            self._tick()
            end = move[0][-1]
            replies = self._moves(self._key(child, -side, end), child, -side, end)
            if not replies:
                score = WIN - ply - 1
            elif not replies[0][1] and child.count(0) == 62:
                score = -self._draw(ply + 1)
            else:
                score = -self._quiesce(child, -side, replies, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best
