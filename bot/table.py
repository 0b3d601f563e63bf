"""What the bot keeps about one channel's game: its seats, options and engine state.

Pure data (pydantic, no discord and no redis), so the table's life can be written and
tested as plain functions (`bot.table_life`); `bot.store` saves these to Redis.
"""

from __future__ import annotations

import base64
import copy
import json
import re
import secrets
import time
import zlib
from collections.abc import Callable
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_serializer,
    model_validator,
)

from bot.engines.base import PlayerId
from bot.i18n import Lang
from bot.names import shown_name

_ATOMS = frozenset({str, int, float, bool, type(None)})


def deep_copied(value: Any) -> Any:
    """A deep copy of a table's data: JSON values (the engine state, the options) and
    this module's models. Much faster than `copy.deepcopy`, which a click pays for the
    table it changes (``model_copy(deep=True)``); a frozen model is shared, as a string
    is."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [deep_copied(item) for item in value]
    if kind is dict:
        return {key: deep_copied(item) for key, item in value.items()}
    if isinstance(value, _Data):
        return value.__deepcopy__()
    if isinstance(value, BaseModel) and value.model_config.get("frozen"):
        return value
    return copy.deepcopy(value)


_set = object.__setattr__


class _Data(BaseModel):
    """This module's models: copied deep by `deep_copied`, field by field (as pydantic's
    own ``__deepcopy__`` does, without `copy.deepcopy`'s bookkeeping); a frozen one is
    its own copy."""

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        if self.model_config.get("frozen"):
            return self
        copied = type(self).__new__(type(self))
        _set(copied, "__dict__", {name: deep_copied(v) for name, v in self.__dict__.items()})
        _set(copied, "__pydantic_extra__", deep_copied(self.__pydantic_extra__))
        _set(copied, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        _set(copied, "__pydantic_private__", deep_copied(self.__pydantic_private__))
        return copied


class Seat(_Data):
    id: PlayerId
    name: str
    level: Literal["easy", "normal", "hard"] | None = None
    """A computer seat's playing strength (None for people)."""
    left: bool = False
    """A person who left the running game; a computer plays their seat."""
    missed: int = 0
    """Turns in a row this person let the turn clock run out."""

    @property
    def is_ai(self) -> bool:
        return self.id.startswith("ai:")

    @property
    def is_computer(self) -> bool:
        """Played by the bot: a computer seat, or the seat of someone who left."""
        return self.is_ai or self.left


Phase = Literal["lobby", "playing", "over"]


class Event(_Data):
    """Something that happened, as an English template (`N_`) and its parameters, so
    it is shown in the table's language."""

    template: str
    params: dict[str, str | int] = Field(default_factory=dict)
    warning_for: PlayerId | None = None
    """A warning to this player (a missed turn, a seat taken over): kept on the table
    past ordinary moves until they act (or more recent warnings push it out)."""


MoveKind = Literal["click", "default", "computer", "clock", "takeover", "resign"]
"""How a recorded move was made: a person's click (or typed move), a timeout's default,
a computer seat, the computer for a person whose clock ran out, a computer taking a
seat over (no action), a resignation."""


class Move(_Data):
    """One entry of a game's record: who (``p``), what (``k``, the action as text, empty
    for a takeover), how (``by``) and when (``t``, Unix seconds). Short names: a game
    keeps every move it made. Frozen: a move made stays as it was, so copies of a
    table share them (a long match keeps thousands)."""

    model_config = ConfigDict(frozen=True)

    p: PlayerId
    k: str = ""
    by: MoveKind = "click"
    t: int = 0


_KIND_LETTERS: dict[str, str] = {
    "click": "c",
    "default": "d",
    "computer": "a",
    "clock": "k",
    "takeover": "t",
    "resign": "r",
}
_LETTER_KINDS = {letter: kind for kind, letter in _KIND_LETTERS.items()}


def encode_moves(moves: list[Move], seats: list[Seat]) -> list[str]:
    """The stored form of a record's moves, one short text each:
    ``who,how,seconds,key``: the seat's index (or ``@`` and the player id for one
    without a seat), the letter of `MoveKind`, seconds since the move before (the first:
    Unix time) and the action as text (which may hold commas). A whole game stays small
    (`bench.storage`)."""
    index = {seat.id: n for n, seat in enumerate(seats)}
    encoded, last = [], 0
    for move in moves:
        who = str(index[move.p]) if move.p in index else f"@{move.p}"
        encoded.append(f"{who},{_KIND_LETTERS[move.by]},{move.t - last},{move.k}")
        last = move.t
    return encoded


PACK_AFTER_MOVES = 100
"""A running game's moves are kept compressed once there are more than this many: a
long TAKE match's 2,400 moves take 8 KB instead of 48 KB in every save."""
PACKED = "z:"


def pack_moves(encoded: list[str]) -> list[str] | str:
    """`encode_moves`'s texts as they go into a saved `Table`: as they are for a short
    game, else their JSON compressed with zlib, in base64, after `PACKED`."""
    if len(encoded) <= PACK_AFTER_MOVES:
        return encoded
    packed = zlib.compress(json.dumps(encoded, separators=(",", ":")).encode(), 9)
    return PACKED + base64.b64encode(packed).decode("ascii")


def decode_moves(raw: list[Any] | str, seats: list[Any]) -> list[Any]:
    """`encode_moves` read back (as data for `Move`), packed or not (`pack_moves`);
    entries already data pass as they are."""
    if isinstance(raw, str):
        if not raw.startswith(PACKED):
            raise ValueError("moves are a list or packed")
        try:
            raw = json.loads(zlib.decompress(base64.b64decode(raw[len(PACKED) :])))
        except zlib.error as error:
            raise ValueError(f"packed moves don't unpack: {error}") from error
        if not isinstance(raw, list):
            raise ValueError("packed moves are not a list")
    ids = [seat["id"] if isinstance(seat, dict) else seat.id for seat in seats]
    moves: list[Any] = []
    last = 0
    for entry in raw:
        if not isinstance(entry, str):
            moves.append(entry)
            continue
        who, how, seconds, key = entry.split(",", 3)
        last += int(seconds)
        player = who[1:] if who.startswith("@") else ids[int(who)]
        moves.append({"p": player, "k": key, "by": _LETTER_KINDS[how], "t": last})
    return moves


class Ping(_Data):
    """The message that notified ``players`` that it is their turn."""

    message_id: int
    players: list[PlayerId]


class Table(_Data):
    """Everything the bot keeps about one channel's game."""

    schema_version: int = Field(default_factory=lambda: SCHEMA_VERSION)
    game: str
    gid: str = Field(default_factory=lambda: secrets.token_hex(4))
    """Tells this game's buttons apart from earlier games in the same channel."""
    opened: float = Field(default_factory=time.time)
    """When the lobby opened (Unix time): unstarted lobbies close after a while."""
    guild_id: int
    channel_id: int
    lang: Lang = "en"
    """The language of the public messages: the server's, taken when the table opened."""
    host: PlayerId
    phase: Phase = "lobby"
    seats: list[Seat]
    options: dict[str, Any] = Field(default_factory=dict)
    host_seat: int | None = None
    """The seat the host asked for (draughts: 0 plays White); None: seats are shuffled."""
    turn_seconds: int | None = None
    """The turn clock: seconds a person has to move before the computer moves for
    them; None: no clock."""
    turn_deadline: float | None = None
    """When the running turn clock runs out (the bot's clock, Unix time); kept with the
    game so that a restart resumes the clock instead of restarting it."""
    seed: int = Field(default_factory=lambda: secrets.randbits(63))
    state: dict[str, Any] | None = None
    """The engine state as JSON data, once the game has started."""
    pings: bool = True
    """Post a new message that notifies the next person when the turn passes to them."""
    ping_after: int | None = None
    """Seconds the turn waits for a person before they are pinged (the server's
    setting when the table opened); None: the bot's ``PING_AFTER_SECONDS``."""
    waiting_for: list[PlayerId] = Field(default_factory=list)
    """The people (not computers) the running game waits for, as of the last save."""
    ping_at: float | None = None
    """When to ping ``waiting_for`` if they still haven't acted (the bot's clock, Unix
    time); None: no ping due (nobody waited for, or they acted in this turn)."""
    events: list[Event] = Field(default_factory=list)
    """The last few things that happened (moves, timeouts, seats taken over), newest
    last, shown on the table message."""
    moves: list[Move] = Field(default_factory=list)
    """Every move of the game so far, oldest first: with the options, seed and seats,
    the game's record (`bot.storage.records`), from which any point of it replays."""
    invited: list[PlayerId] = Field(default_factory=list)
    """A rematch lobby's invitation: the people who played the finished game to its end
    (the one who asked for the rematch among them). None is seated until they join; the
    game begins by itself when the last of them does (`bot.table_life`)."""
    rematch_of: str | None = None
    """The game id of the finished game this rematch lobby follows, so that a click on
    that game's Rematch joins this lobby."""
    held_until: float | None = None
    """Until when a rematch lobby holds the seats of the invited people not seated yet
    (Unix time): nobody else may take them before, unless the host opens them (None)."""
    message_id: int | None = Field(default=None, exclude=True)
    """The public table message; stored beside the data so moving it bumps no revision."""
    ping: Ping | None = Field(default=None, exclude=True)
    """The live turn ping, stored beside the data like ``message_id``."""

    @model_validator(mode="before")
    @classmethod
    def _read_moves(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("moves"):
            return {**data, "moves": decode_moves(data["moves"], data.get("seats", []))}
        return data

    @field_serializer("moves")
    def _write_moves(self, moves: list[Move]) -> list[str] | str:
        return pack_moves(encode_moves(moves, self.seats))

    def seat_of(self, player: PlayerId) -> Seat | None:
        return next((seat for seat in self.seats if seat.id == player), None)

    def computers(self, players: list[PlayerId]) -> list[PlayerId]:
        """Those of ``players`` whose seats the bot plays."""
        return [p for p in players if (seat := self.seat_of(p)) is not None and seat.is_computer]

    def names(self) -> dict[PlayerId, str]:
        """Each seat's name as text (for images and labels)."""
        return {seat.id: seat.name for seat in self.seats}

    def shown_names(self) -> dict[PlayerId, str]:
        """Each seat's name for Discord markdown: escaped and isolated (`bot.names`)."""
        return {seat.id: shown_name(seat.name) for seat in self.seats}


# ----- the stored form and its versions ---------------------------------------------

SCHEMA_VERSION = 2
"""The version `encode_table` writes. Bump it with a migration in `MIGRATIONS`."""

Record = dict[str, Any]


class UnreadableTable(Exception):
    """A stored table that no migration turns into a valid `Table`."""


def _computer_names_fit(record: Record) -> Record:
    """Version 1 → 2: computer seats were named "Computer 1 (normal)", which images had
    to cut; they are "🤖 Normal" now (numbered when two share a level)."""
    levels = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}
    old_name = re.compile(r"^Computer \d+ \((.+)\)$")
    seats = [dict(seat) for seat in record.get("seats", [])]
    seen: dict[str, int] = {}
    for seat in seats:
        level = seat.get("level")
        if not str(seat.get("id", "")).startswith("ai:") or level not in levels:
            continue
        if not old_name.match(str(seat.get("name", ""))):
            continue
        seen[level] = seen.get(level, 0) + 1
        number = seen[level]
        seat["name"] = f"🤖 {levels[level]}" + (f" {number}" if number > 1 else "")
    return {**record, "seats": seats, "schema_version": 2}


MIGRATIONS: dict[int, Callable[[Record], Record]] = {1: _computer_names_fit}
"""``MIGRATIONS[v]`` turns a version-``v`` record into a version ``v + 1`` one."""


def encode_table(table: Table) -> str:
    return table.model_dump_json()


def decode_table(raw: str | bytes) -> Table:
    """A stored table at any version since 1, migrated to the current one; raises
    `UnreadableTable` with the reason when it can't be read."""
    try:
        record = json.loads(raw)
    except ValueError as error:
        raise UnreadableTable(f"not JSON: {error}") from error
    if not isinstance(record, dict):
        raise UnreadableTable("not a JSON object")
    version = record.get("schema_version", 1)
    if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
        raise UnreadableTable(f"unknown schema version {version!r}")
    for step in range(version, SCHEMA_VERSION):
        try:
            record = MIGRATIONS[step](record)
        except (TypeError, ValueError, AttributeError) as error:
            raise UnreadableTable(f"invalid table: migration from {step} failed") from error
    try:
        return Table.model_validate(record)
    except ValidationError as error:
        raise UnreadableTable(f"invalid table: {error.error_count()} errors") from error
