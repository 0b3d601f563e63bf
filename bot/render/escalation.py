"""The Escalation table as a PNG: the plays of the current round (the latest one big,
the earlier ones small beside it), the value in force, the direction of play, the
stock and the deal, then one lane per seat with its hand size, penalty stack and
running total, the player to act highlighted.

Only public information is drawn. Hands are secret: a lane shows how many cards a
player holds as face-down backs, never which. ``my_hand`` and ``viewer`` are ignored
altogether, so the picture is the same for everyone. Once the game is over the seats
are listed best first with places and scores, and each deal's winner and chips.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from bot.engines.cards import Card
from bot.engines.escalation import (
    DealResultView,
    EscalationView,
    PlayView,
    SeatView,
    card_value,
    is_pass_through,
)
from bot.render.cards import (
    BIG_CARD,
    SMALL_CARD,
    CardSize,
    card_stack,
    fanned_backs,
    playing_card,
    rank_text,
)
from bot.render.output import to_png
from bot.render.palette import PALETTE, RGBA, place_colour
from bot.render.shapes import (
    SUPERSAMPLE,
    downsample,
    draw_rounded,
    new_panel,
    place,
    supersampled,
    triangle,
)
from bot.render.text import (
    MIN_CAPTION_SIZE,
    TextStyle,
    badge,
    cut_name,
    fit_names,
    fit_text,
    join_words,
    pill,
    seat_name,
    signed,
    stamp_text,
    text_width,
    whole_lines,
    wrap_text,
)
from bot.render.words import N_, Lang, plural, tr
from bot.texts import Picks

WIDTH = 800
MARGIN = 20
RIGHT = WIDTH - MARGIN - 16
"""Right edge of the header's content."""

# --- header geometry ---
LABEL_Y = MARGIN + 6
CARDS_TOP = MARGIN + 32
CARDS_BOTTOM = CARDS_TOP + BIG_CARD.height
CAPTION_Y = CARDS_BOTTOM + 16
"""Middle of the caption line under the cards."""
HEADER_HEIGHT = CAPTION_Y + 26
CAPTION_LINE = 24
"""Between two lines of a caption (the stock's, when one line is too narrow)."""
PLAY_LEFT = MARGIN + 14
VALUE_X = 398
INFO_X = 570
PLAY_RIGHT = VALUE_X - 26

LATEST_CARD = BIG_CARD
LATEST_STEP, LATEST_MIN_STEP, LATEST_MAX_WIDTH = 36, 18, 230
"""The latest play fans its cards this far apart, closer when it is a long set."""
TRAIL_CARD = CardSize(44, 60, 6, 22, 18)
TRAIL_STEP = 17
TRAIL_GAP = 12
"""Between two earlier plays."""
TRAIL_TO_LATEST = 22
MORE_WIDTH = 44
"""Room for the "+k earlier" note when not every earlier play fits (more when its
caption is wider)."""
CAPTION_GAP = 8
"""Between the captions of two plays side by side."""

# --- final header geometry ---
FINAL_MIN_HEADER = 172
"""Room for the headline and a detail of two lines under it."""
FINAL_X = MARGIN + 12
TITLE_Y = CARDS_TOP + 22
"""Middle of the winners' first line."""
TITLE_LINE = 40
TITLE_MIN_SIZE = 26
"""The winners' heading shrinks this far before it cuts a name."""
TITLE_LINES = 3
"""The winners' heading takes this many lines at most (a tie of many seats)."""
FINAL_DETAIL_LINE = 22
DEALS_X = 410
DEAL_ROW = 25
WIDE_DEALS = 5
"""Up to this many deals are listed one per line; more go in two columns."""
DEAL_ROWS = 6

# --- seat lanes ---
LANE_HEIGHT = 66
TALL_LANE_HEIGHT = 84
"""Every lane, when one has two lines under its name."""
DETAIL_LINE = 21
"""Between the lines under a lane's name."""
LANE_GAP = 8
NAME_X = MARGIN + 18
NAME_RIGHT = 250
HAND_X = 258
HAND_STEP = 10
HAND_SHOWN = 5
HAND_COUNT_X = HAND_X + SMALL_CARD.width + (HAND_SHOWN - 1) * HAND_STEP + 12
PENALTY_X = 432
TOTAL_RIGHT = WIDTH - MARGIN - 18

LABEL = TextStyle(18, PALETTE.muted, bold=True)
NAME = TextStyle(21, PALETTE.text, bold=True)
DETAIL = TextStyle(18, PALETTE.muted)
CAPTION = TextStyle(MIN_CAPTION_SIZE, PALETTE.muted, bold=True, caption=True)
COUNT = TextStyle(22, PALETTE.text, bold=True)
BIG_NUMBER = TextStyle(34, PALETTE.text, bold=True)
VALUE = TextStyle(64, PALETTE.text, bold=True)
TAG = TextStyle(18, PALETTE.accent_ink, bold=True)
TAG_PAD = 8


DIRECTIONS = {"clockwise": N_("clockwise"), "counterclockwise": N_("counterclockwise")}
"""The direction of play as the view names it → its template."""


def render_table(view: EscalationView, names: Mapping[str, str], lang: Lang = "en") -> bytes:
    """The public table of ``view`` as PNG bytes, its words in ``lang``; ``names`` maps
    player ids to display names (missing ids print as themselves)."""
    table = _Table(view, names, lang)
    lanes = [_lane(table, seat) for seat in _seat_order(view)]
    lane_height = TALL_LANE_HEIGHT if any(len(lane.details) > 1 for lane in lanes) else LANE_HEIGHT
    if view.over:
        final = _final_words(table)
        header_height = _final_header_height(view, final)
    else:
        stock_lines = _stock_caption(table)
        header_height = HEADER_HEIGHT + CAPTION_LINE * (len(stock_lines) - 1)
    height = header_height + len(lanes) * (lane_height + LANE_GAP) - LANE_GAP + MARGIN
    image = new_panel(WIDTH, height)
    if view.over:
        _draw_final_header(image, table, final)
    else:
        _draw_round(image, table)
        _draw_value(image, table)
        _draw_info(image, table, stock_lines)
    top = header_height
    for lane in lanes:
        _draw_lane(image, table.lang, lane, top, lane_height)
        top += lane_height + LANE_GAP
    return to_png(image)


@dataclass(frozen=True)
class _Table:
    view: EscalationView
    names: Mapping[str, str]
    lang: Lang = "en"

    def name(self, player: str) -> str:
        players = [seat.player for seat in self.view.seats]
        return seat_name(player, players, self.names, self.lang)

    def score(self, seat: SeatView) -> int:
        scores = self.view.scores or {}
        return scores.get(seat.player, seat.total)


# --- seat lanes ------------------------------------------------------------------


@dataclass(frozen=True)
class Lane:
    name: str
    details: tuple[str, ...]
    """The lines under the name (none, one, or two for a long one): what the player to
    act has to do; how many cards the last taker took (once another player acts: the
    header says it until then); at the end, the deals won and chips paid."""
    hand: int
    penalty: int
    total: int
    active: bool
    show_total: bool
    """Running totals mean something only with several deals (or at the end)."""
    place: int | None = None


def _name_left(active: bool, place: int | None) -> int:
    """Where a lane's name begins: after its place badge, or the turn marker."""
    return NAME_X + (36 if place is not None else 16 if active else 0)


def _details(detail: str, active: bool, place: int | None) -> tuple[str, ...]:
    """``detail`` on one line under the name, or two when one is too narrow."""
    if not detail:
        return ()
    width = NAME_RIGHT - _name_left(active, place)
    lines = whole_lines(detail, DETAIL, width)
    if lines is None or len(lines) > 2:
        return (fit_text(detail, DETAIL, width),)
    return tuple(lines)


def _seat_order(view: EscalationView) -> list[SeatView]:
    """Seats in table order; once the game is over, best score first (ties in table
    order: the sort is stable)."""
    if not view.over:
        return list(view.seats)
    scores = view.scores or {}
    return sorted(view.seats, key=lambda seat: -scores.get(seat.player, seat.total))


def _lane(table: _Table, seat: SeatView) -> Lane:
    view = table.view
    if view.over:
        score = table.score(seat)
        place = 1 + sum(1 for other in view.seats if table.score(other) > score)
        detail = _final_detail(view.results, seat.player, table.lang)
        return Lane(
            name=table.name(seat.player),
            details=_details(detail, False, place),
            hand=seat.hand_size,
            penalty=seat.penalty_size,
            total=score,
            active=False,
            show_total=True,
            place=place,
        )
    active = seat.player == view.to_act
    detail = ""
    if active:
        to_beat = view.value_in_force
        if view.must_lead or to_beat is None:
            detail = tr(table.lang, "to lead")
        else:
            detail = tr(table.lang, "to beat {value}", value=to_beat)
    elif view.last_take is not None and view.last_take.player == seat.player:
        count = view.last_take.count
        detail = plural(table.lang, count, "took {n} card last", "took {n} cards last")
    return Lane(
        name=table.name(seat.player),
        details=_details(detail, active, None),
        hand=seat.hand_size,
        penalty=seat.penalty_size,
        total=seat.total,
        active=active,
        show_total=view.deals > 1,
    )


def _final_detail(results: Sequence[DealResultView], player: str, lang: Lang) -> str:
    won = sum(1 for result in results if result.winner == player)
    paid = -sum(min(0, result.chips.get(player, 0)) for result in results)
    parts = []
    if won:
        if len(results) > 1:
            parts.append(plural(lang, won, "won {n} deal", "won {n} deals"))
        else:
            parts.append(tr(lang, "went out"))
    if paid:
        parts.append(tr(lang, "paid {n}", n=paid))
    return " · ".join(parts)


def _draw_lane(image: Image.Image, lang: Lang, lane: Lane, top: int, height: int) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    highlighted = lane.active or lane.place == 1
    fill = PALETTE.lane_active if highlighted else PALETTE.lane
    outline = PALETTE.accent if highlighted else None
    draw_rounded(image, (left, top, right, top + height), 12, fill, outline, 2)
    middle = top + height / 2
    _draw_lane_name(image, lane, middle)
    _draw_hand(image, lang, lane.hand, middle, fill)
    _draw_penalty(image, lang, lane.penalty, middle, fill)
    if lane.show_total:
        winner = lane.place == 1
        style = BIG_NUMBER.but(size=28, fill=PALETTE.accent if winner else PALETTE.text)
        total = signed(lane.total)
        stamp_text(image, (TOTAL_RIGHT, middle - 8), total, style, "rm")
        caption = tr(lang, "score") if lane.place is not None else tr(lang, "total")
        stamp_text(image, (TOTAL_RIGHT, middle + 17), caption, CAPTION, "rm")


def _draw_lane_name(image: Image.Image, lane: Lane, middle: float) -> None:
    x = _name_left(lane.active, lane.place)
    if lane.place is not None:
        badge(
            image,
            (NAME_X + 13, middle),
            13,
            str(lane.place),
            place_colour(lane.place),
            PALETTE.accent_ink,
        )
    elif lane.active:
        marker_y = middle - 11 - DETAIL_LINE / 2 * max(0, len(lane.details) - 1)
        image.alpha_composite(triangle(14, PALETTE.accent), dest=(NAME_X - 2, round(marker_y - 8)))
    width = NAME_RIGHT - x
    style = NAME.but(fill=PALETTE.accent) if lane.active else NAME
    name = cut_name(lane.name, style, width)
    if not lane.details:
        stamp_text(image, (x, middle), name, style, "lm")
        return
    name_y = middle - 11 - DETAIL_LINE / 2 * (len(lane.details) - 1)
    stamp_text(image, (x, name_y), name, style, "lm")
    for k, line in enumerate(lane.details):
        stamp_text(image, (x, name_y + 25 + DETAIL_LINE * k), line, DETAIL, "lm")


def _draw_count(image: Image.Image, x: float, middle: float, count: int, caption: str) -> None:
    stamp_text(image, (x, middle - 8), str(count), COUNT, "lm")
    stamp_text(image, (x, middle + 15), caption, CAPTION, "lm")


def _draw_hand(image: Image.Image, lang: Lang, count: int, middle: float, ground: RGBA) -> None:
    shown = min(count, HAND_SHOWN)
    top = middle - SMALL_CARD.height / 2 - 1
    if shown:
        place(image, fanned_backs(SMALL_CARD, shown, HAND_STEP), HAND_X, top)
    else:
        _draw_empty_slot(image, HAND_X, top, SMALL_CARD, ground)
    _draw_count(image, HAND_COUNT_X, middle, count, tr(lang, "in hand"))


def penalty_left(lang: Lang) -> int:
    """Where the penalty stacks stand: `PENALTY_X`, or right of a wider "in hand"."""
    hand_words = max(text_width(tr(lang, "in hand"), CAPTION), text_width("00", COUNT))
    return max(PENALTY_X, round(HAND_COUNT_X + hand_words + 12))


def _draw_penalty(image: Image.Image, lang: Lang, count: int, middle: float, ground: RGBA) -> None:
    """The penalty stack and its count."""
    stack, layers = card_stack(SMALL_CARD, count)
    top = middle - SMALL_CARD.height / 2 - 1 - 1.5 * max(0, layers - 1)
    penalty_x = penalty_left(lang)
    if layers:
        place(image, stack, penalty_x, top)
    else:
        slot_top = middle - SMALL_CARD.height / 2 - 1
        _draw_empty_slot(image, penalty_x, slot_top, SMALL_CARD, ground)
    x = penalty_x + SMALL_CARD.width + 3 * 3 + 12
    _draw_count(image, x, middle, count, tr(lang, "penalty"))


def _draw_empty_slot(
    image: Image.Image, x: float, y: float, size: CardSize, ground: RGBA = PALETTE.panel
) -> None:
    """Where cards would be: a faint outline on the ``ground`` colour."""
    box = (round(x), round(y), round(x) + size.width, round(y) + size.height)
    draw_rounded(image, box, size.radius, ground, PALETTE.faint, 1)


# --- header: the round -------------------------------------------------------------


@dataclass(frozen=True)
class PlacedPlay:
    """One play laid out: its cards' left edges and the group's extent."""

    play: PlayView
    x: int
    width: int
    step: int


def layout_round(
    plays: Sequence[PlayView],
    left: int,
    right: int,
    caption: Callable[[PlayView], float] | None = None,
    more: float = MORE_WIDTH,
) -> tuple[int, list[PlacedPlay]]:
    """Lay the round out left to right: earlier plays small, the latest big. Returns
    how many of the oldest plays did not fit, and the groups that did (oldest first,
    the latest last). Nothing for an empty round. ``caption`` gives the width of an
    earlier play's caption (centred under it): plays stand far enough apart that
    their captions don't touch; ``more`` is the room of the "+k earlier" note."""
    if not plays:
        return 0, []
    latest = plays[-1]
    count = len(latest.cards)
    step = LATEST_STEP
    if count > 1 and LATEST_CARD.width + step * (count - 1) > LATEST_MAX_WIDTH:
        step = max(LATEST_MIN_STEP, (LATEST_MAX_WIDTH - LATEST_CARD.width) // (count - 1))
    latest_width = LATEST_CARD.width + step * (count - 1)
    earlier = plays[:-1]
    widths = [TRAIL_CARD.width + TRAIL_STEP * (len(play.cards) - 1) for play in earlier]
    spans = [
        max(width, math.ceil(caption(play)) + CAPTION_GAP) if caption else width
        for play, width in zip(earlier, widths, strict=True)
    ]
    more_width = max(MORE_WIDTH, math.ceil(more))
    room = right - left - latest_width - TRAIL_TO_LATEST
    shown = _fitting(spans, room)
    if shown < len(earlier):
        shown = _fitting(spans, room - more_width)
    hidden = len(earlier) - shown
    x = left + (more_width if hidden else 0)
    groups = []
    for play, width, span in zip(earlier[hidden:], widths[hidden:], spans[hidden:], strict=True):
        # A play whose caption is wider than its cards stands in the middle of its span.
        groups.append(PlacedPlay(play, x + (span - width) // 2, width, TRAIL_STEP))
        x += span + TRAIL_GAP
    if groups:
        x += TRAIL_TO_LATEST - TRAIL_GAP
    groups.append(PlacedPlay(latest, x, latest_width, step))
    return hidden, groups


def _fitting(widths: Sequence[int], room: int) -> int:
    """How many of the newest ``widths`` fit side by side in ``room``."""
    used, count = 0, 0
    for width in reversed(widths):
        used += width + (TRAIL_GAP if count else 0)
        if used > room:
            break
        count += 1
    return count


def _draw_round(image: Image.Image, table: _Table) -> None:
    plays = table.view.round
    if plays:
        label = plural(table.lang, len(plays), "THIS ROUND · {n} PLAY", "THIS ROUND · {n} PLAYS")
    else:
        label = tr(table.lang, "THIS ROUND")
    stamp_text(image, (PLAY_LEFT, LABEL_Y), label, LABEL)
    if not plays:
        _draw_empty_round(image, table)
        return
    lang = table.lang
    more = text_width(tr(lang, "earlier"), CAPTION) + CAPTION_GAP

    def caption(play: PlayView) -> float:
        return text_width(_play_caption(play, lang), CAPTION)

    hidden, groups = layout_round(plays, PLAY_LEFT, PLAY_RIGHT, caption, more)
    if hidden:
        middle = CARDS_BOTTOM - TRAIL_CARD.height / 2
        stamp_text(
            image, (PLAY_LEFT, middle - 6), f"+{hidden}", COUNT.but(fill=PALETTE.muted), "lm"
        )
        stamp_text(image, (PLAY_LEFT, middle + 15), tr(table.lang, "earlier"), CAPTION, "lm")
    for group in groups[:-1]:
        _draw_trail_play(image, table.lang, group)
    _draw_latest_play(image, table, groups[-1])


def _draw_trail_play(image: Image.Image, lang: Lang, group: PlacedPlay) -> None:
    for k, card in enumerate(group.play.cards):
        sprite = playing_card(rank_text(card), card.suit, TRAIL_CARD)
        place(image, sprite, group.x + k * group.step, CARDS_BOTTOM - TRAIL_CARD.height)
    centre = (group.x + group.width / 2, CAPTION_Y)
    style = CAPTION.but(fill=PALETTE.accent) if group.play.pass_through else CAPTION
    stamp_text(image, centre, _play_caption(group.play, lang), style, "mm")


def _play_caption(play: PlayView, lang: Lang) -> str:
    """What an earlier play did: its value, or "reverse" / "pass" for a 3 / a 2."""
    if play.pass_through:
        return tr(lang, "reverse") if play.cards[0].rank == 3 else tr(lang, "pass")
    return str(play.value)


def _draw_latest_play(image: Image.Image, table: _Table, group: PlacedPlay) -> None:
    play = group.play
    for k, card in enumerate(play.cards):
        place(
            image,
            playing_card(rank_text(card), card.suit, LATEST_CARD),
            group.x + k * group.step,
            CARDS_TOP,
        )
    room = max(group.width, PLAY_RIGHT - group.x)
    style = DETAIL.but(fill=PALETTE.text)
    name = cut_name(table.name(play.player), style, room)
    stamp_text(image, (group.x, CAPTION_Y), name, style, "lm")
    if play.pass_through:
        tag = tr(table.lang, "REVERSE") if play.cards[0].rank == 3 else tr(table.lang, "PASS")
        tag_width = text_width(tag, TAG) + 2 * TAG_PAD
        x = group.x + LATEST_CARD.width / 2 - tag_width / 2
        pill(image, (x, CARDS_BOTTOM - 14), tag, TAG, PALETTE.accent, TAG_PAD, overlay=True)


def _draw_empty_round(image: Image.Image, table: _Table) -> None:
    view = table.view
    _draw_empty_slot(image, PLAY_LEFT, CARDS_TOP, LATEST_CARD)
    x = PLAY_LEFT + LATEST_CARD.width + 20
    width = PLAY_RIGHT - x
    middle = CARDS_TOP + LATEST_CARD.height / 2
    who: list[str] = []
    if view.last_take is not None:
        who = [table.name(view.last_take.player)]
        title = plural(
            table.lang,
            view.last_take.count,
            "{name} took {n} card",
            "{name} took {n} cards",
            name="{}",
        )
        detail = tr(table.lang, "onto their penalty stack")
    else:
        title = tr(table.lang, "No cards in play")
        if view.deals > 1:
            detail = tr(table.lang, "deal {deal} starts", deal=view.deal)
        else:
            detail = tr(table.lang, "the game starts")

    def heading(shown: Sequence[str]) -> str:
        return title.replace("{}", shown[0]) if shown else title

    titles, style = fit_names(heading, who, NAME.but(size=20), width, 2)
    details = wrap_text(detail, DETAIL, width, max_lines=2)
    lines = [(line, style, 25) for line in titles]
    lines += [(line, DETAIL, 22 if k else 27) for k, line in enumerate(details)]
    y = middle - sum(pitch for _, _, pitch in lines[1:]) / 2
    for k, (line, line_style, pitch) in enumerate(lines):
        y += pitch if k else 0
        stamp_text(image, (x, y + 1), line, line_style, "lm")


def _draw_value(image: Image.Image, table: _Table) -> None:
    view = table.view
    x, width = VALUE_X, INFO_X - 20 - VALUE_X
    leads = view.must_lead or view.value_in_force is None
    label = tr(table.lang, "NEW ROUND") if leads else tr(table.lang, "TO BEAT")
    stamp_text(image, (x, LABEL_Y), fit_text(label, LABEL, width), LABEL)
    middle = CARDS_TOP + 50
    if leads:
        lead = VALUE.but(size=48)
        stamp_text(
            image, (x - 2, middle), fit_text(tr(table.lang, "Lead"), lead, width), lead, "lm"
        )
    else:
        stamp_text(image, (x - 3, middle), str(view.value_in_force), VALUE, "lm")
    if view.to_act is None:
        return
    y = CARDS_BOTTOM - 12
    image.alpha_composite(triangle(16, PALETTE.accent), dest=(x, round(y - 8)))
    style = DETAIL.but(fill=PALETTE.accent)
    stamp_text(
        image, (x + 21, y), cut_name(table.name(view.to_act), style, width - 21), style, "lm"
    )
    verb = tr(table.lang, "to lead") if leads else tr(table.lang, "to play")
    stamp_text(image, (x + 21, CAPTION_Y), fit_text(verb, DETAIL, width - 21), DETAIL, "lm")


def _stock_caption(table: _Table) -> list[str]:
    """The stock's caption on one line, or two when one is too narrow."""
    caption = tr(table.lang, "in stock") if table.view.stock_size else tr(table.lang, "stock empty")
    width = WIDTH - MARGIN - INFO_X
    lines = whole_lines(caption, CAPTION, width)
    return lines if lines is not None and len(lines) <= 2 else [fit_text(caption, CAPTION, width)]


def _draw_info(image: Image.Image, table: _Table, stock_lines: Sequence[str]) -> None:
    view, lang = table.view, table.lang
    x = INFO_X
    width = WIDTH - MARGIN - x
    label = tr(lang, "DEAL {deal} OF {deals}", deal=view.deal, deals=view.deals)
    stamp_text(image, (x, LABEL_Y), fit_text(label, LABEL, width), LABEL)
    clockwise = view.direction == "clockwise"
    middle = CARDS_TOP + 20
    image.alpha_composite(
        turn_arrow(32, PALETTE.text, clockwise=clockwise), dest=(x, round(middle - 16))
    )
    direction = tr(lang, DIRECTIONS.get(view.direction, view.direction))
    style = DETAIL.but(fill=PALETTE.text)
    lines = wrap_text(direction, style, width - 42, max_lines=2)
    for k, line in enumerate(lines):
        offset = 10 * (2 * k - len(lines) + 1)
        stamp_text(image, (x + 42, middle + offset), line, style, "lm")
    middle = CARDS_TOP + 88
    stack, layers = card_stack(SMALL_CARD, view.stock_size)
    if layers:
        place(image, stack, x, middle - SMALL_CARD.height / 2 - 1.5 * (layers - 1))
    else:
        _draw_empty_slot(image, x, middle - SMALL_CARD.height / 2, SMALL_CARD)
    number_x = x + 52
    stamp_text(image, (number_x, middle), str(view.stock_size), BIG_NUMBER.but(size=28), "lm")
    for k, line in enumerate(stock_lines):
        stamp_text(image, (x, CAPTION_Y + CAPTION_LINE * k), line, CAPTION, "lm")


# --- header: game over -------------------------------------------------------------


def _deal_layout(count: int) -> tuple[int, int]:
    """Columns and rows for ``count`` deal results."""
    if count <= WIDE_DEALS:
        return 1, max(1, count)
    return 2, min(DEAL_ROWS, -(-count // 2))


@dataclass(frozen=True)
class _FinalWords:
    """The final header's left column: the winners' heading (up to `TITLE_LINES` lines,
    shrunk before a name is cut) and the detail under it."""

    title: list[str]
    title_style: TextStyle
    detail: list[str]

    @property
    def detail_top(self) -> float:
        return TITLE_Y + TITLE_LINE * (max(1, len(self.title)) - 1) + 36

    @property
    def bottom(self) -> float:
        return self.detail_top + FINAL_DETAIL_LINE * max(2, len(self.detail))


def _final_words(table: _Table) -> _FinalWords:
    view, lang = table.view, table.lang
    style = BIG_NUMBER.but(fill=PALETTE.accent)
    if not view.seats:
        return _FinalWords([], style, [])
    best = max(table.score(seat) for seat in view.seats)
    winners = [table.name(s.player) for s in view.seats if table.score(s) == best]

    def heading(shown: Sequence[str]) -> str:
        names = join_words(list(shown), lang)
        return plural(lang, len(shown), "{names} wins", "{names} win", names=names)

    width = DEALS_X - 24 - FINAL_X
    title, style = fit_names(heading, winners, style, width, TITLE_LINES, TITLE_MIN_SIZE)
    detail = " · ".join(
        [
            tr(lang, "{chips} chips", chips=signed(best)),
            plural(lang, view.deals, "{n} deal", "{n} deals"),
            tr(lang, "highest score wins"),
        ]
    )
    return _FinalWords(title, style, wrap_text(detail, DETAIL, width, max_lines=3))


def _final_header_height(view: EscalationView, words: _FinalWords) -> int:
    _, rows = _deal_layout(len(view.results))
    deals = CARDS_TOP + rows * DEAL_ROW + 16
    return max(FINAL_MIN_HEADER, deals, math.ceil(words.bottom) + 14)


def _draw_final_header(image: Image.Image, table: _Table, words: _FinalWords) -> None:
    x = FINAL_X
    stamp_text(image, (x, LABEL_Y), tr(table.lang, "GAME OVER"), LABEL)
    for k, line in enumerate(words.title):
        stamp_text(image, (x, TITLE_Y + TITLE_LINE * k), line, words.title_style, "lm")
    for k, line in enumerate(words.detail):
        stamp_text(image, (x, words.detail_top + FINAL_DETAIL_LINE * k), line, DETAIL)
    _draw_deals(image, table)


def _draw_deals(image: Image.Image, table: _Table) -> None:
    results = table.view.results
    if not results:
        return
    label = tr(table.lang, "DEALS") if len(results) > 1 else tr(table.lang, "THE DEAL")
    stamp_text(image, (DEALS_X, LABEL_Y), label, LABEL)
    columns, rows = _deal_layout(len(results))
    cells = columns * rows
    shown = results if len(results) <= cells else results[: cells - 1]
    column_width = (RIGHT - DEALS_X) // columns
    for k, result in enumerate(shown):
        column, row = divmod(k, rows)
        left = DEALS_X + column * column_width
        middle = CARDS_TOP + 10 + row * DEAL_ROW
        _draw_deal(
            image,
            table,
            result,
            left,
            left + column_width - 16 * (columns - 1 - column),
            middle,
            wide=columns == 1,
        )
    if len(shown) < len(results):
        left = DEALS_X + (columns - 1) * column_width
        middle = CARDS_TOP + 10 + (rows - 1) * DEAL_ROW
        more = plural(table.lang, len(results) - len(shown), "+{n} more deal", "+{n} more deals")
        stamp_text(image, (left, middle), more, DETAIL, "lm")


def _draw_deal(
    image: Image.Image,
    table: _Table,
    result: DealResultView,
    left: int,
    right: int,
    middle: float,
    *,
    wide: bool,
) -> None:
    lang = table.lang
    number_style = CAPTION
    number = tr(lang, "Deal {deal}", deal=result.deal) if wide else str(result.deal)
    number_width = max(64, round(text_width(number, number_style)) + 10) if wide else 30
    stamp_text(image, (left, middle), number, number_style, "lm")
    won = result.chips.get(result.winner, 0)
    chips_style = DETAIL.but(fill=PALETTE.accent)
    style = DETAIL.but(fill=PALETTE.text)
    name = table.name(result.winner)
    # The fullest line that leaves a name room: "+29 chips" and "went out" go first.
    choices = [(f"+{won}", "")]
    if wide:
        went_out = " " + tr(lang, "went out")
        choices = [(tr(lang, "{chips} chips", chips=f"+{won}"), went_out), (f"+{won}", went_out)]
        choices.append((f"+{won}", ""))
    for chips, suffix in choices:
        room = right - left - number_width - text_width(chips, chips_style) - 10
        if room - text_width(suffix, style) >= min(text_width(name, style), 60):
            break
    stamp_text(image, (right, middle), chips, chips_style, "rm")
    winner = cut_name(name, style, room - text_width(suffix, style))
    stamp_text(image, (left + number_width, middle), winner + suffix, style, "lm")


# --- sprites only this game draws ------------------------------------------------


@lru_cache(maxsize=32)
def turn_arrow(size: int, fill: RGBA, *, clockwise: bool = True) -> Image.Image:
    """A circular arrow ``size`` pixels square going clockwise (or counterclockwise):
    a direction-of-play marker."""
    s = SUPERSAMPLE
    image, draw = supersampled(size, size)
    full = size * s
    thick = max(s, round(full * 0.13))
    head = full * 0.2
    radius = full / 2 - head * 0.95
    cx = cy = full / 2
    start, end = -70.0, 215.0  # degrees; screen angles grow clockwise
    draw.arc((cx - radius, cy - radius, cx + radius, cy + radius), start, end, fill, thick)
    mid = radius - thick / 2  # the stroke's centre line
    angle = math.radians(end)
    px, py = cx + mid * math.cos(angle), cy + mid * math.sin(angle)
    nx, ny = math.cos(angle), math.sin(angle)  # outwards
    tx, ty = -ny, nx  # along the turn
    draw.polygon(
        [
            (px + tx * head * 1.1, py + ty * head * 1.1),
            (px + nx * head, py + ny * head),
            (px - nx * head, py - ny * head),
        ],
        fill=fill,
    )
    arrow = downsample(image)
    return arrow if clockwise else arrow.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


# --- the private hand ------------------------------------------------------------

HAND_CARD_GAP = 8
HAND_TASK_WIDTH = 190
"""Room on the right of the hand for the value to beat; a long hand overlaps its
cards to leave it."""
HAND_HEIGHT = CAPTION_Y + 26 + MARGIN - 6


def render_panel(view: EscalationView, names: Mapping[str, str], lang: Lang, picks: Picks) -> bytes:
    """The private panel's image (the adapter's ``render_private``): the viewer's hand.
    The cards picked show on the panel's select, not in the picture."""
    return render_hand(view, names, lang=lang)


def render_hand(view: EscalationView, names: Mapping[str, str], *, lang: Lang = "en") -> bytes:
    """The viewer's own hand (``view.my_hand``) as PNG bytes, its words in ``lang``: the
    cards face up in the panel's order, each with its value (or what a 2 or 3 does)
    under it, and on the right what the viewer has to do now."""
    cards = view.my_hand or []
    step = float(BIG_CARD.width + HAND_CARD_GAP)
    if len(cards) > 1:
        room = WIDTH - MARGIN - 14 - HAND_TASK_WIDTH - PLAY_LEFT - BIG_CARD.width
        step = min(step, room / (len(cards) - 1))
    captions = _hand_captions(cards, step, lang)
    rows = 1 + max((row for _, _, row in captions), default=0)
    image = new_panel(WIDTH, HAND_HEIGHT + CAPTION_LINE * (rows - 1))
    label = tr(lang, "YOUR HAND")
    if cards:
        label += " · " + plural(lang, len(cards), "{n} CARD", "{n} CARDS")
    stamp_text(image, (MARGIN + 14, LABEL_Y), label, LABEL, "lm")
    x = float(PLAY_LEFT)
    for card, (text, centre, row) in zip(cards, captions, strict=True):
        place(image, playing_card(rank_text(card), card.suit, BIG_CARD), x, CARDS_TOP)
        style = CAPTION.but(fill=PALETTE.accent) if is_pass_through(card) else CAPTION
        stamp_text(image, (centre, CAPTION_Y + CAPTION_LINE * row), text, style, "mm")
        x += step
    if not cards:
        stamp_text(image, (PLAY_LEFT, CARDS_TOP + 40), tr(lang, "no cards"), DETAIL, "lm")
    task_left = x - step + BIG_CARD.width + 16 if cards else PLAY_LEFT + 200
    _draw_hand_task(image, view, names, lang, round(task_left))
    return to_png(image)


def _hand_captions(cards: Sequence[Card], step: float, lang: Lang) -> list[tuple[str, float, int]]:
    """(text, centre, row) of each card's caption: its value, or what a 2 or 3 does,
    centred under the part of the card in view; on a second row where it would touch
    the caption before it (two long words under cards that overlap)."""
    found: list[tuple[str, float, int]] = []
    ends: dict[int, float] = {}
    for k, card in enumerate(cards):
        if is_pass_through(card):
            text = tr(lang, "reverse") if card.rank == 3 else tr(lang, "pass")
        else:
            text = str(card_value(card))
        shown = BIG_CARD.width if k == len(cards) - 1 else min(step, BIG_CARD.width)
        centre = PLAY_LEFT + k * step + shown / 2
        half = text_width(text, CAPTION) / 2
        row = next(r for r in range(len(cards) + 1) if ends.get(r, -math.inf) <= centre - half)
        ends[row] = centre + half + CAPTION_GAP
        found.append((text, centre, row))
    return found


def _draw_hand_task(
    image: Image.Image, view: EscalationView, names: Mapping[str, str], lang: Lang, left: int
) -> None:
    """On the right of the hand (from ``left``): the value to beat, or who is to act
    (on two lines, the name cut only when they are too few)."""
    room = WIDTH - MARGIN - 14 - left
    centre = left + room / 2
    players = [seat.player for seat in view.seats]
    who: list[str] = []
    if view.over:
        caption, big = tr(lang, "game over"), ""
    elif view.to_act != view.viewer:
        who = [seat_name(view.to_act or "", players, names, lang)]
        caption, big = tr(lang, "{name} to act", name="{}"), ""
    elif view.must_lead or view.value_in_force is None:
        caption, big = tr(lang, "you lead"), ""
    else:
        caption, big = tr(lang, "to beat"), str(view.value_in_force)
    if big:
        stamp_text(image, (centre, CARDS_TOP + BIG_CARD.height / 2), big, VALUE, "mm")
    style = CAPTION.but(fill=PALETTE.accent) if view.to_act == view.viewer else CAPTION

    def line(shown: Sequence[str]) -> str:
        return caption.replace("{}", shown[0]) if shown else caption

    lines, style = fit_names(line, who, style, room, 1 if big else 2)
    middle = CAPTION_Y if big else CARDS_TOP + BIG_CARD.height / 2
    for k, text in enumerate(lines):
        y = middle + CAPTION_LINE * (k - (len(lines) - 1) / 2)
        stamp_text(image, (centre, y), text, style, "mm")
