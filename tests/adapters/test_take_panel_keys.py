"""TAKE's hand panel never gives two of its buttons one key: a key becomes the button's
custom_id, and Discord refuses a message whose components share one."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.adapters.take import CARDS, MOVE, TakeAdapter, card_values
from bot.engines.take import DRAW_STOCK, ENGINE, JOKER, TakeState
from bot.render.take import hand_order
from bot.texts import PrivatePanel

ADAPTER = TakeAdapter()
NAMES = {"p0": "Alice", "p1": "Bernd"}


def playing(seed: int, jokers: int = 0) -> tuple[TakeState, str]:
    """A fresh two-player game after the first player drew, holding ``jokers`` jokers."""
    state = ENGINE.new_game(["p0", "p1"], seed)
    (player,) = ENGINE.to_act(state)
    state = ENGINE.apply(state, player, DRAW_STOCK)
    if jokers:
        seat = state.players.index(player)
        hand = [card for card in state.hands[seat] if card != JOKER]
        hand = sorted([*hand[jokers:], *[JOKER] * jokers])
        hands = [hand if i == seat else h for i, h in enumerate(state.hands)]
        state = state.model_copy(update={"hands": hands})
    return state, player


def keys(panel: PrivatePanel) -> list[str]:
    return [button.key for button in panel.buttons]


@pytest.mark.parametrize(("seed", "jokers"), [(1, 0), (2, 0), (3, 1), (4, 2), (5, 2)])
def test_no_pick_of_one_or_two_cards_gives_two_buttons_one_key(seed: int, jokers: int) -> None:
    state, player = playing(seed, jokers)
    view = ENGINE.view(state, player)
    values = [value for value, _ in card_values(hand_order(view.my_hand or []))]
    if jokers == 2:
        assert {"JK.0", "JK.1"} <= set(values)
    picks = [(), *((v,) for v in values), *combinations(values, 2)]
    confirmed_discards = 0
    for picked in picks:
        panel = ADAPTER.private_panel(view, {CARDS: picked}, NAMES, "en")
        assert len(keys(panel)) == len(set(keys(panel))), (picked, keys(panel))
        assert len({s.key for s in panel.selects}) == len(panel.selects)
        confirm = panel.buttons[0]
        if confirm.key.startswith("discard "):
            confirmed_discards += 1
            # Confirm is the discard; the card's own Discard button is not there twice.
            assert keys(panel).count(confirm.key) == 1
        moves = [o for o, _ in next(s for s in panel.selects if s.key == MOVE).options]
        for move in moves:  # whichever move is chosen, the keys stay unique
            chosen = ADAPTER.private_panel(view, {CARDS: picked, MOVE: (move,)}, NAMES, "en")
            assert len(keys(chosen)) == len(set(keys(chosen))), (picked, move, keys(chosen))
    assert confirmed_discards, "no single card could be discarded: the case is not covered"
