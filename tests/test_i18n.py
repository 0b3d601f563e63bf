"""The translation layer: every template in the code has German text with the same
placeholders, no template is built with an f-string, and the catalogue holds nothing
the code no longer says.

Templates are found by reading the source: the first argument of `tr`, `N_` and of
`GameError` and every error class derived from it, the two templates of `plural`, and
the engines' ``title``; both sides of a conditional expression count. Arguments that
are names (a template chosen elsewhere) can't be read here: those templates must be
marked with `N_` where they are written. The computer players (`bot/ai/`) are left
out: their errors are bugs that are logged, never shown.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.i18n import lang_of, plural, tr
from bot.i18n.german import catalogue, core

GERMAN = catalogue().texts

BOT = Path(__file__).resolve().parents[1] / "bot"
MARKERS = {"tr": (1,), "N_": (0,), "plural": (2, 3)}
"""The template arguments of the translation functions, by position."""


@dataclass(frozen=True)
class Site:
    where: str
    node: ast.expr


def _sources() -> list[tuple[Path, ast.Module]]:
    """Every module of the bot whose texts players read (the computer players' errors
    are bugs that are logged, never shown; the catalogue is the other side)."""
    return [
        (path, ast.parse(path.read_text(), str(path)))
        for path in sorted(BOT.rglob("*.py"))
        if "i18n" not in path.parts and "ai" not in path.parts
    ]


def _error_classes(sources: list[tuple[Path, ast.Module]]) -> set[str]:
    """`GameError` and every class derived from it, however indirectly."""
    bases: dict[str, set[str]] = {}
    for _, tree in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {b.id for b in node.bases if isinstance(b, ast.Name)}
                bases.setdefault(node.name, set()).update(names)
    errors = {"GameError"}
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
    sources = _sources()
    positions = MARKERS | {name: (0,) for name in _error_classes(sources)}
    for path, tree in sources:
        for node in ast.walk(tree):
            where = f"{path.relative_to(BOT.parent)}:{getattr(node, 'lineno', 0)}"
            title = _title_value(node) if "engines" in path.parts else None
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


def test_every_template_has_german_text_with_the_same_placeholders() -> None:
    missing = [
        f"{where}: {text!r}" for text, where in literal_templates().items() if text not in GERMAN
    ]
    assert missing == []
    mismatched = [
        text
        for text in literal_templates()
        if text in GERMAN and placeholders(text) != placeholders(GERMAN[text])
    ]
    assert mismatched == []


def test_the_catalogue_holds_only_what_the_code_says() -> None:
    unused = sorted(set(GERMAN) - set(literal_templates()))
    assert unused == []


def test_no_area_contradicts_another() -> None:
    modules = [core, *(game.german for game in GAMES)]
    seen: dict[str, str] = {}
    clashes = []
    for module in modules:
        for english, text in module.GERMAN.items():
            if seen.setdefault(english, text) != text:
                clashes.append(english)
    assert clashes == []


@pytest.mark.parametrize(
    ("locale", "lang"),
    [("de", "de"), ("de-AT", "de"), ("en-US", "en"), ("fr", "en"), (None, "en")],
)
def test_discord_locales_map_to_our_languages(locale: str | None, lang: str) -> None:
    assert lang_of(locale) == lang


def test_tr_fills_placeholders_in_either_language() -> None:
    english = "Only the host can start the game."
    assert tr("en", english) == english
    assert tr("de", english) == GERMAN[english]
    assert plural("en", 1, "{n} chip", "{n} chips") == "1 chip"
    assert plural("en", 3, "{n} chip", "{n} chips") == "3 chips"
