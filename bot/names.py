"""People's names as the bot shows them: text, never markup.

A display name is the user's own text. Kept as `plain_name` (bidi and other control
characters taken out, so an image or a line can't be reordered by a right-to-left
override), and shown in Discord text as `shown_name`: every markdown and masked-link
character escaped, mentions broken, and the whole wrapped in Unicode isolates
(U+2068 … U+2069) so nothing in it reaches past it on the line.
"""

from __future__ import annotations

import re
import unicodedata

FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
MAX_NAME_LENGTH = 32
"""Discord's own limit for a display name."""

_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]()<:.!+=])")
_MENTION = re.compile(r"@(?=everyone|here|[!&]?\d)")


def plain_name(name: str) -> str:
    """``name`` without control characters (bidi ones included; joiners, which emoji
    need, stay), spaces collapsed, at most `MAX_NAME_LENGTH` characters; "?" if
    nothing is left."""
    kept = "".join(
        " " if char.isspace() else char
        for char in name
        if char not in BIDI_CONTROLS and (char.isspace() or unicodedata.category(char) != "Cc")
    )
    return " ".join(kept.split())[:MAX_NAME_LENGTH] or "?"


def shown_name(name: str) -> str:
    """``name`` for Discord markdown (content, embeds): escaped and isolated."""
    escaped = _MARKDOWN.sub(r"\\\1", plain_name(name))
    escaped = _MENTION.sub("@\u200b", escaped)
    return f"{FIRST_STRONG_ISOLATE}{escaped}{POP_DIRECTIONAL_ISOLATE}"
