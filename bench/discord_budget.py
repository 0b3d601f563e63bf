"""Discord's budget per move: requests with the bot token, through interactions, and 429s.

Discord allows a bot token 50 requests a second, whatever the number of shards and
processes (interaction callbacks and the interaction's own webhook are exempt), and
each channel 5 new messages and 5 edits per 5 s. So the bot-token requests a move
costs set how many moves a second one bot can serve.

This plays one fast game of each of the five games through the fake Discord with
Discord's rate limits on (`tests.harness.rate_limits`), by the end-to-end tests that
play whole games (`GAMES` below: people clicking as soon as the table or their panel
lets them, and in draughts a computer), and reads for each the fake's request counts
and the moves the game's record holds. It prints the requests per move, the 429s, and the moves a
second one bot token sustains at that cost (50 / bot-token requests a move).

    python -m bench.discord_budget [--json PATH] [--quick]

``--quick`` plays Geschenkt alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.common import (
    Cell,
    parser,
    print_machine,
    print_notes,
    print_table,
    target,
    write_json,
)

ROOT = Path(__file__).resolve().parents[1]
GLOBAL_LIMIT = 50
"""Discord's requests a second for one bot token (its rate-limits page)."""
TARGET = 0.25
"""Issue 41's target: bot-token requests a move, averaged over the five games."""
GAMES: dict[str, str] = {
    "geschenkt": "tests/e2e/test_geschenkt.py::test_three_people_play_a_whole_game_to_the_results",
    "give_and_take": "tests/e2e/test_give_and_take.py::test_three_people_play_to_the_final_places",
    "escalation": (
        "tests/e2e/test_escalation.py::test_two_people_play_a_whole_game_on_their_panels"
    ),
    "take": "tests/e2e/test_take.py::test_two_people_play_a_whole_hand_on_their_panels",
    "draughts": (
        "tests/e2e/test_draughts.py::test_a_whole_game_against_the_computer_by_typed_moves"
    ),
}
"""One end-to-end test a game that plays it fast: TAKE's plays its first deal, the
others a whole game; draughts' against a computer (its moves count too)."""
OUT = "BENCH_DISCORD_BUDGET_OUT"
"""Where the plugin (this module, loaded into pytest) writes each test's figures."""


@dataclass
class Played:
    """One test's game: its moves, and what it cost at Discord."""

    game: str
    moves: int
    bot: int
    interaction: int
    rate_limited: int

    @property
    def bot_per_move(self) -> float:
        return self.bot / self.moves if self.moves else float("nan")

    @property
    def interaction_per_move(self) -> float:
        return self.interaction / self.moves if self.moves else float("nan")


# --- the pytest plugin (runs inside the pytest process) ----------------------------


def game_of(nodeid: str) -> str | None:
    return next((game for game, test in GAMES.items() if nodeid == test), None)


async def moves_made(redis_url: str, guild_id: int, channel_id: int) -> int:
    """The moves of the channel's game, as its stored table keeps them."""
    from bot.storage.clients import client_for_url
    from bot.storage.tables import GameStore

    client = client_for_url(redis_url)
    try:
        stored = await GameStore(client).load(guild_id, channel_id)
    finally:
        await client.aclose()
    return 0 if stored is None else len(stored.table.moves)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """After a measured test's body (its game played, the fake still up): its figures."""
    outcome = yield
    game = game_of(item.nodeid)
    if game is None or call.when != "call" or outcome.get_result().failed:
        return
    funcargs: dict[str, Any] = getattr(item, "funcargs", {})
    fake, driver = funcargs["fake_discord"], funcargs["driver"]
    moves = asyncio.run(moves_made(funcargs["redis_server"], fake.guild_id, driver.channel))
    counts = fake.request_counts
    played = Played(game, moves, counts.bot, counts.interaction, counts.rate_limited)
    with open(os.environ[OUT], "a", encoding="utf-8") as out:
        out.write(json.dumps(asdict(played)) + "\n")


# --- the bench ----------------------------------------------------------------------


def play(games: list[str]) -> list[Played]:
    """Run the games' tests in one pytest process, with the limits on."""
    with tempfile.TemporaryDirectory() as workdir:
        out = Path(workdir) / "played.jsonl"
        out.touch()
        env = {**os.environ, OUT: str(out), "FAKE_DISCORD_RATE_LIMITS": "on"}
        command = [sys.executable, "-m", "pytest", "-q", "-n0", "-p", "bench.discord_budget"]
        command += [GAMES[game] for game in games]
        finished = subprocess.run(command, cwd=ROOT, env=env, text=True, capture_output=True)
        if finished.returncode != 0:
            print(finished.stdout[-4000:], finished.stderr[-2000:], sep="\n")
            raise SystemExit(f"the games' tests failed (exit {finished.returncode})")
        return [Played(**json.loads(line)) for line in out.read_text().splitlines()]


def summarize(played: list[Played]) -> dict[str, Any]:
    per_move = [p.bot_per_move for p in played]
    average = sum(per_move) / len(per_move)
    return {
        "games": [asdict(p) | {"bot_per_move": p.bot_per_move} for p in played],
        "average_bot_per_move": average,
        "moves_per_second_per_token": GLOBAL_LIMIT / average if average else None,
        "rate_limited": sum(p.rate_limited for p in played),
    }


def report(played: list[Played], summary: dict[str, Any]) -> None:
    rows: list[list[Cell]] = [
        [
            p.game,
            p.moves,
            p.bot,
            p.bot_per_move,
            p.interaction,
            p.interaction_per_move,
            p.rate_limited,
        ]
        for p in played
    ]
    average = summary["average_bot_per_move"]
    print_table(
        "Discord's budget per move, rate limits on",
        [
            "game",
            "moves",
            "bot-token requests",
            "a move",
            "interaction requests",
            "a move",
            "429s",
        ],
        rows,
        digits=2,
    )
    sustained = summary["moves_per_second_per_token"]
    print_notes(
        [
            f"average bot-token requests a move: {average:.2f} "
            f"(target <= {TARGET}: {target(average <= TARGET)})",
            "moves a second one bot token sustains at that cost: "
            + ("unbounded" if sustained is None else f"{sustained:.0f}")
            + f" ({GLOBAL_LIMIT} requests a second / {average:.2f})",
            f"429s: {summary['rate_limited']} (target 0: {target(summary['rate_limited'] == 0)})",
        ]
    )


def main() -> None:
    args = parser(__doc__.splitlines()[0]).parse_args()
    print_machine()
    games = ["geschenkt"] if args.quick else list(GAMES)
    played = play(games)
    summary = summarize(played)
    report(played, summary)
    write_json(args.json, "discord_budget", summary)


if __name__ == "__main__":
    main()
