"""The bot: an AutoShardedBot that owns the store and one `GameCommands` per game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.engines.base import player_range
from bot.games import GAMES, check_registry
from bot.i18n import N_, lang_of, tr
from bot.i18n.commands import CommandTranslator
from bot.pacing import RequestPacer, pacing_trace
from bot.play.followups import FollowUps
from bot.play.game_commands import GameCommands
from bot.play.history import RecordButton, history_commands
from bot.play.panels import PanelKeeper
from bot.play.resume import keep_games_moving, resume_all
from bot.play.routes import ButtonRoute, SelectRoute
from bot.play.saving import TurnTiming
from bot.play.settings import pings_command, settings_group
from bot.play.shared import Limits, Shared
from bot.play.stats import stats_commands
from bot.play.table_edits import TableEdits
from bot.play.tournaments import TournamentButton, Tournaments
from bot.render.workers import RenderWorkers
from bot.storage.clock import Clock, OffsetClock, SystemClock
from bot.storage.errors import StoreError
from bot.storage.locks import ChannelLocks
from bot.storage.panels import PanelRecords
from bot.storage.ratelimit import RateLimiter
from bot.storage.records import RecordStore
from bot.storage.settings import GuildSettingsStore
from bot.storage.stats import StatsStore
from bot.storage.tables import GameStore
from bot.storage.tournaments import TournamentStore
from bot.thinking import Thinkers

log = logging.getLogger(__name__)


def shard_ids_of(settings: Settings) -> dict[str, Any]:
    """The ``shard_ids`` argument when this process connects only some shards (the
    library's stub doesn't admit None, its "all of them")."""
    return {} if settings.shard_ids is None else {"shard_ids": settings.shard_ids}


SERVERS_ONLY = discord.Intents(guilds=True)
"""The gateway events the bot reads: its servers and their channels. Interactions
arrive without any intent; the message events of the default intents would bring an
event for every message the bot itself sends, edits or deletes, to be parsed and
dropped (the tables, panels and pings: several per click)."""


class TableBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, store: GameStore) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=SERVERS_ONLY,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            shard_count=settings.shard_count,
            http_trace=pacing_trace(RequestPacer(settings.discord_requests_per_second)),
            **shard_ids_of(settings),
        )
        self.settings = settings
        self.store = store
        self.games: dict[str, GameCommands] = {}
        self.renderer = RenderWorkers(settings.render_processes)
        self.thinkers = Thinkers(
            settings.render_processes,
            settings.computer_think_seconds,
            tuple(spec.name for spec in GAMES),
        )
        """Where computer players think: a pool of its own, as many processes at most as
        the render pool (`bot.thinking`)."""
        self.stats = StatsStore(store.client)
        self.records = RecordStore(store.client, days=settings.history_days)
        self.guild_settings = GuildSettingsStore(store.client, [spec.name for spec in GAMES])
        self.clock: Clock = (
            OffsetClock(store.client, settings.clock_offset_key)
            if settings.clock_offset_key
            else SystemClock()
        )
        self.rate_limiter = RateLimiter(
            store.client, limit=settings.clicks_per_ten_seconds, window_seconds=10.0
        )
        self.panels = PanelKeeper(self, PanelRecords(store.client))
        """Open private panels, edited as their players' views change."""
        self.followups = FollowUps()
        """Every computer move, timed default, turn clock and lobby expiry waiting."""
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False
        self.channel_locks = ChannelLocks(store.client)
        """Each channel's lock across processes (`bot.storage.locks`): its game's
        interactions and follow-ups run one at a time."""
        self.table_edits = TableEdits()
        """The table messages' edits in this process, one at a time per table and never
        an older revision over a newer one (`bot.play.table_edits`)."""
        self.tournaments = Tournaments(
            TournamentStore(store.client, keep_days=settings.history_days),
            self.games,
            clock=self.clock,
            locks=self.channel_locks,
            followups=self.followups,
            client=self,
            renderer=self.renderer,
        )
        """Every tournament this process runs (`bot.play.tournaments`)."""
        self.shared = self._shared()
        """What the games' parts and the other commands use of this process."""

    async def setup_hook(self) -> None:
        check_registry()
        for spec in GAMES:
            game_commands = GameCommands(self.shared, spec)
            self.games[spec.name] = game_commands
            self.tree.add_command(game_commands.group)
        self.tree.add_command(
            app_commands.Command(
                name="help", description=N_("The games this bot hosts"), callback=self._help
            )
        )
        for command in stats_commands(self.shared):
            self.tree.add_command(command)
        for command in history_commands(self.shared):
            self.tree.add_command(command)
        self.tree.add_command(settings_group(self.shared))
        self.tree.add_command(pings_command(self.shared))
        self.tree.add_command(self.tournaments.command_group())
        self.add_dynamic_items(ButtonRoute, SelectRoute, RecordButton, TournamentButton)
        await self.tree.set_translator(CommandTranslator())
        await self._sync_commands()

    def _shared(self) -> Shared:
        """What the games' parts use of this process, each part given its own share."""
        settings = self.settings
        return Shared(
            store=self.store,
            clock=self.clock,
            locks=self.channel_locks,
            followups=self.followups,
            table_edits=self.table_edits,
            panels=self.panels,
            rate_limiter=self.rate_limiter,
            stats=self.stats,
            records=self.records,
            guild_settings=self.guild_settings,
            thinkers=self.thinkers,
            renderer=self.renderer,
            channel_of=self.get_partial_messageable,
            webhook_of=self.interaction_webhook,
            games=self.games,
            owns_guild=settings.owns_guild,
            tournaments=self.tournaments,
            limits=Limits(
                timing=TurnTiming(
                    ping_after_seconds=settings.ping_after_seconds,
                    choice_timeout_seconds=settings.choice_timeout_seconds,
                ),
                computer_pause_seconds=settings.computer_pause_seconds,
                lobby_timeout_seconds=settings.lobby_timeout_seconds,
                max_tables_per_server=settings.max_tables_per_server,
            ),
        )

    def interaction_webhook(self, application_id: int, token: str) -> discord.Webhook:
        """An interaction's webhook, bound to this bot (so the views it sends are live)."""
        return discord.Webhook.partial(application_id, token, client=self)

    async def _sync_commands(self) -> None:
        guild_ids = self.settings.discord_guild_ids
        if not guild_ids:
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))
            return
        for guild_id in guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), guild_id)

    async def _help(self, interaction: discord.Interaction[Any]) -> None:
        lang = lang_of(interaction.locale)
        lines = [
            tr(
                lang,
                "**{title}** ({players} players): {tagline}\n"
                "Start: `/{game} start` · rules: `/{game} rules`",
                title=tr(lang, game_commands.engine.title),
                players=player_range(
                    game_commands.engine.min_players, game_commands.engine.max_players
                ),
                tagline=tr(lang, game_commands.adapter.tagline),
                game=game_commands.engine.name,
            )
            for game_commands in self.games.values()
        ]
        closing = tr(
            lang,
            "Everyone joins with **Join**; the host can add computer players and presses "
            "**Start**. Your private cards come in messages only you can see.",
        )
        embed = discord.Embed(
            title=tr(lang, "Games in this channel"),
            description="\n\n".join([*lines, closing]),
            colour=0x5865F2,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def launch_shard(
        self, gateway: yarl.URL, shard_id: int, *, initial: bool = False
    ) -> None:
        """Connect to DISCORD_GATEWAY_URL when set, whatever Discord hands out."""
        if self.settings.discord_gateway_url:
            gateway = yarl.URL(self.settings.discord_gateway_url)
        await super().launch_shard(gateway, shard_id, initial=initial)

    async def close(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper  # it may hold a channel's lock: let it give it back
        await self.followups.close()
        await self.panels.close()
        await self.channel_locks.close()
        await super().close()
        self.renderer.close()
        self.thinkers.close()

    async def on_ready(self) -> None:
        if self._closing:
            # discord.py's sharded client swallows the cancelling of its wait for the
            # shards' guilds and reports ready anyway, so a bot stopped before it was
            # ready hears of it while it closes: no sweep may start then.
            return
        log.info("Ready as %s in %d guilds", self.user, len(self.guilds))
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._resume_and_sweep())

    async def _resume_and_sweep(self) -> None:
        """Resume every stored game once, then keep sweeping for lost follow-ups."""
        try:
            looked_at = await resume_all(self.shared, after_start=True)
            log.info("Looked at %d stored games after start", looked_at)
            await self.tournaments.resume()
        except StoreError as error:
            log.warning("Could not resume the stored games yet: %s", error)
        await keep_games_moving(self.shared, self.settings.followup_sweep_seconds)
