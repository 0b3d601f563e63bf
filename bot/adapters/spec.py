"""What the registry (`bot.games`) holds of each game: its `GameSpec`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from pydantic import BaseModel

from bot.adapters.base import GameAdapter
from bot.ai import LEVELS, Chooser, Level
from bot.engines.base import Engine
from bot.thinking import players_of

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
V = TypeVar("V", bound=BaseModel)


class RegistryError(RuntimeError):
    """A game is registered incompletely; the bot refuses to start."""


@dataclass(frozen=True)
class GameSpec(Generic[S, A, V]):
    """One game, with everything the bot, the benches and the tests need of it."""

    adapter: GameAdapter[S, A, V]
    """The Discord side: buttons, panels, texts, and the table and panel images."""
    players: Mapping[Level, Chooser]
    """Computer players by level: ``bot.ai.<name>.PLAYERS``, where the worker processes
    they think in look them up (`bot.thinking`)."""
    add_commands: Callable[[GameCommands], None]
    """Adds the game's own slash commands (``start`` with its options, …)."""
    typical_players: int
    """The player count of a typical game, for benches and sample scenes."""

    @property
    def engine(self) -> Engine[S, A, V]:
        return self.adapter.engine

    @property
    def name(self) -> str:
        """The engine's name, which is also the slash command group's."""
        return self.engine.name

    def check(self) -> None:
        """Raise `RegistryError` if anything the bot needs is missing."""
        missing = [level for level in LEVELS if level not in self.players]
        if missing:
            raise RegistryError(f"{self.name}: no computer player for {', '.join(missing)}")
        try:
            where = players_of(self.name)
        except ImportError:
            where = None
        if where is not self.players:
            raise RegistryError(
                f"{self.name}: its computer players must be bot.ai.{self.name}.PLAYERS "
                "(worker processes look them up there)"
            )
        engine = self.engine
        if not engine.min_players <= self.typical_players <= engine.max_players:
            raise RegistryError(f"{self.name}: {self.typical_players} players can't play it")
