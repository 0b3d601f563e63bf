"""Clicks on a game's buttons and selects: the lobby, the table and private panels.

Each click is checked against the channel's table by the one policy in
`bot.play.verbs` before it does anything.
"""

from __future__ import annotations

from functools import partial

import discord
from pydantic import BaseModel

from bot import table_life
from bot.ai import Level
from bot.engines.base import GameError, IllegalAction
from bot.i18n import tr
from bot.play.components import Click, Pick, chosen_in_message
from bot.play.errors import answering_errors
from bot.play.game_parts import GameParts, Shown
from bot.play.interactions import (
    Interaction,
    chosen_level,
    is_ephemeral,
    message_id_of,
    person_of,
    place_of,
    player_of,
    user_lang,
)
from bot.play.records import note
from bot.play.verbs import LOBBY_VERBS, PANEL_VERBS, STALE_POLICY, Verb, as_verb
from bot.storage.errors import StaleRevision
from bot.storage.tables import Stored
from bot.table import Table


class Clicks:
    """Dispatches a game's button clicks and select choices."""

    def __init__(self, parts: GameParts) -> None:
        self.parts = parts
        self.shared = parts.shared
        self.engine = parts.engine
        self.adapter = parts.adapter
        self.messages = parts.messages
        self.saving = parts.saving
        self.announcer = parts.announcer
        self.channel = parts.channel

    # ----- clicks -----------------------------------------------------------

    async def on_click(self, interaction: Interaction, click: Click) -> None:
        async with answering_errors(interaction):
            async with self.parts.admitted(interaction):
                shown = await self._dispatch_click(interaction, click)
            if shown is not None:
                await shown()

    async def _dispatch_click(self, interaction: Interaction, click: Click) -> Shown | None:
        """The click's verb carried out; what it saved, to show once the lock is free."""
        verb = as_verb(click.verb)
        if verb is None:
            raise GameError("That button is not one I know.")
        stored = await self._load_for_click(interaction, click, verb)
        if verb in LOBBY_VERBS:
            return await self._lobby_click(interaction, stored, verb)
        if verb == "act":
            return await self._action_click(interaction, stored, click)
        if verb == "do":
            return await self._panel_action(interaction, stored, click.arg)
        if verb == "rematch":
            return await self._rematch(interaction, stored, click)
        if verb == "hand":
            await self.parts.send_panel(interaction, stored)
        elif verb == "redraw":
            player, state = self.parts.seated_player_state(interaction, stored.table)
            await self.parts.redraw_panel(interaction, stored, state, player)
        elif verb == "rules":
            embed = self.messages.rules(user_lang(interaction))
            await interaction.response.send_message(embed=embed, ephemeral=True)
        return None

    async def on_pick(self, interaction: Interaction, pick: Pick) -> None:
        """A choice in a select: the lobby's computer level, or a panel pick (the panel
        is redrawn with it; nothing is saved)."""
        async with answering_errors(interaction), self.parts.admitted(interaction):
            await self._dispatch_pick(interaction, pick)

    async def _dispatch_pick(self, interaction: Interaction, pick: Pick) -> None:
        stored = await self._load_for_click(interaction, pick, None)
        if pick.key == "ai":
            await self._lobby_click(interaction, stored, "ai", level=chosen_level(pick.values))
            return
        picks = chosen_in_message(interaction.message)
        picks[pick.key] = pick.values
        player, state = self.parts.seated_player_state(interaction, stored.table)
        await self.parts.redraw_panel(interaction, stored, state, player, picks=picks)

    async def _load_for_click(
        self, interaction: Interaction, click: Click | Pick, verb: Verb | None
    ) -> Stored:
        """The channel's table, if the click belongs to it (see `bot.play.verbs`)."""
        guild_id, channel_id = place_of(interaction)
        stored = await self.shared.store.load(guild_id, channel_id)
        if stored is None or not _belongs(stored.table, click, verb):
            raise GameError(
                "That game has ended. Start a new one with `/{game} start`.", game=self.engine.name
            )
        if stored.table.game != self.engine.name:
            raise GameError("That button belongs to another game.")
        if verb is not None and STALE_POLICY[verb] == "exact_revision" and click.rev != stored.rev:
            self._redraw_if_behind(interaction, stored, click.rev)
            raise GameError(
                "That button was for an earlier moment of the game: someone moved first. "
                "Check the table and choose again."
            )
        if verb in PANEL_VERBS and not is_ephemeral(interaction):
            raise GameError("That button only works on your private panel.")
        return stored

    def _redraw_if_behind(self, interaction: Interaction, stored: Stored, shown: int) -> None:
        """A click on a table message (drawn at revision ``shown``) that differs from the
        stored game, which no edit here has drawn or is drawing: a move whose save Redis
        made but whose answer was lost, a process that stopped between a save and its
        edit, or a shown revision that a failover lost (``shown`` newer than the stored
        one). The stored game is drawn in the background, so the clicker sees it."""
        table = stored.table
        message = interaction.message
        if is_ephemeral(interaction) or message is None or message.id != table.message_id:
            return
        edits = self.shared.table_edits
        if shown > stored.rev:
            edits.forget(table.channel_id, table.gid)
        if table.state is not None and edits.behind(table.channel_id, table.gid, stored.rev):
            self.shared.followups.run(self._redraw_once_safe(stored))

    async def _redraw_once_safe(self, stored: Stored) -> None:
        """Draw ``stored`` on its table message; with ``REDIS_MIN_REPLICAS``, only once a
        replica has it (a move no replica confirmed is never shown)."""
        table, store = stored.table, self.shared.store
        if store.min_replicas > 0 and not await store.copied(table, stored.rev):
            return
        state = self.engine.State.model_validate(table.state)
        await self.channel.edit_table_message(table, state, stored.rev)

    async def _lobby_click(
        self, interaction: Interaction, stored: Stored, verb: Verb, *, level: Level = "normal"
    ) -> Shown | None:
        table = stored.table
        if table.phase != "lobby":
            raise GameError("The game has already started.")
        if verb == "start":
            return await self._start_game(interaction, stored)
        if verb == "join":
            return await self._join(interaction, stored)
        player = player_of(interaction)
        if verb == "leave":
            table = table_life.left_lobby(table, player)
        elif verb == "pings":
            table = table_life.with_pings_toggled(table, player)
        elif verb == "open":
            table = table_life.with_seats_opened(table, player)
        else:
            now = await self.shared.clock.now()
            table = table_life.with_computer(table, player, level, self.engine.max_players, now=now)
        if not table.seats:
            await self.shared.store.delete(stored.table, stored.rev)
            notice = self.messages.closed(
                table, tr(table.lang, "Everyone left; the table is closed.")
            )
            await interaction.response.edit_message(embed=notice, view=None)
            return None
        rev = await self.shared.store.save(table, stored.rev)
        message = self.messages.lobby(table, rev)
        await interaction.response.edit_message(embed=message.embed, view=message.view)
        return None

    async def _start_game(self, interaction: Interaction, stored: Stored) -> Shown:
        if player_of(interaction) != stored.table.host:
            raise GameError("Only the host can start the game.")
        if len(stored.table.seats) < self.engine.min_players:
            raise GameError(
                "{title} needs at least {n} players; invite friends or add computer players.",
                title=self.messages.title(user_lang(interaction)),
                n=self.engine.min_players,
            )
        table, state = self.parts.deal(stored.table)
        return await self.parts.save_and_show(interaction, stored, table, state)

    async def _join(self, interaction: Interaction, stored: Stored) -> Shown | None:
        """A person takes a seat: on the lobby message, which is redrawn (or dealt on, if
        the join completes a rematch's invitation), or on the invitation to a rematch,
        answered privately."""
        player = player_of(interaction)
        now = await self.shared.clock.now()
        table = table_life.joined(
            stored.table, person_of(interaction), self.engine.max_players, now=now
        )
        if stored.table.message_id not in (None, message_id_of(interaction)):
            return await self.parts.seat_taken(interaction, stored, table, player)
        if table_life.starts_itself(table, player, self.engine.min_players):
            table, state = self.parts.deal(table)
            return await self.parts.save_and_show(interaction, stored, table, state)
        rev = await self.shared.store.save(table, stored.rev)
        message = self.messages.lobby(table, rev)
        await interaction.response.edit_message(embed=message.embed, view=message.view)
        return None

    async def _rematch(
        self, interaction: Interaction, stored: Stored, click: Click
    ) -> Shown | None:
        """A Rematch click on a finished game's results: the first opens the rematch's
        lobby, a later one (its game id is the finished game's) takes a seat in it."""
        if stored.table.gid != click.gid:
            return await self._join_rematch(interaction, stored)
        now = await self.shared.clock.now()
        table = table_life.rematch_lobby(stored.table, person_of(interaction), now=now)
        if table_life.starts_itself(table, player_of(interaction), self.engine.min_players):
            return await self._deal_rematch(interaction, stored, table)  # nobody to invite
        try:
            rev = await self.shared.store.save(table, stored.rev)
        except StaleRevision:  # a Rematch in another process came first: join its lobby
            opened = await self.shared.store.load(table.guild_id, table.channel_id)
            if opened is None or opened.table.rematch_of != stored.table.gid:
                raise
            return await self._join_rematch(interaction, opened)
        self.parts.moves.close_lobby_later(table)
        message = self.messages.lobby(table, rev)
        response = await interaction.response.send_message(embed=message.embed, view=message.view)
        await self.channel.remember_message(table, response.message_id)
        table.message_id = response.message_id
        return partial(self._rematch_opened, interaction, stored.table, table)

    async def _rematch_opened(
        self, interaction: Interaction, finished: Table, lobby: Table
    ) -> None:
        """Once the lock is free: the finished game's results keep Replay and lose their
        Rematch (it opened this lobby), and the invitation goes out as a follow-up of
        the Rematch click."""
        await self.channel.retire_results(finished)
        invitation = self.announcer.invite(lobby, player_of(interaction), interaction.followup)
        self.shared.followups.run(invitation)

    async def _join_rematch(self, interaction: Interaction, stored: Stored) -> Shown | None:
        """A player of the finished game takes their seat in its rematch's lobby."""
        now = await self.shared.clock.now()
        table = table_life.joined_rematch(
            stored.table, person_of(interaction), self.engine.max_players, now=now
        )
        return await self.parts.seat_taken(interaction, stored, table, player_of(interaction))

    async def _deal_rematch(self, interaction: Interaction, stored: Stored, table: Table) -> Shown:
        """The rematch dealt at once, on a new message (the results stay above)."""
        table, state = self.parts.deal(table)
        rev = await self.saving.commit(table, stored.rev, state)
        message = await self.messages.table(table, state, rev)
        response = await interaction.response.send_message(
            content=message.content,
            embed=message.embed,
            view=message.view,
            files=message.files(),
            allowed_mentions=discord.AllowedMentions.none(),  # the turn ping notifies
        )
        await self.channel.remember_message(table, response.message_id)
        return partial(self._rematch_dealt, stored.table, table, state, rev)

    async def _rematch_dealt(
        self, finished: Table, table: Table, state: BaseModel, rev: int
    ) -> None:
        await self.channel.retire_results(finished)
        await self.announcer.announce(table, state, rev)

    async def _action_click(self, interaction: Interaction, stored: Stored, click: Click) -> Shown:
        table = stored.table.model_copy(deep=True)
        if table.phase == "over":
            raise GameError("This game is over.")
        if table.phase != "playing":
            raise GameError("The game hasn't started yet.")
        player, state = self.parts.seated_player_state(interaction, table)
        if message_id_of(interaction) not in (None, table.message_id):
            raise GameError("This table was posted again further down; use the newest one.")
        before, state = state, self.adapter.perform(state, player, click.arg)
        note(table, player, click.arg)
        move = self.saving.describe_move(table, click.arg, before, state)
        return await self.parts.save_and_show(
            interaction, stored, table_life.moved_by(table, player, move), state
        )

    async def _panel_action(
        self, interaction: Interaction, stored: Stored, key: str
    ) -> Shown | None:
        """A move made on a private panel, checked against the game as it is now (see
        `bot.play.verbs`). The panel is redrawn either way, and the public table
        edited after a move."""
        table = stored.table.model_copy(deep=True)
        player, state = self.parts.seated_player_state(interaction, table)
        if table.phase == "over":
            raise GameError("This game is over.")
        before = state
        try:
            state = self.adapter.perform(state, player, key)
        except IllegalAction as refusal:
            notice = tr(user_lang(interaction), refusal.template, **refusal.params)
            await self.parts.redraw_panel(interaction, stored, state, player, notice=notice)
            return None
        note(table, player, key)
        move = self.saving.describe_move(table, key, before, state)
        table = table_life.moved_by(table, player, move)
        rev = await self.saving.commit(table, stored.rev, state)
        await self.parts.redraw_panel(interaction, Stored(table, rev), state, player)
        return partial(
            self.announcer.show, table, state, rev, except_player=player, opener_of=player
        )


def _belongs(table: Table, click: Click | Pick, verb: Verb | None) -> bool:
    """Whether a click is for the channel's table: its game's, or the Rematch of the
    finished game whose rematch this table is."""
    if table.gid == click.gid:
        return True
    return verb == "rematch" and table.rematch_of == click.gid and table.phase != "over"
