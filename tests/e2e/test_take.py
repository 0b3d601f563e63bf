"""TAKE end to end: a whole hand played on the hand panels, every move checked against
the engine and the game stored in Redis."""

from __future__ import annotations

import random

import pytest

from bot.engines.take import ENGINE, TakeAction, TakeState
from bot.render.text import signed
from bot.storage.tables import GameStore
from tests.e2e.game_driver import GameDriver, pick, says
from tests.e2e.tables import start_german_table
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory

HAND = "My hand"
Game = GameDriver[TakeState, TakeAction]


@pytest.fixture
def game(driver: Driver, store: GameStore) -> Game:
    return Game("take", driver, store)


async def test_two_people_play_a_whole_hand_on_their_panels(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.open(alice, [bernd], target=2000)
    game.watch_table = False  # they play on their panels; the table is checked at the end
    rng = random.Random(6)
    clicks: dict[str, list[int]] = {"draw": [], "meld": [], "add": [], "discard": []}
    for _ in range(600):
        turn = await game.next_turn()
        assert turn is not None, "the match ended"
        state = turn.state
        if state.results:
            break
        action = pick(rng, game.legal(turn))
        await game.panel(turn.user, state)
        counted = game.clicks
        await game.act(turn, action)  # the stored game moved by the action, a revision
        clicks[action.kind].append(game.clicks - counted)
    else:
        pytest.fail("the hand did not end")
    # Draw in one click, each meld or add picked and confirmed (a third click only when
    # the same cards make several moves), the discard in one click, and no Refresh.
    assert set(clicks["draw"]) == {1} and set(clicks["discard"]) <= {1}, clicks
    assert all(2 <= n <= 3 for n in clicks["meld"] + clicks["add"]), clicks
    turns = len(clicks["draw"])
    per_turn = (game.clicks - len(game.panels)) / turns
    laying = len(clicks["meld"]) + len(clicks["add"])
    assert per_turn <= 2 + 3 * laying / turns, (per_turn, clicks)
    assert per_turn < 4.6, per_turn
    await game.driver.wait_for(
        lambda: "Last deal" in game.message.text, what="the deal's scores on the table"
    )
    (result,) = state.results
    summary = game.message.text
    if result.went_out is None:
        assert "Deal 1 ended: the stock ran out." in summary, summary
    else:
        out = game.user(state.players[result.went_out]).display_name
        assert f"Deal 1 ended: **{out}** went out." in summary, summary
        assert f"**{out}**: went out discarding " in summary, summary
    for seat, score in enumerate(result.scores):
        name = game.user(state.players[seat]).display_name
        assert (
            f"**{name}**: laid {result.laid[seat]} − held {result.held[seat]} = **{signed(score)}**"
            in summary
        )
    posted = [m for m in game.driver.messages(game.driver.channel) if "Deal 1 ended" in m.text]
    assert posted == [game.message], "the deal's result is on the table, not in a post"
    for panel in game.panels.values():
        owner = game.user(str(panel.ephemeral_to))
        others = [u for u in game.people if u is not owner]
        assert all(panel.ephemeral_to != other.id for other in others)


async def test_a_move_no_longer_legal_is_explained_and_changes_nothing(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.open(alice, [bernd])
    state = await game.state()
    (player,) = ENGINE.to_act(state)
    user = game.user(player)
    first = (await game.driver.click(user, game.message, HAND)).message
    second = (await game.driver.click(user, game.message, HAND)).message
    assert first is not second
    draw = says(user, "Draw from the stock")
    # The second panel retires the first, so only one offers the draw.
    await game.driver.wait_for(lambda: not first.components, what="the first panel retired")
    await game.driver.click(user, second, draw)
    before = await game.stored()
    assert before.table.state != state.model_dump(mode="json")
    assert draw not in second.labels, "the panel was not redrawn after the draw"
    assert (await game.stored()).rev == before.rev

    other = game.user(next(p for p in state.players if p != player))
    waiting = (await game.driver.click(other, game.message, HAND)).message
    turn = "It's {name}'s turn; this panel follows the game."
    assert says(other, turn, name=user.display_name) in waiting.text
    assert waiting.ephemeral_to == other.id
    assert waiting.selects == [] and waiting.labels == [says(other, "Refresh")]


# ---------------------------------------------------------------- a German server


@pytest.mark.guild_locale("de")
async def test_a_german_server_gets_a_german_table(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    table = await start_german_table(game.driver, "take", alice, [bernd])
    state = await game.state()
    assert "Meine Hand" in table.labels
    assert "Durchgang 1 · Ziel 500." in table.text and "zieht." in table.text
    assert "Ablagestapel: **" in table.text and "7 Karten · ausgelegt 0 · gesamt 0" in table.text

    english = (await game.driver.click(alice, table, "Meine Hand")).message
    german = (await game.driver.click(bernd, table, "Meine Hand")).message
    assert english.ephemeral_to == alice.id and german.ephemeral_to == bernd.id
    assert "\nYour hand: " in english.text and "\nDeine Hand: " in german.text
    first = game.user(state.players[state.turn])
    panel, other = (english, german) if first is alice else (german, english)
    if first is alice:
        assert "Draw a card to start your turn." in panel.text
        assert "Draw from the stock" in panel.labels
        assert "ist am Zug" in other.text and other.labels == ["Aktualisieren"]
    else:
        assert "Zieh eine Karte, um deinen Zug zu beginnen." in panel.text
        assert "Vom Nachziehstapel ziehen" in panel.labels
        assert "'s turn" in other.text and other.labels == ["Refresh"]

    # The last move reads as a sentence in the server's language, not as move notation.
    drawer = "Vom Nachziehstapel ziehen" if first is bernd else "Draw from the stock"
    await game.driver.click(first, panel, drawer)
    name = first.display_name
    await game.driver.wait_for(
        lambda: f"{name} zog vom Nachziehstapel" in table.text, what="the last move in German"
    )
    assert "Letzter Zug" in table.text and "draw stock" not in table.text


async def test_ten_card_hands_with_three_players_are_refused_at_the_start(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.lobby(alice, hand_size=10)
    await game.join(bernd)
    await game.join(chloe)
    refused = await game.driver.click(alice, game.message, "Start")
    assert refused.message.ephemeral_to == alice.id
    assert "Hands of 10 cards are for two players only" in refused.message.text
    assert (await game.stored()).table.phase == "lobby"
