"""The generic game cog: slash commands and click dispatch for any registered game.

Every interaction follows one path: load the channel's table, check the click is for
this game (and, where `bot.cogs.verbs` says so, this revision), apply the change (the
table's life in `bot.table_life`, moves through the engine), save with
compare-and-set (`TableFlow.commit`), then answer Discord with messages built by
`Messages`. Nothing is saved half-way, so a refused or failed interaction leaves the
stored game unchanged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from pydantic import BaseModel

from bot import table_life
from bot.ai import Level
from bot.cogs.components import Click, Pick, chosen_in_message
from bot.cogs.errors import answering_errors
from bot.cogs.interactions import (
    Interaction,
    answer_privately,
    can_manage_messages,
    chosen_level,
    is_ephemeral,
    message_id_of,
    person_of,
    place_of,
    player_of,
    public_lang,
    user_lang,
)
from bot.cogs.messages import Messages
from bot.cogs.options import check_options
from bot.cogs.panels import editable_until
from bot.cogs.table_flow import TableFlow
from bot.cogs.verbs import LOBBY_VERBS, PANEL_VERBS, STALE_POLICY, Verb, as_verb
from bot.engines.base import GameError, IllegalAction, PlayerId
from bot.games import GameSpec
from bot.i18n import N_, tr
from bot.render import embeds
from bot.store import Stored, TableSetAside
from bot.table import Table
from bot.texts import Picks

if TYPE_CHECKING:
    from bot.bot import TableBot

LOCK_WAIT_SECONDS = 1.0
"""How long a click waits for the one before it in the same channel. Discord drops an
answer after 3 s, and a store call may take up to 1.5 s when Redis stalls, so a click
queued longer is told the table is busy instead of being answered too late."""


class GameCog:
    """Slash commands and clicks for one registered game."""

    def __init__(self, bot: TableBot, spec: GameSpec[Any, Any, Any]) -> None:
        self.bot = bot
        self.spec = spec
        self.adapter = spec.adapter
        self.engine = spec.engine
        self.messages = Messages(self.adapter, bot.renderer)
        self.flow = TableFlow(bot, spec, self.messages)
        self.group = app_commands.Group(
            name=self.engine.name,
            description=app_commands.locale_str(
                f"Play {self.engine.title} in this channel",
                template=N_("Play {title} in this channel"),
                params={"title": self.engine.title},
            ),
            guild_only=True,
        )
        self._add_common_commands()
        spec.add_commands(self)

    # ----- slash commands -------------------------------------------------

    def _add_common_commands(self) -> None:
        common = [
            ("join", N_("Take a seat at the table in this channel"), self.join_command),
            (
                "leave",
                N_("Leave the table (a computer takes your seat in a running game)"),
                self.leave_command,
            ),
            ("hand", N_("See your private hand (only you see it)"), self.hand_command),
            (
                "status",
                N_("Post the table again at the bottom of the channel"),
                self.status_command,
            ),
            (
                "abandon",
                N_("End the game in this channel (host or moderators)"),
                self.abandon_command,
            ),
            ("rules", N_("A short summary of the rules"), self.rules_command),
        ]
        for name, description, handler in common:
            self.group.add_command(
                app_commands.Command(
                    name=name, description=description, callback=self._guarded(handler)
                )
            )

    def _guarded(self, handler: Any) -> Any:
        """``handler`` run under the channel's lock, with errors answered privately."""

        async def callback(interaction: discord.Interaction) -> None:
            await self._handle(interaction, handler, interaction)

        return callback

    def add_command(self, command: app_commands.Command[Any, Any, Any]) -> None:
        """A game's own command (``start`` with its options, ``move``…) in its group."""
        self.group.add_command(command)

    async def start(
        self,
        interaction: Interaction,
        options: BaseModel,
        *,
        host_seat: int | None = None,
        turn_seconds: int = 0,
    ) -> None:
        """Open a lobby in this channel; the starter is host and first seat (and sits at
        ``host_seat`` once the game starts; None: a random seat)."""
        await self._handle(
            interaction, self._open_lobby, interaction, options, host_seat, turn_seconds
        )

    async def _open_lobby(
        self, interaction: Interaction, options: BaseModel, host_seat: int | None, turn_seconds: int
    ) -> None:
        guild_id, channel_id = place_of(interaction)
        set_aside = False
        try:
            existing = await self.bot.store.load(guild_id, channel_id)
        except TableSetAside:
            existing, set_aside = None, True
        if existing and existing.table.phase != "over":
            raise GameError(
                "A {title} game is already running here; see `/{game} status`, "
                "or ask its host to abandon it.",
                title=tr(user_lang(interaction), self._title_of(existing.table.game)),
                game=existing.table.game,
            )
        table = Table(
            game=self.engine.name,
            opened=await self.bot.clock.now(),
            guild_id=guild_id,
            channel_id=channel_id,
            lang=public_lang(interaction),
            host=player_of(interaction),
            seats=[person_of(interaction)],
            options=options.model_dump(mode="json"),
            host_seat=host_seat,
            turn_seconds=turn_seconds or None,
        )
        await self._check_table_cap(guild_id)
        rev = await self.bot.store.save(table, existing.rev if existing else 0)
        if existing is not None and existing.table.message_id is not None:
            await self.flow.strip_buttons(existing.table, existing.table.message_id)
        self.flow.close_lobby_later(table)
        message = self.messages.lobby(table, rev)
        response = await interaction.response.send_message(embed=message.embed, view=message.view)
        await self.flow.remember_message(table, response.message_id)
        if set_aside:
            notice = tr(user_lang(interaction), TableSetAside().template)
            await interaction.followup.send(notice, ephemeral=True)

    async def _check_table_cap(self, guild_id: int) -> None:
        """Refuse a new table past the server's cap (finished tables don't count)."""
        cap = self.bot.settings.max_tables_per_server
        if await self.bot.store.live_tables_in(guild_id) >= cap:
            raise GameError(
                "This server has as many tables going as it may ({n}); "
                "finish or abandon one first.",
                n=cap,
            )

    async def join_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        table = table_life.joined(stored.table, person_of(interaction), self.engine.max_players)
        rev = await self.bot.store.save(table, stored.rev)
        await self.flow.refresh_lobby_message(table, rev)
        await answer_privately(interaction, tr(user_lang(interaction), "You joined the table."))

    async def leave_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        if stored.table.phase == "playing":
            await self._leave_running_game(interaction, stored)
            return
        table = table_life.left_lobby(stored.table, player_of(interaction))
        if not table.seats:
            await self.bot.store.delete(stored.table, stored.rev)
            await self.flow.close_message(
                stored.table, tr(stored.table.lang, "Everyone left; the table is closed.")
            )
        else:
            rev = await self.bot.store.save(table, stored.rev)
            await self.flow.refresh_lobby_message(table, rev)
        await answer_privately(interaction, tr(user_lang(interaction), "You left the table."))

    async def _leave_running_game(self, interaction: Interaction, stored: Stored) -> None:
        """A computer takes the leaver's seat; in a two-player game with a way to
        concede (draughts: resigning), the leaver loses instead."""
        table = stored.table.model_copy(deep=True)
        player, state = self._seated_player_state(interaction, table)
        conceded = self.adapter.concede(state, player) if len(table.seats) == 2 else None
        if conceded is not None:
            state = conceded
            answer = N_("You left the game and lost it.")
        else:
            table = table_life.handed_to_computer(table, player)
            answer = N_("You left the game; a computer player takes your seat.")
        rev = await self.flow.commit(table, stored.rev, state)
        await answer_privately(interaction, tr(user_lang(interaction), answer))
        await self.flow.show(table, state, rev)

    async def hand_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        await self._send_panel(interaction, stored)

    async def status_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction, allow_over=True)
        table = stored.table
        message = await self.messages.for_table(table, stored.rev)
        response = await interaction.response.send_message(
            content=message.content,
            embed=message.embed,
            view=message.view,
            files=message.files(),
            allowed_mentions=discord.AllowedMentions.none(),  # the turn ping notifies
        )
        previous = table.message_id
        await self.flow.remember_message(table, response.message_id)
        if previous is not None and previous != response.message_id:
            await self.flow.strip_buttons(table, previous)

    async def abandon_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        table = stored.table
        if not (player_of(interaction) == table.host or can_manage_messages(interaction)):
            raise GameError("Only the host or someone with Manage Messages can abandon the game.")
        await self.bot.store.delete(table, stored.rev)
        name = interaction.user.display_name
        await self.flow.close_message(table, tr(table.lang, "Abandoned by {name}.", name=name))
        await interaction.response.send_message(
            tr(
                table.lang,
                "{name} abandoned the {title} game.",
                name=name,
                title=self.messages.title(table.lang),
            )
        )

    async def rules_command(self, interaction: Interaction) -> None:
        lang = user_lang(interaction)
        embed = embeds.notice_embed(
            tr(lang, "{title}: rules", title=self.messages.title(lang)),
            self.adapter.colour,
            tr(lang, self.adapter.rules_summary),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def move_by_text(self, interaction: Interaction, move: str) -> None:
        """A move typed as a command option (``/draughts move c3-c4``)."""
        await self._handle(interaction, self._move_by_text, interaction, move)

    async def _move_by_text(self, interaction: Interaction, move: str) -> None:
        stored = await self._load_running(interaction)
        table = stored.table.model_copy(deep=True)
        player, state = self._seated_player_state(interaction, table)
        state = self.adapter.perform(state, player, move)
        table = table_life.moved_by(table, player, self.adapter.move_text(move, table.lang))
        rev = await self.flow.commit(table, stored.rev, state)
        await answer_privately(
            interaction, tr(user_lang(interaction), "You played `{move}`.", move=move)
        )
        await self.flow.show(table, state, rev)

    # ----- clicks -----------------------------------------------------------

    async def on_click(self, interaction: Interaction, click: Click) -> None:
        await self._handle(interaction, self._dispatch_click, interaction, click)

    async def _dispatch_click(self, interaction: Interaction, click: Click) -> None:
        verb = as_verb(click.verb)
        if verb is None:
            raise GameError("That button is not one I know.")
        stored = await self._load_for_click(interaction, click, verb)
        if verb in LOBBY_VERBS:
            await self._lobby_click(interaction, stored, verb)
        elif verb == "hand":
            await self._send_panel(interaction, stored)
        elif verb == "act":
            await self._action_click(interaction, stored, click)
        elif verb == "do":
            await self._panel_action(interaction, stored, click.arg)
        elif verb == "redraw":
            player, state = self._seated_player_state(interaction, stored.table)
            await self._redraw_panel(interaction, stored, state, player)
        else:
            await self._rematch(interaction, stored)

    async def on_pick(self, interaction: Interaction, pick: Pick) -> None:
        """A choice in a select: the lobby's computer level, or a panel pick (the panel
        is redrawn with it; nothing is saved)."""
        await self._handle(interaction, self._dispatch_pick, interaction, pick)

    async def _dispatch_pick(self, interaction: Interaction, pick: Pick) -> None:
        stored = await self._load_for_click(interaction, pick, None)
        if pick.key == "ai":
            await self._lobby_click(interaction, stored, "ai", level=chosen_level(pick.values))
            return
        picks = chosen_in_message(interaction.message)
        picks[pick.key] = pick.values
        player, state = self._seated_player_state(interaction, stored.table)
        await self._redraw_panel(interaction, stored, state, player, picks=picks)

    async def _handle(
        self,
        interaction: Interaction,
        work: Callable[..., Awaitable[None]],
        *args: Any,
    ) -> None:
        """The frame of every command and click: errors answered privately, the user's
        rate limit, the options checked, then ``work(*args)`` with the channel's lock
        held (see `TableBot.channel_lock`)."""
        async with answering_errors(interaction):
            await self.bot.rate_limiter.check(interaction.user.id)
            check_options(interaction)
            if interaction.channel_id is None:
                await work(*args)
                return
            lock = self.bot.channel_lock(interaction.channel_id)
            await _acquire_in_time(lock)
            try:
                await work(*args)
            finally:
                lock.release()

    async def _load_for_click(
        self, interaction: Interaction, click: Click | Pick, verb: Verb | None
    ) -> Stored:
        """The channel's table, if the click belongs to it (see `bot.cogs.verbs`)."""
        guild_id, channel_id = place_of(interaction)
        stored = await self.bot.store.load(guild_id, channel_id)
        if stored is None or stored.table.gid != click.gid:
            raise GameError(
                "That game has ended. Start a new one with `/{game} start`.", game=self.engine.name
            )
        if stored.table.game != self.engine.name:
            raise GameError("That button belongs to another game.")
        if verb is not None and STALE_POLICY[verb] == "exact_revision" and click.rev != stored.rev:
            raise GameError(
                "That button was for an earlier moment of the game: someone moved first. "
                "Check the table and choose again."
            )
        if verb in PANEL_VERBS and not is_ephemeral(interaction):
            raise GameError("That button only works on your private panel.")
        return stored

    async def _lobby_click(
        self, interaction: Interaction, stored: Stored, verb: Verb, *, level: Level = "normal"
    ) -> None:
        table = stored.table
        if table.phase != "lobby":
            raise GameError("The game has already started.")
        if verb == "start":
            await self._start_game(interaction, stored)
            return
        player = player_of(interaction)
        if verb == "join":
            table = table_life.joined(table, person_of(interaction), self.engine.max_players)
        elif verb == "leave":
            table = table_life.left_lobby(table, player)
        else:
            table = table_life.with_computer(table, player, level, self.engine.max_players)
        if not table.seats:
            await self.bot.store.delete(stored.table, stored.rev)
            notice = self.messages.closed(
                table, tr(table.lang, "Everyone left; the table is closed.")
            )
            await interaction.response.edit_message(embed=notice, view=None)
            return
        rev = await self.bot.store.save(table, stored.rev)
        message = self.messages.lobby(table, rev)
        await interaction.response.edit_message(embed=message.embed, view=message.view)

    async def _start_game(self, interaction: Interaction, stored: Stored) -> None:
        if player_of(interaction) != stored.table.host:
            raise GameError("Only the host can start the game.")
        if len(stored.table.seats) < self.engine.min_players:
            raise GameError(
                "{title} needs at least {n} players; invite friends or add computer players.",
                title=self.messages.title(user_lang(interaction)),
                n=self.engine.min_players,
            )
        table, state = self._deal(stored.table)
        await self._save_and_show(interaction, stored, table, state)

    def _deal(self, table: Table) -> tuple[Table, BaseModel]:
        """The table seated in playing order, and the engine's new game for it."""
        table = table_life.seated_for_deal(table)
        options = self.engine.Options.model_validate(table.options)
        state: BaseModel = self.engine.new_game(
            [seat.id for seat in table.seats], table.seed, options
        )
        return table, state

    async def _rematch(self, interaction: Interaction, stored: Stored) -> None:
        """The same game again with the same players and options, on a new message
        (the results stay above)."""
        table, state = self._deal(table_life.rematch_table(stored.table, player_of(interaction)))
        rev = await self.flow.commit(table, stored.rev, state)
        message = await self.messages.table(table, state, rev)
        response = await interaction.response.send_message(
            content=message.content,
            embed=message.embed,
            view=message.view,
            files=message.files(),
            allowed_mentions=discord.AllowedMentions.none(),  # the turn ping notifies
        )
        await self.flow.remember_message(table, response.message_id)
        if stored.table.message_id is not None:  # the old results' Rematch goes stale
            await self.flow.strip_buttons(stored.table, stored.table.message_id)
        await self.flow.announce(table, state)

    async def _action_click(self, interaction: Interaction, stored: Stored, click: Click) -> None:
        table = stored.table.model_copy(deep=True)
        if table.phase == "over":
            raise GameError("This game is over.")
        if table.phase != "playing":
            raise GameError("The game hasn't started yet.")
        player, state = self._seated_player_state(interaction, table)
        if message_id_of(interaction) not in (None, table.message_id):
            raise GameError("This table was posted again further down; use the newest one.")
        state = self.adapter.perform(state, player, click.arg)
        move = self.adapter.move_text(click.arg, table.lang)
        await self._save_and_show(
            interaction, stored, table_life.moved_by(table, player, move), state
        )

    async def _panel_action(self, interaction: Interaction, stored: Stored, key: str) -> None:
        """A move made on a private panel, checked against the game as it is now (see
        `bot.cogs.verbs`). The panel is redrawn either way, and the public table
        edited after a move."""
        table = stored.table.model_copy(deep=True)
        player, state = self._seated_player_state(interaction, table)
        if table.phase == "over":
            raise GameError("This game is over.")
        try:
            state = self.adapter.perform(state, player, key)
        except IllegalAction as refusal:
            notice = tr(user_lang(interaction), refusal.template, **refusal.params)
            await self._redraw_panel(interaction, stored, state, player, notice=notice)
            return
        table = table_life.moved_by(table, player, self.adapter.move_text(key, table.lang))
        rev = await self.flow.commit(table, stored.rev, state)
        await self._redraw_panel(interaction, Stored(table, rev), state, player)
        await self.flow.show(table, state, rev, except_player=player)

    async def _save_and_show(
        self, interaction: Interaction, stored: Stored, table: Table, state: BaseModel
    ) -> None:
        table.message_id = message_id_of(interaction) or table.message_id
        rev = await self.flow.commit(table, stored.rev, state)
        # The move is committed: acknowledge at once, then draw the new table.
        await interaction.response.defer()
        message = await self.messages.table(table, state, rev)
        await interaction.edit_original_response(
            content=message.content,
            embed=message.embed,
            view=message.view,
            attachments=message.files(),
        )
        await self.flow.announce(table, state)

    # ----- private panels ---------------------------------------------------

    async def _send_panel(self, interaction: Interaction, stored: Stored) -> None:
        """A fresh private panel for the player (ephemeral: only they see it), which then
        updates itself as the game goes on (`PanelKeeper`)."""
        player, state = self._seated_player_state(interaction, stored.table)
        lang = user_lang(interaction)
        expires = editable_until(await self.bot.clock.now())
        panel = await self.messages.panel(
            stored.table, stored.rev, state, player, {}, lang, expires=expires
        )
        response = await interaction.response.send_message(
            embed=panel.embed, view=panel.view, files=panel.files(), ephemeral=True
        )
        if response.message_id is not None:
            view = self.engine.view(state, player)
            await self.bot.panels.remember(interaction, player, response.message_id, view, lang)

    async def _redraw_panel(
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
        expires = editable_until(await self.bot.clock.now())
        panel = await self.messages.panel(
            stored.table, stored.rev, state, player, picks or {}, lang, notice, expires=expires
        )
        await interaction.response.edit_message(
            embed=panel.embed, view=panel.view, attachments=panel.files()
        )
        message = message_id_of(interaction)
        if message is not None:
            view = self.engine.view(state, player)
            await self.bot.panels.remember(interaction, player, message, view, lang)

    def _seated_player_state(self, interaction: Interaction, table: Table) -> tuple[PlayerId, Any]:
        player = player_of(interaction)
        seat = table.seat_of(player)
        if seat is None:
            raise GameError("You're not playing in this game.")
        if seat.left:
            raise GameError("You left this game; a computer player has your seat now.")
        if table.state is None:
            raise GameError("The game hasn't started yet.")
        return player, self.engine.State.model_validate(table.state)

    async def _load_running(self, interaction: Interaction, *, allow_over: bool = False) -> Stored:
        guild_id, channel_id = place_of(interaction)
        stored = await self.bot.store.load(guild_id, channel_id)
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

    def _title_of(self, game: str) -> str:
        running = self.bot.games.get(game)
        return running.engine.title if running else game


async def _acquire_in_time(lock: asyncio.Lock) -> None:
    try:
        async with asyncio.timeout(LOCK_WAIT_SECONDS):
            await lock.acquire()
    except TimeoutError:
        raise GameError("This table is busy right now; please try again in a moment.") from None
