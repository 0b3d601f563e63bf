"""The registry (`bot.games`) is the one list of games: everything iterates it."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bot.ai import LEVELS
from bot.games import GAMES, GameSpec, RegistryError, check_registry, game
from tests.engines.test_conformance import engine_modules


def test_every_engine_module_is_registered() -> None:
    """An ``ENGINE`` in `bot.engines` that no registry entry names fails here."""
    registered = [spec.engine for spec in GAMES]
    modules = engine_modules()
    assert modules
    unregistered = [name for name, engine in modules.items() if engine not in registered]
    assert unregistered == [], f"not in bot/games.py: {unregistered}"
    assert len(registered) == len(modules), "a registered engine no module exposes"


def test_the_registry_is_complete() -> None:
    check_registry()
    for spec in GAMES:
        assert set(spec.players) == set(LEVELS), spec.name
        assert spec.engine.min_players <= spec.typical_players <= spec.engine.max_players


def test_a_game_without_a_computer_level_is_refused() -> None:
    spec = game("geschenkt")
    players: Mapping[str, object] = {k: v for k, v in spec.players.items() if k != "hard"}
    broken = GameSpec(
        adapter=spec.adapter,
        players=players,  # type: ignore[arg-type]
        add_commands=spec.add_commands,
        typical_players=spec.typical_players,
    )
    with pytest.raises(RegistryError, match="hard"):
        broken.check()


def test_an_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        game("chess")


def test_computer_players_from_elsewhere_are_refused() -> None:
    """Worker processes look a game's players up in ``bot.ai.<name>.PLAYERS``; a
    registry entry naming another mapping would think differently there."""
    spec = game("geschenkt")
    broken = GameSpec(
        adapter=spec.adapter,
        players=dict(spec.players),
        add_commands=spec.add_commands,
        typical_players=spec.typical_players,
    )
    with pytest.raises(RegistryError, match=r"bot\.ai\.geschenkt\.PLAYERS"):
        broken.check()
