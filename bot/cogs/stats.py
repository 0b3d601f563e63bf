"""`/stats [user]` and `/leaderboard <game>`: the server's record of finished games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.errors import answering_errors
from bot.engines.base import GameError
from bot.stats import GameStats, PlayerStats

if TYPE_CHECKING:
    from bot.bot import TableBot

Interaction = discord.Interaction[Any]
COLOUR = 0xF1C40F


def stats_line(title: str, stats: GameStats) -> str:
    average = f"{stats.average_place:.2f}" if stats.average_place is not None else "–"
    rating = f" · rating **{stats.rating:.0f}**" if stats.rating is not None else ""
    return (
        f"**{title}**: {stats.played} played · {stats.wins} won · average place {average}{rating}"
    )


def stats_text(stats: PlayerStats, titles: dict[str, str]) -> str:
    if not stats.overall.played:
        return "No finished games here yet."
    lines = [stats_line("All games", stats.overall)]
    lines += [
        stats_line(titles.get(game, game), game_stats)
        for game, game_stats in sorted(stats.games.items())
        if game_stats.played
    ]
    return "\n".join(lines)


def stats_commands(bot: TableBot) -> list[app_commands.Command[Any, Any, Any]]:
    """The two commands, bound to ``bot``'s stats store and games."""

    def titles() -> dict[str, str]:
        return {name: cog.engine.title for name, cog in bot.games.items()}

    @app_commands.command(name="stats", description="Games played, wins and ratings here")
    @app_commands.describe(player="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(interaction: Interaction, player: discord.Member | None = None) -> None:
        async with answering_errors(interaction):
            who = player or interaction.user
            if interaction.guild_id is None:
                raise GameError("Stats are kept per server.")
            record = await bot.stats.player(interaction.guild_id, str(who.id))
            embed = discord.Embed(
                title=f"{who.display_name}: stats",
                description=stats_text(record, titles()),
                colour=COLOUR,
            )
            await interaction.response.send_message(embed=embed)

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.guild_only()
    async def leaderboard(interaction: Interaction, game: str) -> None:
        async with answering_errors(interaction):
            if game not in bot.games:
                raise GameError(f"I don't host a game called {game!r}; see `/help`.")
            if interaction.guild_id is None:
                raise GameError("Leaderboards are kept per server.")
            rows = await bot.stats.leaderboard(interaction.guild_id, game)
            lines = [
                f"**{place}.** {row.name}: **{row.rating:.0f}** "
                f"({row.played} played, {row.wins} won)"
                for place, row in enumerate(rows, start=1)
            ]
            embed = discord.Embed(
                title=f"{bot.games[game].engine.title}: leaderboard",
                description="\n".join(lines) or "No finished games here yet.",
                colour=COLOUR,
            )
            await interaction.response.send_message(embed=embed)

    @leaderboard.autocomplete("game")
    async def game_choices(
        interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=cog.engine.title, value=name)
            for name, cog in bot.games.items()
            if current.lower() in name or current.lower() in cog.engine.title.lower()
        ]

    return [stats, leaderboard]
