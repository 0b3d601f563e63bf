"""Saving a game and showing it: the steps that clicks and follow-ups share.

`TableFlow.commit` is the one way a move reaches Redis: it sets the phase and the
deadline of the turn now waiting, saves with compare-and-set, plans the follow-ups
and counts a finished game in the stats. The rest edits or posts the channel's
messages, and logs (never raises) when Discord refuses an edit.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from pydantic import BaseModel

from bot import table_life
from bot.ai import Level
from bot.cogs.adapter import GameAdapter
from bot.cogs.followups import FollowUp, plan
from bot.cogs.messages import Messages
from bot.engines.base import GameError, PlayerId, SeededRng
from bot.games import GameSpec
from bot.i18n import N_, tr
from bot.render import embeds
from bot.storage.errors import StoreError
from bot.storage.tables import Stored
from bot.table import Ping, Table
from bot.texts import TableText

if TYPE_CHECKING:
    from bot.bot import TableBot

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 0.5
RETRY_LONGEST_SECONDS = 30.0
"""A follow-up that meets a store fault tries again after 0.5 s, 1 s, 2 s, … 30 s."""


class TableFlow:
    """One game's saves, follow-ups and message edits."""

    def __init__(self, bot: TableBot, spec: GameSpec[Any, Any, Any], messages: Messages) -> None:
        self.bot = bot
        self.spec = spec
        self.adapter = spec.adapter
        self.engine = spec.engine
        self.messages = messages
        self._summarises_deals = type(self.adapter).deal_summary is not GameAdapter.deal_summary
        self._announcing: dict[int, bool] = {}
        """Channels with pings on their way; True: another move came meanwhile."""
        self._deal_summaries: dict[int, TableText] = {}
        """Per channel: the summary of a deal just ended, posted with the next ping."""

    # ----- saving -------------------------------------------------------------

    async def commit(self, table: Table, rev: int, state: BaseModel) -> int:
        """Save ``state`` into ``table`` over revision ``rev``; return the new revision."""
        self._note_deal_summary(table, state)
        table.state = state.model_dump(mode="json")
        table.phase = "over" if self.engine.is_over(state) else "playing"
        table.turn_deadline = await self._turn_deadline(table, state)
        saved = await self.bot.store.save(table, rev)
        self.schedule(table, saved, state)
        if table.phase == "over":
            await self.record_result(table, state)
        return saved

    def describe_move(self, table: Table, key: str, before: BaseModel, after: BaseModel) -> str:
        """The adapter's words for a move, from the public views around it."""
        return self.adapter.move_text(
            key,
            self.engine.view(before, None),
            self.engine.view(after, None),
            table.names(),
            table.lang,
        )

    def _note_deal_summary(self, table: Table, state: BaseModel) -> None:
        """Keep the summary of a deal this move ended, for `announce` to post. Games
        without deals skip it: reading the previous state back costs a validation."""
        if not self._summarises_deals or table.state is None or self.engine.is_over(state):
            return
        before = self.engine.view(self.engine.State.model_validate(table.state), None)
        after = self.engine.view(state, None)
        summary = self.adapter.deal_summary(before, after, table.names(), table.lang)
        if summary is not None:
            self._deal_summaries[table.channel_id] = summary

    async def record_result(self, table: Table, state: BaseModel) -> None:
        """Count the finished game in the server's stats (once, whatever retries)."""
        names = {seat.id: seat.name for seat in table.seats if not seat.is_computer}
        try:
            await self.bot.stats.record(
                table.guild_id, table.game, table.gid, self.engine.outcome(state), names
            )
        except StoreError as error:
            log.warning("Stats of game %s not recorded yet: %s", table.gid, error)

    async def _turn_deadline(self, table: Table, state: BaseModel) -> float | None:
        over = self.engine.is_over(state)
        return table_life.turn_deadline(
            table,
            [] if over else self.engine.to_act(state),
            now=await self.bot.clock.now(),
            over=over,
            has_timed_default=not over
            and self.adapter.timed_default(self.engine.view(state, None)) is not None,
            choice_timeout=self.bot.settings.choice_timeout_seconds,
        )

    # ----- follow-ups ---------------------------------------------------------

    def schedule(self, table: Table, rev: int, state: BaseModel) -> None:
        """Replace the channel's follow-ups with those the game at ``rev`` waits for."""
        self.bot.followups.cancel(table.channel_id)
        for follow_up in plan(table, state, self.adapter):
            self.bot.followups.keep(table.channel_id, self._move_later(table, rev, follow_up))

    def close_lobby_later(self, table: Table) -> None:
        self.bot.followups.keep(table.channel_id, self._close_lobby(table))

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
                table.turn_deadline = await self._turn_deadline(table, state)
            self.schedule(table, stored.rev, state)
        elif table.phase == "over":
            await self.record_result(table, state)

    async def _move_later(self, table: Table, rev: int, follow_up: FollowUp) -> None:
        """Make ``follow_up``'s move when its time comes, unless the game moved on. A
        store fault (Redis down) is retried with backoff until the move is made or the
        game has moved: a follow-up is never dropped."""
        if follow_up.kind == "computer":
            await asyncio.sleep(self.bot.settings.computer_pause_seconds)
        else:
            await self.bot.clock.sleep_until(table.turn_deadline or 0.0)
        for attempt in itertools.count():
            try:
                async with self.bot.channel_lock(table.guild_id, table.channel_id):
                    await self._make_follow_up(table, rev, follow_up)
                return
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

    async def _make_follow_up(self, table: Table, rev: int, follow_up: FollowUp) -> None:
        stored = await self.bot.store.load(table.guild_id, table.channel_id)
        if stored is None or stored.table.gid != table.gid or stored.rev != rev:
            # The game moved first: a click, or this follow-up made by another process
            # of the same shard (a rolling restart).
            log.info(
                "The %s move in channel %s was for revision %d; the game has moved on",
                follow_up.kind,
                table.channel_id,
                rev,
            )
            return
        current = stored.table.model_copy(deep=True)
        state = self.engine.State.model_validate(current.state)
        player = follow_up.player
        seat = current.seat_of(player)
        name = seat.name if seat else player
        before = state
        if follow_up.kind == "default":
            state = self.adapter.perform(state, player, follow_up.key)
            move = self.describe_move(current, follow_up.key, before, state)
            current = table_life.with_event(
                current,
                N_("Time was up, so the bot chose for **{name}**: {move}"),
                name=name,
                move=move,
            )
        else:
            state, action = await self._computer_move(current, rev, state, player)
            if follow_up.kind == "clock":
                current = table_life.clock_ran_out(current, player)
            else:
                move = self.describe_move(current, str(action), before, state)
                current = table_life.with_event(
                    current, N_("**{name}**: {move}"), name=name, move=move
                )
        new_rev = await self.commit(current, rev, state)
        await self.show(current, state, new_rev)

    async def _computer_move(
        self, table: Table, rev: int, state: BaseModel, player: PlayerId
    ) -> tuple[BaseModel, object]:
        """The computer's choice for ``player``'s seat (from that seat's view only, off
        the event loop), and the state after it."""
        seat = table.seat_of(player)
        level: Level = seat.level if seat and seat.level else "normal"
        rng = SeededRng.from_seed(table.seed ^ (rev * 0x9E3779B97F4A7C15))
        view = self.engine.view(state, player)
        action = await asyncio.to_thread(self.spec.players[level], view, rng)
        moved: BaseModel = self.engine.apply(state, player, action)
        return moved, action

    async def _close_lobby(self, table: Table) -> None:
        """Close the lobby if it is still waiting for its Start when its time is up."""
        await self.bot.clock.sleep_until(table.opened + self.bot.settings.lobby_timeout_seconds)
        try:
            async with self.bot.channel_lock(table.guild_id, table.channel_id):
                stored = await self.bot.store.load(table.guild_id, table.channel_id)
                if stored is None or stored.table.gid != table.gid:
                    return
                if stored.table.phase != "lobby":
                    return
                await self.bot.store.delete(stored.table, stored.rev)
                await self.close_message(
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

    # ----- messages in the channel ----------------------------------------------

    async def show(
        self, table: Table, state: BaseModel, rev: int, *, except_player: PlayerId | None = None
    ) -> None:
        """After a move: the table message edited, the turn announced, panels refreshed."""
        await self.edit_table_message(table, state, rev)
        await self.announce(table, state, except_player=except_player)

    async def announce(
        self, table: Table, state: BaseModel, *, except_player: PlayerId | None = None
    ) -> None:
        """Refresh the other open panels, and in the background post the summary of a
        deal that just ended and ping whoever's turn it now is. The posts don't hold up
        the click that caused them; they run one channel at a time (across processes:
        the channel's "announce" lock), from the game as Redis holds it then, so a burst
        of moves costs one ping."""
        self.bot.panels.refresh(table, except_player=except_player)
        channel = table.channel_id
        if channel in self._announcing:
            self._announcing[channel] = True
            return
        self._announcing[channel] = False
        self.bot.followups.run(self._announce_until_current(table))

    async def _announce_until_current(self, table: Table) -> None:
        channel = table.channel_id
        try:
            while True:
                self._announcing[channel] = False
                async with self.bot.channel_lock(table.guild_id, channel, purpose="announce"):
                    await self._announce_now(table)
                if not self._announcing.get(channel):
                    return
        except (StoreError, GameError) as error:
            log.info("No turn ping in %s: %s", channel, error)
        finally:
            self._announcing.pop(channel, None)

    async def _announce_now(self, table: Table) -> None:
        summary = self._deal_summaries.pop(table.channel_id, None)
        if summary is not None:
            await self._post_summary(table, summary)
        stored = await self.bot.store.load(table.guild_id, table.channel_id)
        if stored is None or stored.table.gid != table.gid or stored.table.state is None:
            return
        await self._ping_turn(stored.table, self.engine.State.model_validate(stored.table.state))

    async def _ping_turn(self, table: Table, state: BaseModel) -> None:
        """When the turn passes to other people, post a new message that mentions only
        them (Discord notifies for a created message, never for an edit) and delete the
        table's previous ping: a channel holds at most one ping per table."""
        people = self._people_to_ping(table, state)
        previous = table.ping
        if previous is not None and previous.players == people:
            return  # the same person keeps acting
        if previous is not None:  # first, so two pings are never alive at once
            await self.delete_message(table, previous.message_id)
        ping = await self._post_ping(table, people) if people else None
        await self.bot.store.set_ping(table, ping)
        table.ping = ping

    async def _post_summary(self, table: Table, summary: TableText) -> None:
        title = tr(table.lang, "{title}: a deal ended", title=tr(table.lang, self.engine.title))
        embed = embeds.table_embed(title, self.adapter.colour, summary, "", with_image=False)
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not post a deal summary in %s: %s", table.channel_id, error)

    def _people_to_ping(self, table: Table, state: BaseModel) -> list[PlayerId]:
        if not table.pings or self.engine.is_over(state):
            return []
        if not self.adapter.wants_ping(self.engine.view(state, None)):
            return []
        to_act = self.engine.to_act(state)
        computers = table.computers(to_act)
        return [player for player in to_act if player not in computers]

    async def _post_ping(self, table: Table, people: list[PlayerId]) -> Ping | None:
        mentions = " ".join(f"<@{player}>" for player in people)
        text = tr(
            table.lang,
            "{mentions}, your turn in {title}.",
            mentions=mentions,
            title=tr(table.lang, self.engine.title),
        )
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(p)) for p in people]
        )
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            message = await channel.send(text, allowed_mentions=allowed)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not ping in channel %s: %s", table.channel_id, error)
            return None
        return Ping(message_id=message.id, players=people)

    async def delete_message(self, table: Table, message_id: int) -> None:
        partial = self.bot.get_partial_messageable(table.channel_id)
        try:
            await partial.get_partial_message(message_id).delete()
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not delete message %s: %s", message_id, error)

    async def edit_table_message(self, table: Table, state: BaseModel, rev: int) -> None:
        if table.message_id is None:
            return
        message = await self.messages.table(table, state, rev)
        await self._edit(
            table,
            table.message_id,
            content=message.content,
            embed=message.embed,
            view=message.view,
            attachments=message.files(),
        )

    async def refresh_lobby_message(self, table: Table, rev: int) -> None:
        if table.message_id is None:
            return
        message = self.messages.lobby(table, rev)
        await self._edit(table, table.message_id, embed=message.embed, view=message.view)

    async def close_message(self, table: Table, reason: str) -> None:
        """Edit the table message to say the game is gone (no buttons, no image)."""
        if table.message_id is None:
            return
        embed = self.messages.closed(table, reason)
        await self._edit(
            table, table.message_id, content=None, embed=embed, view=None, attachments=[]
        )

    async def strip_buttons(self, table: Table, message_id: int) -> None:
        await self._edit(table, message_id, view=None)

    async def remember_message(self, table: Table, message_id: int | None) -> None:
        if message_id is not None and message_id != table.message_id:
            await self.bot.store.set_message(table, message_id)

    async def _edit(self, table: Table, message_id: int, **changes: Any) -> None:
        partial = self.bot.get_partial_messageable(table.channel_id)
        try:
            await partial.get_partial_message(message_id).edit(**changes)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not edit message %s: %s", message_id, error)
