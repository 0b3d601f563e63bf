"""The private panels a player has open, remembered with the interaction token that can
still edit them (`bot.play.panels` keeps them current).

One record per player and table, under `panel_key`, expiring when the bot stops
editing the panel. Tokens are never logged."""

from __future__ import annotations

import redis.asyncio as aioredis
from pydantic import BaseModel, ValidationError

from bot.engines.base import PlayerId
from bot.i18n import Lang
from bot.storage.errors import guarded
from bot.storage.keys import panel_key, table_key


class OpenPanel(BaseModel):
    """A panel the bot can still edit."""

    application_id: int
    token: str
    message_id: int
    lang: Lang
    expires: float
    """Unix time when the bot stops editing it (its token dies 30 s later)."""
    view_hash: str = ""
    """The hash of the view it shows, so an unchanged one isn't redrawn."""
    shown_hash: str = ""
    """The fingerprint of what it shows (`bot.play.panels.shown_fingerprint`), so one
    that would look the same isn't edited."""
    picks: dict[str, tuple[str, ...]] = {}
    """What the player has picked in its selects, kept when it is redrawn."""


class PanelRecords:
    """Open panels by (server, channel, player)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client

    async def put(
        self, guild_id: int, channel_id: int, player: PlayerId, panel: OpenPanel, ttl_ms: int
    ) -> OpenPanel | None:
        """Remember ``panel`` for ``ttl_ms``; the panel it replaces, if one was open."""
        key = panel_key(guild_id, channel_id, player)
        old = await guarded(self._client.set(key, panel.model_dump_json(), px=ttl_ms, get=True))
        return _decode(old)

    async def get(self, guild_id: int, channel_id: int, player: PlayerId) -> OpenPanel | None:
        raw = await guarded(self._client.get(panel_key(guild_id, channel_id, player)))
        return _decode(raw)

    async def get_many_and_game(
        self, guild_id: int, channel_id: int, players: list[PlayerId]
    ) -> tuple[dict[PlayerId, OpenPanel], tuple[int, str] | None]:
        """The open panels of ``players`` at one table (players without one are left
        out), and the (revision, game id) of the channel's stored game (None: no game;
        an empty id if a save from before ids were stored made it), in one round trip
        (the keys share a slot): an edit round that already holds that revision of the
        game needn't load it (`bot.play.panels`)."""
        async with self._client.pipeline(transaction=False) as pipe:
            for player in players:  # a cluster's pipeline refuses MGET
                pipe.get(panel_key(guild_id, channel_id, player))
            pipe.hmget(table_key(guild_id, channel_id), "rev", "gid")
            *raws, (rev, gid) = await guarded(pipe.execute())
        found = {player: _decode(raw) for player, raw in zip(players, raws, strict=True)}
        panels = {player: panel for player, panel in found.items() if panel is not None}
        game = None if rev is None else (int(rev), str(gid or ""))
        return panels, game

    async def forget(self, guild_id: int, channel_id: int, player: PlayerId) -> None:
        await guarded(self._client.delete(panel_key(guild_id, channel_id, player)))


def _decode(raw: object) -> OpenPanel | None:
    """A stored panel; None for none, or for a record of an older shape (it expires
    within 15 minutes anyway)."""
    if not isinstance(raw, str | bytes):
        return None
    try:
        return OpenPanel.model_validate_json(raw)
    except ValidationError:
        return None
