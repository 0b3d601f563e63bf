"""Images drawn in a render process are the images drawn in place."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from prometheus_client import REGISTRY

from bot.engines.geschenkt import ENGINE
from bot.games import GAMES
from bot.render.geschenkt import render_table
from bot.render.text import Face, character_map
from bot.render.workers import RenderWorkers, draws_nothing
from tests.render.worker_probe import loaded


def character_maps_loaded() -> int:
    """In a render worker: how many faces' character maps it has read."""
    return character_map.cache_info().currsize


async def test_a_render_worker_loads_the_fonts_as_it_starts() -> None:
    workers = RenderWorkers(processes=1)
    try:
        assert await workers.run(character_maps_loaded) == len(Face)
    finally:
        workers.close()


async def test_a_render_process_draws_the_same_png_as_the_bot_process() -> None:
    state = ENGINE.new_game(["a", "b", "c"], 5)
    view = ENGINE.view(state, None)
    names = {"a": "Alice", "b": "Bernd", "c": "Chloe"}
    workers = RenderWorkers(processes=1)
    try:
        drawn = await workers.run(render_table, view, names)
    finally:
        workers.close()
    assert drawn == render_table(view, names)
    assert drawn.startswith(b"\x89PNG")


async def test_a_render_worker_draws_every_games_images_without_loading_discord() -> None:
    """The adapters' drawings are their games' `bot.render` functions, so a worker
    starts without importing discord.py and aiohttp (about 0.2 s of CPU each time)."""
    workers = RenderWorkers(processes=1)
    try:
        for spec in GAMES:
            players = [f"p{n}" for n in range(spec.typical_players)]
            state = spec.engine.new_game(players, 3)
            table = await workers.run(
                spec.adapter.render_table, spec.engine.view(state, None), {}, "en"
            )
            assert table.startswith(b"\x89PNG"), spec.name
            private = spec.engine.view(state, players[0])
            await workers.run(spec.adapter.render_private, private, {}, "en", {})
        assert await workers.run(loaded, ("discord", "aiohttp", "bot.adapters.base")) == []
    finally:
        workers.close()


async def test_without_processes_images_are_drawn_in_a_thread() -> None:
    state = ENGINE.new_game(["a", "b", "c"], 9)
    view = ENGINE.view(state, None)
    workers = RenderWorkers(processes=0)
    assert await workers.run(render_table, view, {}) == render_table(view, {})


CHILD = """
import asyncio, sys
from bot.engines.geschenkt import ENGINE
from bot.games import GAMES
from bot.render.geschenkt import render_table
from bot.render.workers import RenderWorkers

async def main():
    workers = RenderWorkers(processes=1)
    view = ENGINE.view(ENGINE.new_game(["a", "b", "c"], 1), None)
    await workers.run(render_table, view, {})
    print(*workers._pool._processes, flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def test_render_workers_exit_when_the_bot_process_is_killed() -> None:
    """A SIGKILLed bot can't shut its pool down; its workers must not linger."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    workers = [int(pid) for pid in child.stdout.readline().split()]
    assert workers and all(alive(pid) for pid in workers)
    child.kill()
    child.wait()
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers), "a render worker outlived the bot"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


def no_image(view: object) -> bytes | None:
    """A game's default private image: none."""
    return None


def image_only_sometimes(view: object) -> bytes | None:
    if view:
        return b"\x89PNG"
    return None


class Adapter:
    def render_private(self, view: object) -> bytes | None:
        """None: this game has no private image."""
        return None


def test_only_a_bare_return_none_counts_as_drawing_nothing() -> None:
    assert draws_nothing(no_image)
    assert draws_nothing(Adapter().render_private)
    assert not draws_nothing(image_only_sometimes)
    assert not draws_nothing(render_table)
    assert not draws_nothing(print)  # no Python code to read: drawn as asked


def drawings(name: str) -> float:
    return REGISTRY.get_sample_value("tablebot_render_seconds_count", {"drawing": name}) or 0.0


async def test_a_drawing_of_nothing_is_answered_without_a_worker() -> None:
    workers = RenderWorkers(processes=1)
    try:
        assert await workers.run(Adapter().render_private, object()) is None
        assert workers._pool is not None and not workers._pool._processes, "none started"
        assert drawings("test_workers.Adapter.render_private") == 0
        before = drawings("test_workers.image_only_sometimes")
        assert await workers.run(image_only_sometimes, 1) == b"\x89PNG"
        assert await workers.run(image_only_sometimes, 0) is None
        assert drawings("test_workers.image_only_sometimes") == before + 2
    finally:
        workers.close()
