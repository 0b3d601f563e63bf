"""Computer players: how often each level wins, and how long it thinks, single core.

For every registered game (`bot.games`: its engine and its computer players), each
level plays seeded games at the game's typical player count against uniformly random
players (`choose_uniform` on the state) and, above easy, against the level below. The
measured seat rotates: game ``g`` puts it in seat ``g % players`` and deals deck
``g // players``, so each deal is played from every seat. A computer seat is handed
its own view only, as in the bot.

Reported per pairing: wins (sole first place) with their 95 % (Wilson) interval, shared
first places, the score (a win 1, a shared first place ½; in two-player games that is
win 1, draw ½) with its interval, average place, and the median, p99 and longest time
per decision of the measured level (its chooser call only, view built beforehand).

The opponent ``previous`` is the game's ``hard`` player before issue 28
(`previous_players`), so a new ``hard`` can be measured against the old one; it plays
only when asked for: ``--pairing hard:previous``.
Opponent pools (issue 43): ``--pool NAME`` plays ``hard`` and then ``normal`` in the
measured seat, on the same games (deals, seats, seat generators), against a table of one
pool's player (`bench.opponents`: ``easy``, ``normal``, ``random``, and each game's
outside and style players; ``--pool all`` for every one of the game's). Reported per
pool: each level's share (sole wins; the score in two-player games) with its 95 %
Wilson interval, and hard − normal with Newcombe's interval built from the two.
``--option ruleset=turkish`` passes an option to every game's ``new_game``.
``--think-seconds S`` sets the searching players' wall-clock safety net
(`bot.ai.budget`): on a busy machine a larger one lets the node budgets decide.

    python -m bench.ai [--quick] [--games N] [--game NAME] [--pairing LEVEL:OPPONENT]
                       [--pool NAME|all] [--option KEY=VALUE] [--first N]
                       [--think-seconds S] [--json PATH]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bench import common
from bench.opponents import Pool, PoolUnavailable, pools_for
from bench.scenes import player_ids
from bot.ai import LEVELS, Chooser, Level
from bot.ai.budget import DEFAULT_THINK_SECONDS, set_think_seconds, think_seconds
from bot.ai.random_player import choose_uniform
from bot.engines.base import Engine, SeededRng
from bot.games import GAMES
from bot.games import game as registered

WIN_TARGETS: dict[tuple[str, Level], float] = {
    ("draughts", "hard"): 0.90,
    ("geschenkt", "hard"): 0.60,
}
"""Targets: the level wins at least this share of games against random players."""

MAX_DECISION_P99_SECONDS = 1.0
"""Target: every level's p99 time per decision stays under a second."""

DEFAULT_GAMES = 500
QUICK_GAMES = 20
MAX_ACTIONS = 20_000
"""A game longer than this is a bug (a player or engine that never ends it)."""

Opponent = Level | Literal["random", "previous"]


def previous_players() -> dict[str, Chooser]:
    """Each game's ``hard`` player as it was before issue 28, where it changed
    (`bench.previous`)."""
    from bench.previous import draughts as previous_draughts
    from bench.previous import escalation as previous_escalation
    from bench.previous import geschenkt as previous_geschenkt
    from bench.previous import take as previous_take

    return {
        "draughts": previous_draughts.PREVIOUS_HARD,
        "escalation": previous_escalation.rollout_player(),
        "geschenkt": previous_geschenkt.PREVIOUS_HARD,
        "take": previous_take.PREVIOUS_HARD,
    }


Z95 = 1.959963984540054


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (a draw may count ½)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # The interval always holds p; the clamps keep rounding from pushing it out.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def interval_text(successes: float, trials: int) -> str:
    low, high = wilson(successes, trials)
    return f"{100 * low:.1f}–{100 * high:.1f}"


def difference_interval(
    successes_a: float, trials_a: int, successes_b: float, trials_b: int
) -> tuple[float, float]:
    """The 95 % interval of the difference of two proportions (a − b), built from their
    two `wilson` intervals (Newcombe's hybrid score interval). It treats the two as
    independent samples; played on the same seeds they are not, and the interval is
    then usually wider than a paired one would be (it errs on the safe side)."""
    if trials_a <= 0 or trials_b <= 0:
        return (-1.0, 1.0)
    a, b = successes_a / trials_a, successes_b / trials_b
    low_a, high_a = wilson(successes_a, trials_a)
    low_b, high_b = wilson(successes_b, trials_b)
    difference = a - b
    return (
        max(-1.0, difference - math.hypot(a - low_a, high_b - b)),
        min(1.0, difference + math.hypot(high_a - a, b - low_b)),
    )


SeatKindGames = Callable[[str], tuple[int, dict[str, Any]]]
"""Plays one seat kind's games: its sole wins, and any more figures for its JSON entry."""


def seat_bench_arguments(
    description: str,
    quick_games: int,
    argv: Sequence[str] | None,
    more: Callable[[argparse.ArgumentParser], object] | None = None,
) -> tuple[argparse.Namespace, int]:
    """The arguments of a bench that plays each seat kind on the same games (``--games``,
    ``--first``, the common ones and any that ``more`` adds), and how many games each
    kind plays."""
    parser = common.parser(description)
    if more is not None:
        more(parser)
    parser.add_argument(
        "--games", type=int, help=f"games per seat kind (default 400, --quick {quick_games})"
    )
    parser.add_argument("--first", type=int, default=0, help="start at game number N")
    args = parser.parse_args(argv)
    return args, args.games or (quick_games if args.quick else 400)


def play_seat_kinds(
    title: str, kinds: Sequence[str], first: int, games: int, play: SeatKindGames
) -> list[dict[str, Any]]:
    """Each seat kind's ``games`` games from number ``first`` (``play``), on one pinned
    CPU; prints the table (sole wins with their 95 % interval) and returns the entries
    for the JSON."""
    common.print_machine()
    rows: list[list[common.Cell]] = []
    results: list[dict[str, Any]] = []
    with common.one_cpu() as cpu:
        print(f"Pinned to CPU {cpu}." if cpu is not None else "Could not pin to one CPU.")
        for kind in kinds:
            wins, more = play(kind)
            low, high = wilson(wins, games)
            rows.append([kind, games, wins, wins / games, f"{low:.3f}–{high:.3f}"])
            results.append(
                {
                    "seat": kind,
                    "games": games,
                    "first": first,
                    "wins": wins,
                    "win_rate": wins / games,
                    "interval": [low, high],
                    **more,
                }
            )
    columns = ["seat", "games", "sole wins", "win rate", "95 % interval"]
    common.print_table(title, columns, rows, digits=3)
    return results


@dataclass
class Pairing:
    """One level in one seat against ``opponent`` in every other seat."""

    game: str
    level: Level
    opponent: str
    """A level, ``random``, ``previous`` or a pool's name (`bench.opponents`)."""
    players: int
    games: int = 0
    wins: int = 0
    """Sole first place."""
    shared_firsts: int = 0
    """First place shared with another player (a draw, or equal scores)."""
    place_total: int = 0
    decisions: list[float] = field(default_factory=list)
    """Seconds per decision of the measured level."""
    seconds: float = 0.0
    """Wall time of the whole pairing."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def shared_rate(self) -> float:
        return self.shared_firsts / self.games

    @property
    def score(self) -> float:
        """A win 1, a shared first place ½, per game."""
        return (self.wins + self.shared_firsts / 2) / self.games

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def score_interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.shared_firsts / 2, self.games)

    @property
    def average_place(self) -> float:
        return self.place_total / self.games

    def decision_ms(self, q: float) -> float | None:
        return 1000 * common.percentile(self.decisions, q) if self.decisions else None

    @property
    def win_target(self) -> float | None:
        if self.opponent != "random":
            return None
        return WIN_TARGETS.get((self.game, self.level))

    @property
    def win_target_met(self) -> bool | None:
        target = self.win_target
        return None if target is None else self.win_rate >= target

    @property
    def time_target_met(self) -> bool | None:
        p99 = self.decision_ms(99)
        return None if p99 is None else p99 <= 1000 * MAX_DECISION_P99_SECONDS

    def as_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "opponent": self.opponent,
            "players": self.players,
            "games": self.games,
            "wins": self.wins,
            "shared_firsts": self.shared_firsts,
            "win_rate": self.win_rate,
            "shared_rate": self.shared_rate,
            "win_interval_95": list(self.win_interval),
            "score": self.score,
            "score_interval_95": list(self.score_interval),
            "average_place": self.average_place,
            "decisions": len(self.decisions),
            "decision_median_ms": self.decision_ms(50),
            "decision_p99_ms": self.decision_ms(99),
            "decision_max_ms": self.decision_ms(100),
            "seconds": self.seconds,
            "win_target": self.win_target,
            "win_target_met": self.win_target_met,
            "target_p99_under_1s": self.time_target_met,
        }


def games_with_players() -> list[tuple[Engine[Any, Any, Any], Mapping[Level, Chooser]]]:
    """Every registered game with its computer players."""
    return [(spec.engine, spec.players) for spec in GAMES]


def pairings_for(players: Mapping[Level, Chooser]) -> list[tuple[Level, Opponent]]:
    """Each level against random players, and each but the first against the level
    below it."""
    levels = [level for level in LEVELS if level in players]
    result: list[tuple[Level, Opponent]] = []
    for k, level in enumerate(levels):
        result.append((level, "random"))
        if k > 0:
            result.append((level, levels[k - 1]))
    return result


def play_pairing(
    engine: Engine[Any, Any, Any],
    players: Mapping[Level, Chooser],
    level: Level,
    opponent: Opponent,
    count: int,
    games: int,
    options: Mapping[str, Any] | None = None,
    previous: Chooser | None = None,
    first: int = 0,
) -> Pairing:
    """``games`` games from game number ``first`` (seats and deals as described above);
    ``previous`` plays the opponent ``previous``."""
    other: Chooser | None
    if opponent == "random":
        other = None
    elif opponent == "previous":
        if previous is None:
            raise ValueError(f"{engine.name} has no previous hard player")
        other = previous
    else:
        other = players[opponent]
    return play_games(engine, players[level], level, opponent, other, count, games, options, first)


def play_games(
    engine: Engine[Any, Any, Any],
    chooser: Chooser,
    level: Level,
    opponent: str,
    other: Chooser | None,
    count: int,
    games: int,
    options: Mapping[str, Any] | None = None,
    first: int = 0,
) -> Pairing:
    """``chooser`` (the level ``level``) in the measured seat, ``other`` in every other
    seat (None: uniformly random legal actions, `choose_uniform` on the state), for
    ``games`` games from game number ``first``; ``opponent`` names the others."""
    ids = player_ids(count, 0)
    pairing = Pairing(engine.name, level, opponent, count)
    parsed = engine.Options.model_validate(dict(options)) if options else None
    started = time.perf_counter()
    for game in range(first, first + games):
        seat = game % count
        state = engine.new_game(ids, game // count, parsed)
        rngs = [SeededRng.from_seed((game << 8) + k) for k in range(count)]
        for _ in range(MAX_ACTIONS):
            if engine.is_over(state):
                break
            player = engine.to_act(state)[0]
            k = ids.index(player)
            rng = SeededRng.from_seed(rngs[k].next_u64())
            action: Any
            if k == seat:
                view = engine.view(state, player)
                tick = time.perf_counter()
                action = chooser(view, rng)
                pairing.decisions.append(time.perf_counter() - tick)
            elif other is None:
                action = choose_uniform(engine, state, player, rng)
            else:
                action = other(engine.view(state, player), rng)
            state = engine.apply(state, player, action)
        else:
            raise RuntimeError(
                f"{engine.name}: {level} against {opponent}, game {game} did not end "
                f"in {MAX_ACTIONS:,} actions"
            )
        places = engine.outcome(state).places
        place = places[ids[seat]]
        firsts = sum(1 for p in places.values() if p == 1)
        pairing.games += 1
        pairing.place_total += place
        if place == 1:
            if firsts == 1:
                pairing.wins += 1
            else:
                pairing.shared_firsts += 1
    pairing.seconds = time.perf_counter() - started
    return pairing


def print_pairings(name: str, count: int, rows: Sequence[Pairing]) -> None:
    headers = [
        "level",
        "against",
        "games",
        "wins %",
        "wins 95% CI",
        "shared 1st %",
        "score %",
        "score 95% CI",
        "avg place",
        "decisions",
        "median ms",
        "p99 ms",
        "max ms",
        "seconds",
        "target",
    ]
    table: list[list[common.Cell]] = []
    for row in rows:
        targets = []
        if row.win_target is not None:
            targets.append(
                f"wins ≥ {row.win_target:.0%}: {common.target(bool(row.win_target_met))}"
            )
        if row.time_target_met is not None:
            targets.append(f"p99 ≤ 1 s: {common.target(row.time_target_met)}")
        table.append(
            [
                row.level,
                row.opponent if row.opponent == "random" else f"{row.opponent} ×{count - 1}",
                row.games,
                100 * row.win_rate,
                interval_text(row.wins, row.games),
                100 * row.shared_rate,
                100 * row.score,
                interval_text(row.wins + row.shared_firsts / 2, row.games),
                row.average_place,
                len(row.decisions),
                row.decision_ms(50),
                row.decision_ms(99),
                row.decision_ms(100),
                row.seconds,
                "; ".join(targets),
            ]
        )
    common.print_table(
        f"{name}, {count} players: one seat at each level against the rest",
        headers,
        table,
        digits=3,
    )


def notes_for(count: int) -> list[str]:
    return [
        f"an even table wins {100 / count:.1f}% of games; places run 1–{count}, shared "
        "first places (draws, equal scores) are not wins.",
        "random: uniformly random legal actions (resigning and draw offers left out); "
        "previous: the hard player before issue 28.",
        "score: a win 1, a shared first place (a draw) ½; intervals: 95 % Wilson.",
        "times: the level's own decisions, one CPU; the view is built before the clock starts.",
    ]


# --- opponent pools (issue 43) -----------------------------------------------------------

POOL_LEVELS: tuple[Level, Level] = ("hard", "normal")
"""The levels measured against each pool, on the same games."""


def uses_score(players: int) -> bool:
    """Two-player games (draughts, TAKE) count a draw or a shared first place as half a
    win (the score); larger tables count sole wins."""
    return players == 2


@dataclass
class PoolCell:
    """``hard`` and ``normal``, each in one seat against a table of the pool's player,
    on the same games."""

    game: str
    pool: str
    about: str
    hard: Pairing
    normal: Pairing

    @property
    def score(self) -> bool:
        return uses_score(self.hard.players)

    def successes(self, pairing: Pairing) -> float:
        if self.score:
            return pairing.wins + pairing.shared_firsts / 2
        return float(pairing.wins)

    def share(self, pairing: Pairing) -> float:
        return self.successes(pairing) / pairing.games

    def interval(self, pairing: Pairing) -> tuple[float, float]:
        return wilson(self.successes(pairing), pairing.games)

    @property
    def difference(self) -> float:
        return self.share(self.hard) - self.share(self.normal)

    @property
    def difference_interval(self) -> tuple[float, float]:
        return difference_interval(
            self.successes(self.hard),
            self.hard.games,
            self.successes(self.normal),
            self.normal.games,
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "about": self.about,
            "games": self.hard.games,
            "share": "score" if self.score else "sole wins",
            "hard_share": self.share(self.hard),
            "hard_interval_95": list(self.interval(self.hard)),
            "normal_share": self.share(self.normal),
            "normal_interval_95": list(self.interval(self.normal)),
            "hard_minus_normal": self.difference,
            "hard_minus_normal_interval_95": list(self.difference_interval),
            "hard": self.hard.as_json(),
            "normal": self.normal.as_json(),
        }


def chosen_pools(
    requested: Sequence[str], engine: Engine[Any, Any, Any], players: Mapping[Level, Chooser]
) -> list[Pool]:
    """The game's pools asked for (``all``: every one), in the game's order; raises
    ValueError naming the game's pools for a name it doesn't have."""
    available = pools_for(engine.name, players)
    if "all" in requested:
        return list(available.values())
    unknown = [name for name in requested if name not in available]
    if unknown:
        raise ValueError(
            f"{engine.name} has no pool {', '.join(unknown)}; its pools: "
            f"{', '.join(available)} (or all)"
        )
    return [pool for name, pool in available.items() if name in requested]


def play_pool(
    engine: Engine[Any, Any, Any],
    players: Mapping[Level, Chooser],
    pool: Pool,
    count: int,
    games: int,
    options: Mapping[str, Any] | None = None,
    first: int = 0,
) -> PoolCell:
    """``hard`` and then ``normal`` against the pool, on games ``first`` onwards (the same
    deals, seats and seat generators for both); raises `PoolUnavailable` when the pool's
    player can't be built here."""
    other = pool.make()
    hard, normal = (
        play_games(engine, players[level], level, pool.name, other, count, games, options, first)
        for level in POOL_LEVELS
    )
    return PoolCell(engine.name, pool.name, pool.about, hard, normal)


def print_pool_cells(name: str, count: int, cells: Sequence[PoolCell]) -> None:
    share = "score" if uses_score(count) else "wins"
    headers = [
        "pool",
        "games",
        f"hard {share} %",
        "95% CI",
        f"normal {share} %",
        "95% CI",
        "hard − normal",
        "95% CI",
        "hard p99 ms",
        "seconds",
    ]
    table: list[list[common.Cell]] = []
    for cell in cells:
        hard_low, hard_high = cell.interval(cell.hard)
        normal_low, normal_high = cell.interval(cell.normal)
        low, high = cell.difference_interval
        table.append(
            [
                f"{cell.pool} ×{count - 1}",
                cell.hard.games,
                100 * cell.share(cell.hard),
                f"{100 * hard_low:.1f}–{100 * hard_high:.1f}",
                100 * cell.share(cell.normal),
                f"{100 * normal_low:.1f}–{100 * normal_high:.1f}",
                f"{100 * cell.difference:+.1f}",
                f"{100 * low:+.1f} to {100 * high:+.1f}",
                cell.hard.decision_ms(99),
                cell.hard.seconds + cell.normal.seconds,
            ]
        )
    common.print_table(
        f"{name}, {count} players: hard and normal, each in one seat against the pool",
        headers,
        table,
        digits=1,
    )


def pool_notes(count: int, cells: Sequence[PoolCell]) -> list[str]:
    share = (
        "score: a win 1, a draw or shared first place ½"
        if uses_score(count)
        else f"sole first places; an even table wins {100 / count:.1f}%"
    )
    return [
        f"{share}; hard and normal play the same games (deals, seats, generators).",
        "intervals: 95 % Wilson; hard − normal: Newcombe's interval from the two, which "
        "ignores the pairing (usually wider than a paired one).",
        *(f"{cell.pool}: {cell.about}" for cell in cells),
    ]


def run_pools(
    args: argparse.Namespace,
    chosen: Sequence[tuple[Engine[Any, Any, Any], Mapping[Level, Chooser]]],
    games: int,
    options: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """Every chosen game's chosen pools; the JSON entries."""
    results: list[dict[str, Any]] = []
    for engine, players in chosen:
        count = registered(engine.name).typical_players
        cells: list[PoolCell] = []
        skipped: list[dict[str, str]] = []
        for pool in chosen_pools(args.pool, engine, players):
            try:
                cell = play_pool(engine, players, pool, count, games, options, args.first)
            except PoolUnavailable as error:
                if "all" not in args.pool:
                    raise
                print(f"  {engine.name}: pool {pool.name} skipped: {error}")
                skipped.append({"pool": pool.name, "reason": str(error)})
                continue
            seconds = cell.hard.seconds + cell.normal.seconds
            print(f"  {engine.name}: hard and normal against {pool.name} done in {seconds:.1f} s")
            cells.append(cell)
        print_pool_cells(engine.name, count, cells)
        common.print_notes(pool_notes(count, cells))
        results.append(
            {
                "game": engine.name,
                "players": count,
                "share": "score" if uses_score(count) else "sole wins",
                "pools": [cell.as_json() for cell in cells],
                "skipped": skipped,
            }
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    found = games_with_players()
    parser = common.parser("Computer players: win rates and time per decision, one core")
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help=f"games per pairing (default {DEFAULT_GAMES}, --quick {QUICK_GAMES})",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=[engine.name for engine, _ in found],
        help="measure only this game (repeatable; default: every game with computer players)",
    )
    parser.add_argument(
        "--pairing",
        action="append",
        metavar="LEVEL:OPPONENT",
        help="play only this pairing, e.g. hard:random or hard:normal (repeatable; "
        "default: every level against random and against the level below)",
    )
    parser.add_argument(
        "--pool",
        action="append",
        metavar="NAME",
        help="play hard and normal against a table of this pool's player (repeatable; "
        "all: every pool of the game) instead of the pairings; a game's pools: easy, "
        "normal, random and its outside and style players (bench.opponents)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option for every game's new_game, e.g. ruleset=turkish (repeatable)",
    )
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        metavar="N",
        help="start at game number N (to split a long pairing into runs with other seeds)",
    )
    parser.add_argument(
        "--think-seconds",
        type=float,
        metavar="S",
        help="the wall-clock safety net of a searching player per decision "
        f"(bot.ai.budget; default {DEFAULT_THINK_SECONDS:g}): raise it on a busy machine "
        "so the node budgets decide, as on an idle one",
    )
    args = parser.parse_args(argv)
    if args.pool and args.pairing:
        parser.error("--pool and --pairing choose different runs: give one of them")
    if args.pool:
        for engine, players in found:
            if not args.game or engine.name in args.game:
                try:
                    chosen_pools(args.pool, engine, players)
                except ValueError as error:
                    parser.error(str(error))
    if args.think_seconds is not None:
        set_think_seconds(args.think_seconds)
    common.print_machine()
    with common.one_cpu() as cpu:
        try:
            run(args, cpu, found)
        except PoolUnavailable as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    return 0


def run_pairings(
    args: argparse.Namespace,
    chosen: Sequence[tuple[Engine[Any, Any, Any], Mapping[Level, Chooser]]],
    games: int,
    options: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """Every chosen game's pairings (all, or those of ``--pairing``); the JSON entries."""
    previous = previous_players()
    results: list[dict[str, Any]] = []
    for engine, players in chosen:
        count = registered(engine.name).typical_players
        rows = []
        pairings = pairings_for(players)
        if engine.name in previous and args.pairing and "hard:previous" in args.pairing:
            pairings.append(("hard", "previous"))  # only when asked for
        for level, opponent in pairings:
            if args.pairing and f"{level}:{opponent}" not in args.pairing:
                continue
            row = play_pairing(
                engine,
                players,
                level,
                opponent,
                count,
                games,
                options,
                previous.get(engine.name),
                args.first,
            )
            print(f"  {engine.name}: {level} against {opponent} done in {row.seconds:.1f} s")
            rows.append(row)
        print_pairings(engine.name, count, rows)
        common.print_notes(notes_for(count))
        results.append(
            {
                "game": engine.name,
                "players": count,
                "pairings": [row.as_json() for row in rows],
                "targets_met": all(
                    met is not False
                    for row in rows
                    for met in (row.win_target_met, row.time_target_met)
                ),
            }
        )
    return results


def run(
    args: argparse.Namespace,
    cpu: int | None,
    found: Sequence[tuple[Engine[Any, Any, Any], Mapping[Level, Chooser]]],
) -> None:
    games = args.games or (QUICK_GAMES if args.quick else DEFAULT_GAMES)
    chosen = [
        (engine, players) for engine, players in found if not args.game or engine.name in args.game
    ]
    print(
        f"Pinned to CPU {cpu}." if cpu is not None else "Could not pin to one CPU.",
        f"{games} games per pairing.",
    )
    print(f"Games: {', '.join(engine.name for engine, _ in chosen) or 'none'}.")
    options = dict(item.split("=", 1) for item in args.option)
    print(f"Think budget: {think_seconds():g} s per decision (safety net after the node budget).")
    if options or args.first:
        print(f"Options: {options or 'none'}; games {args.first}–{args.first + games - 1}.")
    started = time.perf_counter()
    if args.pool:
        print(f"Pools: {', '.join(args.pool)}; hard and normal on the same games.")
        results = run_pools(args, chosen, games, options)
    else:
        results = run_pairings(args, chosen, games, options)
    elapsed = time.perf_counter() - started
    print(f"\nElapsed: {elapsed:.1f} s.")
    common.write_json(
        args.json,
        "ai",
        {
            "settings": {
                "games_per_pairing": games,
                "pools": args.pool,
                "first_game": args.first,
                "options": options,
                "quick": args.quick,
                "think_seconds": think_seconds(),
                "pinned_cpu": cpu,
                "player_counts": {spec.name: spec.typical_players for spec in GAMES},
                "win_targets": {f"{g}/{lvl}": t for (g, lvl), t in WIN_TARGETS.items()},
                "max_decision_p99_seconds": MAX_DECISION_P99_SECONDS,
            },
            "elapsed_seconds": elapsed,
            "results": results,
        },
    )


if __name__ == "__main__":
    raise SystemExit(main())
