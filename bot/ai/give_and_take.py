"""Computer players for Give & Take (cards).

There is little skill in this game: every card in every pile is face down, even to
its owner, and the reveals decide the captures. A seat makes two kinds of decision:

- the director's ``go``, which is the only legal action when a cue is due (every
  level says it);
- the capturer's pile: which of its two piles gets the capture at its bottom.

Both piles lose a card at every reveal and a player is out as soon as either is
empty, so what keeps a player in is the *smaller* pile: putting captures under it
(the engine's default) is the balancing rule, and it is nearly all there is.

- ``easy``: the default pile.
- ``normal``: the smaller pile (the default); on equal piles, the pile that suits the
  capture's cards (below).
- ``hard``: a reasoned rule. A take-pile card is half of the seat's own duet, a
  give-pile card half of its left neighbour's; aces (1 or 14) and middle cards make
  small differences against a random card, 2s and kings large ones. So a capture of
  good cards goes under the take pile and one of bad cards under the give pile, but
  only while the other pile stays comfortably large; otherwise the smaller pile gets
  it. (The captured cards go under in shuffled order and surface only after a pile's
  worth of turns, so the effect is small; the measured results say how small.)
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.ai import Chooser, Level
from bot.engines.base import SeededRng
from bot.engines.cards import Card
from bot.engines.give_and_take import (
    GIVE,
    GO,
    TAKE,
    GiveAndTakeAction,
    GiveAndTakeView,
    Pile,
    duet_difference,
    pile_action,
)

_RANKS = range(2, 15)


def expected_difference(rank: int) -> float:
    """A card's average duet difference against a card of random rank."""
    mine = Card(rank, "S")
    return sum(duet_difference(mine, Card(other, "H")) for other in _RANKS) / len(_RANKS)


_EXPECTED = {rank: expected_difference(rank) for rank in _RANKS}
_AVERAGE = sum(_EXPECTED.values()) / len(_EXPECTED)

SAFE_PILE = 6
"""``hard`` leaves the smaller pile without the capture only while it holds at least
this many cards (turns it survives without capturing)."""


def quality(view: GiveAndTakeView) -> float:
    """How good the capture's visible cards are for a duet: positive when they make
    smaller differences than an average card (the face-down leftovers count as
    average)."""
    cards = [card for seat in view.seats for card in (*seat.played_give, *seat.played_take)]
    return sum(_AVERAGE - _EXPECTED[card.rank] for card in cards)


def _sizes(view: GiveAndTakeView) -> tuple[int, int]:
    return view.my_give_size or 0, view.my_take_size or 0


def _smaller(view: GiveAndTakeView) -> Pile:
    give, take = _sizes(view)
    return "take" if take < give else "give"


def _cue_or(view: GiveAndTakeView) -> GiveAndTakeAction | None:
    """``go`` when a cue is due; None when the seat is choosing a pile."""
    return GO if view.phase == "go" else None


def _easy(view: GiveAndTakeView, rng: SeededRng) -> GiveAndTakeAction:
    cue = _cue_or(view)
    if cue is not None:
        return cue
    return pile_action(view.default_pile or _smaller(view))


def _normal(view: GiveAndTakeView, rng: SeededRng) -> GiveAndTakeAction:
    cue = _cue_or(view)
    if cue is not None:
        return cue
    give, take = _sizes(view)
    if give == take:
        return TAKE if quality(view) > 0 else GIVE
    return pile_action(_smaller(view))


def _hard(view: GiveAndTakeView, rng: SeededRng) -> GiveAndTakeAction:
    cue = _cue_or(view)
    if cue is not None:
        return cue
    give, take = _sizes(view)
    suited: Pile = "take" if quality(view) > 0 else "give"
    other = give if suited == "take" else take
    if other >= SAFE_PILE:
        return pile_action(suited)
    return pile_action(_smaller(view))


PLAYERS: Mapping[Level, Chooser] = {
    "easy": _easy,
    "normal": _normal,
    "hard": _hard,
}
