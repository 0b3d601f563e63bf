"""Saving a move: the one way a game reaches Redis, and a finished game's stats.

`Saving.commit` sets the phase and the deadline of the turn now waiting, saves with
compare-and-set, hands the new revision to the follow-ups and counts a finished game
in the server's stats (once, whatever retries); a tournament table's result is counted
in the background, without holding up the answer to the move.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from pydantic import BaseModel

from bot import table_life
from bot.adapters.base import GameAdapter
from bot.engines.base import GameError, Outcome
from bot.i18n import N_
from bot.play.announce import Announcer
from bot.play.records import keep_record
from bot.storage.clock import Clock
from bot.storage.errors import Refusal, StoreError, StoreUnavailable
from bot.storage.locks import ChannelLocks
from bot.storage.records import RecordStore
from bot.storage.settings import GuildSettingsStore
from bot.storage.stats import SeasonTally, StatsStore
from bot.storage.tables import GameStore, NotReplicated, SaveUnanswered
from bot.table import Table
from bot.tournament.seasons import season_of

if TYPE_CHECKING:
    from bot.play.followups import FollowUps

log = logging.getLogger(__name__)

Planner = Callable[[Table, int, BaseModel], None]
"""Plans what a saved game now waits for (`FollowUpMoves.schedule`)."""
GameOver = Callable[[Table, Outcome | None], Awaitable[None]]
"""Told of every finished game once its result is counted (`Tournaments.game_over`)."""


@dataclass(frozen=True)
class TurnTiming:
    """The server-wide defaults a save reads (`bot.config.Settings`)."""

    ping_after_seconds: int
    """How long a turn may wait before its people are pinged, unless the table says."""
    choice_timeout_seconds: float
    """The turn clock of a choice with a timed default."""


class MoveUnanswered(StoreUnavailable):
    """A move whose save lost its answer (`SaveUnanswered`): the player is told it may
    not be saved, to look at the table (which shows it once found) before making it
    again; "try again" alone would invite the same move twice."""

    def __init__(self) -> None:
        StoreError.__init__(
            self,
            N_(
                "Your move may not be saved: the game store stopped answering. If the "
                "table doesn't show it in a few seconds, make it again."
            ),
        )


class Saving:
    """One game's saves and results."""

    def __init__(
        self,
        adapter: GameAdapter[Any, Any, Any],
        announcer: Announcer,
        plan: Planner,
        *,
        store: GameStore,
        clock: Clock,
        locks: ChannelLocks,
        followups: FollowUps,
        stats: StatsStore,
        records: RecordStore,
        timing: TurnTiming,
        guild_settings: GuildSettingsStore,
        game_over: GameOver,
    ) -> None:
        self.adapter = adapter
        self._store = store
        self._clock = clock
        self._locks = locks
        self._followups = followups
        self._stats = stats
        self._records = records
        self._timing = timing
        self._guild_settings = guild_settings
        self._game_over = game_over
        self.engine = adapter.engine
        self._announcer = announcer
        self._plan = plan

    async def commit(self, table: Table, rev: int, state: BaseModel) -> int:
        """Save ``state`` into ``table`` over revision ``rev``; return the new revision."""
        table.state = state.model_dump(mode="json")
        table.phase = "over" if self.engine.is_over(state) else "playing"
        now = await self._clock.now()
        table.turn_deadline = self._deadline(table, state, now)
        self._plan_ping(table, state, now)
        try:
            saved = await self._store.save(table, rev)
        except NotReplicated as unconfirmed:
            self._followups.run(self._made_once_copied(table, state, unconfirmed.rev))
            raise
        except SaveUnanswered as unanswered:
            self._followups.run(self._made_if_landed(table, state, unanswered))
            raise MoveUnanswered() from unanswered
        await self._made(table, saved, state)
        return saved

    async def _made(self, table: Table, rev: int, state: BaseModel) -> None:
        """What a saved move leads to: the follow-ups it plans, a finished game's stats."""
        self._plan(table, rev, state)
        if table.phase == "over":
            await self.record_result(table, state)

    async def _made_once_copied(self, table: Table, state: BaseModel, rev: int) -> None:
        """A save that no replica confirmed in time (`NotReplicated`; its player was told
        it isn't safe yet): once one does, the move counts, is planned on and shown, as
        if confirmed at once. If it never is (or the game moved on), nothing is shown."""
        if not await self._store.copied(table, rev):
            log.warning("Revision %s of game %s was never confirmed by a replica", rev, table.gid)
            return
        await self._made_late(table, state, rev)

    async def _made_if_landed(
        self, table: Table, state: BaseModel, unanswered: SaveUnanswered
    ) -> None:
        """A save whose answer was lost (`SaveUnanswered`; its player was told to try
        again): if Redis made it after all, the move counts, is planned on and shown, as
        if answered at once; otherwise nothing happened and nothing is shown."""
        if not await self._store.landed(table, unanswered.rev, unanswered.data):
            log.info("A save of game %s whose answer was lost wasn't made", table.gid)
            return
        log.info("A save of game %s whose answer was lost was made: shown now", table.gid)
        await self._made_late(table, state, unanswered.rev)

    async def _made_late(self, table: Table, state: BaseModel, rev: int) -> None:
        """`_made` and the move shown, for a move confirmed after its click was
        answered: under the channel's lock, and only while ``rev`` is still the stored
        revision (a newer move planned its own follow-ups and shows itself)."""
        try:
            async with self._locks.hold(table.guild_id, table.channel_id):
                stored = await self._store.load(table.guild_id, table.channel_id)
                if stored is None or stored.rev != rev or stored.table.gid != table.gid:
                    return
                await self._made(table, rev, state)
        except (StoreError, Refusal) as error:
            log.info("Revision %s of game %s not planned on: %s", rev, table.gid, error)
            return
        await self._announcer.show(table, state, rev)

    def describe_move(self, table: Table, key: str, before: BaseModel, after: BaseModel) -> str:
        """The adapter's words for a move, from the public views around it."""
        return self.adapter.move_text(
            key,
            self.engine.view(before, None),
            self.engine.view(after, None),
            table.shown_names(),
            table.lang,
        )

    async def record_result(self, table: Table, state: BaseModel) -> None:
        """Count the finished game in the server's stats (once, whatever retries), keep
        its record, and count it in its tournament in the background."""
        names = {seat.id: seat.name for seat in table.seats if not seat.is_computer}
        outcome = self.engine.outcome(state)
        try:
            season = await self._season_now(table.guild_id)
            await self._stats.record(table.guild_id, table.game, table.gid, outcome, names, season)
        except StoreError as error:
            log.warning("Stats of game %s not recorded yet: %s", table.gid, error)
        await keep_record(self._records, self.adapter, table, state)
        self._followups.run(self._count_in_tournament(table, outcome))

    async def _count_in_tournament(self, table: Table, outcome: Outcome) -> None:
        """Count a tournament table's result without holding up the answer to the move
        that ended the game: the round it completes is paired, dealt and its standings
        drawn, which can take longer than Discord waits for an answer. A result not
        counted (a crash, Redis or Discord failing) is counted at the next start
        (`FollowUps.resume`)."""
        try:
            await self._game_over(table, outcome)
        except (StoreError, GameError, discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("Game %s not counted in its tournament yet: %r", table.gid, error)

    async def _season_now(self, guild_id: int) -> SeasonTally | None:
        """The leaderboard season a game ending now counts in, if the server has
        seasons (`/settings season`)."""
        server = await self._guild_settings.get(guild_id)
        if server.season == "none":
            return None
        day = datetime.fromtimestamp(await self._clock.now(), UTC).date()
        season = season_of(day, server.season)
        return SeasonTally(season.id, restart=server.season_ratings == "restart")

    def _plan_ping(self, table: Table, state: BaseModel, now: float) -> None:
        """Who the game now waits for, and when to ping them if they don't act."""
        over = self.engine.is_over(state)
        people = [] if over else table_life.people_among(table, self.engine.to_act(state))
        ping_after = table.ping_after
        if ping_after is None:
            ping_after = self._timing.ping_after_seconds
        table.ping_at = table_life.ping_due(
            table, people, now=now, ping_after=ping_after, deadline=table.turn_deadline
        )
        table.waiting_for = people

    async def turn_deadline(self, table: Table, state: BaseModel) -> float | None:
        return self._deadline(table, state, await self._clock.now())

    def _deadline(self, table: Table, state: BaseModel, now: float) -> float | None:
        over = self.engine.is_over(state)
        return table_life.turn_deadline(
            table,
            [] if over else self.engine.to_act(state),
            now=now,
            over=over,
            has_timed_default=not over
            and self.adapter.timed_default(self.engine.view(state, None)) is not None,
            choice_timeout=self._timing.choice_timeout_seconds,
        )
