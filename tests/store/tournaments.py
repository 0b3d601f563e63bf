"""A small tournament to store, for the store's tests."""

from __future__ import annotations

from bot.tournament import Tournament, create


def a_tournament(guild_id: int, channel_id: int, tournament_id: str = "0a1b2c3d") -> Tournament:
    """A draughts Swiss in its sign-up, at revision 1 (as `/tournament create` saves it)."""
    opened = create(
        id=tournament_id,
        game="draughts",
        format="swiss",
        round_count=3,
        round_seconds=3600,
        computer_fill=True,
        organiser="1",
        min_players=2,
        table_min=2,
        table_max=2,
        seed=7,
        guild_id=guild_id,
        channel_id=channel_id,
    )
    return opened.model_copy(update={"revision": 1})
