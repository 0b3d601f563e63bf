"""How many clicks a second the bot serves: an open-loop stream at rising rates.

Players don't click again the moment they are answered; they click when they decide
to. So the clicks here arrive as a Poisson stream (exponential gaps at a set rate),
each on a Geschenkt table that isn't waiting for an answer, whether or not earlier
clicks were answered. Each rate is held for a while; then the next, higher one.

Three ways, in one run, on the same tables (two guilds, one on each of 2 shards):

- the null bot (a bare discord.py bot answering a button with a fixed message);
- our bot, one process serving both shards;
- our bot, two processes (``SHARD_IDS=0`` and ``1`` of ``SHARD_COUNT=2``), one Redis.

Per rate: p50/p99 click -> callback, p95 click -> table redrawn (the clicked message
shows the new image; for the null bot, which draws nothing, its callback), and late
clicks (answered after Discord's 3 s, or never). A rate passes when p99 callback <
100 ms, p95 redraw < 1 s and no click is late; the headline is the highest passing
rate of each way, against the null bot's and two processes' against one's.

Everything (fake Discord, Redis, the bots) shares this machine's cores, so the bench's
own process takes a share of what the bots could use.

    python -m bench.capacity [--quick] [--json PATH] [--logs DIR]
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import (
    ENGLISH_SERVER,
    allowed_cpus,
    descendants,
    parser,
    percentile,
    print_machine,
    print_notes,
    print_table,
    target,
    write_json,
)
from bench.interactions import LATE, Clicker, batched, play_geschenkt, play_null
from bot.config import default_render_processes
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotProcess, RedisServer, bot_env
from tests.harness.models import FakeUser

P99_CALLBACK_MS = 100.0
P95_REDRAW_MS = 1000.0
ON_TIME_SLACK = 1.1
"""A rate counts as offered when its clicks went out within 10 % of the hold time."""
FULL_RATES = [10, 20, 40, 60, 80, 100, 130, 160, 200, 250, 320, 400, 500, 640, 800, 1000]
"""Rising until a way fails: the null bot's limit too (it passed 250 on this machine)."""
QUICK_RATES = [10, 40]
SEED = 22

Play = Callable[[Clicker, int, list[FakeUser], int, int], Awaitable[None]]
"""A bench.interactions player: clicker, channel, players, clicks, moves made before."""


@dataclass(frozen=True)
class Way:
    """One way of running the bot: its module, and each process's own settings."""

    name: str
    module: str
    processes: list[dict[str, str]]
    shards: int
    play: Play
    redraws: bool
    """Whether a click redraws the table (the null bot only answers)."""


WAYS = [
    Way("null bot", "tests.harness.null_bot", [{}], 1, play_null, redraws=False),
    Way(
        "1 process",
        "bot",
        [{"SHARD_COUNT": "2", "RENDER_PROCESSES": str(default_render_processes())}],
        2,
        play_geschenkt,
        redraws=True,
    ),
    Way(
        "2 processes",
        "bot",
        [
            {"SHARD_COUNT": "2", "SHARD_IDS": "0", "RENDER_PROCESSES": "1"},
            {"SHARD_COUNT": "2", "SHARD_IDS": "1", "RENDER_PROCESSES": "1"},
        ],
        2,
        play_geschenkt,
        redraws=True,
    ),
]


@dataclass
class Step:
    """What one rate gave."""

    rate: float
    hold: float
    offered: int = 0
    sending_seconds: float = 0.0
    """How long sending the rate's clicks took: ``hold`` when the bench kept up with the
    stream, more when its own process (the fake Discord and the clicks) fell behind."""
    no_free_table: int = 0
    clicks: int = 0
    late: int = 0
    refused: int = 0
    """Sent but not served in time otherwise: answered with a message instead of the new
    table ("someone acted first"), or the button wasn't on the table."""
    refusals: dict[str, int] = field(default_factory=dict)
    callback_ms: list[float] = field(default_factory=list)
    redraw_ms: list[float] = field(default_factory=list)
    cpu_ms_per_click: dict[str, float] = field(default_factory=dict)
    """CPU time (user + system) each kind of process spent over the rate's hold, per
    click sent: where the machine's cores went."""

    def figure(self, values: list[float], q: float) -> float | None:
        return percentile(values, q) if values else None

    @property
    def passes(self) -> bool:
        p99, p95 = self.figure(self.callback_ms, 99), self.figure(self.redraw_ms, 95)
        return (
            self.clicks > 0
            and self.on_time
            and self.late == 0
            and self.refused <= self.clicks // 100
            and p99 is not None
            and p99 < P99_CALLBACK_MS
            and p95 is not None
            and p95 < P95_REDRAW_MS
        )

    @property
    def on_time(self) -> bool:
        """Whether the clicks went out at the rate asked (a rate the bench couldn't
        offer says nothing of the bot, so it doesn't pass)."""
        return self.sending_seconds <= self.hold * ON_TIME_SLACK

    def summary(self) -> dict[str, Any]:
        return {
            "rate": self.rate,
            "offered": self.offered,
            "sending_seconds": round(self.sending_seconds, 2),
            "sent_rate": round(self.clicks / max(self.sending_seconds, 1e-9), 1),
            "on_time": self.on_time,
            "no_free_table": self.no_free_table,
            "clicks": self.clicks,
            "late": self.late,
            "refused": self.refused,
            "refusals": self.refusals,
            "callback_p50_ms": self.figure(self.callback_ms, 50),
            "callback_p99_ms": self.figure(self.callback_ms, 99),
            "redraw_p95_ms": self.figure(self.redraw_ms, 95),
            "cpu_ms_per_click": self.cpu_ms_per_click,
            "passes": self.passes,
        }


async def offer_clicks(
    clicker: Clicker,
    way: Way,
    moves: dict[int, int],
    players: list[FakeUser],
    step: Step,
    hold: float,
) -> None:
    """Clicks at exponential gaps for ``hold`` seconds, each on a table not waiting for
    an answer (a click that finds none is counted, not sent). ``moves``: the moves made
    so far at each table (by channel), counted on."""
    rng = random.Random(SEED + int(step.rate))
    free = set(moves)
    started = asyncio.get_running_loop().time()
    due = 0.0
    sent: list[asyncio.Task[None]] = []

    async def click_on(channel: int) -> None:
        try:
            await way.play(clicker, channel, players, 1, moves[channel])
        finally:
            moves[channel] += 1
            free.add(channel)

    while (due := due + rng.expovariate(step.rate)) < hold:
        await asyncio.sleep(max(0.0, started + due - asyncio.get_running_loop().time()))
        step.offered += 1
        if not free:
            step.no_free_table += 1
            continue
        channel = rng.choice(sorted(free))
        free.discard(channel)
        sent.append(asyncio.create_task(click_on(channel)))
    step.sending_seconds = asyncio.get_running_loop().time() - started
    await asyncio.gather(*sent)


async def measure_way(
    way: Way, rates: list[int], hold: float, workdir: Path, tables: int
) -> dict[str, Any]:
    """Start Redis, the fake and the way's processes; open the tables; offer each rate
    until one fails."""
    redis = RedisServer(workdir / f"redis-{way.name.replace(' ', '-')}")
    fake = FakeDiscord(
        guild_locale=ENGLISH_SERVER,
        channel_names=[f"table-{i}" for i in range(tables // 2)],
        shard_count=way.shards,
        check_spec=False,
    )
    fake.add_guild(shard=way.shards - 1, channel_names=[f"table-{i}" for i in range(tables // 2)])
    await fake.start()
    url = redis.start()
    processes = [
        BotProcess(
            way.module,
            fake,
            bot_env(fake, url, {"LOG_LEVEL": "WARNING", **extra}),
            workdir / f"{way.name.replace(' ', '-')}-{n}.log",
            expect_commands=True,
            ready_timeout=60.0,
        )
        for n, extra in enumerate(way.processes)
    ]
    steps: list[Step] = []
    try:
        for process in processes:
            await process.start()
        every_shard = set(range(way.shards))
        await fake.wait_for(
            lambda: fake.served_shards() == every_shard, timeout=60.0, what="every shard"
        )
        clicker = Clicker(fake, lambda: all(p.running for p in processes))
        players = fake.users[:3]
        channels = list(fake.channels)
        await batched([way.play(clicker, c, players, 0, 0) for c in channels], batch=20)
        moves = dict.fromkeys(channels, 0)
        for rate in rates:
            clicker.reset()
            step = Step(rate, hold)
            who = processes_by_kind([p.pid for p in processes], redis)
            before = cpu_seconds(who)
            await offer_clicks(clicker, way, moves, players, step, hold)
            spent = cpu_seconds(who)
            outcomes = clicker.outcomes
            step.clicks = sum(outcomes.values())
            step.late = sum(outcomes[kind] for kind in LATE) + outcomes["no_edit"]
            step.refused = step.clicks - outcomes["ok"] - step.late
            step.refusals = dict(clicker.refusals.most_common(3))
            if outcomes["missing"]:
                step.refusals["(the button wasn't on the table)"] = outcomes["missing"]
            step.cpu_ms_per_click = {
                kind: round(1000 * (spent[kind] - before[kind]) / max(1, step.clicks), 2)
                for kind in who
            }
            step.callback_ms = [s * 1000 for s in clicker.latencies]
            step.redraw_ms = [
                s * 1000 for s in (clicker.updates if way.redraws else clicker.latencies)
            ]
            steps.append(step)
            if not step.passes:
                break
        errors = [line for p in processes for line in p.problems()]
    finally:
        for process in processes:
            await process.stop()
        await fake.stop()
        redis.stop()
    passing = [s.rate for s in steps if s.passes]
    return {
        "way": way.name,
        "processes": way.processes,
        "steps": [s.summary() for s in steps],
        "best_rate": max(passing, default=0.0),
        "bot_error_lines": len(errors),
        "bot_errors_sample": errors[:3],
    }


def processes_by_kind(bots: list[int], redis: RedisServer) -> dict[str, list[int]]:
    """The processes a way runs, by kind: the bot processes, their workers (render and
    computer players), Redis, and this bench (the fake Discord and the clicks)."""
    assert redis.process is not None
    workers = [pid for bot in bots for pid in descendants(bot)]
    return {"bot": bots, "workers": workers, "redis": [redis.process.pid], "bench": [os.getpid()]}


def cpu_seconds(kinds: dict[str, list[int]]) -> dict[str, float]:
    """Each kind's CPU time so far (user + system, from /proc; a process gone counts 0)."""
    tick = os.sysconf("SC_CLK_TCK")
    spent = {}
    for kind, pids in kinds.items():
        total = 0
        for pid in pids:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        spent[kind] = total / tick
    return spent


async def run(rates: list[int], hold: float, tables: int, logs: Path | None) -> dict[str, Any]:
    results: dict[str, Any] = {
        "rates": rates,
        "hold_seconds": hold,
        "tables": tables,
        "load_before": os.getloadavg(),
        "ways": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) if logs is None else logs
        workdir.mkdir(parents=True, exist_ok=True)
        for way in WAYS:
            started = time.perf_counter()
            measured = await measure_way(way, rates, hold, workdir, tables)
            measured["seconds"] = time.perf_counter() - started
            results["ways"].append(measured)
    best = {way["way"]: way["best_rate"] for way in results["ways"]}
    results["best"] = best
    results["ratio_to_null"] = _ratio(best["1 process"], best["null bot"])
    results["two_vs_null"] = _ratio(best["2 processes"], best["null bot"])
    results["two_vs_one"] = _ratio(best["2 processes"], best["1 process"])
    return results


def _at_least(ratio: float | None, bound: float) -> bool:
    return ratio is not None and ratio >= bound


def _ratio(ours: float, floor: float) -> float | None:
    return ours / floor if floor else None


def report(results: dict[str, Any]) -> list[str]:
    rows = []
    for way in results["ways"]:
        for step in way["steps"]:
            rows.append(
                [
                    way["way"],
                    step["rate"],
                    step["offered"],
                    step["clicks"],
                    step["no_free_table"],
                    step["late"],
                    step["refused"],
                    step["callback_p50_ms"],
                    step["callback_p99_ms"],
                    step["redraw_p95_ms"],
                    step["sent_rate"],
                    "yes" if step["passes"] else "no",
                ]
            )
    tables, hold = results["tables"], results["hold_seconds"]
    print_table(
        f"Open-loop clicks, {tables} Geschenkt tables, {hold:.0f} s a rate",
        [
            "way",
            "clicks/s",
            "offered",
            "clicks",
            "no table",
            "late",
            "refused",
            "p50",
            "p99",
            "redraw p95",
            "sent/s",
            "passes",
        ],
        rows,
        digits=1,
    )
    best = results["best"]
    two_vs_one = results["two_vs_one"]
    notes = [
        f"highest passing rate (clicks/s): null bot {best['null bot']}, 1 process "
        f"{best['1 process']}, 2 processes {best['2 processes']}",
        f"1 process / null bot (ratio_to_null): {_fmt(results['ratio_to_null'])}; "
        f"2 processes / null bot: "
        f"{_fmt(results['two_vs_null'])}; 2 processes / 1 process: {_fmt(two_vs_one)}",
        f"target 2 processes >= 1.5x one: {target(_at_least(two_vs_one, 1.5))}",
        f"target 1 process >= 0.7x null bot: {target(_at_least(results['ratio_to_null'], 0.7))}",
        "a rate passes only if the bench sent its clicks on time (within 10 % of the hold; "
        "a rate it couldn't offer says nothing of the bot), and "
        f"with p99 click -> callback < {P99_CALLBACK_MS:.0f} ms, p95 click -> "
        f"table redrawn < {P95_REDRAW_MS:.0f} ms, no late click (after 3 s, never, or "
        "acknowledged without the table redrawn) and at most 1% refused (answered with a "
        "message instead of the move); a way stops at its first failing rate.",
        "offered: arrivals in the Poisson stream; clicks: those sent (no table: every "
        "table was waiting for an answer). Finished games are started again unmeasured.",
        f"render workers: {default_render_processes()} for one process (the default here), "
        "1 each for two; "
        f"cores for all: {len(allowed_cpus())}; load average before: "
        f"{', '.join(f'{x:.2f}' for x in results['load_before'])}",
    ]
    for way in results["ways"]:
        passing = [step for step in way["steps"] if step["passes"]]
        if passing:
            cpu = passing[-1]["cpu_ms_per_click"]
            shares = ", ".join(f"{kind} {ms:.1f}" for kind, ms in cpu.items())
            notes.append(
                f"{way['way']}: CPU ms per click at {passing[-1]['rate']}/s: {shares} "
                f"(all {sum(cpu.values()):.1f})"
            )
    for way in results["ways"]:
        for step in way["steps"]:
            if step["refusals"]:
                notes.append(f"{way['way']} at {step['rate']}/s refused: {step['refusals']}")
        if way["bot_error_lines"]:
            notes.append(
                f"{way['way']}: {way['bot_error_lines']} error lines {way['bot_errors_sample'][:1]}"
            )
    return notes


def _fmt(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.2f}x"


def main() -> None:
    args_parser = parser(__doc__ or "")
    args_parser.add_argument(
        "--logs", type=Path, metavar="DIR", help="keep the bots' output (and Redis dirs) here"
    )
    args = args_parser.parse_args()
    rates = QUICK_RATES if args.quick else FULL_RATES
    hold = 3.0 if args.quick else 10.0
    tables = 20 if args.quick else 60
    print_machine()
    results = asyncio.run(run(rates, hold, tables, args.logs))
    print_notes(report(results))
    write_json(args.json, "capacity", results)


if __name__ == "__main__":
    main()
