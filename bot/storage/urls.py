"""The forms ``REDIS_URL`` may take, checked at start so a wrong one is one clear line.

- ``redis://[[user]:password@]host:port/db``: one server;
- ``rediss://…``: the same over TLS (redis-py's own options go in the query, e.g.
  ``?ssl_ca_certs=/etc/ssl/redis-ca.pem``; the server's certificate is verified);
- ``unix:///path/to/redis.sock``: a local socket;
- ``redis+sentinel://[[user]:password@]host:port[,host:port…]/service[/db]``: Redis
  Sentinel; the sentinels are asked for the master of ``service`` (the password is the
  master's), and the bot follows a failover to the new master;
- ``redis+cluster://[[user]:password@]host:port[,host:port…][/]``: Redis Cluster; the
  nodes named are where the client starts (one is enough, more survive one being
  down), it learns the others and which owns each slot, and follows a failover.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

SENTINEL_SCHEME = "redis+sentinel"
CLUSTER_SCHEME = "redis+cluster"
SCHEMES = ("redis", "rediss", "unix", SENTINEL_SCHEME, CLUSTER_SCHEME)


@dataclass(frozen=True)
class SentinelTarget:
    sentinels: list[tuple[str, int]]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class ClusterTarget:
    nodes: list[tuple[str, int]]
    username: str | None = None
    password: str | None = None


def check_redis_url(url: str) -> str:
    """``url`` if it is a form the bot can use; ValueError saying what is wrong if not."""
    scheme = url.partition("://")[0]
    if scheme not in SCHEMES or "://" not in url:
        forms = ", ".join(f"{s}://" for s in SCHEMES)
        raise ValueError(f"must start with one of {forms}")
    if scheme == SENTINEL_SCHEME:
        parse_sentinel_url(url)
    if scheme == CLUSTER_SCHEME:
        parse_cluster_url(url)
    return url


def parse_sentinel_url(url: str) -> SentinelTarget:
    """The sentinels, service and credentials of a ``redis+sentinel://`` URL."""
    rest = url.removeprefix(f"{SENTINEL_SCHEME}://")
    location, _, path = rest.partition("/")
    credentials, _, hosts = location.rpartition("@")
    username, _, password = credentials.partition(":")
    parts = [part for part in path.split("/") if part]
    if not hosts or not parts or len(parts) > 2:
        raise ValueError(
            f"a sentinel URL is {SENTINEL_SCHEME}://host:port[,host:port…]/service[/db]"
        )
    sentinels = [_host_and_port(host) for host in hosts.split(",")]
    db = parts[1] if len(parts) == 2 else "0"
    if not db.isdigit():
        raise ValueError(f"the database in a sentinel URL is a number, not {db!r}")
    return SentinelTarget(
        sentinels=sentinels,
        service=unquote(parts[0]),
        db=int(db),
        username=unquote(username) or None,
        password=unquote(password) or None,
    )


def parse_cluster_url(url: str) -> ClusterTarget:
    """The start-up nodes and credentials of a ``redis+cluster://`` URL. A cluster has
    one database (0): a path other than ``/`` or ``/0`` is refused."""
    rest = url.removeprefix(f"{CLUSTER_SCHEME}://")
    location, _, path = rest.partition("/")
    credentials, _, hosts = location.rpartition("@")
    username, _, password = credentials.partition(":")
    if not hosts or path not in ("", "0"):
        raise ValueError(f"a cluster URL is {CLUSTER_SCHEME}://host:port[,host:port…]/")
    return ClusterTarget(
        nodes=[_host_and_port(host, default_port=6379) for host in hosts.split(",")],
        username=unquote(username) or None,
        password=unquote(password) or None,
    )


def _host_and_port(host: str, default_port: int = 26379) -> tuple[str, int]:
    split = urlsplit(f"//{host}")
    try:
        port = split.port or default_port
    except ValueError:
        raise ValueError(f"{host!r} is not host:port") from None
    if not split.hostname:
        raise ValueError(f"{host!r} is not host:port")
    return split.hostname, port
