"""A rematch by consent: a Rematch click opens a lobby for the same game and options,
invites the other players of the finished game in one ping, and deals only when they
have all taken their seats (or the host starts it with fewer)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

import pytest

from bot.storage.tables import GameStore, Stored
from tests.e2e.tables import stored_game
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

TURN = re.compile(r"<@(\d+)>, your turn\.")
INVITATION = "asks for a rematch"


async def finished_game(
    driver: Driver, people: Sequence[FakeUser], *, computer: bool = False
) -> FakeMessage:
    """A game of Geschenkt (the tactical variant) that ``people`` (the first its host)
    and, with ``computer``, a hard computer played to the end by taking every card: its
    results message."""
    host, *guests = people
    table: FakeMessage = (await driver.slash(host, "geschenkt start", tactical=True)).message
    for guest in guests:
        await driver.click(guest, table, "Join")
    if computer:
        await driver.choose(host, table, "Add computer player…", ["hard"])
    await driver.click(host, table, "Start")
    by_id = {str(user.id): user for user in people}
    for _ in range(200):
        await driver.wait_for(
            lambda: TURN.fullmatch(table.content) is not None or "Rematch" in table.labels,
            what="a person's turn or the results",
        )
        if "Rematch" in table.labels:
            return table
        found = TURN.fullmatch(table.content)
        assert found is not None
        await driver.click(by_id[found[1]], table, "Take")
    pytest.fail("the game did not end")


def invitations(driver: Driver) -> list[FakeMessage]:
    return [m for m in driver.alive() if INVITATION in m.content]


def lobbies(driver: Driver) -> list[FakeMessage]:
    return [m for m in driver.alive() if "Start" in m.labels]


def seated(stored: Stored) -> set[str]:
    return {seat.id for seat in stored.table.seats}


async def test_a_rematch_click_deals_nothing_and_invites_the_others_in_one_ping(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    results = await finished_game(driver, [alice, bernd, chloe], computer=True)
    finished = await stored_game(driver, store)
    pinged_before = len(driver.fake.notifications)

    lobby = (await driver.click(alice, results, "Rematch")).message
    assert lobby is not results and not lobby.ephemeral and "Join" in lobby.labels
    await driver.wait_for(lambda: invitations(driver), what="the invitation")
    await driver.settle()

    rematch = await stored_game(driver, store)
    assert rematch.table.phase == "lobby" and rematch.table.state is None
    assert rematch.table.gid != finished.table.gid
    assert rematch.table.options == finished.table.options
    assert rematch.table.host == str(alice.id)
    (computer,) = (seat for seat in rematch.table.seats if seat.is_ai)
    assert computer.level == "hard"
    assert seated(rematch) == {str(alice.id), computer.id}, "nobody was asked to agree"
    assert "Rematch" not in results.labels, "the old Rematch went stale"
    assert results.labels == ["Replay"], "the old results keep their Replay"
    placeholders = [select.get("placeholder") for select in lobby.selects]
    assert "Add computer player…" in placeholders, "a rematch lobby is a lobby like any"

    (invitation,) = invitations(driver)
    pings = driver.fake.notifications[pinged_before:]
    assert sorted(n.user_id for n in pings) == sorted([bernd.id, chloe.id])
    assert {n.message_id for n in pings} == {invitation.id}, "one message invites them"
    assert invitation.allowed_mentions is not None
    allowed = sorted(int(user) for user in invitation.allowed_mentions["users"])
    assert allowed == sorted([bernd.id, chloe.id])
    assert invitation.labels == ["Join"]
    assert invitation.interaction_id is not None, "a follow-up of the click, not a channel post"
    assert not any(TURN.search(m.content) for m in driver.alive()[-3:]), "no turn ping"
    assert f"<@{bernd.id}>" in lobby.text and f"<@{chloe.id}>" in lobby.text  # awaited


async def test_the_rematch_begins_when_the_last_player_joins(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    results = await finished_game(driver, [alice, bernd, chloe])
    lobby = (await driver.click(chloe, results, "Rematch")).message
    invitation = await driver.wait_for(lambda: invitations(driver), what="the invitation")

    await driver.click(alice, lobby, "Join")
    assert (await stored_game(driver, store)).table.phase == "lobby"
    joined = await driver.click(bernd, invitation[0], "Join")  # on the ping's button
    assert joined.ephemeral.ephemeral_to == bernd.id

    await driver.wait_for(lambda: TURN.fullmatch(lobby.content) is not None, what="the deal")
    started = await stored_game(driver, store)
    assert started.table.phase == "playing"
    assert seated(started) == {str(alice.id), str(bernd.id), str(chloe.id)}
    assert started.table.message_id == lobby.id, "the lobby became the table"
    assert invitation[0].content == invitations(driver)[0].content, "the ping was not edited"


async def test_concurrent_rematch_clicks_end_in_one_lobby_with_both_seated(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    results = await finished_game(driver, [alice, bernd, chloe])

    first, second = await asyncio.gather(
        driver.click(alice, results, "Rematch"), driver.click(bernd, results, "Rematch")
    )
    await driver.wait_for(lambda: invitations(driver), what="the invitation")
    await driver.settle()

    rematch = await stored_game(driver, store)
    assert rematch.table.phase == "lobby"
    assert seated(rematch) == {str(alice.id), str(bernd.id)}
    (lobby,) = lobbies(driver)
    assert rematch.table.message_id == lobby.id
    answers = [response.message for response in (first, second)]
    assert sorted(message.ephemeral for message in answers) == [False, True]
    assert len(invitations(driver)) == 1
    assert "Rematch" not in results.labels


async def test_the_host_starts_the_rematch_early_with_fewer_players(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = (driver.user(name) for name in ("alice", "bernd", "chloe"))
    results = await finished_game(driver, [alice, bernd, chloe], computer=True)
    lobby = (await driver.click(bernd, results, "Rematch")).message  # Bernd reads German
    await driver.wait_for(lambda: invitations(driver), what="the invitation")
    await driver.click(alice, lobby, "Join")
    refused = await driver.click(alice, lobby, "Start", expect_change=False)
    assert refused.ephemeral.text == "Only the host can start the game."

    await driver.click(bernd, lobby, "Start")
    started = await stored_game(driver, store)
    assert started.table.phase == "playing"
    assert str(chloe.id) not in seated(started) and len(started.table.seats) == 3
    assert started.table.message_id == lobby.id


async def test_a_rematch_click_by_someone_who_did_not_play_is_refused_privately(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe, emma = (driver.user(name) for name in ("alice", "bernd", "chloe", "emma"))
    results = await finished_game(driver, [alice, bernd, chloe])
    before = await stored_game(driver, store)
    messages = len(driver.alive())

    refused = await driver.click(emma, results, "Rematch", expect_change=False)
    assert refused.ephemeral.ephemeral_to == emma.id
    assert "Only the players of this game can start a rematch." in refused.ephemeral.text
    await driver.settle()
    after = await stored_game(driver, store)
    assert (after.rev, after.table.gid, after.table.phase) == (before.rev, before.table.gid, "over")
    assert len(driver.alive()) == messages and "Rematch" in results.labels


async def resigned_draughts(driver: Driver, host: FakeUser, guest: FakeUser) -> FakeMessage:
    """A draughts game of ``host`` (White) and ``guest``, ended by the guest's
    `/draughts leave` (a resignation): its results message."""
    table: FakeMessage = (await driver.slash(host, "draughts start")).message
    await driver.click(guest, table, "Join")
    await driver.click(host, table, "Start")
    await driver.slash(guest, "draughts leave")
    await driver.wait_for(lambda: "Rematch" in table.labels, what="the results")
    return table


async def test_a_stranger_cannot_take_the_seat_held_for_the_invited_player(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    """The reported case: in a two-player draughts rematch an outsider's Join took the
    seat held for Emma, and Emma's Join then found the table full."""
    await bot_process("bot")
    alice, emma, greta = (driver.user(name) for name in ("alice", "emma", "greta"))
    results = await resigned_draughts(driver, alice, emma)
    lobby = (await driver.click(alice, results, "Rematch")).message
    (invitation,) = await driver.wait_for(lambda: invitations(driver), what="the invitation")
    await driver.settle()
    assert "Open seats" in lobby.labels
    before = await stored_game(driver, store)

    for message in (invitation, lobby):
        refused = await driver.click(greta, message, "Join", expect_change=False)
        assert refused.ephemeral.ephemeral_to == greta.id
        assert "held until" in refused.ephemeral.text
    await driver.settle()
    after = await stored_game(driver, store)
    assert (after.rev, seated(after)) == (before.rev, {str(alice.id)}), "nothing was saved"

    await driver.click(emma, invitation, "Join")
    await driver.wait_for(lambda: TURN.fullmatch(lobby.content) is not None, what="the deal")
    started = await stored_game(driver, store)
    assert started.table.phase == "playing"
    assert seated(started) == {str(alice.id), str(emma.id)}, "the one who resigned is back"


async def test_the_host_opens_the_held_seats_to_anyone(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, emma, greta = (driver.user(name) for name in ("alice", "emma", "greta"))
    results = await resigned_draughts(driver, alice, emma)
    lobby = (await driver.click(alice, results, "Rematch")).message
    await driver.wait_for(lambda: invitations(driver), what="the invitation")
    refused = await driver.click(emma, lobby, "Open seats", expect_change=False)
    assert refused.ephemeral.text == "Only the host can open the held seats."

    await driver.click(alice, lobby, "Open seats")
    assert "Open seats" not in lobby.labels and "held" not in lobby.text
    await driver.click(greta, lobby, "Join")
    joined = await stored_game(driver, store)
    assert seated(joined) == {str(alice.id), str(greta.id)}
    assert joined.table.phase == "lobby", "the host starts a table of strangers"
