"""TAKE end to end: a whole hand played on the hand panels, every move checked against
the engine and the game stored in Redis."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot.engines.take import ENGINE, TakeAction, TakeState, take_victims
from bot.i18n import lang_of, tr
from bot.store import GameStore, Stored, client_for_url
from tests.e2e.tables import start_german_table
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser

HAND = "My hand"


def says(user: FakeUser, english: str, /, **params: object) -> str:
    """What ``user``'s own panel says for ``english`` (bernd and felix read German)."""
    return tr(lang_of(user.locale), english, **params)


def card_value(cards: list[str], card: str) -> str:
    """The panel's select value for ``card``: its text and which copy it is."""
    return f"{card}.{Counter(cards[: cards.index(card)])[card]}"


@dataclass
class Game:
    driver: Driver
    store: GameStore
    people: list[FakeUser]
    table: FakeMessage | None = None
    panels: dict[int, FakeMessage] = field(default_factory=dict)

    async def stored(self) -> Stored:
        stored = await self.store.load(self.driver.fake.guild_id, self.driver.channel)
        assert stored is not None, "no game in Redis"
        return stored

    async def state(self) -> TakeState:
        stored = await self.stored()
        assert stored.table.state is not None
        return ENGINE.State.model_validate(stored.table.state)

    def user(self, player: str) -> FakeUser:
        return next(user for user in self.people if str(user.id) == player)

    @property
    def message(self) -> FakeMessage:
        assert self.table is not None
        return self.table

    async def panel(self, user: FakeUser) -> FakeMessage:
        if user.id not in self.panels:
            response = await self.driver.click(user, self.message, HAND)
            assert response.message.ephemeral_to == user.id
            self.panels[user.id] = response.message
        return self.panels[user.id]

    async def move(self, user: FakeUser, state: TakeState, action: TakeAction) -> None:
        """Make ``action`` on the user's panel the way a person would."""
        panel = await self.panel(user)
        if action.kind == "draw":
            wanted = says(
                user, "Draw from the stock" if action.source == "stock" else "Take the discard"
            )
            if wanted not in panel.labels:  # a panel drawn before this turn: refresh it
                await self.driver.click(user, self.message, HAND)
                panel = self.panels[user.id] = self.driver.ephemerals(user)[-1]
            await self.driver.click(user, panel, wanted)
            return
        pick_cards, choose_move = says(user, "Pick cards"), says(user, "Choose the move")
        if pick_cards not in [s.get("placeholder") for s in panel.selects]:
            await self.driver.click(user, self.message, HAND)
            panel = self.panels[user.id] = self.driver.ephemerals(user)[-1]
        hand = [str(card) for card in state.hands[state.players.index(str(user.id))]]
        values = []
        for card in action.cards:
            remaining = [c if f"{c}.{i}" not in values else "" for i, c in enumerate(hand)]
            values.append(card_value(remaining, str(card)))
        await self.driver.choose(user, panel, pick_cards, values)
        move_select = next(s for s in panel.selects if s.get("placeholder") == choose_move)
        key = str(action)
        chosen = [o["value"] for o in move_select["options"] if o.get("default")]
        if chosen != [key]:
            await self.driver.choose(user, panel, choose_move, [key])
        confirmed = says(user, "Confirm: {move}", move="")
        (confirm,) = [label for label in panel.labels if label.startswith(confirmed)]
        if take_victims(state, action):
            assert "TAKE" in confirm, f"a take not announced as one: {confirm}"
        await self.driver.click(user, panel, confirm)


def pick(rng: random.Random, legal: list[TakeAction]) -> TakeAction:
    """Lay down whenever possible (so the hand ends), else discard or draw."""
    laying = [action for action in legal if action.kind in ("meld", "add")]
    return rng.choice(laying or legal)


@pytest.fixture
async def game(driver: Driver, redis_server: str) -> AsyncIterator[Game]:
    client = client_for_url(redis_server)
    people = [driver.user(name) for name in ("alice", "bernd", "chloe")]
    yield Game(driver, GameStore(client), people)
    await client.aclose()


async def test_two_people_play_a_whole_hand_on_their_panels(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    game.table = (await game.driver.slash(alice, "take start", target=50)).message
    await game.driver.click(bernd, game.message, "Join")
    await game.driver.click(alice, game.message, "Start")
    rng = random.Random(6)
    for _ in range(600):
        state = await game.state()
        if state.results:
            break
        (player,) = ENGINE.to_act(state)
        action = pick(rng, ENGINE.legal_actions(state, player))
        before = await game.stored()
        await game.move(game.user(player), state, action)
        after = await game.stored()
        assert after.rev == before.rev + 1, f"{action} was not applied"
        assert ENGINE.State.model_validate(after.table.state) == ENGINE.apply(state, player, action)
    else:
        pytest.fail("the hand did not end")
    await game.driver.wait_for(
        lambda: "Last hand" in game.message.text or "win" in game.message.text,
        what="the hand's scores on the table",
    )
    for panel in game.panels.values():
        owner = game.user(str(panel.ephemeral_to))
        others = [u for u in game.people if u is not owner]
        assert all(panel.ephemeral_to != other.id for other in others)


async def test_a_move_no_longer_legal_is_explained_and_changes_nothing(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    game.table = (await game.driver.slash(alice, "take start")).message
    await game.driver.click(bernd, game.message, "Join")
    await game.driver.click(alice, game.message, "Start")
    state = await game.state()
    (player,) = ENGINE.to_act(state)
    user = game.user(player)
    first = (await game.driver.click(user, game.message, HAND)).message
    second = (await game.driver.click(user, game.message, HAND)).message
    assert first is not second
    draw = says(user, "Draw from the stock")
    await game.driver.click(user, first, draw)
    before = await game.stored()
    assert before.table.state != state.model_dump(mode="json")

    stale = await game.driver.click(user, second, draw)
    assert stale.message is second and second.ephemeral_to == user.id
    assert draw not in second.labels, "the stale panel was not redrawn"
    assert (await game.stored()).rev == before.rev, "a second draw changed the game"

    other = game.user(next(p for p in state.players if p != player))
    waiting = (await game.driver.click(other, game.message, HAND)).message
    turn = "It's {name}'s turn. Your panel updates when you use it."
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
    assert "Ablagestapel: **" in table.text and "7 Karten · Reihen 0 · gesamt 0" in table.text

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
