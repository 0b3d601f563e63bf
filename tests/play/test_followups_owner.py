"""The one owner of the bot's follow-up tasks: nothing it started outlives its close."""

from __future__ import annotations

import asyncio

from bot.play.followups import FollowUps

CHANNEL = 20


async def test_a_follow_up_that_moved_its_game_is_still_stopped_by_close() -> None:
    """A follow-up making a move cancels its channel's other follow-ups (its game moved);
    it must stay tracked itself, or closing the bot would leave it running."""
    followups = FollowUps()
    moved = asyncio.Event()
    finished = []

    async def move() -> None:
        followups.cancel(CHANNEL)  # what a commit does when the game moves
        moved.set()
        await asyncio.sleep(30)  # drawing and editing the table, slowly
        finished.append("move")

    followups.keep(CHANNEL, move())
    await moved.wait()
    assert followups.pending(CHANNEL) == 1

    await asyncio.wait_for(followups.close(), 5)

    assert followups.pending(CHANNEL) == 0
    assert finished == []
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []


async def test_nothing_starts_after_close() -> None:
    followups = FollowUps()
    await followups.close()
    started = []

    async def job() -> None:
        started.append("job")

    followups.keep(CHANNEL, job())
    followups.run(job())
    await asyncio.sleep(0)

    assert started == []
    assert followups.pending(CHANNEL) == 0
