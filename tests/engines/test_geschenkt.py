"""Geschenkt: every ruling in RULINGS.md and every example in rules/geschenkt.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.engines.base import GameError, IllegalAction, Outcome
from bot.engines.geschenkt import (
    ENGINE,
    REFUSE,
    TAKE,
    GeschenktAction,
    GeschenktOptions,
    GeschenktState,
    runs_of,
    score,
)

PETER, SABINE, LISA = "peter", "sabine", "lisa"
TRIO = [PETER, SABINE, LISA]
ALL_CARDS = set(range(3, 36))
TACTICAL_OUT = {10, 20, 30}


def seats(count: int) -> list[str]:
    """``count`` distinct player ids."""
    return [f"player{i}" for i in range(count)]


def played_cards(state: GeschenktState) -> list[int]:
    """The face-up card followed by the face-down stack, top first."""
    assert state.current is not None
    return [state.current, *state.stack]


def new(deck: list[int], players: list[str] | None = None) -> GeschenktState:
    """A game of ``players`` (default Peter, Sabine, Lisa) over a fixed deck."""
    return ENGINE.new_game(players or TRIO, 0, GeschenktOptions(deck=deck))


def play(state: GeschenktState, *moves: str) -> GeschenktState:
    """Apply moves for whoever is to act, checking each was legal for them."""
    for move in moves:
        (player,) = ENGINE.to_act(state)
        assert move in [str(action) for action in ENGINE.legal_actions(state, player)]
        state = ENGINE.apply(state, player, move)
    return state


def chips_of(state: GeschenktState, player: str) -> int:
    """A player's chips, read from the state."""
    return state.chips[state.players.index(player)]


def cards_of(state: GeschenktState, player: str) -> list[int]:
    """A player's face-up cards, read from the state."""
    return state.cards[state.players.index(player)]


# --- Scoring (rule text, "The cards and the chips" and "End of the game") ----------


def test_sabine_four_stand_alone_cards_count_41() -> None:
    assert score([4, 6, 10, 21], 0) == 4 + 6 + 10 + 21 == 41


@pytest.mark.parametrize(
    ("chain", "expected"),
    [
        ([8, 9], 8),
        ([17, 18, 19, 20], 17),
        ([20, 19, 17, 18], 17),
        ([22, 24], 22 + 24),  # the tactical tips' gap between the 22 and the 24 ...
        ([22, 23, 24], 22),  # ... closed by the 23
    ],
)
def test_a_chain_counts_only_its_lowest_card(chain: list[int], expected: int) -> None:
    assert score(chain, 0) == expected


def test_peter_28_then_13_once_he_holds_13_to_16() -> None:
    assert score([13, 15, 16], 0) == 13 + 15 == 28
    assert runs_of([16, 13, 15]) == [[13], [15, 16]]
    assert score([13, 14, 15, 16], 0) == 13
    assert runs_of([13, 14, 15, 16]) == [[13, 14, 15, 16]]


def test_lisa_three_stand_alone_cards_two_chains_and_8_chips_score_51() -> None:
    cards = [3, 7, 10, 14, 15, 25, 26, 27]
    assert runs_of(cards) == [[3], [7], [10], [14, 15], [25, 26, 27]]
    assert score(cards, 0) == 3 + 7 + 10 + 14 + 25 == 59
    assert score(cards, 8) == 59 - 8 == 51


def test_chips_count_as_plus_points_even_without_cards() -> None:
    assert score([], 5) == -5


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    cards=st.sets(st.integers(min_value=3, max_value=35), max_size=24),
    chips=st.integers(min_value=0, max_value=77),
)
def test_score_counts_each_card_that_does_not_extend_a_run(cards: set[int], chips: int) -> None:
    """A card counts exactly when the card one lower is not also held."""
    counted = [card for card in cards if card - 1 not in cards]
    assert score(cards, chips) == sum(counted) - chips
    assert sorted(card for run in runs_of(cards) for card in run) == sorted(cards)
    assert [run[0] for run in runs_of(cards)] == sorted(counted)


# --- Set-up -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "tactical", "chips"),
    [
        (3, False, 11),
        (4, False, 11),
        (5, False, 11),
        (6, False, 9),
        (7, False, 7),
        (3, True, 10),
        (4, True, 10),
        (5, True, 10),
        (6, True, 9),
        (7, True, 7),
    ],
)
def test_starting_chips_per_player_count(count: int, tactical: bool, chips: int) -> None:
    state = ENGINE.new_game(seats(count), 1, GeschenktOptions(tactical=tactical))
    assert state.chips == [chips] * count
    assert state.pot == 0


@pytest.mark.parametrize("seed", range(8))
def test_24_cards_are_played_and_9_removed_unseen(seed: int) -> None:
    state = ENGINE.new_game(seats(3), seed)
    played = played_cards(state)
    assert len(played) == len(set(played)) == 24
    assert len(state.removed) == len(set(state.removed)) == 9
    assert set(played).isdisjoint(state.removed)
    assert set(played) | set(state.removed) == ALL_CARDS


@pytest.mark.parametrize("seed", range(8))
def test_tactical_never_plays_10_20_30_and_removes_6_of_30(seed: int) -> None:
    state = ENGINE.new_game(seats(4), seed, GeschenktOptions(tactical=True))
    played = played_cards(state)
    assert len(played) == len(set(played)) == 24
    assert len(state.removed) == 6
    assert set(played).isdisjoint(state.removed)
    assert set(played) | set(state.removed) == ALL_CARDS - TACTICAL_OUT
    assert state.tactical


def test_the_seed_shuffles_the_deck() -> None:
    decks = {tuple(played_cards(ENGINE.new_game(seats(3), seed))) for seed in range(10)}
    assert len(decks) == 10


def test_first_seat_turns_the_first_card() -> None:
    state = new([11, 16, 5])
    assert ENGINE.to_act(state) == [PETER]
    assert state.current == 11
    assert state.stack == [16, 5]
    assert sorted(state.removed) == sorted(ALL_CARDS - {11, 16, 5})


# --- Taking and refusing ------------------------------------------------------------


def test_refusing_pays_a_chip_to_the_pot_and_passes_left() -> None:
    state = new([11, 16])
    after = ENGINE.apply(state, PETER, REFUSE)
    assert chips_of(after, PETER) == 10
    assert after.pot == 1
    assert after.current == 11
    assert ENGINE.to_act(after) == [SABINE]
    after = play(after, "refuse", "refuse")
    assert after.pot == 3
    assert ENGINE.to_act(after) == [PETER], "the turn wraps from the last seat to the first"


def test_taking_gives_the_pot_to_the_taker_who_turns_the_next_card_and_acts_again() -> None:
    state = play(new([11, 16, 5]), "refuse", "refuse", "refuse", "refuse")
    assert ENGINE.to_act(state) == [SABINE]
    assert state.pot == 4
    taken = ENGINE.apply(state, SABINE, TAKE)
    assert cards_of(taken, SABINE) == [11]
    assert chips_of(taken, SABINE) == 11 - 1 + 4
    assert taken.pot == 0
    assert taken.current == 16
    assert taken.stack == [5]
    assert ENGINE.to_act(taken) == [SABINE]
    assert ENGINE.legal_actions(taken, SABINE) == [TAKE, REFUSE]


def test_a_player_with_no_chips_must_take() -> None:
    state = play(new([11, 16]), *["refuse"] * 33)
    assert state.chips == [0, 0, 0]
    assert state.pot == 33
    assert ENGINE.to_act(state) == [PETER]
    assert ENGINE.legal_actions(state, PETER) == [TAKE]
    before = state.model_dump()
    with pytest.raises(IllegalAction, match="chip"):
        ENGINE.apply(state, PETER, REFUSE)
    assert state.model_dump() == before
    assert chips_of(ENGINE.apply(state, PETER, TAKE), PETER) == 33


def test_only_the_player_to_act_may_move() -> None:
    state = new([11, 16])
    for player, action in [(SABINE, TAKE), (LISA, REFUSE), ("stranger", TAKE)]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, player, action)
        assert ENGINE.legal_actions(state, player) == []


def test_the_game_ends_the_moment_the_last_card_is_taken() -> None:
    state = ENGINE.new_game(TRIO, 3)
    for _ in range(23):
        state = ENGINE.apply(state, PETER, TAKE)
        assert not ENGINE.is_over(state)
    assert len(state.stack) == 0
    assert state.current is not None
    state = ENGINE.apply(state, PETER, TAKE)
    assert ENGINE.is_over(state)
    assert state.current is None
    assert len(cards_of(state, PETER)) == 24
    assert ENGINE.to_act(state) == []
    for player in TRIO:
        assert ENGINE.legal_actions(state, player) == []
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, player, TAKE)


def test_rule_text_example_peter_sabine_lisa_and_the_11() -> None:
    """Peter turns the 11 and refuses, Sabine refuses, Lisa takes the 11 with both
    chips, turns the 16 and refuses it; play passes on to Peter."""
    state = new([11, 16, 25, 4])
    state = ENGINE.apply(state, PETER, "refuse")
    state = ENGINE.apply(state, SABINE, "refuse")
    assert state.pot == 2
    state = ENGINE.apply(state, LISA, "take")
    assert cards_of(state, LISA) == [11]
    assert chips_of(state, LISA) == 13
    assert (chips_of(state, PETER), chips_of(state, SABINE)) == (10, 10)
    assert state.pot == 0
    assert state.current == 16
    assert ENGINE.to_act(state) == [LISA]
    state = ENGINE.apply(state, LISA, "refuse")
    assert state.current == 16
    assert state.pot == 1
    assert chips_of(state, LISA) == 12
    assert ENGINE.to_act(state) == [PETER]


def test_rule_text_example_sabine_sends_the_35_around() -> None:
    """Sabine holds the 34, turns the 35, refuses it until it has gathered chips,
    then takes it: the chain 34–35 counts 34 and the pot pays her chips."""
    state = new([34, 35, 3], [SABINE, PETER, LISA])
    state = play(state, "take")
    assert state.current == 35
    assert ENGINE.to_act(state) == [SABINE]
    state = play(state, "refuse", "refuse", "refuse", "refuse", "refuse", "refuse", "take")
    assert cards_of(state, SABINE) == [34, 35]
    assert chips_of(state, SABINE) == 11 - 2 + 6
    assert ENGINE.view(state, SABINE).my_score == 34 - 15


def test_lowest_score_wins_and_ties_share_the_place() -> None:
    state = play(new([11]), "take")
    assert ENGINE.is_over(state)
    outcome = ENGINE.outcome(state)
    assert outcome.scores == {PETER: 11 - 11, SABINE: -11, LISA: -11}
    assert outcome.places == {PETER: 3, SABINE: 1, LISA: 1}
    assert sorted(outcome.winners()) == [LISA, SABINE]


def test_outcome_scores_use_the_score_rule() -> None:
    moves = ["take", "refuse", "refuse", "take", "take", "refuse", "refuse", "take"]
    state = play(new([13, 15, 16, 20]), *moves)
    assert ENGINE.is_over(state)
    assert state.cards == [[13], [20], [15, 16]]
    assert state.chips == [9, 12, 12]
    expected = {PETER: 13 - 9, SABINE: 20 - 12, LISA: 15 - 12}
    assert ENGINE.outcome(state).scores == expected
    assert ENGINE.outcome(state).places == {LISA: 1, PETER: 2, SABINE: 3}


# --- Views ------------------------------------------------------------------------


def mid_game() -> GeschenktState:
    """Peter holds the 14, Sabine the chain 11–12; the 30 carries a pot of 2, Lisa acts."""
    state = new([11, 12, 14, 30, 5, 6])
    return play(state, "refuse", "take", "take", "refuse", "refuse", "take", "refuse", "refuse")


def test_mid_game_position_is_what_the_views_expect() -> None:
    state = mid_game()
    assert state.cards == [[14], [11, 12], []]
    assert state.chips == [11, 10, 10]
    assert (state.current, state.pot, state.stack) == (30, 2, [5, 6])
    assert ENGINE.to_act(state) == [LISA]


def test_public_view_shows_the_table_but_never_chips() -> None:
    state = mid_game()
    view = ENGINE.view(state, None)
    assert view.viewer is None
    assert view.current_card == 30
    assert view.pot == 2
    assert view.cards_left == 2
    assert view.to_act == LISA
    assert not view.over
    assert [seat.player for seat in view.seats] == TRIO
    assert [seat.cards for seat in view.seats] == [[14], [11, 12], []]
    assert [seat.runs for seat in view.seats] == [[[14]], [[11, 12]], []]
    assert all(seat.chips is None and seat.score is None for seat in view.seats)
    assert view.my_chips is None
    assert view.my_score is None
    assert view.removed is None


def test_public_view_is_the_same_whatever_the_chip_counts() -> None:
    state = mid_game()
    rich = state.model_copy(update={"chips": [30, 1, 0]}, deep=True)
    assert ENGINE.view(rich, None) == ENGINE.view(state, None)
    assert ENGINE.view(rich, "stranger") == ENGINE.view(state, "stranger")


def test_a_players_view_adds_their_own_chips_and_score_only() -> None:
    state = mid_game()
    view = ENGINE.view(state, SABINE)
    assert view.viewer == SABINE
    assert view.my_chips == 10
    assert view.my_score == 11 - 10
    assert all(seat.chips is None and seat.score is None for seat in view.seats)
    others = state.model_copy(update={"chips": [0, 10, 40]}, deep=True)
    assert ENGINE.view(others, SABINE) == view
    assert ENGINE.view(state, PETER).my_chips == 11
    assert ENGINE.view(state, PETER).my_score == 14 - 11


def test_an_outsider_sees_only_the_public_table() -> None:
    state = mid_game()
    view = ENGINE.view(state, "stranger")
    assert view.my_chips is None
    assert view.my_score is None
    public = ENGINE.view(state, None)
    assert view.model_dump(exclude={"viewer"}) == public.model_dump(exclude={"viewer"})


def test_the_final_view_reveals_removed_cards_and_all_chips() -> None:
    state = play(new([11, 12, 14, 30, 5, 6]), *["take"] * 6)
    assert ENGINE.is_over(state)
    view = ENGINE.view(state, None)
    assert view.over
    assert view.current_card is None
    assert view.to_act is None
    assert view.cards_left == 0
    assert view.removed == sorted(ALL_CARDS - {11, 12, 14, 30, 5, 6})
    assert [seat.chips for seat in view.seats] == state.chips
    assert [seat.score for seat in view.seats] == [
        score(cards, chips) for cards, chips in zip(state.cards, state.chips, strict=True)
    ]
    assert view.seats[0].score == 5 + 11 + 14 + 30 - 11


# --- Options and actions ----------------------------------------------------------


@pytest.mark.parametrize(
    "deck",
    [[11, 16, 11], [2, 16], [11, 36], [0], []],
    ids=["duplicate", "below-3", "above-35", "zero", "empty"],
)
def test_invalid_decks_are_rejected(deck: list[int]) -> None:
    with pytest.raises(ValidationError):
        GeschenktOptions(deck=deck)
    unchecked = GeschenktOptions.model_construct(tactical=False, deck=deck)
    with pytest.raises(GameError):
        ENGINE.new_game(TRIO, 0, unchecked)


@pytest.mark.parametrize("count", [0, 1, 2, 8, 9])
def test_player_counts_outside_3_to_7_are_rejected(count: int) -> None:
    with pytest.raises(GameError):
        ENGINE.new_game(seats(count), 0)


def test_a_player_cannot_take_two_seats() -> None:
    with pytest.raises(GameError):
        ENGINE.new_game([PETER, SABINE, PETER], 0)


@pytest.mark.parametrize("card", sorted(TACTICAL_OUT))
def test_tactical_deck_cannot_contain_10_20_or_30(card: int) -> None:
    """The tactical variant takes 10, 20 and 30 out of the box; a fixed deck that
    plays one of them is not a tactical game and must be refused."""
    with pytest.raises((GameError, ValueError)):
        ENGINE.new_game(TRIO, 0, GeschenktOptions(tactical=True, deck=[card, 11]))


def test_string_actions_are_a_convenience_for_take_and_refuse() -> None:
    state = new([11, 16])
    assert ENGINE.apply(state, PETER, "take") == ENGINE.apply(state, PETER, TAKE)
    assert ENGINE.apply(state, PETER, "refuse") == ENGINE.apply(state, PETER, REFUSE)
    before = state.model_dump()
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, PETER, "pass")
    assert state.model_dump() == before


def test_errors_carry_an_english_template_and_its_parameters() -> None:
    """The bot translates ``error.template`` for the player; ``str`` stays English."""
    with pytest.raises(IllegalAction) as bad_move:
        ENGINE.apply(new([11, 16]), PETER, "pass")
    assert bad_move.value.template == "{move} is not a Geschenkt move; say take or refuse."
    assert bad_move.value.params == {"move": "'pass'"}
    assert str(bad_move.value) == "'pass' is not a Geschenkt move; say take or refuse."
    with pytest.raises(GameError) as out_of_box:
        ENGINE.new_game(TRIO, 0, GeschenktOptions(tactical=True, deck=[20, 10, 11]))
    assert out_of_box.value.template == "Cards {cards} are not in this variant's deck."
    assert str(out_of_box.value) == "Cards [10, 20] are not in this variant's deck."


def test_actions_print_as_their_text_form() -> None:
    assert [str(action) for action in (TAKE, REFUSE)] == ["take", "refuse"]


def test_state_action_and_outcome_round_trip_json() -> None:
    for state in (mid_game(), play(new([11, 12]), "take", "take")):
        text = state.model_dump_json()
        back = GeschenktState.model_validate_json(text)
        assert back == state
        assert back.model_dump_json() == text
        assert ENGINE.view(back, SABINE) == ENGINE.view(state, SABINE)
    for action in (TAKE, REFUSE):
        assert GeschenktAction.model_validate_json(action.model_dump_json()) == action
    outcome = ENGINE.outcome(play(new([11]), "take"))
    assert Outcome.model_validate_json(outcome.model_dump_json()) == outcome


def test_a_restored_game_plays_on_identically() -> None:
    state = ENGINE.new_game(seats(4), 42, GeschenktOptions(tactical=True))
    restored = GeschenktState.model_validate_json(state.model_dump_json())
    moves = ["refuse", "take", "refuse", "refuse", "take", "take"]
    assert play(restored, *moves) == play(state, *moves)
    assert play(restored, *moves).model_dump_json() == play(state, *moves).model_dump_json()
