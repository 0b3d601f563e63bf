"""Tournaments through the fake Discord: sign-up, a thread per table, results as games
end, the next round paired, final standings; a no-show's forfeit; a restart mid-round;
a thread the bot may not open."""

from __future__ import annotations

import asyncio
import json
import re
import signal
from collections.abc import Awaitable, Callable, Sequence
from functools import partial

import pytest

from bot.storage.clients import client_for_url, close_client
from bot.storage.keys import table_key, tournament_key
from bot.storage.tournaments import TournamentStore
from bot.tournament import Tournament, standings
from tests.e2e.tables import CLOCK_KEY
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory, BotProcess
from tests.harness.models import FakeMessage, FakeThread, FakeUser
from tests.harness.permissions import CREATE_PUBLIC_THREADS


def tournament_id(signup: FakeMessage) -> str:
    """The tournament's id, as its sign-up buttons carry it (``t:<id>:<verb>``)."""
    found = re.search(r'"t:([0-9a-f]{8}):join"', json.dumps(signup.components))
    assert found, "the sign-up message has no Join button"
    return found[1]


async def stored_tournament(driver: Driver, redis_server: str, tid: str) -> Tournament:
    client = client_for_url(redis_server)
    try:
        found = await TournamentStore(client, keep_days=1).load(driver.fake.guild_id, tid)
        assert found is not None, f"tournament {tid} isn't stored"
        return found
    finally:
        await close_client(client)


async def stored_once(
    driver: Driver, redis_server: str, tid: str, ready: Callable[[Tournament], bool]
) -> Tournament:
    """The stored tournament once ``ready`` says so (polled: a save has no message to
    wait for), within the driver's timeout."""
    deadline = asyncio.get_running_loop().time() + driver.timeout
    while True:
        tournament = await stored_tournament(driver, redis_server, tid)
        if ready(tournament):
            return tournament
        assert asyncio.get_running_loop().time() < deadline, "the stored tournament never got there"
        await asyncio.sleep(0.05)


async def sign_up(
    driver: Driver, organiser: FakeUser, people: Sequence[FakeUser], **options: object
) -> FakeMessage:
    signup = (await driver.slash(organiser, "tournament create", options=options)).message
    assert "Sign-up is open" in signup.text
    for person in people:
        await driver.click(person, signup, "Join")
    return signup


async def four_at_two_tables(driver: Driver) -> str:
    """Alice's two-round draughts Swiss of four, started, its two tables opened: its id."""
    alice, bernd, chloe, dmitri = (driver.user(n) for n in ("alice", "bernd", "chloe", "dmitri"))
    signup = await sign_up(
        driver, alice, [alice, bernd, chloe, dmitri], game="draughts", rounds=2, round_minutes=60
    )
    tid = tournament_id(signup)  # before the start takes the sign-up's buttons away
    await driver.click(alice, signup, "Start")
    await driver.wait_for(partial(round_opened, driver, 1, 2), what="two tables")
    return tid


def final_standings_posted(driver: Driver) -> bool:
    return any("Final standings" in m.text for m in driver.messages(driver.channel))


def round_opened(driver: Driver, number: int, tables: int) -> bool:
    return len(threads_of_round(driver, number)) == tables


def threads_of_round(driver: Driver, number: int) -> list[FakeThread]:
    return [
        thread
        for thread in driver.fake.threads.values()
        if thread.parent_id == driver.channel and f"round {number} ·" in thread.name
    ]


def pinged(driver: Driver, thread: FakeThread) -> list[FakeUser]:
    """The people the thread's table message mentions: its players, pinged there once."""
    content = table_in(driver, thread).content or ""
    return [u for u in driver.users if f"<@{u.id}>" in content]


def table_in(driver: Driver, thread: FakeThread) -> FakeMessage:
    messages = [m for m in driver.messages(thread.id) if m.components]
    assert messages, f"no table in thread {thread.name}"
    return messages[0]


async def resign_at_every_table(driver: Driver, number: int, expected_tables: int) -> None:
    """At each table of round ``number`` the first person mentioned resigns."""
    await driver.wait_for(
        partial(round_opened, driver, number, expected_tables),
        what=f"the {expected_tables} threads of round {number}",
    )
    for thread in threads_of_round(driver, number):
        await driver.wait_for(partial(driver.messages, thread.id), what="a table")
        mentioned = pinged(driver, thread)
        assert mentioned, f"nobody was pinged at {thread.name}"
        await driver.slash(mentioned[0], "draughts leave", channel=thread.id)


async def test_a_swiss_of_draughts_runs_from_sign_up_to_final_standings(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    alice, bernd, chloe, dmitri = (driver.user(n) for n in ("alice", "bernd", "chloe", "dmitri"))
    signup = await sign_up(
        driver, alice, [alice, bernd, chloe, dmitri], game="draughts", rounds=2, round_minutes=60
    )
    tid = tournament_id(signup)
    await driver.click(alice, signup, "Start")

    await resign_at_every_table(driver, 1, expected_tables=2)
    await resign_at_every_table(driver, 2, expected_tables=2)
    await driver.wait_for(
        partial(final_standings_posted, driver),
        what="the final standings",
    )
    tournament = await stored_tournament(driver, redis_server, tid)
    assert tournament.state == "finished"
    first, second = (tuple(sorted(t.seats)) for t in tournament.rounds[0].tables)
    again = {tuple(sorted(t.seats)) for t in tournament.rounds[1].tables}
    assert not again & {first, second}, "no pair meets twice in four players' two rounds"

    listed = (await driver.slash(bernd, "history", player=chloe)).ephemeral
    line = next(row for row in listed.text.splitlines() if tid in row)  # bernd reads German
    assert line.startswith("**Turnier: ") and line.count(". ") == 3, "the podium's three"
    assert listed.text.count("\n") >= 4, "chloe's two games are listed with the tournament"
    final = (await driver.slash(dmitri, "replay", game_id=tid)).ephemeral
    assert "Final standings" in final.text and final.filenames == ["standings.png"]


def pairs_of(tournament: Tournament) -> list[tuple[str, ...]]:
    return [tuple(sorted(t.seats)) for r in tournament.rounds for t in r.tables]


@pytest.mark.members(15)
async def test_a_sixteen_player_swiss_with_a_computer_in_the_odd_seat_plays_four_rounds(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    people = list(driver.users)
    organiser = people[0]
    signup = await sign_up(driver, organiser, people, game="draughts", rounds=4, round_minutes=60)
    tid = tournament_id(signup)
    await driver.click(organiser, signup, "Start")

    for number in range(1, 5):
        await resign_at_every_table(driver, number, expected_tables=8)
    await driver.wait_for(
        partial(final_standings_posted, driver),
        what="the final standings",
    )
    tournament = await stored_tournament(driver, redis_server, tid)
    assert tournament.state == "finished" and len(tournament.rounds) == 4
    assert sum(e.computer for e in tournament.entrants) == 1, "one computer fills the odd seat"
    pairs = pairs_of(tournament)
    assert len(pairs) == len(set(pairs)) == 32, "no two players meet twice"
    for played in tournament.rounds:
        seated = [p for t in played.tables for p in t.seats]
        assert sorted(seated) == sorted(e.id for e in tournament.entrants)
        assert all(t.result is not None for t in played.tables)
    final = next(m for m in driver.messages(driver.channel) if "Final standings" in m.text)
    assert final.text.count("\n") >= 16, "every entrant has a line in the final standings"
    assert final.filenames == ["standings.png"], "the final standings come with their picture"


def turn_of(driver: Driver, table: FakeMessage) -> FakeUser | None:
    mentioned = re.findall(r"<@(\d+)>", table.content or "")
    return next((u for u in driver.users if mentioned and str(u.id) == mentioned[-1]), None)


def redrawn(driver: Driver, thread: FakeThread, revision: int) -> bool:
    return table_in(driver, thread).revision != revision


async def play_out_by_taking(driver: Driver, thread: FakeThread) -> None:
    """Everyone at the Geschenkt table but one leaves (a computer takes each seat), and
    the one left takes every card offered until the game ends."""
    stays, *leaving = pinged(driver, thread)
    for person in leaving:
        await driver.slash(person, "geschenkt leave", channel=thread.id)
    for _ in range(200):
        table = table_in(driver, thread)
        if not any("Take" in str(row) for row in table.components):
            return
        if turn_of(driver, table) == stays:
            await driver.click(stays, table, "Take")
        else:
            await driver.wait_for(
                partial(redrawn, driver, thread, table.revision), what="the computers' moves"
            )
    raise AssertionError(f"the game in {thread.name} didn't end")


@pytest.mark.members(12)
async def test_a_twelve_player_geschenkt_tournament_plays_three_grouped_rounds(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    people = list(driver.users)
    signup = await sign_up(
        driver, people[0], people, game="geschenkt", rounds=3, options="tactical=yes"
    )
    assert "Tactical variant: yes" in signup.text, "every table's options, in words"
    tid = tournament_id(signup)
    await driver.click(people[0], signup, "Start")
    for number in range(1, 4):
        await driver.wait_for(partial(round_opened, driver, number, 3), what=f"round {number}")
        for thread in threads_of_round(driver, number):
            await driver.wait_for(partial(driver.messages, thread.id), what="a table")
            await play_out_by_taking(driver, thread)
    await driver.wait_for(
        partial(final_standings_posted, driver),
        what="the final standings",
    )
    tournament = await stored_tournament(driver, redis_server, tid)
    assert tournament.state == "finished" and tournament.format == "groups"
    assert all(len(t.seats) == 4 for r in tournament.rounds for t in r.tables)
    assert not any(e.computer for e in tournament.entrants), "12 sit at three tables of 4"
    assert tournament.options["tactical"] is True


async def test_a_no_show_forfeits_when_the_round_clock_runs_out(
    driver: Driver,
    bot_process: BotFactory,
    redis_server: str,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice, bernd, chloe, dmitri = (driver.user(n) for n in ("alice", "bernd", "chloe", "dmitri"))
    signup = await sign_up(
        driver, alice, [alice, bernd, chloe, dmitri], game="draughts", rounds=1, round_minutes=10
    )
    tid = tournament_id(signup)
    await driver.click(alice, signup, "Start")
    await driver.wait_for(lambda: len(threads_of_round(driver, 1)) == 2, what="two tables")
    shows, _ = threads_of_round(driver, 1)
    await driver.wait_for(lambda: bool(driver.messages(shows.id)), what="a table")
    mentioned = pinged(driver, shows)
    await driver.slash(mentioned[0], "draughts leave", channel=shows.id)

    await move_clock(601)
    await driver.wait_for(
        partial(final_standings_posted, driver),
        what="the round clock to end the round",
    )
    tournament = await stored_tournament(driver, redis_server, tid)
    late = next(t for t in tournament.rounds[0].tables if t.result and t.result.forfeits)
    assert late.result is not None and set(late.result.forfeits) == set(late.seats)
    played = next(t for t in tournament.rounds[0].tables if t is not late)
    assert played.result is not None and not played.result.forfeits


async def test_a_restart_mid_round_loses_no_result(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    bot = await bot_process("bot")
    tid = await four_at_two_tables(driver)
    first, second = threads_of_round(driver, 1)
    await driver.wait_for(lambda: bool(driver.messages(first.id)), what="a table")
    mentioned = pinged(driver, first)
    await driver.slash(mentioned[0], "draughts leave", channel=first.id)

    await bot.restart()
    await driver.wait_for(lambda: bool(driver.messages(second.id)), what="a table")
    mentioned = [
        u for u in driver.users if f"<@{u.id}>" in (table_in(driver, second).content or "")
    ]
    await driver.slash(mentioned[0], "draughts leave", channel=second.id)
    await driver.wait_for(lambda: len(threads_of_round(driver, 2)) == 2, what="round 2, once")
    tournament = await stored_once(driver, redis_server, tid, lambda t: len(t.rounds) == 2)
    assert all(t.result for t in tournament.rounds[0].tables)
    await driver.settle()
    assert len(threads_of_round(driver, 2)) == 2, "round 2 was paired once"


async def test_the_move_that_ends_a_round_is_answered_before_the_next_round_is_dealt(
    driver: Driver, bot_process: BotFactory
) -> None:
    """Ending a round's last game pairs the next round, opens its threads, deals it and
    posts the standings: more than Discord waits for an answer when Discord is slow. So
    the move is answered first, and the tournament moves on after it. Here Discord
    takes 2 s to open each thread."""
    await bot_process("bot")
    await four_at_two_tables(driver)
    first, second = threads_of_round(driver, 1)
    for thread in (first, second):
        await driver.wait_for(partial(driver.messages, thread.id), what="a table")
    await driver.slash(pinged(driver, first)[0], "draughts leave", channel=first.id)
    driver.fake.answer_slowly("POST", "/channels/{channel_id}/threads", 2.0)
    leaver = pinged(driver, second)[0]
    left = await driver.slash(leaver, "draughts leave", channel=second.id)
    assert left.message.ephemeral_to == leaver.id
    await driver.wait_for(partial(round_opened, driver, 2, 2), what="round 2's two threads")


async def test_a_player_who_withdraws_is_not_paired_in_the_next_round(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    alice, bernd, chloe, dmitri = (driver.user(n) for n in ("alice", "bernd", "chloe", "dmitri"))
    stranger = driver.user("emma")
    signup = await sign_up(
        driver, alice, [alice, bernd, chloe, dmitri], game="draughts", rounds=2, round_minutes=60
    )
    tid = tournament_id(signup)
    early = (await driver.slash(dmitri, "tournament withdraw")).ephemeral
    assert "Leave" in early.text or "Verlassen" in early.text, "in the sign-up: the button"
    await driver.click(alice, signup, "Start")
    await driver.wait_for(partial(round_opened, driver, 1, 2), what="two tables")

    withdrawn = (await driver.slash(dmitri, "tournament withdraw")).ephemeral
    assert withdrawn.ephemeral_to == dmitri.id and "/draughts" in withdrawn.text
    again = (await driver.slash(dmitri, "tournament withdraw")).ephemeral
    assert again.text != withdrawn.text, "a second withdrawal is refused"
    outsider = (await driver.slash(stranger, "tournament withdraw")).ephemeral
    assert outsider.ephemeral_to == stranger.id
    tournament = await stored_tournament(driver, redis_server, tid)
    assert [e.id for e in tournament.entrants if e.withdrawn] == [str(dmitri.id)]

    await resign_at_every_table(driver, 1, expected_tables=2)
    await driver.wait_for(partial(round_opened, driver, 2, 1), what="round 2's one table")
    [table] = threads_of_round(driver, 2)
    await driver.wait_for(partial(driver.messages, table.id), what="a table")
    assert dmitri not in pinged(driver, table)
    tournament = await stored_tournament(driver, redis_server, tid)
    assert tournament.rounds[1].byes and str(dmitri.id) not in tournament.rounds[1].byes
    assert any(line.id == str(dmitri.id) for line in standings(tournament)), "still listed"


async def killed(bot: BotProcess) -> None:
    bot.kill()
    assert await bot.wait_exit() == -signal.SIGKILL


async def test_a_round_saved_but_never_dealt_is_dealt_after_a_restart(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    bot = await bot_process("bot")
    tid = await four_at_two_tables(driver)
    dealt_before = {thread.id for thread in threads_of_round(driver, 1)}
    for thread in threads_of_round(driver, 1):
        await driver.wait_for(partial(driver.messages, thread.id), what="a table")
    await killed(bot)

    # The crash came after the round was saved, before its second table was dealt.
    tournament = await stored_tournament(driver, redis_server, tid)
    undealt = tournament.rounds[0].tables[1]
    client = client_for_url(redis_server)
    try:
        store = TournamentStore(client, keep_days=1)
        thread_id = await store.thread_of(tournament, undealt.id)
        assert thread_id is not None
        await client.delete(table_key(driver.fake.guild_id, thread_id))
        await client.hdel(tournament_key(driver.fake.guild_id, tid), f"thread:{undealt.id}")
    finally:
        await close_client(client)

    await bot.restart()
    await driver.wait_for(partial(round_opened, driver, 1, 3), what="the undealt table's thread")
    [dealt] = [t for t in threads_of_round(driver, 1) if t.id not in dealt_before]
    await driver.wait_for(partial(driver.messages, dealt.id), what="the undealt table")
    assert sorted(u.id for u in pinged(driver, dealt)) == sorted(int(p) for p in undealt.seats)
    await driver.settle()
    assert len(threads_of_round(driver, 1)) == 3, "the dealt table was not dealt again"


async def test_a_result_not_counted_before_a_crash_is_counted_after_the_restart(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    bot = await bot_process("bot")
    tid = await four_at_two_tables(driver)
    first, second = threads_of_round(driver, 1)
    await driver.wait_for(partial(driver.messages, first.id), what="a table")
    await driver.slash(pinged(driver, first)[0], "draughts leave", channel=first.id)
    counted = await stored_once(
        driver, redis_server, tid, lambda t: t.rounds[0].tables[0].result is not None
    )
    await killed(bot)

    # The crash came after the first table's game ended, before its result was saved.
    tables = list(counted.rounds[0].tables)
    tables[0] = tables[0].model_copy(update={"result": None})
    lost = counted.model_copy(
        update={
            "rounds": (counted.rounds[0].model_copy(update={"tables": tuple(tables)}),),
            "revision": counted.revision + 1,
        }
    )
    client = client_for_url(redis_server)
    try:
        await TournamentStore(client, keep_days=1).save(lost, counted.revision)
    finally:
        await close_client(client)

    await bot.restart()
    await driver.wait_for(partial(driver.messages, second.id), what="a table")
    await driver.slash(pinged(driver, second)[0], "draughts leave", channel=second.id)
    # Round 2's threads are opened before the round is saved: wait for the save.
    tournament = await stored_once(driver, redis_server, tid, lambda t: len(t.rounds) == 2)
    assert tournament.rounds[0].tables[0].result == counted.rounds[0].tables[0].result


async def test_a_thread_refused_for_a_missing_permission_starts_nothing(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    fake = driver.fake
    await fake.set_permissions(driver.channel, fake.bot_user.id, deny=CREATE_PUBLIC_THREADS)
    alice, bernd = driver.user("alice"), driver.user("bernd")
    signup = await sign_up(driver, alice, [alice, bernd], game="draughts", rounds=1)
    tid = tournament_id(signup)

    refused = await driver.click(alice, signup, "Start", expect_change=False)

    assert "Create Public Threads" in refused.message.text
    assert refused.message.ephemeral_to == alice.id
    assert not fake.threads, "no thread was made"
    tournament = await stored_tournament(driver, redis_server, tid)
    assert tournament.state == "signup" and not tournament.rounds
