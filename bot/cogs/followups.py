"""What happens without a click: computer moves, timed defaults, turn clocks and
lobby expiry.

`plan` decides, from the saved table alone, which follow-ups a game waits for; the
`FollowUps` owner keeps their tasks per channel, cancels a channel's when its game
moves, and cancels every one when the bot closes. Each follow-up checks when it wakes
that the game is still at the revision it was planned for, and every deadline lives
in the stored table, so a restart (or another process) can plan them again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from bot.cogs.adapter import GameAdapter
from bot.engines.base import PlayerId
from bot.table import Table

FollowUpKind = Literal["computer", "default", "clock"]


@dataclass(frozen=True)
class FollowUp:
    """A move the bot will make for ``player`` unless the game moves first: a computer
    seat's choice, the timed default ``key``, or the computer's choice for a person
    whose clock ran out."""

    kind: FollowUpKind
    player: PlayerId
    key: str = ""


def plan(table: Table, state: BaseModel, adapter: GameAdapter[Any, Any, Any]) -> list[FollowUp]:
    """The follow-ups a running game waits for now (none once it is over)."""
    if table.phase != "playing":
        return []
    engine = adapter.engine
    waiting = engine.to_act(state)
    computers = table.computers(waiting)
    if computers:
        return [FollowUp("computer", player) for player in computers]
    if table.turn_deadline is None:
        return []
    default = adapter.timed_default(engine.view(state, None))
    if default is not None:
        return [FollowUp("default", default.player, default.key)]
    return [FollowUp("clock", player) for player in waiting]


class FollowUps:
    """The one owner of every pending follow-up task of the bot, per channel."""

    def __init__(self) -> None:
        self._pending: dict[int, set[asyncio.Task[None]]] = {}
        self._errands: set[asyncio.Task[None]] = set()
        """Short jobs after a move (pings, summaries) that a later move must not cancel."""
        self._closed = False

    def run(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` in the background until it ends or the bot closes."""
        if self._closed:  # the bot is closing: the next start plans again
            job.close()
            return
        task = asyncio.create_task(job)
        self._errands.add(task)
        task.add_done_callback(self._errands.discard)

    def keep(self, channel_id: int, wait: Coroutine[Any, Any, None]) -> None:
        """Run ``wait`` as a task of the channel (cancelled when its game moves)."""
        if self._closed:
            wait.close()
            return
        self._track(channel_id, asyncio.create_task(wait))

    def _track(self, channel_id: int, task: asyncio.Task[None]) -> None:
        pending = self._pending.setdefault(channel_id, set())
        pending.add(task)
        task.add_done_callback(pending.discard)

    def cancel(self, channel_id: int) -> None:
        """The channel's game moved: waits planned for an earlier revision would do
        nothing when they wake, so don't keep them sleeping (the running one, which
        is making the move, finishes)."""
        current = asyncio.current_task()
        for task in self._pending.pop(channel_id, set()):
            if task is current:  # still tracked, so closing the bot waits for it
                self._track(channel_id, task)
            else:
                task.cancel()

    def pending(self, channel_id: int) -> int:
        """How many follow-ups the channel has waiting."""
        return len(self._pending.get(channel_id, ()))

    async def close(self) -> None:
        """Cancel every follow-up and wait until they have stopped. Nothing is lost: the
        deadlines are in Redis, and the next start plans them again."""
        self._closed = True
        tasks = [task for pending in self._pending.values() for task in pending]
        tasks += self._errands
        self._pending.clear()
        self._errands.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
