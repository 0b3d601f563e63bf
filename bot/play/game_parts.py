"""What a game's commands and clicks share, composed once per game: the frame each
interaction runs in (errors answered privately, the rate limit, option checks, the
channel's lock), loading the channel's table, dealing, and showing the table and
private panels."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import discord
from pydantic import BaseModel

from bot import table_life
from bot.adapters.spec import GameSpec
from bot.engines.base import GameError, PlayerId
from bot.i18n import Lang, tr
from bot.play.announce import Announcer
from bot.play.channel_messages import ChannelMessages
from bot.play.followups import FollowUpMoves, FollowUpPlanner
from bot.play.interactions import (
    Interaction,
    answer_privately,
    expired,
    message_id_of,
    place_of,
    player_of,
    user_lang,
)
from bot.play.messages import Messages
from bot.play.options import check_options
from bot.play.panels import editable_until
from bot.play.saving import Saving
from bot.play.shared import Shared
from bot.play.table_edits import ClickToken
from bot.storage.tables import Stored
from bot.table import Seat, Table
from bot.texts import Picks

log = logging.getLogger(__name__)

LOCK_WAIT_SECONDS = 1.0
"""How long a click waits for the one before it in the same channel. Discord drops an
answer after 3 s, and a store call may take up to 1.5 s when Redis stalls, so a click
queued longer is told the table is busy instead of being answered too late."""

Shown = Callable[[], Awaitable[None]]
"""What a handler returns for after the channel's lock: drawing and showing the move it
saved, which the next click in the channel need not wait for (`TableEdits` keeps the
table's edits in revision order). Every command and click reads, top to bottom::

    async with answering_errors(interaction):  # a refusal: a private answer
        async with parts.admitted(interaction):  # rate limit, options, the lock
            shown = await <load, check, apply, save>
        if shown is not None:
            await shown()  # redraw, panels, pings
"""


class GameParts:
    """One registered game's engine, adapter and messages, and the parts a move goes
    through: `saving`, `announcer` (table edit, panels, pings), `channel` (other
    message edits) and `moves` (follow-ups)."""

    def __init__(self, shared: Shared, spec: GameSpec[Any, Any, Any]) -> None:
        self.shared = shared
        self.spec = spec
        self.adapter = spec.adapter
        self.engine = spec.engine
        self.messages = Messages(self.adapter, shared.renderer)
        self.channel = ChannelMessages(
            self.messages,
            store=shared.store,
            table_edits=shared.table_edits,
            channel_of=shared.channel_of,
            webhook_of=shared.webhook_of,
        )
        self.announcer = Announcer(
            self.adapter,
            self.channel,
            store=shared.store,
            clock=shared.clock,
            locks=shared.locks,
            followups=shared.followups,
            panels=shared.panels,
            guild_settings=shared.guild_settings,
            channel_of=shared.channel_of,
        )
        planner = FollowUpPlanner()
        self.saving = Saving(
            self.adapter,
            self.announcer,
            planner,
            store=shared.store,
            clock=shared.clock,
            locks=shared.locks,
            followups=shared.followups,
            stats=shared.stats,
            records=shared.records,
            timing=shared.limits.timing,
            guild_settings=shared.guild_settings,
            game_over=shared.tournaments.game_over,
        )
        self.moves = FollowUpMoves(
            spec,
            self.saving,
            self.channel,
            self.announcer,
            store=shared.store,
            clock=shared.clock,
            locks=shared.locks,
            followups=shared.followups,
            thinkers=shared.thinkers,
            computer_pause_seconds=shared.limits.computer_pause_seconds,
            lobby_timeout_seconds=shared.limits.lobby_timeout_seconds,
        )
        planner.bind(self.moves)

    async def open_seated(
        self,
        guild_id: int,
        channel: discord.Thread,
        seats: list[Seat],
        options: dict[str, Any],
        lang: Lang,
    ) -> None:
        """A game dealt at once to ``seats`` in ``channel`` (a tournament's table): saved,
        its follow-ups planned, and posted with a mention of its people, their one ping."""
        people = [seat for seat in seats if not seat.is_ai]
        table = Table(
            game=self.engine.name,
            opened=await self.shared.clock.now(),
            guild_id=guild_id,
            channel_id=channel.id,
            lang=lang,
            host=(people or seats)[0].id,
            seats=seats,
            options=self.engine.Options.model_validate(options).model_dump(mode="json"),
        )
        table, state = self.deal(table)
        rev = await self.saving.commit(table, 0, state)
        message = await self.messages.table(table, state, rev)
        mentions = " ".join(f"<@{seat.id}>" for seat in people)
        sent = await channel.send(
            content=f"{mentions}\n{message.content or ''}".strip(),
            embed=message.embed,
            view=message.view,
            files=message.files(),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(int(s.id)) for s in people]
            ),
        )
        await self.channel.remember_message(table, sent.id)

    @asynccontextmanager
    async def admitted(self, interaction: Interaction) -> AsyncIterator[None]:
        """The user's rate limit and the command's options checked, then the channel's
        lock across processes held (`bot.storage.locks`, waited for at most
        `LOCK_WAIT_SECONDS`; an interaction outside a channel has none to take). A
        refusal raises before the block runs, for `answering_errors` to answer."""
        await self.shared.rate_limiter.check(interaction.user.id)
        check_options(interaction)
        if interaction.channel_id is None:
            yield
            return
        guild_id = interaction.guild_id or 0
        async with self.shared.locks.hold(guild_id, interaction.channel_id, wait=LOCK_WAIT_SECONDS):
            yield

    def deal(self, table: Table) -> tuple[Table, BaseModel]:
        """The table seated in playing order, and the engine's new game for it."""
        table = table_life.seated_for_deal(table)
        options = self.engine.Options.model_validate(table.options)
        state: BaseModel = self.engine.new_game(
            [seat.id for seat in table.seats], table.seed, options
        )
        return table, state

    async def save_and_show(
        self, interaction: Interaction, stored: Stored, table: Table, state: BaseModel
    ) -> Shown:
        """Save the move and acknowledge the click at once; return the drawing of the new
        table, for the caller to run once the channel is free (the save was a
        compare-and-set on the revision, so nothing needs the lock after it)."""
        table.message_id = message_id_of(interaction) or table.message_id
        rev = await self.saving.commit(table, stored.rev, state)
        try:
            await interaction.response.defer()
        except discord.NotFound as error:
            if not expired(error):
                raise
            # Too late to answer (a slow moment): the move stands, so the table is
            # still edited, through the channel rather than the dropped interaction.
            log.warning("Interaction %s expired; showing its saved move", interaction.id)
            return partial(self.announcer.show, table, state, rev)
        return partial(self._show_saved, interaction, table, state, rev)

    async def _show_saved(
        self, interaction: Interaction, table: Table, state: BaseModel, rev: int
    ) -> None:
        """The table message edited to revision ``rev``, unless a newer one is shown; the
        click is kept to show the moves that follow it (a computer's reply) the same way,
        and the player's later moves on their panel or by a command."""
        edits, player = self.shared.table_edits, player_of(interaction)
        if (click := ClickToken.of(interaction)) is not None:
            edits.remember_click(table.channel_id, table.gid, click)
            if table.seat_of(player) is not None:
                edits.remember_opener(table.channel_id, table.gid, player, click)
        async with edits.turn(table.channel_id, table.gid, rev) as current:
            if current:
                message = await self.messages.table(table, state, rev)
                await interaction.edit_original_response(
                    content=message.content,
                    embed=message.embed,
                    view=message.view,
                    attachments=message.files(),
                )
        await self.announcer.announce(table, state, rev)

    async def seat_taken(
        self, interaction: Interaction, stored: Stored, table: Table, player: PlayerId
    ) -> Shown | None:
        """Save ``player``'s join made away from the lobby message (a command, the
        invitation to a rematch, the finished game's Rematch), answered privately: the
        lobby message is refreshed, or, when the join completes a rematch's invitation
        (`table_life.starts_itself`), the game is dealt on it."""
        if table_life.starts_itself(table, player, self.engine.min_players):
            table, state = self.deal(table)
            rev = await self.saving.commit(table, stored.rev, state)
            await answer_privately(interaction, tr(user_lang(interaction), "You joined the table."))
            return partial(self.announcer.show, table, state, rev)
        rev = await self.shared.store.save(table, stored.rev)
        await self.channel.refresh_lobby_message(table, rev)
        await answer_privately(interaction, tr(user_lang(interaction), "You joined the table."))
        return None

    # ----- private panels ---------------------------------------------------

    async def send_panel(self, interaction: Interaction, stored: Stored) -> None:
        """A fresh private panel for the player (ephemeral: only they see it), which then
        updates itself as the game goes on (`PanelKeeper`). Opened from the table
        message, the click is acknowledged leaving the table as it is, and the panel
        comes as its ephemeral follow-up: the click's token can then edit the table too
        (its ``@original``), and shows the moves this player makes on the panel
        (`TableEdits.remember_opener`) without a request on the bot's token."""
        table = stored.table
        player, state = self.seated_player_state(interaction, table)
        on_table = table.message_id is not None and message_id_of(interaction) == table.message_id
        if on_table:
            await interaction.response.defer()
        lang = user_lang(interaction)
        expires = editable_until(await self.shared.clock.now())
        panel = await self.messages.panel(
            table, stored.rev, state, player, {}, lang, expires=expires
        )
        async with self.shared.panels.lock(table.channel_id, player):  # as in redraw_panel
            if on_table:
                sent = await interaction.followup.send(
                    embed=panel.embed,
                    view=panel.view,
                    files=panel.files(),
                    ephemeral=True,
                    wait=True,
                )
                message_id: int | None = sent.id
            else:
                response = await interaction.response.send_message(
                    embed=panel.embed, view=panel.view, files=panel.files(), ephemeral=True
                )
                message_id = response.message_id
            if message_id is not None:
                view = self.engine.view(state, player)
                await self.shared.panels.remember(
                    interaction, player, message_id, view, lang, {}, shown=panel, expires=expires
                )
        if on_table and (click := ClickToken.of(interaction)) is not None:
            self.shared.table_edits.remember_opener(table.channel_id, table.gid, player, click)

    async def redraw_panel(
        self,
        interaction: Interaction,
        stored: Stored,
        state: BaseModel,
        player: PlayerId,
        *,
        notice: str = "",
        picks: Picks | None = None,
    ) -> None:
        """Redraw the panel this click came from; its fresh token keeps it live."""
        lang = user_lang(interaction)
        expires = editable_until(await self.shared.clock.now())
        panel = await self.messages.panel(
            stored.table, stored.rev, state, player, picks or {}, lang, notice, expires=expires
        )
        channel = stored.table.channel_id
        async with self.shared.panels.lock(channel, player):  # not while the bot edits it
            await interaction.response.edit_message(
                embed=panel.embed, view=panel.view, attachments=panel.files()
            )
            message = message_id_of(interaction)
            if message is not None:
                view = self.engine.view(state, player)
                await self.shared.panels.remember(
                    interaction,
                    player,
                    message,
                    view,
                    lang,
                    picks or {},
                    shown=panel,
                    expires=expires,
                )

    def seated_player_state(self, interaction: Interaction, table: Table) -> tuple[PlayerId, Any]:
        player = player_of(interaction)
        seat = table.seat_of(player)
        if seat is None:
            raise GameError("You're not playing in this game.")
        if seat.left:
            raise GameError("You left this game; a computer player has your seat now.")
        if table.state is None:
            raise GameError("The game hasn't started yet.")
        return player, self.engine.State.model_validate(table.state)

    async def load_running(self, interaction: Interaction, *, allow_over: bool = False) -> Stored:
        guild_id, channel_id = place_of(interaction)
        stored = await self.shared.store.load(guild_id, channel_id)
        if stored is None or stored.table.game != self.engine.name:
            raise GameError(
                "There's no {title} game in this channel; start one with `/{game} start`.",
                title=self.messages.title(user_lang(interaction)),
                game=self.engine.name,
            )
        if stored.table.phase == "over" and not allow_over:
            raise GameError(
                "The game here is over; start a new one with `/{game} start`.",
                game=self.engine.name,
            )
        return stored

    def title_of(self, game: str) -> str:
        running = self.shared.games.get(game)
        return running.engine.title if running else game
