"""What a game button does (its verb), and the one policy for clicks that come late.

A button's custom_id carries the game id and the revision it was drawn for (see
`bot.play.components`). Whether a click drawn for an older revision still counts
depends on what it does, and is decided here, once, for every game:

- ``join``, ``leave``, ``ai``, ``pings``, ``open``, ``start`` (the lobby): count while
  the game id matches; joining means the same at any revision.
- ``act`` (a move button on the public table): refused unless drawn for the exact
  revision; someone moved first, and the button may mean something else now.
- ``hand`` (the public table): counts while the game id matches; it only opens the
  clicker's panel.
- ``do`` (a move on a private panel): counts while the game id matches; the action
  names its cards, so a stale or doubled one finds them gone and is explained.
- ``redraw`` (a private panel): counts while the game id matches.
- ``rematch`` (the results): counts while the game id matches (the game is over), and
  for the rematch lobby it opened (whose ``rematch_of`` is that id): a later click
  takes a seat there.

Panel verbs are refused on a public message, and a click for another game id (an
older game in the channel) is always refused.
"""

from __future__ import annotations

from typing import Literal, get_args

Verb = Literal[
    "join",
    "leave",
    "ai",
    "pings",
    "open",
    "start",
    "rules",
    "act",
    "hand",
    "do",
    "redraw",
    "rematch",
]
ALL_VERBS: tuple[Verb, ...] = get_args(Verb)

Staleness = Literal["exact_revision", "same_game"]

LOBBY_VERBS: frozenset[Verb] = frozenset({"join", "leave", "ai", "pings", "open", "start"})
PANEL_VERBS: frozenset[Verb] = frozenset({"do", "redraw"})
"""Verbs that only private (ephemeral) panels carry."""

STALE_POLICY: dict[Verb, Staleness] = {
    "join": "same_game",
    "leave": "same_game",
    "ai": "same_game",
    "pings": "same_game",
    "open": "same_game",
    "start": "same_game",
    "rules": "same_game",
    "act": "exact_revision",
    "hand": "same_game",
    "do": "same_game",
    "redraw": "same_game",
    "rematch": "same_game",
}


def as_verb(text: str) -> Verb | None:
    """``text`` as a verb this bot knows, or None."""
    return next((verb for verb in ALL_VERBS if verb == text), None)
