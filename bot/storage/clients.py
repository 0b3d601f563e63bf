"""Redis clients for each `REDIS_URL` form, and the embedded server when there is none."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import MasterNotFoundError, Sentinel, SentinelConnectionPool
from redis.backoff import NoBackoff
from redis.exceptions import ClusterError, RedisClusterException, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import EncodableT

from bot.storage.embedded import EmbeddedRedis
from bot.storage.tables import GameStore
from bot.storage.urls import (
    CLUSTER_SCHEME,
    SENTINEL_SCHEME,
    ClusterTarget,
    SentinelTarget,
    parse_cluster_url,
    parse_sentinel_url,
)

MAX_CONNECTIONS = 128
"""Redis connections per bot; more interactions at once queue for one (briefly). With
32, a 12-minute `bench.soak` (200 tables, about 45 clicks/s) ran the pool dry 1,119
times ("No connection available"); with 128, 9 times, all else alike."""


FAIL_FAST: dict[str, float] = {"socket_timeout": 1.5, "socket_connect_timeout": 1.0}
"""A stalled Redis call gives up in time for the interaction to be answered."""


def client_for_url(url: str) -> aioredis.Redis:
    """A client that fails fast, so an interaction can still answer in time (any form
    of `bot.redis_urls`; ``rediss://`` is TLS, by redis-py's own URL parsing).

    The pool blocks (up to a second) when all its connections are busy, instead of
    refusing with "Too many connections" as the default pool does under a burst.

    A ``redis+cluster://`` URL gives redis-py's `RedisCluster` (see `_cluster_client`),
    typed as `aioredis.Redis`: the stores call only commands both clients have."""
    if url.startswith(f"{SENTINEL_SCHEME}://"):
        return _sentinel_client(parse_sentinel_url(url))
    if url.startswith(f"{CLUSTER_SCHEME}://"):
        return cast(aioredis.Redis, _cluster_client(parse_cluster_url(url)))
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=MAX_CONNECTIONS, timeout=1.0, decode_responses=True, **FAIL_FAST
    )
    return aioredis.Redis.from_pool(pool)


SentinelState = dict[str, Any]
"""What a sentinel says of one service, as redis-py parses ``SENTINEL MASTERS``."""

LATE_ANSWER_S = 0.1
"""How long the sentinels that haven't answered get once a majority has: enough for any
sentinel on the network, far less than the connect time-out of one that is down."""


def _answered(asked: Sequence[asyncio.Future[Any]]) -> list[dict[str, SentinelState]]:
    """The answers among ``asked`` so far; a sentinel that couldn't be reached gave none,
    and any other fault is raised."""
    answers = []
    for question in asked:
        if not question.done() or question.cancelled():
            continue
        fault = question.exception()
        if fault is None:
            answers.append(cast(dict[str, SentinelState], question.result()))
        elif not isinstance(fault, RedisConnectionError | RedisTimeoutError):
            raise fault
    return answers


class LatestSentinel(Sentinel):
    """redis-py's `Sentinel`, but the master is the one named under the highest config
    epoch by any sentinel, not by the first one that answers.

    Right after a failover a sentinel that hasn't heard of it yet still names the old
    master. If that node was restarted it answers again, empty and calling itself
    master until the sentinels make it a replica, and redis-py would read "no game
    here" from it. Each failover is made under a higher epoch (Redis's sentinel docs,
    "Configuration epochs"), so an answer under a lower epoch than another's is out of
    date. Once a majority has answered, the others get `LATE_ANSWER_S`, so one
    unreachable sentinel doesn't slow every new connection by its connect time-out."""

    async def discover_master(self, service_name: str) -> tuple[str, int]:
        states = [
            state for masters in await self._answers() if (state := masters.get(service_name))
        ]
        return self.newest_master(states, service_name)

    async def _answers(self) -> list[dict[str, SentinelState]]:
        """``SENTINEL MASTERS`` from every sentinel that answers: all of them, but once a
        majority has, the others get only `LATE_ANSWER_S` more."""
        asked = [asyncio.ensure_future(sentinel.sentinel_masters()) for sentinel in self.sentinels]
        majority = len(asked) // 2 + 1
        pending = set(asked)
        try:
            while pending and len(_answered(asked)) < majority:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if pending:
                await asyncio.wait(pending, timeout=LATE_ANSWER_S)
        finally:
            for question in asked:
                question.cancel()
            await asyncio.gather(*asked, return_exceptions=True)
        return _answered(asked)

    def newest_master(self, states: list[SentinelState], service_name: str) -> tuple[str, int]:
        """The master named under the highest config epoch in ``states``, by a sentinel
        that thinks it up and isn't leading a failover (the leader names the old
        address under the new epoch until its failover ends). Never one named under an
        older epoch: with none usable at the highest, there is no master for now, which
        the store answers as "try again"."""
        if not states:
            raise MasterNotFoundError(f"No sentinel named a master for {service_name!r}")
        newest = max(int(state["config-epoch"]) for state in states)
        usable = [
            state
            for state in states
            if int(state["config-epoch"]) == newest
            and "failover_in_progress" not in state["flags"]
            and self.check_master_state(state, service_name)
        ]
        if not usable:
            raise MasterNotFoundError(f"No master of {service_name!r} up under epoch {newest}")
        master = usable[0]
        forced: str | None = self._force_master_ip
        ip = str(master["ip"]) if forced is None else forced
        return ip, int(master["port"])


def _sentinel_client(target: SentinelTarget) -> aioredis.Redis:
    """The master of ``target.service`` as the sentinels name it, asked again after a
    failover (`LatestSentinel`). Its pool doesn't block: past `MAX_CONNECTIONS`
    calls at once, one fails as the store being unavailable."""
    sentinel = LatestSentinel(target.sentinels, sentinel_kwargs=dict(FAIL_FAST), **FAIL_FAST)  # type: ignore[no-untyped-call]
    client: aioredis.Redis = sentinel.master_for(
        target.service,
        db=target.db,
        username=target.username,
        password=target.password,
        max_connections=MAX_CONNECTIONS,
        decode_responses=True,
        socket_timeout=FAIL_FAST["socket_timeout"],
        socket_connect_timeout=FAIL_FAST["socket_connect_timeout"],
    )
    return client


CLUSTER_FAULTS = (ClusterError, TryAgainError, RedisClusterException)
"""What redis-py's cluster client raises while the cluster is in flux (a master down and
not yet replaced: CLUSTERDOWN, TRYAGAIN, a slot nobody serves, no node reachable to
learn the slots from). `bot.storage.errors.guarded` knows connection faults only, so
`ClusterClient` raises these as one, and the store answers "unavailable, try again"."""


@contextlib.contextmanager
def _as_connection_fault() -> Iterator[None]:
    try:
        yield
    except CLUSTER_FAULTS as error:
        raise RedisConnectionError(f"Redis Cluster: {error}") from error


class ClusterClient(RedisCluster):
    """redis-py's asyncio `RedisCluster` whose cluster faults are connection faults."""

    async def initialize(
        self,
        additional_startup_nodes_info: list[tuple[str, int]] | None = None,
        last_failed_node_name: str | None = None,
    ) -> RedisCluster:
        with _as_connection_fault():
            return await super().initialize(additional_startup_nodes_info, last_failed_node_name)

    async def execute_command(self, *args: EncodableT, **kwargs: Any) -> Any:
        with _as_connection_fault():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> Any:
        if shard_hint:
            raise RedisClusterException("ClusterPipeline does not support shard_hint")
        return _ClusterClientPipeline(self, transaction)  # type: ignore[abstract]


class _ClusterClientPipeline(ClusterPipeline):
    async def initialize(self) -> ClusterPipeline:
        with _as_connection_fault():
            return await super().initialize()

    async def execute(
        self, raise_on_error: bool = True, allow_redirections: bool = True
    ) -> list[Any]:
        with _as_connection_fault():
            return await super().execute(raise_on_error, allow_redirections)


def _cluster_client(target: ClusterTarget) -> ClusterClient:
    """A Redis Cluster client starting from ``target.nodes``: it asks one of them for
    the cluster's nodes and slots and sends each command to the master owning its key's
    slot (every key of a server is in one slot, `bot.storage.keys`).

    Fail-fast like the other forms, and with no retries of its own: a command to a
    master that is down fails at once (the store answers "unavailable, try again"), and
    the next command learns the slots anew, so once a replica has taken over the
    cluster serves again without the bot being restarted. A MOVED answer (the slot
    moved) is followed at once. Past `MAX_CONNECTIONS` calls at once to one node, one
    fails as the store being unavailable."""
    return ClusterClient(
        startup_nodes=[ClusterNode(host, port) for host, port in target.nodes],
        username=target.username,
        password=target.password,
        max_connections=MAX_CONNECTIONS,
        retry=Retry(NoBackoff(), 0),
        decode_responses=True,
        socket_timeout=FAIL_FAST["socket_timeout"],
        socket_connect_timeout=FAIL_FAST["socket_connect_timeout"],
    )


async def close_client(client: aioredis.Redis) -> None:
    """Close the client and, for Sentinel, its connections to the sentinels."""
    await client.aclose()
    pool = getattr(client, "connection_pool", None)  # a cluster client has a pool per node
    if isinstance(pool, SentinelConnectionPool):
        for sentinel in pool.sentinel_manager.sentinels:
            await sentinel.aclose()


@asynccontextmanager
async def open_store(
    redis_url: str | None, data_dir: Path, *, min_replicas: int = 0
) -> AsyncIterator[GameStore]:
    """The store on ``redis_url``, or on an embedded Redis with data under ``data_dir``;
    ``min_replicas``: ``REDIS_MIN_REPLICAS`` (`GameStore.save`).

    The embedded server is stopped on every way out, a failed start included."""
    with contextlib.ExitStack() as servers:
        if redis_url is None:
            embedded = servers.enter_context(EmbeddedRedis(data_dir))
            redis_url = f"unix://{embedded.socket}"
        client = client_for_url(redis_url)
        try:
            yield GameStore(client, min_replicas=min_replicas)
        finally:
            await close_client(client)
