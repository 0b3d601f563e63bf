"""The levels as test parameters, the hard one marked slow: its searches, run many
times over, are what make these tests long, so the fast loop (``-m "not slow"``)
leaves them to the full run."""

from __future__ import annotations

import pytest

from bot.ai import LEVELS

LEVELS_HARD_SLOW = [
    *(pytest.param(level) for level in LEVELS if level != "hard"),
    pytest.param("hard", marks=pytest.mark.slow),
]
