"""Escalation end to end: whole games played through the private hand panel.

People pick cards in the panel's select menu and press Play, or Take the pile; every
move is checked against the engine and the game the bot stored in Redis.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot.engines.escalation import (
    ENGINE,
    TAKE,
    EscalationAction,
    EscalationState,
    card_value,
    is_pass_through,
)
from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore, Stored
from tests.e2e.tables import drawn_after, drawn_at, start_german_table
from tests.harness.driver import Driver, Response
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

HAND = "My hand"
PICKER = {"en": "Pick the cards to play", "de": "Wähl die Karten aus, die du spielen willst"}
TAKE_PILE = {"en": "Take the pile", "de": "Ablage nehmen"}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
TURN = re.compile(r"<@(\d+)>, your turn\.")


def label(card: object) -> str:
    text = str(card)
    return text[:-1] + SUITS[text[-1]]


def lang(user: FakeUser) -> str:
    """The language of ``user``'s panels: German for a German Discord locale."""
    return "de" if user.locale.startswith("de") else "en"


def play_label(user: FakeUser, cards: list[object]) -> str:
    """The Play button of ``user``'s panel with ``cards`` picked."""
    shown = " ".join(label(card) for card in cards)
    return f"{shown} spielen" if lang(user) == "de" else f"Play {shown}"


@dataclass
class Game:
    """One channel's Escalation game as the test sees it."""

    driver: Driver
    store: GameStore
    people: list[FakeUser]
    table: FakeMessage | None = None
    panels: dict[int, FakeMessage] = field(default_factory=dict)
    """Each person's private panel, opened once and reused for the whole game."""

    async def stored(self) -> Stored:
        stored = await self.store.load(self.driver.fake.guild_id, self.driver.channel)
        assert stored is not None, "no game in Redis"
        return stored

    async def state(self) -> EscalationState:
        stored = await self.stored()
        assert stored.table.state is not None
        return ENGINE.State.model_validate(stored.table.state)

    @property
    def message(self) -> FakeMessage:
        assert self.table is not None
        return self.table

    def user(self, player: str) -> FakeUser:
        return next(user for user in self.people if str(user.id) == player)

    async def open(self, host: FakeUser, guests: list[FakeUser], computers: int = 0) -> None:
        self.table = (await self.driver.slash(host, "escalation start")).message
        for guest in guests:
            await self.driver.click(guest, self.table, "Join")
        for _ in range(computers):
            await self.driver.choose(host, self.table, "Add computer player…", ["hard"])
        await self.driver.click(host, self.table, "Start")
        assert self.table.labels == [HAND, "Log"]
        assert (await self.stored()).table.phase == "playing"

    async def panel(self, user: FakeUser) -> FakeMessage:
        """The user's panel: opened with My hand the first time, then reused."""
        if user.id not in self.panels:
            assert self.table is not None
            response = await self.driver.click(user, self.table, HAND)
            panel = response.message
            assert panel.ephemeral_to == user.id
            self.panels[user.id] = panel
        panel = self.panels[user.id]
        state = await self.state()
        player = str(user.id)
        hand = [label(card) for card in state.hands[state.players.index(player)]]
        can_take = player in ENGINE.to_act(state) and TAKE in ENGINE.legal_actions(state, player)

        def current() -> bool:
            options = [option["label"] for option in panel.selects[0]["options"]]
            take = next(b for b in panel.buttons if b.get("label") == TAKE_PILE[lang(user)])
            return options == hand and bool(take.get("disabled")) != can_take

        # The panel follows the game by itself after others move; wait for that edit.
        await self.driver.wait_for(current, what="the panel to show the current hand")
        return panel

    async def move(self, user: FakeUser, action: EscalationAction) -> Response:
        """``user`` makes ``action`` on their panel: pick its cards and Play, or Take."""
        panel = await self.panel(user)
        if action == TAKE:
            return await self.driver.click(user, panel, TAKE_PILE[lang(user)])
        values = [str(card) for card in action.cards]
        await self.driver.choose(user, panel, PICKER[lang(user)], values)
        return await self.driver.click(user, panel, play_label(user, list(action.cards)))


def pick_action(rng: random.Random, legal: list[EscalationAction]) -> EscalationAction:
    """Mostly play (so games end), sometimes take the pile."""
    plays = [action for action in legal if action != TAKE]
    if TAKE in legal and (not plays or rng.random() < 0.15):
        return TAKE
    return rng.choice(plays)


@pytest.fixture
async def game(driver: Driver, redis_server: str) -> AsyncIterator[Game]:
    client = client_for_url(redis_server)
    people = [driver.user(name) for name in ("alice", "bernd", "chloe")]
    yield Game(driver, GameStore(client), people)
    await client.aclose()


async def test_two_people_play_a_whole_game_on_their_panels(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    await game.open(alice, [bernd])
    rng = random.Random(11)
    moves = 0
    while not ENGINE.is_over(state := await game.state()):
        (player,) = ENGINE.to_act(state)
        user = game.user(player)
        rev = (await game.stored()).rev
        await game.driver.wait_for(drawn_at(game.message, rev), what="the table")
        assert TURN.fullmatch(game.message.content)[1] == player  # type: ignore[index]
        action = pick_action(rng, ENGINE.legal_actions(state, player))
        before = await game.stored()
        response = await game.move(user, action)
        assert response.message.ephemeral_to == user.id
        after = await game.stored()
        assert after.rev == before.rev + 1
        assert ENGINE.State.model_validate(after.table.state) == ENGINE.apply(state, player, action)
        moves += 1
        assert moves < 400, "the game does not end"
    await game.driver.wait_for(lambda: "win" in game.table.text, what="the results")  # type: ignore[union-attr]
    outcome = ENGINE.outcome(state)
    for user in (alice, bernd):
        assert f"**{outcome.places[str(user.id)]}.** {user.display_name}" in game.table.text  # type: ignore[union-attr]
    assert game.table is not None and game.table.labels == ["Rematch", "Replay"]


async def test_an_illegal_pick_is_explained_and_cannot_be_played(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe])
    rng = random.Random(5)
    # Play until someone must beat a value and holds a card that doesn't.
    for _ in range(200):
        state = await game.state()
        (player,) = ENGINE.to_act(state)
        user = game.user(player)
        hand = state.hands[state.players.index(player)]
        value = state.value_in_force
        weak = [c for c in hand if not is_pass_through(c) and card_value(c) <= (value or 0)]
        if value is not None and weak:
            break
        await game.move(user, pick_action(rng, ENGINE.legal_actions(state, player)))
    else:
        pytest.fail("no position with a card too weak to play came up")
    before = await game.stored()
    panel = await game.panel(user)
    card = weak[0]
    await game.driver.choose(user, panel, PICKER[lang(user)], [str(card)])
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
    refused = await game.driver.click(outsider, game.table, HAND)  # type: ignore[arg-type]
    assert "not playing" in refused.message.text
    assert refused.message.ephemeral_to == outsider.id
    assert (await game.stored()).rev == before.rev


async def test_a_person_plays_against_a_computer_to_the_end(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = game.people[0]
    await game.open(alice, [], computers=1)
    rng = random.Random(3)
    for _ in range(300):
        stored = await game.stored()
        state = ENGINE.State.model_validate(stored.table.state)
        if ENGINE.is_over(state):
            break
        if ENGINE.to_act(state) != [str(alice.id)]:
            await game.driver.wait_for(
                drawn_after(game.message, stored.rev), what="the computer's move"
            )
            continue
        await game.move(alice, pick_action(rng, ENGINE.legal_actions(state, str(alice.id))))
    else:
        pytest.fail("the game does not end")
    await game.driver.wait_for(lambda: "win" in game.table.text, what="the results")  # type: ignore[union-attr]
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
    game.table = (await game.driver.slash(alice, "escalation start", deals=2)).message
    await game.driver.click(bernd, game.table, "Join")
    await game.driver.click(alice, game.table, "Start")
    rng = random.Random(7)
    seen_disabled_take = False
    for _ in range(400):
        state = await game.state()
        if state.deal > 0:
            break
        (player,) = ENGINE.to_act(state)
        user = game.user(player)
        panel = await game.panel(user)
        if state.value_in_force is None:
            take = next(b for b in panel.buttons if b.get("label") == TAKE_PILE[lang(user)])
            seen_disabled_take = seen_disabled_take or bool(take.get("disabled"))
        action = pick_action(rng, ENGINE.legal_actions(state, player))
        rev = (await game.stored()).rev
        await game.move(user, action)
        await game.driver.wait_for(drawn_after(game.message, rev), what="the table")
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
