"""Draughts end to end: a whole game against the computer by `/draughts move`, moves on
the Move panel, a draw by agreement, a resignation out of turn, and a German server.

`bernd` has a German client, so his panels and refusals are in German; `alice` and
`chloe` read English."""

from __future__ import annotations

import random

import pytest

from bot.ai.random_player import CONCESSIONS
from bot.engines.draughts import ENGINE, DraughtsAction, DraughtsState, Position
from bot.render.draughts import move_number, reason_sentence
from bot.storage.tables import GameStore
from tests.e2e.game_driver import GameDriver
from tests.e2e.tables import channel_edits_of, drawn_after
from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory

MOVE = "Move"
Game = GameDriver[DraughtsState, DraughtsAction]


@pytest.fixture
def game(driver: Driver, store: GameStore) -> Game:
    return Game("draughts", driver, store)


async def put(game: Game, fen: str) -> None:
    """Set the running game to the position ``fen`` (White to move), through the
    store as the bot saves it."""
    state = await game.state()
    await game.put(ENGINE.setup(state.players, Position.from_fen(fen)))


def moves(state: DraughtsState) -> list[str]:
    """The moves the player to act may make, without resigning or offering a draw."""
    (player,) = ENGINE.to_act(state)
    actions = [str(action) for action in ENGINE.legal_actions(state, player)]
    return [action for action in actions if action not in CONCESSIONS]


async def test_a_whole_game_against_the_computer_by_typed_moves(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = game.driver.user("alice")
    await game.open(alice, computers=1, level="hard", colour="white", ruleset="turkish")
    state = await game.state()
    assert state.players[0] == str(alice.id), "the host asked for White"
    assert "Rules\nTurkish draughts" in game.message.text
    rng = random.Random(2)
    for _ in range(400):
        turn = await game.next_turn()  # after the computer's move
        if turn is None:
            break
        assert turn.user == alice
        move = rng.choice(moves(turn.state))
        response = await game.move(alice, move, turn.state)
        assert response.message.ephemeral_to == alice.id
        assert move in response.message.text
    else:
        pytest.fail("the game did not end")
    state = await game.state()
    view = ENGINE.view(state, None)
    reason = reason_sentence(view, "en")
    assert reason is not None
    await game.driver.wait_for(lambda: "Moves played" in game.message.text, what="results")
    assert reason in game.message.text
    assert f"Moves played\n{move_number(view)}" in game.message.text, "as the image says"
    assert move_number(view) == view.plies
    assert game.message.filenames == ["table.png"]


async def test_typed_moves_are_shown_through_the_channel_when_discord_refuses_the_token(
    game: Game, bot_process: BotFactory, fake_discord: FakeDiscord
) -> None:
    """A typed move, and the computer's reply, are shown with the token of the host's
    Start click; when Discord refuses it, the bot edits the table through the channel."""
    await bot_process("bot")
    alice = game.driver.user("alice")
    await game.open(alice, computers=1, level="easy", colour="white", ruleset="turkish")
    turn = await game.next_turn()
    assert turn is not None
    edits_before = len(channel_edits_of(fake_discord, game.message))

    fake_discord.clock.advance(15 * 60 + 1)  # to Discord, the Start click's token has expired
    move = moves(turn.state)[0]
    await game.move(alice, move, turn.state)
    turn = await game.next_turn()  # the table shows the move and the computer's reply

    assert turn is not None and ENGINE.view(turn.state, None).plies == 2
    assert len(channel_edits_of(fake_discord, game.message)) > edits_before
    assert {v.kind for v in fake_discord.pop_violations()} == {"token_expired"}


async def test_moves_on_the_panel_a_bad_move_and_a_draw_by_agreement(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = game.driver.user("alice"), game.driver.user("bernd")
    await game.open(alice, [bernd], colour="black")
    state = await game.state()
    white, black = (game.driver.user(n) for n in ("bernd", "alice"))
    assert state.players == [str(white.id), str(black.id)]

    panel = (await game.driver.click(white, game.message, MOVE)).message
    assert panel.ephemeral_to == white.id and panel.filenames == ["table.png"]
    assert "Du spielst **Weiß**." in panel.text
    await game.driver.choose(white, panel, "Wähle einen Stein", ["c3"])
    await game.driver.choose(white, panel, "Wähle seinen Zug", ["c3-c4"])
    await game.driver.click(white, panel, "c3-c4 ziehen")
    state = await game.state()
    assert ENGINE.view(state, None).last_move == "c3-c4"

    before = await game.stored()
    refused = await game.driver.slash(black, "draughts move", move="a6-a4")
    assert refused.message.ephemeral_to == black.id
    assert (await game.stored()).rev == before.rev, "an illegal move changed the game"
    outsider = game.driver.user("chloe")
    refused = await game.driver.slash(outsider, "draughts move", move="a6-a5")
    assert "not playing" in refused.message.text
    assert (await game.stored()).rev == before.rev

    black_panel = (await game.driver.click(black, game.message, MOVE)).message
    await game.driver.click(black, black_panel, "Offer draw")
    assert ENGINE.view(await game.state(), None).draw_offer_by == str(black.id)
    await game.driver.choose(black, black_panel, "Pick a piece", ["a6"])
    await game.driver.choose(black, black_panel, "Pick its move", ["a6-a5"])
    await game.driver.click(black, black_panel, "Play a6-a5")
    await game.driver.wait_for(
        lambda: "Remis annehmen" in panel.labels, what="White's live panel showing the offer"
    )
    await game.driver.click(white, panel, "Remis annehmen")
    state = await game.state()
    assert ENGINE.is_over(state) and ENGINE.view(state, None).reason == "agreement"
    await game.driver.wait_for(lambda: "Draw" in game.message.text, what="the draw")


async def test_resigning_out_of_turn_ends_the_game(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd = game.driver.user("alice"), game.driver.user("bernd")
    await game.open(alice, [bernd], colour="white")
    panel = (await game.driver.click(bernd, game.message, MOVE)).message
    assert "Dein Gegner ist am Zug" in panel.text
    await game.driver.click(bernd, panel, "Aufgeben")
    state = await game.state()
    view = ENGINE.view(state, None)
    assert view.over and view.winner == str(alice.id) and view.reason == "resignation"
    await game.driver.wait_for(lambda: "wins" in game.message.text, what="the result")
    assert "alice" in game.message.text.lower()


@pytest.mark.guild_locale("de")
async def test_a_german_server_sees_a_german_table_and_each_player_their_own_panel(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = game.driver.user("alice"), game.driver.user("bernd")
    game.table = (await game.driver.slash(alice, "draughts start", colour="white")).message
    await game.driver.click(bernd, game.table, "Beitreten")
    await game.driver.click(alice, game.table, "Starten")
    assert "**Alice** (Weiß) ist am Zug." in game.message.text
    assert "Spieler" in game.message.text and "16 Steine" in game.message.text
    assert "Zug" in game.message.labels and MOVE not in game.message.labels
    english = (await game.driver.click(alice, game.message, "Zug")).message
    assert "You play **White**." in english.text
    assert {"Play move", "Offer draw", "Resign"} <= set(english.labels)
    german = (await game.driver.click(bernd, game.message, "Zug")).message
    assert "Du spielst **Schwarz**." in german.text and "Dein Gegner ist am Zug" in german.text
    assert "Aufgeben" in german.labels
    refused = await game.driver.slash(bernd, "draughts move", move="a6-a5")
    assert "nicht am Zug" in refused.message.text


async def test_typed_moves_in_every_form_the_engine_reads(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = game.driver.user("alice"), game.driver.user("bernd")
    await game.open(alice, [bernd], colour="white")

    await put(game, "W:WKg3,a2:Bf3,c3,Kh8,h7")
    await game.typed(alice, "g3xd3xb3")
    assert (await game.state()).last_move == "g3xe3xb3", "another path of the listed capture"
    await game.driver.wait_for(
        lambda: "g3xe3xb3 (2 captured)" in game.message.text, what="the move in words"
    )

    await put(game, "W:WKd1,a2:Bd4,Kh8,h7")
    assert "You played d1xd6 (1 captured)." in await game.typed(alice, "d1–d6"), (
        "an en dash is a dash"
    )
    assert (await game.state()).last_move == "d1xd6", "start and end name the capture"

    await put(game, "W:WKg1,d4:Bg2,h3,a6,f8")
    rev = (await game.stored()).rev
    answer = await game.typed(alice, "g1xa1")
    assert "g1-a1, g1xg8xa8xa1" in answer, "an ambiguous short form lists its candidates"
    assert "mixes - and x" in await game.typed(alice, "d4-d5xd6")
    assert "'i4' is not a square" in await game.typed(alice, "d4-i4")
    assert (await game.stored()).rev == rev, "a refused move changed the game"

    assert "/draughts move resign confirm" in await game.typed(alice, "resign")
    assert not ENGINE.is_over(await game.state()), "a typed resign waits for confirmation"
    assert "You resigned." in await game.typed(alice, "resign confirm")
    view = ENGINE.view(await game.state(), None)
    assert view.over and view.reason == "resignation" and view.winner == str(bernd.id)


async def test_a_computer_declines_a_draw_offer_by_moving_on(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = game.driver.user("alice")
    await game.open(alice, computers=1, level="hard", colour="white")
    await put(game, "W:Wa2:BKh8,Kg8,Kf8,e7")
    panel = (await game.driver.click(alice, game.message, MOVE)).message
    await game.driver.click(alice, panel, "Offer draw")
    rev = (await game.stored()).rev
    await game.typed(alice, "a2-b2")
    await game.driver.wait_for(drawn_after(game.message, rev + 1), what="the computer's move")
    assert "declined the draw offer and played" in game.message.text
    assert ENGINE.view(await game.state(), None).draw_offer_by is None


async def test_a_computer_accepts_a_draw_offer_and_the_open_panel_says_the_game_is_over(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = game.driver.user("alice")
    await game.open(alice, computers=1, level="hard", colour="white")
    await put(game, "W:WKa1,Kb1,Kc1:Bh7,g7")
    panel = (await game.driver.click(alice, game.message, MOVE)).message
    await game.driver.click(alice, panel, "Offer draw")
    await game.typed(alice, "a1-a2")
    await game.driver.wait_for(lambda: "**Draw.** By agreement." in game.message.text, what="draw")
    await game.driver.wait_for(
        lambda: "The game is over:** a draw." in panel.text, what="the panel at the end"
    )
    assert "Offer draw" not in panel.labels and "Resign" not in panel.labels
