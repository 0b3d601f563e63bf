"""Start and stop as an operator sees them: a signal stops the bot cleanly, a failed
start says what is wrong in one line, and no process of the bot's is ever left behind."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import REPO_ROOT, BotFactory, bot_env
from tests.ops.processes import embedded_run, none_left, processes_of, redis_servers, run_to_exit


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_mid_game_exits_0_leaves_no_process_and_the_game_goes_on(
    driver: Driver, bot_process: BotFactory, tmp_path: Path, sig: signal.Signals
) -> None:
    env = embedded_run(tmp_path / "data")
    bot = await bot_process("bot", env=env)
    alice, bernd, chloe = driver.users[:3]
    await driver.slash(alice, "geschenkt start")
    lobby = driver.table()
    await driver.click(bernd, lobby, "Join")
    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    table = driver.table()
    running = processes_of(env)
    assert bot.pid in running
    assert redis_servers(running), running

    bot.kill(sig)
    assert await bot.wait_exit(timeout=10) == 0
    assert await none_left(env) == {}
    output = bot.output()
    assert output.rstrip().endswith("bot: Stopped")
    assert "Redis shutdown failed" not in output
    assert "leaked semaphore" not in output

    await bot.start()
    to_act = next(u for u in (alice, bernd, chloe) if f"<@{u.id}>" in table.content)
    await driver.click(to_act, table, "No thanks")
    assert "with **1** chip on it" in driver.table().text


async def test_a_refused_token_is_one_line_and_leaves_no_process(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = embedded_run(tmp_path / "data")
    settings = {**env, "DISCORD_TOKEN": "not-the-token", "LOG_LEVEL": "WARNING"}
    exited = await run_to_exit(bot_env(fake_discord, "", settings))
    fake_discord.pop_violations()  # the refused token, on purpose

    assert exited.code == 1
    assert exited.lines == ["Discord refused the token in DISCORD_TOKEN."]
    assert await none_left(env) == {}


async def test_an_api_refusing_connections_is_one_line_and_leaves_no_process(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = embedded_run(tmp_path / "data")
    api = f"http://127.0.0.1:{closed_port()}/api/v10"
    settings = {**env, "DISCORD_API_BASE_URL": api, "LOG_LEVEL": "WARNING"}
    exited = await run_to_exit(bot_env(fake_discord, "", settings))

    assert exited.code == 3
    assert len(exited.lines) == 1
    assert exited.lines[0].startswith(f"Discord can't be reached at {api}")
    assert await none_left(env) == {}


@pytest.fixture
async def silent_api() -> AsyncIterator[str]:
    """An API that accepts connections and never answers."""
    held: list[asyncio.StreamWriter] = []

    async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/api/v10"
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


async def test_an_api_that_never_answers_times_out_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path, silent_api: str
) -> None:
    env = embedded_run(tmp_path / "data")
    settings = {
        **env,
        "DISCORD_API_BASE_URL": silent_api,
        "DISCORD_CONNECT_TIMEOUT_SECONDS": "1",
        "LOG_LEVEL": "WARNING",
    }
    exited = await run_to_exit(bot_env(fake_discord, "", settings), timeout=30)

    assert exited.code == 3
    assert exited.lines == [
        f"Discord can't be reached at {silent_api} (no answer in time): "
        "check the network and DNS, or DISCORD_API_BASE_URL."
    ]
    assert await none_left(env) == {}


async def test_an_unreachable_gateway_is_retried_in_one_line_until_stopped(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = embedded_run(tmp_path / "data")
    gateway = f"ws://127.0.0.1:{closed_port()}/"
    settings = {**env, "DISCORD_GATEWAY_URL": gateway, "LOG_LEVEL": "WARNING"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=REPO_ROOT,
        env=bot_env(fake_discord, "", settings),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert process.stdout is not None
    try:
        first = await asyncio.wait_for(process.stdout.readline(), 30)
        assert "Failed to connect for shard_id" in first.decode()
        process.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(process.communicate(), 10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    assert process.returncode == 0
    assert "Traceback" not in rest.decode()
    assert await none_left(env) == {}


async def test_a_bad_log_level_is_one_clear_line(fake_discord: FakeDiscord) -> None:
    exited = await run_to_exit(bot_env(fake_discord, "", {"LOG_LEVEL": "verbose"}))

    assert exited.code == 2
    assert exited.lines == [
        "Invalid setting LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, "
        "not 'verbose'"
    ]


async def test_shard_ids_outside_the_shard_count_are_one_clear_line(
    fake_discord: FakeDiscord,
) -> None:
    env = bot_env(fake_discord, "", {"SHARD_COUNT": "2", "SHARD_IDS": "0,5"})
    exited = await run_to_exit(env)

    assert exited.code == 2
    assert exited.lines == ["Invalid settings: SHARD_IDS [5] are not shards of SHARD_COUNT=2"]
