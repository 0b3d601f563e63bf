"""A game's buttons and selects, and where their clicks enter the bot.

Every button and select a game message shows is a `ButtonRoute` or `SelectRoute`:
discord.py finds the class by the custom_id's pattern (`bot.play.components`,
registered with ``add_dynamic_items``), builds one from the clicked item and calls its
callback, which hands the click to its game's `Clicks`. Because a message's items are
all such dynamic items, discord.py keeps nothing per message sent or edited: a view of
plain buttons would be stored under its message id, and every revision's custom_ids
added to it, for as long as the process lives.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.engines.base import GameError, IllegalAction
from bot.play.components import CUSTOM_ID_PATTERN, SELECT_ID_PATTERN, Click, Pick
from bot.play.errors import answering_errors
from bot.texts import ButtonStyle

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.play.clicks import Clicks


class ButtonRoute(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_PATTERN):
    """A click on any game button, routed to the game's `Clicks`."""

    def __init__(
        self,
        click: Click,
        button: discord.ui.Button[Any],
        refusal: IllegalAction | None = None,
    ) -> None:
        super().__init__(button)
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
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button()
        try:
            return cls(Click.from_match(match), button)
        except IllegalAction as refusal:
            keyless = Click(match["game"], match["gid"], int(match["rev"]), match["verb"])
            return cls(keyless, button, refusal)

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

    def __init__(self, pick: Pick, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.pick = pick

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SelectRoute:
        select = item if isinstance(item, discord.ui.Select) else discord.ui.Select()
        return cls(Pick(match["game"], match["gid"], int(match["rev"]), match["key"]), select)

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


def game_button(
    click: Click, label: str, style: ButtonStyle = "secondary", *, disabled: bool = False
) -> ButtonRoute:
    """The button a message shows for ``click``."""
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=label,
        style=getattr(discord.ButtonStyle, style),
        custom_id=click.custom_id(),
        disabled=disabled,
    )
    return ButtonRoute(click, button)


def game_select(
    pick: Pick, placeholder: str, options: list[discord.SelectOption], *, max_values: int = 1
) -> SelectRoute:
    """The select menu a private panel shows for ``pick``."""
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=pick.custom_id(),
        placeholder=placeholder,
        options=options,
        min_values=0 if max_values > 1 else 1,
        max_values=max_values,
    )
    return SelectRoute(pick, select)


def button_view(
    buttons: list[ButtonRoute], selects: list[SelectRoute] | None = None
) -> discord.ui.View:
    """A view holding the given selects (a row each) then buttons, with no timeout
    (clicks route by custom_id)."""
    view = discord.ui.View(timeout=None)
    for select in selects or []:
        view.add_item(select)
    for button in buttons:
        view.add_item(button)
    return view
