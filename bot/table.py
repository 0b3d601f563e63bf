"""What the bot keeps about one channel's game: its seats, options and engine state.

Pure data (pydantic, no discord and no redis), so the table's life can be written and
tested as plain functions (`bot.table_life`); `bot.store` saves these to Redis.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.engines.base import PlayerId
from bot.i18n import Lang


class Seat(BaseModel):
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


class Table(BaseModel):
    """Everything the bot keeps about one channel's game."""

    schema_version: int = 1
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
    message_id: int | None = Field(default=None, exclude=True)
    """The public table message; stored beside the data so moving it bumps no revision."""

    def seat_of(self, player: PlayerId) -> Seat | None:
        return next((seat for seat in self.seats if seat.id == player), None)

    def computers(self, players: list[PlayerId]) -> list[PlayerId]:
        """Those of ``players`` whose seats the bot plays."""
        return [p for p in players if (seat := self.seat_of(p)) is not None and seat.is_computer]

    def names(self) -> dict[PlayerId, str]:
        return {seat.id: seat.name for seat in self.seats}
