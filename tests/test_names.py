"""A name is text, never markup: `bot.names` escapes what Discord would render and keeps
bidi controls from reaching past the name."""

from __future__ import annotations

import re

import pytest

from bot.names import MAX_NAME_LENGTH, plain_name, shown_name

HOSTILE = [
    "[Free Nitro](https://x.io)",
    "**bold** and __under__",
    "# Heading",
    "||spoiler||",
    "@everyone",
    "<@123456789012345678>",
    "`code` > quote",
    "abc\u202edcba",
    "\u2066left\u2069 right",
]

UNESCAPED_MARKUP = re.compile(r"(?<!\\)(\]\(|\*\*|__|\|\||`|^#|<@|>)")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_shown_as_text(name: str) -> None:
    shown = shown_name(name)
    assert shown.startswith("\u2068") and shown.endswith("\u2069")
    inner = shown[1:-1]
    assert UNESCAPED_MARKUP.search(inner) is None, inner
    assert "@everyone" not in inner
    assert not set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069") & set(inner)


@pytest.mark.parametrize("name", HOSTILE)
def test_escaping_keeps_every_visible_character(name: str) -> None:
    unescaped = re.sub(r"\\(.)", r"\1", shown_name(name)[1:-1]).replace("\u200b", "")
    assert unescaped == plain_name(name)


def test_a_plain_name_loses_only_controls() -> None:
    assert plain_name("Łukasz 👩‍👩‍👧") == "Łukasz 👩‍👩‍👧"  # joiners of an emoji stay
    assert plain_name("ab\u202ecd\n\tef") == "abcd ef"
    assert plain_name("\u202e\u200f ") == "?"
    assert len(plain_name("x" * 100)) == MAX_NAME_LENGTH


def test_an_ordinary_name_reads_as_it_is() -> None:
    assert shown_name("山田太郎") == "\u2068山田太郎\u2069"
    assert shown_name("Ana María") == "\u2068Ana María\u2069"


def test_a_name_is_cut_before_it_is_escaped() -> None:
    name = "[Free Nitro](https://evil.example.com/x)"  # 40: the cut lands in the link
    assert plain_name(name) == "[Free Nitro](https://evil.exampl"
    assert shown_name(name) == (
        "\u2068\\[Free Nitro\\]\\(https\\:\u200b/\u200b/evil\\.exampl\u2069"
    )
    assert plain_name("x" * 31 + " yz") == "x" * 31  # no space left at the cut


def test_a_link_in_a_name_is_no_link() -> None:
    assert "://" not in shown_name("https://x.io").replace("\\", "")
    assert "discord.gg/" not in shown_name("discord.gg/free").replace("\\", "")
