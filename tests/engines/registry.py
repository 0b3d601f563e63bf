"""Every engine in the conformance suite: one `EngineCase` per game in `CASES`.

To add a game, write its conservation invariant and, if its engine declares
``hidden_information``, its private-data scrambler (here or in the game's test module)
and append its `EngineCase` to `CASES`; `test_conformance.py` picks it up, and fails
for a module of `bot.engines` exposing ``ENGINE`` that has no case here.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from hypothesis import strategies as st
from pydantic import BaseModel

from bot.engines import geschenkt
from bot.engines.base import PlayerId
from bot.engines.geschenkt import GeschenktOptions, GeschenktState
from tests.engines.conformance import EngineCase
from tests.engines.test_draughts import DRAUGHTS
from tests.engines.test_escalation import ESCALATION
from tests.engines.test_give_and_take import GIVE_AND_TAKE
from tests.engines.test_take import TAKE_CASE

# --- Geschenkt -----------------------------------------------------------------


def geschenkt_invariant(state: GeschenktState) -> Hashable:
    """Every card (in front of players, face up, in the stack, removed) and all chips."""
    cards = [card for hand in state.cards for card in hand]
    cards += state.stack + state.removed
    if state.current is not None:
        cards.append(state.current)
    return tuple(sorted(cards)), sum(state.chips) + state.pot


def geschenkt_check_state(state: GeschenktState) -> None:
    """No negative chips, hands kept ascending, the turn on a real seat."""
    assert all(chips >= 0 for chips in state.chips), f"negative chips: {state.chips}"
    assert state.pot >= 0, f"negative pot: {state.pot}"
    assert all(hand == sorted(hand) for hand in state.cards), f"unsorted cards: {state.cards}"
    assert 0 <= state.turn < len(state.players), f"turn {state.turn} is no seat"


def geschenkt_scramble(
    state: GeschenktState, rng: random.Random, owner: PlayerId | None
) -> GeschenktState:
    """Owner: change their chip count. None: reshuffle the face-down stack together
    with the removed cards and move the random generator on."""
    data = state.model_dump()
    if owner is None:
        hidden = state.stack + state.removed
        rng.shuffle(hidden)
        data["stack"] = hidden[: len(state.stack)]
        data["removed"] = sorted(hidden[len(state.stack) :])
        data["rng"]["state"] = (state.rng.state + 1 + rng.randrange(2**62)) % 2**64
    else:
        seat = state.players.index(owner)
        data["chips"][seat] += 1 + rng.randrange(40)
    return GeschenktState.model_validate(data)


def geschenkt_custom_deck() -> st.SearchStrategy[BaseModel | None]:
    """Options with an explicit deck (any length), basic or tactical."""

    def deck_for(tactical: bool) -> st.SearchStrategy[BaseModel | None]:
        pool = geschenkt.card_pool(tactical)
        decks = st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True)
        return decks.map(lambda deck: GeschenktOptions(tactical=tactical, deck=deck))

    return st.booleans().flatmap(deck_for)


GESCHENKT = EngineCase(
    engine=geschenkt.ENGINE,
    variants={
        "default": st.none(),
        "tactical": st.just(GeschenktOptions(tactical=True)),
        "custom-deck": geschenkt_custom_deck(),
    },
    invariant=geschenkt_invariant,
    scramble_private=geschenkt_scramble,
    lower_wins=True,
    check_state=geschenkt_check_state,
    # Between two takes at most every chip in the game (≤ 77) is paid: 24 × 78 moves.
    max_steps=24 * 78,
)

# --- The registry --------------------------------------------------------------

CASES: list[EngineCase] = [
    GESCHENKT,
    ESCALATION,
    TAKE_CASE,
    DRAUGHTS,
    GIVE_AND_TAKE,
]
