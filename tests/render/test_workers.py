"""Images drawn in a render process are the images drawn in place."""

from __future__ import annotations

from bot.engines.geschenkt import ENGINE
from bot.render.geschenkt import render_table
from bot.render.workers import RenderWorkers


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


async def test_without_processes_images_are_drawn_in_a_thread() -> None:
    state = ENGINE.new_game(["a", "b", "c"], 9)
    view = ENGINE.view(state, None)
    workers = RenderWorkers(processes=0)
    assert await workers.run(render_table, view, {}) == render_table(view, {})
