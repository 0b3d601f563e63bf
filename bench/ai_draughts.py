"""Draughts search: the depth the ``hard`` player reaches and its nodes per second.

For each ruleset, the ``hard`` search (`bot.ai.draughts_search`, with the limits the
``hard`` player uses) runs from the opening and from every 10th position of the first
120 plies of two games between ``normal`` players; printed per position kind: the
depth finished, the nodes searched and nodes/s (one pinned CPU). The clock is the
search's share of a decision that didn't wait for a worker (0.902 s of the default
1 s: `bot.ai.budget.seconds_left`, then `SEARCH_SHARE`). ``--seconds S`` searches by
time only (no node budget), to show the depth a time budget reaches.

    python -m bench.ai_draughts [--quick] [--seconds S] [--json PATH]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from bench import common
from bot.ai import draughts as ai
from bot.ai.budget import cyclic_gc_paused, seconds_left
from bot.ai.draughts_search import FastSearcher
from bot.engines.base import SeededRng
from bot.engines.draughts import ENGINE, Position, position_of

RULESETS = ("give-and-take", "turkish")


def sample_positions(ruleset: str, games: int) -> list[tuple[Position, int]]:
    """Every 10th position (with its quiet plies) of ``games`` games between ``normal``."""
    found: list[tuple[Position, int]] = []
    normal = ai.PLAYERS["normal"]
    for game in range(games):
        state = ENGINE.new_game(
            ["w", "b"], game, ENGINE.Options.model_validate({"ruleset": ruleset})
        )
        rng = SeededRng.from_seed(game)
        ply = 0
        while not ENGINE.is_over(state) and ply < 120:
            (player,) = ENGINE.to_act(state)
            view = ENGINE.view(state, player)
            if ply % 10 == 5:
                found.append((position_of(state), view.quiet_plies))
            action = normal(view, SeededRng.from_seed(rng.next_u64()))
            state = ENGINE.apply(state, player, str(action))
            ply += 1
    return found


def measure(
    position: Position, quiet: int, nodes: int | None, seconds: float | None
) -> tuple[int, int, float]:
    board = list(position.board)
    last = -1 if position.last_moved is None else position.last_moved
    moves = [(move.path, move.captured) for move in position.legal_moves()]
    with cyclic_gc_paused():  # as the hard player searches
        result = FastSearcher(position.turkish, nodes, seconds, quiet).search(
            board, position.side, last, moves
        )
    return result.depth, result.nodes, result.seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = common.parser("Draughts hard search: depth reached and nodes/s, one core")
    parser.add_argument("--seconds", type=float, help="search by time only, this many seconds")
    args = parser.parse_args(argv)
    common.print_machine()
    nodes: int | None = ai.FAST_NODES
    now = time.time()
    seconds: float | None = seconds_left(now, now) * ai.SEARCH_SHARE
    if args.seconds:
        nodes, seconds = None, args.seconds
    games = 1 if args.quick else 2
    results: list[dict[str, Any]] = []
    with common.one_cpu() as cpu:
        print(f"Pinned to CPU {cpu}." if cpu is not None else "Could not pin to one CPU.")
        print(f"Budget: {nodes or 'no'} nodes, {seconds:.3f} s of search per decision.")
        rows: list[list[common.Cell]] = []
        for ruleset in RULESETS:
            depth, searched, took = measure(Position.initial(ruleset), 0, nodes, seconds)  # type: ignore[arg-type]
            rows.append([ruleset, "opening", 1, depth, depth, searched, took, searched / took])
            results.append(
                {
                    "ruleset": ruleset,
                    "kind": "opening",
                    "depth": depth,
                    "nodes": searched,
                    "seconds": took,
                }
            )
            measured = [measure(p, q, nodes, seconds) for p, q in sample_positions(ruleset, games)]
            measured = [m for m in measured if m[0] > 0]
            if measured:
                depths = [m[0] for m in measured]
                total_nodes = sum(m[1] for m in measured)
                total_seconds = sum(m[2] for m in measured)
                rows.append(
                    [
                        ruleset,
                        "game positions",
                        len(measured),
                        min(depths),
                        common.median([float(d) for d in depths]),
                        total_nodes // len(measured),
                        total_seconds / len(measured),
                        total_nodes / total_seconds,
                    ]
                )
                results.append(
                    {
                        "ruleset": ruleset,
                        "kind": "game positions",
                        "positions": len(measured),
                        "depth_min": min(depths),
                        "depths": depths,
                        "nodes": total_nodes,
                        "seconds": total_seconds,
                    }
                )
        common.print_table(
            "Draughts hard search, one decision per position",
            [
                "ruleset",
                "positions",
                "count",
                "depth (min)",
                "depth (median)",
                "nodes (mean)",
                "seconds (mean)",
                "nodes/s",
            ],
            rows,
            digits=2,
        )
    common.write_json(args.json, "ai_draughts", {"results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
