"""Tournaments on Discord: ``/tournament``, the sign-up message, one thread per table,
the results collected as games end, and the round clock.

The rules (sign-up, pairing, results, standings) are the pure `bot.tournament`; this
module stores a tournament (`bot.storage.tournaments`), changes it only under its
channel's "tournament" lock with a compare-and-set save, and does what a change asks
on Discord: a thread with a dealt table for every pairing, the sign-up message
edited, the final standings posted. Threads are made before the round is saved, and
removed again if one can't be, so a refused thread leaves nothing half made.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.engines.base import Engine, GameError, Outcome, PlayerId
from bot.i18n import N_, Lang, plural, tr
from bot.names import shown_name
from bot.play.errors import answering_errors
from bot.play.followups import FollowUps
from bot.play.interactions import Interaction, place_of, player_of, public_lang, user_lang
from bot.render.tournament import StandingRow, render_standings
from bot.render.workers import RenderWorkers
from bot.storage.clock import Clock
from bot.storage.errors import StoreError
from bot.storage.locks import ChannelLocks
from bot.storage.tournaments import TableInThread, TournamentStore
from bot.table import Seat
from bot.table import Table as GameTable
from bot.tournament import (
    Format,
    Standing,
    Tournament,
    TournamentError,
    advance,
    close_round,
    create,
    join,
    leave,
    record_result,
    round_complete,
    standings,
    start,
    withdraw,
)
from bot.tournament import Table as Pairing
from bot.tournament import cancel as cancelled

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.play.game_commands import GameCommands

log = logging.getLogger(__name__)

Verb = Literal["join", "leave", "start", "cancel"]
BUTTON_ID = r"t:(?P<tid>[0-9a-f]{8}):(?P<verb>join|leave|start|cancel)"
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
"""A table's thread archives itself a day after its last message."""
MOST_ROUNDS = 10
MAX_OPTIONS_TEXT = 100
"""The longest ``options`` text `/tournament create` takes."""
SHORTEST_ROUND_MINUTES, LONGEST_ROUND_MINUTES = 5, 24 * 60
LISTED_ENTRANTS = 40
"""The sign-up message lists this many names, then "and N more" (an embed's field
holds 1,024 characters, and a name is cut at 32)."""

THREAD_PERMISSIONS: dict[str, str] = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}
"""What the bot needs in the tournament's channel to run it, by the names Discord's
server settings show."""

REFUSALS: dict[str, str] = {
    "already_joined": N_("You're signed up already."),
    "not_joined": N_("You're not signed up."),
    "not_signup": N_("The sign-up is closed."),
    "full": N_("The tournament is full."),
    "too_few": N_("At least two people must sign up before the start."),
    "cannot_seat": N_(
        "That many players can't be seated at this game's tables; one more or one fewer "
        "would do, or let computers fill the seats."
    ),
    "not_running": N_("The tournament isn't running."),
    "withdrawn": N_("You've withdrawn already."),
}
"""The words for each refusal of `bot.tournament` (by its ``code``) a person can meet."""


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID):
    """The sign-up message's buttons; a click goes to the bot's `Tournaments`."""

    def __init__(self, tid: str, verb: Verb, label: str = "", style: str = "secondary") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                custom_id=f"t:{tid}:{verb}",
                style=getattr(discord.ButtonStyle, style),
            )
        )
        self.tid = tid
        self.verb: Verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> TournamentButton:
        verb: Verb = match["verb"]
        return cls(match["tid"], verb)

    async def callback(self, interaction: discord.Interaction[TableBot]) -> None:  # type: ignore[override]
        await interaction.client.tournaments.on_button(interaction, self.tid, self.verb)


class Tournaments:
    """Every tournament this process runs: its commands, buttons, threads and clocks."""

    def __init__(
        self,
        store: TournamentStore,
        games: Mapping[str, GameCommands],
        *,
        clock: Clock,
        locks: ChannelLocks,
        followups: FollowUps,
        client: discord.Client,
        renderer: RenderWorkers,
    ) -> None:
        self.store = store
        self.games = games
        self._clock = clock
        self._locks = locks
        self._followups = followups
        self._client = client
        self._renderer = renderer

    # ----- commands ---------------------------------------------------------------

    def command_group(self) -> app_commands.Group:
        group = app_commands.Group(
            name="tournament", description=N_("A tournament of one game, run by the bot")
        )
        choices = [
            app_commands.Choice(name=game.engine.title, value=name)
            for name, game in sorted(self.games.items())
        ]

        @group.command(name="create", description=N_("Open the sign-up for a tournament here"))
        @app_commands.describe(
            game=N_("The game every table plays"),
            rounds=N_("How many rounds"),
            round_minutes=N_("How long a round's tables wait for their players"),
            computers=N_("Computers fill the seats an odd field leaves"),
            format=N_("Two at a table (Swiss) or 3 to 5; by default what the game is for"),
            options=N_(
                "The game's options, as name=value (tactical=yes); the game's own if left out"
            ),
        )
        @app_commands.choices(
            game=choices,
            format=[
                app_commands.Choice(name=N_("Swiss: one opponent a round"), value="swiss"),
                app_commands.Choice(name=N_("Tables of 3 to 5 by standing"), value="groups"),
            ],
        )
        async def create_command(
            interaction: Interaction,
            game: str,
            rounds: app_commands.Range[int, 1, MOST_ROUNDS] = 3,
            round_minutes: app_commands.Range[
                int, SHORTEST_ROUND_MINUTES, LONGEST_ROUND_MINUTES
            ] = 60,
            computers: bool = True,
            format: Format | None = None,
            options: app_commands.Range[str, 1, MAX_OPTIONS_TEXT] | None = None,
        ) -> None:
            async with answering_errors(interaction):
                await self.create(
                    interaction, game, rounds, round_minutes, computers, format, options
                )

        @group.command(name="standings", description=N_("The tournament's standings now"))
        async def standings_command(interaction: Interaction) -> None:
            async with answering_errors(interaction):
                tournament = await self._here(interaction)
                embed = standings_embed(tournament, user_lang(interaction), self._title(tournament))
                await interaction.response.send_message(embed=embed, ephemeral=True)

        @group.command(name="table", description=N_("Where your table of this round is"))
        async def table_command(interaction: Interaction) -> None:
            async with answering_errors(interaction):
                await self.my_table(interaction)

        @group.command(
            name="withdraw", description=N_("Leave the tournament: no more rounds for you")
        )
        async def withdraw_command(interaction: Interaction) -> None:
            async with answering_errors(interaction):
                await self.withdraw(interaction)

        @group.command(name="close_round", description=N_("End the round now (organiser)"))
        async def close_command(interaction: Interaction) -> None:
            async with answering_errors(interaction):
                tournament = await self._here(interaction)
                self._check_organiser(interaction, tournament)
                await interaction.response.defer(ephemeral=True)
                await self.close_round(tournament)
                await interaction.followup.send(
                    tr(user_lang(interaction), "The round is closed."), ephemeral=True
                )

        return group

    async def create(
        self,
        interaction: Interaction,
        game: str,
        rounds: int,
        minutes: int,
        computers: bool,
        chosen: Format | None,
        options: str | None = None,
    ) -> None:
        guild_id, channel_id = place_of(interaction)
        if isinstance(interaction.channel, discord.Thread):
            raise GameError("A tournament runs in a text channel, not in a thread.")
        running = self.games.get(game)
        if running is None:
            raise GameError("That game is no longer available on this bot.")
        if await self.store.in_channel(guild_id, channel_id) is not None:
            raise GameError("A tournament is already signing up or running in this channel.")
        engine = running.engine
        swiss = format_for(engine.min_players, engine.max_players, chosen) == "swiss"
        tournament = create(
            id=secrets.token_hex(4),
            game=game,
            format="swiss" if swiss else "groups",
            round_count=rounds,
            round_seconds=minutes * 60,
            computer_fill=computers,
            organiser=player_of(interaction),
            min_players=min(engine.min_players, 2) if swiss else engine.min_players,
            table_min=2 if swiss else max(3, engine.min_players),
            table_max=2 if swiss else min(engine.max_players, 5),
            seed=secrets.randbits(32),
            options=options_from_text(engine, start_options(running), options),
            guild_id=guild_id,
            channel_id=channel_id,
        )
        tournament = tournament.model_copy(update={"revision": 1})
        await self.store.save(tournament, 0)
        lang = public_lang(interaction)
        await interaction.response.send_message(
            embed=signup_embed(
                tournament, lang, self._title(tournament), self._options_text(tournament, lang)
            ),
            view=signup_view(tournament, lang),
        )
        message = await interaction.original_response()
        await self.store.set_message(guild_id, tournament.id, message.id, lang)

    async def my_table(self, interaction: Interaction) -> None:
        tournament = await self._here(interaction)
        lang = user_lang(interaction)
        current = tournament.current
        player = player_of(interaction)
        pairing = next((t for t in (current.tables if current else ()) if player in t.seats), None)
        if current is None or pairing is None:
            raise GameError("You have no table in this round.")
        thread = await self.store.thread_of(tournament, pairing.id)
        text = tr(
            lang,
            "Round {round}: your table is {thread}.",
            round=current.number,
            thread=f"<#{thread}>" if thread else pairing.id,
        )
        await interaction.response.send_message(text, ephemeral=True)

    async def withdraw(self, interaction: Interaction) -> None:
        """The player leaves the running tournament: the next rounds don't pair them,
        their points stay, and their game of this round counts as it ends."""
        here = await self._here(interaction)
        assert here.guild_id is not None and here.channel_id is not None
        async with self._locks.hold(here.guild_id, here.channel_id, wait=1.0, purpose="tournament"):
            tournament = await self.store.load(here.guild_id, here.id)
            if tournament is None or tournament.state == "signup":
                raise GameError(
                    "The tournament hasn't started; leave it with the sign-up's Leave button."
                )
            try:
                changed = withdraw(tournament, player_of(interaction))
            except TournamentError as error:
                raise GameError(REFUSALS.get(error.code, N_("That can't be done now."))) from error
            await self.store.save(changed, tournament.revision)
        await interaction.response.send_message(
            tr(
                user_lang(interaction),
                "You've withdrawn: the next rounds won't pair you, and your points stay in "
                "the standings. Your game of this round still counts; finish it, or leave it "
                "with `/{game} leave`.",
                game=tournament.game,
            ),
            ephemeral=True,
        )

    # ----- the sign-up's buttons --------------------------------------------------

    async def on_button(self, interaction: Interaction, tid: str, verb: Verb) -> None:
        async with answering_errors(interaction):
            guild_id, channel_id = place_of(interaction)
            async with self._locks.hold(guild_id, channel_id, wait=1.0, purpose="tournament"):
                tournament = await self.store.load(guild_id, tid)
                if tournament is None or tournament.state != "signup":
                    raise GameError("The sign-up is closed.")
                if verb == "start":  # threads and tables take longer than Discord waits
                    self._check_organiser(interaction, tournament)
                    self._check_thread_permissions(interaction)
                    await interaction.response.defer()
                changed = await self._signup_change(interaction, tournament, verb)
            lang = await self._lang(tournament)
            title = self._title(changed)
            if changed.state == "running":
                await interaction.edit_original_response(
                    embed=standings_embed(changed, lang, title), view=None
                )
            else:
                await interaction.response.edit_message(
                    embed=signup_embed(changed, lang, title, self._options_text(changed, lang)),
                    view=signup_view(changed, lang) if changed.state == "signup" else None,
                )

    async def _signup_change(
        self, interaction: Interaction, tournament: Tournament, verb: Verb
    ) -> Tournament:
        player = player_of(interaction)
        try:
            if verb == "join":
                changed = join(tournament, player, interaction.user.display_name)
            elif verb == "leave":
                changed = leave(tournament, player)
            elif verb == "cancel":
                self._check_organiser(interaction, tournament)
                changed = cancelled(tournament)
            else:
                now = await self._clock.now()
                lang = await self._lang(tournament)
                changed = await asyncio.to_thread(  # pairing: CPU
                    partial(start, computer_name=partial(computer_name, lang)), tournament, now
                )
        except TournamentError as error:
            raise GameError(REFUSALS.get(error.code, N_("That can't be done now."))) from error
        if changed.state == "running":
            threads = await self._open_threads(changed)
            try:
                await self.store.save(changed, tournament.revision)
            except StoreError:
                await _delete_threads(threads.values())
                raise
            await self._deal_round(changed, threads)
            self._keep_clock(changed)
        elif changed is not tournament:
            await self.store.save(changed, tournament.revision)
        return changed

    def _check_organiser(self, interaction: Interaction, tournament: Tournament) -> None:
        if player_of(interaction) == tournament.organiser:
            return
        if interaction.permissions.manage_guild:
            return
        raise GameError("Only the organiser, or someone who may manage this server, can do that.")

    def _check_thread_permissions(self, interaction: Interaction) -> None:
        """Refuse the start, in words, while the bot lacks a permission the tables'
        threads need (`discord.Interaction.app_permissions`: the bot's in this channel)."""
        granted = interaction.app_permissions
        missing = [name for flag, name in THREAD_PERMISSIONS.items() if not getattr(granted, flag)]
        if missing:
            lang = user_lang(interaction)
            raise GameError(
                "I can't open the tables' threads here: I need the {permissions} "
                "permission in this channel. A server admin can give it to me.",
                permissions=", ".join(tr(lang, name) for name in missing),
            )

    # ----- a round's tables -------------------------------------------------------

    async def _open_threads(
        self, tournament: Tournament, only: Sequence[str] | None = None
    ) -> dict[str, discord.Thread]:
        """A thread for each table of the current round (or for the tables ``only``
        names); none at all if one is refused."""
        current = tournament.current
        assert current is not None and tournament.channel_id is not None
        channel = await self._text_channel(tournament.channel_id)
        lang = await self._lang(tournament)
        threads: dict[str, discord.Thread] = {}
        try:
            for number, pairing in enumerate(current.tables, 1):
                if only is not None and pairing.id not in only:
                    continue
                name = tr(
                    lang,
                    "{title} · round {round} · table {table}",
                    title=tr(lang, self._title(tournament)),
                    round=current.number,
                    table=number,
                )
                threads[pairing.id] = await channel.create_thread(
                    name=name[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
        except discord.HTTPException:
            await _delete_threads(threads.values())
            raise GameError(
                "Discord refused a thread for the tables; check my permissions in this channel."
            ) from None
        return threads

    async def _deal_round(
        self, tournament: Tournament, threads: Mapping[str, discord.Thread]
    ) -> None:
        """Each table's game dealt in its thread (of those ``threads`` has), its people
        pinged there once."""
        current = tournament.current
        assert current is not None and tournament.guild_id is not None
        game = self.games[tournament.game]
        lang = await self._lang(tournament)
        for pairing in current.tables:
            thread = threads.get(pairing.id)
            if thread is None:
                continue
            await self.store.mark_thread(
                tournament.guild_id, thread.id, TableInThread(tournament.id, pairing.id)
            )
            await self.store.set_thread(tournament, pairing.id, thread.id)
            seats = [_seat(tournament, player) for player in pairing.seats]
            await game.parts.open_seated(
                tournament.guild_id, thread, seats, tournament.options, lang
            )

    # ----- results ----------------------------------------------------------------

    async def game_over(self, table: GameTable, outcome: Outcome | None) -> None:
        """A game ended: if it is a tournament table's, its result counts, and a round
        that ends with it gives way to the next one (or to the final standings)."""
        place = await self.store.table_in_thread(table.guild_id, table.channel_id)
        if place is None or outcome is None:
            return
        tournament = await self.store.load(table.guild_id, place.tournament_id)
        if tournament is None or tournament.channel_id is None:
            return
        async with self._locks.hold(table.guild_id, tournament.channel_id, purpose="tournament"):
            tournament = await self.store.load(table.guild_id, place.tournament_id)
            if tournament is None or tournament.state != "running":
                return
            try:
                changed = record_result(
                    tournament, place.table_id, _places(tournament, place, outcome)
                )
            except TournamentError as error:
                log.warning("Result of %s not counted: %s", place, error)
                return
            await self._move_on(tournament, changed)

    async def close_round(self, tournament: Tournament) -> None:
        """The round clock ran out, or the organiser closed the round: who never moved
        in their game forfeits it; unfinished games end where they are."""
        assert tournament.guild_id is not None and tournament.channel_id is not None
        async with self._locks.hold(
            tournament.guild_id, tournament.channel_id, purpose="tournament"
        ):
            stored = await self.store.load(tournament.guild_id, tournament.id)
            if stored is None or stored.state != "running" or stored.current is None:
                return
            showed_up = await self._showed_up(stored)
            collected = await self._collected(stored)
            await self._move_on(stored, close_round(collected, showed_up))

    async def _showed_up(self, tournament: Tournament) -> set[PlayerId]:
        """The people who made a move at their table of the current round."""
        assert tournament.current is not None and tournament.guild_id is not None
        came: set[PlayerId] = set()
        store = self.games[tournament.game].shared.store
        for pairing in tournament.current.tables:
            thread = await self.store.thread_of(tournament, pairing.id)
            stored = await store.load(tournament.guild_id, thread) if thread else None
            if stored is not None:
                came |= {move.p for move in stored.table.moves if move.by in ("click", "resign")}
        return came

    async def _move_on(self, before: Tournament, changed: Tournament) -> None:
        """Save ``changed``; when its round is complete, pair the next one and deal it,
        or finish the tournament and post its final standings."""
        if round_complete(changed) and changed.state == "running":
            now = await self._clock.now()
            changed = await asyncio.to_thread(advance, changed, now)  # pairing: CPU
            if changed.state == "finished":
                await self.store.save(changed, before.revision, now=now)
                await self._post_standings(changed, final=True)
                return
            threads = await self._open_threads(changed)
            await self.store.save(changed, before.revision)
            await self._deal_round(changed, threads)
            self._keep_clock(changed)
            await self._post_standings(changed, final=False)
            return
        if changed is not before:
            await self.store.save(changed, before.revision)

    async def _post_standings(self, tournament: Tournament, *, final: bool) -> None:
        """The standings after a round, or the final ones with their podium, posted in
        the tournament's channel."""
        assert tournament.channel_id is not None
        embed, picture = await self._standings(tournament, await self._lang(tournament), final)
        channel = self._client.get_partial_messageable(tournament.channel_id)
        try:
            await channel.send(embed=embed, file=picture)
        except discord.HTTPException as error:
            log.info("Standings of tournament %s not posted: %s", tournament.id, error)

    async def show_final(self, interaction: Interaction, tournament: Tournament) -> None:
        """A finished tournament's final standings, privately (`/replay` with its id)."""
        embed, picture = await self._standings(tournament, user_lang(interaction), final=True)
        await interaction.response.send_message(embed=embed, file=picture, ephemeral=True)

    async def _standings(
        self, tournament: Tournament, lang: Lang, final: bool
    ) -> tuple[discord.Embed, discord.File]:
        """The standings' embed and its picture (drawn in a render worker)."""
        embed = standings_embed(tournament, lang, self._title(tournament))
        png = await self._renderer.run(
            partial(
                render_standings,
                final=final,
                headers=(
                    "#",
                    tr(lang, "Player"),
                    tr(lang, "Games"),
                    tr(lang, "Points"),
                    tr(lang, "Tie-break"),
                ),
                more_text=tr(lang, "+ {n} more", n="{n}"),
            ),
            embed.title or "",
            embed.description or "",
            standing_rows(tournament),
            lang,
        )
        embed.set_image(url="attachment://standings.png")
        return embed, discord.File(io.BytesIO(png), "standings.png")

    # ----- the round clock --------------------------------------------------------

    def _keep_clock(self, tournament: Tournament) -> None:
        assert tournament.channel_id is not None
        self._followups.keep(tournament.channel_id, self._close_when_due(tournament))

    async def _close_when_due(self, tournament: Tournament) -> None:
        current = tournament.current
        if current is None:
            return
        await self._clock.sleep_until(current.deadline)
        stored = await self.store.load(tournament.guild_id or 0, tournament.id)
        if (
            stored is not None
            and stored.current is not None
            and stored.current.number == current.number
        ):
            await self.close_round(stored)

    async def resume(self) -> None:
        """After a start: every running tournament caught up (`_catch_up`) and its round
        clock kept again."""
        async for tournament in self.store.live():
            if tournament.state != "running":
                continue
            try:
                await self._catch_up(tournament)
            except (StoreError, discord.HTTPException, GameError) as error:
                log.warning("Tournament %s not caught up after the start: %s", tournament.id, error)
            self._keep_clock(tournament)

    async def _catch_up(self, tournament: Tournament) -> None:
        """What a stop between two steps left undone: the results of games that ended
        but weren't counted (the stop came between a game's end and the tournament's
        save), and the tables of the current round that were saved but never dealt
        (between the round's save and its deal)."""
        assert tournament.guild_id is not None and tournament.channel_id is not None
        async with self._locks.hold(
            tournament.guild_id, tournament.channel_id, purpose="tournament"
        ):
            stored = await self.store.load(tournament.guild_id, tournament.id)
            if stored is None or stored.state != "running":
                return
            collected = await self._collected(stored)
            if collected is not stored:
                log.info("Tournament %s: uncounted results counted after the start", stored.id)
                await self._move_on(stored, collected)
                stored = await self.store.load(tournament.guild_id, tournament.id)
                if stored is None or stored.state != "running":
                    return
            await self._deal_undealt(stored)

    async def _collected(self, tournament: Tournament) -> Tournament:
        """``tournament`` with the result of every game of its current round that ended
        in its thread but isn't counted yet."""
        current, guild_id = tournament.current, tournament.guild_id
        assert current is not None and guild_id is not None
        game = self.games[tournament.game]
        for pairing in current.tables:
            if pairing.finished:
                continue
            thread = await self.store.thread_of(tournament, pairing.id)
            stored = await game.shared.store.load(guild_id, thread) if thread else None
            if stored is None or stored.table.phase != "over" or stored.table.state is None:
                continue
            state = game.engine.State.model_validate(stored.table.state)
            if not game.engine.is_over(state):
                continue  # closed without a result: the round clock decides it
            place = TableInThread(tournament.id, pairing.id)
            outcome = game.engine.outcome(state)
            try:
                tournament = record_result(
                    tournament, pairing.id, _places(tournament, place, outcome)
                )
            except TournamentError as error:
                log.warning("Result of %s not counted: %s", place, error)
        return tournament

    async def _deal_undealt(self, tournament: Tournament) -> None:
        """Deal each unfinished table of the current round that has no game: in its
        thread if it has one still, in a new one otherwise."""
        current, guild_id = tournament.current, tournament.guild_id
        assert current is not None and guild_id is not None
        store = self.games[tournament.game].shared.store
        threads: dict[str, discord.Thread] = {}
        without: list[str] = []
        for pairing in current.tables:
            if pairing.finished:
                continue
            thread_id = await self.store.thread_of(tournament, pairing.id)
            if thread_id is not None and await store.load(guild_id, thread_id) is not None:
                continue
            thread = await self._thread(thread_id) if thread_id is not None else None
            if thread is None:
                without.append(pairing.id)
            else:
                threads[pairing.id] = thread
        if without:
            threads |= await self._open_threads(tournament, without)
        if threads:
            log.info(
                "Tournament %s: %d undealt tables dealt after the start",
                tournament.id,
                len(threads),
            )
            await self._deal_round(tournament, threads)

    async def _thread(self, thread_id: int) -> discord.Thread | None:
        """The thread, if Discord still has it."""
        try:
            channel = self._client.get_channel(thread_id) or await self._client.fetch_channel(
                thread_id
            )
        except discord.HTTPException:
            return None
        return channel if isinstance(channel, discord.Thread) else None

    # ----- helpers ----------------------------------------------------------------

    async def _here(self, interaction: Interaction) -> Tournament:
        guild_id, channel_id = place_of(interaction)
        if isinstance(interaction.channel, discord.Thread) and interaction.channel.parent_id:
            channel_id = interaction.channel.parent_id
        tournament = await self.store.in_channel(guild_id, channel_id)
        if tournament is None:
            raise GameError("No tournament is signing up or running in this channel.")
        return tournament

    async def _text_channel(self, channel_id: int) -> discord.TextChannel:
        channel = self._client.get_channel(channel_id) or await self._client.fetch_channel(
            channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise GameError("A tournament runs in a text channel, not in a thread.")
        return channel

    async def _lang(self, tournament: Tournament) -> Lang:
        return await self.store.lang_of(tournament)

    def _options_text(self, tournament: Tournament, lang: Lang) -> str:
        """The game's options every table plays with, in words, as a lobby shows them."""
        game = self.games.get(tournament.game)
        return game.adapter.lobby_options(tournament.options, lang) if game else ""

    def _title(self, tournament: Tournament) -> str:
        game = self.games.get(tournament.game)
        return game.engine.title if game else tournament.game


def options_from_text(
    engine: Engine[Any, Any, Any], names: Sequence[str], text: str | None
) -> dict[str, Any]:
    """The game's options from ``name=value`` pairs (``tactical=yes turn_cap=300``,
    commas or spaces between) among ``names`` (those its ``start`` command takes),
    checked by the game's own `Options` model; the game's defaults for the rest. What
    was typed is never shown back: a refusal names the options the game takes."""
    refusal = GameError(
        "Options are written as name=value; this game takes: {names}.",
        names=", ".join(names) or "—",
    )
    given: dict[str, object] = {}
    for pair in re.split(r"[,\s]+", (text or "").strip()):
        if not pair:
            continue
        name, equals, value = pair.partition("=")
        if not equals or name not in names or name in given:
            raise refusal
        given[name] = int(value) if value.isdecimal() else value
    try:
        return engine.Options.model_validate(given).model_dump(mode="json")
    except ValidationError as error:
        raise refusal from error


def start_options(game: GameCommands) -> list[str]:
    """The game options its ``start`` command takes (not the turn clock: a tournament's
    tables keep the game's own)."""
    start = game.group.get_command("start")
    parameters = start.parameters if isinstance(start, app_commands.Command) else []
    return sorted(p.name for p in parameters if p.name in game.engine.Options.model_fields)


def computer_name(lang: Lang, number: int) -> str:
    """A computer entrant's name, as the tournament's channel reads it."""
    return tr(lang, "🤖 Computer {n}", n=number)


def format_for(min_players: int, max_players: int, chosen: Format | None) -> Format:
    """Swiss for a game of two (or when chosen and two may play), tables of three or
    more otherwise; a format the game can't be played in is refused."""
    if chosen is None:
        return "swiss" if max_players == 2 else "groups"
    if chosen == "swiss" and min_players > 2:
        raise GameError("This game needs more than two at a table; choose tables of 3 to 5.")
    if chosen == "groups" and max_players < 3:
        raise GameError("This game is for two; a Swiss pairs one opponent a round.")
    return chosen


def _seat(tournament: Tournament, player: PlayerId) -> Seat:
    entrant = tournament.entrant(player)
    assert entrant is not None
    return Seat(id=entrant.id, name=entrant.name, level=entrant.level)


def _places(tournament: Tournament, place: TableInThread, outcome: Outcome) -> dict[PlayerId, int]:
    """The game's places of the table's seats that played (not those recorded absent)."""
    pairing: Pairing = next(
        t for r in tournament.rounds for t in r.tables if t.id == place.table_id
    )
    present = [p for p in pairing.seats if p not in pairing.absent]
    ranked = sorted(present, key=lambda p: outcome.places.get(p, len(present)))
    places: dict[PlayerId, int] = {}
    for index, player in enumerate(ranked):
        earlier = ranked[index - 1] if index else None
        same = earlier is not None and outcome.places.get(earlier) == outcome.places.get(player)
        places[player] = places[earlier] if same and earlier else index + 1
    return places


async def _delete_threads(threads: Sequence[discord.Thread] | Any) -> None:
    for thread in threads:
        try:
            await thread.delete()
        except discord.HTTPException as error:
            log.info("Thread %s not removed: %s", thread.id, error)


def signup_embed(
    tournament: Tournament, lang: Lang, title: str, options: str = ""
) -> discord.Embed:
    people = [e for e in tournament.entrants if not e.computer]
    names = [shown_name(e.name) for e in people[:LISTED_ENTRANTS]]
    if len(people) > LISTED_ENTRANTS:
        names.append(tr(lang, "and {n} more", n=len(people) - LISTED_ENTRANTS))
    state = {
        "signup": N_("Sign-up is open: press Join."),
        "cancelled": N_("This tournament was cancelled."),
        "running": N_("Running."),
        "finished": N_("Finished."),
    }[tournament.state]
    embed = discord.Embed(
        title=tr(lang, "{title} tournament", title=tr(lang, title)),
        description="\n".join(
            [
                tr(lang, state),
                plural(lang, tournament.round_count, "{n} round", "{n} rounds"),
                tr(
                    lang,
                    "Round clock: {minutes} min",
                    minutes=tournament.round_seconds // 60,
                ),
                tr(
                    lang,
                    "Computers fill seats: {answer}",
                    answer=tr(lang, N_("yes") if tournament.computer_fill else N_("no")),
                ),
                options,
            ]
        ).strip(),
    )
    embed.add_field(
        name=plural(lang, len(people), "{n} signed up", "{n} signed up"),
        value="\n".join(names) or "—",
        inline=False,
    )
    return embed


def signup_view(tournament: Tournament, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb, label, style in (
        ("join", N_("Join"), "success"),
        ("leave", N_("Leave"), "secondary"),
        ("start", N_("Start"), "primary"),
        ("cancel", N_("Cancel"), "danger"),
    ):
        view.add_item(TournamentButton(tournament.id, verb, tr(lang, label), style))  # type: ignore[arg-type]
    return view


def standings_embed(tournament: Tournament, lang: Lang, title: str) -> discord.Embed:
    lines = [standing_line(line) for line in standings(tournament)]
    current = tournament.current
    if tournament.state == "finished":
        heading = tr(lang, "Final standings")
    elif current is None:
        heading = tr(lang, "Standings")
    else:
        played = current.number if current.complete else current.number - 1
        heading = tr(lang, "Standings after round {round}", round=played)
    embed = discord.Embed(
        title=tr(lang, "{title} tournament", title=tr(lang, title)), description=heading
    )
    embed.add_field(name="\u200b", value="\n".join(lines[:LISTED_ENTRANTS]) or "—", inline=False)
    return embed


def standing_rows(tournament: Tournament) -> list[StandingRow]:
    """The standings as the picture draws them (names as plain text: it draws, never
    parses, them)."""
    return [
        StandingRow(
            rank=line.place,
            name=line.name,
            points=_points(line.points),
            tie_break=f"Bh {_points(line.buchholz)}",
            games=line.games,
            is_computer=line.computer,
        )
        for line in standings(tournament)
    ]


def standing_line(line: Standing) -> str:
    """``3. Ada — 2½ (7)``: place, name, points and the first tie-break."""
    points = _points(line.points)
    tie = _points(line.buchholz)
    return f"{line.place}. {shown_name(line.name)} — {points} ({tie})"


def _points(value: float) -> str:
    whole = int(value)
    return (
        f"{whole}½" if value - whole == 0.5 else (str(whole) if value == whole else f"{value:.2f}")
    )
