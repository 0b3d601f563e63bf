"""Playing cards and model copies: copies of an immutable card are the card itself;
`replaced` copies a state the way `model_copy` does."""

from __future__ import annotations

import copy
import pickle

from bot.engines.base import replaced
from bot.engines.cards import Card
from bot.engines.geschenkt import ENGINE


def test_copies_of_a_card_are_the_same_card() -> None:
    ten, joker = Card.parse("10H"), Card.parse("JK")
    assert copy.copy(ten) is ten
    assert copy.deepcopy([ten, joker]) == [ten, joker]
    assert all(a is b for a, b in zip(copy.deepcopy([ten, joker]), [ten, joker], strict=True))


def test_cards_pickle_as_themselves() -> None:
    """Views holding cards go to the render processes by pickle."""
    cards = [Card.parse("10H"), Card.parse("AS"), Card.parse("JK")]
    assert pickle.loads(pickle.dumps(cards)) == cards


def test_replaced_equals_model_copy_and_leaves_the_original_alone() -> None:
    state = ENGINE.new_game(["a", "b", "c"], 3)
    changed = replaced(state, pot=5, turn=2)
    assert changed == state.model_copy(update={"pot": 5, "turn": 2})
    assert (state.pot, state.turn) == (0, 0)
    assert (
        changed.model_dump_json()
        == state.model_copy(update={"pot": 5, "turn": 2}).model_dump_json()
    )
    assert type(changed).model_validate_json(changed.model_dump_json()) == changed
