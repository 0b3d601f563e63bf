"""Where table images are drawn: in worker processes, off the bot's event loop and GIL.

Drawing holds Python's global lock for most of its ~10 ms; done in threads of the bot
process it slows every other interaction in flight. A small process pool keeps the
event loop free to acknowledge clicks. With ``processes=0`` images are drawn in a
thread of the bot process instead (simpler, for tiny deployments).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.metrics import RENDER_SECONDS
from bot.render.text import load_fonts

log = logging.getLogger(__name__)

T = TypeVar("T")
PARENT_CHECK_SECONDS = 1.0
"""How often a render worker checks that the bot process is still there."""


class RenderWorkers:
    """Runs pure drawing functions in a process pool (or a thread when there's none)."""

    def __init__(self, processes: int) -> None:
        self._processes = processes
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor | None:
        if self._processes <= 0:
            return None
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=self._processes,
            mp_context=context,
            initializer=start_worker,
            initargs=(os.getpid(),),
        )

    async def run(self, draw: Callable[..., T], *args: object) -> T:
        """``draw(*args)`` off the event loop; its arguments and result must pickle."""
        with RENDER_SECONDS.labels(drawing=getattr(draw, "__qualname__", "draw")).time():
            return await self._run(draw, *args)

    async def _run(self, draw: Callable[..., T], *args: object) -> T:
        if self._pool is None:
            return await asyncio.to_thread(draw, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, draw, *args)
        except BrokenProcessPool:
            log.warning("A render process died; starting a new pool")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await asyncio.to_thread(draw, *args)

    def close(self) -> None:
        """Stop the workers and wait for the pool's manager thread: left running, it can
        close its wake-up pipe while Python's exit hook writes to it (EBADF at exit)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def start_worker(parent: int) -> None:
    """Run in each worker as it starts: watch the bot process, and load the fonts (their
    character maps take ~0.2 s to read, once, before the first table)."""
    exit_with_parent(parent)
    load_fonts()


def exit_with_parent(parent: int) -> None:
    """Run in each worker: end it as soon as the bot process is gone (a crash or a
    SIGKILL leaves no chance to shut the pool down, and workers would linger)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
