"""Shapes and sprites shared by every game's table image.

Everything here is pure and deterministic: the same arguments give the same pixels.
Sprites (chips, corner masks, shadows) are cached, so a table is mostly a handful of
``alpha_composite`` calls plus text. Shapes are drawn supersampled and scaled down,
so edges are anti-aliased.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFilter

from bot.render import audit
from bot.render.palette import PALETTE, RGBA

SUPERSAMPLE = 4
"""Shapes are drawn this many times larger, then scaled down (anti-aliasing)."""


class Sprite(NamedTuple):
    """An RGBA image and where its nominal top-left corner sits inside it (a sprite
    with a shadow is larger than the thing it shows)."""

    image: Image.Image
    dx: int = 0
    dy: int = 0


def place(base: Image.Image, sprite: Sprite, x: float, y: float, *, audited: bool = True) -> None:
    """Composite ``sprite`` so that its nominal top-left corner lands on (x, y)
    (noted for an open `bot.render.audit.auditing_text`, unless a text that is noted
    as such)."""
    left, top = round(x) - sprite.dx, round(y) - sprite.dy
    if audited:
        width, height = sprite.image.size
        box = (left, top, left + width, top + height)
        audit.note(base, f"sprite {width}x{height} at ({left}, {top})", box, shape=True)
    base.alpha_composite(sprite.image, dest=(left, top))


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
    outside its corners (a copy of the one drawn once per size: draw on it freely)."""
    return _panel(width, height, radius).copy()


@lru_cache(maxsize=64)
def _panel(width: int, height: int, radius: int) -> Image.Image:
    """The empty panel of this size (cached: copy it before drawing on it)."""
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


def faded(sprite: Sprite, opacity: float) -> Sprite:
    """``sprite`` with its alpha scaled by ``opacity`` (0–1) (a new sprite each call:
    cache the result where the same one is faded again and again)."""
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


@lru_cache(maxsize=32)
def triangle(size: int, fill: RGBA) -> Image.Image:
    """A right-pointing triangle ``size`` pixels tall (a "to act" marker)."""
    image, draw = supersampled(size, size)
    full = size * SUPERSAMPLE - 1
    draw.polygon([(full * 0.1, 0), (full * 0.95, full / 2), (full * 0.1, full)], fill=fill)
    return downsample(image)


@lru_cache(maxsize=64)
def ring(radius: int, width: float, fill: RGBA) -> Image.Image:
    """An anti-aliased circle outline ``width`` pixels thick, its outer edge touching
    the sides of a ``2 * radius`` pixel square (a highlight around a round piece)."""
    image, draw = supersampled(2 * radius, 2 * radius)
    full = 2 * radius * SUPERSAMPLE - 1
    draw.ellipse((0, 0, full, full), outline=fill, width=max(1, round(width * SUPERSAMPLE)))
    return downsample(image)
