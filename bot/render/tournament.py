"""A tournament's standings as a PNG: a round's table, or the final standings with a
podium for the first three places.

Pure and picklable like every renderer here: plain data in (`StandingRow` lines,
already in order, best first), PNG bytes out, so a render worker draws it
(`bot.render.workers`). Every word a player reads comes from the caller, translated:
the title and subtitle, the column headings, the "+ N more" line and each line's
preformatted points and tie-break; this module adds no word of its own.

Names are drawn as written, as the game tables draw them (`bot.render.text`): control
characters and line breaks become spaces, each script in its own face, right-to-left
words laid out right to left inside the name; an override or isolate character only
ever reaches the name's own cell (each cell is drawn on its own), and a long name is
cut with an ellipsis to fit its cell.

The image is `WIDTH` px wide (as the tables) and as tall as its lines need; at most
`MAX_ROWS` entrants are drawn (podium and table together), then one line says how many
more there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.output import to_png
from bot.render.palette import PALETTE, RGBA, place_colour
from bot.render.shapes import draw_rounded, new_panel
from bot.render.text import (
    MIN_TEXT_SIZE,
    TextStyle,
    clean_name,
    cut_name,
    draw_centered,
    draw_text,
    fit_lines,
    fit_text,
    font,
    number_text,
    text_width,
)
from bot.render.words import Lang

WIDTH = 800
MARGIN = 20
PAD = 16
"""Between the panel's margin and the text."""
LEFT, RIGHT = MARGIN + PAD, WIDTH - MARGIN - PAD
INNER = RIGHT - LEFT
MAX_ROWS = 32
"""Entrants drawn at most (podium and table together); the rest are one "+ N more" line."""
MORE = "{n}"
"""Where the "more" line's text takes the number of entrants left out."""

TITLE_LINES, TITLE_LINE, TITLE_MIN_SIZE = 2, 38, 24
SUBTITLE_LINES, SUBTITLE_LINE = 2, 26
HEADING_GAP = 18
"""Below the title and subtitle."""

PODIUM_MOST = 5
"""Blocks on the podium at most: the places 1–3 with their ties (1, 1, 3 or 1, 2, 3, 3);
entrants tied beyond them are listed first in the table."""
BLOCK_HEIGHTS = {1: 168, 2: 140, 3: 116}
"""Gold, silver and bronze blocks: the better the place, the taller."""
BLOCK_WIDEST = 216
BLOCK_GAP = 12
PODIUM_NAME_ROW = 36
"""Above a block: its entrant's name."""
FLOOR = 6
"""The podium's floor, under its blocks."""
PODIUM_GAP = 22
"""Below the podium."""

HEADER_ROW = 34
ROW_HEIGHT, ROW_GAP = 42, 4
COLUMN_GAP = 18
CELL_PAD = 12
"""Inside a row, before the first and after the last cell."""
NAME_LEAST = 220
"""The name column keeps at least this much; the tie-break gives way first."""
MORE_ROW = 40

TITLE = TextStyle(30, PALETTE.text, bold=True)
SUBTITLE = TextStyle(20, PALETTE.muted)
HEADER_CAPTION = TextStyle(22, PALETTE.muted, bold=True, caption=True)
"""The column headings."""
RANK = TextStyle(21, PALETTE.muted, bold=True)
NAME = TextStyle(21, PALETTE.text, bold=True)
COMPUTER_NAME = TextStyle(21, PALETTE.muted, bold=True)
"""A computer seat's name: muted, so people stand out."""
GAMES = TextStyle(21, PALETTE.muted)
POINTS = TextStyle(22, PALETTE.text, bold=True)
TIE_BREAK = TextStyle(20, PALETTE.muted)
MORE_TEXT = TextStyle(20, PALETTE.muted)
PODIUM_NAME = TextStyle(22, PALETTE.text, bold=True)
PODIUM_COMPUTER = TextStyle(22, PALETTE.muted, bold=True)
PODIUM_RANK = TextStyle(40, PALETTE.accent_ink, bold=True)
PODIUM_POINTS = TextStyle(26, PALETTE.accent_ink, bold=True)
PODIUM_CAPTION = TextStyle(22, PALETTE.accent_ink, caption=True)
"""A podium block's tie-break."""


@dataclass(frozen=True)
class StandingRow:
    """One entrant's line, as the caller shows it."""

    rank: int
    """1 for the first; entrants who share a place share its rank (1, 1, 3)."""
    name: str
    """The display name, drawn as plain text (no markdown)."""
    points: str
    """Preformatted: "3½", "2.5"."""
    tie_break: str
    """Preformatted, with its own short label: "Bh 7½"."""
    games: int
    is_computer: bool = False


def hidden_rows(count: int) -> int:
    """How many of ``count`` entrants the image leaves out (for the "more" line's
    plural, when the caller words it)."""
    return max(0, count - MAX_ROWS)


def render_standings(
    title: str,
    subtitle: str,
    rows: Sequence[StandingRow],
    lang: Lang,
    *,
    final: bool,
    headers: tuple[str, str, str, str, str],
    more_text: str,
) -> bytes:
    """The standings as PNG bytes.

    ``rows`` come best first. ``final`` puts the places 1–3 on a podium (gold, silver
    and bronze blocks; tied entrants share a place and a block height) above the table
    of the others; otherwise the table holds everyone (a round's standings, the
    sign-up list). ``headers`` are the columns' headings: rank, name, games, points,
    tie-break. ``more_text`` is the last line when entrants are left out, its "{n}"
    replaced by how many ("+ {n} more"). ``lang`` is the words' language (they come
    translated; it is kept for the signature every renderer shares).

    A render worker takes positional arguments only: run it through
    ``functools.partial(render_standings, final=..., headers=..., more_text=...)``.
    """
    del lang  # every word comes translated
    shown = list(rows[:MAX_ROWS])
    hidden = hidden_rows(len(rows))
    podium = podium_rows(shown) if final else []
    table = shown[len(podium) :]
    heading = _heading(title, subtitle)
    columns = table_columns(table, headers)

    top = MARGIN + 14
    podium_top = top + heading.height + HEADING_GAP
    table_top = podium_top + (_podium_height() + PODIUM_GAP if podium else 0)
    table_height = HEADER_ROW + len(table) * (ROW_HEIGHT + ROW_GAP) if table else 0
    more_top = table_top + table_height
    height = more_top + (MORE_ROW if hidden else 0) + MARGIN

    image = new_panel(WIDTH, height)
    draw = ImageDraw.Draw(image)
    _draw_heading(draw, heading, top)
    if podium:
        _draw_podium(image, draw, podium, podium_top)
    if table:
        _draw_table(image, draw, table, columns, headers, table_top)
    if hidden:
        text = fit_text(more_text.replace(MORE, str(hidden)), MORE_TEXT, INNER)
        draw_text(draw, (WIDTH / 2, more_top + MORE_ROW / 2), text, MORE_TEXT, "mm")
    return to_png(image)


# --- heading -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Heading:
    title: list[str]
    title_style: TextStyle
    subtitle: list[str]

    @property
    def height(self) -> int:
        return TITLE_LINE * len(self.title) + SUBTITLE_LINE * len(self.subtitle)


def _heading(title: str, subtitle: str) -> _Heading:
    """The title on one line, shrunk a little or on two lines if it must; the
    subtitle under it (both drawn whole where they can be)."""
    title_lines, title_style = (
        fit_lines(title, TITLE, INNER, TITLE_LINES, TITLE_MIN_SIZE)
        if title.strip()
        else ([], TITLE)
    )
    subtitle_lines = (
        fit_lines(subtitle, SUBTITLE, INNER, SUBTITLE_LINES, MIN_TEXT_SIZE)[0]
        if subtitle.strip()
        else []
    )
    return _Heading(title_lines, title_style, subtitle_lines)


def _draw_heading(draw: ImageDraw.ImageDraw, heading: _Heading, top: int) -> None:
    y = top
    for line in heading.title:
        draw_text(draw, (LEFT, y + TITLE_LINE / 2), line, heading.title_style, "lm")
        y += TITLE_LINE
    for line in heading.subtitle:
        draw_text(draw, (LEFT, y + SUBTITLE_LINE / 2), line, SUBTITLE, "lm")
        y += SUBTITLE_LINE


# --- podium ------------------------------------------------------------------------


def podium_rows(rows: Sequence[StandingRow]) -> list[StandingRow]:
    """The leading rows placed 1–3 (ties included), at most `PODIUM_MOST`."""
    podium: list[StandingRow] = []
    for row in rows[:PODIUM_MOST]:
        if row.rank > 3:
            break
        podium.append(row)
    return podium


@dataclass(frozen=True)
class Block:
    """One podium block: its entrant, where it stands and how tall it is."""

    row: StandingRow
    left: int
    width: int
    height: int


def podium_blocks(podium: Sequence[StandingRow]) -> list[Block]:
    """The blocks left to right: the best in the middle, the next to its left, then
    right, then further out (2 1 3, or 4 2 1 3 5); tied entrants get blocks of the
    same height."""
    count = len(podium)
    if not count:
        return []
    width = min(BLOCK_WIDEST, (INNER - (count - 1) * BLOCK_GAP) // count)
    total = count * width + (count - 1) * BLOCK_GAP
    start = LEFT + (INNER - total) // 2
    slots = _podium_slots(count)
    blocks = [
        Block(row, start + slot * (width + BLOCK_GAP), width, _block_height(row.rank))
        for row, slot in zip(podium, slots, strict=True)
    ]
    return sorted(blocks, key=lambda block: block.left)


def _podium_slots(count: int) -> list[int]:
    """The slot (0 = leftmost) of each podium place, best first: centre, then
    alternately left and right of it."""
    centre = (count - 1) // 2 if count % 2 else count // 2
    slots = [centre]
    for k in range(1, count):
        step = (k + 1) // 2
        slots.append(centre - step if k % 2 else centre + step)
    return slots


def _block_height(rank: int) -> int:
    return BLOCK_HEIGHTS.get(rank, BLOCK_HEIGHTS[3] if rank > 3 else BLOCK_HEIGHTS[1])


def _podium_height() -> int:
    return PODIUM_NAME_ROW + max(BLOCK_HEIGHTS.values()) + FLOOR


def _draw_podium(
    image: Image.Image, draw: ImageDraw.ImageDraw, podium: Sequence[StandingRow], top: int
) -> None:
    floor_y = top + PODIUM_NAME_ROW + max(BLOCK_HEIGHTS.values())
    blocks = podium_blocks(podium)
    for block in blocks:
        _draw_block(image, draw, block, floor_y)
    left = blocks[0].left - BLOCK_GAP
    right = blocks[-1].left + blocks[-1].width + BLOCK_GAP
    draw_rounded(image, (left, floor_y, right, floor_y + FLOOR), FLOOR // 2, PALETTE.panel_edge)


def _draw_block(image: Image.Image, draw: ImageDraw.ImageDraw, block: Block, floor_y: int) -> None:
    row = block.row
    left, right = block.left, block.left + block.width
    block_top = floor_y - block.height
    colour: RGBA = place_colour(row.rank)
    draw_rounded(image, (left, block_top, right, floor_y), 10, colour)
    image.paste(colour, (left, floor_y - 10, right, floor_y))  # square at the floor
    middle = left + block.width / 2
    name_style = PODIUM_COMPUTER if row.is_computer else PODIUM_NAME
    name = cut_name(_plain(row.name), name_style, block.width - 8)
    draw_text(draw, (middle, block_top - PODIUM_NAME_ROW / 2), name, name_style, "mm")
    room = block.width - 16
    draw_centered(draw, (middle, block_top + 30), number_text(row.rank), PODIUM_RANK)
    points = fit_text(_plain(row.points), PODIUM_POINTS, room)
    draw_text(draw, (middle, block_top + 72), points, PODIUM_POINTS, "mm")
    tie_break = fit_text(_plain(row.tie_break), PODIUM_CAPTION, room)
    draw_text(draw, (middle, block_top + 101), tie_break, PODIUM_CAPTION, "mm")


# --- table -------------------------------------------------------------------------


@dataclass(frozen=True)
class Columns:
    """Where the table's cells are: each column's (left, right), in px."""

    rank: tuple[int, int]
    name: tuple[int, int]
    games: tuple[int, int]
    points: tuple[int, int]
    tie_break: tuple[int, int]


def _widest(texts: Sequence[str], style: TextStyle, header: str) -> int:
    widths = [text_width(text, style) for text in texts]
    return round(max([text_width(header, HEADER_CAPTION), *widths]))


def table_columns(rows: Sequence[StandingRow], headers: tuple[str, str, str, str, str]) -> Columns:
    """Each column as wide as its widest text (heading included), a column with an
    empty heading left out; the name takes the rest, at least `NAME_LEAST` (the
    tie-break column gives way and its texts are cut, which only a very long
    tie-break text needs)."""
    rank_head, _, games_head, points_head, tie_head = headers
    rank = _widest([number_text(row.rank) for row in rows], RANK, rank_head)
    games = _widest([number_text(row.games) for row in rows], GAMES, games_head)
    points = _widest([_plain(row.points) for row in rows], POINTS, points_head)
    tie_break = _widest([_plain(row.tie_break) for row in rows], TIE_BREAK, tie_head)
    games, points, tie_break = (
        width if head.strip() else 0
        for width, head in ((games, games_head), (points, points_head), (tie_break, tie_head))
    )
    left, right = LEFT + CELL_PAD, RIGHT - CELL_PAD
    fixed = rank + games + points + COLUMN_GAP * (1 + sum(1 for w in (games, points) if w))
    room = right - left - fixed - NAME_LEAST - (COLUMN_GAP if tie_break else 0)
    tie_break = max(0, min(tie_break, room))
    cursor = right
    cells: list[tuple[int, int]] = []
    for width in (tie_break, points, games):
        cells.append((cursor - width, cursor))
        cursor -= width + COLUMN_GAP if width else 0
    tie_cell, points_cell, games_cell = cells
    rank_right = left + rank
    return Columns(
        rank=(left, rank_right),
        name=(rank_right + COLUMN_GAP, cursor),
        games=games_cell,
        points=points_cell,
        tie_break=tie_cell,
    )


def _draw_table(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    rows: Sequence[StandingRow],
    columns: Columns,
    headers: tuple[str, str, str, str, str],
    top: int,
) -> None:
    rank_head, name_head, games_head, points_head, tie_head = headers
    middle = top + HEADER_ROW / 2
    _cell(draw, columns.rank, middle, rank_head, HEADER_CAPTION, "m")
    _cell(draw, columns.name, middle, name_head, HEADER_CAPTION, "l")
    _cell(draw, columns.games, middle, games_head, HEADER_CAPTION, "r")
    _cell(draw, columns.points, middle, points_head, HEADER_CAPTION, "r")
    _cell(draw, columns.tie_break, middle, tie_head, HEADER_CAPTION, "r")
    y = top + HEADER_ROW
    for index, row in enumerate(rows):
        fill = PALETTE.lane if index % 2 == 0 else PALETTE.lane_active
        draw_rounded(image, (LEFT, y, RIGHT, y + ROW_HEIGHT), 10, fill)
        middle = y + ROW_HEIGHT / 2
        name_style = COMPUTER_NAME if row.is_computer else NAME
        name_left, name_right = columns.name
        name = cut_name(_plain(row.name), name_style, name_right - name_left)
        _cell(draw, columns.rank, middle, number_text(row.rank), RANK, "m")
        _cell(draw, (name_left, name_right), middle, name, name_style, "l")
        _cell(draw, columns.games, middle, number_text(row.games), GAMES, "r")
        _cell(draw, columns.points, middle, _plain(row.points), POINTS, "r")
        _cell(draw, columns.tie_break, middle, _plain(row.tie_break), TIE_BREAK, "r")
        y += ROW_HEIGHT + ROW_GAP


def _cell(
    draw: ImageDraw.ImageDraw,
    column: tuple[int, int],
    middle: float,
    text: str,
    style: TextStyle,
    align: str,
) -> None:
    """``text`` in its column, aligned left, in the middle or right (cut only if it
    can't fit, which the column widths avoid)."""
    left, right = column
    if not text or right <= left:
        return
    fitted = fit_text(text, style, right - left)
    x = {"l": left, "m": (left + right) / 2, "r": right}[align]
    draw_text(draw, (x, _baseline(middle)), fitted, style, f"{align}s")


def _baseline(middle: float) -> float:
    """The baseline of a row's texts, whatever their sizes: a name's, centred on
    ``middle``."""
    ascent, descent = font(NAME.size, NAME.bold).getmetrics()
    return middle + (ascent - descent) / 2


def _plain(text: str) -> str:
    """A caller's text as drawn: on one line, control characters as spaces; a blank
    one as a dash."""
    return clean_name(text) or "—"
