"""Give & Take's words: a move in the line of recent events, the pile question, the
centre's capture label and why each place was given."""

from __future__ import annotations

from bot.adapters.give_and_take import GiveAndTakeAdapter, capture_text
from bot.engines.give_and_take import ENGINE, GiveAndTakeState
from bot.i18n import Lang
from bot.render.give_and_take import capture_label, place_reason
from bot.texts import PrivatePanel
from tests.render.test_give_and_take_render import (
    act,
    all_out,
    fight_scenes,
    last_standing,
    out_at_turn_start,
    out_in_a_fight,
    playout,
    public,
    stacked,
    start,
)

ADAPTER = GiveAndTakeAdapter()
NAMES = {"p0": "Alice", "p1": "Bernd", "p2": "Chloe", "p3": "Dana", "p4": "Emil"}


def said(state: GiveAndTakeState, key: str, lang: Lang = "en") -> str:
    (player,) = ENGINE.to_act(state)
    after = ENGINE.apply(state, player, ENGINE.parse_text(key))
    return ADAPTER.move_text(key, public(state), public(after), NAMES, lang)


def test_go_says_what_it_turned_up() -> None:
    scenes = fight_scenes()
    assert said(scenes["start"], "go") == "pressed Go: a tie at 0, everyone turns up again"
    capture = public(scenes["capture"])
    expected = f"pressed Go: Chloe captures {capture.capture_size} cards"
    assert said(scenes["layer2"], "go") == expected
    assert said(scenes["layer2"], "go", "de").startswith("drückte Los: Chloe erbeutet ")


def test_a_pile_choice_says_how_many_cards_went_under_which_pile() -> None:
    capture = fight_scenes()["capture"]
    n = public(capture).capture_size
    assert said(capture, "give") == f"put {n} cards under the give pile"
    assert said(capture, "take", "de") == f"legte {n} Karten unter den Nehmestapel"


def test_the_pile_question_says_what_the_bot_picks_when_time_runs_out() -> None:
    view = public(fight_scenes()["capture"])
    text = capture_text(view, "Chloe", "en")
    assert text.startswith(f"**Chloe** captures **{view.capture_size}** cards after a fight")
    assert text.endswith("the bot picks the give pile (both are as big).")
    seats = [
        seat.model_copy(update={"take_size": seat.give_size - 1}) if seat.player == "p2" else seat
        for seat in view.seats
    ]
    uneven = view.model_copy(update={"seats": seats, "default_pile": "take"})
    assert capture_text(uneven, "Chloe", "en").endswith("the smaller: the take pile.")


def test_the_centre_never_says_no_capture_while_one_is_being_made() -> None:
    assert capture_label(2, False, True, "en") == "PREVIOUS · TURN 2"
    assert capture_label(2, True, False, "en") == "LAST CAPTURE · TURN 2 · FIGHT"
    deck = stacked([[("2", "5"), ("5", "K"), ("3", "9")], [("10", "7"), ("7", "2"), ("J", "4")]])
    first = public(act(start(3, deck), "go"))
    assert first.phase == "choose" and first.last_capture is None


def reasons(state: GiveAndTakeState, lang: Lang = "en") -> dict[str, str]:
    view = public(state)
    return {seat.player: place_reason(view, seat, lang) for seat in view.seats}


def test_each_place_says_why() -> None:
    assert reasons(last_standing()) == {
        "p0": "last one standing",
        "p1": "went out on turn 3",
        "p2": "went out on turn 3",
    }
    assert reasons(out_in_a_fight())["p2"] == "went out in a fight on turn 5"
    assert reasons(out_at_turn_start())["p3"] == "went out on turn 5"
    assert set(reasons(all_out()).values()) == {"most cards when all went out (turn 1)"}
    capped = reasons(playout(5, seed=2, turn_cap=3)[-1])
    assert "most cards at the turn limit" in capped.values()
    assert reasons(last_standing(), "de")["p1"] == "in Runde 3 ausgeschieden"


def test_the_results_give_the_reason_and_the_cards_that_decided() -> None:
    state = last_standing()
    view = public(state)
    text = ADAPTER.results_text(view, ENGINE.outcome(state), NAMES, "en")
    lines = text.fields[0][1].split("\n")
    assert view.scores is not None
    assert lines[0] == f"**1.** Alice: last one standing ({view.scores['p0']} cards)"
    assert lines[1:3] == ["**2.** Bernd: went out on turn 3", "**2.** Chloe: went out on turn 3"]


RULE = (
    "*Whoever went out earlier places lower, whatever their cards: one empty pile puts a "
    "player out, however full the other.*"
)


def test_the_results_say_why_more_cards_can_place_lower() -> None:
    """Bernd goes out in a fight holding 24 cards (his other pile ran dry) and places
    below Chloe, the last one standing with 22: the places say the rule."""
    final = playout(3, seed=5)[-1]
    view, outcome = public(final), ENGINE.outcome(final)
    assert outcome.scores["p1"] > outcome.scores["p2"] > 0
    assert outcome.places["p1"] > outcome.places["p2"]
    places = ADAPTER.results_text(view, outcome, NAMES, "en").fields[0][1].split("\n")
    assert places[0] == "**1.** Chloe: last one standing (22 cards)"
    assert "**2.** Bernd: went out in a fight on turn 6" in places
    assert places[-1] == RULE
    german = ADAPTER.results_text(view, outcome, NAMES, "de").fields[0][1]
    assert german.endswith(
        "*Wer früher ausgeschieden ist, landet weiter hinten, egal mit wie "
        "vielen Karten: Ein leerer Stapel reicht zum Ausscheiden, wie voll "
        "der andere auch ist.*"
    )


def test_places_all_decided_by_cards_need_no_rule() -> None:
    """Everyone went out at once: ranked by cards, each reason says so."""
    state = all_out()
    text = ADAPTER.results_text(public(state), ENGINE.outcome(state), NAMES, "en")
    assert RULE not in text.fields[0][1]


def panel(state: GiveAndTakeState, player: str, lang: Lang = "en") -> PrivatePanel:
    return ADAPTER.private_panel(ENGINE.view(state, player), {}, NAMES, lang)


def test_my_piles_shows_my_place_in_the_ring_and_my_own_move() -> None:
    scenes = fight_scenes()
    start_panel = panel(scenes["start"], "p1")
    assert "your take card + **Chloe**'s give card" in start_panel.text
    assert "Your give card goes to **Alice**'s duet." in start_panel.text
    assert start_panel.buttons == []
    assert [button.key for button in panel(scenes["start"], "p0").buttons] == ["go"]
    tied = panel(scenes["layer1"], "p0").text
    assert "difference **0** (the lowest)." in tied
    capture = panel(scenes["capture"], "p2")
    assert [button.key for button in capture.buttons] == ["give", "take"]
    german = panel(scenes["start"], "p1", "de").text
    assert "Deine Gebekarte kommt ins Duett von **Alice**." in german


def test_my_piles_after_going_out_says_when() -> None:
    assert panel(out_in_a_fight(), "p2").text == ("You went out on turn 5; the others play on.")
    assert panel(last_standing(), "p0").text == "The game is over: last one standing."


def test_the_director_is_pinged_for_the_first_go_only() -> None:
    """Every turn opens with the director's Go: one ping at the start, not every turn."""
    first = start(3)
    assert public(first).phase == "go" and ADAPTER.wants_ping(public(first))
    later = next(s for s in playout(3, seed=4) if public(s).phase == "go" and public(s).turn > 1)
    assert not ADAPTER.wants_ping(public(later))
    choosing = next(s for s in playout(3, seed=4) if public(s).phase == "choose")
    assert ADAPTER.wants_ping(public(choosing)), "the capturer's choice is pinged"
