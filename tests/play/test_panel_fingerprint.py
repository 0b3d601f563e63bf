"""What a panel shows, fingerprinted so one a move didn't change isn't edited."""

from __future__ import annotations

import discord

from bot.play.messages import TableMessage
from bot.play.panels import shown_fingerprint


def panel(
    text: str = "Chips: **11**",
    rev: int = 4,
    disabled: bool = False,
    png: bytes | None = None,
    key: str = "meld-4H-5H-6H",
) -> TableMessage:
    view = discord.ui.View(timeout=None)
    play: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label="Play", custom_id=f"g:take:7:{rev}:do.{key}", disabled=disabled
    )
    view.add_item(play)
    view.add_item(discord.ui.Button(label="Refresh", custom_id=f"g:take:7:{rev}:redraw"))
    return TableMessage(None, discord.Embed(title="TAKE: My hand", description=text), view, png)


def test_a_panel_drawn_for_a_later_revision_shows_the_same() -> None:
    assert shown_fingerprint(panel(rev=4)) == shown_fingerprint(panel(rev=9))


def test_text_controls_and_image_each_change_what_a_panel_shows() -> None:
    shown = shown_fingerprint(panel())
    assert shown_fingerprint(panel(text="Chips: **10**")) != shown
    assert shown_fingerprint(panel(disabled=True)) != shown
    assert shown_fingerprint(panel(png=b"\x89PNG one")) != shown
    assert shown_fingerprint(panel(png=b"\x89PNG one")) != shown_fingerprint(panel(png=b"two"))


def test_a_button_that_would_make_another_move_changes_what_a_panel_shows() -> None:
    meld, discard = panel(key="meld-4H-5H-6H"), panel(key="discard-9S")
    assert shown_fingerprint(meld) != shown_fingerprint(discard)
