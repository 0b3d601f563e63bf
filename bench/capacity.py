"""What a click costs in CPU, old code against new, with Discord's rate limits on.

No 2-core machine can show how many clicks a second a deployment serves: the bot, its
render worker, Redis and the fake Discord all share the two cores, and the fake alone
takes a good part of them. What it can show is where the CPU goes, per click, in each
kind of process, and how that compares with other code on the same machine in the
same run. So this bench runs the bot of two checkouts (``--old DIR``, the code to
compare with, and this one) side by side, several rounds, against the fake Discord with
Discord's rate limits on (`tests.harness.rate_limits`), and reports:

- the bot process's CPU ms per click: its CPU time (user + system, from /proc) over a
  hold at a fixed click rate, divided by the clicks it answered;
- the render worker's CPU ms per table image: the render worker processes' CPU time
  over the hold, divided by the table images they drew (the bot's own
  ``tablebot_render_seconds`` count of ``render_table``, from ``/metrics``; the worker's
  other calls, Geschenkt's private panels, which have no image, are part of its cost);
- for context, the same for Redis and this bench (the fake Discord and the clicks),
  the bot-token requests and the 429s per click, and the click latencies.

Clicks arrive as an open-loop Poisson stream (players click when they decide to, not
when they are answered) at ``--rate`` a second, each on a Geschenkt table that isn't
waiting for an answer, on ``--tables`` tables (people open their private panels, which
the bot keeps current). A finished game is started again (unmeasured clicks whose cost
falls on the measured ones, the same for both codes). In each round both codes run at
once, each in a fresh bot process with one render worker, its own Redis and its own
fake, warmed up and measured over the same seconds: the machine's other load, which
changes CPU time per click (shared caches, frequency), falls on both alike.

The old code runs from its own directory (``PYTHONPATH=DIR`` with ``PYTHONSAFEPATH``,
so the bot, its workers and every module they import are that checkout's). It shares
this venv's packages unless ``--old-python`` names the Python of a venv with the
packages that code shipped with (``pip install DIR`` into a fresh venv): the packages
are part of what a click costs (redis-py's parser, discord.py's JSON). ``--old .``
compares this code with itself.

    python -m bench.capacity --old DIR [--old-python PATH] [--quick] [--rate N]
        [--hold S] [--rounds N] [--tables N] [--json PATH] [--logs DIR]
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import redis
from prometheus_client.parser import text_string_to_metric_families

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
from bench.interactions import Clicker, batched, free_port, play_geschenkt
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotProcess, RedisServer, bot_env
from tests.harness.models import FakeUser
from tests.harness.rate_limits import RateLimits

REPO = Path(__file__).resolve().parents[1]
SEED = 22
BOT_TARGET = 0.5
"""Issue 41: the bot process's CPU per click at most 0.5x the old code's."""
RENDER_TARGET = 0.7
"""Issue 41: the render worker's CPU per table image at most 0.7x the old code's."""
RENDERED = "tablebot_render_seconds"
"""The bot's histogram of drawings (both codes have it), labelled by drawing function."""
TABLE_DRAWING = ".render_table"
KINDS = ("bot", "render worker", "other children", "redis", "bench")


@dataclass(frozen=True)
class Code:
    """A checkout whose bot is measured: ``name`` in the tables, ``root`` its directory."""

    name: str
    root: Path
    python: str
    """The Python that runs it (and so the packages it imports)."""


@dataclass(frozen=True)
class Settings:
    rate: float
    hold: float
    warm_up: float
    tables: int
    rounds: int
    profile: Path | None = None
    """Where to write py-spy's profiles of the bot and its render worker over each hold
    (collapsed stacks, for flame graphs), if py-spy is installed."""


@dataclass
class Round:
    """One code's measured hold."""

    code: str
    round: int
    clicks: int = 0
    """Clicks sent during the hold (one per free table at each arrival)."""
    served: int = 0
    """Clicks the bot answered (in time or not)."""
    sending_seconds: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    """CPU time each kind of process spent over the hold."""
    images: int = 0
    """Table images drawn over the hold (the bot's render count)."""
    drawings: dict[str, int] = field(default_factory=dict)
    """Every call to the render worker over the hold, by drawing function."""
    redis_commands: dict[str, int] = field(default_factory=dict)
    """Commands Redis ran over the hold, by command."""
    bot_requests: int = 0
    interaction_requests: int = 0
    rate_limited: int = 0
    callback_ms: list[float] = field(default_factory=list)
    redraw_ms: list[float] = field(default_factory=list)
    bot_error_lines: int = 0
    bot_errors_sample: list[str] = field(default_factory=list)

    @property
    def bot_ms_per_click(self) -> float | None:
        return _per(self.cpu_seconds.get("bot", 0.0), self.served)

    @property
    def render_ms_per_image(self) -> float | None:
        return _per(self.cpu_seconds.get("render worker", 0.0), self.images)

    def summary(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "round": self.round,
            "clicks": self.clicks,
            "served": self.served,
            "sent_rate": round(self.clicks / max(self.sending_seconds, 1e-9), 1),
            "outcomes": self.outcomes,
            "images": self.images,
            "drawings": self.drawings,
            "cpu_seconds": {kind: round(s, 3) for kind, s in self.cpu_seconds.items()},
            "cpu_ms_per_click": {
                kind: _round(_per(s, self.served)) for kind, s in self.cpu_seconds.items()
            },
            "bot_ms_per_click": _round(self.bot_ms_per_click),
            "render_ms_per_image": _round(self.render_ms_per_image),
            "bot_requests_per_click": _round(_ratio(self.bot_requests, self.served), 3),
            "interaction_requests_per_click": _round(
                _ratio(self.interaction_requests, self.served), 3
            ),
            "redis_commands_per_click": _round(
                _ratio(sum(self.redis_commands.values()), self.served)
            ),
            "redis_commands": self.redis_commands,
            "rate_limited": self.rate_limited,
            "callback_p50_ms": _pct(self.callback_ms, 50),
            "callback_p99_ms": _pct(self.callback_ms, 99),
            "redraw_p95_ms": _pct(self.redraw_ms, 95),
            "bot_error_lines": self.bot_error_lines,
            "bot_errors_sample": self.bot_errors_sample,
        }


def _per(seconds: float, count: int) -> float | None:
    return 1000 * seconds / count if count else None


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def _pct(values: list[float], q: float) -> float | None:
    return round(percentile(values, q), 1) if values else None


# --- the processes and their CPU ------------------------------------------------------


def code_env(code: Code) -> dict[str, str]:
    """What makes ``python -m bot`` (and its spawned workers) import ``code``'s modules:
    its directory first on the path, and not the working directory."""
    return {"PYTHONPATH": str(code.root), "PYTHONSAFEPATH": "1"}


def kinds_of(bot: int, server: RedisServer) -> dict[str, list[int]]:
    """The processes of one code's run, by kind: the bot, its render worker (its
    ``spawn`` children: no computer plays here, so the thinking pool starts none), other
    children (multiprocessing's resource tracker), Redis and this bench."""
    assert server.process is not None
    workers: list[int] = []
    others: list[int] = []
    for pid in descendants(bot):
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            (workers if b"spawn_main" in command else others).append(pid)
    return {
        "bot": [bot],
        "render worker": workers,
        "other children": others,
        "redis": [server.process.pid],
        "bench": [os.getpid()],
    }


def cpu_seconds(kinds: dict[str, list[int]]) -> dict[str, float]:
    """Each kind's CPU time so far (user + system, from /proc; a process gone counts 0),
    and each kind's system time alone (as ``"<kind> system"``)."""
    tick = os.sysconf("SC_CLK_TCK")
    spent = {}
    for kind, pids in kinds.items():
        user = system = 0
        for pid in pids:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                user, system = user + int(fields[11]), system + int(fields[12])
        spent[kind] = (user + system) / tick
        spent[f"{kind} system"] = system / tick
    return spent


@contextlib.contextmanager
def profiling(settings: Settings, kinds: dict[str, list[int]], label: str) -> Iterator[None]:
    """With ``settings.profile``: py-spy samples the bot and its render worker while the
    block runs (it stops them for each sample: the CPU figures of a profiled run are
    not the bench's)."""
    spy = shutil.which("py-spy")
    if settings.profile is None or spy is None:
        yield
        return
    settings.profile.mkdir(parents=True, exist_ok=True)
    spies = [
        subprocess.Popen(
            [
                *(spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "200", "--gil"),
                *("--output", str(settings.profile / f"{label}-{kind.replace(' ', '-')}.txt")),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for kind in ("bot", "render worker")
        for pid in kinds[kind]
    ]
    try:
        yield
    finally:
        for process in spies:
            process.send_signal(signal.SIGINT)
        for process in spies:
            process.wait(30)


def redis_calls(url: str) -> Counter[str]:
    """Commands Redis has run so far, by command (``INFO commandstats``)."""
    with redis.Redis.from_url(url) as client:
        stats = client.info("commandstats")
    return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})


async def drawings(port: int) -> Counter[str]:
    """The bot's drawings so far, by drawing function: its render histogram's counts."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        text = await response.text()
    counts: Counter[str] = Counter()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if family.name == RENDERED and sample.name == f"{RENDERED}_count":
                counts[sample.labels.get("drawing", "?")] += int(sample.value)
    return counts


def table_images(counts: Counter[str]) -> int:
    """The table images among ``counts`` (a game's ``render_table``; not the private
    panels, which in Geschenkt have no image: a round trip to the worker for None)."""
    return sum(n for drawing, n in counts.items() if drawing.endswith(TABLE_DRAWING))


# --- the clicks -----------------------------------------------------------------------


async def offer_clicks(
    clicker: Clicker,
    moves: dict[int, int],
    players: list[FakeUser],
    rate: float,
    hold: float,
    seed: int,
) -> tuple[int, float]:
    """Clicks at exponential gaps for ``hold`` seconds, each on a table not waiting for
    an answer (an arrival that finds none is dropped). ``moves``: the moves made so far
    at each table, counted on. Returns the clicks sent and how long sending took."""
    rng = random.Random(seed)
    free = set(moves)
    loop = asyncio.get_running_loop()
    started = loop.time()
    due = 0.0
    sent: list[asyncio.Task[None]] = []

    async def click_on(channel: int) -> None:
        try:
            await play_geschenkt(clicker, channel, players, 1, moves[channel])
        finally:
            moves[channel] += 1
            free.add(channel)

    while (due := due + rng.expovariate(rate)) < hold:
        await asyncio.sleep(max(0.0, started + due - loop.time()))
        if not free:
            continue
        channel = rng.choice(sorted(free))
        free.discard(channel)
        sent.append(asyncio.create_task(click_on(channel)))
    sending = loop.time() - started
    await asyncio.gather(*sent)
    return len(sent), sending


async def measure(
    code: Code, number: int, settings: Settings, workdir: Path, together: asyncio.Barrier
) -> Round:
    """One round of one code: Redis, the rate-limited fake and the bot started; the
    tables opened; a warm-up; then the measured hold. ``together``: the other code's
    round waits at the same points, so both warm up and are measured at the same time
    (and neither is stopped while the other is measured)."""
    label = f"{code.name}-{number}"
    server = RedisServer(workdir / f"redis-{label}")
    fake = FakeDiscord(
        guild_locale=ENGLISH_SERVER,
        channel_names=[f"table-{i}" for i in range(settings.tables)],
        check_spec=False,
        rate_limits=RateLimits(),  # Discord's, as real Discord answers the bot
    )
    await fake.start()
    port = free_port()
    extra = {
        "LOG_LEVEL": "WARNING",
        "RENDER_PROCESSES": "1",
        "METRICS_PORT": str(port),
        **code_env(code),
    }
    process = BotProcess(
        "bot",
        fake,
        bot_env(fake, server.start(), extra),
        workdir / f"{label}.log",
        expect_commands=True,
        ready_timeout=60.0,
        python=code.python,
    )
    measured = Round(code.name, number)
    try:
        await process.start()
        clicker = Clicker(fake, lambda: process.running)
        players = fake.users[:3]
        channels = list(fake.channels)
        await batched([play_geschenkt(clicker, c, players, 0, 0) for c in channels], batch=20)
        moves = dict.fromkeys(channels, 0)
        seed = SEED + number
        await together.wait()
        await offer_clicks(clicker, moves, players, settings.rate, settings.warm_up, seed)
        clicker.reset()
        kinds = kinds_of(process.pid, server)
        before, drawn = cpu_seconds(kinds), await drawings(port)
        called = redis_calls(server.url)
        counts = fake.request_counts
        requests = (counts.bot, counts.interaction, counts.rate_limited)
        with profiling(settings, kinds, label):
            measured.clicks, measured.sending_seconds = await offer_clicks(
                clicker, moves, players, settings.rate, settings.hold, seed + 1000
            )
        spent, drawn_now = cpu_seconds(kinds), await drawings(port)
        measured.drawings = dict(drawn_now - drawn)
        measured.redis_commands = dict(redis_calls(server.url) - called)
        measured.images = table_images(drawn_now - drawn)
        measured.bot_requests = counts.bot - requests[0]
        measured.interaction_requests = counts.interaction - requests[1]
        measured.rate_limited = counts.rate_limited - requests[2]
        measured.cpu_seconds = {kind: spent[kind] - before[kind] for kind in spent}
        outcomes: Counter[str] = clicker.outcomes
        measured.outcomes = dict(outcomes)
        measured.served = sum(outcomes.values()) - outcomes["unanswered"] - outcomes["missing"]
        measured.callback_ms = [s * 1000 for s in clicker.latencies]
        measured.redraw_ms = [s * 1000 for s in clicker.updates]
        errors = process.problems()
        measured.bot_error_lines, measured.bot_errors_sample = len(errors), errors[:3]
        await together.wait()
    except BaseException:
        await together.abort()  # the other round stops too, instead of waiting for this one
        raise
    finally:
        await process.stop()
        await fake.stop()
        server.stop()
    return measured


# --- the run and its report -----------------------------------------------------------


def totals(rounds: list[Round]) -> dict[str, Any]:
    """One code's rounds together: CPU over all its holds, per click and per image."""
    served = sum(r.served for r in rounds)
    images = sum(r.images for r in rounds)
    cpu = {kind: sum(r.cpu_seconds.get(kind, 0.0) for r in rounds) for kind in KINDS}
    cpu["bench"] /= 2  # one bench process serves both codes' clicks at once: half is each's
    return {
        "served": served,
        "images": images,
        "cpu_ms_per_click": {kind: _round(_per(s, served)) for kind, s in cpu.items()},
        "bot_ms_per_click": _round(_per(cpu["bot"], served)),
        "render_ms_per_image": _round(_per(cpu["render worker"], images)),
        "images_per_click": _round(_ratio(images, served), 3),
        "bot_requests_per_click": _round(_ratio(sum(r.bot_requests for r in rounds), served), 3),
        "redis_commands_per_click": _round(
            _ratio(sum(sum(r.redis_commands.values()) for r in rounds), served)
        ),
        "rate_limited": sum(r.rate_limited for r in rounds),
        "callback_p99_ms": _pct([ms for r in rounds for ms in r.callback_ms], 99),
        "redraw_p95_ms": _pct([ms for r in rounds for ms in r.redraw_ms], 95),
        "round_bot_ms_per_click": [_round(r.bot_ms_per_click) for r in rounds],
        "round_render_ms_per_image": [_round(r.render_ms_per_image) for r in rounds],
        "drawings": dict(sum((Counter(r.drawings) for r in rounds), Counter())),
        "bot_error_lines": sum(r.bot_error_lines for r in rounds),
    }


async def run(old: Code, new: Code, settings: Settings, logs: Path | None) -> dict[str, Any]:
    results: dict[str, Any] = {
        "old_code": str(old.root),
        "old_python": old.python,
        "new_python": new.python,
        "rate": settings.rate,
        "hold_seconds": settings.hold,
        "warm_up_seconds": settings.warm_up,
        "tables": settings.tables,
        "rounds": settings.rounds,
        "render_processes": 1,
        "load_before": os.getloadavg(),
    }
    measured: list[Round] = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) if logs is None else logs
        workdir.mkdir(parents=True, exist_ok=True)
        for number in range(settings.rounds):
            started = time.perf_counter()
            together = asyncio.Barrier(2)
            both = await asyncio.gather(
                *(measure(code, number, settings, workdir, together) for code in (old, new))
            )
            for one in both:
                print(
                    f"  round {number + 1} {one.code}: {one.served} clicks, {one.images} "
                    f"images, bot {_fmt(one.bot_ms_per_click)} ms a click, render "
                    f"{_fmt(one.render_ms_per_image)} ms an image "
                    f"({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
            measured += both
    results["measured"] = [r.summary() for r in measured]
    results["codes"] = {
        code.name: totals([r for r in measured if r.code == code.name]) for code in (old, new)
    }
    before, after = results["codes"][old.name], results["codes"][new.name]
    results["bot_ratio"] = _ratio_of(after["bot_ms_per_click"], before["bot_ms_per_click"])
    results["render_ratio"] = _ratio_of(after["render_ms_per_image"], before["render_ms_per_image"])
    results["targets"] = {
        "bot_ratio": BOT_TARGET,
        "render_ratio": RENDER_TARGET,
        "bot_met": _at_most(results["bot_ratio"], BOT_TARGET),
        "render_met": _at_most(results["render_ratio"], RENDER_TARGET),
    }
    return results


def _ratio_of(new: float | None, old: float | None) -> float | None:
    return round(new / old, 3) if new is not None and old else None


def _at_most(ratio: float | None, bound: float) -> bool:
    return ratio is not None and ratio <= bound


def _fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def report(results: dict[str, Any], old: str, new: str) -> list[str]:
    codes = results["codes"]
    rows: list[list[Any]] = []
    for name in (old, new):
        figures = codes[name]
        cpu = figures["cpu_ms_per_click"]
        rows.append(
            [
                name,
                figures["served"],
                figures["bot_ms_per_click"],
                figures["images"],
                figures["render_ms_per_image"],
                cpu["redis"],
                cpu["bench"],
                figures["bot_requests_per_click"],
                figures["rate_limited"],
                figures["callback_p99_ms"],
                figures["redraw_p95_ms"],
            ]
        )
    rows.append(
        [
            f"{new} / {old}",
            None,
            results["bot_ratio"],
            None,
            results["render_ratio"],
            None,
            None,
            None,
            None,
            None,
            None,
        ]
    )
    print_table(
        f"CPU per click, {results['tables']} Geschenkt tables, {results['rate']:g} clicks/s, "
        f"{results['rounds']} rounds of {results['hold_seconds']:g} s, both codes at once, "
        "Discord's rate limits on",
        [
            "code",
            "clicks",
            "bot ms/click",
            "images",
            "render ms/image",
            "redis ms/click",
            "bench ms/click",
            "bot-token req/click",
            "429s",
            "callback p99",
            "redraw p95",
        ],
        rows,
        digits=2,
    )
    targets = results["targets"]
    notes = [
        f"target bot process <= {BOT_TARGET}x the old code's CPU per click: "
        f"{_fmt(results['bot_ratio'])}x, {target(targets['bot_met'])}",
        f"target render worker <= {RENDER_TARGET}x the old code's CPU per image: "
        f"{_fmt(results['render_ratio'])}x, {target(targets['render_met'])}",
        "per round, bot ms/click: "
        + "; ".join(f"{name} {codes[name]['round_bot_ms_per_click']}" for name in (old, new)),
        "per round, render ms/image: "
        + "; ".join(f"{name} {codes[name]['round_render_ms_per_image']}" for name in (old, new)),
        "images a click: "
        + ", ".join(f"{name} {_fmt(codes[name]['images_per_click'])}" for name in (old, new)),
        f"old code: {results['old_code']}; 1 render worker each; cores for all: "
        f"{len(allowed_cpus())}; load average before: "
        + ", ".join(f"{x:.2f}" for x in results["load_before"]),
    ]
    for name in (old, new):
        if codes[name]["bot_error_lines"]:
            notes.append(f"{name}: {codes[name]['bot_error_lines']} error lines in its log")
    return notes


def main() -> None:
    args_parser = parser(__doc__ or "")
    args_parser.add_argument(
        "--old",
        type=Path,
        required=True,
        metavar="DIR",
        help="a checkout of the code to compare with (`.`: this code against itself)",
    )
    args_parser.add_argument("--old-name", default="old", help="the old code's name in the table")
    args_parser.add_argument(
        "--old-python",
        default=sys.executable,
        metavar="PATH",
        help="the Python that runs the old code (default: this venv's)",
    )
    args_parser.add_argument(
        "--new",
        type=Path,
        default=REPO,
        metavar="DIR",
        help="the code measured against it (default: this checkout)",
    )
    args_parser.add_argument("--new-name", default="new", help="the new code's name in the table")
    args_parser.add_argument(
        "--new-python",
        default=sys.executable,
        metavar="PATH",
        help="the Python that runs the new code (default: this venv's)",
    )
    args_parser.add_argument("--rate", type=float, help="clicks a second (default 20)")
    args_parser.add_argument("--hold", type=float, help="seconds measured a round (default 60)")
    args_parser.add_argument("--rounds", type=int, help="rounds (default 4)")
    args_parser.add_argument("--tables", type=int, help="Geschenkt tables (default 60)")
    args_parser.add_argument(
        "--logs", type=Path, metavar="DIR", help="keep the bots' output (and Redis dirs) here"
    )
    args_parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="write py-spy profiles of the bot and its render worker here (needs py-spy)",
    )
    args = args_parser.parse_args()
    quick = args.quick
    settings = Settings(
        rate=args.rate or (10.0 if quick else 20.0),
        hold=args.hold or (4.0 if quick else 60.0),
        warm_up=2.0 if quick else 10.0,
        tables=args.tables or (12 if quick else 60),
        rounds=args.rounds or (1 if quick else 4),
        profile=args.profile,
    )
    old = Code(args.old_name, args.old.resolve(), args.old_python)
    new = Code(args.new_name, args.new.resolve(), args.new_python)
    if new.name == old.name:
        args_parser.error("the two codes need different names (--old-name, --new-name)")
    print_machine()
    results = asyncio.run(run(old, new, settings, args.logs))
    print_notes(report(results, old.name, new.name))
    write_json(args.json, "capacity", results)


if __name__ == "__main__":
    main()
