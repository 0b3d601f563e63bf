"""The action-key codec: any text survives a custom_id, and every legal action of
every game fits one (at most 100 characters) and comes back as itself."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.adapters.base import GameAdapter
from bot.engines import take
from bot.engines.base import Engine, IllegalAction, PlayerId
from bot.games import GAMES as REGISTERED
from bot.play.action_keys import PLAIN, UNREADABLE, decode, encode
from bot.play.components import CUSTOM_ID_PATTERN, MAX_CUSTOM_ID, Click
from bot.play.routes import ButtonRoute

GAMES: list[tuple[Engine[Any, Any, Any], GameAdapter[Any, Any, Any]]] = [
    (spec.engine, spec.adapter) for spec in REGISTERED
]
"""Every game the bot hosts (the registry), as its engine and its adapter."""
VARIANTS: dict[str, list[tuple[BaseModel, int]]] = {"take": [(take.TakeOptions(hand_size=10), 2)]}
"""Start options besides the defaults, where they make longer actions (bigger hands),
with the one player count they are for."""
LONGEST_GID = "f" * 16
LONGEST_REV = 10**12 - 1
"""The longest game id and revision `CUSTOM_ID_PATTERN` admits."""
VERBS = ("act", "do")
"""The verbs that carry an action key: table buttons and panel buttons."""
MAX_STEPS = 300
"""Moves per random playout: enough for full hands, captures and later hands."""


def legal_moves(engine: Engine[Any, Any, Any], state: Any) -> list[tuple[PlayerId, Any]]:
    return [(p, a) for p in engine.to_act(state) for a in engine.legal_actions(state, p)]


def assert_round_trip(
    engine: Engine[Any, Any, Any], adapter: GameAdapter[Any, Any, Any], action: Any
) -> None:
    key = adapter.action_key(action)
    for verb in VERBS:
        click = Click(engine.name, LONGEST_GID, LONGEST_REV, verb, key)
        custom_id = click.custom_id()
        assert len(custom_id) <= MAX_CUSTOM_ID, f"{action}: {custom_id!r} is too long"
        match = ButtonRoute.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None, f"{action}: {custom_id!r} is not a game button id"
        assert Click.from_match(match) == click
    assert adapter.parse_action(key) == action, f"key {key!r} does not read back as {action}"


@pytest.mark.parametrize(("engine", "adapter"), GAMES, ids=[engine.name for engine, _ in GAMES])
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_every_legal_action_met_in_play_round_trips_through_a_custom_id(
    engine: Engine[Any, Any, Any], adapter: GameAdapter[Any, Any, Any], data: st.DataObject
) -> None:
    count = data.draw(st.integers(engine.min_players, engine.max_players), label="players")
    variants = [options for options, players in VARIANTS.get(engine.name, []) if players == count]
    options = data.draw(st.sampled_from([None, *variants]), label="options")
    seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
    rng = random.Random(seed)
    state = engine.new_game([str(10**17 + seat) for seat in range(count)], seed, options)
    checked: set[Any] = set()
    for _ in range(MAX_STEPS):
        if engine.is_over(state):
            break
        moves = legal_moves(engine, state)
        for _, action in moves:
            if action not in checked:
                assert_round_trip(engine, adapter, action)
                checked.add(action)
        player, action = rng.choice(moves)
        state = engine.apply(state, player, action)
    assert checked, "the playout met no action"


def test_the_longest_take_meld_fits() -> None:
    """A whole suit with both jokers, one as the 10 (the longest card text): longer
    than any hand can meld, and still within a custom_id."""
    suit = ["AH", *(f"{rank}H" for rank in range(2, 10)), "JK=10H", "JH", "JK=QH", "KH"]
    engine, adapter = next((e, a) for e, a in GAMES if e is take.ENGINE)
    assert_round_trip(engine, adapter, take.meld(*suit))


@given(st.text())
def test_any_text_survives_the_arg_alphabet(key: str) -> None:
    arg = encode(key)
    assert re.fullmatch(r"[A-Za-z0-9_,.\-]*", arg), arg
    assert decode(arg) == key


@given(st.text(alphabet=sorted(PLAIN)))
def test_plain_keys_are_written_as_they_are(key: str) -> None:
    assert encode(key) == key


@pytest.mark.parametrize(
    ("key", "arg"),
    [
        ("take", "take"),
        ("c4xc6xc8", "c4xc6xc8"),
        ("play 9H 9S", "play_9H_9S"),
        ("meld 5H JK=6H 7H", "meld_5H_JK.3D6H_7H"),
        ("add 6D to 3+7", "add_6D_to_3.2B7"),
        ("offer_draw", "offer.5Fdraw"),
        ("c3×d4", "c3.C3.97d4"),
    ],
)
def test_spaces_become_underscores_and_the_rest_hex_escapes(key: str, arg: str) -> None:
    assert encode(key) == arg
    assert decode(arg) == key


@pytest.mark.parametrize(
    "arg",
    [
        "JK.6H",  # TAKE's own escaping of "=", from before the codec
        ".",
        "meld.3",
        "a.3d",  # escapes are upper-case hex
        ".FF",  # not UTF-8
        ".C3",  # half a character
    ],
)
def test_an_arg_no_key_encodes_to_is_refused(arg: str) -> None:
    with pytest.raises(IllegalAction) as refusal:
        decode(arg)
    assert refusal.value.template == UNREADABLE
    match = re.fullmatch(CUSTOM_ID_PATTERN, f"g:take:{LONGEST_GID}:{LONGEST_REV}:do.{arg}")
    assert match is not None, "the pattern admits the arg; only decoding refuses it"
    with pytest.raises(IllegalAction):
        Click.from_match(match)


def test_a_key_too_long_for_a_custom_id_is_a_bug_caught_when_the_button_is_drawn() -> None:
    fits = Click("take", LONGEST_GID, LONGEST_REV, "act", "x" * 59)
    assert len(fits.custom_id()) == MAX_CUSTOM_ID
    with pytest.raises(ValueError, match="no valid custom_id"):
        Click("take", LONGEST_GID, LONGEST_REV, "act", "x" * 60).custom_id()
