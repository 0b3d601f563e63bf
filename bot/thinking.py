"""Where computer players think: in worker processes, off the bot's event loop and GIL.

A hard player searches for up to ``COMPUTER_THINK_SECONDS`` (`bot.ai.budget`) holding
Python's global lock; in a thread of the bot process that slowed every other click.
`Thinkers` hands each decision to a pool of its own (`bot.workers`), not the render
pool: a second-long search there would hold up the ~10 ms drawings of every other
table behind it. With no worker processes (``RENDER_PROCESSES=0``) a decision runs in
a thread of the bot process, as before.

Thinking workers run at a lower CPU priority (`THINKER_NICENESS`): on a busy machine
the bot process and its render workers (and Redis, where it shares their scheduling
group) get more of the CPU, so computers slow people's clicks less, and a search that
gets less CPU stops on its clock with a shallower result (a node budget keeps it
reproducible on an idle machine).

The budget runs from when the bot asks (`bot.ai.budget.seconds_left`): a decision that
waited for a free worker thinks only for what is left of it, so a computer's move
comes about on time also when many tables think at once.

What crosses to a worker is ``(game, level, view, rng, asked_at)``, all of which pickle; a
chooser may not (``make_hard()`` returns a closure), so each worker looks it up in
``bot.ai.<game>.PLAYERS``, the mapping the registry (`bot.games`) names and checks.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Mapping

from pydantic import BaseModel

from bot.ai import Chooser, Level
from bot.ai.budget import deciding_within, seconds_left, set_think_seconds
from bot.engines.base import SeededRng
from bot.metrics import COMPUTER_DECISION_SECONDS, COMPUTER_THINK_SECONDS
from bot.workers import Workers

THINKER_NICENESS = 5
"""How much lower thinking workers run than the bot process (`os.nice`). Linux's
scheduler gives a process at +5 about a quarter of a core against one at 0 when both
want it, and all of it when the core is otherwise idle. At +10 (a tenth) the computers'
answers came too late under load (`bench.interactions --computers`, 50 tables: decisions
p99 over the budget + 100 ms in one run of four)."""


def players_of(game: str) -> Mapping[Level, Chooser]:
    """The computer players of ``game``: ``bot.ai.<game>.PLAYERS``."""
    players: Mapping[Level, Chooser] = importlib.import_module(f"bot.ai.{game}").PLAYERS
    return players


def choose(
    game: str, level: Level, view: BaseModel, rng: SeededRng, asked_at: float
) -> tuple[BaseModel | str, int, float]:
    """In a worker: the ``level`` player's action for the seat whose ``view`` this is,
    thinking for what is left of the budget since ``asked_at`` (`time.time`); the id of
    the process that chose it and the seconds it took there."""
    return choose_in_time(players_of(game)[level], view, rng, asked_at)


def choose_in_time(
    chooser: Chooser, view: BaseModel, rng: SeededRng, asked_at: float
) -> tuple[BaseModel | str, int, float]:
    """``chooser``'s action, thinking for what is left of the budget since ``asked_at``;
    the id of this process and the seconds it took."""
    started = time.perf_counter()
    with deciding_within(seconds_left(asked_at, time.time())):
        action = chooser(view, rng)
    return action, os.getpid(), time.perf_counter() - started


def start_thinker(think_seconds: float, games: tuple[str, ...]) -> None:
    """Run in each worker as it starts: a lower CPU priority, the decision budget, and
    the games' players loaded (the first decision shouldn't pay for importing them)."""
    lower_priority(THINKER_NICENESS)
    set_think_seconds(think_seconds)
    for game in games:
        players_of(game)


def lower_priority(steps: int) -> None:
    """Lower the CPU priority of this worker (its calling thread, on Linux) by ``steps``
    (no-op where the OS has no `os.nice`)."""
    if hasattr(os, "nice"):
        os.nice(steps)


class Thinkers:
    """The pool computer players think in, and the decision times it records."""

    def __init__(self, processes: int, think_seconds: float, games: tuple[str, ...] = ()) -> None:
        """``games``: the players each worker loads as it starts (others on first use)."""
        set_think_seconds(think_seconds)  # for decisions made in this process
        self._workers = Workers(processes, "computer player", start_thinker, (think_seconds, games))

    @property
    def in_processes(self) -> bool:
        """Whether decisions run in worker processes (else in a thread of this one)."""
        return self._workers.in_processes

    async def decide(
        self, game: str, level: Level, view: BaseModel, rng: SeededRng
    ) -> BaseModel | str:
        """The ``level`` computer player's action for the seat whose ``view`` this is."""
        started = time.perf_counter()
        asked_at = time.time()
        action, pid, thought = await self._workers.run(choose, game, level, view, rng, asked_at)
        ran_in = "bot" if pid == os.getpid() else "worker"
        COMPUTER_DECISION_SECONDS.labels(game=game, level=level, ran_in=ran_in).observe(
            time.perf_counter() - started
        )
        COMPUTER_THINK_SECONDS.labels(game=game, level=level, ran_in=ran_in).observe(thought)
        return action

    def close(self) -> None:
        self._workers.close()
