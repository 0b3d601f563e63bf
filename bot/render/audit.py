"""A check of what an image draws: while `auditing_text` is open, every text cut short
that is not a name (`bot.render.text.fit_text`), and every text, label and sprite box
on the image it was drawn on, with each text's font size, so a test can find texts
that overlap each other or a card, that run off their image, or that are too small to
read on a phone. Nothing is noted outside the block."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from PIL import Image

Box = tuple[float, float, float, float]
SHAPE_SLACK = 3.0
"""A sprite's box includes its soft shadow: it overlaps a text only by more than this."""


@dataclass(frozen=True)
class Drawn:
    text: str
    """The text drawn, or a sprite's description."""
    box: Box
    shape: bool = False
    size: float = 0.0
    """The text's font size in px (0 for a sprite)."""
    caption: bool = False
    """Drawn in a caption's style (`bot.render.text.TextStyle.caption`)."""


@dataclass
class TextAudit:
    cuts: list[tuple[str, str]] = field(default_factory=list)
    """(the whole text, what was drawn of it)."""
    drawn: dict[int, tuple[Image.Image, list[Drawn]]] = field(default_factory=dict)

    def note(self, image: Image.Image, drawn: Drawn) -> None:
        self.drawn.setdefault(id(image), (image, []))[1].append(drawn)

    def texts(self) -> list[str]:
        return [d.text for _, items in self.drawn.values() for d in items if not d.shape]

    def overlaps(self, slack: float = 1.0) -> list[tuple[str, str]]:
        """Pairs of a text and a text or sprite whose boxes on one image overlap by
        more than ``slack`` px both ways (`SHAPE_SLACK` for a sprite); sprites may
        overlap each other (a fan of cards)."""
        found = []
        for _, items in self.drawn.values():
            for k, a in enumerate(items):
                for b in items[k + 1 :]:
                    if a.shape and b.shape:
                        continue
                    margin = SHAPE_SLACK if a.shape or b.shape else slack
                    wide = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
                    high = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
                    if wide > margin and high > margin:
                        found.append((a.text, b.text))
        return found

    def too_small(
        self, width: int, text_px: float, caption_px: float, shown_at: int = 400
    ) -> list[tuple[str, float]]:
        """(text, px) of the texts smaller than ``text_px`` (a caption: ``caption_px``)
        when an image ``width`` px wide is shown ``shown_at`` px wide (a phone): sizes
        are relative to the image's width, so a wider image needs larger text."""
        scale = shown_at / width
        return [
            (d.text, round(d.size * scale, 2))
            for _, items in self.drawn.values()
            for d in items
            if d.size and d.size * scale < (caption_px if d.caption else text_px) - 1e-9
        ]

    def outside(self, slack: float = 1.0) -> list[str]:
        """Texts that run off the image they are drawn on."""
        found = []
        for image, items in self.drawn.values():
            width, height = image.size
            for d in items:
                left, top, right, bottom = d.box
                off = left < -slack or top < -slack
                if not d.shape and (off or right > width + slack or bottom > height + slack):
                    found.append(d.text)
        return found


_AUDIT: ContextVar[TextAudit | None] = ContextVar("text_audit", default=None)


@contextmanager
def auditing_text() -> Iterator[TextAudit]:
    """Collect a `TextAudit` of everything drawn inside the block (in this thread)."""
    audit = TextAudit()
    token = _AUDIT.set(audit)
    try:
        yield audit
    finally:
        _AUDIT.reset(token)


def current() -> TextAudit | None:
    return _AUDIT.get()


def note(
    image: Image.Image | None,
    text: str,
    box: Box,
    *,
    shape: bool = False,
    size: float = 0.0,
    caption: bool = False,
) -> None:
    """Note ``text`` (or a sprite) drawn in ``box`` on ``image`` at font ``size`` (a
    ``caption`` or not), if an audit is open."""
    audit = _AUDIT.get()
    if audit is not None and image is not None and text.strip():
        audit.note(image, Drawn(text, box, shape, size, caption))
