"""The Geschenkt table image: rendered from real engine states (seeded random games).

Checks what a test can check without eyes: valid PNGs of a sensible size, different
tables give different pictures, the picture is a function of the public view only
(chips stay secret), and odd input (long or non-Latin names, 24 cards) still draws.
Timing is measured in bench/, never here.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from bot.engines.geschenkt import ENGINE, GeschenktOptions, GeschenktState, GeschenktView
from bot.render.geschenkt import WIDTH, place_runs, render_table
from bot.render.text import TextStyle, display_name, fit_text, text_width
from tests.render.images import decode, pixels_differ

NAMES = {
    "p0": "Alice",
    "p1": "Bjørn Ødegård",
    "p2": "José María de la Cruz Fernández y Montenegro",
    "p3": "🎲 Dice Goblin 🎲",
    "p4": "田中太郎",
    "p5": "𝓜𝓪𝓻𝓰𝓸𝓽",
    # p6 has no entry: it falls back to its id
}


def players(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def playout(count: int, seed: int) -> list[GeschenktState]:
    """Every state of a seeded random game, start to finish, via the engine's API."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players(count), seed)
    states = [state]
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, player, rng.choice(ENGINE.legal_actions(state, player)))
        states.append(state)
    return states


def moments(count: int, seed: int = 2024) -> dict[str, GeschenktState]:
    states = playout(count, seed)
    return {"start": states[0], "middle": states[len(states) // 2], "over": states[-1]}


def public(state: GeschenktState) -> GeschenktView:
    return ENGINE.view(state, None)


# --- valid output ------------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 7])
@pytest.mark.parametrize("moment", ["start", "middle", "over"])
def test_renders_a_valid_png(count: int, moment: str) -> None:
    state = moments(count)[moment]
    png = render_table(public(state), NAMES)
    image = decode(png)
    assert image.width == WIDTH
    assert 250 <= image.height <= 1400
    assert len(png) < 150_000


@pytest.mark.parametrize("count", range(ENGINE.min_players, ENGINE.max_players + 1))
def test_every_player_count_renders(count: int) -> None:
    for state in moments(count, seed=count).values():
        assert decode(render_table(public(state), NAMES)).width == WIDTH


def test_panel_is_opaque_with_transparent_rounded_corners() -> None:
    """Readable on Discord's dark and light themes alike: the table brings its own
    opaque background; only the rounding outside its corners is see-through."""
    image = decode(render_table(public(moments(3)["middle"]), NAMES))
    alpha = image.getchannel("A")
    right, bottom = image.width - 1, image.height - 1
    for corner in [(0, 0), (right, 0), (0, bottom), (right, bottom)]:
        assert alpha.getpixel(corner) == 0
    assert alpha.crop((12, 12, image.width - 12, image.height - 12)).getextrema() == (255, 255)


# --- different tables, different pictures ----------------------------------------------


@pytest.mark.parametrize("count", [3, 7])
def test_start_middle_and_end_look_different(count: int) -> None:
    pngs = [render_table(public(state), NAMES) for state in moments(count).values()]
    assert len(set(pngs)) == len(pngs)
    assert pixels_differ(pngs[0], pngs[1])
    assert pixels_differ(pngs[1], pngs[2])


def test_the_image_changes_when_the_face_up_card_changes() -> None:
    deck = [9, 14, 22, 27, 31]
    table = players(4)
    first = ENGINE.new_game(table, 1, GeschenktOptions(deck=deck))
    other = ENGINE.new_game(table, 1, GeschenktOptions(deck=[12, *deck[1:]]))
    assert public(first).current_card != public(other).current_card
    assert public(first).model_copy(update={"current_card": 12}) == public(other)
    assert pixels_differ(render_table(public(first), NAMES), render_table(public(other), NAMES))


def test_every_move_of_a_game_changes_the_picture() -> None:
    """Taking moves a card to a player; refusing grows the pot: both show."""
    pngs = [render_table(public(state), NAMES) for state in playout(5, seed=11)]
    assert all(before != after for before, after in pairwise(pngs))


def test_names_are_drawn() -> None:
    view = public(moments(3)["middle"])
    assert pixels_differ(render_table(view, NAMES), render_table(view, {}))


@pytest.mark.parametrize("moment", ["start", "middle", "over"])
def test_the_words_are_drawn_in_the_language_asked_for(moment: str) -> None:
    """English by default; German labels give a different picture of the same size."""
    view = public(moments(4)[moment])
    english = render_table(view, NAMES)
    assert render_table(view, NAMES, lang="en") == english
    german = render_table(view, NAMES, lang="de")
    assert pixels_differ(english, german)
    assert decode(german).size == decode(english).size


# --- privacy and determinism -------------------------------------------------------------


def with_other_chips(state: GeschenktState) -> GeschenktState:
    """The same table, but the secret chips are spread differently."""
    chips = list(state.chips)
    chips[0], chips[-1] = chips[-1] + 3, chips[0]
    return state.model_copy(update={"chips": chips})


@pytest.mark.parametrize("count", [3, 7])
@pytest.mark.parametrize("moment", ["start", "middle"])
def test_secret_chips_never_reach_the_picture(count: int, moment: str) -> None:
    state = moments(count)[moment]
    other = with_other_chips(state)
    assert state.chips != other.chips
    assert public(state) == public(other)
    assert render_table(public(state), NAMES) == render_table(public(other), NAMES)


def test_a_players_own_view_renders_as_the_public_table() -> None:
    """``my_chips`` in a player's view must not leak into the shared image."""
    state = moments(4)["middle"]
    expected = render_table(public(state), NAMES)
    for player in state.players:
        own = ENGINE.view(state, player)
        assert own.my_chips is not None
        assert render_table(own, NAMES) == expected


def test_chips_show_once_the_game_is_over() -> None:
    state = moments(3)["over"]
    other = with_other_chips(state)
    assert public(state) != public(other)
    assert pixels_differ(render_table(public(state), NAMES), render_table(public(other), NAMES))


def test_rendering_is_deterministic() -> None:
    for state in moments(7).values():
        view = public(state)
        assert render_table(view, NAMES) == render_table(view.model_copy(deep=True), dict(NAMES))


# --- awkward input ---------------------------------------------------------------------


def hog_all_cards(deck: list[int], count: int = 3) -> list[GeschenktState]:
    """Seat 0 takes every card (the taker acts again), so ends with the whole deck."""
    state = ENGINE.new_game(players(count), 5, GeschenktOptions(deck=deck))
    states = [state]
    while not ENGINE.is_over(state):
        state = ENGINE.apply(state, ENGINE.to_act(state)[0], "take")
        states.append(state)
    return states


@pytest.mark.parametrize(
    "deck",
    [
        list(range(3, 27)),  # one run of 24
        [*range(3, 36, 2), 4, 8, 12, 16, 20, 24, 28],  # 24 cards in many runs
    ],
)
def test_a_player_with_24_cards(deck: list[int]) -> None:
    states = hog_all_cards(deck)
    assert len(states[-1].cards[0]) == 24
    short = decode(render_table(public(states[1]), NAMES))
    for state in (states[-2], states[-1]):
        image = decode(render_table(public(state), NAMES))
        assert image.width == WIDTH
        assert image.height > short.height  # the hand wraps onto more lines


def test_unprintable_and_long_names_still_render() -> None:
    state = moments(3)["middle"]
    odd = {
        "p0": "W" * 200,
        "p1": "",
        "p2": "\u200b\n\t🙂",
    }
    assert decode(render_table(public(state), odd)).width == WIDTH


def test_display_name_keeps_the_name_as_written() -> None:
    assert display_name("p1", {"p1": "Zoë"}, 1, "en") == "Zoë"
    assert display_name("p4", {"p4": "田中太郎"}, 4, "en") == "田中太郎"
    assert display_name("p2", {"p2": "🎲 Dice  Goblin\n"}, 2, "en") == "🎲 Dice Goblin"
    assert display_name("ai:2", {}, 2, "en") == "ai:2"


def test_display_name_falls_back_to_the_seat_only_when_blank() -> None:
    assert display_name("p4", {"p4": " \n\t"}, 4, "en") == "Player 5"
    assert display_name("p4", {"p4": ""}, 4, "de") == "Spieler 5"


@pytest.mark.parametrize(
    "text", ["Alice", "W" * 80, "José María de la Cruz Fernández", "山田太郎" * 8, "محمد" * 10]
)
def test_fit_text_fits(text: str) -> None:
    style = TextStyle(21, bold=True)
    fitted = fit_text(text, style, 150)
    assert text_width(fitted, style) <= 150
    assert fitted == text or fitted.endswith("…")


# --- run layout ----------------------------------------------------------------------------


def test_runs_overlap_and_single_cards_stand_apart() -> None:
    placed = place_runs([[3, 4, 5], [7], [9, 10]], max_width=600)
    assert [card.value for card in placed] == [3, 4, 5, 7, 9, 10]
    assert [card.covered for card in placed] == [True, True, False, False, True, False]
    assert {card.line for card in placed} == {0}
    xs = [card.x for card in placed]
    assert xs == sorted(xs)
    in_run = xs[1] - xs[0]
    between_runs = xs[3] - xs[2]
    assert between_runs > in_run + 10


def test_long_hands_wrap_within_the_width() -> None:
    runs = [[card] for card in range(3, 36, 2)]
    placed = place_runs(runs, max_width=300)
    assert max(card.line for card in placed) >= 2
    assert all(card.x + 50 <= 300 for card in placed)
    one_long_run = place_runs([list(range(3, 27))], max_width=300)
    assert [card.value for card in one_long_run] == list(range(3, 27))
    assert all(card.x + 50 <= 300 for card in one_long_run)
