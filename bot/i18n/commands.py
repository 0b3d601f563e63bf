"""Slash command names and descriptions in German, through discord.py's translator.

The commands are declared in English (Discord's canonical names); when the bot
syncs them, discord.py asks this translator for each locale, and Discord shows
German users the German names and descriptions. Descriptions come from the
German catalogue; names, option names and choice names from the catalogue's names (Discord
wants names lowercase without spaces).
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes

from bot.i18n import lang_of, tr
from bot.i18n.german import catalogue

NAME_LOCATIONS = frozenset(
    {
        TranslationContextLocation.command_name,
        TranslationContextLocation.group_name,
        TranslationContextLocation.parameter_name,
    }
)


class CommandTranslator(app_commands.Translator):
    """German for German clients; every other locale sees the English commands."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: TranslationContextTypes,
    ) -> str | None:
        if lang_of(locale) != "de":
            return None
        if context.location in NAME_LOCATIONS:
            return catalogue().names.get(string.message)
        return german_text(string)


def german_text(string: app_commands.locale_str) -> str | None:
    """The German of a description or choice name. A description built from a
    template (``locale_str(text, template=..., params=...)``) is translated from
    its template, with its parameters translated where the catalogue knows them."""
    template = string.extras.get("template", string.message)
    if template not in catalogue().texts:
        return None
    params = {key: tr("de", str(value)) for key, value in string.extras.get("params", {}).items()}
    return tr("de", template, **params)
