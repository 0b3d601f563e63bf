"""A game's log and replay show only what every player saw: scrambling the hidden
information (the face-down stock, the other hands, the random generator) changes no
line of the log and no public view a replay image is drawn from."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import GameSpec, game
from bot.names import shown_name
from bot.play.history import tell
from tests.engines.conformance import EngineCase
from tests.engines.registry import CASES
from tests.records.test_records import played

HIDING = [
    pytest.param(case, marks=[pytest.mark.slow] if case.name == "take" else [])
    for case in CASES
    if case.scramble_private is not None
]
"""The games with hidden information; TAKE's whole games are the long ones."""


@pytest.mark.parametrize("case", HIDING, ids=lambda case: case.name)
def test_log_and_replay_are_the_same_whatever_the_hidden_information(case: EngineCase) -> None:
    spec: GameSpec[Any, Any, Any] = game(case.name)
    adapter, engine = spec.adapter, spec.engine
    scramble = case.scramble_private
    assert scramble is not None
    rng = random.Random(7)
    for seed in range(2):
        table, _ = played(spec, seed)
        told = tell(adapter, table.seats, table.seed, table.options, table.moves, "en")
        shown = {seat.id: seat.name for seat in table.seats}
        for n, move in enumerate(table.moves):
            before, after = told.states[n], told.states[n + 1]
            other_before = scramble(before, rng, None)
            other_after = scramble(after, rng, None)
            # The image of every step is drawn from this view: the same either way.
            assert engine.view(other_after, None) == engine.view(after, None), n
            words = adapter.move_text(
                move.k,
                engine.view(other_before, None),
                engine.view(other_after, None),
                {p: shown_name(name) for p, name in shown.items()},
                "en",
            )
            assert words in told.lines[n], (n, words, told.lines[n])
