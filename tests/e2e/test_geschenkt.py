"""Geschenkt end to end: the real bot subprocess, the fake Discord, the real Redis.

Every test plays by clicks only, the way people would, and checks what each person saw
against the game the bot stored in Redis (loaded with the bot's own `GameStore`).
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from bot.engines.geschenkt import ENGINE, GeschenktAction, GeschenktState
from bot.engines.geschenkt import REFUSE as REFUSING
from bot.engines.geschenkt import TAKE as TAKING
from bot.storage.tables import GameStore
from bot.table import encode_table
from tests.e2e.game_driver import (
    ADD_COMPUTER,
    CHIPS,
    HAND,
    LOBBY_LABELS,
    LOG,
    REFUSE,
    TAKE,
    TURN,
    GameDriver,
    coin,
    greedy_with_a_miser,
    version_text,
    versions,
)
from tests.e2e.tables import (
    channel_edits_of,
    drawn_at,
    start_german_table,
    table_rev,
    webhook_edits_since,
)
from tests.harness.driver import Driver, Response
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeUser

Game = GameDriver[GeschenktState, GeschenktAction]
MOVES = {TAKE: TAKING, REFUSE: REFUSING}
"""The move each table button makes."""
POT = re.compile(r"\*\*\d+\*\* chips? on it")
"""The pot on the face-up card: public, the only chips a public message may show..."""
EVENT_POT = re.compile(r"\((?:\+\d+ chips?|no chips|\d+ chips? on it now)\)")
"""...and the same pot as a move in the line of recent events tells it."""
SHORT = 160
"""An ephemeral explanation should be a sentence or two."""


def said(user: FakeUser, english: str, german: str) -> str:
    """What ``user`` reads in their own language: German for a German locale, else English."""
    return german if user.locale.startswith("de") else english


def explanation(response: Response, user: FakeUser) -> str:
    """The short ephemeral answer ``user`` got instead of a change."""
    assert [m.ephemeral_to for m in response.messages] == [user.id], (
        f"expected only an ephemeral answer for {user.name}, got "
        f"{[(m.ephemeral_to, m.text) for m in response.messages]}"
    )
    text = response.message.text
    assert 0 < len(text) <= SHORT and "\n" not in text, text
    return text


@pytest.fixture
async def game(driver: Driver, store: GameStore, redis_server: str) -> AsyncIterator[Game]:
    raw = aioredis.Redis.from_url(redis_server)
    yield Game("geschenkt", driver, store, raw=raw)
    await raw.aclose()


# ---------------------------------------------------------------- whole games


async def test_three_people_play_a_whole_game_to_the_results(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    assert await game.open(alice, [bernd, chloe]) == 0
    assert (await game.state()).chips == [11, 11, 11]

    await game.play_to_end(greedy_with_a_miser(random.Random(1), chloe), hands=random.Random(11))

    scores = await game.check_results()
    assert sorted(scores) == ["Alice", "Bernd", "Chloe"]
    assert game.refused > 0, "nobody ran out of chips"
    assert game.hands_seen, "nobody looked at their hand"
    assert game.driver.table() is game.message, "the game moved to another message"


async def test_a_computer_player_takes_its_turns_by_itself(
    game: Game, bot_process: BotFactory, fake_discord: FakeDiscord
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    game.people = [alice, bernd]
    moves = await game.open(alice, [bernd], computers=1)
    edits_before = len(channel_edits_of(fake_discord, game.message))
    stored = await game.stored()
    names = sorted(seat.name for seat in stored.table.seats)
    assert names == ["Alice", "Bernd", "🤖 Normal"]

    # Mostly No thanks, so every card comes round to the computer.
    moves += await game.play_to_end(coin(random.Random(2), 0.3))

    assert moves > 0, "the computer never moved"
    scores = await game.check_results()
    assert sorted(scores) == ["Alice", "Bernd", "🤖 Normal"]
    # The computer's moves answer people's clicks on the table, and are shown through
    # those clicks' tokens, which Discord's global limit for the bot token doesn't count.
    finished = await game.stored()
    computer_moves = sum(move.by == "computer" for move in finished.table.moves)
    assert computer_moves > 5, "the computer hardly moved"
    assert len(channel_edits_of(fake_discord, game.message)) - edits_before <= 1
    people = {str(alice.id), str(bernd.id)}
    for version in versions(game.message):
        mentioned = set(TURN.findall(version.content))
        assert mentioned <= people, f"someone else was asked to act: {version.content!r}"


async def test_the_game_survives_a_crash_and_finishes_on_the_same_message(
    game: Game, bot_process: BotFactory, fake_discord: FakeDiscord
) -> None:
    bot = await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    policy = coin(random.Random(3), 0.4)
    for _ in range(10):
        await game.turn(policy)
    before = await game.snapshot()

    bot.kill()
    assert await bot.wait_exit() == -signal.SIGKILL
    await game.driver.wait_for(lambda: not fake_discord.connected, what="the socket to drop")
    await bot.restart()

    assert await game.snapshot() == before, "the restart changed the stored game"
    await game.play_to_end(policy, hands=random.Random(33))
    await game.check_results()
    public = [m for m in game.driver.messages() if not m.ephemeral]
    assert public == [game.message], "the restarted bot posted a new table"


async def test_a_table_left_behind_its_saved_game_is_redrawn_by_the_next_click(
    game: Game, bot_process: BotFactory
) -> None:
    """A move saved but never drawn (its answer lost in a failover, or the process gone
    between the save and the edit): the next click on the outdated table is told it was
    for an earlier moment and changes nothing, and the table is redrawn to the stored
    game, which then plays on to correct results."""
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    policy = coin(random.Random(4), 0.4)
    for _ in range(3):
        await game.turn(policy)
    player = game.to_act()
    assert player is not None
    stored = await game.stored()
    assert table_rev(game.message) == stored.rev
    table = stored.table.model_copy(deep=True)
    state = ENGINE.apply(ENGINE.State.model_validate(table.state), str(player.id), "take")
    table.state = state.model_dump(mode="json")
    rev = await game.store.save(table, stored.rev)

    response = await game.driver.click(player, game.message, TAKE)
    assert said(player, "earlier moment", "früheren Stand") in explanation(response, player)
    await game.driver.wait_for(drawn_at(game.message, rev), what="the outdated table redrawn")
    assert (await game.stored()).rev == rev, "the click on the outdated table changed the game"
    await game.play_to_end(policy)
    await game.check_results()


async def test_a_table_showing_a_move_redis_lost_is_redrawn_by_the_next_click(
    game: Game, bot_process: BotFactory
) -> None:
    """A failover lost the last move after the table showed it (Redis is back at the
    revision before): a click on the table changes nothing, and the table is redrawn to
    the stored game, which then plays on to correct results."""
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    policy = coin(random.Random(5), 0.4)
    for _ in range(2):
        await game.turn(policy)
    before = await game.stored()
    rev = before.rev
    await game.turn(policy)
    assert table_rev(game.message) == rev + 1
    lost = {"rev": rev, "data": encode_table(before.table)}  # the failover's loss
    assert game.raw is not None
    await game.raw.hset(game.key, mapping=lost)  # type: ignore[arg-type]

    player = game.to_act()
    assert player is not None
    response = await game.driver.click(player, game.message, TAKE)
    explanation(response, player)
    await game.driver.wait_for(drawn_at(game.message, rev), what="the stored game redrawn")
    assert (await game.stored()).rev == rev, "the click on the lost revision changed the game"
    await game.play_to_end(policy)
    await game.check_results()


# ---------------------------------------------------------------- races and intruders


async def test_twenty_simultaneous_clicks_apply_exactly_once(
    game: Game, bot_process: BotFactory
) -> None:
    """20 clicks at once on No thanks, then on Take (the taker acts again, so every extra
    Take that got through would take another card): each time exactly one counts."""
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    for label in (REFUSE, TAKE):
        player = game.to_act()
        assert player is not None
        before = await game.stored()
        state = ENGINE.State.model_validate(before.table.state)

        clicks = [game.driver.click(player, game.message, label) for _ in range(20)]
        responses = await asyncio.gather(*clicks)

        assert len({r.interaction.data["custom_id"] for r in responses}) == 1
        for response in responses:
            answered = response.interaction.answered_at
            assert answered is not None and answered - response.interaction.created_at < 3
        applied = [r for r in responses if game.message in r.messages]
        assert len(applied) == 1, f"{len(applied)} of 20 {label} clicks changed the table"
        refused = [r for r in responses if r not in applied]
        texts = {explanation(r, player) for r in refused}
        assert len(refused) == 19, texts
        await game.check_move(before, str(player.id), MOVES[label])
        new = await game.state()
        seat = game.seat(state, player)
        if label == REFUSE:
            assert (new.pot, new.chips[seat]) == (state.pot + 1, state.chips[seat] - 1)
            assert game.to_act() != player
        else:
            assert new.cards[seat] == sorted([*state.cards[seat], state.current or 0])
            assert (new.pot, new.chips[seat]) == (0, state.chips[seat] + state.pot)
            assert new.current == state.stack[0] and game.to_act() == player


async def test_double_clicks_count_once(game: Game, bot_process: BotFactory) -> None:
    """A person double-clicks Take (both clicks reach the bot before the table changes):
    one card is taken, not two, even though the taker acts again; same for No thanks."""
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    for label in (TAKE, REFUSE, REFUSE, TAKE):
        player = game.to_act()
        assert player is not None
        before = await game.stored()
        first, second = await asyncio.gather(
            game.driver.click(player, game.message, label),
            game.driver.click(player, game.message, label),
        )
        applied = [r for r in (first, second) if game.message in r.messages]
        assert len(applied) == 1, f"a double {label} by {player.name} counted {len(applied)}x"
        explanation(second if applied == [first] else first, player)
        await game.check_move(before, str(player.id), MOVES[label])


async def test_people_outside_the_game_or_out_of_turn_change_nothing(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    dmitri = game.driver.user("dmitri")
    await game.open(alice, [bernd, chloe])
    policy = coin(random.Random(5), 0.5)
    for _ in range(4):
        await game.turn(policy)
    player = game.to_act()
    assert player is not None
    waiting = next(u for u in game.people if u != player)
    before = await game.snapshot()
    table_revision = game.message.revision

    for label in (TAKE, REFUSE, HAND):
        response = await game.driver.click(dmitri, game.message, label)
        assert "not playing" in explanation(response, dmitri)
    response = await game.driver.slash(dmitri, "geschenkt hand")
    assert "not playing" in explanation(response, dmitri)
    for label in (TAKE, REFUSE):
        response = await game.driver.click(waiting, game.message, label)
        assert said(waiting, "not your turn", "nicht am Zug") in explanation(response, waiting)

    assert await game.snapshot() == before, "a refused click changed the stored game"
    assert game.message.revision == table_revision, "a refused click changed the table"
    assert all(not m.text.count("Chips") for m in game.driver.ephemerals(dmitri))
    await game.turn(policy)  # the game goes on as before


async def test_a_double_click_on_the_last_card_ends_the_game_once(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    always_take = coin(random.Random(6), 1.0)
    while (await game.state()).stack:
        await game.turn(always_take)
    player = game.to_act()
    assert player is not None
    before = await game.stored()

    first, second = await asyncio.gather(
        game.driver.click(player, game.message, TAKE),
        game.driver.click(player, game.message, TAKE),
    )

    applied = [r for r in (first, second) if game.message in r.messages]
    assert len(applied) == 1, f"the last card was taken {len(applied)} times"
    late = second if applied == [first] else first
    explanation(late, player)
    await game.check_move(before, str(player.id), TAKING)
    await game.check_results()
    # The finished table offers no move to click, and the ended game refuses /hand.
    finished = await game.snapshot()
    with pytest.raises(AssertionError, match="no button 'Take'"):
        await game.driver.click(player, game.message, TAKE)
    response = await game.driver.slash(player, "geschenkt hand")
    assert said(player, "over", "vorbei") in explanation(response, player)
    assert await game.snapshot() == finished


async def test_status_reposts_the_table_and_retires_the_old_message(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    policy = coin(random.Random(7), 0.5)
    for _ in range(3):
        await game.turn(policy)
    old = game.message
    before = await game.stored()

    response = await game.driver.slash(chloe, "geschenkt status")

    new = response.message
    assert not new.ephemeral and new is game.driver.table() and new is not old
    assert new.content == old.content and new.labels == [TAKE, REFUSE, HAND, LOG]
    assert version_text(new) == version_text(old.history[-1])
    assert old.buttons == [], "the old table still has buttons"
    after = await game.stored()
    assert after.rev == before.rev and after.table.model_dump() == before.table.model_dump()
    assert after.table.message_id == new.id
    game.table = new
    await game.turn(policy)
    assert old.buttons == []


async def test_status_racing_a_move_leaves_one_live_current_table(
    game: Game, bot_process: BotFactory
) -> None:
    """`/geschenkt status` sent while the player to act clicks: whichever runs first,
    afterwards exactly one table message has buttons, drawn for the stored revision."""
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    for attempt in range(4):
        player = game.to_act()
        assert player is not None
        before = await game.stored()
        status, click = await asyncio.gather(
            game.driver.slash(chloe, "geschenkt status"),
            game.driver.click(player, game.message, TAKE),
            return_exceptions=True,
        )
        assert isinstance(status, Response), status
        # If the status came first, the old table lost its buttons (the driver can't find
        # Take) or the click is refused as coming from a table that was posted again.
        if isinstance(click, AssertionError):
            assert "Take" in str(click), click
        else:
            assert isinstance(click, Response), click
        await game.driver.settle()
        after = await game.stored()
        assert after.rev in (before.rev, before.rev + 1)
        live = [
            message
            for message in game.driver.messages()
            if not message.ephemeral
            and message.buttons
            and not message.deleted
            and "your turn in" not in message.text  # a ping carries the next button too
        ]
        assert len(live) == 1, f"attempt {attempt}: {len(live)} tables with buttons"
        (table,) = live
        assert table.id == after.table.message_id
        revs = {
            int(button["custom_id"].split(":")[3])
            for button in table.buttons
            if button["custom_id"].startswith("g:")  # not the record's Log button
        }
        assert revs == {after.rev}, f"attempt {attempt}: buttons for {revs}, stored {after.rev}"
        game.table = table
        if after.rev == before.rev:
            await game.turn(lambda _user, _state: TAKING)


async def test_nobody_sees_anyone_elses_chips_while_the_game_runs(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])

    await game.play_to_end(coin(random.Random(8), 0.4), hands=random.Random(88), p_hand=0.5)
    await game.check_results()

    assert {user for user, _ in game.hands_seen.values()} == set(game.people)
    for message in game.driver.messages():
        for number, version in enumerate(versions(message)):
            text = version_text(version)
            if message.ephemeral:
                if "Chips:" in text:
                    assert message.id in game.hands_seen, f"chips nobody asked for: {text!r}"
                    user, seen = game.hands_seen[message.id]
                    chips = seen.chips[game.seat(seen, user)]
                    assert message.ephemeral_to == user.id
                    if number == 0:  # later versions: the panel kept itself current
                        assert CHIPS.findall(text) == [str(chips)], text
                else:
                    assert not re.search(r"\d+\** chips?\b", text, re.IGNORECASE), text
            elif not any((e.get("title") or "").endswith("results") for e in version.embeds):
                public = EVENT_POT.sub("", POT.sub("", text))
                assert "chip" not in public.lower(), f"public message shows chips: {text!r}"
    shows_chips = re.search(r"\d+ chips?\)", version_text(game.message))
    assert shows_chips, "the results should show everyone's chips"


# ---------------------------------------------------------------- lobby


async def test_lobby_refusals_leave_and_rules(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    driver = game.driver
    alice, bernd, chloe = game.people
    lobby = (await driver.slash(alice, "geschenkt start")).message
    assert lobby.labels == LOBBY_LABELS

    rules = await driver.slash(chloe, "geschenkt rules")
    assert rules.message.ephemeral_to == chloe.id
    assert "rules" in rules.message.text and "No thanks" in rules.message.text
    await driver.click(bernd, lobby, "Join")
    two = await game.snapshot()

    second = await driver.slash(bernd, "geschenkt start")
    assert "Geschenkt" in explanation(second, bernd) and "/geschenkt status" not in explanation(
        second, bernd
    )
    too_few = await driver.click(alice, lobby, "Start")
    assert "at least 3" in explanation(too_few, alice)
    assert await game.snapshot() == two
    await driver.click(chloe, lobby, "Join")
    middle = await game.snapshot()
    not_host = await driver.click(bernd, lobby, "Start")
    assert "Gastgeber" in explanation(not_host, bernd)  # Bernd reads German
    no_computer = await driver.choose(chloe, lobby, ADD_COMPUTER, ["hard"])
    assert "host" in explanation(no_computer, chloe)
    again = await driver.click(chloe, lobby, "Join")
    assert "already" in explanation(again, chloe)
    assert await game.snapshot() == middle
    assert [m for m in driver.messages() if not m.ephemeral] == [lobby]

    await driver.click(chloe, lobby, "Leave")
    assert "Chloe" not in lobby.text and "Bernd" in lobby.text
    assert [seat.name for seat in (await game.stored()).table.seats] == ["Alice", "Bernd"]
    not_seated = await driver.click(chloe, lobby, "Leave")
    assert "not at this table" in explanation(not_seated, chloe)

    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    assert lobby.labels == [TAKE, REFUSE, HAND, LOG]
    playing = await driver.slash(chloe, "geschenkt start")
    assert "/geschenkt status" in explanation(playing, chloe)
    assert (await game.stored()).table.phase == "playing"


async def test_when_everyone_leaves_the_table_closes(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    driver = game.driver
    alice, bernd, _ = game.people
    lobby = (await driver.slash(alice, "geschenkt start")).message
    await driver.click(bernd, lobby, "Join")

    await driver.click(alice, lobby, "Leave")  # the host leaves: Bernd hosts now
    assert "Alice" not in lobby.text
    assert (await game.stored()).table.host == str(bernd.id)
    await driver.click(bernd, lobby, "Leave")

    assert "closed" in lobby.text and lobby.buttons == []
    assert await game.snapshot() == {}
    reopened = await driver.slash(alice, "geschenkt start")
    assert reopened.message.labels == LOBBY_LABELS


# ---------------------------------------------------------------- a German server


@pytest.mark.guild_locale("de")
async def test_a_german_server_gets_a_german_table(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    table = await start_german_table(game.driver, "geschenkt", alice, [bernd, chloe])
    state = await game.state()
    assert table.labels == ["Nehmen", "Nein danke", "Meine Hand", "Protokoll"]
    shown = f"Offen liegt die **{state.current}** mit **0** Chips darauf · noch 23 Karten."
    assert shown in table.text and "ist am Zug: Nehmen oder Nein danke." in table.text
    assert "Ausliegende Karten" in table.text and "keine Karten" in table.text

    english = (await game.driver.click(alice, table, "Meine Hand")).message
    german = (await game.driver.click(bernd, table, "Meine Hand")).message
    assert english.ephemeral_to == alice.id and german.ephemeral_to == bernd.id
    assert "Chips: **11**\nYour cards: none yet" in english.text
    assert "Chips: **11**\nDeine Karten: noch keine" in german.text


async def test_a_move_edits_only_the_open_panels_it_changes(
    game: Game, bot_process: BotFactory
) -> None:
    """A refusal costs the mover a chip and changes nothing the other players' panels
    show (their own cards, chips and score): of the three open panels, only the mover's
    is edited."""
    await bot_process("bot")
    panels = await game.open_with_every_panel()
    turn = await game.next_turn()
    assert turn is not None
    chips = turn.state.chips[turn.state.players.index(turn.player)]
    await game.driver.settle()
    sent_before = len(game.driver.fake.request_log)
    await game.act(turn, REFUSING)
    mover = panels[turn.user.id]
    await game.driver.wait_for(
        lambda: mover in webhook_edits_since(game.driver.fake, sent_before),
        what="the mover's panel edited",
    )
    await game.driver.settle()
    assert webhook_edits_since(game.driver.fake, sent_before) == [mover]
    assert f"Chips: **{chips - 1}**" in game.driver.fake.messages[mover].text
