"""Stored tables are read through one codec that knows every schema version."""

from __future__ import annotations

import json

import pytest

from bot.table import SCHEMA_VERSION, Seat, Table, UnreadableTable, decode_table, encode_table


def version_1_record() -> dict[str, object]:
    """A table as version 1 wrote it: computer seats named "Computer N (level)"."""
    return {
        "schema_version": 1,
        "game": "geschenkt",
        "gid": "abcd1234",
        "guild_id": 1,
        "channel_id": 2,
        "host": "10",
        "phase": "lobby",
        "seats": [
            {"id": "10", "name": "Ann"},
            {"id": "ai:1", "name": "Computer 1 (normal)", "level": "normal"},
            {"id": "ai:2", "name": "Computer 2 (normal)", "level": "normal"},
            {"id": "ai:3", "name": "Computer 3 (hard)", "level": "hard"},
        ],
    }


def test_a_version_1_table_gets_the_short_computer_names() -> None:
    table = decode_table(json.dumps(version_1_record()))
    assert [seat.name for seat in table.seats] == ["Ann", "🤖 Normal", "🤖 Normal 2", "🤖 Hard"]
    assert table.schema_version == SCHEMA_VERSION


def test_a_person_named_like_a_computer_keeps_the_name() -> None:
    record = version_1_record()
    record["seats"] = [{"id": "11", "name": "Computer 1 (normal)"}]
    assert decode_table(json.dumps(record)).seats[0].name == "Computer 1 (normal)"


def test_the_current_version_round_trips() -> None:
    table = Table(game="take", guild_id=1, channel_id=2, host="1", seats=[Seat(id="1", name="A")])
    assert decode_table(encode_table(table)) == table
    assert table.schema_version == SCHEMA_VERSION


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({**version_1_record(), "schema_version": 99}), "unknown schema version"),
        (json.dumps({**version_1_record(), "seats": "nobody"}), "invalid table"),
    ],
)
def test_an_unreadable_record_says_why(raw: str, reason: str) -> None:
    with pytest.raises(UnreadableTable, match=reason):
        decode_table(raw)
