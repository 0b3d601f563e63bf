"""Discord's rate limits, answered the way Discord answers them, for the fake Discord.

The fake refuses what Discord would refuse for going too fast, so that the bot's own
rate limiter (discord.py's ``HTTPClient`` and webhook adapter) is what gets exercised:

- every limit is one row of `LIMITS`: the route, how many requests per how many
  seconds, the ``X-RateLimit-Bucket`` it reports, and where the numbers come from;
- a per-route limit counts per top-level resource (``channel_id``, ``guild_id``,
  ``webhook_id`` + ``webhook_token``), in a fixed window that opens with the first
  request and lasts ``window`` seconds, as Discord's ``X-RateLimit-Reset-After`` tells it;
- the global limit (50 requests a second) counts every request of the bot token;
  interaction endpoints (the callback and the interaction's own webhook) are exempt;
- past a limit: HTTP 429 with ``{"message", "retry_after", "global"}`` (and ``code`` 0,
  which Discord's OpenAPI spec requires of a 429 body) and Discord's headers, ``Via``
  among them (discord.py takes a 429 without ``Via`` for a Cloudflare ban and gives up);
- answers on a limited route carry ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
  ``-Reset-After`` and ``-Bucket`` (discord.py reads them and waits before it would be
  refused; its webhook adapter waits when ``Remaining`` is ``0``);
- 401, 403 and 429 answers (but a 429 of scope ``shared``) are invalid requests: counted
  over 10 minutes; at 10,000 the fake answers every request as Cloudflare does (429, an
  HTML page, no ``Via``) and records an ``invalid_requests`` violation.

Time is real monotonic time, not `FakeDiscord.clock`: discord.py sleeps ``retry_after``
in real time. Only the age of a message to delete (its sub-limits) is read off the fake's
clock, as the message's own creation time is.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

API_PREFIX = "/api/v10"
ENV = "FAKE_DISCORD_RATE_LIMITS"
"""``on`` or ``off`` (``1``/``0``, ``true``/``false``, ``yes``/``no``): whether a fake
made without ``rate_limits=`` applies the limits. Unset: a `FakeDiscord` made directly
(the benches, raw-HTTP self-tests) applies none, the ``fake_discord`` fixture applies
them to a test that runs a bot (``bot_process``)."""
MESSAGE = "You are being rate limited."
VIA = "1.1 google"
"""What Discord's answers carry in ``Via`` (discord.py checks only that there is one)."""

GLOBAL = "*"
"""The route of the global row: every request of the bot token."""
INVALID = "* 401|403|429"
"""The route of the invalid-request row (the Cloudflare ban past it)."""

DOCS = "discord-api-docs developers/topics/rate-limits.mdx"
HATA = "hata (HuyaneMatsu/hata) hata/discord/http/rate_limit_groups.py"
JAVACORD = "javacord.org/wiki/advanced-topics/ratelimits"
SECOND, MINUTE, DAY = 1.0, 60.0, 86_400.0
_TOP_LEVEL = ("channel_id", "guild_id", "webhook_id", "webhook_token")
"""Path parameters that make a bucket of their own (Discord's "top-level resources",
in discord.py's order of ``Route.major_parameters``)."""


@dataclass(frozen=True)
class Limit:
    """``limit`` requests per ``window`` seconds on ``route`` ("METHOD /path/{param}")."""

    route: str
    limit: int
    window: float
    bucket: str
    """What ``X-RateLimit-Bucket`` says (Discord's hash of the limit, without the
    top-level resource)."""
    source: str
    counter: str = ""
    """Rows with one counter count against each other (default: the route and bucket
    alone). Two routes may report one ``bucket`` and still count apart (POST and PATCH of
    messages); one route may count in several (deletes, by the message's age)."""
    scope: str = "user"
    """``X-RateLimit-Scope`` of its 429: ``user`` (the bot's own limit), ``global`` or
    ``shared`` (a resource's limit for everyone; not an invalid request)."""
    min_age: float = 0.0
    max_age: float = math.inf
    """Only for a message of this age, in seconds (deletes have sub-limits by age; an
    unknown message counts as new)."""
    applied: bool = True
    """False: recorded here but not applied unless a test asks (`RateLimits.with_limit`)."""
    per_guild: bool = False
    """Count per guild of the path's channel instead of per channel (Discord does so for
    the thread-member routes, discord-api-docs#8082)."""

    @property
    def method(self) -> str:
        return self.route.partition(" ")[0]

    @property
    def path(self) -> str:
        return self.route.partition(" ")[2]

    @property
    def key(self) -> str:
        """What the row counts under (with the top-level resource)."""
        return self.counter or f"{self.route} {self.bucket}"


_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
_WEBHOOK_MESSAGE = _WEBHOOK + "/messages/{message_id}"
_MESSAGES = "/channels/{channel_id}/messages"
_MESSAGE = _MESSAGES + "/{message_id}"
_DELETE = "DELETE " + _MESSAGE
_DELETE_SOURCE = (
    "discord-api-docs#8330 (2026-05, buckets seen deleting messages: younger than 10 s "
    "or unknown 5 per 1 s, younger than 2 weeks 3 per 0.333 s, older 30 per 4 s); "
    f"{JAVACORD}: Delete Messages 5 / 1s per channel; {HATA}: message_delete 3 / 1.0 s; "
    "discord.py http.py delete_message keys the same ages apart (sub-10-seconds, "
    "older-than-two-weeks)"
)
_COMMANDS = (
    "python-discord/bot-core#171 (2022): updating commands has no rate limit (only the "
    "200 creates a day). Not applied by default: a bot that syncs at start (this one, the "
    "null bot) and starts twice within a minute gets Remaining 0, and discord.py then "
    "sleeps out the minute inside setup_hook, past the fixtures' 30 s wait for a start"
)
_THREAD_CREATE = (
    f"{HATA}: GROUP_THREAD_CREATE, thread_create_from_message and thread_create in one "
    "group, 50 / 300.0 s; discord-api-docs#7816 (2025-09): POST /channels/{id}/threads "
    "answered 429 of scope shared for that channel, retry_after 219 s"
)
_THREAD_MEMBERS = (
    f"{HATA}: GROUP_THREAD_ACTION, thread_join, thread_leave, thread_user_add and "
    "thread_user_delete in one group, 5 / 5.0 s; discord-api-docs#8082 (2026-01) and "
    "discord.py#10384: the thread-member routes count per guild, not per thread"
)
_THREAD = "/channels/{channel_id}/threads"
_THREAD_MEMBER = "/channels/{channel_id}/thread-members/"
_INTERACTION_WEBHOOK = (
    f"{HATA}: GROUP_INTERACTION_EXECUTE 5 / 2.0 s per interaction (follow-ups, "
    "@original, messages/{id}: one counter); discord-api-docs#2701: follow-ups "
    "5/2s per interaction, the interaction token as top-level resource"
)

LIMITS: tuple[Limit, ...] = (
    Limit(
        GLOBAL,
        50,
        SECOND,
        "global",
        f'{DOCS} "Global Rate Limit": 50 requests per second; "Interaction endpoints '
        "are not bound to the bot's Global Rate Limit\"",
        scope="global",
    ),
    Limit(
        INVALID,
        10_000,
        10 * MINUTE,
        "invalid",
        f'{DOCS} "Invalid Request Limit": 10,000 401/403/429 per 10 minutes, then a '
        "temporary restriction; 429s of scope shared don't count",
    ),
    Limit(
        "POST " + _MESSAGES,
        5,
        5 * SECOND,
        "messages",
        f"{JAVACORD}: Send Messages 5 / 5s per channel; {HATA}: message_create 5 / 4.0 s; "
        "discord-api-docs#8073 (2026-01): POST and PATCH report one X-RateLimit-Bucket "
        "but count apart",
    ),
    Limit(
        "PATCH " + _MESSAGE,
        5,
        5 * SECOND,
        "messages",
        f"{HATA}: message_edit 5 / 4.0 s; discord-api-docs#1442, #8073: the bucket "
        "of POST messages, counted apart",
    ),
    Limit(_DELETE, 5, SECOND, "delete_new_message", _DELETE_SOURCE, max_age=10.0),
    Limit(
        _DELETE,
        3,
        0.333,
        "delete_message",
        _DELETE_SOURCE,
        min_age=10.0,
        max_age=14 * DAY,
    ),
    Limit(_DELETE, 30, 4 * SECOND, "delete_old_message", _DELETE_SOURCE, min_age=14 * DAY),
    Limit("GET " + _MESSAGES, 5, 5 * SECOND, "history", f"{HATA}: message_get_chunk 5 / 5.0 s"),
    Limit("GET " + _MESSAGE, 5, 5 * SECOND, "get_message", f"{HATA}: message_get 5 / 5.0 s"),
    Limit(
        "POST /channels/{channel_id}/typing", 5, 5 * SECOND, "typing", f"{HATA}: typing 5 / 5.0 s"
    ),
    Limit(
        "GET /guilds/{guild_id}/members/{user_id}",
        5,
        SECOND,
        "member",
        f"{HATA}: guild_user_get 5 / 1.0 s per guild",
    ),
    Limit("GET /users/{user_id}", 30, 30 * SECOND, "user", f"{HATA}: user_get 30 / 30.0 s"),
    Limit("GET /gateway/bot", 2, 5 * SECOND, "gateway_bot", f"{HATA}: client_gateway_bot 2 / 5"),
    Limit(
        "PUT /applications/{application_id}/commands",
        2,
        MINUTE,
        "commands",
        f"{HATA}: application_command_global_update_multiple 2 / 60.0 s; {_COMMANDS}",
        applied=False,
    ),
    Limit(
        "PUT /applications/{application_id}/guilds/{guild_id}/commands",
        2,
        MINUTE,
        "guild_commands",
        f"{HATA}: application_command_guild_update_multiple 2 / 60.0 s per guild; {_COMMANDS}",
        applied=False,
    ),
    *(
        Limit(
            route,
            50,
            5 * MINUTE,
            "thread_create",
            _THREAD_CREATE,
            counter="thread_create",
            scope="shared",
        )
        for route in ("POST " + _MESSAGE + "/threads", "POST " + _THREAD)
    ),
    *(
        Limit(
            f"{method} {_THREAD_MEMBER}{who}",
            5,
            5 * SECOND,
            "thread_members",
            _THREAD_MEMBERS,
            counter="thread_members",
            per_guild=True,
        )
        for method in ("PUT", "DELETE")
        for who in ("@me", "{user_id}")
    ),
    *(
        Limit(
            f"{method} {path}",
            5,
            2 * SECOND,
            "interaction_webhook",
            _INTERACTION_WEBHOOK,
            counter="interaction_webhook",
        )
        for method, path in (
            ("POST", _WEBHOOK),
            ("GET", _WEBHOOK_MESSAGE),
            ("PATCH", _WEBHOOK_MESSAGE),
            ("DELETE", _WEBHOOK_MESSAGE),
        )
    ),
)
"""Every limit the fake applies. Routes it serves without a row here (``GET /users/@me``,
``GET /channels/{id}``, ``GET /guilds/{id}``, ``GET`` of commands, ...) count only
against the global limit; the interaction callback against nothing (hata:
``interaction_response_message_create`` unlimited)."""


@dataclass(frozen=True)
class RateLimits:
    """How a `FakeDiscord` limits: Discord's limits (the default), other numbers, or none.

    ``FakeDiscord(rate_limits=RateLimits.off())``; in a test with the ``fake_discord``
    fixture, ``@pytest.mark.rate_limits(False)``, ``@pytest.mark.rate_limits(ban=False)``
    or ``@pytest.mark.rate_limits(RateLimits().with_limit(GLOBAL, 10))``.
    """

    enabled: bool = True
    table: tuple[Limit, ...] = LIMITS
    ban: bool = True
    """Past the invalid-request row, answer everything as Cloudflare's temporary ban."""

    @classmethod
    def off(cls) -> RateLimits:
        """No 429s and no headers; requests are still counted."""
        return cls(enabled=False)

    @classmethod
    def from_env(cls, *, default: bool) -> RateLimits:
        """Discord's limits or none, as ``FAKE_DISCORD_RATE_LIMITS`` says (unset: ``default``)."""
        value = os.environ.get(ENV, "").strip().lower()
        if value in {"1", "on", "true", "yes"}:
            return cls()
        if value in {"0", "off", "false", "no"}:
            return cls.off()
        return cls(enabled=default)

    @classmethod
    def from_marker(cls, args: Sequence[Any], kwargs: Mapping[str, Any]) -> RateLimits:
        """From ``@pytest.mark.rate_limits(...)``: a `RateLimits`, a bool, or fields as
        keywords (``rate_limits(ban=False)``: Discord's limits but that)."""
        if args and isinstance(args[0], RateLimits):
            return dataclasses.replace(args[0], **kwargs)
        return cls(enabled=bool(args[0]) if args else True, **kwargs)

    def with_limit(self, route: str, limit: int, window: float | None = None) -> RateLimits:
        """A copy whose rows for ``route`` (as in `LIMITS`: "POST /channels/{channel_id}
        /messages", `GLOBAL`) allow ``limit`` per ``window`` seconds (default: theirs)."""
        seconds = {"window": window} if window is not None else {}
        return self._rows(route, limit=limit, applied=True, **seconds)

    def without(self, route: str) -> RateLimits:
        """A copy that does not apply ``route``'s rows (`GLOBAL`: no global limit)."""
        return self._rows(route, applied=False)

    def _rows(self, route: str, **changes: Any) -> RateLimits:
        if not any(row.route == route for row in self.table):
            raise KeyError(f"no rate limit for {route!r}")
        table = tuple(
            dataclasses.replace(row, **changes) if row.route == route else row for row in self.table
        )
        return dataclasses.replace(self, table=table)

    def row(self, route: str) -> Limit:
        for row in self.table:
            if row.route == route:
                return row
        raise KeyError(route)


@dataclass(frozen=True)
class RateLimited:
    """One request answered 429 (``scope`` ``cloudflare`` for the invalid-request ban)."""

    method: str
    path: str
    route: str
    bucket: str
    scope: str
    retry_after: float
    at: float
    """`time.monotonic` when it was refused."""

    @property
    def is_global(self) -> bool:
        return self.scope == "global"


@dataclass
class RequestCounts:
    """Requests the fake received: ``bot`` with the bot token (bound to the global
    limit), ``interaction`` through interaction tokens (callbacks, follow-ups, edits of
    the original: exempt); ``rate_limited`` of all of them answered 429."""

    bot: int = 0
    interaction: int = 0
    rate_limited: int = 0
    by_route: Counter[str] = field(default_factory=Counter)
    """Per route as the fake serves it ("POST /api/v10/channels/{channel_id}/messages")."""

    @property
    def total(self) -> int:
        return self.bot + self.interaction

    def add(self, other: RequestCounts) -> None:
        self.bot += other.bot
        self.interaction += other.interaction
        self.rate_limited += other.rate_limited
        self.by_route.update(other.by_route)

    def __str__(self) -> str:
        return (
            f"{self.bot} bot-token and {self.interaction} interaction requests, "
            f"{self.rate_limited} answered 429"
        )


SESSION_COUNTS = RequestCounts()
"""Every fake's counts in this process, added when each fake stops (the session summary)."""


@dataclass
class _Window:
    ends: float
    count: int = 0


@dataclass(frozen=True)
class Admission:
    """What `RateLimiter.admit` made of a request: its ``refusal`` (a 429 to answer
    instead of serving it), or the row and window it counted in, for `answered`."""

    refusal: web.Response | None = None
    row: Limit | None = None
    window: _Window | None = None
    remaining: int = 0


_PRUNE_AT = 4096
"""Windows kept before the ended ones are dropped."""


def _pattern(path: str) -> re.Pattern[str]:
    parts = [
        f"(?P<{part[1:-1]}>[^/]+)" if part.startswith("{") else re.escape(part)
        for part in path.split("/")
    ]
    return re.compile("/".join(parts) + "$")


def _up_to_ms(seconds: float) -> float:
    """Rounded up to the millisecond, so a client that waits this long is never early."""
    return max(0.0, math.ceil(seconds * 1000) / 1000)


class RateLimiter:
    """A fake's limits and counts; `FakeDiscord` calls `admit` before each REST request
    and `answered` with its answer."""

    def __init__(
        self,
        config: RateLimits,
        *,
        message_age: Callable[[int], float | None] = lambda _message_id: None,
        violate: Callable[[str, str], None] = lambda _kind, _detail: None,
        guild_of: Callable[[int], int | None] = lambda _channel_id: None,
        now: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.rate_limited: list[RateLimited] = []
        self.counts = RequestCounts()
        self._message_age = message_age
        self._violate = violate
        self._guild_of = guild_of
        self._now = now
        self._wall = wall
        self._routes = [
            (row, _pattern(row.path))
            for row in config.table
            if row.applied and row.route not in (GLOBAL, INVALID)
        ]
        self._windows: dict[tuple[str, str], _Window] = {}
        self._invalid: deque[float] = deque()
        self._banned = False
        self._exhausted_until = 0.0

    # ------------------------------------------------------------------ reading

    @property
    def invalid_requests(self) -> int:
        """401, 403 and 429 answers (but 429s of scope shared) in the last 10 minutes."""
        self._forget_invalid(self._now())
        return len(self._invalid)

    @property
    def exhausted_until(self) -> float:
        """When (`time.monotonic`) the last window that ran out ends: until then discord.py
        may be waiting to send (it sleeps on a bucket reported empty, or after a 429)."""
        return self._exhausted_until

    def remaining(self, route: str, **params: str | int) -> int | None:
        """What is left of ``route``'s current window for these top-level resources
        (``remaining("POST /channels/{channel_id}/messages", channel_id=c)``); None: the
        window has not opened yet or is over."""
        row = self.config.row(route)
        window = self._windows.get((row.key, self._major(params, row)))
        if window is None or window.ends <= self._now():
            return None
        return max(0, row.limit - window.count)

    # ------------------------------------------------------------------ per request

    def admit(self, request: web.Request) -> Admission:
        """Count ``request``; with a ``refusal`` (429) if Discord would refuse it now."""
        path = request.path
        if not path.startswith(API_PREFIX):
            return Admission()
        exempt = path.startswith((API_PREFIX + "/interactions/", API_PREFIX + "/webhooks/"))
        counts = self.counts
        if exempt:
            counts.interaction += 1
        else:
            counts.bot += 1
        resource = request.match_info.route.resource
        counts.by_route[f"{request.method} {resource.canonical if resource else path}"] += 1
        if not self.config.enabled:
            return Admission()
        now = self._now()
        if self.config.ban and self.config.row(INVALID).applied and self._ban(now):
            return Admission(self._cloudflare(request, now))
        row = self.config.row(GLOBAL)
        if not exempt and row.applied:
            window = self._window(row, "", now)
            if self._count(row, window):
                return Admission(self._refuse(request, row, window, now))
        found, params = self._match(request.method, path[len(API_PREFIX) :])
        if found is None:
            return Admission()
        window = self._window(found, self._major(params, found), now)
        if self._count(found, window):
            return Admission(self._refuse(request, found, window, now))
        return Admission(None, found, window, found.limit - window.count)

    def answered(self, admission: Admission, response: web.StreamResponse) -> None:
        """Count an invalid request (even with the limits off); stamp a limited route's
        answer with its bucket."""
        status = response.status
        shared = status == 429 and response.headers.get("X-RateLimit-Scope") == "shared"
        if status in (401, 403, 429) and not shared and not self._banned:
            self._invalid.append(self._now())
        if admission.row is not None and admission.window is not None and status != 429:
            headers = self._headers(admission.row, admission.window, admission.remaining)
            response.headers.update(headers)

    # ------------------------------------------------------------------ buckets

    def _match(self, method: str, path: str) -> tuple[Limit | None, dict[str, str]]:
        age: float | None = None
        for row, pattern in self._routes:
            if row.method != method or (found := pattern.match(path)) is None:
                continue
            params = found.groupdict()
            if row.min_age > 0 or row.max_age < math.inf:
                if age is None:
                    message = params.get("message_id", "")
                    age = (self._message_age(int(message)) if message.isdigit() else None) or 0.0
                if not row.min_age <= age < row.max_age:
                    continue
            return row, params
        return None, {}

    def _major(self, params: Mapping[str, str | int], row: Limit) -> str:
        """The top-level resources the row counts per (for a ``per_guild`` row: the guild,
        given as ``guild_id`` or found from the path's ``channel_id``)."""
        if row.per_guild and "guild_id" not in params and "channel_id" in params:
            channel = str(params["channel_id"])
            guild = self._guild_of(int(channel)) if channel.isdigit() else None
            return f"guild {guild if guild is not None else channel}"
        if row.per_guild and "guild_id" in params:
            return f"guild {params['guild_id']}"
        return "+".join(str(params[name]) for name in _TOP_LEVEL if name in params)

    def _window(self, row: Limit, major: str, now: float) -> _Window:
        """The row's window for ``major`` at ``now``: a new one after the last ended."""
        key = (row.key, major)
        window = self._windows.get(key)
        if window is None or window.ends <= now:
            if len(self._windows) >= _PRUNE_AT:  # one per interaction token: forget the old
                self._windows = {k: w for k, w in self._windows.items() if w.ends > now}
            window = self._windows[key] = _Window(now + row.window)
        return window

    def _count(self, row: Limit, window: _Window) -> bool:
        """Count one request in ``window``; whether it was already full."""
        full = window.count >= row.limit
        if not full:
            window.count += 1
        if window.count >= row.limit:
            self._exhausted_until = max(self._exhausted_until, window.ends)
        return full

    def _headers(self, row: Limit, window: _Window, remaining: int) -> dict[str, str]:
        reset_after = _up_to_ms(window.ends - self._now())
        return {
            "X-RateLimit-Limit": str(row.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{self._wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": row.bucket,
        }

    def _refuse(
        self, request: web.Request, row: Limit, window: _Window, now: float
    ) -> web.Response:
        retry_after = _up_to_ms(window.ends - now)
        is_global = row.route == GLOBAL
        headers = {"Retry-After": str(math.ceil(retry_after)), "Via": VIA}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(self._headers(row, window, 0))
        headers["X-RateLimit-Scope"] = row.scope
        body = {"message": MESSAGE, "retry_after": retry_after, "global": is_global, "code": 0}
        self._record(request, row.route, row.bucket, row.scope, retry_after, now)
        return web.Response(
            body=json.dumps(body).encode(),
            status=429,
            content_type="application/json",
            headers=headers,
        )

    def _record(
        self, request: web.Request, route: str, bucket: str, scope: str, wait: float, now: float
    ) -> None:
        self.rate_limited.append(
            RateLimited(request.method, request.path, route, bucket, scope, wait, now)
        )
        self.counts.rate_limited += 1

    # ------------------------------------------------------------------ invalid requests

    def _forget_invalid(self, now: float) -> None:
        window = self.config.row(INVALID).window
        while self._invalid and self._invalid[0] <= now - window:
            self._invalid.popleft()

    def _ban(self, now: float) -> bool:
        """Whether the invalid requests of the last 10 minutes reached the row's limit
        (recorded as a violation once per ban); the ban lifts as they age out."""
        self._forget_invalid(now)
        row = self.config.row(INVALID)
        banned = len(self._invalid) >= row.limit
        if banned and not self._banned:
            self._violate(
                "invalid_requests",
                f"{len(self._invalid)} invalid requests (401, 403, 429) within "
                f"{row.window:.0f} s: Discord bans the bot's IP for a while",
            )
        self._banned = banned
        return banned

    def _cloudflare(self, request: web.Request, now: float) -> web.Response:
        """Cloudflare's answer to a banned IP: 429 with an HTML page and no ``Via``."""
        row = self.config.row(INVALID)
        wait = self._invalid[0] + row.window - now if self._invalid else 0.0
        self._record(request, INVALID, row.bucket, "cloudflare", _up_to_ms(wait), now)
        page = "<!DOCTYPE html><title>Access denied | discord.com used Cloudflare</title>"
        return web.Response(
            text=page, status=429, content_type="text/html", headers={"Retry-After": "600"}
        )
