"""Babel's extraction method for the bot's code (named in ``babel.cfg``).

`pybabel extract -F babel.cfg -o bot/i18n/locales/messages.pot .` calls `extract` for
every module of the bot. It reads the module's syntax tree, so besides the keyword calls
Babel's own Python extractor finds (``tr(lang, "…")``, ``plural(lang, n, "…", "…")``,
``N_("…")``, ``C_("context", "…")``) it finds what that extractor can't:

- both sides of a conditional expression (``tr(lang, "a" if x else "b")``);
- the first argument of `GameError` and `Refusal` and of every error class derived from
  them, anywhere in the bot (an engine's error, or the bot's refusal, is an English
  template shown to the player in their language);
- an engine's ``title = "…"`` (in `bot/engines/`).

A ``# Translators: …`` comment on the lines right above a call becomes the message's
comment in the template, for the translator, and so does its note in `bot.i18n.notes`.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Collection, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import IO, Any

from bot.i18n.notes import NOTES

BOT = Path(__file__).resolve().parents[1]
"""The `bot` package, whose error classes `error_classes` collects."""

Result = tuple[int, str, list[str | None], list[str]]
"""Line, keyword, the call's arguments (a string, or None where not a literal),
translator comments: what Babel expects of an extraction method."""


@cache
def error_classes() -> frozenset[str]:
    """`GameError`, `Refusal` and every class of the bot derived from them, however
    indirectly."""
    bases: dict[str, set[str]] = {}
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                names = {b.id for b in node.bases if isinstance(b, ast.Name)}
                bases.setdefault(node.name, set()).update(names)
    errors = {"GameError", "Refusal"}
    while grown := {name for name, parents in bases.items() if parents & errors} - errors:
        errors |= grown
    return frozenset(errors)


def call_name(call: ast.Call) -> str:
    """``tr`` for ``tr(…)`` and for ``i18n.tr(…)``."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return ""


def title_value(node: ast.AST) -> ast.expr | None:
    """The value of ``title = "…"`` (or ``title: str = "…"``): an engine's game title."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target: ast.expr = node.targets[0]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target = node.target
    else:
        return None
    return node.value if isinstance(target, ast.Name) and target.id == "title" else None


def branches(node: ast.expr) -> Iterator[ast.expr]:
    """``node``, or each side of a conditional expression (``"a" if x else "b"``)."""
    if isinstance(node, ast.IfExp):
        yield from branches(node.body)
        yield from branches(node.orelse)
    else:
        yield node


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _argument_sets(args: list[ast.expr]) -> Iterator[list[str | None]]:
    """The call's arguments as Babel wants them, once per combination of the sides of
    its conditional expressions."""
    if not args:
        yield []
        return
    for rest in _argument_sets(args[1:]):
        for branch in branches(args[0]):
            yield [_literal(branch), *rest]


def _comments(source: bytes, tags: Collection[str]) -> dict[int, list[str]]:
    """Line → the translator comments of the comment block ending on the line above."""
    lines: dict[int, str] = {}
    code_lines: set[int] = set()
    for token in tokenize.tokenize(io.BytesIO(source).readline):
        if token.type == tokenize.COMMENT:
            lines[token.start[0]] = token.string.lstrip("#").strip()
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING):
            code_lines.update(range(token.start[0], token.end[0] + 1))
    found: dict[int, list[str]] = {}
    for line in sorted(lines):
        if line in code_lines or line + 1 in lines:
            continue
        block: list[str] = []
        start = line
        while start in lines and start not in code_lines:
            block.insert(0, lines[start])
            start -= 1
        tagged = next((i for i, text in enumerate(block) if text.startswith(tuple(tags))), None)
        if tagged is not None:
            found[line + 1] = block[tagged:]
    return found


def extract(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Result]:
    """Babel's extraction method: the messages of one module of the bot."""
    source = fileobj.read()
    name = str(getattr(fileobj, "name", ""))
    tree = ast.parse(source, name)
    comments = _comments(source, comment_tags) if comment_tags else {}
    errors = error_classes()
    wanted = set(options.get("keywords") or keywords)
    is_engine = _in_engines(Path(name))
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        found = comments.get(line, [])
        title = title_value(node) if is_engine else None
        if title is not None:
            for branch in branches(title):
                yield line, "N_", [_literal(branch)], _with_notes(found, [_literal(branch)])
        if not isinstance(node, ast.Call):
            continue
        keyword = call_name(node)
        if keyword in errors and node.args:
            for arguments in _argument_sets(node.args[:1]):
                yield line, "N_", arguments, _with_notes(found, arguments)
        elif keyword in wanted and keyword not in errors:
            for arguments in _argument_sets(list(node.args)):
                if any(argument is not None for argument in arguments):
                    yield line, keyword, arguments, _with_notes(found, arguments)


def _in_engines(path: Path) -> bool:
    """Whether the module is one of `bot/engines/`."""
    try:
        parts = path.resolve().relative_to(BOT).parts
    except ValueError:
        parts = path.parts
    return "engines" in parts


def _with_notes(comments: list[str], arguments: list[str | None]) -> list[str]:
    """The call's comments, and the note of each of its messages."""
    notes = [NOTES[text] for text in arguments if text is not None and text in NOTES]
    return [*comments, *(note for note in notes if note not in comments)]
