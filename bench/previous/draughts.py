"""Draughts' ``hard`` before issue 28, for `bench.ai`'s ``previous`` (`bot.ai.draughts`
has the levels that play).

It is ``normal``'s search (`bot.ai.draughts.Searcher`, alpha-beta on `Position`) with
iterative deepening to any depth, within 3,500 nodes and 0.45 s, and eight plies of
captures beyond; the ``hard`` that plays now searches on bitboards
(`bot.ai.draughts_search`).
"""

from __future__ import annotations

from bot.ai import Chooser
from bot.ai.draughts import Limits, searcher

HARD = Limits(depth=64, nodes=3_500, seconds=0.45, iterative=True, quiescence=8)
"""The previous ``hard``'s limits."""

PREVIOUS_HARD: Chooser = searcher(HARD)
"""``hard`` before issue 28 (`bench.ai` plays it as ``previous``)."""
