"""Golden images: each fixed scene of `golden_scenes`, drawn now, against the PNG kept
in tests/render/golden/, compared as decoded pixels with a small tolerance (so a new
Pillow or zlib that encodes the same pixels differently still passes).

A change of look is a reviewed diff: run ``UPDATE_GOLDEN=1 python -m pytest
tests/render/test_golden.py`` to write the new images, look at them, commit them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.games import GAMES
from bot.render.audit import auditing_text
from bot.render.text import MIN_CAPTION_SIZE, MIN_TEXT_SIZE, TextStyle, draw_text
from tests.render.golden_scenes import LANGS, SCENES_BY_GAME, GoldenScene, all_scenes
from tests.render.images import decode

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CHANNEL_TOLERANCE = 32
"""A pixel differs when one of its channels is off by more than this (of 255)."""
MAX_DIFFERING_PIXELS = 8
"""At most this many pixels may differ (a glyph's edge after a FreeType update); one
changed digit differs in dozens."""
MAX_BYTES = 150_000

SCENES = all_scenes()


def differing_pixels(expected: Image.Image, actual: Image.Image) -> int:
    """How many pixels have a channel off by more than `CHANNEL_TOLERANCE`."""
    difference = ImageChops.difference(expected, actual)
    worst = difference.getchannel("R")
    for band in "GBA":
        worst = ImageChops.lighter(worst, difference.getchannel(band))
    histogram = worst.histogram()
    return sum(histogram[CHANNEL_TOLERANCE + 1 :])


def test_a_changed_number_is_a_difference() -> None:
    golden = decode((GOLDEN / "take-middle.png").read_bytes())
    changed = golden.copy()
    draw_text(ImageDraw.Draw(changed), (400, 40), "7", TextStyle(20))
    assert differing_pixels(golden, golden) == 0
    assert differing_pixels(golden, changed) > MAX_DIFFERING_PIXELS


def test_every_registered_game_has_scenes() -> None:
    assert {spec.name for spec in GAMES} <= set(SCENES_BY_GAME)
    assert set(SCENES_BY_GAME) <= {spec.name for spec in GAMES}


def test_the_scenes_cover_every_game_in_every_language_and_hard_names() -> None:
    names = {scene.name for scene in SCENES}
    suffixes = ["", *(f"-{'pseudo' if lang.startswith('en') else lang}" for lang in LANGS)]
    for spec in GAMES:
        game = spec.name
        assert f"{game}-hard-names" in names
        for suffix in suffixes:
            assert {f"{game}-middle{suffix}", f"{game}-end{suffix}"} <= names


NEGATIVE = re.compile(r"(?<![\w])-\d")
"""A hyphen-minus before a number: the images write a negative number with U+2212."""


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.name)
def test_no_text_is_cut_or_overlapped(scene: GoldenScene) -> None:
    """Every text whose whole matters is drawn whole (only names may end in an
    ellipsis), no two texts or labels overlap, none runs off the image or is too small
    for a phone, and every negative number has a true minus."""
    with auditing_text() as audit:
        png = scene.render()
    assert png is not None
    assert audit.cuts == []
    assert audit.overlaps() == []
    assert audit.outside() == []
    assert audit.too_small(decode(png).width, MIN_TEXT_SIZE / 2, MIN_CAPTION_SIZE / 2) == []
    assert [text for text in audit.texts() if NEGATIVE.search(text)] == []


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.name)
def test_image_matches_its_golden_image(scene: GoldenScene) -> None:
    png = scene.render()
    assert png is not None
    assert len(png) < MAX_BYTES
    path = GOLDEN / f"{scene.name}.png"
    if UPDATE:
        path.write_bytes(png)
    assert path.exists(), f"no golden image {path.name}: run with UPDATE_GOLDEN=1"
    expected, actual = decode(path.read_bytes()), decode(png)
    assert actual.size == expected.size
    assert differing_pixels(expected, actual) <= MAX_DIFFERING_PIXELS, (
        f"{scene.name} looks different from {path.name}; if that is intended, "
        "run with UPDATE_GOLDEN=1 and review the new image"
    )
