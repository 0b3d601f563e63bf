"""Per-server settings chosen by the server's admins (`/settings`), kept in Redis.

``settings:{guild_id}`` holds the `GuildSettings` JSON; a server with no key has the
defaults. Reading is one GET. Changes go through `GuildSettingsStore.update`, which
re-validates the result and saves it with a Lua compare-and-set on the stored JSON
(running the change again after a lost race), so two admins changing different
settings at once both keep their change.

A bad value raises `SettingRefused` (a `Refusal`: an English template shown to the
admin in their language), whether it comes from a command or from stored JSON.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from typing import Any, Literal

import redis.asyncio as aioredis
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.i18n import LANGS
from bot.metrics import REDIS_ERRORS
from bot.storage.errors import Refusal, StoreUnavailable, guarded
from bot.storage.keys import quiet_key, settings_key
from bot.tournament.seasons import SeasonLength

log = logging.getLogger(__name__)

Language = str
SeasonRatings = Literal["carry", "restart"]
"""``auto``, or a language of the catalogues (`bot.i18n.LANGS`)."""
LANGUAGES: tuple[Language, ...] = ("auto", *LANGS)
MAX_TURN_TIME = 3600
"""The longest turn clock a server may set, in seconds."""
MAX_PING_AFTER = 600
"""The longest a server may have the bot wait before it pings the next player."""
MAX_CHANNELS = 25
"""How many channels a server may list as its game channels."""
MAX_ATTEMPTS = 20
"""Compare-and-set rounds before an update gives up; each lost round means another
admin saved."""


class SettingRefused(Refusal):
    """A setting's value the bot can't accept."""


class GuildSettings(BaseModel):
    """One server's settings. Validated on construction and by `GuildSettingsStore`;
    pass ``context={"games": names}`` to `model_validate` to check the game names too."""

    model_config = ConfigDict(frozen=True)

    language: Language = "auto"
    """Public messages: ``auto`` (the server's community locale, else the starter's)."""
    pings: bool = True
    """Whether the next player is pinged with a new message when the turn passes."""
    ping_after: int | None = None
    """Seconds the turn waits for a person before they are pinged; None: the bot's
    ``PING_AFTER_SECONDS``."""
    turn_time: dict[str, int] = Field(default_factory=dict)
    """Game name → the default turn clock of its ``start``, in seconds."""
    channels: list[int] = Field(default_factory=list)
    """The channels that may host games; empty: every channel."""
    season: SeasonLength = "none"
    """How long a leaderboard season lasts: ``monthly``, ``quarterly``, or ``none`` (one
    all-time leaderboard)."""
    season_ratings: SeasonRatings = "carry"
    """``carry``: a season's leaderboard shows the ratings as they stand (carried from
    season to season); ``restart``: every season rates its games from scratch."""

    @field_validator("language", mode="before")
    @classmethod
    def _known_language(cls, value: object) -> object:
        if value not in LANGUAGES:
            raise SettingRefused(
                "`{value}` is not a language setting; choose one of {choices}.",
                value=str(value),
                choices=", ".join(LANGUAGES),
            )
        return value

    @field_validator("ping_after")
    @classmethod
    def _sane_ping_after(cls, value: int | None) -> int | None:
        if value is not None and not 0 <= value <= MAX_PING_AFTER:
            raise SettingRefused(
                "The wait before a ping must be between 0 and {high} seconds.",
                high=MAX_PING_AFTER,
            )
        return value

    @field_validator("turn_time")
    @classmethod
    def _sane_turn_times(cls, value: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        games = _games_of(info)
        for game, seconds in value.items():
            if games is not None and game not in games:
                raise SettingRefused("I don't host a game called {game!r}; see `/help`.", game=game)
            if not 0 <= seconds <= MAX_TURN_TIME:
                raise SettingRefused(
                    "A turn clock must be between 0 and {high} seconds.", high=MAX_TURN_TIME
                )
        return value

    @field_validator("channels")
    @classmethod
    def _few_distinct_channels(cls, value: list[int]) -> list[int]:
        if len(value) > MAX_CHANNELS:
            raise SettingRefused("A server can list at most {n} game channels.", n=MAX_CHANNELS)
        if len(set(value)) != len(value):
            raise SettingRefused("That channel is listed already.")
        return value


def _games_of(info: ValidationInfo) -> Collection[str] | None:
    context: Any = info.context
    return context.get("games") if isinstance(context, dict) else None


_SAVE_IF_UNCHANGED = """
local current = redis.call('GET', KEYS[1])
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""


def allows_channel(settings: GuildSettings, channel_id: int) -> bool:
    """Whether games may be played in ``channel_id`` (an empty list allows all)."""
    return not settings.channels or channel_id in settings.channels


def turn_time_for(settings: GuildSettings, game: str) -> int | None:
    """The server's default turn clock for ``game`` in seconds; None: the game's own."""
    return settings.turn_time.get(game)


class GuildSettingsStore:
    """Reads and changes servers' settings; Redis faults become `StoreUnavailable`.

    ``games`` are the registered game names: a turn clock for any other game is
    refused, and one stored for a game no longer registered is ignored."""

    def __init__(self, client: aioredis.Redis, games: Collection[str]) -> None:
        self.client = client
        self.games = frozenset(games)
        self._save_script = client.register_script(_SAVE_IF_UNCHANGED)

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults if it never changed any)."""
        try:
            raw = await self.client.get(settings_key(guild_id))
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            raise _unavailable(error) from error
        return self._decode(guild_id, raw)

    async def update(
        self, guild_id: int, change: Callable[[GuildSettings], GuildSettings]
    ) -> GuildSettings:
        """Apply ``change`` to the stored settings and save the (validated) result
        atomically; ``change`` runs again if another update saved meanwhile.
        Raises `SettingRefused` for a bad value, leaving the stored settings as they were."""
        try:
            return await self._update(guild_id, change)
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            raise _unavailable(error) from error

    async def _update(
        self, guild_id: int, change: Callable[[GuildSettings], GuildSettings]
    ) -> GuildSettings:
        key = settings_key(guild_id)
        for _ in range(MAX_ATTEMPTS):
            raw = await self.client.get(key)
            new = self.validated(change(self._decode(guild_id, raw)))
            expected = "" if raw is None else raw
            if await self._save_script(keys=[key], args=[expected, new.model_dump_json()]):
                return new
        raise StoreUnavailable()

    async def set_pinged(self, guild_id: int, player: str, pinged: bool) -> None:
        """Turn ``player``'s own turn pings on this server on or off."""
        key = quiet_key(guild_id)
        change = self.client.srem(key, player) if pinged else self.client.sadd(key, player)
        await guarded(change)

    async def quiet_among(self, guild_id: int, players: Collection[str]) -> set[str]:
        """Those of ``players`` who turned their own turn pings off on this server."""
        if not players:
            return set()
        ordered = list(players)
        flags = await guarded(self.client.smismember(quiet_key(guild_id), ordered))
        return {player for player, quiet in zip(ordered, flags, strict=True) if quiet}

    def validated(self, settings: GuildSettings) -> GuildSettings:
        """``settings`` checked again (``model_copy`` skips validation), games included."""
        return GuildSettings.model_validate(settings.model_dump(), context={"games": self.games})

    def _decode(self, guild_id: int, raw: str | bytes | None) -> GuildSettings:
        """Stored JSON as settings; unreadable JSON counts as the defaults (logged)."""
        if raw is None:
            return GuildSettings()
        try:
            stored = GuildSettings.model_validate_json(raw)
        except (ValidationError, SettingRefused) as error:
            log.warning("Ignoring the unreadable settings of server %s: %s", guild_id, error)
            return GuildSettings()
        known = {game: s for game, s in stored.turn_time.items() if game in self.games}
        return stored.model_copy(update={"turn_time": known})


def _unavailable(error: Exception) -> StoreUnavailable:
    REDIS_ERRORS.inc()
    log.warning("Redis unavailable: %s", error)
    return StoreUnavailable()
