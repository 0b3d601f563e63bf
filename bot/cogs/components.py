"""Buttons whose custom_id carries the game, the game id and the revision.

Format: ``g:<game>:<gid>:<rev>:<verb>[.<arg>]``. Because everything needed is in
the id, a button keeps working after a restart, and a click drawn for an older
revision is recognised as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.bot import TableBot

CUSTOM_ID_PATTERN = (
    r"g:(?P<game>[a-z_]+):(?P<gid>[0-9a-f]{1,16}):(?P<rev>[0-9]{1,12})"
    r":(?P<verb>[a-z_]{1,16})(?:\.(?P<arg>[A-Za-z0-9_,.\-]{0,40}))?"
)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True)
class Click:
    """A parsed button click."""

    game: str
    gid: str
    rev: int
    verb: str
    arg: str = ""

    def custom_id(self) -> str:
        suffix = f".{self.arg}" if self.arg else ""
        return f"g:{self.game}:{self.gid}:{self.rev}:{self.verb}{suffix}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Click:
        return cls(
            game=match["game"],
            gid=match["gid"],
            rev=int(match["rev"]),
            verb=match["verb"],
            arg=match["arg"] or "",
        )


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_PATTERN):
    """Every game button; the bot routes its click to the game's cog."""

    def __init__(
        self,
        click: Click,
        label: str,
        style: str = "secondary",
        *,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=STYLES[style],
                custom_id=click.custom_id(),
                disabled=disabled,
                row=row,
            )
        )
        self.click = click

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(Click.from_match(match), label or "")

    async def callback(self, interaction: discord.Interaction[TableBot]) -> None:  # type: ignore[override]
        await interaction.client.route_click(interaction, self.click)


def button_view(buttons: list[GameButton]) -> discord.ui.View:
    """A view holding the given buttons, with no timeout (clicks route by custom_id)."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view
