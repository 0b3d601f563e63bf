"""pydraughts (the peer, the bench extra) reads every exported Turkish PDN and, playing
its moves, reaches the same final position as the bot's engine."""

from __future__ import annotations

import pytest

from bot.cogs.export import pdn
from tests.records.test_export import random_record

peer = pytest.importorskip("draughts")
peer_pdn = pytest.importorskip("draughts.PDN")
Board, Move, PDNReader = peer.Board, peer.Move, peer_pdn.PDNReader


def test_pydraughts_replays_every_exported_turkish_pdn_to_the_same_position() -> None:
    for seed in range(30):
        record, states = random_record("turkish", seed)
        game = PDNReader(pdn_text=pdn(record, states)).games[0]
        assert game.variant == "turkish"
        board = Board(variant="turkish")
        for move in game.moves:
            board.push(Move(board, pdn_move=move))
        final = states[-1]
        assert board.fen == Board(variant="turkish", fen=final.position).fen, seed
        assert len(game.moves) == final.plies
