"""People's names as the bot shows them: text, never markup.

A display name is the user's own text. Kept as `plain_name` (bidi and other control
characters taken out, so an image or a line can't be reordered by a right-to-left
override, and cut to `MAX_NAME_LENGTH`), and shown in Discord markdown (message content,
embed titles, descriptions and fields) only as `shown_name`, the one function for that:

1. cut first (`plain_name`), so no cut can ever land inside an escape;
2. a zero-width space before every ``/``, so no ``https://`` (or ``discord.gg/…``) in a
   name is a link Discord would make;
3. every markdown character escaped with a backslash: ``[ ] ( )`` (no masked link),
   ``* _ ~ |``, the backtick, ``# - > < :`` and the rest of `_MARKDOWN`;
4. mentions broken by a zero-width space after the ``@`` (``@everyone``, ``@here``,
   ``<@123>``, ``<@&123>``);
5. the whole wrapped in Unicode isolates (U+2068 … U+2069) so nothing in it reaches past
   it on the line, and a trailing backslash can't escape what follows.

Where a name is plain text, not markdown (an image, a button or select label, a
downloaded text file), `plain_name` is the right form.
"""

from __future__ import annotations

import re
import unicodedata

FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
ZERO_WIDTH_SPACE = "\u200b"
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
MAX_NAME_LENGTH = 32
"""Discord's own limit for a display name."""

_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]()<:.!+=])")
_MENTION = re.compile(r"@(?=everyone|here|[!&]?\d)", re.IGNORECASE)


def plain_name(name: str) -> str:
    """``name`` without control characters (bidi ones included; joiners, which emoji
    need, stay), spaces collapsed, at most `MAX_NAME_LENGTH` characters; "?" if
    nothing is left."""
    kept = "".join(
        " " if char.isspace() else char
        for char in name
        if char not in BIDI_CONTROLS and (char.isspace() or unicodedata.category(char) != "Cc")
    )
    return " ".join(kept.split())[:MAX_NAME_LENGTH].rstrip() or "?"


def shown_name(name: str) -> str:
    """``name`` for Discord markdown (content, embeds): cut, unlinked, escaped, mentions
    broken and isolated (the rules in this module's docstring)."""
    text = plain_name(name).replace("/", ZERO_WIDTH_SPACE + "/")
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _MENTION.sub("@" + ZERO_WIDTH_SPACE, text)
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
