"""The ``hard`` draughts player's search: alpha-beta on bitboards
(`bot.ai.draughts_bits`), without a `Position` per node.

The bitboards play the engine's rules (the last-moved piece taken first in
give-and-take, the longest capture in Turkish, last-man crowning), checked against the
engine's own generator move for move, so the search can't disagree with the game.

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
- The quiescence search asks only for the captures and whether a quiet move is legal
  (`captures`), not for every quiet move.

The evaluation is `bot.ai.draughts.evaluate`'s, on bitboards.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass

from bot.ai.draughts_bits import (
    BLACK_CROWN,
    WHITE_CROWN,
    Bits,
    bits_of,
    captures,
    generate,
    make,
)
from bot.ai.draughts_bits import evaluate as evaluate_bits
from bot.engines.draughts import QUIET_PLY_LIMIT, WHITE, RawMove

WIN = 1_000_000
WON = WIN - 10_000
CONTEMPT = 15
PROGRESS = 2
"""Per quiet ply at a leaf (no capture, no man's forward move since), the searching
side's score drops by this much: in a level position it shuffles less and pushes on,
instead of repeating moves it can't know it has made before."""


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
        self.give_and_take = not turkish
        self.max_nodes = nodes if nodes is not None else 1 << 62
        self.seconds = seconds
        self.quiet_plies = quiet_plies
        self.max_depth = max_depth
        self.nodes = 0
        self.deadline = 0.0
        self.table: dict[Key, tuple[int, int, int, RawMove | None]] = {}
        self.killers: list[list[RawMove]] = [[] for _ in range(MAX_DEPTH + QUIESCENCE + 8)]
        self.history: defaultdict[RawMove, int] = defaultdict(int)
        self.line: set[Key] = set()
        self.generated: dict[Key, list[RawMove]] = {}
        self.tactics: dict[Key, tuple[list[RawMove], bool]] = {}
        self.root_side = WHITE
        self.partial: tuple[int, RawMove] | None = None

    def _key(self, bits: Bits, side: int, last: int) -> Key:
        return (*bits, side, -1 if self.turkish else last)

    def _moves(self, key: Key, bits: Bits, side: int, last: int) -> list[RawMove]:
        """The legal moves, generated once per position and search (iterative deepening
        visits most positions again)."""
        moves = self.generated.get(key)
        if moves is None:
            if len(self.generated) >= TT_SIZE:
                self.generated.clear()
            moves = self.generated[key] = generate(bits, side, last, self.turkish)
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
        self, bits: Bits, side: int, moves: list[RawMove], ply: int, best: RawMove | None
    ) -> list[RawMove]:
        """The moves, most promising first: ``best`` (the table's move), captures (most
        pieces, kings first), promotions, the killer moves, then the history of quiet
        moves that cut off; equals in the given order."""
        if len(moves) < 2:
            return moves
        killers = self.killers[ply]
        history = self.history
        if side == WHITE:
            men, crown, their_kings = bits[0], WHITE_CROWN, bits[3]
        else:
            men, crown, their_kings = bits[2], BLACK_CROWN, bits[1]

        def rank(move: RawMove) -> int:
            if move == best:
                return 1 << 40
            path, captured = move
            if captured:
                taken = len(captured)
                if their_kings:
                    for square in captured:
                        taken += their_kings >> square & 1
                return (1 << 36) + (taken << 8) + len(captured)
            start, end = path[0], path[-1]
            if men >> start & 1 and crown >> end & 1:
                return 1 << 35
            if move in killers:
                return (1 << 34) - killers.index(move)
            return history.get(move, 0)

        return sorted(moves, key=rank, reverse=True)

    def _order_quiet(
        self, bits: Bits, side: int, moves: list[RawMove], ply: int, best: RawMove | None
    ) -> list[RawMove]:
        """`_order` for a list of quiet moves only (most nodes' moves), in the same
        order, the history sort without a Python call per move."""
        men, crown = (bits[0], WHITE_CROWN) if side == WHITE else (bits[2], BLACK_CROWN)
        first = [best] if best is not None and best in moves else []
        if men & (crown >> 8 if side == WHITE else crown << 8):
            first += [
                move
                for move in moves
                if move != best and men >> move[0][0] & 1 and crown >> move[0][1] & 1
            ]
        for killer in self.killers[ply]:
            if killer not in first and killer in moves:
                first.append(killer)
        rest = [move for move in moves if move not in first] if first else moves[:]
        rest.sort(key=self.history.__getitem__, reverse=True)
        return first + rest

    def _remember(self, move: RawMove, ply: int, depth: int) -> None:
        if move[1]:
            return
        killers = self.killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] += depth * depth

    @staticmethod
    def _draw(ply: int) -> int:
        return -CONTEMPT if ply % 2 == 0 else CONTEMPT

    @staticmethod
    def _quiet_after(bits: Bits, side: int, move: RawMove, quiet: int) -> int:
        """The quiet plies after ``move``: none after a capture or a man's step forward."""
        path, captured = move
        start, end = path[0], path[-1]
        if captured:
            return 0
        men = bits[0] if side == WHITE else bits[2]
        if men >> start & 1 and start >> 3 != end >> 3:
            return 0
        return quiet + 1

    def search(self, board: list[int], side: int, last: int, moves: list[RawMove]) -> Result:
        """The best of ``moves`` (the legal moves, in the caller's order for ties)."""
        started = time.perf_counter()
        self.deadline = started + (self.seconds or 0.0)
        if len(moves) == 1:
            return Result(moves[0], 0, 0, 0, 0.0)
        bits = bits_of(board)
        best, best_score, done = moves[0], -WIN, 0
        self.root_side = side
        self.line = {self._key(bits, side, last)}
        for depth in range(1, self.max_depth + 1):
            ordered = self._order(bits, side, moves, 0, best if done else None)
            self.partial = None
            try:
                score, move = self._root(bits, side, ordered, depth)
            except OutOfBudget:
                if self.partial is not None:
                    best, best_score = self.partial[1], self.partial[0]
                break
            best, best_score, done = move, score, depth
            if abs(score) >= WON:
                break
        return Result(best, best_score, done, self.nodes, time.perf_counter() - started)

    def _root(self, bits: Bits, side: int, moves: list[RawMove], depth: int) -> tuple[int, RawMove]:
        alpha, beta = -WIN - 1, WIN + 1
        best = moves[0]
        for index, move in enumerate(moves):
            child = make(bits, side, move, self.give_and_take)
            quiet = self._quiet_after(bits, side, move, self.quiet_plies)
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

    @staticmethod
    def _two_pieces(bits: Bits) -> bool:
        return (bits[0] | bits[1] | bits[2] | bits[3]).bit_count() == 2

    def _negamax(
        self,
        bits: Bits,
        side: int,
        last: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        quiet: int,
    ) -> int:
        self._tick()
        key = self._key(bits, side, last)
        if depth <= 0:
            captures, can_step = self._captures(key, bits, side, last)
            settled = self._settled(key, bits, ply, quiet, captures, can_step)
            if settled is not None:
                return settled
            if not captures:  # most leaves: the quiescence search would only stand pat
                return self._stand(bits, side, quiet)
            return self._quiesce(
                bits, side, captures, can_step, alpha, beta, ply, QUIESCENCE, quiet
            )
        entry = self.table.get(key)
        hint: RawMove | None = None
        if entry is not None:
            # Searched before, so it has moves and more than one piece each: only the
            # line's draws come first (the table can't know this line's quiet plies).
            if quiet >= QUIET_PLY_LIMIT or key in self.line:
                return self._draw(ply)
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
        moves = self._moves(key, bits, side, last)
        if entry is None:
            settled = self._settled(key, bits, ply, quiet, moves, bool(moves) and not moves[-1][1])
            if settled is not None:
                return settled
        original_alpha = alpha
        best_score, best_move = -WIN - 1, moves[0]
        give_and_take = self.give_and_take
        killers = self.killers[ply]
        men, crown = (bits[0], WHITE_CROWN) if side == WHITE else (bits[2], BLACK_CROWN)
        self.line.add(key)
        try:
            # Generated lists hold their captures first: with none first, none at all.
            order = self._order if moves[0][1] else self._order_quiet
            for index, move in enumerate(order(bits, side, moves, ply, hint)):
                child = make(bits, side, move, give_and_take)
                after = self._quiet_after(bits, side, move, quiet)
                end = move[0][-1]
                if index == 0:
                    score = -self._negamax(
                        child, -side, end, depth - 1, -beta, -alpha, ply + 1, after
                    )
                else:
                    reduced = 0
                    if depth >= LMR_DEPTH and index >= LMR_AFTER and not move[1]:
                        start = move[0][0]
                        promotes = men >> start & 1 and crown >> end & 1
                        if move not in killers and not promotes:
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

    def _settled(
        self, key: Key, bits: Bits, ply: int, quiet: int, captures: list[RawMove], can_step: bool
    ) -> int | None:
        """The score of a position that ends the line, without a search: no legal move
        (lost), the 100th quiet ply, one piece each, or a position repeated along the
        line (drawn); None otherwise. ``captures`` may hold quiet moves too: only
        whether its first move is a capture counts."""
        if not captures and not can_step:
            return -WIN + ply
        if quiet >= QUIET_PLY_LIMIT:
            return self._draw(ply)
        if (not captures or not captures[0][1]) and self._two_pieces(bits):
            return self._draw(ply)  # one piece each (two pieces, one per side, no capture)
        if key in self.line:
            return self._draw(ply)
        return None

    def _stand(self, bits: Bits, side: int, quiet: int) -> int:
        """The standing-pat score: the evaluation, less a progress term for the
        searching side (it likes lines that capture or move a man forward: it can't
        see the game's repetitions, only the quiet plies)."""
        stand = evaluate_bits(bits, side)
        return stand - PROGRESS * quiet if side == self.root_side else stand + PROGRESS * quiet

    def _captures(self, key: Key, bits: Bits, side: int, last: int) -> tuple[list[RawMove], bool]:
        """The legal captures and whether a quiet move is legal (`captures`), once per
        position and search: the quiescence search needs no quiet moves."""
        found = self.tactics.get(key)
        if found is None:
            if len(self.tactics) >= TT_SIZE:
                self.tactics.clear()
            found = self.tactics[key] = captures(bits, side, last, self.turkish)
        return found

    def _quiesce(
        self,
        bits: Bits,
        side: int,
        captures: list[RawMove],
        can_step: bool,
        alpha: int,
        beta: int,
        ply: int,
        left: int,
        quiet: int = 0,
    ) -> int:
        """Captures only; where a quiet move is legal the side may stand pat instead
        (give and take: captures are optional unless the last-moved piece can be taken)."""
        if can_step or left <= 0:
            stand = self._stand(bits, side, quiet)
            if not captures or left <= 0 or stand >= beta:
                return stand
            alpha = max(alpha, stand)
            best = stand
        else:
            best = -WIN - 1
        give_and_take = self.give_and_take
        for move in self._order(bits, side, captures, ply, None):
            child = make(bits, side, move, give_and_take)
            self._tick()
            end = move[0][-1]
            replies, replies_step = self._captures(self._key(child, -side, end), child, -side, end)
            if not replies and not replies_step:
                score = WIN - ply - 1
            elif not replies and self._two_pieces(child):
                score = -self._draw(ply + 1)
            elif not replies:  # it would only stand pat
                score = -evaluate_bits(child, -side)
            else:
                score = -self._quiesce(
                    child, -side, replies, replies_step, -beta, -alpha, ply + 1, left - 1
                )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best
