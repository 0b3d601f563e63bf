"""Buttons and selects whose custom_id carries the game, the game id and the revision.

Buttons: ``g:<game>:<gid>:<rev>:<verb>[.<arg>]``, where ``arg`` is an action key
written with `bot.play.action_keys`; selects on private panels:
``s:<game>:<gid>:<rev>:<key>``. Because everything needed is in
the id, a button keeps working after a restart, and a click drawn for an older
revision is recognised as stale. This module writes and reads the ids;
`bot.play.routes` makes the buttons and selects and routes their clicks back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.play.action_keys import ARG_ALPHABET, decode, encode

CUSTOM_ID_PATTERN = (
    r"g:(?P<game>[a-z_]+):(?P<gid>[0-9a-f]{1,16}):(?P<rev>[0-9]{1,12})"
    rf":(?P<verb>[a-z_]{{1,16}})(?:\.(?P<arg>[{ARG_ALPHABET}]{{0,60}}))?"
)
MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom_id."""
SELECT_ID_PATTERN = (
    r"s:(?P<game>[a-z_]+):(?P<gid>[0-9a-f]{1,16}):(?P<rev>[0-9]{1,12}):(?P<key>[a-z_]{1,16})"
)


@dataclass(frozen=True)
class Click:
    """A parsed button click; ``arg`` is the action key as the adapter wrote it."""

    game: str
    gid: str
    rev: int
    verb: str
    arg: str = ""

    def custom_id(self) -> str:
        """The id, ``arg`` encoded. Raises ValueError for one that Discord or
        `bot.play.routes.ButtonRoute` would refuse (a key too long to fit)."""
        suffix = f".{encode(self.arg)}" if self.arg else ""
        custom_id = f"g:{self.game}:{self.gid}:{self.rev}:{self.verb}{suffix}"
        if len(custom_id) > MAX_CUSTOM_ID or not re.fullmatch(CUSTOM_ID_PATTERN, custom_id):
            raise ValueError(f"{self!r} makes no valid custom_id: {custom_id!r}")
        return custom_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Click:
        """The click a `CUSTOM_ID_PATTERN` match stands for. Raises `IllegalAction` when
        its arg encodes no key."""
        return cls(
            game=match["game"],
            gid=match["gid"],
            rev=int(match["rev"]),
            verb=match["verb"],
            arg=decode(match["arg"] or ""),
        )


@dataclass(frozen=True)
class Pick:
    """A choice made in a panel's select menu."""

    game: str
    gid: str
    rev: int
    key: str
    values: tuple[str, ...] = ()

    def custom_id(self) -> str:
        return f"s:{self.game}:{self.gid}:{self.rev}:{self.key}"


def chosen_in_message(message: discord.Message | None) -> dict[str, tuple[str, ...]]:
    """The options marked chosen in each panel select of ``message``, by select key.

    A panel marks the player's earlier choices as the selects' defaults, so the
    message itself carries them from one pick to the next."""
    chosen: dict[str, tuple[str, ...]] = {}
    if message is None:
        return chosen
    for row in message.components:
        for component in getattr(row, "children", []):
            custom_id = getattr(component, "custom_id", None) or ""
            match = re.fullmatch(SELECT_ID_PATTERN, custom_id)
            if match and isinstance(component, discord.SelectMenu):
                chosen[match["key"]] = tuple(o.value for o in component.options if o.default)
    return chosen
