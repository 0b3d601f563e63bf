"""The hard players that no level plays any more (`bench.previous`), kept for
`bench.ai --pairing hard:previous`: they still play legal moves, from the view only.
(Escalation's and TAKE's play whole games in ``tests/test_bench_smoke.py``.)"""

from __future__ import annotations

import random
from dataclasses import replace

from bench.previous.draughts import HARD, PREVIOUS_HARD
from bench.previous.geschenkt import previous_hard_player
from bot.ai.draughts import searcher
from bot.ai.geschenkt import Budget
from bot.engines.base import SeededRng
from bot.engines.draughts import ENGINE as DRAUGHTS
from bot.engines.geschenkt import ENGINE as GESCHENKT
from bot.engines.geschenkt import parse_action


def test_the_previous_geschenkt_hard_plays_whole_games_legally() -> None:
    chooser = previous_hard_player(Budget(actions=300, samples=8, min_samples=4, timed=False))
    decisions = 0
    for game in range(3):
        state = GESCHENKT.new_game(["a", "b", "c"], 40 + game)
        while not GESCHENKT.is_over(state):
            player = GESCHENKT.to_act(state)[0]
            choice = chooser(GESCHENKT.view(state, player), SeededRng.from_seed(decisions))
            action = parse_action(choice) if isinstance(choice, str) else choice
            assert action in GESCHENKT.legal_actions(state, player)
            state = GESCHENKT.apply(state, player, action)
            decisions += 1
    assert decisions > 60


def test_the_previous_draughts_hard_plays_legal_moves_in_both_rulesets() -> None:
    assert PREVIOUS_HARD is not None
    chooser = searcher(replace(HARD, nodes=300, seconds=None))
    rng = random.Random(3)
    for ruleset in ("give-and-take", "turkish"):
        options = DRAUGHTS.Options.model_validate({"ruleset": ruleset})
        state = DRAUGHTS.new_game(["w", "b"], 1, options)
        for ply in range(40):
            if DRAUGHTS.is_over(state):
                break
            player = DRAUGHTS.to_act(state)[0]
            view = DRAUGHTS.view(state, player)
            if ply % 2 == 0:
                move = chooser(view, SeededRng.from_seed(ply))
                assert move in view.legal_moves
            else:
                move = rng.choice(view.legal_moves)
            state = DRAUGHTS.apply(state, player, move)
