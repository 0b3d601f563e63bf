"""Discord adapters: the generic game cog and one thin module per game."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.cogs.game_cog import GameCog


def all_games() -> list[Callable[[TableBot], GameCog]]:
    """A builder per playable game, in the order `/help` lists them."""
    from bot.cogs import draughts, escalation, geschenkt, give_and_take, take

    return [geschenkt.build, give_and_take.build, escalation.build, take.build, draughts.build]
