"""Geschenkt on Discord: Take / No thanks / My hand under the table image."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs.adapter import ActionButton, GameAdapter, TableText
from bot.cogs.game_cog import GameCog
from bot.engines.base import Outcome, PlayerId
from bot.engines.geschenkt import (
    ENGINE,
    GeschenktAction,
    GeschenktOptions,
    GeschenktState,
    GeschenktView,
    parse_action,
    runs_of,
)
from bot.render.embeds import player_name
from bot.render.geschenkt import render_table

if TYPE_CHECKING:
    from bot.bot import TableBot

RULES = """\
**Goal:** the lowest score. Each card in front of you counts its number against you, \
but a run of consecutive cards counts only its lowest card. Each chip you hold counts \
one point in your favour.
**Your turn:** a card lies face up. **Take** it (with every chip on it), or press \
**No thanks** and put one of your chips on it; the next player decides. With no chips \
left you must take. Whoever takes turns the next card and decides again.
**Setup:** cards 3–35, 9 removed unseen (revealed at the end), 24 played. 11 chips \
each for 3–5 players, 9 for 6, 7 for 7. *Tactical:* 10 chips, 10/20/30 out first.
**Secret:** chip counts are private; **My hand** shows yours.
**End:** when the last card is taken. Example: 8, 9, 10 and 21 with 5 chips \
scores 8 + 21 − 5 = 24. Equal scores share the place."""


def describe_cards(cards: list[int]) -> str:
    """Cards grouped into runs: ``8–10 · 21``."""
    runs = runs_of(cards)
    return " · ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


class GeschenktAdapter(GameAdapter[GeschenktState, GeschenktAction]):
    engine = ENGINE
    colour = 0xE67E22
    rules_summary = RULES
    tagline = "Take the card or pay a chip to refuse it; runs count only their lowest card."

    def table_buttons(self, view: GeschenktView) -> list[ActionButton]:
        return [
            ActionButton("Take", "take", "success"),
            ActionButton("No thanks", "refuse", "danger"),
        ]

    def parse_action(self, key: str) -> GeschenktAction:
        return parse_action(key)

    def render_table(self, view: GeschenktView, names: Mapping[PlayerId, str]) -> bytes:
        return render_table(view, names)

    def table_text(self, view: GeschenktView, names: Mapping[PlayerId, str]) -> TableText:
        turn = player_name(view.to_act, names) if view.to_act else "nobody"
        description = (
            f"**{view.current_card}** is face up with **{view.pot}** "
            f"chip{'s' if view.pot != 1 else ''} on it · {view.cards_left} cards left.\n"
            f"It's **{turn}**'s turn: Take, or No thanks."
        )
        lines = [
            f"**{player_name(seat.player, names)}**: {describe_cards(seat.cards) or 'no cards'}"
            for seat in view.seats
        ]
        return TableText(description, [("Cards in front of each player", "\n".join(lines))])

    def private_text(self, view: GeschenktView) -> str:
        mine = next((seat for seat in view.seats if seat.player == view.viewer), None)
        cards = describe_cards(mine.cards) if mine else ""
        return (
            f"Chips: **{view.my_chips}**\n"
            f"Your cards: {cards or 'none yet'}\n"
            f"Score right now: **{view.my_score}** (lower is better)"
        )

    def results_text(
        self, view: GeschenktView, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> TableText:
        ranked = sorted(view.seats, key=lambda seat: outcome.places[seat.player])
        lines = [
            f"**{outcome.places[seat.player]}.** {player_name(seat.player, names)}: "
            f"**{seat.score}** points ({describe_cards(seat.cards) or 'no cards'}; "
            f"{seat.chips} chips)"
            for seat in ranked
        ]
        winners = ", ".join(player_name(p, names) for p in outcome.winners())
        removed = ", ".join(str(card) for card in view.removed or [])
        return TableText(
            f"**{winners}** win{'s' if len(outcome.winners()) == 1 else ''}!",
            [("Places", "\n".join(lines)), ("Removed unseen", removed or "none")],
        )


def build(bot: TableBot) -> GameCog:
    cog = GameCog(bot, GeschenktAdapter())

    @app_commands.command(name="start", description="Open a Geschenkt table in this channel")
    @app_commands.describe(
        turn_time="Seconds per turn before the computer moves for you (0: no clock)",
        tactical="Tactical variant: 10 chips each, 10/20/30 removed first",
    )
    async def start(
        interaction: discord.Interaction,
        tactical: bool = False,
        turn_time: app_commands.Range[int, 0, 3600] = 60,
    ) -> None:
        await cog.start(interaction, GeschenktOptions(tactical=tactical), turn_seconds=turn_time)

    cog.add_command(start)
    return cog
