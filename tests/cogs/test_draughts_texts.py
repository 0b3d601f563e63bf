"""Draughts' table title names the rules being played."""

from __future__ import annotations

from bot.cogs.draughts import DraughtsAdapter
from bot.engines.draughts import ENGINE, DraughtsOptions

ADAPTER = DraughtsAdapter()


def test_a_turkish_game_is_titled_turkish_draughts() -> None:
    turkish = ENGINE.new_game(["1", "2"], 3, DraughtsOptions(ruleset="turkish"))
    assert ADAPTER.table_title(ENGINE.view(turkish, None), "en") == "Turkish draughts"
    assert ADAPTER.table_title(ENGINE.view(turkish, None), "de") == "Türkische Dame"
    usual = ENGINE.new_game(["1", "2"], 3)
    assert ADAPTER.table_title(ENGINE.view(usual, None), "en") == "Give and Take draughts"
