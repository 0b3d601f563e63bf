"""The smallest useful discord.py bot: harness self-test today, performance floor for benchmarks.

Run with ``python -m tests.harness.null_bot`` and the same env vars as the real bot
(DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL, DISCORD_TOKEN, DISCORD_GUILD_IDS).

``/null post [text] [defer]`` posts a message with a "Take" button (ephemeral "Got it!"),
an "Edit" button (edits the message with a file via the interaction response, then sends an
ephemeral follow-up), an "Again" button (a follow-up through the *slash command's* token, which
Discord refuses after 15 minutes) and a disabled "Nope" button.

``/null ping who how`` mentions ``who`` in one of several ways (see ``PING_WAYS``); a channel
ping first deletes the previous channel ping, so each channel has at most one live ping.
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
PING_WAYS = ("channel", "followup", "ephemeral", "edit", "muted")

# The slash command interaction behind each posted table, so "Again" can reuse its token.
posted_by: dict[int, discord.Interaction] = {}
# The live channel ping per channel id.
live_pings: dict[int, discord.Message] = {}


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


class AgainButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"null:again:(?P<n>\d+)"
):
    def __init__(self, nonce: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Again", custom_id=f"null:again:{nonce}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Follow up through the old slash command token; report Discord's refusal if any."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        original = posted_by[interaction.message.id if interaction.message else 0]
        try:
            await original.followup.send("Again!")
        except discord.HTTPException as refused:
            await interaction.followup.send(
                f"refused: {refused.status} {refused.code}", ephemeral=True
            )
            return
        await interaction.followup.send("sent", ephemeral=True)


def table_view(nonce: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakeButton(nonce))
    view.add_item(EditButton(nonce))
    view.add_item(AgainButton(nonce))
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
    posted_by[(await interaction.original_response()).id] = interaction


@null_group.command(name="ping", description="Mention a member")
@app_commands.describe(who="Member to mention", how="Where the mention goes")
@app_commands.choices(how=[app_commands.Choice(name=way, value=way) for way in PING_WAYS])
async def ping(interaction: discord.Interaction, who: discord.Member, how: str) -> None:
    text = f"{who.mention}, your turn"
    if how == "channel":
        await interaction.response.send_message("Pinging", ephemeral=True)
        await replace_channel_ping(interaction, text)
    elif how == "followup":
        await interaction.response.send_message("Table")
        await interaction.followup.send(text)
    elif how == "ephemeral":
        await interaction.response.send_message(text, ephemeral=True)
    elif how == "edit":
        await interaction.response.send_message("Soon your turn")
        await interaction.edit_original_response(content=text)
    else:
        muted = discord.AllowedMentions.none()
        await interaction.response.send_message(text, allowed_mentions=muted)


async def replace_channel_ping(interaction: discord.Interaction, text: str) -> None:
    """Delete the channel's previous ping, then post the new one (one live ping per channel)."""
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    previous = live_pings.pop(channel.id, None)
    if previous is not None:
        await previous.delete()
    live_pings[channel.id] = await channel.send(text)


class NullBot(commands.AutoShardedBot):
    def __init__(self, guild_ids: list[int]) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # As bot/bot.py: discord.py merges this into every message payload it sends.
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.guild_ids = guild_ids

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TakeButton, EditButton, AgainButton)
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
