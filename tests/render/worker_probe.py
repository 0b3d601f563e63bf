"""Asked in a render worker, so it imports nothing: importing this module must not load
what the test looks for."""

from __future__ import annotations

import sys


def loaded(modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` this process has imported."""
    return [name for name in modules if name in sys.modules]
