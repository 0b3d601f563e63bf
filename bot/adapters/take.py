"""TAKE on Discord: the table of everyone's runs, and a hand panel offering only legal
moves: draw, then pick cards and confirm a meld, an add (a take is named as one before
you confirm it) or the discard that ends the turn."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Literal

import discord
from discord import app_commands

from bot.adapters.base import GameAdapter
from bot.engines.base import Outcome, PlayerId
from bot.engines.cards import Card
from bot.engines.take import (
    ENGINE,
    MoveOption,
    TakeAction,
    TakeOptions,
    TakeState,
    TakeView,
    parse_action,
)
from bot.i18n import N_, Lang, plural, tr
from bot.render.embeds import card_label, player_name
from bot.render.take import hand_order, last_action_sentence, render_panel, render_table
from bot.render.text import number_text, signed
from bot.texts import ActionButton, PanelSelect, Picks, PrivatePanel, TableText

if TYPE_CHECKING:
    from bot.play.game_commands import GameCommands

CARDS, MOVE = "cards", "move"
"""Keys of the hand panel's selects."""
MOST_OPTIONS = 25
MOST_DISCARD_BUTTONS = 12
"""Discard buttons a panel holds beside its two selects, Confirm and Refresh (5 rows)."""

RULES = N_(
    """\
**Goal:** reach the target score over several deals. Runs you own at the end of a \
deal score their cards (2–9: 5, 10–K: 10, A: 15, joker: 20); \
cards left in your hand count against you.
**Your turn:** draw from the stock or take the discard, then lay down **runs** (3+ \
cards of one suit in sequence; ace low or high, not both; a joker stands for one card \
and keeps it), add cards to any run on the table, and end by discarding.
**Take:** adding to someone else's run makes it yours, and with it its points. \
Example: Alice owns 5♥ 6♥ 7♥; you add 8♥ and take all four. A 13-card run is \
**locked** and can't be taken.
**Discards:** not the card you just took, and never a card that could go on the table.
**My hand** opens your panel: draw, pick cards and confirm each meld or add, then \
press the card to discard."""
)


def card_values(hand: Sequence[Card]) -> list[tuple[str, Card]]:
    """A unique select value per card in hand (``JK.0``, ``JK.1`` for two jokers)."""
    seen: Counter[Card] = Counter()
    values = []
    for card in hand:
        values.append((f"{card}.{seen[card]}", card))
        seen[card] += 1
    return values


def describe(option: MoveOption, names: Mapping[PlayerId, str], lang: Lang) -> str:
    """The move in words, for its select option and confirm button."""
    cards = " ".join(card_label(card) for card in option.cards)
    action = parse_action(option.action)
    if option.kind == "draw":
        if action.source == "stock":
            return tr(lang, "Draw from the stock")
        return tr(lang, "Take the discard")
    if option.kind == "discard":
        return tr(lang, "Discard {cards} (ends your turn)", cards=cards)
    joker = card_label(action.jokers[0]) if action.jokers else None
    if option.kind == "meld":
        if joker is None:
            return tr(lang, "Meld {cards}", cards=cards)
        return tr(lang, "Meld {cards} (joker as {joker})", cards=cards, joker=joker)
    runs = " + ".join(tr(lang, "run {id}", id=run) for run in action.runs)
    if option.takes_from:
        owners = ", ".join(player_name(p, names) for p in option.takes_from)
        if joker is None:
            return tr(
                lang,
                "TAKE {runs} from {owners} with {cards}",
                runs=runs,
                owners=owners,
                cards=cards,
            )
        return tr(
            lang,
            "TAKE {runs} from {owners} with {cards} (joker as {joker})",
            runs=runs,
            owners=owners,
            cards=cards,
            joker=joker,
        )
    if joker is None:
        return tr(lang, "Add {cards} to {runs}", cards=cards, runs=runs)
    return tr(lang, "Add {cards} to {runs} (joker as {joker})", cards=cards, runs=runs, joker=joker)


class TakeAdapter(GameAdapter[TakeState, TakeAction, TakeView]):
    engine = ENGINE
    colour = 0x2980B9
    rules_summary = RULES
    option_labels: ClassVar[Mapping[str, str]] = {
        "hand_size": N_("Cards per player"),
        "target": N_("Target score"),
        "deck": N_("Deck"),
    }
    tagline = N_("A rummy of runs where adding to someone else's run takes it from them.")

    def table_buttons(self, view: TakeView, lang: Lang) -> list[ActionButton]:
        return []

    def parse_action(self, key: str) -> TakeAction:
        return parse_action(key)

    render_table = staticmethod(render_table)

    render_private = staticmethod(render_panel)

    def table_text(self, view: TakeView, names: Mapping[PlayerId, str], lang: Lang) -> TableText:
        turn = player_name(view.to_act, names) if view.to_act else tr(lang, "nobody")
        status = tr(
            lang,
            "Deal {hand} · target {target}. **{name}** draws."
            if view.phase == "draw"
            else "Deal {hand} · target {target}. **{name}** plays.",
            hand=view.hand,
            target=view.target,
            name=turn,
        )
        piles = tr(
            lang,
            "Discard pile: **{top}** ({size}) · stock: {stock}.",
            top=card_label(view.discard_top) if view.discard_top else tr(lang, "empty"),
            size=view.discard_size,
            stock=view.stock_size,
        )
        players = "\n".join(
            ("▶ " if seat.player == view.to_act else "")
            + tr(
                lang,
                "**{name}**: {cards} · laid {laid} · total {total}",
                name=player_name(seat.player, names),
                cards=plural(lang, seat.hand_size, "{n} card", "{n} cards"),
                laid=seat.laid_points,
                total=number_text(seat.total),
            )
            for seat in view.seats
        )
        fields = [(tr(lang, "Players"), players)]
        if view.runs:
            runs = "\n".join(
                f"#{run.id} {player_name(run.owner, names)}: "
                + " ".join(card_label(card) for card in run.stands_for)
                + (" 🔒" if run.locked else "")
                for run in view.runs
            )
            fields.append((tr(lang, "Runs"), runs))
        if view.last is not None:
            fields.append((tr(lang, "Last move"), self._last_line(view, names, lang)))
        if view.results:
            headline, scores = self._last_deal(view, names, lang)
            fields.append((tr(lang, "Last deal"), f"{headline}\n{scores}"))
        return TableText(f"{status}\n{piles}", fields)

    def private_text(self, view: TakeView, lang: Lang) -> str:
        hand = " ".join(card_label(card) for card in hand_order(view.my_hand or []))
        return tr(lang, "Your hand: {cards}", cards=hand or tr(lang, "empty"))

    def private_panel(
        self, view: TakeView, picks: Picks, names: Mapping[PlayerId, str], lang: Lang
    ) -> PrivatePanel:
        lines = [self.private_text(view, lang)]
        moves = view.my_moves or []
        if view.over:
            return PrivatePanel("\n".join([*lines, tr(lang, "The match is over.")]))
        if not moves:
            waiting = player_name(view.to_act, names) if view.to_act else tr(lang, "nobody")
            lines.append(tr(lang, "It's {name}'s turn; this panel follows the game.", name=waiting))
            return PrivatePanel("\n".join(lines))
        if view.phase == "draw":
            lines.append(tr(lang, "Draw a card to start your turn."))
            buttons = [
                ActionButton(describe(option, names, lang), option.action, "primary")
                for option in moves
            ]
            return PrivatePanel("\n".join(lines), [], buttons)
        return self._play_panel(view, picks, names, lang, lines, moves)

    def _play_panel(
        self,
        view: TakeView,
        picks: Picks,
        names: Mapping[PlayerId, str],
        lang: Lang,
        lines: list[str],
        moves: list[MoveOption],
    ) -> PrivatePanel:
        values = card_values(hand_order(view.my_hand or []))[:MOST_OPTIONS]
        by_value = dict(values)
        chosen_values = tuple(value for value in picks.get(CARDS, ()) if value in by_value)
        chosen = sorted(by_value[value] for value in chosen_values)
        fitting = [option for option in moves if chosen and sorted(option.cards) == chosen]
        keys = {option.action for option in fitting}
        picked = next((key for key in picks.get(MOVE, ()) if key in keys), None)
        if picked is None and len(fitting) == 1:
            picked = fitting[0].action
        discards = [option for option in moves if option.kind == "discard"]
        if not chosen:
            lines.append(tr(lang, "Pick cards to meld or add to a run, or press a discard."))
        elif not fitting:
            lines.append(tr(lang, "No move uses exactly these cards; change your pick."))
        selects = [
            PanelSelect(
                CARDS,
                tr(lang, "Pick cards"),
                [(value, card_label(card)) for value, card in values],
                chosen_values,
                max_values=len(values),
            ),
            PanelSelect(
                MOVE,
                tr(lang, "Choose the move"),
                [
                    (option.action, describe(option, names, lang)[:100])
                    for option in fitting[:MOST_OPTIONS]
                ],
                (picked,) if picked else (),
            ),
        ]
        label = next(
            (describe(option, names, lang) for option in fitting if option.action == picked),
            "",
        )
        confirm = ActionButton(
            tr(lang, "Confirm: {move}", move=label)[:80] if picked else tr(lang, "Confirm"),
            picked or "",
            "success",
            not picked,
        )
        buttons = unique_keys([confirm, *discard_buttons(discards, lang)])
        return PrivatePanel("\n".join(lines), selects, buttons)

    def results_text(
        self, view: TakeView, outcome: Outcome, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        scores = view.scores or {}
        ranked = sorted(view.seats, key=lambda seat: outcome.places[seat.player])
        places = "\n".join(
            plural(
                lang,
                scores.get(seat.player, seat.total),
                "**{place}.** {name}: **{total}** point in all",
                "**{place}.** {name}: **{total}** points in all",
                place=outcome.places[seat.player],
                name=player_name(seat.player, names),
                total=number_text(scores.get(seat.player, seat.total)),
            )
            for seat in ranked
        )
        fields = [(tr(lang, "Places"), places)]
        if view.results:  # how the last deal ended, apart from the match totals above
            headline, deal = self._last_deal(view, names, lang, with_totals=False)
            fields.append((tr(lang, "Last deal"), f"{headline}\n{deal}"))
        hands = "\n".join(
            tr(
                lang,
                "Deal {hand}: {scores}",
                hand=result.hand,
                scores=self._hand_line(view, result.scores, names),
            )
            for result in view.results[-10:]
        )
        winners = outcome.winners()
        names_text = ", ".join(player_name(p, names) for p in winners)
        return TableText(
            plural(
                lang,
                len(winners),
                "**{names}** wins the match!",
                "**{names}** win the match!",
                names=names_text,
            ),
            [*fields, (tr(lang, "Deals"), hands)],
        )

    def move_text(
        self,
        key: str,
        before: TakeView,
        after: TakeView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> str:
        if after.last is None or after.hand != before.hand:
            return self._hand_end_text(key, before, after, lang)
        tokens = last_action_sentence(
            after.last, lang, "", [player_name(p, names) for p in after.last.took_from]
        )
        words = [token if isinstance(token, str) else token_label(token) for token in tokens]
        return " ".join(word for word in words if word)

    def _hand_end_text(self, key: str, before: TakeView, after: TakeView, lang: Lang) -> str:
        """The move that ended a deal: going out, or the last draw of a spent stock."""
        result = after.results[-1] if len(after.results) > len(before.results) else None
        action = parse_action(key)
        if result is not None and result.went_out is not None and action.kind == "discard":
            return tr(lang, "went out discarding {card}", card=card_label(action.card))
        return tr(lang, "ended the deal")

    def deal_summary(
        self,
        before: TakeView,
        after: TakeView,
        names: Mapping[PlayerId, str],
        lang: Lang,
    ) -> TableText | None:
        if len(after.results) <= len(before.results):
            return None
        headline, scores = self._last_deal(after, names, lang)
        runs = "\n".join(
            f"#{run.id} {player_name(run.owner, names)}: "
            + " ".join(card_label(card) for card in run.stands_for)
            for run in before.runs
        )
        fields = [(tr(lang, "Scores"), scores), (tr(lang, "Final runs"), runs or "—")]
        return TableText(headline, fields)

    def _last_deal(
        self,
        view: TakeView,
        names: Mapping[PlayerId, str],
        lang: Lang,
        *,
        with_totals: bool = True,
    ) -> tuple[str, str]:
        """How the last finished deal ended, and each seat's score of it and (with
        ``with_totals``) in all."""
        result = view.results[-1]
        if result.went_out is None:
            headline = tr(lang, "Deal {hand} ended: the stock ran out.", hand=result.hand)
        else:
            headline = tr(
                lang,
                "Deal {hand} ended: **{name}** went out.",
                hand=result.hand,
                name=player_name(result.went_out, names),
            )
        scores = "\n".join(
            tr(
                lang,
                "**{name}**: laid {laid} − held {held} = **{score}** · total {total}"
                if with_totals
                else "**{name}**: laid {laid} − held {held} = **{score}**",
                name=player_name(seat.player, names),
                laid=result.laid[seat.player],
                held=result.held[seat.player],
                score=signed(result.scores[seat.player]),
                total=number_text(seat.total),
            )
            for seat in view.seats
        )
        return headline, scores

    def _hand_line(
        self, view: TakeView, scores: Mapping[PlayerId, int], names: Mapping[PlayerId, str]
    ) -> str:
        return ", ".join(
            f"{player_name(p, names)} {signed(points)}" for p, points in scores.items()
        )

    def _last_line(self, view: TakeView, names: Mapping[PlayerId, str], lang: Lang) -> str:
        """The last action as the table image says it, cards as labels."""
        assert view.last is not None
        tokens = last_action_sentence(
            view.last,
            lang,
            player_name(view.last.player, names),
            [player_name(p, names) for p in view.last.took_from],
        )
        return " ".join(token if isinstance(token, str) else token_label(token) for token in tokens)


def discard_buttons(discards: Sequence[MoveOption], lang: Lang) -> list[ActionButton]:
    """One button per card that may be discarded: the turn ends in one click."""
    if len(discards) > MOST_DISCARD_BUTTONS:
        return []
    ordered = hand_order([option.cards[0] for option in discards])
    by_card = {option.cards[0]: option for option in discards}
    return [
        ActionButton(
            tr(lang, "Discard {card}", card=card_label(card)), by_card[card].action, "danger"
        )
        for card in ordered
    ]


def unique_keys(buttons: Sequence[ActionButton]) -> list[ActionButton]:
    """The buttons without any whose key an earlier one has: a key becomes the button's
    custom_id, which Discord requires to be unique in a message (it refuses the whole
    panel otherwise). A picked card that may be discarded makes Confirm the same move
    as its Discard button; Confirm stays and the Discard button goes."""
    seen: set[str] = set()
    kept = []
    for button in buttons:
        if button.key not in seen:
            seen.add(button.key)
            kept.append(button)
    return kept


def token_label(token: tuple[Card, Card | None]) -> str:
    """A card of a sentence as text: ``8♣``, or ``🃏(8♣)`` for a joker standing for 8♣."""
    card, stands_for = token
    if stands_for is None:
        return card_label(card)
    return f"{card_label(card)}({card_label(stands_for)})"


def add_commands(game_commands: GameCommands) -> None:
    """The game's own commands: ``start`` with its options (and ``move`` where typed)."""

    @app_commands.command(name="start", description=N_("Open a TAKE table in this channel"))
    @app_commands.describe(
        turn_time=N_("Seconds per turn before the computer moves for you (0: no clock)"),
        hand_size=N_("Cards dealt to each player (10 only with 2 players)"),
        target=N_("Points that win the match"),
    )
    async def start(
        interaction: discord.Interaction,
        hand_size: Literal[7, 10] = 7,
        target: app_commands.Range[int, 50, 2000] = 500,
        turn_time: app_commands.Range[int, 0, 3600] = 180,
    ) -> None:
        options = partial(TakeOptions, hand_size=hand_size, target=target)
        await game_commands.start(interaction, options, turn_seconds=turn_time)

    game_commands.add_command(start)
