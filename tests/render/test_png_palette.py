"""The one palette of every image (`bot.render.output`): made from the images of
`bench.png_palette`, it must keep the golden scenes' images (other states, every
language, hard names) as close to their drawn colours as a palette of their own would.

When these fail after a change of colours, run ``python -m bench.png_palette``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from bench.render import Encode, wrapping_to_png
from bot.render.output import RIM_STEP, to_png
from bot.render.palette import PALETTE
from tests.render.golden_scenes import GoldenScene, all_scenes

MAX_MEAN_ERROR = 1.0
"""The mean of a pixel's largest channel error, over an image's opaque pixels (each
image having a palette of its own, by Pillow's fast octree, gives 0.5 to 2.4)."""
MAX_ERROR = 32
"""No opaque pixel's channel is further off (a palette of its own: up to 31)."""


def drawn_and_encoded(render: Callable[[], bytes | None]) -> tuple[Image.Image, Image.Image]:
    """The image a renderer drew (before encoding) and its PNG decoded, both RGBA."""
    drawn: list[Image.Image] = []

    def keep(original: Encode) -> Encode:
        def run(image: Image.Image, *args: Any, **kwargs: Any) -> bytes:
            drawn.append(image.convert("RGBA"))
            return original(image, *args, **kwargs)

        return run

    with wrapping_to_png(keep):
        png = render()
    assert png is not None and len(drawn) == 1
    with Image.open(io.BytesIO(png)) as decoded:
        return drawn[0], decoded.convert("RGBA")


def colour_errors(expected: Image.Image, actual: Image.Image) -> list[int]:
    """The histogram of each opaque pixel's largest channel error."""
    difference = ImageChops.difference(expected.convert("RGB"), actual.convert("RGB"))
    worst = ImageChops.lighter(difference.getchannel("R"), difference.getchannel("G"))
    worst = ImageChops.lighter(worst, difference.getchannel("B"))
    opaque = expected.getchannel("A").point([0] * 255 + [255])
    return worst.histogram(mask=opaque)


def mean_and_max(histogram: list[int]) -> tuple[float, int]:
    pixels = sum(histogram)
    mean = sum(error * count for error, count in enumerate(histogram)) / pixels
    return mean, max(error for error, count in enumerate(histogram) if count)


SCENES = all_scenes()


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.name)
def test_an_image_keeps_its_drawn_colours_and_its_transparency(scene: GoldenScene) -> None:
    """Its opaque pixels close to their drawn colours; its alpha kept, the rounded
    panel's anti-aliased rim (the only pixels neither opaque nor transparent) being the
    edge colour, as the rim's entries assume."""
    drawn, encoded = drawn_and_encoded(scene.render)
    mean, worst = mean_and_max(colour_errors(drawn, encoded))
    assert mean <= MAX_MEAN_ERROR
    assert worst <= MAX_ERROR
    alpha_errors = ImageChops.difference(drawn.getchannel("A"), encoded.getchannel("A"))
    assert max(k for k, n in enumerate(alpha_errors.histogram()) if n) <= RIM_STEP // 2
    assert encoded.getpixel((0, 0)) == (*PALETTE.panel_edge[:3], 0)
    colours = drawn.getcolors(drawn.width * drawn.height) or []
    rim_colours = {
        colour[:3] for _, colour in colours if isinstance(colour, tuple) and 0 < colour[3] < 255
    }
    assert rim_colours == {PALETTE.panel_edge[:3]}


def test_a_colour_the_palette_was_not_made_for_is_seen() -> None:
    """The colour check can fail: a magenta the games never draw is far from every entry."""
    magenta = Image.new("RGBA", (40, 20), (255, 0, 255, 255))
    encoded = Image.open(io.BytesIO(to_png(magenta))).convert("RGBA")
    mean, worst = mean_and_max(colour_errors(magenta, encoded))
    assert mean > MAX_MEAN_ERROR
    assert worst > MAX_ERROR
