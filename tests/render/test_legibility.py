"""Legible on a phone: every text at least ~9 px tall when Discord shows the image
400 px wide, and every text/background pair at WCAG AA contrast (4.5:1), computed
from the palette and the renderers' layout constants and source."""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import pytest

from bot.render import cards, draughts, escalation, geschenkt, give_and_take, take
from bot.render.palette import PALETTE, RGBA
from bot.render.text import MIN_CAPTION_SIZE, MIN_TEXT_SIZE, TextStyle

RENDERERS = [draughts, escalation, geschenkt, give_and_take, take]
PREVIEW_WIDTH = 400
"""About how wide Discord shows an image on a phone."""
MIN_PREVIEW_PX = 9.0
WCAG_AA = 4.5

FACE_DOWN_ONLY = {"take.TINY_CARD"}
"""Card sizes only ever drawn face down (a hand's backs): they carry no text."""

TABLE_SURFACES = [PALETTE.panel, PALETTE.panel_edge, PALETTE.lane, PALETTE.lane_active]
TABLE_INKS = [PALETTE.text, PALETTE.muted, PALETTE.accent, PALETTE.silver]
CARD_FACES = [PALETTE.card, PALETTE.card_muted, cards.JOKER_FACE]
CARD_INKS = [PALETTE.ink, PALETTE.red_ink, cards.JOKER_INK]
NUMBER_INKS = sorted({geschenkt.card_ink(value) for value in range(3, 36)})
"""Geschenkt's number colours, on face-up and out-of-play cards."""
LABELS: list[tuple[RGBA, RGBA]] = [
    # (ink, fill) of tags, pills and badges
    (PALETTE.accent_ink, PALETTE.accent),
    (PALETTE.accent_ink, PALETTE.silver),
    (PALETTE.accent_ink, PALETTE.bronze),
    (PALETTE.accent_ink, PALETTE.muted),
    (PALETTE.accent_ink, PALETTE.faint),
    (PALETTE.panel, PALETTE.faint),
    (PALETTE.ink, PALETTE.text),
    (PALETTE.ink, PALETTE.accent),
    (PALETTE.text, PALETTE.red_ink),
    (draughts.WARNING_INK, draughts.WARNING),
    (draughts.RIM_INK, draughts.RIM),
]
PAIRS = [
    *((ink, ground) for ink in TABLE_INKS for ground in TABLE_SURFACES),
    *((ink, ground) for ink in CARD_INKS for ground in CARD_FACES),
    *((ink, ground) for ink in NUMBER_INKS for ground in (PALETTE.card, PALETTE.card_muted)),
    *LABELS,
]


def luminance(colour: RGBA) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(channel) for channel in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGBA, b: RGBA) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def styles(module: ModuleType) -> dict[str, TextStyle]:
    return {name: v for name, v in vars(module).items() if isinstance(v, TextStyle)}


def card_sizes(module: ModuleType) -> dict[str, cards.CardSize]:
    return {
        f"{module.__name__.rsplit('.', 1)[-1]}.{name}": value
        for name, value in vars(module).items()
        if isinstance(value, cards.CardSize)
    }


def literal_sizes(module: ModuleType) -> list[tuple[int, int]]:
    """(line, size) of every literal text size in the module's source:
    ``TextStyle(14, ...)`` and ``style.but(size=14)``."""
    found = []
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func
        name = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", "")
        sizes = [kw.value for kw in node.keywords if kw.arg == "size"]
        if name == "TextStyle" and node.args:
            sizes.append(node.args[0])
        if name in {"TextStyle", "but"}:
            found += [
                (node.lineno, size.value)
                for size in sizes
                if isinstance(size, ast.Constant) and isinstance(size.value, int)
            ]
    return found


def preview_px(size: float, width: int) -> float:
    return size * PREVIEW_WIDTH / width


def test_contrast_is_computed_as_wcag_says() -> None:
    assert contrast((0, 0, 0, 255), (255, 255, 255, 255)) == pytest.approx(21.0)
    assert contrast((119, 119, 119, 255), (255, 255, 255, 255)) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize(("ink", "ground"), PAIRS)
def test_every_text_and_background_pair_meets_wcag_aa(ink: RGBA, ground: RGBA) -> None:
    assert contrast(ink, ground) >= WCAG_AA, f"{ink} on {ground}: {contrast(ink, ground):.2f}"


@pytest.mark.parametrize("module", RENDERERS, ids=lambda m: m.__name__)
def test_every_text_colour_is_a_checked_ink(module: ModuleType) -> None:
    inks = {ink for ink, _ in PAIRS}
    unchecked = {name: s.fill for name, s in styles(module).items() if s.fill not in inks}
    assert unchecked == {}


@pytest.mark.parametrize("module", RENDERERS, ids=lambda m: m.__name__)
def test_every_text_style_is_legible_at_400_px(module: ModuleType) -> None:
    width = module.WIDTH
    small = {
        name: style.size
        for name, style in styles(module).items()
        if preview_px(style.size, width) < MIN_PREVIEW_PX
    }
    assert small == {}
    literal = [(line, size) for line, size in literal_sizes(module) if size < MIN_TEXT_SIZE]
    assert literal == []


@pytest.mark.parametrize("module", [cards, *RENDERERS], ids=lambda m: m.__name__)
def test_card_numbers_and_corners_are_legible_at_400_px(module: ModuleType) -> None:
    width = getattr(module, "WIDTH", 800)
    small = {
        name: (size.number, size.corner)
        for name, size in card_sizes(module).items()
        if name not in FACE_DOWN_ONLY
        and preview_px(min(size.number, size.corner), width) < MIN_PREVIEW_PX
    }
    assert small == {}


def test_the_floor_is_nine_pixels_at_400() -> None:
    assert preview_px(MIN_TEXT_SIZE, 800) >= MIN_PREVIEW_PX
    assert preview_px(MIN_TEXT_SIZE - 1, 800) < MIN_PREVIEW_PX


@pytest.mark.parametrize("module", RENDERERS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_captions_are_at_least_the_caption_size(module: ModuleType) -> None:
    """A caption (a number's unit, "card points", "penalty") is the text read last on
    a phone: no smaller than `MIN_CAPTION_SIZE` (22 px, 11 px at 400) on the 800-px
    image, and marked as a caption, so an audit checks it where it is drawn
    (`tests/render/test_fit_sweep.py`)."""
    captions = {name: style for name, style in styles(module).items() if "CAPTION" in name}
    assert all(style.caption for style in captions.values()), captions
    assert all(preview_px(style.size, module.WIDTH) >= 11 for style in captions.values())
    marked = {name: style for name, style in styles(module).items() if style.caption}
    assert all(style.size >= MIN_CAPTION_SIZE for style in marked.values()), marked
