"""Buttons whose custom_id carries the game, the game id and the revision.

Buttons: ``g:<game>:<gid>:<rev>:<verb>[.<arg>]``, where ``arg`` is an action key
written with `bot.play.action_keys`; selects on private panels:
``s:<game>:<gid>:<rev>:<key>``. Because everything needed is in
the id, a button keeps working after a restart, and a click drawn for an older
revision is recognised as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engines.base import GameError, IllegalAction
from bot.play.action_keys import ARG_ALPHABET, decode, encode
from bot.play.errors import answering_errors

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.play.clicks import Clicks

CUSTOM_ID_PATTERN = (
    r"g:(?P<game>[a-z_]+):(?P<gid>[0-9a-f]{1,16}):(?P<rev>[0-9]{1,12})"
    rf":(?P<verb>[a-z_]{{1,16}})(?:\.(?P<arg>[{ARG_ALPHABET}]{{0,60}}))?"
)
MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom_id."""
SELECT_ID_PATTERN = (
    r"s:(?P<game>[a-z_]+):(?P<gid>[0-9a-f]{1,16}):(?P<rev>[0-9]{1,12}):(?P<key>[a-z_]{1,16})"
)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True)
class Click:
    """A parsed button click; ``arg`` is the action key as the adapter wrote it."""

    game: str
    gid: str
    rev: int
    verb: str
    arg: str = ""

    def custom_id(self) -> str:
        """The id, ``arg`` encoded. Raises ValueError for one Discord or `GameButton`
        would refuse (a key too long to fit)."""
        suffix = f".{encode(self.arg)}" if self.arg else ""
        custom_id = f"g:{self.game}:{self.gid}:{self.rev}:{self.verb}{suffix}"
        if len(custom_id) > MAX_CUSTOM_ID or not re.fullmatch(CUSTOM_ID_PATTERN, custom_id):
            raise ValueError(f"{self!r} makes no valid custom_id: {custom_id!r}")
        return custom_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Click:
        """The click a `CUSTOM_ID_PATTERN` match stands for. Raises `IllegalAction` when
        its arg encodes no key."""
        return cls(
            game=match["game"],
            gid=match["gid"],
            rev=int(match["rev"]),
            verb=match["verb"],
            arg=decode(match["arg"] or ""),
        )


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_PATTERN):
    """Every game button; the bot routes its click to the game's `Clicks`."""

    def __init__(
        self,
        click: Click,
        label: str,
        style: str = "secondary",
        *,
        disabled: bool = False,
        row: int | None = None,
        refusal: IllegalAction | None = None,
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
    ) -> GameButton:
        label = (item.label if isinstance(item, discord.ui.Button) else None) or ""
        try:
            return cls(Click.from_match(match), label)
        except IllegalAction as refusal:
            keyless = Click(match["game"], match["gid"], int(match["rev"]), match["verb"])
            return cls(keyless, label, refusal=refusal)

    async def callback(self, interaction: discord.Interaction[TableBot]) -> None:  # type: ignore[override]
        if self.refusal is None:
            clicks = await clicks_of(interaction, self.click.game)
            if clicks is not None:
                await clicks.on_click(interaction, self.click)
            return
        async with answering_errors(interaction):
            raise self.refusal


@dataclass(frozen=True)
class Pick:
    """A choice made in a panel's select menu."""

    game: str
    gid: str
    rev: int
    key: str
    values: tuple[str, ...] = ()

    def custom_id(self) -> str:
        return f"s:{self.game}:{self.gid}:{self.rev}:{self.key}"


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID_PATTERN):
    """Every select menu on a private panel; the bot routes the choice to the game's `Clicks`."""

    def __init__(
        self,
        pick: Pick,
        placeholder: str,
        options: list[discord.SelectOption],
        *,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=pick.custom_id(),
                placeholder=placeholder,
                options=options,
                min_values=0 if max_values > 1 else 1,
                max_values=max_values,
            )
        )
        self.pick = pick

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        pick = Pick(match["game"], match["gid"], int(match["rev"]), match["key"])
        return cls(pick, "", [discord.SelectOption(label="?")])

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


def chosen_in_message(message: discord.Message | None) -> dict[str, tuple[str, ...]]:
    """The options marked chosen in each panel select of ``message``, by select key.

    A panel marks the player's earlier choices as the selects' defaults, so the
    message itself carries them from one pick to the next."""
    chosen: dict[str, tuple[str, ...]] = {}
    if message is None:
        return chosen
    for row in message.components:
        for component in getattr(row, "children", []):
            custom_id = getattr(component, "custom_id", None) or ""
            match = re.fullmatch(SELECT_ID_PATTERN, custom_id)
            if match and isinstance(component, discord.SelectMenu):
                chosen[match["key"]] = tuple(o.value for o in component.options if o.default)
    return chosen


def button_view(
    buttons: list[GameButton], selects: list[GameSelect] | None = None
) -> discord.ui.View:
    """A view holding the given selects (a row each) then buttons, with no timeout
    (clicks route by custom_id)."""
    view = discord.ui.View(timeout=None)
    for select in selects or []:
        view.add_item(select)
    for button in buttons:
        view.add_item(button)
    return view
