"""How long a computer player may think over one decision, in seconds.

Searches stop at a node budget first (so a move is reproducible on an idle machine) and
at this wall-clock budget as a safety net on a busy one. The bot sets it once per
worker process from ``COMPUTER_THINK_SECONDS``; tests and benches may set it too.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

DEFAULT_THINK_SECONDS = 1.0

_think_seconds = DEFAULT_THINK_SECONDS


def think_seconds() -> float:
    """The wall-clock budget of one decision of a searching (hard) computer player."""
    return _think_seconds


def set_think_seconds(seconds: float) -> None:
    """Set the budget for this process (a worker's initializer calls it)."""
    global _think_seconds
    if seconds <= 0:
        raise ValueError("a computer player needs a positive time to think")
    _think_seconds = seconds


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block (a search). A search makes
    no reference cycles, so reference counting frees all it drops; but the collector
    walked its large tables again and again: 130-270 ms of a 1 s draughts decision, in
    lumps between two reads of the clock that pushed decisions past their budget."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
