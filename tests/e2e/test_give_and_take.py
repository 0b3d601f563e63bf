"""Give & Take end to end: the director's Go, the capturer's pile choice, the default
pile after the timeout, to the final places."""

from __future__ import annotations

import random

import pytest

from bot.engines.give_and_take import (
    ENGINE,
    GO,
    GiveAndTakeAction,
    GiveAndTakeState,
    default_action,
)
from bot.storage.tables import GameStore
from tests.e2e.game_driver import GameDriver, version_text, versions
from tests.e2e.tables import start_german_table
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory

GO_LABEL = "Go!"
PILES = "My piles"
Game = GameDriver[GiveAndTakeState, GiveAndTakeAction]


@pytest.fixture
def game(driver: Driver, store: GameStore) -> Game:
    return Game("give_and_take", driver, store)


async def test_three_people_play_to_the_final_places(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe], turn_cap=20)
    rng = random.Random(4)
    for _ in range(500):
        turn = await game.next_turn()
        if turn is None:
            break
        state, player = turn.state, turn.player
        view = ENGINE.view(state, None)
        if view.phase == "go":
            alice_out = state.out[state.players.index(str(alice.id))]
            assert player == view.director
            assert alice_out or player == str(alice.id), "the host is the director"
            assert game.message.labels == [GO_LABEL, PILES, "Log"]
            action = GO
        else:
            action = rng.choice(game.legal(turn))
        # Go!, or the Give or Take pile button; the stored game moved by it, a revision.
        await game.act(turn, action)
    else:
        pytest.fail("the game did not end within the turn cap")
    state = await game.state()
    await game.driver.wait_for(lambda: "win" in game.message.text, what="the results")
    outcome = ENGINE.outcome(state)
    for user in game.people:
        assert f"**{outcome.places[str(user.id)]}.** {user.display_name}" in game.message.text
    assert game.message.filenames == ["table.png"]


async def test_only_the_director_cues_and_my_piles_is_private(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.open(alice, [bernd])
    before = await game.stored()
    refused = await game.driver.click(bernd, game.message, GO_LABEL)
    assert refused.message.ephemeral_to == bernd.id
    # Bernd's client is German: his refusal is too.
    assert refused.message.text == "Nur die Spielleitung gibt das Zeichen zum nächsten Aufdecken."
    assert (await game.stored()).rev == before.rev

    piles = (await game.driver.click(bernd, game.message, PILES)).message
    state = await game.state()
    seat = state.players.index(str(bernd.id))
    assert piles.ephemeral_to == bernd.id
    assert f"Dein Gebestapel: **{len(state.give[seat])}**" in piles.text
    assert f"Dein Nehmestapel: **{len(state.take[seat])}**" in piles.text
    assert "Dein Duett: deine Nehmekarte + die Gebekarte von **Alice**" in piles.text
    assert not {GO_LABEL, "Los!"} & set(piles.labels), "only the director gets Go"

    # The director's own panel carries Go: one click there starts the turn.
    director = (await game.driver.click(alice, game.message, PILES)).message
    assert director.ephemeral_to == alice.id and GO_LABEL in director.labels
    await game.driver.click(alice, director, GO_LABEL)
    assert (await game.stored()).rev == before.rev + 1
    assert ENGINE.State.model_validate((await game.stored()).table.state) == ENGINE.apply(
        state, str(alice.id), GO
    )


async def test_the_default_pile_is_chosen_when_the_capturer_waits(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot", env={"CHOICE_TIMEOUT_SECONDS": "0.5"})
    alice, bernd, _ = game.people
    await game.open(alice, [bernd])
    for _ in range(20):
        await game.driver.click(alice, game.message, GO_LABEL)
        state = await game.state()
        if ENGINE.view(state, None).phase == "choose":
            break
    else:
        pytest.fail("no capture in 20 turns")
    waiting = await game.stored()
    (capturer,) = ENGINE.to_act(state)
    default = default_action(state)
    assert default is not None

    await game.driver.wait_for(lambda: GO_LABEL in game.message.labels, what="the default pile")

    after = await game.stored()
    assert after.rev == waiting.rev + 1
    assert ENGINE.State.model_validate(after.table.state) == ENGINE.apply(state, capturer, default)
    # While the capturer could choose, the table said how long was left and what then.
    asked = [v for v in versions(game.message) if "If the clock runs out first" in version_text(v)]
    assert asked, "the table never said what happens when the time runs out"
    assert "Turn clock" in version_text(asked[-1]) and "<t:" in version_text(asked[-1])
    # Afterwards it says the bot chose, and what.
    name = game.user(capturer).display_name
    n = ENGINE.view(state, None).capture_size
    chose = f"Time was up, so the bot chose for **{name}**: put {n} cards under the {default} pile"
    assert chose in version_text(game.message)


@pytest.mark.guild_locale("de")
async def test_a_german_server_gets_a_german_table(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    table = await start_german_table(game.driver, "give_and_take", alice, [bernd])
    assert (await game.stored()).table.phase == "playing"
    assert table.labels == ["Los!", "Meine Stapel", "Protokoll"]
    assert "Warten, bis **Alice** auf „Los!“ drückt." in table.text
    assert "Spieler" in table.text and "Runde 1 von höchstens 500" in table.text

    english = (await game.driver.click(alice, table, "Meine Stapel")).message
    german = (await game.driver.click(bernd, table, "Meine Stapel")).message
    assert english.ephemeral_to == alice.id and german.ephemeral_to == bernd.id
    assert "Your give pile: **" in english.text
    assert "Dein Gebestapel: **" in german.text
