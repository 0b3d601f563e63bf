"""Escalation on Discord: the table image, and a private hand panel where a player picks
cards in a select menu, then plays them or takes the pile."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands

from bot.adapters.base import GameAdapter
from bot.engines.base import IllegalAction, Outcome, PlayerId
from bot.engines.cards import Card
from bot.engines.escalation import (
    ENGINE,
    DealResultView,
    EscalationAction,
    EscalationOptions,
    EscalationState,
    EscalationView,
    PlayView,
    beats,
    is_pass_through,
    parse_action,
    play,
    play_value,
)
from bot.i18n import N_, Lang, plural, tr
from bot.render.embeds import card_label, player_name
from bot.render.escalation import DIRECTIONS, render_panel, render_table
from bot.render.text import signed
from bot.texts import ActionButton, PanelSelect, Picks, PrivatePanel, TableText

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands

CARDS = "cards"
"""The key of the hand panel's card picker."""

RULES = N_(
    """\
**Goal:** get rid of your cards; the others pay you for what they still hold.
**Your turn:** play one card, or several of equal value, worth more in total than \
the value in force. Values: A 14, K 13, Q 12, J 11, 10–7 as printed; 4, 5 and 6 are \
all worth 6 and mix freely (4+6+5 is 18). A **2** or **3** is always allowed, alone: \
it passes the value on unchanged, and a 3 also reverses the direction. Can't or won't \
play? **Take the pile**: the round's cards go face down onto your penalty stack and \
you lead the next round with anything. Refill to 6 cards from the stock after playing.
**Example:** J is in force (11). You may beat it with Q, or 7+7 (14), or pass it on \
with a 2; a 10 won't do.
**End:** when the stock is out and someone plays their last card. Everyone pays the \
winner a chip per card in hand and in their penalty stack.
**My hand** opens your private panel: pick cards in the menu, then Play."""
)


def direction_text(direction: str, lang: Lang) -> str:
    return tr(lang, DIRECTIONS.get(direction, direction))


def cards_label(cards: Sequence[Card]) -> str:
    return " ".join(card_label(card) for card in cards)


def judge_play(cards: Sequence[Card], view: EscalationView, lang: Lang) -> tuple[bool, str]:
    """Whether the pick may be played now, and a line telling the player, before they
    press Play, what it would do (or why it can't be played)."""
    try:
        value = play_value(cards)
    except IllegalAction as refusal:
        return False, "✗ " + tr(lang, refusal.template, **refusal.params)
    leading = view.must_lead or view.value_in_force is None
    if is_pass_through(cards[0]):
        hand = view.my_hand or []
        if leading and any(not is_pass_through(card) for card in hand):
            return False, "✗ " + tr(
                lang,
                "Lead an ordinary card or set: a 2 or 3 may lead only when you hold nothing else.",
            )
        if cards[0].rank == 3:
            effect = tr(
                lang,
                "{cards} passes the value on and reverses direction.",
                cards=cards_label(cards),
            )
        else:
            effect = tr(lang, "{cards} passes the value on.", cards=cards_label(cards))
        return True, "✓ " + effect
    if view.value_in_force is None:
        return True, "✓ " + tr(lang, "Leads at {value}.", value=value)
    if beats(cards, view.value_in_force):
        return True, "✓ " + tr(
            lang, "{value} beats {in_force}.", value=value, in_force=view.value_in_force
        )
    return False, "✗ " + tr(
        lang, "{value} doesn't beat {in_force}.", value=value, in_force=view.value_in_force
    )


def round_text(plays: Sequence[PlayView], names: Mapping[PlayerId, str]) -> str:
    """Who played what this round, oldest first: "Alice 9♥ 9♠ (18) → Bob 2♣ (18)"."""
    return " → ".join(
        f"{player_name(play.player, names)} {cards_label(play.cards)} ({play.value})"
        for play in plays
    )


def deal_line(result: DealResultView, names: Mapping[PlayerId, str], lang: Lang) -> str:
    """One deal of the results: "Deal 1: Alice won; Bernd −27, Chloe −9"."""
    payments = ", ".join(
        f"{player_name(player, names)} {signed(chips)}"
        for player, chips in sorted(result.chips.items(), key=lambda item: item[1])
        if player != result.winner
    )
    return tr(
        lang,
        "Deal {deal}: {name} won; {payments}",
        deal=result.deal,
        name=player_name(result.winner, names),
        payments=payments,
    )


class EscalationAdapter(GameAdapter[EscalationState, EscalationAction, EscalationView]):
    engine = ENGINE
    colour = 0xC0392B
    rules_summary = RULES
    option_labels: ClassVar[Mapping[str, str]] = {
        "deals": N_("Number of deals"),
        "deck": N_("Deck"),
    }
    tagline = N_(
        "Beat the value in force with higher sets, or take the pile; 2s and 3s pass it on."
    )

    def table_buttons(self, view: EscalationView, lang: Lang) -> list[ActionButton]:
        return []

    def parse_action(self, key: str) -> EscalationAction:
        # "-" separates too: Play buttons drawn before keys were plain text said play-9H-9S.
        return parse_action(key.replace("-", " "))

    render_table = staticmethod(render_table)

    render_private = staticmethod(render_panel)

    def table_text(
        self, view: EscalationView, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        turn = player_name(view.to_act, names) if view.to_act else tr(lang, "nobody")
        if view.must_lead or view.value_in_force is None:
            task = tr(lang, "**{name}** leads the next round.", name=turn)
        else:
            task = tr(
                lang,
                "**{name}** must beat **{value}**, play a 2 or 3, or take the pile.",
                name=turn,
                value=view.value_in_force,
            )
        status = tr(
            lang,
            "Direction: {direction} · stock: {stock} · deal {deal} of {deals}.",
            direction=direction_text(view.direction, lang),
            stock=view.stock_size,
            deal=view.deal,
            deals=view.deals,
        )
        press = tr(
            lang, "Press **{button}** to see your cards and play.", button=tr(lang, self.hand_label)
        )
        description = f"{task} {status}\n{press}"
        fields = [(tr(lang, "Players"), self._seat_lines(view, names, lang))]
        if view.round:
            fields.append((tr(lang, "This round"), round_text(view.round, names)))
        if view.last_take is not None:
            taker = player_name(view.last_take.player, names)
            took = plural(
                lang,
                view.last_take.count,
                "{name} took {n} card",
                "{name} took {n} cards",
                name=taker,
            )
            fields.append((tr(lang, "Last take"), took))
        if view.results:
            headline, chips = self._last_deal(view, names, lang)
            fields.append((tr(lang, "Last deal"), f"{headline}\n{chips}"))
        return TableText(description, fields)

    def private_text(self, view: EscalationView, lang: Lang) -> str:
        hand = cards_label(view.my_hand or [])
        if not hand:
            return tr(lang, "Your hand is empty.")
        return tr(lang, "Your hand: {cards}", cards=hand)

    def private_panel(
        self, view: EscalationView, picks: Picks, names: Mapping[PlayerId, str], lang: Lang
    ) -> PrivatePanel:
        hand = view.my_hand or []
        held = {str(card) for card in hand}
        chosen = [Card.parse(text) for text in picks.get(CARDS, ()) if text in held]
        my_turn = view.to_act == view.viewer and not view.over
        lines = [self.private_text(view, lang)]
        if view.over:  # nothing left to pick or play
            return PrivatePanel("\n".join([*lines, tr(lang, "The game is over.")]))
        if not my_turn:
            lines.append(tr(lang, "It's not your turn; you can pick cards ready for it."))
        elif view.must_lead or view.value_in_force is None:
            lines.append(tr(lang, "You lead: play any card or set of equal value."))
        else:
            lines.append(
                tr(
                    lang,
                    "Beat **{value}**, play a 2 or 3, or take the pile.",
                    value=view.value_in_force,
                )
            )
        playable = False
        if chosen:
            playable, judgement = judge_play(sorted(chosen), view, lang)
            lines.append(judgement)
        picker = PanelSelect(
            CARDS,
            tr(lang, "Pick the cards to play"),
            [(str(card), card_label(card)) for card in hand],
            tuple(str(card) for card in chosen),
            max_values=len(hand),
        )
        if chosen:
            play_label = tr(lang, "Play {cards}", cards=cards_label(sorted(chosen)))
        else:
            play_label = tr(lang, "Play")
        key = self.action_key(play(*chosen)) if chosen else ""
        # Play and Take are offered only when the engine would accept them.
        can_take = my_turn and not view.must_lead and view.value_in_force is not None
        buttons = [
            ActionButton(play_label[:80], key, "success", disabled=not (my_turn and playable)),
            ActionButton(tr(lang, "Take the pile"), "take", "danger", disabled=not can_take),
        ]
        return PrivatePanel("\n".join(lines), [picker], buttons)

    def results_text(
        self, view: EscalationView, outcome: Outcome, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        scores = view.scores or {seat.player: seat.total for seat in view.seats}
        ranked = sorted(view.seats, key=lambda seat: outcome.places[seat.player])
        places = "\n".join(
            tr(
                lang,
                "**{place}.** {name}: **{chips}** chips",
                place=outcome.places[seat.player],
                name=player_name(seat.player, names),
                chips=signed(scores[seat.player]),
            )
            for seat in ranked
        )
        deals = "\n".join(deal_line(result, names, lang) for result in view.results)
        winners = outcome.winners()
        names_text = ", ".join(player_name(p, names) for p in winners)
        headline = plural(
            lang, len(winners), "**{names}** wins!", "**{names}** win!", names=names_text
        )
        return TableText(
            headline, [(tr(lang, "Places"), places), (tr(lang, "Deals"), deals or "—")]
        )

    def move_text(
        self,
        key: str,
        before: EscalationView,
        after: EscalationView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> str:
        try:
            action = self.parse_action(key)
        except IllegalAction:
            return super().move_text(key, before, after, names, lang)
        if action.kind == "take":
            count = sum(len(play.cards) for play in before.round)
            return plural(lang, count, "took the pile ({n} card)", "took the pile ({n} cards)")
        cards = cards_label(action.cards)
        if len(after.results) > len(before.results):
            return tr(lang, "played {cards} and went out", cards=cards)
        if is_pass_through(action.cards[0]):
            return tr(lang, "played {cards}, passing the value on", cards=cards)
        return tr(lang, "played {cards} ({value})", cards=cards, value=play_value(action.cards))

    def deal_summary(
        self,
        before: EscalationView,
        after: EscalationView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> TableText | None:
        if len(after.results) <= len(before.results):
            return None
        headline, chips = self._last_deal(after, names, lang)
        return TableText(headline, [(tr(lang, "Chips"), chips)])

    def _last_deal(
        self, view: EscalationView, names: Mapping[PlayerId, str], lang: Lang
    ) -> tuple[str, str]:
        """The last finished deal's winner, and each seat's chips of it and in all."""
        result = view.results[-1]
        headline = tr(
            lang,
            "**{name}** went out and wins deal {deal} of {deals}.",
            name=player_name(result.winner, names),
            deal=result.deal,
            deals=view.deals,
        )
        chips = "\n".join(
            tr(
                lang,
                "**{name}**: {chips} this deal · {total} in all",
                name=player_name(seat.player, names),
                chips=signed(result.chips.get(seat.player, 0)),
                total=signed(seat.total),
            )
            for seat in sorted(view.seats, key=lambda seat: -result.chips.get(seat.player, 0))
        )
        return headline, chips

    def _seat_lines(self, view: EscalationView, names: Mapping[PlayerId, str], lang: Lang) -> str:
        return "\n".join(
            ("▶ " if seat.player == view.to_act else "")
            + tr(
                lang,
                "**{name}**: {hand} in hand · {taken} in penalty stack · {chips} chips",
                name=player_name(seat.player, names),
                hand=seat.hand_size,
                taken=seat.penalty_size,
                chips=signed(seat.total),
            )
            for seat in view.seats
        )


def add_commands(game_commands: GameCommands) -> None:
    """The game's own commands: ``start`` with its options (and ``move`` where typed)."""

    @app_commands.command(name="start", description=N_("Open an Escalation table in this channel"))
    @app_commands.describe(
        turn_time=N_("Seconds per turn before the computer moves for you (0: no clock)"),
        deals=N_("How many deals to play, with running totals (1–10)"),
    )
    async def start(
        interaction: discord.Interaction,
        deals: app_commands.Range[int, 1, 10] = 1,
        turn_time: app_commands.Range[int, 0, 3600] = 120,
    ) -> None:
        await game_commands.start(
            interaction, partial(EscalationOptions, deals=deals), turn_seconds=turn_time
        )

    game_commands.add_command(start)
