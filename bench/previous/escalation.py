"""Escalation's previous ``hard``, for `bench.ai`'s ``previous`` (`bot.ai.escalation` has
the levels that play).

It plays ``normal`` until the stock is down to `HARD_STOCK` cards. Then it plays
``normal``'s best few moves (`BREADTH`) out on sampled deals through the engine, every
seat playing ``normal``, and leaves ``normal``'s choice only for a gain in chips clear
of the sampling noise.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence

from bot.ai import Chooser
from bot.ai.escalation import NORMAL, Weights, _action, _scored, decide
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.escalation import (
    ENGINE,
    EscalationAction,
    EscalationState,
    EscalationView,
    PlayRecord,
)


def ranked(
    hand: Sequence[Card],
    in_force: int | None,
    stock: int,
    round_cards: int,
    weights: Weights = NORMAL,
) -> list[EscalationAction]:
    """Every distinct move, best first by the ``normal`` player's score."""
    moves = list(_scored(hand, in_force, stock, round_cards, weights))
    order = sorted(range(len(moves)), key=lambda i: (-moves[i][0], i))
    return [_action(moves[i][1]) for i in order]


HARD_STOCK = 12
"""Rollouts once the stock is this small or smaller (before, ``normal`` decides)."""
WORK = 6000
"""Roughly how many cards a decision may play out across all its rollouts."""
MIN_SAMPLES = 6
MAX_SAMPLES = 48
BREADTH = 3
"""Candidates: the ``normal`` player's best few moves."""
MIN_GAIN = 0.5
CONFIDENCE = 1.0
"""A candidate replaces the ``normal`` choice when its average gain in chips is at
least ``MIN_GAIN`` and ``CONFIDENCE`` standard errors."""
DEADLINE = 0.8
"""Seconds: a safety cap on the whole decision (normally far from reached)."""


def _policy(state: EscalationState) -> EscalationAction:
    """``normal`` on a (sampled) state: the rollout policy for every seat."""
    return decide(
        state.hands[state.turn],
        state.value_in_force,
        len(state.stock),
        sum(len(entry.cards) for entry in state.pile),
    )


def _playout(state: EscalationState, seat: int) -> int:
    """Play the deal out with ``normal`` everywhere; the chips ``seat`` wins (or pays)."""
    while not state.results:
        player = state.players[state.turn]
        state = ENGINE.apply(state, player, _policy(state))
    return state.results[0].chips[seat]


def _sample(view: EscalationView, seat: int, rng: SeededRng) -> EscalationState | None:
    """A full state consistent with the view: the unseen cards dealt at random."""
    hand = view.my_hand or []
    seen = set(hand) | {card for entry in view.round for card in entry.cards}
    unseen = [card for card in standard_deck() if card not in seen]
    others = sum(s.hand_size for i, s in enumerate(view.seats) if i != seat)
    stacks = sum(s.penalty_size for s in view.seats)
    if len(unseen) < others + view.stock_size:
        return None  # a short stacked deck: nothing sensible to sample
    rng.shuffle(unseen)
    hands: list[list[Card]] = []
    at = 0
    for i, info in enumerate(view.seats):
        if i == seat:
            hands.append(sorted(hand))
        else:
            hands.append(sorted(unseen[at : at + info.hand_size]))
            at += info.hand_size
    stock = unseen[at : at + view.stock_size]
    at += view.stock_size
    # Penalty stacks only count: any cards do (placeholders if the deck was short).
    rest = unseen[at:] + [hand[0]] * stacks
    penalties = []
    for info in view.seats:
        penalties.append(rest[: info.penalty_size])
        rest = rest[info.penalty_size :]
    index = {s.player: i for i, s in enumerate(view.seats)}
    return EscalationState(
        players=[s.player for s in view.seats],
        hands=hands,
        penalties=penalties,
        stock=stock,
        pile=[
            PlayRecord(seat=index[entry.player], cards=list(entry.cards), value=entry.value)
            for entry in view.round
        ],
        turn=seat,
        direction=1 if view.direction == "clockwise" else -1,
        deals=1,
        totals=[0] * len(view.seats),
        rng=SeededRng(state=0),
    )


def rollout_player(
    work: int = WORK,
    deadline: float | None = DEADLINE,
    stock_limit: int = HARD_STOCK,
    max_samples: int = MAX_SAMPLES,
    breadth: int = BREADTH,
) -> Chooser:
    """The previous ``hard`` chooser (endgame rollouts for chips), kept for `bench.ai`;
    ``deadline=None`` for no time cap (fully reproducible)."""

    def choose(view: EscalationView, rng: SeededRng) -> EscalationAction:
        hand = view.my_hand or []
        in_force = None if view.must_lead else view.value_in_force
        round_cards = sum(len(entry.cards) for entry in view.round)
        candidates = ranked(hand, in_force, view.stock_size, round_cards)[:breadth]
        fallback = candidates[0]
        if view.stock_size > stock_limit or view.viewer is None or len(candidates) == 1:
            return fallback
        if view.stock_size == 0 and len(fallback.cards) == len(hand):
            return fallback  # it wins the deal
        seat = [s.player for s in view.seats].index(view.viewer)
        left = view.stock_size + sum(s.hand_size for s in view.seats)
        samples = max(MIN_SAMPLES, min(max_samples, work // (left * len(candidates))))
        stop = None if deadline is None else time.perf_counter() + deadline
        gains: list[list[int]] = [[] for _ in candidates]
        for _ in range(samples):
            state = _sample(view, seat, rng)
            if state is None:
                return fallback
            chips = [
                _playout(ENGINE.apply(state, view.viewer, action), seat) for action in candidates
            ]
            for i, won in enumerate(chips):
                gains[i].append(won - chips[0])
            if stop is not None and time.perf_counter() > stop:
                break
        # Leave the normal choice only for a gain clear of the sampling noise.
        best, best_gain = fallback, 0.0
        for action, diffs in zip(candidates[1:], gains[1:], strict=True):
            mean = statistics.fmean(diffs)
            noise = statistics.pstdev(diffs) / math.sqrt(len(diffs))
            if mean > max(MIN_GAIN, CONFIDENCE * noise) and mean > best_gain:
                best, best_gain = action, mean
        return best

    return choose
