"""A game's record end to end: the Log button while it runs, the Replay button on the
results, `/history` and `/replay <id>` (also after a restart), from the real bot."""

from __future__ import annotations

import random
import signal

import pytest

from bot.engines.escalation import EscalationAction, EscalationState
from bot.engines.geschenkt import ENGINE
from bot.engines.give_and_take import ENGINE as GIVE_AND_TAKE
from bot.engines.give_and_take import GO, GiveAndTakeAction, GiveAndTakeState
from bot.engines.take import TakeAction, TakeState
from bot.storage.clients import client_for_url
from bot.storage.records import GameRecord, RecordStore
from bot.storage.tables import GameStore, Stored
from tests.e2e.game_driver import GameDriver, pick_action
from tests.e2e.game_driver import pick as take_pick
from tests.e2e.tables import drawn_after
from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

TAKE, REFUSE = "Take", "No thanks"
EscalationGame = GameDriver[EscalationState, EscalationAction]
GiveAndTakeGame = GameDriver[GiveAndTakeState, GiveAndTakeAction]
TakeGame = GameDriver[TakeState, TakeAction]


async def test_log_replay_history_and_replay_by_id_after_a_restart(
    driver: Driver, redis_server: str, bot_process: BotFactory, fake_discord: FakeDiscord
) -> None:
    bot = await bot_process("bot")
    client = client_for_url(redis_server)
    store = GameStore(client)
    alice = driver.user("alice")
    alice_id = str(alice.id)
    table = (await driver.slash(alice, "geschenkt start")).message
    for _ in range(2):
        await driver.choose(alice, table, "Add computer player…", ["easy"])
    await driver.click(alice, table, "Start")
    assert "Log" in table.labels

    async def stored() -> Stored:
        found = await store.load(fake_discord.guild_id, driver.channel)
        assert found is not None
        return found

    rng = random.Random(4)
    opened_log = False
    for _ in range(400):
        now = await stored()
        state = ENGINE.State.model_validate(now.table.state)
        if ENGINE.is_over(state):
            break
        by_computer = any(move.by == "computer" for move in now.table.moves)
        if len(now.table.moves) >= 6 and by_computer and not opened_log:  # whatever the deal
            log = (await driver.click(alice, table, "Log")).ephemeral
            assert log.ephemeral_to == alice.id
            assert "the game so far" in log.text
            lines = [line for line in log.text.splitlines() if line.startswith("`")]
            after = await stored()  # a computer may have moved since `now` was read
            assert len(now.table.moves) <= len(lines) <= len(after.table.moves)
            assert "(computer)" in log.text
            opened_log = True
        if ENGINE.to_act(state) != [alice_id]:
            await driver.wait_for(drawn_after(table, now.rev), what="the computers' moves")
            continue
        await driver.click(alice, table, TAKE if rng.random() < 0.4 else REFUSE)
    else:
        pytest.fail("the game does not end")
    assert opened_log
    await driver.wait_for(lambda: "Replay" in table.labels, what="the results")
    final = await stored()
    gid = final.table.gid
    moves = len(final.table.moves)

    replay = (await driver.click(alice, table, "Replay")).ephemeral
    assert f"Move 0 of {moves} · game {gid}" in replay.text
    assert replay.filenames == ["replay.png"]
    await driver.click(alice, replay, "▶")
    assert f"Move 1 of {moves}" in driver.ephemerals(alice)[-1].text
    await driver.click(alice, replay, "⏭")
    last = driver.ephemerals(alice)[-1]
    assert f"Move {moves} of {moves}" in last.text
    assert "wins" in last.text or "win" in last.text  # the results at the last step
    assert last.attachments[0].data == table.attachments[0].data, "not the final table"

    listed = (await driver.slash(alice, "history")).ephemeral
    assert gid in listed.text and "Geschenkt" in listed.text
    mine = (await driver.slash(alice, "history", player=alice)).ephemeral
    assert gid in mine.text

    records = RecordStore(client, days=30)
    record = await records.load(fake_discord.guild_id, gid)
    assert record is not None and len(record.moves) == moves

    bot.kill()
    assert await bot.wait_exit() == -signal.SIGKILL
    await driver.wait_for(lambda: not fake_discord.connected, what="the socket to drop")
    await bot.restart()
    again = (await driver.slash(alice, "replay", game_id=gid)).ephemeral
    assert f"Move 0 of {moves} · game {gid}" in again.text
    await driver.click(alice, again, "⏭")
    assert f"Move {moves} of {moves}" in driver.ephemerals(alice)[-1].text
    download = (await driver.click(alice, again, "Download")).ephemeral
    assert download.filenames == [f"geschenkt-{gid}.txt", f"geschenkt-{gid}.json"]
    kept = GameRecord.model_validate_json(download.attachments[1].data)
    assert kept.gid == gid and len(kept.moves) == moves
    text = download.attachments[0].data.decode()
    assert f"game {gid}" in text and text.count("\n") > moves
    unknown = (await driver.slash(alice, "replay", game_id="ffff0000")).ephemeral
    assert "No finished game" in unknown.text
    await client.aclose()


async def draughts_opened_with_c3_c4(
    driver: Driver, white: FakeUser, black: FakeUser
) -> FakeMessage:
    """A draughts game of ``white`` and ``black`` after White's c3-c4: its table."""
    table: FakeMessage = (await driver.slash(white, "draughts start", colour="white")).message
    await driver.click(black, table, "Join")
    await driver.click(white, table, "Start")
    await driver.slash(white, "draughts move", move="c3-c4")
    return table


async def test_a_resigned_draughts_game_replays_and_downloads_as_pdn(
    driver: Driver, redis_server: str, bot_process: BotFactory, fake_discord: FakeDiscord
) -> None:
    await bot_process("bot")
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table = await draughts_opened_with_c3_c4(driver, alice, bernd)
    await driver.slash(bernd, "draughts move", move="f6-f5")
    await driver.slash(bernd, "draughts leave")  # two players: leaving resigns
    await driver.wait_for(lambda: "Replay" in table.labels, what="the results")

    replay = (await driver.click(alice, table, "Replay")).ephemeral
    assert "Move 0 of 3" in replay.text
    await driver.click(alice, replay, "⏭")
    last = driver.ephemerals(alice)[-1]
    assert "Move 3 of 3" in last.text and "resigned" in last.text
    download = (await driver.click(alice, last, "Download")).ephemeral
    assert download.filenames[0].endswith(".pdn")
    text = download.attachments[0].data.decode()
    assert '[GameType "30"]' in text and '[Variant "Give and Take"]' in text
    assert '[Result "2-0"]' in text
    assert "1. c3-c4 f6-f5 {resignation} 2-0" in text
    assert '[White "Alice"]' in text and '[Black "Bernd"]' in text
    listed = (await driver.slash(bernd, "history", player=bernd)).ephemeral
    assert "1. Alice, 2. Bernd" in listed.text  # in Bernd's language (German)


@pytest.fixture
def escalation(driver: Driver, store: GameStore) -> EscalationGame:
    return EscalationGame("escalation", driver, store)


async def test_an_escalation_game_has_a_log_and_a_replay_to_its_last_table(
    escalation: EscalationGame, bot_process: BotFactory
) -> None:
    game = escalation
    await bot_process("bot")
    alice = game.people[0]
    await game.open(alice, computers=1, level="hard")
    rng = random.Random(5)
    opened_log = False
    for _ in range(300):
        turn = await game.next_turn()  # after the computer's moves
        if turn is None:
            break
        if not opened_log and len(turn.stored.table.moves) >= 4:
            log = (await game.driver.click(alice, game.message, "Log")).ephemeral
            assert "the game so far" in log.text and "(computer)" in log.text
            opened_log = True
        assert turn.user == alice
        await game.move(alice, pick_action(rng, game.legal(turn)), turn.state)
    else:
        pytest.fail("the game does not end")
    assert opened_log
    await game.driver.wait_for(lambda: "Replay" in game.message.labels, what="the results")
    final = await game.stored()
    await replay_to_the_end(game.driver, alice, game.message, final)
    listed = (await game.driver.slash(alice, "history")).ephemeral
    assert final.table.gid in listed.text


@pytest.fixture
def give_and_take(driver: Driver, store: GameStore) -> GiveAndTakeGame:
    return GiveAndTakeGame("give_and_take", driver, store)


async def test_a_give_and_take_game_has_a_log_and_a_replay_to_its_last_table(
    give_and_take: GiveAndTakeGame, bot_process: BotFactory
) -> None:
    game = give_and_take
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe], turn_cap=20)
    rng = random.Random(4)
    opened_log = False
    for _ in range(500):
        turn = await game.next_turn()
        if turn is None:
            break
        if not opened_log and len(turn.stored.table.moves) >= 6:
            log = (await game.driver.click(chloe, game.message, "Log")).ephemeral
            lines = [line for line in log.text.splitlines() if line.startswith("`")]
            assert "the game so far" in log.text and lines, log.text
            opened_log = True
        if GIVE_AND_TAKE.view(turn.state, None).phase == "go":
            action = GO
        else:
            action = rng.choice(game.legal(turn))
        await game.move(turn.user, action, turn.state)  # the table's button for it
    else:
        pytest.fail("the game did not end within the turn cap")
    assert opened_log
    await game.driver.wait_for(lambda: "Replay" in game.message.labels, what="the results")
    final = await game.stored()
    moves = len(final.table.moves)
    german = (await game.driver.click(bernd, game.message, "Replay")).ephemeral
    assert f"Zug 0 von {moves} · Spiel {final.table.gid}" in german.text  # Bernd's language
    await replay_to_the_end(game.driver, alice, game.message, final)
    listed = (await game.driver.slash(bernd, "history", player=chloe)).ephemeral
    assert final.table.gid in listed.text


async def test_with_history_days_0_nothing_is_kept_but_the_results_still_replay(
    driver: Driver, redis_server: str, bot_process: BotFactory
) -> None:
    await bot_process("bot", env={"HISTORY_DAYS": "0"})
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table = (await driver.slash(alice, "draughts start", colour="white")).message
    await driver.click(bernd, table, "Join")
    await driver.click(alice, table, "Start")
    await driver.slash(alice, "draughts move", move="c3-c4")
    await driver.slash(alice, "draughts leave")
    await driver.wait_for(lambda: "Replay" in table.labels, what="the results")
    replay = (await driver.click(alice, table, "Replay")).ephemeral
    assert "Move 0 of 2" in replay.text
    download = (await driver.click(alice, replay, "Download")).ephemeral
    text = download.attachments[0].data.decode()
    assert '[Result "0-2"]' in text and '[Date "1970' not in text
    listed = (await driver.slash(alice, "history")).ephemeral
    assert "No finished games here yet." in listed.text
    client = client_for_url(redis_server)
    assert not [key async for key in client.scan_iter("record:*")]
    await client.aclose()


@pytest.fixture
def take(driver: Driver, store: GameStore) -> TakeGame:
    return TakeGame("take", driver, store)


TAKE_SEED = 3
"""The match's deal, fixed: a table's seed is otherwise random, and one deal in many
ended the match (target 50) before its 20th move, when the Log is opened."""


async def fix_the_deal(store: GameStore, lobby: Stored, seed: int) -> None:
    """Give the table in the lobby the seed ``seed``, through the store as the bot
    saves it, so the game it starts is dealt the same in every run."""
    table = lobby.table.model_copy(deep=True)
    table.seed = seed
    await store.save(table, lobby.rev)


async def test_a_take_match_has_a_log_in_pages_and_a_replay_to_its_last_table(
    take: TakeGame, bot_process: BotFactory
) -> None:
    game = take
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.lobby(alice, target=50)
    await game.join(bernd)
    await fix_the_deal(game.store, await game.stored(), TAKE_SEED)
    await game.start(alice)
    game.watch_table = False  # they play on their panels; the results are checked at the end
    rng = random.Random(6)
    opened_log = False
    for _ in range(1500):
        turn = await game.next_turn()
        if turn is None:
            break
        if not opened_log and len(turn.stored.table.moves) >= 20:
            log = (await game.driver.click(alice, game.message, "Log")).ephemeral
            assert "the game so far" in log.text and "Page 2 of 2" in log.text, log.text
            await game.driver.click(alice, log, "⏮")
            first = game.driver.ephemerals(alice)[-1]
            assert "`  1.` **" in first.text and "drew" in first.text, first.text
            opened_log = True
        await game.move(turn.user, take_pick(rng, game.legal(turn)), turn.state)
    else:
        pytest.fail("the match does not end")
    assert opened_log
    await game.driver.wait_for(lambda: "Replay" in game.message.labels, what="the results")
    final = await game.stored()
    await replay_to_the_end(game.driver, alice, game.message, final)


async def replay_to_the_end(
    driver: Driver, user: FakeUser, results: FakeMessage, final: Stored
) -> None:
    """``user``'s Replay of the finished game on ``results``, skipped to its last move:
    it names every move and shows the final table's very image."""
    moves = len(final.table.moves)
    replay = (await driver.click(user, results, "Replay")).ephemeral
    await driver.click(user, replay, "⏭")
    last = driver.ephemerals(user)[-1]
    assert f"Move {moves} of {moves} · game {final.table.gid}" in last.text
    assert last.attachments[0].data == results.attachments[0].data, "not the final table"


async def test_replay_starts_with_the_seats_in_order_and_a_short_log_has_no_page_buttons(
    driver: Driver, bot_process: BotFactory
) -> None:
    """White resigns, so the places (Bernd first) differ from the seats (Alice first):
    step 0 shows the seats in the order of play. A one-page Log offers no page buttons."""
    await bot_process("bot")
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table = await draughts_opened_with_c3_c4(driver, alice, bernd)
    log = (await driver.click(alice, table, "Log")).ephemeral
    assert "Page 1 of 1" in log.text
    assert log.labels == [], "one page: nothing to turn"
    await driver.slash(alice, "draughts leave")  # White resigns
    await driver.wait_for(lambda: "Replay" in table.labels, what="the results")

    start = (await driver.click(alice, table, "Replay")).ephemeral
    assert "Move 0 of 2" in start.text
    seats = start.text[start.text.index("The start:") :]
    assert seats.index("Alice") < seats.index("Bernd"), seats
    listed = (await driver.slash(alice, "history")).ephemeral
    assert listed.text.index("Bernd") < listed.text.index("Alice"), "history lists places"
