"""The Give & Take table as a PNG: the players still in sit around a ring, each with
their give and take piles face down; between every two neighbours lies their duet
(the take card of one, the give card of the other) face up, with its difference in a
badge. The lowest duet (the capture, or the tied ones of a fight) is highlighted, and
earlier layers of a fight peek out from under the top cards. The centre says whose
move it is, the turn, the leftovers and the last capture; players who are out are
listed under the ring with their place and turn. Once the game is over the players
are listed by place with their scores and how the game ended.

Only public information is drawn. Every pile is face down: a seat shows how many cards
each pile holds, never which. ``my_give_size``, ``my_take_size`` and ``viewer`` are
ignored altogether, so the picture is the same for everyone.

Ring order: each seat's right-hand neighbour (whose give card completes its duet) is
the next seat counterclockwise, as at a real table with everyone facing the centre.
A seat's take pile lies on the side of its own duet, its give pile on the side of
the previous seat's duet, and in each duet the card nearer a seat is that seat's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engines.cards import Card
from bot.engines.give_and_take import DuetView, EliminationView, GiveAndTakeView, SeatView
from bot.render.cards import (
    ROW_CARD,
    SMALL_CARD,
    CardSize,
    card_stack,
    playing_card,
    rank_text,
)
from bot.render.output import to_png
from bot.render.palette import PALETTE, RGBA, Box, Point, place_colour
from bot.render.shapes import draw_rounded, new_panel, place, triangle
from bot.render.text import (
    MIN_CAPTION_SIZE,
    TextStyle,
    badge,
    cut_name,
    fit_name,
    fit_names,
    fit_text,
    join_words,
    number_text,
    pill,
    seat_name,
    stamp_text,
    text_width,
    wrap_text,
)
from bot.render.words import Lang, plural, tr

WIDTH = 800
MARGIN = 16
RING_X = WIDTH // 2
"""The ring's centre, horizontally; vertically it depends on the layout."""

# --- seats ---
SEAT_W, SEAT_H = 184, 110
SEAT_PAD = 8
PILE_ROW = 60
"""Middle of a seat's pile row, below the seat's top edge."""
PILE_CAPTION = PILE_ROW + 40
"""Middle of the piles' captions (under the stacks: room for "Nehmen")."""
STACK_WIDTH = SMALL_CARD.width + 3 * 3
"""A pile's face-down stack at its tallest (four backs, 3 px apart)."""
PILL_OVERHANG = 13
"""The director tag sits on a seat's top edge (and a duet's tag on its bottom edge)."""

# --- duets ---
DUET_CARD = ROW_CARD
DUET_GAP = 28
"""Between the two cards of a duet; the difference badge sits in it."""
MAT_PAD = 9
PEEK = 17
"""How far each earlier layer of a fight peeks out (enough to read its rank)."""
PEEKS_SHOWN = 2
"""Earlier layers drawn under the top card; older ones are left out."""
BADGE_RADIUS = 15
TRACK_WIDTH = 8
"""The band joining seats and duets into a ring."""

# --- centre ---
BOX_W, BOX_H = 330, 188
BOX_PAD = 16
CAPTION_LINE = 24
"""Between the two lines of the leftovers' caption."""


def capture_label(turn: int, fight: bool, choosing: bool, lang: Lang) -> str:
    """The label over the latest capture: "previous" while a new one is being made."""
    if choosing and fight:
        return tr(lang, "PREVIOUS · TURN {turn} · FIGHT", turn=turn)
    if choosing:
        return tr(lang, "PREVIOUS · TURN {turn}", turn=turn)
    if fight:
        return tr(lang, "LAST CAPTURE · TURN {turn} · FIGHT", turn=turn)
    return tr(lang, "LAST CAPTURE · TURN {turn}", turn=turn)


CAPTURE_UNDER = 52
NAME_AT_LEAST = 60
"""A name in the capture line keeps this many pixels before the line moves out."""
"""Room under the ring for the last capture when the centre box can't hold it."""

# --- players who are out, under the ring ---
OUT_LABEL = 22
OUT_H = 70
OUT_GAP = 8
OUT_COLUMNS = 3

# --- the final standings ---
FINAL_TOP = MARGIN + 100
TITLE_LINE = 36
"""Between the lines of the winners' heading."""
TITLE_MIN_SIZE = 24
"""The winners' heading shrinks this far before it cuts a name."""
LANE_H = 56
LANE_GAP = 8

LABEL = TextStyle(18, PALETTE.muted, bold=True)
NAME = TextStyle(18, PALETTE.text, bold=True)
COUNT = TextStyle(18, PALETTE.text, bold=True)
CAPTION = TextStyle(MIN_CAPTION_SIZE, PALETTE.muted, bold=True, caption=True)
PILE_CAPTION_STYLE = TextStyle(MIN_CAPTION_SIZE, PALETTE.muted, caption=True)
"""A seat's "give" and "take": regular weight, so both fit a seat side by side."""
OUT_NOTE = TextStyle(18, PALETTE.muted)
"""When a player went out: a sentence under their name, not a caption."""
HEADLINE = TextStyle(19, PALETTE.text, bold=True)
DETAIL = TextStyle(18, PALETTE.muted)
BODY = TextStyle(18, PALETTE.text)
TAG = TextStyle(18, PALETTE.accent_ink, bold=True)
TAG_PAD = 7
FIGHT = TextStyle(18, PALETTE.text, bold=True)

# Seat centres and duet centres relative to the ring's centre, by how many players are
# still in, in ring order: duet k lies between seat k and seat k + 1 (counterclockwise).
SEAT_SPOTS: dict[int, tuple[Point, ...]] = {
    0: (),
    1: ((0, 165),),
    2: ((0, 165), (0, -165)),
    3: ((0, 200), (262, -100), (-262, -100)),
    4: ((-250, 172), (250, 172), (250, -172), (-250, -172)),
    5: ((0, 230), (292, 66), (180, -190), (-180, -190), (-292, 66)),
}
DUET_SPOTS: dict[int, tuple[Point, ...]] = {
    0: (),
    1: (),
    2: ((245, 0), (-245, 0)),
    3: ((240, 100), (0, -150), (-240, 100)),
    4: ((0, 172), (300, 0), (0, -172), (-300, 0)),
    5: ((182, 198), (292, -58), (0, -226), (-292, -58), (-182, 198)),
}


def render_table(view: GiveAndTakeView, names: Mapping[str, str], lang: Lang = "en") -> bytes:
    """The public table of ``view`` as PNG bytes, its words in ``lang``; ``names`` maps
    player ids to display names (missing ids print as themselves)."""
    table = _Table(view, names, lang)
    image = _draw_final(table) if view.over else _draw_ring_table(table)
    return to_png(image)


@dataclass(frozen=True)
class _Table:
    view: GiveAndTakeView
    names: Mapping[str, str]
    lang: Lang = "en"

    def name(self, player: str) -> str:
        players = [seat.player for seat in self.view.seats]
        return seat_name(player, players, self.names, self.lang)


# --- layout ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSpot:
    seat: SeatView
    x: float
    y: float
    """The seat's centre on the image."""
    take_right: bool
    """The take pile is on the right (towards this seat's own duet)."""

    @property
    def left(self) -> int:
        return round(self.x - SEAT_W / 2)

    @property
    def top(self) -> int:
        return round(self.y - SEAT_H / 2)


@dataclass(frozen=True)
class DuetSpot:
    owner: SeatView
    """Whose duet: their take card."""
    partner: SeatView
    """Their right-hand neighbour: their give card."""
    x: float
    y: float
    vertical: bool
    """The two cards one above the other (the two seats are above each other)."""
    take_first: bool
    """The take card is the left (or upper) one: the owner sits on that side."""
    duet: DuetView | None
    """The top layer; None before the turn's first reveal."""


@dataclass(frozen=True)
class Ring:
    seats: list[SeatSpot]
    duets: list[DuetSpot]
    centre_y: int
    bottom: int
    """The lowest pixel row the ring uses."""


def ring_boxes(count: int) -> list[Box]:
    """The boxes (left, top, right, bottom) the centre, the seats and the duets of a
    ring of ``count`` players take, relative to the ring's centre: room for fight
    layers and tags included. None of them overlap."""
    boxes: list[Box] = [(-BOX_W / 2, -BOX_H / 2, BOX_W / 2, BOX_H / 2)]
    for x, y in SEAT_SPOTS[count]:
        boxes.append(
            (x - SEAT_W / 2, y - SEAT_H / 2 - PILL_OVERHANG, x + SEAT_W / 2, y + SEAT_H / 2)
        )
    for (x, y), vertical in zip(DUET_SPOTS[count], _vertical(count), strict=True):
        peeks = PEEK * PEEKS_SHOWN
        if vertical:
            half_w, half_h = DUET_CARD.width / 2 + MAT_PAD, _duet_half_height(vertical)
            boxes.append((x - half_w - peeks, y - half_h, x + half_w, y + half_h + PILL_OVERHANG))
        else:
            half_w, half_h = DUET_CARD.width + DUET_GAP / 2 + MAT_PAD, _duet_half_height(vertical)
            boxes.append((x - half_w, y - half_h - peeks, x + half_w, y + half_h + PILL_OVERHANG))
    return boxes


def ring_extent(count: int) -> tuple[float, float]:
    """How far the ring of ``count`` players reaches above and below its centre."""
    boxes = ring_boxes(count)
    return -min(box[1] for box in boxes), max(box[3] for box in boxes)


def _vertical(count: int) -> list[bool]:
    """Whether each duet of the ring of ``count`` stands upright: its two seats are
    one above the other."""
    seats = SEAT_SPOTS[count]
    return [abs(seats[k][0] - seats[(k + 1) % count][0]) < 1 for k in range(len(DUET_SPOTS[count]))]


def _duet_half_height(vertical: bool) -> float:
    if vertical:
        return DUET_CARD.height + DUET_GAP / 2 + MAT_PAD
    return DUET_CARD.height / 2 + MAT_PAD


def layout_ring(view: GiveAndTakeView, top: int) -> Ring:
    """Where every seat still in and every duet goes, the ring's top edge at ``top``."""
    alive = [seat for seat in view.seats if not seat.out]
    count = min(len(alive), max(SEAT_SPOTS))
    alive = alive[:count]
    above, below = ring_extent(count)
    centre_y = top + round(above)
    seat_spots, duet_spots = SEAT_SPOTS[count], DUET_SPOTS[count]
    duets_by_player = {duet.player: duet for duet in view.duets}
    seats = []
    for k, seat in enumerate(alive):
        x, y = seat_spots[k]
        take_right = True
        if duet_spots:
            take_right = duet_spots[k][0] > duet_spots[k - 1][0]
        seats.append(SeatSpot(seat, RING_X + x, centre_y + y, take_right))
    duets = []
    for k, ((x, y), vertical) in enumerate(zip(duet_spots, _vertical(count), strict=True)):
        owner, partner = seats[k], seats[(k + 1) % count]
        take_first = owner.y < partner.y if vertical else owner.x < partner.x
        duets.append(
            DuetSpot(
                owner=owner.seat,
                partner=partner.seat,
                x=RING_X + x,
                y=centre_y + y,
                vertical=vertical,
                take_first=take_first,
                duet=duets_by_player.get(owner.seat.player),
            )
        )
    return Ring(seats, duets, centre_y, centre_y + round(below))


# --- the running table ----------------------------------------------------------------


def _draw_ring_table(table: _Table) -> Image.Image:
    view = table.view
    gone = _out_seats(view)
    ring_top = MARGIN + 4
    count = min(sum(1 for seat in view.seats if not seat.out), max(SEAT_SPOTS))
    above, below = ring_extent(count)
    height = ring_top + round(above) + round(below) + MARGIN
    capture_inside = _capture_fits_inside(table)
    if not capture_inside:
        height += CAPTURE_UNDER
    out_rows = -(-len(gone) // OUT_COLUMNS)
    if gone:
        height += OUT_LABEL + out_rows * (OUT_H + OUT_GAP) - OUT_GAP + 8
    image = new_panel(WIDTH, height)
    ring = layout_ring(view, ring_top)
    _draw_track(image, ring)
    for duet in ring.duets:
        _draw_duet(image, table, duet)
    for spot in ring.seats:
        _draw_seat(image, table, spot)
    _draw_centre(image, table, ring.centre_y, capture_inside)
    below_ring = ring.bottom + 8
    if not capture_inside:
        right = WIDTH - MARGIN - 10
        _draw_last_capture(image, table, MARGIN + 10, right, below_ring + 10)
        below_ring += CAPTURE_UNDER
    if gone:
        _draw_out(image, table, gone, below_ring)
    return image


def _draw_track(image: Image.Image, ring: Ring) -> None:
    """The ring itself: a band from seat to duet to seat, all the way round, under
    everything (only the stretches between them show)."""
    if len(ring.seats) < 2:
        return
    points: list[Point] = []
    for seat, duet in zip(ring.seats, ring.duets, strict=True):
        points += [(seat.x, seat.y), (duet.x, duet.y)]
    points.append(points[0])
    ImageDraw.Draw(image).line(points, fill=PALETTE.lane, width=TRACK_WIDTH, joint="curve")


def _out_seats(view: GiveAndTakeView) -> list[SeatView]:
    """Players who are out, in the order they went out."""
    order = [player for event in view.eliminated for player in event.players]
    out = [seat for seat in view.seats if seat.out]
    return sorted(out, key=lambda seat: order.index(seat.player) if seat.player in order else 99)


def _draw_seat(image: Image.Image, table: _Table, spot: SeatSpot) -> None:
    view = table.view
    seat = spot.seat
    active = seat.player == view.to_act
    left, top = spot.left, spot.top
    fill = PALETTE.lane_active if active else PALETTE.lane
    outline = PALETTE.accent if active else PALETTE.panel_edge
    draw_rounded(image, (left, top, left + SEAT_W, top + SEAT_H), 12, fill, outline, 2)
    style = NAME.but(fill=PALETTE.accent) if active else NAME
    x, width = left + SEAT_PAD, SEAT_W - 2 * SEAT_PAD
    if active:
        image.alpha_composite(triangle(13, PALETTE.accent), dest=(x - 3, top + 14))
        x, width = x + 13, width - 13
    stamp_text(image, (x, top + 21), cut_name(table.name(seat.player), style, width), style, "lm")
    give = (seat.give_size, tr(table.lang, "give"))
    take = (seat.take_size, tr(table.lang, "take"))
    piles = (give, take) if spot.take_right else (take, give)
    middle = top + PILE_ROW
    # The second pile sits at the middle of the seat, or further right when the
    # first pile's caption is wider; both captions whole where they fit at all.
    caption_style = PILE_CAPTION_STYLE
    pile_width = STACK_WIDTH + 8 + text_width(str(piles[0][0]), COUNT)
    first_width = max(pile_width, text_width(piles[0][1], caption_style))
    inner_right = left + SEAT_W - SEAT_PAD
    second_x = left + SEAT_PAD + max(SEAT_W // 2 - 2, round(first_width) + 8)
    second_x = min(second_x, inner_right - round(text_width(piles[1][1], caption_style)))
    for k, (size, caption) in enumerate(piles):
        x = left + SEAT_PAD if k == 0 else second_x
        _draw_pile(image, x, middle, size, fill)
        room = (second_x - 8 if k == 0 else inner_right) - x
        caption = fit_text(caption, caption_style, room)
        stamp_text(image, (x, top + PILE_CAPTION), caption, caption_style, "lm")
    if seat.director:
        _draw_director_tag(image, left + SEAT_W - SEAT_PAD, top, active, table.lang)


def _draw_pile(image: Image.Image, x: float, middle: float, count: int, ground: RGBA) -> None:
    """A seat's pile: its face-down stack and, beside it, how many cards it holds (the
    caption goes under both)."""
    stack, layers = card_stack(SMALL_CARD, count)
    card_top = middle - SMALL_CARD.height / 2 - 1
    if layers:
        place(image, stack, x, card_top - 1.5 * (layers - 1))
    else:
        empty_slot(image, x, card_top, SMALL_CARD, ground)
    stamp_text(image, (x + STACK_WIDTH + 8, middle), str(count), COUNT, "lm")


def _draw_director_tag(
    image: Image.Image, right: float, top: float, active: bool, lang: Lang
) -> None:
    text = tr(lang, "DIRECTOR")
    width = text_width(text, TAG) + 2 * TAG_PAD
    fill = PALETTE.accent if active else PALETTE.silver
    pill(image, (right - width, top), text, TAG, fill, TAG_PAD)


# --- duets ---------------------------------------------------------------------------


def _duet_cards(spot: DuetSpot) -> tuple[list[Card], list[Card]]:
    """The layers of the duet, oldest first: the owner's take cards and the partner's
    give cards (the same number of each while both are in)."""
    takes, gives = spot.owner.played_take, spot.partner.played_give
    layers = min(len(takes), len(gives))
    return takes[len(takes) - layers :], gives[len(gives) - layers :]


def _draw_duet(image: Image.Image, table: _Table, spot: DuetSpot) -> None:
    view = table.view
    takes, gives = _duet_cards(spot)
    if spot.duet is None:
        takes, gives = [], []
    earlier = min(PEEKS_SHOWN, max(0, len(takes) - 1))
    lowest = spot.duet is not None and spot.duet.lowest
    w, h = DUET_CARD.width, DUET_CARD.height
    if spot.vertical:
        first = (spot.x - w / 2, spot.y - DUET_GAP / 2 - h)
        second = (spot.x - w / 2, spot.y + DUET_GAP / 2)
        step = (-PEEK, 0)
        box = (first[0] - earlier * PEEK, first[1], second[0] + w, second[1] + h)
    else:
        first = (spot.x - DUET_GAP / 2 - w, spot.y - h / 2)
        second = (spot.x + DUET_GAP / 2, spot.y - h / 2)
        step = (0, -PEEK)
        box = (first[0], first[1] - earlier * PEEK, second[0] + w, second[1] + h)
    mat = (
        round(box[0]) - MAT_PAD,
        round(box[1]) - MAT_PAD,
        round(box[2]) + MAT_PAD,
        round(box[3]) + MAT_PAD,
    )
    fill = PALETTE.lane_active if lowest else PALETTE.lane
    outline = PALETTE.accent if lowest else PALETTE.panel_edge
    draw_rounded(image, mat, 12, fill, outline, 2)
    take_at, give_at = (first, second) if spot.take_first else (second, first)
    if not takes:
        empty_slot(image, take_at[0], take_at[1], DUET_CARD, fill)
        empty_slot(image, give_at[0], give_at[1], DUET_CARD, fill)
        return
    for cards, at in ((takes, take_at), (gives, give_at)):
        _draw_layers(image, cards[-1 - earlier :], at, step)
    assert spot.duet is not None
    ink = PALETTE.accent_ink if lowest else PALETTE.text
    disc = PALETTE.accent if lowest else PALETTE.panel_edge
    difference = str(spot.duet.difference)
    badge(image, (spot.x, spot.y), BADGE_RADIUS, difference, disc, ink, overlay=True)
    if lowest:
        tag = tr(table.lang, "CAPTURE") if view.phase == "choose" else tr(table.lang, "TIE")
        width = text_width(tag, TAG) + 2 * TAG_PAD
        at = ((mat[0] + mat[2] - width) / 2, mat[3])
        pill(image, at, tag, TAG, PALETTE.accent, TAG_PAD, overlay=True)


def _draw_layers(
    image: Image.Image, cards: Sequence[Card], at: Point, step: tuple[int, int]
) -> None:
    """``cards`` oldest first, the last one at ``at`` on top, the earlier ones peeking
    out ``step`` further each (muted)."""
    count = len(cards)
    for k, card in enumerate(cards):
        back = count - 1 - k
        sprite = playing_card(rank_text(card), card.suit, DUET_CARD, muted=back > 0)
        place(image, sprite, at[0] + step[0] * back, at[1] + step[1] * back)


# --- the centre ----------------------------------------------------------------------


def _status(table: _Table) -> tuple[str, str]:
    """The headline (whose move, what for) and a detail line."""
    view, lang = table.view, table.lang
    width = BOX_W - 2 * BOX_PAD
    if view.phase == "choose" and view.capturer is not None:
        count = view.capture_size
        template = plural(
            lang, count, "{name} captures {n} card", "{name} captures {n} cards", name="{}"
        )
        headline = fit_name(template, table.name(view.capturer), HEADLINE, width)
        if view.default_pile == "give":
            return headline, tr(lang, "Give or take pile? (default: give)")
        if view.default_pile == "take":
            return headline, tr(lang, "Give or take pile? (default: take)")
        return headline, tr(lang, "Give or take pile?")
    lowest = min((duet.difference for duet in view.duets), default=None)
    if view.layers > 1 and lowest is not None:
        detail = tr(lang, "Tied again at {lowest}: turn up again", lowest=lowest)
    elif view.layers and lowest is not None:
        detail = tr(lang, "Tie at {lowest}: everyone turns up again", lowest=lowest)
    else:
        detail = tr(lang, "Everyone turns up both top cards")
    cue = view.to_act or view.director
    if view.auto or cue is None:
        return fit_text(tr(lang, "Revealing the next cards"), HEADLINE, width), detail
    waiting = tr(lang, "Waiting for {name}: Go", name="{}")
    return fit_name(waiting, table.name(cue), HEADLINE, width), detail


def _draw_centre(image: Image.Image, table: _Table, centre_y: int, capture_inside: bool) -> None:
    """The centre box: the turn, whose move and what for, the leftovers, and (when it
    fits, see `_capture_fits_inside`) the last capture."""
    view, lang = table.view, table.lang
    left, top = RING_X - BOX_W // 2, centre_y - BOX_H // 2
    draw_rounded(image, (left, top, left + BOX_W, top + BOX_H), 14, PALETTE.panel_edge)
    x, right = left + BOX_PAD, left + BOX_W - BOX_PAD
    if view.auto:
        label = tr(lang, "TURN {turn} OF {cap} · AUTO", turn=view.turn, cap=view.turn_cap)
    else:
        label = tr(lang, "TURN {turn} OF {cap}", turn=view.turn, cap=view.turn_cap)
    room: float = right - x
    if view.fight:
        text = tr(lang, "Fight!")
        width = text_width(text, FIGHT) + 2 * TAG_PAD
        pill(image, (right - width, top + 20), text, FIGHT, PALETTE.red_ink, TAG_PAD)
        room -= width + 8
    stamp_text(image, (x, top + 20), fit_text(label, LABEL, room), LABEL, "lm")
    headline, detail = _status(table)
    urgent = view.to_act is not None
    style = HEADLINE.but(fill=PALETTE.accent) if urgent else HEADLINE
    stamp_text(image, (x, top + 48), headline, style, "lm")
    details = wrap_text(detail, DETAIL, right - x, max_lines=1 if capture_inside else 2)
    for k, line in enumerate(details):
        stamp_text(image, (x, top + 71 + 21 * k), line, DETAIL, "lm")
    middle = top + 110 if capture_inside else top + 110 + 21 * (len(details) - 1) + 8
    _draw_leftovers(image, x, right, middle, view.leftovers, lang, capture_inside)
    if capture_inside:
        _draw_last_capture(image, table, x, right, top + 150)


def _capture_fits_inside(table: _Table) -> bool:
    """Whether the centre box holds everything on one line each (English and most
    languages); else the last capture goes under the ring, and the box's detail and
    leftovers caption may take two lines."""
    view, lang = table.view, table.lang
    room = BOX_W - 2 * BOX_PAD
    _, detail = _status(table)
    caption = _leftovers_caption(view.leftovers, lang)
    label, template = _capture_words(table)
    capture = view.last_capture
    name = text_width(table.name(capture.player), BODY) if capture is not None else 0.0
    line = text_width(template.replace("{}", ""), BODY) + min(name, NAME_AT_LEAST)
    return (
        text_width(detail, DETAIL) <= room
        and text_width(caption, CAPTION) <= room - STACK_WIDTH - 8
        and text_width(label, LABEL) <= room
        and line <= room
    )


def _leftovers_caption(count: int, lang: Lang) -> str:
    return plural(lang, count, "leftover in the centre", "leftovers in the centre")


def _draw_leftovers(
    image: Image.Image, x: int, right: int, middle: int, count: int, lang: Lang, one_line: bool
) -> None:
    stack, layers = card_stack(SMALL_CARD, count)
    card_top = middle - SMALL_CARD.height / 2 - 1
    if layers:
        place(image, stack, x, card_top - 1.5 * (layers - 1))
    else:
        empty_slot(image, x, card_top, SMALL_CARD, PALETTE.panel_edge)
    text_x = x + STACK_WIDTH + 8
    caption = _leftovers_caption(count, lang)
    lines = wrap_text(caption, CAPTION, right - text_x, max_lines=1 if one_line else 2)
    number_y = middle - 7 - CAPTION_LINE / 2 * (len(lines) - 1)
    stamp_text(image, (text_x, number_y), str(count), COUNT, "lm")
    for k, line in enumerate(lines):
        stamp_text(image, (text_x, number_y + 20 + CAPTION_LINE * k), line, CAPTION, "lm")


def _capture_words(table: _Table) -> tuple[str, str]:
    """The last capture's label and its line's template (a "{}" for the name)."""
    capture, lang = table.view.last_capture, table.lang
    choosing = table.view.phase == "choose"
    if capture is None:
        none = tr(lang, "FIRST CAPTURE OF THE GAME") if choosing else tr(lang, "NO CAPTURE YET")
        return none, ""
    label = capture_label(capture.turn, capture.fight, choosing, lang)
    count = capture.count
    if capture.pile == "give":
        template = plural(
            lang,
            count,
            "{name} took {n} card (give pile)",
            "{name} took {n} cards (give pile)",
            name="{}",
        )
    else:
        template = plural(
            lang,
            count,
            "{name} took {n} card (take pile)",
            "{name} took {n} cards (take pile)",
            name="{}",
        )
    return label, template


def _draw_last_capture(image: Image.Image, table: _Table, x: int, right: int, top: int) -> None:
    label, template = _capture_words(table)
    stamp_text(image, (x, top), fit_text(label, LABEL, right - x), LABEL, "lm")
    if table.view.last_capture is None or not template:
        return
    line = fit_name(template, table.name(table.view.last_capture.player), BODY, right - x)
    stamp_text(image, (x, top + 20), line, BODY, "lm")


# --- players who are out ---------------------------------------------------------------


def running_places(view: GiveAndTakeView) -> dict[str, int]:
    """The place of every player who is out, known as soon as they go out: players
    going out together share the place after everyone still in (or out later)."""
    places: dict[str, int] = {}
    remaining = len(view.seats)
    for event in view.eliminated:
        for player in event.players:
            places[player] = remaining - len(event.players) + 1
        remaining -= len(event.players)
    return places


def _elimination(view: GiveAndTakeView, player: str) -> EliminationView | None:
    return next((event for event in view.eliminated if player in event.players), None)


def _out_detail(view: GiveAndTakeView, player: str, lang: Lang) -> str:
    event = _elimination(view, player)
    if event is None:
        return tr(lang, "out")
    if event.in_fight:
        return tr(lang, "out in a fight, turn {turn}", turn=event.turn)
    return tr(lang, "out on turn {turn}", turn=event.turn)


def _draw_out(image: Image.Image, table: _Table, gone: Sequence[SeatView], top: int) -> None:
    view = table.view
    stamp_text(image, (MARGIN + 10, top + 8), tr(table.lang, "OUT OF THE GAME"), LABEL, "lm")
    places = running_places(view)
    width = (WIDTH - 2 * MARGIN - (OUT_COLUMNS - 1) * OUT_GAP) // OUT_COLUMNS
    for k, seat in enumerate(gone):
        row, column = divmod(k, OUT_COLUMNS)
        left = MARGIN + column * (width + OUT_GAP)
        box_top = top + OUT_LABEL + row * (OUT_H + OUT_GAP)
        box = (left, box_top, left + width, box_top + OUT_H)
        draw_rounded(image, box, 10, PALETTE.lane)
        middle = box_top + OUT_H / 2
        place_ = places.get(seat.player)
        x = left + 10
        if place_ is not None:
            badge(image, (x + 16, middle), 16, str(place_), PALETTE.faint, PALETTE.panel)
            x += 40
        name_style = NAME.but(fill=PALETTE.muted)
        name = cut_name(table.name(seat.player), name_style, left + width - 8 - x)
        out = _out_detail(view, seat.player, table.lang)
        notes = wrap_text(out, OUT_NOTE, left + width - 8 - x, max_lines=2)
        y = middle - 12 - 10 * (len(notes) - 1)
        stamp_text(image, (x, y), name, name_style, "lm")
        for k, note in enumerate(notes):
            stamp_text(image, (x, y + 25 + 20 * k), note, OUT_NOTE, "lm")


# --- the end ---------------------------------------------------------------------------


def ending_text(view: GiveAndTakeView, lang: Lang) -> str:
    """How the game ended, as a sentence in ``lang``."""
    if view.ended == "last_standing":
        return tr(lang, "Last one standing · the others placed by the order they went out")
    if view.ended == "all_out":
        return tr(lang, "Everyone left went out at once: most cards wins")
    if view.ended == "turn_cap":
        return tr(lang, "Turn cap of {cap} reached: most cards wins", cap=view.turn_cap)
    return tr(lang, "The game is over")


def final_places(view: GiveAndTakeView) -> dict[str, int]:
    """``view.places``, or (should it be missing) places worked out from the ring."""
    if view.places is not None:
        return dict(view.places)
    places = running_places(view)
    return {seat.player: places.get(seat.player, 1) for seat in view.seats}


def _final_order(view: GiveAndTakeView, places: Mapping[str, int]) -> list[SeatView]:
    """Best place first; shared places in seat order (the sort is stable)."""
    return sorted(view.seats, key=lambda seat: places.get(seat.player, len(view.seats)))


def place_reason(view: GiveAndTakeView, seat: SeatView, lang: Lang) -> str:
    """Why ``seat`` got its place in the finished game, in ``lang``: last one standing,
    most (or fewer) cards when the game stopped, or when it went out."""
    event = _elimination(view, seat.player)
    if event is None:
        if view.ended != "turn_cap":
            return tr(lang, "last one standing")
        alive = [other.player for other in view.seats if not other.out]
        if _most_cards(view, seat.player, alive):
            return tr(lang, "most cards at the turn limit")
        return tr(lang, "fewer cards at the turn limit")
    turn = event.turn
    if view.ended == "all_out" and event is view.eliminated[-1]:
        if _most_cards(view, seat.player, event.players):
            return tr(lang, "most cards when all went out (turn {turn})", turn=turn)
        return tr(lang, "fewer cards when all went out (turn {turn})", turn=turn)
    if event.in_fight:
        return tr(lang, "went out in a fight on turn {turn}", turn=turn)
    return tr(lang, "went out on turn {turn}", turn=turn)


def shows_cards(view: GiveAndTakeView, seat: SeatView) -> bool:
    """Whether the cards ``seat`` held at the end belong beside its place: it was still
    in, or it went out with everyone left and was ranked by them."""
    if not seat.out:
        return True
    event = _elimination(view, seat.player)
    return view.ended == "all_out" and event is not None and event is view.eliminated[-1]


def _most_cards(view: GiveAndTakeView, player: str, group: Sequence[str]) -> bool:
    scores = view.scores or {}
    return scores.get(player, 0) >= max(scores.get(other, 0) for other in group)


def _draw_final(table: _Table) -> Image.Image:
    view, lang = table.view, table.lang
    places = final_places(view)
    order = _final_order(view, places)
    x = MARGIN + 14
    endings = wrap_text(ending_text(view, lang), DETAIL, WIDTH - 2 * x, max_lines=2)
    winners = [table.name(seat.player) for seat in order if places.get(seat.player) == 1]
    title_style = TextStyle(30, PALETTE.accent, bold=True)
    room = WIDTH - 2 * x

    def heading(shown: Sequence[str]) -> str:
        if len(shown) == 1:
            return tr(lang, "{name} wins", name=shown[0])
        if shown:
            return tr(lang, "Draw: {names}", names=join_words(list(shown), lang))
        return tr(lang, "Game over")

    titles, title_style = fit_names(heading, winners, title_style, room, 2, TITLE_MIN_SIZE)
    extra = TITLE_LINE * (len(titles) - 1)
    below = FINAL_TOP + extra + 21 * (len(endings) - 1)
    height = below + len(order) * (LANE_H + LANE_GAP) - LANE_GAP + MARGIN
    image = new_panel(WIDTH, height)
    label = tr(lang, "GAME OVER · TURN {turn}", turn=view.turn)
    stamp_text(image, (x, MARGIN + 16), label, LABEL, "lm")
    for k, title in enumerate(titles):
        stamp_text(image, (x, MARGIN + 48 + TITLE_LINE * k), title, title_style, "lm")
    for k, ending in enumerate(endings):
        stamp_text(image, (x, MARGIN + 78 + extra + 21 * k), ending, DETAIL, "lm")
    top = below
    scores = view.scores or {}
    for seat in order:
        place_ = places.get(seat.player, len(order))
        score = scores.get(seat.player, seat.give_size + seat.take_size)
        _draw_final_lane(image, table, seat, place_, score, top)
        top += LANE_H + LANE_GAP
    return image


def _draw_final_lane(
    image: Image.Image, table: _Table, seat: SeatView, place_: int, score: int, top: int
) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    winner = place_ == 1
    fill = PALETTE.lane_active if winner else PALETTE.lane
    outline = PALETTE.accent if winner else None
    draw_rounded(image, (left, top, right, top + LANE_H), 12, fill, outline, 2)
    middle = top + LANE_H / 2
    x = left + 16
    badge(image, (x + 14, middle), 14, str(place_), place_colour(place_), PALETTE.accent_ink)
    x += 42
    number_x = right - 18
    width = number_x - 110 - x
    style = NAME.but(size=20, fill=PALETTE.accent if winner else PALETTE.text)
    stamp_text(
        image, (x, middle - 10), cut_name(table.name(seat.player), style, width), style, "lm"
    )
    detail = fit_text(place_reason(table.view, seat, table.lang), DETAIL, width)
    stamp_text(image, (x, middle + 13), detail, DETAIL, "lm")
    number_style = TextStyle(26, PALETTE.accent if winner else PALETTE.text, bold=True)
    stamp_text(image, (number_x, middle - 7), number_text(score), number_style, "rm")
    caption = plural(table.lang, score, "card", "cards")
    stamp_text(image, (number_x, middle + 16), caption, CAPTION, "rm")


# --- sprites only this game draws ------------------------------------------------


def empty_slot(
    base: Image.Image, x: float, y: float, size: CardSize, ground: RGBA = PALETTE.panel
) -> None:
    """Where a card would be, top-left corner at (x, y): a faint rounded outline on
    the ``ground`` colour (which ``base`` must be opaque under)."""
    left, top = round(x), round(y)
    box = (left, top, left + size.width, top + size.height)
    draw_rounded(base, box, size.radius, ground, PALETTE.faint, 1)
