"""Discord embeds for lobbies, tables and results (the one render module using discord)."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.engines.base import PlayerId
from bot.engines.base import player_range as count_range
from bot.engines.cards import Card
from bot.i18n import Lang, tr
from bot.texts import TableText

TABLE_IMAGE = "table.png"
EMBED_FIELD_LIMIT = 1024


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_label(card: Card) -> str:
    """``"10♥"``, or ``"🃏"`` for a joker: a card as people read it."""
    if card.is_joker:
        return "🃏"
    text = str(card)
    return text[:-1] + SUIT_SYMBOLS[text[-1]]


def player_name(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    return names.get(player, player)


def lobby_embed(
    title: str,
    colour: int,
    host_name: str,
    seat_names: list[str],
    player_range: tuple[int, int],
    options_line: str,
    lang: Lang,
) -> discord.Embed:
    low, high = player_range
    embed = discord.Embed(
        title=tr(lang, "{title}: new table", title=title),
        colour=colour,
        description=tr(
            lang,
            "A table for {players} players. Host: **{host}**.\n"
            "Press **Join** to take a seat; the host presses **Start**.",
            players=count_range(low, high),
            host=host_name,
        ),
    )
    embed.add_field(
        name=tr(lang, "Players ({n}/{high})", n=len(seat_names), high=high),
        value=_clip("\n".join(f"• {name}" for name in seat_names) or tr(lang, "nobody yet")),
        inline=False,
    )
    if options_line:
        embed.add_field(name=tr(lang, "Options"), value=_clip(options_line), inline=False)
    return embed


def table_embed(
    title: str, colour: int, text: TableText, footer: str, *, with_image: bool = True
) -> discord.Embed:
    embed = discord.Embed(title=title, colour=colour, description=text.description)
    for name, value in text.fields:
        embed.add_field(name=name, value=_clip(value), inline=False)
    if with_image:
        embed.set_image(url=f"attachment://{TABLE_IMAGE}")
    if footer:
        embed.set_footer(text=footer)
    return embed


def notice_embed(title: str, colour: int, description: str) -> discord.Embed:
    return discord.Embed(title=title, colour=colour, description=description)


def _clip(text: str) -> str:
    if len(text) <= EMBED_FIELD_LIMIT:
        return text
    return text[: EMBED_FIELD_LIMIT - 1] + "…"
