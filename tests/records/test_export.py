"""Draughts games export as PDN and read back to the same game."""

from __future__ import annotations

import random

import pytest

from bot.adapters.draughts_pdn import GIVE_AND_TAKE_VARIANT, options_of, pdn, read_pdn
from bot.engines.draughts import ENGINE, DraughtsState
from bot.games import game
from bot.play.records import replay
from bot.storage.records import GameRecord
from bot.table import Move, Seat

ADAPTER = game("draughts").adapter


def random_record(ruleset: str, seed: int) -> tuple[GameRecord, list[DraughtsState]]:
    """A random game (moves only, now and then a resignation at the end)."""
    rng = random.Random(seed)
    seats = [Seat(id="1", name='Ann "the" \\ one'), Seat(id="ai:2", name="🤖 Easy")]
    options = {"ruleset": ruleset}
    state = ENGINE.new_game(["1", "ai:2"], seed, ENGINE.Options.model_validate(options))
    moves: list[Move] = []
    for ply in range(rng.randrange(20, 200)):
        if ENGINE.is_over(state):
            break
        player = ENGINE.to_act(state)[0]
        choices = [a for a in ENGINE.legal_actions(state, player) if a.kind == "move"]
        if not choices:
            break
        action = rng.choice(choices)
        state = ENGINE.apply(state, player, action)
        moves.append(Move(p=player, k=str(action), by="computer", t=ply))
    if not ENGINE.is_over(state) and rng.random() < 0.5:
        loser = ENGINE.to_act(state)[0]
        moves.append(Move(p=loser, by="resign", t=999))
    record = GameRecord(
        gid=f"{seed:08x}",
        game="draughts",
        guild_id=1,
        channel_id=2,
        options=options,
        seed=seed,
        seats=seats,
        moves=moves,
        ended=1_764_000_000,
    )
    states = replay(ADAPTER, seats, seed, options, moves)
    return record, [s for s in states if isinstance(s, DraughtsState)]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["turkish", "give-and-take"])
def test_a_pdn_reads_back_and_replays_to_the_same_final_position(ruleset: str) -> None:
    for seed in range(25):
        record, states = random_record(ruleset, seed)
        text = pdn(record, states)
        tags, moves = read_pdn(text)
        final = states[-1]
        assert tags["White"] == 'Ann "the" \\ one' and tags["Black"] == "🤖 Easy"
        assert tags["Date"] == "2025.11.24"
        assert tags["GameType"] == "30"
        assert tags.get("Variant") == (None if ruleset == "turkish" else GIVE_AND_TAKE_VARIANT)
        assert tags["SetUp"] == "1" and tags["FEN"] == states[0].position
        expected = {"white": "2-0", "black": "0-2", "draw": "1-1"}.get(final.result or "", "*")
        assert tags["Result"] == expected and text.rstrip().endswith(expected)
        assert options_of(tags) == {"ruleset": ruleset}
        state = ENGINE.new_game(["1", "2"], 0, ENGINE.Options.model_validate(options_of(tags)))
        for n, move in enumerate(moves):
            state = ENGINE.apply(state, ENGINE.to_act(state)[0], move)
            assert move == state.last_move, n
        assert state.position == final.position
        assert state.plies == final.plies
        if final.reason == "resignation":
            assert "{resignation}" in text


def test_a_give_and_take_pdn_of_earlier_exports_still_reads_as_give_and_take() -> None:
    assert options_of({"GameType": "Give and Take"}) == {"ruleset": "give-and-take"}
