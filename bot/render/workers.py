"""Where table images are drawn: in worker processes, off the bot's event loop and GIL.

Drawing holds Python's global lock for most of its ~10 ms; done in threads of the bot
process it slows every other interaction in flight. A small process pool (`bot.workers`)
keeps the event loop free to acknowledge clicks. With ``processes=0`` images are drawn
in a thread of the bot process instead (simpler, for tiny deployments).

A drawing function whose whole body is ``return None`` (a game's default "no private
image") draws nothing: it is answered at once, in place, without the round trip to a
worker (pickling its arguments there, its None back), and isn't counted as a drawing.
"""

from __future__ import annotations

import dis
import types
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar, cast

from bot.metrics import RENDER_SECONDS
from bot.render.text import load_fonts
from bot.workers import Workers

T = TypeVar("T")
_NOTHING = frozenset({"RESUME", "NOP", "CACHE"})
"""Instructions that do nothing (besides the ``return None`` itself)."""


class RenderWorkers(Workers):
    """Runs pure drawing functions in a process pool (or a thread when there's none);
    each worker loads the fonts as it starts (their character maps take ~0.2 s to
    read, once, before the first table)."""

    def __init__(self, processes: int) -> None:
        super().__init__(processes, "render", start=load_fonts)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` off the event loop; its arguments and result must pickle."""
        if draws_nothing(work):
            return cast(T, None)
        with RENDER_SECONDS.labels(drawing=drawing_name(work)).time():
            return await super().run(work, *args)


def drawing_name(work: Callable[..., object]) -> str:
    """The metrics' name of a drawing: its module's last part and its name, as in
    ``geschenkt.render_table`` (the games' drawing functions share their names)."""
    module = getattr(work, "__module__", None) or ""
    return f"{module.rpartition('.')[2]}.{getattr(work, '__qualname__', 'draw')}"


def draws_nothing(work: Callable[..., object]) -> bool:
    """Whether ``work`` (a function or bound method) only returns None: its code is a
    bare ``return None`` (a docstring aside)."""
    function = getattr(work, "__func__", work)
    code = getattr(function, "__code__", None)
    return isinstance(code, types.CodeType) and _returns_none_only(code)


@lru_cache(maxsize=256)
def _returns_none_only(code: types.CodeType) -> bool:
    body = [i for i in dis.get_instructions(code) if i.opname not in _NOTHING]
    if [i.opname for i in body] == ["RETURN_CONST"]:  # Python 3.12 and later
        return body[0].argval is None
    return [i.opname for i in body] == ["LOAD_CONST", "RETURN_VALUE"] and body[0].argval is None
