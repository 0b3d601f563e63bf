"""Private panels that stay current: each open panel is edited when its player's view
changes, for as long as Discord lets the bot edit it.

An ephemeral message can only be edited through the token of the interaction that
made it (or of a later click on it), and Discord honours that token for 15 minutes.
So every panel the bot sends or redraws is remembered in Redis with its token, under
a key that expires a little before the token does: a restart keeps the panels live, and
no token outlives its use. Tokens are never logged.

After a move, `PanelKeeper.refresh` edits the other players' panels a second later, or
at once when the game now waits for one of them (their turn shows without delay).
Edits for one table are coalesced: while one round is waiting or on its way, later
moves only mark more panels stale, and the next round draws the game as Redis holds it
then. A round reads the table's panel records and the stored game's revision in one
call, whatever the number of players; it draws the newest move this process handed it
when that is the stored revision, and loads the game only when it isn't (a move saved
by another process). It edits each panel under that panel's own lock; a panel its
player's own click showed since the round read its record is left to that click. A
panel isn't edited when its player's view didn't change, nor when it would show the
same as before (`shown_fingerprint`): most moves change nothing on the other players'
panels in a game whose panel shows only their own cards and chips.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from pydantic import BaseModel

from bot.engines.base import PlayerId
from bot.i18n import Lang, tr
from bot.storage.errors import StoreError
from bot.storage.panels import OpenPanel, PanelRecords
from bot.storage.tables import Stored
from bot.table import Table
from bot.texts import Picks

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.play.game_commands import GameCommands
    from bot.play.messages import TableMessage

log = logging.getLogger(__name__)

TOKEN_LIFE_SECONDS = 15 * 60
"""How long Discord honours an interaction token."""
SAFETY_SECONDS = 30
"""A panel is forgotten this long before its token dies, so no edit is refused late."""
RETIRED_COLOUR = 0x95A5A6
REMEMBERED_PANELS = 10_000
"""Open panels whose last showing by their player's own click is kept (the least
recently shown go first: an edit round lasts seconds, far less than it takes 10,000
other panels to be shown)."""
EDIT_DELAY_SECONDS = 1.0
"""A panel is edited this long after a move, so a burst of moves (a computer's turns,
quick players) costs one edit, and Discord's rate limits are never approached. A move
that hands the turn to a player with an open panel doesn't wait: one edit a turn stays
far inside the 5 edits in 2 s that Discord allows an interaction's token."""


def view_hash(view: BaseModel) -> str:
    return hashlib.blake2b(view.model_dump_json().encode(), digest_size=12).hexdigest()


REVISION = re.compile(r"^([gs]:[^:]+:[^:]+:)\d+")
"""A game component's custom_id up to its revision (`bot.play.components`)."""


def shown_fingerprint(message: TableMessage) -> str:
    """What a panel shows: its embed, its controls with their custom_ids' revisions left
    out (a click on a panel counts at any revision of its game, `bot.play.verbs`), and
    its image."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update(json.dumps(message.embed.to_dict(), sort_keys=True).encode())
    controls = _without_revisions(message.view.to_components())
    digest.update(json.dumps(controls, sort_keys=True).encode())
    digest.update(message.png or b"")
    return digest.hexdigest()


def _without_revisions(component: Any) -> Any:
    if isinstance(component, list):
        return [_without_revisions(item) for item in component]
    if isinstance(component, dict):
        return {
            key: REVISION.sub(r"\g<1>", value) if key == "custom_id" else _without_revisions(value)
            for key, value in component.items()
        }
    return component


def editable_until(now: float) -> float:
    """When the bot stops editing a panel shown by an interaction that arrived ``now``."""
    return now + TOKEN_LIFE_SECONDS - SAFETY_SECONDS


@dataclass(frozen=True)
class SavedMove:
    """A move as it was saved: the table and the game's state at revision ``rev``."""

    table: Table
    state: BaseModel
    rev: int


class PendingEdits:
    """One table's panels waiting for an edit round: those a move made stale, and among
    them the players the game now waits for, whose panels don't wait out the delay; and
    the newest move of the game handed in (rounds edit only that game's panels)."""

    def __init__(self, latest: SavedMove) -> None:
        self.latest = latest
        self.stale: set[PlayerId] = set()
        self._waited_for: set[PlayerId] = set()
        self._wake = asyncio.Event()
        """Set when `_waited_for` gains someone."""

    def mark(self, move: SavedMove, people: set[PlayerId], waiting: frozenset[PlayerId]) -> None:
        if move.table.gid == self.latest.table.gid and move.rev > self.latest.rev:
            self.latest = move
        self.stale |= people
        if people & waiting:
            self._waited_for |= people & waiting
            self._wake.set()

    async def next_round(self) -> set[PlayerId]:
        """Whose panels to edit next (no longer stale): once `EDIT_DELAY_SECONDS` are
        over, every stale one; as soon as the game waits for a stale panel's player,
        theirs alone."""
        try:
            await asyncio.wait_for(self._wake.wait(), EDIT_DELAY_SECONDS)
        except TimeoutError:
            early = False
        else:
            early = True
        self._wake.clear()
        waited_for, self._waited_for = self._waited_for, set()
        people = waited_for & self.stale if early else set(self.stale)
        self.stale -= people
        return people


class PanelKeeper:
    """Remembers open panels in Redis and edits them when their player's view changes."""

    def __init__(self, bot: TableBot, records: PanelRecords) -> None:
        self.bot = bot
        self.records = records
        self._pending: dict[int, PendingEdits] = {}
        """Per channel with panel edits waiting or on their way."""
        self._shown_by_click: OrderedDict[tuple[int, PlayerId], int] = OrderedDict()
        """Per open panel, when its player's own interaction last showed it (a tick of
        `_ticks`): an edit whose record was read before that is dropped."""
        self._ticks = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._locks: weakref.WeakValueDictionary[tuple[int, PlayerId], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def lock(self, channel_id: int, player: PlayerId) -> asyncio.Lock:
        """One lock per open panel: held while the bot edits it, and while the player's
        own click on it is answered."""
        place = (channel_id, player)
        lock = self._locks.get(place)
        if lock is None:
            lock = self._locks[place] = asyncio.Lock()
        return lock

    async def remember(
        self,
        interaction: discord.Interaction[Any],
        player: PlayerId,
        message_id: int,
        view: BaseModel,
        lang: Lang,
        picks: Picks,
        *,
        shown: TableMessage,
        expires: float,
    ) -> None:
        """``interaction`` showed ``player`` their panel (``shown``, drawn from ``view``
        in their language, saying it updates itself until ``expires``) in message
        ``message_id``, with ``picks`` chosen in its selects."""
        ttl = expires - await self.bot.clock.now()
        if interaction.channel_id is None or ttl <= 0:
            return
        panel = OpenPanel(
            application_id=interaction.application_id,
            token=interaction.token,
            message_id=message_id,
            lang=lang,
            expires=expires,
            view_hash=view_hash(view),
            shown_hash=shown_fingerprint(shown),
            picks=dict(picks),
        )
        try:
            replaced = await self.records.put(
                interaction.guild_id or 0, interaction.channel_id, player, panel, int(ttl * 1000)
            )
        except StoreError as error:
            log.info("Panel of %s not remembered: %s", player, type(error).__name__)
            return
        finally:  # once stored: a round that read the record before must not write it back
            self._note_shown_by_click(interaction.channel_id, player)
        if replaced is not None and replaced.message_id != message_id:
            self._run(self._retire(replaced))

    def _note_shown_by_click(self, channel_id: int, player: PlayerId) -> None:
        place = (channel_id, player)
        self._shown_by_click[place] = next(self._ticks)
        self._shown_by_click.move_to_end(place)
        while len(self._shown_by_click) > REMEMBERED_PANELS:
            self._shown_by_click.popitem(last=False)

    def _run(self, job: Coroutine[Any, Any, None]) -> None:
        if self._closed:  # the bot is closing: its HTTP session may be gone already
            job.close()
            return
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _retire(self, panel: OpenPanel) -> None:
        """A newer panel replaced ``panel``: edit it once to say so, without its controls,
        so no panel claims to be live when it isn't."""
        note = tr(panel.lang, "This panel was replaced by a newer one; use that one.")
        embed = discord.Embed(description=note, colour=RETIRED_COLOUR)
        webhook = self.bot.interaction_webhook(panel.application_id, panel.token)
        try:
            await webhook.edit_message(panel.message_id, embed=embed, view=None, attachments=[])
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Replaced panel not retired: %s", type(error).__name__)

    def refresh(
        self,
        table: Table,
        state: BaseModel,
        rev: int,
        *,
        except_player: PlayerId | None = None,
        waiting: frozenset[PlayerId] = frozenset(),
    ) -> None:
        """Edit, in the background, the open panels of the people at ``table``, saved at
        revision ``rev`` with ``state`` (kept and read later: the caller doesn't change
        them after), but ``except_player``'s, whose panel the interaction itself
        redraws; without the delay if the game now waits for one of them (``waiting``)."""
        people = {
            seat.id for seat in table.seats if not seat.is_computer and seat.id != except_player
        }
        if not people or self._closed:
            return
        move = SavedMove(table, state, rev)
        pending = self._pending.get(table.channel_id)
        if pending is None:
            pending = self._pending[table.channel_id] = PendingEdits(move)
            self._run(self._keep_current(table.channel_id, pending))
        pending.mark(move, people, waiting)

    async def close(self) -> None:
        """Cancel the panel edits under way and wait until they have stopped, and start
        none after: the bot closes its HTTP session next, and an edit started after that
        fails. Nothing is lost: a panel shows the game again at the next move or click."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _keep_current(self, channel: int, pending: PendingEdits) -> None:
        """Edit the table's stale panels a moment after a move (those of the players the
        game now waits for at once), again while later moves mark more of them stale,
        and stop once none is."""
        try:
            while pending.stale:
                people = sorted(await pending.next_round())
                await self._edit_panels(pending.latest, people)
        except StoreError as error:
            log.info("Panels in %s not refreshed: %s", channel, type(error).__name__)
        finally:
            del self._pending[channel]

    async def _edit_panels(self, latest: SavedMove, people: list[PlayerId]) -> None:
        """Redraw the open panels of ``people`` whose view changed, from one read of
        their records and the stored game's revision, and of the game as Redis holds it
        now (``latest``, the newest move handed in, when it is that). Each panel is
        edited under its own lock, so a player's click on it waits for that edit only."""
        guild, channel = latest.table.guild_id, latest.table.channel_id
        read_at = next(self._ticks)
        panels, game = await self.records.get_many_and_game(guild, channel, people)
        now = await self.bot.clock.now()  # an expired record is skipped (Redis drops it)
        panels = {player: panel for player, panel in panels.items() if panel.expires > now}
        if not panels or game is None:
            return
        game_commands = self.bot.games.get(latest.table.game)
        if game_commands is None:
            return
        if game == (latest.rev, latest.table.gid):
            stored, state = Stored(latest.table, latest.rev), latest.state
        else:
            loaded = await self._load_game(game_commands, latest.table)
            if loaded is None:
                return
            stored, state = loaded
        edits = [
            self._edit_locked(game_commands, stored, state, player, panel, read_at)
            for player, panel in panels.items()
        ]
        for failed in await asyncio.gather(*edits, return_exceptions=True):
            if isinstance(failed, StoreError):
                log.info("A panel in %s not refreshed: %s", channel, type(failed).__name__)
            elif isinstance(failed, Exception):  # a bug: logged whole, the others go on
                log.error("A panel in %s not refreshed", channel, exc_info=failed)

    async def _edit_locked(
        self,
        game_commands: GameCommands,
        stored: Stored,
        state: BaseModel,
        player: PlayerId,
        panel: OpenPanel,
        read_at: int,
    ) -> None:
        """`_edit_one` under the panel's lock, unless the player's own click showed the
        panel after its record was read at tick ``read_at`` (the click drew the game as
        it is; the record read is outdated, and writing it back would lose the click's)."""
        table = stored.table
        place = (table.channel_id, player)
        async with self.lock(*place):
            if self._shown_by_click.get(place, 0) > read_at:
                return
            edited = await self._edit_one(game_commands, stored, state, player, panel)
            if edited is None or self._shown_by_click.get(place, 0) > read_at:
                return
            ttl_ms = int((edited.expires - await self.bot.clock.now()) * 1000)
            if ttl_ms > 0:
                await self.records.put(table.guild_id, *place, edited, ttl_ms)

    async def _edit_one(
        self,
        game_commands: GameCommands,
        stored: Stored,
        state: BaseModel,
        player: PlayerId,
        panel: OpenPanel,
    ) -> OpenPanel | None:
        """Redraw ``player``'s panel if it would show something new; the panel record to
        keep (with the new hashes), or None if nothing changed or it can't be edited."""
        table = stored.table
        seen = view_hash(game_commands.engine.view(state, player))
        if seen == panel.view_hash:
            return None
        message = await game_commands.messages.panel(
            table, stored.rev, state, player, panel.picks, panel.lang, expires=panel.expires
        )
        shown = shown_fingerprint(message)
        if shown == panel.shown_hash:
            return None
        webhook = self.bot.interaction_webhook(panel.application_id, panel.token)
        try:
            await webhook.edit_message(
                panel.message_id,
                embed=message.embed,
                view=message.view,
                attachments=message.files(),
            )
        except discord.HTTPException as error:  # the token died early, or the panel is gone
            log.info("Panel of %s not edited: %s %s", player, error.status, error.code)
            await self.records.forget(table.guild_id, table.channel_id, player)
            return None
        except aiohttp.ClientError as error:  # Discord unreachable: the next move tries again
            log.info("Panel of %s not edited: %s", player, type(error).__name__)
            return None
        return panel.model_copy(update={"view_hash": seen, "shown_hash": shown})

    async def _load_game(
        self, game_commands: GameCommands, table: Table
    ) -> tuple[Stored, BaseModel] | None:
        """The game at ``table`` as Redis holds it now, with its state; None if a new
        game replaced it, or none is running."""
        stored = await self.bot.store.load(table.guild_id, table.channel_id)
        if stored is None or stored.table.gid != table.gid or stored.table.state is None:
            return None
        return stored, game_commands.engine.State.model_validate(stored.table.state)
