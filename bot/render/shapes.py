"""Shapes and sprites shared by every game's table image.

Everything here is pure and deterministic: the same arguments give the same pixels.
Sprites (chips, corner masks, shadows) are cached, so a table is mostly a handful of
``alpha_composite`` calls plus text. Shapes are drawn supersampled and scaled down,
so edges are anti-aliased.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFilter

from bot.render.palette import PALETTE, RGBA, Point

SUPERSAMPLE = 4
"""Shapes are drawn this many times larger, then scaled down (anti-aliasing)."""


class Sprite(NamedTuple):
    """An RGBA image and where its nominal top-left corner sits inside it (a sprite
    with a shadow is larger than the thing it shows)."""

    image: Image.Image
    dx: int = 0
    dy: int = 0


def place(base: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    """Composite ``sprite`` so that its nominal top-left corner lands on (x, y)."""
    base.alpha_composite(sprite.image, dest=(round(x) - sprite.dx, round(y) - sprite.dy))


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
