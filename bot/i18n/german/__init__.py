"""The German catalogue: English template → German template, one module per area.

The shared texts live in `core`; each game's module is named in its registry entry
(`bot.games`), so the catalogue is put together on first use, once every game module
can be imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import ModuleType

from bot.i18n.german import core, settings


@dataclass(frozen=True)
class Catalogue:
    texts: dict[str, str]
    """English template → German template."""
    names: dict[str, str]
    """German names of slash commands, their options and choices."""


@cache
def catalogue() -> Catalogue:
    """Core texts plus every registered game's."""
    from bot.games import GAMES  # the registry imports the games, which import bot.i18n

    modules: list[ModuleType] = [core, settings, *(game.german for game in GAMES)]
    texts: dict[str, str] = {}
    names: dict[str, str] = {}
    for module in modules:
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
