"""Table messages edited newest first and never backwards, outside the channel lock.

A click holds its channel's lock only until its move is saved (a compare-and-set on
the revision); drawing the new table and editing the message happen after, so the next
click in the channel need not wait for them. Two edits of one table can then be under
way at once, and the older one could land last and show a game that has moved on.
`TableEdits` orders them: the edits of one table run one at a time, and an edit whose
revision is older than one already shown is skipped (the newer picture stands).

This is per process: the edits of a server's tables all come from the process that
serves its shard (clicks, computer moves and clocks alike).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

REMEMBERED_TABLES = 10_000
"""Tables whose newest shown revision is kept; the least recently edited go first (an
edit that old has long been overtaken)."""

TableKey = tuple[int, str]
"""(channel id, game id): revisions count anew in each game of a channel."""


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

    def _remember(self, key: TableKey, rev: int) -> None:
        self._shown[key] = rev
        self._shown.move_to_end(key)
        while len(self._shown) > self._remembered:
            self._shown.popitem(last=False)
