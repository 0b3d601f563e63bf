"""Images out: a table image as a small PNG, in one palette made for every image.

Every image is drawn in the colours of `bot.render.palette` and their anti-aliased
blends, so one palette made from the images themselves (`bot.render.png_palette`, made
by ``python -m bench.png_palette``) serves them all. Mapping an image onto it costs a
fifth of finding each image a palette of its own, and on the games' images it is as
close to the drawn colours (`tests/render/test_png_palette.py` holds it to that).

The only pixels that aren't opaque are outside the rounded panel (transparent) and on
its anti-aliased rim, which is the panel's edge colour: `RIM_LEVELS` entries of that
colour, at graded alpha, draw both.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.render.palette import PALETTE
from bot.render.png_palette import COLOURS

RIM_LEVELS = 16
"""Entries for the rim, one for each sixteenth of alpha: level 0 is transparent, level
k has alpha 16k + 8."""
OPAQUE_COLOURS = 256 - RIM_LEVELS
RIM_STEP = 256 // RIM_LEVELS
if len(COLOURS) != 3 * OPAQUE_COLOURS:
    raise ValueError("bot/render/png_palette.py is out of date: run python -m bench.png_palette")


def _mapping_palette() -> Image.Image:
    """The opaque colours as a palette image, for `Image.quantize` to map onto."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(COLOURS, "RGB")
    return palette


def _rgba_palette() -> list[int]:
    """Every entry, as RGBA: the opaque colours, then the rim's levels."""
    entries: list[int] = []
    for k in range(OPAQUE_COLOURS):
        entries += [*COLOURS[3 * k : 3 * k + 3], 255]
    for level in range(RIM_LEVELS):
        entries += [*PALETTE.panel_edge[:3], level * RIM_STEP + RIM_STEP // 2 if level else 0]
    return entries


MAPPING = _mapping_palette()
RGBA_ENTRIES = _rgba_palette()
RIM_ENTRY = [OPAQUE_COLOURS + alpha // RIM_STEP if alpha < 255 else 0 for alpha in range(256)]
"""An alpha's rim entry, or 0 for an opaque pixel: above every opaque colour's entry, so
the larger of a pixel's two entries is its own."""


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as a palette PNG (no dithering, so flat colours and text edges
    stay clean), its transparency kept."""
    rgba = image.convert("RGBA") if image.mode != "RGBA" else image
    indexed = rgba.convert("RGB").quantize(palette=MAPPING, dither=Image.Dither.NONE)
    alpha = rgba.getchannel("A")
    if alpha.getextrema() != (255, 255):
        indexed = ImageChops.lighter(indexed, alpha.point(RIM_ENTRY))
    indexed.putpalette(RGBA_ENTRIES, "RGBA")
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
