"""Generic conformance checks every engine must pass (docs/architecture.md, "The engine contract").

An engine joins the suite through one `EngineCase` in `tests/engines/registry.py`;
`test_conformance.py` then runs every check below on seeded random playouts, at
every legal player count and for every option variant of the case.

The checks are plain functions that raise `AssertionError`, so they can also be
reused from an engine's own tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, count
from typing import Any, Protocol

import pytest
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.engines.base import Engine, GameError, IllegalAction, Outcome, PlayerId

OUTSIDER: PlayerId = "999999999999999999"
"""A Discord user id that never takes a seat."""


class Scrambler(Protocol):
    """Change the secrets that belong to ``owner`` and nothing else.

    ``owner`` is a seated player (their hand, their chips, ...) or None for the
    secrets nobody at the table may see (the face-down stack, the removed cards,
    the random generator). Return a new, valid state that differs from ``state``
    in at least one such secret, or None when ``owner`` has no secret in ``state``.
    Never mutate ``state``.
    """

    def __call__(self, state: Any, rng: random.Random, owner: PlayerId | None) -> Any | None: ...


class Swapper(Protocol):
    """Swap secrets between the seated players ``first`` and ``second`` (a card of one
    hand for a card of the other, ...) and change nothing else.

    Return a new, valid state that differs from ``state``, or None when the two have
    nothing to swap. Never mutate ``state``. For games whose secrets can all end up in
    hands, where a scrambler has nothing left to swap one hand's cards with (Escalation
    once the stock is out).
    """

    def __call__(
        self, state: Any, rng: random.Random, first: PlayerId, second: PlayerId
    ) -> Any | None: ...


@dataclass(frozen=True)
class EngineCase:
    """One engine's entry in the conformance registry."""

    engine: Engine[Any, Any, Any]
    variants: Mapping[str, st.SearchStrategy[BaseModel | None]]
    """Named strategies for start options; each runs at every player count."""
    invariant: Callable[[Any], Hashable] | None = None
    """A value no action may change, e.g. every card and the chip total (conservation)."""
    scramble_private: Scrambler | None = None
    """Required when the engine declares ``hidden_information``; None otherwise."""
    swap_private: Swapper | None = None
    """Optional beside ``scramble_private``: secrets swapped between two players, whose
    views are then the only ones that may change."""
    lower_wins: bool | None = None
    """True/False: places rank scores ascending/descending. None: places need not follow
    scores (e.g. ranked by elimination order); only their shape is checked."""
    check_state: Callable[[Any], None] | None = None
    """Extra per-state sanity assertions (no negative chips, ...)."""
    max_steps: int = 5_000
    """A random playout must end within this many actions."""

    @property
    def name(self) -> str:
        """The engine's name, used in test ids."""
        return self.engine.name


def make_players(count_: int) -> list[PlayerId]:
    """Seat ids as the bot uses them: Discord user ids and ``ai:<n>`` computer seats."""
    return [f"ai:{i}" if i % 3 == 1 else str(100_000_000_000_000_000 + i) for i in range(count_)]


def dump(model: BaseModel) -> dict[str, Any]:
    """A comparable snapshot of a model (catches in-place mutation)."""
    return model.model_dump(mode="json")


def random_playout(
    case: EngineCase,
    players: Sequence[PlayerId],
    seed: int,
    options: BaseModel | None,
    walk_seed: int,
    stubbornness: float = 0.0,
) -> Iterator[Any]:
    """Yield every state of a game whose moves are drawn uniformly from all legal
    (player, action) pairs; the last state yielded is over. Fails past ``max_steps``.

    With probability ``stubbornness`` a step instead plays the last legal move: uniform
    play rarely exhausts anything (a Geschenkt player almost never runs out of chips),
    a stubborn walk does."""
    engine = case.engine
    rng = random.Random(walk_seed)
    state = engine.new_game(players, seed, options)
    for step in count():
        yield state
        if engine.is_over(state):
            return
        assert step < case.max_steps, f"{case.name}: no end after {case.max_steps} actions"
        moves = [(p, a) for p in engine.to_act(state) for a in engine.legal_actions(state, p)]
        assert moves, f"{case.name}: game not over but nobody has a legal action"
        player, action = moves[-1] if rng.random() < stubbornness else rng.choice(moves)
        state = engine.apply(state, player, action)


def check_turns(case: EngineCase, state: Any, players: Sequence[PlayerId]) -> None:
    """to_act and legal_actions agree; legal_actions never raises, outsiders get []."""
    engine = case.engine
    acting = engine.to_act(state)
    over = engine.is_over(state)
    if over:
        assert acting == [], f"game over but to_act is {acting}"
    else:
        assert acting, "game not over but to_act is empty"
        assert len(set(acting)) == len(acting), f"to_act repeats a player: {acting}"
        assert set(acting) <= set(players), f"to_act {acting} names a stranger"
    for player in [*players, OUTSIDER]:
        legal = engine.legal_actions(state, player)
        if player in acting:
            assert legal, f"{player} is to act but has no legal action"
        else:
            assert legal == [], f"{player} is not to act but may play {legal}"
    if case.check_state is not None:
        case.check_state(state)


def check_outcome(case: EngineCase, outcome: Outcome, players: Sequence[PlayerId]) -> None:
    """Every player has a score and a 1-based competition-style place (1, 1, 3)."""
    assert set(outcome.scores) == set(players), outcome
    assert set(outcome.places) == set(players), outcome
    places = outcome.places
    for player in players:
        ahead = sum(1 for other in players if places[other] < places[player])
        assert places[player] == ahead + 1, f"places are not 1-based competition ranks: {places}"
    if case.lower_wins is None:
        return
    scores = outcome.scores
    for player in players:
        if case.lower_wins:
            better = sum(1 for other in players if scores[other] < scores[player])
        else:
            better = sum(1 for other in players if scores[other] > scores[player])
        assert places[player] == better + 1, f"places {places} don't follow scores {scores}"


def check_legal_actions_apply(case: EngineCase, state: Any) -> None:
    """Every legal action applies, returns a fresh state, leaves its input alone and is
    deterministic (the same action twice gives equal states)."""
    engine = case.engine
    before = dump(state)
    for player in engine.to_act(state):
        for action in engine.legal_actions(state, player):
            action_before = dump(action)
            first = engine.apply(state, player, action)
            assert dump(state) == before, f"apply({player}, {action!r}) mutated its input"
            assert dump(action) == action_before, f"apply mutated the action {action!r}"
            assert isinstance(first, engine.State), type(first)
            assert first is not state, "apply returned its input"
            second = engine.apply(state, player, action)
            assert dump(first) == dump(second), f"apply({player}, {action!r}) is not deterministic"


def expect_illegal(case: EngineCase, state: Any, player: PlayerId, action: Any) -> None:
    """``apply`` must raise `IllegalAction` with a message fit to show the player.
    (Callers check that ``state`` is unchanged afterwards.)"""
    # try/except rather than pytest.raises: the same check, called ~10^5 times a test.
    try:
        case.engine.apply(state, player, action)
    except IllegalAction as raised:
        assert isinstance(raised, GameError)
        assert str(raised).strip(), "IllegalAction needs a message fit to show the player"
    else:
        pytest.fail(f"{player} applied {action!r}, which is not legal for them now")


def check_illegal_actions(
    case: EngineCase,
    state: Any,
    players: Sequence[PlayerId],
    known: Mapping[str, Any] | Sequence[Any],
) -> int:
    """Try every known action (seen legal somewhere in the game) where it is not legal:
    by players not to act, by an outsider, and by actors for whom it isn't legal now.
    ``known``: the actions, or a mapping of each action's JSON to it (as the caller
    collected them; saves dumping them again for every state).
    Return how many illegal attempts were made."""
    engine = case.engine
    acting = engine.to_act(state)
    before = dump(state)
    tried = 0
    if isinstance(known, Mapping):
        keyed = list(known.items())
    else:
        keyed = [(action.model_dump_json(), action) for action in known]
    for player in [*players, OUTSIDER]:
        legal = engine.legal_actions(state, player) if player in acting else []
        # Legal or not, compared by JSON (as ``known`` is keyed): a set, not a list scan.
        legal_keys = {action.model_dump_json() for action in legal}
        for key, action in keyed:
            if key not in legal_keys:
                expect_illegal(case, state, player, action)
                tried += 1
        assert dump(state) == before, f"a refused action by {player} changed the state"
    return tried


def check_round_trip(case: EngineCase, state: Any, players: Sequence[PlayerId]) -> None:
    """The state, its legal actions, views and outcome survive JSON exactly."""
    engine = case.engine
    text = state.model_dump_json()
    back = engine.State.model_validate_json(text)
    assert back == state, "state changed in a JSON round trip"
    assert back.model_dump_json() == text, "state JSON is not stable"
    assert "schema_version" in state.model_dump(), "states need a schema_version"
    for player in engine.to_act(state):
        for action in engine.legal_actions(state, player):
            action_text = action.model_dump_json()
            action_back = engine.Action.model_validate_json(action_text)
            assert action_back == action, f"{action!r} changed in a JSON round trip"
            assert action_back.model_dump_json() == action_text
            assert "schema_version" in action.model_dump(), "actions need a schema_version"
    # Renderers get views: the table and the hands of whoever acts (everyone's at the end).
    viewers = players if engine.is_over(state) else engine.to_act(state)
    for viewer in [None, *viewers]:
        engine.view(state, viewer).model_dump_json()
    if engine.is_over(state):
        outcome = engine.outcome(state)
        assert Outcome.model_validate_json(outcome.model_dump_json()) == outcome


def check_privacy(
    case: EngineCase, state: Any, players: Sequence[PlayerId], rng: random.Random
) -> int:
    """While the game runs, no view depends on secrets its viewer may not see.

    For every owner of secrets (each player, and None for what nobody sees) the
    state is scrambled; the public view, the outsider's view and every other
    player's view must stay identical. Return how many scrambles changed something.
    """
    engine = case.engine
    scramble = case.scramble_private
    if scramble is None or engine.is_over(state):
        return 0
    viewers: list[PlayerId | None] = [None, OUTSIDER, *players]
    views = {viewer: dump(engine.view(state, viewer)) for viewer in viewers}
    before = dump(state)
    changed = 0
    everything = state
    for owner in [None, *players]:
        scrambled = scramble(state, rng, owner)
        assert dump(state) == before, "scramble_private mutated its input"
        if scrambled is None:
            continue
        assert dump(scrambled) != before, f"scramble_private({owner}) changed nothing"
        assert engine.to_act(scrambled) == engine.to_act(state), "scramble changed whose turn"
        changed += 1
        for viewer in viewers:
            if viewer == owner and owner is not None:
                continue
            seen = dump(engine.view(scrambled, viewer))
            assert seen == views[viewer], (
                f"view for {viewer!r} depends on secrets of "
                f"{'nobody' if owner is None else owner!r}"
            )
        combined = scramble(everything, rng, owner)
        if combined is not None:
            everything = combined
    if changed:
        assert dump(engine.view(everything, None)) == views[None], (
            "the public view depends on a combination of secrets"
        )
    return changed + check_swapped_privacy(case, state, players, rng, views)


def check_swapped_privacy(
    case: EngineCase,
    state: Any,
    players: Sequence[PlayerId],
    rng: random.Random,
    views: Mapping[PlayerId | None, dict[str, Any]],
) -> int:
    """`check_privacy` for secrets swapped between two players (``case.swap_private``):
    every other view, the public and the outsider's included, stays as in ``views``.
    Return how many swaps changed something."""
    swap = case.swap_private
    if swap is None:
        return 0
    before = dump(state)
    changed = 0
    for first, second in combinations(players, 2):
        swapped = swap(state, rng, first, second)
        assert dump(state) == before, "swap_private mutated its input"
        if swapped is None:
            continue
        assert dump(swapped) != before, f"swap_private({first}, {second}) changed nothing"
        assert case.engine.to_act(swapped) == case.engine.to_act(state), "a swap changed the turn"
        changed += 1
        for viewer, seen in views.items():
            if viewer in (first, second):
                continue
            assert dump(case.engine.view(swapped, viewer)) == seen, (
                f"view for {viewer!r} depends on the secrets {first!r} and {second!r} hold"
            )
    return changed
