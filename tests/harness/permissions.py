"""Discord's permissions, computed the way Discord computes them, for the fake Discord.

From Discord's docs, "Permissions" (developers/topics/permissions.mdx): the bits; the
order overwrites apply in (the @everyone role's permissions, then the channel's
@everyone overwrite, then its role overwrites, then the member's own overwrite, each
deny before allow); ``ADMINISTRATOR`` allows everything and bypasses overwrites; a
channel a member cannot view (``VIEW_CHANNEL``) grants nothing else ("Implicit
Permissions"). Threads ("Inherited Permissions (Threads)") take the permissions of their
parent channel, but ``SEND_MESSAGES`` has no effect in them: ``SEND_MESSAGES_IN_THREADS``
is what lets a member talk in a thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL = (1 << 53) - 1
"""Every bit Discord defines today (up to ``BYPASS_SLOWMODE``, 1 << 52) and the gaps."""

ROLE, MEMBER = 0, 1
"""An overwrite's ``type``: for a role (the guild's id is the @everyone role) or a member."""


@dataclass(frozen=True)
class Overwrite:
    """A channel's permission overwrite for a role or a member (Discord's "Overwrite
    Object": ``id``, ``type`` 0 role / 1 member, ``allow`` and ``deny`` bit sets)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def channel_permissions(
    base: int,
    *,
    guild_id: int,
    user_id: int,
    role_ids: Iterable[int] = (),
    overwrites: Mapping[int, Overwrite],
) -> int:
    """A member's permissions in a channel: ``base`` (the @everyone role's permissions
    with those of the member's roles) with the channel's ``overwrites`` applied in
    Discord's order (``compute_overwrites`` of the docs' pseudocode), then the implicit
    rule that a channel one cannot view grants nothing."""
    if base & ADMINISTRATOR:
        return ALL
    permissions = base
    everyone = overwrites.get(guild_id)
    if everyone is not None:
        permissions &= ~everyone.deny
        permissions |= everyone.allow
    allow = deny = 0
    for role_id in role_ids:
        role = overwrites.get(role_id)
        if role is not None and role.type == ROLE:
            allow |= role.allow
            deny |= role.deny
    permissions &= ~deny
    permissions |= allow
    member = overwrites.get(user_id)
    if member is not None and member.type == MEMBER:
        permissions &= ~member.deny
        permissions |= member.allow
    if not permissions & VIEW_CHANNEL:
        return 0
    return permissions


_NAMES = {
    CREATE_INSTANT_INVITE: "CREATE_INSTANT_INVITE",
    ADMINISTRATOR: "ADMINISTRATOR",
    MANAGE_CHANNELS: "MANAGE_CHANNELS",
    MANAGE_GUILD: "MANAGE_GUILD",
    ADD_REACTIONS: "ADD_REACTIONS",
    VIEW_CHANNEL: "VIEW_CHANNEL",
    SEND_MESSAGES: "SEND_MESSAGES",
    MANAGE_MESSAGES: "MANAGE_MESSAGES",
    EMBED_LINKS: "EMBED_LINKS",
    ATTACH_FILES: "ATTACH_FILES",
    READ_MESSAGE_HISTORY: "READ_MESSAGE_HISTORY",
    USE_EXTERNAL_EMOJIS: "USE_EXTERNAL_EMOJIS",
    USE_APPLICATION_COMMANDS: "USE_APPLICATION_COMMANDS",
    MANAGE_THREADS: "MANAGE_THREADS",
    CREATE_PUBLIC_THREADS: "CREATE_PUBLIC_THREADS",
    CREATE_PRIVATE_THREADS: "CREATE_PRIVATE_THREADS",
    SEND_MESSAGES_IN_THREADS: "SEND_MESSAGES_IN_THREADS",
}


def names(permissions: int) -> list[str]:
    """The names of the bits set, for messages (``1 << n`` for a bit not named here)."""
    bits = (1 << bit for bit in range(53) if permissions >> bit & 1)
    return [_NAMES.get(bit, f"1 << {bit.bit_length() - 1}") for bit in bits]
