"""The registry: every game the bot hosts, declared once.

Each entry names the game's rules engine, its Discord adapter (which also draws its
pictures), its computer players, its German catalogue, the commands of its own and
the player count its benches use. The bot's command groups, the German catalogue,
the benches and the test suites all iterate `GAMES`; adding a game means adding its
modules and one entry here (see docs/architecture.md, "Adding a sixth game").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from bot.ai import LEVELS, Chooser, Level
from bot.ai import draughts as draughts_ai
from bot.ai import escalation as escalation_ai
from bot.ai import geschenkt as geschenkt_ai
from bot.ai import give_and_take as give_and_take_ai
from bot.ai import take as take_ai
from bot.cogs import draughts, escalation, geschenkt, give_and_take, take
from bot.cogs.adapter import GameAdapter
from bot.engines.base import Engine
from bot.i18n.german import draughts as draughts_de
from bot.i18n.german import escalation as escalation_de
from bot.i18n.german import geschenkt as geschenkt_de
from bot.i18n.german import give_and_take as give_and_take_de
from bot.i18n.german import take as take_de

if TYPE_CHECKING:
    from bot.cogs.game_cog import GameCog

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
    """Computer players by level."""
    german: ModuleType
    """The game's German catalogue (``GERMAN`` and ``NAMES``)."""
    add_commands: Callable[[GameCog], None]
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
        for table in ("GERMAN", "NAMES"):
            if not isinstance(getattr(self.german, table, None), dict):
                raise RegistryError(f"{self.name}: {self.german.__name__} has no {table}")
        engine = self.engine
        if not engine.min_players <= self.typical_players <= engine.max_players:
            raise RegistryError(f"{self.name}: {self.typical_players} players can't play it")


GAMES: tuple[GameSpec[Any, Any, Any], ...] = (
    GameSpec(
        adapter=geschenkt.GeschenktAdapter(),
        players=geschenkt_ai.PLAYERS,
        german=geschenkt_de,
        add_commands=geschenkt.add_commands,
        typical_players=3,
    ),
    GameSpec(
        adapter=give_and_take.GiveAndTakeAdapter(),
        players=give_and_take_ai.PLAYERS,
        german=give_and_take_de,
        add_commands=give_and_take.add_commands,
        typical_players=3,
    ),
    GameSpec(
        adapter=escalation.EscalationAdapter(),
        players=escalation_ai.PLAYERS,
        german=escalation_de,
        add_commands=escalation.add_commands,
        typical_players=3,
    ),
    GameSpec(
        adapter=take.TakeAdapter(),
        players=take_ai.PLAYERS,
        german=take_de,
        add_commands=take.add_commands,
        typical_players=2,
    ),
    GameSpec(
        adapter=draughts.DraughtsAdapter(),
        players=draughts_ai.PLAYERS,
        german=draughts_de,
        add_commands=draughts.add_commands,
        typical_players=2,
    ),
)
"""In the order `/help` lists them."""


def game(name: str) -> GameSpec[Any, Any, Any]:
    """The registered game called ``name``; `KeyError` for none."""
    for spec in GAMES:
        if spec.name == name:
            return spec
    raise KeyError(name)


def check_registry() -> None:
    """Every entry complete and every name once; the bot runs this before it connects."""
    names = [spec.name for spec in GAMES]
    if len(set(names)) != len(names):
        raise RegistryError(f"a game is registered twice: {names}")
    for spec in GAMES:
        spec.check()
