"""Names and words drawn as written: per-run fonts, shaping, fitting by width."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from PIL import Image, ImageDraw, ImageFont

import bot.render.text as text_module
from bot.i18n import tr
from bot.render.audit import auditing_text
from bot.render.palette import PALETTE
from bot.render.text import (
    BOLD_WEIGHT,
    REPLACEMENT,
    Face,
    MaskCachingFont,
    Run,
    TextStyle,
    character_map,
    cut_name,
    display_name,
    draw_text,
    fit_names,
    fit_text,
    font_path,
    number_text,
    runs,
    seat_name,
    signed,
    text_width,
    uncovered,
    whole_lines,
)

HARD_NAMES = [
    "Zoë",
    "Søren",
    "Łukasz",
    "Дмитрий",
    "Γιώργος",
    "山田太郎",
    "김민준",
    "محمد",
    "שרה",
    "🎲 Dice",
    "Ñandú Ümlaut Straße",
    "🤖 Normal",
]
STYLE = TextStyle(24, PALETTE.text, bold=True)


def ink(text: str, style: TextStyle = STYLE) -> Image.Image:
    """``text`` drawn white on black, cropped to its ink."""
    image = Image.new("RGBA", (round(text_width(text, style)) + 40, 60), (0, 0, 0, 255))
    draw_text(ImageDraw.Draw(image), (20, 30), text, style.but(fill=(255, 255, 255, 255)), "lm")
    box = image.convert("L").getbbox()
    assert box is not None, f"nothing drawn for {text!r}"
    return image.crop(box)


@pytest.mark.parametrize("name", HARD_NAMES)
def test_every_character_of_a_hard_name_is_in_its_runs_font(name: str) -> None:
    assert display_name("p", {"p": name}, 0, "en") == name
    assert uncovered(name) == ""
    drawn = runs(name)
    assert "".join(run.text for run in drawn).replace(" ", "") != ""
    for run in drawn:
        assert REPLACEMENT not in run.text
        missing = [ch for ch in run.text if ch != " " and ord(ch) not in character_map(run.face)]
        assert missing == [], f"{name!r}: {missing} not in {run.face.name}"
    assert sorted("".join(run.text for run in drawn)) == sorted(name)


@pytest.mark.parametrize(
    ("name", "face"),
    [("山田太郎", Face.CJK), ("김민준", Face.CJK), ("محمد", Face.ARABIC), ("שרה", Face.HEBREW)],
)
def test_other_scripts_take_their_own_face(name: str, face: Face) -> None:
    assert runs(name) == (Run(face, name),)


def test_an_emoji_takes_the_emoji_face_and_the_words_the_main_one() -> None:
    assert runs("🎲 Dice") == (Run(Face.EMOJI, "🎲"), Run(Face.MAIN, " Dice"))


def test_right_to_left_words_are_set_right_to_left_in_a_left_to_right_line() -> None:
    assert runs("Ali محمد שרה!") == (
        Run(Face.MAIN, "Ali "),
        Run(Face.HEBREW, "שרה"),
        Run(Face.MAIN, " "),
        Run(Face.ARABIC, "محمد"),
        Run(Face.MAIN, "!"),
    )


def test_arabic_is_shaped() -> None:
    """Joined letters differ from the same letters kept apart by non-joiners."""
    apart = "\u200c".join("محمد")
    assert runs(apart) == (Run(Face.ARABIC, apart),)
    assert ink("محمد").tobytes() != ink(apart).tobytes()


def test_only_an_uncovered_character_is_replaced() -> None:
    name = "Ann\U000f0000a"
    assert uncovered(name) == "\U000f0000"
    assert runs(name) == (Run(Face.MAIN, f"Ann{REPLACEMENT}a"),)
    assert display_name("p", {"p": name}, 0, "en") == name


def test_a_blank_name_is_the_seat_and_a_messy_one_is_tidied() -> None:
    assert display_name("p", {"p": "  Zoë\n\tB  "}, 2, "en") == "Zoë B"
    assert display_name("p", {"p": "\n\t "}, 2, "de") == "Spieler 3"


@pytest.mark.parametrize("name", ["山田太郎" * 8, "The Grand Duchess of Luxembourg!", "محمد" * 8])
def test_a_long_name_is_cut_by_width_with_an_ellipsis(name: str) -> None:
    fitted = fit_text(name, STYLE, 200)
    assert fitted.endswith("…")
    assert text_width(fitted, STYLE) <= 200
    assert name.startswith(fitted[:-1])


def test_german_words_are_drawn_with_their_umlauts() -> None:
    for word in ["ZÜGE", "Weiß am Zug", "TÜRKISCH", tr("de", "Player {n}", n=1)]:
        assert uncovered(word) == ""
        assert runs(word) == (Run(Face.MAIN, word),)
    assert ink("ZÜGE").tobytes() != ink("ZUGE").tobytes()
    assert ink("ZÜGE").height > ink("ZUGE").height  # the dots are drawn


def test_every_hard_name_draws_ink_unlike_the_replacement() -> None:
    box = ink(REPLACEMENT)
    for name in HARD_NAMES:
        drawn = ink(name)
        assert drawn.size != box.size or drawn.tobytes() != box.tobytes()


def test_a_seat_name_falls_back_to_its_seat_number() -> None:
    players = ["a", "b", "c"]
    assert seat_name("b", players, {"b": "Søren"}, "en") == "Søren"
    assert seat_name("c", players, {"c": " "}, "en") == "Player 3"
    assert seat_name("c", players, {"c": ""}, "de") == "Spieler 3"


def test_signed_numbers_use_a_true_minus() -> None:
    assert [signed(n) for n in (5, 0, -3)] == ["+5", "0", "−3"]


def test_an_audit_notes_a_cut_text_but_not_a_cut_name() -> None:
    with auditing_text() as audit:
        assert fit_text("penalty 12", STYLE, 40).endswith("…")
        assert cut_name("The Grand Duchess of Luxembourg!", STYLE, 80).endswith("…")
        assert fit_text("12", STYLE, 400) == "12"
    assert [whole for whole, _ in audit.cuts] == ["penalty 12"]


def test_an_audit_finds_overlapping_texts_and_text_off_the_image() -> None:
    image = Image.new("RGBA", (200, 60))
    draw = ImageDraw.Draw(image)
    with auditing_text() as audit:
        draw_text(draw, (10, 10), "score", STYLE)
        draw_text(draw, (30, 14), "total", STYLE)
        draw_text(draw, (180, 30), "penalty", STYLE)
    assert audit.overlaps() == [("score", "total")]
    assert audit.outside() == ["penalty"]


def test_nothing_is_noted_without_an_audit() -> None:
    assert fit_text("penalty 12", STYLE, 40).endswith("…")
    assert signed(-3) == "\u22123"


def test_a_negative_number_is_drawn_with_a_true_minus() -> None:
    assert [number_text(n) for n in (-30, 0, 7)] == ["\u221230", "0", "7"]


def winners(names: Sequence[str]) -> str:
    if len(names) == 1:
        return f"{names[0]} wins"
    return f"{', '.join(names[:-1])} and {names[-1]} win"


def test_whole_lines_keep_every_word_and_an_emoji_with_its_name() -> None:
    text = "Alice, 🤖 Easy and 🤖 Easy 2 win"
    lines = whole_lines(text, STYLE, text_width("Alice, 🤖 Easy and 🤖", STYLE) + 1)
    assert lines is not None
    assert " ".join(lines) == text
    assert not any(line.endswith("🤖") for line in lines)
    assert whole_lines("Nachziehstapel", STYLE, 40) is None


def test_fit_names_wraps_then_shrinks_then_cuts_only_names() -> None:
    names = ["Alice", "🤖 Easy", "🤖 Easy 2", "Johannes Sebastian Oberhauser II"]
    with auditing_text() as audit:
        one, style = fit_names(winners, names[:2], STYLE, 400)
        assert (one, style) == (["Alice and 🤖 Easy win"], STYLE)
        two, style = fit_names(winners, names, STYLE, 520, max_lines=2)
        assert style == STYLE and len(two) == 2 and " ".join(two) == winners(names)
        small, style = fit_names(winners, names, STYLE, 700, min_size=18)
        assert len(small) == 1 and style.size < STYLE.size and "…" not in small[0]
        cut, style = fit_names(winners, names, STYLE, 260, max_lines=2, min_size=20)
    assert style.size == 20 and len(cut) <= 2
    assert all(text_width(line, style) <= 260 for line in cut)
    joined = " ".join(cut)
    assert joined.startswith("Alice, 🤖 Easy, 🤖 Easy 2 and ") and joined.endswith("… win")
    assert audit.cuts == []


def test_an_audit_finds_text_too_small_for_a_phone() -> None:
    image = Image.new("RGBA", (800, 60))
    draw = ImageDraw.Draw(image)
    caption = TextStyle(20, PALETTE.muted, caption=True)
    with auditing_text() as audit:
        draw_text(draw, (10, 10), "laid", caption)
        draw_text(draw, (100, 10), "held 3", TextStyle(18))
        draw_text(draw, (200, 10), "9♦", TextStyle(16))
    assert audit.too_small(800, 9, 11) == [("laid", 10.0), ("9♦", 8.0)]
    assert audit.too_small(400, 9, 11) == []
    assert caption.but(fill=PALETTE.text).caption


def drawn(font: ImageFont.FreeTypeFont, texts: Sequence[tuple[str, tuple[float, float]]]) -> bytes:
    image = Image.new("RGBA", (300, 120), PALETTE.panel)
    draw = ImageDraw.Draw(image)
    for text, xy in texts:
        draw.text(xy, text, font=font, fill=PALETTE.text, anchor="lm")
    return image.tobytes()


def test_a_text_drawn_again_from_its_kept_mask_has_the_same_pixels() -> None:
    texts = [("Pot 12", (10.0, 20.0)), ("Ünïcødé Bob", (10.5, 60.25)), ("Pot 12", (10.0, 20.0))]
    fresh = ImageFont.truetype(font_path(Face.MAIN), 23)
    kept = MaskCachingFont(font_path(Face.MAIN), 23)
    assert drawn(kept, texts) == drawn(fresh, texts)
    assert drawn(kept, texts) == drawn(fresh, texts)  # all three from kept masks now
    for moved in [("Pot 13", (10.0, 20.0)), ("Pot 12", (10.5, 20.0)), ("Pot 12", (10.0, 40.0))]:
        assert drawn(kept, [moved]) == drawn(fresh, [moved])
    assert drawn(fresh, [("Pot 12", (10.5, 20.0))]) != drawn(fresh, [("Pot 12", (10.0, 20.0))])


def test_a_font_set_bold_after_drawing_draws_bold() -> None:
    regular, bold = (MaskCachingFont(font_path(Face.MAIN), 23) for _ in range(2))
    bold.set_variation_by_axes([BOLD_WEIGHT])
    changed = MaskCachingFont(font_path(Face.MAIN), 23)
    assert drawn(changed, [("Alice", (5.0, 30.0))]) == drawn(regular, [("Alice", (5.0, 30.0))])
    changed.set_variation_by_axes([BOLD_WEIGHT])
    assert drawn(changed, [("Alice", (5.0, 30.0))]) == drawn(bold, [("Alice", (5.0, 30.0))])


def test_the_kept_masks_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_module, "MASKS_KEPT", 3)
    font = MaskCachingFont(font_path(Face.MAIN), 19)
    drawn(font, [(str(n), (5.0, 30.0)) for n in range(10)])
    assert len(text_module._MASKS) <= 3
