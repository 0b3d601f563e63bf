"""Run the bot: settings -> store -> bot."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
import yarl
from discord.gateway import DiscordWebSocket
from pydantic import ValidationError

from bot.bot import TableBot
from bot.config import Settings
from bot.store import StoreUnavailable, open_store

log = logging.getLogger("bot")


def point_at_endpoints(settings: Settings) -> None:
    """Send REST (webhooks included) and the gateway where the settings say."""
    discord.http.Route.BASE = settings.discord_api_base_url.rstrip("/")
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


async def run(settings: Settings, token: str) -> None:
    async with open_store(settings.redis_url, settings.data_dir) as store:
        await store.ping()
        async with TableBot(settings, store) as bot:
            await bot.start(token)


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"Invalid settings: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level.upper()))
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        print(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
            "(see .env.example).",
            file=sys.stderr,
        )
        return 2
    point_at_endpoints(settings)
    try:
        asyncio.run(run(settings, settings.discord_token.get_secret_value()))
    except StoreUnavailable:
        print(
            "Redis can't be reached: check REDIS_URL (or unset it for the embedded one).",
            file=sys.stderr,
        )
        return 1
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
