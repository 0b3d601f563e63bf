"""Who a new message notifies, as pure functions over its text and ``allowed_mentions``.

Modelled on Discord's "Allowed Mentions Object" (developer docs, resources/message):
- without ``allowed_mentions`` regular channel messages parse users, roles and everyone, while
  interaction responses and webhooks (follow-ups) parse only users;
- with ``allowed_mentions`` only the types in ``parse`` are parsed (a missing ``parse`` means
  none), plus the ids listed in ``users``;
- ``parse`` containing "users" together with a non-empty ``users`` list is a validation error
  (an empty or null list is fine), likewise for "roles"; each id list holds at most 100;
- a listed id notifies only if the message also mentions it (no phantom pings), in its content
  or in the text of its components, never in embeds.
Only user mentions are modelled; roles, @everyone and @here notify nobody here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

MENTION_TYPES = frozenset({"users", "roles", "everyone"})
MAX_MENTION_IDS = 100
MESSAGE_DEFAULT: tuple[str, ...] = ("users", "roles", "everyone")
INTERACTION_DEFAULT: tuple[str, ...] = ("users",)

_USER_MENTION = re.compile(r"<@!?(\d+)>")


def allowed_mentions_problems(allowed: Mapping[str, Any] | None) -> list[str]:
    """What Discord's validation would reject in an ``allowed_mentions`` object."""
    if allowed is None:
        return []
    problems: list[str] = []
    parse = allowed.get("parse") or []
    unknown = sorted(set(parse) - MENTION_TYPES)
    if unknown:
        problems.append(f"allowed_mentions.parse has unknown types {unknown}")
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if kind in parse and ids:
            problems.append(f"allowed_mentions: parse {kind!r} and a {kind} list are exclusive")
        if len(ids) > MAX_MENTION_IDS:
            problems.append(f"allowed_mentions.{kind} holds {len(ids)} ids (max 100)")
    return problems


def mentioned_user_ids(text: str) -> list[int]:
    """User ids mentioned as ``<@id>`` or ``<@!id>``, first occurrence order, no repeats."""
    return list(dict.fromkeys(int(found) for found in _USER_MENTION.findall(text)))


def notified_user_ids(
    text: str, allowed: Mapping[str, Any] | None, default_parse: Sequence[str]
) -> list[int]:
    """The users a newly created message with this text notifies."""
    if allowed is None:
        return mentioned_user_ids(text) if "users" in default_parse else []
    parse = allowed.get("parse") or []
    listed = {int(user_id) for user_id in allowed.get("users") or []}
    return [u for u in mentioned_user_ids(text) if "users" in parse or u in listed]
