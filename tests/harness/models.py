"""Records the fake Discord keeps: users, channels, messages (with history), interactions."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from tests.harness.limits import (
    BUTTON,
    FLAG_LOADING,
    PRIVATE_THREAD,
    SELECT_TYPES,
    TEXT_DISPLAY,
    walk_components,
)
from tests.harness.permissions import Overwrite

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000


class ClockLike(Protocol):
    def now(self) -> float: ...

    def advance(self, seconds: float) -> None: ...


class Clock:
    """Wall clock with an offset, so a test can jump past Discord's 3 s / 15 min deadlines."""

    def __init__(self, base: Callable[[], float] = time.time) -> None:
        self._base = base
        self.offset = 0.0

    def now(self) -> float:
        return self._base() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Snowflakes:
    """Unique, increasing snowflakes whose timestamp part follows the (fake) clock."""

    def __init__(self, clock: ClockLike) -> None:
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        stamp = (int(self._clock.now() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(stamp, self._last + 1)
        return self._last


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    display_name: str
    locale: str = "en-US"
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.display_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }


def iso(timestamp: float) -> str:
    """A time as Discord writes it (ISO 8601, UTC)."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


@dataclass
class FakeChannel:
    """A text channel of a guild (type 0), with its permission overwrites by role or
    member id (`FakeDiscord.set_permissions`)."""

    id: int
    name: str
    position: int
    overwrites: dict[int, Overwrite] = field(default_factory=dict)

    def payload(self, guild_id: int) -> Json:
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites.values()],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


@dataclass
class FakeThread:
    """A thread: a channel of its own (type 11 public, 12 private) under a text channel.

    ``members`` maps each member's user id to when they joined. A thread started from a
    message has the message's id (``from_message``)."""

    id: int
    parent_id: int
    name: str
    type: int
    owner_id: int
    created_at: float
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    rate_limit_per_user: int = 0
    archive_timestamp: float = 0.0
    """When ``archived`` last changed (or the thread was made, or its
    ``auto_archive_duration`` changed), as Discord keeps it."""
    last_activity: float = 0.0
    """When a message was last sent, the thread unarchived or its duration changed
    (Discord's "activity", which the auto-archive timer counts from)."""
    from_message: bool = False
    members: dict[int, float] = field(default_factory=dict)
    message_count: int = 0
    total_message_sent: int = 0
    last_message_id: int | None = None

    @property
    def private(self) -> bool:
        return self.type == PRIVATE_THREAD

    def member_payload(self, user_id: int, *, in_guild_create: bool = False) -> Json:
        """The thread member object (without ``id``/``user_id`` inside GUILD_CREATE)."""
        payload: Json = {"join_timestamp": iso(self.members[user_id]), "flags": 0}
        if not in_guild_create:
            payload = {"id": str(self.id), "user_id": str(user_id), **payload}
        return payload

    def payload(self, guild_id: int) -> Json:
        metadata: Json = {
            "archived": self.archived,
            "archive_timestamp": iso(self.archive_timestamp),
            "auto_archive_duration": self.auto_archive_duration,
            "locked": self.locked,
            "create_timestamp": iso(self.created_at),
        }
        if self.private:
            metadata["invitable"] = self.invitable
        last = self.last_message_id
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None if last is None else str(last),
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            "message_count": self.message_count,
            "member_count": min(len(self.members), 50),
            "total_message_sent": self.total_message_sent,
            "thread_metadata": metadata,
        }


@dataclass(frozen=True)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class MessageVersion:
    """One past state of a message; FakeMessage.history holds them oldest first."""

    content: str
    embeds: list[Json]
    attachments: list[FakeAttachment]
    components: list[Json]
    flags: int
    at: float


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    author: FakeUser
    created_at: float
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    flags: int = 0
    ephemeral_to: int | None = None
    interaction_id: int | None = None
    message_type: int = 0
    allowed_mentions: Json | None = None  # as sent when the message was created
    edited_at: float | None = None
    deleted: bool = False
    deleted_at: float | None = None
    revision: int = 0  # FakeDiscord.writes when this message last changed
    history: list[MessageVersion] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_to(self, user_id: int) -> bool:
        return not self.deleted and self.ephemeral_to in (None, user_id)

    def snapshot(self, at: float) -> MessageVersion:
        return MessageVersion(
            content=self.content,
            embeds=list(self.embeds),
            attachments=list(self.attachments),
            components=list(self.components),
            flags=self.flags,
            at=at,
        )

    def iter_components(self) -> Iterator[Json]:
        for component in walk_components(self.components):
            yield dict(component)

    @property
    def buttons(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") == BUTTON]

    @property
    def selects(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") in SELECT_TYPES]

    @property
    def labels(self) -> list[str]:
        """Button labels (or emoji names for emoji-only buttons), in display order."""
        return [button_text(b) for b in self.buttons]

    @property
    def text(self) -> str:
        """Everything a person reads on the message: content, embeds and v2 text displays,
        without the invisible isolates (U+2068, U+2069) that the bot puts around names."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for embed_field in embed.get("fields") or []:
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        parts += [c.get("content", "") for c in self.iter_components() if c["type"] == TEXT_DISPLAY]
        return without_isolates("\n".join(p for p in parts if p))

    @property
    def mention_text(self) -> str:
        """Where Discord looks for mentions: the content and v2 text displays, not embeds."""
        parts = [self.content]
        parts += [c.get("content", "") for c in self.iter_components() if c["type"] == TEXT_DISPLAY]
        return "\n".join(p for p in parts if p)

    @property
    def filenames(self) -> list[str]:
        return [a.filename for a in self.attachments]


def button_text(button: Json) -> str:
    label = button.get("label")
    if label:
        return str(label)
    return str((button.get("emoji") or {}).get("name", ""))


@dataclass
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    data: Json
    created_at: float
    message_id: int | None = None
    callback_type: int | None = None
    answered_at: float | None = None
    original_message_id: int | None = None
    loading: bool = False
    failure: str | None = None
    writes_at_answer: int = 0
    token_ops: int = 0
    modal: Json | None = None
    touched: list[int] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return self.callback_type is not None

    def touch(self, message_id: int) -> None:
        if message_id not in self.touched:
            self.touched.append(message_id)

    def describe(self) -> str:
        if self.type == 2:
            return f"/{self.data.get('name')} by {self.user.name}"
        return f"component {self.data.get('custom_id')!r} by {self.user.name}"


@dataclass(frozen=True)
class Notification:
    """A user notified by a newly created message that mentions them (``silent``: the
    message had SUPPRESS_NOTIFICATIONS, so Discord shows a badge but sends no push)."""

    user_id: int
    message_id: int
    channel_id: int
    at: float
    silent: bool = False


@dataclass(frozen=True)
class Violation:
    kind: str
    detail: str
    at: float

    def __str__(self) -> str:
        return f"[{self.kind}] {self.detail}"


def without_isolates(text: str) -> str:
    """``text`` as a client shows it: the bidi isolates around names take no space."""
    return text.replace("\u2068", "").replace("\u2069", "")
