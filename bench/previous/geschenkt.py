"""Geschenkt's ``hard`` before issue 28, for `bench.ai`'s ``previous`` (`bot.ai.geschenkt`
has the levels that play).

Determinized Monte Carlo through the engine: each sample deals what the seat can't see
(`bot.ai.geschenkt.sample_state`, the other players' chips dealt blindly, without
fitting them to the refusals), plays it out after taking and after refusing with every
seat playing ``normal``, and keeps the choice with the better mean margin (own final
score less the best other score). It stops once one choice is clearly better, or at
16,000 engine actions, or at the wall-clock budget.
"""

from __future__ import annotations

import random
import time

from bot.ai import Chooser
from bot.ai.budget import think_seconds
from bot.ai.geschenkt import (
    TUNED,
    Budget,
    Params,
    Tally,
    _me,
    hypotheses,
    normal_takes,
    sample_state,
)
from bot.engines.base import SeededRng
from bot.engines.geschenkt import (
    ENGINE,
    REFUSE,
    TAKE,
    GeschenktAction,
    GeschenktState,
    GeschenktView,
)

ENGINE_BUDGET = Budget(actions=16_000, samples=400, min_samples=16)
"""Engine actions over all playouts, samples, and the early stop."""


def state_takes(params: Params, state: GeschenktState) -> bool:
    """The normal policy for the seat to act, read straight off a (sampled) state."""
    seat = state.turn
    assert state.current is not None
    return normal_takes(
        params,
        state.current,
        state.pot,
        state.cards[seat],
        state.chips[seat],
        len(state.stack),
        [hand for k, hand in enumerate(state.cards) if k != seat],
    )


def play_out(state: GeschenktState, params: Params) -> tuple[GeschenktState, int]:
    """Everyone plays the normal policy to the end, through the engine; also returns
    the number of actions played."""
    actions = 0
    while state.current is not None:
        action = TAKE if state_takes(params, state) else REFUSE
        state = ENGINE.apply(state, state.players[state.turn], action)
        actions += 1
    return state, actions


def margin(state: GeschenktState, me: int) -> int:
    """Own final score less the best other score (lower is better; < 0 is a win)."""
    scores = ENGINE.outcome(state).scores
    mine = scores[state.players[me]]
    return mine - min(s for player, s in scores.items() if player != state.players[me])


def previous_hard_player(budget: Budget = ENGINE_BUDGET, params: Params = TUNED) -> Chooser:
    """The previous ``hard``: rollouts through the engine, for the mean margin."""

    def choose(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
        me = _me(view)
        if not view.my_chips:
            return TAKE
        start = time.perf_counter()
        limit = think_seconds() if budget.timed else None
        local = random.Random(rng.next_u64())
        options = hypotheses(view)
        player = view.seats[me].player
        tally = Tally()  # of (margin refusing - margin taking); > 0: take
        actions = 0
        while tally.count < budget.samples:
            if tally.count >= budget.min_samples and (
                actions >= budget.actions or tally.settled(budget.confidence)
            ):
                break
            if limit is not None and tally.count >= 2 and time.perf_counter() - start > limit:
                break
            state, _ = sample_state(view, me, options, local)
            taken, used_take = play_out(ENGINE.apply(state, player, TAKE), params)
            refused, used_refuse = play_out(ENGINE.apply(state, player, REFUSE), params)
            tally.add(margin(refused, me) - margin(taken, me))
            actions += used_take + used_refuse + 2
        return TAKE if tally.total >= 0 else REFUSE

    return choose


PREVIOUS_HARD = previous_hard_player()
"""``hard`` before issue 28 (`bench.ai` plays it as ``previous``)."""
