"""Stored tables are read through one codec that knows every schema version."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import ValidationError

from bot.table import (
    SCHEMA_VERSION,
    Event,
    Move,
    Ping,
    Seat,
    Table,
    UnreadableTable,
    decode_table,
    encode_table,
)


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


def a_running_table() -> Table:
    return Table(
        game="take",
        guild_id=1,
        channel_id=2,
        host="1",
        seats=[Seat(id="1", name="A"), Seat(id="2", name="B")],
        state={"hands": [[1, 2], [3]], "pot": {"cards": [4]}},
        options={"rounds": 3},
        events=[Event(template="{name} took it", params={"name": "A"})],
        moves=[Move(p="1", k="take", t=5)],
        ping=Ping(message_id=9, players=["2"]),
        message_id=8,
    )


def test_a_deep_copy_is_equal_and_shares_nothing_that_changes() -> None:
    table = a_running_table()
    copied = table.model_copy(deep=True)
    assert copied == table and copied.model_dump() == table.model_dump()
    assert (copied.message_id, copied.ping) == (8, table.ping)
    assert copied.__pydantic_fields_set__ == table.__pydantic_fields_set__
    assert copied.state is not None and copied.ping is not None
    copied.seats[0].missed = 2
    copied.state["hands"][0].append(7)
    copied.state["pot"]["cards"].clear()
    copied.options["rounds"] = 4
    copied.events[0].params["name"] = "Z"
    copied.moves.append(Move(p="2", k="pass"))
    copied.ping.players.append("1")
    assert table == a_running_table().model_copy(
        update={"gid": table.gid, "seed": table.seed, "opened": table.opened}
    )
    assert copy.deepcopy(table) == table


def test_a_move_made_stays_as_it_was() -> None:
    move = Move(p="1", k="take", t=5)
    with pytest.raises(ValidationError):
        move.k = "pass"  # type: ignore[misc]
    assert move.model_copy(deep=True) is move  # so copies of a table share the moves
