"""The tournament standings image (`bot.render.tournament`): a round's table, and the
final standings with a podium.

Checked without eyes: valid PNGs 800 px wide, a podium only for the final standings
(gold, silver and bronze blocks, tied places sharing a block height), long and
hostile names cut inside their cells and never reaching another, every text whole
and legible on a phone (`tests/render/test_fit_sweep.problems`), at most 32 entrants
then a "more" line, no word but the caller's, and the same picture from a render
worker.
"""

from __future__ import annotations

from functools import partial
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.render.audit import Drawn, TextAudit, auditing_text
from bot.render.palette import PALETTE, RGBA
from bot.render.text import MIN_CAPTION_SIZE, MIN_TEXT_SIZE, TextStyle, text_width
from bot.render.tournament import (
    BLOCK_HEIGHTS,
    MAX_ROWS,
    WIDTH,
    StandingRow,
    hidden_rows,
    podium_blocks,
    podium_rows,
    render_standings,
    table_columns,
)
from bot.render.workers import RenderWorkers
from tests.render.images import decode, pixels_differ
from tests.render.test_fit_sweep import problems

HEADERS = ("#", "Player", "Games", "Points", "Tie-break")
MORE = "+ {n} more"
HOSTILE_NAMES = (
    "**bold** __under__ `code` ||spoiler|| [link](https://x.y)",
    "\u202eevil reversed\u202c and more after it",
    "\u2067isolated \u05e9\u05e8\u05d4\u2069 Ali",
    "A" * 200,
    "محمد " * 40,
    "山田太郎" * 50,
    "Zoë\n\tnew\u200bline",
    "@everyone <@123456789>",
    "🎲" * 60,
    "",
)
"""Markdown, bidi overrides and isolates, 200 characters of one script or another,
line breaks, mentions, emoji only, and a blank name."""


def row(
    rank: int,
    name: str,
    points: str = "2½",
    *,
    tie_break: str = "Bh 7½",
    games: int = 3,
    is_computer: bool = False,
) -> StandingRow:
    return StandingRow(rank, name, points, tie_break, games, is_computer)


def field(count: int) -> list[StandingRow]:
    """``count`` entrants, one a place, best first."""
    return [
        row(k + 1, f"Player {k + 1}", f"{max(0, 4 - k // 4)}", tie_break=f"Bh {20 - k // 2}")
        for k in range(count)
    ]


Headers = tuple[str, str, str, str, str]


def draw(
    rows: list[StandingRow],
    *,
    final: bool,
    title: str = "Geschenkt tournament",
    subtitle: str = "after round 2",
    headers: Headers = HEADERS,
    more_text: str = MORE,
) -> bytes:
    return render_standings(
        title, subtitle, rows, "en", final=final, headers=headers, more_text=more_text
    )


def audited(rows: list[StandingRow], *, final: bool, **words: Any) -> tuple[bytes, TextAudit]:
    with auditing_text() as audit:
        png = draw(rows, final=final, **words)
    return png, audit


def drawn_texts(audit: TextAudit) -> list[Drawn]:
    return [item for _, items in audit.drawn.values() for item in items if not item.shape]


TOLERANCE = 10
"""How far a drawn colour may be from the palette's (the PNG's palette moves it)."""


def near(pixel: object, colour: RGBA, tolerance: int = TOLERANCE) -> bool:
    """A pixel of about ``colour`` (the PNG's palette moves a colour a little)."""
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour[:3], strict=True))


def count_near(image: Image.Image, colour: RGBA, box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``box`` are about ``colour``."""
    region = image.crop(box).convert("RGB")
    difference = ImageChops.difference(region, Image.new("RGB", region.size, colour[:3]))
    red, green, blue = difference.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(worst.histogram()[: TOLERANCE + 1])


# --- valid output ------------------------------------------------------------------


@pytest.mark.parametrize("final", [False, True])
@pytest.mark.parametrize("count", [1, 3, 12, 40])
def test_renders_a_valid_png_of_the_tables_width(final: bool, count: int) -> None:
    png = draw(field(count), final=final)
    image = decode(png)
    assert image.width == WIDTH == 800
    assert 150 <= image.height <= 2400
    assert len(png) < 150_000


def test_more_entrants_make_a_taller_image() -> None:
    heights = [decode(draw(field(count), final=False)).height for count in (4, 12, 32)]
    assert heights == sorted(heights)
    assert len(set(heights)) == 3


def test_the_panel_is_opaque_with_transparent_rounded_corners() -> None:
    image = decode(draw(field(12), final=True))
    alpha = image.getchannel("A")
    right, bottom = image.width - 1, image.height - 1
    for corner in [(0, 0), (right, 0), (0, bottom), (right, bottom)]:
        assert alpha.getpixel(corner) == 0
    assert alpha.crop((12, 12, image.width - 12, image.height - 12)).getextrema() == (255, 255)


# --- the podium --------------------------------------------------------------------


def test_a_podium_is_drawn_for_the_final_standings_only() -> None:
    rows = field(12)
    final, round_ = decode(draw(rows, final=True)), decode(draw(rows, final=False))
    podium_area = (20, 100, WIDTH - 20, 330)
    assert pixels_differ(draw(rows, final=True), draw(rows, final=False))
    gold, silver, bronze = PALETTE.accent, PALETTE.silver, PALETTE.bronze
    for colour in (gold, silver, bronze):  # a block of each, thousands of pixels
        assert count_near(final, colour, podium_area) > 5_000
        assert count_near(round_, colour, (0, 0, *round_.size)) < 50


def test_the_best_stands_in_the_middle_on_the_tallest_block() -> None:
    blocks = podium_blocks(podium_rows(field(12)))
    assert [block.row.rank for block in blocks] == [2, 1, 3]
    assert blocks[1].height > blocks[0].height > blocks[2].height
    assert blocks[1].height == BLOCK_HEIGHTS[1]
    middle = (blocks[1].left + blocks[1].width / 2) - WIDTH / 2
    assert abs(middle) <= 1


def test_the_podium_leaves_the_others_to_the_table() -> None:
    with auditing_text() as audit:
        draw(field(12), final=True)
    texts = audit.texts()
    for k in range(1, 13):  # each name once: on the podium or in the table
        assert texts.count(f"Player {k}") == 1


def block_height_drawn(image: Image.Image, x: int, floor_y: int, colour: RGBA) -> int:
    """How many pixels of ``colour`` stand above ``floor_y`` in column ``x``."""
    height = 0
    while near(image.getpixel((x, floor_y - 1 - height)), colour):
        height += 1
    return height


def test_ties_share_a_place_and_a_block_height_on_the_podium() -> None:
    rows = [row(1, "Ann"), row(1, "Bea"), row(3, "Cy"), *field(12)[3:]]
    podium = podium_rows(rows)
    blocks = podium_blocks(podium)
    assert [block.row.rank for block in blocks] == [1, 1, 3]
    assert blocks[0].height == blocks[1].height == BLOCK_HEIGHTS[1]
    image = decode(draw(rows, final=True))
    floor_y = (
        max(y for y in range(image.height) if near(image.getpixel((WIDTH // 2, y)), PALETTE.accent))
        + 1
    )
    heights = [
        block_height_drawn(image, block.left + 14, floor_y, PALETTE.accent) for block in blocks[:2]
    ]
    assert heights[0] == heights[1] >= BLOCK_HEIGHTS[1] - 4
    assert block_height_drawn(image, blocks[2].left + 14, floor_y, PALETTE.bronze) < heights[0]
    assert count_near(image, PALETTE.silver, (0, 0, *image.size)) < 50  # no second place
    with auditing_text() as audit:
        draw(rows, final=True)
    assert audit.texts().count("1") == 2  # both blocks say "1"


def test_a_tie_for_third_puts_both_on_the_podium() -> None:
    rows = [row(1, "Ann"), row(2, "Bea"), row(3, "Cy"), row(3, "Dee"), row(5, "Eve")]
    assert [r.name for r in podium_rows(rows)] == ["Ann", "Bea", "Cy", "Dee"]
    heights = {block.row.name: block.height for block in podium_blocks(podium_rows(rows))}
    assert heights["Cy"] == heights["Dee"] < heights["Bea"] < heights["Ann"]


def test_everyone_tied_fills_the_podium_then_the_table() -> None:
    rows = [row(1, f"P{k}") for k in range(8)]
    podium = podium_rows(rows)
    assert len(podium) == 5
    blocks = podium_blocks(podium)
    assert len({block.height for block in blocks}) == 1
    lefts = [block.left for block in blocks]
    assert all(b.left + b.width < c.left for b, c in pairwise(blocks))
    assert lefts[0] >= 36 and blocks[-1].left + blocks[-1].width <= WIDTH - 36
    png, audit = audited(rows, final=True)
    assert problems(audit, decode(png).width) == []


# --- names and texts in their cells ---------------------------------------------------


def boxes_of(audit: TextAudit, text: str) -> list[Drawn]:
    return [item for item in drawn_texts(audit) if item.text == text]


@pytest.mark.parametrize("final", [False, True])
def test_long_and_hostile_names_stay_inside_their_cells(final: bool) -> None:
    rows = [row(k + 1, name) for k, name in enumerate(HOSTILE_NAMES)]
    png, audit = audited(rows, final=final)
    assert problems(audit, decode(png).width) == []
    blocks = podium_blocks(podium_rows(rows)) if final else []
    name_left, name_right = table_columns(rows[len(blocks) :], HEADERS).name
    others = {"Geschenkt tournament", "after round 2", *HEADERS, "2½", "Bh 7½", "3"}
    others |= {str(r.rank) for r in rows}
    names = [item for item in drawn_texts(audit) if item.text not in others]
    assert len(names) == len(rows)
    assert sum(item.text.endswith("…") for item in names) >= 5  # the long ones, cut
    for item in names:
        left, _, right, _ = item.box
        in_table = name_left - 1 <= left and right <= name_right + 1
        in_block = any(
            block.left - 1 <= left and right <= block.left + block.width + 1 for block in blocks
        )
        assert in_table or in_block, item


def test_a_long_name_keeps_off_the_numbers_of_its_row() -> None:
    rows = [row(1, "W" * 200, points="12½", tie_break="Bh 99½", games=11)]
    png, audit = audited(rows, final=False)
    assert problems(audit, decode(png).width) == []
    (name,) = [item for item in drawn_texts(audit) if item.text.startswith("WWW")]
    assert name.text.endswith("…")
    (games,) = boxes_of(audit, "11")
    assert name.box[2] < games.box[0]


def test_an_override_character_reaches_no_further_than_its_name() -> None:
    """A name with a right-to-left override draws the rest of its row as a name
    without one does."""
    plain = decode(draw([row(1, "evil"), row(2, "Bob")], final=False))
    hostile = decode(draw([row(1, "\u202eevil\u202c"), row(2, "\u202eBob")], final=False))
    name_left, name_right = table_columns([row(1, "evil")], HEADERS).name
    for image in (plain, hostile):
        image.paste((0, 0, 0, 0), (name_left - 2, 0, name_right + 2, image.height))
    assert plain.size == hostile.size
    assert worst_difference(plain, hostile) <= 24  # the PNG's palette may move a colour


def worst_difference(a: Image.Image, b: Image.Image) -> int:
    """The largest difference of one channel of one pixel (0: the same picture)."""
    extrema = ImageChops.difference(a, b).getextrema()
    return max(high for _, high in extrema)  # type: ignore[misc]


def test_a_name_is_drawn_as_plain_text() -> None:
    markdown = "**Bo** `b`"
    with auditing_text() as audit:
        draw([row(1, markdown)], final=False)
    assert markdown in audit.texts()


def test_a_computer_seat_is_drawn_unlike_a_person() -> None:
    person = draw([row(1, "🤖 Computer 1")], final=False)
    computer = draw([row(1, "🤖 Computer 1", is_computer=True)], final=False)
    assert pixels_differ(person, computer)


# --- the last line ------------------------------------------------------------------


def test_forty_entrants_draw_thirty_two_and_a_more_line() -> None:
    png, audit = audited(field(40), final=False)
    texts = audit.texts()
    assert [k for k in range(1, 41) if f"Player {k}" in texts] == list(range(1, 33))
    assert "+ 8 more" in texts
    assert hidden_rows(40) == 8 and MAX_ROWS == 32
    assert problems(audit, decode(png).width) == []
    more = boxes_of(audit, "+ 8 more")[0]
    last = boxes_of(audit, "Player 32")[0]
    assert more.box[1] > last.box[3]  # the last line, under the last entrant


def test_forty_entrants_in_the_final_count_the_podium_among_the_thirty_two() -> None:
    _, audit = audited(field(40), final=True)
    texts = audit.texts()
    assert [k for k in range(1, 41) if f"Player {k}" in texts] == list(range(1, 33))
    assert "+ 8 more" in texts


def test_thirty_two_entrants_need_no_more_line() -> None:
    _, audit = audited(field(32), final=False)
    assert not [text for text in audit.texts() if "more" in text]
    assert hidden_rows(32) == 0


# --- words and legibility ---------------------------------------------------------------


def test_every_word_drawn_is_the_callers() -> None:
    rows = [*field(5), row(6, "Zoë", "1⅓", tie_break="SB 4¼", games=2, is_computer=True)]
    words: dict[str, Any] = {
        "title": "Geschenkt-Turnier",
        "subtitle": "nach Runde 2",
        "headers": ("Pl.", "Spieler", "Partien", "Punkte", "Feinwertung"),
        "more_text": "+ {n} weitere",
    }
    for final in (False, True):
        _, audit = audited([*rows, *field(40)[6:]], final=final, **words)
        allowed = {
            str(words["title"]),
            str(words["subtitle"]),
            *words["headers"],
            "+ 8 weitere",
            *(r.name for r in [*rows, *field(40)]),
            *(r.points for r in [*rows, *field(40)]),
            *(r.tie_break for r in [*rows, *field(40)]),
            *(str(n) for n in range(41)),
        }
        assert set(audit.texts()) <= allowed
        assert "Feinwertung" in audit.texts()


def test_long_headings_and_a_long_title_are_drawn_whole() -> None:
    words: dict[str, Any] = {
        "title": "Ŝţàñðîñĝš öƒ ţĥé Ĝéšçĥéñķţ ţöûŕñàméñţ öƒ ţĥé ŵééķéñð · ŵéẋţŕàļöñĝ",
        "subtitle": "Àƒţéŕ ŕöûñð 2 öƒ 3 · 12 þļàýéŕš · ŵéẋţŕàļöñĝ ŵéẋţŕàļöñĝ ŵéẋţŕàļöñĝ",
        "headers": ("#", "Þļàýéŕ ŵé", "Ĝàméš ŵé", "Þöîñţš ŵé", "Ţîé-ƀŕéàķ ŵéẋ"),
    }
    for final in (False, True):
        png, audit = audited(field(12), final=final, **words)
        assert problems(audit, decode(png).width) == []
        assert words["headers"][4] in audit.texts()


def test_a_very_long_tie_break_gives_way_to_the_name() -> None:
    rows = [row(1, "Alice", tie_break="Bh 12½ · SB 80¼ · wins 7 · " * 6)]
    columns = table_columns(rows, HEADERS)
    assert columns.name[1] - columns.name[0] >= 220
    assert columns.tie_break[0] > columns.points[1]


def test_an_empty_heading_leaves_its_column_out() -> None:
    rows = field(3)
    with_games = table_columns(rows, HEADERS)
    without = table_columns(rows, ("#", "Signed up", "", "Rating", ""))
    assert without.games[0] == without.games[1]
    assert without.tie_break[0] == without.tie_break[1]
    assert without.name[1] > with_games.name[1]
    _, audit = audited(rows, final=False, headers=("#", "Signed up", "", "Rating", ""))
    assert audit.texts().count("3") == 1  # the third's rank, and no games column
    assert not [text for text in audit.texts() if text.startswith("Bh")]
    _, audit = audited(rows, final=False)
    assert audit.texts().count("3") == 4


def test_every_text_style_is_legible_on_a_phone() -> None:
    """18 px at the least (9 px at 400 px wide); captions 22 (11 px)."""
    import bot.render.tournament as module

    styles = {name: v for name, v in vars(module).items() if isinstance(v, TextStyle)}
    assert styles
    assert all(style.size >= MIN_TEXT_SIZE for style in styles.values())
    captions = [style for name, style in styles.items() if "CAPTION" in name]
    assert captions and all(s.caption and s.size >= MIN_CAPTION_SIZE for s in captions)
    assert text_width("Player", styles["NAME"]) > 0


def test_a_long_title_wraps_onto_a_second_line_whole() -> None:
    title = "The Thursday night Geschenkt tournament of the Friendly Neighbourhood Board Gamers"
    png, audit = audited(field(3), final=False, title=title)
    assert problems(audit, decode(png).width) == []
    lines = [item for item in drawn_texts(audit) if item.text in title and len(item.text) > 12]
    assert len(lines) == 2
    assert " ".join(item.text for item in lines) == title
    assert all(item.size >= 24 for item in lines)


# --- a render worker ------------------------------------------------------------------


async def test_a_render_worker_draws_the_same_standings() -> None:
    rows = field(12)
    work = partial(render_standings, final=True, headers=HEADERS, more_text=MORE)
    workers = RenderWorkers(processes=1)
    try:
        drawn = await workers.run(work, "Final", "3 rounds", rows, "en")
    finally:
        workers.close()
    assert drawn == work("Final", "3 rounds", rows, "en")
