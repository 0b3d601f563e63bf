"""Perft from the start position, single core: nodes per second for both draughts
rulesets, beside the `pydraughts` package's Turkish variant as the peer.

Perft counts the move sequences of a given length (leaf nodes); both sides count the
last ply by the length of the move list (bulk counting). Turkish draughts has
published figures (8, 64, 708, 7538, 85090 for depths 1–5) that ours must match.

    python -m bench.perft [--quick] [--json PATH] [--depth N] [--peer-depth N]

pydraughts is slow (hundreds of nodes per second), so by default it runs one ply
shallower than ours: nodes per second still compare, the counts are checked against
the published ones at its own depth.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from bench import common
from bot.engines.draughts import Position, Ruleset, perft

TURKISH_PERFT = {1: 8, 2: 64, 3: 708, 4: 7538, 5: 85090}
"""Published Turkish draughts perft from the start position."""

PEER_PACKAGE = "pydraughts"
PEER_KING_NOTE = (
    "pydraughts 0.6.7 agrees with ours on every move list we compared without kings "
    "(827 positions from random Turkish games) and on the published start counts "
    "(depths 1–4 checked); "
    "its Turkish kings slide through pieces, e.g. W:WKa1,a3:Bh8,g8 lists a1-a4 … a1-a8 "
    "past the man on a3, so its counts drift once kings appear (not within 5 plies "
    "of the start)."
)


@dataclass(frozen=True)
class Settings:
    depth: int
    peer_depth: int
    rounds: int


DEFAULT = Settings(depth=5, peer_depth=4, rounds=3)
QUICK = Settings(depth=4, peer_depth=3, rounds=1)


@dataclass
class Row:
    implementation: str
    ruleset: Ruleset
    depth: int
    nodes: int
    seconds: list[float] = field(default_factory=list)
    """CPU seconds, one per round."""

    @property
    def expected(self) -> int | None:
        return TURKISH_PERFT.get(self.depth) if self.ruleset == "turkish" else None

    @property
    def median_seconds(self) -> float:
        return common.median(self.seconds)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.median_seconds if self.median_seconds > 0 else float("inf")

    def as_json(self) -> dict[str, Any]:
        return {
            "implementation": self.implementation,
            "ruleset": self.ruleset,
            "depth": self.depth,
            "nodes": self.nodes,
            "expected": self.expected,
            "matches_expected": None if self.expected is None else self.nodes == self.expected,
            "round_seconds": self.seconds,
            "seconds": self.median_seconds,
            "nodes_per_second": self.nodes_per_second,
        }


def timed(count: Callable[[], int]) -> tuple[int, float]:
    """Run ``count`` once; its result and the CPU seconds it took (this thread only, so
    time the core spends on other processes is not counted)."""
    gc.collect()
    start = time.thread_time()
    nodes = count()
    return nodes, time.thread_time() - start


# --- ours ------------------------------------------------------------------------------


def measure_ours(ruleset: Ruleset, depth: int, rounds: int) -> Row:
    start = Position.initial(ruleset)
    perft(start, max(depth - 2, 1))  # warm-up
    row: Row | None = None
    for _ in range(rounds):
        nodes, seconds = timed(lambda: perft(start, depth))
        if row is None:
            row = Row("ours", ruleset, depth, nodes)
        assert nodes == row.nodes, "perft is not deterministic"
        row.seconds.append(seconds)
    assert row is not None
    return row


# --- the peer --------------------------------------------------------------------------


class PeerUnavailable(Exception):
    """pydraughts can't be imported here; the message says why."""


def peer_perft() -> tuple[str, Callable[[int], int]]:
    """pydraughts' Turkish board: push/pop over ``legal_moves()``, bulk counting the last
    ply as ours does. Returns its label and ``depth -> nodes``."""
    try:
        draughts = importlib.import_module("draughts")
        version = metadata.version(PEER_PACKAGE)
    except Exception as error:  # not installed, or broken on import
        raise PeerUnavailable(
            f"the peer package {PEER_PACKAGE} can't be imported ({error}); "
            "install it with: pip install -e '.[bench]'"
        ) from error

    def count(board: Any, depth: int) -> int:
        moves = board.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += count(board, depth - 1)
            board.pop()
        return total

    def run(depth: int) -> int:
        return count(draughts.Board(variant="turkish"), depth)

    return f"{PEER_PACKAGE} {version}", run


def measure_peer(run: Callable[[int], int], label: str, depth: int) -> Row:
    run(1)  # warm-up
    nodes, seconds = timed(lambda: run(depth))
    return Row(label, "turkish", depth, nodes, [seconds])


# --- output ----------------------------------------------------------------------------


def print_rows(rows: Sequence[Row]) -> None:
    headers = [
        "implementation",
        "ruleset",
        "depth",
        "nodes",
        "published",
        "counts match",
        "CPU s",
        "nodes/s",
    ]
    table: list[list[common.Cell]] = [
        [
            row.implementation,
            row.ruleset,
            row.depth,
            row.nodes,
            row.expected,
            None if row.expected is None else ("yes" if row.nodes == row.expected else "NO"),
            row.median_seconds,
            round(row.nodes_per_second),
        ]
        for row in rows
    ]
    common.print_table(
        "Draughts perft from the start position, one core (median round)",
        headers,
        table,
        digits=3,
    )


def print_counts(ours: dict[Ruleset, list[int]], peer: list[int] | None, label: str) -> None:
    depth = len(ours["turkish"])
    headers = ["depth", "published Turkish", "ours Turkish", f"{label} Turkish", "ours G&T"]
    table: list[list[common.Cell]] = [
        [
            d,
            TURKISH_PERFT.get(d),
            ours["turkish"][d - 1],
            peer[d - 1] if peer is not None and d <= len(peer) else None,
            ours["give-and-take"][d - 1],
        ]
        for d in range(1, depth + 1)
    ]
    common.print_table("Perft counts by depth", headers, table)


def main(argv: Sequence[str] | None = None) -> int:
    parser = common.parser("Draughts perft nodes per second on one core, ours and pydraughts'")
    parser.add_argument("--depth", type=int, help="our perft depth (default 5, 4 with --quick)")
    parser.add_argument(
        "--peer-depth",
        type=int,
        help="pydraughts' perft depth (default 4, 3 with --quick; 5 takes minutes)",
    )
    args = parser.parse_args(argv)
    common.print_machine()
    with common.one_cpu() as cpu:
        run(args, cpu)
    return 0


def run(args: argparse.Namespace, cpu: int | None) -> None:
    base = QUICK if args.quick else DEFAULT
    settings = Settings(
        depth=args.depth or base.depth,
        peer_depth=args.peer_depth or base.peer_depth,
        rounds=base.rounds,
    )
    print(
        f"Pinned to CPU {cpu}." if cpu is not None else "Could not pin to one CPU.",
        f"Ours: depth {settings.depth}, {settings.rounds} round(s) per ruleset; "
        f"peer: depth {settings.peer_depth}, one round. CPU time.",
    )
    rulesets: tuple[Ruleset, ...] = ("give-and-take", "turkish")
    rows = [measure_ours(ruleset, settings.depth, settings.rounds) for ruleset in rulesets]
    counts = {
        ruleset: [perft(Position.initial(ruleset), d) for d in range(1, settings.depth + 1)]
        for ruleset in rulesets
    }

    notes: list[str] = []
    peer_label = "peer"
    peer_problem: str | None = None
    peer_counts: list[int] | None = None
    try:
        peer_label, peer_run = peer_perft()
    except PeerUnavailable as error:
        peer_problem = str(error)
        notes.append(f"peer not measured: {peer_problem}")
    else:
        peer_row = measure_peer(peer_run, peer_label, settings.peer_depth)
        rows.append(peer_row)
        peer_counts = [peer_run(d) for d in range(1, settings.peer_depth)] + [peer_row.nodes]
        ours_turkish = rows[1]
        ratio = ours_turkish.nodes_per_second / peer_row.nodes_per_second
        notes.append(
            f"ours/peer Turkish nodes per second: {ratio:,.0f}× (ours at depth "
            f"{settings.depth}, {peer_label} at depth {settings.peer_depth})."
        )
        mismatched = [
            d for d, n in enumerate(peer_counts, start=1) if TURKISH_PERFT.get(d) not in (None, n)
        ]
        if mismatched:
            notes.append(f"{peer_label} differs from the published counts at depths {mismatched}.")
        notes.append(PEER_KING_NOTE)
    notes.append(
        "give-and-take has no published figures; it differs from Turkish from ply 4 "
        "(optional captures, the last-moved-piece rule)."
    )
    print_rows(rows)
    print_counts(counts, peer_counts, peer_label)
    common.print_notes(notes)
    common.write_json(
        args.json,
        "perft",
        {
            "settings": {**settings.__dict__, "quick": args.quick, "pinned_cpu": cpu},
            "peer": peer_label if peer_problem is None else None,
            "peer_unavailable": peer_problem,
            "rows": [row.as_json() for row in rows],
            "counts": {
                "published_turkish": TURKISH_PERFT,
                "ours": counts,
                "peer_turkish": peer_counts,
            },
            "notes": notes,
        },
    )


if __name__ == "__main__":
    raise SystemExit(main())
