"""Prometheus metrics of the bot (served by `bot.health` when METRICS_PORT is set).

The metrics live in prometheus-client's default registry, next to its process metrics
(CPU, memory, open files). Values that Redis or the gateway know (tables per game,
heartbeat latency) are read when Prometheus scrapes, not kept up to date in between.
"""

from __future__ import annotations

import re
import time

from prometheus_client import Counter, Gauge, Histogram

INTERACTIONS = Counter(
    "tablebot_interactions",
    "Interactions handled, by kind (application_command, component, ...) and outcome "
    "(ok, refused: a player's mistake, store_error, error: a bug)",
    ["kind", "outcome"],
)
CLICK_TO_CALLBACK = Histogram(
    "tablebot_click_callback_seconds",
    "From a click (a component interaction) reaching the bot to Discord accepting its "
    "interaction callback",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0),
)
RENDER_SECONDS = Histogram(
    "tablebot_render_seconds",
    "Time to draw an image, waiting for a render worker included, by drawing function",
    ["drawing"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
DECISION_BUCKETS = (
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    0.75,
    0.9,
    1.0,
    1.1,
    1.25,
    1.5,
    2.0,
    3.0,
    5.0,
)
"""Both decision histograms' buckets: the same bounds, so one's quantiles can be set
against the other's; fine around the 1 s budget (is a decision within 100 ms of it?)."""
COMPUTER_DECISION_SECONDS = Histogram(
    "tablebot_computer_decision_seconds",
    "Time a computer player took over one decision, waiting for a worker included, by "
    "game, level and where it ran (worker: a worker process; bot: a thread of the bot's "
    "process, without worker processes)",
    ["game", "level", "ran_in"],
    buckets=DECISION_BUCKETS,
)
COMPUTER_THINK_SECONDS = Histogram(
    "tablebot_computer_think_seconds",
    "Time a computer player spent choosing one move in the process that chose it: the "
    "decision time less the wait for a free worker, by game, level and where it ran",
    ["game", "level", "ran_in"],
    buckets=DECISION_BUCKETS,
)
REDIS_ERRORS = Counter(
    "tablebot_redis_errors", "Redis calls that failed: Redis unreachable or too slow"
)
GATEWAY_LATENCY = Gauge(
    "tablebot_gateway_latency_seconds",
    "Heartbeat round trip to the Discord gateway (NaN while not connected)",
)
TABLES = Gauge("tablebot_tables", "Tables stored in Redis, by game and phase", ["game", "phase"])

_CALLBACK_PATH = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_clicks_in_flight: dict[int, float] = {}
"""Interaction id -> when its click reached the bot (time.perf_counter())."""


def click_arrived(interaction_id: int) -> None:
    _clicks_in_flight[interaction_id] = time.perf_counter()


def click_done(interaction_id: int) -> None:
    """Forget a click once handled (its callback was timed, or it failed before one)."""
    _clicks_in_flight.pop(interaction_id, None)


def callback_answered(path: str) -> None:
    """A request to ``path`` ended: if it was a click's callback, time the click from
    its arrival (`bot.__main__` calls this from discord.py's HTTP trace)."""
    match = _CALLBACK_PATH.search(path)
    if match is None:
        return
    arrived = _clicks_in_flight.pop(int(match.group(1)), None)
    if arrived is not None:
        CLICK_TO_CALLBACK.observe(time.perf_counter() - arrived)


def count_tables(counts: dict[tuple[str, str], int]) -> None:
    """Set the tables gauge to ``counts`` ((game, phase) -> tables), dropping gone ones."""
    TABLES.clear()
    for (game, phase), count in counts.items():
        TABLES.labels(game=game, phase=phase).set(count)
