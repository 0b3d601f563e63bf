"""`/settings …`: a server's settings, seen and changed by members with Manage Server.

Discord hides the group from other members (``default_permissions``), but a server's
owner can change who sees it, so every command checks the permission again. Answers
are private and in the admin's language, and always show the settings as they now are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engines.base import GameError
from bot.i18n import LANGS, N_, Lang, lang_of, language_name, tr
from bot.play.errors import answering_errors
from bot.play.options import check_options
from bot.storage.settings import MAX_PING_AFTER, MAX_TURN_TIME, GuildSettings, Language

if TYPE_CHECKING:
    from bot.play.shared import Shared

Interaction = discord.Interaction[Any]
Change = Callable[[GuildSettings], GuildSettings]
COLOUR = 0x95A5A6

AUTO_LANGUAGE = N_("automatic (the server's language, else the starter's)")
SWITCH_NAMES = {"on": N_("on"), "off": N_("off")}
SEASON_NAMES = {
    "none": N_("none (all-time)"),
    "monthly": N_("monthly"),
    "quarterly": N_("quarterly"),
}
"""`GuildSettings.season`'s values in words."""
SEASON_RATING_NAMES = {
    "carry": N_("carried over from season to season"),
    "restart": N_("from scratch every season"),
}
SAVED = N_("Saved.")


def language_text(lang: Lang, code: Language) -> str:
    """A language setting in ``lang``: automatic, or the language's name."""
    return tr(lang, AUTO_LANGUAGE) if code == "auto" else language_name(lang, code)


def language_choices() -> list[app_commands.Choice[str]]:
    """`/settings language`'s choices: automatic, then every language of the catalogues,
    each named in the reader's language (`bot.i18n.commands`)."""
    languages = [
        app_commands.Choice(
            name=app_commands.locale_str(language_name("en", code), language=code), value=code
        )
        for code in LANGS
    ]
    return [app_commands.Choice(name=AUTO_LANGUAGE, value="auto"), *languages]


def seconds_text(lang: Lang, seconds: int | None) -> str:
    if seconds is None:
        return tr(lang, "the game's default")
    if seconds == 0:
        return tr(lang, "no clock")
    return tr(lang, "{n} s", n=seconds)


def ping_after_text(lang: Lang, seconds: int | None, default: int) -> str:
    """How long the turn waits before the next player is pinged, in ``lang``."""
    if seconds is None:
        return tr(lang, "{value} (the bot's default)", value=ping_after_text(lang, default, 0))
    if seconds == 0:
        return tr(lang, "none, ping at once")
    return tr(lang, "{n} s", n=seconds)


def channels_text(lang: Lang, channels: list[int]) -> str:
    if not channels:
        return tr(lang, "all channels")
    return ", ".join(f"<#{channel}>" for channel in channels)


def settings_text(
    settings: GuildSettings, lang: Lang, titles: Mapping[str, str], ping_default: int
) -> str:
    """Every setting on its own line, in ``lang`` (``titles``: each game's, by name;
    ``ping_default``: the bot's wait before a ping, for a server that set none)."""
    language = language_text(lang, settings.language)
    pings = tr(lang, SWITCH_NAMES["on" if settings.pings else "off"])
    wait = ping_after_text(lang, settings.ping_after, ping_default)
    lines = [
        tr(lang, "Language of public messages: **{value}**", value=language),
        tr(lang, "Ping the next player: **{value}**", value=pings),
        tr(lang, "Wait before a ping: **{value}**", value=wait),
        tr(lang, "Game channels: {value}", value=channels_text(lang, settings.channels)),
        tr(lang, "Leaderboard seasons: **{value}**", value=tr(lang, SEASON_NAMES[settings.season])),
        tr(
            lang,
            "Ratings in a season: **{value}**",
            value=tr(lang, SEASON_RATING_NAMES[settings.season_ratings]),
        ),
        tr(lang, "Turn clocks:"),
    ]
    lines += [
        tr(
            lang,
            "· {title}: **{value}**",
            title=tr(lang, title),
            value=seconds_text(lang, settings.turn_time.get(name)),
        )
        for name, title in titles.items()
    ]
    return "\n".join(lines)


def settings_embed(
    settings: GuildSettings,
    lang: Lang,
    headline: str,
    titles: Mapping[str, str],
    ping_default: int,
) -> discord.Embed:
    text = settings_text(settings, lang, titles, ping_default)
    return discord.Embed(
        title=tr(lang, "Server settings"),
        description=f"{tr(lang, headline)}\n\n{text}",
        colour=COLOUR,
    )


def guild_of(interaction: Interaction) -> int:
    """The server of an admin's interaction; refuses anyone without Manage Server."""
    if interaction.guild_id is None:
        raise GameError("Settings are kept per server.")
    if not interaction.permissions.manage_guild:
        raise GameError("Only members with the Manage Server permission can use `/settings`.")
    return interaction.guild_id


def with_channel(channel_id: int) -> Change:
    def change(settings: GuildSettings) -> GuildSettings:
        if channel_id in settings.channels:
            raise GameError("That channel is listed already.")
        return settings.model_copy(update={"channels": [*settings.channels, channel_id]})

    return change


def without_channel(channel_id: int) -> Change:
    def change(settings: GuildSettings) -> GuildSettings:
        if channel_id not in settings.channels:
            raise GameError("That channel isn't on the list.")
        kept = [channel for channel in settings.channels if channel != channel_id]
        return settings.model_copy(update={"channels": kept})

    return change


def with_turn_time(game: str, seconds: int | None) -> Change:
    def change(settings: GuildSettings) -> GuildSettings:
        clocks = {name: s for name, s in settings.turn_time.items() if name != game}
        if seconds is not None:
            clocks[game] = seconds
        return settings.model_copy(update={"turn_time": clocks})

    return change


def pings_command(shared: Shared) -> app_commands.Command[Any, ..., None]:
    """``/pings on|off``: a player's own turn pings on this server (anyone may)."""

    @app_commands.command(name="pings", description=N_("Your own turn pings on this server"))
    @app_commands.describe(value=N_("on or off"))
    @app_commands.choices(
        value=[app_commands.Choice(name=name, value=code) for code, name in SWITCH_NAMES.items()]
    )
    @app_commands.guild_only()
    async def pings(interaction: Interaction, value: str) -> None:
        async with answering_errors(interaction):
            await shared.rate_limiter.check(interaction.user.id)
            check_options(interaction)
            if interaction.guild_id is None:
                raise GameError("Settings are kept per server.")
            player = str(interaction.user.id)
            await shared.guild_settings.set_pinged(interaction.guild_id, player, value == "on")
            lang = lang_of(interaction.locale)
            answer = (
                N_("Your turn pings are on: the bot mentions you when it's your turn.")
                if value == "on"
                else N_("Your turn pings are off: the bot won't mention you on this server.")
            )
            await interaction.response.send_message(tr(lang, answer), ephemeral=True)

    return pings


def settings_group(shared: Shared) -> app_commands.Group:
    """``/settings`` and its subcommands, bound to ``bot``'s settings store and games."""
    titles = {name: game_commands.engine.title for name, game_commands in shared.games.items()}
    group = app_commands.Group(
        name="settings",
        description=N_("This server's game settings (Manage Server)"),
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    async def answer(interaction: Interaction, change: Change | None) -> None:
        """Check the admin and the options, apply ``change`` (if any), show the settings."""
        guild_id = guild_of(interaction)
        check_options(interaction)
        store = shared.guild_settings
        if change is None:
            settings, headline = await store.get(guild_id), N_("Current settings.")
        else:
            settings, headline = await store.update(guild_id, change), SAVED
        lang, ping_default = lang_of(interaction.locale), shared.limits.timing.ping_after_seconds
        embed = settings_embed(settings, lang, headline, titles, ping_default)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="show", description=N_("Show this server's settings"))
    async def show(interaction: Interaction) -> None:
        async with answering_errors(interaction):
            await answer(interaction, None)

    @group.command(name="language", description=N_("The language of the games' public messages"))
    @app_commands.describe(value=N_("automatic: the server's language, else the starter's"))
    @app_commands.choices(value=language_choices())
    async def language(interaction: Interaction, value: str) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda s: s.model_copy(update={"language": value}))

    @group.command(name="pings", description=N_("Ping the next player when the turn passes"))
    @app_commands.describe(value=N_("on or off"))
    @app_commands.choices(
        value=[app_commands.Choice(name=name, value=code) for code, name in SWITCH_NAMES.items()]
    )
    async def pings(interaction: Interaction, value: str) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda s: s.model_copy(update={"pings": value == "on"}))

    @group.command(
        name="ping_after", description=N_("How long a turn waits before the player is pinged")
    )
    @app_commands.describe(seconds=N_("Seconds (0: ping at once); leave out for the bot's default"))
    async def ping_after(
        interaction: Interaction,
        seconds: app_commands.Range[int, 0, MAX_PING_AFTER] | None = None,
    ) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda s: s.model_copy(update={"ping_after": seconds}))

    @group.command(name="turn_time", description=N_("A game's default turn clock"))
    @app_commands.describe(
        game=N_("Which game"),
        seconds=N_("Seconds per turn (0: no clock); leave out for the game's default"),
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=title, value=name) for name, title in titles.items()]
    )
    async def turn_time(
        interaction: Interaction,
        game: str,
        seconds: app_commands.Range[int, 0, MAX_TURN_TIME] | None = None,
    ) -> None:
        async with answering_errors(interaction):
            await answer(interaction, with_turn_time(game, seconds))

    @group.command(name="channel_add", description=N_("Let a channel host games"))
    @app_commands.describe(channel=N_("The channel"))
    async def channel_add(interaction: Interaction, channel: discord.TextChannel) -> None:
        async with answering_errors(interaction):
            await answer(interaction, with_channel(channel.id))

    @group.command(name="channel_remove", description=N_("Take a channel off the game channels"))
    @app_commands.describe(channel=N_("The channel"))
    async def channel_remove(interaction: Interaction, channel: discord.TextChannel) -> None:
        async with answering_errors(interaction):
            await answer(interaction, without_channel(channel.id))

    @group.command(name="channels_clear", description=N_("Let every channel host games again"))
    async def channels_clear(interaction: Interaction) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda s: s.model_copy(update={"channels": []}))

    @group.command(name="season", description=N_("How long a leaderboard season lasts"))
    @app_commands.describe(value=N_("monthly, quarterly, or none for one all-time leaderboard"))
    @app_commands.choices(
        value=[app_commands.Choice(name=name, value=code) for code, name in SEASON_NAMES.items()]
    )
    async def season(interaction: Interaction, value: str) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda s: s.model_copy(update={"season": value}))

    @group.command(name="season_ratings", description=N_("Whether ratings restart each season"))
    @app_commands.describe(value=N_("carried over, or from scratch every season"))
    @app_commands.choices(
        value=[
            app_commands.Choice(name=name, value=code) for code, name in SEASON_RATING_NAMES.items()
        ]
    )
    async def season_ratings(interaction: Interaction, value: str) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda s: s.model_copy(update={"season_ratings": value}))

    @group.command(name="reset", description=N_("Put every setting back to its default"))
    async def reset(interaction: Interaction) -> None:
        async with answering_errors(interaction):
            await answer(interaction, lambda _: GuildSettings())

    return group
