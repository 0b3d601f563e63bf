"""The TAKE images: rendered from real engine states (seeded games, a stacked table).

Checks what a test can check without eyes: valid PNGs of a sensible size, public
fields reach the table, the table is a function of the public view only (hands stay
secret), each player's hand image is their own, and crowded tables, jokers, locked
runs, the final view and odd names still draw. Timing is measured outside the tests.
"""

from __future__ import annotations

import ast
import random
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from bot.adapters.take import TakeAdapter
from bot.engines.cards import Card
from bot.engines.take import (
    ENGINE,
    JOKER,
    LastView,
    Run,
    TakeAction,
    TakeOptions,
    TakeState,
    TakeView,
)
from bot.i18n import tr
from bot.render import take as take_render
from bot.render.cards import ROW_CARD, SMALL_CARD, card_tag, joker_card, plain_card, playing_card
from bot.render.embeds import card_label
from bot.render.palette import PALETTE
from bot.render.take import (
    HAND_HEIGHT,
    PROSE,
    RUNS_LEFT,
    RUNS_RIGHT,
    WIDTH,
    _Names,
    fits,
    hand_layout,
    hand_order,
    last_action_tokens,
    layout_prose,
    layout_runs,
    padlock,
    render_hand,
    render_table,
    sentence,
)
from bot.render.text import signed, uncovered
from tests.render.images import decode, pixels_differ

NAMES = {
    "p0": "Alice",
    "p1": "Bjørn Ødegård",
    "p2": "José María de la Cruz Fernández y Montenegro",
    "p3": "田中太郎",
}
MOMENTS = ("start", "middle", "taken", "over")


def players(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def pick(state: TakeState, player: str, rng: random.Random) -> TakeAction:
    """A simple player: draw, then mostly add (takes included) or meld, else any move."""
    actions = ENGINE.legal_actions(state, player)
    draws = [a for a in actions if a.kind == "draw"]
    if draws:
        return rng.choice(draws)
    adds = [a for a in actions if a.kind == "add"]
    if adds and rng.random() < 0.9:
        return rng.choice(adds)
    melds = [a for a in actions if a.kind == "meld"]
    if melds and rng.random() < 0.9:
        return max(melds, key=lambda a: len(a.cards))
    return rng.choice(actions)


@cache
def playout(count: int, seed: int, target: int = 200, hand_size: int = 7) -> list[TakeState]:
    """Every state of a seeded game to ``target``, start to finish, via the engine."""
    rng = random.Random(seed)
    options = TakeOptions(target=target, hand_size=hand_size)
    state = ENGINE.new_game(players(count), seed, options)
    states = [state]
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, player, pick(state, player, rng))
        states.append(state)
    return states


@cache
def moments(count: int, seed: int = 2024) -> dict[str, TakeState]:
    """The start, the busiest table of the game, a turn after taking the discard
    (the card still in hand), and the end."""
    states = playout(count, seed)
    live = [s for s in states if not ENGINE.is_over(s)]
    middle = max(live, key=lambda s: (len(s.runs), sum(len(r.cards) for r in s.runs)))
    taken = next(s for s in live if s.taken is not None and s.taken in s.hands[s.turn])
    return {"start": states[0], "middle": middle, "taken": taken, "over": states[-1]}


def run(
    id_: int, owner: int, suit: str, low: int, length: int, jokers: tuple[int, ...] = ()
) -> Run:
    """A table run from the engine's own model; ``jokers``: the places (0-based) a
    joker holds."""
    stands = Run(id=id_, owner=owner, suit=suit, low=low, cards=[JOKER] * length).stands_for()
    cards = [JOKER if k in jokers else stands[k] for k in range(length)]
    return Run(id=id_, owner=owner, suit=suit, low=low, cards=cards)


def crowded_state() -> TakeState:
    """A real four-player game in play, its table replaced by a crowded one: a locked
    13-card run with a joker, runs with jokers, an ace low and an ace high, one player
    owning six runs (two lines), another none."""
    state = moments(4)["middle"]
    runs = [
        run(1, 0, "C", 2, 13, jokers=(4,)),
        run(2, 1, "S", 2, 3),
        run(3, 0, "H", 5, 4),
        run(4, 1, "D", 5, 3),
        run(5, 3, "H", 1, 3),
        run(6, 0, "S", 9, 5, jokers=(1,)),
        run(7, 3, "D", 12, 3),
        run(8, 0, "D", 1, 3),
        run(9, 3, "S", 5, 4),
        run(10, 0, "H", 10, 4),
    ]
    return state.model_copy(update={"runs": runs, "next_run_id": 11})


def public(state: TakeState) -> TakeView:
    return ENGINE.view(state, None)


# --- valid output ------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("moment", MOMENTS)
def test_table_renders_a_valid_png(count: int, moment: str) -> None:
    png = render_table(public(moments(count)[moment]), NAMES)
    image = decode(png)
    assert image.width == WIDTH
    assert 250 <= image.height <= 1100
    assert len(png) < 150_000


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("moment", MOMENTS)
def test_hand_renders_a_valid_png(count: int, moment: str) -> None:
    state = moments(count)[moment]
    for player in state.players:
        png = render_hand(ENGINE.view(state, player), NAMES)
        assert decode(png).size == (WIDTH, HAND_HEIGHT)
        assert len(png) < 150_000


def test_the_moments_cover_runs_and_a_taken_card() -> None:
    for count in (2, 4):
        found = moments(count)
        assert len(found["middle"].runs) >= 2
        assert public(found["taken"]).taken is not None
        assert public(found["over"]).over


def test_a_crowded_table_fits() -> None:
    view = public(crowded_state())
    assert any(r.locked for r in view.runs) and any(JOKER in r.cards for r in view.runs)
    png = render_table(view, NAMES)
    image = decode(png)
    assert image.width == WIDTH
    assert image.height < 1000
    assert len(png) < 150_000
    hand = render_hand(ENGINE.view(crowded_state(), view.seats[0].player), NAMES)
    assert decode(hand).size == (WIDTH, HAND_HEIGHT)


def test_a_ten_card_hand_fits() -> None:
    states = playout(2, 5, hand_size=10)
    state = next(s for s in states if s.phase == "play" and len(s.hands[s.turn]) == 11)
    png = render_hand(ENGINE.view(state, state.players[state.turn]), NAMES)
    assert decode(png).size == (WIDTH, HAND_HEIGHT)
    assert len(png) < 150_000


def test_panels_are_opaque_with_transparent_rounded_corners() -> None:
    state = moments(4)["middle"]
    for png in (render_table(public(state), NAMES), render_hand(ENGINE.view(state, "p0"), NAMES)):
        image = decode(png)
        alpha = image.getchannel("A")
        right, bottom = image.width - 1, image.height - 1
        for corner in [(0, 0), (right, 0), (0, bottom), (right, bottom)]:
            assert alpha.getpixel(corner) == 0
        inside = alpha.crop((12, 12, image.width - 12, image.height - 12))
        assert inside.getextrema() == (255, 255)


# --- different tables, different pictures ----------------------------------------------


def test_moments_of_a_game_look_different() -> None:
    pngs = [render_table(public(state), NAMES) for state in moments(3).values()]
    assert all(pixels_differ(a, b) for a, b in pairwise(pngs))


def test_every_move_changes_the_picture() -> None:
    """A draw shrinks the stock, a meld or add changes the table, a discard the pile."""
    pngs = [render_table(public(state), NAMES) for state in playout(3, 11)[:30]]
    assert all(before != after for before, after in pairwise(pngs))


@pytest.mark.parametrize(
    "update",
    [
        {"stock_size": 47},
        {"discard_size": 37},
        {"turned_over": True},
        {"to_act": "p2"},
        {"phase": "draw"},
        {"hand": 9},
        {"target": 321},
        {"taken": Card.parse("QS")},
        {"last": None},
        {"discard_top": Card.parse("KH")},
        {"discard_top": JOKER},
    ],
    ids=lambda update: f"{next(iter(update))}={next(iter(update.values()))}",
)
def test_public_fields_are_drawn(update: dict[str, object]) -> None:
    view = public(moments(4)["middle"]).model_copy(update={"phase": "play", "to_act": "p1"})
    changed = view.model_copy(update=update)
    assert changed != view
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


@pytest.mark.parametrize(
    "update",
    [
        {"hand_size": 9},
        {"floater": True},
        {"dealer": True},
        {"total": 321},
        {"laid_points": 95},
    ],
    ids=lambda update: next(iter(update)),
)
def test_seat_fields_are_drawn(update: dict[str, object]) -> None:
    view = public(moments(4)["middle"])
    seats = list(view.seats)
    owner = next(k for k, seat in enumerate(seats) if seat.laid_points and not seat.dealer)
    seats[owner] = seats[owner].model_copy(update=update)
    assert seats[owner] != view.seats[owner]
    changed = view.model_copy(update={"seats": seats})
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_run_owners_ids_and_cards_are_drawn() -> None:
    view = public(crowded_state())
    runs = list(view.runs)
    for update in ({"owner": "p2"}, {"id": 42}, {"cards": [*runs[1].cards[:2], JOKER]}):
        changed_runs = [*runs]
        changed_runs[1] = runs[1].model_copy(update=update)
        changed = view.model_copy(update={"runs": changed_runs})
        assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES)), update


def test_locked_runs_are_marked() -> None:
    view = public(crowded_state())
    (locked,) = [r for r in view.runs if r.locked]
    runs = [r.model_copy(update={"locked": False}) if r is locked else r for r in view.runs]
    unlocked = view.model_copy(update={"runs": runs})
    assert pixels_differ(render_table(view, NAMES), render_table(unlocked, NAMES))


def test_a_jokers_stand_in_is_drawn() -> None:
    view = public(crowded_state())
    index, joker_run = next((k, r) for k, r in enumerate(view.runs) if JOKER in r.cards)
    spot = joker_run.cards.index(JOKER)
    stands = list(joker_run.stands_for)
    stands[spot] = Card.parse("AD")
    runs = list(view.runs)
    runs[index] = joker_run.model_copy(update={"stands_for": stands})
    changed = view.model_copy(update={"runs": runs})
    assert pixels_differ(render_table(view, NAMES), render_table(changed, NAMES))


def test_names_are_drawn() -> None:
    view = public(moments(3)["middle"])
    assert pixels_differ(render_table(view, NAMES), render_table(view, {}))


# --- privacy and determinism -------------------------------------------------------------


def with_other_hands(state: TakeState) -> TakeState:
    """The same table, the secret cards spread differently: each hand swaps its first
    card with a stock card."""
    hands = [list(hand) for hand in state.hands]
    stock = list(state.stock)
    for seat, hand in enumerate(hands):
        if hand and len(stock) > seat:
            hand[0], stock[seat] = stock[seat], hand[0]
            hand.sort()
    return state.model_copy(update={"hands": hands, "stock": stock})


@pytest.mark.parametrize("count", [2, 4])
@pytest.mark.parametrize("moment", ["start", "middle", "taken"])
def test_secret_hands_never_reach_the_table(count: int, moment: str) -> None:
    state = moments(count)[moment]
    other = with_other_hands(state)
    assert state.hands != other.hands
    assert render_table(public(state), NAMES) == render_table(public(other), NAMES)


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("moment", MOMENTS)
def test_a_players_own_view_renders_as_the_public_table(count: int, moment: str) -> None:
    """``viewer``, ``my_hand`` and ``my_moves`` must not reach the shared image."""
    state = moments(count)[moment]
    expected = render_table(public(state), NAMES)
    for player in state.players:
        own = ENGINE.view(state, player)
        assert own.my_hand is not None and own.viewer == player
        assert render_table(own, NAMES) == expected


@pytest.mark.parametrize("count", [2, 3, 4])
def test_each_player_sees_their_own_hand(count: int) -> None:
    state = moments(count)["middle"]
    pngs = [render_hand(ENGINE.view(state, player), NAMES) for player in state.players]
    assert len(set(pngs)) == count
    other = with_other_hands(state)
    assert render_hand(ENGINE.view(other, "p0"), NAMES) != pngs[0]


def test_the_hand_image_without_a_hand() -> None:
    """A spectator's view has no hand: a plain panel says so (the Discord side only asks for
    players' hands)."""
    png = render_hand(public(moments(2)["middle"]), NAMES)
    assert decode(png).size == (WIDTH, HAND_HEIGHT)


def test_a_floaters_hand_image() -> None:
    state = moments(3)["middle"]
    hands = [[], *state.hands[1:]]
    floater = state.model_copy(update={"hands": hands})
    png = render_hand(ENGINE.view(floater, "p0"), NAMES)
    assert pixels_differ(png, render_hand(ENGINE.view(state, "p0"), NAMES))


def test_the_taken_card_is_marked() -> None:
    state = moments(4)["taken"]
    view = ENGINE.view(state, state.players[state.turn])
    assert view.taken in (view.my_hand or [])
    unmarked = view.model_copy(update={"taken": None})
    assert pixels_differ(render_hand(view, NAMES), render_hand(unmarked, NAMES))


def test_rendering_is_deterministic() -> None:
    for state in [*moments(4).values(), crowded_state()]:
        view = ENGINE.view(state, "p1")
        again = TakeView.model_validate_json(view.model_dump_json())
        assert again == view
        assert render_table(view, NAMES) == render_table(again, dict(NAMES))
        assert render_hand(view, NAMES) == render_hand(again, dict(NAMES))


# --- the end ------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 4])
def test_the_final_view_shows_standings_and_hands(count: int) -> None:
    view = public(moments(count)["over"])
    assert view.over and view.scores is not None and view.results
    png = render_table(view, NAMES)
    assert decode(png).width == WIDTH
    scores = {player: -score for player, score in view.scores.items()}
    assert pixels_differ(png, render_table(view.model_copy(update={"scores": scores}), NAMES))
    last = view.results[-1]
    other = "p0" if last.went_out != "p0" else "p1"
    results = [*view.results[:-1], last.model_copy(update={"went_out": other})]
    assert pixels_differ(png, render_table(view.model_copy(update={"results": results}), NAMES))


def test_many_hands_still_fit() -> None:
    view = public(moments(3)["over"])
    results = [
        view.results[k % len(view.results)].model_copy(update={"hand": k + 1}) for k in range(40)
    ]
    many = view.model_copy(update={"results": results, "hand": 40})
    image = decode(render_table(many, NAMES))
    assert image.width == WIDTH
    assert image.height < 1100


def test_tied_winners_share_first_place() -> None:
    view = public(moments(3)["over"])
    tied = view.model_copy(update={"scores": dict.fromkeys(view.scores or {}, 500)})
    assert decode(render_table(tied, NAMES)).width == WIDTH


def test_a_hand_that_ended_with_the_stock() -> None:
    view = public(moments(2)["over"])
    results = [r.model_copy(update={"went_out": None}) for r in view.results]
    png = render_table(view.model_copy(update={"results": results}), NAMES)
    assert decode(png).width == WIDTH


# --- awkward input ---------------------------------------------------------------------


def test_unprintable_and_long_names_still_render() -> None:
    odd = {
        "p0": "W" * 200,
        "p1": "",
        "p2": "\u200b\n\t🙂",
        "p3": "مرحبا بالعالم " * 10,
    }
    for state in [*moments(4).values(), crowded_state()]:
        assert decode(render_table(public(state), odd)).width == WIDTH
        assert decode(render_hand(ENGINE.view(state, "p2"), odd)).width == WIDTH


def test_long_runs_for_every_player_still_fit() -> None:
    state = moments(4)["middle"]
    runs = [
        run(k + 1, k % 4, "CDHS"[k % 4], 2 if k < 4 else 1, 12 if k < 4 else 3) for k in range(8)
    ]
    view = public(state.model_copy(update={"runs": runs}))
    image = decode(render_table(view, NAMES))
    assert image.width == WIDTH
    assert image.height < 1100


# --- last action in words ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "took_from", "expected"),
    [
        ("draw stock", [], ["Alice", "drew", "from", "the", "stock"]),
        ("draw discard 7H", [], ["Alice", "took", "7H", "from", "the", "discard", "pile"]),
        ("discard 9S", [], ["Alice", "discarded", "9S"]),
        ("meld 5H JK=6H 7H", [], ["Alice", "laid", "down", "5H", "JK=6H", "7H"]),
        ("add 8C to 3", [], ["Alice", "added", "8C", "to", "run", "3"]),
        (
            "add 8C to 3",
            ["p1"],
            ["Alice", "took", "run", "3", "from", "Bjørn", "Ødegård", "with", "8C"],
        ),
        ("add 6D to 3+7", [], ["Alice", "joined", "runs", "3", "and", "7", "with", "6D"]),
        ("shrug", [], ["Alice", "shrug"]),
    ],
)
def test_last_action_in_words(action: str, took_from: list[str], expected: list[str]) -> None:
    view = public(moments(2)["middle"])
    view = view.model_copy(
        update={"last": LastView(player="p0", action=action, took_from=took_from)}
    )
    tokens = last_action_tokens(view, _Names(view, NAMES), 520)
    words = [
        token if isinstance(token, str) else (f"JK={token[1]}" if token[1] else str(token[0]))
        for token in tokens
    ]
    assert words == expected


@pytest.mark.parametrize(
    ("action", "took_from", "expected"),
    [
        ("draw stock", [], ["Alice", "zog", "vom", "Nachziehstapel"]),
        ("discard 9S", [], ["Alice", "warf", "9S", "ab"]),
        ("add 8C to 3", [], ["Alice", "legte", "8C", "an", "Reihe", "3", "an"]),
        (
            "add 8C to 3",
            ["p1"],
            ["Alice", "übernahm", "Reihe", "3", "von", "Bjørn", "Ødegård", "mit", "8C"],
        ),
        ("add 6D to 3+7", [], ["Alice", "verband", "Reihen", "3", "und", "7", "mit", "6D"]),
    ],
)
def test_last_action_in_german_words(
    action: str, took_from: list[str], expected: list[str]
) -> None:
    view = public(moments(2)["middle"])
    view = view.model_copy(
        update={"last": LastView(player="p0", action=action, took_from=took_from)}
    )
    tokens = last_action_tokens(view, _Names(view, NAMES, "de"), 520)
    words = [token if isinstance(token, str) else str(token[0]) for token in tokens]
    assert words == expected


def test_sentence_puts_cards_where_the_language_wants_them() -> None:
    card = (Card.parse("8C"), None)
    assert sentence("{who} warf {card} ab", who=["Bo"], card=[card]) == ["Bo", "warf", card, "ab"]
    assert sentence("{who}: {card}", who=["Bo"], card=[card]) == ["{who}:", card]


def _image_templates() -> list[str]:
    """Every template the image module translates."""
    tree = ast.parse(Path(take_render.__file__).read_text())
    return [
        arg.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("tr", "plural")
        for arg in node.args[1:]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
    ]


def test_german_image_words_use_only_letters_the_font_draws() -> None:
    """Every German word drawn into images, umlauts and all, is in the fonts."""
    templates = _image_templates()
    assert len(templates) > 50
    undrawable = {text: tr("de", text) for text in templates if uncovered(tr("de", text))}
    assert undrawable == {}


@pytest.mark.parametrize("moment", MOMENTS)
def test_german_pictures_differ_from_english_ones(moment: str) -> None:
    state = moments(3)[moment]
    english = render_table(public(state), NAMES)
    german = render_table(public(state), NAMES, lang="de")
    assert decode(german).width == WIDTH
    assert pixels_differ(english, german)
    assert render_table(public(state), NAMES, lang="en") == english
    player = state.players[state.turn]
    hand = render_hand(ENGINE.view(state, player), NAMES, lang="de")
    assert decode(hand).size == (WIDTH, HAND_HEIGHT)
    assert pixels_differ(render_hand(ENGINE.view(state, player), NAMES), hand)


def test_prose_wraps_and_ends_with_an_ellipsis() -> None:
    tokens = ["word"] * 40 + [(Card.parse("10H"), None)]
    lines = layout_prose(tokens, PROSE, 200, 2)
    assert len(lines) == 2
    assert lines[-1][-1] == "…"
    assert layout_prose(["short"], PROSE, 200, 2) == [["short"]]
    assert layout_prose([], PROSE, 200, 2) == []


# --- layout helpers ----------------------------------------------------------------------


def test_runs_wrap_and_stay_inside() -> None:
    view = public(crowded_state())
    mine = [r for r in view.runs if r.owner == "p0"]
    placed = layout_runs(mine)
    assert [p.run for p in placed] == mine
    assert max(p.line for p in placed) == 1
    assert all(p.x >= RUNS_LEFT and p.x + p.width <= RUNS_RIGHT for p in placed)
    held = layout_runs(mine[:1], [Card.parse("5H"), JOKER])
    assert held[-1].run is None and held[-1].held == (Card.parse("5H"), JOKER)


def test_hand_order_is_by_suit_then_rank() -> None:
    cards = [Card.parse(t) for t in ["AS", "2D", "JK", "10H", "3S", "KC", "4H"]]
    ordered = [str(c) for c in hand_order(cards)]
    assert ordered == ["3S", "AS", "4H", "10H", "KC", "2D", "JK"]


def test_hand_layout_fits_eleven_cards() -> None:
    cards = hand_order(
        [Card.parse(t) for t in ["2S", "3S", "4S", "5H", "6H", "7C", "8C", "9D", "10D", "JK", "JK"]]
    )
    xs = hand_layout(cards, 34, 632)
    assert len(xs) == 11
    assert xs == sorted(xs)
    assert xs[-1] + 56 <= 632
    assert hand_layout([], 34, 632) == []


def test_fits_checks_run_ends() -> None:
    table = public(crowded_state()).runs
    by_id = {r.id: r for r in table}
    assert fits(Card.parse("4H"), by_id[3])  # 5H-8H
    assert fits(Card.parse("9H"), by_id[3])
    assert not fits(Card.parse("10H"), by_id[3])
    assert not fits(Card.parse("4S"), by_id[3])
    assert not fits(Card.parse("AC"), by_id[1])  # locked
    assert not fits(JOKER, by_id[1])
    assert fits(JOKER, by_id[3])
    assert fits(Card.parse("4H"), by_id[5])  # AH-3H: ace low
    assert not fits(Card.parse("AD"), by_id[7])  # QD-AD ends with the high ace
    assert fits(Card.parse("JD"), by_id[7])
    assert fits(Card.parse("AS"), by_id[2])  # 2S-4S takes a low ace


# --- shared drawing helpers added for this game ------------------------------------------


def test_jokers_are_not_jacks() -> None:
    joker = playing_card("JK", "", ROW_CARD)
    assert joker == joker_card(ROW_CARD)
    assert joker.image.tobytes() != playing_card("J", "H", ROW_CARD).image.tobytes()
    standing = joker_card(SMALL_CARD, ("6", "H"))
    assert standing.image.size == joker_card(SMALL_CARD).image.size
    assert standing.image.tobytes() != joker_card(SMALL_CARD).image.tobytes()
    assert (
        joker_card(SMALL_CARD, muted=True).image.tobytes() != joker_card(SMALL_CARD).image.tobytes()
    )


def test_card_tags_plain_cards_and_padlocks() -> None:
    plain, joker = card_tag("10", "H", 14), card_tag("JK", "", 14, ("6", "H"))
    assert plain.height == joker.height == round(14 * 1.45)
    assert joker.width > card_tag("JK", "", 14).width
    assert plain_card(ROW_CARD).image.size == playing_card("2", "C", ROW_CARD).image.size
    lock = padlock(20, PALETTE.accent)
    assert lock.size == (16, 20)
    assert lock.getchannel("A").getbbox() is not None
    assert [signed(n) for n in (5, 0, -3)] == ["+5", "0", "−3"]


def play_phase_view() -> tuple[TakeState, str]:
    """A two-player game just after its first player drew from the stock."""
    state = ENGINE.new_game(["p0", "p1"], 8)
    (player,) = ENGINE.to_act(state)
    return ENGINE.apply(state, player, ENGINE.Action(kind="draw", source="stock")), player


def test_the_panel_lists_the_hand_in_the_image_order_and_discards_in_one_click() -> None:
    adapter = TakeAdapter()
    state, player = play_phase_view()
    view = ENGINE.view(state, player)
    panel = adapter.private_panel(view, {}, NAMES, "en")
    ordered = hand_order(view.my_hand or [])
    picker = next(select for select in panel.selects if select.key == "cards")
    assert [label for _, label in picker.options] == [card_label(card) for card in ordered]
    assert " ".join(card_label(card) for card in ordered) in panel.text
    legal = {str(a) for a in ENGINE.legal_actions(state, player) if a.kind == "discard"}
    discards = [button for button in panel.buttons if button.key.startswith("discard")]
    assert {button.key for button in discards} == legal
    assert all(button.label.startswith("Discard ") for button in discards)


def test_a_move_reads_in_words_without_the_players_name() -> None:
    adapter = TakeAdapter()
    state = ENGINE.new_game(["p0", "p1"], 8)
    (player,) = ENGINE.to_act(state)
    drawn = ENGINE.apply(state, player, ENGINE.Action(kind="draw", source="stock"))
    before, after = ENGINE.view(state, None), ENGINE.view(drawn, None)
    assert adapter.move_text("draw stock", before, after, NAMES, "en") == "drew from the stock"
    assert adapter.move_text("draw stock", before, after, NAMES, "de") == "zog vom Nachziehstapel"
    assert adapter.deal_summary(before, after, NAMES, "en") is None
