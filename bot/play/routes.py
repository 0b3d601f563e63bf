"""Where a click on a game's button or a pick in a panel's select enters the bot.

discord.py finds the item by its custom_id (`bot.play.components`' patterns, registered
with ``add_dynamic_items``), builds a `ButtonRoute` or `SelectRoute` from it and calls
its callback, which hands the click to its game's `Clicks`. The buttons and selects a
message shows are built by `bot.play.components`; the routes only route.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.engines.base import GameError, IllegalAction
from bot.play.components import CUSTOM_ID_PATTERN, SELECT_ID_PATTERN, Click, Pick
from bot.play.errors import answering_errors

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.play.clicks import Clicks


class ButtonRoute(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_PATTERN):
    """A click on any game button, routed to the game's `Clicks`."""

    def __init__(self, click: Click, label: str, refusal: IllegalAction | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=click.custom_id()))
        self.click = click
        self.refusal = refusal
        """Set for a clicked button whose arg encodes no key: the click is answered with
        it instead of routed (an exception here would leave the click unanswered)."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ButtonRoute:
        label = (item.label if isinstance(item, discord.ui.Button) else None) or ""
        try:
            return cls(Click.from_match(match), label)
        except IllegalAction as refusal:
            keyless = Click(match["game"], match["gid"], int(match["rev"]), match["verb"])
            return cls(keyless, label, refusal)

    async def callback(self, interaction: discord.Interaction[TableBot]) -> None:  # type: ignore[override]
        if self.refusal is None:
            clicks = await clicks_of(interaction, self.click.game)
            if clicks is not None:
                await clicks.on_click(interaction, self.click)
            return
        async with answering_errors(interaction):
            raise self.refusal


class SelectRoute(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID_PATTERN):
    """A choice in any private panel's select menu, routed to the game's `Clicks`."""

    def __init__(self, pick: Pick) -> None:
        super().__init__(
            discord.ui.Select(custom_id=pick.custom_id(), options=[discord.SelectOption(label="?")])
        )
        self.pick = pick

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SelectRoute:
        return cls(Pick(match["game"], match["gid"], int(match["rev"]), match["key"]))

    async def callback(self, interaction: discord.Interaction[TableBot]) -> None:  # type: ignore[override]
        chosen = tuple(self.item.values)
        pick = Pick(self.pick.game, self.pick.gid, self.pick.rev, self.pick.key, chosen)
        clicks = await clicks_of(interaction, pick.game)
        if clicks is not None:
            await clicks.on_pick(interaction, pick)


async def clicks_of(interaction: discord.Interaction[TableBot], game: str) -> Clicks | None:
    """The click handling of ``game``; None (answered) when this bot no longer hosts it."""
    game_commands = interaction.client.games.get(game)
    if game_commands is None:
        async with answering_errors(interaction):
            raise GameError("That game is no longer available on this bot.")
    return None if game_commands is None else game_commands.clicks
