"""A finished draughts game as PDN (Portable Draughts Notation), and read back.

Both rulesets are played on the Turkish board with Turkish moves, so both carry the
PDN standard's ``GameType`` 30 (Turkish draughts), which standard readers (pydraughts,
tests/records/test_pdn_peer.py) load. The give-and-take rules, which have no number of
their own, add ``[Variant "Give and Take"]``; ``SetUp`` and ``FEN`` give the start.
Then the seven-tag roster, the moves in the notation the bot reads and writes
(``c3-c4``, ``c4xc6xc8``), a resignation or agreed draw as a comment, and the result
(``2-0``, ``0-2``, ``1-1``). `read_pdn` reads it back: the moves then replay through the
engine to the same final position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from bot.engines.draughts import START_FEN, DraughtsState
from bot.storage.records import GameRecord

TURKISH_GAME_TYPE = "30"
GIVE_AND_TAKE_VARIANT = "Give and Take"
"""The ``Variant`` tag of the give-and-take rules (earlier exports put it in
``GameType``, which standard readers refuse; `options_of` still reads those)."""
RESULTS = {"white": "2-0", "black": "0-2", "draw": "1-1"}


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def pdn(record: GameRecord, states: Sequence[BaseModel]) -> str:
    """The draughts game ``record`` (``states``: its replay, `bot.play.records.replay`)."""
    first = states[0]
    assert isinstance(first, DraughtsState)
    final = states[-1]
    assert isinstance(final, DraughtsState)
    names = record.names()
    date = datetime.fromtimestamp(record.ended or record.started, UTC)
    result = RESULTS.get(final.result or "", "*")
    tags = [
        _tag("Event", "Table Bot game"),
        _tag("Site", "Discord"),
        _tag("Date", date.strftime("%Y.%m.%d")),
        _tag("Round", "-"),
        _tag("White", names.get(first.players[0], first.players[0])),
        _tag("Black", names.get(first.players[1], first.players[1])),
        _tag("Result", result),
    ]
    tags.append(_tag("GameType", TURKISH_GAME_TYPE))
    if first.ruleset != "turkish":
        tags.append(_tag("Variant", GIVE_AND_TAKE_VARIANT))
    tags += [_tag("SetUp", "1"), _tag("FEN", first.position or START_FEN)]
    tags.append(_tag("GameId", record.gid))
    words: list[str] = []
    previous: DraughtsState = first
    for state in states[1:]:
        assert isinstance(state, DraughtsState)
        if state.plies > previous.plies and state.last_move:
            if previous.plies % 2 == 0:
                words.append(f"{previous.plies // 2 + 1}.")
            elif not words or words[-1].startswith("{"):
                words.append(f"{previous.plies // 2 + 1}...")
            words.append(state.last_move)
        elif state.reason and state.reason != previous.reason:
            words.append("{" + state.reason + "}")
        previous = state
    words.append(result)
    return "\n".join(tags) + "\n\n" + _wrap(words) + "\n"


def _wrap(words: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE = re.compile(r"^[a-h][1-8](?:[-x][a-h][1-8])+$")


def read_pdn(text: str) -> tuple[dict[str, str], list[str]]:
    """The tags and the moves of one PDN game (numbers, comments and the result left
    out)."""
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        found = _TAG.match(line.strip())
        if found:
            tags[found[1]] = re.sub(r"\\(.)", r"\1", found[2])
        else:
            body.append(line)
    moves_text = re.sub(r"\{[^}]*\}", " ", " ".join(body))
    moves = [word for word in moves_text.split() if _MOVE.match(word)]
    return tags, moves


def file_name(record: GameRecord) -> str:
    return f"{record.game}-{record.gid}.pdn"


def options_of(tags: dict[str, str]) -> dict[str, Any]:
    """The options of the game whose PDN has ``tags``."""
    turkish = tags.get("GameType") == TURKISH_GAME_TYPE and "Variant" not in tags
    return {"ruleset": "turkish" if turkish else "give-and-take"}
