"""Game states and stored tables the benchmarks measure, built through the engines'
public API (``new_game``, ``legal_actions``, ``apply``) and the bot's own `Table`.

Every game gets three scenes (`game_scenes`): its start at the typical player count, a
typical mid-game, and its largest state (the largest stored JSON reached by a few random
playouts at the most players). Geschenkt also has hand-made scenes below.

Everything is seeded, so every run measures the same states.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.engines import geschenkt
from bot.engines.base import Engine, PlayerId
from bot.engines.geschenkt import GeschenktOptions, GeschenktState
from bot.games import GAMES, game
from bot.table import Seat, Table

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


CONCESSIONS = frozenset({"resign", "offer_draw", "accept_draw"})
"""Action kinds a random player never picks while it has another choice: a random
draughts player would otherwise resign or agree a draw within a few plies."""


def random_action(
    engine: Engine[Any, Any, Any], state: BaseModel, player: PlayerId, rng: random.Random
) -> BaseModel:
    """A uniformly random legal action of ``player``, concessions left out."""
    actions: list[BaseModel] = engine.legal_actions(state, player)
    playing = [action for action in actions if getattr(action, "kind", None) not in CONCESSIONS]
    return rng.choice(playing or actions)


def play_randomly(
    engine: Engine[Any, Any, Any],
    state: BaseModel,
    rng: random.Random,
    stop: Callable[[Any], bool] | None = None,
) -> BaseModel:
    """Uniformly random legal actions (first player to act each step; `random_action`)
    until the game is over or ``stop(state)`` holds."""
    while not engine.is_over(state) and not (stop and stop(state)):
        player = engine.to_act(state)[0]
        state = engine.apply(state, player, random_action(engine, state, player, rng))
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
    engine: Engine[Any, Any, Any],
    state: BaseModel | None,
    players: Sequence[PlayerId],
    names: Mapping[PlayerId, str],
    seed: int,
    *,
    channel: int | None = None,
    options: BaseModel | None = None,
) -> Table:
    """The `Table` the bot stores for ``state`` (None: a lobby), filled in the way
    `GameCommands` fills it: snowflake ids, the options as JSON (default: the engine's
    defaults), the engine state as JSON, the phase, and the id of the public table
    message."""
    rng = random.Random(f"table:{seed}")
    seats = [Seat(id=player, name=names[player]) for player in players]
    table = Table(
        game=engine.name,
        gid=f"{rng.getrandbits(32):08x}",
        guild_id=snowflake(rng),
        channel_id=channel if channel is not None else snowflake(rng),
        host=seats[0].id,
        seats=seats,
        options=(options or engine.Options()).model_dump(mode="json"),
        seed=rng.getrandbits(63),
        opened=1_750_000_000 + rng.random(),  # a time.time() of today's length, seeded
    )
    if state is not None:
        table.state = state.model_dump(mode="json")
        table.phase = "over" if engine.is_over(state) else "playing"
        table.message_id = snowflake(rng)
    return table


# --- every game -----------------------------------------------------------------------

LARGEST_VARIANTS: dict[str, list[tuple[int | None, dict[str, Any]]]] = {
    "take": [(2, {"hand_size": 10})],
    "escalation": [(None, {"deals": 10})],
}
"""Games searched for their largest state under other options too, as (players, None:
the most; option overrides): TAKE's 10-card hands (two players only) and Escalation's
most deals (``/escalation start`` offers 1–10)."""
PLAYOUTS = 5
"""Random playouts per player count and options searched for the largest state."""
MAX_STEPS = 3_000
"""Actions per random playout at most. Random TAKE players seldom reach the target
score (their hands often score below zero), so its matches stop here: some 15 hands at
4 players, each adding its result to the state (~160 B)."""


def all_engines() -> list[Engine[Any, Any, Any]]:
    """Every registered game's engine (`bot.games`), in registry order."""
    return [spec.engine for spec in GAMES]


def typical_players(engine: Engine[Any, Any, Any]) -> int:
    """The registry's player count of a typical game."""
    return game(engine.name).typical_players


def bot_options(
    engine: Engine[Any, Any, Any], players: Sequence[PlayerId], overrides: Mapping[str, Any]
) -> BaseModel:
    """The options the game's start command passes: ``overrides`` on the defaults, and
    the host (the first seat) as director where the game has one (Give & Take)."""
    values = dict(overrides)
    if "director" in engine.Options.model_fields:
        values.setdefault("director", players[0])
    return engine.Options.model_validate(values)


@dataclass(frozen=True)
class GameScene:
    """A state of one game, with how it was reached."""

    engine: Engine[Any, Any, Any]
    key: str
    """``start``, ``typical`` or ``largest``."""
    label: str
    state: BaseModel
    players: list[PlayerId]
    options: BaseModel
    seed: int
    step: int
    """Actions played from the start to reach it."""
    overrides: dict[str, Any] = field(default_factory=dict)
    """The options not at their defaults (the director aside)."""

    @property
    def game(self) -> str:
        return self.engine.name

    @property
    def json_bytes(self) -> int:
        return len(self.state.model_dump_json())

    def names(self, names: Sequence[str] = NAMES) -> dict[PlayerId, str]:
        return names_for(self.players, names)


def playout(
    engine: Engine[Any, Any, Any],
    players: Sequence[PlayerId],
    seed: int,
    options: BaseModel,
    max_steps: int = MAX_STEPS,
) -> list[BaseModel]:
    """Every state of one seeded random game (`random_action`), from the new game to its
    end or ``max_steps`` actions on."""
    rng = random.Random(seed)
    state: BaseModel = engine.new_game(players, seed, options)
    states = [state]
    while not engine.is_over(state) and len(states) <= max_steps:
        player = engine.to_act(state)[0]
        state = engine.apply(state, player, random_action(engine, state, player, rng))
        states.append(state)
    return states


def _shown(overrides: Mapping[str, Any]) -> str:
    return "".join(f", {name}={value}" for name, value in overrides.items())


def start_scene(engine: Engine[Any, Any, Any], seed: int = 0) -> GameScene:
    """A new game at the typical player count, no move yet."""
    count = typical_players(engine)
    players = player_ids(count, seed)
    options = bot_options(engine, players, {})
    state = engine.new_game(players, seed, options)
    label = f"start: {count} players, no move yet"
    return GameScene(engine, "start", label, state, players, options, seed, 0)


def typical_scene(
    engine: Engine[Any, Any, Any], seed: int = 1, max_steps: int = MAX_STEPS
) -> GameScene:
    """Halfway through a seeded random game at the typical player count."""
    count = typical_players(engine)
    players = player_ids(count, seed)
    options = bot_options(engine, players, {})
    states = playout(engine, players, seed, options, max_steps)
    middle = (len(states) - 1) // 2
    label = f"typical: {count} players, mid-game (action {middle:,} of {len(states) - 1:,})"
    return GameScene(engine, "typical", label, states[middle], players, options, seed, middle)


def largest_scenes(
    engine: Engine[Any, Any, Any], playouts: int = PLAYOUTS, max_steps: int = MAX_STEPS
) -> list[GameScene]:
    """Of every state of ``playouts`` seeded random games at the most players (and of
    the `LARGEST_VARIANTS`), the one whose JSON is longest (key ``largest``); when that
    one is a finished game, also the longest of the running ones (``largest-running``:
    a finished table may draw smaller than a running one)."""
    variants = [(None, {}), *LARGEST_VARIANTS.get(engine.name, [])]
    games = playouts * len(variants)
    best: dict[bool, tuple[int, GameScene]] = {}
    """Running only or not -> (JSON length, scene)."""
    for wanted, overrides in variants:
        count = wanted or engine.max_players
        for seed in range(playouts):
            players = player_ids(count, seed)
            options = bot_options(engine, players, overrides)
            states = playout(engine, players, seed, options, max_steps)
            over = engine.is_over(states[-1])
            stopped = "" if over else f", stopped at {max_steps:,}"
            every = [len(state.model_dump_json()) for state in states]
            for running in (False, True):
                sizes = every[:-1] if running and over else every  # only the last is over
                if not sizes:
                    continue
                step = max(range(len(sizes)), key=sizes.__getitem__)
                if running in best and sizes[step] <= best[running][0]:
                    continue
                key = "largest-running" if running else "largest"
                label = (
                    f"{key}: {count} players{_shown(overrides)}, action {step:,} of "
                    f"{len(states) - 1:,}{stopped} (seed {seed}; the longest JSON of "
                    f"{'running states in ' if running else ''}{games} random "
                    f"game{'s' if games > 1 else ''})"
                )
                scene = GameScene(
                    engine, key, label, states[step], players, options, seed, step, dict(overrides)
                )
                best[running] = (sizes[step], scene)
    largest = best[False][1]
    if not engine.is_over(largest.state) or True not in best:
        return [largest]
    return [largest, best[True][1]]


def largest_scene(
    engine: Engine[Any, Any, Any], playouts: int = PLAYOUTS, max_steps: int = MAX_STEPS
) -> GameScene:
    """The state with the longest JSON (see `largest_scenes`)."""
    return largest_scenes(engine, playouts, max_steps)[0]


def game_scenes(
    engine: Engine[Any, Any, Any], playouts: int = PLAYOUTS, max_steps: int = MAX_STEPS
) -> list[GameScene]:
    """The start, a typical mid-game and the largest state of one game."""
    return [
        start_scene(engine),
        typical_scene(engine, max_steps=max_steps),
        largest_scene(engine, playouts, max_steps),
    ]
