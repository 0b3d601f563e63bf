"""The fixed scenes of the golden image tests: each game's table mid-game and at its
end in English, German, Turkish, Spanish and a pseudo-locale (`PSEUDO`: every text
40 % longer and accented), and a table of hard names (every script, emoji, a
32-character name, a computer seat), each drawn by the game's own adapter.

Every game of `bot.games.GAMES` has its scenes in `SCENES_BY_GAME` (keyed by its name);
`test_golden` fails for a registered game without them.

States come from seeded random playouts (`bench.scenes.playout`), so a scene changes
only when an engine's rules or its random-action order do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bench.scenes import bot_options, player_ids, playout
from bot.adapters.base import GameAdapter
from bot.engines.base import Engine, PlayerId
from bot.games import GAMES, GameSpec
from bot.i18n import Lang
from bot.render.words import add_language

PSEUDO: Lang = "en_XA"
"""The pseudo-locale: English, every text 40 % longer and accented (Android's code)."""
LANGS: tuple[Lang, ...] = ("de", "tr", "es", PSEUDO)
"""The languages of the scenes besides English."""
SEED = 3
MAX_STEPS = 400
"""A playout is cut here (a random TAKE or draughts game may wander on)."""

HARD_NAMES = (
    "Zoë",
    "山田太郎",
    "محمد",
    "Дмитрий",
    "שרה",
    "Γιώργος",
    "🎲 Dice",
    "김민준",
    "Ñandú Ümlaut Straße",
    "Søren",
    "Łukasz",
    "The Grand Duchess of Luxembourg!",
    "🤖 Normal",
)
"""Names in every script the fonts cover; the long one is Discord's 32 characters."""
HARD_NAMES_BY_GAME = {
    "draughts": ("محمد", "The Grand Duchess of Luxembourg!"),
    "take": ("山田太郎", "🤖 Normal", "Дмитрий", "שרה"),
}
"""Two-seat and four-seat games get the hardest of them."""
PLAIN_NAMES = ("Alice", "Bob", "Chandra", "Dana", "Emil", "Fay", "Gus")

ACCENTED = str.maketrans(
    "AaCcDdEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz",
    "ÅåÇçĐđÉéĜĝĤĥÎîĴĵĶķĻļÑñÖöŘřŠšŢţÛûŴŵÝýŽž",
)
PADDING = "ŵéẋţŕàļöñĝ"
PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def pseudo(template: str) -> str:
    """``template`` accented and made 40 % longer, placeholders kept: "STOCK" becomes
    "[ŠŢÖÇĶ ŵé]"."""
    parts = PLACEHOLDER.split(template)
    text = "".join(part if k % 2 else part.translate(ACCENTED) for k, part in enumerate(parts))
    plain = sum(len(part) for part in parts[::2])
    extra = math.ceil(plain * 0.4)
    if extra < 3:
        return f"[{text}]" if extra == 2 else f"{text}·" * (extra > 0) or text
    pad = (PADDING * (extra // len(PADDING) + 1))[: extra - 3]
    opening = "[" if parts[0] else ""
    # A placeholder stays a word of its own: TAKE's sentences place cards by it.
    return f"{opening}{text} {pad}]" if pad else f"{opening}{text}·]"


add_language(PSEUDO, pseudo)


@dataclass(frozen=True)
class GoldenScene:
    name: str
    """The golden file's stem: ``take-middle-de``."""
    view: BaseModel
    names: Mapping[PlayerId, str]
    lang: Lang
    adapter: GameAdapter[Any, Any, Any]
    private: bool = False

    def render(self) -> bytes | None:
        if self.private:
            return self.adapter.render_private(self.view, self.names, self.lang, {})
        return self.adapter.render_table(self.view, self.names, self.lang)


def _states(engine: Engine[Any, Any, Any], count: int) -> tuple[list[PlayerId], list[BaseModel]]:
    players = player_ids(count, SEED)
    options = bot_options(engine, players, {})
    return players, playout(engine, players, SEED, options, MAX_STEPS)


def game_scenes(adapter: GameAdapter[Any, Any, Any]) -> list[GoldenScene]:
    """Mid-game and last state in English and every language of `LANGS` (for a game
    with a private image, the mid-game one too), and a crowded table of hard names."""
    engine = adapter.engine
    game = engine.name
    count = min(max(3, engine.min_players), engine.max_players)
    players, states = _states(engine, count)
    plain = {player: PLAIN_NAMES[k] for k, player in enumerate(players)}
    middle, last = states[len(states) // 2], states[-1]
    hard_names = HARD_NAMES_BY_GAME.get(game, HARD_NAMES)
    crowd, crowd_states = _states(engine, min(len(hard_names), engine.max_players))
    crowded = crowd_states[len(crowd_states) // 2]
    hard = {player: hard_names[k] for k, player in enumerate(crowd)}
    private = type(adapter).render_private is not GameAdapter.render_private
    viewer = (engine.to_act(middle) or players)[0]
    result = [GoldenScene(f"{game}-hard-names", engine.view(crowded, None), hard, "en", adapter)]
    for lang in ("en", *LANGS):
        suffix = "" if lang == "en" else f"-{'pseudo' if lang == PSEUDO else lang}"
        result += [
            GoldenScene(f"{game}-middle{suffix}", engine.view(middle, None), plain, lang, adapter),
            GoldenScene(f"{game}-end{suffix}", engine.view(last, None), plain, lang, adapter),
        ]
        if private:
            view = engine.view(middle, viewer)
            result.append(GoldenScene(f"{game}-private{suffix}", view, plain, lang, adapter, True))
    return result


def registered_scenes(spec: GameSpec[Any, Any, Any]) -> list[GoldenScene]:
    """A registered game's scenes, from its adapter."""
    return game_scenes(spec.adapter)


SCENES_BY_GAME: dict[str, Callable[[GameSpec[Any, Any, Any]], list[GoldenScene]]] = {
    "geschenkt": registered_scenes,
    "give_and_take": registered_scenes,
    "escalation": registered_scenes,
    "take": registered_scenes,
    "draughts": registered_scenes,
}
"""Each game's golden scenes by its registered name: a new game adds its entry (the
common `registered_scenes`, or scenes of its own)."""


def all_scenes() -> list[GoldenScene]:
    """The scenes of every registered game that has them (`test_golden` checks that
    every one does)."""
    return [
        scene
        for spec in GAMES
        if spec.name in SCENES_BY_GAME
        for scene in SCENES_BY_GAME[spec.name](spec)
    ]
