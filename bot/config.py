"""Settings, read once at start from the environment or `.env`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.ai.budget import DEFAULT_THINK_SECONDS
from bot.storage.urls import check_redis_url

DISCORD_API_BASE_URL = "https://discord.com/api/v10"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


MAX_RENDER_PROCESSES_BY_DEFAULT = 8


def default_render_processes() -> int:
    """One render worker per CPU core this process may run on (its affinity, which a
    container's cpuset limits) but one, which the bot's own event loop needs: drawing
    on every core starved it of CPU (bench.interactions, 200 games on 2 cores: 535 of
    1,600 clicks refused as busy with 2 workers, 15 with 1). At least 1, at most
    `MAX_RENDER_PROCESSES_BY_DEFAULT`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_RENDER_PROCESSES_BY_DEFAULT, cores - 1))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    redis_url: str | None = None
    """Use this Redis (``redis://``, ``rediss://`` for TLS, ``unix://``, or
    ``redis+sentinel://host:port[,host:port]/service`` for Sentinel: see
    `bot.redis_urls`); unset: start an embedded one with data under data_dir."""
    redis_min_replicas: int = Field(default=0, ge=0, le=16)
    """Replicas that must have a move before it is acknowledged (Redis `WAIT`), so a
    failover keeps it; 0 (a single server): none. 1 for a cluster or Sentinel; a move
    that too few replicas confirm in time is answered "try again"."""
    data_dir: Path = Path("data")
    discord_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    """Sync slash commands to these guilds at start (instant); empty: globally."""
    discord_api_base_url: str = DISCORD_API_BASE_URL
    discord_gateway_url: str | None = None
    """Override the gateway URL Discord hands out (REST proxy or local test harness)."""
    log_level: str = "INFO"
    """One of `LOG_LEVELS`, in any case."""
    log_format: Literal["text", "json"] = "text"
    """json: one JSON object a line, for log shippers."""
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """Serve /healthz and /metrics (Prometheus) on this port; unset: no HTTP server."""
    metrics_host: str = "127.0.0.1"
    """The address the health and metrics server listens on (0.0.0.0 in a container)."""
    discord_connect_timeout_seconds: float = Field(default=30.0, gt=0, le=300)
    """The longest a login or a gateway connection to Discord may take before it counts
    as unreachable (aiohttp's own default is 300 s)."""
    computer_pause_seconds: float = Field(default=1.0, ge=0, le=30)
    """The pause before a computer player moves, so people can follow the table; it
    thinks meanwhile, and moves when both are over."""
    computer_think_seconds: float = Field(default=DEFAULT_THINK_SECONDS, gt=0, le=30)
    """The longest a searching (hard) computer player thinks over one decision, in its
    worker process, counted from when the bot asks (a wait for a free worker counts:
    `bot.ai.budget.seconds_left`); it usually decides well within it."""
    lobby_timeout_seconds: float = Field(default=6 * 3600, gt=0)
    """A lobby nobody starts closes (with a message) after this long."""
    render_processes: int = Field(default_factory=default_render_processes, ge=0, le=16)
    """Worker processes drawing table images, and at most as many again for computer
    players' decisions (a pool of their own, started as decisions need them); 0 draws
    and thinks in threads of the bot process. Unset: one per CPU core this process may
    use but one, at least 1 and at most 8."""
    shard_count: int | None = Field(default=None, ge=1, le=65536)
    """How many shards the whole bot runs on; unset: Discord's recommended count, all of
    them in this process."""
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    """The shards this process connects (``0,1``); unset: all of ``shard_count``. Each
    process resumes games, runs timers and records results only for its shards' guilds."""
    discord_requests_per_second: int = Field(default=45, ge=0, le=50)
    """The most bot-token requests this process sends in any second (`bot.pacing`).
    Discord allows a bot token 50 across all its processes: with N processes, give each
    about 45 / N. 0: no pacing (discord.py then meets the global limit by its 429s)."""
    ping_after_seconds: int = Field(default=20, ge=0, le=600)
    """How long the turn waits for a person before the bot pings them, unless their
    server set its own (`/settings ping_after`). People playing at a live table act
    within it and are never pinged; one who is away is pinged once (as Board Game Arena
    notifies only players who are away). 0 pings at once."""
    choice_timeout_seconds: float = Field(default=15.0, gt=0)
    """How long a player has for a choice that has a default (Give & Take's pile)
    before the default is made for them."""
    max_tables_per_server: int = Field(default=25, ge=1, le=10_000)
    """Lobbies and running games one server may have at once (one per channel)."""
    followup_sweep_seconds: float = Field(default=30.0, gt=0)
    """How often running games are checked for a lost computer move or turn clock (one
    a Redis outage or a half-failed save dropped), which is then planned again."""
    clicks_per_ten_seconds: int = Field(default=20, ge=0, le=1000)
    """Commands and clicks one user may make in 10 s before being told to slow down;
    0: no limit."""
    history_days: int = Field(default=30, ge=0, le=3650)
    """Days a finished game's record (for `/history`, `/replay` and its export) is
    kept; 0: none is kept."""
    clock_offset_key: str = ""
    """A Redis key holding seconds to add to the bot's clock (tests move time forward
    this way instead of waiting); empty: the system clock as it is."""

    @model_validator(mode="before")
    @classmethod
    def _empty_is_unset(cls, values: object) -> object:
        """An empty value (``SHARD_IDS=`` in `.env`, an empty variable) means "not set"
        for every setting, so the copied `.env.example` starts as the defaults do."""
        if isinstance(values, dict):
            return {key: value for key, value in values.items() if value != ""}
        return values

    @field_validator("redis_url")
    @classmethod
    def _usable_redis_url(cls, value: str | None) -> str | None:
        return None if value is None else check_redis_url(value)

    @field_validator("discord_guild_ids", "shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(",", " ").split()]
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
        return level

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards of the whole bot)")
        if not self.shard_ids:
            raise ValueError("SHARD_IDS is empty")
        wrong = [shard for shard in self.shard_ids if not 0 <= shard < self.shard_count]
        if wrong:
            raise ValueError(f"SHARD_IDS {wrong} are not shards of SHARD_COUNT={self.shard_count}")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS names a shard twice")
        return self

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id``: its shard, by Discord's formula, is
        one of ours (every guild when the shards aren't split between processes)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids
