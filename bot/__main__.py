"""Run the bot: settings -> logging -> store -> bot, until SIGTERM or SIGINT.

Exit codes: 0 stopped cleanly (a signal included), 1 Redis unreachable or Discord
refused the start (the token, an API error), 2 invalid settings, 3 Discord unreachable.
Expected failures are one line on stderr, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from pydantic import ValidationError

from bot import metrics
from bot.bot import TableBot
from bot.config import Settings
from bot.health import serving_health
from bot.logs import describe_error, setup_logging
from bot.play.errors import answer_unexpected_error, finish_interactions
from bot.storage.clients import open_store
from bot.storage.errors import StoreUnavailable
from bot.storage.layout import migrate_keys

log = logging.getLogger("bot")

EXIT_FAILED = 1
EXIT_SETTINGS = 2
EXIT_UNREACHABLE = 3
FINISH_SECONDS = 5.0
"""How long a shutdown waits for interactions in progress (the whole stop takes < 10 s)."""


class DiscordUnreachable(Exception):
    """No answer from Discord's API in time: network, DNS, or Discord down."""


def run_on_fastest_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on uvloop's event loop, whose sockets and callbacks cost less CPU
    than asyncio's own (a click's share: "CPU per click" in `docs/performance.md`); on
    asyncio's where uvloop isn't installed (it has no Windows build)."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    uvloop.run(main)


def point_at_endpoints(settings: Settings) -> None:
    """Send REST (webhooks included) and the gateway where the settings say."""
    discord.http.Route.BASE = settings.discord_api_base_url.rstrip("/")
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


async def run(settings: Settings, token: str) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with open_store(
        settings.redis_url, settings.data_dir, min_replicas=settings.redis_min_replicas
    ) as store:
        await store.ping()
        await migrate_keys(store.client)
        async with (
            TableBot(settings, store) as bot,
            serving_health(
                bot, store, settings.metrics_host, settings.metrics_port, settings.owns_guild
            ),
        ):
            prepare(bot, settings)
            await serve_until_stopped(bot, token, settings.discord_connect_timeout_seconds, stop)
    log.info("Stopped")


def prepare(bot: TableBot, settings: Settings) -> None:
    """Hooks of ours in discord.py: the error fallback, click timing, connect timeout."""
    bot.tree.error(answer_unexpected_error)
    bot.http.http_trace = callback_tracer()
    bot.shard_connect_timeout = settings.discord_connect_timeout_seconds


def callback_tracer() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session that times each click's callback
    request from the click's arrival to Discord's answer (`metrics.callback_answered`)."""
    tracer = aiohttp.TraceConfig()
    tracer.on_request_end.append(_on_request_end)
    return tracer


async def _on_request_end(
    _session: aiohttp.ClientSession,
    _context: SimpleNamespace,
    params: aiohttp.TraceRequestEndParams,
) -> None:
    metrics.callback_answered(params.url.path)


async def serve_until_stopped(
    bot: TableBot, token: str, timeout: float, stop: asyncio.Event
) -> None:
    """Log in and stay connected until a signal sets ``stop``; then wind down."""
    serving = asyncio.create_task(log_in_and_connect(bot, token, timeout))
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if serving.done():
        serving.result()
        return
    log.info("Stopping: no new interactions; finishing the ones in progress")
    if not bot.is_ready():
        serving.cancel()
    await wind_down(bot)
    with contextlib.suppress(asyncio.CancelledError):
        await serving


async def log_in_and_connect(bot: TableBot, token: str, timeout: float) -> None:
    try:
        await asyncio.wait_for(bot.login(token), timeout)
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        raise DiscordUnreachable(describe_error(error)) from error
    await bot.connect(reconnect=True)


async def wind_down(bot: TableBot) -> None:
    """Leave the gateway (no new interactions), let the interactions in progress finish
    (their moves are saved and shown), cancel the timers (their deadlines are in Redis
    and resume at the next start), then close the bot and its render workers."""
    for shard in bot.shards.values():
        await shard.disconnect()
    unfinished = await finish_interactions(FINISH_SECONDS)
    if unfinished:
        log.warning("%d interactions were still running at shutdown", unfinished)
    await bot.close()  # cancels the follow-ups (their deadlines stay in Redis)


def settings_problems(error: ValidationError) -> list[str]:
    """One line per invalid setting, named as in the environment."""
    lines = []
    for problem in error.errors():
        name = "_".join(str(part) for part in problem["loc"]).upper()
        message = str(problem["msg"]).removeprefix("Value error, ")
        lines.append(
            f"Invalid setting {name}: {message}" if name else f"Invalid settings: {message}"
        )
    return lines


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print("\n".join(settings_problems(error)), file=sys.stderr)
        return EXIT_SETTINGS
    setup_logging(settings.log_level, settings.log_format)
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        print(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
            "(see .env.example).",
            file=sys.stderr,
        )
        return EXIT_SETTINGS
    point_at_endpoints(settings)
    try:
        run_on_fastest_loop(run(settings, settings.discord_token.get_secret_value()))
    except StoreUnavailable:
        print(
            "Redis can't be reached: check REDIS_URL (or unset it for the embedded one).",
            file=sys.stderr,
        )
        return EXIT_FAILED
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN.", file=sys.stderr)
        return EXIT_FAILED
    except discord.HTTPException as error:
        print(f"Discord refused the start: {error}", file=sys.stderr)
        return EXIT_FAILED
    except DiscordUnreachable as error:
        print(
            f"Discord can't be reached at {settings.discord_api_base_url} ({error}): "
            "check the network and DNS, or DISCORD_API_BASE_URL.",
            file=sys.stderr,
        )
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
