"""Superseded: the German texts now live in ``bot/i18n/locales/de/LC_MESSAGES/messages.po``,
which `bot.i18n` reads; nothing of the bot's translation reads these dicts any more.

They stay, unchanged, only until their last importers change:
`bot.games` (each registry entry's ``german`` module and its check),
`bot.cogs.messages` (German option names in the lobby, which should come from
`bot.i18n.command_name` for every language), `tests/test_registry.py` and
`tests/render/` (German letters). Then this package goes.

The merged tables are put together from the modules below, without importing `bot.games`
(which imported the games, which import `bot.i18n`: a cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import ModuleType

from bot.i18n.german import (
    core,
    draughts,
    escalation,
    geschenkt,
    give_and_take,
    settings,
    take,
)

MODULES: tuple[ModuleType, ...] = (
    core,
    settings,
    geschenkt,
    give_and_take,
    escalation,
    take,
    draughts,
)


@dataclass(frozen=True)
class Catalogue:
    texts: dict[str, str]
    """English template → German template."""
    names: dict[str, str]
    """German names of slash commands, their options and choices."""


@cache
def catalogue() -> Catalogue:
    """Every module's tables, merged."""
    texts: dict[str, str] = {}
    names: dict[str, str] = {}
    for module in MODULES:
        texts.update(module.GERMAN)
        names.update(module.NAMES)
    return Catalogue(texts, names)


def __getattr__(name: str) -> dict[str, str]:
    """``GERMAN`` and ``NAMES``, the merged catalogue's two tables, built on first use."""
    if name == "GERMAN":
        return catalogue().texts
    if name == "NAMES":
        return catalogue().names
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
