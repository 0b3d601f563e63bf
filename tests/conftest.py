"""Shared fixtures: a real Redis server, the fake Discord, its driver, the bot process,
and the bot's clock moved forward by the tests. Tests that start processes (the bot,
its embedded Redis, a bench) are marked ``slow``: ``pytest -m "not slow"`` is the
fast loop."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.tables import move_clock
from tests.harness.fixtures import bot_process, driver, fake_discord, redis_server

__all__ = ["bot_process", "driver", "fake_discord", "move_clock", "redis_server"]

TESTS = Path(__file__).resolve().parent
SLOW_FOLDERS = ("e2e", "ops")
"""Every test there runs the bot or a process of its own."""
SLOW_FILES = ("test_bench_smoke.py",)
SLOW_FIXTURES = {"bot_process"}


def starts_processes(item: pytest.Item) -> bool:
    parts = Path(str(item.path)).resolve().relative_to(TESTS).parts
    fixtures = set(getattr(item, "fixturenames", ()))
    return parts[0] in SLOW_FOLDERS or parts[-1] in SLOW_FILES or bool(fixtures & SLOW_FIXTURES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if starts_processes(item):
            item.add_marker(pytest.mark.slow)
