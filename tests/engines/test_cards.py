"""Playing cards: copies of an immutable card are the card itself."""

from __future__ import annotations

import copy
import pickle

from bot.engines.cards import Card


def test_copies_of_a_card_are_the_same_card() -> None:
    ten, joker = Card.parse("10H"), Card.parse("JK")
    assert copy.copy(ten) is ten
    assert copy.deepcopy([ten, joker]) == [ten, joker]
    assert all(a is b for a, b in zip(copy.deepcopy([ten, joker]), [ten, joker], strict=True))


def test_cards_pickle_as_themselves() -> None:
    """Views holding cards go to the render processes by pickle."""
    cards = [Card.parse("10H"), Card.parse("AS"), Card.parse("JK")]
    assert pickle.loads(pickle.dumps(cards)) == cards
