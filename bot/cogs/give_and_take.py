"""Give & Take on Discord: the director's Go, the capturer's Give pile / Take pile
choice (made for them after a timeout), and My piles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs.adapter import ActionButton, GameAdapter, TableText, TimedDefault
from bot.cogs.game_cog import GameCog
from bot.engines.base import Outcome, PlayerId
from bot.engines.give_and_take import (
    ENGINE,
    GiveAndTakeAction,
    GiveAndTakeOptions,
    GiveAndTakeState,
    GiveAndTakeView,
    SeatView,
    parse_action,
)
from bot.render.embeds import card_label, player_name
from bot.render.give_and_take import render_table

if TYPE_CHECKING:
    from bot.bot import TableBot

RULES = """\
**Goal:** be the last player standing.
**Setup:** everyone gets two face-down piles: the **give** pile on their left and the \
**take** pile on their right. Nobody looks at their cards.
**A turn:** the director presses **Go**; everyone turns up the top card of both piles. \
Your **duet** is your take card plus the give card of the player to your right. Values: \
2–10, J 11, Q 12, K 13, A 1 or 14 (whichever helps). The lowest difference **captures** \
every card on the table plus the leftovers, and chooses the pile they go under \
(**Give pile** or **Take pile**; after a while the smaller pile is chosen for them).
**Example:** your duet is 7 and 5 (difference 2), your neighbour's K and 3 (10): you \
capture. A tie for the lowest is a **fight**: everyone turns up again on top.
**Out:** a player with an empty pile at the start of a turn (or during a fight) is out; \
their cards go to the middle. Places follow the order players go out."""


def seat_line(seat: SeatView, view: GiveAndTakeView, names: Mapping[PlayerId, str]) -> str:
    name = player_name(seat.player, names)
    if seat.out:
        turn = next((e.turn for e in view.eliminated if seat.player in e.players), None)
        return f"~~{name}~~ out" + (f" (turn {turn})" if turn is not None else "")
    marks = " 🎬" if seat.director else ""
    pointer = "▶ " if seat.player == view.to_act else ""
    return f"{pointer}**{name}**{marks}: give {seat.give_size} · take {seat.take_size}"


class GiveAndTakeAdapter(GameAdapter[GiveAndTakeState, GiveAndTakeAction]):
    engine = ENGINE
    colour = 0x16A085
    hand_label = "My piles"
    hidden_options = frozenset({"director"})
    rules_summary = RULES
    tagline = "A war game in a ring: the lowest duet captures everything on the table."

    def table_buttons(self, view: GiveAndTakeView) -> list[ActionButton]:
        if view.phase == "go":
            return [ActionButton("Go!", "go", "primary")]
        if view.phase == "choose":
            seat = next(seat for seat in view.seats if seat.player == view.capturer)
            return [
                ActionButton(
                    f"Give pile ({seat.give_size})",
                    "give",
                    "success" if view.default_pile == "give" else "secondary",
                ),
                ActionButton(
                    f"Take pile ({seat.take_size})",
                    "take",
                    "success" if view.default_pile == "take" else "secondary",
                ),
            ]
        return []

    def parse_action(self, key: str) -> GiveAndTakeAction:
        return parse_action(key)

    def render_table(self, view: GiveAndTakeView, names: Mapping[PlayerId, str]) -> bytes:
        return render_table(view, names)

    def timed_default(self, view: GiveAndTakeView) -> TimedDefault | None:
        if view.phase != "choose" or view.capturer is None or view.default_pile is None:
            return None
        return TimedDefault(view.capturer, view.default_pile)

    def table_text(self, view: GiveAndTakeView, names: Mapping[PlayerId, str]) -> TableText:
        turn = f"Turn {view.turn} of at most {view.turn_cap}"
        if view.phase == "choose" and view.capturer is not None:
            capturer = player_name(view.capturer, names)
            fight = " after a fight" if view.fight else ""
            description = (
                f"**{capturer}** captures **{view.capture_size}** cards{fight}: "
                f"under the give or the take pile? (default: the {view.default_pile} pile)"
            )
        else:
            director = player_name(view.director, names) if view.director else "the director"
            waiting = (
                "Fight! Everyone turns up again."
                if view.fight
                else f"Waiting for **{director}** to press Go."
            )
            description = waiting if not view.auto else "Turns are revealed automatically."
        fields = [("Players", "\n".join(seat_line(seat, view, names) for seat in view.seats))]
        if view.duets:
            fields.append(
                (
                    "Duets",
                    "\n".join(
                        f"{'**' if duet.lowest else ''}{player_name(duet.player, names)}: "
                        f"{card_label(duet.take_card)} + {card_label(duet.give_card)} "
                        f"= {duet.difference}{'**' if duet.lowest else ''}"
                        for duet in view.duets
                    ),
                )
            )
        fields.append(("Middle", f"{view.leftovers} leftover cards · {turn}"))
        return TableText(description, fields)

    def private_text(self, view: GiveAndTakeView) -> str:
        return (
            f"Your give pile: **{view.my_give_size}** cards\n"
            f"Your take pile: **{view.my_take_size}** cards\n"
            "Nobody looks at their cards in this game: the piles are turned up on Go."
        )

    def results_text(
        self, view: GiveAndTakeView, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> TableText:
        scores = view.scores or {}
        ranked = sorted(view.seats, key=lambda seat: outcome.places[seat.player])
        lines = [
            f"**{outcome.places[seat.player]}.** {player_name(seat.player, names)}: "
            f"{scores.get(seat.player, 0)} cards"
            for seat in ranked
        ]
        endings = {
            "last_standing": "the last player standing wins",
            "all_out": "everyone left went out at once: most cards wins",
            "turn_cap": f"the turn limit ({view.turn_cap}) was reached: most cards wins",
        }
        winners = ", ".join(player_name(p, names) for p in outcome.winners())
        plural = "s" if len(outcome.winners()) == 1 else ""
        how = endings.get(view.ended or "", "")
        return TableText(f"**{winners}** win{plural}! ({how})", [("Places", "\n".join(lines))])


def build(bot: TableBot) -> GameCog:
    cog = GameCog(bot, GiveAndTakeAdapter())

    @app_commands.command(name="start", description="Open a Give & Take table in this channel")
    @app_commands.describe(
        turn_time="Seconds per turn before the computer moves for you (0: no clock)",
        auto="Reveal every turn without waiting for the director's Go",
        turn_cap="After this many turns the player with most cards wins",
    )
    async def start(
        interaction: discord.Interaction,
        auto: bool = False,
        turn_cap: app_commands.Range[int, 10, 2000] = 500,
        turn_time: app_commands.Range[int, 0, 3600] = 60,
    ) -> None:
        options = GiveAndTakeOptions(
            auto=auto, turn_cap=turn_cap, director=str(interaction.user.id)
        )
        await cog.start(interaction, options, turn_seconds=turn_time)

    cog.add_command(start)
    return cog
