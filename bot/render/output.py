"""Images out: a table image as a small PNG."""

from __future__ import annotations

import io

from PIL import Image

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
