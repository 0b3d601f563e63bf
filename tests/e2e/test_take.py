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
from bot.render.embeds import card_label
from bot.render.take import hand_order
from bot.render.text import signed
from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore, Stored
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
    clicks: int = 0
    """Every click and select choice the people made on their panels."""

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

    async def panel(self, user: FakeUser, state: TakeState) -> FakeMessage:
        """The user's panel, opened once; it follows the game by itself, so wait until it
        shows the state the test is about to play in."""
        if user.id not in self.panels:
            response = await self.driver.click(user, self.message, HAND)
            self.clicks += 1
            assert response.message.ephemeral_to == user.id
            self.panels[user.id] = response.message
        panel = self.panels[user.id]
        hand = hand_order(state.hands[state.players.index(str(user.id))])
        shown = says(user, "Your hand: {cards}", cards=" ".join(card_label(c) for c in hand))
        draws = {says(user, "Draw from the stock"), says(user, "Take the discard")}
        drawing = state.phase == "draw"

        def current() -> bool:
            return shown in panel.text and drawing == bool(draws & set(panel.labels))

        await self.driver.wait_for(current, what="the panel to follow the game")
        return panel

    async def move(self, user: FakeUser, state: TakeState, action: TakeAction) -> None:
        """Make ``action`` on the user's panel the way a person would, counting clicks."""
        panel = await self.panel(user, state)
        if action.kind == "draw":
            wanted = "Draw from the stock" if action.source == "stock" else "Take the discard"
            await self.click(user, panel, says(user, wanted))
            return
        if action.kind == "discard":
            await self.click(
                user, panel, says(user, "Discard {card}", card=card_label(action.card))
            )
            return
        pick_cards, choose_move = says(user, "Pick cards"), says(user, "Choose the move")
        hand = [str(card) for card in hand_order(state.hands[state.players.index(str(user.id))])]
        values = []
        for card in action.cards:
            remaining = [c if f"{c}.{i}" not in values else "" for i, c in enumerate(hand)]
            values.append(card_value(remaining, str(card)))
        confirmed = says(user, "Confirm: {move}", move="")
        counted = self.clicks
        for _ in range(2):
            self.clicks = counted  # a lost selection's clicks aren't what a move costs
            await self.driver.choose(user, panel, pick_cards, values)
            self.clicks += 1
            move_select = next(s for s in panel.selects if s.get("placeholder") == choose_move)
            key = str(action)
            chosen = [o["value"] for o in move_select["options"] if o.get("default")]
            if chosen != [key]:
                await self.driver.choose(user, panel, choose_move, [key])
                self.clicks += 1
            confirms = [label for label in panel.labels if label.startswith(confirmed)]
            if confirms:
                break
            # Seen twice in CI (cause not found): the panel showed no Confirm button
            # after the picks. A person picks again once the panel is still.
            await self.driver.settle()
        (confirm,) = confirms
        if take_victims(state, action):
            assert "TAKE" in confirm, f"a take not announced as one: {confirm}"
        await self.click(user, panel, confirm)

    async def click(self, user: FakeUser, panel: FakeMessage, label: str) -> None:
        await self.driver.click(user, panel, label)
        self.clicks += 1


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
    game.table = (await game.driver.slash(alice, "take start", target=2000)).message
    await game.driver.click(bernd, game.message, "Join")
    await game.driver.click(alice, game.message, "Start")
    rng = random.Random(6)
    clicks: dict[str, list[int]] = {"draw": [], "meld": [], "add": [], "discard": []}
    for _ in range(600):
        state = await game.state()
        if state.results:
            break
        (player,) = ENGINE.to_act(state)
        action = pick(rng, ENGINE.legal_actions(state, player))
        before = await game.stored()
        await game.panel(game.user(player), state)
        counted = game.clicks
        await game.move(game.user(player), state, action)
        clicks[action.kind].append(game.clicks - counted)
        after = await game.stored()
        assert after.rev == before.rev + 1, f"{action} was not applied"
        assert ENGINE.State.model_validate(after.table.state) == ENGINE.apply(state, player, action)
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
    game.table = (await game.driver.slash(alice, "take start", hand_size=10)).message
    await game.driver.click(bernd, game.message, "Join")
    await game.driver.click(chloe, game.message, "Join")
    refused = await game.driver.click(alice, game.message, "Start")
    assert refused.message.ephemeral_to == alice.id
    assert "Hands of 10 cards are for two players only" in refused.message.text
    assert (await game.stored()).table.phase == "lobby"
