"""The one codec between action keys and the arg of a button's custom_id.

An action key is any text an adapter's `parse_action` reads (``take``, ``c3-c4``,
``meld 5H JK=6H 7H``). A custom_id allows only ``[A-Za-z0-9_,.-]`` after the verb, so:

- letters, digits, ``,`` and ``-`` stand for themselves (plain keys stay as they are);
- a space, the commonest separator in keys, is ``_``;
- every other character is ``.`` and two upper-case hex digits per UTF-8 byte
  (``=`` is ``.3D``, ``_`` is ``.5F``, ``.`` is ``.2E``).
"""

from __future__ import annotations

import re
import string

from bot.engines.base import IllegalAction
from bot.i18n import N_

PLAIN = frozenset(string.ascii_letters + string.digits + ",-")
"""Characters a key keeps as they are."""
SPACE = "_"
ESCAPE = "."
ARG_ALPHABET = "A-Za-z0-9_,.\\-"
"""The characters `encode` writes, as a regex character class body."""
_TOKEN = re.compile(r"[A-Za-z0-9,\-]+|_|\.[0-9A-F]{2}")
UNREADABLE = N_("That button is not one I know.")
"""Why an arg that no key encodes to is refused (shared with other unknown buttons)."""


def encode(key: str) -> str:
    """``key`` in the custom_id alphabet; `decode` gives it back."""
    return "".join(_encode_char(char) for char in key)


def _encode_char(char: str) -> str:
    if char in PLAIN:
        return char
    if char == " ":
        return SPACE
    return "".join(f"{ESCAPE}{byte:02X}" for byte in char.encode())


def decode(arg: str) -> str:
    """The key ``arg`` encodes. Raises `IllegalAction` when no key encodes to it (a
    tampered id, or a button drawn by a bot that escaped keys another way)."""
    pieces = bytearray()
    position = 0
    while position < len(arg):
        token = _TOKEN.match(arg, position)
        if token is None:
            raise IllegalAction(UNREADABLE)
        pieces += _token_bytes(token[0])
        position = token.end()
    try:
        return pieces.decode()
    except UnicodeDecodeError as error:
        raise IllegalAction(UNREADABLE) from error


def _token_bytes(token: str) -> bytes:
    if token == SPACE:
        return b" "
    if token.startswith(ESCAPE):
        return bytes([int(token[1:], 16)])
    return token.encode()
