"""The messages a game posts: its lobby, its public table and each player's panel.

Built from the stored table and the engine state; nothing here talks to Discord or
Redis (images are drawn by the render workers passed in).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import discord
from pydantic import BaseModel

from bot.adapters.base import GameAdapter
from bot.ai import LEVELS
from bot.engines.base import PlayerId
from bot.i18n import Lang, tr
from bot.names import shown_name
from bot.play.components import Click, Pick
from bot.play.history import log_button, replay_button
from bot.play.routes import ButtonRoute, button_view, game_button, game_select
from bot.play.verbs import Verb
from bot.render import embeds
from bot.render.workers import RenderWorkers
from bot.table import Table
from bot.table_life import LEVEL_NAMES, MISSED_TURNS_LIMIT, awaited, turn_mentions
from bot.texts import ButtonStyle, Picks, PrivatePanel

RESULTS_COLOUR = 0x2ECC71
CLOSED_COLOUR = 0x95A5A6


@dataclass
class TableMessage:
    """Everything needed to send or edit a table message."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View
    png: bytes | None

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=embeds.TABLE_IMAGE)]


class Messages:
    """Builds one game's lobby, table and panel messages."""

    def __init__(self, adapter: GameAdapter[Any, Any, Any], renderer: RenderWorkers) -> None:
        self.adapter = adapter
        self.engine = adapter.engine
        self.renderer = renderer

    def title(self, lang: Lang) -> str:
        return tr(lang, self.engine.title)

    async def for_table(self, table: Table, rev: int) -> TableMessage:
        """The lobby, or the table once the game has started."""
        if table.state is None:
            return self.lobby(table, rev)
        state = self.engine.State.model_validate(table.state)
        return await self.table(table, state, rev)

    def lobby(self, table: Table, rev: int) -> TableMessage:
        host = table.seat_of(table.host)
        lang = table.lang
        embed = embeds.lobby_embed(
            self.title(lang),
            self.adapter.colour,
            shown_name(host.name) if host else "?",
            [shown_name(seat.name) for seat in table.seats],
            (self.engine.min_players, self.engine.max_players),
            self.adapter.lobby_options(table.options, lang),
            lang,
        )
        embed.add_field(name=tr(lang, "Turn clock"), value=clock_line(table), inline=False)
        waiting = awaited_line(table)
        if waiting:
            embed.add_field(name=tr(lang, "Rematch"), value=waiting, inline=False)
        full = len(table.seats) >= self.engine.max_players
        buttons = [
            *([] if full else [self._button(table, rev, "join", tr(lang, "Join"), "success")]),
            self._button(table, rev, "leave", tr(lang, "Leave"), "secondary"),
            self._button(table, rev, "start", tr(lang, "Start"), "primary"),
            self._button(table, rev, "pings", pings_label(table), "secondary"),
            self._button(table, rev, "rules", tr(lang, "Rules"), "secondary"),
        ]
        if table.held_until is not None and awaited(table):
            buttons.append(self._button(table, rev, "open", tr(lang, "Open seats"), "secondary"))
        if full:
            return TableMessage(None, embed, button_view(buttons), None)
        levels = game_select(
            Pick(self.engine.name, table.gid, rev, "ai"),
            tr(lang, "Add computer player…"),
            [
                discord.SelectOption(
                    label=tr(lang, "Computer player: {level}", level=tr(lang, LEVEL_NAMES[level])),
                    value=level,
                )
                for level in LEVELS
            ],
        )
        return TableMessage(None, embed, button_view(buttons, [levels]), None)

    async def table(self, table: Table, state: BaseModel, rev: int) -> TableMessage:
        names, shown, lang = table.names(), table.shown_names(), table.lang
        public = self.engine.view(state, None)
        png = await self.renderer.run(self.adapter.render_table, public, names, lang)
        footer = tr(lang, "Game id for support: {gid}", gid=table.gid)
        if self.engine.is_over(state):
            outcome = self.engine.outcome(state)
            text = self.adapter.results_text(public, outcome, shown, lang)
            title = tr(lang, "{title}: results", title=self.adapter.table_title(public, lang))
            embed = embeds.table_embed(title, RESULTS_COLOUR, text, footer)
            return TableMessage(None, embed, self._table_view(table, rev, public, True), png)
        text = self.adapter.table_text(public, shown, lang)
        title = self.adapter.table_title(public, lang)
        embed = embeds.table_embed(title, self.adapter.colour, text, footer)
        self._add_clock_and_events(embed, table)
        return TableMessage(
            turn_mentions(self.engine.to_act(state), table),
            embed,
            self._table_view(table, rev, public, False),
            png,
        )

    def _add_clock_and_events(self, embed: discord.Embed, table: Table) -> None:
        """The turn deadline as a Discord timestamp (every client counts it down live),
        and the last few events."""
        lang = table.lang
        if table.turn_deadline is not None:
            embed.add_field(
                name=tr(lang, "Turn clock"),
                value=tr(lang, "The turn ends <t:{at}:R>.", at=int(table.turn_deadline)),
                inline=False,
            )
        if table.events:
            lines = [tr(lang, event.template, **event.params) for event in table.events]
            embed.add_field(name=tr(lang, "Just now"), value="\n".join(lines), inline=False)
        missed = missed_turns_lines(table, lang)
        if missed:
            embed.add_field(name=tr(lang, "Missed turns"), value="\n".join(missed), inline=False)

    async def panel(
        self,
        table: Table,
        rev: int,
        state: BaseModel,
        player: PlayerId,
        picks: Picks,
        lang: Lang,
        notice: str = "",
        *,
        expires: float,
    ) -> TableMessage:
        """The player's private panel in their language: text, selects, buttons, image,
        and until when it updates itself (``expires``, Unix time)."""
        view = self.engine.view(state, player)
        panel = self.adapter.private_panel(view, picks, table.shown_names(), lang)
        png = await self.renderer.run(self.adapter.render_private, view, table.names(), lang, picks)
        embed = self._panel_embed(panel, lang, notice)
        seat = table.seat_of(player)
        if seat is not None and seat.missed:
            (line,) = missed_turns_lines(table.model_copy(update={"seats": [seat]}), lang)
            embed.add_field(name=tr(lang, "Missed turns"), value=line, inline=False)
        embed.add_field(
            name=tr(lang, "Live panel"),
            value=tr(
                lang,
                "Updates itself until <t:{at}:t>; after that, open a fresh one with **{hand}**.",
                at=int(expires),
                hand=tr(lang, self.adapter.hand_label),
            ),
            inline=False,
        )
        if png is not None:
            embed.set_image(url=f"attachment://{embeds.TABLE_IMAGE}")
        return TableMessage(None, embed, self._panel_view(table, rev, panel, lang), png)

    def rules(self, lang: Lang) -> discord.Embed:
        """The game's rules summary, privately, in the reader's language."""
        return embeds.notice_embed(
            tr(lang, "{title}: rules", title=self.title(lang)),
            self.adapter.colour,
            tr(lang, self.adapter.rules_summary),
        )

    def closed(self, table: Table, reason: str) -> discord.Embed:
        """The embed a table message is edited to when its game is gone."""
        return embeds.notice_embed(self.title(table.lang), CLOSED_COLOUR, reason)

    def _panel_embed(self, panel: PrivatePanel, lang: Lang, notice: str) -> discord.Embed:
        text = f"**{notice}**\n\n{panel.text}" if notice else panel.text
        # Named as the button that opens it ("My hand", "Move", "My piles").
        title = tr(
            lang,
            "{title}: {panel}",
            title=self.title(lang),
            panel=tr(lang, self.adapter.hand_label),
        )
        return embeds.notice_embed(title, self.adapter.colour, text)

    def _panel_view(
        self, table: Table, rev: int, panel: PrivatePanel, lang: Lang
    ) -> discord.ui.View:
        selects = [
            game_select(
                Pick(self.engine.name, table.gid, rev, spec.key),
                spec.placeholder,
                [
                    discord.SelectOption(label=label, value=value, default=value in spec.chosen)
                    for value, label in spec.options
                ],
                max_values=min(spec.max_values, len(spec.options)),
            )
            for spec in panel.selects
            if spec.options
        ]
        buttons = [
            self._button(
                table, rev, "do", spec.label, spec.style, arg=spec.key, disabled=spec.disabled
            )
            for spec in panel.buttons
        ]
        # An ephemeral panel can't update itself when others move: Refresh redraws it.
        buttons.append(self._button(table, rev, "redraw", tr(lang, "Refresh"), "secondary"))
        return button_view(buttons, selects)

    def _table_view(self, table: Table, rev: int, public: Any, over: bool) -> discord.ui.View:
        """A running game's moves, My hand and Log; a finished one's Rematch and Replay
        only (no greyed-out moves left to puzzle over)."""
        lang = table.lang
        if over:
            rematch = self._button(table, rev, "rematch", tr(lang, "Rematch"), "success")
            view = button_view([rematch])
            view.add_item(replay_button(table.gid, lang))
            return view
        buttons = [
            self._button(table, rev, "act", spec.label, spec.style, arg=spec.key)
            for spec in self.adapter.table_buttons(public, lang)
        ]
        hand = tr(lang, self.adapter.hand_label)
        buttons.append(self._button(table, rev, "hand", hand, "primary"))
        view = button_view(buttons)
        view.add_item(log_button(table.gid, lang))
        return view

    def replay_view(self, finished: Table) -> discord.ui.View:
        """A finished game's results once its Rematch has gone: Replay alone."""
        view = discord.ui.View(timeout=None)
        view.add_item(replay_button(finished.gid, finished.lang))
        return view

    def ping_view(self, table: Table) -> discord.ui.View:
        """The button a pinged player needs next: their private panel (draughts: Move)."""
        hand = tr(table.lang, self.adapter.hand_label)
        return button_view([self._button(table, 0, "hand", hand, "primary")])

    def invitation_view(self, table: Table) -> discord.ui.View:
        """The button an invited player needs: Join, to take their seat in the rematch."""
        join = tr(table.lang, "Join")
        return button_view([self._button(table, 0, "join", join, "success")])

    def _button(
        self,
        table: Table,
        rev: int,
        verb: Verb,
        label: str,
        style: ButtonStyle,
        *,
        arg: str = "",
        disabled: bool = False,
    ) -> ButtonRoute:
        click = Click(self.engine.name, table.gid, rev, verb, arg)
        return game_button(click, label, style, disabled=disabled)


def pings_label(table: Table) -> str:
    """The lobby's switch for turn pings, saying what it is now."""
    if table.pings:
        return tr(table.lang, "🔔 Turn pings: on")
    return tr(table.lang, "🔕 Turn pings: off")


def awaited_line(table: Table) -> str:
    """A rematch lobby's word on the invited people not seated yet ("" when none is
    awaited). Mentions in an embed notify nobody."""
    people = awaited(table)
    if not people:
        return ""
    waiting = tr(
        table.lang,
        "Waiting for {players}; the game begins as soon as they have all joined.",
        players=", ".join(f"<@{player}>" for player in people),
    )
    if table.held_until is None:
        return waiting
    held = tr(
        table.lang,
        "Their seats are held for them until {time}, unless the host opens them.",
        time=f"<t:{int(table.held_until)}:t>",
    )
    return f"{waiting}\n{held}"


def clock_line(table: Table) -> str:
    """The lobby's word on the turn clock."""
    if not table.turn_seconds:
        return tr(table.lang, "No turn clock.")
    return tr(
        table.lang,
        "{seconds} s per turn; then the computer moves for you.",
        seconds=table.turn_seconds,
    )


def missed_turns_lines(table: Table, lang: Lang) -> list[str]:
    """A line for each person who let the clock run out on their last turns, until they
    act: how many in a row, and what happens at the limit."""
    return [
        tr(
            lang,
            "⏰ **{name}**: {n} of {limit} in a row; at {limit} a computer takes the seat.",
            name=shown_name(seat.name),
            n=seat.missed,
            limit=MISSED_TURNS_LIMIT,
        )
        for seat in table.seats
        if seat.missed and not seat.is_computer
    ]
