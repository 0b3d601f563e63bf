"""What follows a saved move in the channel: the other open panels refreshed, the table
message edited, and the ping of whoever's turn it now is (one per table at a time);
and the one ping that invites a finished game's players to its rematch. A deal that
ended is shown on the table itself (its adapter's "Last deal"), not posted."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from pydantic import BaseModel

from bot import table_life
from bot.adapters.base import GameAdapter
from bot.engines.base import GameError, PlayerId
from bot.i18n import tr
from bot.names import shown_name
from bot.play.channel_messages import ChannelMessages, ChannelOf
from bot.storage.clock import Clock
from bot.storage.errors import StoreError
from bot.storage.locks import ChannelLocks
from bot.storage.settings import GuildSettingsStore
from bot.storage.tables import GameStore
from bot.table import Ping, Table

if TYPE_CHECKING:
    from bot.play.followups import FollowUps
    from bot.play.panels import PanelKeeper

log = logging.getLogger(__name__)


class Announcer:
    """One game's table edits and turn pings after a move."""

    def __init__(
        self,
        adapter: GameAdapter[Any, Any, Any],
        channel: ChannelMessages,
        *,
        store: GameStore,
        clock: Clock,
        locks: ChannelLocks,
        followups: FollowUps,
        panels: PanelKeeper,
        guild_settings: GuildSettingsStore,
        channel_of: ChannelOf,
    ) -> None:
        self.adapter = adapter
        self._store = store
        self._clock = clock
        self._locks = locks
        self._followups = followups
        self._panels = panels
        self._guild_settings = guild_settings
        self._channel_of = channel_of
        self.engine = adapter.engine
        self._channel = channel
        self._announcing: dict[int, bool] = {}
        """Channels with pings on their way; True: another move came meanwhile."""

    async def show(
        self,
        table: Table,
        state: BaseModel,
        rev: int,
        *,
        except_player: PlayerId | None = None,
        by_last_click: bool = False,
        opener_of: PlayerId | None = None,
    ) -> None:
        """After a move: panels refreshed and the turn announced (both in the background),
        then the table message edited. In that order because the edit may wait for the
        channel's rate limit (5 edits in 5 s) and the private panels must not wait with it.
        ``by_last_click``: a follow-up's move (a computer's), shown through the token of
        the table's last click; ``opener_of``: a person's move made on their panel or by
        a command, shown through the token of the click that opened their panel; either
        when it is kept (`ChannelMessages.edit_table_message`)."""
        await self.announce(table, state, rev, except_player=except_player)
        await self._channel.edit_table_message(
            table, state, rev, by_last_click=by_last_click, opener_of=opener_of
        )

    async def announce(
        self,
        table: Table,
        state: BaseModel,
        rev: int,
        *,
        except_player: PlayerId | None = None,
    ) -> None:
        """After revision ``rev`` was saved: refresh the other open panels (at once for
        those the game now waits for), and in the background ping whoever's turn it now
        is. The ping doesn't hold up the click that caused it; pings run one channel at
        a time (across processes: the channel's "announce" lock), from the game as Redis
        holds it then, so a burst of moves costs one ping."""
        waiting = () if self.engine.is_over(state) else self.engine.to_act(state)
        self._panels.refresh(
            table, state, rev, except_player=except_player, waiting=frozenset(waiting)
        )
        if await self._ping_may_change(table):
            self.ping_in_background(table)

    async def _ping_may_change(self, table: Table) -> bool:
        """Whether the ping pass has anything to do after this move: a ping is alive
        (it may be for someone no longer waited for), one is due, or a pass is under
        way in this process (it may have read the game before this move). Otherwise the
        pass is skipped: a fast table's moves cost no lock, load or decode for it, and
        `FollowUpMoves` wakes for the ping once it is due (`Table.ping_at`)."""
        if table.ping is not None or table.channel_id in self._announcing:
            return True
        return table.ping_at is not None and await self._clock.now() >= table.ping_at

    def ping_in_background(self, table: Table) -> None:
        """Bring the table's ping up to date with the game as Redis holds it, without
        holding up the caller (`_ping_turn`)."""
        channel = table.channel_id
        if channel in self._announcing:
            self._announcing[channel] = True
            return
        self._announcing[channel] = False
        self._followups.run(self._announce_until_current(table))

    async def _announce_until_current(self, table: Table) -> None:
        channel = table.channel_id
        try:
            while True:
                self._announcing[channel] = False
                async with self._locks.hold(table.guild_id, channel, purpose="announce"):
                    await self._announce_now(table)
                if not self._announcing.get(channel):
                    return
        except (StoreError, GameError) as error:
            log.info("No turn ping in %s: %s", channel, error)
        finally:
            self._announcing.pop(channel, None)

    async def _announce_now(self, table: Table) -> None:
        stored = await self._store.load(table.guild_id, table.channel_id)
        if stored is None or stored.table.gid != table.gid or stored.table.state is None:
            return
        await self._ping_turn(stored.table, self.engine.State.model_validate(stored.table.state))

    async def _ping_turn(self, table: Table, state: BaseModel) -> None:
        """Keep the table's one ping current. Once their ping is due (`Table.ping_at`;
        `FollowUpMoves` wakes for it), the people the game waits for get a new message
        that mentions only them (Discord notifies for a created message, never for an
        edit); a ping for people no longer waited for is deleted first, so a channel
        holds at most one ping per table. People who act before their ping is due are
        never pinged."""
        people = await self._people_to_ping(table, state)
        previous = table.ping
        if previous is not None and previous.players == people:
            return  # the same person keeps acting
        due = table.ping_at is not None and await self._clock.now() >= table.ping_at
        if previous is None and not (people and due):
            return  # nothing to post or delete yet
        if previous is not None:  # first, so two pings are never alive at once
            await self._channel.delete_message(table, previous.message_id)
        ping = await self._post_ping(table, people) if people and due else None
        await self._store.set_ping(table, ping)
        table.ping = ping

    async def _people_to_ping(self, table: Table, state: BaseModel) -> list[PlayerId]:
        """Who is pinged now: the people to act, but computers and those who turned their
        own pings off (`/pings off`)."""
        if not table.pings or self.engine.is_over(state):
            return []
        if not self.adapter.wants_ping(self.engine.view(state, None)):
            return []
        people = table_life.people_among(table, self.engine.to_act(state))
        quiet = await self._guild_settings.quiet_among(table.guild_id, people)
        return [player for player in people if player not in quiet]

    async def _post_ping(self, table: Table, people: list[PlayerId]) -> Ping | None:
        """A message mentioning ``people`` with a link to the table and the button they
        need next (their private panel), so a ping on a phone leads to the game."""
        mentions = " ".join(f"<@{player}>" for player in people)
        title = tr(table.lang, self.engine.title)
        text = tr(table.lang, "{mentions}, your turn in {title}.", mentions=mentions, title=title)
        text += table_link(table)
        view = self._channel.messages.ping_view(table)
        try:
            channel = self._channel_of(table.channel_id)
            message = await channel.send(text, allowed_mentions=only(people), view=view)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not ping in channel %s: %s", table.channel_id, error)
            return None
        return Ping(message_id=message.id, players=people)

    async def invite(self, table: Table, inviter: PlayerId, through: discord.Webhook) -> None:
        """One message inviting the people of a rematch lobby who aren't seated yet: it
        mentions them (notifying only those who haven't turned their pings off), says
        who asks, links the lobby and carries its Join button. Nobody is seated by it.
        Posted as a follow-up of the Rematch click (``through``, its webhook), which
        neither the channel's limit on new messages nor the bot token's counts; through
        the channel if Discord refuses it."""
        people = [p for p in table.invited if table.seat_of(p) is None]
        seat = table.seat_of(inviter)
        if not people or seat is None:
            return
        lang = table.lang
        text = tr(
            lang,
            "{mentions}, {name} asks for a rematch of {title}: press **{join}** to take your seat.",
            mentions=" ".join(f"<@{player}>" for player in people),
            name=shown_name(seat.name),
            title=tr(lang, self.engine.title),
            join=tr(lang, "Join"),
        )
        text += table_link(table)
        try:
            quiet = await self._guild_settings.quiet_among(table.guild_id, people)
            mentions = only([p for p in people if p not in quiet])
            await self._post_invitation(table, text, mentions, through)
        except (discord.HTTPException, aiohttp.ClientError, StoreError) as error:
            log.info("Could not invite to a rematch in %s: %s", table.channel_id, error)

    async def _post_invitation(
        self, table: Table, text: str, mentions: discord.AllowedMentions, through: discord.Webhook
    ) -> None:
        view = self._channel.messages.invitation_view(table)
        try:
            await through.send(text, allowed_mentions=mentions, view=view)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("The Rematch click could not invite in %s: %s", table.channel_id, error)
            await self._channel_of(table.channel_id).send(
                text, allowed_mentions=mentions, view=view
            )


def table_link(table: Table) -> str:
    """A new line linking the table's message ("" while it has none)."""
    if table.message_id is None:
        return ""
    link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
    return "\n" + tr(table.lang, "The table: {link}", link=link)


def only(people: list[PlayerId]) -> discord.AllowedMentions:
    """Mentions that notify ``people`` and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(int(p)) for p in people]
    )
