"""The README and the pages in docs/ point at things that exist.

For README.md and every docs/*.md:

- every relative markdown link (``[text](target)`` or an image) names a file or folder
  that exists, relative to the page (an ``#anchor`` is ignored; http(s) and mailto
  links are not checked);
- every backticked repository path names a file or folder that exists. A path counts
  when it is one word and begins with ``bot/``, ``tests/``, ``bench/``, ``docs/`` or
  ``.ci/`` (it must exist from the repository's root), or ends in ``.py``, ``.md``,
  ``.toml`` or ``.yml`` (then some file of the repository must end with it, so
  ``play/clicks.py`` in a page about ``bot/`` passes). A pattern (``<game>``,
  ``{guild}``, ``*``, ``…``) is not a path; ``::test`` after a file is dropped.

And the README stays a README: at most `README_MAX_LINES` lines, its first code block
the two set-up commands (one runs the bot, one runs the tests).

The checkers are plain functions, so the last tests plant a broken link and a missing
path in a page of their own and see them reported.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_MAX_LINES = 250

PATH_ROOTS = ("bot/", "tests/", "bench/", "docs/", ".ci/")
PATH_ENDINGS = (".py", ".md", ".toml", ".yml")
PATTERN_MARKS = ("<", ">", "{", "}", "*", "…", "...", "$")
SKIPPED_FOLDERS = {".git", ".venv", "venv", "node_modules", "data", "__pycache__"}

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def pages() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def without_fences(text: str) -> str:
    """``text`` without its fenced code blocks (their lines kept, empty, so that line
    numbers still match)."""
    return FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def link_targets(text: str) -> Iterator[tuple[int, str]]:
    """(line, target) of every relative link outside code: blocks and spans."""
    prose = CODE_SPAN.sub(lambda span: " " * len(span.group(0)), without_fences(text))
    for match in LINK.finditer(prose):
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
            continue  # http(s), mailto, … or an anchor in the same page
        yield line_of(prose, match.start()), target


def broken_links(page: Path) -> list[str]:
    problems = []
    for line, target in link_targets(page.read_text(encoding="utf-8")):
        path = target.split("#", 1)[0].split("?", 1)[0]
        if not (page.parent / path).exists():
            problems.append(f"{page.name}:{line}: link to {target}, which doesn't exist")
    return problems


def looks_like_path(word: str) -> bool:
    if any(mark in word for mark in PATTERN_MARKS) or any(c.isspace() for c in word):
        return False
    return word.startswith(PATH_ROOTS) or word.endswith(PATH_ENDINGS)


def code_paths(text: str) -> Iterator[tuple[int, str]]:
    """(line, path) of every backticked word outside fenced blocks that looks like a
    repository path."""
    prose = without_fences(text)
    for match in CODE_SPAN.finditer(prose):
        word = match.group(2).strip().split("::", 1)[0]
        if looks_like_path(word):
            yield line_of(prose, match.start()), word


@cache
def repository_files() -> tuple[str, ...]:
    """Every file under the root (as ``a/b.py``), without virtualenvs, caches and Git."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [
            name
            for name in subfolders
            if name not in SKIPPED_FOLDERS and not (name.startswith(".") and name != ".ci")
        ]
        base = Path(folder).relative_to(ROOT)
        found += [(base / name).as_posix() for name in files]
    return tuple(found)


def path_exists(path: str, root: Path = ROOT) -> bool:
    if path.startswith(PATH_ROOTS) or (root / path).exists():
        return (root / path).exists()
    ending = "/" + path.lstrip("./")
    return any(("/" + name).endswith(ending) for name in repository_files())


def missing_paths(page: Path, root: Path = ROOT) -> list[str]:
    return [
        f"{page.name}:{line}: `{path}` is not in the repository"
        for line, path in code_paths(page.read_text(encoding="utf-8"))
        if not path_exists(path, root)
    ]


def first_code_block(text: str) -> list[str]:
    """The commands of the first fenced block: its lines that aren't empty or comments."""
    match = FENCE.search(text)
    assert match is not None, "no code block"
    body = match.group(0).splitlines()[1:-1]
    return [line for line in body if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.parametrize("page", pages(), ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []


@pytest.mark.parametrize("page", pages(), ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_backticked_path_is_in_the_repository(page: Path) -> None:
    assert missing_paths(page) == []


def test_the_readme_links_to_every_page_of_docs() -> None:
    """Every page in docs/ can be found from the README (and the checks above have
    links and paths to look at)."""
    text = README.read_text(encoding="utf-8")
    linked = {target.split("#", 1)[0] for _, target in link_targets(text)}
    assert {page.relative_to(ROOT).as_posix() for page in pages()[1:]} <= linked
    assert sum(1 for _ in code_paths(text)) >= 3


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_begins_with_the_two_setup_commands() -> None:
    commands = first_code_block(README.read_text(encoding="utf-8"))
    assert len(commands) == 2, commands
    runs_the_bot, runs_the_tests = commands
    assert "python -m bot" in runs_the_bot
    assert re.search(r"&&\s*pytest\b", runs_the_tests)


def test_a_planted_broken_link_and_path_are_reported(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("here\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n"
        "[fine](there.md#part), [web](https://example.com/nothing.md), [same](#a-page)\n"
        "[gone](nothere.md) and ![picture](images/none.png)\n"
        "`bot/play/clicks.py` is real, `play/clicks.py` too, `bot/play/<game>.py` is a "
        "pattern, `bot/play/gone.py` and `renamed_module.py` are not.\n"
        "```sh\n"
        "cat `bot/not/in/prose.py` [also](skipped.md)\n"
        "```\n"
    )
    assert broken_links(page) == [
        "page.md:3: link to nothere.md, which doesn't exist",
        "page.md:3: link to images/none.png, which doesn't exist",
    ]
    assert missing_paths(page) == [
        "page.md:4: `bot/play/gone.py` is not in the repository",
        "page.md:4: `renamed_module.py` is not in the repository",
    ]
