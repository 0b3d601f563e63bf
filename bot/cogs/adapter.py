"""What a game tells the generic cog: its engine, its buttons, its pictures and texts.

Each game module in `bot/cogs/` subclasses `GameAdapter`; the generic `GameCog`
does everything else (lobby, store, revisions, errors, computer seats).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from bot.engines.base import Engine, Outcome, PlayerId

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class ActionButton:
    """A button on the public table that sends ``key`` to `GameAdapter.parse_action`."""

    label: str
    key: str
    style: ButtonStyle = "secondary"


@dataclass(frozen=True)
class TableText:
    """The words of the public table embed; the image carries the rest."""

    description: str
    fields: list[tuple[str, str]]


class GameAdapter(ABC, Generic[S, A]):
    engine: Engine[S, A]
    colour: int = 0x5865F2
    hand_label: str = "My hand"
    rules_summary: str = ""

    @abstractmethod
    def table_buttons(self, view: Any) -> list[ActionButton]:
        """The action buttons under the public table (shown to everyone)."""

    @abstractmethod
    def parse_action(self, key: str) -> A:
        """The action for a button key; raise `IllegalAction` for a malformed one."""

    @abstractmethod
    def render_table(self, view: Any, names: Mapping[PlayerId, str]) -> bytes:
        """PNG bytes of the public table (pure; run off the event loop)."""

    @abstractmethod
    def table_text(self, view: Any, names: Mapping[PlayerId, str]) -> TableText:
        """Public embed text while the game runs (never private data)."""

    @abstractmethod
    def private_text(self, view: Any) -> str:
        """The viewer's private panel (sent only to them, ephemerally)."""

    @abstractmethod
    def results_text(self, view: Any, outcome: Outcome, names: Mapping[PlayerId, str]) -> TableText:
        """The final results embed text."""
