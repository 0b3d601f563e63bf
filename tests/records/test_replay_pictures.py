"""Every game's replay can be told and drawn at any step: the first, a middle and the
last (with the results), from the public views only."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import GAMES, GameSpec
from bot.play.history import export_text, tell
from bot.storage.records import GameRecord
from tests.records.test_records import played


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_every_game_replays_in_words_and_pictures(spec: GameSpec[Any, Any, Any]) -> None:
    adapter, engine = spec.adapter, spec.engine
    table, final = played(spec, 2)
    told = tell(adapter, table.seats, table.seed, table.options, table.moves, "de")
    assert told.broken_at is None and len(told.states) == len(table.moves) + 1
    assert all(line.startswith("**") for line in told.lines)
    names = table.names()
    for n in (0, len(told.states) // 2, len(told.states) - 1):
        png = adapter.render_table(engine.view(told.states[n], None), names, "de")
        assert png.startswith(b"\x89PNG")
    last = engine.view(told.states[-1], None)
    assert last == engine.view(final, None)
    results = adapter.results_text(last, engine.outcome(final), names, "de")
    assert results.description
    record = GameRecord.of(table, engine.outcome(final), 1_764_000_000)
    text = export_text(
        record, adapter, tell(adapter, table.seats, table.seed, table.options, table.moves, "en")
    )
    assert text.count("\n") >= len(table.moves) + 5 and "**" not in text


def test_a_card_games_download_is_in_the_language_it_was_played_in_with_options_as_words() -> None:
    spec = next(spec for spec in GAMES if spec.name == "geschenkt")
    table, final = played(spec, 2)
    table.lang = "de"
    table.options = {"tactical": False, "deck": None}
    record = GameRecord.of(table, spec.engine.outcome(final), 1_764_000_000)
    told = tell(spec.adapter, table.seats, table.seed, table.options, table.moves, "de")
    text = export_text(record, spec.adapter, told)
    assert text.startswith("Geschenkt, Partie ")
    assert "Optionen:\n  Taktische Variante: nein\n" in text
    assert "{" not in text and "tactical" not in text and "None" not in text
    assert "Sitzordnung: 🤖 ai:0, 🤖 ai:1, 🤖 ai:2" in text
