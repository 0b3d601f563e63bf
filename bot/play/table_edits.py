"""Table messages edited newest first and never backwards, outside the channel lock.

A click holds its channel's lock only until its move is saved (a compare-and-set on
the revision); drawing the new table and editing the message happen after, so the next
click in the channel need not wait for them. Two edits of one table can then be under
way at once, and the older one could land last and show a game that has moved on.
`TableEdits` orders them: the edits of one table run one at a time, and an edit whose
revision is older than one already shown is skipped (the newer picture stands).

It also remembers each table's latest click on the table message (`remember_click`):
that click's token can edit the message again (its ``@original``) through the
interaction's webhook, which Discord's global limit of 50 requests a second for the
bot token doesn't count. The computer moves that answer a person's click are shown
that way, up to `FOLLOWING_EDITS_PER_CLICK` of them.

This is per process: the edits of a server's tables all come from the process that
serves its shard (clicks, computer moves and clocks alike). A remembered click is only
a cheaper way to send an edit, never something pending: without one (another process,
a restart, a token about to expire) the edit goes through the channel.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.play.interactions import Interaction, message_id_of

REMEMBERED_TABLES = 10_000
"""Tables whose newest shown revision is kept; the least recently edited go first (an
edit that old has long been overtaken)."""

REMEMBERED_CLICKS = 1_000
"""Tables whose latest click is kept for its token (an `Interaction` weighs some kB);
the least recently clicked go first, and their edits go through the channel."""
FOLLOWING_EDITS_PER_CLICK = 3
"""Edits a click's token makes after its own: an interaction's webhook takes 5 requests
in 2 s (each token its own bucket), and a click's own edit and three more stay under
that however fast they come. The computer moves that answer a click are rarely more;
beyond them, edits go through the channel."""
TOKEN_MARGIN = timedelta(minutes=1)
"""A click's token is used until this long before it expires (15 minutes after the
click), so an edit under way never meets an expired token."""

TableKey = tuple[int, str]
"""(channel id, game id): revisions count anew in each game of a channel."""


@dataclass
class _Click:
    """A table's latest click and how many more edits its token may make."""

    interaction: Interaction
    left: int


class TableEdits:
    """The newest revision shown per table, and a lock per table for its edits."""

    def __init__(self, remembered: int = REMEMBERED_TABLES) -> None:
        self._remembered = remembered
        self._shown: OrderedDict[TableKey, int] = OrderedDict()
        self._locks: dict[TableKey, asyncio.Lock] = {}
        self._users: dict[TableKey, int] = {}
        """Edits holding or waiting for each table's lock: it goes when the last ends."""
        self._asked: dict[TableKey, int] = {}
        """The newest revision among each table's edits under way (goes with its lock)."""
        self._clicks: OrderedDict[TableKey, _Click] = OrderedDict()

    @asynccontextmanager
    async def turn(self, channel_id: int, gid: str, rev: int) -> AsyncIterator[bool]:
        """Wait for this table's other edits; yields whether revision ``rev`` is still
        worth showing: none newer shown, and none newer waiting to be (under load,
        moves made while a table is drawn cost one more drawing, not one each). Once
        yielded True, ``rev`` counts as shown."""
        key = (channel_id, gid)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        self._asked[key] = max(self._asked.get(key, 0), rev)
        try:
            async with lock:
                current = rev >= self._shown.get(key, 0) and rev >= self._asked[key]
                if current:
                    self._remember(key, rev)
                yield current
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._locks[key], self._asked[key]

    def behind(self, channel_id: int, gid: str, rev: int) -> bool:
        """Whether revision ``rev`` is newer than any shown here, with no edit of the
        table under way (one that is will show what it was asked to)."""
        key = (channel_id, gid)
        return key not in self._users and self._shown.get(key, 0) < rev

    def forget(self, channel_id: int, gid: str) -> None:
        """Forget what was shown of this table: Redis lost the revision shown (a
        failover), so an older one must be drawable again."""
        self._shown.pop((channel_id, gid), None)

    def remember_click(self, channel_id: int, gid: str, interaction: Interaction) -> None:
        """``interaction``, a click on the table message answered with a deferred update,
        edits that message again for the moves that follow it (`click_for`)."""
        key = (channel_id, gid)
        self._clicks[key] = _Click(interaction, FOLLOWING_EDITS_PER_CLICK)
        self._clicks.move_to_end(key)
        while len(self._clicks) > REMEMBERED_CLICKS:
            self._clicks.popitem(last=False)

    def click_for(self, channel_id: int, gid: str, message_id: int) -> Interaction | None:
        """The table's latest click, for one more edit of message ``message_id`` with its
        token; None once it has made `FOLLOWING_EDITS_PER_CLICK`, when its token nears
        expiry, or when the table has been posted again since."""
        key = (channel_id, gid)
        click = self._clicks.get(key)
        if click is None:
            return None
        interaction = click.interaction
        if message_id_of(interaction) != message_id or expiring(interaction) or not click.left:
            del self._clicks[key]
            return None
        click.left -= 1
        return interaction

    def forget_click(self, channel_id: int, gid: str) -> None:
        """Discord refused the click's token: the table's edits go through the channel."""
        self._clicks.pop((channel_id, gid), None)

    def _remember(self, key: TableKey, rev: int) -> None:
        self._shown[key] = rev
        self._shown.move_to_end(key)
        while len(self._shown) > self._remembered:
            self._shown.popitem(last=False)


def expiring(interaction: Interaction) -> bool:
    """Whether the interaction's token expires within `TOKEN_MARGIN`."""
    return datetime.now(UTC) >= interaction.expires_at - TOKEN_MARGIN
