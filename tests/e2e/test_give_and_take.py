"""Give & Take end to end: the director's Go, the capturer's pile choice, the default
pile after the timeout, to the final places."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.engines.give_and_take import (
    ENGINE,
    GO,
    GiveAndTakeState,
    default_action,
)
from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore, Stored
from tests.e2e.tables import start_german_table
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser, MessageVersion, without_isolates

GO_LABEL = "Go!"
PILES = "My piles"


@dataclass
class Game:
    driver: Driver
    store: GameStore
    people: list[FakeUser]
    table: FakeMessage | None = None

    async def stored(self) -> Stored:
        stored = await self.store.load(self.driver.fake.guild_id, self.driver.channel)
        assert stored is not None, "no game in Redis"
        return stored

    async def state(self) -> GiveAndTakeState:
        stored = await self.stored()
        assert stored.table.state is not None
        return ENGINE.State.model_validate(stored.table.state)

    def user(self, player: str) -> FakeUser:
        return next(user for user in self.people if str(user.id) == player)

    @property
    def message(self) -> FakeMessage:
        assert self.table is not None
        return self.table

    async def open(self, host: FakeUser, guests: list[FakeUser], **options: Any) -> None:
        self.table = (await self.driver.slash(host, "give_and_take start", **options)).message
        for guest in guests:
            await self.driver.click(guest, self.table, "Join")
        await self.driver.click(host, self.table, "Start")
        assert (await self.stored()).table.phase == "playing"

    def pile_button(self, pile: str) -> str:
        (label,) = [label for label in self.message.labels if label.startswith(pile)]
        return label


def versions(message: FakeMessage) -> list[MessageVersion | FakeMessage]:
    return [*message.history, message]


def text_of(version: MessageVersion | FakeMessage) -> str:
    """What a person reads on one version of a message: content and embeds."""
    parts = [version.content]
    for embed in version.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for embed_field in embed.get("fields") or []:
            parts += [embed_field.get("name", ""), embed_field.get("value", "")]
    return without_isolates("\n".join(parts))


@pytest.fixture
async def game(driver: Driver, redis_server: str) -> AsyncIterator[Game]:
    client = client_for_url(redis_server)
    people = [driver.user(name) for name in ("alice", "bernd", "chloe")]
    yield Game(driver, GameStore(client), people)
    await client.aclose()


async def test_three_people_play_to_the_final_places(game: Game, bot_process: BotFactory) -> None:
    await bot_process("bot")
    alice, bernd, chloe = game.people
    await game.open(alice, [bernd, chloe], turn_cap=20)
    rng = random.Random(4)
    for _ in range(500):
        state = await game.state()
        if ENGINE.is_over(state):
            break
        (player,) = ENGINE.to_act(state)
        view = ENGINE.view(state, None)
        if view.phase == "go":
            alice_out = state.out[state.players.index(str(alice.id))]
            assert player == view.director
            assert alice_out or player == str(alice.id), "the host is the director"
            assert game.message.labels == [GO_LABEL, PILES, "Log"]
            action, label = GO, GO_LABEL
        else:
            action = rng.choice(ENGINE.legal_actions(state, player))
            label = game.pile_button("Give pile" if str(action) == "give" else "Take pile")
        before = await game.stored()
        await game.driver.click(game.user(player), game.message, label)
        after = await game.stored()
        assert after.rev == before.rev + 1
        assert ENGINE.State.model_validate(after.table.state) == ENGINE.apply(state, player, action)
    else:
        pytest.fail("the game did not end within the turn cap")
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
    asked = [v for v in versions(game.message) if "If the clock runs out first" in text_of(v)]
    assert asked, "the table never said what happens when the time runs out"
    assert "Turn clock" in text_of(asked[-1]) and "<t:" in text_of(asked[-1])
    # Afterwards it says the bot chose, and what.
    name = game.user(capturer).display_name
    n = ENGINE.view(state, None).capture_size
    chose = f"Time was up, so the bot chose for **{name}**: put {n} cards under the {default} pile"
    assert chose in text_of(game.message)


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
