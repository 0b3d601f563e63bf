"""The colours and coordinate types every table image uses.

Every image is an opaque rounded panel on a transparent background, in colours that
read on both Discord's dark (#313338) and light (#ffffff) themes.
"""

from __future__ import annotations

from dataclasses import dataclass

RGBA = tuple[int, int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Palette:
    """Colours for every game: a felt-green table with warm card stock."""

    panel: RGBA = (24, 66, 51, 255)
    panel_edge: RGBA = (16, 46, 36, 255)
    lane: RGBA = (32, 83, 65, 255)
    lane_active: RGBA = (38, 92, 72, 255)
    text: RGBA = (246, 242, 232, 255)
    muted: RGBA = (184, 212, 199, 255)
    faint: RGBA = (150, 186, 170, 255)
    accent: RGBA = (246, 200, 92, 255)
    """The player to act, the winner: gold."""
    accent_ink: RGBA = (52, 38, 6, 255)
    card: RGBA = (253, 249, 239, 255)
    card_muted: RGBA = (226, 230, 222, 255)
    card_edge: RGBA = (196, 184, 156, 255)
    ink: RGBA = (31, 42, 54, 255)
    red_ink: RGBA = (176, 30, 30, 255)
    back: RGBA = (128, 36, 52, 255)
    back_pattern: RGBA = (160, 62, 78, 255)
    chip: RGBA = (209, 58, 52, 255)
    chip_stripe: RGBA = (250, 244, 232, 255)
    shadow: RGBA = (0, 0, 0, 110)
    silver: RGBA = (206, 213, 219, 255)
    bronze: RGBA = (226, 166, 120, 255)


PALETTE = Palette()


def place_colour(place: int) -> RGBA:
    """A place badge's colour: gold, silver, bronze, then a plain muted green."""
    return {1: PALETTE.accent, 2: PALETTE.silver, 3: PALETTE.bronze}.get(place, PALETTE.faint)
