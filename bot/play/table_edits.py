"""Table messages edited newest first and never backwards, outside the channel lock.

A click holds its channel's lock only until its move is saved (a compare-and-set on
the revision); drawing the new table and editing the message happen after, so the next
click in the channel need not wait for them. Two edits of one table can then be under
way at once, and the older one could land last and show a game that has moved on.
`TableEdits` orders them: the edits of one table run one at a time, and an edit whose
revision is older than one already shown is skipped (the newer picture stands).

It also remembers clicks on the table message for their tokens: such a token can edit
the message again (its ``@original``) through the interaction's webhook, which
Discord's global limit of 50 requests a second for the bot token doesn't count.
- Each table's latest click (`remember_click`): the computer moves that answer it are
  shown with its token, up to `FOLLOWING_EDITS_PER_CLICK` of them.
- Each player's latest click on the table (`remember_opener`): the one that opened
  their private panel, or their latest move there. The moves they make on the panel or
  by a command are shown with its token, at most one edit every `OPENER_EDIT_SECONDS`;
  and so are the computer moves that answer such a move, at the same pace.

This is per process: the edits of a server's tables all come from the process that
serves its shard (clicks, computer moves and clocks alike). A remembered click is only
a cheaper way to send an edit, never something pending: without one (another process,
a restart, a token about to expire) the edit goes through the channel.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.engines.base import PlayerId
from bot.play.interactions import Interaction, message_id_of

REMEMBERED_TABLES = 10_000
"""Tables whose newest shown revision is kept; the least recently edited go first (an
edit that old has long been overtaken)."""

REMEMBERED_CLICKS = 2_000
"""Clicks kept for their tokens (each table's latest, each player's latest): the least
recently kept go first, and the edits they would have made go through the channel."""
FOLLOWING_EDITS_PER_CLICK = 3
"""Edits a click's token makes after its own: an interaction's webhook takes 5 requests
in 2 s (each token its own bucket), and a click's own edit and three more stay under
that however fast they come. The computer moves that answer a click are rarely more;
beyond them, edits go through the channel."""
OPENER_EDIT_SECONDS = 1.0
"""A player's click on the table edits it at most once in this long for their later
moves: its webhook takes 5 requests in 2 s, and the panel's own edits may use the same
token until the player first clicks on the panel (at most one a second,
`EDIT_DELAY_SECONDS`), so two table edits and two panel edits in 2 s stay under it. (A
move's click that is also the table's latest adds its own edit and up to
`FOLLOWING_EDITS_PER_CLICK`: five at most.) A move made sooner waits for the token
(`token_wait`), as an edit through the channel waits for its limit, and a later move
overtaking it in the meantime shows both."""
TOKEN_MARGIN = timedelta(minutes=1)
"""A click's token is used until this long before it expires (15 minutes after the
click), so an edit under way never meets an expired token."""

TableKey = tuple[int, str]
"""(channel id, game id): revisions count anew in each game of a channel."""


ClickKey = tuple[int, str, PlayerId | None]
"""(channel id, game id, the player whose latest click on the table it is, or None for
the table's latest click)."""


@dataclass(frozen=True)
class ClickToken:
    """What editing a click's message through its token takes: a few strings, not the
    `Interaction` itself (which holds its whole message and payload)."""

    application_id: int
    token: str
    message_id: int
    expires_at: datetime

    @classmethod
    def of(cls, interaction: Interaction) -> ClickToken | None:
        message_id = message_id_of(interaction)
        if message_id is None:
            return None
        return cls(
            interaction.application_id, interaction.token, message_id, interaction.expires_at
        )


@dataclass
class _Click:
    """A click on the table message kept for its token: how many more edits it may make
    (None: a player's latest click, limited by time instead), and when it last made
    one."""

    token: ClickToken
    left: int | None
    used_at: float


class TableEdits:
    """The newest revision shown per table, and a lock per table for its edits."""

    def __init__(
        self, remembered: int = REMEMBERED_TABLES, now: Callable[[], float] = time.monotonic
    ) -> None:
        """``now``: the clock that paces a player's click (`OPENER_EDIT_SECONDS`)."""
        self._remembered = remembered
        self._now = now
        self._shown: OrderedDict[TableKey, int] = OrderedDict()
        self._locks: dict[TableKey, asyncio.Lock] = {}
        self._users: dict[TableKey, int] = {}
        """Edits holding or waiting for each table's lock: it goes when the last ends."""
        self._asked: dict[TableKey, int] = {}
        """The newest revision among each table's edits under way (goes with its lock)."""
        self._clicks: OrderedDict[ClickKey, _Click] = OrderedDict()
        """Per table, its latest click (player None) and each player's latest click."""

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

    def remember_click(self, channel_id: int, gid: str, click: ClickToken) -> None:
        """``click``, on the table message and answered with a deferred update, edits
        that message again for the moves that follow it (`click_for`)."""
        self._keep((channel_id, gid, None), click, FOLLOWING_EDITS_PER_CLICK)

    def remember_opener(
        self, channel_id: int, gid: str, player: PlayerId, click: ClickToken
    ) -> None:
        """``click``, ``player``'s click on the table message answered with a deferred
        update (one that opened their panel as its ephemeral follow-up, or one
        of their moves), edits the table for the moves they make on the panel or by a
        command, and for those that answer them (`opener_for`)."""
        self._keep((channel_id, gid, player), click, None)

    def click_for(self, channel_id: int, gid: str, message_id: int) -> ClickToken | None:
        """The table's latest click, for one more edit of message ``message_id`` with its
        token; None once it has made `FOLLOWING_EDITS_PER_CLICK`, when its token nears
        expiry, or when the table has been posted again since. After a move shown
        through a player's latest click (`opener_for`), that click, at its pace."""
        return self._use((channel_id, gid, None), message_id)

    def opener_for(
        self, channel_id: int, gid: str, player: PlayerId, message_id: int
    ) -> ClickToken | None:
        """``player``'s latest click on the table, for one edit of message ``message_id``
        with its token: at most one every `OPENER_EDIT_SECONDS`, while the token lives
        and the table is still that message. The moves that answer this one (a
        computer's reply, `click_for`) then share the token and its pace."""
        key = (channel_id, gid, player)
        token = self._use(key, message_id)
        if token is not None:
            self._clicks[(channel_id, gid, None)] = self._clicks[key]
        return token

    def token_wait(self, channel_id: int, gid: str, player: PlayerId | None) -> float:
        """Seconds until ``player``'s latest click (None: the table's latest) may edit
        the table again: 0 now, when none is kept, or when it is counted in edits
        (`FOLLOWING_EDITS_PER_CLICK`) rather than paced."""
        click = self._clicks.get((channel_id, gid, player))
        if click is None or click.left is not None:
            return 0.0
        return max(0.0, click.used_at + OPENER_EDIT_SECONDS - self._now())

    def overtaken(self, channel_id: int, gid: str, rev: int) -> bool:
        """Whether an edit of a revision newer than ``rev`` is waiting for this table
        (it will show the newer picture; drawing ``rev`` first is wasted)."""
        return self._asked.get((channel_id, gid), 0) > rev

    def forget_click(self, channel_id: int, gid: str, player: PlayerId | None = None) -> None:
        """Discord refused the click's token: the table's edits go through the channel."""
        self._clicks.pop((channel_id, gid, player), None)

    def _keep(self, key: ClickKey, token: ClickToken, left: int | None) -> None:
        # Its own answer (the table's edit, or the panel it sent) used the token just now.
        self._clicks[key] = _Click(token, left, used_at=self._now())
        self._clicks.move_to_end(key)
        while len(self._clicks) > REMEMBERED_CLICKS:
            self._clicks.popitem(last=False)

    def _use(self, key: ClickKey, message_id: int) -> ClickToken | None:
        click = self._clicks.get(key)
        if click is None:
            return None
        token = click.token
        if token.message_id != message_id or expiring(token) or click.left == 0:
            del self._clicks[key]
            return None
        now = self._now()
        if click.left is None and now - click.used_at < OPENER_EDIT_SECONDS:
            return None  # this edit goes through the channel; the token stays for the next
        if click.left is not None:
            click.left -= 1
        click.used_at = now
        return token

    def _remember(self, key: TableKey, rev: int) -> None:
        self._shown[key] = rev
        self._shown.move_to_end(key)
        while len(self._shown) > self._remembered:
            self._shown.popitem(last=False)


def expiring(token: ClickToken) -> bool:
    """Whether the click's token expires within `TOKEN_MARGIN`."""
    return datetime.now(UTC) >= token.expires_at - TOKEN_MARGIN
