"""Slash command names and descriptions in every language of the catalogues, through
discord.py's translator.

The commands are declared in English (Discord's canonical names); when the bot syncs
them, discord.py asks this translator for each of Discord's locales, and Discord shows
a client the names and descriptions of its language's catalogue (`lang_of`: ``de`` for
``de``, ``tr`` for ``tr``, ``es`` for both ``es-ES`` and ``es-419``). Descriptions and
choice names are messages of the catalogue; command, option and choice *names* are
messages of the context ``command name`` (`bot.i18n.command_names`), since Discord wants
them lowercase without spaces. A choice made with ``locale_str(name, language=code)`` is
a language, named in the client's language (`language_name`).
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes

from bot.i18n import DEFAULT_LANG, Lang, command_name, lang_of, language_name, tr

NAME_LOCATIONS = frozenset(
    {
        TranslationContextLocation.command_name,
        TranslationContextLocation.group_name,
        TranslationContextLocation.parameter_name,
    }
)


def discord_locales(lang: Lang) -> list[Locale]:
    """Discord's locales whose clients read ``lang``."""
    return [locale for locale in Locale if lang_of(locale) == lang]


class CommandTranslator(app_commands.Translator):
    """Each client's language where a catalogue has it; English commands elsewhere."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: TranslationContextTypes,
    ) -> str | None:
        lang = lang_of(locale)
        if lang == DEFAULT_LANG:
            return None
        if context.location in NAME_LOCATIONS:
            return command_name(lang, string.message)
        return translated_text(lang, string)


def translated_text(lang: Lang, string: app_commands.locale_str) -> str | None:
    """A description or choice name in ``lang``; None where it reads as in English. A
    description built from a template (``locale_str(text, template=..., params=...)``)
    is translated from its template, with its parameters translated where the catalogue
    knows them."""
    if "language" in string.extras:
        return language_name(lang, str(string.extras["language"]))
    template = string.extras.get("template", string.message)
    params = {key: tr(lang, str(value)) for key, value in string.extras.get("params", {}).items()}
    text = tr(lang, template, **params)
    return None if text == tr(DEFAULT_LANG, template, **params) else text
