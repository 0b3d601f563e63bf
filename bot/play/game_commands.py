"""`GameCommands`: one registered game's slash commands (its clicks are in
`bot.play.clicks`).

Every interaction follows one path: load the channel's table, check the click is for
this game (and, where `bot.play.verbs` says so, this revision), apply the change (the
table's life in `bot.table_life`, moves through the engine), save with
compare-and-set (`Saving.commit`), then answer Discord with messages built by
`Messages`. Nothing is saved half-way, so a refused or failed interaction leaves the
stored game unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from discord import app_commands
from pydantic import BaseModel

from bot import table_life
from bot.adapters.spec import GameSpec
from bot.engines.base import GameError
from bot.i18n import N_, tr
from bot.names import shown_name
from bot.play.clicks import Clicks
from bot.play.errors import answering_errors
from bot.play.game_parts import GameParts, Shown
from bot.play.interactions import (
    Interaction,
    answer_privately,
    can_manage_messages,
    person_of,
    place_of,
    player_of,
    public_lang,
    user_lang,
)
from bot.play.options import sent_option_names
from bot.play.records import note
from bot.play.shared import Shared
from bot.storage.errors import TableSetAside
from bot.storage.settings import allows_channel, turn_time_for
from bot.storage.tables import Stored
from bot.table import Table


class GameCommands:
    """Slash commands and clicks for one registered game: its `GameParts`, the `Clicks`
    on its buttons and selects, and its command group."""

    def __init__(self, shared: Shared, spec: GameSpec[Any, Any, Any]) -> None:
        self.parts = GameParts(shared, spec)
        self.clicks = Clicks(self.parts)
        self.shared = shared
        self.spec = spec
        self.engine = spec.engine
        self.adapter = spec.adapter
        self.messages = self.parts.messages
        self.saving = self.parts.saving
        self.announcer = self.parts.announcer
        self.channel = self.parts.channel
        self.moves = self.parts.moves
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
            # The game says what leaving does (draughts: resigning) and what its panel is.
            ("leave", self.adapter.leave_description, self.leave_command),
            ("hand", self.adapter.hand_description, self.hand_command),
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
            async with answering_errors(interaction):
                async with self.parts.admitted(interaction):
                    shown = await handler(interaction)
                if shown is not None:
                    await shown()

        return callback

    def add_command(self, command: app_commands.Command[Any, Any, Any]) -> None:
        """A game's own command (``start`` with its options, ``move``…) in its group."""
        self.group.add_command(command)

    async def start(
        self,
        interaction: Interaction,
        make_options: Callable[[], BaseModel],
        *,
        host_seat: int | None = None,
        turn_seconds: int = 0,
    ) -> None:
        """Open a lobby in this channel; the starter is host and first seat (and sits at
        ``host_seat`` once the game starts; None: a random seat). ``make_options`` builds
        the game's options once the command's options have been checked: a forged value
        of the wrong type gets the check's refusal, not a validation error."""
        async with answering_errors(interaction):
            async with self.parts.admitted(interaction):
                shown = await self._open_lobby(interaction, make_options, host_seat, turn_seconds)
            if shown is not None:
                await shown()

    async def _open_lobby(
        self,
        interaction: Interaction,
        make_options: Callable[[], BaseModel],
        host_seat: int | None,
        turn_seconds: int,
    ) -> Shown | None:
        options = make_options()
        guild_id, channel_id = place_of(interaction)
        set_aside = False
        try:
            existing = await self.shared.store.load(guild_id, channel_id)
        except TableSetAside:
            existing, set_aside = None, True
        server = await self.shared.guild_settings.get(guild_id)
        if not allows_channel(server, channel_id):
            raise GameError(
                "Games can't be started in this channel; the server's admins chose: {channels}.",
                channels=", ".join(f"<#{channel}>" for channel in server.channels),
            )
        server_turn_time = turn_time_for(server, self.engine.name)
        if server_turn_time is not None and "turn_time" not in sent_option_names(interaction):
            turn_seconds = server_turn_time
        if existing and existing.table.phase == "lobby":
            raise GameError(
                "A lobby for {title} is open here; join it, or ask its host to abandon it.",
                title=tr(user_lang(interaction), self.parts.title_of(existing.table.game)),
            )
        if existing and existing.table.phase != "over":
            raise GameError(
                "A game of {title} is running here; see `/{game} status`, "
                "or ask its host to abandon it.",
                title=tr(user_lang(interaction), self.parts.title_of(existing.table.game)),
                game=existing.table.game,
            )
        table = Table(
            game=self.engine.name,
            opened=await self.shared.clock.now(),
            guild_id=guild_id,
            channel_id=channel_id,
            lang=public_lang(interaction) if server.language == "auto" else server.language,
            pings=server.pings,
            ping_after=server.ping_after,
            host=player_of(interaction),
            seats=[person_of(interaction)],
            options=options.model_dump(mode="json"),
            host_seat=host_seat,
            turn_seconds=turn_seconds or None,
        )
        await self._check_table_cap(guild_id)
        rev = await self.shared.store.save(table, existing.rev if existing else 0)
        self.moves.close_lobby_later(table)
        message = self.messages.lobby(table, rev)
        response = await interaction.response.send_message(embed=message.embed, view=message.view)
        await self.channel.remember_message(table, response.message_id)
        if set_aside:
            notice = tr(user_lang(interaction), TableSetAside().template)
            await interaction.followup.send(notice, ephemeral=True)
        if existing is None:
            return None
        return partial(self._retire, existing.table)

    async def _retire(self, previous: Table) -> None:
        """The channel's previous game's message, once a new one has opened: finished
        results keep Replay; anything else loses its buttons."""
        if previous.phase == "over":
            await self.channel.retire_results(previous)
        elif previous.message_id is not None:
            await self.channel.strip_buttons(previous, previous.message_id)

    async def _check_table_cap(self, guild_id: int) -> None:
        """Refuse a new table past the server's cap (finished tables don't count)."""
        cap = self.shared.limits.max_tables_per_server
        if await self.shared.store.live_tables_in(guild_id) >= cap:
            raise GameError(
                "This server has as many tables going as it may ({n}); "
                "finish or abandon one first.",
                n=cap,
            )

    async def join_command(self, interaction: Interaction) -> Shown | None:
        stored = await self.parts.load_running(interaction)
        now = await self.shared.clock.now()
        table = table_life.joined(
            stored.table, person_of(interaction), self.engine.max_players, now=now
        )
        return await self.parts.seat_taken(interaction, stored, table, player_of(interaction))

    async def leave_command(self, interaction: Interaction) -> Shown | None:
        stored = await self.parts.load_running(interaction)
        if stored.table.phase == "playing":
            return await self._leave_running_game(interaction, stored)
        table = table_life.left_lobby(stored.table, player_of(interaction))
        if not table.seats:
            await self.shared.store.delete(stored.table, stored.rev)
            await self.channel.close_message(
                stored.table, tr(stored.table.lang, "Everyone left; the table is closed.")
            )
        else:
            rev = await self.shared.store.save(table, stored.rev)
            await self.channel.refresh_lobby_message(table, rev)
        await answer_privately(interaction, tr(user_lang(interaction), "You left the table."))
        return None

    async def _leave_running_game(self, interaction: Interaction, stored: Stored) -> Shown | None:
        """A computer takes the leaver's seat; in a two-player game with a way to
        concede (draughts: resigning), the leaver loses instead."""
        table = stored.table.model_copy(deep=True)
        player, state = self.parts.seated_player_state(interaction, table)
        conceded = self.adapter.concede(state, player) if len(table.seats) == 2 else None
        if conceded is not None:
            state = conceded
            note(table, player, "", "resign")
            answer = N_("You left the game and lost it.")
        else:
            table = table_life.handed_to_computer(table, player)
            note(table, player, "", "takeover")
            answer = N_("You left the game; a computer player takes your seat.")
        if table_life.nobody_left(table):
            await self.moves.close_empty_table(stored.table, stored.rev)
            await answer_privately(
                interaction,
                tr(user_lang(interaction), "You left; nobody is left, so the game was abandoned."),
            )
            return None
        rev = await self.saving.commit(table, stored.rev, state)
        await answer_privately(interaction, tr(user_lang(interaction), answer))
        return partial(self.announcer.show, table, state, rev)

    async def hand_command(self, interaction: Interaction) -> None:
        stored = await self.parts.load_running(interaction)
        await self.parts.send_panel(interaction, stored)

    async def status_command(self, interaction: Interaction) -> None:
        stored = await self.parts.load_running(interaction, allow_over=True)
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
        await self.channel.remember_message(table, response.message_id)
        if previous is not None and previous != response.message_id:
            await self.channel.strip_buttons(table, previous)

    async def abandon_command(self, interaction: Interaction) -> None:
        stored = await self.parts.load_running(interaction)
        table = stored.table
        if not (player_of(interaction) == table.host or can_manage_messages(interaction)):
            raise GameError("Only the host or someone with Manage Messages can abandon the game.")
        await self.shared.store.delete(table, stored.rev)
        if table.ping is not None:
            await self.channel.delete_message(table, table.ping.message_id)
        name = shown_name(interaction.user.display_name)
        await self.channel.close_message(table, tr(table.lang, "Abandoned by {name}.", name=name))
        await interaction.response.send_message(
            tr(
                table.lang,
                "{name} abandoned the {title} game.",
                name=name,
                title=self.messages.title(table.lang),
            )
        )

    async def rules_command(self, interaction: Interaction) -> None:
        embed = self.messages.rules(user_lang(interaction))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def move_by_text(self, interaction: Interaction, move: str) -> None:
        """A move typed as a command option (``/draughts move c3-c4``)."""
        async with answering_errors(interaction):
            async with self.parts.admitted(interaction):
                shown = await self._move_by_text(interaction, move)
            if shown is not None:
                await shown()

    async def _move_by_text(self, interaction: Interaction, move: str) -> Shown:
        stored = await self.parts.load_running(interaction)
        table = stored.table.model_copy(deep=True)
        player, state = self.parts.seated_player_state(interaction, table)
        before, state = state, self.adapter.perform(state, player, move)
        note(table, player, move)
        text = self.saving.describe_move(table, move, before, state)
        table = table_life.moved_by(table, player, text)
        rev = await self.saving.commit(table, stored.rev, state)
        answer = self.adapter.typed_move_answer(  # what was made, not what was typed
            move,
            self.engine.view(before, None),
            self.engine.view(state, None),
            user_lang(interaction),
        )
        await answer_privately(interaction, answer)
        return partial(self.announcer.show, table, state, rev, opener_of=player)
