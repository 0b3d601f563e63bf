"""Shared fixtures: a real Redis server (one per pytest process, a database per test),
the fake Discord, its driver, the bot process, and the bot's clock moved forward by the
tests. Tests that start processes (the bot, its embedded Redis, a bench) are marked
``slow`` here; the few long CPU soaks carry ``@pytest.mark.slow`` themselves (the
longest of ``pytest -m "not slow" --durations=60``; docs/testing.md). ``pytest -m "not
slow"`` is the fast loop; plain ``pytest`` (CI) runs them all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.tables import move_clock
from tests.harness.fixtures import (
    bot_process,
    bot_zygote,
    driver,
    fake_discord,
    redis_server,
    shared_redis,
)
from tests.harness.fixtures import pytest_configure as harness_configure

__all__ = [
    "bot_process",
    "bot_zygote",
    "driver",
    "fake_discord",
    "move_clock",
    "redis_server",
    "shared_redis",
]

TESTS = Path(__file__).resolve().parent
SLOW_FOLDERS = ("e2e", "ops")
"""Every test there runs the bot or a process of its own."""
SLOW_FILES = ("test_bench_smoke.py",)
SLOW_FIXTURES = {"bot_process"}


FAST_LOOP_CONFORMANCE_EXAMPLES = "2"
"""Games per combination of `tests/engines/test_conformance.py` in the fast loop
(``-m "not slow"``) unless ``ENGINE_CONFORMANCE_EXAMPLES`` says otherwise; every other
run, CI's included, plays the module's default (6)."""


def is_fast_loop(config: pytest.Config) -> bool:
    return "".join(str(config.getoption("markexpr", "")).split()) == "notslow"


def pytest_configure(config: pytest.Config) -> None:
    harness_configure(config)
    compile_first(config)
    if is_fast_loop(config):  # before the test modules are imported (workers inherit it)
        os.environ.setdefault("ENGINE_CONFORMANCE_EXAMPLES", FAST_LOOP_CONFORMANCE_EXAMPLES)


WORKERS_PER_CORE_FAST, WORKERS_PER_CORE_FULL = 2, 4
"""xdist workers per CPU core (``-n auto`` in ``addopts``). The fast loop is CPU-bound:
more than two per core only adds start-up. The full run's slow tests mostly wait (on
the fake Discord's rate limits, a bot process, a timer), so four per core overlap them."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    per_core = WORKERS_PER_CORE_FAST if is_fast_loop(config) else WORKERS_PER_CORE_FULL
    return max(1, (cores or 1) * per_core)


def pytest_report_header(config: pytest.Config) -> str | None:
    if not is_fast_loop(config):
        return None
    examples = os.environ.get("ENGINE_CONFORMANCE_EXAMPLES")
    return f"fast loop: engine conformance plays {examples} games per combination (full run: 6)"


def starts_processes(item: pytest.Item) -> bool:
    parts = Path(str(item.path)).resolve().relative_to(TESTS).parts
    fixtures = set(getattr(item, "fixturenames", ()))
    return parts[0] in SLOW_FOLDERS or parts[-1] in SLOW_FILES or bool(fixtures & SLOW_FIXTURES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if starts_processes(item):
            item.add_marker(pytest.mark.slow)
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = slow_first_in_each_share(items, workers)


def slow_first_in_each_share(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The order that starts every xdist worker on its share of the slow tests.

    ``--dist worksteal`` hands each worker a contiguous quarter of the collection.
    In collection order the whole games (a minute or more each) fell in the last
    quarters, and the run ended with them running alone while the other workers
    idled. Here every k-th test goes to the k-th share, each share beginning with its
    slow tests, so the long ones start early and the short ones fill the gaps."""
    ordered = sorted(items, key=lambda item: item.get_closest_marker("slow") is None)
    return [item for share in range(workers) for item in ordered[share::workers]]


def keep_bytecode() -> bool:
    """With ``PYTHONDONTWRITEBYTECODE`` set, every pytest worker (and every bot process)
    would compile the bot, its libraries and the rewritten test modules again: ~10 s of
    CPU per process. Keep the bytecode under ``.pytest_cache/pycache`` instead (outside
    the source tree, so it stays as clean as the setting meant), for this process and
    the processes it starts. Returns whether that folder is new (a fresh clone)."""
    if not sys.dont_write_bytecode:
        return False
    prefix = TESTS.parent / ".pytest_cache" / "pycache"
    new = not prefix.exists()
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(prefix)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
    return new


BYTECODE_IS_NEW = keep_bytecode()
COMPILED_FIRST = (
    "bot.__main__",
    "bot.thinking",
    "bot.render.workers",
    "tests.harness.fixtures",
    "tests.e2e.game_driver",
    "hypothesis",
)
"""What a new interpreter imports, once, before the xdist workers start when the
bytecode folder is new (a fresh clone): the bot, its workers' code, the harness and
the e2e driver, with their libraries. The folder is used instead of each library's own
``__pycache__``, so otherwise eight workers, their zygotes and the bots' first worker
processes would all compile the same libraries at once (about a minute of CPU)."""


def compile_first(config: pytest.Config) -> None:
    if BYTECODE_IS_NEW and not hasattr(config, "workerinput"):
        imports = "; ".join(f"import {module}" for module in COMPILED_FIRST)
        subprocess.run([sys.executable, "-c", imports], cwd=TESTS.parent, check=True)
