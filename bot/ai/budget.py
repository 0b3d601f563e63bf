"""How long a computer player may think over one decision, in seconds.

Searches stop at a node budget first (so a move is reproducible on an idle machine) and
at this wall-clock budget as a safety net on a busy one. The bot sets it once per
worker process from ``COMPUTER_THINK_SECONDS``; tests and benches may set it too.
"""

from __future__ import annotations

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
