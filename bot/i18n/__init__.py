"""One translation layer for every word the bot shows: English and German.

A message's English text is its key (as with gettext): code writes
``tr(lang, "It's **{name}**'s turn.", name=name)`` and the German catalogue in
`bot.i18n.german` maps that English template to its German one. A template missing
there falls back to English; `tests/test_i18n.py` finds every template in the code
and fails when one has no German text, or when the placeholders differ.

Engines stay free of this module: their errors carry an English template and its
parameters (`GameError`), which the cogs translate for the player who caused them.
"""

from __future__ import annotations

from typing import Literal

from bot.i18n.german import catalogue

Lang = Literal["en", "de"]
LANGS: tuple[Lang, ...] = ("en", "de")
DEFAULT_LANG: Lang = "en"


def lang_of(discord_locale: object) -> Lang:
    """Our language for a Discord locale (``de`` → German, anything else → English)."""
    code = str(getattr(discord_locale, "value", discord_locale) or "")
    return "de" if code.lower().startswith("de") else "en"


def tr(lang: str, template: str, /, **params: object) -> str:
    """``template`` (English, the key) in ``lang``, with ``params`` filled in."""
    text = catalogue().texts.get(template, template) if lang == "de" else template
    return text.format(**params) if params else text


def plural(lang: str, count: int, one: str, many: str, /, **params: object) -> str:
    """``one`` or ``many`` by ``count`` (given to both as ``{n}``), translated.

    English and German both use the singular for exactly one."""
    return tr(lang, one if count == 1 else many, n=count, **params)


def N_(template: str) -> str:
    """Marks a template translated later (a class attribute, a table of labels);
    returns it unchanged, so `tests/test_i18n.py` can find it."""
    return template
