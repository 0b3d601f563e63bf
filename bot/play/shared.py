"""What every game's parts share in one bot process, and nothing else of the bot.

`TableBot` builds one `Shared` when it starts and gives it to each game's
`GameCommands`; `GameParts` hands each part (`Saving`, `Announcer`, `ChannelMessages`,
`FollowUpMoves`) only the services that part uses, by name in its constructor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.play.channel_messages import ChannelOf, WebhookOf
from bot.play.followups import FollowUps
from bot.play.panels import PanelKeeper
from bot.play.saving import TurnTiming
from bot.play.table_edits import TableEdits
from bot.render.workers import RenderWorkers
from bot.storage.clock import Clock
from bot.storage.locks import ChannelLocks
from bot.storage.ratelimit import RateLimiter
from bot.storage.records import RecordStore
from bot.storage.settings import GuildSettingsStore
from bot.storage.stats import StatsStore
from bot.storage.tables import GameStore
from bot.thinking import Thinkers

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands
    from bot.play.tournaments import Tournaments


@dataclass(frozen=True)
class Limits:
    """The process's settings the game parts read (`bot.config.Settings`)."""

    timing: TurnTiming
    computer_pause_seconds: float
    lobby_timeout_seconds: float
    max_tables_per_server: int


@dataclass(frozen=True)
class Shared:
    store: GameStore
    clock: Clock
    locks: ChannelLocks
    followups: FollowUps
    table_edits: TableEdits
    panels: PanelKeeper
    rate_limiter: RateLimiter
    stats: StatsStore
    records: RecordStore
    guild_settings: GuildSettingsStore
    thinkers: Thinkers
    renderer: RenderWorkers
    channel_of: ChannelOf
    """A channel by id, to post and edit in with the bot's token."""
    webhook_of: WebhookOf
    """An interaction's webhook by application id and token, to edit its messages."""
    games: Mapping[str, GameCommands]
    """Every registered game's commands, by name (filled as the bot adds them)."""
    owns_guild: Callable[[int], bool]
    """Whether this process serves the server (its shards)."""
    limits: Limits
    tournaments: Tournaments
    """Told of every finished game, for the tournament it may belong to."""
