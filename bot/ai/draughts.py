"""Computer players for draughts (Give and Take and Turkish), three levels.

- ``easy``: one ply, greedy on material (a king counts as three men), ties broken at
  random, and one move in four picked at random outright.
- ``normal``: alpha-beta to a fixed depth of three plies, then captures only
  (quiescence), with the full evaluation (and a node and time cap, seldom reached).
- ``hard``: `bot.ai.draughts_search`: the same kind of search (negamax alpha-beta,
  iterative deepening, principal-variation search, late-move reductions, a
  transposition table, the table's move, captures, promotions, killers and history
  first, quiescence on captures) run on bitboards (`bot.ai.draughts_bits`, the
  engine's rules checked move for move) instead of a `Position` per node, with a
  budget of `FAST_NODES` (reproducible) under the wall-clock cap of
  `bot.ai.budget.think_seconds`. Its evaluation is ``normal``'s, less a little per
  quiet ply at the leaf, so in a level position it makes progress instead
  of shuffling into a repetition it can't see. (The previous ``hard``, `Searcher` with
  deeper limits, is `bench.previous.draughts`.)

The ``normal`` search plays the rules through `Position` (`legal_moves`, `play`), so the engine
alone decides legality: the last-moved piece taken first in give-and-take, the longest
capture in Turkish, last-man crowning. What the view can't tell (the repetition history)
the search only sees along its own line: a position recurring on the line scores a draw.

Evaluation (`bot.ai.draughts_bits.evaluate`), from the side to move: material (man
100, king 300), men's advancement and centre files, kings' open lines (their
mobility), and, with a material lead, a bonus that grows as pieces come off (trading
down wins the endgame). One piece each
is a draw, as is the 100th quiet ply counted on from the view's ``quiet_plies``; a
draw scores a little below even for the searching side (`CONTEMPT`).

None of the levels resigns or offers a draw. Offered one, a level answers it: it accepts
when it doesn't think itself ahead (``easy``: on material; the others: the search's
score of their best move), and otherwise declines by moving on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from bot.ai import Chooser, Level
from bot.ai.budget import cyclic_gc_paused, think_seconds
from bot.ai.draughts_bits import bits_of
from bot.ai.draughts_bits import evaluate as evaluate_bits
from bot.ai.draughts_search import FastSearcher
from bot.engines.base import GameError, SeededRng
from bot.engines.draughts import (
    ACCEPT_DRAW,
    BLACK_KING,
    QUIET_PLY_LIMIT,
    SQUARE_NAMES,
    WHITE,
    WHITE_KING,
    DraughtsView,
    Move,
    Position,
    RawMove,
)

# --- Evaluation -------------------------------------------------------------------------

WIN = 1_000_000
"""A won position's score; wins sooner score higher (``WIN - ply``)."""
WON = WIN - 10_000
"""Scores beyond this are wins (or, negated, losses) found by the search."""
CONTEMPT = 15
"""A draw counts this much below even for the player searching: rather than repeat
moves in a level position, it plays on (the view has no history, so the search only
sees a repetition along its own line)."""


def evaluate(position: Position) -> int:
    """The position's worth to the side to move, in men's hundredths (no search):
    `bot.ai.draughts_bits.evaluate`, the one evaluation of every searching level."""
    return evaluate_bits(bits_of(position.board), position.side)


def material(position: Position, side: int) -> int:
    """``side``'s material less the other's, a king as three men (for ``easy``)."""
    total = 0
    for piece in position.board:
        if piece:
            value = 3 if piece in (WHITE_KING, BLACK_KING) else 1
            total += value if piece * side > 0 else -value
    return total


# --- Search -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """How far a search may go: plies (then captures only), nodes and seconds."""

    depth: int
    nodes: int | None = None
    """Stop once this many positions are searched (reproducible, unlike ``seconds``)."""
    seconds: float | None = None
    """Stop once this much wall-clock time has passed."""
    iterative: bool = True
    """Deepen one ply at a time from 1 (else search ``depth`` at once)."""
    quiescence: int = 8
    """At most this many plies of captures beyond ``depth``."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    move: Move
    score: int
    depth: int
    """The last depth searched to the end (0 when only one move was legal)."""
    nodes: int


class _OutOfBudget(Exception):
    """The node or time budget ran out in the middle of an iteration."""


EXACT, LOWER, UPPER = 0, 1, 2
_TT_SIZE = 200_000
_CHECK_EVERY = 64
LMR_DEPTH, LMR_AFTER = 3, 3
"""Reduce quiet moves from the fourth on, where at least three plies remain."""

TTEntry = tuple[int, int, int, Move | None]
"""(depth, score, bound, best move)."""
PositionKey = tuple[tuple[int, ...], int, int | None]


class Searcher:
    """One search from one position; a fresh one per move (nothing leaks across games)."""

    def __init__(self, limits: Limits, quiet_plies: int = 0) -> None:
        self.limits = limits
        self.quiet_plies = quiet_plies
        self.nodes = 0
        self.table: dict[PositionKey, TTEntry] = {}
        self.killers: dict[int, list[tuple[int, ...]]] = {}
        """Per ply, the paths of the last two quiet moves that cut the search off."""
        self.history: dict[tuple[int, int], int] = {}
        self.line: list[PositionKey] = []
        self.deadline = 0.0
        self.max_nodes = limits.nodes if limits.nodes is not None else 1 << 62
        self.partial: tuple[int, Move] | None = None
        """The best (score, move) so far in the unfinished iteration."""
        self.children: dict[int, dict[tuple[int, ...], Position]] = {}
        """Positions met so far by ``id`` of the one before (all kept alive here), then
        by the move's path."""

    # -- budget

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise _OutOfBudget
        if (
            self.limits.seconds is not None
            and self.nodes % _CHECK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfBudget

    # -- helpers

    @staticmethod
    def _key(position: Position) -> PositionKey:
        last = None if position.turkish else position.last_moved
        return (position.board, position.side, last)

    def _order(
        self, position: Position, moves: list[Move], ply: int, best: Move | None
    ) -> list[Move]:
        board = position.board
        killers = self.killers.get(ply, [])
        history = self.history
        best_path = None if best is None else best.path
        far = 7 if position.side == WHITE else 0

        def rank(move: Move) -> int:
            path = move.path
            if path == best_path:
                return 1 << 40
            if move.is_capture:
                taken = sum(abs(board[square]) for square in move.captured)
                return (1 << 36) + (taken << 8) + len(move.captured)
            if abs(board[move.from_square]) == 1 and move.to_square // 8 == far:
                return 1 << 35
            if path in killers:
                return (1 << 34) - killers.index(path)
            return history.get((move.from_square, move.to_square), 0)

        return sorted(moves, key=rank, reverse=True)

    def _remember(self, move: Move, ply: int, depth: int) -> None:
        if move.is_capture:
            return
        killers = self.killers.setdefault(ply, [])
        if move.path not in killers:
            killers.insert(0, move.path)
            del killers[2:]
        key = (move.from_square, move.to_square)
        self.history[key] = self.history.get(key, 0) + depth * depth

    def _store(
        self, key: PositionKey, depth: int, score: int, bound: int, move: Move | None
    ) -> None:
        if len(self.table) >= _TT_SIZE:
            self.table.clear()
        # Wins are stored as distances from this node, not from the root.
        self.table[key] = (depth, score, bound, move)

    def _child(self, position: Position, move: Move) -> Position:
        """The position after ``move``, kept for later iterations: a position caches its
        legal moves, so each is generated once per search."""
        children = self.children.get(id(position))
        if children is None:
            children = self.children[id(position)] = {}
        child = children.get(move.path)
        if child is None:
            child = children[move.path] = position.play(move)
        return child

    @staticmethod
    def _promotes(position: Position, move: Move) -> bool:
        far = 7 if position.side == WHITE else 0
        return abs(position.board[move.from_square]) == 1 and move.to_square // 8 == far

    @staticmethod
    def _draw_by_pieces(position: Position) -> bool:
        """One piece each and the side to move has no capture."""
        board = position.board
        if board.count(0) != 62 or sum(1 for piece in board if piece > 0) != 1:
            return False
        return not any(move.is_capture for move in position.legal_moves())

    # -- the search

    def search(self, position: Position, moves: list[Move] | None = None) -> SearchResult:
        """The best of ``moves`` (default: every legal move, in that order for ties)."""
        if moves is None:
            moves = position.legal_moves()
        if not moves:
            raise GameError("There is no legal move to choose from.")
        self.deadline = time.perf_counter() + (self.limits.seconds or 0.0)
        if len(moves) == 1:
            return SearchResult(moves[0], 0, 0, 0)
        best, best_score, done = moves[0], -WIN, 0
        depths = range(1, self.limits.depth + 1) if self.limits.iterative else [self.limits.depth]
        root_key = self._key(position)
        self.line = [root_key]
        for depth in depths:
            # sorted() is stable: among moves the ordering can't tell apart, the
            # caller's order stands (the players shuffle it with their rng).
            ordered = self._order(position, moves, 0, best if done else None)
            self.partial = None
            try:
                score, move = self._root(position, ordered, depth)
            except _OutOfBudget:
                # The previous best was searched first: a move that beat it at this
                # depth is the better choice even though the iteration is unfinished.
                if self.partial is not None:
                    best, best_score = self.partial[1], self.partial[0]
                break
            best, best_score, done = move, score, depth
            if abs(score) >= WON:
                break
        return SearchResult(best, best_score, done, self.nodes)

    def _root(self, position: Position, moves: list[Move], depth: int) -> tuple[int, Move]:
        alpha, beta = -WIN - 1, WIN + 1
        best = moves[0]
        for index, move in enumerate(moves):
            child = self._child(position, move)
            quiet = self._quiet_after(position, move, self.quiet_plies)
            if index == 0:
                score = -self._negamax(child, depth - 1, -beta, -alpha, 1, quiet)
            else:
                score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, 1, quiet)
                if score > alpha:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, 1, quiet)
            if score > alpha:
                alpha, best = score, move
                self.partial = (alpha, best)
        self._store(self._key(position), depth, alpha, EXACT, best)
        return alpha, best

    @staticmethod
    def _draw(ply: int) -> int:
        """A draw's score for the side to move ``ply`` plies into the search: a little
        below even for the side the search is for (`CONTEMPT`)."""
        return -CONTEMPT if ply % 2 == 0 else CONTEMPT

    @staticmethod
    def _quiet_after(position: Position, move: Move, quiet: int) -> int:
        """Quiet plies after ``move``: a capture or a man's forward move resets the count."""
        man = abs(position.board[move.from_square]) == 1
        if move.is_capture or (man and move.from_square // 8 != move.to_square // 8):
            return 0
        return quiet + 1

    def _negamax(
        self, position: Position, depth: int, alpha: int, beta: int, ply: int, quiet: int
    ) -> int:
        self._tick()
        moves = position.legal_moves()
        if not moves:
            return -WIN + ply
        key = self._key(position)
        if self._draw_by_pieces(position) or quiet >= QUIET_PLY_LIMIT or key in self.line:
            return self._draw(ply)
        if depth <= 0:
            return self._quiesce(position, moves, alpha, beta, ply, self.limits.quiescence)
        entry = self.table.get(key)
        hint: Move | None = None
        if entry is not None:
            stored_depth, stored, bound, hint = entry
            if stored_depth >= depth:
                stored = _from_table(stored, ply)
                if bound == EXACT:
                    return stored
                if bound == LOWER and stored >= beta:
                    return stored
                if bound == UPPER and stored <= alpha:
                    return stored
        original_alpha = alpha
        best_score, best_move = -WIN - 1, moves[0]
        self.line.append(key)
        try:
            killers = self.killers.get(ply, [])
            for index, move in enumerate(self._order(position, moves, ply, hint)):
                child = self._child(position, move)
                after = self._quiet_after(position, move, quiet)
                if index == 0:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1, after)
                    best_score, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            self._remember(move, ply, depth)
                            break
                    continue
                # Late quiet moves are searched a ply shallower first (late move
                # reduction); one that looks better than the best so far gets the full
                # depth, then (principal-variation search) the full window.
                reduced = (
                    depth >= LMR_DEPTH
                    and index >= LMR_AFTER
                    and not move.is_capture
                    and move.path not in killers
                    and not self._promotes(position, move)
                )
                score = -self._negamax(
                    child, depth - 1 - reduced, -alpha - 1, -alpha, ply + 1, after
                )
                if reduced and score > alpha:
                    score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1, after)
                if alpha < score < beta:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1, after)
                if score > best_score:
                    best_score, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            self._remember(move, ply, depth)
                            break
        finally:
            self.line.pop()
        if best_score <= original_alpha:
            bound = UPPER
        elif best_score >= beta:
            bound = LOWER
        else:
            bound = EXACT
        self._store(key, depth, _to_table(best_score, ply), bound, best_move)
        return best_score

    def _quiesce(
        self, position: Position, moves: list[Move], alpha: int, beta: int, ply: int, left: int
    ) -> int:
        """Captures only. Where a quiet move is legal the side may also stand pat (give
        and take: captures are optional unless the last-moved piece can be taken)."""
        captures = [move for move in moves if move.is_capture]
        forced = len(captures) == len(moves)
        if not forced or left <= 0:
            stand = evaluate(position)
            if not captures or left <= 0 or stand >= beta:
                return stand
            alpha = max(alpha, stand)
            best = stand
        else:
            best = -WIN - 1
        for move in self._order(position, captures, ply, None):
            child = self._child(position, move)
            self._tick()
            replies = child.legal_moves()
            if not replies:
                score = WIN - ply - 1
            elif self._draw_by_pieces(child):
                score = -self._draw(ply + 1)
            else:
                score = -self._quiesce(child, replies, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


def _to_table(score: int, ply: int) -> int:
    if score >= WON:
        return score + ply
    if score <= -WON:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= WON:
        return score - ply
    if score <= -WON:
        return score + ply
    return score


# --- The players ------------------------------------------------------------------------

NORMAL = Limits(depth=3, nodes=10_000, seconds=0.5, iterative=True, quiescence=6)
EASY_RANDOM = 4
"""``easy`` picks a move at random one time in this many."""


def position_and_moves(view: DraughtsView) -> tuple[Position, list[Move]]:
    """The view's position and its legal moves in the view's order."""
    if not view.legal_moves:
        raise GameError("There is no legal move to choose from.")
    position = Position.from_fen(view.fen, ruleset=view.ruleset, last_moved=view.last_moved)
    by_text = {str(move): move for move in position.legal_moves()}
    return position, [by_text[text] for text in view.legal_moves if text in by_text]


def draw_offered(view: DraughtsView) -> bool:
    """Whether the opponent's draw offer stands for the viewer to answer."""
    return view.draw_offer_by is not None and view.draw_offer_by != view.viewer


def choose_easy(view: DraughtsView, rng: SeededRng) -> str:
    """Greedy on material one ply ahead; one move in `EASY_RANDOM` at random. A draw
    offer is accepted unless ahead on material."""
    position, moves = position_and_moves(view)
    if draw_offered(view) and material(position, position.side) <= 0:
        return str(ACCEPT_DRAW)
    if rng.below(EASY_RANDOM) == 0:
        return str(moves[rng.below(len(moves))])
    side = position.side
    scored = [(material(position.play(move), side), move) for move in moves]
    top = max(score for score, _ in scored)
    best = [move for score, move in scored if score == top]
    return str(best[rng.below(len(best))])


def searcher(limits: Limits) -> Callable[[DraughtsView, SeededRng], str]:
    """A chooser searching with ``limits``; the rng shuffles the moves, so equally good
    moves vary from game to game (and a given rng state always gives the same move,
    unless the wall-clock cap cuts the search short)."""

    def choose(view: DraughtsView, rng: SeededRng) -> str:
        position, moves = position_and_moves(view)
        rng.shuffle(moves)
        result = Searcher(limits, view.quiet_plies).search(position, moves)
        # With one legal move there was no search: the evaluation judges the offer.
        score = result.score if result.depth else evaluate(position)
        if draw_offered(view) and score <= 0:
            return str(ACCEPT_DRAW)
        return str(result.move)

    return choose


FAST_NODES = 70_000
SEARCH_SHARE = 0.95
"""The share of the wall-clock budget the search itself may take: the rest pays for
what a decision does around it, chiefly freeing the search's tables (10-20 ms after a
search of 0.855 s), so that the decision as a whole ends within its budget."""


def _raw_text(move: RawMove) -> str:
    path, captured = move
    return ("x" if captured else "-").join(SQUARE_NAMES[square] for square in path)


def fast_searcher(
    nodes: int | None = FAST_NODES, seconds: float | Literal["think"] | None = "think"
) -> Callable[[DraughtsView, SeededRng], str]:
    """The ``hard`` chooser: `bot.ai.draughts_search` on bitboards (`bot.ai.draughts_bits`),
    within ``nodes`` (reproducible) and ``seconds`` (a cap on a busy machine; by
    default `bot.ai.budget.think_seconds`, read at each decision; None for no cap).
    The rng shuffles the root moves, so equally good moves vary from game to game."""

    def choose(view: DraughtsView, rng: SeededRng) -> str:
        position, moves = position_and_moves(view)
        rng.shuffle(moves)
        board = list(position.board)
        last = -1 if position.last_moved is None else position.last_moved
        raw = [(move.path, move.captured) for move in moves]
        limit = think_seconds() if seconds == "think" else seconds
        search_limit = None if limit is None else limit * SEARCH_SHARE
        with cyclic_gc_paused():  # the searcher's tables are freed before it resumes
            result = FastSearcher(position.turkish, nodes, search_limit, view.quiet_plies).search(
                board, position.side, last, raw
            )
        score = result.score if result.depth else evaluate(position)
        if draw_offered(view) and score <= 0:
            return str(ACCEPT_DRAW)
        return _raw_text(result.move)

    return choose


PLAYERS: Mapping[Level, Chooser] = {
    "easy": choose_easy,
    "normal": searcher(NORMAL),
    "hard": fast_searcher(),
}
