"""A Turkish and a Spanish server: whole games in which no public message has a word of
English, each user's own messages in their language, and the slash commands localized
for Turkish and Spanish (Spain and Latin America) clients.

"English" is any word of the code's English messages that the language's catalogue
doesn't use itself (game names such as *TAKE* stay); every text a person reads on a
public message counts, in every version it had: content, embeds, buttons, menus and
the images' descriptions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.i18n import COMMAND_NAME, catalogue_path, command_name, tr
from bot.i18n.check import TEMPLATE
from tests.e2e.tables import table_rev
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, MessageVersion, button_text

Json = dict[str, Any]
WORD = re.compile(r"[^\W\d_]{3,}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
SLOW = 60.0
"""Seconds an answer that draws a table may take on a machine busy with other tests."""
LANGUAGES = [
    pytest.param("tr", marks=pytest.mark.guild_locale("tr"), id="turkish"),
    pytest.param("es", marks=pytest.mark.guild_locale("es-ES"), id="spanish"),
]


def _texts(catalogue: Path, *, translated: bool) -> Iterator[str]:
    """The English (msgids) or the translations (msgstrs) of a catalogue."""
    with catalogue.open("rb") as po:
        for message in read_po(po):
            if not message.id or message.context == COMMAND_NAME:
                continue
            for part in [message.string if translated else message.id]:
                if isinstance(part, str):
                    yield part
                elif part:
                    yield from part


def _words(texts: Iterator[str]) -> set[str]:
    """The words of ``texts``, leaving out ``{placeholders}``."""
    return {word.lower() for text in texts for word in WORD.findall(PLACEHOLDER.sub(" ", text))}


@cache
def english_words(lang: str) -> frozenset[str]:
    """Words of the English messages that ``lang``'s translations never use."""
    english = _words(_texts(TEMPLATE, translated=False))
    return frozenset(english - _words(_texts(catalogue_path(lang), translated=True)))


def readable(version: FakeMessage | MessageVersion) -> Iterator[str]:
    """Everything a person reads on one version of a message."""
    yield version.content
    for embed in version.embeds:
        yield embed.get("title") or ""
        yield embed.get("description") or ""
        for embed_field in embed.get("fields") or []:
            yield embed_field.get("name", "")
            yield embed_field.get("value", "")
        yield (embed.get("footer") or {}).get("text", "")
    for component in _walk(version.components):
        yield component.get("content", "")
        yield component.get("placeholder", "")
        if "label" in component or "emoji" in component:
            yield button_text(component)
        for option in component.get("options") or []:
            yield option.get("label", "")
            yield option.get("description") or ""
    for attachment in version.attachments:
        yield attachment.description or ""


def versions(message: FakeMessage) -> list[FakeMessage | MessageVersion]:
    """Every state the message had, the current one last."""
    return [*message.history, message]


def options_lines(driver: Driver, lang: str) -> set[str]:
    """The values of the lobby embeds' "Options" field."""
    return {
        embed_field.get("value", "")
        for message in driver.alive()
        for version in versions(message)
        for embed in version.embeds
        for embed_field in embed.get("fields") or []
        if embed_field.get("name") == tr(lang, "Options")
    }


def _walk(components: list[Json]) -> Iterator[Json]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


def english_in_public(
    driver: Driver, lang: str, people: list[str], *, but_options: bool = False
) -> list[str]:
    """Every English word on the channel's public messages, with its text; with
    ``but_options``, not counting the lobby's options line (see
    `test_the_lobby_s_options_line_is_translated`)."""
    allowed = {name.lower() for name in people}
    options = options_lines(driver, lang) if but_options else set()
    found = []
    for message in driver.alive():
        for version in versions(message):
            for text in set(readable(version)) - options:
                words = {w.lower() for w in WORD.findall(text)} - allowed
                if english := sorted(words & english_words(lang)):
                    found.append(f"{english}: {text!r}")
    return sorted(set(found))


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_whole_card_game_has_no_english_in_public(
    lang: str, driver: Driver, bot_process: BotFactory
) -> None:
    """Alice (an English client) opens Geschenkt, seats two computer players, starts, and
    takes every card offered to her until the end (a table of computers alone would be
    abandoned)."""
    await bot_process("bot")
    alice = driver.user("alice")
    title = tr(lang, "Geschenkt (No Thanks!)")
    lobby = (await driver.slash(alice, "geschenkt start")).message
    assert tr(lang, "{title}: new table", title=title) in lobby.text
    assert lobby.labels[:3] == [tr(lang, "Join"), tr(lang, "Leave"), tr(lang, "Start")]
    for level in ("hard", "normal"):
        await driver.choose(alice, lobby, tr(lang, "Add computer player…"), [level])
    await driver.click(alice, lobby, tr(lang, "Start"), timeout=SLOW)
    results = tr(lang, "{title}: results", title=title)
    table = driver.table()
    for _ in range(200):
        await driver.wait_for(
            lambda: results in table.text or alice.mention in table.content,
            timeout=SLOW,
            what="Alice's turn or the results",
        )
        if results in table.text:
            break
        await driver.click(alice, table, tr(lang, "Take"), timeout=SLOW)
    assert results in table.text
    await driver.settle()
    assert english_in_public(driver, lang, ["Alice"]) == []


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_draughts_game_to_its_result_has_no_english_in_public(
    lang: str, driver: Driver, bot_process: BotFactory
) -> None:
    """Alice plays White against a computer, moves, offers a draw and resigns."""
    await bot_process("bot")
    alice = driver.user("alice")
    lobby = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.choose(alice, lobby, tr(lang, "Add computer player…"), ["normal"])
    await driver.click(alice, lobby, tr(lang, "Start"), timeout=SLOW)
    table = driver.table()
    white = tr(lang, "**{name}** (White) to move.", name="Alice")
    assert white in table.text
    rev = table_rev(table)
    await driver.slash(alice, "draughts move", move="c3-c4", timeout=SLOW)
    await driver.wait_for(  # Alice's move and the computer's answer, both drawn
        lambda: table_rev(table) >= rev + 2 and white in table.text,
        timeout=SLOW,
        what="the computer's answer",
    )
    answer = await driver.slash(alice, "draughts move", move="resign confirm", timeout=SLOW)
    assert "You resigned." in answer.message.text  # privately, in Alice's own language
    await driver.wait_for(
        lambda: tr(lang, "White resigned.") in driver.table().text,
        timeout=SLOW,
        what="the result",
    )
    await driver.settle()
    assert english_in_public(driver, lang, ["Alice"], but_options=True) == []


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_lobby_s_options_line_is_translated(
    lang: str, driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = driver.user("alice")
    await driver.slash(alice, "draughts start", colour="white")
    assert options_lines(driver, lang)
    assert english_in_public(driver, lang, ["Alice"]) == []


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_each_user_reads_their_own_language(
    lang: str, driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = driver.user("alice"), driver.user("bernd")
    lobby = (await driver.slash(bernd, "escalation start")).message
    assert tr(lang, "{title}: new table", title=tr(lang, "Escalation")) in lobby.text
    joined = await driver.slash(alice, "escalation join")
    assert joined.message.text == "You joined the table."
    again = await driver.click(bernd, lobby, tr(lang, "Join"))
    assert again.message.text == "Du sitzt schon an diesem Tisch."
    help_text = (await driver.slash(alice, "help")).message.text
    assert "Games in this channel" in help_text


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_slash_commands_are_localized(
    lang: str, driver: Driver, bot_process: BotFactory
) -> None:
    """Every command, option and choice has a name and description for the language's
    Discord locales, where they differ from the English."""
    await bot_process("bot")
    locales = {"tr": ["tr"], "es": ["es-ES", "es-419"]}[lang]
    group = driver.fake.find_command("geschenkt")
    for locale in locales:
        assert group["description_localizations"][locale] == tr(
            lang, "Play {title} in this channel", title=tr(lang, "Geschenkt (No Thanks!)")
        )
        by_name = {option["name"]: option for option in group["options"]}
        assert by_name["join"]["name_localizations"][locale] == command_name(lang, "join")
    settings = driver.fake.find_command("settings")
    language = next(option for option in settings["options"] if option["name"] == "language")
    choices = {choice["value"]: choice for choice in language["options"][0]["choices"]}
    assert list(choices) == ["auto", "en", "de", "es", "tr"], "/settings language offers each"
    assert choices[lang]["name"] == {"tr": "Turkish", "es": "Spanish"}[lang]
    for locale in locales:
        native = choices[lang]["name_localizations"][locale]
        assert native == {"tr": "Türkçe", "es": "Español"}[lang]
    missing = [
        f"{path}: {what}"
        for commands in driver.fake.commands.values()
        for command in commands
        for path, what in _unlocalized(command, locales, lang)
    ]
    assert missing == []


def _unlocalized(
    entry: Json, locales: list[str], lang: str, path: str = ""
) -> Iterator[tuple[str, str]]:
    path = f"{path}/{entry['name']}"
    translated = command_name(lang, entry["name"])
    for locale in locales:
        names = entry.get("name_localizations") or {}
        if translated is not None and names.get(locale) != translated:
            yield path, f"name for {locale}"
        if entry.get("description") and locale not in (
            entry.get("description_localizations") or {}
        ):
            yield path, f"description for {locale}"
    for choice in entry.get("choices") or []:
        if tr(lang, choice["name"]) == choice["name"]:
            continue  # a number, a name such as "Give and Take"
        for locale in locales:
            if locale not in (choice.get("name_localizations") or {}):
                yield f"{path}={choice['value']}", f"choice name for {locale}"
    for option in entry.get("options") or []:
        yield from _unlocalized(option, locales, lang, path)
