"""A long run: many Geschenkt tables playing on, with a Redis and a bot restart.

Every table (a channel of the fake Discord's server) is two people and one normal
computer player; the people click as a person would (a pause of ``--think`` seconds
on average between one's clicks: `play_geschenkt` of `bench.interactions`), and when a
game ends a new one starts in that channel (``/geschenkt start``). On the way Redis is
stopped and started again with its data (an append-only file; SIGTERM, down for a few
seconds, the same port) at 40 % of the time, and the bot at 70 % (SIGTERM, started
again: the games resume from Redis; the people don't click while it is down).

Every ``--sample-seconds`` (a minute) the RSS of the bot process and of its worker
processes (every process below it: render and computer-thinking pools) is read from
``/proc``, with the clicks made and the games finished. At the end:

- memory growth after warm-up, per process group: from the sample at 20 % of the
  time to the last one before the bot restart (one bot process all along, through the
  Redis restart), and over the segment after the restart (from 80 % to the end:
  the restart starts a new process, so growth across it means nothing);
- error lines in the bot's log (a traceback, an unhandled exception, an ERROR or
  CRITICAL record);
- stuck games: a running table (read from Redis every few seconds) whose revision
  didn't change for more than two turn-clock periods (its turn clock, or
  ``DEFAULT_TURN_SECONDS`` when it has none) while the people played;
- every finished game's record (`RecordStore`) replayed through the engine: it must
  end the game, with the places and scores the record keeps.

    python -m bench.soak [--tables N] [--minutes M] [--json PATH] [--logs DIR]
        [--think SECONDS] [--sample-seconds S] [--bot-log-level LEVEL] [--quick]

``--quick``: 3 tables for 24 s with both restarts (the smoke test); the figures mean
nothing then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis

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
from bench.interactions import (
    LATE,
    TURN_MENTION,
    Clicker,
    any_button,
    batched,
    play_geschenkt,
    table_in,
    workers,
)
from bot.games import game
from bot.play.records import ReplayBroken, replay_record
from bot.storage.clients import client_for_url
from bot.storage.keys import history_key, table_key
from bot.storage.records import GameRecord, RecordStore
from bot.storage.tables import GameStore
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import LOG_MARKERS, BotProcess, RedisServer, bot_env
from tests.harness.models import FakeUser
from tests.harness.rate_limits import RateLimited, RateLimits

COMPUTER = "normal"
"""The computer player seated at every table (two people and this one: Geschenkt's 3)."""
WARM_UP = 0.2
REDIS_RESTART_AT = 0.4
BOT_RESTART_AT = 0.7
AFTER_RESTART_FROM = 0.8
"""Growth after the bot restart is measured from this share of the time to the end."""
GROWTH_LIMIT = 0.10
DEFAULT_TURN_SECONDS = 60
"""The turn period of a table without a turn clock (the soak's tables have none): a
table standing still for more than twice this while its people play is stuck."""
PLAY_TIMEOUT = 120.0
"""The longest one person's move (with what it takes to get there) may take."""
POLL_SECONDS = 5.0
"""How often every table's revision is read from Redis."""
ERROR_LINE = re.compile(r"\b(ERROR|CRITICAL)\b")
MIB = 1024 * 1024


class PersistentRedis(RedisServer):
    """The harness's redis-server with an append-only file, restartable on its port."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir, ["--appendonly", "yes", "--appendfsync", "everysec"])

    def restart(self, down_seconds: float, timeout: float = 30.0) -> None:
        """SIGTERM (Redis writes its AOF out), stay down ``down_seconds``, start again on
        the same port with the same directory (the AOF is loaded before it is ready)."""
        port = urlsplit(self.url).port
        assert port is not None, "Redis was never started"
        self.stop()
        time.sleep(down_seconds)
        for _ in range(10):  # the port may linger a moment
            if self._launch(port, timeout):
                return
            self.stop()
            time.sleep(1.0)
        raise RuntimeError("redis-server did not start again:\n" + "".join(self.log[-20:]))


# --- memory -------------------------------------------------------------------------


def rss_bytes(pid: int) -> int:
    """VmRSS of a process (0 if it is gone)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


# --- the run ------------------------------------------------------------------------


@dataclass
class Sample:
    at: float
    """Seconds since the soak began."""
    bot_bytes: int
    workers_bytes: int
    workers: int
    clicks: int
    games_finished: int
    click_p99_ms: float | None
    """Clicks answered within 3 s since the sample before: p99 click -> callback."""
    event: str = ""

    @property
    def total_bytes(self) -> int:
        return self.bot_bytes + self.workers_bytes

    def summary(self) -> dict[str, Any]:
        return {
            "at_seconds": round(self.at, 1),
            "bot_bytes": self.bot_bytes,
            "workers_bytes": self.workers_bytes,
            "total_bytes": self.total_bytes,
            "workers": self.workers,
            "clicks": self.clicks,
            "games_finished": self.games_finished,
            "click_p99_ms": self.click_p99_ms,
            "event": self.event,
        }


LAG_STEP = 0.05
"""How often `LoopLag` looks at this process's event loop."""
LAG_NEAR = 1.0
"""A 429 is put beside the loop's worst lag within this many seconds of it."""


@dataclass
class LoopLag:
    """How late this process's event loop wakes a task that sleeps `LAG_STEP`. The fake
    Discord shares its loop with the simulated people: while the loop is late, requests
    that reached the fake's socket apart wait, and are counted together (a burst the
    bot never sent). Each 429 is put beside the worst lag near it."""

    samples: list[tuple[float, float]] = field(default_factory=list)
    """(`time.monotonic` at the wake-up, seconds late)."""

    async def run(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(LAG_STEP)
            woke = time.monotonic()
            self.samples.append((woke, woke - asked - LAG_STEP))

    def worst_near(self, at: float) -> float:
        return max((lag for when, lag in self.samples if abs(when - at) <= LAG_NEAR), default=0.0)

    def summary(self, refused: list[RateLimited]) -> dict[str, Any]:
        lags = sorted(lag for _, lag in self.samples)
        if not lags:
            return {}
        return {
            "p50_ms": round(1000 * lags[len(lags) // 2], 1),
            "p99_ms": round(1000 * lags[int(len(lags) * 0.99)], 1),
            "max_ms": round(1000 * lags[-1], 1),
            "share_over_200_ms": round(sum(lag > 0.2 for lag in lags) / len(lags), 4),
            "near_429s_ms": [
                {"bucket": r.bucket, "lag_ms": round(1000 * self.worst_near(r.at), 1)}
                for r in refused
            ],
        }


@dataclass
class Soak:
    fake: FakeDiscord
    bot: BotProcess
    redis: PersistentRedis
    store: GameStore
    client: aioredis.Redis
    tables: int
    duration: float
    think: float
    sample_seconds: float
    redis_down: float
    clicker: Clicker = field(init=False)
    open: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while the people click (cleared while the bot is down)."""
    done: bool = False
    restarting: bool = False
    started: float = 0.0
    samples: list[Sample] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)
    """Ids of the finished games, from the server's history."""
    last_change: dict[int, tuple[int, str, float]] = field(default_factory=dict)
    """Per channel: (revision, phase, when it was first seen so)."""
    longest_still: dict[int, float] = field(default_factory=dict)
    """Per channel: the longest time a running table stood still."""
    stuck: set[int] = field(default_factory=set)
    phases: Counter[str] = field(default_factory=Counter)
    """Tables by phase at the last poll."""
    polls: int = 0
    play_timeouts: int = 0
    """Moves a person gave up on after ``PLAY_TIMEOUT`` (the table looked stuck to them)."""
    failed_polls: int = 0
    pending_event: str = ""
    _latencies_seen: int = 0

    def __post_init__(self) -> None:
        self.clicker = Clicker(self.fake, lambda: self.bot.running or self.restarting)

    def now(self) -> float:
        return time.monotonic() - self.started

    async def person(self, channel: int, seed: int) -> None:
        """Two people at one table, clicking on until the soak ends."""
        rng = random.Random(seed)
        users = self.fake.users[:2]
        moves = 0
        while not self.done:
            await self.open.wait()
            if self.done:
                return
            try:
                await asyncio.wait_for(self.play(channel, users, moves), PLAY_TIMEOUT)
            except TimeoutError:
                self.play_timeouts += 1
            moves += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5) * self.think)

    async def play(self, channel: int, users: list[FakeUser], moves: int) -> None:
        """One person's move at the table, or what it takes to get a game going.

        `play_geschenkt` takes a table with Take buttons and no turn mention for a
        computer's turn; a finished game's table keeps its (disabled) Take buttons, so
        a finished game is followed by a new one here, and a computer's turn is waited
        for here (``ANSWER_TIMEOUT`` at most), before `play_geschenkt` is asked."""
        table = table_in(self.fake, channel)
        if table is not None and any_button(table, "Rematch"):  # the game is over
            await self.clicker.slash(users[0], channel, "geschenkt", "start")
            return
        if (
            table is not None
            and any_button(table, "Take")
            and TURN_MENTION.search(table.content or "") is None
        ):
            await self.clicker._changed(table, table.revision)  # a computer is to act
            return
        await play_geschenkt(self.clicker, channel, users, 1, moves, computer=COMPUTER)

    def sample(self) -> None:
        latencies = self.clicker.latencies[self._latencies_seen :]
        self._latencies_seen = len(self.clicker.latencies)
        pid = self.bot.pid
        below = descendants(pid)
        self.samples.append(
            Sample(
                at=self.now(),
                bot_bytes=rss_bytes(pid),
                workers_bytes=sum(rss_bytes(child) for child in below),
                workers=len(below),
                clicks=sum(self.clicker.outcomes.values()),
                games_finished=len(self.finished),
                click_p99_ms=percentile(latencies, 99) * 1000 if latencies else None,
                event=self.pending_event,
            )
        )
        self.pending_event = ""

    async def sampler(self) -> None:
        n = 1
        while (due := n * self.sample_seconds) < self.duration:
            await asyncio.sleep(max(0.0, due - self.now()))
            while self.restarting:  # no sample of a bot half stopped or started
                await asyncio.sleep(0.2)
            self.sample()
            n += 1

    async def poll(self) -> None:
        """Read every table's revision and phase, and the server's finished games."""
        guild = self.fake.guild_id
        try:
            loaded = await asyncio.gather(
                *(self.store.load(guild, c) for c in self.fake.channel_ids)
            )
            gids = await self.client.zrange(history_key(guild), 0, -1)
        except Exception:  # Redis is restarting: try again at the next poll
            self.failed_polls += 1
            return
        self.polls += 1
        self.finished.update(str(gid) for gid in gids)
        now = self.now()
        self.phases = Counter(s.table.phase if s else "none" for s in loaded)
        for channel, stored in zip(self.fake.channel_ids, loaded, strict=True):
            if stored is None:
                continue
            seen = (stored.rev, stored.table.phase)
            before = self.last_change.get(channel)
            if before is None or before[:2] != seen:
                self.last_change[channel] = (*seen, now)
                continue
            if stored.table.phase != "playing":
                continue
            still = now - before[2]
            self.longest_still[channel] = max(self.longest_still.get(channel, 0.0), still)
            if still > 2 * (stored.table.turn_seconds or DEFAULT_TURN_SECONDS):
                self.stuck.add(channel)

    async def poller(self) -> None:
        while not self.done:
            await self.poll()
            await asyncio.sleep(POLL_SECONDS)

    async def revisions(self) -> dict[int, int]:
        """Every table's revision in Redis, by channel."""
        guild, channels = self.fake.guild_id, self.fake.channel_ids
        async with self.client.pipeline(transaction=False) as pipe:
            for channel in channels:
                pipe.hget(table_key(guild, channel), "rev")
            values = await pipe.execute()
        return {c: int(v) for c, v in zip(channels, values, strict=True) if v is not None}

    async def restarts(self) -> None:
        await asyncio.sleep(max(0.0, REDIS_RESTART_AT * self.duration - self.now()))
        keys_before = await self.client.dbsize()
        revisions = await self.revisions()
        began = self.now()
        await asyncio.to_thread(self.redis.restart, self.redis_down)
        keys_after = await self.client.dbsize()
        kept = await self.revisions()
        rolled_back = [c for c, rev in revisions.items() if kept.get(c, 0) < rev]
        self.events.append(
            {
                "event": "redis restart",
                "at_seconds": round(began, 1),
                "seconds": round(self.now() - began, 1),
                "keys_before": keys_before,
                "keys_after": keys_after,
                "tables_before": len(revisions),
                "tables_rolled_back": len(rolled_back),
            }
        )
        self.pending_event = "after Redis restart"

        await asyncio.sleep(max(0.0, BOT_RESTART_AT * self.duration - self.now()))
        began = self.now()
        self.open.clear()
        self.restarting = True
        try:
            await self.bot.stop()  # SIGTERM; SIGKILL after 10 s
            code = self.bot.process.returncode if self.bot.process else None
            await self.bot.start()
        finally:
            self.restarting = False
        self.open.set()
        self.events.append(
            {
                "event": "bot restart",
                "at_seconds": round(began, 1),
                "seconds": round(self.now() - began, 1),
                "exit_code": code,
            }
        )
        self.pending_event = "after bot restart"


def where(task: asyncio.Task[None]) -> str:
    """Where a task waits: the innermost coroutines it awaits, as ``function:line``."""
    names: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is None:
            names.append(type(awaited).__name__)
            break
        names.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return " > ".join(names[-7:])


def check_records(records: list[GameRecord | None]) -> dict[str, Any]:
    """Replay every record: it must end its game with the places and scores it keeps."""
    consistent, wrong = 0, []
    missing = sum(1 for record in records if record is None)
    for record in records:
        if record is None:
            continue
        engine = game(record.game).adapter.engine
        try:
            last = replay_record(game(record.game).adapter, record)[-1]
        except (ReplayBroken, ValueError) as error:
            wrong.append(f"{record.gid}: {error}")
            continue
        if not engine.is_over(last):
            wrong.append(f"{record.gid}: the replay doesn't end the game")
            continue
        outcome = engine.outcome(last)
        if dict(outcome.places) != record.places or dict(outcome.scores) != record.scores:
            wrong.append(f"{record.gid}: the replay ends with other places or scores")
            continue
        consistent += 1
    return {
        "records_checked": len(records),
        "records_consistent": consistent,
        "records_missing": missing,
        "records_inconsistent": len(wrong),
        "inconsistent_sample": wrong[:5],
    }


def bot_errors(text: str) -> tuple[list[str], int]:
    """The log's error lines, and how many WARNING lines it has."""
    lines = text.splitlines()
    errors = [
        line for line in lines if any(m in line for m in LOG_MARKERS) or ERROR_LINE.search(line)
    ]
    return errors, sum(1 for line in lines if " WARNING " in line)


def growth(first: Sample | None, last: Sample | None) -> dict[str, Any] | None:
    """Growth of each process group from one sample to another (a share: 0.05 = 5 %)."""
    if first is None or last is None or last is first:
        return None
    result: dict[str, Any] = {"from_seconds": round(first.at, 1), "to_seconds": round(last.at, 1)}
    for group in ("bot", "workers", "total"):
        before = getattr(first, f"{group}_bytes")
        after = getattr(last, f"{group}_bytes")
        result[group] = (after - before) / before if before else None
    return result


def memory_growth(samples: list[Sample], duration: float) -> dict[str, Any]:
    restarted = next((i for i, s in enumerate(samples) if s.event == "after bot restart"), None)
    before_restart = samples if restarted is None else samples[:restarted]
    after_restart = [] if restarted is None else samples[restarted:]

    def first_from(part: list[Sample], share: float) -> Sample | None:
        return next((s for s in part if s.at >= share * duration - 1e-6), None)

    return {
        "warm_up_to_bot_restart": growth(
            first_from(before_restart, WARM_UP), before_restart[-1] if before_restart else None
        ),
        "after_bot_restart": growth(
            first_from(after_restart, AFTER_RESTART_FROM),
            after_restart[-1] if after_restart else None,
        ),
        "warm_up_to_end_across_restart": growth(
            first_from(samples, WARM_UP), samples[-1] if samples else None
        ),
    }


def growth_met(measured: dict[str, Any]) -> bool:
    segments = [measured["warm_up_to_bot_restart"], measured["after_bot_restart"]]
    return all(
        segment is not None
        and all(
            segment[group] is not None and segment[group] < GROWTH_LIMIT
            for group in ("bot", "workers", "total")
        )
        for segment in segments
    )


async def soak(
    tables: int,
    duration: float,
    think: float,
    sample_seconds: float,
    redis_down: float,
    workdir: Path,
    log_level: str = "WARNING",
    end_grace: float = 35.0,
) -> dict[str, Any]:
    """The soak; ``end_grace``: how long the people's moves under way may take to end
    (past it they are cancelled and counted as still busy)."""
    logging.getLogger("bot").setLevel(logging.ERROR)  # the store's warnings in this process
    redis = PersistentRedis(workdir / "redis")
    fake = FakeDiscord(
        guild_locale=ENGLISH_SERVER,
        channel_names=[f"table-{i}" for i in range(tables)],
        rate_limits=RateLimits(),  # Discord's, as real Discord answers the bot
        # Checking each request and answer against the OpenAPI spec (the suite does) would
        # load the loop that must count requests as they arrive, as Discord's clock does.
        check_spec=False,
    )
    await fake.start()
    url = redis.start()
    env = {"LOG_LEVEL": log_level, "RENDER_PROCESSES": workers()}
    bot = BotProcess(
        "bot",
        fake,
        bot_env(fake, url, env),
        workdir / "bot.log",
        expect_commands=True,
        ready_timeout=60.0,
    )
    client = client_for_url(url)
    run = Soak(
        fake,
        bot,
        redis,
        GameStore(client),
        client,
        tables,
        duration,
        think,
        sample_seconds,
        redis_down,
    )
    outcomes: Counter[str] = Counter()
    opening_log = 0
    busy: list[str] = []
    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    try:
        await bot.start()
        opening = time.monotonic()
        users = fake.users[:2]
        await batched(
            [play_geschenkt(run.clicker, c, users, 0, computer=COMPUTER) for c in fake.channel_ids],
            batch=20,
        )
        opened_seconds = time.monotonic() - opening
        run.clicker.reset()
        opening_log = len(bot.output())
        run.started = time.monotonic()
        run.open.set()
        run.sample()
        people = [
            asyncio.create_task(run.person(channel, seed))
            for seed, channel in enumerate(fake.channel_ids)
        ]
        restarts = asyncio.create_task(run.restarts())
        helpers = [asyncio.create_task(run.poller()), asyncio.create_task(run.sampler())]
        await asyncio.sleep(max(0.0, duration - run.now()))
        await asyncio.wait([restarts])  # a restart under way ends first (never cut short)
        await run.poll()  # the last look for stuck tables, while the people still play
        run.done = True
        run.open.set()
        for task in helpers:
            task.cancel()
        await asyncio.gather(*helpers, return_exceptions=True)
        helper_failures = [repr(restarts.exception())] if restarts.exception() else []
        run.sample()
        _, pending = await asyncio.wait(people, timeout=end_grace)  # moves under way end
        busy = [where(task) for task in pending]
        for task in pending:
            task.cancel()
        failed_people = [
            repr(task.exception())
            for task in people
            if task.done() and not task.cancelled() and task.exception() is not None
        ]
        outcomes = Counter(run.clicker.outcomes)
        finished = sorted(run.finished)
        store = RecordStore(client, days=30)
        records = [await store.load(fake.guild_id, gid) for gid in finished]
        checked = await asyncio.to_thread(check_records, records)
    finally:
        lag_task.cancel()
        with contextlib.suppress(Exception):
            await client.aclose()
        await bot.stop()
        await fake.stop()
        redis.stop()
    errors, warnings = bot_errors(bot.output())
    while_opening, _ = bot_errors(bot.output()[:opening_log])
    measured = memory_growth(run.samples, duration)
    return {
        "tables": tables,
        "seconds": duration,
        "think_seconds": think,
        "sample_seconds": sample_seconds,
        "redis_down_seconds": redis_down,
        "computer": COMPUTER,
        "render_processes": workers(),
        "opened_in_seconds": round(opened_seconds, 1),
        "samples": [s.summary() for s in run.samples],
        "events": run.events,
        "memory_growth": measured,
        "memory_growth_met": growth_met(measured),
        "clicks": sum(outcomes.values()),
        "outcomes": dict(sorted(outcomes.items())),
        "late_or_lost": sum(outcomes[kind] for kind in LATE) + outcomes["no_edit"],
        "games_given_up": run.clicker.gave_up,
        "play_timeouts": run.play_timeouts,
        "games_finished": len(run.finished),
        "bot_error_lines": len(errors),
        "bot_errors_sample": errors[:5],
        "bot_error_lines_while_opening": len(while_opening),
        "bot_warning_lines": warnings,
        "stuck_games": len(run.stuck),
        "stuck_channels": sorted(run.stuck),
        "longest_still_seconds": round(max(run.longest_still.values(), default=0.0), 1),
        "stuck_after_seconds": 2 * DEFAULT_TURN_SECONDS,
        "phases_at_end": dict(run.phases),
        "people_still_busy": len(busy),
        "people_busy_in": dict(Counter(busy).most_common(3)),
        "polls": run.polls,
        "failed_polls": run.failed_polls,
        "bench_failures": helper_failures + failed_people,
        "bot_token_requests": fake.request_counts.bot,
        "interaction_requests": fake.request_counts.interaction,
        "rate_limited": fake.request_counts.rate_limited,
        "loop_lag": lag.summary(fake.rate_limiter.rate_limited),
        **checked,
    }


async def run_soak(
    tables: int,
    minutes: float,
    think: float,
    sample_seconds: float,
    redis_down: float,
    logs: Path | None,
    log_level: str = "WARNING",
    end_grace: float = 35.0,
) -> dict[str, Any]:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) if logs is None else logs
        workdir.mkdir(parents=True, exist_ok=True)
        results = await soak(
            tables, minutes * 60, think, sample_seconds, redis_down, workdir, log_level, end_grace
        )
    return {"minutes": minutes, "load_before": load_before, **results}


# --- the report ---------------------------------------------------------------------


def _percent(share: float | None) -> str:
    return "n/a" if share is None else f"{share * 100:+.1f} %"


def report(results: dict[str, Any], table_every: float) -> list[str]:
    """Print the memory curve (a row each ``table_every`` seconds, at each restart and at
    the end) and return the notes."""
    samples = results["samples"]
    every = max(1, round(table_every / results["sample_seconds"]))
    shown = [
        s for i, s in enumerate(samples) if i % every == 0 or i == len(samples) - 1 or s["event"]
    ]
    rows = [
        [
            s["at_seconds"] / 60,
            s["bot_bytes"] / MIB,
            s["workers_bytes"] / MIB,
            s["workers"],
            s["total_bytes"] / MIB,
            s["clicks"],
            s["games_finished"],
            s["click_p99_ms"],
            s["event"] or None,
        ]
        for s in shown
    ]
    print_table(
        f"Soak: {results['tables']} Geschenkt tables (2 people and a {results['computer']} "
        f"computer each), {results['minutes']:g} minutes; memory in MiB (RSS)",
        ["minute", "bot", "workers", "n", "total", "clicks", "games", "click p99 ms", "event"],
        rows,
        digits=1,
    )
    measured = results["memory_growth"]

    def segment(name: str) -> str:
        part = measured[name]
        if part is None:
            return "n/a (no samples)"
        return (
            f"bot {_percent(part['bot'])}, workers {_percent(part['workers'])}, total "
            f"{_percent(part['total'])} (minute {part['from_seconds'] / 60:.1f} -> "
            f"{part['to_seconds'] / 60:.1f})"
        )

    events = "; ".join(
        f"{e['event']} at minute {e['at_seconds'] / 60:.1f} took {e['seconds']:.1f} s"
        + (
            f" (keys {e['keys_before']} -> {e['keys_after']}; tables whose revision went back: "
            f"{e['tables_rolled_back']} of {e['tables_before']})"
            if "keys_before" in e
            else ""
        )
        + (f" (exit code {e['exit_code']})" if "exit_code" in e else "")
        for e in results["events"]
    )
    notes = [
        f"memory growth after warm-up, up to the bot restart: {segment('warm_up_to_bot_restart')}",
        f"memory growth after the bot restart (a new process): {segment('after_bot_restart')}",
        "across the restart (means little: it starts a new process): "
        f"{segment('warm_up_to_end_across_restart')}",
        f"target growth < {GROWTH_LIMIT:.0%} in both segments, every group: "
        f"{target(results['memory_growth_met'])}",
        f"error lines in the bot's log: {results['bot_error_lines']}, of which "
        f"{results['bot_error_lines_while_opening']} while the tables opened (warnings "
        f"{results['bot_warning_lines']}); target 0: {target(results['bot_error_lines'] == 0)}",
        f"stuck games (running, revision unchanged > {results['stuck_after_seconds']} s while "
        f"the people played): {results['stuck_games']}; longest still "
        f"{results['longest_still_seconds']} s; target 0: {target(results['stuck_games'] == 0)}",
        f"games finished {results['games_finished']}: records consistent "
        f"{results['records_consistent']}, inconsistent {results['records_inconsistent']}, "
        f"missing {results['records_missing']}; target all consistent: "
        + target(
            results["games_finished"] > 0
            and results["records_consistent"] == results["games_finished"]
        ),
        f"clicks {results['clicks']}: {results['outcomes']}; games given up by the players "
        f"{results['games_given_up']}; moves given up after {PLAY_TIMEOUT:.0f} s "
        f"{results['play_timeouts']}; people still busy at the end {results['people_still_busy']}",
        f"restarts: {events or 'none'}",
        f"Discord's rate limits on: {results['bot_token_requests']} bot-token requests "
        f"({results['bot_token_requests'] / max(1, results['clicks']):.2f} a click), "
        f"{results['interaction_requests']} through interactions; 429s "
        f"{results['rate_limited']}; target 0: {target(results['rate_limited'] == 0)}",
        loop_lag_note(results["loop_lag"]),
        f"{results['tables']} tables opened in {results['opened_in_seconds']} s; people click "
        f"every {results['think_seconds']:g} s on average; render workers "
        f"{results['render_processes']}; cores {len(allowed_cpus())}; load average before "
        + ", ".join(f"{x:.2f}" for x in results["load_before"]),
    ]
    if results["bot_errors_sample"]:
        notes.append(f"first error lines: {results['bot_errors_sample'][:2]}")
    if results["inconsistent_sample"]:
        notes.append(f"inconsistent records: {results['inconsistent_sample']}")
    if results["bench_failures"]:
        notes.append(f"the bench's own tasks failed: {results['bench_failures'][:3]}")
    return notes


def loop_lag_note(lag: dict[str, Any]) -> str:
    """The fake's event loop lag, and how late it was near each 429."""
    if not lag:
        return "the fake's event loop: not measured"
    near = ", ".join(f"{n['lag_ms']:.0f}" for n in lag["near_429s_ms"][:10]) or "none"
    return (
        f"the fake's event loop (shared with the simulated people) woke late by "
        f"{lag['p50_ms']:.0f} ms at the median, {lag['p99_ms']:.0f} ms at p99, "
        f"{lag['max_ms']:.0f} ms at worst ({100 * lag['share_over_200_ms']:.1f} % of looks "
        f"over 200 ms); its worst lag within {LAG_NEAR:g} s of each 429, ms: {near}"
    )


def main() -> None:
    args_parser = parser(__doc__ or "")
    args_parser.add_argument("--tables", type=int, default=200, help="tables (default 200)")
    args_parser.add_argument(
        "--minutes", type=float, default=30.0, help="how long they play (default 30)"
    )
    args_parser.add_argument(
        "--think",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="a person's mean pause between clicks (default 3)",
    )
    args_parser.add_argument(
        "--sample-seconds", type=float, default=60.0, help="memory sample interval (default 60)"
    )
    args_parser.add_argument(
        "--logs", type=Path, metavar="DIR", help="keep the bot's output (and Redis dir) here"
    )
    args_parser.add_argument(
        "--bot-log-level", default="WARNING", help="the bot's LOG_LEVEL (default WARNING)"
    )
    args = args_parser.parse_args()
    if args.quick:  # a smoke run: 3 tables for 24 s, both restarts included
        args.tables, args.minutes, args.think, args.sample_seconds = 3, 0.4, 0.5, 3.0
    redis_down = 1.0 if args.quick else 5.0
    print_machine()
    results = asyncio.run(
        run_soak(
            args.tables,
            args.minutes,
            args.think,
            args.sample_seconds,
            redis_down,
            args.logs,
            args.bot_log_level,
            5.0 if args.quick else 35.0,
        )
    )
    table_every = 300.0 if args.minutes >= 20 else 60.0
    print_notes(report(results, max(table_every, args.sample_seconds)))
    write_json(args.json, "soak", results)


if __name__ == "__main__":
    main()
