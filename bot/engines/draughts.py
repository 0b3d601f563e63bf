"""Give and Take draughts (and Turkish draughts): orthogonal draughts on all 64 squares.

Two layers live here. A python-chess-like board API (`Position`, `Move`, `perft`) that
knows only the rules of movement, and `ENGINE`, the engine contract on top of it, which
adds the players, the draws, resignation, draw offers and the result.

Rulings implemented (RULINGS.md, Give and Take (draughts)):
- 8×8 board, files a–h, ranks 1–8, a1 bottom-left from White's side. White (seat 0)
  has men on ranks 2–3, Black (seat 1) on ranks 6–7; White moves first.
- Men move one square forward or sideways. Kings move any distance in all four
  orthogonal directions (the rule text's "forwards or sideways" is a slip).
- Men capture forward or sideways by jumping an adjacent enemy piece to the empty
  square behind it. Kings capture at a distance and choose where to land beyond the
  captured piece; where some landing squares let the capture continue, the king must
  land on one of those.
- A capture, once started, continues while the capturing piece can capture again.
  Turns of 90° and 180° between jumps are allowed. Captured pieces are removed at once
  (they can't block and can't be jumped twice).
- Captures are optional, except: if the piece the opponent moved last can be captured,
  the player must capture, and that piece must be the first one taken. After that any
  continuation may be chosen; there is no majority rule.
- Two capture paths that start and end on the same squares and take the same pieces
  are one move: `legal_moves` lists the first path found; the other path's text is
  accepted as the same move.
- A man reaching the far rank is promoted when the move ends; in the middle of a
  capture it goes on capturing as a man. A player's last remaining man becomes a king.
- A player with no legal move loses. Draws: one piece each, once the side to move has
  no capture; threefold repetition; 100 plies with no capture and no forward man move
  (sideways man moves and king moves can be undone, so they are not progress);
  agreement. Players may resign.
- Only positions since the last capture or forward man move can repeat, so the stored
  history starts afresh there and never holds more than the 100 quiet plies.
- Option ``ruleset``: ``give-and-take`` (default) or ``turkish``: capture is mandatory
  and the maximum capture (most pieces, men and kings alike) must be taken, no 180°
  turns, no last-man promotion, and no last-moved-piece rule.

Decisions where the rules are silent:
- "Last remaining man" follows the rule text: a player whose only piece is a man has
  it crowned at once (after the capture that left it alone; `Position.from_fen`
  crowns such a lone man too, as that position can't arise otherwise).
- The last-moved piece is the one standing on the landing square of the opponent's
  last move (`Position.last_moved`); at the start of a game there is none.
- Repetition compares the pieces, the side to move and (give-and-take) the last-moved
  square, as that changes the legal moves.
- "One piece each" applies to both rulesets, kings or men.
- After a move, a result is decided in this order: the side to move has no legal move
  (a win: ``no-pieces`` or ``blocked``), one piece each with no capture for the side
  to move, threefold repetition, 100 quiet plies.
- Resigning, offering and accepting a draw are actions of the player to move, listed
  in `legal_actions`: the contract's ``to_act`` names whose turn it is (the turn flow
  and computer players act for everyone listed there), and whoever is not listed has
  no legal action. Resigning out of turn is `DraughtsEngine.resign(state, player)`,
  which either seated player may call while the game runs.
- A draw offer is made by the player to move, who then still moves; it stands during
  the opponent's next turn, who accepts it with ``accept draw`` or declines it by
  doing anything else. One offer per turn.
- Scores: a win 2, a draw 1 each, a loss 0 (draughts tournament points).
- ``apply`` given text reads it leniently against the position (another path of the
  same capture, or just the start and end squares when only one legal move fits); an
  action model must be one of `legal_actions` exactly.
- The ruleset switch changes only what the ruling lists: Turkish men also finish a
  capture as men on the far rank, and "one piece each" draws there too.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from threading import Lock
from typing import ClassVar, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.engines.base import (
    Engine,
    GameError,
    IllegalAction,
    Outcome,
    PlayerId,
    TurnEngine,
    VersionedModel,
    check_player_count,
    parse_options,
)

Ruleset = Literal["give-and-take", "turkish"]
Colour = Literal["white", "black"]
Reason = Literal[
    "no-pieces",
    "blocked",
    "resignation",
    "agreement",
    "one-piece-each",
    "threefold-repetition",
    "quiet-plies",
]

QUIET_PLY_LIMIT = 100
REPETITIONS = 3
PIECES_PER_SIDE = 16
WIN_POINTS, DRAW_POINTS, LOSS_POINTS = 2, 1, 0

# --- Squares and directions -----------------------------------------------------------

FILES = "abcdefgh"
SQUARE_NAMES: tuple[str, ...] = tuple(f"{f}{r + 1}" for r in range(8) for f in FILES)
"""Square index -> name; index = rank * 8 + file, so a1 = 0, h1 = 7, a8 = 56."""
SQUARES: dict[str, int] = {name: index for index, name in enumerate(SQUARE_NAMES)}

NORTH, SOUTH, EAST, WEST = 0, 1, 2, 3
REVERSE = (SOUTH, NORTH, WEST, EAST)
_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
ALL_DIRECTIONS = (NORTH, SOUTH, EAST, WEST)

# Pieces: positive White, negative Black; 1 a man, 2 a king. Sides: 1 White, -1 Black.
EMPTY = 0
WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = 1, 2, -1, -2
WHITE, BLACK = 1, -1


def _ray(square: int, direction: int) -> tuple[int, ...]:
    file, rank = square % 8, square // 8
    step_file, step_rank = _STEPS[direction]
    squares = []
    file, rank = file + step_file, rank + step_rank
    while 0 <= file < 8 and 0 <= rank < 8:
        squares.append(rank * 8 + file)
        file, rank = file + step_file, rank + step_rank
    return tuple(squares)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(square, direction) for direction in ALL_DIRECTIONS) for square in range(64)
)
"""RAYS[square][direction]: the squares from ``square`` to the edge, nearest first."""

MAN_DIRECTIONS: dict[int, tuple[int, ...]] = {
    WHITE: (NORTH, EAST, WEST),
    BLACK: (SOUTH, EAST, WEST),
}
"""Forward and sideways, per side."""


def square_index(square: int | str) -> int:
    """``"c4"`` (or an index 0–63) as an index; `InvalidSquareError` otherwise."""
    if isinstance(square, int):
        if 0 <= square < 64:
            return square
    elif square.strip().lower() in SQUARES:
        return SQUARES[square.strip().lower()]
    raise InvalidSquareError(
        "{square!r} is not a square; files run a–h and ranks 1–8.", square=square
    )


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def colour_of(side: int) -> Colour:
    return "white" if side == WHITE else "black"


class InvalidSquareError(GameError, ValueError):
    """Not a square of the board."""


class InvalidFenError(GameError, ValueError):
    """The text is not a position this module can read."""


class InvalidMoveError(IllegalAction, ValueError):
    """The text is not a move in draughts notation (``c3-c4``, ``c4xc6xc8``)."""


class NotAMoveError(InvalidMoveError):
    """The text isn't shaped like a move at all (no squares joined by ``-`` or ``x``)."""


class IllegalMoveError(IllegalAction):
    """The move is well formed but not legal in the position."""


class AmbiguousMoveError(IllegalMoveError):
    """A short form (``c4xc8``) matches more than one legal move."""


# --- Move generation: the hot path (ints, lists and tuples only) ----------------------

RawMove = tuple[tuple[int, ...], tuple[int, ...]]
"""(path: the start square and every landing square, captured: the squares taken in order)."""
_Step = tuple[int, int, list[int]]
"""(direction, captured square, landing squares) of one jump."""


def _capture_steps(
    board: list[int], at: int, king: bool, directions: tuple[int, ...], side: int, banned: int
) -> list[_Step]:
    """Every single jump from ``at`` (the moving piece itself already lifted)."""
    steps: list[_Step] = []
    rays = RAYS[at]
    for direction in directions:
        if direction == banned:
            continue
        ray = rays[direction]
        if king:
            length = len(ray)
            i = 0
            while i < length and board[ray[i]] == 0:
                i += 1
            if i >= length - 1 or board[ray[i]] * side > 0:
                continue
            landings = []
            j = i + 1
            while j < length and board[ray[j]] == 0:
                landings.append(ray[j])
                j += 1
            if landings:
                steps.append((direction, ray[i], landings))
        elif len(ray) > 1 and board[ray[0]] * side < 0 and board[ray[1]] == 0:
            steps.append((direction, ray[0], [ray[1]]))
    return steps


def _can_capture(
    board: list[int], at: int, king: bool, directions: tuple[int, ...], side: int, banned: int
) -> bool:
    """Whether a piece on ``at`` has any jump (as `_capture_steps`, stopping at the first)."""
    rays = RAYS[at]
    for direction in directions:
        if direction == banned:
            continue
        ray = rays[direction]
        if king:
            length = len(ray)
            i = 0
            while i < length and board[ray[i]] == 0:
                i += 1
            if i < length - 1 and board[ray[i]] * side < 0 and board[ray[i + 1]] == 0:
                return True
        elif len(ray) > 1 and board[ray[0]] * side < 0 and board[ray[1]] == 0:
            return True
    return False


def _follow(
    board: list[int],
    steps: list[_Step],
    king: bool,
    directions: tuple[int, ...],
    side: int,
    turkish: bool,
    path: list[int],
    captured: list[int],
    out: list[RawMove],
) -> None:
    """Take each of ``steps`` in turn (removing the piece at once) and go on capturing
    while possible; every finished sequence goes to ``out``."""
    for direction, victim, landings in steps:
        piece = board[victim]
        board[victim] = EMPTY
        captured.append(victim)
        banned = REVERSE[direction] if turkish else -1
        if len(landings) > 1:
            onward = [
                square
                for square in landings
                if _can_capture(board, square, king, directions, side, banned)
            ]
            if onward:
                landings = onward
        for square in landings:
            path.append(square)
            more = _capture_steps(board, square, king, directions, side, banned)
            if more:
                _follow(board, more, king, directions, side, turkish, path, captured, out)
            else:
                out.append((tuple(path), tuple(captured)))
            path.pop()
        captured.pop()
        board[victim] = piece


def _captures(
    board: list[int], squares: Iterable[int], side: int, turkish: bool, first: int
) -> list[RawMove]:
    """Every capture sequence of the pieces on ``squares``; with ``first`` >= 0 only those
    whose first jump takes the piece on ``first``. Duplicates are not yet removed."""
    out: list[RawMove] = []
    for square in squares:
        piece = board[square]
        king = piece in (WHITE_KING, BLACK_KING)
        directions = ALL_DIRECTIONS if king else MAN_DIRECTIONS[side]
        board[square] = EMPTY
        steps = _capture_steps(board, square, king, directions, side, -1)
        if first >= 0:
            steps = [step for step in steps if step[1] == first]
        if steps:
            _follow(board, steps, king, directions, side, turkish, [square], [], out)
        board[square] = piece
    return out


def _dedupe(moves: list[RawMove]) -> list[RawMove]:
    """One move per (start, end, pieces taken): the first path found stands for all."""
    if len(moves) < 2:
        return moves
    seen: set[tuple[int, int, frozenset[int]]] = set()
    unique: list[RawMove] = []
    for move in moves:
        path, captured = move
        key = (path[0], path[-1], frozenset(captured))
        if key not in seen:
            seen.add(key)
            unique.append(move)
    return unique


def _generate(board: list[int], side: int, last: int, turkish: bool) -> list[RawMove]:
    """Every legal move of ``side`` (``board`` is restored before returning)."""
    own = [square for square in range(64) if board[square] * side > 0]
    if not turkish and last >= 0 and board[last] * side < 0:
        forced = _captures(board, own, side, False, last)
        if forced:
            return _dedupe(forced)
    captures = _captures(board, own, side, turkish, -1)
    if turkish and captures:
        most = max(len(captured) for _, captured in captures)
        return _dedupe([move for move in captures if len(move[1]) == most])
    moves = _dedupe(captures)
    for square in own:
        piece = board[square]
        if piece in (WHITE_KING, BLACK_KING):
            for ray in RAYS[square]:
                for target in ray:
                    if board[target]:
                        break
                    moves.append(((square, target), ()))
        else:
            for direction in MAN_DIRECTIONS[side]:
                ray = RAYS[square][direction]
                if ray and board[ray[0]] == 0:
                    moves.append(((square, ray[0]), ()))
    return moves


def _crown_last_man(board: list[int], side: int) -> None:
    """Give and take: a side whose only piece is a man has it crowned."""
    found = -1
    for square in range(64):
        if board[square] * side > 0:
            if found >= 0:
                return
            found = square
    if found >= 0 and (board[found] == WHITE_MAN or board[found] == BLACK_MAN):
        board[found] = 2 * side


def _make(board: Sequence[int], move: RawMove, give_and_take: bool) -> list[int]:
    """The board after ``move`` (a new list): captures removed, promotion at the end."""
    path, captured = move
    after = list(board)
    start, end = path[0], path[-1]
    piece = after[start]
    after[start] = EMPTY
    for square in captured:
        after[square] = EMPTY
    if piece == WHITE_MAN:
        if end >= 56:
            piece = WHITE_KING
    elif piece == BLACK_MAN and end < 8:
        piece = BLACK_KING
    after[end] = piece
    if give_and_take and captured:
        _crown_last_man(after, -1 if piece > 0 else 1)
    return after


def _perft(board: list[int], side: int, last: int, depth: int, turkish: bool) -> int:
    moves = _generate(board, side, last, turkish)
    if depth == 1:
        return len(moves)
    total = 0
    give_and_take = not turkish
    for move in moves:
        child = _make(board, move, give_and_take)
        total += _perft(child, -side, move[0][-1], depth - 1, turkish)
    return total


# --- Moves and positions ----------------------------------------------------------------

_MOVE_TEXT = re.compile(r"^[a-h][1-8](?:[-x][a-h][1-8])+$")
_MOVE_SHAPE = re.compile(r"^[a-z]\d+(?:[-x][a-z]\d+)+$")
"""Squares joined by ``-`` or ``x``, the squares not yet checked: ``i1-i2`` is a move
with a bad square, ``hello`` no move at all."""


MOVE_SIGNS = str.maketrans(
    {"×": "x", ":": "x", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-"}
)
"""Signs people type for a capture or a step, mapped to the notation's ``x`` and ``-``:
phones turn ``--`` into an en dash, and word processors ``-`` into a minus sign."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move as written: ``c3-c4`` (a step or a king's slide) or ``c4xc6xc8`` (a capture,
    naming every landing square). Equal moves have equal text.

    ``captured`` (the squares of the pieces taken, in order) is filled in for moves from
    `Position.legal_moves`; a parsed move doesn't know it yet."""

    path: tuple[int, ...]
    """The start square, then every square the piece lands on."""
    is_capture: bool
    captured: tuple[int, ...] = field(default=(), compare=False)

    @property
    def from_square(self) -> int:
        return self.path[0]

    @property
    def to_square(self) -> int:
        return self.path[-1]

    def __str__(self) -> str:
        return ("x" if self.is_capture else "-").join(SQUARE_NAMES[s] for s in self.path)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``c3-c4`` or ``c4xc6xc8`` (case and spaces don't matter; ``:`` or ``×``
        may stand for ``x``, and any dash a keyboard or phone makes for ``-``). Raises
        `InvalidMoveError`."""
        cleaned = "".join(text.split()).lower().translate(MOVE_SIGNS)
        if _MOVE_SHAPE.match(cleaned) and not _MOVE_TEXT.match(cleaned):
            bad = next(name for name in re.findall(r"[a-z]\d+", cleaned) if name not in SQUARES)
            raise InvalidMoveError(
                "{square!r} is not a square; files run a–h and ranks 1–8.", square=bad
            )
        if not _MOVE_TEXT.match(cleaned):
            raise NotAMoveError(
                "{text!r} is not a move; write it like c3-c4, or c4xc6xc8 for a capture.",
                text=text,
            )
        capture = "x" in cleaned
        if capture and "-" in cleaned:
            raise InvalidMoveError(
                "{text!r} mixes - and x; a capture uses x throughout.", text=text
            )
        path = tuple(SQUARES[name] for name in re.findall(r"[a-h][1-8]", cleaned))
        if not capture and len(path) != 2:
            raise InvalidMoveError("{text!r}: a move without capture has two squares.", text=text)
        if any(a == b for a, b in pairwise(path)):
            raise InvalidMoveError("{text!r} stands still.", text=text)
        return cls(path, capture)


class Piece(NamedTuple):
    colour: Colour
    king: bool

    def symbol(self) -> str:
        """``w``/``b`` for men, ``W``/``B`` for kings."""
        letter = "w" if self.colour == "white" else "b"
        return letter.upper() if self.king else letter


_PIECE_OF = {
    WHITE_MAN: Piece("white", False),
    WHITE_KING: Piece("white", True),
    BLACK_MAN: Piece("black", False),
    BLACK_KING: Piece("black", True),
}


_PIECE_CODES = frozenset((EMPTY, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING))


def _start_board() -> tuple[int, ...]:
    board = [EMPTY] * 64
    for square in range(8, 24):
        board[square] = WHITE_MAN
    for square in range(40, 56):
        board[square] = BLACK_MAN
    return tuple(board)


START_BOARD = _start_board()
START_FEN = (
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
    ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
)


class Position:
    """A board, the side to move, the ruleset and (give-and-take) where the piece the
    opponent moved last stands. Immutable; `play` returns a new position.

    Squares are indices 0–63 (``a1`` = 0, ``h8`` = 63; see `SQUARE_NAMES`) or names."""

    __slots__ = ("_board", "_last", "_moves", "_ruleset", "_side")

    def __init__(
        self,
        board: Sequence[int] = START_BOARD,
        side: int = WHITE,
        last_moved: int | None = None,
        ruleset: Ruleset = "give-and-take",
    ) -> None:
        """``board``: 64 ints (0 empty, 1/2 white man/king, -1/-2 black man/king),
        ``side``: 1 White or -1 Black to move. Prefer `from_fen` and `initial`."""
        if len(board) != 64 or not _PIECE_CODES.issuperset(board):
            raise InvalidFenError("A board is 64 squares of -2..2.")
        if side not in (WHITE, BLACK):
            raise InvalidFenError("The side to move is 1 (White) or -1 (Black).")
        if ruleset not in ("give-and-take", "turkish"):
            raise InvalidFenError("Unknown ruleset {ruleset!r}.", ruleset=ruleset)
        self._board: tuple[int, ...] = tuple(board)
        self._side = side
        self._last = last_moved
        self._ruleset: Ruleset = ruleset
        self._moves: tuple[list[Move], dict[str, Move]] | None = None

    # -- construction and text

    @classmethod
    def initial(cls, ruleset: Ruleset = "give-and-take") -> Position:
        return cls(START_BOARD, WHITE, None, ruleset)

    @classmethod
    def from_fen(
        cls, fen: str, ruleset: Ruleset = "give-and-take", last_moved: int | str | None = None
    ) -> Position:
        """Read ``"W:Wa3,c4,Kd5:Bc7,Kh8"``: the side to move, then each side's pieces
        (``K`` marks a king). ``last_moved`` is the square of the piece the opponent
        moved last (give-and-take). Raises `InvalidFenError`."""
        text = "".join(fen.split()).rstrip(".")
        parts = text.split(":")
        if not parts or parts[0].upper() not in ("W", "B"):
            raise InvalidFenError(
                "{fen!r}: a position starts with W or B (the side to move).", fen=fen
            )
        side = WHITE if parts[0].upper() == "W" else BLACK
        board = [EMPTY] * 64
        seen_sides: set[str] = set()
        for part in parts[1:]:
            if not part or part[0].upper() not in ("W", "B"):
                raise InvalidFenError("{fen!r}: each side's pieces start with W or B.", fen=fen)
            colour = part[0].upper()
            if colour in seen_sides:
                raise InvalidFenError("{fen!r} lists {colour} twice.", fen=fen, colour=colour)
            seen_sides.add(colour)
            sign = WHITE if colour == "W" else BLACK
            tokens = [token for token in part[1:].split(",") if token]
            if len(tokens) > PIECES_PER_SIDE:
                raise InvalidFenError(
                    "{fen!r}: a side has at most {most} pieces.", fen=fen, most=PIECES_PER_SIDE
                )
            for token in tokens:
                king = token[0] in "Kk"
                name = token[1:] if king else token
                if name.lower() not in SQUARES:
                    raise InvalidFenError(
                        "{fen!r}: {token!r} is not a square.", fen=fen, token=token
                    )
                square = SQUARES[name.lower()]
                if board[square]:
                    raise InvalidFenError(
                        "{fen!r}: two pieces on {square}.", fen=fen, square=name.lower()
                    )
                far = 7 if sign == WHITE else 0
                if not king and square // 8 == far:
                    raise InvalidFenError(
                        "{fen!r}: a man can't stand on {square}, its promotion rank.",
                        fen=fen,
                        square=name.lower(),
                    )
                board[square] = sign * (2 if king else 1)
        last: int | None = None
        if last_moved is not None:
            try:
                last = square_index(last_moved)
            except InvalidSquareError as error:
                raise InvalidFenError(error.template, **error.params) from error
            if board[last] * side >= 0:
                raise InvalidFenError(
                    "The last-moved piece on {square} must belong to the side that just moved.",
                    square=SQUARE_NAMES[last],
                )
        if ruleset == "give-and-take":
            _crown_last_man(board, WHITE)
            _crown_last_man(board, BLACK)
        return cls(board, side, last, ruleset)

    def fen(self) -> str:
        """``W:Wa3,c4,Kd5:Bc7,Kh8``: squares in order a1, b1, …, h8."""
        parts = ["W" if self._side == WHITE else "B"]
        for sign, letter in ((WHITE, "W"), (BLACK, "B")):
            names = [
                ("K" if abs(piece) == 2 else "") + SQUARE_NAMES[square]
                for square, piece in enumerate(self._board)
                if piece * sign > 0
            ]
            parts.append(letter + ",".join(names))
        return ":".join(parts)

    def __str__(self) -> str:
        """A text diagram, rank 8 on top: ``w``/``b`` men, ``W``/``B`` kings."""
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = self._board[rank * 8 + file]
                cells.append(_PIECE_OF[piece].symbol() if piece else ".")
            rows.append(f"{rank + 1} {' '.join(cells)}")
        rows.append("  " + " ".join(FILES))
        return "\n".join(rows)

    def __repr__(self) -> str:
        last = "" if self._last is None else f", last_moved={SQUARE_NAMES[self._last]!r}"
        return f"Position.from_fen({self.fen()!r}, ruleset={self._ruleset!r}{last})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[tuple[int, ...], int, int | None, str]:
        return (self._board, self._side, self._last, self._ruleset)

    # -- reading the board

    @property
    def board(self) -> tuple[int, ...]:
        """64 ints, index = rank * 8 + file: 0 empty, 1/2 white man/king, -1/-2 black."""
        return self._board

    @property
    def turn(self) -> Colour:
        return colour_of(self._side)

    @property
    def side(self) -> int:
        """1 when White is to move, -1 for Black."""
        return self._side

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def last_moved(self) -> int | None:
        """Where the piece the opponent moved last stands (None at the start)."""
        return self._last

    def piece_at(self, square: int | str) -> Piece | None:
        piece = self._board[square_index(square)]
        return _PIECE_OF[piece] if piece else None

    def pieces(self, colour: Colour) -> list[int]:
        """The squares of ``colour``'s pieces, ascending."""
        sign = WHITE if colour == "white" else BLACK
        return [square for square, piece in enumerate(self._board) if piece * sign > 0]

    def count(self, colour: Colour) -> int:
        return len(self.pieces(colour))

    # -- moves

    def _legal(self) -> tuple[list[Move], dict[str, Move]]:
        if self._moves is None:
            raw = _generate(list(self._board), self._side, self._last_index(), self.turkish)
            moves = sorted(
                (Move(path, bool(captured), captured) for path, captured in raw),
                key=lambda move: (move.path[0], move.path[-1], move.path),
            )
            self._moves = (moves, {str(move): move for move in moves})
        return self._moves

    @property
    def turkish(self) -> bool:
        return self._ruleset == "turkish"

    def _last_index(self) -> int:
        return -1 if self._last is None else self._last

    def legal_moves(self) -> list[Move]:
        """Every legal move, ordered by start square, end square, then path."""
        return list(self._legal()[0])

    def is_legal(self, move: Move) -> bool:
        return str(move) in self._legal()[1]

    def capture_required(self) -> bool:
        """Whether the side to move must capture: (Turkish) a capture is available, or
        (give-and-take) the last-moved piece can be taken."""
        moves = self._legal()[0]
        if not moves or not moves[0].is_capture:
            return False
        return self.turkish or moves[0].captured[0] == self._last

    def forced_capture_squares(self) -> list[int]:
        """The pieces that must capture (and may do nothing else), ascending."""
        if not self.capture_required():
            return []
        return sorted({move.from_square for move in self._legal()[0]})

    def parse_move(self, text: str | Move) -> Move:
        """The legal move meant by ``text``: its notation, another path of the same move,
        or (when only one legal move fits) just the start and end squares, e.g. ``c4xc8``
        or ``d1-d5`` for a capture. Raises `InvalidMoveError` / `IllegalMoveError`."""
        wanted = text if isinstance(text, Move) else Move.parse(text)
        moves, by_text = self._legal()
        exact = by_text.get(str(wanted))
        if exact is not None:
            return exact
        if wanted.is_capture and len(wanted.path) > 2:
            same = self._other_paths().get(wanted.path)
            if same is not None:
                return same
        ends = [
            move
            for move in moves
            if move.from_square == wanted.from_square and move.to_square == wanted.to_square
        ]
        if len(wanted.path) == 2 and len(ends) == 1:
            return ends[0]
        if len(wanted.path) == 2 and len(ends) > 1:
            shown = ", ".join(str(move) for move in ends)
            raise AmbiguousMoveError(
                "{move} could be {moves}: name every landing square.", move=str(wanted), moves=shown
            )
        raise self._illegal(wanted)

    def _other_paths(self) -> dict[tuple[int, ...], Move]:
        """Every capture path, duplicates included, mapped to the move it stands for."""
        board = list(self._board)
        own = [square for square in range(64) if board[square] * self._side > 0]
        first = self._last_index() if self.capture_required() and not self.turkish else -1
        raw = _captures(board, own, self._side, self.turkish, first)
        canonical = {
            (move.from_square, move.to_square, frozenset(move.captured)): move
            for move in self._legal()[0]
        }
        paths: dict[tuple[int, ...], Move] = {}
        for path, captured in raw:
            found = canonical.get((path[0], path[-1], frozenset(captured)))
            if found is not None:
                paths.setdefault(path, found)
        return paths

    def _illegal(self, move: Move) -> IllegalMoveError:
        """The error saying why ``move`` (not a legal move) is illegal here."""
        piece = self._board[move.from_square]
        text, start = str(move), SQUARE_NAMES[move.from_square]
        if not piece:
            return IllegalMoveError(
                "{move} is not legal: there is no piece on {start}.", move=text, start=start
            )
        if piece * self._side < 0:
            return IllegalMoveError(
                "{move} is not legal: the piece on {start} is not yours.", move=text, start=start
            )
        if self.capture_required():
            squares = ", ".join(SQUARE_NAMES[s] for s in self.forced_capture_squares())
            if self.turkish:
                return IllegalMoveError(
                    "{move} is not legal: you must make the longest capture (from {squares}).",
                    move=text,
                    squares=squares,
                )
            return IllegalMoveError(
                "{move} is not legal: you must capture the piece that just moved to {last} "
                "(from {squares}).",
                move=text,
                last=SQUARE_NAMES[self._last_index()],
                squares=squares,
            )
        return IllegalMoveError("{move} is not a legal move here.", move=text)

    def play(self, move: Move | str) -> Position:
        """The position after a legal move (a `Move` or its text, see `parse_move`)."""
        return self._play(self.parse_move(move))

    def _play(self, move: Move) -> Position:
        board = _make(self._board, (move.path, move.captured), not self.turkish)
        return Position(board, -self._side, move.to_square, self._ruleset)


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of ``depth`` plies from ``position`` (leaf nodes)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    board = list(position.board)
    last = -1 if position.last_moved is None else position.last_moved
    return _perft(board, position.side, last, depth, position.turkish)


# --- Options, actions, state ------------------------------------------------------------


class DraughtsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: Ruleset = "give-and-take"
    """``give-and-take`` (captures optional but for the last-moved piece) or ``turkish``
    (mandatory maximum capture)."""


ActionKind = Literal["move", "resign", "offer_draw", "accept_draw"]
_ACTION_WORDS: dict[str, ActionKind] = {
    "resign": "resign",
    "offer draw": "offer_draw",
    "offer_draw": "offer_draw",
    "offer-draw": "offer_draw",
    "draw?": "offer_draw",
    "accept draw": "accept_draw",
    "accept_draw": "accept_draw",
    "accept-draw": "accept_draw",
}


@lru_cache(maxsize=4096)
def _normalise(text: str) -> str:
    """A move's text as `Move.__str__` writes it (memoised: actions are built often)."""
    return str(Move.parse(text))


class DraughtsAction(VersionedModel):
    """A move (``move`` holds its notation) or ``resign``, ``offer draw``, ``accept draw``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ActionKind
    move: str | None = None

    @field_validator("move")
    @classmethod
    def _notation(cls, move: str | None) -> str | None:
        return None if move is None else _normalise(move)

    @model_validator(mode="after")
    def _move_iff_kind(self) -> DraughtsAction:
        if (self.kind == "move") != (self.move is not None):
            raise ValueError("a move action needs its move, and only a move action has one")
        return self

    def __str__(self) -> str:
        if self.kind == "move":
            assert self.move is not None
            return self.move
        return self.kind.replace("_", " ")


RESIGN = DraughtsAction(kind="resign")
OFFER_DRAW = DraughtsAction(kind="offer_draw")
ACCEPT_DRAW = DraughtsAction(kind="accept_draw")


def move_action(move: Move | str) -> DraughtsAction:
    """The action playing ``move`` (a `Move` or its text)."""
    return DraughtsAction(kind="move", move=str(move))


def parse_action(text: str) -> DraughtsAction:
    """``resign``, ``offer draw``, ``accept draw`` or a move (``c3-c4``, ``c4xc6xc8``).
    Text shaped like a move keeps `Move.parse`'s own error (a bad square, ``-`` mixed
    with ``x``, …); anything else is told every form an action may take."""
    words = " ".join(text.lower().split())
    kind = _ACTION_WORDS.get(words)
    if kind is not None:
        return DraughtsAction(kind=kind)
    try:
        return move_action(Move.parse(text))
    except NotAMoveError as error:
        raise InvalidMoveError(
            "{text!r} is not a draughts action; write a move like c3-c4 or c4xc6xc8, "
            "or resign, offer draw, accept draw.",
            text=text,
        ) from error


class DraughtsState(VersionedModel):
    players: list[PlayerId]
    """Seat 0 plays White, seat 1 Black."""
    ruleset: Ruleset = "give-and-take"
    position: str
    """The board as FEN, side to move first (`Position.fen`)."""
    last_moved: str | None = None
    """Where the piece moved last stands (its landing square); None before any move."""
    last_move: str | None = None
    """The last move's notation."""
    last_captures: list[str] = Field(default_factory=list)
    """The squares of the pieces the last move took, in order."""
    plies: int = 0
    quiet_plies: int = 0
    """Plies since the last capture or forward man move."""
    history: list[str]
    """Repetition keys since the last capture or forward man move, the current one last."""
    lost: list[int] = Field(default_factory=lambda: [0, 0])
    """Pieces each seat has lost."""
    draw_offer: int | None = None
    """The seat whose draw offer stands."""
    result: Literal["white", "black", "draw"] | None = None
    reason: Reason | None = None


# --- Views ------------------------------------------------------------------------------


class PieceView(BaseModel):
    square: str
    colour: Colour
    king: bool


class MoveView(BaseModel):
    notation: str
    """As typed and as `legal_moves` lists it: ``c3-c4``, ``c4xc6xc8``."""
    from_square: str
    to_square: str
    path: list[str]
    """The start square and every landing square."""
    captures: list[str]
    """The squares of the pieces taken, in order."""
    promotes: bool


class DraughtsView(BaseModel):
    viewer: PlayerId | None
    ruleset: Ruleset
    white: PlayerId
    black: PlayerId
    fen: str
    pieces: list[PieceView]
    """Every piece on the board (perfect information), by square a1, b1, …, h8."""
    to_move: Colour
    """The side to move in the position (also once the game is over)."""
    to_act: PlayerId | None
    legal_moves: list[str]
    """The moves of the side to move, in notation; empty once the game is over."""
    moves: list[MoveView]
    """The same moves in detail, for a move picker and for drawing them."""
    capture_required: bool
    forced_capture_squares: list[str]
    """Pieces that must capture (Turkish: with the longest capture; give-and-take: the
    pieces that can take the last-moved piece); empty when capturing is optional."""
    last_move: str | None
    last_move_squares: list[str]
    """The last move's start and landing squares."""
    last_captures: list[str]
    last_moved: str | None
    """Where the piece moved last stands (give-and-take: it must be taken if it can)."""
    men: dict[Colour, int]
    kings: dict[Colour, int]
    lost: dict[Colour, int]
    """Pieces each side has lost."""
    plies: int
    quiet_plies: int
    draw_offer_by: PlayerId | None
    over: bool
    result: Literal["white", "black", "draw"] | None
    winner: PlayerId | None
    reason: Reason | None
    reason_text: str | None


def reason_text(result: str | None, reason: Reason | None) -> str | None:
    """A sentence for the end of the game."""
    if reason is None:
        return None
    winner = "White" if result == "white" else "Black"
    loser = "Black" if result == "white" else "White"
    texts: dict[Reason, str] = {
        "no-pieces": f"{winner} wins: {loser} has no pieces left.",
        "blocked": f"{winner} wins: {loser} has no legal move.",
        "resignation": f"{winner} wins: {loser} resigned.",
        "agreement": "Draw by agreement.",
        "one-piece-each": "Draw: one piece each.",
        "threefold-repetition": "Draw by threefold repetition.",
        "quiet-plies": f"Draw: {QUIET_PLY_LIMIT} plies without a capture or a forward man move.",
    }
    return texts[reason]


# --- The engine -------------------------------------------------------------------------


def _one_piece_each(position: Position) -> bool:
    return position.count("white") == 1 and position.count("black") == 1


def _can_capture_now(position: Position) -> bool:
    """Whether the side to move has a capture (then "one piece each" is no draw yet)."""
    return any(move.is_capture for move in position.legal_moves())


class _PositionCache:
    """Recently used positions by (FEN, ruleset, last-moved square): positions are
    immutable and cache their legal moves, so a state's moves are generated once."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, str, str | None], Position] = OrderedDict()
        self._lock = Lock()

    def get(self, fen: str, ruleset: Ruleset, last_moved: str | None) -> Position:
        key = (fen, ruleset, last_moved)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        return self.put(key, Position.from_fen(fen, ruleset, last_moved))

    def put(self, key: tuple[str, str, str | None], position: Position) -> Position:
        with self._lock:
            self._items[key] = position
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return position


_POSITIONS = _PositionCache(4096)


def position_of(state: DraughtsState) -> Position:
    """The state's board as a `Position` (cached: positions are immutable)."""
    return _POSITIONS.get(state.position, state.ruleset, state.last_moved)


@lru_cache(maxsize=2048)
def _move_actions(position: Position) -> tuple[DraughtsAction, ...]:
    return tuple(DraughtsAction(kind="move", move=str(move)) for move in position.legal_moves())


def repetition_key(position: Position) -> str:
    """What must recur for a repetition: pieces, side to move and (give-and-take) the
    last-moved square, which decides whether a capture is compulsory."""
    if position.turkish or position.last_moved is None:
        return position.fen()
    return f"{position.fen()}@{SQUARE_NAMES[position.last_moved]}"


class DraughtsEngine(TurnEngine[DraughtsState, DraughtsAction, DraughtsView]):
    name = "draughts"
    title = "Give and Take draughts"
    min_players = 2
    max_players = 2
    hidden_information = False
    Options: ClassVar[type[DraughtsOptions]] = DraughtsOptions
    State = DraughtsState
    Action = DraughtsAction

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: BaseModel | None = None
    ) -> DraughtsState:
        """Seat 0 plays White. The seed is unused: draughts has no chance."""
        opts = parse_options(self.Options, options)
        return self.setup(players, Position.initial(opts.ruleset))

    def setup(self, players: Sequence[PlayerId], position: Position | str) -> DraughtsState:
        """A game from any position (a `Position`, or FEN read as give-and-take with no
        last-moved piece), for tests and puzzles. Seat 0 plays White."""
        check_player_count(self, players)
        if isinstance(position, str):
            position = Position.from_fen(position)
        last = None if position.last_moved is None else SQUARE_NAMES[position.last_moved]
        state = DraughtsState(
            players=list(players),
            ruleset=position.ruleset,
            position=position.fen(),
            last_moved=last,
            history=[repetition_key(position)],
            lost=[
                PIECES_PER_SIDE - position.count("white"),
                PIECES_PER_SIDE - position.count("black"),
            ],
        )
        return self._judge(state, position)

    # -- turns

    def is_over(self, state: DraughtsState) -> bool:
        return state.result is not None

    def seat_to_move(self, state: DraughtsState) -> int:
        return 0 if state.position.startswith("W") else 1

    def to_act(self, state: DraughtsState) -> list[PlayerId]:
        return [] if self.is_over(state) else [state.players[self.seat_to_move(state)]]

    def legal_actions(self, state: DraughtsState, player: PlayerId) -> list[DraughtsAction]:
        """``resign``, then ``accept draw`` (an offer stands) or ``offer draw`` (none
        does), then every legal move ordered by start square."""
        if player not in self.to_act(state):
            return []
        seat = self.seat_to_move(state)
        actions = [RESIGN]
        if state.draw_offer is None:
            actions.append(OFFER_DRAW)
        elif state.draw_offer != seat:
            actions.append(ACCEPT_DRAW)
        actions.extend(_move_actions(position_of(state)))
        return actions

    def parse_text(self, text: str) -> DraughtsAction:
        return parse_action(text)

    def _foreign_action(self) -> IllegalAction:
        return IllegalAction("That is not a draughts move.")

    def _resolve_text(self, state: DraughtsState, action: DraughtsAction) -> DraughtsAction:
        """A typed move may use another path of the same capture or, when unambiguous,
        only its start and end squares; a move model must be legal as it stands."""
        if action.move is None:
            return action
        return move_action(position_of(state).parse_move(action.move))

    def _apply_action(
        self, state: DraughtsState, player: PlayerId, action: DraughtsAction
    ) -> DraughtsState:
        seat = self.seat_to_move(state)
        if action.kind == "resign":
            return self._resign(state, seat)
        if action.kind == "offer_draw":
            if state.draw_offer == seat:
                raise IllegalAction("Your draw offer already stands.")
            if state.draw_offer is not None:
                raise IllegalAction("Your opponent offers a draw: accept it, or move on.")
            return state.model_copy(update={"draw_offer": seat})
        if action.kind == "accept_draw":
            if state.draw_offer is None or state.draw_offer == seat:
                raise IllegalAction("There is no draw offer to accept.")
            return state.model_copy(
                update={"draw_offer": None, "result": "draw", "reason": "agreement"}
            )
        assert action.move is not None
        position = position_of(state)
        move = position._legal()[1].get(action.move)
        if move is None:
            raise position._illegal(Move.parse(action.move))
        return self._move(state, position, move, seat)

    def resign(self, state: DraughtsState, player: PlayerId) -> DraughtsState:
        """``player`` resigns, in turn or not (the ``resign`` action is the in-turn way)."""
        self._check_seated(state, player)
        return self._resign(state, state.players.index(player))

    def _resign(self, state: DraughtsState, seat: int) -> DraughtsState:
        return state.model_copy(
            update={
                "result": "black" if seat == 0 else "white",
                "reason": "resignation",
                "draw_offer": None,
            }
        )

    def _move(
        self, state: DraughtsState, position: Position, move: Move, seat: int
    ) -> DraughtsState:
        piece = position.board[move.from_square]
        forward = abs(piece) == 1 and move.from_square // 8 != move.to_square // 8
        after = position._play(move)
        fen, last_moved = after.fen(), SQUARE_NAMES[move.to_square]
        _POSITIONS.put((fen, after.ruleset, last_moved), after)
        key = repetition_key(after)
        irreversible = move.is_capture or forward
        lost = list(state.lost)
        lost[1 - seat] += len(move.captured)
        draw_offer = state.draw_offer if state.draw_offer == seat else None
        moved = state.model_copy(
            update={
                "position": fen,
                "last_moved": last_moved,
                "last_move": str(move),
                "last_captures": [SQUARE_NAMES[s] for s in move.captured],
                "plies": state.plies + 1,
                "quiet_plies": 0 if irreversible else state.quiet_plies + 1,
                "history": [key] if irreversible else [*state.history, key],
                "lost": lost,
                "draw_offer": draw_offer,
            }
        )
        return self._judge(moved, after)

    def _judge(self, state: DraughtsState, position: Position) -> DraughtsState:
        """Decide whether the game ended with the move that led to ``position``."""
        result: Literal["white", "black", "draw"] | None = None
        reason: Reason | None = None
        if not position.legal_moves():
            result = "black" if position.side == WHITE else "white"
            reason = "no-pieces" if position.count(position.turn) == 0 else "blocked"
        elif _one_piece_each(position) and not _can_capture_now(position):
            result, reason = "draw", "one-piece-each"
        elif state.history.count(state.history[-1]) >= REPETITIONS:
            result, reason = "draw", "threefold-repetition"
        elif state.quiet_plies >= QUIET_PLY_LIMIT:
            result, reason = "draw", "quiet-plies"
        if result is None:
            return state
        return state.model_copy(update={"result": result, "reason": reason, "draw_offer": None})

    # -- views and results

    def view(self, state: DraughtsState, viewer: PlayerId | None) -> DraughtsView:
        position = position_of(state)
        over = self.is_over(state)
        board = position.board
        moves = [] if over else position.legal_moves()
        pieces = [
            PieceView(square=SQUARE_NAMES[square], colour=_PIECE_OF[p].colour, king=abs(p) == 2)
            for square, p in enumerate(board)
            if p
        ]
        far = 7 if position.side == WHITE else 0
        last_path = [] if state.last_move is None else Move.parse(state.last_move).path
        return DraughtsView(
            viewer=viewer,
            ruleset=state.ruleset,
            white=state.players[0],
            black=state.players[1],
            fen=state.position,
            pieces=pieces,
            to_move=position.turn,
            to_act=next(iter(self.to_act(state)), None),
            legal_moves=[str(move) for move in moves],
            moves=[
                MoveView(
                    notation=str(move),
                    from_square=SQUARE_NAMES[move.from_square],
                    to_square=SQUARE_NAMES[move.to_square],
                    path=[SQUARE_NAMES[s] for s in move.path],
                    captures=[SQUARE_NAMES[s] for s in move.captured],
                    promotes=abs(board[move.from_square]) == 1 and move.to_square // 8 == far,
                )
                for move in moves
            ],
            capture_required=not over and position.capture_required(),
            forced_capture_squares=[]
            if over
            else [SQUARE_NAMES[s] for s in position.forced_capture_squares()],
            last_move=state.last_move,
            last_move_squares=[SQUARE_NAMES[s] for s in last_path],
            last_captures=list(state.last_captures),
            last_moved=state.last_moved,
            men={"white": board.count(WHITE_MAN), "black": board.count(BLACK_MAN)},
            kings={"white": board.count(WHITE_KING), "black": board.count(BLACK_KING)},
            lost={"white": state.lost[0], "black": state.lost[1]},
            plies=state.plies,
            quiet_plies=state.quiet_plies,
            draw_offer_by=None if state.draw_offer is None else state.players[state.draw_offer],
            over=over,
            result=state.result,
            winner=self.winner(state),
            reason=state.reason,
            reason_text=reason_text(state.result, state.reason),
        )

    def winner(self, state: DraughtsState) -> PlayerId | None:
        if state.result == "white":
            return state.players[0]
        if state.result == "black":
            return state.players[1]
        return None

    def outcome(self, state: DraughtsState) -> Outcome:
        if not self.is_over(state):
            raise GameError("The game is not over yet.")
        if state.result == "draw":
            points = [DRAW_POINTS, DRAW_POINTS]
        elif state.result == "white":
            points = [WIN_POINTS, LOSS_POINTS]
        else:
            points = [LOSS_POINTS, WIN_POINTS]
        scores = dict(zip(state.players, points, strict=True))
        return Outcome.from_scores(scores, lower_wins=False)


ENGINE = DraughtsEngine()
_CONTRACT: Engine[DraughtsState, DraughtsAction, DraughtsView] = ENGINE  # mypy checks the contract
