"""Escalation: what knowing the other hands would be worth to ``hard``, and when.

``hard`` deals each of its samples at random in agreement with its view
(`bot.ai.escalation.sample_deal`). To bound what better guesses at the other hands
could gain, two *oracle* seats search exactly as ``hard`` does but are shown the other
hands as they are: one once the stock is out (then every unseen card is in a hand, and
only who holds which is hidden), one while the stock lasts (the stock's order still
dealt at random: knowing it would be knowing the draws). They exist only here: no
computer player sees a hidden card. Each seat kind plays the same games against two
``normal`` players (or, with ``--opponents random``, two players of uniformly random
legal actions, as `bench.ai`'s ``random`` pool), seats rotated and deals seeded as in
`bench.ai`; printed: wins with their 95 % interval.

    python -m bench.ai_escalation [--quick] [--games N] [--first N]
        [--opponents normal|random] [--json PATH]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from bench import common
from bench.ai import play_seat_kinds, seat_bench_arguments
from bench.scenes import player_ids
from bot.ai import Chooser
from bot.ai import escalation as ai
from bot.ai import escalation_sim as sim
from bot.ai.random_player import choose_uniform
from bot.engines.base import SeededRng
from bot.engines.escalation import ENGINE, EscalationState, EscalationView

SEATS = 3
SEAT_KINDS = ("normal", "hard", "hands shown, stock out", "hands shown, stock left")


class Table:
    """The game as it stands, for the oracles (set before each of their decisions)."""

    state: EscalationState | None = None


def shown_hands(table: Table, stock_out: bool) -> ai.DealSampler:
    """A sampler that deals the other hands as they are (the stock still at random)
    when the stock is out (``stock_out``) or while it lasts (not ``stock_out``)."""

    def sample(
        view: EscalationView,
        seat: int,
        unseen: list[int],
        rnd: random.Random,
        seen: Sequence[ai.Seen],
        seats: Sequence[sim.SeatKind],
    ) -> sim.Deal:
        state = table.state
        if state is None or (view.stock_size == 0) != stock_out:
            return ai.sample_deal(view, seat, unseen, rnd, seen, seats)
        hands = [
            sim.kind_of(card) for i, hand in enumerate(state.hands) if i != seat for card in hand
        ]
        stock = [sim.kind_of(card) for card in state.stock]
        rnd.shuffle(stock)
        if sorted(hands + stock) != sorted(unseen):
            raise AssertionError("the cards the seat can't place are not the others' and the stock")
        unseen[:] = hands + stock
        return ai.deal_of(view, seat, unseen)

    return sample


def seat_player(kind: str, table: Table) -> Chooser:
    if kind == "normal":
        return ai.PLAYERS["normal"]
    if kind == "hard":
        return ai.PLAYERS["hard"]
    return ai.hard_player(sample=shown_hands(table, stock_out=kind.endswith("stock out")))


OPPONENTS = ("normal", "random")


def play_games(kind: str, first: int, games: int, opponents: str = "normal") -> int:
    """Sole wins in ``games`` games from number ``first``: one seat of ``kind``, two of
    ``opponents`` (the seats' random numbers as in `bench.ai.play_pairing`)."""
    ids = player_ids(SEATS, 0)
    table = Table()
    measured = seat_player(kind, table)
    normal = ai.PLAYERS["normal"]
    wins = 0
    for game in range(first, first + games):
        seat = game % SEATS
        state = ENGINE.new_game(ids, game // SEATS, None)
        rngs = [SeededRng.from_seed((game << 8) + k) for k in range(SEATS)]
        while not ENGINE.is_over(state):
            (player,) = ENGINE.to_act(state)
            k = ids.index(player)
            rng = SeededRng.from_seed(rngs[k].next_u64())
            table.state = state
            action: Any
            if k == seat:
                action = measured(ENGINE.view(state, player), rng)
            elif opponents == "random":
                action = choose_uniform(ENGINE, state, player, rng)
            else:
                action = normal(ENGINE.view(state, player), rng)
            state = ENGINE.apply(state, player, action)
        places = ENGINE.outcome(state).places
        wins += places[ids[seat]] == 1 and sum(1 for p in places.values() if p == 1) == 1
    return wins


def opponents_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--opponents",
        choices=OPPONENTS,
        default="normal",
        help="who sits in the other two seats (default normal)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    args, games = seat_bench_arguments(
        "Escalation: what knowing the other hands is worth to hard", 3, argv, opponents_argument
    )
    results = play_seat_kinds(
        f"Escalation, one seat against two {args.opponents} players",
        SEAT_KINDS,
        args.first,
        games,
        lambda kind: (play_games(kind, args.first, games, args.opponents), {}),
    )
    common.write_json(args.json, "ai_escalation", {"opponents": args.opponents, "results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
