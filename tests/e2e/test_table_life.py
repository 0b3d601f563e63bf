"""Leaving a running game: a computer takes the seat (or, in draughts, the leaver
resigns), and the game goes on without waiting for the person who left."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial

import pytest

from bot.engines import draughts, geschenkt
from bot.storage.tables import GameStore
from bot.table_life import MISSED_TURNS_LIMIT
from tests.e2e.tables import CLOCK_KEY, drawn_after, drawn_at, stored_game
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, without_isolates

TURN = re.compile(r"<@(\d+)>, your turn\.")


async def test_a_player_who_leaves_is_replaced_by_a_computer(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    table: FakeMessage = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(bernd, table, "Join")
    await driver.click(chloe, table, "Join")
    await driver.click(alice, table, "Start")

    left = await driver.slash(bernd, "geschenkt leave")  # Bernd reads German
    assert "Computerspieler" in left.message.text and left.message.ephemeral_to == bernd.id
    stored = await stored_game(driver, store)
    seat = stored.table.seat_of(str(bernd.id))
    assert seat is not None and seat.left and seat.is_computer
    refused = await driver.click(bernd, table, "My hand")
    assert "Du hast diese Partie verlassen" in refused.message.text

    people = {str(alice.id), str(chloe.id)}
    for _ in range(300):
        stored = await stored_game(driver, store)
        state = geschenkt.ENGINE.State.model_validate(stored.table.state)
        if geschenkt.ENGINE.is_over(state):
            break
        (player,) = geschenkt.ENGINE.to_act(state)
        if player == str(bernd.id):  # the computer now playing Bernd's seat
            await driver.wait_for(drawn_after(table, stored.rev), what="the computer's move")
            continue
        assert player in people
        await driver.wait_for(drawn_at(table, stored.rev), what="the table")
        await driver.click(alice if player == str(alice.id) else chloe, table, "Take")
    else:
        pytest.fail("the game did not end")
    assert "🤖 Normal, for Bernd" in table.text


async def test_leaving_a_two_player_draughts_game_resigns_it(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table: FakeMessage = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.click(bernd, table, "Join")
    await driver.click(alice, table, "Start")

    left = await driver.slash(bernd, "draughts leave")
    assert left.message.text == "Du hast die Partie verlassen und damit verloren."
    stored = await stored_game(driver, store)
    view = draughts.ENGINE.view(draughts.ENGINE.State.model_validate(stored.table.state), None)
    assert view.over and view.winner == str(alice.id) and view.reason == "resignation"
    assert stored.table.phase == "over"


async def test_a_computer_turn_pending_at_a_crash_is_played_after_the_restart(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    # Computers wait 30 s (the most allowed) before moving: one is pending at the crash.
    bot = await bot_process("bot", env={"COMPUTER_PAUSE_SECONDS": "30"})
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table: FakeMessage = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(bernd, table, "Join")
    await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.click(alice, table, "Start")
    for _ in range(60):
        stored = await stored_game(driver, store)
        state = geschenkt.ENGINE.State.model_validate(stored.table.state)
        (player,) = geschenkt.ENGINE.to_act(state)
        if player.startswith("ai:"):
            break
        user = alice if player == str(alice.id) else bernd
        await driver.click(user, table, "No thanks" if state.chips[state.turn] else "Take")
    else:
        pytest.fail("the computer never came to act")
    assert TURN.fullmatch(table.content) is None, "the table asks a person while a computer acts"

    bot.kill()
    await bot.wait_exit()
    bot.env["COMPUTER_PAUSE_SECONDS"] = "0"
    await bot.restart()

    await driver.wait_for(
        lambda: TURN.fullmatch(table.content) is not None, what="the computer's move"
    )
    after = await stored_game(driver, store)
    assert after.rev > stored.rev, "the pending computer move was not played"


async def play_geschenkt_by_taking(driver: Driver, table: FakeMessage) -> None:
    """Everyone takes every card until the results show."""
    for _ in range(100):
        if "results" in table.text:
            return
        found = TURN.fullmatch(table.content)
        assert found is not None, table.content
        (user,) = [u for u in driver.users if str(u.id) == found[1]]
        await driver.click(user, table, "Take")
    pytest.fail("the game did not end")


async def test_stats_count_each_finished_game_once(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    bot = await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    first: FakeMessage = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(bernd, first, "Join")
    await driver.click(chloe, first, "Join")
    await driver.click(alice, first, "Start")
    await play_geschenkt_by_taking(driver, first)
    second = (await driver.click(chloe, first, "Rematch")).message  # the rematch's lobby
    await driver.click(alice, second, "Join")
    await driver.click(bernd, second, "Join")  # the last to join: the game begins
    await driver.wait_for(lambda: TURN.fullmatch(second.content) is not None, what="the deal")
    await play_geschenkt_by_taking(driver, second)

    await bot.restart()  # a restart looks at finished games again: still counted once

    mine = (await driver.slash(alice, "stats")).message
    assert "**All games**: 2 played" in mine.text, mine.text
    assert "**Geschenkt (No Thanks!)**: 2 played" in mine.text
    theirs = (await driver.slash(alice, "stats", player=bernd)).message
    assert theirs.text.startswith("Bernd: stats") and "2 played" in theirs.text
    board = (await driver.slash(chloe, "leaderboard", game="geschenkt")).message
    for user in (alice, bernd, chloe):
        assert user.display_name in board.text
    assert board.text.count("(2 played") == 3
    assert "Ratings start at 1000" in board.text
    unknown = await driver.slash(bernd, "leaderboard", game="chess")
    assert "/hilfe" in unknown.message.text  # Bernd reads German


def shows(message: FakeMessage, text: str) -> Callable[[], bool]:
    """A wait condition: the message's current text contains ``text``."""
    return lambda: text in message.text


async def test_the_turn_clock_moves_for_absent_players_then_hands_their_seats_over(
    driver: Driver,
    store: GameStore,
    bot_process: BotFactory,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    """Nobody moves after the start; the test moves the bot's clock past each deadline
    (draughts' default turn time, 300 s) instead of waiting. When the clock takes the
    last person's seat, nobody is left and the game is abandoned."""
    await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table: FakeMessage = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.click(bernd, table, "Join")
    await driver.click(alice, table, "Start")
    started = await stored_game(driver, store)
    assert started.table.turn_seconds == 300 and started.table.turn_deadline is not None

    events = [
        "**Alice**'s time ran out; the computer moved for them (1 of 3).",
        "**Bernd**'s time ran out; the computer moved for them (1 of 3).",
        "**Alice**'s time ran out; the computer moved for them (2 of 3).",
        "**Bernd**'s time ran out; the computer moved for them (2 of 3).",
        "**Alice** missed 3 turns in a row; a computer plays their seat now.",
    ]
    for event in events:  # each shown on the table itself, not posted on its own
        await move_clock(301)
        await driver.wait_for(shows(table, event), what=event)
    public = [m for m in driver.messages() if not m.ephemeral and m.id != table.id]
    assert not [m for m in public if "ran out" in m.text or "missed" in m.text]
    stored = await stored_game(driver, store)
    seat = stored.table.seat_of(str(alice.id))
    assert seat is not None and seat.left and seat.missed == 3
    refused = await driver.click(alice, table, "Move")
    assert "left this game" in refused.message.text

    # Bernd's third miss leaves nobody at the table: the game is abandoned.
    await move_clock(301)
    await driver.wait_for(shows(table, "nothing was recorded"), what="the abandoned table")
    assert await store.load(driver.fake.guild_id, driver.channel) is None


async def test_a_turn_clock_keeps_its_deadline_through_a_restart(
    driver: Driver,
    store: GameStore,
    bot_process: BotFactory,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    """200 of 300 seconds pass, the bot crashes and restarts: the clock runs out 100
    seconds later, not 300."""
    bot = await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table: FakeMessage = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.click(bernd, table, "Join")
    await driver.click(alice, table, "Start")
    deadline = (await stored_game(driver, store)).table.turn_deadline

    await move_clock(200)
    await bot.restart()
    assert (await stored_game(driver, store)).table.turn_deadline == deadline
    await move_clock(101)
    ran_out = "**Alice**'s time ran out; the computer moved for them (1 of 3)."
    await driver.wait_for(shows(table, ran_out), what="the clock's event")


async def test_a_lobby_nobody_starts_closes_with_a_message(
    driver: Driver,
    store: GameStore,
    bot_process: BotFactory,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice, bernd = driver.user("alice"), driver.user("bernd")
    lobby: FakeMessage = (await driver.slash(alice, "escalation start")).message
    await driver.click(bernd, lobby, "Join")
    await move_clock(6 * 3600 + 1)  # the default lobby timeout, six hours
    await driver.wait_for(lambda: "Nobody started" in lobby.text, what="the lobby to close")
    assert lobby.buttons == [] and lobby.selects == []
    assert await store.load(driver.fake.guild_id, driver.channel) is None
    again = await driver.slash(alice, "escalation start")
    assert not again.message.ephemeral, "a new table can be opened"


async def test_a_missed_turn_stays_visible_after_the_computers_moves(
    driver: Driver, bot_process: BotFactory, move_clock: Callable[[float], Awaitable[None]]
) -> None:
    await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice = driver.user("alice")
    table: FakeMessage = (await driver.slash(alice, "escalation start")).message
    for level in ("easy", "normal", "hard"):
        await driver.choose(alice, table, "Add computer player…", [level])
    await driver.click(alice, table, "Start")
    await driver.wait_for(lambda: alice.mention in table.content, what="Alice's turn")

    # The computer's move for Alice can hand the turn straight back to her (she takes
    # the pile and leads, or a 3 turns the direction): then her clock runs out again.
    for missed in range(1, MISSED_TURNS_LIMIT):
        deadline = turn_clock(table)
        await move_clock(121)  # Escalation's turn clock is 120 s
        ran_out = f"**Alice**'s time ran out; the computer moved for them ({missed} of 3)."
        await driver.wait_for(
            partial(moved_after_or_back_to_alice, table, ran_out, deadline),
            what="a computer's move after the warning, or Alice's next turn",
        )
        if moved_after(table, ran_out):
            break
    else:
        pytest.fail("no computer moved between Alice's missed turns")
    assert f"{missed} of 3 in a row" in table.text
    panel = (await driver.click(alice, table, "My hand")).ephemeral
    assert f"{missed} of 3 in a row" in panel.text


def moved_after(message: FakeMessage, warning: str) -> bool:
    """``warning`` is among the table's recent events, and a move came after it."""
    lines = just_now(message)
    return warning in lines and lines.index(warning) < len(lines) - 1


def moved_after_or_back_to_alice(message: FakeMessage, warning: str, deadline: str | None) -> bool:
    """A move came after ``warning``, or it is Alice's turn again (a new deadline)."""
    back = warning in just_now(message) and turn_clock(message) not in (None, deadline)
    return moved_after(message, warning) or back


def turn_clock(message: FakeMessage) -> str | None:
    """The table's turn deadline as shown, or None while no person is to move."""
    fields = message.embeds[0].get("fields", []) if message.embeds else []
    found = [str(f["value"]) for f in fields if f["name"] == "Turn clock"]
    return found[0] if found else None


def just_now(message: FakeMessage) -> list[str]:
    """The lines of the table's recent events."""
    fields = message.embeds[0].get("fields", []) if message.embeds else []
    found = [str(f["value"]) for f in fields if f["name"] == "Just now"]
    return without_isolates(found[0]).split("\n") if found else []
