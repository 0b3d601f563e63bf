"""The channel's messages of a game: the table message edited after each move, the
lobby refreshed, a closed table, old buttons stripped. Discord refusing an edit is
logged, never raised: the move is saved already."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from pydantic import BaseModel

from bot.engines.base import PlayerId
from bot.play.messages import Messages, TableMessage
from bot.play.table_edits import ClickToken, TableEdits
from bot.storage.tables import GameStore
from bot.table import Table

ChannelOf = Callable[[int], discord.PartialMessageable]
"""A channel by its id, to post and edit in with the bot's token."""
WebhookOf = Callable[[int, str], discord.Webhook]
"""An interaction's webhook by application id and token, to edit its messages with."""

log = logging.getLogger(__name__)


class ChannelMessages:
    """Edits of one game's messages in its channel."""

    def __init__(
        self,
        messages: Messages,
        *,
        store: GameStore,
        table_edits: TableEdits,
        channel_of: ChannelOf,
        webhook_of: WebhookOf,
    ) -> None:
        self.messages = messages
        self._store = store
        self._table_edits = table_edits
        self._channel_of = channel_of
        self._webhook_of = webhook_of

    async def delete_message(self, table: Table, message_id: int) -> None:
        partial = self._channel_of(table.channel_id)
        try:
            await partial.get_partial_message(message_id).delete()
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not delete message %s: %s", message_id, error)

    async def edit_table_message(
        self,
        table: Table,
        state: BaseModel,
        rev: int,
        *,
        by_last_click: bool = False,
        opener_of: PlayerId | None = None,
    ) -> None:
        """The table message drawn at revision ``rev``, unless a newer one is shown;
        through the token of a click on it when one is kept, which Discord's global limit
        for the bot token doesn't count, else through the channel. ``by_last_click``: the
        table's last click (`TableEdits.click_for`), for follow-ups: a computer's moves
        answer a person's move. ``opener_of``: this person's latest click on the table
        (`TableEdits.opener_for`), for a move they made on their panel or by a command."""
        if table.message_id is None:
            return
        edits, channel, gid = self._table_edits, table.channel_id, table.gid
        async with edits.turn(channel, gid, rev) as current:
            if not current:
                return
            paced = opener_of is not None or by_last_click
            if paced and (wait := edits.token_wait(channel, gid, opener_of)):
                await asyncio.sleep(wait)
                if edits.overtaken(channel, gid, rev):
                    return  # the newer edit waiting for this table shows this move too
            message = await self.messages.table(table, state, rev)
            click = self._click_to_edit(table, table.message_id, by_last_click, opener_of)
            if click is not None and await self._edit_through_click(
                table, click, message, opener_of
            ):
                return
            await self._edit(
                table,
                table.message_id,
                content=message.content,
                embed=message.embed,
                view=message.view,
                attachments=message.files(),
            )

    def _click_to_edit(
        self, table: Table, message_id: int, by_last_click: bool, opener_of: PlayerId | None
    ) -> ClickToken | None:
        edits, channel, gid = self._table_edits, table.channel_id, table.gid
        if opener_of is not None:
            return edits.opener_for(channel, gid, opener_of, message_id)
        return edits.click_for(channel, gid, message_id) if by_last_click else None

    async def _edit_through_click(
        self, table: Table, click: ClickToken, message: TableMessage, opener_of: PlayerId | None
    ) -> bool:
        """Edit the table message with the token of a click on it, which Discord's global
        limit doesn't count; False if Discord refused the token."""
        webhook = self._webhook_of(click.application_id, click.token)
        try:
            await webhook.edit_message(
                click.message_id,
                content=message.content,
                embed=message.embed,
                view=message.view,
                attachments=message.files(),
            )
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("A click's token could not edit table %s: %s", table.message_id, error)
            self._table_edits.forget_click(table.channel_id, table.gid, opener_of)
            return False
        return True

    async def refresh_lobby_message(self, table: Table, rev: int) -> None:
        """The lobby message at revision ``rev``, unless a newer one is shown."""
        if table.message_id is None:
            return
        async with self._table_edits.turn(table.channel_id, table.gid, rev) as current:
            if current:
                message = self.messages.lobby(table, rev)
                await self._edit(table, table.message_id, embed=message.embed, view=message.view)

    async def close_message(self, table: Table, reason: str) -> None:
        """Edit the table message to say the game is gone (no buttons, no image)."""
        if table.message_id is None:
            return
        embed = self.messages.closed(table, reason)
        await self._edit(
            table, table.message_id, content=None, embed=embed, view=None, attachments=[]
        )

    async def strip_buttons(self, table: Table, message_id: int) -> None:
        await self._edit(table, message_id, view=None)

    async def retire_results(self, finished: Table) -> None:
        """A finished game's results once a new game uses the channel: Replay stays,
        Rematch goes (the game has had its rematch, or another game came first)."""
        if finished.message_id is not None:
            await self._edit(
                finished, finished.message_id, view=self.messages.replay_view(finished)
            )

    async def remember_message(self, table: Table, message_id: int | None) -> None:
        if message_id is not None and message_id != table.message_id:
            await self._store.set_message(table, message_id)

    async def _edit(self, table: Table, message_id: int, **changes: Any) -> None:
        partial = self._channel_of(table.channel_id)
        try:
            await partial.get_partial_message(message_id).edit(**changes)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not edit message %s: %s", message_id, error)
