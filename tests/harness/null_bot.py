"""The smallest useful discord.py bot: harness self-test today, performance floor for benchmarks.

Run with ``python -m tests.harness.null_bot`` and the same env vars as the real bot
(DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL, DISCORD_TOKEN, DISCORD_GUILD_IDS).

``/null post [text] [defer]`` posts a message with a "Take" button (ephemeral "Got it!"),
an "Edit" button (edits the message with a file via the interaction response, then sends an
ephemeral follow-up) and a disabled "Nope" button.
"""

from __future__ import annotations

import io
import logging
import os
import re
from typing import Any, Self

import discord
import yarl
from discord import app_commands
from discord.ext import commands

PNG = b"\x89PNG\r\n\x1a\nnull-bot"


def configure_endpoints() -> None:
    """Point discord.py at DISCORD_API_BASE_URL / DISCORD_GATEWAY_URL when they are set.

    ``DEFAULT_GATEWAY`` matters even though ``/gateway/bot`` returns a URL: discord.py falls
    back to it when it has to IDENTIFY again after a failed RESUME.
    """
    api = os.environ.get("DISCORD_API_BASE_URL")
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    gateway = os.environ.get("DISCORD_GATEWAY_URL")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class TakeButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"null:take:(?P<n>\d+)"
):
    def __init__(self, nonce: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Take", style=discord.ButtonStyle.primary, custom_id=f"null:take:{nonce}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Got it!", ephemeral=True)


class EditButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"null:edit:(?P<n>\d+)"
):
    def __init__(self, nonce: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Edit", custom_id=f"null:edit:{nonce}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        picture = discord.File(io.BytesIO(PNG), filename="table.png")
        await interaction.response.edit_message(
            content=f"Edited by {interaction.user.display_name}", attachments=[picture]
        )
        await interaction.followup.send("Edited!", ephemeral=True)


def table_view(nonce: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakeButton(nonce))
    view.add_item(EditButton(nonce))
    view.add_item(discord.ui.Button(label="Nope", custom_id=f"null:nope:{nonce}", disabled=True))
    return view


null_group = app_commands.Group(name="null", description="Harness self-test commands")


@null_group.command(name="post", description="Post a message with buttons")
@app_commands.describe(text="Message text", defer="Think first, then edit the original response")
async def post(interaction: discord.Interaction, text: str = "Table", defer: bool = False) -> None:
    view = table_view(interaction.id)
    if defer:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content=text, view=view)
    else:
        await interaction.response.send_message(text, view=view)


class NullBot(commands.AutoShardedBot):
    def __init__(self, guild_ids: list[int]) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_ids = guild_ids

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TakeButton, EditButton)
        self.tree.add_command(null_group)
        for guild_id in self.guild_ids:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        if not self.guild_ids:
            await self.tree.sync()


def main() -> None:
    configure_endpoints()
    guild_ids = [int(g) for g in os.environ.get("DISCORD_GUILD_IDS", "").split(",") if g.strip()]
    NullBot(guild_ids).run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO)


if __name__ == "__main__":
    main()
