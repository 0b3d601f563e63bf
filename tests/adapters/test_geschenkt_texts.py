"""Geschenkt's words on the table: a move in the line of recent events, the results."""

from __future__ import annotations

from bot.adapters.geschenkt import GeschenktAdapter
from bot.engines.geschenkt import ENGINE, REFUSE, TAKE, GeschenktOptions, GeschenktState
from bot.i18n import Lang

ADAPTER = GeschenktAdapter()
PLAYERS = ["a", "b", "c"]
NAMES = {"a": "Alice", "b": "Bernd", "c": "Chloe"}


def started(deck: list[int]) -> GeschenktState:
    return ENGINE.new_game(PLAYERS, seed=1, options=GeschenktOptions(deck=deck))


def said(state: GeschenktState, player: str, key: str, lang: Lang = "en") -> str:
    after = ENGINE.apply(state, player, ENGINE.parse_text(key))
    return ADAPTER.move_text(key, ENGINE.view(state, None), ENGINE.view(after, None), NAMES, lang)


def test_a_move_reads_as_words_with_the_card_and_the_chips() -> None:
    state = started([16, 22, 30])
    assert said(state, "a", "take") == "took 16 (no chips)"
    assert said(state, "a", "refuse") == "said no thanks to 16 (1 chip on it now)"
    state = ENGINE.apply(state, "a", REFUSE)
    state = ENGINE.apply(state, "b", REFUSE)
    assert said(state, "c", "refuse") == "said no thanks to 16 (3 chips on it now)"
    state = ENGINE.apply(state, "c", REFUSE)
    assert said(state, "a", "take") == "took 16 (+3 chips)"


def test_a_move_reads_in_german() -> None:
    state = started([16, 22, 30])
    assert said(state, "a", "refuse", "de") == "sagte Nein danke zur 16 (jetzt 1 Chip darauf)"
    state = ENGINE.apply(state, "a", REFUSE)
    assert said(state, "b", "take", "de") == "nahm die 16 (+1 Chip)"
    assert said(ENGINE.apply(state, "b", TAKE), "b", "take", "de") == "nahm die 22 (ohne Chips)"


def test_results_name_card_points_and_chips_apart() -> None:
    state = started([8, 9, 10, 21])
    for _ in range(4):
        state = ENGINE.apply(state, "a", TAKE)
    view = ENGINE.view(state, None)
    text = ADAPTER.results_text(view, ENGINE.outcome(state), NAMES, "en")
    places = dict(text.fields)["Places"]
    assert "**3.** Alice: **18** points (8–10 · 21: 29 card points − 11 chips)" in places
    german = ADAPTER.results_text(view, ENGINE.outcome(state), NAMES, "de")
    assert "(8–10 · 21: 29 Kartenpunkte − 11 Chips)" in german.fields[0][1]


def test_no_thanks_says_the_chips_on_the_card_never_the_player_s() -> None:
    """A player's chips are secret: the line counts the chips lying on the card."""
    state = started([12, 22, 30])
    assert (
        said(state, "a", "refuse", "es")
        == "dijo «no, gracias» al 12 (ya hay 1 ficha sobre la carta)"
    )
    state = ENGINE.apply(state, "a", REFUSE)
    assert said(state, "b", "refuse", "es") == (
        "dijo «no, gracias» al 12 (ya hay 2 fichas sobre la carta)"
    )
    assert said(state, "b", "refuse", "tr") == (
        "12 için hayır, sağ ol dedi (kartın üzerinde artık 2 fiş var)"
    )
