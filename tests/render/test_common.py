"""The shared drawing pieces: fonts, sprites, suits and PNG output."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import texts
from bot.render.cards import (
    BIG_CARD,
    ROW_CARD,
    SMALL_CARD,
    card_stack,
    number_card,
    playing_card,
    suit_icon,
)
from bot.render.geschenkt import chip_tower
from bot.render.output import to_png
from bot.render.palette import PALETTE
from bot.render.shapes import chip, draw_rounded, new_panel, place
from bot.render.text import (
    Face,
    Run,
    TextStyle,
    face_for,
    font,
    join_words,
    pill,
    runs,
    text_width,
    uncovered,
)


def test_main_font_scales_and_fallbacks_cover_other_scripts() -> None:
    small, large = font(12), font(40)
    assert small.getlength("35") < large.getlength("35")
    assert face_for("A") is Face.MAIN
    assert face_for("日") is Face.CJK
    assert face_for("ש") is Face.HEBREW
    assert uncovered("A日ש\U000f0000") == "\U000f0000"


def test_number_card_sprites_have_the_card_inside() -> None:
    for size in (SMALL_CARD, ROW_CARD, BIG_CARD):
        sprite = number_card(35, size)
        assert sprite.image.width >= size.width + sprite.dx
        assert sprite.image.height >= size.height + sprite.dy
        inside = sprite.image.getpixel((sprite.dx + 3, sprite.dy + size.height // 2))
        assert isinstance(inside, tuple)
        assert inside[3] == 255


@pytest.mark.parametrize("suit", ["C", "D", "H", "S", ""])
def test_suits_are_drawn_without_glyphs(suit: str) -> None:
    icon = suit_icon(suit, 24)
    assert icon.size == (24, 24)
    alpha = icon.getchannel("A")
    assert alpha.getpixel((12, 12)) == 255  # every suit covers its middle
    assert alpha.getpixel((0, 0)) == 0


def test_unknown_suit_is_refused() -> None:
    with pytest.raises(ValueError):
        suit_icon("X", 24)


@pytest.mark.parametrize("card", [("10", "H"), ("A", "S"), ("Q", "D"), ("7", "C"), ("JK", "")])
def test_playing_cards_render(card: tuple[str, str]) -> None:
    rank, suit = card
    sprite = playing_card(rank, suit, ROW_CARD)
    assert sprite.image.width > ROW_CARD.width


def test_pieces_compose_on_a_panel() -> None:
    panel = new_panel(400, 200)
    draw_rounded(panel, (10, 10, 390, 190), 12, PALETTE.lane, PALETTE.accent, 2)
    place(panel, chip(14), 20, 20)
    place(panel, chip_tower(9, 16), 60, 20)
    place(panel, card_stack(SMALL_CARD, 12)[0], 120, 20)
    place(panel, playing_card("K", "S", BIG_CARD), 180, 20)
    width = pill(
        panel, (300, 100), "TO ACT", TextStyle(14, PALETTE.accent_ink, bold=True), PALETTE.accent
    )
    assert width > 40
    assert panel.getchannel("A").getpixel((200, 100)) == 255


def test_empty_stack_shows_no_backs() -> None:
    assert card_stack(SMALL_CARD, 0)[1] == 0
    assert card_stack(SMALL_CARD, 40)[1] == 4


def test_to_png_is_a_small_palette_png_keeping_transparency() -> None:
    panel = new_panel(300, 120)
    data = to_png(panel)
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        assert image.mode == "P"
        rgba = image.convert("RGBA")
    assert rgba.getchannel("A").getpixel((0, 0)) == 0  # outside the rounded corner
    middle = rgba.getpixel((150, 60))
    assert isinstance(middle, tuple)
    assert middle[3] == 255
    assert all(abs(got - want) <= 3 for got, want in zip(middle, PALETTE.panel, strict=True))
    assert to_png(panel) == data


def test_join_words() -> None:
    assert join_words([], "en") == ""
    assert join_words(["A"], "en") == "A"
    assert join_words(["A", "B"], "en") == "A and B"
    assert join_words(["A", "B", "C"], "en") == "A, B and C"
    assert join_words(["A", "B", "C"], "de") == "A, B und C"


def test_german_text_is_drawn_with_its_umlauts() -> None:
    style = TextStyle(20, (0, 0, 0, 255))
    assert runs("Zähler „Stöße“ – groß") == (Run(Face.MAIN, "Zähler „Stöße“ – groß"),)
    assert text_width("Müll", style) != text_width("Muell", style)


def test_every_german_letter_in_the_catalogue_can_be_drawn() -> None:
    german_letters = {char for text in texts("de").values() for char in text if char in "äöüÄÖÜß"}
    assert german_letters, "the catalogue has German text"
    assert uncovered("".join(german_letters) + "„“–") == ""
    assert all(face_for(char) is Face.MAIN for char in german_letters)
