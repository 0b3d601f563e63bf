"""Give & Take on Discord: the director's Go, the capturer's Give pile / Take pile
choice (made for them after a timeout), and My piles: where the player sits in the
ring, their duet on the table, and their own move's buttons."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands

from bot.adapters.base import GameAdapter
from bot.engines.base import Outcome, PlayerId
from bot.engines.give_and_take import (
    ENGINE,
    DuetView,
    GiveAndTakeAction,
    GiveAndTakeOptions,
    GiveAndTakeState,
    GiveAndTakeView,
    Pile,
    SeatView,
    parse_action,
)
from bot.i18n import N_, Lang, plural, tr
from bot.render.embeds import card_label, player_name
from bot.render.give_and_take import place_reason, render_table, shows_cards
from bot.texts import ActionButton, Picks, PrivatePanel, TableText, TimedDefault

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands

RULES = N_("""\
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
their cards go to the middle. Places follow the order players go out.""")


def seat_line(
    seat: SeatView, view: GiveAndTakeView, names: Mapping[PlayerId, str], lang: Lang
) -> str:
    name = player_name(seat.player, names)
    if seat.out:
        turn = next((e.turn for e in view.eliminated if seat.player in e.players), None)
        if turn is None:
            return tr(lang, "~~{name}~~ out", name=name)
        return tr(lang, "~~{name}~~ out (turn {turn})", name=name, turn=turn)
    return tr(
        lang,
        "{pointer}**{name}**{marks}: give {give} · take {take}",
        pointer="▶ " if seat.player == view.to_act else "",
        name=name,
        marks=" 🎬" if seat.director else "",
        give=seat.give_size,
        take=seat.take_size,
    )


def duet_line(duet: DuetView, names: Mapping[PlayerId, str], lang: Lang) -> str:
    """Whose duet it is, its two cards and their difference (a difference, never a
    sum); the lowest one, which captures, in bold."""
    line = tr(
        lang,
        "{name}: {take} against {give} from {partner}, difference {difference}",
        name=player_name(duet.player, names),
        take=card_label(duet.take_card),
        give=card_label(duet.give_card),
        partner=player_name(duet.partner, names),
        difference=duet.difference,
    )
    return f"**{line}**{tr(lang, ' (the lowest)')}" if duet.lowest else line


def capture_text(view: GiveAndTakeView, capturer: str, lang: Lang) -> str:
    """Who captures how many cards, the question of the pile, and what the bot does if
    the capturer doesn't answer in time (the table's clock says when)."""
    n = view.capture_size
    if view.fight:
        question = tr(
            lang,
            "**{capturer}** captures **{n}** cards after a fight: under the give or the take pile?",
            capturer=capturer,
            n=n,
        )
    else:
        question = tr(
            lang,
            "**{capturer}** captures **{n}** cards: under the give or the take pile?",
            capturer=capturer,
            n=n,
        )
    seat = next((seat for seat in view.seats if seat.player == view.capturer), None)
    if seat is not None and seat.give_size == seat.take_size:
        fallback = tr(
            lang, "If the clock runs out first, the bot picks the give pile (both are as big)."
        )
    elif view.default_pile == "give":
        fallback = tr(
            lang, "If the clock runs out first, the bot picks the smaller: the give pile."
        )
    elif view.default_pile == "take":
        fallback = tr(
            lang, "If the clock runs out first, the bot picks the smaller: the take pile."
        )
    else:
        return question
    return f"{question}\n{fallback}"


def pile_words(pile: Pile, n: int, lang: Lang) -> str:
    """ "put 6 cards under the give pile"."""
    if pile == "give":
        return plural(
            lang, n, "put {n} card under the give pile", "put {n} cards under the give pile"
        )
    return plural(lang, n, "put {n} card under the take pile", "put {n} cards under the take pile")


def go_words(after: GiveAndTakeView, names: Mapping[PlayerId, str], lang: Lang) -> str:
    """What a Go turned up: a capture, a tie, or the end of the game."""
    if after.phase == "choose" and after.capturer is not None:
        return plural(
            lang,
            after.capture_size,
            "pressed Go: {name} captures {n} card",
            "pressed Go: {name} captures {n} cards",
            name=player_name(after.capturer, names),
        )
    lowest = min((duet.difference for duet in after.duets), default=None)
    if after.phase == "go" and after.fight and lowest is not None:
        return tr(lang, "pressed Go: a tie at {lowest}, everyone turns up again", lowest=lowest)
    return tr(lang, "pressed Go")


def ring_lines(
    view: GiveAndTakeView, mine: SeatView, names: Mapping[PlayerId, str], lang: Lang
) -> list[str]:
    """Whose give card completes the viewer's duet, whose duet the viewer's give card
    completes, and the viewer's duet on the table now."""
    left = next((seat.player for seat in view.seats if seat.right == mine.player), None)
    lines = [
        tr(
            lang,
            "Your duet: your take card + **{right}**'s give card. Your give card goes to "
            "**{left}**'s duet.",
            right=player_name(mine.right or mine.player, names),
            left=player_name(left or mine.player, names),
        )
    ]
    duet = next((duet for duet in view.duets if duet.player == mine.player), None)
    if duet is not None:
        lines.append(
            tr(
                lang,
                "Your duet: {take} against {give}, difference **{difference}**{lowest}.",
                take=card_label(duet.take_card),
                give=card_label(duet.give_card),
                difference=duet.difference,
                lowest=tr(lang, " (the lowest)") if duet.lowest else "",
            )
        )
    return lines


def out_line(view: GiveAndTakeView, mine: SeatView, lang: Lang) -> str:
    """The panel once the viewer is out or the game is over: when they went out, or why
    their place."""
    if view.over:
        return tr(lang, "The game is over: {reason}.", reason=place_reason(view, mine, lang))
    turn = next((e.turn for e in view.eliminated if mine.player in e.players), view.turn)
    return tr(lang, "You went out on turn {turn}; the others play on.", turn=turn)


def result_line(
    view: GiveAndTakeView,
    seat: SeatView,
    outcome: Outcome,
    names: Mapping[PlayerId, str],
    lang: Lang,
) -> str:
    """ "**2.** Bernd: went out on turn 5", "**1.** Alice: last one standing (52 cards)"."""
    place, name = outcome.places[seat.player], player_name(seat.player, names)
    reason = place_reason(view, seat, lang)
    if not shows_cards(view, seat):
        return tr(lang, "**{place}.** {name}: {reason}", place=place, name=name, reason=reason)
    return plural(
        lang,
        outcome.scores[seat.player],
        "**{place}.** {name}: {reason} ({n} card)",
        "**{place}.** {name}: {reason} ({n} cards)",
        place=place,
        name=name,
        reason=reason,
    )


def places_rule(view: GiveAndTakeView, lang: Lang) -> str | None:
    """Why a player who went out holding many cards places below one with fewer: those
    out before the end place by when they went out, not by their cards. None when
    nobody placed so (everyone ranked was still in, or went out together at the end)."""
    by_turn = view.eliminated[:-1] if view.ended == "all_out" else view.eliminated
    if not by_turn:
        return None
    return tr(
        lang,
        "Whoever went out earlier places lower, whatever their cards: one empty pile "
        "puts a player out, however full the other.",
    )


class GiveAndTakeAdapter(GameAdapter[GiveAndTakeState, GiveAndTakeAction, GiveAndTakeView]):
    engine = ENGINE
    colour = 0x16A085
    hand_label = N_("My piles")
    hidden_options = frozenset({"director"})
    option_labels: ClassVar[Mapping[str, str]] = {
        "auto": N_("Automatic reveal"),
        "turn_cap": N_("Turn limit"),
        "deck": N_("Deck"),
    }
    rules_summary = RULES
    tagline = N_("A war game in a ring: the lowest duet captures everything on the table.")

    def wants_ping(self, view: GiveAndTakeView) -> bool:
        """The director presses Go at the start of every turn: pinged for the first only."""
        return view.phase != "go" or view.turn == 1

    def table_buttons(self, view: GiveAndTakeView, lang: Lang) -> list[ActionButton]:
        if view.phase == "go":
            return [ActionButton(tr(lang, "Go!"), "go", "primary")]
        if view.phase == "choose":
            seat = next(seat for seat in view.seats if seat.player == view.capturer)
            return [
                ActionButton(
                    tr(lang, "Give pile ({n})", n=seat.give_size),
                    "give",
                    "success" if view.default_pile == "give" else "secondary",
                ),
                ActionButton(
                    tr(lang, "Take pile ({n})", n=seat.take_size),
                    "take",
                    "success" if view.default_pile == "take" else "secondary",
                ),
            ]
        return []

    def parse_action(self, key: str) -> GiveAndTakeAction:
        return parse_action(key)

    render_table = staticmethod(render_table)

    def timed_default(self, view: GiveAndTakeView) -> TimedDefault | None:
        if view.phase != "choose" or view.capturer is None or view.default_pile is None:
            return None
        return TimedDefault(view.capturer, view.default_pile)

    def table_text(
        self, view: GiveAndTakeView, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        turn = tr(lang, "Turn {turn} of at most {cap}", turn=view.turn, cap=view.turn_cap)
        if view.phase == "choose" and view.capturer is not None:
            description = capture_text(view, player_name(view.capturer, names), lang)
        elif view.auto:
            description = tr(lang, "Turns are revealed automatically.")
        elif view.fight and view.director:
            description = tr(
                lang,
                "Fight! A tie for the lowest difference: **{director}** presses Go to turn up "
                "again.",
                director=player_name(view.director, names),
            )
        elif view.director:
            director = player_name(view.director, names)
            description = tr(lang, "Waiting for **{director}** to press Go.", director=director)
        else:
            description = tr(lang, "Waiting for the director to press Go.")
        lines = "\n".join(seat_line(seat, view, names, lang) for seat in view.seats)
        fields = [(tr(lang, "Players"), lines)]
        if view.duets:
            fields.append(
                (
                    tr(lang, "Duets"),
                    "\n".join(duet_line(duet, names, lang) for duet in view.duets),
                )
            )
        middle = plural(
            lang,
            view.leftovers,
            "{n} leftover card · {turn}",
            "{n} leftover cards · {turn}",
            turn=turn,
        )
        fields.append((tr(lang, "Middle"), middle))
        return TableText(description, fields)

    def move_text(
        self,
        key: str,
        before: GiveAndTakeView,
        after: GiveAndTakeView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> str:
        """ "pressed Go: Bernd captures 6 cards", "put 6 cards under the give pile"."""
        action = parse_action(key)
        if action.kind == "go":
            return go_words(after, names, lang)
        return pile_words(action.kind, before.capture_size, lang)

    def private_text(self, view: GiveAndTakeView, lang: Lang) -> str:
        give, take = view.my_give_size or 0, view.my_take_size or 0
        return "\n".join(
            [
                plural(lang, give, "Your give pile: **{n}** card", "Your give pile: **{n}** cards"),
                plural(lang, take, "Your take pile: **{n}** card", "Your take pile: **{n}** cards"),
            ]
        )

    def private_panel(
        self, view: GiveAndTakeView, picks: Picks, names: Mapping[PlayerId, str], lang: Lang
    ) -> PrivatePanel:
        """Where the viewer sits in the ring, their duet this turn, and their own move's
        buttons (Go for the director, the piles for the capturer)."""
        mine = next((seat for seat in view.seats if seat.player == view.viewer), None)
        if mine is None:
            return PrivatePanel(tr(lang, "You are not playing in this game."))
        if view.over or mine.out:
            return PrivatePanel(out_line(view, mine, lang))
        lines = [self.private_text(view, lang), *ring_lines(view, mine, names, lang)]
        buttons = [] if view.to_act != mine.player else self.table_buttons(view, lang)
        return PrivatePanel("\n".join(lines), [], buttons)

    def results_text(
        self,
        view: GiveAndTakeView,
        outcome: Outcome,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> TableText:
        ranked = sorted(view.seats, key=lambda seat: outcome.places[seat.player])
        lines = [result_line(view, seat, outcome, names, lang) for seat in ranked]
        rule = places_rule(view, lang)
        if rule is not None:
            lines.append(f"*{rule}*")
        endings = {
            "last_standing": tr(lang, "the last player standing wins"),
            "all_out": tr(lang, "everyone left went out at once: most cards wins"),
            "turn_cap": tr(
                lang,
                "the turn limit ({cap}) was reached: most cards wins",
                cap=view.turn_cap,
            ),
        }
        winners = ", ".join(player_name(p, names) for p in outcome.winners())
        how = endings.get(view.ended or "", "")
        if len(outcome.winners()) == 1:
            title = tr(lang, "**{winners}** wins! ({how})", winners=winners, how=how)
        else:
            title = tr(lang, "**{winners}** win! ({how})", winners=winners, how=how)
        return TableText(title, [(tr(lang, "Places"), "\n".join(lines))])


def add_commands(game_commands: GameCommands) -> None:
    """The game's own commands: ``start`` with its options (and ``move`` where typed)."""

    @app_commands.command(name="start", description=N_("Open a Give & Take table in this channel"))
    @app_commands.describe(
        turn_time=N_("Seconds per turn before the computer moves for you (0: no clock)"),
        auto=N_("Reveal every turn without waiting for the director's Go"),
        turn_cap=N_("After this many turns the player with most cards wins"),
    )
    async def start(
        interaction: discord.Interaction,
        auto: bool = False,
        turn_cap: app_commands.Range[int, 10, 2000] = 500,
        turn_time: app_commands.Range[int, 0, 3600] = 60,
    ) -> None:
        options = partial(
            GiveAndTakeOptions, auto=auto, turn_cap=turn_cap, director=str(interaction.user.id)
        )
        await game_commands.start(interaction, options, turn_seconds=turn_time)

    game_commands.add_command(start)
