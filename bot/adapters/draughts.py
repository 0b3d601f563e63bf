"""Give and Take draughts on Discord: the board, a Move panel (pick a piece, then its
move), `/draughts move c3-c4`, draw offers and resignation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

import discord
from discord import app_commands

from bot.adapters import draughts_pdn
from bot.adapters.base import GameAdapter
from bot.engines.base import IllegalAction, Outcome, PlayerId
from bot.engines.draughts import (
    ENGINE,
    DraughtsAction,
    DraughtsOptions,
    DraughtsState,
    DraughtsView,
    MoveView,
    Ruleset,
    parse_action,
)
from bot.i18n import N_, Lang, plural, tr
from bot.render.draughts import (
    PIECE,
    chosen_piece,
    move_number,
    reason_sentence,
    render_panel,
    render_table,
)
from bot.render.embeds import player_name
from bot.texts import ActionButton, ExportFile, PanelSelect, Picks, PrivatePanel, TableText

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands
    from bot.storage.records import GameRecord

MOVE = "move"
"""The key of the Move panel's select of a move (`PIECE`: of a piece)."""
MOST_OPTIONS = 25
"""Discord's limit on a select's options."""
RESIGN, OFFER_DRAW, ACCEPT_DRAW = "resign", "offer-draw", "accept-draw"
CONFIRMED_RESIGN = "resign confirm"
"""The panel's Resign button, and the confirmation of a typed ``resign``."""
TYPED_WORDS = {
    "aufgeben": RESIGN,
    "aufgeben bestätigen": CONFIRMED_RESIGN,
    "remis anbieten": OFFER_DRAW,
    "remis annehmen": ACCEPT_DRAW,
}
"""German words for the actions typed as `/draughts move` (the English ones the engine reads)."""

RULES = N_("""\
**Board:** 8×8, every square used. White starts on ranks 2–3, Black on 6–7; White \
moves first. **Men** step one square forward or sideways; **kings** fly any distance \
along ranks and files.
**Captures:** jump an adjacent enemy piece (kings from afar) to the empty square \
behind, and keep jumping while you can; 90° and 180° turns are allowed and taken \
pieces leave at once. Capturing is optional, except that if the piece your opponent \
just moved can be taken, you must take it first.
**Kings:** a man reaching the far rank is crowned when its move ends; your last man \
becomes a king at once.
**End:** no legal move loses. Draws: one piece each (once the side to move can't \
capture), threefold repetition, 100 plies without a capture or forward man move, or \
agreement. *Turkish* ruleset: captures are \
mandatory, the longest one must be taken, no 180° turns, no last-man promotion.
**Example:** `c4xc6xc8` jumps from c4 over c5 to c6, then over c7 to c8.
**Move** opens your panel: pick a piece, then its move; or type `/draughts move c3-c4`.""")


def colour_of(view: DraughtsView, player: PlayerId | None) -> Literal["white", "black"] | None:
    if player == view.white:
        return "white"
    if player == view.black:
        return "black"
    return None


def move_label(move: MoveView, lang: Lang) -> str:
    extras = []
    if move.captures:
        extras.append(tr(lang, "takes {n}", n=len(move.captures)))
    if move.promotes:
        extras.append(tr(lang, "crowns"))
    return move.notation + (f" ({', '.join(extras)})" if extras else "")


def result_for(view: DraughtsView, lang: Lang) -> str:
    """The end of the game as the viewer sees it: won, lost, or drawn."""
    if view.result == "draw":
        return tr(lang, "a draw.")
    if view.viewer is None or view.viewer not in (view.white, view.black):
        return tr(lang, "White won.") if view.result == "white" else tr(lang, "Black won.")
    return tr(lang, "you won.") if view.winner == view.viewer else tr(lang, "you lost.")


def played_text(before: DraughtsView, after: DraughtsView, lang: Lang) -> str:
    """The move between two views: its notation, what it took, and a crowning."""
    details = []
    if after.last_captures:
        details.append(plural(lang, len(after.last_captures), "{n} captured", "{n} captured"))
    if after.kings[before.to_move] > before.kings[before.to_move]:
        details.append(tr(lang, "crowned"))
    notation = after.last_move or ""
    return notation + (f" ({', '.join(details)})" if details else "")


MoveKind = Literal["resigned", "accepted", "offered", "declined", "played"]

THEIR_MOVE: dict[MoveKind, str] = {
    "resigned": N_("resigned"),
    "accepted": N_("accepted the draw offer"),
    "offered": N_("offered a draw"),
    "declined": N_("declined the draw offer and played {move}"),
    "played": "{move}",
}
"""A move in the table's recent events, after its player's name."""
YOUR_MOVE: dict[MoveKind, str] = {
    "resigned": N_("You resigned."),
    "accepted": N_("You accepted the draw offer."),
    "offered": N_("You offered a draw."),
    "declined": N_("You declined the draw offer and played {move}."),
    "played": N_("You played {move}."),
}
"""The same said to the player who typed it."""


def move_kind(before: DraughtsView, after: DraughtsView) -> MoveKind:
    """What a move between two public views did."""
    if after.over and after.reason == "resignation":
        return "resigned"
    if after.over and after.reason == "agreement":
        return "accepted"
    if after.plies == before.plies:
        return "offered"
    if before.draw_offer_by not in (None, before.to_act):
        return "declined"
    return "played"


def side_line(view: DraughtsView, colour: Literal["white", "black"], name: str, lang: Lang) -> str:
    men, kings = view.men[colour], view.kings[colour]
    pieces = plural(lang, men, "{n} man", "{n} men")
    if kings:
        pieces += ", " + plural(lang, kings, "{n} king", "{n} kings")
    return f"{'⚪' if colour == 'white' else '⚫'} **{name}**: {pieces}"


def sides_text(view: DraughtsView, names: Mapping[PlayerId, str], lang: Lang) -> str:
    return "\n".join(
        [
            side_line(view, "white", player_name(view.white, names), lang),
            side_line(view, "black", player_name(view.black, names), lang),
        ]
    )


RULESETS: dict[Ruleset, str] = {
    "give-and-take": N_("Give and Take"),
    "turkish": N_("Turkish draughts"),
}


def example_move(view: DraughtsView) -> str | None:
    """A move the side to move may type now, for the table's hint: a capture when one
    is forced (then every legal move is one); None once no move is left."""
    captures = [move for move in view.moves if move.captures]
    moves = captures if view.capture_required and captures else view.moves
    return moves[0].notation if moves else None


class DraughtsAdapter(GameAdapter[DraughtsState, DraughtsAction, DraughtsView]):
    engine = ENGINE
    colour = 0x8E6E53
    hand_label = N_("Move")
    hand_description = N_("Open your Move panel: pick a piece, then its move (only you see it)")
    leave_description = N_("Leave the table (in a running game you resign and lose)")
    option_labels: ClassVar[Mapping[str, str]] = {"ruleset": N_("Rules")}
    option_values: ClassVar[Mapping[str, Mapping[Any, str]]] = {"ruleset": RULESETS}
    rules_summary = RULES
    tagline = N_("Turkish-style draughts: men step sideways too, kings fly, captures chain.")

    def table_buttons(self, view: DraughtsView, lang: Lang) -> list[ActionButton]:
        return []

    def parse_action(self, key: str) -> DraughtsAction:
        return parse_action(key.replace("-draw", " draw"))

    def perform(self, state: DraughtsState, player: PlayerId, key: str) -> DraughtsState:
        """A panel key or a typed move. The engine reads text leniently (another path of
        the same capture, start and end alone), so the text goes to it as it is. A typed
        ``resign`` asks for confirmation first."""
        words = " ".join(key.lower().split())
        words = TYPED_WORDS.get(words, words)
        if words == CONFIRMED_RESIGN:
            return ENGINE.resign(state, player)
        if words == RESIGN:
            raise IllegalAction(
                "Resigning loses the game. To resign, type `/draughts move resign confirm` "
                "or press **Resign** on your panel."
            )
        return ENGINE.apply(state, player, key.replace("-draw", " draw"))

    def move_text(
        self,
        key: str,
        before: DraughtsView,
        after: DraughtsView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> str:
        """ "c3-c4", "c4xc6xc8 (2 captured)", "offered a draw", "resigned", …"""
        played = played_text(before, after, lang)
        return tr(lang, THEIR_MOVE[move_kind(before, after)], move=played)

    def typed_move_answer(
        self, key: str, before: DraughtsView, after: DraughtsView, lang: Lang
    ) -> str:
        played = played_text(before, after, lang)
        return tr(lang, YOUR_MOVE[move_kind(before, after)], move=played)

    def export_file(self, record: GameRecord, states: Sequence[DraughtsState]) -> ExportFile:
        text = draughts_pdn.pdn(record, states)
        return ExportFile(draughts_pdn.file_name(record), text, N_("The game {gid} as PDN."))

    def concede(self, state: DraughtsState, player: PlayerId) -> DraughtsState:
        return ENGINE.resign(state, player)

    render_table = staticmethod(render_table)
    render_private = staticmethod(render_panel)

    def table_title(self, view: DraughtsView, lang: Lang) -> str:
        """A game under Turkish rules is Turkish draughts, not Give and Take."""
        if view.ruleset == "turkish":
            return tr(lang, RULESETS["turkish"])
        return tr(lang, self.engine.title)

    def table_text(
        self, view: DraughtsView, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        if view.to_move == "white":
            lines = [tr(lang, "**{name}** (White) to move.", name=player_name(view.white, names))]
        else:
            lines = [tr(lang, "**{name}** (Black) to move.", name=player_name(view.black, names))]
        if view.last_move:
            lines.append(tr(lang, "Last move: `{move}`.", move=view.last_move))
        if view.capture_required:
            lines.append(tr(lang, "A capture is required."))
        if view.draw_offer_by:
            lines.append(
                tr(lang, "{name} offers a draw.", name=player_name(view.draw_offer_by, names))
            )
        example = example_move(view)
        if example is not None:  # the side to move's own move, never the last one played
            lines.append(
                tr(
                    lang,
                    "Press **{button}** or type `/draughts move {move}`.",
                    button=tr(lang, self.hand_label),
                    move=example,
                )
            )
        ruleset = tr(lang, RULESETS[view.ruleset])
        return TableText(
            "\n".join(lines),
            [(tr(lang, "Players"), sides_text(view, names, lang)), (tr(lang, "Rules"), ruleset)],
        )

    def private_text(self, view: DraughtsView, lang: Lang) -> str:
        colour = colour_of(view, view.viewer)
        if colour == "white":
            return tr(lang, "You play **White**.")
        if colour == "black":
            return tr(lang, "You play **Black**.")
        return tr(lang, "You play **no side**.")

    def private_panel(
        self, view: DraughtsView, picks: Picks, names: Mapping[PlayerId, str], lang: Lang
    ) -> PrivatePanel:
        lines = [self.private_text(view, lang)]
        if view.over:
            lines.append(tr(lang, "**The game is over:** {result}", result=result_for(view, lang)))
            lines.append(reason_sentence(view, lang) or "")
            return PrivatePanel("\n".join(lines))
        mine = view.to_act == view.viewer
        buttons = [ActionButton(tr(lang, "Resign"), CONFIRMED_RESIGN, "danger")]
        if not mine:
            waiting = N_(
                "It's your opponent's move; this panel shows your moves when your turn comes."
            )
            lines.append(tr(lang, waiting))
            return PrivatePanel("\n".join(lines), [], buttons)
        starts = sorted({move.from_square for move in view.moves})
        piece = chosen_piece(view, picks)
        choices = [move for move in view.moves if move.from_square == piece]
        chosen = next(iter(picks.get(MOVE, ())), None)
        if chosen not in {move.notation for move in choices}:
            chosen = choices[0].notation if len(choices) == 1 else None
        if view.capture_required:
            squares = ", ".join(view.forced_capture_squares)
            lines.append(tr(lang, "You must capture: {squares}.", squares=squares))
        if len(choices) > MOST_OPTIONS:
            lines.append(
                tr(
                    lang,
                    "This piece has {n} moves; type the others with /draughts move.",
                    n=len(choices),
                )
            )
        selects = [
            PanelSelect(
                PIECE,
                tr(lang, "Pick a piece"),
                [(sq, sq) for sq in starts],
                (piece,) if piece else (),
            ),
            PanelSelect(
                MOVE,
                tr(lang, "Pick its move"),
                [(move.notation, move_label(move, lang)) for move in choices[:MOST_OPTIONS]],
                (chosen,) if chosen else (),
            ),
        ]
        label = tr(lang, "Play {move}", move=chosen) if chosen else tr(lang, "Play move")
        play = ActionButton(label, chosen or "", "success", not chosen)
        draw = (
            ActionButton(tr(lang, "Accept draw"), ACCEPT_DRAW, "primary")
            if view.draw_offer_by not in (None, view.viewer)
            else ActionButton(tr(lang, "Offer draw"), OFFER_DRAW, "secondary")
        )
        return PrivatePanel("\n".join(lines), selects, [play, draw, *buttons])

    def results_text(
        self, view: DraughtsView, outcome: Outcome, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        winners = outcome.winners()
        if view.result == "draw" or len(winners) != 1:
            headline = tr(lang, "**Draw.**")
        else:
            headline = tr(lang, "**{name}** wins!", name=player_name(winners[0], names))
        return TableText(
            f"{headline} {reason_sentence(view, lang) or ''}",
            [
                (tr(lang, "Players"), sides_text(view, names, lang)),
                (tr(lang, "Moves played"), str(move_number(view))),
            ],
        )


def add_commands(game_commands: GameCommands) -> None:
    """The game's own commands: ``start`` with its options (and ``move`` where typed)."""

    @app_commands.command(name="start", description=N_("Open a draughts board in this channel"))
    @app_commands.describe(
        turn_time=N_("Seconds per turn before the computer moves for you (0: no clock)"),
        ruleset=N_("Give and Take (default) or classic Turkish draughts"),
        colour=N_("The side you play (the other player gets the other one)"),
    )
    @app_commands.choices(
        ruleset=[
            app_commands.Choice(name=N_("Give and Take"), value="give-and-take"),
            app_commands.Choice(name=N_("Turkish"), value="turkish"),
        ],
        colour=[
            app_commands.Choice(name=N_("Random"), value="random"),
            app_commands.Choice(name=N_("White"), value="white"),
            app_commands.Choice(name=N_("Black"), value="black"),
        ],
    )
    async def start(
        interaction: discord.Interaction,
        ruleset: str = "give-and-take",
        colour: str = "random",
        turn_time: app_commands.Range[int, 0, 3600] = 300,
    ) -> None:
        seat = {"white": 0, "black": 1}.get(colour)
        options = partial(DraughtsOptions, ruleset=cast(Ruleset, ruleset))
        await game_commands.start(interaction, options, host_seat=seat, turn_seconds=turn_time)

    @app_commands.command(name="move", description=N_("Make a move, e.g. c3-c4 or c4xc6xc8"))
    @app_commands.describe(move=N_("The move in notation: c3-c4, or every landing square c4xc6xc8"))
    async def move(interaction: discord.Interaction, move: str) -> None:
        await game_commands.move_by_text(interaction, move)

    game_commands.add_command(start)
    game_commands.add_command(move)
