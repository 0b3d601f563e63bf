"""Random playouts per second, single core, for every engine and player count, beside
the peer implementation on PyPI where there is one.

A playout is one whole game: ``new_game`` (seeded), then uniformly random legal actions
through the engine's own ``to_act``/``legal_actions``/``apply`` until ``is_over``, then
``outcome``. The peer's playout is the same for its own API: set up, random legal
moves, final ranking. Where a computer player searches on a simulator of its own
(`SIMULATORS`), that simulator's random playouts are measured against the peer too.

    python -m bench.engines [--quick] [--json PATH] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib
import itertools
import os
import pstats
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

from bench import common
from bench.scenes import player_ids
from bot.ai.geschenkt_sim import Table
from bot.engines.base import Engine
from bot.engines.geschenkt import CARDS_PLAYED, card_pool, starting_chips
from bot.games import GAMES

ENGINES: list[Engine[Any, Any, Any]] = [spec.engine for spec in GAMES]
"""Every engine to measure: each registered game's (`bot.games`)."""


# --- peers --------------------------------------------------------------------------


class PeerUnavailable(Exception):
    """The peer package can't be installed or imported here; the message says why."""


@dataclass(frozen=True)
class Peer:
    """Another implementation of the same game, measured the same way."""

    label: str
    min_players: int
    max_players: int
    playout: Callable[[int, int], None]
    """One random game: (players, seed) -> None."""
    census: Callable[[int, int], tuple[int, int]]
    """The same game again, counted: (players, seed) -> (actions, cards dealt)."""


def no_thanks_peer() -> Peer:
    """`no-thanks` on PyPI (Markus Shepherd): ``Game(players).play()`` where each
    `Player.action` picks TAKE or PASS at random (TAKE when out of tokens); all its
    randomness comes from the module-level `random`, so ``random.seed`` makes a game
    repeatable."""
    try:
        core = importlib.import_module("no_thanks.core")
        version = metadata.version("no-thanks")
    except Exception as error:  # not installed, or broken on import
        raise PeerUnavailable(
            f"the peer package no-thanks can't be imported ({error}); "
            "install it with: pip install -e '.[bench]'"
        ) from error

    def playout(players: int, seed: int) -> None:
        random.seed(seed)
        core.Game([core.Player(f"p{k}") for k in range(players)]).play()

    def census(players: int, seed: int) -> tuple[int, int]:
        random.seed(seed)
        seats = [core.Player(f"p{k}") for k in range(players)]
        calls = [0]
        for seat in seats:
            chosen = seat.action

            def counted(chosen: Callable[[], Any] = chosen) -> Any:
                calls[0] += 1
                return chosen()

            seat.action = counted
        core.Game(seats).play()
        return calls[0], sum(len(seat.cards) for seat in seats)

    try:
        peer = Peer(
            label=f"no-thanks {version}",
            min_players=int(core.Game.NUM_PLAYERS_MIN),
            max_players=int(core.Game.NUM_PLAYERS_MAX),
            playout=playout,
            census=census,
        )
        peer.playout(peer.min_players, 0)
        peer.census(peer.max_players, 0)
    except Exception as error:  # its API changed under us
        raise PeerUnavailable(
            f"no-thanks {version} imports, but a game through its API failed: {error!r}"
        ) from error
    return peer


PEERS: dict[str, Callable[[], Peer]] = {
    "geschenkt": no_thanks_peer,
}
"""Engine name -> a loader for its peer on PyPI (optional per engine)."""


# --- our playouts -------------------------------------------------------------------


def our_playout(engine: Engine[Any, Any, Any], players: Sequence[str], seed: int) -> int:
    """One seeded random game through the engine contract; returns its action count."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    actions = 0
    while not engine.is_over(state):
        player = engine.to_act(state)[0]
        state = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))
        actions += 1
    engine.outcome(state)
    return actions


def geschenkt_simulator_playout(players: int, seed: int) -> int:
    """One seeded random game on the hard player's simulator (`bot.ai.geschenkt_sim`):
    the engine's deal (24 cards of the box, its starting chips), then take or refuse at
    random (take without chips) to the end, then the scores; returns its action count."""
    rng = random.Random(seed)
    pool = card_pool(tactical=False)
    rng.shuffle(pool)
    played = pool[:CARDS_PLAYED]
    chips = starting_chips(players, tactical=False)
    table = Table([chips] * players, [set() for _ in range(players)], played[1:], played[0], 0, 0)
    actions = 0
    while table.current >= 0:
        table.step(take=rng.random() < 0.5)
        actions += 1
    table.scores()
    return actions


@dataclass(frozen=True)
class Simulator:
    """A computer player's own model of a game, for its playouts."""

    label: str
    playout: Callable[[int, int], int]
    """One random game: (players, seed) -> its action count."""
    target: float
    """Its playouts/s at least this many times the peer's."""


SIMULATORS: dict[str, Simulator] = {
    "geschenkt": Simulator("hard's simulator", geschenkt_simulator_playout, 2.0),
}
"""Engine name -> the simulator its hard player plays out on, measured against the peer
(issue 28: Geschenkt's at least twice the peer)."""


# --- timing -------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    rounds: int
    round_seconds: float
    warmup_seconds: float
    census_games: int
    profile_playouts: int


DEFAULT = Settings(
    rounds=5, round_seconds=0.7, warmup_seconds=0.2, census_games=200, profile_playouts=300
)
QUICK = Settings(
    rounds=2, round_seconds=0.08, warmup_seconds=0.02, census_games=20, profile_playouts=20
)


@dataclass
class Series:
    """Repeated timed rounds of one implementation at one player count."""

    rates: list[float] = field(default_factory=list)
    """Playouts per second, one per round."""
    playouts: int = 0
    actions: int = 0
    seconds: float = 0.0

    @property
    def playouts_per_second(self) -> float:
        return common.median(self.rates)

    def as_json(self) -> dict[str, Any]:
        return {
            "playouts_per_second": self.playouts_per_second,
            "round_rates": self.rates,
            "playouts": self.playouts,
            "seconds": self.seconds,
        }


def timed_round(run: Callable[[int], int], seeds: Iterator[int], seconds: float) -> Series:
    """Play games until ``seconds`` of this thread's CPU time have passed (at least one
    game). CPU time, not wall time: time the core spends on other processes is not
    counted, so a busy machine lowers the figures less."""
    gc.collect()
    played = actions = 0
    start = time.thread_time()
    elapsed = 0.0
    while elapsed < seconds or not played:
        actions += run(next(seeds))
        played += 1
        elapsed = time.thread_time() - start
    return Series([played / elapsed], played, actions, elapsed)


def add(series: Series, round_: Series) -> None:
    series.rates += round_.rates
    series.playouts += round_.playouts
    series.actions += round_.actions
    series.seconds += round_.seconds


@dataclass
class Row:
    engine: str
    players: int
    ours: Series
    ours_actions_per_playout: float
    peer: Series | None = None
    peer_actions_per_playout: float | None = None
    peer_cards_per_playout: float | None = None
    target: float = 1.0
    """Ours at least this many times the peer's playouts/s."""

    @property
    def ratio(self) -> float | None:
        """Ours / peer playouts per second: the median over rounds of the ratio of each
        round of ours to the peer's round right after it (load drift cancels out)."""
        if self.peer is None:
            return None
        pairs = zip(self.ours.rates, self.peer.rates, strict=True)
        return common.median([ours / peer for ours, peer in pairs])

    @property
    def ours_actions_per_second(self) -> float:
        return self.ours.playouts_per_second * self.ours_actions_per_playout

    @property
    def peer_actions_per_second(self) -> float | None:
        if self.peer is None or self.peer_actions_per_playout is None:
            return None
        return self.peer.playouts_per_second * self.peer_actions_per_playout

    @property
    def action_ratio(self) -> float | None:
        if self.ratio is None or not self.peer_actions_per_playout:
            return None
        return self.ratio * self.ours_actions_per_playout / self.peer_actions_per_playout

    def as_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "players": self.players,
            "ours": {
                **self.ours.as_json(),
                "actions_per_playout": self.ours_actions_per_playout,
                "actions_per_second": self.ours_actions_per_second,
            },
            "peer": None
            if self.peer is None
            else {
                **self.peer.as_json(),
                "actions_per_playout": self.peer_actions_per_playout,
                "actions_per_second": self.peer_actions_per_second,
                "cards_per_playout": self.peer_cards_per_playout,
            },
            "ratio_playouts": self.ratio,
            "ratio_actions": self.action_ratio,
            "target_ratio": self.target,
            "target_met": None if self.ratio is None else self.ratio >= self.target,
        }


def peer_runner(peer: Peer, players: int) -> Callable[[int], int]:
    def run(seed: int) -> int:
        peer.playout(players, seed)
        return 0  # actions are counted apart, by `Peer.census`

    return run


def measure_engine(
    engine: Engine[Any, Any, Any], peer: Peer | None, settings: Settings
) -> list[Row]:
    """Our engine and the peer, interleaved round by round so drift hits both alike."""

    def ours_for(players: int) -> Callable[[int], int]:
        return partial(our_playout, engine, player_ids(players, 0))

    players = range(engine.min_players, engine.max_players + 1)
    return measure(engine.name, players, ours_for, peer, settings)


def measure_simulator(
    engine: Engine[Any, Any, Any], simulator: Simulator, peer: Peer | None, settings: Settings
) -> list[Row]:
    """The simulator and the peer (where there is one), interleaved."""

    def ours_for(players: int) -> Callable[[int], int]:
        return partial(simulator.playout, players)

    players = range(engine.min_players, engine.max_players + 1)
    name = f"{engine.name} ({simulator.label})"
    return measure(name, players, ours_for, peer, settings, simulator.target)


def measure(
    name: str,
    player_counts: range,
    ours_for: Callable[[int], Callable[[int], int]],
    peer: Peer | None,
    settings: Settings,
    target: float = 1.0,
) -> list[Row]:
    """``ours_for(players)``'s playouts (seed -> actions) and the peer's, interleaved
    round by round so drift hits both alike."""
    rows = []
    for players in player_counts:
        ours = ours_for(players)
        our_seeds = itertools.count()
        timed_round(ours, our_seeds, settings.warmup_seconds)
        row = Row(name, players, Series(), 0.0, target=target)
        run_peer: Callable[[int], int] | None = None
        peer_seeds = itertools.count()
        if peer is not None and peer.min_players <= players <= peer.max_players:
            run_peer = peer_runner(peer, players)
            timed_round(run_peer, peer_seeds, settings.warmup_seconds)
            row.peer = Series()
        for _ in range(settings.rounds):
            add(row.ours, timed_round(ours, our_seeds, settings.round_seconds))
            if run_peer is not None and row.peer is not None:
                add(row.peer, timed_round(run_peer, peer_seeds, settings.round_seconds))
        row.ours_actions_per_playout = row.ours.actions / row.ours.playouts
        if row.peer is not None and peer is not None:
            counts = [peer.census(players, seed) for seed in range(settings.census_games)]
            row.peer_actions_per_playout = sum(a for a, _ in counts) / len(counts)
            row.peer_cards_per_playout = sum(c for _, c in counts) / len(counts)
        rows.append(row)
    return rows


# --- profile ------------------------------------------------------------------------


def profile_engine(
    engine: Engine[Any, Any, Any], players: int, playouts: int, top: int = 12
) -> dict[str, Any]:
    """cProfile ``playouts`` random games; the functions with the most time of their own
    and the most time below them."""
    ids = player_ids(players, 0)
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(playouts):
        our_playout(engine, ids, seed)
    profiler.disable()
    stats = pstats.Stats(profiler).get_stats_profile()
    total = stats.total_tt
    here = str(Path(__file__).resolve())

    def entry(name: str, item: pstats.FunctionProfile) -> dict[str, Any]:
        where = f"{shorten(item.file_name)}:{item.line_number}" if item.line_number else ""
        return {
            "function": name,
            "where": where,
            "calls": item.ncalls,
            "own_seconds": item.tottime,
            "own_percent": 100 * item.tottime / total,
            "cumulative_seconds": item.cumtime,
            "cumulative_percent": 100 * item.cumtime / total,
        }

    items = [
        (name, item)
        for name, item in stats.func_profiles.items()
        if item.file_name != here and "{built-in method builtins.exec}" not in name
    ]
    by_own = sorted(items, key=lambda pair: pair[1].tottime, reverse=True)[:top]
    by_cumulative = sorted(items, key=lambda pair: pair[1].cumtime, reverse=True)[:top]
    return {
        "engine": engine.name,
        "players": players,
        "playouts": playouts,
        "profiled_seconds": total,
        "by_own_time": [entry(name, item) for name, item in by_own],
        "by_cumulative_time": [entry(name, item) for name, item in by_cumulative],
    }


def shorten(path: str) -> str:
    """Paths relative to the repo or to site-packages / the stdlib."""
    for marker in ("/site-packages/", "/lib/python3.11/", "/lib/python3.12/", "/lib/python3.13/"):
        if marker in path:
            return path.split(marker, 1)[1]
    root = str(Path(__file__).resolve().parent.parent) + os.sep
    return path.removeprefix(root)


def print_profile(profile: dict[str, Any]) -> None:
    headers = ["function", "where", "calls", "own s", "own %", "cum s", "cum %"]
    for key, title in (("by_cumulative_time", "cumulative"), ("by_own_time", "own")):
        rows: list[list[common.Cell]] = [
            [
                item["function"],
                item["where"],
                item["calls"],
                item["own_seconds"],
                item["own_percent"],
                item["cumulative_seconds"],
                item["cumulative_percent"],
            ]
            for item in profile[key]
        ]
        common.print_table(
            f"Profile of {profile['engine']}, {profile['players']} players, "
            f"{profile['playouts']} playouts ({profile['profiled_seconds']:.2f} s under "
            f"cProfile), top by {title} time",
            headers,
            rows,
            digits=2,
        )


# --- main ---------------------------------------------------------------------------


def print_rows(rows: Sequence[Row], peer_label: str | None) -> None:
    peer = peer_label or "peer"
    headers = [
        "players",
        "ours playouts/s",
        "(min–max)",
        f"{peer} playouts/s",
        "(min–max)",
        "ours/peer",
        "ours actions/s",
        "peer actions/s",
        "ours/peer",
        "target ours ≥ peer" if rows[0].target == 1 else f"target ours ≥ {rows[0].target:g}× peer",
    ]
    table: list[list[common.Cell]] = []
    for row in rows:
        table.append(
            [
                row.players,
                rounded(row.ours.playouts_per_second),
                spread(row.ours),
                rounded(row.peer.playouts_per_second if row.peer else None),
                spread(row.peer) if row.peer else None,
                row.ratio,
                rounded(row.ours_actions_per_second),
                rounded(row.peer_actions_per_second),
                row.action_ratio,
                "not measured" if row.ratio is None else common.target(row.ratio >= row.target),
            ]
        )
    common.print_table(
        f"{rows[0].engine}: random playouts per CPU-second, one core", headers, table, digits=2
    )


def notes_for(rows: Sequence[Row], peer: Peer | None) -> list[str]:
    per_playout = ", ".join(
        f"{row.players}p {row.ours_actions_per_playout:.1f}"
        + (
            f" / {row.peer_actions_per_playout:.1f}"
            if row.peer_actions_per_playout is not None
            else ""
        )
        for row in rows
    )
    notes = [
        "a playout: seeded setup, uniformly random legal moves to the end, final scoring.",
        f"actions per playout, ours{' / peer' if peer else ''}: {per_playout}.",
    ]
    if peer is not None:
        notes.insert(
            1,
            "ours/peer < 1: ours is slower. It is the median of round-by-round ratios "
            "(each round of ours against the peer's round right after it).",
        )
    cards = sorted({row.peer_cards_per_playout for row in rows if row.peer_cards_per_playout})
    if peer is not None and cards:
        notes.append(
            f"{peer.label} deals {', '.join(f'{c:g}' for c in cards)} cards per game "
            "(the rules deal 24): its games are longer, so compare actions/s too."
        )
    return notes


def simulator_notes(rows: Sequence[Row], simulator: Simulator) -> list[str]:
    per_playout = ", ".join(f"{row.players}p {row.ours_actions_per_playout:.1f}" for row in rows)
    return [
        f"{simulator.label}: the playouts hard plays out on, here with random moves: the "
        "engine's deal and starting chips, take or refuse at random, the scores.",
        f"actions per playout, ours: {per_playout}.",
    ]


def rounded(value: float | None) -> int | None:
    return None if value is None else round(value)


def spread(series: Series) -> str:
    return f"{min(series.rates):,.0f}–{max(series.rates):,.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = common.parser("Random playouts per second on one core, ours and the peer's")
    parser.add_argument(
        "--engine",
        action="append",
        choices=[engine.name for engine in ENGINES],
        help="measure only this engine (repeatable; default: all)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile our engines even if they are not slower than their peers",
    )
    args = parser.parse_args(argv)
    common.print_machine()
    with common.one_cpu() as cpu:
        run(args, cpu)
    return 0


def run(args: argparse.Namespace, cpu: int | None) -> None:
    settings = QUICK if args.quick else DEFAULT
    print(
        f"Pinned to CPU {cpu}." if cpu is not None else "Could not pin to one CPU.",
        f"{settings.rounds} rounds of {settings.round_seconds} CPU-seconds per implementation "
        "and player count, ours and peer interleaved; the median round is shown.",
    )

    results: list[dict[str, Any]] = []
    simulators: list[dict[str, Any]] = []
    profiles: list[dict[str, Any]] = []
    engines = [e for e in ENGINES if not args.engine or e.name in args.engine]
    print(f"Engines: {', '.join(engine.name for engine in engines)}.")
    for engine in engines:
        peer: Peer | None = None
        peer_problem: str | None = None
        loader = PEERS.get(engine.name)
        if loader is None:
            peer_problem = "no peer implementation registered"
        else:
            try:
                peer = loader()
            except PeerUnavailable as error:
                peer_problem = str(error)
        if peer_problem:
            print(f"\n{engine.name}: peer not measured: {peer_problem}")
        rows = measure_engine(engine, peer, settings)
        print_rows(rows, peer.label if peer else None)
        common.print_notes(notes_for(rows, peer))
        ratios = [row.ratio for row in rows if row.ratio is not None]
        slower = bool(ratios) and min(ratios) < 1
        if slower or args.profile:
            players = (engine.min_players + engine.max_players) // 2
            if slower:
                print(f"\n{engine.name} is slower than its peer: where our time goes.")
            profile = profile_engine(engine, players, settings.profile_playouts)
            print_profile(profile)
            profiles.append(profile)
        results.append(
            {
                "engine": engine.name,
                "peer": peer.label if peer else None,
                "peer_unavailable": peer_problem,
                "rows": [row.as_json() for row in rows],
                "target_at_least_peer": None if not ratios else min(ratios) >= 1,
            }
        )
        simulator = SIMULATORS.get(engine.name)
        if simulator is not None:
            simulated = measure_simulator(engine, simulator, peer, settings)
            print_rows(simulated, peer.label if peer else None)
            common.print_notes(simulator_notes(simulated, simulator))
            simulated_ratios = [row.ratio for row in simulated if row.ratio is not None]
            simulators.append(
                {
                    "engine": engine.name,
                    "simulator": simulator.label,
                    "peer": peer.label if peer else None,
                    "rows": [row.as_json() for row in simulated],
                    "target_ratio": simulator.target,
                    "target_met": None
                    if not simulated_ratios
                    else min(simulated_ratios) >= simulator.target,
                }
            )

    common.write_json(
        args.json,
        "engines",
        {
            "settings": {**settings.__dict__, "quick": args.quick, "pinned_cpu": cpu},
            "results": results,
            "simulators": simulators,
            "profiles": profiles,
        },
    )


if __name__ == "__main__":
    raise SystemExit(main())
