"""A fake Discord (REST + gateway) on 127.0.0.1 that an unmodified discord.py bot can connect to.

It keeps every message and interaction, and records a *violation* whenever the bot does
something real Discord would reject (late or double interaction callbacks, oversized
payloads, expired tokens, unknown routes, ...). The pytest fixture fails the test if any
violation was recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import mimetypes
import re
import secrets
import time
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Self, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

from tests.harness.limits import (
    ANNOUNCEMENT_THREAD,
    DUPLICATE_CUSTOM_ID,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MAX_ATTACHMENT_BYTES,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SELECT_TYPES,
    command_problems,
    message_problems,
    thread_problems,
)
from tests.harness.mentions import (
    INTERACTION_DEFAULT,
    MESSAGE_DEFAULT,
    allowed_mentions_problems,
    notified_user_ids,
)
from tests.harness.models import (
    DISCORD_EPOCH_MS,
    Clock,
    ClockLike,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeThread,
    FakeUser,
    Notification,
    Snowflakes,
    Violation,
)
from tests.harness.permissions import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    MEMBER,
    READ_MESSAGE_HISTORY,
    ROLE,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Overwrite,
    channel_permissions,
    names,
)
from tests.harness.rate_limits import SESSION_COUNTS as SESSION_REQUESTS
from tests.harness.rate_limits import RateLimiter, RateLimits
from tests.harness.spec import SESSION_COUNTS, SpecCounts
from tests.harness.spec import load as load_spec

Json = dict[str, Any]
T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

API_PREFIX = "/api/v10"
# Discord docs, "Receiving and Responding": the initial response must come within 3 s;
# the interaction token then stays valid for 15 minutes. After that every webhook route
# answers 401 with code 50027 "Invalid Webhook Token" (discord-api-docs#6851).
CALLBACK_DEADLINE = 3.0
SPEC_KINDS = ("spec", "spec_response")
"""The violations of Discord's OpenAPI spec (`tests.harness.spec`) among the kinds."""
TOKEN_LIFETIME = 15 * 60.0
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
# The @everyone role's permissions (every member's, the bot's included): VIEW_CHANNEL,
# SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, ADD_REACTIONS,
# USE_EXTERNAL_EMOJIS, USE_APPLICATION_COMMANDS, CREATE_PUBLIC_THREADS,
# CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS (not MANAGE_THREADS: a moderator's).
MEMBER_PERMISSIONS = sum(1 << bit for bit in (10, 11, 14, 15, 16, 6, 18, 31, 35, 36, 38))
THREAD_ARCHIVED = "Thread is archived"
"""Discord's message for code 50083, for an archived thread (400, undiscord#399) and for a
message into a locked one (403, discord-api-docs#5517, #6884, #7707)."""
DEFAULT_USERS: tuple[tuple[str, str], ...] = (
    ("alice", "en-US"),
    ("bernd", "de"),
    ("chloe", "fr"),
    ("dmitri", "ru"),
    ("emma", "en-GB"),
    ("felix", "de"),
    ("greta", "nl"),
)
_FIXED_BASE = (1_700_000_000_000 - DISCORD_EPOCH_MS) << 22
_FILES_FIELD = re.compile(r"^files\[(\d+)\]$")

# Component interaction types and the callback types Discord allows for them.
_ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def _json(data: Any, *, status: int = 200) -> web.Response:
    """JSON with exactly ``application/json``: discord.py only parses that (no charset suffix)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


def _component_tree(components: Sequence[Json]) -> Iterator[Json]:
    for component in components:
        yield component
        yield from _component_tree(component.get("components") or [])
        if component.get("accessory"):
            yield from _component_tree([component["accessory"]])


def _stored_components(components: Sequence[Json]) -> list[Json]:
    """The components as Discord keeps and echoes them: each with its numeric ``id``
    (one sent without gets the lowest free number, depth first) and selects with their
    ``min_values``/``max_values``."""
    stored: list[Json] = copy.deepcopy(list(components))
    used = {c["id"] for c in _component_tree(stored) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in _component_tree(stored):
        if not isinstance(component.get("id"), int):
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)
        if component.get("type") in SELECT_TYPES:
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
    return stored


def _embed_payload(embed: Json) -> Json:
    """An embed as Discord echoes it: ``type`` "rich" and every field's ``inline`` set."""
    payload = {"type": "rich", **embed}
    if "fields" in embed:
        payload["fields"] = [{"inline": False, **field} for field in embed["fields"]]
    return payload


def _permissions(command: Json) -> str | None:
    value = command.get("default_member_permissions")
    return None if value is None else str(value)


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


@dataclass(frozen=True)
class Upload:
    filename: str
    data: bytes
    content_type: str | None


class _Rejected(Exception):
    """Raised inside a handler to answer with a Discord error (and usually record a violation)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        violation: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.violation = status, code, message, violation
        self.detail = detail or message
        """What the violation says (Discord's answer says only ``message``)."""


def _missing_access(detail: str) -> _Rejected:
    """Discord's answer when the bot cannot see the channel (VIEW_CHANNEL)."""
    return _Rejected(403, 50001, "Missing Access", "permissions", detail)


def _missing_permissions(detail: str) -> _Rejected:
    return _Rejected(403, 50013, "Missing Permissions", "permissions", detail)


class _Connection:
    """One gateway websocket. zlib-stream uses a single compressor for the whole connection."""

    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression
        self._zlib = zlib.compressobj() if compression == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: _Session | None = None

    async def send(self, payload: Json) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._zlib is None:
                    await self.ws.send_str(raw)
                else:
                    chunk = self._zlib.compress(raw.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(chunk)
            except (ConnectionError, RuntimeError):
                return  # the peer went away; the session buffer keeps the event for a RESUME


@dataclass
class _Session:
    id: str
    intents: int
    shard: list[int]
    seq: int = 0
    connection: _Connection | None = None
    buffer: deque[Json] = field(default_factory=lambda: deque(maxlen=5000))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def dispatch(self, event: str, data: Json | None) -> None:
        async with self.lock:
            self.seq += 1
            payload = {"op": 0, "t": event, "s": self.seq, "d": data}
            self.buffer.append(payload)
            if self.connection is not None:
                await self.connection.send(payload)


class FakeDiscord:
    """REST under ``api_base``, gateway at ``gateway_url``; see the module docstring."""

    def __init__(
        self,
        *,
        token: str = "fake-token",
        users: Sequence[tuple[str, str]] = DEFAULT_USERS,
        channel_names: Sequence[str] = ("spieltisch", "lobby", "offtopic"),
        guild_locale: str = "de",
        clock: ClockLike | None = None,
        heartbeat_interval_ms: int = 41_250,
        shard_count: int = 1,
        check_spec: bool = True,
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.clock: ClockLike = clock or Clock()
        self.shard_count = shard_count
        self.token = token
        self.guild_locale = guild_locale
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.guild_id = _FIXED_BASE + 1
        self.bot_user = FakeUser(_FIXED_BASE + 99, "tablebot", "Tablebot", bot=True)
        self.app_id = self.bot_user.id
        self.users: list[FakeUser] = [
            FakeUser(_FIXED_BASE + 100 + i, name, name.capitalize(), locale)
            for i, (name, locale) in enumerate(users)
        ]
        self.channels: dict[int, FakeChannel] = {
            _FIXED_BASE + 10 + i: FakeChannel(_FIXED_BASE + 10 + i, name, i)
            for i, name in enumerate(channel_names)
        }
        self.guild_ids: list[int] = [self.guild_id]
        """Every guild the bot is in; the first is `guild_id`, which has `channels`'
        first channels (`add_guild` adds more, on a chosen shard)."""
        self.threads: dict[int, FakeThread] = {}
        """Every thread, archived ones too, by id (a thread is a channel: its id takes the
        channel routes, ``driver.slash(..., channel=thread_id)`` and so on)."""
        self.everyone_permissions = MEMBER_PERMISSIONS
        """The @everyone role's permissions: every member's, the bot's included, before a
        channel's overwrites (`set_permissions`)."""
        self._guild_of_channel: dict[int, int] = dict.fromkeys(self.channels, self.guild_id)
        self.commands: dict[int | None, list[Json]] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.violations: list[Violation] = []
        self.notifications: list[Notification] = []
        self.identifies: list[Json] = []
        self.resume_count = 0
        self.connections: list[_Connection] = []
        self.request_log: list[str] = []
        self.slow_answers: list[tuple[str, re.Pattern[str], float]] = []
        """Routes Discord answers slowly (`answer_slowly`): method, path, seconds."""
        self.spec = load_spec()
        self.spec_counts = SpecCounts()
        """Request and response bodies checked against Discord's OpenAPI spec (`spec.py`)."""
        self.check_spec = check_spec
        """False in the timing benches: the checks cost the fake's process (which shares
        the machine with the bot) CPU in proportion to what the bot sends, so they
        would slow a bot that sends more; the tests check every body."""
        limits = rate_limits or RateLimits.from_env(default=False)
        self.rate_limiter = RateLimiter(
            limits, message_age=self._age, violate=self.violate, guild_of=self._guild_of_channel.get
        )
        """Discord's rate limits (`tests.harness.rate_limits`): ``rate_limits=RateLimits()``
        or ``FAKE_DISCORD_RATE_LIMITS=on`` (the ``fake_discord`` fixture: a test with a bot)."""
        self.rate_limited = self.rate_limiter.rate_limited
        """Every request answered 429: route, bucket, scope, retry_after."""
        self.request_counts = self.rate_limiter.counts
        """Requests with the bot token and through interaction tokens, and per route."""
        self.writes = 0
        self._ids = Snowflakes(self.clock)
        self._by_token: dict[str, FakeInteraction] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._sessions: dict[str, _Session] = {}
        self._session: _Session | None = None
        """The session identified last, whatever its shard."""
        self._shard_sessions: dict[int, _Session] = {}
        """Per shard, the session identified for it last: it receives the shard's events."""
        self._ready_count = 0
        self._changed = asyncio.Event()
        self._inflight = 0
        self._last_request = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Self:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._routes(app.router)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        for connection in self.connections:
            await connection.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            SESSION_COUNTS.add(self.spec_counts)
            SESSION_REQUESTS.add(self.request_counts)

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def channel_ids(self) -> list[int]:
        return list(self.channels)

    def served_shards(self) -> set[int]:
        """The shards whose latest session has a live gateway socket."""
        return {
            shard
            for shard, session in self._shard_sessions.items()
            if session.connection is not None
        }

    def shard_of(self, guild_id: int) -> int:
        """Discord's formula: a guild's events go to shard ``(guild_id >> 22) % count``."""
        return (guild_id >> 22) % self.shard_count

    def guild_of(self, channel_id: int) -> int:
        return self._guild_of_channel[channel_id]

    def channels_of(self, guild_id: int) -> list[int]:
        """The guild's text channels (not its threads)."""
        return [
            c for c, g in self._guild_of_channel.items() if g == guild_id and c in self.channels
        ]

    def add_guild(self, shard: int, channel_names: Sequence[str] = ("tisch", "lobby")) -> int:
        """A new guild (every user a member) on ``shard``, with text channels; its id."""
        if not 0 <= shard < self.shard_count:
            raise ValueError(f"no shard {shard} of {self.shard_count}")
        timestamp = (self.guild_ids[-1] >> 22) + 1
        while timestamp % self.shard_count != shard:
            timestamp += 1
        guild_id = (timestamp << 22) | 1
        self.guild_ids.append(guild_id)
        for position, name in enumerate(channel_names):
            channel_id = self._ids.next()
            self.channels[channel_id] = FakeChannel(channel_id, name, position)
            self._guild_of_channel[channel_id] = guild_id
        return guild_id

    @property
    def members(self) -> list[FakeUser]:
        return [*self.users, self.bot_user]

    @property
    def identify_count(self) -> int:
        """How many IDENTIFYs were answered with READY + GUILD_CREATE."""
        return self._ready_count

    @property
    def connected(self) -> bool:
        """Whether the bot's current gateway session has a live socket."""
        session = self._session
        return session is not None and session.connection is not None

    def user(self, name: str) -> FakeUser:
        for user in self.members:
            if user.name == name:
                return user
        raise KeyError(name)

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _changed_or_timeout(self, seconds: float) -> None:
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(seconds, 0.0))

    async def wait_for(self, predicate: Callable[[], T], *, timeout: float, what: str) -> T:
        """Re-check ``predicate`` whenever the fake's state changes; AssertionError on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout:.1f}s waiting for {what}")
            await self._changed_or_timeout(remaining)

    async def _wait_answered(self, interaction: FakeInteraction, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not interaction.answered and (left := deadline - time.monotonic()) > 0:
            await self._changed_or_timeout(left)

    async def wait_idle(self, quiet: float, *, timeout: float) -> None:
        """Wait until no bot REST request is running and none started for ``quiet`` seconds,
        nor a rate limit window the bot used up ended in that time (discord.py sleeps on a
        bucket Discord reported empty, then sends)."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            idle_for = min(now - self._last_request, now - self.rate_limiter.exhausted_until)
            if self._inflight == 0 and idle_for >= quiet:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"bot REST traffic did not go quiet within {timeout:.1f}s")
            step = quiet - idle_for if self._inflight == 0 else remaining
            await self._changed_or_timeout(min(step, remaining))

    # ------------------------------------------------------------------ violations

    def violate(self, kind: str, detail: str) -> None:
        self.violations.append(Violation(kind, detail, self.clock.now()))
        self._notify()

    def pop_violations(self) -> list[Violation]:
        """Return and forget the recorded violations (for tests that provoke one on purpose)."""
        found, self.violations = self.violations, []
        counts = self.spec_counts
        counted = counts.request_violations + counts.response_violations - counts.provoked
        counts.provoked += min(counted, sum(v.kind in SPEC_KINDS for v in found))
        return found

    async def verify(self) -> list[Violation]:
        """Flag interactions never answered within 3 s, then return all violations."""
        pending = [i for i in self.interactions.values() if not i.answered and not i.failure]
        for interaction in pending:
            left = interaction.created_at + CALLBACK_DEADLINE - self.clock.now()
            if left > 0:
                await self._wait_answered(interaction, left)
            if not interaction.answered:
                interaction.failure = "never answered"
                self.violate("unanswered", f"{interaction.describe()} was never answered")
        return list(self.violations)

    # ------------------------------------------------------------------ payloads

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> Json:
        payload: Json = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [],
            "joined_at": _iso(1_700_000_000),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = user.payload()
        return payload

    def channel_payload(self, channel_id: int) -> Json:
        """A text channel or a thread as REST returns it (a thread with the bot's thread
        member object when the bot has joined it, as Get Channel does)."""
        thread = self.threads.get(channel_id)
        if thread is not None:
            return self.thread_payload(thread, with_member=True)
        return self.channels[channel_id].payload(self.guild_of(channel_id))

    def thread_payload(self, thread: FakeThread, *, with_member: bool = False) -> Json:
        payload = thread.payload(self.guild_of(thread.id))
        if with_member and self.bot_user.id in thread.members:
            payload["member"] = thread.member_payload(self.bot_user.id)
        return payload

    def _role_payload(self, guild_id: int) -> Json:
        return {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": str(self.everyone_permissions),
            "position": 0,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }

    def _guild_payload(self, intents: int, guild_id: int) -> Json:
        members = self.members if intents & INTENT_GUILD_MEMBERS else [self.bot_user]
        return {
            "id": str(guild_id),
            "name": "Fake Guild" if guild_id == self.guild_id else f"Fake Guild {guild_id}",
            "icon": None,
            "home_header": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "owner_id": str(self.users[0].id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "widget_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.guild_locale,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500_000,
            "max_presences": None,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "safety_alerts_channel_id": None,
            "premium_progress_bar_enabled": False,
            "nsfw": False,
            "incidents_data": None,
            "roles": [self._role_payload(guild_id)],
            "emojis": [],
            "stickers": [],
            "joined_at": _iso(1_700_000_000),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [self.member_payload(m) for m in members],
            "channels": [
                {k: v for k, v in self.channel_payload(c).items() if k != "guild_id"}
                for c in self.channels_of(guild_id)
            ],
            "threads": [self._guild_create_thread(t) for t in self._active_threads(guild_id)],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _attachment_payload(self, message: FakeMessage, attachment: FakeAttachment) -> Json:
        path = f"{message.channel_id}/{attachment.id}/{attachment.filename}"
        url = f"{self.base_url}/attachments/{path}"
        payload: Json = {
            "id": str(attachment.id),
            "filename": attachment.filename,
            "size": len(attachment.data),
            "url": url,
            "proxy_url": url,
            "ephemeral": message.ephemeral,
        }
        # Discord leaves out what is not set: the spec has no null for either.
        if attachment.content_type is not None:
            payload["content_type"] = attachment.content_type
        if attachment.description is not None:
            payload["description"] = attachment.description
        return payload

    def message_payload(self, message: FakeMessage, *, gateway: bool = False) -> Json:
        """The message as REST returns it; ``gateway``: as MESSAGE_CREATE/UPDATE carry it,
        with the ``guild_id`` that only gateway events add."""
        payload: Json = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": message.author.payload(),
            "content": message.content,
            "timestamp": _iso(message.created_at),
            "edited_timestamp": None if message.edited_at is None else _iso(message.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment_payload(message, a) for a in message.attachments],
            "embeds": [_embed_payload(embed) for embed in message.embeds],
            "pinned": False,
            "type": message.message_type,
            "flags": message.flags,
            "components": message.components,
        }
        interaction = self.interactions.get(message.interaction_id or 0)
        if interaction is not None:
            payload["webhook_id"] = str(self.app_id)
            payload["application_id"] = str(self.app_id)
            payload["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_of(message.channel_id))},
            }
            if interaction.message_id is not None:
                payload["interaction_metadata"]["interacted_message_id"] = str(
                    interaction.message_id
                )
        thread = self.threads.get(message.id)
        if thread is not None and thread.parent_id == message.channel_id:
            payload["thread"] = self.thread_payload(thread, with_member=True)
        if gateway:
            payload["guild_id"] = str(self.guild_of(message.channel_id))
        return payload

    def _interaction_payload(self, interaction: FakeInteraction) -> Json:
        guild_id = self.guild_of(interaction.channel_id)
        # Computed as Discord does: the user's and the bot's permissions in the channel
        # (a thread's are its parent's), overwrites included.
        permissions = str(self.permissions_for(interaction.user.id, interaction.channel_id))
        channel = self.channel_payload(interaction.channel_id)
        channel.pop("member", None)
        channel["permissions"] = permissions
        member = self.member_payload(interaction.user)
        member["permissions"] = permissions
        payload: Json = {
            "id": str(interaction.id),
            "application_id": str(self.app_id),
            "type": interaction.type,
            "data": interaction.data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(interaction.channel_id),
            "channel": channel,
            "member": member,
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(self.permissions_for(self.bot_user.id, interaction.channel_id)),
            "locale": interaction.user.locale,
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": MAX_ATTACHMENT_BYTES,
        }
        if interaction.message_id is not None:
            payload["message"] = self.message_payload(self.messages[interaction.message_id])
        return payload

    # ------------------------------------------------------------------ permissions

    def permissions_for(self, user_id: int, channel_id: int) -> int:
        """A member's permissions in a channel or thread, as Discord computes them
        (`tests.harness.permissions`): the @everyone role's, then the channel's
        overwrites; a thread has its parent's; a private thread grants nothing to one who
        is neither its member nor holds MANAGE_THREADS (Discord's "Threads" topic). The
        guild owner's implicit all-permissions is not modelled: every member has the
        same role."""
        thread = self.threads.get(channel_id)
        parent = thread.parent_id if thread is not None else channel_id
        permissions = channel_permissions(
            self.everyone_permissions,
            guild_id=self.guild_of(parent),
            user_id=user_id,
            overwrites=self.channels[parent].overwrites,
        )
        if (
            thread is not None
            and thread.private
            and user_id not in thread.members
            and not permissions & MANAGE_THREADS
        ):
            return 0
        return permissions

    def can_view(self, user_id: int, channel_id: int) -> bool:
        return bool(self.permissions_for(user_id, channel_id) & VIEW_CHANNEL)

    async def set_permissions(
        self, channel_id: int, target_id: int, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set the text channel's permission overwrite for a member (a user's or the bot's
        id) or for @everyone (the guild's id), as a server admin does; ``allow=0, deny=0``
        removes it. Sends CHANNEL_UPDATE (``guilds`` intent), so discord.py's cache knows.
        Threads have no overwrites of their own: they follow their parent's."""
        if channel_id not in self.channels:
            raise ValueError(f"{channel_id} is not a text channel (threads follow their parent)")
        guild_id = self.guild_of(channel_id)
        kind = ROLE if target_id == guild_id else MEMBER
        if kind == MEMBER and target_id not in {m.id for m in self.members}:
            raise ValueError(f"{target_id} is neither the guild (@everyone) nor a member")
        overwrites = self.channels[channel_id].overwrites
        if allow or deny:
            overwrites[target_id] = Overwrite(target_id, kind, allow, deny)
        else:
            overwrites.pop(target_id, None)
        self._notify()
        await self._dispatch(
            "CHANNEL_UPDATE",
            self.channel_payload(channel_id),
            channel_id=channel_id,
            needs_intent=INTENT_GUILDS,
        )

    def _require(self, channel_id: int, needed: int, action: str) -> int:
        """The bot's permissions in the channel, if they include ``needed``; else Discord's
        refusal: 403/50001 Missing Access when it cannot see the channel, 403/50013
        Missing Permissions when it lacks one of ``needed``."""
        permissions = self.permissions_for(self.bot_user.id, channel_id)
        if not permissions & VIEW_CHANNEL:
            raise _missing_access(f"{action}: the bot cannot view channel {channel_id}")
        missing = needed & ~permissions
        if missing:
            raise _missing_permissions(f"{action} needs {', '.join(names(missing))}")
        return permissions

    def _bot_moderates(self, channel_id: int) -> bool:
        return bool(self.permissions_for(self.bot_user.id, channel_id) & MANAGE_THREADS)

    # ------------------------------------------------------------------ threads

    async def create_thread(
        self,
        parent_id: int,
        name: str,
        *,
        by: FakeUser,
        private: bool = False,
        message: FakeMessage | None = None,
        auto_archive_duration: int = 1440,
    ) -> FakeThread:
        """A person starts a thread in a text channel: from ``message`` (the thread
        takes its id) or without one (public or ``private``). The bot gets THREAD_CREATE
        if it can see the thread (not a private one it is not in, unless it holds
        MANAGE_THREADS)."""
        if message is not None and private:
            raise ValueError("a thread started from a message is public")
        if message is not None and (message.id in self.threads or message.channel_id != parent_id):
            raise ValueError(f"message {message.id} already has a thread or is elsewhere")
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread_id = None if message is None else message.id
        return await self._new_thread(
            parent_id,
            name,
            kind,
            by,
            thread_id=thread_id,
            auto_archive_duration=auto_archive_duration,
        )

    async def add_to_thread(self, thread_id: int, user: FakeUser) -> None:
        """A person joins a thread (or is added by someone; the bot too): THREAD_MEMBERS_
        UPDATE, sent to the bot only with the ``members`` intent unless the bot is the one
        added, who also gets THREAD_CREATE (Gateway Events, "Thread Create")."""
        thread = self.threads[thread_id]
        if user.id not in thread.members:
            thread.members[user.id] = self.clock.now()
            self._notify()
            await self._members_update(thread, added=[user.id])
            if user.id == self.bot_user.id:
                await self._thread_event("THREAD_CREATE", thread)

    async def moderate_thread(
        self, thread_id: int, *, archived: bool | None = None, locked: bool | None = None
    ) -> None:
        """A moderator archives/unarchives or locks/unlocks a thread (THREAD_UPDATE)."""
        await self._update_thread(self.threads[thread_id], archived=archived, locked=locked)

    async def archive_inactive_threads(self) -> list[FakeThread]:
        """Archive every active thread without activity (a message sent, an unarchive, a
        new ``auto_archive_duration``) for its ``auto_archive_duration`` by the fake's
        clock, as Discord does (Threads topic, "Active & Archived Threads"); Discord may
        archive earlier in a busy server. Tests call it after ``clock.advance``."""
        now = self.clock.now()
        idle = [
            thread
            for thread in self.threads.values()
            if not thread.archived
            and now - thread.last_activity >= thread.auto_archive_duration * 60
        ]
        for thread in idle:
            await self._update_thread(thread, archived=True)
        return idle

    def _active_threads(self, guild_id: int) -> list[FakeThread]:
        """The guild's active threads the bot can see (GUILD_CREATE's ``threads``)."""
        return [
            thread
            for thread in self.threads.values()
            if self.guild_of(thread.id) == guild_id
            and not thread.archived
            and self.can_view(self.bot_user.id, thread.id)
        ]

    def _guild_create_thread(self, thread: FakeThread) -> Json:
        payload = thread.payload(self.guild_of(thread.id))
        if self.bot_user.id in thread.members:
            payload["member"] = thread.member_payload(self.bot_user.id, in_guild_create=True)
        return payload

    async def _new_thread(
        self,
        parent_id: int,
        name: str,
        kind: int,
        owner: FakeUser,
        *,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
        rate_limit_per_user: int = 0,
    ) -> FakeThread:
        """Start a thread (its owner its first member): THREAD_CREATE with
        ``newly_created`` and THREAD_MEMBERS_UPDATE for the owner."""
        now = self.clock.now()
        thread = FakeThread(
            id=self._ids.next() if thread_id is None else thread_id,
            parent_id=parent_id,
            name=name,
            type=kind,
            owner_id=owner.id,
            created_at=now,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            rate_limit_per_user=rate_limit_per_user,
            archive_timestamp=now,
            last_activity=now,
            from_message=thread_id is not None,
            members={owner.id: now},
        )
        self.threads[thread.id] = thread
        self._guild_of_channel[thread.id] = self.guild_of(parent_id)
        self._notify()
        await self._thread_event("THREAD_CREATE", thread, newly_created=True)
        await self._members_update(thread, added=[owner.id])
        starter = self.messages.get(thread.id) if thread_id is not None else None
        if starter is not None:
            # Start Thread from Message "fires a Thread Create and a Message Update": the
            # message now carries its ``thread``.
            await self._dispatch(
                "MESSAGE_UPDATE",
                self.message_payload(starter, gateway=True),
                channel_id=starter.channel_id,
                needs_intent=INTENT_GUILD_MESSAGES,
            )
        return thread

    async def _update_thread(
        self,
        thread: FakeThread,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        name: str | None = None,
        auto_archive_duration: int | None = None,
        invitable: bool | None = None,
        rate_limit_per_user: int | None = None,
    ) -> None:
        """Change a thread and send THREAD_UPDATE. ``archive_timestamp`` moves when
        ``archived`` or the duration changes; unarchiving and a new duration are activity."""
        now = self.clock.now()
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = now
            if not archived:
                thread.last_activity = now
        if (
            auto_archive_duration is not None
            and auto_archive_duration != thread.auto_archive_duration
        ):
            thread.auto_archive_duration = auto_archive_duration
            thread.archive_timestamp = thread.last_activity = now
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        if invitable is not None:
            thread.invitable = invitable
        if rate_limit_per_user is not None:
            thread.rate_limit_per_user = rate_limit_per_user
        self._notify()
        await self._thread_event("THREAD_UPDATE", thread)

    async def _thread_event(self, event: str, thread: FakeThread, **extra: Any) -> None:
        """THREAD_CREATE/UPDATE (``guilds`` intent) if the bot can see the thread; a
        THREAD_CREATE carries the bot's thread member object when it is a member."""
        if not self.can_view(self.bot_user.id, thread.id):
            return
        payload = {**thread.payload(self.guild_of(thread.id)), **extra}
        if event == "THREAD_CREATE" and self.bot_user.id in thread.members:
            payload["member"] = thread.member_payload(self.bot_user.id)
        await self._dispatch(event, payload, channel_id=thread.id, needs_intent=INTENT_GUILDS)

    async def _members_update(
        self, thread: FakeThread, *, added: Sequence[int] = (), removed: Sequence[int] = ()
    ) -> None:
        """THREAD_MEMBERS_UPDATE (``guilds`` intent). Without the ``members`` intent only
        when the bot itself was added or removed (Gateway Events, "Thread Members
        Update"); the added members come with their guild member and presence."""
        session = self._session_for(thread.id)
        if session is None or not session.intents & INTENT_GUILDS:
            return
        bot = self.bot_user.id
        if not session.intents & INTENT_GUILD_MEMBERS:
            added = [user_id for user_id in added if user_id == bot]
            removed = [user_id for user_id in removed if user_id == bot]
        if not added and not removed:
            return
        users = {user.id: user for user in self.members}
        data: Json = {
            "id": str(thread.id),
            "guild_id": str(self.guild_of(thread.id)),
            "member_count": min(len(thread.members), 50),
        }
        if added:
            data["added_members"] = [
                {
                    **thread.member_payload(user_id),
                    "member": self.member_payload(users[user_id]),
                    "presence": None,
                }
                for user_id in added
            ]
        if removed:
            data["removed_member_ids"] = [str(user_id) for user_id in removed]
        await session.dispatch("THREAD_MEMBERS_UPDATE", data)

    def _before_message(self, channel_id: int, action: str) -> FakeThread | None:
        """Discord's rules for a message written into a thread, whatever the route (channel
        POST, interaction callback, follow-up): a locked thread refuses the bot without
        MANAGE_THREADS (403/50083, discord-api-docs#5517, #6884, #7707); an archived one
        is unarchived by the message (Threads topic: "Sending a message will automatically
        unarchive the thread, unless the thread has been locked by a moderator")."""
        thread = self.threads.get(channel_id)
        if thread is None:
            return None
        if thread.locked and not self._bot_moderates(channel_id):
            raise _Rejected(
                403,
                50083,
                THREAD_ARCHIVED,
                "thread_locked",
                f"{action} in locked thread {thread.id} without MANAGE_THREADS",
            )
        return thread

    def _before_edit(self, channel_id: int, action: str) -> None:
        """An edit in an archived thread is refused (400/50083: error code table, "such as
        editing a message"); in a locked one without MANAGE_THREADS too (403/50083)."""
        thread = self.threads.get(channel_id)
        if thread is None:
            return
        if thread.locked and not self._bot_moderates(channel_id):
            detail = f"{action} in locked thread {thread.id} without MANAGE_THREADS"
            raise _Rejected(403, 50083, THREAD_ARCHIVED, "thread_locked", detail)
        if thread.archived:
            detail = f"{action} in archived thread {thread.id}"
            raise _Rejected(400, 50083, THREAD_ARCHIVED, "thread_archived", detail)

    # ------------------------------------------------------------------ interactions

    def find_command(self, name: str, guild_id: int | None = None) -> Json:
        """The synced chat-input command called ``name`` in ``guild_id`` (default: the
        first guild); guild commands win over global ones."""
        for scope in (guild_id or self.guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        synced = sorted(c["name"] for cs in self.commands.values() for c in cs)
        raise AssertionError(f"no synced command /{name}; synced: {synced}")

    def create_interaction(
        self,
        *,
        type: int,
        user: FakeUser,
        channel_id: int,
        data: Json,
        message_id: int | None = None,
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            id=self._ids.next(),
            token=f"itoken-{secrets.token_urlsafe(24)}",
            type=type,
            user=user,
            channel_id=channel_id,
            data=data,
            created_at=self.clock.now(),
            message_id=message_id,
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        return interaction

    async def send_interaction(self, interaction: FakeInteraction) -> None:
        """Dispatch INTERACTION_CREATE to the session of the channel's shard (queued for a
        RESUME if its socket is down right now)."""
        session = self._session_for(interaction.channel_id)
        if session is None:
            raise AssertionError("the bot has not identified with the fake gateway")
        thread = self.threads.get(interaction.channel_id)
        if thread is not None and thread.archived and not thread.locked:
            # Discord's client unarchives the thread first (PATCH archived=false as the
            # user, discord-api-docs#8474); nobody uses commands in an archived thread.
            user_may = self.permissions_for(interaction.user.id, thread.id)
            if user_may & SEND_MESSAGES_IN_THREADS:
                await self._update_thread(thread, archived=False)
        await session.dispatch("INTERACTION_CREATE", self._interaction_payload(interaction))

    def _session_for(self, channel_id: int) -> _Session | None:
        """The session identified last for the shard of the channel's guild."""
        return self._shard_sessions.get(self.shard_of(self.guild_of(channel_id)))

    # ------------------------------------------------------------------ gateway

    async def _dispatch(
        self, event: str, data: Json, *, channel_id: int, needs_intent: int = 0
    ) -> None:
        session = self._session_for(channel_id)
        if session is not None and (session.intents & needs_intent) == needs_intent:
            await session.dispatch(event, data)

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway socket the way a network blip would (it should RESUME)."""
        session = self._session
        if session is None or session.connection is None:
            raise AssertionError("the bot is not connected to the gateway")
        await session.connection.ws.close(code=code)

    async def send_reconnect(self) -> None:
        """Send opcode 7 RECONNECT, as Discord does before moving a session."""
        session = self._session
        if session is None or session.connection is None:
            raise AssertionError("the bot is not connected to the gateway")
        await session.connection.send({"op": 7, "d": None, "s": None, "t": None})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=0)
        await ws.prepare(request)
        compression = request.query.get("compress")
        if compression not in (None, "zlib-stream"):
            self.violate("gateway", f"unsupported transport compression {compression!r}")
            await ws.close(code=4000)
            return ws
        if request.query.get("v") != "10" or request.query.get("encoding", "json") != "json":
            self.violate("gateway", f"unexpected gateway query {dict(request.query)}")
        connection = _Connection(ws, compression)
        self.connections.append(connection)
        hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-gateway"]}
        await connection.send({"op": 10, "d": hello, "s": None, "t": None})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._gateway_op(connection, json.loads(message.data))
                elif message.type is WSMsgType.BINARY:
                    self.violate("gateway", "client sent a binary frame")
        finally:
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            self._notify()
        return ws

    async def _gateway_op(self, connection: _Connection, payload: Json) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == 1:
            await connection.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(connection, data or {})
        elif op == 6:
            await self._resume(connection, data or {})
        elif op == 8:
            await self._request_members(connection, data or {})
        elif op not in (3, 4):
            self.violate("gateway", f"unknown gateway opcode {op}")

    async def _identify(self, connection: _Connection, data: Json) -> None:
        if data.get("token") != self.token:
            self.violate("gateway", "IDENTIFY with the wrong token")
            await connection.ws.close(code=4004)
            return
        shard = list(data.get("shard") or [0, 1])
        if shard[1] != self.shard_count or not 0 <= shard[0] < self.shard_count:
            said = f"/gateway/bot said {self.shard_count} shards"
            self.violate("gateway", f"IDENTIFY with shard {shard}; {said}")
            await connection.ws.close(code=4010)  # Discord's "Invalid shard"
            return
        if "intents" not in data:
            self.violate("gateway", "IDENTIFY without intents")
        self.identifies.append(data)
        session = _Session(secrets.token_hex(16), int(data.get("intents", 0)), shard)
        self._sessions[session.id] = session
        self._session = session
        self._shard_sessions[shard[0]] = session
        connection.session = session
        session.connection = connection
        guilds = [g for g in self.guild_ids if self.shard_of(g) == shard[0]]
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "shard": shard,
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-gateway"],
        }
        await session.dispatch("READY", ready)
        for guild_id in guilds:
            await session.dispatch("GUILD_CREATE", self._guild_payload(session.intents, guild_id))
        self._ready_count += 1
        self._notify()

    async def _resume(self, connection: _Connection, data: Json) -> None:
        session = self._sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.token:
            await connection.send({"op": 9, "d": False, "s": None, "t": None})
            return
        old = session.connection
        async with session.lock:
            for event in session.buffer:
                if event["s"] > (data.get("seq") or 0):
                    await connection.send(event)
            connection.session = session
            session.connection = connection
        if old is not None and old is not connection:
            await old.ws.close(code=4000)
        await session.dispatch("RESUMED", {"_trace": ["fake-gateway"]})
        self._session = session
        self.resume_count += 1
        self._notify()

    async def _request_members(self, connection: _Connection, data: Json) -> None:
        session = connection.session
        if session is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        allowed = bool(session.intents & INTENT_GUILD_MEMBERS) or bool(wanted)
        members = [
            self.member_payload(m)
            for m in self.members
            if allowed and (m.id in wanted if wanted else m.name.startswith(query))
        ]
        chunk = {
            "guild_id": str(data.get("guild_id") or self.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "nonce": data.get("nonce"),
        }
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ HTTP plumbing

    def _routes(self, router: web.UrlDispatcher) -> None:
        a = API_PREFIX
        router.add_get("/gateway", self._gateway)
        router.add_get("/gateway/", self._gateway)
        router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment)
        router.add_get(a + "/gateway", self._get_gateway)
        router.add_get(a + "/gateway/bot", self._get_gateway_bot)
        router.add_get(a + "/users/@me", self._get_me)
        router.add_get(a + "/users/{user_id}", self._get_user)
        router.add_get(a + "/oauth2/applications/@me", self._get_application)
        for path in (
            "/applications/{app_id}/commands",
            "/applications/{app_id}/guilds/{guild_id}/commands",
        ):
            router.add_get(a + path, self._get_commands)
            router.add_put(a + path, self._put_commands)
        router.add_get(a + "/guilds/{guild_id}", self._get_guild)
        router.add_get(a + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        router.add_post(a + "/interactions/{interaction_id}/{token}/callback", self._callback)
        router.add_post(a + "/webhooks/{app_id}/{token}", self._followup)
        webhook_message = a + "/webhooks/{app_id}/{token}/messages/{message_id}"
        router.add_get(webhook_message, self._webhook_message)
        router.add_patch(webhook_message, self._webhook_message)
        router.add_delete(webhook_message, self._webhook_message)
        router.add_get(a + "/channels/{channel_id}", self._get_channel)
        router.add_patch(a + "/channels/{channel_id}", self._patch_channel)
        router.add_post(a + "/channels/{channel_id}/threads", self._start_thread)
        router.add_get(a + "/channels/{channel_id}/thread-members", self._list_thread_members)
        thread_member = a + "/channels/{channel_id}/thread-members/{user_id}"  # or @me
        router.add_get(thread_member, self._thread_member_route)
        router.add_put(thread_member, self._thread_member_route)
        router.add_delete(thread_member, self._thread_member_route)
        router.add_post(a + "/channels/{channel_id}/typing", self._typing)
        router.add_get(a + "/channels/{channel_id}/messages", self._channel_history)
        router.add_post(a + "/channels/{channel_id}/messages", self._channel_post)
        channel_message = a + "/channels/{channel_id}/messages/{message_id}"
        router.add_get(channel_message, self._channel_message)
        router.add_patch(channel_message, self._channel_message)
        router.add_delete(channel_message, self._channel_message)
        router.add_post(channel_message + "/threads", self._start_thread_from_message)

    def answer_slowly(self, method: str, path: str, seconds: float) -> None:
        """Answer ``method`` requests to ``path`` (an API path as in Discord's OpenAPI
        spec, any ``{placeholder}`` standing for one part: "/channels/{channel_id}/threads")
        ``seconds`` late, as a busy Discord does: for testing what the bot keeps waiting
        behind a request."""
        pattern = re.escape(API_PREFIX + path).replace(r"\{", "{").replace(r"\}", "}")
        regex = re.sub(r"\{[^}]+\}", "[^/]+", pattern)
        self.slow_answers.append((method, re.compile(regex + "$"), seconds))

    def _answer_delay(self, request: web.Request) -> float:
        return sum(
            seconds
            for method, path, seconds in self.slow_answers
            if method == request.method and path.match(request.path)
        )

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/gateway"):
            return await handler(request)
        self.request_log.append(f"{request.method} {request.path_qs}")
        self._inflight += 1
        self._last_request = time.monotonic()
        self._notify()
        admission = self.rate_limiter.admit(request)
        try:
            if admission.refusal is not None:
                response: web.StreamResponse = admission.refusal
            elif self._needs_auth(request.path) and (
                request.headers.get("Authorization") != f"Bot {self.token}"
            ):
                raise _Rejected(401, 0, "401: Unauthorized", "auth")
            else:
                if delay := self._answer_delay(request):
                    await asyncio.sleep(delay)
                response = await handler(request)
        except _Rejected as rejected:
            if rejected.violation is not None:
                self.violate(
                    rejected.violation, f"{request.method} {request.path}: {rejected.detail}"
                )
            body = {"message": rejected.message, "code": rejected.code}
            response = _json(body, status=rejected.status)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            self.violate("unknown_route", f"{request.method} {request.path}")
            return _json({"message": "404: Not Found", "code": 0}, status=404)
        finally:
            self._inflight -= 1
            self._last_request = time.monotonic()
            self._notify()
        self._check_response(request, response)
        self.rate_limiter.answered(admission, response)
        return response

    def _age(self, message_id: int) -> float | None:
        """How old the message is by the fake's clock (None: no such message)."""
        message = self.messages.get(message_id)
        return None if message is None or message.deleted else self.clock.now() - message.created_at

    def _check_request(self, request: web.Request, body: Any) -> None:
        """Refuse a JSON body that Discord's OpenAPI spec does not allow (400/50035)."""
        operation = self.spec.operation(request.method, request.path)
        if operation is None or not self.check_spec:
            return
        self.spec_counts.requests += 1
        problems = self.spec.request_problems(operation, body)
        if problems:
            self.spec_counts.request_violations += 1
            detail = "; ".join(problems)
            raise _Rejected(400, 50035, f"Invalid Form Body (Discord's spec): {detail}", "spec")

    def _check_response(self, request: web.Request, response: web.StreamResponse) -> None:
        """Record a violation for a JSON answer of the fake's that Discord's spec contradicts
        (the fake's own mistake, but a test that leans on it would be wrong)."""
        if not isinstance(response, web.Response) or response.content_type != "application/json":
            return
        operation = self.spec.operation(request.method, request.path)
        if operation is None or not isinstance(response.body, bytes) or not self.check_spec:
            return
        self.spec_counts.responses += 1
        body = json.loads(response.body)
        problems = self.spec.response_problems(operation, response.status, body)
        if problems:
            self.spec_counts.response_violations += 1
            where = f"{request.method} {request.path} answered {response.status}"
            self.violate("spec_response", f"{where}: {'; '.join(problems)}")

    @staticmethod
    def _needs_auth(path: str) -> bool:
        """Bot-token routes; interaction callbacks and webhooks authenticate by their token."""
        unauthenticated = ("/interactions/", "/webhooks/", "/gateway")
        return path.startswith(API_PREFIX) and not path[len(API_PREFIX) :].startswith(
            unauthenticated
        )

    async def _read_json(self, request: web.Request) -> Any:
        """The JSON body, checked against Discord's spec (None for an empty body)."""
        raw = await request.read()
        if not raw:
            return None
        body = json.loads(raw)
        self._check_request(request, body)
        return body

    async def _read_body(self, request: web.Request) -> tuple[Json, dict[int, Upload]]:
        """JSON body, or multipart with ``payload_json`` plus ``files[n]`` parts; the JSON
        is checked against Discord's spec either way."""
        if not request.content_type.startswith("multipart/"):
            body = await self._read_json(request)
            if body is not None and not isinstance(body, dict):
                raise _Rejected(400, 50035, "Invalid Form Body: expected an object", "spec")
            return body or {}, {}
        payload: Json = {}
        uploads: dict[int, Upload] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                raise _Rejected(400, 50035, "nested multipart is not supported", "multipart")
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif (match := _FILES_FIELD.match(part.name or "")) is not None:
                uploads[int(match[1])] = Upload(
                    part.filename or "file",
                    bytes(await part.read()),
                    part.headers.get("Content-Type"),
                )
            else:
                raise _Rejected(400, 50035, f"unexpected form field {part.name!r}", "multipart")
        self._check_request(request, payload)
        return payload, uploads

    def _snowflake(self, request: web.Request, key: str) -> int:
        try:
            return int(request.match_info[key])
        except ValueError:
            raise _Rejected(404, 0, "404: Not Found", "unknown_route") from None

    # ------------------------------------------------------------------ messages

    def _attachments(
        self, existing: list[FakeAttachment], payload: Json, uploads: dict[int, Upload]
    ) -> list[FakeAttachment]:
        """Apply discord.py's attachment list: ids of kept attachments or indexes of new files."""
        new: dict[int, FakeAttachment] = {}
        for index, upload in sorted(uploads.items()):
            if len(upload.data) > MAX_ATTACHMENT_BYTES:
                raise _Rejected(413, 40005, "Request entity too large", "limits")
            content_type = upload.content_type
            if content_type in (None, "application/octet-stream"):
                content_type = mimetypes.guess_type(upload.filename)[0]
            new[index] = FakeAttachment(
                self._ids.next(), upload.filename, upload.data, content_type
            )
        refs = payload.get("attachments")
        if refs is None:
            return [*existing, *new.values()]
        kept = {a.id: a for a in existing}
        result: list[FakeAttachment] = []
        for ref in refs:
            ref_id = int(ref["id"])
            if ref_id in kept:
                result.append(kept[ref_id])
            elif ref_id in new:
                upload_ref = new.pop(ref_id)
                result.append(
                    FakeAttachment(
                        upload_ref.id,
                        ref.get("filename") or upload_ref.filename,
                        upload_ref.data,
                        upload_ref.content_type,
                        ref.get("description"),
                    )
                )
            else:
                raise _Rejected(400, 50035, f"attachment {ref_id} refers to nothing", "limits")
        return [*result, *new.values()]

    def _check(self, merged: Json, attachments: int) -> None:
        """Refuse a message (as created, or as it would be after an edit) that Discord would.

        Every path that writes a message comes here: channel POST/PATCH, callbacks 4 and 7,
        follow-ups and webhook PATCHes. Among the rules: each interactive component's
        custom_id must be unique in the message (Discord's docs, Message Components,
        component object: "custom_id must be unique per component; multiple buttons on the
        same message must not share the same custom_id"); Discord answers 400 with code
        50035 Invalid Form Body, the field error being COMPONENT_CUSTOM_ID_DUPLICATED."""
        problems = message_problems(merged, attachments=attachments)
        problems += allowed_mentions_problems(merged.get("allowed_mentions"))
        if problems:
            duplicate = any(problem.startswith(DUPLICATE_CUSTOM_ID) for problem in problems)
            kind = "duplicate_custom_id" if duplicate else "limits"
            raise _Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems), kind)

    async def _create_message(
        self,
        *,
        channel_id: int,
        payload: Json,
        uploads: dict[int, Upload],
        interaction: FakeInteraction | None = None,
        ephemeral: bool = False,
        message_type: int = 0,
        extra_flags: int = 0,
        check: bool = True,
    ) -> FakeMessage:
        flags = int(payload.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2 | 4096)
        thread = self._before_message(channel_id, "a message")
        attachments = self._attachments([], payload, uploads)
        if check:
            self._check({**payload, "flags": flags}, len(attachments))
        if thread is not None and thread.archived and not ephemeral:
            # A message in the thread unarchives it; an ephemeral one lives only in its
            # interaction, and an interaction comes from an active thread (send_interaction).
            await self._update_thread(thread, archived=False)
        message = FakeMessage(
            id=self._ids.next(),
            channel_id=channel_id,
            author=self.bot_user,
            created_at=self.clock.now(),
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            attachments=attachments,
            components=_stored_components(payload.get("components") or []),
            flags=flags | extra_flags | (FLAG_EPHEMERAL if ephemeral else 0),
            ephemeral_to=interaction.user.id if ephemeral and interaction else None,
            interaction_id=interaction.id if interaction else None,
            message_type=message_type,
            allowed_mentions=payload.get("allowed_mentions"),
        )
        self.messages[message.id] = message
        if thread is not None and not message.ephemeral:
            thread.message_count += 1
            thread.total_message_sent += 1
            thread.last_message_id = message.id
            thread.last_activity = message.created_at
        if interaction is not None:
            interaction.touch(message.id)
        default_parse = MESSAGE_DEFAULT if interaction is None else INTERACTION_DEFAULT
        self._notify_mentioned(message, default_parse)
        self._written(message)
        if not message.ephemeral and not message.loading:
            await self._dispatch(
                "MESSAGE_CREATE",
                self.message_payload(message, gateway=True),
                channel_id=message.channel_id,
                needs_intent=INTENT_GUILD_MESSAGES,
            )
        return message

    def _notify_mentioned(self, message: FakeMessage, default_parse: tuple[str, ...]) -> None:
        """Record who a just created message notifies (see tests/harness/mentions.py).

        Ephemeral and "thinking" messages notify nobody; edits never notify, not even the one
        that completes a defer (discord-api-docs#5497, interactions.py#175)."""
        if message.ephemeral or message.loading:
            return
        members = {user.id for user in self.users}
        silent = bool(message.flags & FLAG_SUPPRESS_NOTIFICATIONS)
        notified = notified_user_ids(message.mention_text, message.allowed_mentions, default_parse)
        for user_id in notified:
            if user_id in members:
                at = message.created_at
                notification = Notification(user_id, message.id, message.channel_id, at, silent)
                self.notifications.append(notification)

    async def _edit_message(
        self,
        message: FakeMessage,
        payload: Json,
        uploads: dict[int, Upload],
        interaction: FakeInteraction | None = None,
    ) -> None:
        self._before_edit(message.channel_id, f"editing message {message.id}")
        attachments = message.attachments
        if "attachments" in payload or uploads:
            attachments = self._attachments(message.attachments, payload, uploads)
        flags = message.flags
        if payload.get("flags") is not None:
            changeable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            flags = (flags & ~changeable) | (int(payload["flags"]) & changeable)
        flags &= ~FLAG_LOADING
        merged: Json = {
            "content": payload.get("content", message.content),
            "embeds": payload.get("embeds", message.embeds),
            "components": payload.get("components", message.components),
            "flags": flags,
            "allowed_mentions": payload.get("allowed_mentions"),
        }
        self._check(merged, len(attachments))
        was_loading = message.loading
        message.history.append(message.snapshot(message.edited_at or message.created_at))
        message.content = merged["content"] or ""
        message.embeds = list(merged["embeds"] or [])
        message.components = _stored_components(merged["components"] or [])
        message.attachments = attachments
        message.flags = flags
        message.edited_at = self.clock.now()
        if interaction is not None:
            interaction.touch(message.id)
            if interaction.original_message_id == message.id:
                interaction.loading = False
        self._written(message)
        if not message.ephemeral:
            event = "MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE"
            await self._dispatch(
                event,
                self.message_payload(message, gateway=True),
                channel_id=message.channel_id,
                needs_intent=INTENT_GUILD_MESSAGES,
            )

    def _written(self, message: FakeMessage) -> None:
        self.writes += 1
        message.revision = self.writes
        self._notify()

    async def _delete_message(self, message: FakeMessage) -> None:
        thread = self.threads.get(message.channel_id)
        # Deleting is the one thing an archived thread allows, but not once it is locked
        # (Threads topic, "Locked Threads"; undiscord#399: 400/50083).
        locked_out = thread is not None and thread.archived and thread.locked
        if thread is not None and locked_out and not self._bot_moderates(thread.id):
            detail = f"deleting message {message.id} in locked archived thread {thread.id}"
            raise _Rejected(400, 50083, THREAD_ARCHIVED, "thread_archived", detail)
        if thread is not None and not message.ephemeral:
            thread.message_count = max(0, thread.message_count - 1)
        message.deleted = True
        message.deleted_at = self.clock.now()
        self._written(message)
        if not message.ephemeral:
            data = {
                "id": str(message.id),
                "channel_id": str(message.channel_id),
                "guild_id": str(self.guild_of(message.channel_id)),
            }
            await self._dispatch(
                "MESSAGE_DELETE",
                data,
                channel_id=message.channel_id,
                needs_intent=INTENT_GUILD_MESSAGES,
            )

    # ------------------------------------------------------------------ REST: misc

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        shards = self.shard_count
        return _json({"url": self.gateway_url, "shards": shards, "session_start_limit": limit})

    async def _get_me(self, request: web.Request) -> web.Response:
        me = {
            **self.bot_user.payload(),
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
        }
        return _json(me)

    async def _get_user(self, request: web.Request) -> web.Response:
        user_id = self._snowflake(request, "user_id")
        for user in self.members:
            if user.id == user_id:
                return _json(user.payload())
        raise _Rejected(404, 10013, "Unknown User", "unknown_entity")

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.app_id),
                "name": self.bot_user.display_name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.users[0].payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "type": None,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.guild_ids),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"],
                "bot": self.bot_user.payload(),
            }
        )

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild_id = self._snowflake(request, "guild_id")
        if guild_id not in self.guild_ids:
            raise _Rejected(404, 10004, "Unknown Guild", "unknown_entity")
        payload = self._guild_payload(0, guild_id)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        return _json(payload)

    async def _get_member(self, request: web.Request) -> web.Response:
        user_id = self._snowflake(request, "user_id")
        for user in self.members:
            if user.id == user_id and self._snowflake(request, "guild_id") in self.guild_ids:
                return _json(self.member_payload(user))
        raise _Rejected(404, 10007, "Unknown Member", "unknown_entity")

    async def _get_attachment(self, request: web.Request) -> web.Response:
        attachment_id = self._snowflake(request, "attachment_id")
        for message in self.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise _Rejected(404, 0, "404: Not Found", "unknown_entity")

    # ------------------------------------------------------------------ REST: commands

    def _scope(self, request: web.Request) -> int | None:
        if self._snowflake(request, "app_id") != self.app_id:
            raise _Rejected(403, 50001, "Missing Access", "commands")
        if "guild_id" not in request.match_info:
            return None
        guild_id = self._snowflake(request, "guild_id")
        if guild_id not in self.guild_ids:
            raise _Rejected(403, 50001, "Missing Access", "commands")
        return guild_id

    async def _get_commands(self, request: web.Request) -> web.Response:
        return _json(self.commands.get(self._scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        commands = await self._read_json(request)
        if not isinstance(commands, list):
            raise _Rejected(400, 50035, "expected a list of commands", "commands")
        problems = command_problems(commands)
        if problems:
            raise _Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems), "commands")
        stored = []
        for command in commands:
            kind = int(command.get("type", 1))
            key = (scope, kind, command["name"])
            command_id = self._command_ids.setdefault(key, self._ids.next())
            entry = {
                "dm_permission": True,
                "nsfw": False,
                **command,
                "id": str(command_id),
                "application_id": str(self.app_id),
                "type": kind,
                "version": str(self._ids.next()),
                # Sent as an integer (or null), echoed as a string; integration_types
                # defaults to guild installs (0) and is never null in an answer.
                "default_member_permissions": _permissions(command),
                "integration_types": command.get("integration_types") or [0],
            }
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored.append(entry)
        self.commands[scope] = stored
        self._notify()
        return _json(stored)

    # ------------------------------------------------------------------ REST: interactions

    def _callback_response(
        self, request: web.Request, interaction: FakeInteraction, message: FakeMessage | None
    ) -> web.Response:
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        info: Json = {"id": str(interaction.id), "type": interaction.type}
        body: Json = {"interaction": info}
        if message is not None and interaction.callback_type in (4, 5, 7):
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = message.loading
            info["response_message_ephemeral"] = message.ephemeral
        # The spec's resource is a created (4) or updated (7) message; a defer has none.
        if message is not None and interaction.callback_type in (4, 7):
            body["resource"] = {
                "type": interaction.callback_type,
                "message": self.message_payload(message),
            }
        return _json(body)

    async def _callback(self, request: web.Request) -> web.Response:
        interaction = self.interactions.get(self._snowflake(request, "interaction_id"))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise _Rejected(404, 10062, "Unknown interaction", "unknown_interaction")
        payload, uploads = await self._read_body(request)
        kind = int(payload.get("type", 0))
        data: Json = payload.get("data") or {}
        if interaction.answered:
            raise _Rejected(
                400, 40060, "Interaction has already been acknowledged.", "double_callback"
            )
        now = self.clock.now()
        if now - interaction.created_at > CALLBACK_DEADLINE:
            interaction.failure = f"callback after {now - interaction.created_at:.2f}s"
            self._notify()
            raise _Rejected(404, 10062, "Unknown interaction", "late_callback")
        if kind not in _ALLOWED_CALLBACKS.get(interaction.type, set()):
            interaction.failure = f"callback type {kind} is invalid here"
            self._notify()
            raise _Rejected(400, 50035, f"Invalid callback type {kind}", "callback_type")
        # Mark it answered before any await, so a concurrent second callback is refused.
        interaction.callback_type = kind
        interaction.answered_at = now
        try:
            message = await self._apply_callback(interaction, kind, data, uploads)
        except _Rejected as rejected:
            interaction.callback_type = interaction.answered_at = None
            interaction.failure = f"{rejected.status} {rejected.code} {rejected.detail}"
            self._notify()
            raise
        interaction.original_message_id = message.id if message is not None else None
        interaction.writes_at_answer = self.writes
        self._notify()
        return self._callback_response(request, interaction, message)

    async def _apply_callback(
        self, interaction: FakeInteraction, kind: int, data: Json, uploads: dict[int, Upload]
    ) -> FakeMessage | None:
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        reply_type = 20 if interaction.type == 2 else 0
        if kind in (4, 5):
            reply = await self._create_message(
                channel_id=interaction.channel_id,
                payload=data if kind == 4 else {},
                uploads=uploads if kind == 4 else {},
                interaction=interaction,
                ephemeral=ephemeral,
                message_type=reply_type,
                extra_flags=FLAG_LOADING if kind == 5 else 0,
                check=kind == 4,
            )
            interaction.loading = kind == 5
            return reply
        if kind in (6, 7):
            message = self.messages.get(interaction.message_id or 0)
            if message is None or message.deleted:
                raise _Rejected(404, 10008, "Unknown Message", "unknown_message")
            if kind == 7:
                await self._edit_message(message, data, uploads, interaction)
            return message
        if kind == 9:
            interaction.modal = data
        return None

    def _interaction_for_webhook(self, request: web.Request) -> FakeInteraction:
        interaction = self._by_token.get(request.match_info["token"])
        if interaction is None or self._snowflake(request, "app_id") != self.app_id:
            raise _Rejected(404, 10015, "Unknown Webhook", "unknown_webhook")
        if self.clock.now() - interaction.created_at > TOKEN_LIFETIME:
            raise _Rejected(401, 50027, "Invalid Webhook Token", "token_expired")
        if not interaction.answered:
            raise _Rejected(404, 10015, "Unknown Webhook", "webhook_before_callback")
        interaction.token_ops += 1
        return interaction

    async def _followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_webhook(request)
        payload, uploads = await self._read_body(request)
        ephemeral = bool(int(payload.get("flags") or 0) & FLAG_EPHEMERAL)
        original = self.messages.get(interaction.original_message_id or 0)
        if interaction.loading and original is not None:
            # Discord quirk: the first follow-up after a "thinking" defer replaces the loading
            # message and keeps the defer's visibility, whatever the follow-up's flags say.
            if ephemeral != original.ephemeral:
                self.violate(
                    "followup_visibility",
                    f"{interaction.describe()}: first follow-up after defer asked for "
                    f"ephemeral={ephemeral} but the defer was ephemeral={original.ephemeral}",
                )
            await self._edit_message(original, payload, uploads, interaction)
            return _json(self.message_payload(original))
        message = await self._create_message(
            channel_id=interaction.channel_id,
            payload=payload,
            uploads=uploads,
            interaction=interaction,
            ephemeral=ephemeral,
        )
        return _json(self.message_payload(message))

    async def _webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_webhook(request)
        raw_id = request.match_info["message_id"]
        if raw_id == "@original":
            message_id = interaction.original_message_id
        else:
            message_id = self._snowflake(request, "message_id")
        message = self.messages.get(message_id or 0)
        if message is None or message.deleted:
            raise _Rejected(404, 10008, "Unknown Message", "unknown_message")
        if message.id != interaction.original_message_id and message.interaction_id != (
            interaction.id
        ):
            # A token reaches its original response (a component interaction's is the
            # message the component is on) and its own follow-ups; no other message, even
            # one another interaction of the same bot created.
            raise _Rejected(404, 10008, "Unknown Message", "foreign_token")
        if request.method == "GET":
            return _json(self.message_payload(message))
        if request.method == "DELETE":
            await self._delete_message(message)
            return web.Response(status=204)
        payload, uploads = await self._read_body(request)
        await self._edit_message(message, payload, uploads, interaction)
        return _json(self.message_payload(message))

    # ------------------------------------------------------------------ REST: channels

    def _channel(self, request: web.Request) -> int:
        """The path's channel or thread; 404/10003 if there is none, 403/50001 Missing
        Access if the bot cannot see it (VIEW_CHANNEL, or a private thread it is not in)."""
        channel_id = self._snowflake(request, "channel_id")
        if channel_id not in self.channels and channel_id not in self.threads:
            raise _Rejected(404, 10003, "Unknown Channel", "unknown_channel")
        if not self.can_view(self.bot_user.id, channel_id):
            raise _missing_access(f"the bot cannot view channel {channel_id}")
        return channel_id

    def _thread(self, request: web.Request) -> FakeThread:
        """The path's thread (a text channel there: 400/50024)."""
        channel_id = self._channel(request)
        thread = self.threads.get(channel_id)
        if thread is None:
            raise _Rejected(
                400,
                50024,
                "Cannot execute action on this channel type",
                "channel_type",
                f"channel {channel_id} is not a thread",
            )
        return thread

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self.channel_payload(self._channel(request)))

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def _channel_history(self, request: web.Request) -> web.Response:
        channel_id = self._channel(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        found = [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and not m.ephemeral
            and after < m.id < before
        ]
        found.sort(key=lambda m: m.id, reverse=True)
        return _json([self.message_payload(m) for m in found[:limit]])

    async def _channel_post(self, request: web.Request) -> web.Response:
        channel_id = self._channel(request)
        # In a thread SEND_MESSAGES has no effect: SEND_MESSAGES_IN_THREADS is what counts
        # (Permissions, "Inherited Permissions (Threads)").
        needed = SEND_MESSAGES_IN_THREADS if channel_id in self.threads else SEND_MESSAGES
        self._require(channel_id, needed, "sending a message")
        payload, uploads = await self._read_body(request)
        message = await self._create_message(
            channel_id=channel_id, payload=payload, uploads=uploads
        )
        return _json(self.message_payload(message))

    async def _channel_message(self, request: web.Request) -> web.Response:
        channel_id = self._channel(request)
        message = self.messages.get(self._snowflake(request, "message_id"))
        if message is None or message.deleted or message.channel_id != channel_id:
            raise _Rejected(404, 10008, "Unknown Message", "unknown_message")
        if message.ephemeral:
            raise _Rejected(404, 10008, "Unknown Message", "ephemeral_via_channel")
        if request.method == "GET":
            return _json(self.message_payload(message))
        if message.author.id != self.bot_user.id:
            raise _Rejected(403, 50005, "Cannot edit a message authored by another user", "auth")
        if request.method == "DELETE":
            await self._delete_message(message)
            return web.Response(status=204)
        payload, uploads = await self._read_body(request)
        await self._edit_message(message, payload, uploads)
        return _json(self.message_payload(message))

    # ------------------------------------------------------------------ REST: threads

    def _thread_body(self, body: Json, *, creating: bool) -> None:
        problems = thread_problems(body, creating=creating)
        if problems:
            raise _Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems), "limits")

    async def _start_thread_from_message(self, request: web.Request) -> web.Response:
        """Start Thread from Message: a public thread with the message's id (one per
        message: 400/160004), needing VIEW_CHANNEL, READ_MESSAGE_HISTORY and
        CREATE_PUBLIC_THREADS; 201 with the thread."""
        channel_id = self._channel(request)
        if channel_id not in self.channels:
            raise _Rejected(
                400,
                50024,
                "Cannot execute action on this channel type",
                "channel_type",
                f"starting a thread from a message in thread {channel_id}",
            )
        message = self.messages.get(self._snowflake(request, "message_id"))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel_id
        ):
            raise _Rejected(404, 10008, "Unknown Message", "unknown_message")
        body = await self._read_json(request) or {}
        self._thread_body(body, creating=True)
        self._require(
            channel_id, CREATE_PUBLIC_THREADS | READ_MESSAGE_HISTORY, "starting a public thread"
        )
        if message.id in self.threads:
            raise _Rejected(
                400,
                160004,
                "A thread has already been created for this message",
                "thread_exists",
            )
        thread = await self._new_thread(
            channel_id,
            body["name"],
            PUBLIC_THREAD,
            self.bot_user,
            thread_id=message.id,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        return _json(self.thread_payload(thread, with_member=True), status=201)

    async def _start_thread(self, request: web.Request) -> web.Response:
        """Start Thread without Message: ``type`` 11 (CREATE_PUBLIC_THREADS) or 12, the
        default (CREATE_PRIVATE_THREADS); 201 with the thread."""
        channel_id = self._channel(request)
        if channel_id not in self.channels:
            raise _Rejected(
                400,
                50024,
                "Cannot execute action on this channel type",
                "channel_type",
                f"starting a thread in thread {channel_id}",
            )
        body = await self._read_json(request) or {}
        if "message" in body:  # a forum post: text channels have none
            raise _Rejected(
                400,
                50024,
                "Cannot execute action on this channel type",
                "channel_type",
                "a forum thread (with a message) in a text channel",
            )
        self._thread_body(body, creating=True)
        kind = body.get("type") or PRIVATE_THREAD
        if kind == ANNOUNCEMENT_THREAD:
            raise _Rejected(
                400,
                50024,
                "Cannot execute action on this channel type",
                "channel_type",
                "an announcement thread in a text channel",
            )
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        kind_name = "private" if kind == PRIVATE_THREAD else "public"
        self._require(channel_id, needed, f"starting a {kind_name} thread")
        invitable = body.get("invitable")
        thread = await self._new_thread(
            channel_id,
            body["name"],
            kind,
            self.bot_user,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=True if invitable is None else bool(invitable),
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        return _json(self.thread_payload(thread, with_member=True), status=201)

    async def _patch_channel(self, request: web.Request) -> web.Response:
        """Modify Channel, for threads (Channel resource, "JSON Params (Thread)", and the
        Threads topic, "Editing & Deleting Threads")."""
        channel_id = self._channel(request)
        body = await self._read_json(request) or {}
        thread = self.threads.get(channel_id)
        if thread is None:
            self._require(channel_id, MANAGE_CHANNELS, "editing a channel")
            raise _Rejected(400, 0, "the fake does not edit text channels", "not_modelled")
        self._thread_body(body, creating=False)
        keys = ("name", "archived", "locked", "auto_archive_duration", "invitable")
        changes: Json = {
            k: body[k] for k in (*keys, "rate_limit_per_user") if body.get(k) is not None
        }
        for flag in ("archived", "locked", "invitable"):
            if flag in changes:
                changes[flag] = str(changes[flag]).lower() in ("true", "1")
        self._thread_edit_allowed(thread, changes)
        await self._update_thread(thread, **changes)
        return _json(self.thread_payload(thread, with_member=True))

    def _thread_edit_allowed(self, thread: FakeThread, changes: Json) -> None:
        """Refuse a thread edit Discord would: anything but unarchiving an archived thread
        (400/50083); everything in a locked thread, locking and slowmode without
        MANAGE_THREADS; name, duration and archiving without MANAGE_THREADS unless the bot
        started the thread; unarchiving without SEND_MESSAGES_IN_THREADS (403/50013)."""
        moderator = self._bot_moderates(thread.id)
        owner = thread.owner_id == self.bot_user.id
        if thread.archived and changes.get("archived") is not False:
            detail = f"editing archived thread {thread.id} without archived=false"
            raise _Rejected(400, 50083, THREAD_ARCHIVED, "thread_archived", detail)
        needs: list[str] = []
        if thread.locked and not moderator:
            needs.append("MANAGE_THREADS (the thread is locked)")
        if changes.get("locked", thread.locked) != thread.locked and not moderator:
            needs.append("MANAGE_THREADS (to lock or unlock)")
        slowmode = changes.get("rate_limit_per_user", thread.rate_limit_per_user)
        if slowmode != thread.rate_limit_per_user and not moderator:
            needs.append("MANAGE_THREADS (slowmode)")
        owned = ("name", "auto_archive_duration", "invitable")
        if (any(k in changes for k in owned) or changes.get("archived")) and not (
            moderator or owner
        ):
            needs.append("MANAGE_THREADS or being the thread's creator")
        if "invitable" in changes and not thread.private:
            raise _Rejected(
                400,
                50035,
                "Invalid Form Body: invitable is only for private threads",
                "limits",
            )
        unarchiving = thread.archived and changes.get("archived") is False
        sends = self.permissions_for(self.bot_user.id, thread.id) & SEND_MESSAGES_IN_THREADS
        if unarchiving and not (sends or moderator):
            needs.append("SEND_MESSAGES_IN_THREADS (to unarchive)")
        if needs:
            raise _missing_permissions(f"editing thread {thread.id} needs {'; '.join(needs)}")

    def _thread_member_id(self, request: web.Request) -> int:
        if request.match_info["user_id"] == "@me":
            return self.bot_user.id
        return self._snowflake(request, "user_id")

    async def _list_thread_members(self, request: web.Request) -> web.Response:
        """List Thread Members; ``with_member=true`` adds each guild member and pages by
        ``after`` and ``limit`` (1..100, default 100)."""
        thread = self._thread(request)
        with_member = request.query.get("with_member", "").lower() in ("1", "true")
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 100))
        users = {user.id: user for user in self.members}
        found = sorted(u for u in thread.members if u > after)
        if with_member:
            found = found[:limit]
        return _json([self._thread_member(thread, users[u], with_member) for u in found])

    def _thread_member(self, thread: FakeThread, user: FakeUser, with_member: bool) -> Json:
        payload = thread.member_payload(user.id)
        if with_member:
            payload["member"] = self.member_payload(user)
        return payload

    async def _thread_member_route(self, request: web.Request) -> web.Response:
        """Get/Add/Remove Thread Member and Join/Leave Thread (``@me``)."""
        thread = self._thread(request)
        user_id = self._thread_member_id(request)
        users = {user.id: user for user in self.members}
        if user_id not in users:
            raise _Rejected(404, 10007, "Unknown Member", "unknown_entity")
        if request.method == "GET":
            if user_id not in thread.members:
                raise _Rejected(404, 10007, "Unknown Member", "unknown_entity")
            with_member = request.query.get("with_member", "").lower() in ("1", "true")
            return _json(self._thread_member(thread, users[user_id], with_member))
        if thread.archived:
            # Join, Add, Leave and Remove all "require the thread is not archived".
            detail = f"{request.method} member {user_id} of archived thread {thread.id}"
            raise _Rejected(400, 50083, THREAD_ARCHIVED, "thread_archived", detail)
        if request.method == "PUT":
            await self._add_thread_member(thread, user_id)
        else:
            await self._remove_thread_member(thread, user_id)
        return web.Response(status=204)

    async def _add_thread_member(self, thread: FakeThread, user_id: int) -> None:
        """Join Thread (the bot) or Add Thread Member: "requires the ability to send
        messages in the thread" (SEND_MESSAGES_IN_THREADS, and MANAGE_THREADS in a
        locked one); adding others to a private thread that is not ``invitable`` needs
        MANAGE_THREADS. Already a member: 204 all the same, no event."""
        bot = self.bot_user.id
        action = "joining" if user_id == bot else f"adding {user_id} to"
        self._require(thread.id, SEND_MESSAGES_IN_THREADS, f"{action} thread {thread.id}")
        moderator = self._bot_moderates(thread.id)
        if thread.locked and not moderator:
            detail = f"{action} locked thread {thread.id} without MANAGE_THREADS"
            raise _Rejected(403, 50083, THREAD_ARCHIVED, "thread_locked", detail)
        if user_id != bot and thread.private and not thread.invitable and not moderator:
            raise _missing_permissions(
                f"{action} private thread {thread.id} (not invitable) needs MANAGE_THREADS"
            )
        if user_id in thread.members:
            return
        thread.members[user_id] = self.clock.now()
        self._notify()
        await self._members_update(thread, added=[user_id])
        if user_id == bot:
            # Join Thread "fires a Thread Members Update and a Thread Create" event.
            await self._thread_event("THREAD_CREATE", thread)

    async def _remove_thread_member(self, thread: FakeThread, user_id: int) -> None:
        """Leave Thread (the bot), or Remove Thread Member: MANAGE_THREADS, or the
        creator of a private thread."""
        bot = self.bot_user.id
        if user_id != bot:
            may = self._bot_moderates(thread.id) or (thread.private and thread.owner_id == bot)
            if not may:
                raise _missing_permissions(
                    f"removing {user_id} from thread {thread.id} needs MANAGE_THREADS"
                )
        if thread.members.pop(user_id, None) is None:
            return
        self._notify()
        await self._members_update(thread, removed=[user_id])
