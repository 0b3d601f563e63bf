"""Escalation: what knowing the other hands, or how the others play, would be worth
to ``hard``, and when.

``hard`` deals each of its samples at random in agreement with its view
(`bot.ai.escalation.sample_deal`), and seats each other seat as one of several kinds
of player (`bot.ai.escalation.OTHER_KINDS`). To bound what better guesses could gain,
*oracle* seats search exactly as ``hard`` does but are told more:

- shown the other hands as they are once the stock is out (then every unseen card is
  in a hand, and only who holds which is hidden), or while the stock lasts (the
  stock's order still dealt at random: knowing it would be knowing the draws);
- shown the other hands throughout;
- told how the others play (every other seat of every sample is seated as the
  opponents play: ``normal``'s weights, or against random opponents their own rule,
  `uniform_card_move`; and their hands are dealt as such players' lie, `OPPONENT_HANDS`),
  with or without the hands shown throughout.

They exist only here: no computer player sees a hidden card or is told who it plays.
Each seat kind plays the same games against two ``normal`` players (or, with
``--opponents random``, two players of uniformly random legal actions, as
`bench.ai`'s ``random`` pool), seats rotated and deals seeded as in `bench.ai`;
printed: wins with their 95 % interval.

    python -m bench.ai_escalation [--quick] [--games N] [--first N]
        [--opponents normal|random] [--seats KIND ...] [--json PATH]
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

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
SEAT_KINDS = (
    "normal",
    "hard",
    "hands shown, stock out",
    "hands shown, stock left",
    "hands shown",
    "kind told",
    "kind told, hands shown",
)
OPPONENTS = ("normal", "random")
Phase = Literal["stock out", "stock left", "always"]


def card_move_weights(hand: Sequence[int], size: int, in_force: int) -> dict[int, int]:
    """How many of the engine's legal actions each legal simulator move stands for (a
    hand of counts; ``in_force`` -1 when leading): ``count`` of the ``held`` cards of a
    value can be chosen in C(held, count) ways, each 2 or 3 held is an action of its
    own, and taking is one."""
    leading = in_force < 0
    weights = {} if leading else {sim.TAKE_MOVE: 1}
    for value in sim.ORDINARY:
        held = hand[value]
        low = 1 if leading else in_force // value + 1
        for count in range(low, held + 1):
            weights[value * 16 + count] = math.comb(held, count)
    specials = hand[2] + hand[3]
    if specials and (not leading or specials == size):
        weights.update({special * 16 + 1: hand[special] for special in (2, 3) if hand[special]})
    return weights


def uniform_card_move(
    hand: Sequence[int], size: int, in_force: int, draw: Callable[[], float]
) -> int:
    """The ``random`` pool's player on the simulator: each of the engine's legal actions
    as likely, as `bot.ai.random_player.choose_uniform` draws them, so a move is as
    likely as the actions it stands for (`card_move_weights`)."""
    weights = card_move_weights(hand, size, in_force)
    point = draw() * sum(weights.values())
    for move, weight in weights.items():
        point -= weight
        if point < 0:
            return move
    return move


def dealt_at_random(
    view: EscalationView,
    seat: int,
    unseen: list[int],
    rnd: random.Random,
    seen: Sequence[ai.Seen],
    seats: Sequence[sim.SeatKind],
) -> sim.Deal:
    """The unseen cards dealt uniformly at random into the other hands and the stock:
    players who choose at random keep no sets, so their hands hold what they drew."""
    rnd.shuffle(unseen)
    return ai.deal_of(view, seat, unseen)


OPPONENT_KIND: dict[str, sim.SeatKind] = {"normal": sim.NORMAL_WEIGHTS, "random": uniform_card_move}
"""How the "kind told" oracles seat the others: as the opponents play."""
OPPONENT_HANDS: dict[str, ai.DealSampler] = {"normal": ai.sample_deal, "random": dealt_at_random}
"""How the "kind told" oracle deals the others' hands: as such players' hands lie
(``hard``'s deals are fitted to ``normal`` players', who keep sets)."""


class Table:
    """The game as it stands, for the oracles (set before each of their decisions)."""

    state: EscalationState | None = None


def shown_hands(table: Table, when: Phase) -> ai.DealSampler:
    """A sampler that deals the other hands as they are (the stock still at random)
    once the stock is out, while it lasts, or ``always``; otherwise as ``hard`` does."""

    def sample(
        view: EscalationView,
        seat: int,
        unseen: list[int],
        rnd: random.Random,
        seen: Sequence[ai.Seen],
        seats: Sequence[sim.SeatKind],
    ) -> sim.Deal:
        state = table.state
        shown = when == "always" or (view.stock_size == 0) == (when == "stock out")
        if state is None or not shown:
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


def seat_player(kind: str, table: Table, opponents: str) -> Chooser:
    if kind == "normal":
        return ai.PLAYERS["normal"]
    if kind == "hard":
        return ai.PLAYERS["hard"]
    if kind == "hands shown, stock out":
        return ai.hard_player(sample=shown_hands(table, "stock out"))
    if kind == "hands shown, stock left":
        return ai.hard_player(sample=shown_hands(table, "stock left"))
    if kind == "hands shown":
        return ai.hard_player(sample=shown_hands(table, "always"))
    told = (OPPONENT_KIND[opponents],)
    if kind == "kind told":
        return ai.hard_player(other_kinds=told, sample=OPPONENT_HANDS[opponents])
    if kind == "kind told, hands shown":
        return ai.hard_player(other_kinds=told, sample=shown_hands(table, "always"))
    raise ValueError(f"no seat kind {kind!r}")


def play_games(kind: str, first: int, games: int, opponents: str = "normal") -> int:
    """Sole wins in ``games`` games from number ``first``: one seat of ``kind``, two of
    ``opponents`` (the seats' random numbers as in `bench.ai.play_pairing`)."""
    ids = player_ids(SEATS, 0)
    table = Table()
    measured = seat_player(kind, table, opponents)
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


def oracle_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--opponents",
        choices=OPPONENTS,
        default="normal",
        help="who sits in the other two seats (default normal)",
    )
    parser.add_argument(
        "--seats",
        nargs="+",
        choices=SEAT_KINDS,
        default=SEAT_KINDS,
        metavar="KIND",
        help="which seat kinds play, each quoted (default all: "
        + ", ".join(repr(kind) for kind in SEAT_KINDS)
        + ")",
    )


def main(argv: Sequence[str] | None = None) -> int:
    args, games = seat_bench_arguments(
        "Escalation: what knowing the hands or the kinds of the others is worth to hard",
        3,
        argv,
        oracle_arguments,
    )
    results = play_seat_kinds(
        f"Escalation, one seat against two {args.opponents} players",
        args.seats,
        args.first,
        games,
        lambda kind: (play_games(kind, args.first, games, args.opponents), {}),
    )
    common.write_json(args.json, "ai_escalation", {"opponents": args.opponents, "results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
