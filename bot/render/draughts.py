"""The draughts board as a PNG: an 8×8 wooden board with its coordinates, round men
and crowned kings, the last move's squares tinted and its path drawn as an arrow,
the pieces it took marked, the pieces that must capture ringed, and on a private
board the piece chosen on the Move panel tinted with a dot where it can go; beside it, a
panel with both players (colour, men and kings, pieces lost, whose turn), the
ruleset and move number, the last move, "capture required" and a standing draw
offer, or once the game is over, the result and why. Its words are in ``lang``.

Draughts has no secrets, so there is nothing to hide: ``viewer`` is ignored and the
picture depends only on the public position. `render_board` draws it from either
side (``flipped``: Black at the bottom, as a private board for the Black player);
`render_table`, the shared table image, always from White's side.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engines.draughts import QUIET_PLY_LIMIT, Colour, DraughtsView, Reason
from bot.render.output import to_png
from bot.render.palette import PALETTE, RGBA, Point
from bot.render.shapes import (
    SUPERSAMPLE,
    Sprite,
    disc,
    downsample,
    draw_rounded,
    faded,
    new_panel,
    place,
    ring,
    rounded_rect,
    supersampled,
    with_shadow,
)
from bot.render.text import (
    MIN_TEXT_SIZE,
    TextStyle,
    cut_name,
    display_name,
    fit_lines,
    fit_text,
    pill,
    shrink_to_fit,
    stamp_text,
    text_width,
    wrap_text,
)
from bot.render.words import N_, Lang, plural, tr
from bot.texts import Picks

FILES = "abcdefgh"
PIECE = "piece"
"""The key of the Move panel's select of a piece (`chosen_piece`)."""

# --- geometry ---
MARGIN = 20
SQUARE = 60
FRAME = 22
"""The wooden rim around the squares, where the coordinates are printed."""
BOARD = 8 * SQUARE
BOARD_LEFT = BOARD_TOP = MARGIN + FRAME
"""The top-left corner of the squares."""
BLOCK = BOARD + 2 * FRAME
SIDE_LEFT = MARGIN + BLOCK + 20
WIDTH = 780
HEIGHT = 2 * MARGIN + BLOCK
SIDE_RIGHT = WIDTH - MARGIN
SIDE_WIDTH = SIDE_RIGHT - SIDE_LEFT
PAD = 14
"""Inside a player's lane."""
LANE_HEIGHT = 124
PIECE_RADIUS = 24
ICON_RADIUS = 12

# --- colours ---
LIGHT_SQUARE: RGBA = (236, 211, 166, 255)
DARK_SQUARE: RGBA = (178, 130, 88, 255)
RIM: RGBA = (104, 66, 40, 255)
RIM_EDGE: RGBA = (72, 44, 26, 255)
RIM_INK: RGBA = (232, 204, 160, 255)
LAST_MOVE_TINT: RGBA = (250, 226, 80, 120)
PATH: RGBA = (40, 150, 72, 225)
TAKEN: RGBA = (214, 44, 44, 235)
WARNING: RGBA = (255, 96, 56, 255)
WARNING_INK: RGBA = (58, 14, 4, 255)
CROWN: RGBA = (246, 196, 66, 255)
SELECTED_TINT: RGBA = (70, 160, 230, 150)
"""The piece chosen on the Move panel."""
TARGET: RGBA = (40, 110, 200, 215)
"""Where the chosen piece can go."""
CROWN_EDGE: RGBA = (120, 78, 8, 255)


@dataclass(frozen=True)
class PieceLook:
    body: RGBA
    edge: RGBA
    groove: RGBA


LOOKS: dict[Colour, PieceLook] = {
    "white": PieceLook((244, 236, 218, 255), (168, 154, 128, 255), (206, 194, 170, 255)),
    "black": PieceLook((48, 44, 46, 255), (14, 12, 12, 255), (86, 80, 82, 255)),
}

# --- text ---
LABEL = TextStyle(18, PALETTE.muted, bold=True)
COORDINATE = TextStyle(18, RIM_INK, bold=True)
NAME = TextStyle(19, PALETTE.text, bold=True)
DETAIL = TextStyle(18, PALETTE.muted)
COUNT = TextStyle(18, PALETTE.text)
STATUS = TextStyle(24, PALETTE.text, bold=True)
RESULT = TextStyle(30, PALETTE.accent, bold=True)
REASON = TextStyle(18, PALETTE.text)
NOTATION = TextStyle(19, PALETTE.text, bold=True)
NOTATION_LINES = 3
TAG = TextStyle(18, PALETTE.accent_ink, bold=True)
WARNING_TAG = TextStyle(18, WARNING_INK, bold=True)

RULESET_TITLES = {"give-and-take": N_("GIVE AND TAKE"), "turkish": N_("TURKISH DRAUGHTS")}

HEADLINES = {"white": N_("White wins"), "black": N_("Black wins"), "draw": N_("Draw")}
TO_MOVE: dict[Colour, str] = {"white": N_("White to move"), "black": N_("Black to move")}

WINS: dict[Reason, tuple[str, str]] = {
    "no-pieces": (N_("Black has no pieces left."), N_("White has no pieces left.")),
    "blocked": (N_("Black has no legal move."), N_("White has no legal move.")),
    "resignation": (N_("Black resigned."), N_("White resigned.")),
}
"""Why a game was won: (White won, Black won). Only the cause: the headline beside it
already says who won."""
DRAWS: dict[Reason, str] = {
    "agreement": N_("By agreement."),
    "one-piece-each": N_("One piece each."),
    "threefold-repetition": N_("By threefold repetition."),
    "quiet-plies": N_("{plies} plies without a capture or a forward man move."),
}


def reason_sentence(view: DraughtsView, lang: Lang) -> str | None:
    """Why the game ended, in ``lang``, without who won (the headline says that; the
    engine's ``reason_text`` is the whole English sentence)."""
    if view.reason is None:
        return None
    if view.reason in DRAWS:
        return tr(lang, DRAWS[view.reason], plies=QUIET_PLY_LIMIT)
    white, black = WINS[view.reason]
    return tr(lang, white if view.result == "white" else black)


def render_board(
    view: DraughtsView,
    names: Mapping[str, str],
    *,
    flipped: bool = False,
    lang: Lang = "en",
    selected: str | None = None,
) -> bytes:
    """The board of ``view`` and its side panel as PNG bytes, seen from White's side
    (or Black's with ``flipped``); ``names`` maps player ids to display names
    (missing ids print as themselves); the panel's words are in ``lang``. ``selected``:
    the square of a piece chosen on the Move panel, shown with where it can go."""
    image = _background(flipped).copy()
    _draw_last_move_squares(image, view, flipped)
    _draw_selected_square(image, selected, flipped)
    _draw_last_move_path(image, view, flipped)
    _draw_captured(image, view, flipped)
    _draw_pieces(image, view, flipped)
    _draw_targets(image, view, selected, flipped)
    _draw_panel(image, view, names, flipped, lang)
    return to_png(image)


def move_number(view: DraughtsView) -> int:
    """The move under way (each player's turn is a move), or once the game is over the
    moves played: the embed's count is the same number."""
    return view.plies if view.over else view.plies + 1


def targets_of(view: DraughtsView, selected: str | None) -> list[str]:
    """Where the piece on ``selected`` can end its move, in the view's order."""
    return list(dict.fromkeys(m.to_square for m in view.moves if m.from_square == selected))


def render_table(view: DraughtsView, names: Mapping[str, str], lang: Lang = "en") -> bytes:
    """The public table image: the board from White's side."""
    return render_board(view, names, flipped=False, lang=lang)


def render_panel(view: DraughtsView, names: Mapping[str, str], lang: Lang, picks: Picks) -> bytes:
    """The private board (the adapter's ``render_private``), from the viewer's side; with
    the panel's ``picks``, the chosen piece and where it can go are marked."""
    flipped = view.viewer is not None and view.viewer == view.black
    selected = chosen_piece(view, picks)
    return render_board(view, names, flipped=flipped, lang=lang, selected=selected)


def chosen_piece(view: DraughtsView, picks: Picks) -> str | None:
    """The square of the piece picked on the Move panel (the only one that can move,
    if so), when it is the viewer's turn and that piece can move."""
    if view.to_act is None or view.to_act != view.viewer:
        return None
    starts = sorted({move.from_square for move in view.moves})
    piece = next(iter(picks.get(PIECE, ())), starts[0] if len(starts) == 1 else None)
    return piece if piece in starts else None


# --- the board ---------------------------------------------------------------------


def square_origin(square: str, flipped: bool) -> tuple[int, int]:
    """The top-left pixel of ``square`` ("a1".."h8") on the image."""
    file, rank = FILES.index(square[0]), int(square[1:]) - 1
    column, row = (7 - file, rank) if flipped else (file, 7 - rank)
    return BOARD_LEFT + column * SQUARE, BOARD_TOP + row * SQUARE


def square_centre(square: str, flipped: bool) -> Point:
    x, y = square_origin(square, flipped)
    return x + SQUARE / 2, y + SQUARE / 2


@lru_cache(maxsize=2)
def _background(flipped: bool) -> Image.Image:
    """The felt panel with the empty board and its coordinates (cached: copy it)."""
    image = new_panel(WIDTH, HEIGHT)
    rim = rounded_rect(BLOCK, BLOCK, 10, RIM, RIM_EDGE, 2)
    place(image, with_shadow(rim, 10, blur=3, drop=3), MARGIN, MARGIN, audited=False)
    for rank in range(8):
        for file in range(8):
            x, y = square_origin(f"{FILES[file]}{rank + 1}", flipped)
            # a1 is dark, as on every draughts and chess board.
            colour = DARK_SQUARE if (file + rank) % 2 == 0 else LIGHT_SQUARE
            image.paste(colour, (x, y, x + SQUARE, y + SQUARE))
    for k in range(8):
        file_label, rank_label = FILES[k], str(k + 1)
        column_x = square_centre(f"{file_label}1", flipped)[0]
        row_y = square_centre(f"a{rank_label}", flipped)[1]
        for edge in (MARGIN + FRAME / 2, MARGIN + BLOCK - FRAME / 2):
            stamp_text(image, (column_x, edge), file_label, COORDINATE, "mm")
            stamp_text(image, (edge, row_y), rank_label, COORDINATE, "mm")
    return image


@lru_cache(maxsize=8)
def _tint(colour: RGBA) -> Image.Image:
    return Image.new("RGBA", (SQUARE, SQUARE), colour)


def _draw_last_move_squares(image: Image.Image, view: DraughtsView, flipped: bool) -> None:
    for square in dict.fromkeys(view.last_move_squares):
        image.alpha_composite(_tint(LAST_MOVE_TINT), dest=square_origin(square, flipped))


def _draw_selected_square(image: Image.Image, selected: str | None, flipped: bool) -> None:
    if selected is not None:
        image.alpha_composite(_tint(SELECTED_TINT), dest=square_origin(selected, flipped))


def _draw_targets(
    image: Image.Image, view: DraughtsView, selected: str | None, flipped: bool
) -> None:
    """A dot on every square the chosen piece can end its move on."""
    dot = disc(9, TARGET)
    for square in targets_of(view, selected):
        x, y = square_centre(square, flipped)
        image.alpha_composite(dot, dest=(round(x - dot.width / 2), round(y - dot.height / 2)))


def _draw_captured(image: Image.Image, view: DraughtsView, flipped: bool) -> None:
    """Where the last move took pieces: a ghost of the piece under a red cross. The
    pieces taken were the side's now to move."""
    ghost = _ghost(view.to_move)
    mark = cross(26, 5, TAKEN)
    for square in view.last_captures:
        x, y = square_centre(square, flipped)
        place(image, ghost, x - PIECE_RADIUS, y - PIECE_RADIUS)
        image.alpha_composite(mark, dest=(round(x - mark.width / 2), round(y - mark.height / 2)))


@lru_cache(maxsize=2)
def _ghost(colour: Colour) -> Sprite:
    return faded(piece_sprite(colour, False, PIECE_RADIUS), 0.35)


def _draw_pieces(image: Image.Image, view: DraughtsView, flipped: bool) -> None:
    forced = set(view.forced_capture_squares)
    halo = ring(PIECE_RADIUS + 6, 4, WARNING)
    for piece in view.pieces:
        x, y = square_centre(piece.square, flipped)
        place(
            image,
            piece_sprite(piece.colour, piece.king, PIECE_RADIUS),
            x - PIECE_RADIUS,
            y - PIECE_RADIUS,
        )
        if piece.square in forced:
            image.alpha_composite(
                halo, dest=(round(x - halo.width / 2), round(y - halo.height / 2))
            )


def _draw_last_move_path(image: Image.Image, view: DraughtsView, flipped: bool) -> None:
    """The last move as an arrow from its start through every landing square, its
    tip at the edge of the piece that moved."""
    path = [square_centre(square, flipped) for square in view.last_move_squares]
    if len(path) < 2:
        return
    (x0, y0), (x1, y1) = path[-2], path[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    back = PIECE_RADIUS + 2
    tip = (x1 - (x1 - x0) / length * back, y1 - (y1 - y0) / length * back)
    draw_arrow(image, [*path[:-1], tip], 7, PATH, head=18)
    dot = disc(6, PATH)
    for x, y in path[1:-1]:
        image.alpha_composite(dot, dest=(round(x) - 6, round(y) - 6))


@lru_cache(maxsize=16)
def piece_sprite(colour: Colour, king: bool, radius: int) -> Sprite:
    """A draughts piece seen from above, ``2 * radius`` across: a disc with a bevelled
    edge and a groove; a king wears a gold crown. The sprite's (dx, dy) is the top-left
    corner of the disc's box."""
    look = LOOKS[colour]
    s = SUPERSAMPLE
    image, draw = supersampled(2 * radius, 2 * radius)
    full = 2 * radius * s - 1
    draw.ellipse((0, 0, full, full), fill=look.edge)
    bevel = max(1.5, radius * 0.08) * s
    draw.ellipse((bevel, bevel, full - bevel, full - bevel), fill=look.body)
    groove = radius * 0.3 * s
    draw.ellipse(
        (groove, groove, full - groove, full - groove),
        outline=look.groove,
        width=max(s, round(radius * 0.07 * s)),
    )
    if king:
        _crown(draw, radius * s, radius * 1.12 * s)
    return with_shadow(downsample(image), radius, blur=2, drop=2)


def _crown(draw: ImageDraw.ImageDraw, centre: float, size: float) -> None:
    """A three-pointed crown ``size`` wide, centred on (centre, centre)."""
    half = size / 2
    left, right = centre - half, centre + half
    top, bottom = centre - half * 0.72, centre + half * 0.62
    shoulder = centre + half * 0.02
    points = [
        (left, shoulder - half * 0.38),
        (centre - half * 0.5, shoulder),
        (centre, top),
        (centre + half * 0.5, shoulder),
        (right, shoulder - half * 0.38),
        (right - half * 0.12, bottom),
        (left + half * 0.12, bottom),
    ]
    edge = max(2.0, size * 0.07)
    draw.polygon(points, fill=CROWN, outline=CROWN_EDGE, width=round(edge))
    ball = size * 0.09
    for x, y in (points[0], points[2], points[4]):
        draw.ellipse(
            (x - ball, y - ball, x + ball, y + ball),
            fill=CROWN,
            outline=CROWN_EDGE,
            width=round(edge * 0.8),
        )
    band = bottom - size * 0.16
    draw.line(
        [(left + half * 0.16, band), (right - half * 0.16, band)],
        fill=CROWN_EDGE,
        width=round(edge * 0.8),
    )


# --- the side panel ------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    colour: Colour
    name: str
    men: int
    kings: int
    lost: int
    to_move: bool
    won: bool


def _side(view: DraughtsView, names: Mapping[str, str], colour: Colour, lang: Lang) -> Side:
    player = view.white if colour == "white" else view.black
    return Side(
        colour=colour,
        name=display_name(player, names, 0 if colour == "white" else 1, lang),
        men=view.men[colour],
        kings=view.kings[colour],
        lost=view.lost[colour],
        to_move=not view.over and view.to_move == colour,
        won=view.result == colour,
    )


def _draw_panel(
    image: Image.Image, view: DraughtsView, names: Mapping[str, str], flipped: bool, lang: Lang
) -> None:
    top: Colour = "white" if flipped else "black"
    bottom: Colour = "black" if flipped else "white"
    _draw_lane(image, _side(view, names, top, lang), MARGIN, lang)
    _draw_lane(image, _side(view, names, bottom, lang), HEIGHT - MARGIN - LANE_HEIGHT, lang)
    _draw_status(image, view, names, MARGIN + LANE_HEIGHT + 12, lang)


def pieces_text(men: int, kings: int, lang: Lang) -> str:
    """ "12 men · 1 king"; "no pieces" for none."""
    parts = []
    if men:
        parts.append(plural(lang, men, "{n} man", "{n} men"))
    if kings:
        parts.append(plural(lang, kings, "{n} king", "{n} kings"))
    return " · ".join(parts) or tr(lang, "no pieces")


def _draw_lane(image: Image.Image, side: Side, top: int, lang: Lang) -> None:
    left, right = SIDE_LEFT, SIDE_RIGHT
    highlighted = side.to_move or side.won
    fill = PALETTE.lane_active if highlighted else PALETTE.lane
    outline = PALETTE.accent if highlighted else None
    draw_rounded(image, (left, top, right, top + LANE_HEIGHT), 12, fill, outline, 2)
    row = top + 24
    icon = piece_sprite(side.colour, False, ICON_RADIUS)
    place(image, icon, left + PAD, row - ICON_RADIUS)
    x = left + PAD + 2 * ICON_RADIUS + 9
    style = NAME.but(fill=PALETTE.accent) if highlighted else NAME
    stamp_text(image, (x, row), cut_name(side.name, style, right - PAD - x), style, "lm")
    row += 30
    pieces = pieces_text(side.men, side.kings, lang)
    stamp_text(
        image, (left + PAD, row), fit_text(pieces, COUNT, right - left - 2 * PAD), COUNT, "lm"
    )
    row += 24
    lost = tr(lang, "lost {n}", n=side.lost) if side.lost else tr(lang, "none lost")
    stamp_text(image, (left + PAD, row), lost, DETAIL, "lm")
    tag = tr(lang, "WINNER") if side.won else tr(lang, "TO MOVE") if side.to_move else ""
    if tag:
        pill(image, (left + PAD - 2, row + 30), tag, TAG, PALETTE.accent)


def _pill_width(text: str, style: TextStyle, pad_x: int = 8) -> int:
    return round(text_width(text, style)) + 2 * pad_x


def _draw_status(
    image: Image.Image, view: DraughtsView, names: Mapping[str, str], top: int, lang: Lang
) -> None:
    left, width = SIDE_LEFT + 4, SIDE_WIDTH - 8
    title = tr(lang, RULESET_TITLES[view.ruleset])
    y = top
    for line in wrap_text(title, LABEL, width, max_lines=2):
        stamp_text(image, (left, y), line, LABEL)
        y += 21
    number = move_number(view)
    move = (
        plural(lang, number, "{n} move played", "{n} moves played")
        if view.over
        else tr(lang, "move {n}", n=number)
    )
    for line in wrap_text(move, DETAIL, width, max_lines=2):
        stamp_text(image, (left, y), line, DETAIL)
        y += 21
    y += 20
    if view.over:
        headline = tr(lang, HEADLINES.get(view.result or "draw", HEADLINES["draw"]))
        lines, style = fit_lines(headline, RESULT, width, 2, 22)
        for line in lines:
            stamp_text(image, (left, y), line, style, "lm")
            y += 30
        reason = reason_sentence(view, lang) or view.reason_text or ""
        for line in wrap_text(reason, REASON, width, max_lines=3):
            stamp_text(image, (left, y), line, REASON, "lm")
            y += 24
        y += 12
    else:
        status = tr(lang, TO_MOVE[view.to_move])
        lines, style = fit_lines(status, STATUS, width, 2, 18)
        for line in lines:
            stamp_text(image, (left, y), line, style, "lm")
            y += style.size + 6
        y += 34 - style.size - 6
    if view.last_move:
        stamp_text(image, (left, y), tr(lang, "LAST MOVE"), LABEL, "lm")
        y += 24
        style = shrink_to_fit(view.last_move, NOTATION, width, MIN_TEXT_SIZE)
        for line in notation_lines(view.last_move, style, width, NOTATION_LINES):
            stamp_text(image, (left, y), line, style, "lm")
            y += 22
        y += 14
    elif not view.over:
        opening = tr(lang, "White opens the game") if view.plies == 0 else ""
        lines = wrap_text(opening, DETAIL, width, max_lines=2)
        for line in lines:
            stamp_text(image, (left, y), line, DETAIL, "lm")
            y += 21
        y += 36 - 21 * min(1, len(lines))
    if view.capture_required:
        pill(image, (left, y), tr(lang, "CAPTURE REQUIRED"), WARNING_TAG, WARNING)
        y += 24
        detail = _capture_detail(view, lang)
        stamp_text(image, (left, y), fit_text(detail, DETAIL, width), DETAIL, "lm")
        y += 34
    if view.draw_offer_by is not None and not view.over:
        pill(image, (left, y), tr(lang, "DRAW OFFERED"), TAG, PALETTE.accent)
        y += 24
        seat = 0 if view.draw_offer_by == view.white else 1
        by = tr(lang, "by {name}", name=display_name(view.draw_offer_by, names, seat, lang))
        stamp_text(image, (left, y), fit_text(by, DETAIL, width), DETAIL, "lm")


def notation_lines(notation: str, style: TextStyle, width: float, max_lines: int) -> list[str]:
    """A move's notation broken before its ``x``/``-`` separators into lines no wider
    than ``width`` (a long capture: ``a1xa3xc3`` / ``xc5xe5``); what doesn't fit in
    ``max_lines`` is cut with an ellipsis."""
    chunks = re.findall(r"[-x]?[^-x]+", notation) or [notation]
    lines: list[str] = []
    for chunk in chunks:
        if lines and text_width(lines[-1] + chunk, style) <= width:
            lines[-1] += chunk
        else:
            lines.append(chunk)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], "".join(lines[max_lines - 1 :])]
    return [fit_text(line, style, width) for line in lines]


def _capture_detail(view: DraughtsView, lang: Lang) -> str:
    """Which capture is forced: give-and-take, the piece that moved last must be
    taken; Turkish, the longest capture."""
    if view.ruleset == "turkish":
        return tr(lang, "the longest capture")
    if view.last_moved:
        return tr(lang, "take the piece on {square}", square=view.last_moved)
    return tr(lang, "a capture must be made")


# --- sprites only this game draws ------------------------------------------------


@lru_cache(maxsize=64)
def cross(size: int, width: float, fill: RGBA) -> Image.Image:
    """An anti-aliased "x" ``size`` pixels square with round ends (a "taken" mark)."""
    image, draw = supersampled(size, size)
    stroke = width * SUPERSAMPLE
    low, high = stroke / 2, size * SUPERSAMPLE - 1 - stroke / 2
    for line in (((low, low), (high, high)), ((low, high), (high, low))):
        draw.line(line, fill=fill, width=max(1, round(stroke)))
        for x, y in line:
            draw.ellipse((x - stroke / 2, y - stroke / 2, x + stroke / 2, y + stroke / 2), fill)
    return downsample(image)


def draw_arrow(
    base: Image.Image,
    points: Sequence[Point],
    width: float,
    fill: RGBA,
    head: float | None = None,
) -> None:
    """An anti-aliased path through ``points`` (round joints and start) ending in an
    arrowhead whose tip is the last point, composited onto ``base`` (``fill``'s alpha
    applies to the whole arrow at once: overlapping strokes don't darken). Only the
    path's bounding box is supersampled. Fewer than two distinct points: nothing."""
    if len(points) < 2 or points[-1] == points[-2]:
        return
    head = width * 2.6 if head is None else head
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    head = min(head, length * 0.8)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    pad = head + width
    left = max(0, math.floor(min(x for x, _ in points) - pad))
    top = max(0, math.floor(min(y for _, y in points) - pad))
    right = min(base.width, math.ceil(max(x for x, _ in points) + pad))
    bottom = min(base.height, math.ceil(max(y for _, y in points) + pad))
    if right <= left or bottom <= top:
        return
    s = SUPERSAMPLE
    mask = Image.new("L", ((right - left) * s, (bottom - top) * s), 0)
    draw = ImageDraw.Draw(mask)

    def scaled(x: float, y: float) -> Point:
        return (x - left) * s, (y - top) * s

    neck = (x1 - ux * head * 0.9, y1 - uy * head * 0.9)
    path = [scaled(x, y) for x, y in points[:-1]] + [scaled(*neck)]
    stroke = width * s
    draw.line(path, fill=255, width=max(1, round(stroke)), joint="curve")
    for x, y in path[:-1]:
        draw.ellipse((x - stroke / 2, y - stroke / 2, x + stroke / 2, y + stroke / 2), 255)
    bx, by = x1 - ux * head, y1 - uy * head
    spread = head * 0.62
    draw.polygon(
        [
            scaled(x1, y1),
            scaled(bx - uy * spread, by + ux * spread),
            scaled(bx + uy * spread, by - ux * spread),
        ],
        fill=255,
    )
    small = mask.resize((right - left, bottom - top), Image.Resampling.BOX)
    if fill[3] < 255:
        small = small.point(lambda v: v * fill[3] // 255)
    layer = Image.new("RGBA", small.size, (*fill[:3], 0))
    layer.putalpha(small)
    base.alpha_composite(layer, dest=(left, top))
