"""The translation layer: the template holds every message of the code, every language's
catalogue translates all of it with the same placeholders and nothing more, and the
checks of `bot.i18n.check` catch a planted fault.

Templates are found by reading the source, independently of the extraction
(`bot.i18n.extract`): the first argument of `tr`, `N_` and of `GameError` and every
error class derived from it, the two templates of `plural`, and the engines' ``title``;
both sides of a conditional expression count. Arguments that are names (a template
chosen elsewhere) can't be read here: those templates must be marked with `N_` where
they are written. The computer players (`bot/ai/`) are left out: their errors are bugs
that are logged, never shown.
"""

from __future__ import annotations

import ast
import shutil
import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bot.i18n import (
    COMMAND_NAME,
    LANGS,
    catalogue_path,
    command_name,
    lang_of,
    language_name,
    plural,
    texts,
    tr,
    translations,
    upper,
)
from bot.i18n.check import TEMPLATE, key, problems
from bot.i18n.command_names import NAMES
from bot.i18n.notes import NOTES
from bot.render.text import Face, face_for, uncovered

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in LANGS if lang != "en"]

BOT = Path(__file__).resolve().parents[1] / "bot"
MARKERS = {"tr": (1,), "N_": (0,), "plural": (2, 3)}
"""The template arguments of the translation functions, by position."""


@dataclass(frozen=True)
class Site:
    where: str
    node: ast.expr


@cache
def _sources() -> list[tuple[Path, ast.Module]]:
    """Every module of the bot whose texts players read (the computer players' errors
    are bugs that are logged, never shown; the catalogue is the other side). Parsed once
    per test process: several tests walk them, and none changes a tree."""
    return [
        (path, ast.parse(path.read_text(), str(path)))
        for path in sorted(BOT.rglob("*.py"))
        if not {"i18n", "ai"} & set(path.relative_to(BOT).parts)
    ]


def _error_classes(sources: list[tuple[Path, ast.Module]]) -> set[str]:
    """`GameError`, `Refusal` and every class derived from them, however indirectly."""
    bases: dict[str, set[str]] = {}
    for _, tree in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {b.id for b in node.bases if isinstance(b, ast.Name)}
                bases.setdefault(node.name, set()).update(names)
    errors = {"GameError", "Refusal"}
    while grown := {name for name, parents in bases.items() if parents & errors} - errors:
        errors |= grown
    return errors


def _call_name(call: ast.Call) -> str:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return ""


def _title_value(node: ast.AST) -> ast.expr | None:
    """The value of ``title = "..."`` (or ``title: str = "..."``) in a class body: an
    engine's game title, shown to players."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target: ast.expr = node.targets[0]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target = node.target
    else:
        return None
    return node.value if isinstance(target, ast.Name) and target.id == "title" else None


def _branches(node: ast.expr) -> Iterator[ast.expr]:
    """``node``, or each side of a conditional expression (``"a" if x else "b"``)."""
    if isinstance(node, ast.IfExp):
        yield from _branches(node.body)
        yield from _branches(node.orelse)
    else:
        yield node


def template_sites() -> Iterator[Site]:
    return iter(_template_sites())


@cache
def _template_sites() -> tuple[Site, ...]:
    """Every site of a template in the code (walked once per test process)."""
    return tuple(_walk_template_sites())


def _walk_template_sites() -> Iterator[Site]:
    sources = _sources()
    positions = MARKERS | {name: (0,) for name in _error_classes(sources)}
    for path, tree in sources:
        for node in ast.walk(tree):
            where = f"{path.relative_to(BOT.parent)}:{getattr(node, 'lineno', 0)}"
            title = _title_value(node) if "engines" in path.relative_to(BOT).parts else None
            arguments = [title] if title is not None else []
            if isinstance(node, ast.Call):
                arguments += [
                    node.args[index]
                    for index in positions.get(_call_name(node), ())
                    if index < len(node.args)
                ]
            for argument in arguments:
                for branch in _branches(argument):
                    yield Site(where, branch)


def literal_templates() -> dict[str, str]:
    return dict(_literal_templates())


@cache
def _literal_templates() -> dict[str, str]:
    """The literal templates of the code and where each is first (walked once)."""
    found: dict[str, str] = {}
    for site in template_sites():
        if isinstance(site.node, ast.Constant) and isinstance(site.node.value, str):
            found.setdefault(site.node.value, site.where)
    return found


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_the_code_has_templates_to_translate() -> None:
    assert len(literal_templates()) > 100


def test_no_template_is_built_at_run_time() -> None:
    built = [
        site.where
        for site in template_sites()
        if isinstance(site.node, ast.JoinedStr | ast.BinOp)
        or (isinstance(site.node, ast.Call) and _call_name(site.node) == "format")
    ]
    assert built == [], "templates must be literals with {placeholders}, not f-strings"


def _template() -> Catalog:
    with TEMPLATE.open("rb") as pot:
        return read_po(pot)


def plural_pairs() -> set[tuple[str, str]]:
    """The (one, many) templates of every `plural` call written with literals."""
    pairs: set[tuple[str, str]] = set()
    for _, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) == "plural" and len(node.args) > 3:
                one, many = node.args[2], node.args[3]
                if isinstance(one, ast.Constant) and isinstance(many, ast.Constant):
                    pairs.add((str(one.value), str(many.value)))
    return pairs


def test_every_message_of_the_code_is_in_the_template() -> None:
    template = _template()
    singular = {m.id for m in template if isinstance(m.id, str) and m.context is None}
    plurals = {tuple(m.id) for m in template if m.pluralizable}
    pairs = plural_pairs()
    in_pairs = {text for pair in pairs for text in pair}
    missing = [
        f"{where}: {text!r}"
        for text, where in literal_templates().items()
        if text not in singular and text not in in_pairs
    ]
    assert missing == [], "run pybabel extract (docs/translating.md)"
    assert sorted(pairs - plurals) == [], "plural() templates missing as msgid/msgid_plural"


def test_the_template_is_what_pybabel_extracts() -> None:
    """``messages.pot`` is up to date: extracting again with ``babel.cfg`` finds the same
    messages (no stale ones, none missing)."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]
    extracted = {
        (context, message if isinstance(message, str) else message[0])
        for _, _, message, _, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords={}
        )
    }
    written = {key(m) for m in _template() if m.id}
    assert sorted(extracted - written, key=str) == [], "run pybabel extract"
    assert sorted(written - extracted, key=str) == [], "run pybabel extract"


def test_the_template_has_every_command_name_and_the_code_has_more_than_a_few() -> None:
    names = {m.id for m in _template() if m.context == COMMAND_NAME}
    assert names == set(NAMES)
    assert len(literal_templates()) > 100


def test_every_note_for_translators_is_on_a_message_of_the_template() -> None:
    template = _template()
    assert sorted(set(NOTES) - {key(m)[1] for m in template if m.id}) == []
    noted = [m for m in template if isinstance(m.id, str) and m.id in NOTES]
    assert all(NOTES[key(m)[1]].split()[:3] == " ".join(m.auto_comments).split()[:3] for m in noted)


def test_the_languages_are_the_catalogues() -> None:
    assert LANGS[0] == "en"
    assert {"de", "tr", "es"} <= set(LANGS)
    assert all(catalogue_path(lang).is_file() for lang in TRANSLATED)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalogue_translates_everything_with_the_same_placeholders(lang: str) -> None:
    """Every message, translated, not fuzzy, not stale, Babel's checkers, the same
    placeholders, Discord-valid command names, capitals where English has them, and
    not mostly English (`bot.i18n.check`)."""
    assert problems(lang) == []


def _planted(tmp_path: Path, lang: str, msgid: str, text: str | None) -> Path:
    """A copy of ``lang``'s catalogue with ``msgid``'s translation set to ``text``
    (None: the message removed)."""
    with catalogue_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    if text is None:
        catalog.delete(msgid)
    else:
        catalog[msgid].string = text
    copy = tmp_path / "messages.po"
    with copy.open("wb") as po:
        write_po(po, catalog)
    return copy


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_checks_catch_a_missing_translation(lang: str, tmp_path: Path) -> None:
    msgid = "Only the host can start the game."
    shutil.copy(catalogue_path(lang), tmp_path / "clean.po")
    assert problems(lang, tmp_path / "clean.po") == []
    assert problems(lang, _planted(tmp_path, lang, msgid, "")) == [f"untranslated: {msgid!r}"]
    assert problems(lang, _planted(tmp_path, lang, msgid, None)) == [f"missing: {msgid!r}"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_checks_catch_a_wrong_placeholder(lang: str, tmp_path: Path) -> None:
    msgid = "It's {name}'s turn; this panel follows the game."
    planted = _planted(tmp_path, lang, msgid, tr(lang, msgid).replace("{name}", "{player}"))
    assert problems(lang, planted) == [f"placeholders ['player'] instead of ['name']: {msgid!r}"]


def test_the_checks_catch_a_stale_entry_and_an_english_catalogue(tmp_path: Path) -> None:
    with catalogue_path("es").open("rb") as po:
        catalog = read_po(po, locale="es")
    catalog.add("A message the code no longer says.", "Un mensaje que el código ya no dice.")
    stale = tmp_path / "stale.po"
    with stale.open("wb") as po:
        write_po(po, catalog)
    assert problems("es", stale) == ["stale: 'A message the code no longer says.'"]
    for message in catalog:
        if message.id and message.context is None:
            message.string = message.id
    english = tmp_path / "english.po"
    with english.open("wb") as po:
        write_po(po, catalog)
    assert any(problem.startswith("mostly English") for problem in problems("es", english))


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("de", "de"),
        ("de-AT", "de"),
        ("tr", "tr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("en-US", "en"),
        ("fr", "en"),
        ("pt-BR", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_our_languages(locale: str | None, lang: str) -> None:
    assert lang_of(locale) == lang


def test_tr_fills_placeholders_in_every_language() -> None:
    english = "Only the host can start the game."
    assert tr("en", english) == english
    assert tr("de", english) == "Nur der Gastgeber kann die Partie starten."
    assert tr("tr", english) == "Oyunu yalnızca masa sahibi başlatabilir."
    assert tr("es", english) == "Solo el anfitrión puede empezar la partida."
    assert tr("xx", english) == english, "an unknown language reads English"
    turn = "{mentions}, your turn."
    assert tr("es", turn, mentions="@Ana") == "@Ana, te toca."


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("en", 1, "1 chip"),
        ("en", 3, "3 chips"),
        ("de", 1, "1 Chip"),
        ("de", 3, "3 Chips"),
        ("es", 1, "1 ficha"),
        ("es", 0, "0 fichas"),
        ("tr", 1, "1 fiş"),
        ("tr", 3, "3 fiş"),
    ],
)
def test_plural_forms_follow_each_language(lang: str, count: int, text: str) -> None:
    assert plural(lang, count, "{n} chip", "{n} chips") == text
    forms = {"tr": 1, "es": 2, "de": 2}
    if lang in forms:
        catalog = translations(lang)
        assert catalog.ngettext("{n} chip", "{n} chips", 5) != "{n} chips"
        assert len(set(_forms_of(lang, ("{n} chip", "{n} chips")))) == forms[lang]


def _forms_of(lang: str, msgid: tuple[str, str]) -> tuple[str, ...]:
    with catalogue_path(lang).open("rb") as po:
        forms = read_po(po, locale=lang)[msgid].string
    assert isinstance(forms, tuple | list)
    return tuple(forms)


def test_a_catalogue_s_texts_by_their_english() -> None:
    german, host = texts("de"), "Only the host can start the game."
    assert german[host] == tr("de", host)
    assert german["{n} chip"] == "{n} Chip" and german["{n} chips"] == "{n} Chips"
    assert texts("tr")["{n} chips"] == "{n} fiş"
    assert "join" not in texts("es"), "command names are not texts"
    assert texts("en") == {}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_letter_of_every_catalogue_is_drawn_by_the_main_font(lang: str) -> None:
    """The images draw any text in its language: Turkish ğ ş ı İ, Spanish ñ ¿ ¡."""
    letters = {char for text in texts(lang).values() for char in text if not char.isascii()}
    letters -= {char for text in literal_templates() for char in text}  # the English's own
    assert uncovered("".join(sorted(letters))) == ""
    assert [c for c in sorted(letters) if c.isalpha() and face_for(c) is not Face.MAIN] == []


def test_command_names_and_language_names() -> None:
    assert command_name("tr", "join") == "katıl"
    assert command_name("es", "channel_add") == "añadir_canal"
    assert command_name("de", "hand") is None, "the same as English: no localization"
    assert command_name("en", "join") is None
    assert language_name("en", "tr") == "Turkish"
    assert language_name("de", "es") == "Spanisch"
    assert language_name("tr", "tr") == "Türkçe"
    assert language_name("es", "en") == "Inglés"


def test_turkish_capitals_keep_the_dot() -> None:
    assert upper("tr", "kazanan istif ılık") == "KAZANAN İSTİF ILIK"
    assert upper("en", "winner") == "WINNER"
    assert tr("tr", "WINNER") == "KAZANAN"
    assert tr("tr", "GAME OVER") == "OYUN BİTTİ"
