"""The registry: every game the bot hosts, declared once.

Each entry names the game's Discord adapter (which carries its rules engine and draws
its pictures), its computer players, the commands of its own and the player count
its benches use. The bot's command groups, the benches and the test suites all
iterate `GAMES`; the texts are in the gettext catalogues of `bot.i18n`. Adding a game
means adding its modules and one entry here (see docs/architecture.md, "Adding a
sixth game").
"""

from __future__ import annotations

from typing import Any

from bot.adapters import draughts, escalation, geschenkt, give_and_take, take
from bot.adapters.spec import GameSpec, RegistryError
from bot.ai import draughts as draughts_ai
from bot.ai import escalation as escalation_ai
from bot.ai import geschenkt as geschenkt_ai
from bot.ai import give_and_take as give_and_take_ai
from bot.ai import take as take_ai

__all__ = ["GAMES", "GameSpec", "RegistryError", "check_registry", "game"]

GAMES: tuple[GameSpec[Any, Any, Any], ...] = (
    GameSpec(
        adapter=geschenkt.GeschenktAdapter(),
        players=geschenkt_ai.PLAYERS,
        add_commands=geschenkt.add_commands,
        typical_players=3,
    ),
    GameSpec(
        adapter=give_and_take.GiveAndTakeAdapter(),
        players=give_and_take_ai.PLAYERS,
        add_commands=give_and_take.add_commands,
        typical_players=3,
    ),
    GameSpec(
        adapter=escalation.EscalationAdapter(),
        players=escalation_ai.PLAYERS,
        add_commands=escalation.add_commands,
        typical_players=3,
    ),
    GameSpec(
        adapter=take.TakeAdapter(),
        players=take_ai.PLAYERS,
        add_commands=take.add_commands,
        typical_players=2,
    ),
    GameSpec(
        adapter=draughts.DraughtsAdapter(),
        players=draughts_ai.PLAYERS,
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
