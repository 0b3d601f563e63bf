"""A compact, mutable Geschenkt game for the ``hard`` player's playouts.

Plain lists and sets instead of pydantic states: `Table.step` applies ``take`` or
``refuse`` in place as the engine does (a seat without chips must take; taking gives
the pot and turns the next card, the taker acting again), and `Table.playout` plays
the game out with the ``normal`` policy (`bot.ai.geschenkt.normal_takes`'s rule,
written out here). `tests/ai/test_geschenkt_ai.py` checks both against the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

FULL_PHASE = 23


class Table:
    """One game in progress; ``current`` is ``-1`` once it is over."""

    __slots__ = ("cards", "chips", "current", "pot", "stack", "top", "turn")

    def __init__(
        self,
        chips: list[int],
        cards: list[set[int]],
        stack: list[int],
        current: int,
        pot: int,
        turn: int,
    ) -> None:
        self.chips = chips
        self.cards = cards
        self.stack = stack
        self.top = 0
        self.current = current
        self.pot = pot
        self.turn = turn

    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.chips = list(self.chips)
        other.cards = [set(cards) for cards in self.cards]
        other.stack = self.stack
        other.top = self.top
        other.current = self.current
        other.pot = self.pot
        other.turn = self.turn
        return other

    def step(self, take: bool) -> None:
        seat = self.turn
        if not take and self.chips[seat] > 0:
            self.chips[seat] -= 1
            self.pot += 1
            self.turn = (seat + 1) % len(self.chips)
            return
        self.cards[seat].add(self.current)
        self.chips[seat] += self.pot
        self.pot = 0
        if self.top < len(self.stack):
            self.current = self.stack[self.top]
            self.top += 1
        else:
            self.current = -1

    def playout(
        self,
        chip_value: float,
        late_chip_value: float,
        threshold: float,
        low_chips: float,
        near_bonus: float,
        greed: float,
    ) -> int:
        """Everyone plays ``normal`` to the end; the number of actions played."""
        weights = (chip_value, late_chip_value, threshold, low_chips, near_bonus, greed)
        return self.playout_seats([(*weights, 0.0, False, 0.0, 0.0, 1.0)] * len(self.chips))

    def playout_seats(
        self, seats: Sequence[Sequence[float]], rng: random.Random | None = None
    ) -> int:
        """Each seat plays ``normal``'s rule with its own weights (the fields of
        `bot.ai.geschenkt.Params` in order, as `bot.ai.geschenkt.take_chance`) to the
        end; a soft seat's choices draw from ``rng``. Returns the number of actions
        played."""
        actions = 0
        cards = self.cards
        chips = self.chips
        count = len(chips)
        draw = rng.random if rng is not None else None
        while self.current >= 0:
            seat = self.turn
            card = self.current
            pot = self.pot
            mine = cards[seat]
            have = chips[seat]
            take = True
            if have > 0:
                (
                    chip_value,
                    late_chip_value,
                    threshold,
                    low_chips,
                    near_bonus,
                    greed,
                    soft,
                    face_value,
                    floor,
                    chip_factor,
                    fit_factor,
                ) = seats[seat]
                below, above = card - 1 in mine, card + 1 in mine
                if below and above:
                    cost = -(card + 1)
                elif below:
                    cost = 0
                elif above:
                    cost = -1
                else:
                    cost = card
                refuse_for_more = False
                if cost <= 0 and pot < greed:
                    refuse_for_more = True
                    for k in range(count):
                        if k != seat and (card - 1 in cards[k] or card + 1 in cards[k]):
                            refuse_for_more = False
                            break
                if refuse_for_more:
                    take = False
                else:
                    left = len(self.stack) - self.top
                    phase = (left if left < FULL_PHASE else FULL_PHASE) / FULL_PHASE
                    chip = late_chip_value + (chip_value - late_chip_value) * phase
                    value = (card if face_value else cost) - chip * pot
                    if cost == card and (card - 2 in mine or card + 2 in mine):
                        value -= near_bonus
                    margin = threshold + low_chips / (have + 1) - value
                    if soft > 0 and draw is not None:
                        chance = 0.5 + margin / soft
                        if chance < floor:
                            chance = floor
                        chance *= 1 + chip_factor / have
                        if cost != card:
                            chance *= fit_factor
                        take = draw() < chance
                    else:
                        take = margin > 0
            self.step(take)
            actions += 1
        return actions

    def scores(self) -> list[int]:
        """Each seat's score (the engine's ``score``: runs' lowest cards less chips)."""
        return [
            sum(card for card in cards if card - 1 not in cards) - chips
            for cards, chips in zip(self.cards, self.chips, strict=True)
        ]


def utility(scores: Sequence[int], me: int) -> float:
    """1 for the sole lowest score, ½ shared, 0 otherwise; less a hundredth of the
    margin to the best other score, so among equal chances a better score counts."""
    mine = scores[me]
    best_other = min(score for k, score in enumerate(scores) if k != me)
    if mine < best_other:
        win = 1.0
    elif mine == best_other:
        win = 0.5
    else:
        win = 0.0
    return win - 0.01 * (mine - best_other)
