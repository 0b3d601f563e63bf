"""pydraughts (the peer, in the test extra) reads every exported PDN of both rulesets:
a Turkish game's moves, played by the peer, reach the same final position as the
bot's engine; a give-and-take game loads as Turkish-board PDN that names its rules."""

from __future__ import annotations

import pytest
from draughts import Board, Move
from draughts.PDN import PDNReader

from bot.adapters.draughts_pdn import GIVE_AND_TAKE_VARIANT, pdn
from tests.records.test_export import random_record

pytestmark = pytest.mark.slow  # the peer replays a game in about half a second of one core


def test_pydraughts_replays_every_exported_turkish_pdn_to_the_same_position() -> None:
    for seed in range(15):  # 930 plies
        record, states = random_record("turkish", seed)
        game = PDNReader(pdn_text=pdn(record, states)).games[0]
        assert game.variant == "turkish"
        board = Board(variant="turkish")
        for move in game.moves:
            board.push(Move(board, pdn_move=move))
        final = states[-1]
        assert board.fen == Board(variant="turkish", fen=final.position).fen, seed
        assert len(game.moves) == final.plies


def test_pydraughts_loads_every_exported_give_and_take_pdn() -> None:
    for seed in range(30):
        record, states = random_record("give-and-take", seed)
        game = PDNReader(pdn_text=pdn(record, states)).games[0]
        assert game.variant == "turkish"
        assert game.tags["Variant"] == GIVE_AND_TAKE_VARIANT
        assert len(game.moves) == states[-1].plies
