"""Give and Take draughts: every ruling in RULINGS.md (including its corrections of the
rule text), both rulesets, Turkish perft, the board API, and the conformance case."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.engines.base import GameError, IllegalAction, Outcome
from bot.engines.draughts import (
    ACCEPT_DRAW,
    ENGINE,
    OFFER_DRAW,
    PIECES_PER_SIDE,
    QUIET_PLY_LIMIT,
    RESIGN,
    SQUARES,
    START_FEN,
    AmbiguousMoveError,
    Colour,
    DraughtsAction,
    DraughtsOptions,
    DraughtsState,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Piece,
    Position,
    Ruleset,
    move_action,
    parse_action,
    perft,
    position_of,
    repetition_key,
)
from tests.engines.conformance import EngineCase

WHITE_ID, BLACK_ID = "alice", "bob"
COLOURS: tuple[Colour, ...] = ("white", "black")
DUO = [WHITE_ID, BLACK_ID]
GIVE: Ruleset = "give-and-take"
TURKISH: Ruleset = "turkish"


def position(fen: str, ruleset: Ruleset = GIVE, last: str | None = None) -> Position:
    return Position.from_fen(fen, ruleset, last)


def moves(pos: Position, start: str | None = None) -> list[str]:
    """The legal moves (of the piece on ``start``), as text."""
    return [
        str(move)
        for move in pos.legal_moves()
        if start is None or move.from_square == SQUARES[start]
    ]


def game(fen: str, ruleset: Ruleset = GIVE, last: str | None = None) -> DraughtsState:
    return ENGINE.setup(DUO, position(fen, ruleset, last))


def act(state: DraughtsState, *actions: str) -> DraughtsState:
    """Apply actions for whoever is to act, checking each is one of their legal actions."""
    for text in actions:
        (player,) = ENGINE.to_act(state)
        legal = [str(action) for action in ENGINE.legal_actions(state, player)]
        assert str(parse_action(text)) in legal, f"{text} is not legal for {player}: {legal}"
        state = ENGINE.apply(state, player, text)
    return state


# --- Set-up -----------------------------------------------------------------------------


def test_engine_metadata_and_options() -> None:
    assert (ENGINE.name, ENGINE.title) == ("draughts", "Give and Take draughts")
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)
    assert ENGINE.Options().model_dump() == {"ruleset": "give-and-take"}
    assert DraughtsOptions(ruleset="turkish").ruleset == "turkish"
    with pytest.raises(ValidationError):
        DraughtsOptions.model_validate({"ruleset": "russian"})
    with pytest.raises(ValidationError):
        DraughtsOptions.model_validate({"colour": "white"})
    with pytest.raises(GameError):
        ENGINE.new_game(DUO, 0, {"colour": "white"})  # type: ignore[arg-type]


def test_start_position_white_on_ranks_2_3_black_on_6_7_white_first() -> None:
    state = ENGINE.new_game(DUO, 0)
    assert state.position == START_FEN
    assert ENGINE.to_act(state) == [WHITE_ID], "seat 0 plays White and moves first"
    pos = position_of(state)
    assert pos.turn == "white"
    assert pos.pieces("white") == list(range(8, 24))
    assert pos.pieces("black") == list(range(40, 56))
    assert pos.piece_at("a2") == Piece("white", False)
    assert pos.piece_at("h7") == Piece("black", False)
    assert pos.piece_at("d1") is None and pos.piece_at("d8") is None
    assert moves(pos) == [f"{f}3-{f}4" for f in "abcdefgh"]
    view = ENGINE.view(state, None)
    assert len(view.pieces) == 32 and not any(piece.king for piece in view.pieces)
    assert view.white == WHITE_ID and view.black == BLACK_ID


@pytest.mark.parametrize("ruleset", [GIVE, TURKISH])
def test_new_game_uses_the_ruleset_and_ignores_the_seed(ruleset: Ruleset) -> None:
    first = ENGINE.new_game(DUO, 1, DraughtsOptions(ruleset=ruleset))
    assert first.ruleset == ruleset
    assert first == ENGINE.new_game(DUO, 2, DraughtsOptions(ruleset=ruleset))


@pytest.mark.parametrize("players", [[WHITE_ID], [WHITE_ID, BLACK_ID, "carol"], [WHITE_ID] * 2])
def test_two_distinct_players(players: list[str]) -> None:
    with pytest.raises(GameError):
        ENGINE.new_game(players, 0)


# --- Moving -----------------------------------------------------------------------------


def test_men_move_one_square_forward_or_sideways_never_back_or_diagonally() -> None:
    white = position("W:Wd4,a2:Be6,h7")
    assert moves(white, "d4") == ["d4-c4", "d4-e4", "d4-d5"]
    black = position("B:Wd4,a2:Be6,h7")
    assert moves(black, "e6") == ["e6-e5", "e6-d6", "e6-f6"]


def test_men_are_blocked_by_any_piece_and_the_edge() -> None:
    pos = position("W:Wa4,b4,a3:Ba5,a6,h7")
    assert moves(pos, "a4") == [], "a5 and a6: no step, no jump; b4 own; a3 is behind"


def test_a_man_at_the_edge_has_no_move_off_the_board() -> None:
    pos = position("W:Wa4,h2:Bh7,g7")
    assert moves(pos, "a4") == ["a4-b4", "a4-a5"]
    assert moves(pos, "h2") == ["h2-g2", "h2-h3"]


def test_kings_move_any_distance_in_all_four_directions_backwards_included() -> None:
    """RULINGS: the rule text's "forwards or sideways" for kings is a slip."""
    pos = position("W:WKd4,a2:Bh8,h7")
    assert moves(pos, "d4") == [
        "d4-d1",
        "d4-d2",
        "d4-d3",
        "d4-a4",
        "d4-b4",
        "d4-c4",
        "d4-e4",
        "d4-f4",
        "d4-g4",
        "d4-h4",
        "d4-d5",
        "d4-d6",
        "d4-d7",
        "d4-d8",
    ]
    black_king = position("B:Wa2,b2:BKe5,h7")
    assert "e5-e8" in moves(black_king, "e5"), "a black king moves back too"


def test_kings_are_stopped_by_pieces_without_capturing() -> None:
    pos = position("W:WKd4,d6:BKf4,Kg4,h8")
    assert moves(pos, "d4") == [
        "d4-d1",
        "d4-d2",
        "d4-d3",
        "d4-a4",
        "d4-b4",
        "d4-c4",
        "d4-e4",
        "d4-d5",
    ], "d6 is White's own; f4 and g4 stand together, so nothing to take"


# --- Capturing --------------------------------------------------------------------------


def test_men_capture_forward_and_sideways_never_backwards() -> None:
    pos = position("W:Wd4,h1:Bd5,e4,c4,d3,h8")
    assert moves(pos, "d4") == ["d4xb4", "d4xf4", "d4xd6"]


def test_a_man_needs_the_square_behind_empty() -> None:
    pos = position("W:Wd4,h1:Bd5,d6,h8")
    assert [m for m in moves(pos, "d4") if "x" in m] == []


def test_black_men_capture_towards_rank_1() -> None:
    pos = position("B:Wd4,e5,c5,a2:Bd5,h7")
    assert moves(pos, "d5") == ["d5xd3", "d5xb5", "d5xf5"]


def test_kings_capture_at_a_distance_and_choose_where_to_land() -> None:
    pos = position("W:WKa1,h2:BKd1,h8")
    captures = [m for m in moves(pos, "a1") if "x" in m]
    assert captures == ["a1xe1", "a1xf1", "a1xg1", "a1xh1"]


def test_a_king_must_land_where_the_capture_can_continue() -> None:
    """Only f1 lets the king go on (north over f3), so it must land there."""
    pos = position("W:WKa1,h2:BKd1,f3,h8")
    assert [m for m in moves(pos, "a1") if "x" in m] == [
        "a1xf1xf4",
        "a1xf1xf5",
        "a1xf1xf6",
        "a1xf1xf7",
        "a1xf1xf8",
    ]


def test_a_capture_continues_while_possible_with_90_degree_turns() -> None:
    pos = position("W:Wa3,h1:Ba4,b5,c6,h8")
    assert moves(pos, "a3") == ["a3-b3", "a3xa5xc5xc7"], "no stopping after a3xa5"
    after = pos.play("a3xa5xc5xc7")
    assert after.fen() == "B:Wh1,c7:BKh8", "Black's last man is crowned at once"


def test_give_and_take_kings_may_turn_180_degrees_over_the_removed_piece() -> None:
    """After d1xg1 (taking f1) the king turns back, passing f1, d1 and takes c1."""
    pos = position("W:WKd1,h1:BKf1,Kc1,h8")
    assert [m for m in moves(pos, "d1") if "x" in m] == ["d1xg1xa1", "d1xg1xb1", "d1xb1xg1"]


def test_turkish_forbids_180_degree_turns() -> None:
    pos = position("W:WKd1,h1:BKf1,Kc1,h8", TURKISH)
    assert moves(pos) == ["d1xa1", "d1xb1", "d1xg1"]


def test_a_captured_piece_cannot_be_jumped_twice() -> None:
    pos = position("W:WKd1,h1:BKf1,h8")
    assert [m for m in moves(pos, "d1") if "x" in m] == ["d1xg1"]


def test_removed_pieces_do_not_block_later_jumps() -> None:
    """Five 90° turns: the last jump runs along rank 1 over b1, taken first, and over
    the king's own vacated start square."""
    pos = position("W:WKa1,c5,e4:BKb1,c3,b4,a2,Kd1,h8", TURKISH)
    assert moves(pos) == [
        "a1xc1xc4xa4xa1xe1",
        "a1xc1xc4xa4xa1xf1",
        "a1xc1xc4xa4xa1xg1",
        "a1xc1xc4xa4xa1xh1",
    ]
    move = pos.legal_moves()[0]
    assert list(move.captured) == [SQUARES[s] for s in ("b1", "c3", "b4", "a2", "d1")]
    assert pos.play(move).fen() == "B:WKe1,e4,c5:Bh8"


# --- Give and take: optional captures and the last-moved piece ---------------------------


def test_captures_are_optional_when_the_last_moved_piece_cannot_be_taken() -> None:
    pos = position("W:Wd4,f4,a2:Bd5,g4,h7", last="h7")
    assert moves(pos) == [
        "a2-b2",
        "a2-a3",
        "d4-c4",
        "d4-e4",
        "d4xd6",
        "f4-e4",
        "f4xh4",
        "f4-f5",
    ]
    assert not pos.capture_required()
    assert pos.forced_capture_squares() == []


def test_captures_are_optional_at_the_start_of_a_game() -> None:
    pos = position("W:Wd4,f4,a2:Bd5,g4,h7")
    assert "d4-c4" in moves(pos) and "d4xd6" in moves(pos)


@pytest.mark.parametrize(("last", "only"), [("d5", "d4xd6"), ("g4", "f4xh4")])
def test_the_piece_moved_last_must_be_taken_if_it_can_be(last: str, only: str) -> None:
    pos = position("W:Wd4,f4,a2:Bd5,g4,h7", last=last)
    assert moves(pos) == [only]
    assert pos.capture_required()
    assert pos.forced_capture_squares() == [SQUARES[only[:2]]]


def test_the_last_moved_piece_must_be_the_first_taken() -> None:
    """c3 could take c4 and then d5, but d5 moved last: only captures that start with
    d5 are legal (here the king's, from d1)."""
    pos = position("W:Wc3,Kd1,a2:Bc4,d5,h8", last="d5")
    assert moves(pos) == ["d1xd6", "d1xd7", "d1xd8"]
    assert pos.forced_capture_squares() == [SQUARES["d1"]]


def test_any_piece_may_take_the_last_moved_piece() -> None:
    pos = position("W:Wc5,d4,a2:Bd5,h8", last="d5")
    assert moves(pos) == ["d4xd6", "c5xe5"]
    assert pos.forced_capture_squares() == [SQUARES["d4"], SQUARES["c5"]]


def test_after_the_last_moved_piece_any_continuation_no_majority_rule() -> None:
    pos = position("W:Wd3,a2:Bd4,c5,e5,f6,h8", last="d4")
    assert moves(pos) == ["d3xd5xb5", "d3xd5xf5xf7"], "the shorter way is legal too"


def test_give_and_take_no_majority_rule_without_obligation() -> None:
    pos = position("W:Wd3,a2:Bd4,c5,e5,f6,h8")
    assert moves(pos) == ["a2-b2", "a2-a3", "d3-c3", "d3-e3", "d3xd5xb5", "d3xd5xf5xf7"]


def test_the_obligation_applies_through_the_engine() -> None:
    state = game("B:Wd4,a2:Bd6,h8")
    state = act(state, "d6-d5")
    assert state.last_moved == "d5"
    moves_now = [str(a) for a in ENGINE.legal_actions(state, WHITE_ID) if a.kind == "move"]
    assert moves_now == ["d4xd6"]
    view = ENGINE.view(state, None)
    assert view.capture_required and view.forced_capture_squares == ["d4"]
    assert view.last_moved == "d5"
    with pytest.raises(IllegalMoveError, match="must capture the piece that just moved to d5"):
        ENGINE.apply(state, WHITE_ID, "a2-a3")


# --- One move, several paths ------------------------------------------------------------


def test_two_paths_with_the_same_ends_and_pieces_are_one_move() -> None:
    pos = position("W:WKa1,h1:BKc1,Kf1,h8")
    captures = [m for m in moves(pos, "a1") if "x" in m]
    assert captures == ["a1xd1xg1"], "a1xe1xg1 is the same move"
    assert str(pos.parse_move("a1xe1xg1")) == "a1xd1xg1"
    assert str(pos.parse_move("a1xg1")) == "a1xd1xg1", "start and end are enough here"
    state = ENGINE.setup(DUO, pos)
    after = ENGINE.apply(state, WHITE_ID, "a1xe1xg1")
    assert after.last_move == "a1xd1xg1"
    assert after == ENGINE.apply(state, WHITE_ID, "a1xd1xg1")
    with pytest.raises(IllegalMoveError):  # an action model must be a listed one
        ENGINE.apply(state, WHITE_ID, move_action("a1xe1xg1"))


def test_the_issue_notation_forms_through_the_engine() -> None:
    """Any path of the same capture, and start and end alone, whatever the separator."""
    state = game("W:WKg3,a1:Bf3,c3,Kh8")
    assert [m for m in moves(position_of(state), "g3") if "x" in m] == ["g3xe3xa3", "g3xe3xb3"]
    for typed in ("g3xd3xb3", "g3xb3", "g3-b3", "G3 x B3"):
        assert ENGINE.apply(state, WHITE_ID, typed).last_move == "g3xe3xb3", typed
    state = game("W:WKd1,a2:Bd4,Kh8")
    assert ENGINE.apply(state, WHITE_ID, "d1-d6").last_move == "d1xd6"
    assert ENGINE.apply(state, WHITE_ID, "d1xd6").last_captures == ["d4"]
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        ENGINE.apply(state, WHITE_ID, "d1xd4")


def test_short_forms_that_fit_several_moves_are_ambiguous() -> None:
    """g1 reaches a1 by a slide or by a capture round the board."""
    pos = position("W:WKg1:Bg2,h3,a6,f8")
    assert [m for m in moves(pos, "g1") if m.endswith("a1")] == ["g1-a1", "g1xg8xa8xa1"]
    with pytest.raises(AmbiguousMoveError, match="g1-a1, g1xg8xa8xa1") as ambiguous:
        pos.parse_move("g1xa1")
    assert ambiguous.value.template == "{move} could be {moves}: name every landing square."
    with pytest.raises(AmbiguousMoveError, match="g1-a1, g1xg8xa8xa1"):
        ENGINE.apply(ENGINE.setup(DUO, pos), WHITE_ID, "g1xa1")
    assert str(pos.parse_move("g1-a1")) == "g1-a1", "the exact text is never ambiguous"


# --- Promotion --------------------------------------------------------------------------


def test_a_man_reaching_the_far_rank_becomes_a_king() -> None:
    pos = position("W:Wc7,a2:Be5,h6")
    assert pos.play("c7-c8").piece_at("c8") == Piece("white", True)
    black = position("B:Wa2,h3:Bd2,h6")
    assert black.play("d2-d1").piece_at("d1") == Piece("black", True)


def test_in_a_capture_a_man_on_the_far_rank_goes_on_as_a_man() -> None:
    """As a king on c8 it could take c4 (backwards, at a distance); as a man it can
    only go on sideways over d8. It is crowned when the move ends."""
    pos = position("W:Wc6,a2:Bc7,d8,c4,h5")
    assert moves(pos, "c6") == ["c6-b6", "c6-d6", "c6xc8xe8"]
    assert pos.play("c6xc8xe8").piece_at("e8") == Piece("white", True)


def test_a_man_ending_a_capture_on_the_far_rank_is_crowned() -> None:
    pos = position("W:Wc6,a2:Bc7,h5,h4")
    after = pos.play("c6xc8")
    assert after.piece_at("c8") == Piece("white", True)


def test_give_and_take_last_remaining_man_becomes_a_king() -> None:
    pos = position("W:Wd4,a2:Bd5,h7")
    after = pos.play("d4xd6")
    assert after.piece_at("h7") == Piece("black", True)
    assert after.fen() == "B:Wa2,d6:BKh7"


def test_turkish_has_no_last_man_promotion() -> None:
    pos = position("W:Wd4,a2:Bd5,h7", TURKISH)
    assert pos.play("d4xd6").piece_at("h7") == Piece("black", False)


def test_a_lone_man_read_from_fen_is_crowned_in_give_and_take_only() -> None:
    assert position("W:Wd4:Bd6,e6").fen() == "W:WKd4:Bd6,e6"
    assert position("W:Wd4:Bd6,e6", TURKISH).fen() == "W:Wd4:Bd6,e6"


# --- Turkish: mandatory maximum capture ---------------------------------------------------


def test_turkish_capture_is_mandatory() -> None:
    pos = position("W:Wd4,f4,a2:Bd5,g4,h7", TURKISH)
    assert moves(pos) == ["d4xd6", "f4xh4"]
    assert pos.capture_required()
    assert pos.forced_capture_squares() == [SQUARES["d4"], SQUARES["f4"]]


def test_turkish_the_maximum_capture_must_be_taken() -> None:
    pos = position("W:Wd3,a2:Bd4,c5,e5,f6,h8", TURKISH)
    assert moves(pos) == ["d3xd5xf5xf7"]


def test_turkish_counts_pieces_not_kings() -> None:
    """Two men (from c3) beat one king (from g3)."""
    pos = position("W:Wc3,g3,a1:Bc4,c6,Kg4,h8", TURKISH)
    assert moves(pos) == ["c3xc5xc7"]


def test_turkish_ignores_the_last_moved_piece() -> None:
    pos = position("W:Wd3,a2:Bd4,c5,e5,f6,h8", TURKISH, last="c5")
    assert moves(pos) == ["d3xd5xf5xf7"]


# --- Perft ------------------------------------------------------------------------------

TURKISH_PERFT = [1, 8, 64, 708, 7538, 85090]


@pytest.mark.parametrize("depth", range(6))
def test_turkish_perft_from_the_start(depth: int) -> None:
    assert perft(Position.initial(TURKISH), depth) == TURKISH_PERFT[depth]


def test_give_and_take_perft_regression() -> None:
    """Our own figures (no published reference): optional captures add moves from ply 4."""
    start = Position.initial(GIVE)
    assert [perft(start, depth) for depth in range(1, 5)] == [8, 64, 708, 7550]


def test_perft_counts_the_legal_moves_of_each_position() -> None:
    start = Position.initial(TURKISH)
    by_hand = 0
    for first in start.legal_moves():
        after = start.play(first)
        for second in after.legal_moves():
            by_hand += len(after.play(second).legal_moves())
    assert by_hand == perft(start, 3)
    with pytest.raises(ValueError):
        perft(start, -1)


# --- Board API: FEN, moves --------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [START_FEN, "W:Wa3,c4,Kd5:Bc7,Kh8", "B:WKa1,Kb1:BKg8,Kh8", "W:W:Bc7,d7", "B:Wa2,b2:B"],
)
def test_fen_round_trips(fen: str) -> None:
    assert Position.from_fen(fen, TURKISH).fen() == fen


def test_fen_is_read_leniently_and_written_in_square_order() -> None:
    pos = Position.from_fen(" w : Wc4 , a3 , kd5 : BKh8,c7. ", TURKISH)
    assert pos.fen() == "W:Wa3,c4,Kd5:Bc7,Kh8"
    assert pos.turn == "white"
    assert "Position.from_fen" in repr(pos)


@pytest.mark.parametrize(
    ("fen", "last"),
    [
        ("X:Wa3:Bc7", None),
        ("W:Wa3:Wc7", None),
        ("W:Wa3,a3:Bc7", None),
        ("W:Wa3:Ba3", None),
        ("W:Wa9:Bc7", None),
        ("W:Wa8:Bc7", None),
        ("W:Wa3:Bc1", None),
        ("W:Ya3:Bc7", None),
        ("W:W" + ",".join(f"{f}{r}" for f in "abcdefgh" for r in (2, 3, 4)) + ":Bh8", None),
        ("W:Wa3:Bc7", "a3"),
        ("W:Wa3:Bc7", "d4"),
        ("W:Wa3:Bc7", "z9"),
    ],
)
def test_invalid_positions_are_refused(fen: str, last: str | None) -> None:
    with pytest.raises(InvalidFenError):
        Position.from_fen(fen, TURKISH, last)
    assert issubclass(InvalidFenError, GameError)


def test_positions_are_values() -> None:
    a = position("W:Wa3:Bc7,d7", last="c7")
    assert a == position("W:Wa3:Bc7,d7", last="c7")
    assert a != position("W:Wa3:Bc7,d7")
    assert a != position("W:Wa3:Bc7,d7", TURKISH, last="c7")
    assert len({a, position("W:Wa3:Bc7,d7", last="c7")}) == 1
    assert str(Position.initial()).splitlines()[0] == "8 . . . . . . . ."
    assert str(Position.initial()).splitlines()[1] == "7 b b b b b b b b"


def test_play_returns_a_new_position_and_records_the_last_moved_piece() -> None:
    start = Position.initial()
    after = start.play("c3-c4")
    assert start.fen() == START_FEN
    assert after.turn == "black"
    assert after.last_moved == SQUARES["c4"]
    assert after.piece_at("c4") == Piece("white", False) and after.piece_at("c3") is None


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("c3-c4", "c3-c4"),
        ("C3-C4", "c3-c4"),
        (" c4 x c6 x c8 ", "c4xc6xc8"),
        ("c4:c6", "c4xc6"),
        ("c4×c6", "c4xc6"),
        ("c3–c4", "c3-c4"),  # an en dash, as phones write "--"
        ("c3—c4", "c3-c4"),
        ("c3−c4", "c3-c4"),  # a minus sign
        ("c3‑c4", "c3-c4"),  # a non-breaking hyphen
    ],
)
def test_move_text_is_normalised(text: str, notation: str) -> None:
    move = Move.parse(text)
    assert str(move) == notation
    assert Move.parse(str(move)) == move
    assert move.is_capture == ("x" in notation)


@pytest.mark.parametrize(
    "text", ["", "c3", "c3-c4-c5", "c3-c4xc5", "i1-i2", "c3-c3", "c3c4", "resign please"]
)
def test_malformed_moves_are_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_illegal_moves_are_refused_with_a_reason() -> None:
    start = Position.initial()
    with pytest.raises(IllegalMoveError, match="no piece on d4"):
        start.play("d4-d5")
    with pytest.raises(IllegalMoveError, match="not yours"):
        start.play("c6-c5")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        start.play("c3-d4")
    turkish = position("W:Wd4,f4,a2:Bd5,g4,h7", TURKISH)
    with pytest.raises(IllegalMoveError, match="longest capture"):
        turkish.play("a2-a3")
    assert turkish.is_legal(Move.parse("d4xd6"))
    assert not turkish.is_legal(Move.parse("a2-a3"))


def test_refusals_carry_an_english_template_and_its_parameters() -> None:
    """The bot translates an error's template; ``str(error)`` stays the English text."""
    with pytest.raises(IllegalMoveError) as illegal:
        Position.initial().play("c6-c5")
    assert illegal.value.template == "{move} is not legal: the piece on {start} is not yours."
    assert illegal.value.params == {"move": "c6-c5", "start": "c6"}
    assert str(illegal.value) == "c6-c5 is not legal: the piece on c6 is not yours."
    with pytest.raises(InvalidMoveError) as invalid:
        parse_action("castle")
    assert invalid.value.params == {"text": "castle"}
    assert str(invalid.value).startswith("'castle' is not a draughts action")
    state = ENGINE.new_game(DUO, 0)
    with pytest.raises(IllegalMoveError) as refused:
        ENGINE.apply(state, WHITE_ID, move_action("d4-d5"))
    assert refused.value.template == "{move} is not legal: there is no piece on {start}."
    with pytest.raises(InvalidFenError) as fen:
        Position.from_fen("X:Wa2")
    assert fen.value.params == {"fen": "X:Wa2"} and "'X:Wa2'" in str(fen.value)


# --- The engine: actions ----------------------------------------------------------------


def test_action_text_forms_and_parsing() -> None:
    assert str(RESIGN) == "resign"
    assert str(OFFER_DRAW) == "offer draw"
    assert str(ACCEPT_DRAW) == "accept draw"
    assert str(move_action("C4xC6")) == "c4xc6"
    for text, action in [
        ("resign", RESIGN),
        ("Offer Draw", OFFER_DRAW),
        ("offer_draw", OFFER_DRAW),
        ("accept-draw", ACCEPT_DRAW),
        ("accept draw", ACCEPT_DRAW),
        ("c3-c4", move_action("c3-c4")),
    ]:
        assert parse_action(text) == action
        assert parse_action(str(action)) == action
    with pytest.raises(IllegalAction, match="not a draughts action"):
        parse_action("castle")


@pytest.mark.parametrize(
    ("text", "template"),
    [
        ("c3-c4xc5", "{text!r} mixes - and x; a capture uses x throughout."),
        ("c3-c3", "{text!r} stands still."),
        ("c3-c4-c5", "{text!r}: a move without capture has two squares."),
        ("i1-i2", "{square!r} is not a square; files run a–h and ranks 1–8."),
        ("c3-c9", "{square!r} is not a square; files run a–h and ranks 1–8."),
    ],
)
def test_a_move_typed_wrong_keeps_its_own_reason(text: str, template: str) -> None:
    """Text shaped like a move is told what is wrong with it, not the generic refusal."""
    with pytest.raises(InvalidMoveError) as refused:
        parse_action(text)
    assert refused.value.template == template


def test_actions_are_frozen_and_validated() -> None:
    with pytest.raises(ValidationError):
        DraughtsAction(kind="move")
    with pytest.raises(ValidationError):
        DraughtsAction(kind="resign", move="c3-c4")
    with pytest.raises(ValidationError):
        DraughtsAction(kind="move", move="c3")
    with pytest.raises(ValidationError):
        RESIGN.kind = "move"  # type: ignore[misc]
    action = move_action("c4xc6xc8")
    assert DraughtsAction.model_validate_json(action.model_dump_json()) == action
    assert hash(action) == hash(move_action("c4xc6xc8"))


def test_legal_actions_resign_draw_then_moves_for_the_player_to_move_only() -> None:
    state = ENGINE.new_game(DUO, 0)
    actions = [str(a) for a in ENGINE.legal_actions(state, WHITE_ID)]
    assert actions == ["resign", "offer draw", *(f"{f}3-{f}4" for f in "abcdefgh")]
    assert ENGINE.legal_actions(state, BLACK_ID) == []
    assert ENGINE.legal_actions(state, "carol") == []


def test_out_of_turn_and_outsider_actions_are_refused() -> None:
    state = ENGINE.new_game(DUO, 0)
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, BLACK_ID, "c6-c5")
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, BLACK_ID, RESIGN)
    with pytest.raises(IllegalAction, match="not playing"):
        ENGINE.apply(state, "carol", "c3-c4")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, WHITE_ID, ACCEPT_DRAW)


def test_a_move_passes_the_turn_and_is_recorded() -> None:
    state = act(ENGINE.new_game(DUO, 0), "c3-c4")
    assert ENGINE.to_act(state) == [BLACK_ID]
    assert (state.last_move, state.last_moved, state.plies) == ("c3-c4", "c4", 1)
    view = ENGINE.view(state, WHITE_ID)
    assert view.last_move_squares == ["c3", "c4"]
    assert view.to_move == "black" and view.to_act == BLACK_ID


# --- Ending the game --------------------------------------------------------------------


def test_taking_every_piece_wins() -> None:
    state = act(game("W:Wd4,a2:Bd5,d7"), "d4xd6xd8")
    assert ENGINE.is_over(state) and ENGINE.to_act(state) == []
    assert (state.result, state.reason) == ("white", "no-pieces")
    assert ENGINE.outcome(state) == Outcome(
        scores={WHITE_ID: 2, BLACK_ID: 0}, places={WHITE_ID: 1, BLACK_ID: 2}
    )
    view = ENGINE.view(state, None)
    assert view.over and view.winner == WHITE_ID
    assert view.reason_text == "White wins: Black has no pieces left."
    assert view.legal_moves == [] and view.last_captures == ["d5", "d7"]


def test_a_blocked_player_loses() -> None:
    """Black's men on a2 and h2 can neither step nor jump."""
    state = game("B:Wa1,b2,c2,h1,g2,f2:Ba2,h2")
    assert (state.result, state.reason) == ("white", "blocked")
    state = game("W:Wa1,b2,d2,h1,g2,f2:Ba2,h2")
    state = act(state, "d2-c2")
    assert (state.result, state.reason) == ("white", "blocked")
    assert ENGINE.view(state, None).reason_text == "White wins: Black has no legal move."


@pytest.mark.parametrize("ruleset", [GIVE, TURKISH])
def test_one_piece_each_is_a_draw(ruleset: Ruleset) -> None:
    state = act(game("W:WKa1:BKc1,Kh8", ruleset), "a1xd1")
    assert (state.result, state.reason) == ("draw", "one-piece-each")
    outcome = ENGINE.outcome(state)
    assert outcome.scores == {WHITE_ID: 1, BLACK_ID: 1}
    assert outcome.places == {WHITE_ID: 1, BLACK_ID: 1}


SHUFFLE = ["a1-a2", "h8-h7", "a2-a1", "h7-h8"]


def test_threefold_repetition_give_and_take_counts_the_last_moved_square() -> None:
    """The opening position had no last-moved piece, so it never recurs; the position
    after a1-a2 (a2 moved last) is the first seen a third time, at ply 9."""
    state = game("W:WKa1,Kb1:BKh8,Kg8")
    state = act(state, *SHUFFLE, *SHUFFLE)
    assert not ENGINE.is_over(state)
    state = act(state, SHUFFLE[0])
    assert (state.result, state.reason, state.plies) == ("draw", "threefold-repetition", 9)


def test_threefold_repetition_turkish_counts_the_opening_position() -> None:
    state = game("W:WKa1,Kb1:BKh8,Kg8", TURKISH)
    state = act(state, *SHUFFLE, *SHUFFLE[:3])
    assert not ENGINE.is_over(state)
    state = act(state, SHUFFLE[3])
    assert (state.result, state.reason, state.plies) == ("draw", "threefold-repetition", 8)


def test_a_forward_man_move_starts_the_repetition_history_afresh() -> None:
    state = game("W:WKa1,Kb1,c2:BKh8,Kg8", TURKISH)
    state = act(state, *SHUFFLE)
    assert len(state.history) == 5
    state = act(state, "c2-c3", "h8-h7", "a1-a2", "h7-h8", "a2-a1")
    assert len(state.history) == 5, "only positions since c2-c3 count"
    assert state.history[-1] == repetition_key(position_of(state))


def test_sideways_man_moves_are_not_progress() -> None:
    """A sideways step can be undone: it neither resets the quiet count nor the history."""
    state = game("W:WKa1,c2:BKh8,Kg8,b7", TURKISH)
    state = act(state, "a1-a2", "h8-h7")
    assert state.quiet_plies == 2
    state = act(state, "c2-d2")
    assert state.quiet_plies == 3
    assert len(state.history) == 4


def test_sideways_man_moves_reach_the_quiet_ply_draw() -> None:
    state = game("W:Wa2,Kh1:Bb7,Ka8", GIVE).model_copy(update={"quiet_plies": 97})
    state = act(state, "a2-b2", "b7-a7")
    assert not ENGINE.is_over(state)
    state = act(state, "b2-a2")
    assert (state.result, state.reason, state.quiet_plies) == ("draw", "quiet-plies", 100)


def test_a_long_quiet_game_keeps_a_small_history() -> None:
    """However the men shuffle sideways, the game ends within 100 quiet plies, and the
    stored repetition history never reaches further back."""
    rng = random.Random(19)
    state = game("W:Wa2,c2,e2,g2:Bb7,d7,f7,h7", GIVE)
    while not ENGINE.is_over(state):
        quiet = [
            move
            for move in ENGINE.view(state, None).moves
            if not move.captures and (move.from_square[1] == move.to_square[1])
        ]
        state = act(state, rng.choice(quiet).notation)
        assert len(state.history) <= QUIET_PLY_LIMIT + 1
    assert state.reason in ("quiet-plies", "threefold-repetition")
    assert state.plies <= QUIET_PLY_LIMIT


def test_one_piece_each_draws_only_when_the_side_to_move_cannot_capture() -> None:
    state = act(game("W:WKa2:BKc2,Kf8", TURKISH), "a2xf2")
    assert not ENGINE.is_over(state), "Black's king can still take White's"
    assert ENGINE.view(state, None).legal_moves == ["f8xf1"]
    state = act(state, "f8xf1")
    assert (state.result, state.reason) == ("black", "no-pieces")


def test_one_hundred_quiet_plies_draw() -> None:
    state = game("W:WKa1,Kb1:BKh8,Kg8", TURKISH)
    state = state.model_copy(update={"quiet_plies": 98})
    state = act(state, "a1-a3")
    assert state.quiet_plies == 99 and not ENGINE.is_over(state)
    state = act(state, "h8-h6")
    assert (state.result, state.reason) == ("draw", "quiet-plies")
    assert ENGINE.view(state, None).reason_text == (
        "Draw: 100 plies without a capture or a forward man move."
    )


def test_king_moves_count_forward_man_moves_reset_the_quiet_count() -> None:
    state = game("W:WKa1,Kb1,c2:BKh8,Kg8,d7", GIVE)
    state = act(state, "a1-a3", "h8-h6")
    assert state.quiet_plies == 2
    state = act(state, "c2-c3")
    assert state.quiet_plies == 0
    state = act(state, "d7-d6")
    assert state.quiet_plies == 0, "a black man's move resets it too"
    state = act(state, "a3-a4")
    assert state.quiet_plies == 1


def test_a_capture_resets_the_quiet_count() -> None:
    state = game("W:WKa1,Kb1:BKh8,Kg8,Kd1", TURKISH).model_copy(update={"quiet_plies": 50})
    assert ENGINE.view(state, None).legal_moves == ["b1xe1", "b1xf1", "b1xg1", "b1xh1"]
    state = act(state, "b1xe1")
    assert state.quiet_plies == 0


def test_draw_by_agreement() -> None:
    state = ENGINE.new_game(DUO, 0)
    state = act(state, "offer draw")
    assert ENGINE.to_act(state) == [WHITE_ID], "offering doesn't pass the turn"
    assert "offer draw" not in [str(a) for a in ENGINE.legal_actions(state, WHITE_ID)]
    with pytest.raises(IllegalAction, match="already stands"):
        ENGINE.apply(state, WHITE_ID, OFFER_DRAW)
    with pytest.raises(IllegalAction, match="no draw offer"):
        ENGINE.apply(state, WHITE_ID, ACCEPT_DRAW)
    state = act(state, "c3-c4")
    assert ENGINE.view(state, None).draw_offer_by == WHITE_ID
    assert [str(a) for a in ENGINE.legal_actions(state, BLACK_ID)][:2] == [
        "resign",
        "accept draw",
    ]
    with pytest.raises(IllegalAction, match="accept it"):
        ENGINE.apply(state, BLACK_ID, OFFER_DRAW)
    done = act(state, "accept draw")
    assert (done.result, done.reason) == ("draw", "agreement")
    assert ENGINE.outcome(done).scores == {WHITE_ID: 1, BLACK_ID: 1}


def test_a_draw_offer_lapses_when_the_opponent_moves() -> None:
    state = act(ENGINE.new_game(DUO, 0), "offer draw", "c3-c4", "c6-c5")
    assert state.draw_offer is None
    assert "accept draw" not in [str(a) for a in ENGINE.legal_actions(state, WHITE_ID)]
    assert "offer draw" in [str(a) for a in ENGINE.legal_actions(state, WHITE_ID)]


def test_resigning_in_turn_is_an_action() -> None:
    state = act(ENGINE.new_game(DUO, 0), "resign")
    assert (state.result, state.reason) == ("black", "resignation")
    assert ENGINE.outcome(state).places == {WHITE_ID: 2, BLACK_ID: 1}
    assert ENGINE.view(state, None).reason_text == "Black wins: White resigned."


def test_either_player_may_resign_at_any_time_through_engine_resign() -> None:
    state = ENGINE.new_game(DUO, 0)
    out_of_turn = ENGINE.resign(state, BLACK_ID)
    assert (out_of_turn.result, out_of_turn.reason) == ("white", "resignation")
    assert ENGINE.resign(state, WHITE_ID).result == "black"
    with pytest.raises(IllegalAction, match="not playing"):
        ENGINE.resign(state, "carol")
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.resign(out_of_turn, WHITE_ID)


def test_a_finished_game_refuses_everything_and_an_unfinished_has_no_outcome() -> None:
    state = ENGINE.new_game(DUO, 0)
    with pytest.raises(GameError):
        ENGINE.outcome(state)
    over = act(state, "resign")
    for player in DUO:
        assert ENGINE.legal_actions(over, player) == []
        with pytest.raises(IllegalAction, match="over"):
            ENGINE.apply(over, player, "c3-c4")


# --- Views and state --------------------------------------------------------------------


def test_the_view_shows_the_whole_board_moves_and_the_last_move() -> None:
    state = act(game("B:Wd4,a2,Kh1:Bd6,h8"), "d6-d5")
    view = ENGINE.view(state, None)
    assert view.fen == "W:WKh1,a2,d4:Bd5,h8"
    assert [(p.square, p.colour, p.king) for p in view.pieces] == [
        ("h1", "white", True),
        ("a2", "white", False),
        ("d4", "white", False),
        ("d5", "black", False),
        ("h8", "black", False),
    ]
    assert view.legal_moves == ["d4xd6"]
    (detail,) = view.moves
    assert (detail.from_square, detail.to_square, detail.path, detail.captures) == (
        "d4",
        "d6",
        ["d4", "d6"],
        ["d5"],
    )
    assert not detail.promotes
    assert view.last_move == "d6-d5" and view.last_move_squares == ["d6", "d5"]
    assert view.men == {"white": 2, "black": 2} and view.kings == {"white": 1, "black": 0}
    assert view.lost == {"white": 16 - 3, "black": 16 - 2}
    assert view.to_act == WHITE_ID and not view.over and view.reason is None
    assert ENGINE.view(state, BLACK_ID).model_dump(exclude={"viewer"}) == view.model_dump(
        exclude={"viewer"}
    ), "perfect information: every viewer sees the same"


def test_the_view_marks_promotions() -> None:
    view = ENGINE.view(game("W:Wc7,a2:Be5,h6"), None)
    promoting = {m.notation: m.promotes for m in view.moves}
    assert promoting["c7-c8"] and not promoting["c7-b7"]


def test_state_round_trips_json() -> None:
    state = act(ENGINE.new_game(DUO, 0, DraughtsOptions(ruleset="turkish")), "c3-c4")
    back = DraughtsState.model_validate_json(state.model_dump_json())
    assert back == state and back.schema_version == 1


# --- Random games -------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [GIVE, TURKISH])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_of_moves_only_end_and_stay_sane(ruleset: Ruleset, seed: int) -> None:
    """Without resignations or draw offers (which end conformance playouts early)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(DUO, seed, DraughtsOptions(ruleset=ruleset))
    opening = draughts_invariant(state)
    for _ in range(MAX_PLIES):
        draughts_check_state(state)
        assert draughts_invariant(state) == opening
        if ENGINE.is_over(state):
            break
        (player,) = ENGINE.to_act(state)
        options = [a for a in ENGINE.legal_actions(state, player) if a.kind == "move"]
        state = ENGINE.apply(state, player, rng.choice(options))
    assert ENGINE.is_over(state)


# --- The generic conformance suite ------------------------------------------------------

MAX_PLIES = 1_000
"""Not a proof: captures (≤ 30), forward man moves (≤ 88 a side) and 100 quiet plies
would bound a game, but sideways man moves reset the quiet count and are stopped only
by repetition. Random games of moves only end within about 160 plies."""


def draughts_invariant(state: DraughtsState) -> Hashable:
    """Pieces are conserved: those on the board plus those lost stay 16 a side."""
    pos = position_of(state)
    return (
        state.ruleset,
        pos.count("white") + state.lost[0],
        pos.count("black") + state.lost[1],
    )


def draughts_check_state(state: DraughtsState) -> None:
    """The position reads back; no man on its promotion rank; the last-moved piece
    belongs to the side that just moved; history, counters and result agree."""
    pos = Position.from_fen(state.position, state.ruleset, state.last_moved)
    assert pos.fen() == state.position
    assert state.lost[0] + pos.count("white") == PIECES_PER_SIDE
    assert state.lost[1] + pos.count("black") == PIECES_PER_SIDE
    if state.ruleset == GIVE:
        for colour in COLOURS:
            squares = pos.pieces(colour)
            if len(squares) == 1:
                piece = pos.piece_at(squares[0])
                assert piece is not None and piece.king, f"{colour}'s last man uncrowned"
    assert state.history and state.history[-1] == repetition_key(pos)
    assert 0 <= state.quiet_plies <= 100
    if state.last_move is not None:
        assert state.last_moved is not None
        assert Move.parse(state.last_move).path[-1] == SQUARES[state.last_moved]
    over = ENGINE.is_over(state)
    assert (state.reason is None) == (not over)
    if over:
        assert state.draw_offer is None
    else:
        assert pos.legal_moves(), "a running game where the side to move is stuck"
        assert state.history.count(state.history[-1]) < 3
        assert state.quiet_plies < 100
        assert not (pos.count("white") == 1 and pos.count("black") == 1)
    assert state.draw_offer in (None, 0, 1)


DRAUGHTS = EngineCase(
    engine=ENGINE,
    variants={"default": st.none(), "turkish": st.just(DraughtsOptions(ruleset="turkish"))},
    invariant=draughts_invariant,
    scramble_private=None,  # perfect information: nothing is hidden
    lower_wins=False,
    check_state=draughts_check_state,
    # A ply is at most two actions (a draw offer, then the move); see MAX_PLIES.
    max_steps=2 * MAX_PLIES,
)
