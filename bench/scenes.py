"""Game states and stored tables the benchmarks measure, built through the engines'
public API (``new_game``, ``legal_actions``, ``apply``) and the bot's own `Table`.

Everything is seeded, so every run measures the same states.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from bot.engines import geschenkt
from bot.engines.base import Engine, PlayerId
from bot.engines.geschenkt import GeschenktOptions, GeschenktState
from bot.store import Seat, Table

NAMES = (
    "Alice",
    "bob_the_builder",
    "Chandrasekhar",
    "Zoë",
    "DeltaForce",
    "mika",
    "The Grand Duchess of Luxembourg",
)
"""Display names as people pick them; the last is near Discord's 32-character limit."""

LONG_NAMES = tuple(f"{name} ".ljust(32, "x")[:32] for name in NAMES)
"""Every name at Discord's 32-character maximum (the storage worst case)."""


def snowflake(rng: random.Random) -> int:
    """A Discord id of today's length (19 digits)."""
    return rng.randrange(1_000_000_000_000_000_000, 1_400_000_000_000_000_000)


def player_ids(count: int, seed: int) -> list[PlayerId]:
    rng = random.Random(f"players:{seed}")
    return [str(snowflake(rng)) for _ in range(count)]


def names_for(players: Sequence[PlayerId], names: Sequence[str] = NAMES) -> dict[PlayerId, str]:
    return {player: names[k % len(names)] for k, player in enumerate(players)}


def play_randomly(
    engine: Engine[Any, Any],
    state: BaseModel,
    rng: random.Random,
    stop: Callable[[Any], bool] | None = None,
) -> BaseModel:
    """Uniformly random legal actions (first player to act each step) until the game
    is over or ``stop(state)`` holds."""
    while not engine.is_over(state) and not (stop and stop(state)):
        player = engine.to_act(state)[0]
        state = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))
    return state


# --- Geschenkt ----------------------------------------------------------------------

ENGINE = geschenkt.ENGINE


def geschenkt_game(players: int, seed: int, cards_left: int | None = None) -> GeschenktState:
    """A random game of ``players``, stopped with ``cards_left`` face-down cards still to
    come (None: played to the end)."""
    state = ENGINE.new_game(player_ids(players, seed), seed)

    def stop(now: GeschenktState) -> bool:
        return cards_left is not None and len(now.stack) <= cards_left

    result = play_randomly(ENGINE, state, random.Random(seed), stop)
    assert isinstance(result, GeschenktState)
    return result


def _spread(state: GeschenktState) -> tuple[int, int]:
    """How much a table has to draw: runs in front of players, then cards."""
    runs = sum(len(geschenkt.runs_of(cards)) for cards in state.cards)
    return runs, sum(len(cards) for cards in state.cards)


def geschenkt_widest(
    players: int, cards_left: int | None, candidates: int, base_seed: int = 0
) -> tuple[int, GeschenktState]:
    """Of ``candidates`` seeded random games, the one with the most runs (then cards) in
    front of the players: the largest table of its kind. Returns (seed, state)."""
    best: tuple[tuple[int, int], int, GeschenktState] | None = None
    for seed in range(base_seed, base_seed + candidates):
        state = geschenkt_game(players, seed, cards_left)
        key = _spread(state)
        if best is None or key > best[0]:
            best = (key, seed, state)
    assert best is not None
    return best[1], best[2]


def geschenkt_dealt(players: Sequence[PlayerId], deals: Sequence[Sequence[int]]) -> GeschenktState:
    """A finished game in which seat ``k`` took exactly the cards ``deals[k]`` (as a
    real game could go: players refuse until the owner of the face-up card is to act)."""
    deck = [card for cards in deals for card in cards]
    owner = {card: seat for seat, cards in enumerate(deals) for card in cards}
    state = ENGINE.new_game(players, 0, GeschenktOptions(deck=deck))
    while not ENGINE.is_over(state):
        assert state.current is not None
        player = ENGINE.to_act(state)[0]
        take = state.turn == owner[state.current]
        state = ENGINE.apply(state, player, geschenkt.TAKE if take else geschenkt.REFUSE)
    return state


def geschenkt_tallest_over(players: Sequence[PlayerId]) -> GeschenktState:
    """7 players, game over, the tallest possible table: three seats hold 8 lone cards
    each (3, 6, ... 24 / 4, 7, ... 25 / 5, 8, ... 26), so each of their lanes wraps onto
    a second line; the other four hold nothing."""
    deals = [list(range(first, 27, 3)) for first in (3, 4, 5)]
    return geschenkt_dealt(players, deals + [[] for _ in players[3:]])


# --- stored tables ------------------------------------------------------------------


def bot_table(
    engine: Engine[Any, Any],
    state: BaseModel | None,
    players: Sequence[PlayerId],
    names: dict[PlayerId, str],
    seed: int,
    *,
    channel: int | None = None,
) -> Table:
    """The `Table` the bot stores for ``state`` (None: a lobby), filled in the way
    `GameCog` fills it: snowflake ids, the options as JSON, the engine state as JSON, the
    phase, and the id of the public table message."""
    rng = random.Random(f"table:{seed}")
    seats = [Seat(id=player, name=names[player]) for player in players]
    table = Table(
        game=engine.name,
        gid=f"{rng.getrandbits(32):08x}",
        guild_id=snowflake(rng),
        channel_id=channel if channel is not None else snowflake(rng),
        host=seats[0].id,
        seats=seats,
        options=engine.Options().model_dump(mode="json"),
        seed=rng.getrandbits(63),
    )
    if state is not None:
        table.state = state.model_dump(mode="json")
        table.phase = "over" if engine.is_over(state) else "playing"
        table.message_id = snowflake(rng)
    return table
