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
MIN_THINK_SECONDS = 0.01
"""What a decision gets when it waited its whole budget for a worker: each search's
first, cheapest step (a draughts search's first depths, a few samples), a few ms. Kept
short because under load the decisions queued behind this one wait for it too."""
ANSWER_SECONDS = 0.05
"""The part of a decision's budget, counted from the ask, kept for what follows the
search: its last step past the clock check and the answer's way back to the bot. So
the bot has the answer within about the budget also when decisions queue for a worker
(`bench.interactions --computers`, 50 tables on one worker: decisions p99 1,181 ms
with no such margin and 50 ms thinking at least)."""

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
    (`time.time`, which every process on the machine shares), less `ANSWER_SECONDS`,
    at least `MIN_THINK_SECONDS`."""
    waited = max(0.0, now - asked_at)
    return max(MIN_THINK_SECONDS, _think_seconds - waited - ANSWER_SECONDS)


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
