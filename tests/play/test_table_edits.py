"""`TableEdits`: a table's edits one at a time, never going back to an older revision;
and the clicks whose tokens edit it, within what an interaction's webhook takes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.play.table_edits import (
    FOLLOWING_EDITS_PER_CLICK,
    OPENER_EDIT_SECONDS,
    ClickToken,
    TableEdits,
)

TABLE_MESSAGE = 900


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


def click(token: str, message_id: int = TABLE_MESSAGE, minutes: float = 15) -> ClickToken:
    """A click on ``message_id`` whose token expires in ``minutes``."""
    return ClickToken(1, token, message_id, datetime.now(UTC) + timedelta(minutes=minutes))


async def test_an_older_revision_is_not_shown_after_a_newer_one() -> None:
    edits = TableEdits()
    async with edits.turn(1, "g", 5) as current:
        assert current
    async with edits.turn(1, "g", 4) as current:
        assert not current, "revision 4 would overwrite revision 5"
    async with edits.turn(1, "g", 5) as current:
        assert current, "the same revision may be drawn again (a redraw)"


async def test_each_game_and_channel_counts_its_own_revisions() -> None:
    edits = TableEdits()
    async with edits.turn(1, "old", 9) as current:
        assert current
    async with edits.turn(1, "rematch", 1) as current:
        assert current, "a new game in the channel starts again at revision 1"
    async with edits.turn(2, "old", 1) as current:
        assert current


async def test_edits_of_one_table_run_one_at_a_time_and_in_order() -> None:
    edits = TableEdits()
    shown: list[int] = []
    first_inside = asyncio.Event()

    async def edit(rev: int, hold: asyncio.Event | None = None) -> None:
        async with edits.turn(1, "g", rev) as current:
            if hold is not None:
                first_inside.set()
                await hold.wait()
            if current:
                shown.append(rev)

    release = asyncio.Event()
    slow_old = asyncio.create_task(edit(3, release))
    await first_inside.wait()
    newer = asyncio.create_task(edit(4))
    await asyncio.sleep(0)
    assert shown == [], "the newer edit waits for the one under way"
    release.set()
    await asyncio.gather(slow_old, newer)
    assert shown == [3, 4]
    assert not edits._locks, "no lock is kept once a table's edits are done"


async def test_it_remembers_a_bounded_number_of_tables() -> None:
    edits = TableEdits(remembered=2)
    for channel in (1, 2, 3):
        async with edits.turn(channel, "g", 7):
            pass
    async with edits.turn(1, "g", 6) as current:
        assert current, "the least recently edited table was forgotten"
    async with edits.turn(3, "g", 6) as current:
        assert not current


async def test_moves_made_while_a_table_is_drawn_cost_one_more_drawing() -> None:
    """Revisions 4 and 5 wait while 3 is drawn: 4 is skipped (5 is on its way), so the
    table is drawn twice, not three times, and ends on the newest."""
    edits = TableEdits()
    shown: list[int] = []
    first_inside = asyncio.Event()
    release = asyncio.Event()

    async def edit(rev: int, hold: bool = False) -> None:
        async with edits.turn(1, "g", rev) as current:
            if hold:
                first_inside.set()
                await release.wait()
            if current:
                shown.append(rev)

    drawing = asyncio.create_task(edit(3, hold=True))
    await first_inside.wait()
    waiting = [asyncio.create_task(edit(4)), asyncio.create_task(edit(5))]
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(drawing, *waiting)
    assert shown == [3, 5]
    assert not edits._asked, "nothing is kept once a table's edits are done"


async def test_a_table_is_behind_only_with_no_edit_under_way() -> None:
    edits = TableEdits()
    assert edits.behind(1, "g", 1), "nothing shown here yet"
    async with edits.turn(1, "g", 2):
        assert not edits.behind(1, "g", 3), "an edit is under way"
    assert edits.behind(1, "g", 3) and not edits.behind(1, "g", 2)


async def test_a_forgotten_table_can_be_drawn_at_an_older_revision() -> None:
    """A failover lost the revision shown: once forgotten, the stored (older) one is
    behind again and may be drawn."""
    edits = TableEdits()
    async with edits.turn(1, "g", 5):
        pass
    assert not edits.behind(1, "g", 4)
    edits.forget(1, "g")
    assert edits.behind(1, "g", 4)
    async with edits.turn(1, "g", 4) as current:
        assert current


def test_a_click_s_token_makes_a_few_follow_up_edits_then_none() -> None:
    edits = TableEdits()
    edits.remember_click(1, "g", click("start"))
    used = [edits.click_for(1, "g", TABLE_MESSAGE) for _ in range(FOLLOWING_EDITS_PER_CLICK + 1)]
    assert [u.token if u else None for u in used] == ["start"] * FOLLOWING_EDITS_PER_CLICK + [None]
    assert edits.token_wait(1, "g", None) == 0, "a counted click is not paced"


def test_a_token_near_its_end_or_for_another_message_is_not_used() -> None:
    edits = TableEdits()
    edits.remember_click(1, "g", click("old", minutes=0.5))
    assert edits.click_for(1, "g", TABLE_MESSAGE) is None
    edits.remember_click(1, "g", click("elsewhere", message_id=TABLE_MESSAGE + 1))
    assert edits.click_for(1, "g", TABLE_MESSAGE) is None


def test_a_player_s_typed_moves_and_their_replies_share_their_click_at_its_pace() -> None:
    """A player's move by a command goes through their latest click on the table, at most
    once every `OPENER_EDIT_SECONDS`; the computer's reply to it then uses the same
    token at the same pace, not the table's older click."""
    clock = Clock()
    edits = TableEdits(now=clock)
    edits.remember_click(1, "g", click("start"))
    edits.remember_opener(1, "g", "alice", click("start"))
    assert edits.token_wait(1, "g", "alice") == OPENER_EDIT_SECONDS, "its own edit used it"
    assert edits.opener_for(1, "g", "alice", TABLE_MESSAGE) is None, "too soon"
    clock.advance(OPENER_EDIT_SECONDS)
    typed = edits.opener_for(1, "g", "alice", TABLE_MESSAGE)
    assert typed is not None and typed.token == "start"
    clock.advance(0.25)
    assert edits.token_wait(1, "g", None) == OPENER_EDIT_SECONDS - 0.25, "the reply waits"
    assert edits.click_for(1, "g", TABLE_MESSAGE) is None, "not sooner"
    clock.advance(OPENER_EDIT_SECONDS - 0.25)
    reply = edits.click_for(1, "g", TABLE_MESSAGE)
    assert reply is not None and reply.token == "start"
    assert edits.token_wait(1, "g", "alice") == OPENER_EDIT_SECONDS, "one pace for both"


def test_a_new_click_on_the_table_takes_over_the_replies() -> None:
    clock = Clock()
    edits = TableEdits(now=clock)
    edits.remember_opener(1, "g", "alice", click("hand"))
    clock.advance(OPENER_EDIT_SECONDS)
    assert edits.opener_for(1, "g", "alice", TABLE_MESSAGE) is not None
    edits.remember_click(1, "g", click("bernd's move"))
    assert edits.token_wait(1, "g", None) == 0
    follow_up = edits.click_for(1, "g", TABLE_MESSAGE)
    assert follow_up is not None and follow_up.token == "bernd's move"
