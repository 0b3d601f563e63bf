"""The generic game cog: lobby, turns, table messages and slash commands for any game.

Every interaction follows one path: load the channel's table, check the click is
for this game and revision, apply the engine action (and any computer turns), save
with compare-and-set, then answer Discord. Nothing is saved half-way, so a
refused or failed interaction leaves the stored game unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.ai import LEVELS, Level, players_for
from bot.ai.random_player import choose_uniform
from bot.cogs.adapter import GameAdapter, Picks, PrivatePanel
from bot.cogs.components import (
    Click,
    GameButton,
    GameSelect,
    Pick,
    button_view,
    chosen_in_message,
)
from bot.cogs.errors import answering_errors
from bot.engines.base import GameError, IllegalAction, PlayerId, SeededRng
from bot.i18n import N_, Lang, lang_of, tr
from bot.i18n.german import NAMES
from bot.render import embeds
from bot.store import Stored, StoreError
from bot.table import Seat, Table

if TYPE_CHECKING:
    from bot.bot import TableBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
MISSED_TURNS_LIMIT = 3
"""Turns in a row a person may let the clock run out before a computer takes over."""
LOBBY_VERBS = frozenset({"join", "leave", "ai", "start"})
LEVEL_NAMES: dict[Level, str] = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}


@dataclass
class TableMessage:
    """Everything needed to send or edit a table message."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View
    png: bytes | None

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=embeds.TABLE_IMAGE)]


class GameCog:
    """Slash commands and clicks for one game, built from its `GameAdapter`."""

    def __init__(self, bot: TableBot, adapter: GameAdapter[Any, Any, Any]) -> None:
        self.bot = bot
        self.adapter = adapter
        self.engine = adapter.engine
        self._pending: dict[int, set[asyncio.Task[None]]] = {}
        """Computer moves, timed defaults and turn clocks waiting, per channel."""
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

    def _title(self, lang: Lang) -> str:
        return tr(lang, self.engine.title)

    # ----- slash commands -------------------------------------------------

    def _add_common_commands(self) -> None:
        def command(name: str, description: str) -> Any:
            def decorate(handler: Any) -> Any:
                async def callback(interaction: discord.Interaction) -> None:
                    async with answering_errors(interaction), self._channel_turn(interaction):
                        await handler(interaction)

                self.group.add_command(
                    app_commands.Command(name=name, description=description, callback=callback)
                )
                return handler

            return decorate

        command("join", N_("Take a seat at the table in this channel"))(self.join_command)
        command("leave", N_("Leave the table (a computer takes your seat in a running game)"))(
            self.leave_command
        )
        command("hand", N_("See your private hand (only you see it)"))(self.hand_command)
        command("status", N_("Post the table again at the bottom of the channel"))(
            self.status_command
        )
        command("abandon", N_("End the game in this channel (host or moderators)"))(
            self.abandon_command
        )
        command("rules", N_("A short summary of the rules"))(self.rules_command)

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
        async with answering_errors(interaction), self._channel_turn(interaction):
            guild_id, channel_id = _place(interaction)
            existing = await self.bot.store.load(guild_id, channel_id)
            if existing and existing.table.phase != "over":
                running = self.bot.games.get(existing.table.game)
                title = running.engine.title if running else existing.table.game
                raise GameError(
                    "A {title} game is already running here; see `/{game} status`, "
                    "or ask its host to abandon it.",
                    title=tr(_user_lang(interaction), title),
                    game=existing.table.game,
                )
            table = Table(
                game=self.engine.name,
                opened=await self.bot.clock.now(),
                guild_id=guild_id,
                channel_id=channel_id,
                lang=public_lang(interaction),
                host=_player(interaction),
                seats=[_seat(interaction.user)],
                options=options.model_dump(mode="json"),
                host_seat=host_seat,
                turn_seconds=turn_seconds or None,
            )
            rev = await self.bot.store.save(table, existing.rev if existing else 0)
            self._close_lobby_later(table)
            message = self._lobby_message(table, rev)
            response = await interaction.response.send_message(
                embed=message.embed, view=message.view
            )
            await self._remember_message(table, response.message_id)

    async def join_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        table = self._joined(stored.table, interaction.user)
        rev = await self.bot.store.save(table, stored.rev)
        await self._refresh_lobby_message(table, rev)
        await _reply(interaction, tr(_user_lang(interaction), "You joined the table."))

    async def leave_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        if stored.table.phase == "playing":
            await self._leave_running_game(interaction, stored)
            return
        table = self._left(stored.table, _player(interaction))
        if not table.seats:
            await self.bot.store.delete(stored.table, stored.rev)
            await self._close_message(
                stored.table, tr(stored.table.lang, "Everyone left; the table is closed.")
            )
        else:
            rev = await self.bot.store.save(table, stored.rev)
            await self._refresh_lobby_message(table, rev)
        await _reply(interaction, tr(_user_lang(interaction), "You left the table."))

    async def _leave_running_game(self, interaction: Interaction, stored: Stored) -> None:
        """A computer takes the leaver's seat; in a two-player game with a way to
        concede (draughts: resigning), the leaver loses instead."""
        table = stored.table.model_copy(deep=True)
        player, state = self._seated_player_state(interaction, table)
        conceded = None
        if len(table.seats) == 2:
            conceded = self.adapter.concede(state, player)
        if conceded is not None:
            state = conceded
            answer = N_("You left the game and lost it.")
        else:
            seat = table.seat_of(player)
            assert seat is not None
            _hand_to_computer(seat, table.lang)
            people = [s.id for s in table.seats if not s.is_computer]
            if table.host == player and people:
                table.host = people[0]
            answer = N_("You left the game; a computer player takes your seat.")
        rev = await self._commit(table, stored.rev, state)
        await _reply(interaction, tr(_user_lang(interaction), answer))
        await self._edit_table_message(table, state, rev)

    async def hand_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        await self._send_panel(interaction, stored)

    async def status_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction, allow_over=True)
        table = stored.table
        message = await self._message_for(table, stored.rev)
        response = await interaction.response.send_message(
            content=message.content, embed=message.embed, view=message.view, files=message.files()
        )
        previous = table.message_id
        await self._remember_message(table, response.message_id)
        if previous is not None and previous != response.message_id:
            await self._strip_buttons(table.channel_id, previous)

    async def abandon_command(self, interaction: Interaction) -> None:
        stored = await self._load_running(interaction)
        table = stored.table
        if not (_player(interaction) == table.host or _can_manage_messages(interaction)):
            raise GameError("Only the host or someone with Manage Messages can abandon the game.")
        await self.bot.store.delete(table, stored.rev)
        name = interaction.user.display_name
        await self._close_message(table, tr(table.lang, "Abandoned by {name}.", name=name))
        await interaction.response.send_message(
            tr(
                table.lang,
                "{name} abandoned the {title} game.",
                name=name,
                title=self._title(table.lang),
            )
        )

    async def rules_command(self, interaction: Interaction) -> None:
        lang = _user_lang(interaction)
        embed = embeds.notice_embed(
            tr(lang, "{title}: rules", title=self._title(lang)),
            self.adapter.colour,
            tr(lang, self.adapter.rules_summary),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ----- clicks -----------------------------------------------------------

    async def on_click(self, interaction: Interaction, click: Click) -> None:
        async with answering_errors(interaction), self._channel_turn(interaction):
            stored = await self._load_for_click(interaction, click.gid)
            if click.verb == "hand":
                await self._send_panel(interaction, stored)
            elif click.verb in LOBBY_VERBS:
                await self._lobby_click(interaction, stored, click.verb)
            elif click.verb == "act":
                await self._action_click(interaction, stored, click)
            elif click.verb == "do":
                await self._panel_action(interaction, stored, click.arg)
            elif click.verb == "rematch":
                await self._rematch(interaction, stored)
            elif click.verb == "redraw":
                player, state = self._seated_player_state(interaction, stored.table)
                await self._redraw_panel(interaction, stored, state, player)
            else:
                raise GameError("That button is not one I know.")

    async def on_pick(self, interaction: Interaction, pick: Pick) -> None:
        """A choice in a panel select: redraw the panel with it (nothing is saved)."""
        async with answering_errors(interaction), self._channel_turn(interaction):
            stored = await self._load_for_click(interaction, pick.gid)
            if pick.key == "ai":
                await self._lobby_click(interaction, stored, "ai", level=_level(pick.values))
                return
            picks = chosen_in_message(interaction.message)
            picks[pick.key] = pick.values
            player, state = self._seated_player_state(interaction, stored.table)
            panel = await self._panel(stored, state, player, picks, _user_lang(interaction))
            await interaction.response.edit_message(
                embed=panel.embed, view=panel.view, attachments=panel.files()
            )

    def _channel_turn(
        self, interaction: Interaction
    ) -> contextlib.AbstractAsyncContextManager[Any]:
        """Hold the channel's lock (see `TableBot.channel_lock`) while handling this."""
        if interaction.channel_id is None:
            return contextlib.nullcontext()
        return self.bot.channel_lock(interaction.channel_id)

    async def _load_for_click(self, interaction: Interaction, gid: str) -> Stored:
        guild_id, channel_id = _place(interaction)
        stored = await self.bot.store.load(guild_id, channel_id)
        if stored is None or stored.table.gid != gid:
            raise GameError(
                "That game has ended. Start a new one with `/{game} start`.", game=self.engine.name
            )
        return stored

    async def _lobby_click(
        self, interaction: Interaction, stored: Stored, verb: str, *, level: Level = "normal"
    ) -> None:
        table = stored.table
        if table.phase != "lobby":
            raise GameError("The game has already started.")
        if verb == "start":
            await self._start_game(interaction, stored)
            return
        if verb == "join":
            table = self._joined(table, interaction.user)
        elif verb == "leave":
            table = self._left(table, _player(interaction))
        else:
            table = self._with_computer(table, _player(interaction), level)
        if not table.seats:
            await self.bot.store.delete(stored.table, stored.rev)
            notice = embeds.notice_embed(
                self._title(table.lang),
                self.adapter.colour,
                tr(table.lang, "Everyone left; the table is closed."),
            )
            await interaction.response.edit_message(embed=notice, view=None)
            return
        rev = await self.bot.store.save(table, stored.rev)
        message = self._lobby_message(table, rev)
        await interaction.response.edit_message(embed=message.embed, view=message.view)

    async def _start_game(self, interaction: Interaction, stored: Stored) -> None:
        table = stored.table.model_copy(deep=True)
        if _player(interaction) != table.host:
            raise GameError("Only the host can start the game.")
        if len(table.seats) < self.engine.min_players:
            raise GameError(
                "{title} needs at least {n} players; invite friends or add computer players.",
                title=self._title(_user_lang(interaction)),
                n=self.engine.min_players,
            )
        state = self._deal(table)
        await self._save_and_show(interaction, stored, table, state)

    def _deal(self, table: Table) -> BaseModel:
        """Seat everyone (shuffled by the table's seed; the host where they asked) and
        deal the engine's new game."""
        rng = SeededRng.from_seed(table.seed)
        rng.shuffle(table.seats)
        if table.host_seat is not None:
            host = next(seat for seat in table.seats if seat.id == table.host)
            table.seats.remove(host)
            table.seats.insert(min(table.host_seat, len(table.seats)), host)
        options = self.engine.Options.model_validate(table.options)
        state: BaseModel = self.engine.new_game(
            [seat.id for seat in table.seats], table.seed, options
        )
        return state

    async def _rematch(self, interaction: Interaction, stored: Stored) -> None:
        """The same game again with the same players and options, on a new message
        (the results stay above). Seats of people who left go to computer players."""
        finished = stored.table
        if finished.phase != "over":
            raise GameError("This game is still running.")
        player = _player(interaction)
        seat = finished.seat_of(player)
        if seat is None or seat.left:
            raise GameError("Only the players of this game can start a rematch.")
        seats = [s.model_copy(update={"missed": 0}) for s in finished.seats if not s.left]
        for _ in range(len(finished.seats) - len(seats)):
            seats.append(self._computer_seat(seats, "normal", finished.lang))
        people = [s.id for s in seats if not s.is_computer]
        table = Table(
            game=finished.game,
            guild_id=finished.guild_id,
            channel_id=finished.channel_id,
            lang=finished.lang,
            host=finished.host if finished.host in people else player,
            seats=seats,
            options=finished.options,
            host_seat=finished.host_seat,
            turn_seconds=finished.turn_seconds,
        )
        state = self._deal(table)
        rev = await self._commit(table, stored.rev, state)
        message = await self._table_message(table, state, rev)
        response = await interaction.response.send_message(
            content=message.content, embed=message.embed, view=message.view, files=message.files()
        )
        await self._remember_message(table, response.message_id)

    async def _action_click(self, interaction: Interaction, stored: Stored, click: Click) -> None:
        table = stored.table.model_copy(deep=True)
        if table.phase == "over":
            raise GameError("This game is over.")
        if table.phase != "playing":
            raise GameError("The game hasn't started yet.")
        player, state = self._seated_player_state(interaction, table)
        if click.rev != stored.rev:
            raise GameError(
                "That button was for an earlier moment of the game: someone moved first. "
                "Check the table and choose again."
            )
        if _message_id(interaction) not in (None, table.message_id):
            raise GameError("This table was posted again further down; use the newest one.")
        state = self.adapter.perform(state, player, click.arg)
        _moved(table, player)
        await self._save_and_show(interaction, stored, table, state)

    async def move_by_text(self, interaction: Interaction, move: str) -> None:
        """A move typed as a command option (``/draughts move c3-c4``)."""
        async with answering_errors(interaction), self._channel_turn(interaction):
            stored = await self._load_running(interaction)
            table = stored.table.model_copy(deep=True)
            player, state = self._seated_player_state(interaction, table)
            state = self.adapter.perform(state, player, move)
            _moved(table, player)
            rev = await self._commit(table, stored.rev, state)
            await _reply(
                interaction, tr(_user_lang(interaction), "You played `{move}`.", move=move)
            )
            await self._edit_table_message(table, state, rev)

    async def _panel_action(self, interaction: Interaction, stored: Stored, key: str) -> None:
        """A move made on a private panel. It is checked against the game as it is now,
        not the revision the panel was drawn for: the action names its cards, so a
        doubled or stale click finds them gone and is explained. The panel is redrawn
        either way, and the public table edited after a move."""
        table = stored.table.model_copy(deep=True)
        player, state = self._seated_player_state(interaction, table)
        if table.phase == "over":
            raise GameError("This game is over.")
        try:
            state = self.adapter.perform(state, player, key)
            _moved(table, player)
        except IllegalAction as refusal:
            notice = tr(_user_lang(interaction), refusal.template, **refusal.params)
            await self._redraw_panel(interaction, stored, state, player, notice=notice)
            return
        rev = await self._commit(table, stored.rev, state)
        await self._redraw_panel(interaction, Stored(table, rev), state, player)
        await self._edit_table_message(table, state, rev)

    async def _commit(self, table: Table, rev: int, state: BaseModel) -> int:
        """Save ``state`` into ``table`` over revision ``rev``; return the new revision.
        Sets the deadline of the turn now waiting and schedules what happens without
        a click."""
        table.state = state.model_dump(mode="json")
        table.phase = "over" if self.engine.is_over(state) else "playing"
        table.turn_deadline = await self._turn_deadline(table, state)
        saved = await self.bot.store.save(table, rev)
        self._schedule_followups(table, saved, state)
        if table.phase == "over":
            await self._record_result(table, state)
        return saved

    async def _record_result(self, table: Table, state: BaseModel) -> None:
        """Count the finished game in the server's stats (once, whatever retries)."""
        names = {seat.id: seat.name for seat in table.seats if not seat.is_computer}
        try:
            await self.bot.stats.record(
                table.guild_id, table.game, table.gid, self.engine.outcome(state), names
            )
        except StoreError as error:
            log.warning("Stats of game %s not recorded yet: %s", table.gid, error)

    async def resume(self, stored: Stored) -> None:
        """After a restart: start again what a running game was waiting for (a computer
        player's move, a timed default or turn clock, with the time that was left);
        count a finished game whose stats a crash may have missed (counting is
        idempotent)."""
        table = stored.table
        if table.phase == "lobby":
            self._close_lobby_later(table)
        if table.state is None:
            return
        state = self.engine.State.model_validate(table.state)
        if table.phase == "playing":
            if table.turn_deadline is None:  # saved before deadlines were kept
                table.turn_deadline = await self._turn_deadline(table, state)
            self._schedule_followups(table, stored.rev, state)
        elif table.phase == "over":
            await self._record_result(table, state)

    async def _turn_deadline(self, table: Table, state: BaseModel) -> float | None:
        """When the bot moves for the person it waits for: at the timeout of a choice
        with a default, or when the turn clock runs out; None: it waits for them (or
        a computer is to move)."""
        if self.engine.is_over(state):
            return None
        if table.computers(self.engine.to_act(state)):
            return None
        if self.adapter.timed_default(self.engine.view(state, None)) is not None:
            seconds = self.bot.settings.choice_timeout_seconds
        elif table.turn_seconds:
            seconds = float(table.turn_seconds)
        else:
            return None
        return await self.bot.clock.now() + seconds

    def _schedule_followups(self, table: Table, rev: int, state: BaseModel) -> None:
        """What happens without a click: computer seats move after a short pause; at
        the turn's deadline a choice with a default is made, or a person whose turn
        clock ran out gets the computer's move. Each checks the game is still at
        ``rev`` when its time comes, so a move made meanwhile cancels it."""
        self._cancel_pending(table.channel_id)
        if table.phase != "playing":
            return
        waiting = self.engine.to_act(state)
        computers = table.computers(waiting)
        for player in computers:
            self._later(table, rev, player, "computer")
        if computers or table.turn_deadline is None:
            return
        default = self.adapter.timed_default(self.engine.view(state, None))
        if default is not None:
            self._later(table, rev, default.player, "default", default.key)
        else:
            for player in waiting:
                self._later(table, rev, player, "clock")

    def _later(
        self,
        table: Table,
        rev: int,
        player: PlayerId,
        kind: Literal["computer", "default", "clock"],
        key: str = "",
    ) -> None:
        self._keep(table, self._move_later(table, rev, player, kind, key))

    def _close_lobby_later(self, table: Table) -> None:
        self._keep(table, self._close_lobby(table))

    def _keep(self, table: Table, wait: Coroutine[Any, Any, None]) -> None:
        """Run ``wait`` as a task of the table's channel (cancelled when the game moves)."""
        task = asyncio.create_task(wait)
        pending = self._pending.setdefault(table.channel_id, set())
        pending.add(task)
        task.add_done_callback(pending.discard)

    async def _close_lobby(self, table: Table) -> None:
        """Close the lobby if it is still waiting for its Start when its time is up."""
        await self.bot.clock.sleep_until(table.opened + self.bot.settings.lobby_timeout_seconds)
        try:
            async with self.bot.channel_lock(table.channel_id):
                stored = await self.bot.store.load(table.guild_id, table.channel_id)
                if stored is None or stored.table.gid != table.gid:
                    return
                if stored.table.phase != "lobby":
                    return
                await self.bot.store.delete(stored.table, stored.rev)
                await self._close_message(
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

    def _cancel_pending(self, channel_id: int) -> None:
        """The game moved: waits scheduled for an earlier revision would do nothing when
        they wake, so don't keep them sleeping (the running one finishes its move)."""
        current = asyncio.current_task()
        for task in self._pending.pop(channel_id, set()):
            if task is not current:
                task.cancel()

    async def _move_later(
        self,
        table: Table,
        rev: int,
        player: PlayerId,
        kind: Literal["computer", "default", "clock"],
        key: str,
    ) -> None:
        """Move for ``player`` unless the game has moved on: a computer seat's choice
        (off the event loop) after the pause, or at the turn's deadline the timed
        default ``key`` or the computer's choice for a person out of time."""
        if kind == "computer":
            await asyncio.sleep(self.bot.settings.computer_pause_seconds)
        else:
            await self.bot.clock.sleep_until(table.turn_deadline or 0.0)
        try:
            async with self.bot.channel_lock(table.channel_id):
                stored = await self.bot.store.load(table.guild_id, table.channel_id)
                if stored is None or stored.table.gid != table.gid or stored.rev != rev:
                    return
                current = stored.table.model_copy(deep=True)
                state = self.engine.State.model_validate(current.state)
                if kind == "default":
                    state = self.adapter.perform(state, player, key)
                else:
                    state = await self._computer_move(current, rev, state, player)
                warning = self._clock_ran_out(current, player) if kind == "clock" else None
                new_rev = await self._commit(current, rev, state)
                await self._edit_table_message(current, state, new_rev)
                if warning:
                    await self._post(current, warning)
        except (GameError, StoreError) as error:
            log.warning("No %s move for %s in %s: %s", kind, player, table.channel_id, error)
        except Exception:
            log.exception("The %s move in channel %s failed", kind, table.channel_id)

    async def _computer_move(
        self, table: Table, rev: int, state: BaseModel, player: PlayerId
    ) -> BaseModel:
        seat = table.seat_of(player)
        level = seat.level if seat and seat.level else "normal"
        rng = SeededRng.from_seed(table.seed ^ (rev * 0x9E3779B97F4A7C15))
        action = await asyncio.to_thread(self._computer_choice, state, player, level, rng)
        moved: BaseModel = self.engine.apply(state, player, action)
        return moved

    def _clock_ran_out(self, table: Table, player: PlayerId) -> str:
        """Count a missed turn; the third in a row hands the seat to a computer."""
        seat = table.seat_of(player)
        assert seat is not None
        seat.missed += 1
        mention = f"<@{player}>"
        if seat.missed < MISSED_TURNS_LIMIT:
            return tr(
                table.lang,
                "{mention}, your time ran out, so the computer moved for you ({n} of {limit} "
                "missed turns in a row before a computer player takes your seat).",
                mention=mention,
                n=seat.missed,
                limit=MISSED_TURNS_LIMIT,
            )
        _hand_to_computer(seat, table.lang)
        return tr(
            table.lang,
            "{mention} missed {limit} turns in a row; a computer player takes their seat for "
            "the rest of the game.",
            mention=mention,
            limit=MISSED_TURNS_LIMIT,
        )

    async def _post(self, table: Table, text: str) -> None:
        try:
            await self.bot.get_partial_messageable(table.channel_id).send(text)
        except discord.HTTPException as error:
            log.info("Could not post in channel %s: %s", table.channel_id, error)

    async def _redraw_panel(
        self,
        interaction: Interaction,
        stored: Stored,
        state: BaseModel,
        player: PlayerId,
        *,
        notice: str = "",
    ) -> None:
        panel = await self._panel(stored, state, player, {}, _user_lang(interaction), notice)
        await interaction.response.edit_message(
            embed=panel.embed, view=panel.view, attachments=panel.files()
        )

    async def _edit_table_message(self, table: Table, state: BaseModel, rev: int) -> None:
        if table.message_id is None:
            return
        message = await self._table_message(table, state, rev)
        partial = self.bot.get_partial_messageable(table.channel_id)
        try:
            await partial.get_partial_message(table.message_id).edit(
                content=message.content,
                embed=message.embed,
                view=message.view,
                attachments=message.files(),
            )
        except discord.HTTPException as error:
            log.info("Could not update table message %s: %s", table.message_id, error)

    async def _save_and_show(
        self, interaction: Interaction, stored: Stored, table: Table, state: BaseModel
    ) -> None:
        table.message_id = _message_id(interaction) or table.message_id
        rev = await self._commit(table, stored.rev, state)
        # The move is committed: acknowledge at once, then draw the new table.
        await interaction.response.defer()
        message = await self._table_message(table, state, rev)
        await interaction.edit_original_response(
            content=message.content,
            embed=message.embed,
            view=message.view,
            attachments=message.files(),
        )

    def _computer_choice(
        self, state: BaseModel, player: PlayerId, level: Level, rng: SeededRng
    ) -> Any:
        """The computer seat's action, from its own view only (random if the game has
        no computer player of its own)."""
        players = players_for(self.engine.name)
        if players is None:
            return choose_uniform(self.engine, state, player, rng)
        return players[level](self.engine.view(state, player), rng)

    # ----- private views ----------------------------------------------------

    async def _send_panel(self, interaction: Interaction, stored: Stored) -> None:
        """A fresh private panel for the player (ephemeral: only they see it)."""
        player, state = self._seated_player_state(interaction, stored.table)
        panel = await self._panel(stored, state, player, {}, _user_lang(interaction))
        await interaction.response.send_message(
            embed=panel.embed, view=panel.view, files=panel.files(), ephemeral=True
        )

    async def _panel(
        self,
        stored: Stored,
        state: BaseModel,
        player: PlayerId,
        picks: Picks,
        lang: Lang,
        notice: str = "",
    ) -> TableMessage:
        """The player's private panel as a message in their language: text, selects,
        buttons, picture."""
        view = self.engine.view(state, player)
        names = stored.table.names()
        panel = self.adapter.private_panel(view, picks, names, lang)
        png = await self.bot.renderer.run(self.adapter.render_private, view, names, lang)
        embed = self._panel_embed(panel, lang, notice)
        if png is not None:
            embed.set_image(url=f"attachment://{embeds.TABLE_IMAGE}")
        return TableMessage(None, embed, self._panel_view(stored, panel, lang), png)

    def _seated_player_state(self, interaction: Interaction, table: Table) -> tuple[PlayerId, Any]:
        player = _player(interaction)
        seat = table.seat_of(player)
        if seat is None:
            raise GameError("You're not playing in this game.")
        if seat.left:
            raise GameError("You left this game; a computer player has your seat now.")
        if table.state is None:
            raise GameError("The game hasn't started yet.")
        return player, self.engine.State.model_validate(table.state)

    def _panel_embed(self, panel: PrivatePanel, lang: Lang, notice: str = "") -> discord.Embed:
        text = f"**{notice}**\n\n{panel.text}" if notice else panel.text
        title = tr(lang, "{title}: your hand", title=self._title(lang))
        return embeds.notice_embed(title, self.adapter.colour, text)

    def _panel_view(self, stored: Stored, panel: PrivatePanel, lang: Lang) -> discord.ui.View:
        gid, rev = stored.table.gid, stored.rev
        selects = [
            GameSelect(
                Pick(self.engine.name, gid, rev, spec.key),
                spec.placeholder,
                [
                    discord.SelectOption(label=label, value=value, default=value in spec.chosen)
                    for value, label in spec.options
                ],
                max_values=min(spec.max_values, len(spec.options)),
            )
            for spec in panel.selects
            if spec.options
        ]
        buttons = [
            GameButton(
                Click(self.engine.name, gid, rev, "do", spec.key),
                spec.label,
                spec.style,
                disabled=spec.disabled,
            )
            for spec in panel.buttons
        ]
        # An ephemeral panel can't update itself when others move: Refresh redraws it.
        refresh = Click(self.engine.name, gid, rev, "redraw")
        buttons.append(GameButton(refresh, tr(lang, "Refresh")))
        return button_view(buttons, selects)

    # ----- lobby changes (pure) -----------------------------------------------

    def _joined(self, table: Table, user: discord.abc.User) -> Table:
        if table.phase != "lobby":
            raise GameError("The game has already started; wait for the next one.")
        if table.seat_of(str(user.id)) is not None:
            raise GameError("You're already at this table.")
        if len(table.seats) >= self.engine.max_players:
            raise GameError("The table is full ({n} players).", n=self.engine.max_players)
        return table.model_copy(update={"seats": [*table.seats, _seat(user)]})

    def _left(self, table: Table, player: PlayerId) -> Table:
        if table.phase != "lobby":
            raise GameError(
                "You can't leave a running game; the host can end it with `/{game} abandon`.",
                game=self.engine.name,
            )
        if table.seat_of(player) is None:
            raise GameError("You're not at this table.")
        seats = [seat for seat in table.seats if seat.id != player]
        host = table.host
        if player == host:
            people = [seat.id for seat in seats if not seat.is_ai]
            host = people[0] if people else ""
            if not people:
                seats = []
        return table.model_copy(update={"seats": seats, "host": host})

    def _with_computer(self, table: Table, player: PlayerId, level: Level) -> Table:
        if player != table.host:
            raise GameError("Only the host can add computer players.")
        if len(table.seats) >= self.engine.max_players:
            raise GameError("The table is full ({n} players).", n=self.engine.max_players)
        seat = self._computer_seat(table.seats, level, table.lang)
        return table.model_copy(update={"seats": [*table.seats, seat]})

    @staticmethod
    def _computer_seat(seats: list[Seat], level: Level, lang: Lang) -> Seat:
        """A computer seat named in the table's language (its name is public)."""
        taken = {seat.id for seat in seats}
        number = next(n for n in range(1, 100) if f"ai:{n}" not in taken)
        name = tr(lang, "Computer {n} ({level})", n=number, level=tr(lang, LEVEL_NAMES[level]))
        return Seat(id=f"ai:{number}", name=name, level=level)

    # ----- messages -----------------------------------------------------------

    async def _message_for(self, table: Table, rev: int) -> TableMessage:
        if table.state is None:
            return self._lobby_message(table, rev)
        state = self.engine.State.model_validate(table.state)
        return await self._table_message(table, state, rev)

    def _lobby_message(self, table: Table, rev: int) -> TableMessage:
        host = table.seat_of(table.host)
        lang = table.lang
        embed = embeds.lobby_embed(
            self._title(lang),
            self.adapter.colour,
            host.name if host else "?",
            [seat.name for seat in table.seats],
            (self.engine.min_players, self.engine.max_players),
            _options_line(table.options, self.adapter.hidden_options, lang),
            lang,
        )
        buttons = [
            self._button(table, rev, "join", tr(lang, "Join"), "success"),
            self._button(table, rev, "leave", tr(lang, "Leave"), "secondary"),
            self._button(table, rev, "start", tr(lang, "Start"), "primary"),
        ]
        levels = GameSelect(
            Pick(self.engine.name, table.gid, rev, "ai"),
            tr(lang, "Add computer player…"),
            [
                discord.SelectOption(
                    label=tr(lang, "Computer player: {level}", level=tr(lang, LEVEL_NAMES[level])),
                    value=level,
                )
                for level in LEVELS
            ],
        )
        return TableMessage(None, embed, button_view(buttons, [levels]), None)

    async def _table_message(self, table: Table, state: BaseModel, rev: int) -> TableMessage:
        names, lang = table.names(), table.lang
        public = self.engine.view(state, None)
        png = await self.bot.renderer.run(self.adapter.render_table, public, names, lang)
        over = self.engine.is_over(state)
        footer = tr(lang, "Game {gid}", gid=table.gid)
        if over:
            outcome = self.engine.outcome(state)
            text = self.adapter.results_text(public, outcome, names, lang)
            title = tr(lang, "{title}: results", title=self._title(lang))
            embed = embeds.table_embed(title, 0x2ECC71, text, footer)
            return TableMessage(None, embed, self._table_view(table, rev, public, True), png)
        text = self.adapter.table_text(public, names, lang)
        embed = embeds.table_embed(self._title(lang), self.adapter.colour, text, footer)
        return TableMessage(
            _turn_mentions(self.engine.to_act(state), table),
            embed,
            self._table_view(table, rev, public, False),
            png,
        )

    def _table_view(self, table: Table, rev: int, public: Any, over: bool) -> discord.ui.View:
        lang = table.lang
        buttons = [
            self._button(table, rev, "act", spec.label, spec.style, arg=spec.key, disabled=over)
            for spec in self.adapter.table_buttons(public, lang)
        ]
        hand = tr(lang, self.adapter.hand_label)
        buttons.append(self._button(table, rev, "hand", hand, "primary", disabled=over))
        if over:
            buttons.append(self._button(table, rev, "rematch", tr(lang, "Rematch"), "success"))
        return button_view(buttons)

    def _button(
        self,
        table: Table,
        rev: int,
        verb: str,
        label: str,
        style: str,
        *,
        arg: str = "",
        disabled: bool = False,
    ) -> GameButton:
        click = Click(self.engine.name, table.gid, rev, verb, arg)
        return GameButton(click, label, style, disabled=disabled)

    async def _refresh_lobby_message(self, table: Table, rev: int) -> None:
        if table.message_id is None:
            return
        message = self._lobby_message(table, rev)
        partial = self.bot.get_partial_messageable(table.channel_id)
        try:
            await partial.get_partial_message(table.message_id).edit(
                embed=message.embed, view=message.view
            )
        except discord.HTTPException as error:
            log.info("Could not refresh lobby message %s: %s", table.message_id, error)

    async def _close_message(self, table: Table, reason: str) -> None:
        if table.message_id is None:
            return
        notice = embeds.notice_embed(self._title(table.lang), 0x95A5A6, reason)
        partial = self.bot.get_partial_messageable(table.channel_id)
        try:
            await partial.get_partial_message(table.message_id).edit(
                content=None, embed=notice, view=None, attachments=[]
            )
        except discord.HTTPException as error:
            log.info("Could not close table message %s: %s", table.message_id, error)

    async def _strip_buttons(self, channel_id: int, message_id: int) -> None:
        partial = self.bot.get_partial_messageable(channel_id)
        try:
            await partial.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as error:
            log.info("Could not strip buttons from %s: %s", message_id, error)

    async def _remember_message(self, table: Table, message_id: int | None) -> None:
        if message_id is not None and message_id != table.message_id:
            await self.bot.store.set_message(table, message_id)

    async def _load_running(self, interaction: Interaction, *, allow_over: bool = False) -> Stored:
        guild_id, channel_id = _place(interaction)
        stored = await self.bot.store.load(guild_id, channel_id)
        if stored is None or stored.table.game != self.engine.name:
            raise GameError(
                "There's no {title} game in this channel; start one with `/{game} start`.",
                title=self._title(_user_lang(interaction)),
                game=self.engine.name,
            )
        if stored.table.phase == "over" and not allow_over:
            raise GameError(
                "The game here is over; start a new one with `/{game} start`.",
                game=self.engine.name,
            )
        return stored


def _place(interaction: Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise IllegalAction("Games are played in server channels.")
    return interaction.guild_id, interaction.channel_id


def _level(values: tuple[str, ...]) -> Level:
    for level in LEVELS:
        if values == (level,):
            return level
    raise GameError("Pick easy, normal or hard.")


def _hand_to_computer(seat: Seat, lang: Lang) -> None:
    """The person in ``seat`` is gone for good: a computer plays it from now on."""
    seat.left, seat.level = True, seat.level or "normal"
    seat.name = tr(lang, "{name} (computer)", name=seat.name)


def _moved(table: Table, player: PlayerId) -> None:
    """``player`` moved by themselves: their run of missed turns is over."""
    seat = table.seat_of(player)
    if seat is not None:
        seat.missed = 0


def _message_id(interaction: Interaction) -> int | None:
    return interaction.message.id if interaction.message is not None else None


def public_lang(interaction: Interaction) -> Lang:
    """The language of public messages started by this interaction: the server's
    (its community locale). A server that never chose one reports American English,
    and then the language of the person starting is the better guess."""
    guild = interaction.guild_locale
    if guild is None or guild == discord.Locale.american_english:
        return lang_of(interaction.locale)
    return lang_of(guild)


def _user_lang(interaction: Interaction) -> Lang:
    """The language of this user's own (ephemeral) answers: their Discord locale's."""
    return lang_of(interaction.locale)


async def _reply(interaction: Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


def _player(interaction: Interaction) -> PlayerId:
    return str(interaction.user.id)


def _seat(user: discord.abc.User) -> Seat:
    return Seat(id=str(user.id), name=user.display_name)


def _can_manage_messages(interaction: Interaction) -> bool:
    permissions = interaction.permissions
    return bool(permissions.manage_messages)


def _turn_mentions(players: list[PlayerId], table: Table) -> str | None:
    computers = table.computers(players)
    people = [p for p in players if p not in computers]
    if not people:
        return None
    mentions = " ".join(f"<@{p}>" for p in people)
    return tr(table.lang, "{mentions}, your turn.", mentions=mentions)


def _options_line(options: dict[str, Any], hidden: frozenset[str], lang: Lang) -> str:
    """The options set, by their (localized) command option names: a switch by its name
    alone, anything else as ``name: value``."""
    shown = {
        (NAMES.get(key, key) if lang == "de" else key): value
        for key, value in options.items()
        if value not in (None, False, []) and key not in hidden
    }
    return ", ".join(key if value is True else f"{key}: {value}" for key, value in shown.items())
