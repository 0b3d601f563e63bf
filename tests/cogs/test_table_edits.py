"""`TableEdits`: a table's edits one at a time, never going back to an older revision."""

from __future__ import annotations

import asyncio

from bot.cogs.table_edits import TableEdits


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
