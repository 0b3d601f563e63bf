"""Names are text everywhere (issue 42): hostile display names go through every builder
of every game's messages that runs without Discord, and no name turns into markup.

`problems` reads markdown as Discord does (a backslash before any ASCII punctuation or
other non-alphanumeric character makes it literal) and reports what a name could do:

- a masked link: an unescaped ``](``;
- a link Discord would make by itself: ``scheme://`` or an invite (``discord.gg/…``)
  in the text as it reads, whether or not a character of it is escaped;
- a mention: ``@everyone`` or ``@here`` as it reads, an unescaped ``<`` before ``@``,
  ``#``, ``:``, ``/``, ``a:`` or ``t:``, or ``<@`` and a digit as it reads;
- a bidi control or a right-to-left letter (none is the bot's own, in English) outside
  an isolate (FSI/LRI/RLI … PDI), an unclosed isolate or a stray PDI on a line;
- given the same builder's text with harmless names: any unescaped markdown character
  (``*_~`|>#-[]()<:.!+=``) more or fewer than there, that is one a name brought in, or
  one of the template's a name's trailing backslash escaped.

The checker is shown to catch the old `/history` escaping (``escape_markdown`` and
``escape_mentions``) and a cut after escaping or without it.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, cast

import discord
import pytest
from pydantic import BaseModel

from bot import table_life
from bot.engines.base import SeededRng
from bot.games import GAMES, GameSpec
from bot.names import MAX_NAME_LENGTH, plain_name, shown_name
from bot.play.history import export_text, history_line, log_entries, players_line, tell
from bot.play.messages import Messages, missed_turns_lines
from bot.render.workers import RenderWorkers
from bot.storage.records import GameRecord
from bot.table import Move, Seat, Table
from bot.texts import TableText

LINK_40 = "[Free Nitro](https://evil.example.com/x)"
"""40 characters: cut to 32 it ends inside the link, ``[Free Nitro](https://evil.exampl``."""
RIGHT_TO_LEFT = "\u05e9\u05dc\u05d5\u05dd 1-2 \u0645\u0631\u062d\u0628\u0627"
STAR_AT_THE_CUT = "x" * 31 + "*"
"""32 characters: escaped, then cut to 32, it ends in a lone backslash."""
HOSTILE = [
    LINK_40,
    r"\[Free Nitro](https://evil.ex)",
    "**bold** __under__ ~~gone~~",
    "@everyone",
    "<@123>",
    "||spoiler||",
    "# heading",
    "abc\u202edcba",
    RIGHT_TO_LEFT,
    "`code` ``tick``",
    "@here <@&456> <#789> :smile:",
    "discord.gg/free <https://x.io>",
    "-# small > quote",
    "1. list\\",
    STAR_AT_THE_CUT,
]
BENIGN = ["Alice", "Bernd", "Chloe", "Dara", "Emil", "Fiona"]
PERSONS = [str(1_000_000_000_000_000_001 + n) for n in range(6)]
"""People's ids, as Discord's snowflakes read."""

MARKUP = frozenset("*_~`|>#-[]()<:.!+=")
BIDI_OPEN = frozenset("\u2066\u2067\u2068")
BIDI_CLOSE = "\u2069"
BIDI_OTHER = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e")
_ESCAPABLE = re.compile(r"[^0-9A-Za-z\s]")
_AUTOLINK = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_INVITE = re.compile(r"discord(?:\.gg|(?:app)?\.com/invite)/", re.IGNORECASE)
_EVERYONE = re.compile(r"@(?:everyone|here)", re.IGNORECASE)
_MENTION_SEEN = re.compile(r"<@[!&]?\d")
_OWN_MARKUP = re.compile("|".join([*(f"<@{p}>" for p in PERSONS), r"<t:\d+(?::[tTdDfFR])?>"]))


def read(markdown: str) -> list[tuple[str, bool]]:
    """``markdown``'s characters as Discord reads them: (character, escaped)."""
    read_: list[tuple[str, bool]] = []
    i = 0
    while i < len(markdown):
        char = markdown[i]
        if char == "\\" and i + 1 < len(markdown) and _ESCAPABLE.match(markdown[i + 1]):
            read_.append((markdown[i + 1], True))
            i += 2
        else:
            read_.append((char, False))
            i += 1
    return read_


def visible(markdown: str) -> str:
    return "".join(char for char, _ in read(markdown))


def unescaped_markup(markdown: str) -> Counter[str]:
    return Counter(char for char, escaped in read(markdown) if not escaped and char in MARKUP)


def problems(markdown: str, harmless: str | None = None) -> list[str]:
    """What in ``markdown`` a name could have made markup of (`harmless`: the same
    text with harmless names, for the count of markdown characters). The bot's own
    mentions of the seated people and its timestamps are not a name's doing."""
    markdown = _OWN_MARKUP.sub("·", markdown)
    if harmless is not None:
        harmless = _OWN_MARKUP.sub("·", harmless)
    found: list[str] = []
    chars = read(markdown)
    seen = "".join(char for char, _ in chars)
    for (a, a_escaped), (b, b_escaped) in itertools.pairwise(chars):
        if a == "]" and b == "(" and not a_escaped and not b_escaped:
            found.append("a masked link")
        if a == "<" and not a_escaped and b in "@#:/at" and not b_escaped:
            found.append(f"an unescaped <{b}")
    if _AUTOLINK.search(seen) or _INVITE.search(seen):
        found.append("a link Discord makes by itself")
    if _EVERYONE.search(seen):
        found.append("@everyone or @here")
    if _MENTION_SEEN.search(seen):
        found.append("a mention <@…")
    for line in markdown.split("\n"):
        depth = 0
        for char in line:
            if char in BIDI_OPEN:
                depth += 1
            elif char == BIDI_CLOSE:
                if depth == 0:
                    found.append("a stray PDI")
                depth = max(0, depth - 1)
            elif char in BIDI_OTHER and depth == 0:
                found.append(f"U+{ord(char):04X} outside an isolate")
            elif depth == 0 and unicodedata.bidirectional(char) in {"R", "AL"}:
                found.append("right-to-left letters outside an isolate")
        if depth:
            found.append("an unclosed isolate")
    if harmless is not None and unescaped_markup(markdown) != unescaped_markup(harmless):
        extra = unescaped_markup(markdown)
        extra.subtract(unescaped_markup(harmless))
        found.append(f"markup from a name: {dict(+extra)} more, {dict(-extra)} fewer")
    return found


# The old ways, kept to show that the checker catches them.


def old_history_escaped(name: str) -> str:
    """`/history`'s own escaping before issue 42."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def cut_after_escaping(name: str) -> str:
    return old_history_escaped(name)[:MAX_NAME_LENGTH]


def cut_without_escaping(name: str) -> str:
    return name[:MAX_NAME_LENGTH]


def in_line(shown: Callable[[str], str], name: str, other: str = "Bob") -> str:
    """A line of the kind the bot writes, with ``name`` shown by ``shown``."""
    return f"**{shown(name)}**: took 16 from {shown(other)} · **{shown(name)}** wins!"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_makes_no_markup_in_a_line(name: str) -> None:
    text = in_line(shown_name, name)
    assert problems(text, in_line(shown_name, "Alice")) == [], text
    assert visible(shown_name(name)).replace("\u200b", "")[1:-1] == plain_name(name)


def test_the_checker_catches_the_old_history_escaping() -> None:
    def caught(name: str, shown: Callable[[str], str] = old_history_escaped) -> list[str]:
        return problems(in_line(shown, name), in_line(shown, "Alice"))

    assert "a masked link" in caught(LINK_40)
    assert "a link Discord makes by itself" in caught(LINK_40)
    assert "a masked link" in caught(r"\[Free Nitro](https://evil.ex)")
    assert "a link Discord makes by itself" in caught(r"\[Free Nitro](https://evil.ex)")
    assert "an unescaped <@" in caught("<@123>")
    assert "U+202E outside an isolate" in caught("abc\u202edcba")
    assert "right-to-left letters outside an isolate" in caught(RIGHT_TO_LEFT)
    assert "a link Discord makes by itself" in caught("discord.gg/free <https://x.io>")
    flagged = {name for name in HOSTILE if caught(name)}
    assert len(flagged) >= 6, flagged
    # What it gets right stays unflagged: the checker is no blanket "no".
    assert caught("@everyone") == caught("**bold** __under__ ~~gone~~") == []


def test_the_checker_catches_a_cut_after_escaping_or_without_it() -> None:
    def caught(name: str, shown: Callable[[str], str]) -> list[str]:
        return problems(in_line(shown, name), in_line(shown, "Alice"))

    assert len(LINK_40) == 40
    assert cut_without_escaping(LINK_40) == "[Free Nitro](https://evil.exampl"
    assert "a link Discord makes by itself" in caught(LINK_40, cut_without_escaping)
    assert "a link Discord makes by itself" in caught(LINK_40, cut_after_escaping)
    # A cut after escaping that leaves a lone backslash escapes the template's "**".
    assert cut_after_escaping(STAR_AT_THE_CUT).endswith("\\")
    assert any("markup from a name" in p for p in caught(STAR_AT_THE_CUT, cut_after_escaping))
    assert caught(STAR_AT_THE_CUT, shown_name) == []


# Every game's builders.


class NoPictures:
    """The render workers, drawing nothing (the images are not markdown)."""

    async def run(self, function: Callable[..., Any], *args: Any) -> None:
        return None


def name_sets(count: int) -> Iterator[list[str]]:
    """Sets of ``count`` hostile names that together hold every one of `HOSTILE`."""
    for start in range(0, len(HOSTILE), count):
        yield [HOSTILE[(start + n) % len(HOSTILE)] for n in range(count)]


def played(spec: GameSpec[Any, Any, Any], seed: int) -> tuple[list[BaseModel], list[Move]]:
    """A whole game of easy computers seated as people: its states and its moves."""
    engine = spec.engine
    players = PERSONS[: spec.typical_players]
    state: BaseModel = engine.new_game(players, seed, engine.Options.model_validate({}))
    states, moves = [state], []
    rng = SeededRng.from_seed(seed)
    for n in range(3000):
        if engine.is_over(state):
            break
        player = engine.to_act(state)[0]
        action = spec.players["easy"](engine.view(state, player), rng)
        key = spec.adapter.action_key(action)
        state = spec.adapter.perform(state, player, key)
        states.append(state)
        moves.append(Move(p=player, k=key, by="click", t=n))
    assert engine.is_over(state), spec.name
    return states, moves


def table_of(spec: GameSpec[Any, Any, Any], names: list[str], seed: int) -> Table:
    """A table seated as the Discord side seats people (`table_life.person_seat`)."""
    seats = [table_life.person_seat(p, name) for p, name in zip(PERSONS, names, strict=False)]
    return Table(game=spec.name, guild_id=1, channel_id=2, host=PERSONS[0], seats=seats, seed=seed)


def texts(text: TableText) -> list[str]:
    return [text.description, *(part for field in text.fields for part in field)]


def embed_texts(embed: discord.Embed) -> list[str]:
    return [
        embed.title or "",
        embed.description or "",
        *(part for field in embed.fields for part in (field.name or "", field.value or "")),
    ]


async def every_text(
    spec: GameSpec[Any, Any, Any],
    names: list[str],
    states: list[BaseModel],
    moves: list[Move],
    seed: int,
) -> list[str]:
    """Every markdown text the game's builders make for a game between people named
    ``names``: the table, its moves, deals, results and panels, the lobby and table
    messages with their events, and `/history`'s log, replay and list lines."""
    adapter, engine = spec.adapter, spec.engine
    table = table_of(spec, names, seed)
    shown = table.shown_names()
    made: list[str] = []
    step = max(1, len(moves) // 40)  # panels at some 40 points of the game
    for n, state in enumerate(states):
        public = engine.view(state, None)
        if engine.is_over(state):
            made += texts(adapter.results_text(public, engine.outcome(state), shown, "en"))
        else:
            made += texts(adapter.table_text(public, shown, "en"))
        if n % step == 0 or n == len(states) - 1:
            for player in PERSONS[: len(names)]:
                panel = adapter.private_panel(engine.view(state, player), {}, shown, "en")
                made.append(panel.text)
        if n:
            before = engine.view(states[n - 1], None)
            made.append(adapter.move_text(moves[n - 1].k, before, public, shown, "en"))
            summary = adapter.deal_summary(before, public, shown, "en")
            if summary is not None:
                made += texts(summary)
    messages = Messages(adapter, cast(RenderWorkers, NoPictures()))
    made += embed_texts(messages.lobby(table, 1).embed)
    playing = table.model_copy(update={"phase": "playing", "moves": moves})
    words = adapter.move_text(
        moves[0].k, engine.view(states[0], None), engine.view(states[1], None), shown, "en"
    )
    playing = table_life.moved_by(playing, PERSONS[0], words)
    playing = table_life.clock_ran_out(playing, PERSONS[1])
    made += missed_turns_lines(playing, "en")
    middle = states[len(states) // 2]
    message = await messages.table(playing, middle, 2)
    made += [message.content or "", *embed_texts(message.embed)]
    made += embed_texts((await messages.table(playing, states[-1], 3)).embed)
    own = await messages.panel(playing, 2, middle, PERSONS[1], {}, "en", expires=0)
    made += embed_texts(own.embed)
    handed = table_life.handed_to_computer(playing, PERSONS[0])
    made += embed_texts((await messages.table(handed, middle, 4)).embed)
    told = tell(adapter, table.seats, seed, {}, moves, "en")
    assert told.broken_at is None
    made += log_entries(told, "en")
    record = GameRecord.of(playing, engine.outcome(states[-1]), 1_764_000_000)
    made += [players_line(record), history_line(record, "Geschenkt", "en")]
    return made


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
async def test_hostile_names_make_no_markup_in_any_game_s_messages(
    spec: GameSpec[Any, Any, Any],
) -> None:
    seed = 11
    states, moves = played(spec, seed)
    count = spec.typical_players
    harmless = await every_text(spec, BENIGN[:count], states, moves, seed)
    for names in name_sets(count):
        made = await every_text(spec, names, states, moves, seed)
        assert len(made) == len(harmless)
        for n, (text, plain) in enumerate(zip(made, harmless, strict=True)):
            assert problems(text, plain) == [], (names, n, text)
        everything = visible("\n".join(made))
        for name in names:  # each name is shown somewhere, so the check isn't empty
            assert visible(shown_name(name)) in everything, name


def test_the_sweep_catches_the_old_history_escaping() -> None:
    spec = GAMES[0]
    seed = 11
    _, moves = played(spec, seed)
    count = spec.typical_players
    harmless = [Seat(id=p, name=name) for p, name in zip(PERSONS, BENIGN[:count], strict=False)]
    raw = [LINK_40, "<@123>", "abc\u202edcba"]  # as an old record may hold them
    hostile = [Seat(id=p, name=name) for p, name in zip(PERSONS, raw[:count], strict=False)]
    before = tell(spec.adapter, harmless, seed, {}, moves, "en", old_history_escaped).lines
    after = tell(spec.adapter, hostile, seed, {}, moves, "en", old_history_escaped).lines
    caught = {p for text, plain in zip(after, before, strict=True) for p in problems(text, plain)}
    assert {"a masked link", "an unescaped <@", "U+202E outside an isolate"} <= caught, caught
    assert not any(
        problems(text, plain)
        for text, plain in zip(
            tell(spec.adapter, hostile, seed, {}, moves, "en").lines,
            tell(spec.adapter, harmless, seed, {}, moves, "en").lines,
            strict=True,
        )
    )


def test_the_downloaded_text_log_has_the_names_as_written() -> None:
    """A text file isn't markdown: its names are `plain_name`, not escaped."""
    spec = GAMES[0]
    seed = 11
    states, moves = played(spec, seed)
    table = table_of(spec, HOSTILE[: spec.typical_players], seed)
    table = table.model_copy(update={"phase": "over", "moves": moves})
    record = GameRecord.of(table, spec.engine.outcome(states[-1]), 1_764_000_000)
    told = tell(spec.adapter, record.seats, seed, {}, moves, "en", plain_name)
    text = export_text(record, spec.adapter, told)
    for name in HOSTILE[: spec.typical_players]:
        assert plain_name(name) in text
    assert "\u2068" not in text and "\u200b" not in text
