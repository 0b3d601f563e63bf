"""The fixed scenes of the golden image tests: each game's table mid-game and at its
end, a German table, and a table of hard names (every script, emoji, a 32-character
name, a computer seat), each drawn by the game's own adapter.

States come from seeded random playouts (`bench.scenes.playout`), so a scene changes
only when an engine's rules or its random-action order do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bench.scenes import bot_options, player_ids, playout
from bot.cogs.adapter import GameAdapter
from bot.cogs.draughts import DraughtsAdapter
from bot.cogs.escalation import EscalationAdapter
from bot.cogs.geschenkt import GeschenktAdapter
from bot.cogs.give_and_take import GiveAndTakeAdapter
from bot.cogs.take import TakeAdapter
from bot.engines.base import Engine, PlayerId
from bot.i18n import Lang

ADAPTERS: tuple[GameAdapter[Any, Any, Any], ...] = (
    GeschenktAdapter(),
    GiveAndTakeAdapter(),
    EscalationAdapter(),
    TakeAdapter(),
    DraughtsAdapter(),
)
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
    """Mid-game and last state (English), mid-game in German, and a crowded table of
    hard names; for a game with a private image, the mid-game one too."""
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
    result = [
        GoldenScene(f"{game}-middle", engine.view(middle, None), plain, "en", adapter),
        GoldenScene(f"{game}-end", engine.view(last, None), plain, "en", adapter),
        GoldenScene(f"{game}-middle-de", engine.view(middle, None), plain, "de", adapter),
        GoldenScene(f"{game}-hard-names", engine.view(crowded, None), hard, "en", adapter),
    ]
    if type(adapter).render_private is not GameAdapter.render_private:
        viewer = (engine.to_act(middle) or players)[0]
        private = engine.view(middle, viewer)
        result.append(GoldenScene(f"{game}-private", private, plain, "de", adapter, True))
    return result


def all_scenes() -> list[GoldenScene]:
    return [scene for adapter in ADAPTERS for scene in game_scenes(adapter)]
