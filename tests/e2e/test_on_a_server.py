"""What a real server needs: turn pings that notify, panels that keep themselves
current, a clock people can see, and old buttons that stop offering what is gone."""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable

from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore
from tests.e2e.tables import CLOCK_KEY
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

DEADLINE = re.compile(r"<t:(\d+):R>")
PING_AT_ONCE = {"PING_AFTER_SECONDS": "0"}
"""For the tests of what a ping is: the turn pings at once, not after the wait."""


def pings(driver: Driver) -> list[FakeMessage]:
    """The live (not deleted) public messages of the bot that are turn pings."""
    return [m for m in driver.messages() if not m.ephemeral and "your turn in" in m.text]


async def draughts_table(driver: Driver, white: FakeUser, black: FakeUser) -> FakeMessage:
    table: FakeMessage = (await driver.slash(white, "draughts start", colour="white")).message
    await driver.click(black, table, "Join")
    await driver.click(white, table, "Start")
    return table


async def test_the_turn_is_pinged_in_a_new_message_and_the_old_ping_deleted(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot", env=PING_AT_ONCE)
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    [first] = await driver.wait_for(lambda: pings(driver), what="the first ping")
    assert driver.notified(alice) == [first] and driver.notified(dmitri) == []

    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: first.deleted, what="the first ping deleted")
    [second] = await driver.wait_for(lambda: pings(driver), what="the second ping")
    assert driver.notified(dmitri) == [second], "only Dmitri is notified of his turn"
    assert driver.notified(alice) == [first], "Alice is not notified again"
    assert second.id > table.id
    # The table message itself, edited each move, never notified anyone.
    assert table not in driver.notified(alice) + driver.notified(dmitri)


async def test_a_game_with_a_computer_keeps_at_most_one_ping_and_posts_no_timeouts(
    driver: Driver, bot_process: BotFactory
) -> None:
    """Alice and Dmitri against a computer: whenever the turn passes between people and
    the computer, the channel never holds two live pings, and nothing else is posted."""
    await bot_process("bot", env=PING_AT_ONCE)
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(dmitri, table, "Join")
    await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.click(alice, table, "Start")
    for _ in range(200):
        await driver.settle()
        if "results" in table.text:
            break
        assert len(pings(driver)) <= 1, [m.text for m in pings(driver)]
        to_act = alice if f"<@{alice.id}>" in table.content else dmitri
        await driver.click(to_act, table, "Take", expect_change=False)
    assert "results" in table.text
    assert pings(driver) == [], "the last ping goes when the game ends"
    every = [m for m in driver.fake.messages.values() if not m.ephemeral]
    assert all(m is table or "your turn in" in m.text for m in every), [m.text for m in every]
    spans = sorted((m.created_at, m.deleted_at or float("inf")) for m in every if m is not table)
    assert all(end <= start for (_, end), (start, _) in itertools.pairwise(spans))


async def test_the_table_shows_the_deadline_as_a_live_timestamp(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    match = DEADLINE.search(table.text)
    assert match is not None, table.text
    store = GameStore(client_for_url(redis_server))
    stored = await store.load(driver.fake.guild_id, driver.channel)
    assert stored is not None and stored.table.turn_deadline is not None
    assert int(match.group(1)) == int(stored.table.turn_deadline)
    await store.client.aclose()


async def test_the_lobby_says_the_turn_time(driver: Driver, bot_process: BotFactory) -> None:
    await bot_process("bot")
    lobby = await driver.slash(driver.user("alice"), "geschenkt start", turn_time=45)
    assert "45 s per turn" in lobby.message.text
    untimed = await driver.slash(driver.user("alice"), "draughts start", channel=None)
    assert untimed.message.ephemeral  # one table per channel: refused in words


async def test_an_open_panel_follows_the_game_without_a_click(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    panel = (await driver.click(dmitri, table, "Move")).ephemeral
    before = panel.text
    assert "opponent's move" in before

    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: panel.text != before, what="Dmitri's panel to follow")
    assert "opponent's move" not in panel.text
    assert panel.ephemeral_to == dmitri.id
    assert "Updates itself until <t:" in panel.text


async def test_a_panel_past_its_token_life_is_left_alone_and_says_how_to_reopen(
    driver: Driver,
    bot_process: BotFactory,
    move_clock: Callable[[float], Awaitable[None]],
) -> None:
    await bot_process("bot", env={"CLOCK_OFFSET_KEY": CLOCK_KEY})
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    panel = (await driver.click(dmitri, table, "Move")).ephemeral
    assert "open a fresh one with **" in panel.text
    edits = panel.revision

    await move_clock(15 * 60)
    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.settle()
    assert panel.revision == edits, "a panel past its token's life was edited"


async def test_a_new_game_takes_the_rematch_button_off_the_old_results(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    await driver.slash(alice, "draughts leave")  # two players: leaving concedes
    await driver.wait_for(lambda: "Rematch" in table.labels, what="the results")
    await driver.slash(dmitri, "geschenkt start")
    await driver.wait_for(lambda: "Rematch" not in table.labels, what="the old Rematch gone")
    assert table.labels == ["Replay"], "the old results keep their Replay"


async def test_the_host_can_turn_a_tables_pings_off(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table: FakeMessage = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.click(dmitri, table, "Join")
    refused = await driver.click(dmitri, table, "🔔 Turn pings: on")
    assert "Only the host" in refused.message.text
    await driver.click(alice, table, "🔔 Turn pings: on")
    assert "🔕 Turn pings: off" in table.labels
    await driver.click(alice, table, "Start")
    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.settle()
    assert pings(driver) == [] and driver.notified(alice) == driver.notified(dmitri) == []


async def test_no_interaction_token_reaches_the_log_even_at_debug(
    driver: Driver, bot_process: BotFactory
) -> None:
    bot = await bot_process("bot", env={"LOG_LEVEL": "DEBUG"})
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    panel = (await driver.click(dmitri, table, "Move")).ephemeral
    before = panel.text
    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: panel.text != before, what="the panel edited by the bot")
    tokens = [i.token for i in driver.fake.interactions.values()]
    log = bot.output()
    assert "/webhooks/" in log, "the debug log should show the webhook requests"
    assert not [token for token in tokens if token in log]


async def test_a_ping_links_to_the_table_and_carries_the_next_button(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot", env=PING_AT_ONCE)
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    [ping] = await driver.wait_for(lambda: pings(driver), what="the first ping")
    link = f"https://discord.com/channels/{driver.fake.guild_id}/{table.channel_id}/{table.id}"
    assert link in ping.text
    assert ping.labels == ["Move"]

    panel = await driver.click(alice, ping, "Move")

    assert panel.message.ephemeral_to == alice.id and "You play **White**" in panel.message.text


async def test_a_player_who_turns_their_own_pings_off_is_not_pinged(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot", env=PING_AT_ONCE)
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    answer = await driver.slash(dmitri, "pings", value="off")
    assert "off" in answer.message.text and answer.message.ephemeral_to == dmitri.id
    table = await draughts_table(driver, alice, dmitri)
    await driver.wait_for(lambda: driver.notified(alice), what="Alice's first ping")

    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: dmitri.mention in table.content, what="Dmitri's turn")
    await driver.settle()

    assert driver.notified(dmitri) == [], "Dmitri turned his own pings off"
    await driver.slash(dmitri, "pings", value="on")
    await driver.slash(dmitri, "draughts move", move="f6-f5")
    await driver.wait_for(lambda: driver.notified(alice, live_only=True), what="Alice's ping")


async def test_a_second_panel_retires_the_first(driver: Driver, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    first = (await driver.click(dmitri, table, "Move")).ephemeral
    second = (await driver.click(dmitri, table, "Move")).ephemeral

    await driver.wait_for(lambda: "replaced by a newer one" in first.text, what="the old panel")
    assert not first.components, "a replaced panel keeps no controls"
    assert "Live panel" not in first.text
    assert "Live panel" in second.text and second.components


async def test_people_who_play_at_once_are_never_pinged(
    driver: Driver, bot_process: BotFactory
) -> None:
    """A live table: each move comes well within the wait (`PING_AFTER_SECONDS`,
    20 s by default), so the channel holds the table and nothing else."""
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    for player, move in ((alice, "c3-c4"), (dmitri, "f6-f5"), (alice, "c4-c5")):
        await driver.slash(player, "draughts move", move=move)
    await driver.settle()
    assert driver.notified(alice) == driver.notified(dmitri) == []
    assert [m for m in driver.messages() if not m.ephemeral] == [table]


async def test_a_player_who_is_away_is_pinged_once_when_the_wait_is_over(
    driver: Driver, bot_process: BotFactory, move_clock: Callable[[float], Awaitable[None]]
) -> None:
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = await draughts_table(driver, alice, dmitri)
    await driver.settle()
    assert pings(driver) == [], "not before the wait is over"

    await move_clock(21)
    [ping] = await driver.wait_for(lambda: pings(driver), what="Alice's ping")
    assert driver.notified(alice) == [ping] and ping.labels == ["Move"]
    await move_clock(60)
    await driver.settle()
    assert driver.notified(alice) == [ping], "pinged once"

    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.wait_for(lambda: ping.deleted, what="Alice's ping deleted once she moved")
    await driver.settle()
    assert pings(driver) == [] and driver.notified(dmitri) == [], "Dmitri has his own wait"
    await move_clock(21)
    [second] = await driver.wait_for(lambda: pings(driver), what="Dmitri's ping")
    assert driver.notified(dmitri) == [second]
    assert table not in driver.notified(alice) + driver.notified(dmitri)


async def test_a_player_who_acted_in_the_turn_is_not_pinged_for_its_rest(
    driver: Driver, bot_process: BotFactory, move_clock: Callable[[float], Awaitable[None]]
) -> None:
    """In TAKE a turn is a draw, then a meld or a discard: someone who drew is at the
    table, and the wait running out during the rest of the turn pings nobody."""
    await bot_process("bot")
    alice, dmitri = driver.user("alice"), driver.user("dmitri")
    table = (await driver.slash(alice, "take start")).message
    await driver.click(dmitri, table, "Join")
    await driver.click(alice, table, "Start")
    first = alice if alice.mention in table.content else dmitri
    panel = (await driver.click(first, table, "My hand")).ephemeral
    await driver.click(first, panel, "Draw from the stock")
    await driver.settle()
    await move_clock(21)
    await driver.settle()
    assert pings(driver) == [] and driver.notified(first) == []
