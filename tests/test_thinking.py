"""Computer players think in worker processes of their own (`bot.thinking`), with the
budget of COMPUTER_THINK_SECONDS; without worker processes, in a thread of this one."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY

from bot.ai import LEVELS
from bot.ai.budget import (
    ANSWER_SECONDS,
    DEFAULT_THINK_SECONDS,
    MIN_THINK_SECONDS,
    deciding_within,
    seconds_left,
    set_think_seconds,
    think_seconds,
)
from bot.engines.base import SeededRng
from bot.engines.geschenkt import ENGINE, GeschenktAction, GeschenktView
from bot.games import GAMES
from bot.thinking import THINKER_NICENESS, Thinkers, choose_in_time, players_of, start_thinker
from bot.workers import Workers


@pytest.fixture(autouse=True)
def default_budget() -> Iterator[None]:
    """`Thinkers` sets this process's budget too (for the thread fallback): put it back."""
    yield
    set_think_seconds(DEFAULT_THINK_SECONDS)


def recorded(
    game: str, level: str, ran_in: str, metric: str = "decision", sample: str = "count"
) -> float:
    """A sample of ``tablebot_computer_<metric>_seconds`` (decision: the wait for a
    worker included; think: without it): ``count`` decisions or their ``sum`` of seconds."""
    labels = {"game": game, "level": level, "ran_in": ran_in}
    name = f"tablebot_computer_{metric}_seconds_{sample}"
    return REGISTRY.get_sample_value(name, labels) or 0.0


def a_view() -> tuple[GeschenktView, str]:
    state = ENGINE.new_game(["a", "b", "c"], 7)
    player = ENGINE.to_act(state)[0]
    return ENGINE.view(state, player), player


def test_a_decision_that_waited_for_a_worker_thinks_only_for_what_is_left() -> None:
    set_think_seconds(1.0)
    whole = 1.0 - ANSWER_SECONDS
    assert seconds_left(asked_at=100.0, now=100.0) == pytest.approx(whole)
    assert seconds_left(asked_at=100.0, now=100.25) == pytest.approx(whole - 0.25)
    assert seconds_left(asked_at=100.0, now=99.5) == pytest.approx(whole)  # a clock behind
    assert seconds_left(asked_at=100.0, now=100.95) == MIN_THINK_SECONDS
    assert seconds_left(asked_at=100.0, now=160.0) == MIN_THINK_SECONDS


def test_a_decisions_budget_holds_for_that_decision_only() -> None:
    set_think_seconds(0.8)
    with deciding_within(0.3):
        assert think_seconds() == 0.3
        with deciding_within(0.1):
            assert think_seconds() == 0.1
        assert think_seconds() == 0.3
    assert think_seconds() == 0.8


def budget_seen(view: object, rng: SeededRng) -> str:
    """A chooser that answers with the budget it was given."""
    return str(think_seconds())


def test_a_chooser_thinks_for_what_is_left_since_the_bot_asked() -> None:
    set_think_seconds(1.0)
    view, _ = a_view()
    now = time.time()
    fresh, pid, _ = choose_in_time(budget_seen, view, SeededRng(), asked_at=now)
    waited, _, _ = choose_in_time(budget_seen, view, SeededRng(), asked_at=now - 0.4)
    late, _, _ = choose_in_time(budget_seen, view, SeededRng(), asked_at=now - 30)
    assert pid == os.getpid()
    assert 0.9 < float(str(fresh)) <= 1.0 - ANSWER_SECONDS
    assert 0.5 < float(str(waited)) <= 0.6 - ANSWER_SECONDS
    assert float(str(late)) == MIN_THINK_SECONDS
    assert think_seconds() == 1.0  # the next decision starts from the whole budget


def test_every_registered_game_has_its_players_where_workers_look_them_up() -> None:
    for spec in GAMES:
        assert players_of(spec.name) is spec.players, spec.name


def thinking_process() -> tuple[int, float]:
    """In a worker: its process id and its decision budget."""
    return os.getpid(), think_seconds()


async def test_a_thinking_worker_gets_the_budget_it_was_given() -> None:
    workers = Workers(1, "test", start_thinker, (0.25, ("geschenkt",)))
    try:
        pid, budget = await workers.run(thinking_process)
    finally:
        workers.close()
    assert pid != os.getpid()
    assert budget == 0.25


def niceness() -> int:
    """This process's niceness (`os.nice` with no change)."""
    return os.nice(0)


async def test_a_thinking_worker_yields_the_cpu_to_the_bot_process() -> None:
    ours = niceness()
    workers = Workers(1, "test", start_thinker, (0.25, ()))
    try:
        theirs = await workers.run(niceness)
    finally:
        workers.close()
    assert theirs == min(19, ours + THINKER_NICENESS)  # Linux's lowest priority is 19


async def test_decisions_are_made_in_a_worker_process_and_timed() -> None:
    view, player = a_view()
    thinkers = Thinkers(1, 0.5, ("geschenkt",))
    assert thinkers.in_processes
    before = {level: recorded("geschenkt", level, "worker") for level in LEVELS}
    thought_before = {level: recorded("geschenkt", level, "worker", "think") for level in LEVELS}
    took_before = {
        metric: recorded("geschenkt", "hard", "worker", metric, "sum")
        for metric in ("decision", "think")
    }
    in_bot = recorded("geschenkt", "hard", "bot")
    try:
        actions = {
            level: await thinkers.decide("geschenkt", level, view, SeededRng.from_seed(3))
            for level in LEVELS
        }
    finally:
        thinkers.close()
    for level in LEVELS:
        assert recorded("geschenkt", level, "worker") == before[level] + 1, level
        assert recorded("geschenkt", level, "worker", "think") == thought_before[level] + 1
    assert recorded("geschenkt", "hard", "bot") == in_bot
    took = {
        metric: recorded("geschenkt", "hard", "worker", metric, "sum") - took_before[metric]
        for metric in ("decision", "think")
    }
    assert 0 < took["think"] < took["decision"]  # thinking is timed apart from the trip
    state = ENGINE.new_game(["a", "b", "c"], 7)
    for level, action in actions.items():
        assert isinstance(action, GeschenktAction | str)
        ENGINE.apply(state, player, action)  # legal for the seat
        if level != "hard":  # hard may stop on the clock; the others are exact
            assert action == players_of("geschenkt")[level](view, SeededRng.from_seed(3))


async def test_without_worker_processes_decisions_are_made_in_this_one() -> None:
    view, player = a_view()
    thinkers = Thinkers(0, 0.3)
    assert not thinkers.in_processes
    assert think_seconds() == 0.3, "the thread fallback thinks with the setting too"
    before = recorded("geschenkt", "normal", "bot")
    action = await thinkers.decide("geschenkt", "normal", view, SeededRng.from_seed(5))
    thinkers.close()
    assert recorded("geschenkt", "normal", "bot") == before + 1
    assert action == players_of("geschenkt")["normal"](view, SeededRng.from_seed(5))
    assert isinstance(action, GeschenktAction | str)
    ENGINE.apply(ENGINE.new_game(["a", "b", "c"], 7), player, action)
