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
import itertools
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from bot import table_life
from bot.adapters.base import GameAdapter
from bot.ai import Level
from bot.engines.base import GameError, PlayerId, SeededRng
from bot.i18n import N_, tr
from bot.names import shown_name
from bot.play.announce import Announcer
from bot.play.channel_messages import ChannelMessages
from bot.play.records import note
from bot.play.saving import Saving
from bot.storage.clock import Clock
from bot.storage.errors import StoreError
from bot.storage.locks import ChannelLocks
from bot.storage.tables import GameStore, Stored
from bot.table import Table
from bot.thinking import Thinkers

if TYPE_CHECKING:
    from bot.adapters.spec import GameSpec

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 0.5
RETRY_LONGEST_SECONDS = 30.0
"""A follow-up that meets a store fault tries again after 0.5 s, 1 s, 2 s, … 30 s."""

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


class FollowUpPlanner:
    """What `Saving` calls after each commit: the game's `FollowUpMoves.schedule`. A
    commit plans follow-ups and a follow-up commits, so `GameParts` makes the planner,
    gives it to `Saving`, and binds it once `FollowUpMoves` exists."""

    def __init__(self) -> None:
        self._moves: FollowUpMoves | None = None

    def bind(self, moves: FollowUpMoves) -> None:
        self._moves = moves

    def __call__(self, table: Table, rev: int, state: BaseModel) -> None:
        assert self._moves is not None, "bound when the game's parts are built"
        self._moves.schedule(table, rev, state)


class FollowUpMoves:
    """One game's moves without a click: computer seats, timed defaults, turn clocks,
    and lobbies that nobody started. They are saved through the game's `Saving`, whose
    commits plan them here (`schedule`): `GameParts` wires the two together."""

    def __init__(
        self,
        spec: GameSpec[Any, Any, Any],
        saving: Saving,
        channel: ChannelMessages,
        announcer: Announcer,
        *,
        store: GameStore,
        clock: Clock,
        locks: ChannelLocks,
        followups: FollowUps,
        thinkers: Thinkers,
        computer_pause_seconds: float,
        lobby_timeout_seconds: float,
    ) -> None:
        self.spec = spec
        self._store = store
        self._clock = clock
        self._locks = locks
        self._followups = followups
        self._thinkers = thinkers
        self._computer_pause_seconds = computer_pause_seconds
        self._lobby_timeout_seconds = lobby_timeout_seconds
        self.adapter = spec.adapter
        self.engine = spec.engine
        self.saving = saving
        self._channel = channel
        self._announcer = announcer

    def schedule(self, table: Table, rev: int, state: BaseModel) -> None:
        """Replace the channel's follow-ups with those the game at ``rev`` waits for:
        its moves, and the ping of people who haven't acted when it is due."""
        self._followups.cancel(table.channel_id)
        for follow_up in plan(table, state, self.adapter):
            self._followups.keep(table.channel_id, self._move_later(table, rev, follow_up))
        if table.ping_at is not None and table.pings:
            self._followups.keep(table.channel_id, self._ping_when_due(table))

    async def _ping_when_due(self, table: Table) -> None:
        """Ping the people the game waits for at `Table.ping_at`, unless it moves first
        (that cancels this wait). The ping itself reads the game as Redis holds it then."""
        await self._clock.sleep_until(table.ping_at or 0.0)
        self._announcer.ping_in_background(table)

    def close_lobby_later(self, table: Table) -> None:
        self._followups.keep(table.channel_id, self._close_lobby(table))

    async def resume(self, stored: Stored) -> None:
        """After a start: plan again what a game was waiting for (with the time that was
        left), and count a finished game whose stats a crash may have missed (counting
        is idempotent)."""
        table = stored.table
        if table.phase == "lobby":
            self.close_lobby_later(table)
        if table.state is None:
            return
        state = self.engine.State.model_validate(table.state)
        if table.phase == "playing":
            if table.turn_deadline is None:  # saved before deadlines were kept
                table.turn_deadline = await self.saving.turn_deadline(table, state)
            self.schedule(table, stored.rev, state)
        elif table.phase == "over":
            await self.saving.record_result(table, state)

    async def _move_later(self, table: Table, rev: int, follow_up: FollowUp) -> None:
        """Make ``follow_up``'s move when its time comes, unless the game moved on. A
        store fault (Redis down) is retried with backoff until the move is made or the
        game has moved: a follow-up is never dropped."""
        loop = asyncio.get_running_loop()
        not_before = loop.time()
        if follow_up.kind == "computer":
            # It thinks during the pause people get to follow the table, and moves
            # when both are over.
            not_before += self._computer_pause_seconds
        else:
            await self._clock.sleep_until(table.turn_deadline or 0.0)
        choice: object | None = None
        made: tuple[Table, BaseModel, int] | None = None
        for attempt in itertools.count():
            try:
                # A computer thinks before the channel is locked, so people's clicks
                # (a resignation, a panel) aren't kept waiting while it does; the
                # choice is applied under the lock only if the game is still as it saw.
                # It is the same whenever asked at ``rev``: a retry after a store fault
                # doesn't think again.
                if choice is None:
                    choice = await self._think_ahead(table, rev, follow_up)
                await asyncio.sleep(max(0.0, not_before - loop.time()))
                async with self._locks.hold(table.guild_id, table.channel_id):
                    made = await self._make_follow_up(table, rev, follow_up, choice)
                break
            except StoreError as error:
                delay = min(RETRY_LONGEST_SECONDS, RETRY_FIRST_SECONDS * 2**attempt)
                log.warning(
                    "The %s move in %s waits %.1f s for the store: %s",
                    follow_up.kind,
                    table.channel_id,
                    delay,
                    error,
                )
                await asyncio.sleep(delay)
            except GameError as error:
                log.warning(
                    "No %s move for %s in %s: %s",
                    follow_up.kind,
                    follow_up.player,
                    table.channel_id,
                    error,
                )
                return
            except Exception:
                log.exception("The %s move in channel %s failed", follow_up.kind, table.channel_id)
                return
        if made is not None:  # shown once the channel is free, as a click's move is
            await self._announcer.show(*made, by_last_click=True)

    async def _think_ahead(self, table: Table, rev: int, follow_up: FollowUp) -> object | None:
        """A computer's choice for the follow-up's seat at revision ``rev`` (a computer
        move, or one for a player whose clock ran out), or None: no thinking needed, or
        the game has moved on."""
        if follow_up.kind == "default":
            return None
        stored = await self._store.load(table.guild_id, table.channel_id)
        if stored is None or stored.table.gid != table.gid or stored.rev != rev:
            return None
        state = self.engine.State.model_validate(stored.table.state)
        return await self._computer_choice(stored.table, rev, state, follow_up.player)

    async def _make_follow_up(
        self, table: Table, rev: int, follow_up: FollowUp, choice: object | None
    ) -> tuple[Table, BaseModel, int] | None:
        """Make the follow-up's move, under the channel's lock; return the table, state
        and revision it saved, to show (None: the game moved on, or was abandoned)."""
        stored = await self._store.load(table.guild_id, table.channel_id)
        if stored is None or stored.table.gid != table.gid or stored.rev != rev:
            # The game moved first: a click, or this follow-up made by another process
            # of the same shard (a rolling restart).
            log.info(
                "The %s move in channel %s was for revision %d; the game has moved on",
                follow_up.kind,
                table.channel_id,
                rev,
            )
            return None
        current = stored.table.model_copy(deep=True)
        state = self.engine.State.model_validate(current.state)
        player = follow_up.player
        seat = current.seat_of(player)
        name = shown_name(seat.name) if seat else player
        before = state
        if follow_up.kind == "default":
            state = self.adapter.perform(state, player, follow_up.key)
            note(current, player, follow_up.key, "default")
            move = self.saving.describe_move(current, follow_up.key, before, state)
            current = table_life.with_event(
                current,
                N_("Time was up, so the bot chose for **{name}**: {move}"),
                warning_for=player,
                name=name,
                move=move,
            )
        else:
            action = choice
            if action is None:  # never expected (it was thought of at this revision): now
                action = await self._computer_choice(current, rev, state, player)
            state = self.engine.apply(state, player, action)
            note(current, player, str(action), follow_up.kind)
            if follow_up.kind == "clock":
                current = table_life.clock_ran_out(current, player)
                if table_life.nobody_left(current):
                    await self.close_empty_table(stored.table, rev)
                    return None
            else:
                move = self.saving.describe_move(current, str(action), before, state)
                current = table_life.with_event(
                    current, N_("**{name}**: {move}"), name=name, move=move
                )
        new_rev = await self.saving.commit(current, rev, state)
        return current, state, new_rev

    async def _computer_choice(
        self, table: Table, rev: int, state: BaseModel, player: PlayerId
    ) -> object:
        """The computer's choice for ``player``'s seat (from that seat's view only, in a
        worker process: `bot.thinking`), the same whenever it is asked at ``rev``."""
        seat = table.seat_of(player)
        level: Level = seat.level if seat and seat.level else "normal"
        rng = SeededRng.from_seed(table.seed ^ (rev * 0x9E3779B97F4A7C15))
        view = self.engine.view(state, player)
        return await self._thinkers.decide(self.engine.name, level, view, rng)

    async def close_empty_table(self, table: Table, rev: int) -> None:
        """End a running game nobody is left at: deleted without results (nothing is
        recorded, no Rematch), its follow-ups cancelled, the channel free."""
        await self._store.delete(table, rev)
        self._followups.cancel(table.channel_id)
        await self._channel.close_message(
            table,
            tr(
                table.lang,
                "Nobody is left at this table, so the game was abandoned; nothing was "
                "recorded. Start a new one with `/{game} start`.",
                game=self.engine.name,
            ),
        )
        if table.ping is not None:
            await self._channel.delete_message(table, table.ping.message_id)

    async def _close_lobby(self, table: Table) -> None:
        """Close the lobby if it is still waiting for its Start when its time is up."""
        await self._clock.sleep_until(table.opened + self._lobby_timeout_seconds)
        try:
            async with self._locks.hold(table.guild_id, table.channel_id):
                stored = await self._store.load(table.guild_id, table.channel_id)
                if stored is None or stored.table.gid != table.gid:
                    return
                if stored.table.phase != "lobby":
                    return
                await self._store.delete(stored.table, stored.rev)
                await self._channel.close_message(
                    stored.table,
                    tr(
                        stored.table.lang,
                        "Nobody started this table, so it has closed. "
                        "Open a new one with `/{game} start`.",
                        game=self.engine.name,
                    ),
                )
        except StoreError as error:
            log.warning("Could not close the lobby in %s: %s", table.channel_id, error)
