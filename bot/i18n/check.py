"""Checks a catalogue against the template: ``python -m bot.i18n.check [lang …]``.

A catalogue passes when it translates every message of ``messages.pot`` (none empty,
none fuzzy), holds nothing the template no longer has, passes Babel's checkers (the
number of plural forms, ``%`` placeholders), uses the same ``{placeholders}`` as the
English (a plural form may leave out ``{n}``: "one card"), gives Discord-valid command
names, writes in capitals what English writes in capitals (by the language's own rules:
Turkish ``İ``), and isn't mostly English. `tests/test_i18n.py` runs it on every
catalogue, and on planted faults.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.i18n import COMMAND_NAME, LANGS, LOCALES, Lang, catalogue_path, upper

TEMPLATE = LOCALES / "messages.pot"
MOSTLY_ENGLISH = 0.1
"""The share of a catalogue's messages that may read as in English (names, markup)."""
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for command and option names (letters of any script, digits, - and _),
lowercase."""


def read(path: Path, lang: Lang | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=lang)


def placeholders(text: str) -> set[str]:
    """``{name}`` and ``{game!r}`` → ``{"name", "game"}``."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def key(message: Message) -> tuple[str | None, str]:
    """A message's identity: its context and (singular) msgid."""
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, msgid


def _forms(message: Message) -> tuple[str, ...]:
    string_ = message.string
    if string_ is None:
        return ("",)
    return (string_,) if isinstance(string_, str) else tuple(string_)


def _placeholder_problem(message: Message) -> str | None:
    ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
    allowed = set().union(*(placeholders(text) for text in ids))
    required = allowed if len(ids) == 1 else allowed - {"n"}
    for form in _forms(message):
        found = placeholders(form)
        if not required <= found <= allowed:
            return f"placeholders {sorted(found)} instead of {sorted(allowed)}"
    return None


def _is_capitals(text: str) -> bool:
    return any(c.isalpha() for c in text) and text == text.upper()


def problems(lang: Lang, path: Path | None = None, template: Path = TEMPLATE) -> list[str]:
    """Everything wrong with ``lang``'s catalogue (``path``, else the shipped one)."""
    catalog = read(path or catalogue_path(lang), lang)
    expected = {key(message): message for message in read(template) if message.id}
    found = {key(message): message for message in catalog if message.id}
    out = [f"missing: {msgid!r}" for (_, msgid) in expected.keys() - found.keys()]
    out += [f"stale: {msgid!r}" for (_, msgid) in found.keys() - expected.keys()]
    for (context, msgid), message in found.items():
        where = f"{msgid!r}"
        if (context, msgid) not in expected:
            continue
        if message.pluralizable != expected[(context, msgid)].pluralizable:
            out.append(f"plural or not as in the template: {where}")
        if message.fuzzy:
            out.append(f"fuzzy: {where}")
        if not all(_forms(message)):
            out.append(f"untranslated: {where}")
            continue
        out += [f"{error}: {where}" for error in _babel_errors(catalog, message)]
        if (problem := _placeholder_problem(message)) is not None:
            out.append(f"{problem}: {where}")
        if context == COMMAND_NAME:
            name = _forms(message)[0]
            if not DISCORD_NAME.match(name) or name != name.lower():
                out.append(f"not a Discord command name: {name!r} for {where}")
        elif _is_capitals(msgid) and any(form != upper(lang, form) for form in _forms(message)):
            out.append(f"not in capitals like the English: {where}")
    english = [m for m in found.values() if m.context != COMMAND_NAME and _reads_as(m)]
    if found and len(english) > MOSTLY_ENGLISH * len(found):
        out.append(f"mostly English: {len(english)} of {len(found)} messages read as in English")
    return out


def _babel_errors(catalog: Catalog, message: Message) -> Iterable[str]:
    return (str(error) for error in message.check(catalog))


def _reads_as(message: Message) -> bool:
    ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
    return any(form in ids for form in _forms(message))


def main(argv: list[str]) -> int:
    langs = argv or [lang for lang in LANGS if lang != "en"]
    failed = False
    for lang in langs:
        found = problems(lang)
        failed |= bool(found)
        print(f"{lang}: {'ok' if not found else f'{len(found)} problems'}")
        for problem in found:
            print(f"  {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
