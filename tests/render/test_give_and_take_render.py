"""The Give & Take table image: rendered from real engine states, most of them dealt
from stacked decks so that a fight, a player out at a turn's start and a player out
in a fight happen on cue.

Checks what a test can check without eyes: valid PNGs of a sensible size, different
tables give different pictures, the picture is a function of the public view only
(piles stay secret, every viewer gets the same bytes), and odd input (long or
non-Latin names) still draws. Timing is measured outside the tests.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from itertools import pairwise

import pytest

from bot.engines.give_and_take import (
    ENGINE,
    GiveAndTakeOptions,
    GiveAndTakeState,
    GiveAndTakeView,
    default_action,
)
from bot.i18n import texts
from bot.render.audit import auditing_text
from bot.render.cards import SMALL_CARD
from bot.render.give_and_take import (
    DUET_SPOTS,
    HEADLINE,
    SEAT_SPOTS,
    WIDTH,
    empty_slot,
    ending_text,
    layout_ring,
    render_table,
    ring_boxes,
    ring_extent,
    running_places,
)
from bot.render.palette import PALETTE
from bot.render.shapes import new_panel
from bot.render.text import fit_name, uncovered
from tests.render.images import decode, pixels_differ
from tests.test_i18n import template_sites

NAMES = {
    "p0": "Alice",
    "p1": "Bjørn Ødegård",
    "p2": "José María de la Cruz Fernández y Montenegro",
    "p3": "🎲 Dice Goblin 🎲",
    "p4": "田中太郎",
}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def players(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def stacked(layers: Sequence[Sequence[tuple[str, str]]], leftovers: int = 0) -> list[str]:
    """A stacked deck from ranks: ``layers[j][seat]`` is the (give, take) pair that
    seat turns up in layer ``j`` (suits are picked for distinct cards), then
    ``leftovers`` more cards for the centre."""
    used: list[str] = []

    def pick(rank: str) -> str:
        card = next(rank + suit for suit in "SHDC" if rank + suit not in used)
        used.append(card)
        return card

    for layer in layers:
        for give, take in layer:
            pick(give)
            pick(take)
    seats = len(layers[0])
    assert leftovers < 2 * seats, "that many leftovers would deepen the piles"
    rest = [rank + suit for rank in RANKS for suit in "CDHS" if rank + suit not in used]
    return used + rest[:leftovers]


def start(
    count: int, deck: list[str] | None = None, seed: int = 7, **opts: object
) -> GiveAndTakeState:
    options = GiveAndTakeOptions.model_validate({"deck": deck, **opts})
    return ENGINE.new_game(players(count), seed, options)


def act(state: GiveAndTakeState, *moves: str) -> GiveAndTakeState:
    """Apply ``moves`` in order, each by whoever is to act."""
    for move in moves:
        (player,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, player, move)
    return state


def public(state: GiveAndTakeState) -> GiveAndTakeView:
    return ENGINE.view(state, None)


# --- scenes --------------------------------------------------------------------------

FIGHT_DECK = stacked(
    [
        # duet k = seat k's take vs seat k+1's give: 0, 4, 0, 2, 3 (a tie at 0)
        [("2", "7"), ("7", "9"), ("K", "4"), ("4", "Q"), ("10", "5")],
        # 1, 5, 1, 11, 7 (a tie at 1)
        [("3", "8"), ("9", "J"), ("6", "6"), ("7", "2"), ("K", "10")],
        # 1, 5, 0, 2, 1: seat 2 captures
        [("5", "Q"), ("J", "3"), ("8", "9"), ("9", "4"), ("2", "6")],
        [("A", "3"), ("5", "8"), ("J", "10"), ("6", "Q"), ("K", "2")],
    ],
    leftovers=3,
)


def fight_scenes() -> dict[str, GiveAndTakeState]:
    """Five players: before the first Go, a fight at layer 1 and 2, its capture."""
    state = start(5, FIGHT_DECK)
    first = act(state, "go")
    second = act(first, "go")
    capture = act(second, "go")
    return {"start": state, "layer1": first, "layer2": second, "capture": capture}


OUT_DECK = stacked(
    [
        # seat 0 captures twice, then seat 1 twice; seats 2 and 3 run dry
        [("2", "5"), ("5", "K"), ("3", "9"), ("Q", "6")],
        [("10", "7"), ("7", "2"), ("J", "4"), ("8", "K")],
        [("4", "Q"), ("6", "8"), ("8", "3"), ("10", "2")],
        [("6", "3"), ("K", "9"), ("9", "J"), ("A", "7")],
    ],
    leftovers=4,
)


def out_at_turn_start() -> GiveAndTakeState:
    """Four players; two went out together at the start of turn 5."""
    return act(start(4, OUT_DECK), *["go", "give", "go", "take"] * 2)


FIGHT_OUT_DECK = stacked(
    [
        [("K", "5"), ("5", "2"), ("9", "Q")],
        [("3", "8"), ("8", "K"), ("2", "6")],
        [("10", "4"), ("J", "7"), ("7", "2")],
        [("6", "2"), ("10", "9"), ("9", "K")],
        # a tie at 1 (seats 0 and 2); seat 2 can't go on, then seat 0 captures
        [("4", "Q"), ("J", "6"), ("8", "5")],
    ],
    leftovers=4,
)


def out_in_a_fight() -> GiveAndTakeState:
    """Three players; seat 2 ran out during a fight, and seat 0 then captured."""
    state = act(start(3, FIGHT_OUT_DECK), *["go", "give", "go", "take"] * 2)
    return act(state, "go")


def playout(count: int, seed: int, turn_cap: int = 500) -> list[GiveAndTakeState]:
    """Every state of a seeded game from a shuffled deck, piles chosen at random."""
    rng = random.Random(seed)
    state = start(count, seed=seed, turn_cap=turn_cap)
    states = [state]
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        actions = ENGINE.legal_actions(state, player)
        state = ENGINE.apply(state, player, rng.choice(actions))
        states.append(state)
    return states


def last_standing() -> GiveAndTakeState:
    """Three players, two piles of two: seat 0 captures twice, the others run dry."""
    deck = stacked([[("2", "5"), ("5", "K"), ("3", "9")], [("10", "7"), ("7", "2"), ("J", "4")]])
    return act(start(3, deck), "go", "give", "go", "take")


def all_out() -> GiveAndTakeState:
    """Two players, one card per pile, a tie: both out at once with no cards: a draw."""
    return act(start(2, stacked([[("5", "7"), ("7", "5")]], leftovers=1)), "go")


def every_scene() -> dict[str, GiveAndTakeState]:
    scenes = {f"fight-{key}": state for key, state in fight_scenes().items()}
    scenes["out-at-start"] = out_at_turn_start()
    scenes["out-in-fight"] = out_in_a_fight()
    scenes["last-standing"] = last_standing()
    scenes["all-out"] = all_out()
    two = playout(2, seed=3)
    scenes["two-middle"] = two[len(two) // 2]
    scenes["two-over"] = two[-1]
    return scenes


# --- the scenes are what they claim -----------------------------------------------------


def test_the_fight_scenes_fight() -> None:
    scenes = {key: public(state) for key, state in fight_scenes().items()}
    assert scenes["start"].phase == "go" and not scenes["start"].duets
    first, second, capture = scenes["layer1"], scenes["layer2"], scenes["capture"]
    assert first.fight and first.layers == 1 and first.phase == "go"
    assert [duet.player for duet in first.duets if duet.lowest] == ["p0", "p2"]
    assert second.fight and second.layers == 2 and second.phase == "go"
    assert capture.phase == "choose" and capture.capturer == "p2" and capture.layers == 3
    assert capture.capture_size == 33 and capture.fight
    assert all(len(seat.played_take) == 3 for seat in capture.seats)


def test_the_elimination_scenes_eliminate() -> None:
    at_start = public(out_at_turn_start())
    assert not at_start.over and at_start.phase == "go" and at_start.turn == 5
    assert [seat.player for seat in at_start.seats if seat.out] == ["p2", "p3"]
    assert at_start.eliminated[0].players == ["p2", "p3"] and not at_start.eliminated[0].in_fight
    in_fight = public(out_in_a_fight())
    assert not in_fight.over and in_fight.phase == "choose" and in_fight.capturer == "p0"
    assert in_fight.eliminated[0].players == ["p2"] and in_fight.eliminated[0].in_fight
    assert in_fight.fight


def test_the_final_scenes_end_each_way() -> None:
    assert public(last_standing()).ended == "last_standing"
    drawn = public(all_out())
    assert drawn.ended == "all_out" and drawn.places == {"p0": 1, "p1": 1}
    assert public(playout(4, seed=1, turn_cap=4)[-1]).ended == "turn_cap"


# --- valid output ----------------------------------------------------------------------


@pytest.mark.parametrize("scene", list(every_scene()))
def test_renders_a_valid_png(scene: str) -> None:
    png = render_table(public(every_scene()[scene]), NAMES)
    image = decode(png)
    assert image.width == WIDTH
    assert 200 <= image.height <= 800
    assert len(png) < 150_000


@pytest.mark.parametrize("count", range(ENGINE.min_players, ENGINE.max_players + 1))
def test_every_player_count_renders(count: int) -> None:
    states = playout(count, seed=count, turn_cap=60)
    fight = next((s for s in states if s.fight), states[0])
    for state in (states[0], states[1], fight, states[len(states) // 2], states[-1]):
        png = render_table(public(state), NAMES)
        assert decode(png).width == WIDTH
        assert len(png) < 150_000


def test_panel_is_opaque_with_transparent_rounded_corners() -> None:
    image = decode(render_table(public(fight_scenes()["layer2"]), NAMES))
    alpha = image.getchannel("A")
    right, bottom = image.width - 1, image.height - 1
    for corner in [(0, 0), (right, 0), (0, bottom), (right, bottom)]:
        assert alpha.getpixel(corner) == 0
    assert alpha.crop((12, 12, image.width - 12, image.height - 12)).getextrema() == (255, 255)


def test_players_out_add_a_row_under_the_ring() -> None:
    """Two players left in a ring of two plus a row of the players out."""
    state = out_at_turn_start()
    both_in = public(state).model_copy(
        update={"seats": [seat.model_copy(update={"out": False}) for seat in public(state).seats]}
    )
    ring_of_two = decode(render_table(public(state), NAMES))
    ring_of_four = decode(render_table(both_in, NAMES))
    assert ring_of_two.height != ring_of_four.height


# --- layout ------------------------------------------------------------------------------


def boxes_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_the_ring_fits_the_width_and_nothing_overlaps(count: int) -> None:
    """Centre, seats and duets (with room for two earlier fight layers) stay apart and
    inside the image."""
    boxes = ring_boxes(count)
    assert len(boxes) == 1 + len(SEAT_SPOTS[count]) + len(DUET_SPOTS[count])
    for box in boxes:
        assert box[0] + WIDTH / 2 >= 14 and box[2] + WIDTH / 2 <= WIDTH - 14
    for k, a in enumerate(boxes):
        for b in boxes[k + 1 :]:
            assert not boxes_overlap(a, b), (a, b)
    above, below = ring_extent(count)
    assert 0 < above < 320 and 0 < below < 320


def test_each_duet_lies_between_its_two_seats_and_is_theirs() -> None:
    """Duet k belongs to seat k (its take card) and seat k + 1 (its give card), and in
    a ring of two the duets are the two pairings."""
    for count in (2, 3, 4, 5):
        view = public(act(start(count, seed=count), "go"))
        ring = layout_ring(view, 20)
        assert len(ring.seats) == len(ring.duets) == count
        for k, duet in enumerate(ring.duets):
            owner, partner = ring.seats[k], ring.seats[(k + 1) % count]
            assert duet.owner is owner.seat and duet.partner is partner.seat
            assert duet.duet is not None and duet.duet.player == owner.seat.player
            assert duet.duet.partner == partner.seat.player
            assert owner.seat.right == partner.seat.player


def test_take_piles_face_the_seats_own_duet() -> None:
    for count in (2, 3, 4, 5):
        ring = layout_ring(public(start(count, seed=1)), 20)
        for k, spot in enumerate(ring.seats):
            own, previous = ring.duets[k], ring.duets[k - 1]
            assert spot.take_right == (own.x > previous.x)


# --- different tables, different pictures ---------------------------------------------------


def test_the_steps_of_a_fight_look_different() -> None:
    pngs = [render_table(public(state), NAMES) for state in fight_scenes().values()]
    assert all(pixels_differ(a, b) for a, b in pairwise(pngs))


def test_every_move_of_a_game_changes_the_picture() -> None:
    pngs = [render_table(public(state), NAMES) for state in playout(3, seed=11)[:30]]
    assert all(before != after for before, after in pairwise(pngs))


@pytest.mark.parametrize(
    "update",
    [
        {"leftovers": 9},
        {"turn": 41},
        {"turn_cap": 77},
        {"default_pile": "take"},
        {"capture_size": 5},
        {"last_capture": None},
        {"fight": False},
    ],
    ids=lambda update: next(iter(update)),
)
def test_public_fields_are_drawn(update: dict[str, object]) -> None:
    """The fight's capture, with a last capture borrowed from the next turn."""
    later = public(act(fight_scenes()["capture"], "give", "go"))
    view = public(fight_scenes()["capture"]).model_copy(update={"last_capture": later.last_capture})
    assert view.last_capture is not None and view.default_pile == "give"
    changed = view.model_copy(update=update)
    assert changed != view
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_pile_sizes_and_the_director_are_drawn() -> None:
    view = public(fight_scenes()["layer1"])
    for update in ({"give_size": 40}, {"take_size": 0}, {"director": True}):
        seats = list(view.seats)
        seats[3] = seats[3].model_copy(update=update)
        changed = view.model_copy(update={"seats": seats})
        assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_the_lowest_duet_is_highlighted() -> None:
    view = public(fight_scenes()["capture"])
    duets = [duet.model_copy(update={"lowest": False}) for duet in view.duets]
    plain = view.model_copy(update={"duets": duets})
    assert pixels_differ(render_table(view, NAMES), render_table(plain, NAMES))


def test_names_are_drawn() -> None:
    view = public(fight_scenes()["layer1"])
    assert pixels_differ(render_table(view, NAMES), render_table(view, {}))


# --- privacy and determinism ----------------------------------------------------------------


def with_other_piles(state: GiveAndTakeState) -> GiveAndTakeState:
    """The same table with the face-down cards in other places: every pile reversed
    and two piles' cards swapped (sizes kept)."""
    give = [list(reversed(pile)) for pile in state.give]
    take = [list(reversed(pile)) for pile in state.take]
    alive = state.alive()
    a, b = alive[0], alive[-1]
    if len(give[a]) == len(take[b]):
        give[a], take[b] = take[b], give[a]
    leftovers = list(reversed(state.leftovers))
    return state.model_copy(update={"give": give, "take": take, "leftovers": leftovers})


@pytest.mark.parametrize("scene", ["fight-start", "fight-layer2", "out-in-fight", "two-middle"])
def test_face_down_cards_never_reach_the_picture(scene: str) -> None:
    state = every_scene()[scene]
    other = with_other_piles(state)
    assert (state.give, state.take) != (other.give, other.take)
    assert render_table(public(state), NAMES) == render_table(public(other), NAMES)


@pytest.mark.parametrize("scene", list(every_scene()))
def test_every_viewer_gets_the_same_picture(scene: str) -> None:
    """``viewer``, ``my_give_size`` and ``my_take_size`` never reach the shared image."""
    state = every_scene()[scene]
    expected = render_table(public(state), NAMES)
    for player in state.players:
        own = ENGINE.view(state, player)
        assert own.viewer == player and own.my_give_size is not None
        assert render_table(own, NAMES) == expected


def test_rendering_is_deterministic() -> None:
    for state in fight_scenes().values():
        view = public(state)
        again = GiveAndTakeView.model_validate_json(view.model_dump_json())
        assert again == view
        assert render_table(view, NAMES) == render_table(again, dict(NAMES))


# --- players out and the end --------------------------------------------------------------


def test_running_places_follow_the_elimination_order() -> None:
    assert running_places(public(out_at_turn_start())) == {"p2": 3, "p3": 3}
    assert running_places(public(out_in_a_fight())) == {"p2": 3}
    assert running_places(public(fight_scenes()["start"])) == {}


def test_players_out_are_drawn_with_their_turn() -> None:
    view = public(out_in_a_fight())
    events = [event.model_copy(update={"turn": 9}) for event in view.eliminated]
    changed = view.model_copy(update={"eliminated": events})
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


@pytest.mark.parametrize("make", [last_standing, all_out], ids=["last-standing", "all-out"])
def test_the_final_view_shows_places_scores_and_the_ending(make: object) -> None:
    assert callable(make)
    view = public(make())
    assert view.over and view.places is not None and view.scores is not None
    png = render_table(view, NAMES)
    assert decode(png).width == WIDTH
    scores = {player: score + 7 for player, score in view.scores.items()}
    assert pixels_differ(png, render_table(view.model_copy(update={"scores": scores}), NAMES))
    places = dict.fromkeys(view.places, 1)
    if places != view.places:
        assert pixels_differ(png, render_table(view.model_copy(update={"places": places}), NAMES))
    ended = "turn_cap" if view.ended != "turn_cap" else "all_out"
    assert pixels_differ(png, render_table(view.model_copy(update={"ended": ended}), NAMES))


def test_a_game_ended_by_the_turn_cap_renders() -> None:
    view = public(playout(5, seed=2, turn_cap=3)[-1])
    assert view.ended == "turn_cap" and view.places is not None
    assert decode(render_table(view, NAMES)).width == WIDTH


def test_the_default_action_keeps_a_game_going_to_a_final_picture() -> None:
    state = start(4, seed=5, turn_cap=25)
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        action = default_action(state)
        assert action is not None
        state = ENGINE.apply(state, player, action)
    assert decode(render_table(public(state), NAMES)).width == WIDTH


# --- German ------------------------------------------------------------------------------


@pytest.mark.parametrize("scene", sorted(every_scene()))
def test_german_tables_render_with_their_own_words(scene: str) -> None:
    view = public(every_scene()[scene])
    with auditing_text() as audit:
        german = render_table(view, NAMES, lang="de")
    assert decode(german).width == WIDTH
    assert audit.cuts == [] and audit.overlaps() == [] and audit.outside() == []
    assert pixels_differ(german, render_table(view, NAMES, lang="en"))


def test_german_image_words_use_only_glyphs_the_font_has() -> None:
    """Every German word drawn into images, umlauts and all, is in the fonts."""
    drawn: list[str] = []
    for site in template_sites():
        node = site.node
        if "render/give_and_take" in site.where and isinstance(node, ast.Constant):
            assert isinstance(node.value, str)
            drawn.append(node.value)
    assert drawn
    german = texts("de")
    missing = {text: german[text] for text in drawn if uncovered(german[text])}
    assert missing == {}


def test_ending_text_is_translated() -> None:
    view = public(last_standing())
    assert ending_text(view, "en") != ending_text(view, "de")
    assert ending_text(view, "de").startswith("Nur noch")


# --- awkward input -----------------------------------------------------------------------


def test_unprintable_and_long_names_still_render() -> None:
    odd = {
        "p0": "W" * 200,
        "p1": "",
        "p2": "\u200b\n\t🙂",
        "p3": "مرحبا بالعالم",
        "p4": "Ünïcødé " * 30,
    }
    for state in every_scene().values():
        assert decode(render_table(public(state), odd)).width == WIDTH


# --- shared drawing helpers added for this table ---------------------------------------------


def test_empty_slot_outlines_a_card_on_its_ground() -> None:
    panel = new_panel(100, 100)
    empty_slot(panel, 10, 10, SMALL_CARD, PALETTE.lane)
    assert panel.getpixel((10 + SMALL_CARD.width // 2, 10 + SMALL_CARD.height // 2)) == PALETTE.lane
    assert panel.getpixel((10 + SMALL_CARD.width // 2, 10)) == PALETTE.faint
    assert panel.getpixel((5, 50)) == PALETTE.panel


def test_fit_name_cuts_only_the_name() -> None:
    line = fit_name("Waiting for {}: Go", "W" * 80, HEADLINE, 260)
    assert line.startswith("Waiting for W") and line.endswith("…: Go")
    assert fit_name("{} wins", "Al", HEADLINE, 260) == "Al wins"
