"""Draughts on bitboards, for the ``hard`` player's search: the engine's rules (move
generation, a move's result, the evaluation) on four 64-bit ints instead of a list of
64 squares.

A position is `Bits`: (white men, white kings, black men, black kings), bit ``n`` for
square ``n`` (a1 = 0, b1 = 1, …, h8 = 63, as the engine numbers them). Men's quiet moves
and whether any man can capture come from shifts of whole sides; capture sequences and
kings walk the engine's rays square by square. The moves are the engine's `RawMove`
tuples, found in the engine's order, so `generate` gives exactly `_generate`'s list as
a set (checked move for move in ``tests/ai/test_draughts_bits.py``); only the
bookkeeping is faster. Why: the search spent most of its time in the list-based
generator, and depth 8 from the opening didn't fit in the think budget.
"""

from __future__ import annotations

from bot.engines.draughts import (
    ALL_DIRECTIONS,
    BLACK_KING,
    BLACK_MAN,
    MAN_DIRECTIONS,
    RAYS,
    REVERSE,
    WHITE,
    WHITE_KING,
    WHITE_MAN,
    RawMove,
    _dedupe,
)

Bits = tuple[int, int, int, int]
"""(white men, white kings, black men, black kings)."""

FULL = (1 << 64) - 1
_FILE_A = sum(1 << (rank * 8) for rank in range(8))
_FILE_B = _FILE_A << 1
_FILE_G = _FILE_A << 6
_FILE_H = _FILE_A << 7
NOT_A = FULL ^ _FILE_A
NOT_H = FULL ^ _FILE_H
NOT_AB = NOT_A ^ _FILE_B
NOT_GH = NOT_H ^ _FILE_G
WHITE_CROWN = 0xFF << 56
"""White's men crown on the 8th rank, Black's on the 1st (`BLACK_CROWN`)."""
BLACK_CROWN = 0xFF


def bits_of(board: list[int] | tuple[int, ...]) -> Bits:
    """The bitboards of an engine board (a list of 64 pieces)."""
    white_men = white_kings = black_men = black_kings = 0
    for square, piece in enumerate(board):
        if piece == WHITE_MAN:
            white_men |= 1 << square
        elif piece == WHITE_KING:
            white_kings |= 1 << square
        elif piece == BLACK_MAN:
            black_men |= 1 << square
        elif piece == BLACK_KING:
            black_kings |= 1 << square
    return white_men, white_kings, black_men, black_kings


def board_of(bits: Bits) -> list[int]:
    """The engine board of ``bits``."""
    board = [0] * 64
    for mask, piece in zip(bits, (WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING), strict=True):
        while mask:
            low = mask & -mask
            board[low.bit_length() - 1] = piece
            mask ^= low
    return board


def squares(mask: int) -> list[int]:
    """The squares of ``mask``'s bits, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _man_jumps(side: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per square, each jump a man of ``side`` could make: (direction, the square jumped,
    the landing square), in the engine's direction order."""
    table = []
    for square in range(64):
        jumps = []
        for direction in MAN_DIRECTIONS[side]:
            ray = RAYS[square][direction]
            if len(ray) > 1:
                jumps.append((direction, ray[0], ray[1]))
        table.append(tuple(jumps))
    return tuple(table)


MAN_JUMPS = {WHITE: _man_jumps(WHITE), -WHITE: _man_jumps(-WHITE)}


def _men_that_capture(men: int, opponents: int, empty: int, side: int) -> int:
    """The men of ``side`` with a jump now (forward or sideways)."""
    east = men & NOT_GH & (opponents >> 1) & (empty >> 2)
    west = men & NOT_AB & (opponents << 1) & (empty << 2)
    if side == WHITE:
        return east | west | (men & (opponents >> 8) & (empty >> 16))
    return east | west | (men & (opponents << 8) & (empty << 16))


def _king_can_capture(at: int, opponents: int, occupied: int, banned: int) -> bool:
    """Whether a king on ``at`` (lifted off ``occupied``) has a jump, as the engine's
    `_can_capture`."""
    rays = RAYS[at]
    for direction in ALL_DIRECTIONS:
        if direction == banned:
            continue
        ray = rays[direction]
        for index, square in enumerate(ray):
            if occupied >> square & 1:
                if (
                    opponents >> square & 1
                    and index + 1 < len(ray)
                    and not occupied >> ray[index + 1] & 1
                ):
                    return True
                break
    return False


def _king_follow(
    at: int,
    opponents: int,
    occupied: int,
    banned: int,
    turkish: bool,
    path: list[int],
    captured: list[int],
    out: list[RawMove],
) -> bool:
    """Every capture sequence a king on ``at`` goes on with (the engine's `_follow`:
    pieces taken come off at once; of several landings, those that capture on, if
    any). Returns whether it had a jump at all."""
    jumped = False
    rays = RAYS[at]
    for direction in ALL_DIRECTIONS:
        if direction == banned:
            continue
        ray = rays[direction]
        length = len(ray)
        index = 0
        while index < length and not occupied >> ray[index] & 1:
            index += 1
        if index >= length - 1 or not opponents >> ray[index] & 1:
            continue
        victim = ray[index]
        landings = []
        index += 1
        while index < length and not occupied >> ray[index] & 1:
            landings.append(ray[index])
            index += 1
        if not landings:
            continue
        jumped = True
        taken = 1 << victim
        left, still = opponents ^ taken, occupied ^ taken
        onward_banned = REVERSE[direction] if turkish else -1
        if len(landings) > 1:
            onward = [
                square
                for square in landings
                if _king_can_capture(square, left, still, onward_banned)
            ]
            if onward:
                landings = onward
        captured.append(victim)
        for square in landings:
            path.append(square)
            if not _king_follow(square, left, still, onward_banned, turkish, path, captured, out):
                out.append((tuple(path), tuple(captured)))
            path.pop()
        captured.pop()
    return jumped


def _man_follow(
    at: int,
    opponents: int,
    occupied: int,
    jumps: tuple[tuple[tuple[int, int, int], ...], ...],
    banned: int,
    turkish: bool,
    path: list[int],
    captured: list[int],
    out: list[RawMove],
) -> bool:
    """As `_king_follow`, for a man (one square over, one landing)."""
    jumped = False
    for direction, victim, landing in jumps[at]:
        if direction == banned or not opponents >> victim & 1 or occupied >> landing & 1:
            continue
        jumped = True
        taken = 1 << victim
        captured.append(victim)
        path.append(landing)
        if not _man_follow(
            landing,
            opponents ^ taken,
            occupied ^ taken,
            jumps,
            REVERSE[direction] if turkish else -1,
            turkish,
            path,
            captured,
            out,
        ):
            out.append((tuple(path), tuple(captured)))
        path.pop()
        captured.pop()
    return jumped


def _captures(
    capturing: int, kings: int, opponents: int, occupied: int, side: int, turkish: bool
) -> list[RawMove]:
    """Every capture sequence of ``side``'s ``capturing`` men and its kings, square by
    square as the engine. Not yet deduplicated."""
    out: list[RawMove] = []
    jumps = MAN_JUMPS[side]
    for square in squares(capturing | kings):
        lifted = occupied ^ (1 << square)
        if kings >> square & 1:
            _king_follow(square, opponents, lifted, -1, turkish, [square], [], out)
        else:
            _man_follow(square, opponents, lifted, jumps, -1, turkish, [square], [], out)
    return out


StepTable = tuple[tuple[tuple[RawMove, ...], ...], ...]
"""Per rank, per byte of target squares on it: the quiet moves onto them."""


def _steps_by_rank(shift: int) -> StepTable:
    """Per rank, per byte of that rank's target squares: the quiet moves onto them from
    ``shift`` squares back, built once (a search makes millions of them otherwise)."""
    return tuple(
        tuple(
            tuple(
                ((rank * 8 + file - shift, rank * 8 + file), ())
                for file in range(8)
                if byte >> file & 1
            )
            for byte in range(256)
        )
        for rank in range(8)
    )


NORTH_STEPS = _steps_by_rank(8)
SOUTH_STEPS = _steps_by_rank(-8)
EAST_STEPS = _steps_by_rank(1)
WEST_STEPS = _steps_by_rank(-1)
KING_SLIDES = tuple(
    tuple(tuple(((square, target), ()) for target in ray) for ray in RAYS[square])
    for square in range(64)
)
"""Per square and direction, a king's quiet moves from it along that line, nearest first."""


def _extend(moves: list[RawMove], targets: int, steps: StepTable) -> None:
    """Append the moves of ``steps`` onto ``targets``, a rank (8 bits) at a time."""
    rank = 0
    while targets:
        byte = targets & 0xFF
        if byte:
            moves.extend(steps[rank][byte])
        targets >>= 8
        rank += 1


def _quiet(men: int, kings: int, occupied: int, side: int, moves: list[RawMove]) -> None:
    """Append every quiet move: men one square forward or sideways, kings any distance
    along a free line."""
    empty = FULL ^ occupied
    if men:
        if side == WHITE:
            _extend(moves, (men << 8) & empty, NORTH_STEPS)
        else:
            _extend(moves, (men >> 8) & empty, SOUTH_STEPS)
        _extend(moves, ((men & NOT_H) << 1) & empty, EAST_STEPS)
        _extend(moves, ((men & NOT_A) >> 1) & empty, WEST_STEPS)
    for square in squares(kings):
        rays = RAYS[square]
        slides = KING_SLIDES[square]
        for direction in ALL_DIRECTIONS:
            reach = 0
            for target in rays[direction]:
                if occupied >> target & 1:
                    break
                reach += 1
            if reach:
                moves.extend(slides[direction][:reach])


def _can_step(men: int, kings: int, occupied: int, side: int) -> bool:
    """Whether any piece of ``side`` has a quiet move (a free square next to it, forward
    or sideways for a man, any way for a king)."""
    empty = FULL ^ occupied
    pieces = men | kings
    if ((pieces & NOT_H) << 1 | (pieces & NOT_A) >> 1) & empty:
        return True
    north = pieces if side == WHITE else kings
    south = kings if side == WHITE else pieces
    return bool((north << 8 | south >> 8) & empty)


def captures(bits: Bits, side: int, last: int, turkish: bool) -> tuple[list[RawMove], bool]:
    """``side``'s legal captures, and whether a quiet move is legal as well: in give
    and take, the last-moved piece taken first if it can be (then nothing else); in
    Turkish, the longest captures only (and no quiet move); give and take's other
    captures are optional."""
    white_men, white_kings, black_men, black_kings = bits
    if side == WHITE:
        men, kings, opponents = white_men, white_kings, black_men | black_kings
    else:
        men, kings, opponents = black_men, black_kings, white_men | white_kings
    occupied = men | kings | opponents
    capturing = _men_that_capture(men, opponents, FULL ^ occupied, side)
    found: list[RawMove] = []
    if capturing or kings:
        found = _captures(capturing, kings, opponents, occupied, side, turkish)
        if found and turkish:
            most = max(len(captured) for _, captured in found)
            return _dedupe([move for move in found if len(move[1]) == most]), False
        if found and last >= 0 and opponents >> last & 1:
            forced = [move for move in found if move[1][0] == last]
            if forced:
                return _dedupe(forced), False
        found = _dedupe(found)
    return found, _can_step(men, kings, occupied, side)


def generate(bits: Bits, side: int, last: int, turkish: bool) -> list[RawMove]:
    """Every legal move of ``side`` (the engine's `_generate`, as a set): the legal
    captures first (`captures`), then the quiet moves where they are legal."""
    moves, can_step = captures(bits, side, last, turkish)
    if can_step:
        if side == WHITE:
            men, kings = bits[0], bits[1]
        else:
            men, kings = bits[2], bits[3]
        _quiet(men, kings, bits[0] | bits[1] | bits[2] | bits[3], side, moves)
    return moves


def _moved(men: int, kings: int, start: int, end: int, crown: int) -> tuple[int, int]:
    """One side's men and kings after its piece goes from ``start`` to ``end`` (bits),
    a man ending on ``crown`` (its far rank) crowned."""
    if men & start:
        men &= ~start
        if end & crown:
            return men, kings | end
        return men | end, kings
    return men, (kings & ~start) | end


def _taken(men: int, kings: int, taken: int, give_and_take: bool) -> tuple[int, int]:
    """One side's men and kings after the pieces on ``taken`` (bits) come off; in give
    and take, a last piece that is a man is crowned."""
    men &= ~taken
    kings &= ~taken
    if give_and_take and not kings and men and not men & (men - 1):
        return 0, men
    return men, kings


def make(bits: Bits, side: int, move: RawMove, give_and_take: bool) -> Bits:
    """The position after ``side`` plays ``move`` (the engine's `_make`): pieces taken
    come off, a man ending on the far rank is crowned, and in give and take a side
    left with one man only has it crowned."""
    path, captured = move
    start, end = 1 << path[0], 1 << path[-1]
    white_men, white_kings, black_men, black_kings = bits
    taken = 0
    for square in captured:
        taken |= 1 << square
    if side == WHITE:
        white_men, white_kings = _moved(white_men, white_kings, start, end, WHITE_CROWN)
        if taken:
            black_men, black_kings = _taken(black_men, black_kings, taken, give_and_take)
    else:
        black_men, black_kings = _moved(black_men, black_kings, start, end, BLACK_CROWN)
        if taken:
            white_men, white_kings = _taken(white_men, white_kings, taken, give_and_take)
    return white_men, white_kings, black_men, black_kings


# --- Evaluation (every searching level's: `bot.ai.draughts.evaluate`) -----------------

MAN = 100
KING = 300
"""A king's worth in men's hundredths: flying orthogonal kings are strong."""
ADVANCE = (0, 0, 3, 7, 13, 22, 36, 0)
"""A man's bonus by how far it has come (ranks from its own side: 2nd … 7th)."""
CENTRE = (0, 1, 3, 4, 4, 3, 1, 0)
"""A man's bonus by file, a … h."""
KING_MOBILITY = 3
"""Per empty square a king reaches along its four lines."""
TRADE = 5
"""With a lead, ``lead * TRADE / pieces on the board`` more: fewer pieces, bigger lead."""


def _men_by_rank(side: int) -> tuple[tuple[int, ...], ...]:
    """Per rank, per byte of that rank's files: the worth of ``side``'s men there."""
    tables = []
    for rank in range(8):
        advance = ADVANCE[rank if side == WHITE else 7 - rank]
        row = []
        for byte in range(256):
            row.append(sum(MAN + advance + CENTRE[file] for file in range(8) if byte >> file & 1))
        tables.append(tuple(row))
    return tuple(tables)


WHITE_MEN_BY_RANK = _men_by_rank(WHITE)
BLACK_MEN_BY_RANK = _men_by_rank(-WHITE)


def _men_worth(men: int, tables: tuple[tuple[int, ...], ...]) -> int:
    worth = rank = 0
    while men:
        worth += tables[rank][men & 0xFF]
        men >>= 8
        rank += 1
    return worth


def _ray_masks(square: int) -> tuple[int, int, int, int]:
    """The squares of each of ``square``'s four lines, as masks (the engine's order:
    north, south, east, west)."""
    masks = [0, 0, 0, 0]
    for direction, ray in enumerate(RAYS[square]):
        for target in ray:
            masks[direction] |= 1 << target
    return masks[0], masks[1], masks[2], masks[3]


RAY_MASKS = tuple(_ray_masks(square) for square in range(64))


def _reach(square: int, occupied: int) -> int:
    """The empty squares a king on ``square`` sees along its four lines: up to the
    first piece, the lowest one going north or east, the highest going south or west."""
    north, south, east, west = RAY_MASKS[square]
    reach = 0
    for line in (north, east):
        blockers = line & occupied
        reach += (line & ((blockers & -blockers) - 1) if blockers else line).bit_count()
    for line in (south, west):
        blockers = line & occupied
        reach += (line >> blockers.bit_length()).bit_count()
    return reach


def _kings_worth(kings: int, occupied: int) -> int:
    """``KING`` each, and ``KING_MOBILITY`` per empty square along its four lines."""
    worth = 0
    while kings:
        low = kings & -kings
        worth += KING + KING_MOBILITY * _reach(low.bit_length() - 1, occupied)
        kings ^= low
    return worth


def evaluate(bits: Bits, side: int) -> int:
    """The position's worth to ``side``, in men's hundredths: material, men's
    advancement and centre files, kings' open lines, and, with a lead, a bonus that
    grows as pieces come off (trading down wins the endgame)."""
    white_men, white_kings, black_men, black_kings = bits
    white = _men_worth(white_men, WHITE_MEN_BY_RANK)
    black = _men_worth(black_men, BLACK_MEN_BY_RANK)
    if white_kings or black_kings:
        occupied = white_men | white_kings | black_men | black_kings
        white += _kings_worth(white_kings, occupied)
        black += _kings_worth(black_kings, occupied)
    score = white - black
    pieces = (white_men | white_kings | black_men | black_kings).bit_count()
    trade = abs(score) * TRADE // (pieces + 1)
    score += trade if score > 0 else -trade
    return score if side == WHITE else -score
