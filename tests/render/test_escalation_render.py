"""The Escalation table image: rendered from real engine states (seeded random games).

Checks what a test can check without eyes: valid PNGs of a sensible size, different
tables give different pictures, the picture is a function of the public view only
(hands stay secret), and odd input (long or non-Latin names, long rounds, many deals)
still draws. Timing is measured in bench/, never here.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.adapters.escalation import EscalationAdapter, deal_line, round_text
from bot.engines.cards import parse_cards
from bot.engines.escalation import (
    ENGINE,
    DealResultView,
    EscalationOptions,
    EscalationState,
    EscalationView,
    PlayView,
    play,
)
from bot.render.cards import SMALL_CARD, card_back, fanned_backs
from bot.render.embeds import card_label
from bot.render.escalation import LATEST_CARD, WIDTH, layout_round, render_table, turn_arrow
from bot.render.palette import PALETTE, place_colour
from bot.render.shapes import new_panel
from bot.render.text import TextStyle, draw_text, stamp_text
from tests.render.images import decode, pixels_differ

NAMES = {
    "p0": "Alice",
    "p1": "Bjørn Ødegård",
    "p2": "José María de la Cruz Fernández y Montenegro",
    "p3": "🎲 Dice Goblin 🎲",
    "p4": "田中太郎",
    # p5 has no entry: it falls back to its id
}


def players(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def playout(count: int, seed: int, deals: int = 1) -> list[EscalationState]:
    """Every state of a seeded random game, start to finish, via the engine's API.
    Plays are preferred to taking, so rounds get a few plays long."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players(count), seed, EscalationOptions(deals=deals))
    states = [state]
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        actions = ENGINE.legal_actions(state, player)
        plays = [action for action in actions if action.kind == "play"]
        pick = rng.choice(plays if plays and rng.random() < 0.8 else actions)
        state = ENGINE.apply(state, player, pick)
        states.append(state)
    return states


def moments(count: int, seed: int = 2024, deals: int = 1) -> dict[str, EscalationState]:
    """The start, a mid-game state with the longest round of the middle third, the
    state right after a take (the taker to lead), and the end."""
    states = playout(count, seed, deals)
    third = len(states) // 3
    middle = max(states[third : 2 * third], key=lambda state: len(state.pile))
    taken = next(s for s in states[1:] if s.last_take is not None and not s.pile)
    return {"start": states[0], "middle": middle, "taken": taken, "over": states[-1]}


def public(state: EscalationState) -> EscalationView:
    return ENGINE.view(state, None)


def plays(*entries: tuple[str, str, int]) -> list[PlayView]:
    """Round entries from ``(player, "9H 9S", value after it)``."""
    round_ = []
    for player, text, value in entries:
        cards = parse_cards(text.split())
        round_.append(
            PlayView(player=player, cards=cards, value=value, pass_through=cards[0].rank in (2, 3))
        )
    return round_


# --- valid output ------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 6])
@pytest.mark.parametrize("moment", ["start", "middle", "taken", "over"])
def test_renders_a_valid_png(count: int, moment: str) -> None:
    state = moments(count)[moment]
    png = render_table(public(state), NAMES)
    image = decode(png)
    assert image.width == WIDTH
    assert 250 <= image.height <= 1000
    assert len(png) < 150_000


def test_the_middle_moments_have_a_round_in_play() -> None:
    """The fixtures above really cover a round of several plays."""
    for count in (2, 6):
        assert len(public(moments(count)["middle"]).round) >= 2


@pytest.mark.parametrize("count", range(ENGINE.min_players, ENGINE.max_players + 1))
def test_every_player_count_renders(count: int) -> None:
    for state in moments(count, seed=count).values():
        assert decode(render_table(public(state), NAMES)).width == WIDTH


def test_more_players_make_a_taller_table() -> None:
    two = decode(render_table(public(moments(2)["middle"]), NAMES))
    six = decode(render_table(public(moments(6)["middle"]), NAMES))
    assert six.height > two.height


def test_panel_is_opaque_with_transparent_rounded_corners() -> None:
    """Readable on Discord's dark and light themes alike: the table brings its own
    opaque background; only the rounding outside its corners is see-through."""
    image = decode(render_table(public(moments(4)["middle"]), NAMES))
    alpha = image.getchannel("A")
    right, bottom = image.width - 1, image.height - 1
    for corner in [(0, 0), (right, 0), (0, bottom), (right, bottom)]:
        assert alpha.getpixel(corner) == 0
    assert alpha.crop((12, 12, image.width - 12, image.height - 12)).getextrema() == (255, 255)


# --- different tables, different pictures ----------------------------------------------


@pytest.mark.parametrize("count", [2, 6])
def test_moments_of_a_game_look_different(count: int) -> None:
    pngs = [render_table(public(state), NAMES) for state in moments(count).values()]
    assert len(set(pngs)) == len(pngs)
    assert all(pixels_differ(a, b) for a, b in pairwise(pngs))


def test_every_move_of_a_game_changes_the_picture() -> None:
    """A play adds to the round; a take clears it and grows a penalty stack."""
    pngs = [render_table(public(state), NAMES) for state in playout(3, seed=11)[:40]]
    assert all(before != after for before, after in pairwise(pngs))


@pytest.mark.parametrize(
    "update",
    [
        {"direction": "counterclockwise"},
        {"stock_size": 3},
        {"value_in_force": 41},
        {"to_act": "p2"},
        {"deal": 2, "deals": 3},
    ],
    ids=lambda update: next(iter(update)),
)
def test_public_fields_are_drawn(update: dict[str, object]) -> None:
    view = public(moments(4)["middle"])
    assert view.direction == "clockwise" or "direction" not in update
    changed = view.model_copy(update=update)
    assert changed != view
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_hand_and_penalty_sizes_are_drawn() -> None:
    view = public(moments(4)["middle"])
    for field in ("hand_size", "penalty_size"):
        seats = [seat.model_copy() for seat in view.seats]
        seats[1] = seats[1].model_copy(update={field: getattr(seats[1], field) + 2})
        changed = view.model_copy(update={"seats": seats})
        assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_the_last_taker_is_noted() -> None:
    view = public(moments(4)["taken"])
    assert view.last_take is not None and view.must_lead
    without = view.model_copy(update={"last_take": None})
    assert pixels_differ(render_table(view, NAMES), render_table(without, NAMES))


def test_running_totals_show_with_several_deals() -> None:
    state = next(s for s in playout(3, seed=5, deals=3) if s.results and s.pile)
    view = public(state)
    assert not view.over and any(seat.total for seat in view.seats)
    seats = [seat.model_copy(update={"total": seat.total + 5}) for seat in view.seats]
    changed = view.model_copy(update={"seats": seats})
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_names_are_drawn() -> None:
    view = public(moments(3)["middle"])
    assert pixels_differ(render_table(view, NAMES), render_table(view, {}))


# --- privacy and determinism -------------------------------------------------------------


def with_other_hands(state: EscalationState) -> EscalationState:
    """The same table, but the secret cards are spread differently: each hand swaps
    a card with the stock or, once the stock is gone, with the next hand."""
    hands = [list(hand) for hand in state.hands]
    stock = list(state.stock)
    for seat, hand in enumerate(hands):
        if not hand:
            continue
        if stock:
            hand[0], stock[0] = stock[0], hand[0]
        else:
            other = hands[(seat + 1) % len(hands)]
            if other:
                hand[0], other[-1] = other[-1], hand[0]
        hand.sort()
    return state.model_copy(update={"hands": hands, "stock": stock})


@pytest.mark.parametrize("count", [2, 6])
@pytest.mark.parametrize("moment", ["start", "middle", "taken"])
def test_secret_hands_never_reach_the_picture(count: int, moment: str) -> None:
    state = moments(count)[moment]
    other = with_other_hands(state)
    assert state.hands != other.hands
    assert public(state) == public(other)
    assert render_table(public(state), NAMES) == render_table(public(other), NAMES)


@pytest.mark.parametrize("count", [2, 6])
@pytest.mark.parametrize("moment", ["start", "middle", "over"])
def test_a_players_own_view_renders_as_the_public_table(count: int, moment: str) -> None:
    """``my_hand`` and ``viewer`` in a player's view must not reach the shared image."""
    state = moments(count)[moment]
    expected = render_table(public(state), NAMES)
    for player in state.players:
        own = ENGINE.view(state, player)
        assert own.my_hand is not None and own.viewer == player
        assert render_table(own, NAMES) == expected


def test_rendering_is_deterministic() -> None:
    for state in moments(6).values():
        view = public(state)
        again = EscalationView.model_validate_json(view.model_dump_json())
        assert again == view
        assert render_table(view, NAMES) == render_table(again, dict(NAMES))


# --- the end ------------------------------------------------------------------------


@pytest.mark.parametrize("deals", [1, 3])
def test_the_final_view_shows_standings_and_deals(deals: int) -> None:
    view = public(playout(4, seed=9, deals=deals)[-1])
    assert view.over and view.scores is not None and len(view.results) == deals
    png = render_table(view, NAMES)
    assert decode(png).width == WIDTH
    assert len(png) < 150_000
    scores = {player: -score for player, score in view.scores.items()}
    assert pixels_differ(png, render_table(view.model_copy(update={"scores": scores}), NAMES))
    results = [
        result.model_copy(update={"winner": "p0" if result.winner != "p0" else "p1"})
        for result in view.results
    ]
    other = view.model_copy(update={"results": results})
    assert pixels_differ(png, render_table(other, NAMES))


def test_many_deals_still_fit() -> None:
    view = public(playout(3, seed=4, deals=2)[-1])
    results = [view.results[k % 2].model_copy(update={"deal": k + 1}) for k in range(100)]
    many = view.model_copy(update={"results": results, "deals": 100})
    image = decode(render_table(many, NAMES))
    assert image.width == WIDTH
    assert image.height < 600


def test_tied_winners_share_first_place() -> None:
    view = public(playout(3, seed=4)[-1])
    tied = view.model_copy(update={"scores": dict.fromkeys(view.scores or {}, 0)})
    assert decode(render_table(tied, NAMES)).width == WIDTH


# --- awkward input ---------------------------------------------------------------------


def test_unprintable_and_long_names_still_render() -> None:
    odd = {
        "p0": "W" * 200,
        "p1": "",
        "p2": "\u200b\n\t🙂",
        "p3": "مرحبا بالعالم",
        "p4": "Ünïcødé " * 30,
        "p5": "田中太郎",
    }
    for state in moments(6).values():
        assert decode(render_table(public(state), odd)).width == WIDTH


def test_a_long_round_and_a_big_set_still_fit() -> None:
    view = public(moments(4)["middle"])
    round_ = plays(
        ("p0", "7H", 7),
        ("p1", "9C", 9),
        ("p2", "2D", 9),
        ("p3", "3S", 9),
        ("p0", "10H 10S", 20),
        ("p1", "JD JC", 22),
        ("p2", "2S", 22),
        ("p3", "AS AH", 28),
        ("p0", "QC QD QH", 36),
        ("p1", "4C 4D 5H 5S 6C 6D 6H 4S 4H 5C 5D 6S", 72),
    )
    long = view.model_copy(update={"round": round_, "value_in_force": 72, "must_lead": False})
    assert decode(render_table(long, NAMES)).width == WIDTH


def test_round_layout_keeps_the_latest_play_and_drops_the_oldest() -> None:
    round_ = plays(*[(f"p{k % 4}", "2C" if k % 2 else "9H", 9) for k in range(12)])
    hidden, groups = layout_round(round_, 30, 420)
    assert hidden > 0
    assert hidden + len(groups) == len(round_)
    assert groups[-1].play is round_[-1]
    assert [group.play for group in groups] == round_[hidden:]
    xs = [group.x for group in groups]
    assert xs == sorted(xs)
    assert all(group.x + group.width <= 420 for group in groups)
    assert groups[-1].width == LATEST_CARD.width


def test_round_layout_of_a_short_round_shows_everything() -> None:
    round_ = plays(("p0", "7H", 7), ("p1", "9C 9D", 18))
    hidden, groups = layout_round(round_, 30, 420)
    assert hidden == 0
    assert [group.play for group in groups] == round_
    assert layout_round([], 30, 420) == (0, [])


# --- shared drawing helpers added for this table -----------------------------------------


@pytest.mark.parametrize(
    ("text", "style", "anchor"),
    [
        ("in hand", TextStyle(13, PALETTE.muted, bold=True), "lm"),
        ("48", TextStyle(64, PALETTE.text, bold=True), "lm"),
        ("Jose Maria…", TextStyle(16, PALETTE.accent), "rm"),
        ("Deal 3", TextStyle(14, PALETTE.muted), "la"),
    ],
)
def test_stamped_text_matches_drawn_text(text: str, style: TextStyle, anchor: str) -> None:
    drawn, stamped = new_panel(300, 100), new_panel(300, 100)
    draw_text(ImageDraw.Draw(drawn), (150, 50), text, style, anchor)
    stamp_text(stamped, (150, 50), text, style, anchor)
    assert ImageChops.difference(drawn, stamped).getbbox(alpha_only=False) is None


def test_turn_arrows_mirror_each_other() -> None:
    clockwise = turn_arrow(32, PALETTE.text)
    counter = turn_arrow(32, PALETTE.text, clockwise=False)
    assert clockwise.size == counter.size == (32, 32)
    assert clockwise.getchannel("A").getbbox() is not None
    assert clockwise.tobytes() != counter.tobytes()
    assert clockwise.transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes() == counter.tobytes()


def test_fanned_backs_grow_by_one_step_per_card() -> None:
    back = card_back(SMALL_CARD).image
    assert fanned_backs(SMALL_CARD, 1, 12).image.size == back.size
    assert fanned_backs(SMALL_CARD, 6, 12).image.width == back.width + 5 * 12
    assert fanned_backs(SMALL_CARD, 0, 12).image.getchannel("A").getbbox() is None


def test_place_colours_and_plurals() -> None:
    assert [place_colour(k) for k in (1, 2, 3, 4, 9)] == [
        PALETTE.accent,
        PALETTE.silver,
        PALETTE.bronze,
        PALETTE.faint,
        PALETTE.faint,
    ]


# --- languages ----------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["start", "middle", "taken", "over"])
def test_the_table_renders_in_german(moment: str) -> None:
    view = public(moments(4, deals=3)[moment])
    english = render_table(view, NAMES)
    german = render_table(view, NAMES, lang="de")
    assert decode(german).size == decode(english).size, "the words change, not the layout"
    assert pixels_differ(english, german)
    assert render_table(view, NAMES, lang="en") == english


def test_the_results_say_who_won_each_deal_and_what_the_others_paid() -> None:
    result = DealResultView(deal=1, winner="p0", chips={"p0": 36, "p1": -27, "p2": -9})
    names = {"p0": "Alice", "p1": "Bernd", "p2": "Chloe"}
    assert deal_line(result, names, "en") == "Deal 1: Alice won; Bernd −27, Chloe −9"
    assert deal_line(result, names, "de") == "Durchgang 1: Alice gewinnt; Bernd −27, Chloe −9"


def test_a_move_reads_in_words_and_the_round_says_who_played_what() -> None:
    adapter = EscalationAdapter()
    state = ENGINE.new_game(["p0", "p1"], 4)
    before = ENGINE.view(state, None)
    (leader,) = ENGINE.to_act(state)
    lead = next(a for a in ENGINE.legal_actions(state, leader) if a.kind == "play")
    after_state = ENGINE.apply(state, leader, lead)
    after = ENGINE.view(after_state, None)
    shown = " ".join(card_label(card) for card in lead.cards)
    text = adapter.move_text(str(lead), before, after, NAMES, "en")
    assert text.startswith(f"played {shown}"), text
    assert f"{NAMES[leader]} {shown}" in round_text(after.round, NAMES)
    (other,) = ENGINE.to_act(after_state)
    took = ENGINE.apply(after_state, other, ENGINE.Action(kind="take"))
    taken = adapter.move_text("take", after, ENGINE.view(took, None), NAMES, "de")
    count = len(lead.cards)
    assert taken == f"nahm den Stapel ({count} Karte{'n' if count > 1 else ''})"


def test_the_leader_cannot_press_take_the_pile() -> None:
    adapter = EscalationAdapter()
    state = ENGINE.new_game(["p0", "p1"], 4)
    (leader,) = ENGINE.to_act(state)
    panel = adapter.private_panel(ENGINE.view(state, leader), {}, NAMES, "en")
    take = next(button for button in panel.buttons if button.key == "take")
    assert take.disabled
    lead = next(a for a in ENGINE.legal_actions(state, leader) if a.kind == "play")
    after = ENGINE.apply(state, leader, lead)
    (other,) = ENGINE.to_act(after)
    panel = adapter.private_panel(ENGINE.view(after, other), {}, NAMES, "en")
    assert not next(button for button in panel.buttons if button.key == "take").disabled


def test_play_is_disabled_out_of_turn_and_for_a_pick_the_engine_would_refuse() -> None:
    adapter = EscalationAdapter()
    state = ENGINE.new_game(["p0", "p1"], 4)
    (leader,) = ENGINE.to_act(state)
    other = next(p for p in state.players if p != leader)
    for player in (leader, other):
        view = ENGINE.view(state, player)
        for card in view.my_hand or []:
            panel = adapter.private_panel(view, {"cards": (str(card),)}, NAMES, "en")
            legal = player == leader and play(card) in ENGINE.legal_actions(state, player)
            assert panel.buttons[0].disabled is not legal, (player, card)
