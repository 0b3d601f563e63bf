"""The draughts board image: rendered from real engine states (seeded random games and
set-up positions).

Checks what a test can check without eyes: valid PNGs of a sensible size, the board
the right way up from either side, every public field that is drawn changes the
picture, the picture is the same for every viewer (perfect information, but the
viewer must still not matter), and odd input (long or non-Latin names, a very long
capture) still draws. Timing is measured in bench/, never here.
"""

from __future__ import annotations

import io
import random
from functools import lru_cache
from itertools import pairwise
from typing import Literal

import pytest
from PIL import Image, ImageChops

from bot.engines.draughts import (
    ENGINE,
    DraughtsOptions,
    DraughtsState,
    DraughtsView,
    PieceView,
    Position,
    Reason,
    Ruleset,
    reason_text,
)
from bot.render.draughts import (
    HEIGHT,
    LOOKS,
    PIECE_RADIUS,
    SQUARE,
    WARNING,
    WIDTH,
    cross,
    draw_arrow,
    move_number,
    notation_lines,
    piece_sprite,
    pieces_text,
    reason_sentence,
    render_board,
    render_table,
    square_centre,
    square_origin,
    targets_of,
)
from bot.render.palette import PALETTE
from bot.render.shapes import new_panel, ring
from bot.render.text import TextStyle, shrink_to_fit, text_width, wrap_text
from tests.render.images import decode, pixels_differ

PLAYERS = ["w", "b"]
NAMES = {"w": "Alice", "b": "Bjørn Ødegård"}


# --- states from the real engine ---------------------------------------------------------


@lru_cache(maxsize=8)
def playout(seed: int, ruleset: Ruleset = "give-and-take") -> tuple[DraughtsState, ...]:
    """Every state of a seeded random game, start to finish. Captures are preferred,
    so games are short and have multi-captures, forced captures and kings."""
    rng = random.Random(seed)
    state = ENGINE.new_game(PLAYERS, 0, DraughtsOptions(ruleset=ruleset))
    states = [state]
    while not ENGINE.is_over(state) and len(states) < 400:
        (player,) = ENGINE.to_act(state)
        moves = [a for a in ENGINE.legal_actions(state, player) if a.kind == "move"]
        captures = [a for a in moves if a.move is not None and "x" in a.move]
        pick = rng.choice(captures if captures and rng.random() < 0.7 else moves)
        state = ENGINE.apply(state, player, pick)
        states.append(state)
    return tuple(states)


def public(state: DraughtsState) -> DraughtsView:
    return ENGINE.view(state, None)


@lru_cache(maxsize=4)
def moments(ruleset: Ruleset = "give-and-take") -> dict[str, DraughtsState]:
    """The start, a quiet move, a multi-capture, a forced capture, a position with
    kings, and the end of one game."""
    states = playout(1, ruleset)
    return {
        "start": states[0],
        "quiet": states[1],
        "multi": next(s for s in states if s.last_move and s.last_move.count("x") >= 2),
        "forced": next(s for s in states if public(s).forced_capture_squares),
        "kings": next(s for s in states if any(p.king for p in public(s).pieces)),
        "over": states[-1],
    }


def set_up(fen: str, ruleset: Ruleset = "give-and-take") -> DraughtsState:
    return ENGINE.setup(PLAYERS, Position.from_fen(fen, ruleset))


def close(pixel: object, colour: tuple[int, ...], tolerance: int = 24) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour[:3], strict=True))


# --- valid output ------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["give-and-take", "turkish"])
@pytest.mark.parametrize("moment", ["start", "quiet", "multi", "forced", "kings", "over"])
@pytest.mark.parametrize("flipped", [False, True])
def test_renders_a_valid_png(ruleset: Ruleset, moment: str, flipped: bool) -> None:
    png = render_board(public(moments(ruleset)[moment]), NAMES, flipped=flipped)
    image = decode(png)
    assert image.size == (WIDTH, HEIGHT)
    assert 640 <= WIDTH <= 800
    assert len(png) < 150_000


def test_the_fixtures_cover_what_they_claim() -> None:
    assert not public(moments()["start"]).last_move_squares
    assert len(public(moments()["multi"]).last_captures) >= 2
    assert public(moments()["forced"]).capture_required
    assert public(moments()["over"]).over
    assert public(moments("turkish")["over"]).over


def test_panel_is_opaque_with_transparent_rounded_corners() -> None:
    image = decode(render_table(public(moments()["multi"]), NAMES))
    alpha = image.getchannel("A")
    right, bottom = image.width - 1, image.height - 1
    for corner in [(0, 0), (right, 0), (0, bottom), (right, bottom)]:
        assert alpha.getpixel(corner) == 0
    assert alpha.crop((12, 12, image.width - 12, image.height - 12)).getextrema() == (255, 255)


def test_the_table_is_the_board_from_whites_side() -> None:
    for state in moments().values():
        view = public(state)
        assert render_table(view, NAMES) == render_board(view, NAMES)
        assert render_table(view, NAMES) == render_board(view, NAMES, flipped=False)


# --- orientation ---------------------------------------------------------------------


def test_squares_map_to_the_board_from_either_side() -> None:
    a1, h8 = square_origin("a1", False), square_origin("h8", False)
    assert a1[0] < h8[0] and a1[1] > h8[1]  # a1 bottom left, h8 top right
    assert square_origin("a1", True) == h8
    assert square_origin("h8", True) == a1
    assert square_origin("b1", False)[0] - a1[0] == SQUARE
    assert square_origin("a2", False)[1] - a1[1] == -SQUARE


@pytest.mark.parametrize("flipped", [False, True])
def test_pieces_stand_on_their_squares(flipped: bool) -> None:
    """At the start White holds ranks 2–3 and Black ranks 6–7, from either side; a
    flipped board shows White at the top."""
    image = decode(render_board(public(moments()["start"]), NAMES, flipped=flipped))
    pieces: list[tuple[str, Literal["white", "black"]]] = [
        ("c3", "white"),
        ("h2", "white"),
        ("a7", "black"),
        ("f6", "black"),
    ]
    for square, colour in pieces:
        x, y = square_centre(square, flipped)
        assert close(image.getpixel((round(x - PIECE_RADIUS / 2), round(y))), LOOKS[colour].body)
    x, y = square_centre("c3", flipped)
    assert (y > HEIGHT / 2) != flipped


def test_flipped_differs_from_unflipped() -> None:
    for state in moments().values():
        view = public(state)
        assert pixels_differ(render_board(view, NAMES), render_board(view, NAMES, flipped=True))


# --- public fields change the picture ------------------------------------------------------


def test_every_move_of_a_game_changes_the_picture() -> None:
    pngs = [render_table(public(state), NAMES) for state in playout(2)[:30]]
    assert all(before != after for before, after in pairwise(pngs))


def test_kings_are_drawn_differently() -> None:
    man, king = piece_sprite("white", False, 24), piece_sprite("white", True, 24)
    assert man.image.size == king.image.size
    assert man.image.tobytes() != king.image.tobytes()
    view = public(moments()["quiet"])
    crowned = [p.model_copy(update={"king": p.square == "a2"}) for p in view.pieces]
    assert any(p.king for p in crowned)
    changed = view.model_copy(update={"pieces": crowned})
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_the_last_move_is_drawn() -> None:
    view = public(moments()["multi"])
    assert view.last_move_squares and view.last_captures
    png = render_table(view, NAMES)
    updates: tuple[dict[str, object], ...] = (
        {"last_move_squares": []},
        {"last_captures": []},
        {"last_move": None, "last_move_squares": [], "last_captures": []},
    )
    for update in updates:
        assert pixels_differ(png, render_table(view.model_copy(update=update), NAMES))


def test_the_last_move_tints_its_squares() -> None:
    view = public(moments()["quiet"])
    start = view.last_move_squares[0]
    assert all(p.square != start for p in view.pieces)  # the piece left it
    left, top = square_origin(start, False)
    corner = (left + 3, top + 3)
    before = decode(render_table(view.model_copy(update={"last_move_squares": []}), NAMES))
    after = decode(render_table(view, NAMES))
    assert before.getpixel(corner) != after.getpixel(corner)


def test_forced_captures_are_ringed() -> None:
    view = public(moments()["forced"])
    square = view.forced_capture_squares[0]
    png = render_table(view, NAMES)
    image = decode(png)
    x, y = square_centre(square, False)
    halo = ring(PIECE_RADIUS + 6, 4, WARNING)
    assert close(image.getpixel((round(x - halo.width / 2 + 2), round(y))), WARNING, 40)
    relaxed = view.model_copy(update={"forced_capture_squares": [], "capture_required": False})
    assert pixels_differ(png, render_table(relaxed, NAMES))


@pytest.mark.parametrize(
    "update",
    [
        {"capture_required": True},
        {"draw_offer_by": "w"},
        {"ruleset": "turkish"},
        {"to_move": "white", "to_act": "w"},
        {"plies": 57},
        {"men": {"white": 3, "black": 16}},
        {"kings": {"white": 2, "black": 0}},
        {"lost": {"white": 5, "black": 0}},
    ],
    ids=lambda update: next(iter(update)),
)
def test_public_fields_are_drawn(update: dict[str, object]) -> None:
    view = public(moments()["quiet"])
    changed = view.model_copy(update=update)
    assert changed != view
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_a_chosen_piece_and_where_it_can_go_are_marked() -> None:
    view = ENGINE.view(ENGINE.new_game(PLAYERS, 0), "w")
    assert targets_of(view, "c3") == ["c4"], "a man on rank 3 has its neighbours beside it"
    assert targets_of(view, "a3") == ["a4"]
    plain = Image.open(io.BytesIO(render_board(view, NAMES))).convert("RGBA")
    chosen = Image.open(io.BytesIO(render_board(view, NAMES, selected="a3"))).convert("RGBA")
    for square in ("a3", "a4"):
        x, y = (round(v) for v in square_centre(square, False))
        corner = square_origin(square, False)
        point = (x, y) if square == "a4" else (corner[0] + 3, corner[1] + 3)
        assert plain.getpixel(point) != chosen.getpixel(point), square
    untouched = square_centre("h4", False)
    point = (round(untouched[0]), round(untouched[1]))
    assert plain.getpixel(point) == chosen.getpixel(point)


def test_the_move_number_counts_each_turn_and_at_the_end_the_moves_played() -> None:
    states = playout(3)
    assert [move_number(public(state)) for state in states[:3]] == [1, 2, 3]
    final = public(states[-1])
    assert final.over and move_number(final) == final.plies == len(states) - 1


def test_names_are_drawn() -> None:
    view = public(moments()["multi"])
    assert pixels_differ(render_table(view, NAMES), render_table(view, {}))


# --- the viewer doesn't matter, rendering is deterministic -----------------------------------


@pytest.mark.parametrize("moment", ["start", "forced", "over"])
def test_every_viewer_sees_the_same_picture(moment: str) -> None:
    state = moments()[moment]
    for flipped in (False, True):
        expected = render_board(ENGINE.view(state, None), NAMES, flipped=flipped)
        for player in PLAYERS:
            own = ENGINE.view(state, player)
            assert own.viewer == player
            assert render_board(own, NAMES, flipped=flipped) == expected


def test_rendering_is_deterministic() -> None:
    for state in moments().values():
        view = public(state)
        again = DraughtsView.model_validate_json(view.model_dump_json())
        assert render_table(view, NAMES) == render_table(again, dict(NAMES))


# --- the end ------------------------------------------------------------------------


def test_the_final_view_shows_the_result_and_reason() -> None:
    view = public(moments()["over"])
    assert view.over and view.result in ("white", "black") and view.reason_text
    png = render_table(view, NAMES)
    running = view.model_copy(update={"over": False, "result": None, "reason_text": None})
    other = view.model_copy(
        update={"reason": "resignation", "reason_text": "White wins: Black resigned."}
    )
    draw = view.model_copy(
        update={"result": "draw", "reason": "agreement", "reason_text": "Draw by agreement."}
    )
    for changed in (running, other, draw):
        assert pixels_differ(png, render_table(changed, NAMES))


@pytest.mark.parametrize("action", ["resign", "accept draw"])
def test_games_ended_by_resignation_or_agreement_render(action: str) -> None:
    state = playout(3)[6]
    (player,) = ENGINE.to_act(state)
    if action == "accept draw":
        state = ENGINE.apply(state, player, "offer draw")
        state = ENGINE.apply(state, player, ENGINE.legal_actions(state, player)[-1])
        (player,) = ENGINE.to_act(state)
    over = public(ENGINE.apply(state, player, action))
    assert over.over and over.reason in ("resignation", "agreement")
    for flipped in (False, True):
        assert decode(render_board(over, NAMES, flipped=flipped)).size == (WIDTH, HEIGHT)


# --- awkward input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "names",
    [
        {"w": "W" * 200, "b": "田中太郎"},
        {"w": "", "b": "\u200b\n\t🙂"},
        {"w": "مرحبا بالعالم", "b": "Ünïcødé " * 30},
        {},
    ],
)
def test_unprintable_and_long_names_still_render(names: dict[str, str]) -> None:
    for state in (moments()["forced"], moments()["over"]):
        view = public(state).model_copy(update={"draw_offer_by": None})
        for flipped in (False, True):
            assert decode(render_board(view, names, flipped=flipped)).width == WIDTH


def test_a_long_king_capture_and_a_crowded_panel_still_fit() -> None:
    """A king sweeping the board (a 180° turn included), with every note at once."""
    state = set_up("W:WKa1:Ba3,a6,c7,e7,g7,g5,g3,e3,c3,c5")
    moves = [a for a in ENGINE.legal_actions(state, "w") if a.kind == "move"]
    longest = max(moves, key=lambda a: str(a).count("x"))
    state = ENGINE.apply(state, "w", longest)
    assert len(state.last_captures) == 5
    assert decode(render_table(public(state), NAMES)).size == (WIDTH, HEIGHT)
    view = public(state)
    long_move = "a1xa4xa8xd8xh8xh4xh1xd1xd4xd2"
    crowded = view.model_copy(
        update={
            "last_move": long_move,
            "last_move_squares": long_move.split("x"),
            "last_captures": ["a3", "a6", "c8", "f8", "h6", "h2", "f1", "d3", "d3"],
            "capture_required": True,
            "draw_offer_by": "b",
        }
    )
    png = render_table(crowded, NAMES)
    assert decode(png).size == (WIDTH, HEIGHT)
    assert len(png) < 150_000


def test_long_notation_breaks_before_a_separator() -> None:
    style = TextStyle(19, PALETTE.text, bold=True)
    lines = notation_lines("a1xa4xa8xd8xh8xh4xh1xd1xd4xd2", style, 150, 3)
    assert 1 < len(lines) <= 3
    assert "".join(lines) == "a1xa4xa8xd8xh8xh4xh1xd1xd4xd2"
    assert all(line.startswith("x") for line in lines[1:])
    assert all(text_width(line, style) <= 150 for line in lines)
    assert notation_lines("c3-c4", style, 120, 3) == ["c3-c4"]
    cut = notation_lines("a1xa4xa8xd8xh8xh4xh1xd1xd4xd2" * 3, style, 120, 2)
    assert len(cut) == 2 and cut[-1].endswith("…")


def test_pieces_text() -> None:
    assert pieces_text(16, 0, "en") == "16 men"
    assert pieces_text(1, 1, "en") == "1 man · 1 king"
    assert pieces_text(0, 3, "en") == "3 kings"
    assert pieces_text(0, 0, "en") == "no pieces"
    assert pieces_text(16, 0, "de") == "16 Steine"
    assert pieces_text(1, 2, "de") == "1 Stein · 2 Damen"
    assert pieces_text(0, 0, "de") == "keine Steine"


# --- languages -------------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["start", "forced", "over"])
def test_the_panel_is_drawn_in_german(moment: str) -> None:
    view = public(moments()[moment]).model_copy(update={"draw_offer_by": "b"})
    english = render_table(view, NAMES)
    assert english == render_table(view, NAMES, lang="en")
    german = render_table(view, NAMES, lang="de")
    assert decode(german).size == (WIDTH, HEIGHT)
    assert pixels_differ(english, german)
    assert pixels_differ(german, render_board(view, NAMES, flipped=True, lang="de"))


REASONS: list[tuple[str, Reason]] = [
    ("white", "no-pieces"),
    ("black", "no-pieces"),
    ("white", "blocked"),
    ("black", "blocked"),
    ("white", "resignation"),
    ("black", "resignation"),
    ("draw", "agreement"),
    ("draw", "one-piece-each"),
    ("draw", "threefold-repetition"),
    ("draw", "quiet-plies"),
]


@pytest.mark.parametrize(("result", "reason"), REASONS)
def test_the_reason_is_told_in_either_language(result: str, reason: Reason) -> None:
    view = public(moments()["over"]).model_copy(update={"result": result, "reason": reason})
    english = reason_sentence(view, "en")
    sentence = reason_text(result, reason)
    assert english and sentence and english.rstrip(".").lower() in sentence.lower()
    assert "wins" not in english and "Draw" not in english, "the headline says who won"
    if result != "draw":
        loser = "Black" if result == "white" else "White"
        assert english.startswith(loser) or english.endswith(f"{loser} resigned.")
    german = reason_sentence(view, "de")
    assert german and german != english
    assert "gewinnt" not in german and "Remis" not in german
    assert reason_sentence(view.model_copy(update={"reason": None}), "de") is None


def test_a_lone_setup_piece_renders() -> None:
    view = public(set_up("B:Wa3:Bh8"))
    assert view.over  # one piece each
    assert [p.king for p in view.pieces] == [True, True]
    assert decode(render_table(view, NAMES)).size == (WIDTH, HEIGHT)


def test_pieces_anywhere_render() -> None:
    view = public(moments()["start"])
    everywhere = [
        PieceView(square=f"{file}{rank}", colour="white" if rank < 5 else "black", king=True)
        for file in "abcdefgh"
        for rank in range(1, 9)
    ]
    full = view.model_copy(update={"pieces": everywhere, "forced_capture_squares": ["d4"]})
    png = render_table(full, NAMES)
    assert decode(png).size == (WIDTH, HEIGHT)
    assert len(png) < 150_000


# --- shared drawing helpers added for this board -------------------------------------------


def test_wrap_text_breaks_at_spaces_within_the_width() -> None:
    style = TextStyle(16, PALETTE.text)
    text = "Draw: 100 plies without a capture or a forward man move."
    lines = wrap_text(text, style, 150)
    assert len(lines) > 1
    assert " ".join(lines) == text
    assert all(text_width(line, style) <= 150 for line in lines)
    two = wrap_text(text, style, 150, max_lines=2)
    assert len(two) == 2 and two[-1].endswith("…")
    assert wrap_text("", style, 150) == []
    assert wrap_text("short", style, 150) == ["short"]
    (word,) = wrap_text("W" * 80, style, 100)
    assert word.endswith("…") and text_width(word, style) <= 100


def test_shrink_to_fit() -> None:
    style = TextStyle(20, PALETTE.text, bold=True)
    assert shrink_to_fit("c3-c4", style, 200, 12) == style
    smaller = shrink_to_fit("a1xa4xa8xd8xh8", style, 110, 12)
    assert 12 <= smaller.size < 20 and smaller.bold and smaller.fill == style.fill
    assert smaller.size == 12 or text_width("a1xa4xa8xd8xh8", smaller) <= 110
    assert shrink_to_fit("W" * 100, style, 50, 12).size == 12


def test_ring_and_cross_sprites() -> None:
    halo = ring(20, 3, WARNING)
    assert halo.size == (40, 40)
    alpha = halo.getchannel("A")
    assert alpha.getpixel((20, 20)) == 0  # hollow
    outline = alpha.getpixel((1, 20))
    assert isinstance(outline, int) and outline > 200
    mark = cross(20, 4, PALETTE.red_ink)
    assert mark.size == (20, 20)
    assert mark.getchannel("A").getpixel((10, 10)) == 255
    assert mark.getchannel("A").getpixel((10, 1)) == 0


def test_draw_arrow_stays_near_its_path() -> None:
    image = new_panel(200, 120)
    before = image.copy()
    draw_arrow(image, [(20, 60), (100, 60), (100, 20)], 6, PALETTE.accent)
    box = ImageChops.difference(before, image).getbbox(alpha_only=False)
    assert box is not None
    left, top, right, bottom = box
    assert left >= 10 and right <= 115 and top >= 15 and bottom <= 70
    tip = image.getpixel((100, 24))
    assert close(tip, PALETTE.accent, 60)
    untouched = image.copy()
    draw_arrow(image, [(50, 50)], 6, PALETTE.accent)
    draw_arrow(image, [(50, 50), (50, 50)], 6, PALETTE.accent)
    assert ImageChops.difference(untouched, image).getbbox(alpha_only=False) is None
