"""A tournament as the bot keeps it: entrants, rounds, tables and results.

Pure data (pydantic, frozen; no discord, no redis), stored as JSON with a schema version
and migrations like `bot.table`, so it can live in Redis beside the tables. Every
function of this package returns a new `Tournament` with ``revision`` one higher (the
store's compare-and-set number) or, when nothing changes, the same object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.engines.base import PlayerId

Format = Literal["swiss", "groups"]
"""``swiss``: two-player games, one opponent a round (`bot.tournament.swiss`).
``groups``: tables of three or more by standing (`bot.tournament.groups`)."""

State = Literal["signup", "running", "finished", "cancelled"]

Level = Literal["easy", "normal", "hard"]

MAX_ROUNDS = 20
MAX_ENTRANTS = 128
"""Beyond this a sign-up is full: keeps one pairing well under a second on a small core."""


class Entrant(BaseModel):
    """Someone in the tournament, or a computer seat that the bot plays."""

    model_config = ConfigDict(frozen=True)

    id: PlayerId
    """A Discord user id as text, or ``"ai:<n>"`` for a computer (as `bot.table.Seat`)."""
    name: str
    """The display name when they joined (computers: "🤖 Computer 1", in the
    tournament's language)."""
    computer: bool = False
    level: Level | None = None
    """A computer's playing strength; None for people."""
    rating: int = 0
    """Seeding for the first round (higher plays as the stronger half); 0 when unknown."""
    withdrawn: bool = False
    """Withdrew after the start: kept in the standings with the points scored, paired
    no more."""

    @model_validator(mode="after")
    def _computer_ids(self) -> Entrant:
        if self.computer != self.id.startswith("ai:"):
            raise ValueError("computer entrants, and only they, have ids starting 'ai:'")
        return self


class TableResult(BaseModel):
    """How a table ended."""

    model_config = ConfigDict(frozen=True)

    places: dict[PlayerId, int] = Field(default_factory=dict)
    """Finishing place of each seat that played (1 = first; ties share a place, 1, 1, 3
    style, as `bot.engines.base.Outcome.places`)."""
    forfeits: tuple[PlayerId, ...] = ()
    """No-shows: they score nothing and take the last places. Everyone, if nobody came."""


class Table(BaseModel):
    """One game of a round: its seats and, once it ends, its result."""

    model_config = ConfigDict(frozen=True)

    id: str
    """Unique in the tournament: ``r<round>t<table>`` (``r2t3``)."""
    seats: tuple[PlayerId, ...]
    absent: tuple[PlayerId, ...] = ()
    """Seats recorded as no-shows while the others still play (`record_forfeit`)."""
    result: TableResult | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None


class Round(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    """1 for the first round."""
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()
    """Swiss entrants without an opponent this round (odd count, no computer fill): each
    scores a win."""
    opened_at: float
    """When the round was paired (the bot's clock, Unix time)."""
    deadline: float
    """When the round clock runs out: who hasn't shown by then forfeits."""

    @property
    def complete(self) -> bool:
        return all(table.finished for table in self.tables)


class Tournament(BaseModel):
    """Everything the bot keeps about one tournament."""

    model_config = ConfigDict(frozen=True)

    schema_version: int = Field(default_factory=lambda: SCHEMA_VERSION)
    id: str
    game: str
    """The registered game's name (`bot.games`)."""
    options: dict[str, Any] = Field(default_factory=dict)
    """The game's options, as every table of the tournament gets them."""
    format: Format
    round_count: int = Field(ge=1, le=MAX_ROUNDS)
    round_seconds: int = Field(gt=0)
    """The round clock: how long a table waits for its players."""
    computer_fill: bool
    """Whether computers fill an odd Swiss field or a field that tables can't seat."""
    min_players: int = Field(ge=2)
    """The fewest players the game can be played by: a table left with fewer after
    no-shows ends at once."""
    table_min: int = Field(ge=2)
    table_max: int = Field(ge=2)
    """Seats per table (Swiss: 2 and 2; groups: within the game's own limits)."""
    organiser: PlayerId
    guild_id: int | None = None
    channel_id: int | None = None
    seed: int
    """Seeds the first round's order among equally rated entrants."""
    entrants: tuple[Entrant, ...] = ()
    """In sign-up order until the start, in the initial (pairing-number) order after."""
    state: State = "signup"
    rounds: tuple[Round, ...] = ()
    """The rounds paired so far, the current one last."""
    revision: int = 0

    @model_validator(mode="after")
    def _seats(self) -> Tournament:
        if self.table_min > self.table_max:
            raise ValueError("table_min is above table_max")
        if self.min_players > self.table_min:
            raise ValueError("table_min is below the game's min_players")
        if self.format == "swiss" and (self.table_min, self.table_max) != (2, 2):
            raise ValueError("a Swiss tournament seats two a table")
        if self.format == "groups" and self.table_min < 3:
            raise ValueError("grouped rounds seat at least three a table")
        return self

    def entrant(self, player: PlayerId) -> Entrant | None:
        return next((e for e in self.entrants if e.id == player), None)

    @property
    def paired(self) -> tuple[Entrant, ...]:
        """The entrants the next rounds pair: all but those who withdrew."""
        return tuple(e for e in self.entrants if not e.withdrawn)

    @property
    def current(self) -> Round | None:
        """The round being played (or the last one played), None before the start."""
        return self.rounds[-1] if self.rounds else None

    def names(self) -> dict[PlayerId, str]:
        return {e.id: e.name for e in self.entrants}


# ----- the stored form and its versions ---------------------------------------------

SCHEMA_VERSION = 1
"""The version `encode_tournament` writes. Bump it with a migration in `MIGRATIONS`."""

Record = dict[str, Any]

MIGRATIONS: dict[int, Callable[[Record], Record]] = {}
"""``MIGRATIONS[v]`` turns a version-``v`` record into a version ``v + 1`` one."""


class UnreadableTournament(Exception):
    """A stored tournament that no migration turns into a valid `Tournament`."""


def encode_tournament(tournament: Tournament) -> str:
    return tournament.model_dump_json()


def decode_tournament(raw: str | bytes) -> Tournament:
    """A stored tournament at any known version, migrated to the current one; raises
    `UnreadableTournament` with the reason when it can't be read."""
    try:
        record = json.loads(raw)
    except ValueError as error:
        raise UnreadableTournament(f"not JSON: {error}") from error
    if not isinstance(record, dict):
        raise UnreadableTournament("not a JSON object")
    version = record.get("schema_version", 1)
    if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
        raise UnreadableTournament(f"unknown schema version {version!r}")
    for step in range(version, SCHEMA_VERSION):
        try:
            record = MIGRATIONS[step](record)
        except (TypeError, ValueError, AttributeError) as error:
            raise UnreadableTournament(f"migration from {step} failed") from error
    try:
        return Tournament.model_validate(record)
    except ValidationError as error:
        raise UnreadableTournament(f"invalid: {error.error_count()} errors") from error
