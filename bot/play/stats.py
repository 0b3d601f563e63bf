"""`/stats [user]` and `/leaderboard <game>`: the server's record of finished games."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engines.base import GameError
from bot.i18n import N_, Lang, lang_of, tr
from bot.names import shown_name
from bot.play.errors import answering_errors
from bot.play.interactions import public_lang
from bot.storage.stats import GameStats, PlayerStats
from bot.tournament.seasons import ALL_TIME, season_by_id, season_of

if TYPE_CHECKING:
    from bot.play.shared import Shared

Interaction = discord.Interaction[Any]
COLOUR = 0xF1C40F
NO_GAMES_YET = N_("No finished games here yet.")
RATING_NOTE = N_(
    "Ratings start at 1000 and move with each result; they are cautious, so they rise "
    "as the bot grows sure of your level (about 1400 for a player known to be average)."
)


def stats_line(title: str, stats: GameStats, lang: Lang) -> str:
    average = f"{stats.average_place:.2f}" if stats.average_place is not None else "–"
    line = tr(
        lang,
        "**{title}**: {played} played · {wins} won · average place {average}",
        title=title,
        played=stats.played,
        wins=stats.wins,
        average=average,
    )
    if stats.rating is None:
        return line
    return line + tr(lang, " · rating **{rating}**", rating=f"{stats.rating:.0f}")


def stats_text(stats: PlayerStats, titles: dict[str, str], lang: Lang) -> str:
    if not stats.overall.played:
        return tr(lang, NO_GAMES_YET)
    lines = [stats_line(tr(lang, "All games"), stats.overall, lang)]
    lines += [
        stats_line(tr(lang, titles.get(game, game)), game_stats, lang)
        for game, game_stats in sorted(stats.games.items())
        if game_stats.played
    ]
    return "\n".join(lines)


def stats_commands(shared: Shared) -> list[app_commands.Command[Any, Any, Any]]:
    """The two commands, bound to ``bot``'s stats store and games."""

    def titles() -> dict[str, str]:
        return {name: game_commands.engine.title for name, game_commands in shared.games.items()}

    @app_commands.command(name="stats", description=N_("Games played, wins and ratings here"))
    @app_commands.describe(player=N_("Whose stats (default: yours)"))
    @app_commands.guild_only()
    async def stats(interaction: Interaction, player: discord.Member | None = None) -> None:
        async with answering_errors(interaction):
            who = player or interaction.user
            if interaction.guild_id is None:
                raise GameError("Stats are kept per server.")
            record = await shared.stats.player(interaction.guild_id, str(who.id))
            lang = public_lang(interaction)
            embed = discord.Embed(
                title=tr(lang, "{name}: stats", name=shown_name(who.display_name)),
                description=stats_text(record, titles(), lang),
                colour=COLOUR,
            )
            if any(game.rating is not None for game in record.games.values()):
                embed.set_footer(text=tr(lang, RATING_NOTE))
            await interaction.response.send_message(embed=embed)

    @app_commands.command(name="leaderboard", description=N_("The best rated players of a game"))
    @app_commands.describe(
        game=N_("Which game"),
        season=N_("Which season (default: the current one; all: all-time)"),
    )
    @app_commands.guild_only()
    async def leaderboard(interaction: Interaction, game: str, season: str | None = None) -> None:
        async with answering_errors(interaction):
            if game not in shared.games:
                raise GameError("I don't host a game called {game!r}; see `/help`.", game=game)
            if interaction.guild_id is None:
                raise GameError("Leaderboards are kept per server.")
            shown = await season_shown(shared, interaction.guild_id, season)
            rows = await shared.stats.leaderboard(interaction.guild_id, game, season=shown)
            lang = public_lang(interaction)
            lines = [
                tr(
                    lang,
                    "**{place}.** {name}: **{rating}** ({played} played, {wins} won)",
                    place=place,
                    name=shown_name(row.name),
                    rating=f"{row.rating:.0f}",
                    played=row.played,
                    wins=row.wins,
                )
                for place, row in enumerate(rows, start=1)
            ]
            title = tr(lang, shared.games[game].engine.title)
            heading = tr(lang, "{title}: leaderboard", title=title)
            if shown is not None:
                heading = tr(lang, "{heading} · season {season}", heading=heading, season=shown)
            embed = discord.Embed(
                title=heading,
                description="\n".join(lines) or tr(lang, NO_GAMES_YET),
                colour=COLOUR,
            )
            if rows:
                embed.set_footer(text=tr(lang, RATING_NOTE))
            await interaction.response.send_message(embed=embed)

    @leaderboard.autocomplete("game")
    async def game_choices(
        interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        titles = {
            name: tr(lang, game_commands.engine.title)
            for name, game_commands in shared.games.items()
        }
        wanted = current.lower()
        return [
            app_commands.Choice(name=title, value=name)
            for name, title in titles.items()
            if wanted in name or wanted in title.lower()
        ]

    @leaderboard.autocomplete("season")
    async def season_choices(
        interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        known = await shared.stats.seasons(interaction.guild_id or 0)
        return [
            app_commands.Choice(name=season, value=season)
            for season in [*known, ALL_TIME]
            if current.lower() in season
        ][:25]

    return [stats, leaderboard]


async def season_shown(shared: Shared, guild_id: int, asked: str | None) -> str | None:
    """The season a leaderboard shows: the one asked for (``all``: all-time, None), else
    the server's current season, else all-time."""
    if asked is not None:
        if asked == ALL_TIME:
            return None
        try:
            return season_by_id(asked).id
        except ValueError as error:
            raise GameError("That is no season; try `2026-03`, `2026-Q1` or `all`.") from error
    server = await shared.guild_settings.get(guild_id)
    if server.season == "none":
        return None
    day = datetime.fromtimestamp(await shared.clock.now(), UTC).date()
    return season_of(day, server.season).id
