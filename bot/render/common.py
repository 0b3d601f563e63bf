"""Drawing pieces shared by every game's table image.

Everything here is pure and deterministic: the same arguments give the same pixels.
Sprites (cards, chips, corner masks) are cached, so a table is mostly a handful of
``alpha_composite`` calls plus text. Shapes are drawn supersampled and scaled down,
so edges are anti-aliased; text is drawn at final size, where FreeType hints it.

Fonts come from Pillow itself (``ImageFont.load_default(size=...)``, Aileron
Regular), never from a system path. That font covers printable ASCII only, so names
pass through `printable` first. Bold is Aileron with a thin stroke of its own colour.

Every image is an opaque rounded panel on a transparent background, in colours that
read on both Discord's dark (#313338) and light (#ffffff) themes.
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.i18n import Lang, tr

RGBA = tuple[int, int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

SUPERSAMPLE = 4
"""Shapes are drawn this many times larger, then scaled down (anti-aliasing)."""


@dataclass(frozen=True)
class Palette:
    """Colours for every game: a felt-green table with warm card stock."""

    panel: RGBA = (24, 66, 51, 255)
    panel_edge: RGBA = (16, 46, 36, 255)
    lane: RGBA = (32, 83, 65, 255)
    lane_active: RGBA = (44, 104, 81, 255)
    text: RGBA = (246, 242, 232, 255)
    muted: RGBA = (163, 196, 181, 255)
    faint: RGBA = (120, 160, 143, 255)
    accent: RGBA = (244, 193, 78, 255)
    """The player to act, the winner: gold."""
    accent_ink: RGBA = (52, 38, 6, 255)
    card: RGBA = (253, 249, 239, 255)
    card_muted: RGBA = (214, 219, 210, 255)
    card_edge: RGBA = (196, 184, 156, 255)
    ink: RGBA = (31, 42, 54, 255)
    red_ink: RGBA = (196, 40, 40, 255)
    back: RGBA = (128, 36, 52, 255)
    back_pattern: RGBA = (160, 62, 78, 255)
    chip: RGBA = (209, 58, 52, 255)
    chip_stripe: RGBA = (250, 244, 232, 255)
    shadow: RGBA = (0, 0, 0, 110)
    silver: RGBA = (200, 208, 214, 255)
    bronze: RGBA = (212, 146, 94, 255)


PALETTE = Palette()


# --- fonts and text ------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow sans FreeType
        raise RuntimeError("Pillow was built without FreeType; table images need it")
    return loaded


@dataclass(frozen=True)
class TextStyle:
    size: int
    fill: RGBA = PALETTE.text
    bold: bool = False

    @property
    def stroke(self) -> float:
        """Faux bold: a stroke of the text's own colour, ~3.5 % of the size."""
        return round(self.size * 0.035, 2) if self.bold else 0.0

    def but(self, *, fill: RGBA | None = None, size: int | None = None) -> TextStyle:
        return TextStyle(size or self.size, fill or self.fill, self.bold)


GERMAN_SPELLING = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
    | {"„": '"', "“": '"', "”": '"', "‚": "'", "‘": "'", "’": "'", "–": "-", "—": "-"}
)
"""The bundled font is ASCII only: German text is drawn as German spells it without
umlauts (ä → ae, ß → ss), and typographic quotes and dashes as plain ones."""


_CAPITAL_UMLAUT = re.compile(r"[ÄÖÜ](?=[A-ZÄÖÜ])|(?<=[A-ZÄÖÜ])[ÄÖÜ](?![a-zäöüß])")
_CAPITALS_SPELLED = {"Ä": "AE", "Ö": "OE", "Ü": "UE"}


def for_font(text: str) -> str:
    """``text`` as the font can draw it (see `GERMAN_SPELLING`); an umlaut in a word in
    capitals is spelt in capitals (TÜRKISCH → TUERKISCH)."""
    text = _CAPITAL_UMLAUT.sub(lambda found: _CAPITALS_SPELLED[found[0]], text)
    return text.translate(GERMAN_SPELLING)


def text_width(text: str, style: TextStyle) -> float:
    return font(style.size).getlength(for_font(text)) + 2 * style.stroke


def draw_text(
    draw: ImageDraw.ImageDraw, xy: Point, text: str, style: TextStyle, anchor: str = "la"
) -> None:
    """Draw ``text`` with a Pillow anchor ("la" left-ascender, "lm" left-middle, ...)."""
    draw.text(
        xy,
        for_font(text),
        font=font(style.size),
        fill=style.fill,
        anchor=anchor,
        stroke_width=style.stroke,
        stroke_fill=style.fill,
    )


def draw_centered(draw: ImageDraw.ImageDraw, center: Point, text: str, style: TextStyle) -> None:
    """Draw ``text`` with its inked box centred on ``center`` (exact for digits)."""
    left, top, right, bottom = font(style.size).getbbox(
        for_font(text), anchor="ls", stroke_width=style.stroke
    )
    x = center[0] - (left + right) / 2
    y = center[1] - (top + bottom) / 2
    draw_text(draw, (round(x), round(y)), text, style, anchor="ls")


ELLIPSIS = "…"


def fit_text(text: str, style: TextStyle, max_width: float) -> str:
    """``text`` cut (with an ellipsis) to the longest prefix that fits ``max_width``."""
    if text_width(text, style) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, style) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def wrap_text(
    text: str, style: TextStyle, max_width: float, max_lines: int | None = None
) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``max_width`` (a word too
    long for a line is cut with an ellipsis); with ``max_lines``, what doesn't fit on
    the last line is cut with an ellipsis too. No lines for blank text."""
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(trial, style) <= max_width:
            lines[-1] = trial
        else:
            lines.append(word)
    if max_lines is not None and len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [fit_text(line, style, max_width) for line in lines]


def shrink_to_fit(text: str, style: TextStyle, max_width: float, min_size: int) -> TextStyle:
    """``style`` at the largest size (down to ``min_size``) at which ``text`` fits
    ``max_width``; at ``min_size`` if it fits at none (then cut it with `fit_text`)."""
    size = style.size
    while size > min_size and text_width(text, style.but(size=size)) > max_width:
        size -= 1
    return style.but(size=size)


def fit_name(template: str, name: str, style: TextStyle, max_width: float) -> str:
    """``template`` with ``name`` put in for its "{}", the name cut short (never the
    rest of the line) so that the whole line fits ``max_width``: "Waiting for Jo…: Go"."""
    room = max_width - text_width(template.replace("{}", ""), style)
    return template.replace("{}", fit_text(name, style, max(room, 0.0)))


_LATIN_EXTRAS = str.maketrans(
    {
        "ß": "ss",
        "Ł": "L",
        "ł": "l",
        "Ø": "O",
        "ø": "o",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "Đ": "D",
        "đ": "d",
        "ı": "i",
        "Þ": "Th",
        "þ": "th",
        "Ð": "D",
        "ð": "d",
    }
)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char`` (rather than its missing-glyph box)."""
    if " " <= char <= "~":
        return True
    probe = font(16)
    missing = probe.getmask("\U0010fffd")
    mask = probe.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def printable(text: str) -> str:
    """``text`` reduced to what the font can draw: accents dropped (José → Jose),
    styled letters folded (𝓐𝓵𝓲𝓬𝓮 → Alice), anything else (emoji, other scripts)
    left out, whitespace collapsed."""
    folded = unicodedata.normalize("NFKD", text.translate(_LATIN_EXTRAS))
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in folded
        if ch.isspace() or (not unicodedata.combining(ch) and has_glyph(ch))
    )
    return " ".join(kept.split())


def display_name(player: str, names: Mapping[str, str], seat: int, lang: Lang) -> str:
    """The name to print for ``player``: ``names[player]``, else the id itself; if
    nothing of it is printable, "Player <seat + 1>" in ``lang``."""
    cleaned = printable(names.get(player, player))
    if any(ch.isalnum() for ch in cleaned):
        return cleaned
    return tr(lang, "Player {n}", n=seat + 1)


# --- shapes and sprites ----------------------------------------------------------


class Sprite(NamedTuple):
    """An RGBA image and where its nominal top-left corner sits inside it (a sprite
    with a shadow is larger than the thing it shows)."""

    image: Image.Image
    dx: int = 0
    dy: int = 0


def place(base: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    """Composite ``sprite`` so that its nominal top-left corner lands on (x, y)."""
    base.alpha_composite(sprite.image, dest=(round(x) - sprite.dx, round(y) - sprite.dy))


@lru_cache(maxsize=512)
def text_sprite(text: str, style: TextStyle, anchor: str = "la") -> Sprite:
    """``text`` drawn once on a transparent canvas (cached): its (dx, dy) is the
    anchor point, as in `draw_text`. Labels that recur on every table (captions,
    counts, names) then cost a composite instead of a FreeType render."""
    left, top, right, bottom = font(style.size).getbbox(
        for_font(text), anchor=anchor, stroke_width=style.stroke
    )
    dx, dy = 1 - math.floor(left), 1 - math.floor(top)
    size = (max(1, math.ceil(right) + dx + 1), max(1, math.ceil(bottom) + dy + 1))
    # Transparent in the text's own colour, so anti-aliased edges keep that colour.
    image = Image.new("RGBA", size, (*style.fill[:3], 0))
    draw_text(ImageDraw.Draw(image), (dx, dy), text, style, anchor)
    return Sprite(image, dx, dy)


def stamp_text(
    base: Image.Image, xy: Point, text: str, style: TextStyle, anchor: str = "la"
) -> None:
    """Like `draw_text` (position rounded to whole pixels), through `text_sprite`."""
    if text:
        place(base, text_sprite(text, style, anchor), xy[0], xy[1])


@lru_cache(maxsize=64)
def _corner(radius: int) -> Image.Image:
    """Anti-aliased top-left quarter-disc mask, ``radius`` pixels square."""
    big = Image.new("L", (radius * SUPERSAMPLE, radius * SUPERSAMPLE), 0)
    diameter = 2 * radius * SUPERSAMPLE - 1
    ImageDraw.Draw(big).ellipse((0, 0, diameter, diameter), fill=255)
    return big.resize((radius, radius), Image.Resampling.BOX)


@lru_cache(maxsize=64)
def _corners(radius: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The four corner masks: top-left, top-right, bottom-left, bottom-right."""
    corner = _corner(radius)
    return (
        corner,
        corner.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        corner.transpose(Image.Transpose.FLIP_TOP_BOTTOM),
        corner.transpose(Image.Transpose.ROTATE_180),
    )


@lru_cache(maxsize=256)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An "L" mask of a rounded rectangle with anti-aliased corners (cached: don't
    change it)."""
    mask = Image.new("L", (width, height), 255)
    radius = max(0, min(radius, width // 2, height // 2))
    if radius:
        top_left, top_right, bottom_left, bottom_right = _corners(radius)
        mask.paste(top_left, (0, 0))
        mask.paste(top_right, (width - radius, 0))
        mask.paste(bottom_left, (0, height - radius))
        mask.paste(bottom_right, (width - radius, height - radius))
    return mask


def rounded_rect(
    width: int,
    height: int,
    radius: int,
    fill: RGBA,
    outline: RGBA | None = None,
    outline_width: int = 0,
) -> Image.Image:
    """An RGBA rounded rectangle (anti-aliased), transparent outside, optionally
    with an outline. The outer colour's alpha applies to the whole shape."""
    outer = outline if outline is not None and outline_width > 0 else fill
    image = Image.new("RGBA", (width, height), outer)
    if outer is not fill:
        _paste_rounded(image, (0, 0, width, height), radius, fill, outline_width)
    mask = rounded_mask(width, height, radius)
    if outer[3] < 255:
        mask = mask.point(lambda v: v * outer[3] // 255)
    image.putalpha(mask)
    return image


def _paste_rounded(
    base: Image.Image, box: tuple[int, int, int, int], radius: int, colour: RGBA, inset: int = 0
) -> None:
    """Paint an opaque rounded rectangle, ``inset`` pixels inside ``box``, onto an
    opaque area of ``base``: plain fills for the body, masked pastes for the corners
    only (fast, and exact when both are opaque)."""
    left, top, right, bottom = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    r = max(0, min(radius - inset, (right - left) // 2, (bottom - top) // 2))
    base.paste(colour, (left + r, top, right - r, bottom))
    base.paste(colour, (left, top + r, right, bottom - r))
    if not r:
        return
    top_left, top_right, bottom_left, bottom_right = _corners(r)
    base.paste(colour, (left, top, left + r, top + r), top_left)
    base.paste(colour, (right - r, top, right, top + r), top_right)
    base.paste(colour, (left, bottom - r, left + r, bottom), bottom_left)
    base.paste(colour, (right - r, bottom - r, right, bottom), bottom_right)


def draw_rounded(
    base: Image.Image,
    box: tuple[int, int, int, int],
    radius: int,
    fill: RGBA,
    outline: RGBA | None = None,
    outline_width: int = 0,
) -> None:
    """A rounded rectangle covering ``box`` (left, top, right, bottom) on ``base``.
    Opaque colours are painted straight on (``base`` must be opaque there, e.g. a
    panel); translucent ones are composited."""
    colours = (fill,) if outline is None or outline_width <= 0 else (outline, fill)
    if all(colour[3] == 255 for colour in colours):
        _paste_rounded(base, box, radius, colours[0])
        if len(colours) == 2:
            _paste_rounded(base, box, radius, fill, outline_width)
        return
    left, top, right, bottom = box
    shape = rounded_rect(right - left, bottom - top, radius, fill, outline, outline_width)
    base.alpha_composite(shape, dest=(left, top))


def new_panel(width: int, height: int, radius: int = 18) -> Image.Image:
    """A fresh table: an opaque rounded felt panel with a darker rim, transparent
    outside its corners."""
    return rounded_rect(width, height, radius, PALETTE.panel, PALETTE.panel_edge, 3)


@lru_cache(maxsize=64)
def _shadow(width: int, height: int, radius: int, blur: int) -> Image.Image:
    pad = 2 * blur
    mask = Image.new("L", (width + 2 * pad, height + 2 * pad), 0)
    mask.paste(rounded_mask(width, height, radius), (pad, pad))
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    shadow = Image.new("RGBA", mask.size, PALETTE.shadow)
    shadow.putalpha(mask.point(lambda v: v * PALETTE.shadow[3] // 255))
    return shadow


def with_shadow(shape: Image.Image, radius: int, blur: int = 2, drop: int = 2) -> Sprite:
    """``shape`` on a soft drop shadow; the sprite's (dx, dy) points at the shape."""
    shadow = _shadow(shape.width, shape.height, radius, blur)
    pad = 2 * blur
    canvas = Image.new("RGBA", (shadow.width, shadow.height + drop), (0, 0, 0, 0))
    canvas.alpha_composite(shadow, dest=(0, drop))
    canvas.alpha_composite(shape, dest=(pad, pad))
    return Sprite(canvas, pad, pad)


def supersampled(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent canvas SUPERSAMPLE times the size, for anti-aliased shapes;
    finish with `downsample`."""
    image = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def downsample(image: Image.Image) -> Image.Image:
    size = (image.width // SUPERSAMPLE, image.height // SUPERSAMPLE)
    return image.resize(size, Image.Resampling.BOX)


# --- cards -----------------------------------------------------------------------


@dataclass(frozen=True)
class CardSize:
    width: int
    height: int
    radius: int
    number: int
    """Font size of a number card's number (or a playing card's centre pip size)."""
    corner: int
    """Font size of a playing card's corner rank."""


SMALL_CARD = CardSize(30, 42, 5, 17, 12)
ROW_CARD = CardSize(50, 66, 7, 23, 15)
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
    cards; returns the sprite and how many backs it shows (0 for an empty pile)."""
    layers = min(count, 4)
    back = card_back(size)
    extra = spread * max(0, layers - 1)
    canvas = Image.new("RGBA", (back.image.width + extra, back.image.height + extra), (0, 0, 0, 0))
    for layer in range(layers):
        canvas.alpha_composite(back.image, dest=(layer * spread, layer * spread))
    return Sprite(canvas, back.dx, back.dy), layers


def empty_slot(
    base: Image.Image, x: float, y: float, size: CardSize, ground: RGBA = PALETTE.panel
) -> None:
    """Where a card would be, top-left corner at (x, y): a faint rounded outline on
    the ``ground`` colour (which ``base`` must be opaque under)."""
    left, top = round(x), round(y)
    box = (left, top, left + size.width, top + size.height)
    draw_rounded(base, box, size.radius, ground, PALETTE.faint, 1)


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


# --- chips and badges ------------------------------------------------------------


@lru_cache(maxsize=64)
def chip(radius: int, colour: RGBA = PALETTE.chip) -> Sprite:
    """A poker chip seen from above: coloured disc, six light edge inserts, an inner
    ring. The sprite's (dx, dy) is the chip's top-left corner."""
    d = 2 * radius
    s = SUPERSAMPLE
    image, draw = supersampled(d, d)
    full = (0, 0, d * s - 1, d * s - 1)
    draw.ellipse(full, fill=colour)
    for k in range(6):
        start = k * 60 - 12
        draw.pieslice(full, start, start + 24, fill=PALETTE.chip_stripe)
    edge = d * s * 0.17
    draw.ellipse((edge, edge, d * s - 1 - edge, d * s - 1 - edge), fill=colour)
    ring = d * s * 0.27
    draw.ellipse(
        (ring, ring, d * s - 1 - ring, d * s - 1 - ring),
        outline=PALETTE.chip_stripe,
        width=max(1, round(d * s * 0.04)),
    )
    return with_shadow(downsample(image), radius, blur=1, drop=1)


def _darker(colour: RGBA, factor: float) -> RGBA:
    r, g, b, a = colour
    return (round(r * factor), round(g * factor), round(b * factor), a)


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


def faded(sprite: Sprite, opacity: float) -> Sprite:
    """``sprite`` with its alpha scaled by ``opacity`` (0–1)."""
    image = sprite.image.copy()
    image.putalpha(image.getchannel("A").point(lambda v: round(v * opacity)))
    return Sprite(image, sprite.dx, sprite.dy)


@lru_cache(maxsize=64)
def disc(radius: int, fill: RGBA) -> Image.Image:
    """An anti-aliased filled circle, ``2 * radius`` pixels square."""
    image, draw = supersampled(2 * radius, 2 * radius)
    full = 2 * radius * SUPERSAMPLE - 1
    draw.ellipse((0, 0, full, full), fill=fill)
    return downsample(image)


def badge(base: Image.Image, center: Point, radius: int, text: str, fill: RGBA, ink: RGBA) -> None:
    """A filled disc with short ``text`` (e.g. a place "1") in its middle."""
    base.alpha_composite(
        disc(radius, fill), dest=(round(center[0]) - radius, round(center[1]) - radius)
    )
    style = TextStyle(round(radius * 1.15), ink, bold=True)
    draw_centered(ImageDraw.Draw(base), (round(center[0]), round(center[1])), text, style)


def pill(
    base: Image.Image, xy: Point, text: str, style: TextStyle, fill: RGBA, pad_x: int = 8
) -> int:
    """A rounded label with ``text``, its left edge at x and vertically centred on y;
    returns its width."""
    height = round(style.size * 1.45)
    width = round(text_width(text, style)) + 2 * pad_x
    left, top = round(xy[0]), round(xy[1] - height / 2)
    draw_rounded(base, (left, top, left + width, top + height), height // 2, fill)
    draw_centered(ImageDraw.Draw(base), (left + width / 2, top + height / 2), text, style)
    return width


@lru_cache(maxsize=32)
def triangle(size: int, fill: RGBA) -> Image.Image:
    """A right-pointing triangle ``size`` pixels tall (a "to act" marker)."""
    image, draw = supersampled(size, size)
    full = size * SUPERSAMPLE - 1
    draw.polygon([(full * 0.1, 0), (full * 0.95, full / 2), (full * 0.1, full)], fill=fill)
    return downsample(image)


@lru_cache(maxsize=32)
def padlock(size: int, fill: RGBA) -> Image.Image:
    """A closed padlock ``size`` pixels tall (a little narrower): a "locked" mark.
    The keyhole is cut out (transparent)."""
    s = SUPERSAMPLE
    width = round(size * 0.8)
    image, draw = supersampled(width, size)
    w, h = width * s, size * s
    body_top = h * 0.42
    stroke = max(s, round(w * 0.16))
    arc = (w * 0.2, h * 0.04, w * 0.8 - 1, body_top + h * 0.3)
    draw.arc(arc, 180, 360, fill=fill, width=stroke)
    legs = body_top - (arc[1] + arc[3]) / 2 + 1
    for x in (arc[0], arc[2] - stroke + 1):
        draw.rectangle(
            (x, (arc[1] + arc[3]) / 2 - 1, x + stroke - 1, (arc[1] + arc[3]) / 2 + legs), fill
        )
    draw.rounded_rectangle((0, body_top, w - 1, h - 1), radius=round(w * 0.14), fill=fill)
    hole = w * 0.11
    cx, cy = w / 2, body_top + (h - body_top) * 0.42
    clear = (0, 0, 0, 0)
    draw.ellipse((cx - hole, cy - hole, cx + hole, cy + hole), fill=clear)
    draw.polygon([(cx - hole * 0.6, cy), (cx + hole * 0.6, cy), (cx, cy + hole * 2.6)], fill=clear)
    return downsample(image)


def place_colour(place: int) -> RGBA:
    """A place badge's colour: gold, silver, bronze, then a plain muted green."""
    return {1: PALETTE.accent, 2: PALETTE.silver, 3: PALETTE.bronze}.get(place, PALETTE.faint)


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


@lru_cache(maxsize=64)
def ring(radius: int, width: float, fill: RGBA) -> Image.Image:
    """An anti-aliased circle outline ``width`` pixels thick, its outer edge touching
    the sides of a ``2 * radius`` pixel square (a highlight around a round piece)."""
    image, draw = supersampled(2 * radius, 2 * radius)
    full = 2 * radius * SUPERSAMPLE - 1
    draw.ellipse((0, 0, full, full), outline=fill, width=max(1, round(width * SUPERSAMPLE)))
    return downsample(image)


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


# --- output ----------------------------------------------------------------------


OPAQUE_ENOUGH = 248


def to_png(image: Image.Image, colours: int = 256) -> bytes:
    """Encode ``image`` as a small PNG: quantized to a palette (no dithering, so
    flat colours and text edges stay clean; alpha kept for the rounded corners)."""
    rgba = image.convert("RGBA") if image.mode != "RGBA" else image
    quantized = rgba.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    _snap_alpha(quantized)
    buffer = io.BytesIO()
    quantized.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def _snap_alpha(quantized: Image.Image) -> None:
    """Make nearly opaque palette entries opaque: the quantizer averages the panel's
    anti-aliased rim into the panel colour, leaving it at alpha 254."""
    palette = quantized.getpalette("RGBA")
    if palette is None:
        return
    for index in range(3, len(palette), 4):
        if palette[index] >= OPAQUE_ENOUGH:
            palette[index] = 255
    quantized.putpalette(palette, "RGBA")


def join_words(words: Sequence[str], lang: Lang) -> str:
    """Join for prose in ``lang``: "A", "A and B", "A, B and C"."""
    if len(words) <= 1:
        return "".join(words)
    return tr(lang, "{names} and {last}", names=", ".join(words[:-1]), last=words[-1])


def signed(number: int) -> str:
    """The number with its sign: +5, -3, 0 (the font has no minus sign)."""
    return f"+{number}" if number > 0 else str(number)
