"""The least-cost pairing, checked against every pairing of small fields."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.matching import Pair, min_cost_pairing


def all_pairings(players: list[str | None]) -> Iterator[list[tuple[str | None, str | None]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for others in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *others]


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    st.integers(min_value=1, max_value=9).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(0, 50), min_size=(n + 1) * (n + 1), max_size=(n + 1) * (n + 1)),
        )
    )
)
def test_the_pairing_costs_no_more_than_the_cheapest(case: tuple[int, list[int]]) -> None:
    count, flat = case
    players = [f"p{i}" for i in range(count)]
    index = {p: i for i, p in enumerate(players)}

    def cost(a: str, b: str | None) -> int:
        i, j = index[a], count if b is None else index[b]
        low, high = min(i, j), max(i, j)
        return flat[low * (count + 1) + high]

    def total(pairs: list[Pair]) -> int:
        return sum(cost(a, b) for a, b in pairs)

    found = min_cost_pairing(players, cost)
    seated = [p for pair in found for p in pair if p is not None]
    assert sorted(seated) == sorted(players)
    assert sum(b is None for _, b in found) == count % 2
    nodes: list[str | None] = [*players, None] if count % 2 else list(players)

    def either_way(a: str | None, b: str | None) -> int:
        if a is None:
            assert b is not None
            return cost(b, None)
        return cost(a, b)

    cheapest = min(sum(either_way(a, b) for a, b in pairing) for pairing in all_pairings(nodes))
    assert total(found) == cheapest


def test_greedy_would_pair_worse() -> None:
    """a–b is cheapest, but it leaves c–d at a high price; a–c, b–d is cheaper."""
    prices = {
        ("a", "b"): 0,
        ("c", "d"): 10,
        ("a", "c"): 1,
        ("b", "d"): 1,
        ("a", "d"): 9,
        ("b", "c"): 9,
    }

    def cost(x: str, y: str | None) -> int:
        assert y is not None
        return prices.get((x, y), prices.get((y, x), 0))

    assert min_cost_pairing(["a", "b", "c", "d"], cost) == [("a", "c"), ("b", "d")]


def test_a_search_cut_short_still_pairs_everyone() -> None:
    players = [f"p{i}" for i in range(41)]

    def cost(a: str, b: str | None) -> int:
        return 0 if b is None else (int(a[1:]) * 7 + int(b[1:]) * 13) % 11

    pairs = min_cost_pairing(players, cost, node_limit=50)
    assert sorted(p for pair in pairs for p in pair if p is not None) == sorted(players)
    assert pairs[-1][1] is None


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(0, 30), min_size=16 * 16, max_size=16 * 16))
def test_a_search_cut_off_at_once_still_leaves_no_saving_swap(flat: list[int]) -> None:
    """Without the exact search, the greedy pairing is improved until no exchange of
    partners between two pairs would lower the cost."""
    players = [f"p{i}" for i in range(15)]
    index = {p: i for i, p in enumerate(players)}

    def cost(a: str, b: str | None) -> int:
        i, j = index[a], 15 if b is None else index[b]
        return flat[min(i, j) * 16 + max(i, j)]

    def either_way(a: str | None, b: str | None) -> int:
        if a is None:
            assert b is not None
            return cost(b, None)
        return cost(a, b)

    pairs = min_cost_pairing(players, cost, node_limit=0)
    for x, (a, b) in enumerate(pairs):
        for c, d in pairs[x + 1 :]:
            now = either_way(a, b) + either_way(c, d)
            assert either_way(a, c) + either_way(b, d) >= now
            assert either_way(a, d) + either_way(b, c) >= now
