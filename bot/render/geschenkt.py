"""The Geschenkt table as a PNG: the face-up card and its pot, the stack, and each
player's cards grouped into runs, the player to act highlighted.

Only public information is drawn. While the game runs, players' chips are secret
and never appear (the view has ``chips=None`` then); ``viewer``, ``my_chips`` and
``my_score`` are ignored altogether, so the picture is the same for everyone. Once
the game is over the seats are listed best first with chips, scores and places,
and the cards that were out of play are shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engines.geschenkt import GeschenktView, SeatView
from bot.render.cards import BIG_CARD, ROW_CARD, SMALL_CARD, CardSize, card_stack, number_card
from bot.render.output import to_png
from bot.render.palette import PALETTE, RGBA, place_colour
from bot.render.shapes import (
    SUPERSAMPLE,
    Sprite,
    downsample,
    draw_rounded,
    faded,
    new_panel,
    place,
    supersampled,
    triangle,
    with_shadow,
)
from bot.render.text import (
    MIN_CAPTION_SIZE,
    TextStyle,
    badge,
    cut_name,
    display_name,
    draw_text,
    fit_names,
    fit_text,
    join_words,
    number_text,
    seat_name,
    whole_lines,
    wrap_text,
)
from bot.render.words import Lang, plural, tr

WIDTH = 800
MARGIN = 20
HEADER_HEIGHT = 178
LABEL_Y, MIDDLE_Y, DETAIL_Y = 6, 56, 94
"""Header rows, below the top margin: small caps label, big figure, detail line."""
FINAL_HEADER_HEIGHT = 140
TITLE_LINE = 40
"""Between the lines of the winners' heading."""
TITLE_MIN_SIZE = 26
"""The winners' heading shrinks this far before it cuts a name."""
TITLE_LINES = 3
"""The winners' heading takes this many lines at most (a tie of many seats)."""
LANE_GAP = 8
LANE_PAD = 10
NAME_COLUMN = 272
STACK_X, TURN_X = 356, 530
"""Where the header's stack and turn columns start."""
COLUMN_GAP = 12
DETAIL_LINES, DETAIL_LINE = 2, 21
SCORE_COLUMN = 92
SPACING = (35, 14)
"""Horizontal offset between overlapping cards of one run, gap between groups."""
COMPACT_SPACING = (32, 8)
"""Used instead when it saves a line."""
LINE_GAP = 8
LANE_DETAIL_LINE = 27
"""Between the detail lines under a seat's name."""
NAME_LINE = 26
"""From a seat's name to the first line under it."""
EMPTY_LANE_HEIGHT = 62
REMOVED_STEP = 35
REMOVED_PER_LINE = 9

LABEL = TextStyle(18, PALETTE.muted, bold=True)
NAME = TextStyle(21, PALETTE.text, bold=True)
DETAIL = TextStyle(18, PALETTE.muted)
CAPTION = TextStyle(MIN_CAPTION_SIZE, PALETTE.muted, caption=True)
"""A lane's card count and card points, and the score's caption."""
BIG_NUMBER = TextStyle(34, PALETTE.text, bold=True)


def render_table(view: GeschenktView, names: Mapping[str, str], lang: Lang = "en") -> bytes:
    """The public table of ``view`` as PNG bytes; ``names`` maps player ids to
    display names (missing ids print as themselves); words are in ``lang``."""
    seats = _seat_order(view)
    lanes = [_lane(view, seat, index, names, lang) for index, seat in seats]
    words = _final_words(view, names, lang) if view.over else None
    header_height = _header_height(view, words)
    height = header_height + sum(lane.height + LANE_GAP for lane in lanes) + MARGIN - LANE_GAP
    image = new_panel(WIDTH, height)
    draw = ImageDraw.Draw(image)
    if view.over:
        assert words is not None
        _draw_final_header(image, draw, view, words, lang)
    else:
        _draw_header(image, draw, view, names, lang)
    top = header_height
    for lane in lanes:
        _draw_lane(image, draw, lane, top, lang)
        top += lane.height + LANE_GAP
    return to_png(image)


# --- card colours and points -----------------------------------------------------


def card_ink(value: int) -> RGBA:
    """Number colour by value band: the higher, the warmer (and the worse)."""
    if value < 10:
        return (30, 106, 54, 255)
    if value < 20:
        return (30, 88, 160, 255)
    if value < 30:
        return (160, 78, 6, 255)
    return PALETTE.red_ink


def card_points(seat: SeatView) -> int:
    """What the seat's cards count: the lowest card of each run (public)."""
    return sum(run[0] for run in seat.runs)


# --- seat lanes ------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedCard:
    value: int
    x: int
    line: int
    covered: bool
    """Another card of the same run lies over its right part..."""
    step: int
    """...leaving this many pixels of it in view."""


@dataclass(frozen=True)
class Lane:
    name: str
    details: tuple[str, ...]
    """The lines under the name: one or two details, each on one line or two."""
    cards: list[PlacedCard]
    height: int
    active: bool
    place: int | None = None
    score: int | None = None


def place_runs(
    runs: Sequence[Sequence[int]], max_width: int, size: CardSize = ROW_CARD
) -> list[PlacedCard]:
    """Lay runs out left to right in as few lines as fit ``max_width``: a run's
    cards overlap, runs stand apart, a run that doesn't fit starts a new line (a run
    longer than a whole line is split across lines). Spacing tightens a little when
    that saves a line."""
    placed = _place_with(runs, max_width, size, *SPACING)
    if _line_count(placed) > 1:
        compact = _place_with(runs, max_width, size, *COMPACT_SPACING)
        if _line_count(compact) < _line_count(placed):
            return compact
    return placed


def _line_count(cards: Sequence[PlacedCard]) -> int:
    return 1 + max((card.line for card in cards), default=0)


def _place_with(
    runs: Sequence[Sequence[int]], max_width: int, size: CardSize, step: int, gap: int
) -> list[PlacedCard]:
    slots: list[tuple[int, int, int, int]] = []  # (run index, value, x, line)
    cursor, line = 0, 0
    for index, run in enumerate(runs):
        run_width = size.width + (len(run) - 1) * step
        x = cursor + gap if cursor else 0
        if x and x + run_width > max_width:
            x, line = 0, line + 1
        for position, value in enumerate(run):
            if position:
                x += step
                if x + size.width > max_width:
                    x, line = 0, line + 1
            slots.append((index, value, x, line))
        cursor = x + size.width
    return [
        PlacedCard(value, x, line, _covered(slots, k), step)
        for k, (_, value, x, line) in enumerate(slots)
    ]


def _covered(slots: Sequence[tuple[int, int, int, int]], k: int) -> bool:
    if k + 1 >= len(slots):
        return False
    run, _, _, line = slots[k]
    next_run, _, _, next_line = slots[k + 1]
    return run == next_run and line == next_line


def _seat_order(view: GeschenktView) -> list[tuple[int, SeatView]]:
    """Seats in table order; once the game is over, best score first."""
    seats = list(enumerate(view.seats))
    if view.over:
        seats.sort(key=lambda item: (_score_key(item[1]), item[0]))
    return seats


def _score_key(seat: SeatView) -> int:
    return seat.score if seat.score is not None else 10**6


def _place_of(view: GeschenktView, seat: SeatView) -> int | None:
    if seat.score is None:
        return None
    return 1 + sum(
        1 for other in view.seats if other.score is not None and other.score < seat.score
    )


def _cards_width(view: GeschenktView) -> int:
    right = WIDTH - MARGIN - 16 - (SCORE_COLUMN if view.over else 0)
    return right - (MARGIN + NAME_COLUMN)


def _lane(
    view: GeschenktView, seat: SeatView, index: int, names: Mapping[str, str], lang: Lang
) -> Lane:
    cards = place_runs(seat.runs, _cards_width(view))
    lines = _line_count(cards)
    height = 2 * LANE_PAD + lines * ROW_CARD.height + (lines - 1) * LINE_GAP
    if not cards:
        height = EMPTY_LANE_HEIGHT
    name = display_name(seat.player, names, index, lang)
    points = plural(lang, card_points(seat), "{n} card point", "{n} card points")
    details: tuple[str, ...]
    if view.over and seat.chips is not None:
        details = (points, plural(lang, seat.chips, "− {n} chip", "− {n} chips"))
    elif seat.cards:
        details = (plural(lang, len(seat.cards), "{n} card", "{n} cards"), points)
    else:
        details = (tr(lang, "no cards yet"),)
    details = _detail_lines(details, _name_width(view.over))
    height = max(height, 2 * LANE_PAD + _name_block(len(details)))
    return Lane(
        name=name,
        details=details,
        cards=cards,
        height=height,
        active=not view.over and seat.player == view.to_act,
        place=_place_of(view, seat) if view.over else None,
        score=seat.score if view.over else None,
    )


def _draw_lane(
    image: Image.Image, draw: ImageDraw.ImageDraw, lane: Lane, top: int, lang: Lang
) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    winner = lane.place == 1
    highlighted = lane.active or winner
    fill = PALETTE.lane_active if highlighted else PALETTE.lane
    outline = PALETTE.accent if highlighted else None
    draw_rounded(image, (left, top, right, top + lane.height), 12, fill, outline, 2)
    _draw_lane_name(image, draw, lane, left, top)
    _draw_lane_cards(image, draw, lane, top)
    if lane.score is not None:
        _draw_score(draw, lane, right, top, lang)


def _name_width(over: bool) -> int:
    """The room of a seat's name and details (after the place badge at the end)."""
    return NAME_COLUMN - 12 - 18 - (36 if over else 0)


def _detail_lines(details: Sequence[str], width: int) -> tuple[str, ...]:
    """Each detail on one line, or two when one is too narrow."""
    lines: list[str] = []
    for detail in details:
        wrapped = whole_lines(detail, CAPTION, width)
        if wrapped is None or len(wrapped) > 2:
            wrapped = [fit_text(detail, CAPTION, width)]
        lines += wrapped
    return tuple(lines)


def _name_block(details: int) -> int:
    """How tall a name with ``details`` lines under it is."""
    return NAME_LINE + LANE_DETAIL_LINE * (details - 1) + 26


def _first_line_middle(lane: Lane) -> float:
    """Where the score centres: on the first line of cards."""
    return LANE_PAD + ROW_CARD.height / 2 if lane.cards else lane.height / 2


def _name_top(lane: Lane) -> float:
    """Where the name's line centres: the name block centred on the first line of cards
    (or the lane), or from the top when it is taller than that line."""
    lines = len(lane.details)
    centred = _first_line_middle(lane) - 12 - LANE_DETAIL_LINE * (lines - 1) / 2
    return max(centred, LANE_PAD + 13)


def _draw_lane_name(
    image: Image.Image, draw: ImageDraw.ImageDraw, lane: Lane, left: int, top: int
) -> None:
    x = left + 18
    name_y = top + _name_top(lane)
    if lane.place is not None:
        block_middle = name_y + 12 + LANE_DETAIL_LINE * (len(lane.details) - 1) / 2
        badge(
            image,
            (x + 13, block_middle),
            13,
            str(lane.place),
            place_colour(lane.place),
            PALETTE.accent_ink,
        )
        x += 36
    width = left + NAME_COLUMN - 12 - x
    name_style = NAME.but(fill=PALETTE.accent) if lane.active else NAME
    draw_text(draw, (x, name_y), cut_name(lane.name, name_style, width), name_style, "lm")
    for k, line in enumerate(lane.details):
        y = name_y + NAME_LINE + k * LANE_DETAIL_LINE
        draw_text(draw, (x, y), line, CAPTION, "lm")


def _draw_lane_cards(image: Image.Image, draw: ImageDraw.ImageDraw, lane: Lane, top: int) -> None:
    x0, y0 = MARGIN + NAME_COLUMN, top + LANE_PAD
    for card in lane.cards:
        strip = card.step if card.covered else None
        sprite = number_card(card.value, ROW_CARD, card_ink(card.value), strip=strip)
        place(image, sprite, x0 + card.x, y0 + card.line * (ROW_CARD.height + LINE_GAP))


def _draw_score(draw: ImageDraw.ImageDraw, lane: Lane, right: int, top: int, lang: Lang) -> None:
    assert lane.score is not None
    x = right - 18
    style = BIG_NUMBER.but(size=30, fill=PALETTE.accent if lane.place == 1 else PALETTE.text)
    middle = top + _first_line_middle(lane)
    draw_text(draw, (x, middle - 9), number_text(lane.score), style, "rm")
    draw_text(draw, (x, middle + 19), tr(lang, "score"), CAPTION, "rm")


# --- header ------------------------------------------------------------------------


def _header_height(view: GeschenktView, words: _FinalWords | None) -> int:
    if words is None:
        return HEADER_HEIGHT
    lines = _removed_lines(len(view.removed or ()))
    removed = MARGIN + 30 + lines * (SMALL_CARD.height + LINE_GAP) + 12
    return max(FINAL_HEADER_HEIGHT, removed, words.bottom + 16)


@dataclass(frozen=True)
class _FinalWords:
    """The final header's words: the winners (up to `TITLE_LINES` lines, shrunk before
    a name is cut) and the winning score under them (on one or two lines)."""

    title: list[str]
    title_style: TextStyle
    detail: list[str]

    @property
    def detail_top(self) -> int:
        return MARGIN + DETAIL_Y - 10 + TITLE_LINE * (max(1, len(self.title)) - 1)

    @property
    def bottom(self) -> int:
        return self.detail_top + DETAIL_LINE * len(self.detail)


def _final_words(view: GeschenktView, names: Mapping[str, str], lang: Lang) -> _FinalWords:
    style = BIG_NUMBER.but(fill=PALETTE.accent)
    scores = [s.score for s in view.seats if s.score is not None]
    if not scores:
        return _FinalWords([], style, [])
    best = min(scores)
    winners = [
        display_name(s.player, names, i, lang) for i, s in enumerate(view.seats) if s.score == best
    ]

    def heading(shown: Sequence[str]) -> str:
        who = join_words(list(shown), lang)
        return plural(lang, len(shown), "{names} wins", "{names} win", names=who)

    width = _title_width(view)
    title, style = fit_names(heading, winners, style, width, TITLE_LINES, TITLE_MIN_SIZE)
    detail = tr(lang, "with a score of {score} · the lowest score wins", score=best)
    return _FinalWords(title, style, wrap_text(detail, DETAIL, width, DETAIL_LINES))


def _draw_header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GeschenktView,
    names: Mapping[str, str],
    lang: Lang,
) -> None:
    card_x, card_y = MARGIN + 8, MARGIN
    if view.current_card is not None:
        sprite = number_card(view.current_card, BIG_CARD, card_ink(view.current_card))
        place(image, sprite, card_x, card_y)
    _draw_pot(image, draw, view.pot, card_x + BIG_CARD.width + 34, card_y, lang)
    _draw_stack(image, draw, view.cards_left, STACK_X, card_y, lang)
    _draw_turn(image, draw, view, names, TURN_X, card_y, lang)


def _draw_detail(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int) -> None:
    """A header column's detail, on two lines if it needs them."""
    for k, line in enumerate(wrap_text(text, DETAIL, width, DETAIL_LINES)):
        draw_text(draw, (xy[0], xy[1] + k * DETAIL_LINE), line, DETAIL)


def _draw_pot(
    image: Image.Image, draw: ImageDraw.ImageDraw, pot: int, x: int, y: int, lang: Lang
) -> None:
    draw_text(draw, (x, y + LABEL_Y), tr(lang, "POT"), LABEL)
    tower = chip_tower(pot, 20) if pot else _empty_pot(20)
    height = tower.image.height - 2 * tower.dy
    place(image, tower, x, y + MIDDLE_Y - height / 2 + 2)
    draw_text(draw, (x + 52, y + MIDDLE_Y), str(pot), BIG_NUMBER, "lm")
    detail = plural(lang, pot, "chip on the card", "chips on the card")
    _draw_detail(draw, (x, y + DETAIL_Y), detail, STACK_X - COLUMN_GAP - x)


def _draw_stack(
    image: Image.Image, draw: ImageDraw.ImageDraw, left: int, x: int, y: int, lang: Lang
) -> None:
    draw_text(draw, (x, y + LABEL_Y), tr(lang, "STACK"), LABEL)
    stack, layers = card_stack(SMALL_CARD, left)
    if layers:
        place(image, stack, x, y + MIDDLE_Y - 24)
    number_x = x + (stack.image.width - 2 * stack.dx + 12 if layers else 0)
    draw_text(draw, (number_x, y + MIDDLE_Y), str(left), BIG_NUMBER, "lm")
    detail = plural(lang, left, "card to come", "cards to come")
    _draw_detail(draw, (x, y + DETAIL_Y), detail, TURN_X - COLUMN_GAP - x)


def _draw_turn(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GeschenktView,
    names: Mapping[str, str],
    x: int,
    y: int,
    lang: Lang,
) -> None:
    if view.to_act is None:
        return
    width = WIDTH - MARGIN - 16 - x
    draw_text(draw, (x, y + LABEL_Y), tr(lang, "TO ACT"), LABEL)
    image.alpha_composite(triangle(18, PALETTE.accent), dest=(x, y + MIDDLE_Y - 9))
    style = BIG_NUMBER.but(size=27, fill=PALETTE.accent)
    name = seat_name(view.to_act, [seat.player for seat in view.seats], names, lang)
    draw_text(draw, (x + 24, y + MIDDLE_Y), cut_name(name, style, width - 24), style, "lm")
    if view.current_card is not None:
        hint = tr(lang, "take the {card} or pay a chip", card=view.current_card)
        _draw_detail(draw, (x, y + DETAIL_Y), hint, width)


def _removed_lines(count: int) -> int:
    return max(1, -(-count // REMOVED_PER_LINE))


def _draw_final_header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GeschenktView,
    words: _FinalWords,
    lang: Lang,
) -> None:
    x, y = MARGIN + 12, MARGIN
    draw_text(draw, (x, y + LABEL_Y), tr(lang, "GAME OVER"), LABEL)
    for k, line in enumerate(words.title):
        draw_text(draw, (x, y + MIDDLE_Y - 6 + TITLE_LINE * k), line, words.title_style, "lm")
    for k, line in enumerate(words.detail):
        draw_text(draw, (x, words.detail_top + DETAIL_LINE * k), line, DETAIL)
    if view.removed:
        _draw_removed(image, draw, view.removed, lang)


def _title_width(view: GeschenktView) -> int:
    removed_left = WIDTH - MARGIN - 16 - _removed_block_width()
    right = removed_left - 24 if view.removed else WIDTH - MARGIN - 16
    return right - (MARGIN + 12)


def _removed_block_width() -> int:
    return SMALL_CARD.width + (REMOVED_PER_LINE - 1) * REMOVED_STEP


def _draw_removed(
    image: Image.Image, draw: ImageDraw.ImageDraw, removed: Sequence[int], lang: Lang
) -> None:
    x0, y0 = WIDTH - MARGIN - 16 - _removed_block_width(), MARGIN
    draw_text(draw, (x0, y0 + LABEL_Y), tr(lang, "OUT OF PLAY"), LABEL)
    for k, value in enumerate(sorted(removed)):
        line, column = divmod(k, REMOVED_PER_LINE)
        sprite = number_card(value, SMALL_CARD, card_ink(value), muted=True)
        y = y0 + 34 + line * (SMALL_CARD.height + LINE_GAP)
        place(image, sprite, x0 + column * REMOVED_STEP, y)


# --- sprites only this game draws ------------------------------------------------


def _darker(colour: RGBA, factor: float) -> RGBA:
    r, g, b, a = colour
    return (round(r * factor), round(g * factor), round(b * factor), a)


@lru_cache(maxsize=8)
def _empty_pot(radius: int) -> Sprite:
    """An empty pot: one chip, faded."""
    return faded(chip_tower(0, radius), 0.3)


@lru_cache(maxsize=64)
def chip_tower(count: int, radius: int, most: int = 6, colour: RGBA = PALETTE.chip) -> Sprite:
    """A stack of ``min(count, most)`` chips (at least one) seen slightly from the
    side, like a pot on the table. The sprite's (dx, dy) is the top-left corner of
    the bottom chip's footprint box (2·radius wide)."""
    s = SUPERSAMPLE
    shown = max(1, min(count, most))
    face_h = round(radius * 0.9)  # the ellipse of a chip's face
    thick = max(3, round(radius * 0.32))
    width, height = 2 * radius, face_h + thick * shown
    image, draw = supersampled(width, height)
    side, edge = _darker(colour, 0.7), _darker(colour, 0.5)
    for k in range(shown):
        top = (height - face_h - thick * (k + 1)) * s
        bottom_face = (0, top + thick * s, width * s - 1, top + thick * s + face_h * s)
        draw.ellipse(bottom_face, fill=edge)
        draw.rectangle(
            (0, top + face_h * s / 2, width * s - 1, top + thick * s + face_h * s / 2), fill=side
        )
        face = (0, top, width * s - 1, top + face_h * s)
        draw.ellipse(face, fill=colour)
        inset_x, inset_y = width * s * 0.2, face_h * s * 0.2
        draw.ellipse(
            (inset_x, top + inset_y, width * s - 1 - inset_x, top + face_h * s - inset_y),
            outline=PALETTE.chip_stripe,
            width=max(1, round(s * radius * 0.1)),
        )
    return with_shadow(downsample(image), radius // 2, blur=1, drop=1)
