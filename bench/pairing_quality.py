"""Swiss pairing quality on random events: ours, the library used directly, and a naive
baseline, on the same events in the same run.

Each event draws 8–40 players and 4–7 rounds, and every player a hidden strength
(normal, σ 1); a game between ``a`` and ``b`` is drawn one time in ten, else ``a``
wins with probability 1 / (1 + e^(sb − sa)). A game's outcome depends only on the
event, the round and the two players, so every pairer meets the same luck. No
computer fills odd fields: they play with a bye a round (a win).

Pairers:

- ``ours``: `bot.tournament` as the bot runs it (``start``, ``record_result``,
  ``advance``): pairing-core's Dutch with blank colours and a step budget, and our
  least-cost pairing when it refuses;
- ``pairing-core``: the library on its own as its README shows it, with the colour
  histories it assigned (as a chess event keeps them) and the byes, the same step
  budget; no fallback: an event it can't pair a round of stops there, counted under
  "failed". Float histories are left out here too: with them it runs out of steps on
  about one round in sixteen (12 of 40 events; 30–75 s each at its default budget of
  2,000,000 nodes, often failing still), which would take this bench past its time;
- ``naive``: by score, each player in turn with the next one below not yet met (or
  the next one), the bye to the lowest score without one.

Reported per pairer: rematches (in all and per event; for ours, how many of them
were avoidable, a rematch-free pairing of that round with no second bye existing,
checked by trying every pairing in fields of up to 20), byes per player in the
odd-numbered events (the largest, and how many players took 0, 1, 2 or more), the
score gap between partners before their game (mean, 95th percentile, largest), and
the time to pair a round.

    python -m bench.pairing_quality [--quick] [--events N] [--seed S] [--json PATH]
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pairing_core import (  # type: ignore[import-untyped]
    DUTCH_TILL2026_COMPAT,
    CanonicalPlayer,
    CanonicalRequest,
    ExecutionBudgets,
    PairingError,
    pair_canonical,
)

from bench import common
from bot.tournament import Tournament, advance, create, join, record_result, start
from bot.tournament.scoring import totals
from bot.tournament.swiss import STEP_BUDGET

EVENTS = 1000
QUICK_EVENTS = 40
DRAW_SHARE = 0.1
CHECKED_FIELD = 20
"""The largest field whose rematches are checked for a rematch-free alternative (the
check tries every pairing, exponential in the worst case)."""


@dataclass(frozen=True)
class Event:
    number: int
    players: int
    rounds: int
    strengths: dict[str, float]


@dataclass
class Player:
    """A player's record in the simple simulations (the library's and the naive)."""

    number: int
    score: float = 0.0
    opponents: list[int] = field(default_factory=list)
    colours: str = ""
    byes: int = 0


@dataclass
class Figures:
    """One pairer's tally over all events."""

    name: str
    events: int = 0
    failed: int = 0
    rounds: int = 0
    rematches: int = 0
    avoidable: int | None = None
    """Rematches made where a rematch-free pairing existed (checked for ours only)."""
    unchecked: int = 0
    """Rematches in fields above ``CHECKED_FIELD``, not checked."""
    rematches_per_event: list[int] = field(default_factory=list)
    byes_per_player: Counter[int] = field(default_factory=Counter)
    gaps: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        gaps = self.gaps or [0.0]
        per_event = self.rematches_per_event or [0]
        return {
            "pairer": self.name,
            "events": self.events,
            "events_failed": self.failed,
            "rounds_paired": self.rounds,
            "rematches": self.rematches,
            "rematches_avoidable": self.avoidable,
            "rematches_unchecked": self.unchecked,
            "rematches_per_event_mean": sum(per_event) / len(per_event),
            "rematches_per_event_max": max(per_event),
            "events_with_rematches": sum(1 for n in per_event if n),
            "byes_per_player_max": max(self.byes_per_player, default=0),
            "players_by_byes": {str(k): v for k, v in sorted(self.byes_per_player.items())},
            "score_gap_mean": sum(gaps) / len(gaps),
            "score_gap_p95": common.percentile(gaps, 95),
            "score_gap_max": max(gaps),
            "pairing_ms_mean": 1000 * sum(self.seconds) / max(len(self.seconds), 1),
            "pairing_ms_max": 1000 * max(self.seconds, default=0.0),
        }


def events(count: int, seed: int) -> list[Event]:
    rng = random.Random(seed)
    made = []
    for number in range(count):
        players = rng.randint(8, 40)
        rounds = rng.randint(4, 7)
        strengths = {f"p{i}": rng.gauss(0, 1) for i in range(1, players + 1)}
        made.append(Event(number, players, rounds, strengths))
    return made


def outcome(event: Event, round_number: int, a: str, b: str) -> float:
    """``a``'s points against ``b`` (1, ½ or 0), the same whoever paired them."""
    first, second = sorted((a, b))
    rng = random.Random(f"{event.number}:{round_number}:{first}:{second}")
    if rng.random() < DRAW_SHARE:
        return 0.5
    wins = 1 / (1 + math.exp(event.strengths[second] - event.strengths[first]))
    result = 1.0 if rng.random() < wins else 0.0
    return result if a == first else 1 - result


# ----- ours: the tournament as the bot runs it -----------------------------------------


def run_ours(event: Event, figures: Figures) -> None:
    tournament = create(
        id=f"bench{event.number}",
        game="draughts",
        format="swiss",
        round_count=event.rounds,
        round_seconds=600,
        computer_fill=False,
        organiser="p1",
        min_players=2,
        table_min=2,
        table_max=2,
        seed=event.number,
    )
    for player in event.strengths:
        tournament = join(tournament, player, player)
    clock = time.perf_counter()
    tournament = start(tournament, 0.0)
    figures.seconds.append(time.perf_counter() - clock)
    rematches = 0
    met: set[frozenset[str]] = set()
    while tournament.state == "running":
        current = tournament.current
        assert current is not None
        points = totals(tournament)
        repeated = sum(frozenset(table.seats) in met for table in current.tables)
        if repeated and event.players > CHECKED_FIELD:
            figures.unchecked += repeated
        elif repeated:
            byes = Counter(p for round_ in tournament.rounds[:-1] for p in round_.byes)
            if clean_pairing_exists(list(event.strengths), met, byes):
                figures.avoidable = (figures.avoidable or 0) + repeated
        rematches += repeated
        for table in current.tables:
            a, b = table.seats
            met.add(frozenset(table.seats))
            figures.gaps.append(abs(float(points[a] - points[b])))
            score = outcome(event, current.number, a, b)
            places = {a: 1, b: 1} if score == 0.5 else {a: 1, b: 2} if score else {a: 2, b: 1}
            tournament = record_result(tournament, table.id, places)
        figures.rounds += 1
        clock = time.perf_counter()
        tournament = advance(tournament, 0.0)
        if tournament.state == "running":
            figures.seconds.append(time.perf_counter() - clock)
    _byes(tournament, event, figures)
    figures.events += 1
    figures.rematches += rematches
    figures.rematches_per_event.append(rematches)


def clean_pairing_exists(
    players: Sequence[str], met: set[frozenset[str]], byes: Counter[str]
) -> bool:
    """Whether a round could have been paired with no rematch and no second bye: every
    pairing tried, with a memo over who is left (small fields only: rematches are
    forced only there)."""

    @functools.cache
    def pairable(left: frozenset[str], bye_open: bool) -> bool:
        if not left:
            return not bye_open
        first = min(left)
        rest = left - {first}
        if bye_open and byes[first] == 0 and pairable(rest, False):
            return True
        return any(
            frozenset((first, other)) not in met and pairable(rest - {other}, bye_open)
            for other in rest
        )

    return pairable(frozenset(players), len(players) % 2 == 1)


def _byes(tournament: Tournament, event: Event, figures: Figures) -> None:
    if event.players % 2:
        byes = Counter(p for round_ in tournament.rounds for p in round_.byes)
        figures.byes_per_player.update(byes[p] for p in event.strengths)


# ----- the library on its own, and the naive baseline ----------------------------------

Pairing = tuple[list[tuple[int, int]], list[int]]
Pairer = Callable[[dict[int, Player], int], Pairing]


def library_pairing(players: dict[int, Player], round_number: int) -> Pairing:
    """pairing-core as its README shows it; raises `PairingError` when it can't."""
    request = CanonicalRequest(
        players=tuple(
            CanonicalPlayer(
                id=p.number,
                pairing_no=p.number,
                rating=0,
                points=p.score,
                color_hist=p.colours,
                opponents=tuple(sorted(set(p.opponents))),
                received_bye=p.byes > 0,
            )
            for p in players.values()
        ),
        ruleset=DUTCH_TILL2026_COMPAT,
        round_number=round_number,
        budgets=ExecutionBudgets(max_steps=STEP_BUDGET),
    )
    result = pair_canonical(request)
    pairs = [(b.white_id, b.black_id) for b in result.pairings if not b.is_bye]
    byes = [b.white_id for b in result.pairings if b.is_bye]
    return pairs, byes


def naive_pairing(players: dict[int, Player], round_number: int) -> Pairing:
    """By score; each in turn with the next one below not yet met, or else the next."""
    order = sorted(players.values(), key=lambda p: (-p.score, p.number))
    byes: list[int] = []
    if len(order) % 2:
        fresh = [p for p in order if p.byes == 0] or order
        bye = fresh[-1]
        byes.append(bye.number)
        order.remove(bye)
    pairs = []
    while order:
        first = order.pop(0)
        partner = next((p for p in order if p.number not in first.opponents), order[0])
        order.remove(partner)
        pairs.append((first.number, partner.number))
    return pairs, byes


def run_simple(event: Event, pairer: Pairer, figures: Figures) -> None:
    names = list(event.strengths)
    players = {n: Player(n) for n in range(1, len(names) + 1)}
    rematches = 0
    for round_number in range(1, event.rounds + 1):
        clock = time.perf_counter()
        try:
            pairs, byes = pairer(players, round_number)
        except PairingError:
            figures.failed += 1
            break
        figures.seconds.append(time.perf_counter() - clock)
        figures.rounds += 1
        before = {n: p.score for n, p in players.items()}
        for number in byes:
            player = players[number]
            player.score += 1
            player.byes += 1
            player.colours += "-"
        for white, black in pairs:
            a, b = players[white], players[black]
            rematches += black in a.opponents
            figures.gaps.append(abs(before[white] - before[black]))
            score = outcome(event, round_number, names[white - 1], names[black - 1])
            for me, other, colour, points in ((a, b, "w", score), (b, a, "b", 1 - score)):
                me.score += points
                me.opponents.append(other.number)
                me.colours += colour
    figures.events += 1
    figures.rematches += rematches
    figures.rematches_per_event.append(rematches)
    if event.players % 2:
        figures.byes_per_player.update(p.byes for p in players.values())


# ----- the report ------------------------------------------------------------------------


def report(summaries: Sequence[dict[str, Any]], count: int) -> None:
    headers = [
        "pairer",
        "events failed",
        "rematches (avoidable)",
        "per event (mean / max)",
        "events with one",
        "byes per player (max)",
        "players with 0 / 1 / 2+ byes",
        "score gap (mean / p95 / max)",
        "ms per round (mean / max)",
    ]
    print()
    print(f"Pairing quality, {count} random Swiss events (8–40 players, 4–7 rounds):")
    print()
    print("| " + " | ".join(headers) + " |")
    print("|" + "|".join("---" for _ in headers) + "|")
    for s in summaries:
        by_byes = s["players_by_byes"]
        two_plus = sum(v for k, v in by_byes.items() if int(k) >= 2)
        cells = [
            s["pairer"],
            f"{s['events_failed']}",
            f"{s['rematches']:,} ({_maybe(s['rematches_avoidable'])})",
            f"{s['rematches_per_event_mean']:.3f} / {s['rematches_per_event_max']}",
            f"{s['events_with_rematches']}",
            f"{s['byes_per_player_max']}",
            f"{by_byes.get('0', 0):,} / {by_byes.get('1', 0):,} / {two_plus:,}",
            f"{s['score_gap_mean']:.3f} / {s['score_gap_p95']:.1f} / {s['score_gap_max']:.1f}",
            f"{s['pairing_ms_mean']:.1f} / {s['pairing_ms_max']:.0f}",
        ]
        print("| " + " | ".join(cells) + " |")


def _maybe(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = common.parser("Swiss pairing quality: ours, pairing-core alone, naive")
    parser.add_argument("--events", type=int, help=f"events to pair (default {EVENTS})")
    parser.add_argument("--seed", type=int, default=45, help="draws the events (default 45)")
    args = parser.parse_args(argv)
    count = args.events or (QUICK_EVENTS if args.quick else EVENTS)
    common.print_machine()
    drawn = events(count, args.seed)
    ours, library, naive = Figures("ours", avoidable=0), Figures("pairing-core"), Figures("naive")
    started = time.perf_counter()
    for event in drawn:
        run_ours(event, ours)
        run_simple(event, library_pairing, library)
        run_simple(event, naive_pairing, naive)
    elapsed = time.perf_counter() - started
    summaries = [figures.summary() for figures in (ours, library, naive)]
    report(summaries, count)
    common.print_notes(
        [
            f"{sum(e.players for e in drawn):,} players in {count} events, "
            f"{sum(e.rounds for e in drawn):,} rounds; {elapsed:.0f} s in all",
            "score gap: |points − points| of partners before their game",
            "byes: the odd-numbered events' players only",
            "avoidable: rematches in a round that had a rematch-free pairing (ours only; "
            f"{ours.unchecked} in fields over {CHECKED_FIELD} not checked)",
        ]
    )
    common.write_json(
        args.json,
        "pairing_quality",
        {"events": count, "seed": args.seed, "results": summaries},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
