"""A minimum-cost pairing of a field, when rematches or second byes can't be avoided.

The Swiss library refuses a round it can't pair within its rules (everyone left has
met, a bye nobody may take); a tournament must still go on. This finds the pairing of
least total cost, the cost of two players (or of a player and the bye) given by the
caller — in `bot.tournament.swiss` a rematch or a second bye costs far more than any
score gap, so the fewest possible of them are made.

Exact by branch and bound for the small fields where this happens (a rematch is
forced only once about as many rounds as players have been played); on a larger
field a search cut off by ``node_limit`` returns the best pairing found, never worse
than the greedy one it starts from, improved by swapping partners between pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engines.base import PlayerId

Pair = tuple[PlayerId, PlayerId | None]
"""Two players, or a player and None: the bye."""

Cost = Callable[[PlayerId, PlayerId | None], int]
"""The cost of pairing two players (symmetric), or of giving the first the bye."""

NODE_LIMIT = 100_000


def min_cost_pairing(
    players: Sequence[PlayerId], cost: Cost, *, node_limit: int = NODE_LIMIT
) -> list[Pair]:
    """Pair ``players`` (one bye if their number is odd) at the least total ``cost``.

    ``players`` in their standing order, best first: among pairings of equal cost the
    search finds the one that pairs the earlier players with their cheapest partners
    first. Deterministic: the same arguments give the same pairs, each pair in the
    players' order, the bye last.
    """
    nodes: list[PlayerId | None] = list(players)
    if len(nodes) % 2:
        nodes.append(None)
    if not nodes:
        return []
    size = len(nodes)
    matrix = [[0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1, size):
            matrix[i][j] = matrix[j][i] = _cost(cost, nodes[i], nodes[j])
    best = _improved(_greedy(matrix), matrix)
    best = _branch_and_bound(matrix, best, node_limit)
    pairs = [_oriented(nodes[i], nodes[j]) for i, j in sorted(best)]
    return sorted(pairs, key=lambda pair: pair[1] is None)


def _cost(cost: Cost, a: PlayerId | None, b: PlayerId | None) -> int:
    if a is None:
        assert b is not None
        return cost(b, None)
    return cost(a, b)


def _oriented(a: PlayerId | None, b: PlayerId | None) -> Pair:
    if a is None:
        assert b is not None
        return (b, None)
    return (a, b)


def _total(pairs: list[tuple[int, int]], matrix: list[list[int]]) -> int:
    return sum(matrix[i][j] for i, j in pairs)


def _greedy(matrix: list[list[int]]) -> list[tuple[int, int]]:
    """The first unpaired node with its cheapest unpaired partner, down the order."""
    left = list(range(len(matrix)))
    pairs = []
    while left:
        first = left.pop(0)
        partner = min(left, key=lambda j: (matrix[first][j], j))
        left.remove(partner)
        pairs.append((first, partner))
    return pairs


def _improved(pairs: list[tuple[int, int]], matrix: list[list[int]]) -> list[tuple[int, int]]:
    """Swap partners between two pairs while that lowers the cost."""
    pairs = list(pairs)
    better = True
    while better:
        better = False
        for x in range(len(pairs)):
            for y in range(x + 1, len(pairs)):
                (a, b), (c, d) = pairs[x], pairs[y]
                now = matrix[a][b] + matrix[c][d]
                crossed = matrix[a][c] + matrix[b][d]
                swapped = matrix[a][d] + matrix[b][c]
                if crossed < now and crossed <= swapped:
                    pairs[x], pairs[y] = (min(a, c), max(a, c)), (min(b, d), max(b, d))
                    better = True
                elif swapped < now:
                    pairs[x], pairs[y] = (min(a, d), max(a, d)), (min(b, c), max(b, c))
                    better = True
    return pairs


def _branch_and_bound(
    matrix: list[list[int]], start: list[tuple[int, int]], node_limit: int
) -> list[tuple[int, int]]:
    """The cheapest perfect matching, or the best found within ``node_limit`` nodes.

    Bound: each unpaired node will cost at least half its cheapest edge."""
    size = len(matrix)
    cheapest = [min(row[j] for j in range(size) if j != i) for i, row in enumerate(matrix)]
    partners = [
        sorted((j for j in range(size) if j != i), key=lambda j: (row[j], j))
        for i, row in enumerate(matrix)
    ]
    best = list(start)
    best_cost = _total(best, matrix)
    paired = [False] * size
    chosen: list[tuple[int, int]] = []
    nodes = 0

    def search(cost: int, bound_left: int) -> None:
        nonlocal best, best_cost, nodes
        nodes += 1
        if nodes > node_limit:
            return
        first = next((i for i in range(size) if not paired[i]), None)
        if first is None:
            if cost < best_cost:
                best, best_cost = list(chosen), cost
            return
        if 2 * cost + bound_left >= 2 * best_cost:
            return
        paired[first] = True
        for partner in partners[first]:
            if paired[partner]:
                continue
            step = matrix[first][partner]
            if (
                2 * (cost + step) + bound_left - cheapest[first] - cheapest[partner]
                >= 2 * best_cost
            ):
                continue
            paired[partner] = True
            chosen.append((first, partner))
            search(cost + step, bound_left - cheapest[first] - cheapest[partner])
            chosen.pop()
            paired[partner] = False
        paired[first] = False

    search(0, sum(cheapest))
    return best
