"""Where table images are drawn: in worker processes, off the bot's event loop and GIL.

Drawing holds Python's global lock for most of its ~10 ms; done in threads of the bot
process it slows every other interaction in flight. A small process pool (`bot.workers`)
keeps the event loop free to acknowledge clicks. With ``processes=0`` images are drawn
in a thread of the bot process instead (simpler, for tiny deployments).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bot.metrics import RENDER_SECONDS
from bot.render.text import load_fonts
from bot.workers import Workers

T = TypeVar("T")


class RenderWorkers(Workers):
    """Runs pure drawing functions in a process pool (or a thread when there's none);
    each worker loads the fonts as it starts (their character maps take ~0.2 s to
    read, once, before the first table)."""

    def __init__(self, processes: int) -> None:
        super().__init__(processes, "render", start=load_fonts)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` off the event loop; its arguments and result must pickle."""
        with RENDER_SECONDS.labels(drawing=getattr(work, "__qualname__", "draw")).time():
            return await super().run(work, *args)
