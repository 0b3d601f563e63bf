"""Escalation end to end: whole games played through the private hand panel.

People pick cards in the panel's select menu and press Play, or Take the pile; every
move is checked against the engine and the game the bot stored in Redis.
"""

from __future__ import annotations

import random

import pytest

from bot.engines.escalation import (
    ENGINE,
    TAKE,
    EscalationAction,
    EscalationState,
    card_value,
    is_pass_through,
)
from bot.storage.tables import GameStore
from tests.e2e.game_driver import (
    HAND,
    PICKER,
    TAKE_PILE,
    GameDriver,
    lang,
    pick_action,
    play_label,
)
from tests.e2e.game_driver import suited as label
from tests.e2e.tables import start_german_table, webhook_edits_since
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory

Game = GameDriver[EscalationState, EscalationAction]


@pytest.fixture
def game(driver: Driver, store: GameStore) -> Game:
    return Game("escalation", driver, store)


async def test_two_people_play_a_whole_game_on_their_panels(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.open(alice, [bernd])
    rng = random.Random(11)
    moves = 0
    while (turn := await game.next_turn()) is not None:  # the table shows the stored game
        assert game.to_act() == turn.user, "the table names someone else"
        action = pick_action(rng, game.legal(turn))
        played = await game.act(turn, action)  # the stored game moved by the action, a revision
        assert played.response.message.ephemeral_to == turn.user.id
        moves += 1
        assert moves < 400, "the game does not end"
    state = await game.state()
    await game.driver.wait_for(lambda: "win" in game.message.text, what="the results")
    outcome = ENGINE.outcome(state)
    for user in (alice, bernd):
        assert f"**{outcome.places[str(user.id)]}.** {user.display_name}" in game.message.text
    assert game.message.labels == ["Rematch", "Replay"]


async def test_an_illegal_pick_is_explained_and_cannot_be_played(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    rng = random.Random(5)
    # Play until someone must beat a value and holds a card that doesn't.
    for _ in range(200):
        turn = await game.next_turn()
        assert turn is not None, "the game ended"
        state, player, user = turn.state, turn.player, turn.user
        hand = state.hands[state.players.index(player)]
        value = state.value_in_force
        weak = [c for c in hand if not is_pass_through(c) and card_value(c) <= (value or 0)]
        if value is not None and weak:
            break
        await game.move(user, pick_action(rng, game.legal(turn)), state)
    else:
        pytest.fail("no position with a card too weak to play came up")
    before = await game.stored()
    panel = await game.panel(user)
    card = weak[0]
    await game.choose(user, PICKER[lang(user)], [str(card)], panel)
    judged = {
        "en": f"✗ {card_value(card)} doesn't beat {value}.",
        "de": f"✗ {card_value(card)} schlägt {value} nicht.",
    }
    assert judged[lang(user)] in panel.text, panel.text
    # A play the engine would refuse can't be pressed.
    play = next(b for b in panel.buttons if b.get("label") == play_label(user, [card]))
    assert play.get("disabled"), play
    with pytest.raises(AssertionError, match="disabled"):
        await game.driver.click(user, panel, play_label(user, [card]))
    assert (await game.stored()).rev == before.rev, "an illegal play changed the game"

    outsider = game.driver.user("dmitri")
    refused = await game.driver.click(outsider, game.message, HAND)
    assert "not playing" in refused.message.text
    assert refused.message.ephemeral_to == outsider.id
    assert (await game.stored()).rev == before.rev


async def test_a_person_plays_against_a_computer_to_the_end(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = game.people[0]
    await game.open(alice, computers=1, level="hard")
    rng = random.Random(3)
    for _ in range(300):
        turn = await game.next_turn()  # after the computer's moves
        if turn is None:
            break
        assert turn.user == alice
        await game.move(alice, pick_action(rng, game.legal(turn)), turn.state)
    else:
        pytest.fail("the game does not end")
    await game.driver.wait_for(lambda: "win" in game.message.text, what="the results")
    assert "🤖 Hard" in game.message.text


@pytest.mark.guild_locale("de")
async def test_a_german_server_gets_a_german_table(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    table = await start_german_table(game.driver, "escalation", alice, [bernd])
    state = await game.state()
    leader = game.user(state.players[state.turn]).display_name
    assert table.labels == ["Meine Hand", "Protokoll"]
    assert f"**{leader}** eröffnet die nächste Runde." in table.text, table.text
    assert "Richtung: im Uhrzeigersinn · Nachziehstapel: " in table.text
    assert "Drück **Meine Hand**, um deine Karten zu sehen und zu spielen." in table.text
    assert "auf der Hand · 0 im Strafstapel" in table.text

    english = (await game.driver.click(alice, table, "Meine Hand")).message
    german = (await game.driver.click(bernd, table, "Meine Hand")).message
    assert english.ephemeral_to == alice.id and german.ephemeral_to == bernd.id
    assert "Your hand: " in english.text and english.selects[0]["placeholder"] == PICKER["en"]
    assert "Deine Hand: " in german.text and german.selects[0]["placeholder"] == PICKER["de"]
    assert TAKE_PILE["en"] in english.labels and TAKE_PILE["de"] in german.labels


async def test_a_deal_ends_with_a_summary_and_moves_read_in_words(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.open(alice, [bernd], deals=2)
    rng = random.Random(7)
    seen_disabled_take = False
    for _ in range(400):
        turn = await game.next_turn()
        assert turn is not None, "the match ended"
        state, user = turn.state, turn.user
        if state.deal > 0:
            break
        panel = await game.panel(user, state)
        if state.value_in_force is None:
            take = next(b for b in panel.buttons if b.get("label") == TAKE_PILE[lang(user)])
            seen_disabled_take = seen_disabled_take or bool(take.get("disabled"))
        action = pick_action(rng, game.legal(turn))
        await game.move(user, action, state)
        await game.redrawn(turn.stored.rev)
        name = user.display_name
        if action == TAKE:
            assert f"**{name}**: took the pile (" in game.message.text, game.message.text
        elif ENGINE.State.model_validate((await game.stored()).table.state).deal == 0:
            shown = " ".join(label(card) for card in action.cards)
            assert f"**{name}**: played {shown}" in game.message.text, game.message.text
    else:
        pytest.fail("the first deal does not end")
    assert seen_disabled_take, "Take the pile was offered to a leader"
    (result,) = state.results
    winner = game.user(state.players[result.winner]).display_name
    headline = f"**{winner}** went out and wins deal 1 of 2."
    await game.driver.wait_for(
        lambda: headline in game.message.text, what="the deal's result on the table"
    )
    text = game.message.text
    posted = [m.text for m in game.driver.messages(game.driver.channel) if headline in m.text]
    assert posted == [text], "the deal's result is on the table, not in a post of its own"
    for seat, chips in enumerate(result.chips):
        name = game.user(state.players[seat]).display_name
        shown = f"{chips:+d}".replace("-", "−") if chips else "0"
        assert f"**{name}**: {shown} this deal" in text, text
    assert f"**{winner}**: played " in game.message.text and "went out" in game.message.text


async def test_the_panel_of_the_player_whose_turn_it_now_is_is_edited_first(
    game: Game, bot_process: BotFactory
) -> None:
    """A play hands the turn on: the next player's open panel is edited at once, before
    the third player's, whose edit waits out the short delay that coalesces a quick
    table's moves, so the player the game waits for never waits behind the others."""
    await bot_process("bot")
    panels = await game.open_with_every_panel()
    turn = await game.next_turn()
    assert turn is not None
    await game.driver.settle()
    sent_before = len(game.driver.fake.request_log)
    await game.act(turn, pick_action(random.Random(3), game.legal(turn)))
    (waited_for,) = ENGINE.to_act(await game.state())
    (third,) = {user.id for user in game.people} - {turn.user.id, int(waited_for)}
    others = (panels[int(waited_for)], panels[third])

    def others_edited() -> list[int]:  # the mover's own panel may be replaced meanwhile
        edits = webhook_edits_since(game.driver.fake, sent_before)
        return [message for message in edits if message in others]

    await game.driver.wait_for(
        lambda: panels[third] in others_edited(), what="the third player's panel edited"
    )
    assert others_edited()[0] == panels[int(waited_for)], others_edited()
