"""Cards: number cards, playing cards with suits and jokers, backs, piles and tags."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engines.cards import Card
from bot.render.palette import PALETTE, RGBA, Box
from bot.render.shapes import (
    SUPERSAMPLE,
    Sprite,
    downsample,
    rounded_rect,
    supersampled,
    with_shadow,
)
from bot.render.text import TextStyle, draw_centered, draw_text, text_width


@dataclass(frozen=True)
class CardSize:
    width: int
    height: int
    radius: int
    number: int
    """Font size of a number card's number (or a playing card's centre pip size)."""
    corner: int
    """Font size of a playing card's corner rank."""


SMALL_CARD = CardSize(30, 42, 5, 18, 18)
ROW_CARD = CardSize(50, 66, 7, 23, 18)
BIG_CARD = CardSize(90, 124, 10, 52, 18)


def _blank_card(size: CardSize, face: RGBA) -> Image.Image:
    return rounded_rect(size.width, size.height, size.radius, face, PALETTE.card_edge, 1)


@lru_cache(maxsize=512)
def number_card(
    value: int,
    size: CardSize,
    ink: RGBA = PALETTE.ink,
    *,
    strip: int | None = None,
    muted: bool = False,
) -> Sprite:
    """A card showing ``value``, centred; with ``strip`` the number is centred in the
    card's left ``strip`` pixels instead (the part still visible when the next card
    overlaps it). ``muted`` greys the card out (e.g. cards out of play)."""
    face = _blank_card(size, PALETTE.card_muted if muted else PALETTE.card)
    draw = ImageDraw.Draw(face)
    style = TextStyle(size.number, ink, bold=True)
    visible = size.width if strip is None else strip
    draw_centered(draw, (visible / 2 + 0.5, size.height / 2), str(value), style)
    if size.height >= 100:  # big cards get small corner indices too
        corner = TextStyle(size.corner, ink, bold=True)
        draw_text(draw, (8, 7), str(value), corner, anchor="la")
        draw_text(draw, (size.width - 8, size.height - 7), str(value), corner, anchor="rd")
    return with_shadow(face, size.radius)


@lru_cache(maxsize=32)
def card_back(size: CardSize) -> Sprite:
    """A face-down card: a white rim around a burgundy lattice."""
    w, h, s = size.width, size.height, SUPERSAMPLE
    pattern, draw = supersampled(w, h)
    draw.rectangle((0, 0, w * s, h * s), fill=PALETTE.back)
    step = max(6, w // 6) * s
    for offset in range(-h * s, w * s + h * s, step):
        draw.line((offset, 0, offset + h * s, h * s), fill=PALETTE.back_pattern, width=s)
        draw.line((offset, h * s, offset + h * s, 0), fill=PALETTE.back_pattern, width=s)
    card, card_draw = supersampled(w, h)
    outer = (0, 0, w * s - 1, h * s - 1)
    card_draw.rounded_rectangle(
        outer, size.radius * s, fill=PALETTE.card, outline=PALETTE.card_edge, width=s
    )
    inset = max(2, w // 14) * s
    inner = (inset, inset, w * s - 1 - inset, h * s - 1 - inset)
    window = Image.new("L", card.size, 0)
    ImageDraw.Draw(window).rounded_rectangle(inner, max(1, size.radius - 2) * s, fill=255)
    card.paste(pattern, (0, 0), window)
    return with_shadow(downsample(card), size.radius)


def card_stack(size: CardSize, count: int, spread: int = 3) -> tuple[Sprite, int]:
    """Up to four face-down cards fanned down-right, for a draw pile of ``count``
    cards; returns the sprite (cached: don't draw on it) and how many backs it shows
    (0 for an empty pile)."""
    layers = min(count, 4)
    return _stack(size, layers, spread), layers


@lru_cache(maxsize=64)
def _stack(size: CardSize, layers: int, spread: int) -> Sprite:
    back = card_back(size)
    extra = spread * max(0, layers - 1)
    canvas = Image.new("RGBA", (back.image.width + extra, back.image.height + extra), (0, 0, 0, 0))
    for layer in range(layers):
        canvas.alpha_composite(back.image, dest=(layer * spread, layer * spread))
    return Sprite(canvas, back.dx, back.dy)


@lru_cache(maxsize=64)
def fanned_backs(size: CardSize, count: int, step: int) -> Sprite:
    """``count`` face-down cards side by side, each ``step`` pixels right of the last
    (overlapping when ``step`` < the card width): a hand seen from across the table.
    At least one card wide; with ``count`` 0 the sprite is transparent."""
    back = card_back(size)
    shown = max(1, count)
    canvas = Image.new(
        "RGBA", (back.image.width + step * (shown - 1), back.image.height), (0, 0, 0, 0)
    )
    for k in range(count):
        canvas.alpha_composite(back.image, dest=(k * step, 0))
    return Sprite(canvas, back.dx, back.dy)


# --- playing cards and suits -----------------------------------------------------


def rank_text(card: Card) -> str:
    """A card's rank as printed: "10" for 10♥."""
    return str(card)[:-1]


def suit_colour(suit: str) -> RGBA:
    return PALETTE.red_ink if suit in ("D", "H") else PALETTE.ink


def _heart(draw: ImageDraw.ImageDraw, box: Box, fill: RGBA, upside_down: bool = False) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w * 0.27

    def fy(y: float) -> float:  # flip vertically inside the box for spades
        return y1 - (y - y0) if upside_down else y

    lobe_y = y0 + h * 0.30
    for cx in (x0 + w * 0.27, x1 - w * 0.27):
        cy = fy(lobe_y)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    tip = (x0 + w / 2, fy(y0 + h * (0.86 if upside_down else 1.0)))
    side_y = fy(y0 + h * 0.43)
    draw.polygon([(x0 + w * 0.015, side_y), (x1 - w * 0.015, side_y), tip], fill=fill)
    notch_y = fy(y0 + h * 0.34)
    draw.polygon([(x0 + w * 0.27, fy(lobe_y)), (x1 - w * 0.27, fy(lobe_y)), tip], fill=fill)
    draw.polygon([(x0 + w * 0.2, notch_y), (x1 - w * 0.2, notch_y), tip], fill=fill)


def _stem(draw: ImageDraw.ImageDraw, box: Box, fill: RGBA) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w / 2
    draw.polygon([(cx, y0 + h * 0.55), (cx + w * 0.2, y1), (cx - w * 0.2, y1)], fill=fill)


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: Box, fill: RGBA | None = None) -> None:
    """Draw a suit symbol ("C", "D", "H", "S") filling ``box``, from polygons and
    ellipses (no font glyphs). Draw on a `supersampled` canvas for smooth edges."""
    colour = fill if fill is not None else suit_colour(suit)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w / 2
    if suit == "D":
        draw.polygon(
            [(cx, y0), (x1 - w * 0.1, y0 + h / 2), (cx, y1), (x0 + w * 0.1, y0 + h / 2)],
            fill=colour,
        )
    elif suit == "H":
        _heart(draw, (x0, y0 + h * 0.04, x1, y1), colour)
    elif suit == "S":
        _heart(draw, (x0, y0, x1, y0 + h * 0.86), colour, upside_down=True)
        _stem(draw, box, colour)
    elif suit == "C":
        r = w * 0.22
        for ccx, ccy in (
            (cx, y0 + r),
            (x0 + r + w * 0.02, y0 + h * 0.53),
            (x1 - r - w * 0.02, y0 + h * 0.53),
        ):
            draw.ellipse((ccx - r, ccy - r, ccx + r, ccy + r), fill=colour)
        draw.polygon(
            [(cx, y0 + r), (cx + w * 0.14, y0 + h * 0.6), (cx - w * 0.14, y0 + h * 0.6)],
            fill=colour,
        )
        _stem(draw, box, colour)
    else:
        raise ValueError(f"no such suit: {suit!r}")


def _star(draw: ImageDraw.ImageDraw, box: Box, fill: RGBA) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    outer, inner = (x1 - x0) / 2, (x1 - x0) / 5
    points = [
        (
            cx + (outer if i % 2 == 0 else inner) * math.sin(i * math.pi / 5),
            cy - (outer if i % 2 == 0 else inner) * math.cos(i * math.pi / 5),
        )
        for i in range(10)
    ]
    draw.polygon(points, fill=fill)


@lru_cache(maxsize=512)
def suit_icon(suit: str, size: int, fill: RGBA | None = None) -> Image.Image:
    """A suit symbol ``size`` pixels square, anti-aliased, transparent around it.
    ``suit`` "" gives a star (jokers)."""
    image, draw = supersampled(size, size)
    box = (0.0, 0.0, size * SUPERSAMPLE - 1.0, size * SUPERSAMPLE - 1.0)
    if suit:
        draw_suit(draw, suit, box, fill)
    else:
        _star(draw, box, fill or PALETTE.red_ink)
    return downsample(image)


@lru_cache(maxsize=512)
def playing_card(rank: str, suit: str, size: CardSize, *, muted: bool = False) -> Sprite:
    """A playing card: ``rank`` text ("10", "Q", "A"; "JK" for a joker with suit "")
    with a small suit under it in the top-left corner and a large suit in the middle.
    A joker is drawn by `joker_card` (a star, not a "J" that reads as a jack)."""
    if rank == "JK":
        return joker_card(size, muted=muted)
    face = _blank_card(size, PALETTE.card_muted if muted else PALETTE.card)
    draw = ImageDraw.Draw(face)
    colour = suit_colour(suit) if suit else PALETTE.red_ink
    corner = TextStyle(size.corner, colour, bold=True)
    label = "J" if rank == "JK" else rank
    margin = max(3, size.width // 12)
    label_width = text_width(label, corner)
    draw_centered(draw, (margin + label_width / 2, margin + size.corner * 0.45), label, corner)
    pip = max(6, round(size.corner * 0.8))
    icon_x = round(margin + label_width / 2 - pip / 2)
    face.alpha_composite(suit_icon(suit, pip, colour), dest=(icon_x, margin + size.corner + 2))
    big = min(size.number, size.width - 2 * margin, size.height // 2)
    centre = (round((size.width - big) / 2) + margin // 2, round((size.height - big) / 2) + margin)
    face.alpha_composite(suit_icon(suit, big, colour), dest=centre)
    return with_shadow(face, size.radius)


JOKER_INK: RGBA = (112, 62, 168, 255)
"""A joker's stars: violet, apart from both suit colours."""
JOKER_FACE: RGBA = (244, 237, 251, 255)
"""A joker's face: the card stock tinted violet, so it stands out in a run."""


@lru_cache(maxsize=256)
def joker_card(
    size: CardSize, stands_for: tuple[str, str] | None = None, *, muted: bool = False
) -> Sprite:
    """A joker: a violet-tinted face with a star in the top-left corner and a large
    star beside it. With ``stands_for`` (rank, suit), the card it represents is shown
    small under the corner star, as a natural card's corner index: so in a run of
    overlapping cards, where only the left strip shows, it reads "joker as 6♥"."""
    face = _blank_card(size, PALETTE.card_muted if muted else JOKER_FACE)
    draw = ImageDraw.Draw(face)
    margin = max(3, size.width // 12)
    star = max(7, round(size.corner * 0.95))
    column = star
    face.alpha_composite(suit_icon("", star, JOKER_INK), dest=(margin, margin))
    if stands_for is not None:
        rank, suit = stands_for
        colour = suit_colour(suit)
        style = TextStyle(size.corner, colour, bold=True)
        label_width = text_width(rank, style)
        column = max(star, round(label_width))
        centre_x = margin + star / 2
        top = margin + star + 2
        draw_centered(draw, (centre_x, top + size.corner * 0.45), rank, style)
        pip = max(5, round(size.corner * 0.7))
        face.alpha_composite(
            suit_icon(suit, pip, colour), dest=(round(centre_x - pip / 2), top + size.corner + 1)
        )
    left = margin + column + 2
    big = max(6, min(size.number, size.width - left - margin, size.height // 2))
    x = round(left + (size.width - margin - left - big) / 2)
    face.alpha_composite(
        suit_icon("", big, JOKER_INK), dest=(x, round((size.height - big) / 2 + margin / 2))
    )
    return with_shadow(face, size.radius)


@lru_cache(maxsize=32)
def plain_card(size: CardSize, *, muted: bool = False) -> Sprite:
    """A blank card face (the lower layers of a face-up pile)."""
    return with_shadow(
        _blank_card(size, PALETTE.card_muted if muted else PALETTE.card), size.radius
    )


@lru_cache(maxsize=512)
def card_tag(
    rank: str, suit: str, text_size: int, stands_for: tuple[str, str] | None = None
) -> Image.Image:
    """A card as a small inline label for a line of text: a white rounded tag with the
    rank and a suit symbol ("JK" with suit "": a violet star, then what it
    ``stands_for`` (rank, suit) if given). As tall as a `pill` of ``text_size``."""
    height = round(text_size * 1.45)
    pad = max(3, round(text_size * 0.3))
    pip = max(6, round(text_size * 0.8))
    parts: list[tuple[str, str]] = []  # (rank text, suit); suit "" alone: a star
    if rank == "JK":
        parts.append(("", ""))
        if stands_for is not None:
            parts.append(stands_for)
    else:
        parts.append((rank, suit))
    width = pad
    for part_rank, part_suit in parts:
        style = TextStyle(text_size, suit_colour(part_suit), bold=True)
        width += round(text_width(part_rank, style)) + (1 if part_rank else 0) + pip + 2
    width += pad - 2
    image = rounded_rect(width, height, max(3, height // 4), PALETTE.card, PALETTE.card_edge, 1)
    draw = ImageDraw.Draw(image)
    x = pad
    for part_rank, part_suit in parts:
        ink = suit_colour(part_suit) if part_suit else JOKER_INK
        style = TextStyle(text_size, ink, bold=True)
        if part_rank:
            rank_width = text_width(part_rank, style)
            draw_centered(draw, (x + rank_width / 2, height / 2), part_rank, style)
            x += round(rank_width) + 1
        image.alpha_composite(suit_icon(part_suit, pip, ink), dest=(x, round((height - pip) / 2)))
        x += pip + 2
    return image
