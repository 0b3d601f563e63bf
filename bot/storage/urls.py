"""The forms ``REDIS_URL`` may take, checked at start so a wrong one is one clear line.

- ``redis://[[user]:password@]host:port/db``: one server;
- ``rediss://…``: the same over TLS (redis-py's own options go in the query, e.g.
  ``?ssl_ca_certs=/etc/ssl/redis-ca.pem``; the server's certificate is verified);
- ``unix:///path/to/redis.sock``: a local socket;
- ``redis+sentinel://[[user]:password@]host:port[,host:port…]/service[/db]``: Redis
  Sentinel; the sentinels are asked for the master of ``service`` (the password is the
  master's), and the bot follows a failover to the new master.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

SENTINEL_SCHEME = "redis+sentinel"
SCHEMES = ("redis", "rediss", "unix", SENTINEL_SCHEME)


@dataclass(frozen=True)
class SentinelTarget:
    sentinels: list[tuple[str, int]]
    service: str
    db: int = 0
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


def _host_and_port(host: str) -> tuple[str, int]:
    split = urlsplit(f"//{host}")
    try:
        port = split.port or 26379
    except ValueError:
        raise ValueError(f"{host!r} is not host:port") from None
    if not split.hostname:
        raise ValueError(f"{host!r} is not host:port")
    return split.hostname, port
