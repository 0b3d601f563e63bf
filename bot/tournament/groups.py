"""Grouped rounds for games of three or more: tables of similar standing, few rematches.

Our own (no library pairs multi-player tables). A round is seated in two steps:

1. **Table sizes** (`table_sizes`): the fewest tables that seat everyone within the
   tournament's ``table_min`` … ``table_max``, their sizes as even as possible (no two
   differ by more than one), the bigger ones first. Fewest tables, because a bigger
   table is more of the game and ranks more players against each other per round.
2. **Who sits where** (`group_tables`): the standings, best first, cut into those
   tables in order; then swaps of two players between tables while they lower
   ``MOVE_COST`` × (each player's distance², in places of the standings, from the
   places that players of their points hold to the places their table seats)
   + ``REPEAT_COST`` × width² × (earlier meetings of players at one table, counted per
   meeting), width being the mean table size: at 10 to 1, two players may each move
   two tables from their standing to spare one rematch, three tables only to spare
   two; and of two who could move, the one nearer the other table does (the second
   of two leaders who met drops to the next table's top, not the leader). Swapping
   two at a time gets stuck where only a chain of swaps would help, so the climb is
   made from the standing order and from ``RESTARTS`` shuffled seatings too, and the
   cheapest seating reached is taken.

   Measured on 80 random events (12–30 players, 3–5 rounds, tables of 3–5): 840
   rematches, with players 0.39 tables (1.3 places) from their standing on average;
   995 and 0.32 at 5 to 1; 781 and 0.66 with standing ignored.

Deterministic: the shuffles come from the tournament's seed and the round number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.engines.base import PlayerId

REPEAT_COST = 10
MOVE_COST = 1
RESTARTS = 12
CLIMB_BUDGET = 400
"""Players × climbs a round may take: a big field gets fewer restarts (128 players: 3),
so that a round pairs within about a second on a busy small core."""
MAX_PASSES = 50
"""Passes over all swaps; each pass lowers the cost, so this only caps a long climb."""


def table_sizes(players: int, table_min: int, table_max: int) -> list[int] | None:
    """The sizes of the fewest tables seating ``players`` within the limits, as even
    as possible, biggest first; None when no such tables exist (five at 3–4)."""
    if players < table_min or table_min > table_max:
        return None
    count = -(-players // table_max)
    if count * table_min > players:
        return None
    small, extra = divmod(players, count)
    return [small + 1] * extra + [small] * (count - extra)


def seats_to_fill(players: int, table_min: int, table_max: int) -> int:
    """How many computers make ``players`` seatable (0 if they already are)."""
    added = 0
    while table_sizes(players + added, table_min, table_max) is None:
        added += 1
    return added


def group_tables(
    ranked: Sequence[PlayerId],
    points: Mapping[PlayerId, Fraction],
    met: Mapping[tuple[PlayerId, PlayerId], int],
    sizes: Sequence[int],
    *,
    seed: int,
    restarts: int | None = None,
) -> list[tuple[PlayerId, ...]]:
    """Seat ``ranked`` (standings order, best first) at tables of ``sizes``.

    Swaps from the standing order, and again from ``restarts`` shuffled seatings
    (by ``seed``; by default ``RESTARTS``, fewer for big fields): a swap at a time gets
    stuck where only several together would help, and the cheapest of the ends
    reached wins (the standing order's on ties). Each table lists its players in
    standing order."""
    if restarts is None:
        restarts = max(2, min(RESTARTS, CLIMB_BUDGET // max(len(ranked), 1)))
    if sum(sizes) != len(ranked):
        raise ValueError("the tables don't seat exactly the players")
    spans = _spans(ranked, points)
    neighbours: dict[PlayerId, dict[PlayerId, int]] = {p: {} for p in ranked}
    for (a, b), count in met.items():
        if a in neighbours and b in neighbours and count:
            neighbours[a][b] = neighbours[b][a] = count
    rng = random.Random(seed)
    best: list[int] = []
    best_cost = 0
    for attempt in range(restarts + 1):
        order = list(ranked)
        if attempt:
            rng.shuffle(order)
        seating = _Seating(ranked, order, sizes, spans, neighbours)
        seating.climb()
        if not best or seating.cost() < best_cost:
            best, best_cost = list(seating.where), seating.cost()
    return [
        tuple(player for index, player in enumerate(ranked) if best[index] == table)
        for table in range(len(sizes))
    ]


def _spans(
    ranked: Sequence[PlayerId], points: Mapping[PlayerId, Fraction]
) -> dict[PlayerId, tuple[int, int]]:
    """For each player, the first and last position in the standings of the players
    with their points: anywhere in there is their standing's seat."""
    positions: dict[Fraction, list[int]] = {}
    for position, player in enumerate(ranked):
        positions.setdefault(points[player], []).append(position)
    return {p: (positions[points[p]][0], positions[points[p]][-1]) for p in ranked}


def _seat_ranges(sizes: Sequence[int]) -> list[tuple[int, int]]:
    """The first and last standing position that each table seats in the standing
    order."""
    ranges = []
    start = 0
    for size in sizes:
        ranges.append((start, start + size - 1))
        start += size
    return ranges


class _Seating:
    """A seating being improved: each player's table, and for each player and table
    how many earlier meetings the player has with those seated there, kept up to date
    swap by swap so a swap is weighed in constant time."""

    def __init__(
        self,
        ranked: Sequence[PlayerId],
        order: Sequence[PlayerId],
        sizes: Sequence[int],
        spans: Mapping[PlayerId, tuple[int, int]],
        neighbours: Mapping[PlayerId, Mapping[PlayerId, int]],
    ) -> None:
        self.index = {player: i for i, player in enumerate(ranked)}
        self.where = [0] * len(ranked)
        position = 0
        for table, size in enumerate(sizes):
            for player in order[position : position + size]:
                self.where[self.index[player]] = table
            position += size
        self.move = [
            [_move(spans[player], seats) for seats in _seat_ranges(sizes)] for player in ranked
        ]
        width = round(len(ranked) / len(sizes))
        self.rematch = REPEAT_COST * width * width
        self.neighbours = [
            [(self.index[other], count) for other, count in neighbours[player].items()]
            for player in ranked
        ]
        self.met_at = [[0] * len(sizes) for _ in ranked]
        for i, others in enumerate(self.neighbours):
            for j, count in others:
                self.met_at[i][self.where[j]] += count

    def cost(self) -> int:
        moves = sum(self.move[i][table] for i, table in enumerate(self.where))
        meetings = sum(self.met_at[i][table] for i, table in enumerate(self.where)) // 2
        return MOVE_COST * moves + self.rematch * meetings

    def gain(self, a: int, b: int) -> int:
        """How much swapping players ``a`` and ``b`` (at different tables) saves."""
        ta, tb = self.where[a], self.where[b]
        between = next((count for j, count in self.neighbours[a] if j == b), 0)
        meetings = self.met_at[a][ta] + self.met_at[b][tb]
        meetings -= self.met_at[a][tb] + self.met_at[b][ta] - 2 * between
        moves = self.move[a][ta] + self.move[b][tb] - self.move[a][tb] - self.move[b][ta]
        return MOVE_COST * moves + self.rematch * meetings

    def swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        for player, old, new in ((a, ta, tb), (b, tb, ta)):
            self.where[player] = new
            for j, count in self.neighbours[player]:
                self.met_at[j][old] -= count
                self.met_at[j][new] += count

    def climb(self) -> None:
        """Make every saving swap, pass after pass, until none is left."""
        size = len(self.where)
        for _ in range(MAX_PASSES):
            improved = False
            for a in range(size):
                for b in range(a + 1, size):
                    if self.where[a] != self.where[b] and self.gain(a, b) > 0:
                        self.swap(a, b)
                        improved = True
            if not improved:
                return


def _move(span: tuple[int, int], seats: tuple[int, int]) -> int:
    """Distance², in standing positions, from a player's standing to a table's."""
    distance = max(0, seats[0] - span[1], span[0] - seats[1])
    return distance * distance
