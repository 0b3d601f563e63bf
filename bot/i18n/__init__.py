"""One translation layer for every word the bot shows, on gettext catalogues.

A message's English text is its msgid: code writes
``tr(lang, "It's **{name}**'s turn.", name=name)``, and the catalogue of ``lang``,
``bot/i18n/locales/<lang>/LC_MESSAGES/messages.po``, gives its translation. A message
missing there falls back to English. `plural` picks the form by the language's own
plural rule (``ngettext``), and `N_` marks a template translated later. The template
``bot/i18n/locales/messages.pot`` is extracted from the code with Babel (``babel.cfg``,
`bot.i18n.extract`); docs/translating.md says how to add or correct a language, and
`tests/test_i18n.py` checks every catalogue against the code.

A language is the name of its catalogue's folder (a language code: ``de``, ``tr``,
``es``); adding one is adding its ``.po`` file. The ``.po`` files ship with the package
and are compiled in memory on first use.

Engines stay free of this module: their errors carry an English template and its
parameters (`GameError`), which the Discord side translates for the player who caused them. This
package imports nothing else of the bot.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

Lang = str
"""A language: ``en`` or the code of a catalogue in `LOCALES`."""
DEFAULT_LANG: Lang = "en"
"""The language of the code's own texts, and of every text a catalogue lacks."""
LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"
COMMAND_NAME = "command name"
"""The context (``msgctxt``) of slash command, option and choice names."""


def catalogue_path(lang: Lang) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _catalogue_langs() -> tuple[Lang, ...]:
    return tuple(
        sorted(path.name for path in LOCALES.iterdir() if catalogue_path(path.name).is_file())
    )


LANGS: tuple[Lang, ...] = (DEFAULT_LANG, *_catalogue_langs())
"""English, then every language with a catalogue."""


@cache
def translations(lang: Lang) -> gettext.NullTranslations:
    """``lang``'s catalogue, compiled in memory; English (and an unknown language) get
    the texts as written."""
    if lang not in LANGS or lang == DEFAULT_LANG:
        return gettext.NullTranslations()
    with catalogue_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


@cache
def texts(lang: Lang) -> dict[str, str]:
    """``lang``'s catalogue as English → translation, for checks over every text (the
    fonts draw each letter): a plural message gives its first form for the singular
    msgid and its last for the plural one; command names are left out."""
    if lang not in LANGS or lang == DEFAULT_LANG:
        return {}
    with catalogue_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    found: dict[str, str] = {}
    for message in catalog:
        if not message.id or message.context == COMMAND_NAME or not message.string:
            continue
        if isinstance(message.id, str) and isinstance(message.string, str):
            found[message.id] = message.string
        elif not isinstance(message.id, str) and not isinstance(message.string, str):
            found[message.id[0]] = message.string[0]
            found[message.id[1]] = message.string[-1]
    return found


def lang_of(discord_locale: object) -> Lang:
    """Our language for a Discord locale: the catalogue of the locale itself (``pt_BR``
    for ``pt-BR``), else of its language (``es`` for ``es-ES`` and ``es-419``), else
    English."""
    code = str(getattr(discord_locale, "value", discord_locale) or "").replace("-", "_")
    for candidate in (code, code.split("_")[0].lower()):
        if candidate in LANGS:
            return candidate
    return DEFAULT_LANG


def tr(lang: Lang, template: str, /, **params: object) -> str:
    """``template`` (English, the msgid) in ``lang``, with ``params`` filled in."""
    text = translations(lang).gettext(template)
    return text.format(**params) if params else text


def plural(lang: Lang, count: int, one: str, many: str, /, **params: object) -> str:
    """The form of ``one``/``many`` that ``lang`` uses for ``count`` (given to every form
    as ``{n}``), translated."""
    return translations(lang).ngettext(one, many, count).format(n=count, **params)


def command_name(lang: Lang, name: str) -> str | None:
    """``lang``'s name for a slash command, option or choice named ``name`` in English;
    None where the catalogue has none."""
    if lang == DEFAULT_LANG:
        return None
    text = translations(lang).pgettext(COMMAND_NAME, name)
    return None if text == name else text


def language_name(lang: Lang, code: Lang) -> str:
    """The name of the language ``code`` in ``lang`` ("Turkish", "Türkisch", "Türkçe"),
    capitalized as a label; from the Unicode CLDR, so a new catalogue needs no words."""
    try:
        name = Locale.parse(code).get_display_name(Locale.parse(lang)) or code
    except (ValueError, UnknownLocaleError):
        name = code
    return name[:1].upper() + name[1:]


def upper(lang: Lang, text: str) -> str:
    """``text`` in capitals by ``lang``'s rules: Turkish and Azerbaijani write the
    capital of ``i`` as ``İ`` (and of ``ı`` as ``I``)."""
    if lang.split("_")[0] in ("tr", "az"):
        text = text.replace("i", "İ")
    return text.upper()


def N_(template: str) -> str:
    """Marks a template translated later (a class attribute, a table of labels);
    returns it unchanged, so the extraction finds it."""
    return template


def C_(context: str, name: str) -> str:
    """Marks ``name`` as a message of ``context`` (a slash command name); returns it
    unchanged."""
    return name
