"""Give & Take: what the choice of a capture's pile is worth, and how much of it a
seat can see.

Every card lies face down, even to its owner, so a seat chooses a capture's pile
knowing only the capture's cards and the pile sizes. To bound what any rule could gain,
an *oracle* seat that sees every face-down card plays each pile choice out (everyone,
itself included, choosing as ``normal`` afterwards) and keeps the one that wins. It
exists only here: no computer player sees a hidden card. Each seat kind plays the same
games against two ``normal`` players, seats rotated and deals seeded as in `bench.ai`;
printed: wins with their 95 % interval, and how many of the oracle's choices changed
who won.

    python -m bench.ai_give_and_take [--quick] [--games N] [--first N] [--json PATH]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench import common
from bench.ai import play_seat_kinds, seat_bench_arguments
from bench.scenes import player_ids
from bot.ai import Level
from bot.ai.give_and_take import PLAYERS
from bot.engines.base import PlayerId, SeededRng
from bot.engines.give_and_take import (
    ENGINE,
    GIVE,
    TAKE,
    GiveAndTakeAction,
    GiveAndTakeState,
    parse_action,
)

SEATS = 3
SEAT_KINDS = ("normal", "hard", "oracle")


def _move(level: Level, state: GiveAndTakeState, player: PlayerId, seed: int) -> GiveAndTakeAction:
    """The move of a computer player of ``level`` (bot.ai.give_and_take) at ``player``'s seat."""
    answer = PLAYERS[level](ENGINE.view(state, player), SeededRng.from_seed(seed))
    if isinstance(answer, GiveAndTakeAction):
        return answer
    return parse_action(str(answer))


def _normal_move(state: GiveAndTakeState, player: PlayerId) -> GiveAndTakeAction:
    return _move("normal", state, player, 0)


def sole_winner(state: GiveAndTakeState, player: PlayerId) -> bool:
    places = ENGINE.outcome(state).places
    return places[player] == 1 and sum(1 for place in places.values() if place == 1) == 1


def played_out(state: GiveAndTakeState, player: PlayerId) -> bool:
    """Whether ``player`` wins alone when everyone chooses as ``normal`` from here."""
    while not ENGINE.is_over(state):
        (acting,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, acting, _normal_move(state, acting))
    return sole_winner(state, player)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    choices: int = 0
    """Pile choices the oracle made (both piles legal)."""
    decisive: int = 0
    """Of those, the ones where one pile won and the other didn't."""


def oracle_move(state: GiveAndTakeState, player: PlayerId, tally: Tally) -> GiveAndTakeAction:
    """The pile that wins when played out, seeing every card; ``normal``'s choice when
    both or neither do."""
    chosen = _normal_move(state, player)
    legal = ENGINE.legal_actions(state, player)
    if GIVE not in legal or TAKE not in legal:
        return chosen
    tally.choices += 1
    give_wins = played_out(ENGINE.apply(state, player, GIVE), player)
    take_wins = played_out(ENGINE.apply(state, player, TAKE), player)
    if give_wins == take_wins:
        return chosen
    tally.decisive += 1
    return GIVE if give_wins else TAKE


def play_games(kind: str, first: int, games: int) -> Tally:
    """``games`` games from number ``first``: one seat of ``kind``, two ``normal``."""
    ids = player_ids(SEATS, 0)
    tally = Tally()
    for game in range(first, first + games):
        seat = ids[game % SEATS]
        state = ENGINE.new_game(ids, game // SEATS, None)
        while not ENGINE.is_over(state):
            (player,) = ENGINE.to_act(state)
            if player != seat or kind == "normal":
                action = _normal_move(state, player)
            elif kind == "oracle":
                action = oracle_move(state, player, tally)
            else:
                action = _move("hard", state, player, game)
            state = ENGINE.apply(state, player, action)
        tally.games += 1
        tally.wins += sole_winner(state, seat)
    return tally


def tally_of(tally: Tally) -> tuple[int, dict[str, Any]]:
    """A seat kind's sole wins, and its pile choices for the JSON."""
    return tally.wins, {"choices": tally.choices, "decisive_choices": tally.decisive}


def main(argv: Sequence[str] | None = None) -> int:
    args, games = seat_bench_arguments(
        "Give & Take: what a pile choice is worth, seen and unseen", 12, argv
    )
    results = play_seat_kinds(
        "Give & Take, one seat against two normal players",
        SEAT_KINDS,
        args.first,
        games,
        lambda kind: tally_of(play_games(kind, args.first, games)),
    )
    oracle = results[-1]
    print(
        f"The oracle chose a pile {oracle['choices']:,} times; "
        f"{oracle['decisive_choices']:,} of its choices decided whether it won."
    )
    common.write_json(args.json, "ai_give_and_take", {"results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
