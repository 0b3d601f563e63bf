"""Helpers the render tests share: a PNG checked and decoded, and whether two PNGs
show different pixels."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(png: bytes) -> Image.Image:
    """Check ``png`` is a well-formed PNG and return it decoded (RGBA)."""
    assert png.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(png)) as probe:
        probe.verify()
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.convert("RGBA")


def pixels_differ(a: bytes, b: bytes) -> bool:
    """Whether the two PNGs differ in size or in any pixel."""
    first, second = decode(a), decode(b)
    if first.size != second.size:
        return True
    return ImageChops.difference(first, second).getbbox(alpha_only=False) is not None
