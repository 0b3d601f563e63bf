"""How long a computer player may think over one decision, in seconds.

Searches stop at a node budget first (so a move is reproducible on an idle machine) and
at this wall-clock budget as a safety net on a busy one. The bot sets it once per
worker process from ``COMPUTER_THINK_SECONDS``; tests and benches may set it too.

The budget counts from when the bot asked for the decision: one that waited for a free
worker (many tables thinking at once) gets only what is left (`seconds_left`, for the
call: `deciding_within`), so the computer still answers about on time and plays a little
weaker under load rather than keeping the table waiting.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from contextvars import ContextVar

DEFAULT_THINK_SECONDS = 1.0
MIN_THINK_SECONDS = 0.05
"""What a decision gets when it waited its whole budget for a worker: enough for each
search's first, cheapest step (a draughts search's first depth, a few samples)."""

_think_seconds = DEFAULT_THINK_SECONDS
_decision_seconds: ContextVar[float | None] = ContextVar("decision_seconds", default=None)


def think_seconds() -> float:
    """The wall-clock budget of the decision being made by a searching (hard) computer
    player: the process's, or what `deciding_within` left it."""
    left = _decision_seconds.get()
    return _think_seconds if left is None else left


def set_think_seconds(seconds: float) -> None:
    """Set the budget for this process (a worker's initializer calls it)."""
    global _think_seconds
    if seconds <= 0:
        raise ValueError("a computer player needs a positive time to think")
    _think_seconds = seconds


def seconds_left(asked_at: float, now: float) -> float:
    """The budget left to a decision asked for at ``asked_at`` and starting ``now``
    (`time.time`, which every process on the machine shares), at least
    `MIN_THINK_SECONDS`."""
    return max(MIN_THINK_SECONDS, _think_seconds - max(0.0, now - asked_at))


@contextlib.contextmanager
def deciding_within(seconds: float) -> Iterator[None]:
    """`think_seconds` is ``seconds`` in the block (in this thread or task only)."""
    token = _decision_seconds.set(seconds)
    try:
        yield
    finally:
        _decision_seconds.reset(token)


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
