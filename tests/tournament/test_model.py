"""The stored form: JSON round trips, versions, and refusals of what can't be read."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from bot.tournament import (
    SCHEMA_VERSION,
    Entrant,
    UnreadableTournament,
    decode_tournament,
    encode_tournament,
)
from tests.tournament.helpers import groups, play_out, swiss


@pytest.mark.parametrize("finished", [False, True])
def test_a_tournament_survives_json(finished: bool) -> None:
    for tournament in (swiss(7, fill=False), groups(9)):
        if finished:
            tournament = play_out(tournament)
        raw = encode_tournament(tournament)
        assert json.loads(raw)["schema_version"] == SCHEMA_VERSION
        assert decode_tournament(raw) == tournament
        assert decode_tournament(raw.encode()) == tournament


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("{", "not JSON"),
        ("[]", "not a JSON object"),
        ('{"schema_version": 99}', "unknown schema version"),
        ('{"schema_version": 1, "id": "t"}', "invalid"),
    ],
)
def test_unreadable_records_say_why(raw: str, reason: str) -> None:
    with pytest.raises(UnreadableTournament, match=reason):
        decode_tournament(raw)


def test_tournaments_are_frozen() -> None:
    tournament = swiss(4)
    with pytest.raises(ValidationError):
        tournament.state = "finished"  # type: ignore[misc]


def test_computer_entrants_and_only_they_have_ai_ids() -> None:
    assert Entrant(id="ai:1", name="🤖", computer=True, level="hard").computer
    with pytest.raises(ValidationError):
        Entrant(id="ai:1", name="x")
    with pytest.raises(ValidationError):
        Entrant(id="123", name="x", computer=True)
