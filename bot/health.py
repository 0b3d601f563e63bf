"""The optional HTTP server (METRICS_PORT): /healthz for orchestrators, /metrics for
Prometheus. It runs on the bot's event loop, so a wedged loop also fails /healthz."""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot import metrics
from bot.storage.errors import StoreError
from bot.storage.tables import GameStore

log = logging.getLogger(__name__)

REDIS_CHECK_SECONDS = 2.0


class Health:
    """Answers /healthz and /metrics from the live bot and store."""

    def __init__(
        self,
        bot: discord.Client,
        store: GameStore,
        counts_guild: Callable[[int], bool] = lambda _: True,
    ) -> None:
        self.bot = bot
        self.store = store
        self._counts_guild = counts_guild
        """Which guilds' tables this process reports (its own shards')."""

    def gateway_connected(self) -> bool:
        if not self.bot.is_ready() or self.bot.is_closed():
            return False
        shards = getattr(self.bot, "shards", {})
        return all(not shard.is_closed() for shard in shards.values())

    async def redis_answers(self) -> bool:
        try:
            await asyncio.wait_for(self.store.ping(), REDIS_CHECK_SECONDS)
        except (StoreError, TimeoutError):
            return False
        return True

    async def healthz(self, _request: web.Request) -> web.Response:
        """200 when ready (gateway connected and Redis answering), else 503."""
        checks = {"gateway": self.gateway_connected(), "redis": await self.redis_answers()}
        ready = all(checks.values())
        return web.Response(
            status=200 if ready else 503,
            text=json.dumps({"ready": ready, **checks}),
            content_type="application/json",
        )

    async def metrics(self, _request: web.Request) -> web.Response:
        """The Prometheus text format; the Redis and gateway figures are read now."""
        latency = self.bot.latency
        metrics.GATEWAY_LATENCY.set(latency if math.isfinite(latency) else math.nan)
        try:
            metrics.count_tables(await self.store.count_tables(self._counts_guild))
        except StoreError:
            log.info("Tables not counted for this scrape: Redis did not answer")
        response = web.Response(body=generate_latest())
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response


@asynccontextmanager
async def serving_health(
    bot: discord.Client,
    store: GameStore,
    host: str,
    port: int | None,
    counts_guild: Callable[[int], bool] = lambda _: True,
) -> AsyncIterator[None]:
    """Serve /healthz and /metrics on ``host:port`` while inside; nothing if no port."""
    if port is None:
        yield
        return
    health = Health(bot, store, counts_guild)
    app = web.Application()
    app.router.add_get("/healthz", health.healthz)
    app.router.add_get("/metrics", health.metrics)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("Health and metrics on http://%s:%d/healthz and /metrics", host, port)
        yield
    finally:
        await runner.cleanup()
