"""Fonts and text for the table images: every name and language drawn as written.

The fonts come from two font packages (both SIL Open Font License 1.1):
``manimgx-fonts`` (Noto Sans, the main face: Latin with every European accent, Greek,
Cyrillic; Noto Sans Arabic and Hebrew; Noto Emoji, monochrome; Noto Sans Symbols) and
``noto-cjk-sans-jp-regular`` (Noto Sans CJK: Chinese, Japanese, Korean). A text is cut
into runs of characters, each drawn in the first face whose character map has them;
Arabic and Hebrew runs are laid out right to left and shaped by Pillow's raqm layout.
A character no face has is replaced by U+FFFD, and only that character.

Bold is the variable faces' own weight axis (700); the CJK face has one weight, so it
gets a thin stroke of its own colour instead. Character maps and faces load once per
process (`load_fonts` is a render worker's initializer) and are cached after that.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any, NamedTuple

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from bot.render import audit
from bot.render.audit import Box
from bot.render.palette import PALETTE, RGBA, Point
from bot.render.shapes import Sprite, disc, draw_rounded, place
from bot.render.words import Lang, tr


class Face(IntEnum):
    """The faces in the order a character looks for one: the main face first."""

    MAIN = 0
    ARABIC = 1
    HEBREW = 2
    CJK = 3
    EMOJI = 4
    SYMBOLS = 5


FONT_FILES: dict[Face, tuple[str, str]] = {
    Face.MAIN: ("manimgx_fonts", "NotoSans[wght].ttf"),
    Face.ARABIC: ("manimgx_fonts", "NotoSansArabic[wght].ttf"),
    Face.HEBREW: ("manimgx_fonts", "NotoSansHebrew[wght].ttf"),
    Face.CJK: ("noto_cjk_sans_jp_regular", "NotoSansCJKjp-Regular.otf"),
    Face.EMOJI: ("manimgx_fonts", "NotoEmoji[wght].ttf"),
    Face.SYMBOLS: ("manimgx_fonts", "NotoSansSymbols[wght].ttf"),
}
"""(package, file) of each face."""

RIGHT_TO_LEFT = frozenset({Face.ARABIC, Face.HEBREW})
SPACED = frozenset({Face.MAIN, *RIGHT_TO_LEFT})
"""Faces whose runs keep the spaces after them (between right-to-left words, the
space is part of the right-to-left text); after another face's run a space is drawn
by the main face (an emoji face's space is as wide as an emoji)."""
BOLD_WEIGHT = 700
REPLACEMENT = "\ufffd"
"""Drawn (by the main face) in place of a character no face has."""
ELLIPSIS = "…"
MIN_TEXT_SIZE = 18
"""The smallest text on an 800-px-wide image: 9 px when Discord shows it 400 px wide
on a phone."""
MIN_CAPTION_SIZE = 22
"""The smallest caption (a number's unit, a column's heading, a card's value under
it) on an 800-px image: 11 px when Discord shows it 400 px wide on a phone."""
MINUS = "\u2212"
"""The one minus sign of the images (never a hyphen)."""


def font_path(face: Face) -> Path:
    package, name = FONT_FILES[face]
    return Path(str(files(package) / name))


@cache
def character_map(face: Face) -> frozenset[int]:
    """The code points ``face`` has a glyph for (its best cmap table)."""
    font = TTFont(font_path(face), lazy=True)
    try:
        return frozenset(font.getBestCmap())
    finally:
        font.close()


def load_fonts() -> None:
    """Read every face's character map and load the main face: run once in each render
    worker, so no table pays for it."""
    for face in Face:
        character_map(face)
    face_font(Face.MAIN, 20, False)


@cache
def _is_variable(face: Face) -> bool:
    try:
        return bool(face_font(face, 16, False).get_variation_axes())
    except OSError:
        return False


MASKS_KEPT = 4096
"""Rendered texts (glyph masks) each render process keeps, the least recently drawn
going first: the labels, numbers and names of the tables in play come back on every
image, and a mask of a few KB costs far less to keep than FreeType costs to render."""


class MaskCachingFont(ImageFont.FreeTypeFont):
    """A FreeType font that renders each text once: `getmask2` (what Pillow's
    ``ImageDraw.text`` asks for the text's coverage mask and offset) answers a text
    drawn before, with the same arguments, from a cache shared by every font of the
    process. The masks are the very ones FreeType rendered, so the pixels drawn are
    the same; ``ImageDraw`` only reads them (an ``RGBA`` mask, which Pillow changes,
    for a colour font, is never cached)."""

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: object,
        **kwargs: object,
    ) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or args:
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start,
                *args, **kwargs,
            )  # fmt: skip
        key = (
            self,
            text,
            mode,
            direction,
            None if features is None else tuple(features),
            language,
            stroke_width,
            anchor,
            ink,
            start,
            tuple(sorted(kwargs.items())),
        )
        with _MASKS_LOCK:
            found = _MASKS.get(key)
            if found is not None:
                _MASKS.move_to_end(key)
                return found
        made = super().getmask2(
            text, mode, direction, features, language, stroke_width, anchor, ink, start,
            **kwargs,
        )  # fmt: skip
        with _MASKS_LOCK:
            _MASKS[key] = made
            while len(_MASKS) > MASKS_KEPT:
                _MASKS.popitem(last=False)
        return made

    def set_variation_by_axes(self, axes: list[float]) -> None:
        _forget_masks_of(self)
        super().set_variation_by_axes(axes)

    def set_variation_by_name(self, name: str | bytes) -> None:
        _forget_masks_of(self)
        super().set_variation_by_name(name)


_MASKS: OrderedDict[tuple[object, ...], tuple[Any, tuple[int, int]]] = OrderedDict()
"""The masks kept (`MaskCachingFont`), least recently drawn first: Pillow's internal
images, typed Any here as in Pillow's own stubs."""


_MASKS_LOCK = threading.Lock()
"""Without render processes, images are drawn in threads of the bot process."""


def _forget_masks_of(font: ImageFont.FreeTypeFont) -> None:
    with _MASKS_LOCK:
        for key in [key for key in _MASKS if key[0] is font]:
            del _MASKS[key]


@lru_cache(maxsize=256)
def face_font(face: Face, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` pixels; bold through its weight axis where it has one."""
    engine = ImageFont.Layout.RAQM if face in RIGHT_TO_LEFT else ImageFont.Layout.BASIC
    font = MaskCachingFont(font_path(face), size, layout_engine=engine)
    if bold and _is_variable(face):
        font.set_variation_by_axes([BOLD_WEIGHT])
    return font


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The main face at ``size`` pixels."""
    return face_font(Face.MAIN, size, bold)


@dataclass(frozen=True)
class TextStyle:
    size: int
    fill: RGBA = PALETTE.text
    bold: bool = False
    caption: bool = False
    """A caption's style (a number's unit, a column's heading): an audit checks it is
    at least `MIN_CAPTION_SIZE` for its image's width."""

    def stroke(self, face: Face = Face.MAIN) -> float:
        """Faux bold for a face without a weight axis: a stroke of the text's own
        colour, ~3.5 % of the size."""
        if not self.bold or _is_variable(face):
            return 0.0
        return round(self.size * 0.035, 2)

    def but(self, *, fill: RGBA | None = None, size: int | None = None) -> TextStyle:
        return TextStyle(size or self.size, fill or self.fill, self.bold, self.caption)


# --- runs of characters -----------------------------------------------------------


class Run(NamedTuple):
    face: Face
    text: str


@lru_cache(maxsize=8192)
def face_for(char: str) -> Face | None:
    """The first face with a glyph for ``char``; None if no face has one."""
    code = ord(char)
    for face in Face:
        if code in character_map(face):
            return face
    return None


def uncovered(text: str) -> str:
    """The characters of ``text`` no face has a glyph for (drawn as `REPLACEMENT`);
    spaces, marks and joiners aside."""
    return "".join(
        char
        for char in text
        if not char.isspace() and not _joins_previous(char) and face_for(char) is None
    )


def _joins_previous(char: str) -> bool:
    """Marks, joiners and variation selectors belong to the character before them."""
    return unicodedata.category(char) in {"Mn", "Me", "Cf"}


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` cut into runs of one face each, in the order they are drawn left to
    right (right-to-left runs are laid out by raqm inside themselves; a sequence of
    them, spaces between, is put in reverse). Spaces stay in a `SPACED` run; a
    mark or joiner the run's face lacks is dropped; an uncovered character becomes
    `REPLACEMENT`."""
    faces: list[Face] = []
    texts: list[str] = []
    for char in text:
        if faces and char == " " and faces[-1] in SPACED:
            texts[-1] += char
            continue
        if faces and _joins_previous(char):
            if ord(char) in character_map(faces[-1]):
                texts[-1] += char
            continue
        if _joins_previous(char):
            continue
        found = face_for(char)
        face, char = (found, char) if found is not None else (Face.MAIN, REPLACEMENT)
        if faces and faces[-1] == face:
            texts[-1] += char
        else:
            faces.append(face)
            texts.append(char)
    return _visual_order([Run(f, t) for f, t in zip(faces, texts, strict=True)])


def _visual_order(logical: Sequence[Run]) -> tuple[Run, ...]:
    """Reverse each sequence of right-to-left runs (a base left-to-right line); the
    spaces trailing such a run move out of it, so they stay between the words."""
    result: list[Run] = []
    group: list[Run] = []
    for run in logical:
        if run.face in RIGHT_TO_LEFT:
            body = run.text.rstrip(" ")
            trailing = run.text[len(body) :]
            group.append(Run(run.face, body))
            if trailing:
                group.append(Run(Face.MAIN, trailing))
            continue
        if group and not run.text.strip():
            group.append(run)
            continue
        result.extend(_flush(group))
        group = []
        result.append(run)
    result.extend(_flush(group))
    return _merged(result)


def _merged(parts: list[Run]) -> tuple[Run, ...]:
    """Neighbouring left-to-right runs of one face as one run."""
    merged: list[Run] = []
    for run in parts:
        if merged and merged[-1].face == run.face and run.face not in RIGHT_TO_LEFT:
            merged[-1] = Run(run.face, merged[-1].text + run.text)
        else:
            merged.append(run)
    return tuple(merged)


def _flush(group: list[Run]) -> list[Run]:
    """A right-to-left sequence in visual order, spaces at its end kept at the end."""
    while group and not group[-1].text.strip():
        tail = group.pop()
        return [*_flush(group), tail]
    return group[::-1]


def _run_font(run: Run, style: TextStyle) -> ImageFont.FreeTypeFont:
    return face_font(run.face, style.size, style.bold)


def _direction(run: Run) -> str | None:
    return "rtl" if run.face in RIGHT_TO_LEFT else None


def _is_plain(parts: tuple[Run, ...]) -> bool:
    """One run in the main face: Pillow lays it out as usual."""
    return len(parts) == 1 and parts[0].face == Face.MAIN


def _run_width(run: Run, style: TextStyle) -> float:
    font = _run_font(run, style)
    return font.getlength(run.text, direction=_direction(run)) + 2 * style.stroke(run.face)


# --- checking what is drawn ------------------------------------------------------


def _note(image: Image.Image | None, text: str, box: Box, style: TextStyle) -> None:
    audit.note(image, text, box, size=style.size, caption=style.caption)


def _shifted(box: Box, xy: Point) -> Box:
    return (box[0] + xy[0], box[1] + xy[1], box[2] + xy[0], box[3] + xy[1])


# --- measuring and drawing ---------------------------------------------------------


@lru_cache(maxsize=4096)
def text_width(text: str, style: TextStyle) -> float:
    return sum(_run_width(run, style) for run in runs(text))


def _baseline_offset(anchor: str, style: TextStyle) -> float:
    """How far below the anchor's y the baseline is, by the main face's metrics (so
    runs of every face share one baseline)."""
    ascent, descent = font(style.size, style.bold).getmetrics()
    return {"a": ascent, "m": (ascent - descent) / 2, "s": 0.0, "d": -descent}[anchor[1]]


def _left_offset(anchor: str, width: float) -> float:
    return {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]


def _placed_runs(
    text: str, style: TextStyle, xy: Point, anchor: str
) -> list[tuple[Run, float, float]]:
    """Each run with the (x, baseline) it is drawn at (anchor "ls")."""
    parts = runs(text)
    widths = [_run_width(run, style) for run in parts]
    x = xy[0] - _left_offset(anchor, sum(widths))
    baseline = xy[1] + _baseline_offset(anchor, style)
    placed = []
    for run, width in zip(parts, widths, strict=True):
        placed.append((run, x + style.stroke(run.face), baseline))
        x += width
    return placed


@lru_cache(maxsize=4096)
def text_bbox(text: str, style: TextStyle, anchor: str = "la") -> tuple[float, float, float, float]:
    """The inked box of ``text`` drawn at (0, 0) with ``anchor``."""
    parts = runs(text)
    if _is_plain(parts):
        return font(style.size, style.bold).getbbox(parts[0].text, anchor=anchor)
    boxes = []
    for run, x, y in _placed_runs(text, style, (0.0, 0.0), anchor):
        stroke = style.stroke(run.face)
        left, top, right, bottom = _run_font(run, style).getbbox(
            run.text, anchor="ls", stroke_width=stroke, direction=_direction(run)
        )
        boxes.append((left + x, top + y, right + x, bottom + y))
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    style: TextStyle,
    anchor: str = "la",
    *,
    audited: bool = True,
) -> None:
    """Draw ``text`` with a Pillow anchor ("la" left-ascender, "lm" left-middle, ...);
    ``audited=False`` for a text inside a label that is audited as a whole."""
    if audited and audit.current() is not None:  # measured only for an open audit
        _note(
            getattr(draw, "_image", None), text, _shifted(text_bbox(text, style, anchor), xy), style
        )
    parts = runs(text)
    if _is_plain(parts):
        draw.text(
            xy, parts[0].text, font=font(style.size, style.bold), fill=style.fill, anchor=anchor
        )
        return
    for run, x, y in _placed_runs(text, style, xy, anchor):
        stroke = style.stroke(run.face)
        draw.text(
            (x, y),
            run.text,
            font=_run_font(run, style),
            fill=style.fill,
            anchor="ls",
            direction=_direction(run),
            stroke_width=stroke,
            stroke_fill=style.fill,
        )


def draw_centered(
    draw: ImageDraw.ImageDraw,
    center: Point,
    text: str,
    style: TextStyle,
    *,
    audited: bool = True,
) -> None:
    """Draw ``text`` with its inked box centred on ``center`` (exact for digits)."""
    left, top, right, bottom = text_bbox(text, style, "ls")
    x = center[0] - (left + right) / 2
    y = center[1] - (top + bottom) / 2
    draw_text(draw, (round(x), round(y)), text, style, anchor="ls", audited=audited)


@lru_cache(maxsize=512)
def text_sprite(text: str, style: TextStyle, anchor: str = "la") -> Sprite:
    """``text`` drawn once on a transparent canvas (cached): its (dx, dy) is the
    anchor point, as in `draw_text`. Labels that recur on every table (captions,
    counts, names) then cost a composite instead of a FreeType render."""
    left, top, right, bottom = text_bbox(text, style, anchor)
    dx, dy = 1 - math.floor(left), 1 - math.floor(top)
    size = (max(1, math.ceil(right) + dx + 1), max(1, math.ceil(bottom) + dy + 1))
    # Transparent in the text's own colour, so anti-aliased edges keep that colour.
    image = Image.new("RGBA", size, (*style.fill[:3], 0))
    draw_text(ImageDraw.Draw(image), (dx, dy), text, style, anchor, audited=False)
    return Sprite(image, dx, dy)


def stamp_text(
    base: Image.Image, xy: Point, text: str, style: TextStyle, anchor: str = "la"
) -> None:
    """Like `draw_text` (position rounded to whole pixels), through `text_sprite`."""
    if text:
        at = (round(xy[0]), round(xy[1]))
        if audit.current() is not None:
            _note(base, text, _shifted(text_bbox(text, style, anchor), at), style)
        place(base, text_sprite(text, style, anchor), xy[0], xy[1], audited=False)


# --- labels ----------------------------------------------------------------------


def badge(
    base: Image.Image,
    center: Point,
    radius: int,
    text: str,
    fill: RGBA,
    ink: RGBA,
    *,
    overlay: bool = False,
) -> None:
    """A filled disc with short ``text`` (e.g. a place "1") in its middle, the text no
    smaller than `MIN_TEXT_SIZE`; an ``overlay`` badge is meant to sit on the cards
    under it (an audit notes it like a sprite)."""
    x, y = round(center[0]), round(center[1])
    base.alpha_composite(disc(radius, fill), dest=(x - radius, y - radius))
    style = TextStyle(max(MIN_TEXT_SIZE, round(radius * 1.15)), ink, bold=True)
    box = (x - radius, y - radius, x + radius, y + radius)
    audit.note(base, text, box, shape=overlay, size=style.size, caption=style.caption)
    draw_centered(ImageDraw.Draw(base), (x, y), text, style, audited=False)


def pill(
    base: Image.Image,
    xy: Point,
    text: str,
    style: TextStyle,
    fill: RGBA,
    pad_x: int = 8,
    *,
    overlay: bool = False,
) -> int:
    """A rounded label with ``text``, its left edge at x and vertically centred on y;
    returns its width. An ``overlay`` label is meant to sit on the cards under it (an
    audit notes it like a sprite)."""
    height = round(style.size * 1.45)
    width = round(text_width(text, style)) + 2 * pad_x
    left, top = round(xy[0]), round(xy[1] - height / 2)
    draw_rounded(base, (left, top, left + width, top + height), height // 2, fill)
    box = (left, top, left + width, top + height)
    audit.note(base, text, box, shape=overlay, size=style.size, caption=style.caption)
    centre = (left + width / 2, top + height / 2)
    draw_centered(ImageDraw.Draw(base), centre, text, style, audited=False)
    return width


# --- fitting -----------------------------------------------------------------------


def fit_text(text: str, style: TextStyle, max_width: float) -> str:
    """``text`` cut (with an ellipsis) to the longest prefix that fits ``max_width``;
    a cut never splits a letter from its marks. A text whose whole matters (a score,
    a count, a state, a label) should never need the cut: an open
    `bot.render.audit.auditing_text` notes every cut made here. A name is cut by `cut_name`."""
    fitted = cut_name(text, style, max_width)
    checking = audit.current()
    if checking is not None and fitted != text:
        checking.cuts.append((text, fitted))
    return fitted


def cut_name(text: str, style: TextStyle, max_width: float) -> str:
    """A player's name (or a line whose cut loses only a name) cut like `fit_text`,
    which is allowed: a long name may end in an ellipsis."""
    if text_width(text, style) <= max_width:
        return text
    stops = [k for k in range(1, len(text)) if not _joins_previous(text[k])]
    low, high = 0, len(stops)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[: stops[mid - 1]].rstrip() + ELLIPSIS, style) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[: stops[low - 1]].rstrip() + ELLIPSIS if low else ELLIPSIS


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


def fit_lines(
    text: str, style: TextStyle, max_width: float, max_lines: int, min_size: int = MIN_TEXT_SIZE
) -> tuple[list[str], TextStyle]:
    """``text`` whole on as few lines as it can: on one line at ``style``'s size or
    smaller (down to ``min_size``), else broken at spaces into at most ``max_lines``
    lines at ``min_size`` (cut by `wrap_text` only if even those are too few)."""
    fitted = shrink_to_fit(text, style, max_width, min(min_size, style.size))
    if text_width(text, fitted) <= max_width or max_lines == 1:
        return [fit_text(text, fitted, max_width)], fitted
    return wrap_text(text, fitted, max_width, max_lines), fitted


def _is_symbol(word: str) -> bool:
    """A word of symbols only (an emoji: the 🤖 of a computer's name)."""
    return all(unicodedata.category(char) in {"So", "Sk", "Mn", "Cf"} for char in word)


def _words(text: str) -> list[str]:
    """``text``'s words, a word of symbols kept with the word after it ("🤖 Easy")."""
    words: list[str] = []
    glue = False
    for word in text.split():
        if glue:
            words[-1] += f" {word}"
        else:
            words.append(word)
        glue = _is_symbol(word)
    return words


def whole_lines(text: str, style: TextStyle, max_width: float) -> list[str] | None:
    """``text`` broken at spaces into lines no wider than ``max_width``, every word
    whole (an emoji stays with the word after it); None when a word alone is too wide
    (then it can't be drawn whole)."""
    lines: list[str] = []
    for word in _words(text):
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(trial, style) <= max_width:
            lines[-1] = trial
        elif text_width(word, style) <= max_width:
            lines.append(word)
        else:
            return None
    return lines


def fit_names(
    build: Callable[[Sequence[str]], str],
    names: Sequence[str],
    style: TextStyle,
    max_width: float,
    max_lines: int = 1,
    min_size: int | None = None,
) -> tuple[list[str], TextStyle]:
    """The line ``build(names)`` makes ("Alice, Bob and Dana win", "Dana to act") on at
    most ``max_lines`` lines of ``max_width``, every word whole: at ``style``'s size or
    smaller, down to ``min_size`` (default: no smaller); where even that is too little,
    the longest names are cut (`cut_name`), never the words around them. Only a line
    that no cut of its names can fit is cut (and noted by an open audit)."""
    smallest = style.size if min_size is None else min(min_size, style.size)
    for size in range(style.size, smallest - 1, -1):
        sized = style.but(size=size)
        lines = whole_lines(build(names), sized, max_width)
        if lines is not None and len(lines) <= max_lines:
            return lines, sized
    sized = style.but(size=smallest)

    def cut_to(room: float) -> list[str] | None:
        text = build([cut_name(name, sized, room) for name in names])
        lines = whole_lines(text, sized, max_width)
        return lines if lines is not None and len(lines) <= max_lines else None

    low, high = 0, math.ceil(max_width)  # the widest room a name may keep, in px
    best: list[str] | None = None
    while low < high:
        middle = (low + high + 1) // 2
        fitted = cut_to(middle)
        if fitted is not None:
            low, best = middle, fitted
        else:
            high = middle - 1
    if best is None:
        best = cut_to(0)
    if best is not None:
        return best, sized
    return wrap_text(build(names), sized, max_width, max_lines), sized


def fit_name(template: str, name: str, style: TextStyle, max_width: float) -> str:
    """``template`` with ``name`` put in for its "{}", the name cut short (never the
    rest of the line) so that the whole line fits ``max_width``: "Waiting for Jo…: Go"."""
    room = max_width - text_width(template.replace("{}", ""), style)
    line = template.replace("{}", cut_name(name, style, max(room, 0.0)))
    checking = audit.current()
    if checking is not None and text_width(line, style) > max_width:
        checking.cuts.append((line, "(wider than its room)"))
    return line


# --- names and words ---------------------------------------------------------------


def clean_name(text: str) -> str:
    """A name as drawn: line breaks, tabs and other control characters become spaces,
    runs of spaces one space."""
    spaced = "".join(
        " " if unicodedata.category(ch) in {"Cc", "Zs", "Zl", "Zp"} else ch for ch in text
    )
    return " ".join(spaced.split())


def display_name(player: str, names: Mapping[str, str], seat: int, lang: Lang) -> str:
    """The name to print for ``player``: ``names[player]`` as written (else the id);
    "Player <seat + 1>" in ``lang`` only if it is blank."""
    cleaned = clean_name(names.get(player, player))
    return cleaned or tr(lang, "Player {n}", n=seat + 1)


def seat_name(player: str, players: Sequence[str], names: Mapping[str, str], lang: Lang) -> str:
    """`display_name` of ``player`` at its seat among ``players`` (in seat order)."""
    seat = players.index(player) if player in players else 0
    return display_name(player, names, seat, lang)


def join_words(words: Sequence[str], lang: Lang) -> str:
    """Join for prose in ``lang``: "A", "A and B", "A, B and C"."""
    if len(words) <= 1:
        return "".join(words)
    return tr(lang, "{names} and {last}", names=", ".join(words[:-1]), last=words[-1])


def number_text(number: int) -> str:
    """The number as drawn: a negative one with a true minus (−3), never a hyphen."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def signed(number: int) -> str:
    """The number with its sign: +5, −3 (a true minus), 0."""
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"
