"""Geschenkt on Discord: Take / No thanks / My hand under the table image."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands

from bot.adapters.base import GameAdapter
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
from bot.i18n import N_, Lang, plural, tr
from bot.render.embeds import player_name
from bot.render.geschenkt import card_points, render_table
from bot.texts import ActionButton, TableText

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands

RULES = N_(
    """\
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
)


def describe_cards(cards: list[int]) -> str:
    """Cards grouped into runs: ``8–10 · 21``."""
    runs = runs_of(cards)
    return " · ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


class GeschenktAdapter(GameAdapter[GeschenktState, GeschenktAction, GeschenktView]):
    engine = ENGINE
    colour = 0xE67E22
    rules_summary = RULES
    option_labels: ClassVar[Mapping[str, str]] = {
        "tactical": N_("Tactical variant"),
        "deck": N_("Deck"),
    }
    tagline = N_("Take the card or pay a chip to refuse it; runs count only their lowest card.")

    def table_buttons(self, view: GeschenktView, lang: Lang) -> list[ActionButton]:
        return [
            ActionButton(tr(lang, "Take"), "take", "success"),
            ActionButton(tr(lang, "No thanks"), "refuse", "danger"),
        ]

    def parse_action(self, key: str) -> GeschenktAction:
        return parse_action(key)

    render_table = staticmethod(render_table)

    def table_text(
        self, view: GeschenktView, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        turn = player_name(view.to_act, names) if view.to_act else tr(lang, "nobody")
        description = tr(
            lang,
            "**{card}** is face up with {pot} on it · {left}.\n"
            "It's **{name}**'s turn: Take, or No thanks.",
            card=view.current_card,
            pot=plural(lang, view.pot, "**{n}** chip", "**{n}** chips"),
            left=plural(lang, view.cards_left, "{n} card left", "{n} cards left"),
            name=turn,
        )
        lines = [
            tr(
                lang,
                "**{name}**: {cards}",
                name=player_name(seat.player, names),
                cards=describe_cards(seat.cards) or tr(lang, "no cards"),
            )
            for seat in view.seats
        ]
        field = tr(lang, "Cards in front of each player")
        return TableText(description, [(field, "\n".join(lines))])

    def move_text(
        self,
        key: str,
        before: GeschenktView,
        after: GeschenktView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> str:
        """ "took 16 (+3 chips)", "took 16 (no chips)", "said no thanks to 16 (4 chips
        on it now)": the card and the pot come from the public views."""
        card = before.current_card
        if parse_action(key).kind == "refuse":
            return plural(
                lang,
                after.pot,
                "said no thanks to {card} ({n} chip on it now)",
                "said no thanks to {card} ({n} chips on it now)",
                card=card,
            )
        if before.pot == 0:
            return tr(lang, "took {card} (no chips)", card=card)
        return plural(
            lang, before.pot, "took {card} (+{n} chip)", "took {card} (+{n} chips)", card=card
        )

    def private_text(self, view: GeschenktView, lang: Lang) -> str:
        mine = next((seat for seat in view.seats if seat.player == view.viewer), None)
        cards = describe_cards(mine.cards) if mine else ""
        return tr(
            lang,
            "Chips: **{chips}**\nYour cards: {cards}\n"
            "Score right now: **{score}** (lower is better)",
            chips=view.my_chips,
            cards=cards or tr(lang, "none yet"),
            score=view.my_score,
        )

    def results_text(
        self, view: GeschenktView, outcome: Outcome, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        ranked = sorted(view.seats, key=lambda seat: outcome.places[seat.player])
        lines = [
            tr(
                lang,
                "**{place}.** {name}: {points} ({cards}: {card_points} − {chips})",
                place=outcome.places[seat.player],
                name=player_name(seat.player, names),
                points=plural(lang, outcome.scores[seat.player], "**{n}** point", "**{n}** points"),
                cards=describe_cards(seat.cards) or tr(lang, "no cards"),
                card_points=plural(lang, card_points(seat), "{n} card point", "{n} card points"),
                chips=plural(lang, seat.chips or 0, "{n} chip", "{n} chips"),
            )
            for seat in ranked
        ]
        winners = outcome.winners()
        names_text = ", ".join(player_name(p, names) for p in winners)
        removed = ", ".join(str(card) for card in view.removed or [])
        return TableText(
            plural(lang, len(winners), "**{names}** wins!", "**{names}** win!", names=names_text),
            [
                (tr(lang, "Places"), "\n".join(lines)),
                (tr(lang, "Removed unseen"), removed or tr(lang, "none")),
            ],
        )


def add_commands(game_commands: GameCommands) -> None:
    """The game's own commands: ``start`` with its options (and ``move`` where typed)."""

    @app_commands.command(name="start", description=N_("Open a Geschenkt table in this channel"))
    @app_commands.describe(
        turn_time=N_("Seconds per turn before the computer moves for you (0: no clock)"),
        tactical=N_("Tactical variant: 10 chips each, 10/20/30 removed first"),
    )
    async def start(
        interaction: discord.Interaction,
        tactical: bool = False,
        turn_time: app_commands.Range[int, 0, 3600] = 60,
    ) -> None:
        await game_commands.start(
            interaction, partial(GeschenktOptions, tactical=tactical), turn_seconds=turn_time
        )

    game_commands.add_command(start)
