"""The end-to-end cost of a click: interaction sent -> callback received.

Runs the real bot (`python -m bot`) against the local fake Discord and a real Redis,
with N concurrent Geschenkt games each clicking as fast as it is answered, and in
the same run the null bot (a minimal discord.py bot answering a button with a fixed
message) as the floor. Needs the test extra (the harness lives in tests/harness).

A click that goes wrong (answered after Discord's 3 s, never answered, refused, or
acknowledged without the table changing) is counted and the game goes on the way a
person would carry on: read the channel's current table again, and if it may be out
of date, post it again with ``/geschenkt status``.

With ``--computers`` each level is measured a second time with a hard computer
player seated at every table as well (it thinks in the bot's worker processes): the
click latency with and without, and the computers' decision times (from the bot's
/metrics histograms: with the wait for a free worker, and the thinking alone).
``--rounds N`` measures each level N times over, without and with the computers in
turn, and sets the click p99 of all rounds' clicks with the computers against the one
without: their difference and its 95 % bootstrap interval, over rounds and clicks (one
run's p99 is its 15th slowest click of 1,500, and varies by a factor of two from run
to run).

    python -m bench.interactions [--quick] [--json PATH] [--level GAMES:CLICKS ...]
        [--computers [--rounds N]]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bench.common import (
    ENGLISH_SERVER,
    parser,
    percentile,
    print_machine,
    print_notes,
    print_table,
    target,
    write_json,
)
from bot.config import default_render_processes
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotProcess, RedisServer, bot_env
from tests.harness.models import FakeInteraction, FakeMessage, FakeUser, button_text

Json = dict[str, Any]
ANSWER_TIMEOUT = 30.0
"""How long to wait for a callback, or for the table edit after a deferred update."""
TURN_MENTION = re.compile(r"<@(\d+)>")
ADD_COMPUTER = "Add computer player…"
COMPUTER_LEVEL = "hard"
"""The computer seated at every table with ``--computers``: the level that searches."""
DECISIONS = "tablebot_computer_decision_seconds"
THINKS = "tablebot_computer_think_seconds"
"""The same decisions without the wait for a free worker: the search's own time."""
LATE = ("late", "failed", "unanswered")
RESAMPLES = 1000
"""Bootstrap resamples for the interval of the pooled p99s' difference."""
LATE_SECONDS = 3.0
"""What a click answered late or never counts as in the pooled p99s: Discord's limit,
the least it took (so a click the computers make late counts against them)."""
Round = tuple[list[float], list[float]]
"""One round's clicks in seconds, late ones as `LATE_SECONDS`: without and with the
computers."""

Outcome = Literal["ok", "refused", "late", "failed", "unanswered", "no_edit", "missing"]
"""What became of one interaction:

- ok: answered within 3 s (and, for a move, the clicked message then showed the new table);
- refused: answered within 3 s with a message of its own (a slash command's refusal is
  ephemeral; a click's is any reply instead of the table update);
- late: the callback came after Discord's 3 s (Discord would have dropped it);
- failed: the fake refused the callback for another reason;
- unanswered: no callback within ANSWER_TIMEOUT;
- no_edit: acknowledged (deferred update), but the table edit never came;
- missing: the button was not on the message (nothing was sent).
"""


@dataclass
class Level:
    games: int
    clicks_per_game: int


FULL_LEVELS = [Level(1, 300), Level(50, 30), Level(200, 8)]
QUICK_LEVELS = [Level(1, 30), Level(50, 4)]


class Clicker:
    """Sends component and slash interactions straight through the fake and awaits answers.

    The driver's "settle" wait is made for tests; under load the bot is never quiet,
    so the benchmark waits for each interaction's own callback instead. Nothing here
    raises when the bot is slow or wrong (only when its process is gone): every
    interaction ends with an `Outcome`.
    """

    def __init__(self, fake: FakeDiscord, alive: Callable[[], bool] = lambda: True) -> None:
        """``alive``: whether the bot process still runs (checked when an answer is overdue)."""
        self.fake = fake
        self.alive = alive
        self.latencies: list[float] = []
        """Measured clicks: sent -> callback received, for every callback within 3 s."""
        self.updates: list[float] = []
        """Measured clicks: sent -> the clicked message shows the new table (bot edits only)."""
        self.outcomes: Counter[str] = Counter()
        """Measured clicks by `Outcome`."""
        self.refusals: Counter[str] = Counter()
        """Measured clicks refused: the bot's reply text, by how often."""
        self.gave_up = 0
        """Games that could not be brought back to a playable table (see `GESCHENKT_STEPS`)."""

    def reset(self) -> None:
        self.latencies.clear()
        self.updates.clear()
        self.outcomes.clear()
        self.refusals.clear()
        self.gave_up = 0

    async def slash(self, user: FakeUser, channel_id: int, group: str, sub: str) -> Outcome:
        """Run ``/group sub``: ok if it posted a public message, refused if only ephemeral."""
        data = {
            "id": str(self.fake.find_command(group)["id"]),
            "name": group,
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": []}],
        }
        interaction = self.fake.create_interaction(
            type=2, user=user, channel_id=channel_id, data=data
        )
        outcome = await self._send(interaction)
        if outcome != "ok":
            return outcome
        reply = self.fake.messages.get(interaction.original_message_id or 0)
        return "ok" if reply is not None and not reply.ephemeral else "refused"

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        label: str,
        *,
        measure: bool = True,
        edits: bool = True,
    ) -> Outcome:
        """Click ``label`` on the message's current version, wait for the answer and
        (``edits``) for the clicked message to change."""
        revision = message.revision
        button = next((b for b in message.buttons if button_text(b) == label), None)
        if button is None or "custom_id" not in button:
            outcome: Outcome = "missing"
            if measure:
                self.outcomes[outcome] += 1
            return outcome
        interaction = self.fake.create_interaction(
            type=3,
            user=user,
            channel_id=message.channel_id,
            data={"custom_id": button["custom_id"], "component_type": 2},
            message_id=message.id,
        )
        outcome = await self._send(interaction)
        if outcome == "ok" and measure:
            assert interaction.answered_at is not None
            self.latencies.append(interaction.answered_at - interaction.created_at)
        if outcome == "ok" and edits:
            if interaction.callback_type not in (6, 7):  # a reply instead of the new table
                outcome = "refused"
                if measure:
                    self.refusals[self._reply_text(interaction)] += 1
            elif await self._changed(message, revision):
                if measure:
                    self.updates.append(self.fake.clock.now() - interaction.created_at)
            else:
                outcome = "no_edit"
        if measure:
            self.outcomes[outcome] += 1
        return outcome

    async def choose(
        self, user: FakeUser, message: FakeMessage, placeholder: str, values: list[str]
    ) -> Outcome:
        """Pick ``values`` in the message's select ``placeholder`` (not measured)."""
        menu = next((s for s in message.selects if s.get("placeholder") == placeholder), None)
        if menu is None:
            return "missing"
        interaction = self.fake.create_interaction(
            type=3,
            user=user,
            channel_id=message.channel_id,
            data={"custom_id": menu["custom_id"], "component_type": menu["type"], "values": values},
            message_id=message.id,
        )
        return await self._send(interaction)

    def _reply_text(self, interaction: FakeInteraction) -> str:
        reply = self.fake.messages.get(interaction.original_message_id or 0)
        return reply.text if reply is not None else "?"

    async def _changed(self, message: FakeMessage, revision: int) -> bool:
        try:
            await self.fake.wait_for(
                lambda: message.revision != revision, timeout=ANSWER_TIMEOUT, what="table edit"
            )
        except AssertionError:
            return False
        return True

    async def _send(self, interaction: FakeInteraction) -> Outcome:
        """Send and wait for the callback."""
        await self.fake.send_interaction(interaction)
        try:
            await self.fake.wait_for(
                lambda: interaction.answered or interaction.failure,
                timeout=ANSWER_TIMEOUT,
                what=interaction.describe(),
            )
        except AssertionError:
            if not self.alive():
                raise RuntimeError("the bot process exited during the benchmark") from None
            return "unanswered"
        if interaction.answered:
            return "ok"
        failure = interaction.failure or ""
        return "late" if failure.startswith("callback after") else "failed"


def table_in(fake: FakeDiscord, channel_id: int) -> FakeMessage | None:
    """The newest public bot message in the channel made as an interaction answer (turn
    pings, which the bot posts on its own, are not tables), if any."""
    public = [
        m
        for m in fake.messages.values()
        if m.channel_id == channel_id
        and not m.ephemeral
        and not m.deleted
        and m.author.id == fake.bot_user.id
        and m.interaction_id is not None
    ]
    return max(public, key=lambda m: m.id) if public else None


async def open_panels(clicker: Clicker, channel_id: int, users: list[FakeUser]) -> None:
    """Everyone opens their private panel once, as players do; the bot then keeps the
    panels current after every move (counted as panel edits)."""
    for user in users:
        table = table_in(clicker.fake, channel_id)
        if table is not None and enabled(table, "My hand"):
            await clicker.click(user, table, "My hand", measure=False, edits=False)


def panel_edits(fake: FakeDiscord) -> int:
    """Edits of private panels made without a click on them (each version after the
    first of an ephemeral message)."""
    return sum(len(m.history) for m in fake.messages.values() if m.ephemeral)


def any_button(message: FakeMessage, label: str) -> bool:
    """Whether the message has a button ``label``, enabled or not."""
    return any(button_text(b) == label for b in message.buttons)


def enabled(message: FakeMessage, label: str) -> bool:
    return any(button_text(b) == label and not b.get("disabled") for b in message.buttons)


GESCHENKT_STEPS = 30
"""Interactions a game may spend on (re)opening and recovering beyond its measured clicks."""


async def play_geschenkt(
    clicker: Clicker,
    channel_id: int,
    users: list[FakeUser],
    clicks: int,
    moves_before: int = 0,
    computer: str | None = None,
) -> None:
    """Make ``clicks`` measured moves (0: only get a game going) in the channel.

    With ``computer`` (a level), each game seats a computer player of that level too;
    its turns are waited for, not measured.

    Moves alternate No thanks, No thanks, Take by whoever is to act (``moves_before``:
    how many moves earlier calls made here, to carry the pattern on); a finished game
    is followed by a new one (``/geschenkt start``, Join, Start). After any interaction
    that did not show its result, the table on screen may be stale (the bot may have
    saved the move but never drawn it), so it is posted again with ``/geschenkt status``.
    """
    host, *guests = users
    by_id = {user.id: user for user in users}
    made = refusals = 0
    stale = False
    for _ in range(GESCHENKT_STEPS + 2 * clicks):
        if clicks and made == clicks:
            return
        if stale:
            outcome = await clicker.slash(host, channel_id, "geschenkt", "status")
            stale = outcome in LATE  # refused: no game here (any more); start one below
            continue
        table = table_in(clicker.fake, channel_id)
        mention = TURN_MENTION.search(table.content or "") if table is not None else None
        if table is not None and mention is not None and enabled(table, "Take"):
            if made == clicks:
                return
            take = (moves_before + made) % 3 == 2 or refusals or not enabled(table, "No thanks")
            label = "Take" if take else "No thanks"
            outcome = await clicker.click(by_id[int(mention[1])], table, label)
            made += 1
            refusals = refusals + 1 if outcome == "refused" else 0
            stale = outcome not in ("ok", "refused") or refusals > 1
        elif table is not None and mention is None and any_button(table, "Take"):
            # A computer is to act: its move redraws the table (or the game is over).
            stale = not await clicker._changed(table, table.revision)
        elif table is not None and enabled(table, "Join"):
            missing = [g for g in guests if f"• {g.display_name}" not in table.text]
            if computer is not None and "🤖" not in table.text:
                outcome = await clicker.choose(host, table, ADD_COMPUTER, [computer])
                stale = outcome != "ok"
                continue
            user, label = (missing[0], "Join") if missing else (host, "Start")
            outcome = await clicker.click(user, table, label, measure=False)
            stale = outcome != "ok"
            if label == "Start" and not stale:
                await open_panels(clicker, channel_id, users)
        else:  # no table yet, results, or a closed table
            outcome = await clicker.slash(host, channel_id, "geschenkt", "start")
            stale = outcome != "ok"
    clicker.gave_up += 1


async def play_null(
    clicker: Clicker, channel_id: int, users: list[FakeUser], clicks: int, moves_before: int = 0
) -> None:
    made = 0
    for _ in range(GESCHENKT_STEPS + clicks):
        table = table_in(clicker.fake, channel_id)
        if table is None or not enabled(table, "Take"):
            await clicker.slash(users[0], channel_id, "null", "post")
            continue
        if made == clicks:
            return
        await clicker.click(users[0], table, "Take", edits=False)
        made += 1
    clicker.gave_up += 1


@dataclass
class Bot:
    module: str
    play: Callable[[Clicker, int, list[FakeUser], int], Awaitable[None]]


OURS = Bot("bot", play_geschenkt)
OURS_WITH_COMPUTERS = Bot("bot", partial(play_geschenkt, computer=COMPUTER_LEVEL))
NULL = Bot("tests.harness.null_bot", play_null)


@dataclass
class Measured:
    latencies: list[float]
    updates: list[float]
    outcomes: Counter[str]
    refusals: Counter[str]
    gave_up: int
    bot_errors: list[str]
    panel_edits: int
    """Private panels the bot edited on its own while the clicks were timed."""
    decisions: Json = field(default_factory=dict)
    """The computers' decisions while the clicks were timed (`decision_summary`)."""


async def measure(bot: Bot, level: Level, workdir: Path) -> Measured:
    """Start Redis, the fake and the bot; set up ``level.games`` tables; time the clicks."""
    redis = RedisServer(workdir / f"redis-{bot.module}-{level.games}")
    fake = FakeDiscord(
        guild_locale=ENGLISH_SERVER,
        channel_names=[f"table-{i}" for i in range(level.games)],
        check_spec=False,
    )
    await fake.start()
    port = free_port()
    env = {"LOG_LEVEL": "WARNING", "RENDER_PROCESSES": workers(), "METRICS_PORT": str(port)}
    process = BotProcess(
        bot.module,
        fake,
        bot_env(fake, redis.start(), env),
        workdir / f"{bot.module}-{level.games}.log",
        expect_commands=True,
        ready_timeout=30.0,
    )
    try:
        await process.start()
        clicker = Clicker(fake, lambda: process.running)
        players = fake.users[:3]
        await batched([bot.play(clicker, c, players, 0) for c in fake.channel_ids], batch=25)
        clicker.reset()
        edits_before = panel_edits(fake)
        decided_before = await decision_buckets(bot, port)
        await asyncio.gather(
            *(bot.play(clicker, c, players, level.clicks_per_game) for c in fake.channel_ids)
        )
        await fake.wait_idle(0.5, timeout=30.0)
        decided = await decision_buckets(bot, port)
        return Measured(
            clicker.latencies,
            clicker.updates,
            clicker.outcomes,
            clicker.refusals,
            clicker.gave_up,
            process.problems(),
            panel_edits(fake) - edits_before,
            decision_summary(decided_before, decided),
        )
    finally:
        await process.stop()
        await fake.stop()
        redis.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


Buckets = dict[tuple[str, float], float]
"""A decision histogram: (where it ran, bucket upper bound) -> cumulative count."""


async def decision_buckets(bot: Bot, port: int) -> dict[str, Buckets]:
    """The bot's computer decision histograms (`DECISIONS`, `THINKS`; of every game and
    level), from /metrics."""
    if bot.module != "bot":
        return {}
    timeout = aiohttp.ClientTimeout(total=30)
    async with (
        aiohttp.ClientSession(timeout=timeout) as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        text = await response.text()
    histograms: dict[str, Buckets] = {DECISIONS: {}, THINKS: {}}
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            metric = found.name.removesuffix("_bucket")
            if found.name.endswith("_bucket") and metric in histograms:
                buckets = histograms[metric]
                key = (found.labels["ran_in"], float(found.labels["le"]))
                buckets[key] = buckets.get(key, 0.0) + found.value
    return histograms


def _made(before: dict[str, Buckets], after: dict[str, Buckets], metric: str) -> Buckets:
    """The decisions ``metric`` recorded between two readings."""
    now, then = after.get(metric, {}), before.get(metric, {})
    return {key: now[key] - then.get(key, 0.0) for key in now}


def _total(made: Buckets) -> dict[float, float]:
    """A histogram's buckets summed over where the decisions ran."""
    total: dict[float, float] = {}
    for (_where, bound), count in made.items():
        total[bound] = total.get(bound, 0.0) + count
    return total


def decision_summary(before: dict[str, Buckets], after: dict[str, Buckets]) -> Json:
    """Decisions made between two histogram readings: how many, where, p50 and p99 (ms)
    estimated from the buckets as Prometheus' ``histogram_quantile`` does, with the wait
    for a free worker (``p50_ms``, ``p99_ms``) and without (``think_p50_ms``, ...)."""
    made = _made(before, after, DECISIONS)
    total = _total(made)
    thought = _total(_made(before, after, THINKS))
    return {
        "decisions": int(total.get(float("inf"), 0)),
        "in_workers": int(made.get(("worker", float("inf")), 0)),
        "in_bot_process": int(made.get(("bot", float("inf")), 0)),
        "p50_ms": bucket_quantile(total, 0.5),
        "p99_ms": bucket_quantile(total, 0.99),
        "think_p50_ms": bucket_quantile(thought, 0.5),
        "think_p99_ms": bucket_quantile(thought, 0.99),
    }


def bucket_quantile(cumulative: dict[float, float], q: float) -> float | None:
    """The ``q`` quantile in ms of a histogram's cumulative buckets, linear within one."""
    bounds = sorted(cumulative)
    if not bounds or cumulative[bounds[-1]] == 0:
        return None
    rank = q * cumulative[bounds[-1]]
    lower_bound, lower_count = 0.0, 0.0
    for bound in bounds:
        count = cumulative[bound]
        if count >= rank:
            if bound == float("inf"):
                return lower_bound * 1000  # beyond the last bucket: its bound
            share = (rank - lower_count) / (count - lower_count) if count > lower_count else 1
            return (lower_bound + (bound - lower_bound) * share) * 1000
        lower_bound, lower_count = bound, count
    return None


def workers() -> str:
    """The bot's render workers: ``RENDER_PROCESSES`` if set here, else the bot's default
    (the tests' environment pins one)."""
    return os.environ.get("RENDER_PROCESSES") or str(default_render_processes())


async def batched(jobs: list[Awaitable[None]], batch: int) -> None:
    for start in range(0, len(jobs), batch):
        await asyncio.gather(*jobs[start : start + batch])


def _ms(values: list[float], q: float) -> float | None:
    return percentile([value * 1000 for value in values], q) if values else None


def summarize(measured: Measured) -> dict[str, Any]:
    outcomes = measured.outcomes
    return {
        "clicks": sum(outcomes.values()),
        "late": sum(outcomes[kind] for kind in LATE),
        "refused": outcomes["refused"],
        "no_edit": outcomes["no_edit"],
        "outcomes": dict(sorted(outcomes.items())),
        "refusals": dict(measured.refusals.most_common(5)),
        "games_given_up": measured.gave_up,
        "panel_edits": measured.panel_edits,
        "p50_ms": _ms(measured.latencies, 50),
        "p95_ms": _ms(measured.latencies, 95),
        "p99_ms": _ms(measured.latencies, 99),
        "update_p50_ms": _ms(measured.updates, 50),
        "update_p99_ms": _ms(measured.updates, 99),
        "bot_error_lines": len(measured.bot_errors),
        "bot_errors_sample": measured.bot_errors[:5],
        "computer_decisions": measured.decisions,
    }


async def run(
    levels: list[Level], logs: Path | None = None, computers: bool = False, rounds: int = 1
) -> dict[str, Any]:
    """Measure each level, ours then the null bot (``computers``: then ours again with a
    hard computer at every table), ``rounds`` times over; ``logs``: keep the bots' logs
    there. With the computers, ``pooled`` sets all rounds' clicks against each other."""
    results: dict[str, Any] = {
        "levels_asked": [level.__dict__ for level in levels],
        "computers": computers,
        "rounds": rounds,
        "levels": [],
        "pooled": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) if logs is None else logs
        for level in levels:
            paired: list[Round] = []
            for round_ in range(1, rounds + 1):
                started = time.perf_counter()
                here = workdir / f"round-{round_}" if rounds > 1 else workdir
                here.mkdir(parents=True, exist_ok=True)
                ours_measured = await measure(OURS, level, here)
                ours = summarize(ours_measured)
                floor = summarize(await measure(NULL, level, here))
                measured: dict[str, Any] = {
                    "games": level.games,
                    "clicks_per_game": level.clicks_per_game,
                    "round": round_,
                    "ours": ours,
                    "null_bot": floor,
                    "p99_ratio": _ratio(ours["p99_ms"], floor["p99_ms"]),
                }
                if computers:
                    (here / "computers").mkdir(exist_ok=True)
                    with_computers = await measure(OURS_WITH_COMPUTERS, level, here / "computers")
                    measured["ours_with_computers"] = summarize(with_computers)
                    paired.append((timed(ours_measured), timed(with_computers)))
                measured["seconds"] = time.perf_counter() - started
                results["levels"].append(measured)
            if rounds > 1 and paired:
                results["pooled"].append(
                    {
                        "games": level.games,
                        "clicks_per_game": level.clicks_per_game,
                        "rounds": rounds,
                        **p99_difference(paired),
                    }
                )
    return results


def timed(measured: Measured) -> list[float]:
    """The measured clicks' times to the callback, one answered late or never as
    `LATE_SECONDS`."""
    late = sum(measured.outcomes[kind] for kind in LATE)
    return measured.latencies + [LATE_SECONDS] * late


def _pooled_p99_ms(rounds: list[Round], side: int) -> float:
    return percentile([value * 1000 for pair in rounds for value in pair[side]], 99)


def p99_difference(rounds: list[Round], seed: int = 0, resamples: int = RESAMPLES) -> Json:
    """The click p99 (ms) of all rounds' clicks without and with the computers, the
    difference with − without, and its 95 % interval: a two-stage bootstrap
    (``resamples`` times: rounds drawn with replacement, each round's clicks with and
    without kept together, then each drawn round's clicks drawn with replacement), so
    the spread from round to round counts as well as the clicks' own. Seeded: the same
    clicks give the same interval."""
    rng = random.Random(seed)
    differences = []
    for _ in range(resamples):
        drawn = [
            (rng.choices(without, k=len(without)), rng.choices(with_, k=len(with_)))
            for without, with_ in rng.choices(rounds, k=len(rounds))
        ]
        differences.append(_pooled_p99_ms(drawn, 1) - _pooled_p99_ms(drawn, 0))
    p99_without, p99_with = _pooled_p99_ms(rounds, 0), _pooled_p99_ms(rounds, 1)
    return {
        "timed_without": sum(len(without) for without, _ in rounds),
        "timed_with": sum(len(with_) for _, with_ in rounds),
        "late_without": sum(without.count(LATE_SECONDS) for without, _ in rounds),
        "late_with": sum(with_.count(LATE_SECONDS) for _, with_ in rounds),
        "p99_without_ms": p99_without,
        "p99_with_ms": p99_with,
        "difference_ms": p99_with - p99_without,
        "interval_ms": [percentile(differences, 2.5), percentile(differences, 97.5)],
    }


def _ratio(ours: float | None, floor: float | None) -> float | None:
    if ours is None or not floor:
        return None
    return ours / floor


def report(results: dict[str, Any]) -> list[str]:
    rows = []
    for level in results["levels"]:
        ours, floor = level["ours"], level["null_bot"]
        rows.append(
            [
                level["games"],
                level["round"],
                ours["clicks"],
                ours["late"],
                ours["refused"],
                ours["no_edit"],
                ours["p50_ms"],
                ours["p95_ms"],
                ours["p99_ms"],
                ours["update_p50_ms"],
                ours["update_p99_ms"],
                floor["p50_ms"],
                floor["p99_ms"],
                floor["late"],
                level["p99_ratio"],
                ours["panel_edits"],
                level["seconds"],
            ]
        )
    print_table(
        "Click to callback, Geschenkt (ms)",
        [
            "games",
            "round",
            "clicks",
            "late",
            "refused",
            "no edit",
            "p50",
            "p95",
            "p99",
            "table p50",
            "table p99",
            "null p50",
            "null p99",
            "null late",
            "p99 / null",
            "panel edits",
            "run s",
        ],
        rows,
        digits=1,
    )
    notes = [
        "p50/p95/p99: click sent -> callback (the bot acknowledges once the move is saved), "
        "over the clicks answered within Discord's 3 s.",
        "table p50/p99: click sent -> the table message shows the new image.",
        "null: a bare discord.py bot answering a button with a fixed message.",
        f"render workers (RENDER_PROCESSES): {workers()}",
        "panel edits: each player opens their private panel once per game, and the bot "
        "keeps it current after every move; edits made while the clicks were timed.",
        "late: clicks answered after 3 s (Discord drops them), refused by the fake, or not "
        "answered in 30 s; not in p50-p99.",
        "refused: answered with a message instead of the new table; no edit: acknowledged, "
        "but the table was not redrawn in 30 s.",
        "after any of these the game carries on from the table on screen, re-posted with "
        "/geschenkt status when it may be stale.",
    ]
    for level in results["levels"]:
        for who in ("ours", "null_bot"):
            side = level[who]
            if side["games_given_up"] or side["bot_error_lines"]:
                notes.append(
                    f"{level['games']} games, {who}: {side['games_given_up']} games given up, "
                    f"{side['bot_error_lines']} error lines in the bot's log "
                    f"(first: {side['bot_errors_sample'][:1]})"
                )
            if side["refusals"]:
                notes.append(f"{level['games']} games, {who}: refusals {side['refusals']}")
    if results["computers"]:
        computer_report(results)
    for at_50 in (level for level in results["levels"] if level["games"] == 50):
        if at_50["p99_ratio"] is None:
            continue
        p99, ratio = at_50["ours"]["p99_ms"], at_50["p99_ratio"]
        where = f"round {at_50['round']}: " if results["rounds"] > 1 else ""
        notes.append(f"{where}target p99 at 50 games within 2x the null bot: {target(ratio <= 2)}")
        notes.append(
            f"{where}target p99 at 50 games under 50 ms ({p99:.1f} ms): {target(p99 < 50)}"
        )
    if results["pooled"]:
        notes.append(
            "all rounds: a click answered late or never counts as 3 s (Discord's limit); the "
            "95% interval draws rounds, then each drawn round's clicks"
        )
    for pooled in results["pooled"]:
        shown_slower = pooled["interval_ms"][0] > 0
        notes.append(
            f"target at {pooled['games']} games, the click p99 with the computers not shown "
            f"slower than without (the difference's interval reaches 0): "
            f"{target(not shown_slower)}"
        )
    return notes


def computer_report(results: dict[str, Any]) -> None:
    rows = []
    for level in results["levels"]:
        without, with_ = level["ours"], level["ours_with_computers"]
        decisions = with_["computer_decisions"]
        rows.append(
            [
                level["games"],
                level["round"],
                with_["clicks"],
                with_["late"],
                without["p50_ms"],
                without["p99_ms"],
                with_["p50_ms"],
                with_["p99_ms"],
                without["update_p99_ms"],
                with_["update_p99_ms"],
                decisions.get("decisions"),
                decisions.get("in_workers"),
                decisions.get("p50_ms"),
                decisions.get("p99_ms"),
                decisions.get("think_p50_ms"),
                decisions.get("think_p99_ms"),
            ]
        )
    print_table(
        f"Clicks with a {COMPUTER_LEVEL} computer at every table (ms)",
        [
            "games",
            "round",
            "clicks",
            "late",
            "p50 without",
            "p99 without",
            "p50 with",
            "p99 with",
            "table p99 without",
            "table p99 with",
            "decisions",
            "in workers",
            "decision p50",
            "decision p99",
            "thinking p50",
            "thinking p99",
        ],
        rows,
        digits=1,
    )
    if results["pooled"]:
        pooled_report(results["pooled"])


def pooled_report(pooled: list[Json]) -> None:
    print_table(
        "Click p99 of all rounds, without and with the computers (ms)",
        [
            "games",
            "rounds",
            "timed without",
            "timed with",
            "late without",
            "late with",
            "p99 without",
            "p99 with",
            "with - without",
            "95% interval",
        ],
        [
            [
                row["games"],
                row["rounds"],
                row["timed_without"],
                row["timed_with"],
                row["late_without"],
                row["late_with"],
                row["p99_without_ms"],
                row["p99_with_ms"],
                row["difference_ms"],
                f"{row['interval_ms'][0]:.1f} to {row['interval_ms'][1]:.1f}",
            ]
            for row in pooled
        ],
        digits=1,
    )


def level_arg(text: str) -> Level:
    try:
        games, clicks = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected GAMES:CLICKS, got {text!r}") from None
    if games < 1 or clicks < 1:
        raise argparse.ArgumentTypeError("games and clicks must be at least 1")
    return Level(games, clicks)


def main() -> None:
    args_parser = parser(__doc__ or "")
    args_parser.add_argument(
        "--level",
        type=level_arg,
        action="append",
        metavar="GAMES:CLICKS",
        help="concurrent games and measured clicks per game, instead of the default levels "
        "(repeatable; e.g. --level 50:30)",
    )
    args_parser.add_argument(
        "--logs", type=Path, metavar="DIR", help="keep the bots' output (and Redis dirs) here"
    )
    args_parser.add_argument(
        "--computers",
        action="store_true",
        help=f"measure each level again with a {COMPUTER_LEVEL} computer player at every "
        "table, and its decision times",
    )
    args_parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="N",
        help="with --computers: measure each level N times, without and with the computers "
        "in turn, and compare the click p99 of all rounds' clicks (default 1)",
    )
    args = args_parser.parse_args()
    if args.rounds < 1 or (args.rounds > 1 and not args.computers):
        args_parser.error("--rounds takes a number from 1, and more than 1 needs --computers")
    levels = args.level or (QUICK_LEVELS if args.quick else FULL_LEVELS)
    print_machine()
    results = asyncio.run(run(levels, args.logs, args.computers, args.rounds))
    print_notes(report(results))
    write_json(args.json, "interactions", results)


if __name__ == "__main__":
    main()
