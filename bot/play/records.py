"""A game's record in play: noting each move, replaying a record through the engine,
and keeping it when the game ends (with the determinism guard).

The record of a running game is its `Table`: options, seed, seats and ``moves``. A move
is replayed the way it was made: a click, typed move or timed default through the
adapter's `perform` (which reads the keys buttons and commands carry), a computer's
choice through the engine (its action as text), a resignation through the adapter's
`concede`; a seat taken over by a computer changes no state.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from pydantic import BaseModel

from bot.adapters.base import GameAdapter
from bot.engines.base import GameError, PlayerId
from bot.storage.errors import StoreError
from bot.storage.records import GameRecord, RecordStore
from bot.table import Move, MoveKind, Seat, Table

log = logging.getLogger(__name__)

_reported: set[str] = set()
"""Games whose record didn't replay, already logged (each is logged once)."""


def note(table: Table, player: PlayerId, key: str, by: MoveKind = "click") -> None:
    """Add a move to ``table``'s record (in place: the table about to be saved)."""
    table.moves.append(Move(p=player, k=key, by=by, t=int(time.time())))


class ReplayBroken(Exception):
    """A record that doesn't replay (a move the engine refuses)."""


def first_state(
    adapter: GameAdapter[Any, Any, Any], seats: list[Seat], seed: int, options: dict[str, Any]
) -> BaseModel:
    engine = adapter.engine
    state: BaseModel = engine.new_game(
        [seat.id for seat in seats], seed, engine.Options.model_validate(options)
    )
    return state


def step(adapter: GameAdapter[Any, Any, Any], state: BaseModel, move: Move) -> BaseModel:
    """The state after ``move``."""
    try:
        if move.by in ("click", "default"):
            moved: BaseModel = adapter.perform(state, move.p, move.k)
            return moved
        if move.by in ("computer", "clock"):
            moved = adapter.engine.apply(state, move.p, move.k)
            return moved
        if move.by == "resign":
            conceded: BaseModel | None = adapter.concede(state, move.p)
            if conceded is None:
                raise ReplayBroken(f"{move.p} can't resign in {adapter.engine.name}")
            return conceded
    except GameError as error:
        raise ReplayBroken(f"{move.by} {move.k!r} by {move.p}: {error}") from error
    return state  # a takeover


def replay(
    adapter: GameAdapter[Any, Any, Any],
    seats: list[Seat],
    seed: int,
    options: dict[str, Any],
    moves: list[Move],
) -> list[BaseModel]:
    """The state before the first move and after each one (``len(moves) + 1`` states);
    raises `ReplayBroken` at a move the engine refuses."""
    states = [first_state(adapter, seats, seed, options)]
    for move in moves:
        states.append(step(adapter, states[-1], move))
    return states


def replay_record(adapter: GameAdapter[Any, Any, Any], record: GameRecord) -> list[BaseModel]:
    return replay(adapter, record.seats, record.seed, record.options, record.moves)


def replays_to(adapter: GameAdapter[Any, Any, Any], table: Table, state: BaseModel) -> bool:
    """Whether ``table``'s record replays to ``state`` (the determinism guard)."""
    try:
        last = replay(adapter, table.seats, table.seed, table.options, table.moves)[-1]
    except (ReplayBroken, ValueError) as error:
        log.debug("Game %s doesn't replay: %s", table.gid, error)
        return False
    return last.model_dump(mode="json") == state.model_dump(mode="json")


async def keep_record(
    records: RecordStore, adapter: GameAdapter[Any, Any, Any], table: Table, state: BaseModel
) -> None:
    """The game ended: check that its record replays to its final state (a mismatch is
    logged once, at ERROR) and keep it for ``HISTORY_DAYS``."""
    replays = await asyncio.to_thread(replays_to, adapter, table, state)  # off the loop
    if not replays and table.gid not in _reported:
        _reported.add(table.gid)
        log.error(
            "The record of game %s (%s) does not replay to its final state", table.gid, table.game
        )
    try:
        outcome = adapter.engine.outcome(state)
    except GameError:
        outcome = None
    ended = table.moves[-1].t if table.moves else time.time()
    try:
        await records.keep(GameRecord.of(table, outcome, ended))
    except StoreError as error:
        log.warning("The record of game %s was not kept yet: %s", table.gid, error)
