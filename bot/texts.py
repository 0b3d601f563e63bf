"""What an adapter hands the Discord side to show: the public table's words and buttons, a
player's private panel, and a move the bot makes when time runs out.

Plain data shared by the Discord side and the renderers, so that `bot.render` never
imports `bot.play` or `bot.adapters`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from bot.engines.base import PlayerId

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class ActionButton:
    """A button on the public table that sends ``key`` to `GameAdapter.parse_action`."""

    label: str
    key: str
    style: ButtonStyle = "secondary"
    disabled: bool = False


@dataclass(frozen=True)
class TableText:
    """The words of the public table embed; the image carries the rest."""

    description: str
    fields: list[tuple[str, str]]


@dataclass(frozen=True)
class PanelSelect:
    """A select menu on a private panel; its choices come back to `private_panel`."""

    key: str
    placeholder: str
    options: list[tuple[str, str]]
    """(value, label) pairs, at most 25."""
    chosen: tuple[str, ...] = ()
    max_values: int = 1


@dataclass(frozen=True)
class PrivatePanel:
    """A player's ephemeral panel: text, optional selects, and action buttons."""

    text: str
    selects: list[PanelSelect] = field(default_factory=list)
    buttons: list[ActionButton] = field(default_factory=list)


@dataclass(frozen=True)
class TimedDefault:
    """A move the bot makes for ``player`` if they haven't acted in time."""

    player: PlayerId
    key: str
    """An action key, as for `GameAdapter.parse_action`."""


@dataclass(frozen=True)
class ExportFile:
    """A finished game in its game's own file format (draughts: PDN)."""

    name: str
    text: str
    words: str
    """English template (`N_`) of the private answer that carries the file; ``{gid}``
    is the game id."""


Picks = Mapping[str, tuple[str, ...]]
"""What the player has chosen so far in each select of their panel, by select key."""
