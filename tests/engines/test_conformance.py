"""The engine contract, checked on seeded random playouts of every registered engine.

Runs each case of `tests/engines/registry.py` at every player count from
``min_players`` to ``max_players`` and for every option variant. Hypothesis is
derandomized and keeps no database, so CI runs are reproducible; set
``ENGINE_CONFORMANCE_EXAMPLES`` for a longer soak (default 6 games per combination).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import random
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import bot.engines
from bot.engines.base import Engine, GameError, IllegalAction
from tests.engines.conformance import (
    EngineCase,
    check_illegal_actions,
    check_legal_actions_apply,
    check_outcome,
    check_privacy,
    check_round_trip,
    check_turns,
    dump,
    expect_illegal,
    make_players,
    random_playout,
)
from tests.engines.registry import CASES

EXAMPLES = int(os.environ.get("ENGINE_CONFORMANCE_EXAMPLES", "6"))
PRIVACY_SAMPLES = 4
"""Running states per game whose views are checked against scrambled secrets."""

conformance = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    # Seeds are opaque: a shrunk seed reads no better than the one found, and
    # shrinking a playout that never ends would take minutes.
    phases=[Phase.explicit, Phase.generate],
)

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
WALK_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
STUBBORNNESS = st.sampled_from([0.0, 0.5, 0.8])
"""How often a walk plays the last legal move instead of a uniform pick."""


def games_of(cases: Iterable[EngineCase]) -> list[pytest.ParameterSet]:
    """Test parameters for every case, option variant and player count."""
    return [
        pytest.param(case, variant, players, id=f"{case.name}-{variant}-{players}p")
        for case in cases
        for variant in case.variants
        for players in range(case.engine.min_players, case.engine.max_players + 1)
    ]


GAMES = games_of(CASES)
HIDDEN_GAMES = games_of(case for case in CASES if case.engine.hidden_information)
"""The games whose views hide something: their secrets get scrambled."""
ENGINES = [pytest.param(case, id=case.name) for case in CASES]


def draw_options(data: st.DataObject, case: EngineCase, variant: str) -> BaseModel | None:
    """Draw start options from the case's named variant."""
    return data.draw(case.variants[variant], label="options")


def test_registry_is_sane() -> None:
    """Every case names a distinct engine with a usable player range and variants."""
    assert issubclass(IllegalAction, GameError)
    names = [case.name for case in CASES]
    assert len(set(names)) == len(names), names
    for case in CASES:
        assert 1 <= case.engine.min_players <= case.engine.max_players, case.name
        assert case.variants, f"{case.name} has no option variants"


def engine_modules() -> dict[str, Engine[Any, Any, Any]]:
    """The ``ENGINE`` of every module in `bot.engines` that has one, by module name."""
    engines: dict[str, Engine[Any, Any, Any]] = {}
    for info in pkgutil.iter_modules(bot.engines.__path__):
        module = importlib.import_module(f"{bot.engines.__name__}.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if engine is not None:
            engines[module.__name__] = engine
    return engines


def test_every_engine_module_has_a_conformance_case() -> None:
    """A game joins the suite when its module lands: an ``ENGINE`` without a case in
    the registry fails here, as does a case whose engine no module exposes."""
    modules = engine_modules()
    assert modules, "no module of bot.engines exposes ENGINE"
    registered = [case.engine for case in CASES]
    unregistered = [name for name, engine in modules.items() if engine not in registered]
    assert unregistered == [], f"no EngineCase in tests/engines/registry.py for {unregistered}"
    strays = [case.name for case in CASES if case.engine not in modules.values()]
    assert strays == [], f"cases for engines that no bot.engines module exposes: {strays}"


@pytest.mark.parametrize("case", ENGINES)
def test_a_game_with_hidden_information_has_a_scrambler(case: EngineCase) -> None:
    """The privacy check needs a scrambler for every game whose views hide something;
    a game without hidden information has nothing to scramble."""
    if case.engine.hidden_information:
        assert case.scramble_private is not None, f"{case.name} hides data: add a scrambler"
    else:
        assert case.scramble_private is None, f"{case.name} hides nothing yet has a scrambler"


@pytest.mark.parametrize(("case", "variant", "count"), GAMES)
@conformance
@given(seed=SEEDS, walk_seed=WALK_SEEDS, stubbornness=STUBBORNNESS, data=st.data())
def test_playouts_end_with_consistent_turns_and_conservation(
    case: EngineCase,
    variant: str,
    count: int,
    seed: int,
    walk_seed: int,
    stubbornness: float,
    data: st.DataObject,
) -> None:
    """Random games end; to_act/legal_actions agree throughout; the invariant holds;
    a finished game has an outcome with a score and place for every player."""
    players = make_players(count)
    options = draw_options(data, case, variant)
    opening: Any = None
    last: Any = None
    for state in random_playout(case, players, seed, options, walk_seed, stubbornness):
        check_turns(case, state, players)
        if case.invariant is not None:
            if opening is None:
                opening = case.invariant(state)
            assert case.invariant(state) == opening, "cards or chips appeared or vanished"
        last = state
    assert case.engine.is_over(last)
    check_outcome(case, case.engine.outcome(last), players)


@pytest.mark.parametrize(("case", "variant", "count"), GAMES)
@conformance
@given(seed=SEEDS, walk_seed=WALK_SEEDS, stubbornness=STUBBORNNESS, data=st.data())
def test_every_legal_action_applies_purely(
    case: EngineCase,
    variant: str,
    count: int,
    seed: int,
    walk_seed: int,
    stubbornness: float,
    data: st.DataObject,
) -> None:
    """Each legal action of every state applies without raising or mutating its input."""
    players = make_players(count)
    options = draw_options(data, case, variant)
    for state in random_playout(case, players, seed, options, walk_seed, stubbornness):
        check_legal_actions_apply(case, state)


@pytest.mark.parametrize(("case", "variant", "count"), GAMES)
@conformance
@given(seed=SEEDS, walk_seed=WALK_SEEDS, stubbornness=STUBBORNNESS, data=st.data())
def test_illegal_actions_raise_and_change_nothing(
    case: EngineCase,
    variant: str,
    count: int,
    seed: int,
    walk_seed: int,
    stubbornness: float,
    data: st.DataObject,
) -> None:
    """Out-of-turn, outsider and not-now actions raise IllegalAction, state untouched."""
    players = make_players(count)
    options = draw_options(data, case, variant)
    states = list(random_playout(case, players, seed, options, walk_seed, stubbornness))
    known: dict[str, Any] = {}
    for state in states:
        for player in case.engine.to_act(state):
            for action in case.engine.legal_actions(state, player):
                known.setdefault(action.model_dump_json(), action)
    tried = sum(check_illegal_actions(case, state, players, known) for state in states)
    assert tried > 0, "no illegal action was tried; the check is vacuous"


@pytest.mark.parametrize(("case", "variant", "count"), GAMES)
@conformance
@given(seed=SEEDS, walk_seed=WALK_SEEDS, stubbornness=STUBBORNNESS, data=st.data())
def test_states_actions_and_views_round_trip_json(
    case: EngineCase,
    variant: str,
    count: int,
    seed: int,
    walk_seed: int,
    stubbornness: float,
    data: st.DataObject,
) -> None:
    """States and actions survive JSON exactly; views and outcomes serialize."""
    players = make_players(count)
    options = draw_options(data, case, variant)
    for state in random_playout(case, players, seed, options, walk_seed, stubbornness):
        check_round_trip(case, state, players)


@pytest.mark.parametrize(("case", "variant", "count"), HIDDEN_GAMES)
@conformance
@given(seed=SEEDS, walk_seed=WALK_SEEDS, stubbornness=STUBBORNNESS, data=st.data())
def test_views_never_depend_on_hidden_data(
    case: EngineCase,
    variant: str,
    count: int,
    seed: int,
    walk_seed: int,
    stubbornness: float,
    data: st.DataObject,
) -> None:
    """Scrambling secrets changes neither the public view nor anyone else's view."""
    assert case.scramble_private is not None, f"{case.name} hides data but has no scrambler"
    players = make_players(count)
    options = draw_options(data, case, variant)
    rng = random.Random(walk_seed ^ 0x5EC12E7)
    running = [
        state
        for state in random_playout(case, players, seed, options, walk_seed, stubbornness)
        if not case.engine.is_over(state)
    ]
    # The opening, the last state before the end and a random sample in between:
    # each check costs a view per viewer per owner of secrets.
    middle = rng.sample(running[1:-1], min(PRIVACY_SAMPLES, max(len(running) - 2, 0)))
    sample = [running[0], *middle, running[-1]] if running else []
    scrambled = sum(check_privacy(case, state, players, rng) for state in sample)
    assert scrambled > 0, "scramble_private never changed anything; the check is vacuous"


@pytest.mark.parametrize(("case", "variant", "count"), GAMES)
@conformance
@given(seed=SEEDS, data=st.data())
def test_new_game_is_deterministic(
    case: EngineCase, variant: str, count: int, seed: int, data: st.DataObject
) -> None:
    """The same seat list, seed and options give the same opening; inputs are untouched."""
    players = make_players(count)
    options = draw_options(data, case, variant)
    options_before = None if options is None else dump(options)
    first = case.engine.new_game(players, seed, options)
    second = case.engine.new_game(list(players), seed, options)
    assert dump(first) == dump(second)
    assert first.model_dump_json() == second.model_dump_json()
    assert players == make_players(count), "new_game changed the seat list"
    assert (None if options is None else dump(options)) == options_before, "options mutated"


@pytest.mark.parametrize("case", ENGINES)
def test_new_game_rejects_bad_seating(case: EngineCase) -> None:
    """Too few or too many seats, or one player in two seats, is a GameError."""
    engine = case.engine
    too_few = make_players(engine.min_players - 1)
    too_many = make_players(engine.max_players + 1)
    twice = make_players(max(engine.min_players, 2))
    twice[-1] = twice[0]
    for players in (too_few, too_many, twice):
        with pytest.raises(GameError):
            engine.new_game(players, 0)


@pytest.mark.parametrize("case", ENGINES)
def test_another_games_action_is_refused(case: EngineCase) -> None:
    """An action model of another game is an IllegalAction for the player to act."""
    state = case.engine.new_game(make_players(case.engine.min_players), 0)
    actor = case.engine.to_act(state)[0]
    for other in CASES:
        if other is case:
            continue
        opening = other.engine.new_game(make_players(other.engine.min_players), 0)
        foreign = other.engine.legal_actions(opening, other.engine.to_act(opening)[0])[0]
        expect_illegal(case, state, actor, foreign)


@pytest.mark.parametrize("case", ENGINES)
def test_finished_game_refuses_every_action(case: EngineCase) -> None:
    """Once over, nobody acts: to_act is empty and any former action is illegal."""
    players = make_players(case.engine.min_players)
    states = list(random_playout(case, players, 7, None, 7))
    final = states[-1]
    known = [
        action
        for state in states[:-1]
        for player in case.engine.to_act(state)
        for action in case.engine.legal_actions(state, player)
    ]
    assert case.engine.to_act(final) == []
    assert check_illegal_actions(case, final, players, known) == len(known) * (len(players) + 1)
