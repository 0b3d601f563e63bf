"""TAKE's results keep the last deal and the match totals apart."""

from __future__ import annotations

import random

from bot.adapters.take import TakeAdapter
from bot.engines.take import ENGINE, TakeOptions, TakeState
from bot.i18n import Lang
from bot.texts import TableText

ADAPTER = TakeAdapter()
NAMES = {"a": "Alice", "b": "Bernd"}


def finished_match() -> TakeState:
    """Two players to 100 points, each playing a random legal move: Bernd wins with 185
    after three deals, Alice ends on −50."""
    state = ENGINE.new_game(["a", "b"], 3, TakeOptions(target=100))
    rng = random.Random(1)
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        moves = ENGINE.view(state, player).my_moves or []
        state = ENGINE.apply(state, player, ENGINE.parse_text(rng.choice(moves).action))
    return state


def results(lang: Lang = "en") -> dict[str, str]:
    state = finished_match()
    text: TableText = ADAPTER.results_text(
        ENGINE.view(state, None), ENGINE.outcome(state), NAMES, lang
    )
    return dict(text.fields)


def test_the_places_say_the_match_totals_and_the_last_deal_its_own_score() -> None:
    fields = results()
    assert (
        fields["Places"]
        == "**1.** Bernd: **185** points in all\n**2.** Alice: **−50** points in all"
    )
    assert fields["Last deal"] == (
        "Deal 3 ended: **Bernd** went out.\n"
        "**Alice**: laid 0 − held 25 = **−25**\n"
        "**Bernd**: laid 90 − held 0 = **+90**"
    )
    assert list(fields) == ["Places", "Last deal", "Deals"]


def test_the_last_deal_and_the_totals_apart_in_german() -> None:
    fields = results("de")
    assert fields["Platzierung"].startswith("**1.** Bernd: **185** Punkte insgesamt\n")
    assert "**Bernd**: ausgelegt 90 − auf der Hand 0 = **+90**" in fields["Letzter Durchgang"]
    assert "gesamt" not in fields["Letzter Durchgang"]
