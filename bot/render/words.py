"""The words of the images: `bot.i18n`'s `tr` and `plural`, and languages added for a
check alone (a pseudo-locale, whose every text is longer and accented, shows a cut or
crowded text before a translator does).

An added language is English passed through its ``translate`` function, template by
template: placeholders stay as they are, so names and numbers are drawn as written.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import i18n
from bot.i18n import N_, Lang

__all__ = ["N_", "Lang", "add_language", "plural", "tr"]

_ADDED: dict[Lang, Callable[[str], str]] = {}


def add_language(lang: Lang, translate: Callable[[str], str]) -> None:
    """Draw ``lang`` with each English template passed through ``translate`` (which
    keeps its ``{placeholders}``); for checks only, never a catalogue language."""
    if lang in i18n.LANGS:
        raise ValueError(f"{lang} has a catalogue")
    _ADDED[lang] = translate


def tr(lang: Lang, template: str, /, **params: object) -> str:
    """`bot.i18n.tr`, or an added language's text."""
    translate = _ADDED.get(lang)
    if translate is None:
        return i18n.tr(lang, template, **params)
    text = translate(template)
    return text.format(**params) if params else text


def plural(lang: Lang, count: int, one: str, many: str, /, **params: object) -> str:
    """`bot.i18n.plural`, or an added language's text (English's rule)."""
    translate = _ADDED.get(lang)
    if translate is None:
        return i18n.plural(lang, count, one, many, **params)
    return translate(one if count == 1 else many).format(n=count, **params)
