"""Worker processes for the bot's CPU-heavy work, off its event loop and GIL.

Work that holds Python's global lock (drawing an image, a computer player's search)
slows every other interaction in flight when it runs in a thread of the bot process.
A `Workers` pool runs it in processes instead, started with ``spawn`` (no copy of the
bot's sockets and locks), each ending itself when the bot process is gone. With
``processes=0`` the work runs in a thread of the bot process (simpler, for tiny
deployments), and so does one call after a worker died while the pool is replaced.

The bot keeps two pools (`bot.render.workers`, `bot.thinking`): a second-long search
must not hold up the ~10 ms drawings of every other table.
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

log = logging.getLogger(__name__)

T = TypeVar("T")
PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the bot process is still there."""


class Workers:
    """Runs pure functions in a process pool (or a thread when there's none).

    ``start(*start_args)`` runs in each worker as it starts (module-level, picklable).
    Processes are started as work needs them, up to ``processes``."""

    def __init__(
        self,
        processes: int,
        name: str,
        start: Callable[..., None] | None = None,
        start_args: tuple[object, ...] = (),
    ) -> None:
        self._processes = processes
        self._name = name
        self._start = start
        self._start_args = start_args
        self._pool = self._new_pool()

    @property
    def in_processes(self) -> bool:
        """Whether work runs in worker processes (else in a thread of this one)."""
        return self._pool is not None

    def _new_pool(self) -> ProcessPoolExecutor | None:
        if self._processes <= 0:
            return None
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=self._processes,
            mp_context=context,
            initializer=start_worker,
            initargs=(os.getpid(), self._start, self._start_args),
        )

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` off the event loop; it, its arguments and its result must pickle."""
        if self._pool is None:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, work, *args)
        except BrokenProcessPool:
            log.warning("A %s process died; starting a new pool", self._name)
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await asyncio.to_thread(work, *args)

    def close(self) -> None:
        """Stop the workers and wait for the pool's manager thread: left running, it can
        close its wake-up pipe while Python's exit hook writes to it (EBADF at exit)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def start_worker(
    parent: int, start: Callable[..., None] | None, start_args: tuple[object, ...]
) -> None:
    """Run in each worker as it starts: watch the bot process, then ``start(*start_args)``."""
    exit_with_parent(parent)
    if start is not None:
        start(*start_args)


def exit_with_parent(parent: int) -> None:
    """Run in each worker: end it as soon as the bot process is gone (a crash or a
    SIGKILL leaves no chance to shut the pool down, and workers would linger)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
