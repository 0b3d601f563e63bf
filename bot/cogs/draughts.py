"""Give and Take draughts on Discord: the board, a Move panel (pick a piece, then its
move), `/draughts move c3-c4`, draw offers and resignation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.cogs.adapter import (
    ActionButton,
    GameAdapter,
    PanelSelect,
    Picks,
    PrivatePanel,
    TableText,
)
from bot.cogs.game_cog import GameCog
from bot.engines.base import Outcome, PlayerId
from bot.engines.draughts import (
    ENGINE,
    DraughtsAction,
    DraughtsOptions,
    DraughtsState,
    DraughtsView,
    MoveView,
    parse_action,
)
from bot.render.draughts import render_board, render_table
from bot.render.embeds import player_name

if TYPE_CHECKING:
    from bot.bot import TableBot

PIECE, MOVE = "piece", "move"
"""Keys of the Move panel's two selects."""
MOST_OPTIONS = 25
"""Discord's limit on a select's options."""
RESIGN, OFFER_DRAW, ACCEPT_DRAW = "resign", "offer-draw", "accept-draw"

RULES = """\
**Board:** 8×8, every square used. White starts on ranks 2–3, Black on 6–7; White \
moves first. **Men** step one square forward or sideways; **kings** fly any distance \
along ranks and files.
**Captures:** jump an adjacent enemy piece (kings from afar) to the empty square \
behind, and keep jumping while you can; 90° and 180° turns are allowed and taken \
pieces leave at once. Capturing is optional, except that if the piece your opponent \
just moved can be taken, you must take it first.
**Kings:** a man reaching the far rank is crowned when its move ends; your last man \
becomes a king at once.
**End:** no legal move loses. Draws: one piece each, threefold repetition, 100 plies \
without a capture or man move, or agreement. *Turkish* ruleset: captures are \
mandatory, the longest one must be taken, no 180° turns, no last-man promotion.
**Example:** `c4xc6xc8` jumps from c4 over c5 to c6, then over c7 to c8.
**Move** opens your panel: pick a piece, then its move; or type `/draughts move c3-c4`."""


def colour_of(view: DraughtsView, player: PlayerId | None) -> Literal["white", "black"] | None:
    if player == view.white:
        return "white"
    if player == view.black:
        return "black"
    return None


def move_label(move: MoveView) -> str:
    extras = []
    if move.captures:
        extras.append(f"takes {len(move.captures)}")
    if move.promotes:
        extras.append("crowns")
    return move.notation + (f" ({', '.join(extras)})" if extras else "")


def side_line(view: DraughtsView, colour: Literal["white", "black"], name: str) -> str:
    men, kings = view.men[colour], view.kings[colour]
    crowns = f", {kings} king{'s' if kings != 1 else ''}" if kings else ""
    return f"{'⚪' if colour == 'white' else '⚫'} **{name}**: {men} men{crowns}"


class DraughtsAdapter(GameAdapter[DraughtsState, DraughtsAction]):
    engine = ENGINE
    colour = 0x8E6E53
    hand_label = "Move"
    rules_summary = RULES
    tagline = "Turkish-style draughts: men step sideways too, kings fly, captures chain."

    def table_buttons(self, view: DraughtsView) -> list[ActionButton]:
        return []

    def parse_action(self, key: str) -> DraughtsAction:
        return parse_action(key.replace("-draw", " draw"))

    def perform(self, state: DraughtsState, player: PlayerId, key: str) -> DraughtsState:
        if key.strip().lower() == RESIGN:
            return ENGINE.resign(state, player)
        return ENGINE.apply(state, player, self.parse_action(key))

    def concede(self, state: DraughtsState, player: PlayerId) -> DraughtsState:
        return ENGINE.resign(state, player)

    def render_table(self, view: DraughtsView, names: Mapping[PlayerId, str]) -> bytes:
        return render_table(view, names)

    def render_private(self, view: DraughtsView, names: Mapping[PlayerId, str]) -> bytes:
        return render_board(view, names, flipped=colour_of(view, view.viewer) == "black")

    def table_text(self, view: DraughtsView, names: Mapping[PlayerId, str]) -> TableText:
        mover = view.white if view.to_move == "white" else view.black
        lines = [f"**{player_name(mover, names)}** ({view.to_move}) to move."]
        if view.last_move:
            lines.append(f"Last move: `{view.last_move}`.")
        if view.capture_required:
            lines.append("A capture is required.")
        if view.draw_offer_by:
            lines.append(f"{player_name(view.draw_offer_by, names)} offers a draw.")
        lines.append(f"Press **{self.hand_label}** or type `/draughts move c3-c4`.")
        sides = "\n".join(
            [
                side_line(view, "white", player_name(view.white, names)),
                side_line(view, "black", player_name(view.black, names)),
            ]
        )
        ruleset = "Turkish" if view.ruleset == "turkish" else "Give and Take"
        return TableText("\n".join(lines), [("Players", sides), ("Rules", ruleset)])

    def private_text(self, view: DraughtsView) -> str:
        colour = colour_of(view, view.viewer)
        return f"You play **{colour or 'no side'}**."

    def private_panel(
        self, view: DraughtsView, picks: Picks, names: Mapping[PlayerId, str]
    ) -> PrivatePanel:
        lines = [self.private_text(view)]
        if view.over:
            return PrivatePanel("\n".join([*lines, view.reason_text or "The game is over."]))
        mine = view.to_act == view.viewer
        buttons = [ActionButton("Resign", RESIGN, "danger")]
        if not mine:
            lines.append("It's your opponent's move; your panel updates when you use it.")
            return PrivatePanel("\n".join(lines), [], buttons)
        starts = sorted({move.from_square for move in view.moves})
        piece = next(iter(picks.get(PIECE, ())), starts[0] if len(starts) == 1 else None)
        piece = piece if piece in starts else None
        choices = [move for move in view.moves if move.from_square == piece]
        chosen = next(iter(picks.get(MOVE, ())), None)
        if chosen not in {move.notation for move in choices}:
            chosen = choices[0].notation if len(choices) == 1 else None
        if view.capture_required:
            lines.append("You must capture: " + ", ".join(view.forced_capture_squares) + ".")
        if len(choices) > MOST_OPTIONS:
            lines.append(
                f"This piece has {len(choices)} moves; type the others with /draughts move."
            )
        selects = [
            PanelSelect(
                PIECE, "Pick a piece", [(sq, sq) for sq in starts], (piece,) if piece else ()
            ),
            PanelSelect(
                MOVE,
                "Pick its move",
                [(move.notation, move_label(move)) for move in choices[:MOST_OPTIONS]],
                (chosen,) if chosen else (),
            ),
        ]
        play = ActionButton(
            f"Play {chosen}" if chosen else "Play", chosen or "", "success", not chosen
        )
        draw = (
            ActionButton("Accept draw", ACCEPT_DRAW, "primary")
            if view.draw_offer_by not in (None, view.viewer)
            else ActionButton("Offer draw", OFFER_DRAW, "secondary")
        )
        return PrivatePanel("\n".join(lines), selects, [play, draw, *buttons])

    def results_text(
        self, view: DraughtsView, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> TableText:
        winners = outcome.winners()
        if view.result == "draw" or len(winners) != 1:
            headline = "**Draw.**"
        else:
            headline = f"**{player_name(winners[0], names)}** wins!"
        sides = "\n".join(
            [
                side_line(view, "white", player_name(view.white, names)),
                side_line(view, "black", player_name(view.black, names)),
            ]
        )
        return TableText(
            f"{headline} {view.reason_text or ''}",
            [("Players", sides), ("Moves played", str(view.plies))],
        )


def build(bot: TableBot) -> GameCog:
    cog = GameCog(bot, DraughtsAdapter())

    @app_commands.command(name="start", description="Open a draughts board in this channel")
    @app_commands.describe(
        turn_time="Seconds per turn before the computer moves for you (0: no clock)",
        ruleset="Give and Take (default) or classic Turkish draughts",
        colour="The side you play (the other player gets the other one)",
    )
    async def start(
        interaction: discord.Interaction,
        ruleset: Literal["give-and-take", "turkish"] = "give-and-take",
        colour: Literal["random", "white", "black"] = "random",
        turn_time: app_commands.Range[int, 0, 3600] = 300,
    ) -> None:
        seat = {"white": 0, "black": 1}.get(colour)
        await cog.start(
            interaction, DraughtsOptions(ruleset=ruleset), host_seat=seat, turn_seconds=turn_time
        )

    @app_commands.command(name="move", description="Make a move, e.g. c3-c4 or c4xc6xc8")
    @app_commands.describe(move="The move in notation: c3-c4, or every landing square c4xc6xc8")
    async def move(interaction: discord.Interaction, move: str) -> None:
        await cog.move_by_text(interaction, move)

    cog.add_command(start)
    cog.add_command(move)
    return cog
