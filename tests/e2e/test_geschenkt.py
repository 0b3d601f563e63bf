"""Geschenkt end to end: the real bot subprocess, the fake Discord, the real Redis.

Every test plays by clicks only, the way people would, and checks what each person saw
against the game the bot stored in Redis (loaded with the bot's own `GameStore`).
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field

import pytest
import redis.asyncio as aioredis

from bot.engines.geschenkt import ENGINE, GeschenktState, score, starting_chips
from bot.storage.clients import client_for_url
from bot.storage.keys import table_key
from bot.storage.tables import GameStore, Stored
from bot.table import encode_table
from tests.e2e.tables import drawn_after, drawn_at, start_german_table, table_rev
from tests.harness.driver import Driver, Response
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeMessage, FakeUser, MessageVersion, without_isolates

TAKE, REFUSE, HAND, LOG = "Take", "No thanks", "My hand", "Log"
LOBBY_LABELS = ["Join", "Leave", "Start", "🔔 Turn pings: on", "Rules"]
ADD_COMPUTER = "Add computer player…"
TURN = re.compile(r"<@(\d+)>, your turn\.")
CHIPS = re.compile(r"Chips: \*\*(\d+)\*\*")
RESULT_LINE = re.compile(
    r"\*\*(?P<place>\d+)\.\*\* (?P<name>.+?): \*\*(?P<score>-?\d+)\*\* points? "
    r"\((?P<cards>.+?): (?P<card_points>\d+) card points? − (?P<chips>\d+) chips?\)"
)
POT = re.compile(r"\*\*\d+\*\* chips? on it")
"""The pot on the face-up card: public, the only chips a public message may show..."""
EVENT_POT = re.compile(r"\((?:\+\d+ chips?|no chips|\d+ chips? on it now)\)")
"""...and the same pot as a move in the line of recent events tells it."""
MOST_COMPUTER_MOVES = 500
SHORT = 160
"""An ephemeral explanation should be a sentence or two."""


def said(user: FakeUser, english: str, german: str) -> str:
    """What ``user`` reads in their own language: German for a German locale, else English."""
    return german if user.locale.startswith("de") else english


Policy = Callable[[FakeUser, GeschenktState], str]
"""What a person clicks when it is their turn: TAKE or REFUSE."""


def coin(rng: random.Random, p_take: float) -> Policy:
    """Take with probability ``p_take``, whatever the card."""
    return lambda _user, _state: TAKE if rng.random() < p_take else REFUSE


def greedy_with_a_miser(rng: random.Random, miser: FakeUser) -> Policy:
    """People take with probability pot/3 (never an empty card); ``miser`` always says
    No thanks, so each card reaches the miser, who runs out of chips and must take."""

    def choose(user: FakeUser, state: GeschenktState) -> str:
        if user == miser:
            return REFUSE
        return TAKE if rng.random() < state.pot / 3 else REFUSE

    return choose


@dataclass
class Game:
    """One channel's Geschenkt game as the test sees it: the people, the table, Redis."""

    driver: Driver
    store: GameStore
    raw: aioredis.Redis
    people: list[FakeUser]
    table: FakeMessage | None = None
    hands_seen: dict[int, tuple[FakeUser, int]] = field(default_factory=dict)
    """My-hand ephemerals: message id -> (who asked, their chips in Redis at the time)."""
    forced_takes: int = 0
    """How often No thanks was refused for want of chips (and the person took)."""
    names: dict[str, str] = field(default_factory=dict)
    """Seat names by player id, once the game has started."""

    @property
    def key(self) -> str:
        return table_key(self.driver.fake.guild_id, self.driver.channel)

    @property
    def message(self) -> FakeMessage:
        assert self.table is not None, "the game has no table message yet"
        return self.table

    async def stored(self) -> Stored:
        stored = await self.store.load(self.driver.fake.guild_id, self.driver.channel)
        assert stored is not None, f"no game in Redis under {self.key}"
        return stored

    async def state(self) -> GeschenktState:
        stored = await self.stored()
        assert stored.table.state is not None, "the game has not started"
        return ENGINE.State.model_validate(stored.table.state)

    async def snapshot(self) -> dict[bytes | str, bytes | str]:
        """The raw Redis hash of the channel's game, byte for byte (a bytes client)."""
        return dict(await self.raw.hgetall(self.key))

    def by_id(self, player: str) -> FakeUser:
        return next(u for u in self.people if str(u.id) == player)

    def seat(self, state: GeschenktState, user: FakeUser) -> int:
        return state.players.index(str(user.id))

    def to_act(self) -> FakeUser | None:
        """Whose turn the table's content announces (None once nobody is asked to act)."""
        found = TURN.fullmatch(self.message.content)
        if found is None:
            assert self.message.content == "", f"unexpected content {self.message.content!r}"
            return None
        return self.by_id(found[1])

    async def open(self, host: FakeUser, guests: list[FakeUser], computers: int = 0) -> int:
        """``/geschenkt start`` by the host, guests Join, computers added, host Starts.

        Checks the game dealt is the engine's deal for the stored seed; returns the number of
        computer moves made before the first person's turn.
        """
        self.table = (await self.driver.slash(host, "geschenkt start")).message
        assert not self.table.ephemeral
        assert self.table.labels == LOBBY_LABELS
        for guest in guests:
            await self.driver.click(guest, self.table, "Join")
        for _ in range(computers):
            await self.driver.choose(host, self.table, ADD_COMPUTER, ["normal"])
        lobby = self.table.text
        for user in [host, *guests]:
            assert user.display_name in lobby
        computer_names = ["🤖 Normal", *(f"🤖 Normal {n}" for n in range(2, computers + 1))]
        assert all(name in lobby for name in computer_names[:computers]), lobby
        started = await self.driver.click(host, self.table, "Start")
        assert started.message is self.table
        assert self.table.labels == [TAKE, REFUSE, HAND, LOG]
        await self.computers_done()
        stored = await self.stored()
        assert stored.table.phase == "playing"
        state = ENGINE.State.model_validate(stored.table.state)
        assert sorted(state.players) == sorted(seat.id for seat in stored.table.seats)
        self.names = stored.table.names()
        options = ENGINE.Options.model_validate(stored.table.options)
        dealt = ENGINE.new_game(state.players, stored.table.seed, options)
        moves = next((n for n, s in computer_continuations(dealt) if s == state), None)
        assert moves is not None, "the stored game is not the deal for its seed"
        self.check_table(state)
        return moves

    async def computers_done(self) -> None:
        """Wait until a person must act (or the game is over) and the table shows that
        moment: computer seats move by themselves after a person's move, one saved
        move at a time, each redrawing the table."""
        for _ in range(MOST_COMPUTER_MOVES):
            stored = await self.stored()
            state = ENGINE.State.model_validate(stored.table.state)
            waiting = ENGINE.to_act(state)
            if ENGINE.is_over(state) or not waiting[0].startswith("ai:"):
                await self.driver.wait_for(drawn_at(self.message, stored.rev), what="the table")
                return
            await self.driver.wait_for(
                drawn_after(self.message, stored.rev), what="a computer's move"
            )
        raise AssertionError("the computers never let a person act")

    async def my_hand(self, user: FakeUser) -> FakeMessage:
        """``user`` clicks My hand; checks the ephemeral shows their own chips from Redis."""
        state = await self.state()
        response = await self.driver.click(user, self.message, HAND)
        hand = response.message
        assert hand.ephemeral_to == user.id, f"My hand for {user.name} was not private"
        assert len(response.messages) == 1, "My hand changed other messages"
        shown = CHIPS.search(hand.text)
        assert shown is not None, f"no chips in the hand: {hand.text!r}"
        chips = state.chips[self.seat(state, user)]
        assert int(shown[1]) == chips, f"{user.name} has {chips} chips; My hand: {hand.text!r}"
        self.hands_seen[hand.id] = (user, chips)
        return hand

    async def turn(self, policy: Policy) -> int:
        """The person to act takes or refuses (and takes if refused for want of chips).

        Checks the stored game moved exactly as the engine says; returns how many computer
        moves followed.
        """
        player = self.to_act()
        assert player is not None, "nobody's turn"
        before = await self.stored()
        state = ENGINE.State.model_validate(before.table.state)
        assert ENGINE.to_act(state) == [str(player.id)], "the table names someone else"
        chips = state.chips[self.seat(state, player)]
        label = policy(player, state)
        response = await self.driver.click(player, self.message, label)
        if label == REFUSE and chips == 0:
            refusal = response.message
            assert refusal.ephemeral_to == player.id, "No thanks without chips was not refused"
            assert said(player, "no chips", "keine Chips") in refusal.text, refusal.text
            assert (await self.stored()).rev == before.rev, "a refused click changed the game"
            self.forced_takes += 1
            label = TAKE
            response = await self.driver.click(player, self.message, TAKE)
        assert response.message is self.message, (
            f"{label} by {player.name} was not applied: {response.message.text!r}"
        )
        return await self.check_move(before, str(player.id), label)

    async def check_move(self, before: Stored, player: str, label: str) -> int:
        """Redis moved by ``label`` and then only computer moves, a revision each."""
        await self.computers_done()
        after = await self.stored()
        new = ENGINE.State.model_validate(after.table.state)
        old = ENGINE.State.model_validate(before.table.state)
        expected = ENGINE.apply(old, player, "take" if label == TAKE else "refuse")
        moves = next((n for n, s in computer_continuations(expected) if s == new), None)
        assert moves is not None, f"{label} by {player} stored an unexpected state"
        assert after.rev == before.rev + 1 + moves
        self.check_table(new)
        if moves == 0 and not ENGINE.is_over(new):
            name = self.names[player]
            assert self.just_now()[-1] == f"**{name}**: {move_words(old, new, label)}"
        return moves

    def just_now(self) -> list[str]:
        """The table's line of recent events, oldest first."""
        fields = self.message.embeds[0].get("fields", [])
        (events,) = [f["value"] for f in fields if f["name"] == "Just now"]
        return without_isolates(str(events)).split("\n")

    def check_table(self, state: GeschenktState) -> None:
        """The public table agrees with the stored state (turn, card, pot, cards left)."""
        table = self.message
        assert table.filenames == ["table.png"]
        if ENGINE.is_over(state):
            return
        people = [p for p in ENGINE.to_act(state) if not p.startswith("ai:")]
        assert people, "the bot left a computer to act"
        assert self.to_act() == self.by_id(people[0])
        embed = table.embeds[0]
        shown = f"**{state.current}** is face up with **{state.pot}** chip"
        assert embed["description"].startswith(shown), embed["description"]
        left = len(state.stack)
        assert f"{left} card{'' if left == 1 else 's'} left" in embed["description"]
        # Chips are secret: every number on the table must be public knowledge.
        words = [embed["title"], embed["description"]]
        # Recent events and the turn clock carry public numbers of their own.
        fields = [f for f in embed.get("fields", []) if f["name"] not in ("Just now", "Turn clock")]
        words += [part for f in fields for part in (f["name"], f["value"])]
        text = "\n".join(words)
        for name in self.names.values():  # "🤖 Normal 2" is a name, not a number
            text = text.replace(f"**{name}**", "")
        numbers = {int(n) for n in re.findall(r"\d+", text)}
        public = {state.current, state.pot, len(state.stack)}
        public |= {card for cards in state.cards for card in cards}
        assert numbers <= public, f"the table shows {numbers - public}: {words}"

    async def play_to_end(
        self,
        policy: Policy,
        *,
        hands: random.Random | None = None,
        p_hand: float = 0.2,
        limit: int = 400,
    ) -> int:
        """Play until the results are shown; returns the number of computer moves.

        With ``hands``, before a move someone clicks My hand with probability ``p_hand``."""
        computer_moves = 0
        for _ in range(limit):
            if self.to_act() is None:
                return computer_moves
            if hands is not None and hands.random() < p_hand:
                await self.my_hand(hands.choice(self.people))
            computer_moves += await self.turn(policy)
        raise AssertionError(f"the game did not end within {limit} moves")

    async def check_results(self) -> dict[str, int]:
        """The results embed agrees with ENGINE.outcome of the final state in Redis."""
        stored = await self.stored()
        assert stored.table.phase == "over"
        state = ENGINE.State.model_validate(stored.table.state)
        assert ENGINE.is_over(state)
        assert sum(len(cards) for cards in state.cards) == 24
        assert sum(state.chips) == starting_chips(len(state.players), False) * len(state.players)
        names = stored.table.names()
        outcome = ENGINE.outcome(state)
        table = self.message
        assert table.content == "", "the finished table still asks someone to act"
        embed = table.embeds[0]
        assert embed["title"].endswith("results"), embed["title"]
        places = without_isolates(embed["fields"][0]["value"]).split("\n")
        lines = [RESULT_LINE.fullmatch(line) for line in places]
        assert all(lines), places
        shown = {m["name"]: m for m in lines if m is not None}
        assert sorted(shown) == sorted(names.values())
        for seat, player in enumerate(state.players):
            line = shown[names[player]]
            assert int(line["score"]) == outcome.scores[player], line[0]
            assert int(line["place"]) == outcome.places[player], line[0]
            assert int(line["chips"]) == state.chips[seat], line[0]
            assert int(line["card_points"]) == score(state.cards[seat], 0), line[0]
        assert [int(m["place"]) for m in lines if m] == sorted(outcome.places.values())
        headline = re.fullmatch(r"\*\*(.+)\*\* wins?!", without_isolates(embed["description"]))
        assert headline is not None, embed["description"]
        assert sorted(headline[1].split(", ")) == sorted(names[p] for p in outcome.winners())
        assert [b["label"] for b in table.buttons if not b.get("disabled")] == [
            "Rematch",
            "Replay",
        ], "a finished table offers its Rematch and Replay, and no move"
        assert table.labels == ["Rematch", "Replay"]
        assert table.filenames == ["table.png"]
        assert table.attachments[0].data.startswith(b"\x89PNG")
        return {names[p]: outcome.scores[p] for p in state.players}


def move_words(before: GeschenktState, after: GeschenktState, label: str) -> str:
    """How a move by ``label`` reads in English on the table: the card and its chips."""
    if label == REFUSE:
        chips = f"{after.pot} chip{'' if after.pot == 1 else 's'}"
        return f"said no thanks to {before.current} ({chips} on it now)"
    if before.pot == 0:
        return f"took {before.current} (no chips)"
    return f"took {before.current} (+{before.pot} chip{'' if before.pot == 1 else 's'})"


def computer_continuations(state: GeschenktState) -> Iterator[tuple[int, GeschenktState]]:
    """Every (moves, state) the computer seats may leave for a person, or at the game's end.

    A computer takes any number of cards, then refuses (the turn passes) or the game ends.
    With no computer to act this yields just ``(0, state)``.
    """
    moves = 0
    while not ENGINE.is_over(state):
        (player,) = ENGINE.to_act(state)
        if not player.startswith("ai:"):
            break
        if state.chips[state.turn] > 0:
            refused = ENGINE.apply(state, player, "refuse")
            yield from ((moves + 1 + n, s) for n, s in computer_continuations(refused))
        state = ENGINE.apply(state, player, "take")
        moves += 1
    yield moves, state


def version_text(version: MessageVersion | FakeMessage) -> str:
    """What a person reads on one version of a message (content and embeds)."""
    parts = [version.content]
    for embed in version.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for embed_field in embed.get("fields") or []:
            parts += [embed_field.get("name", ""), embed_field.get("value", "")]
        parts.append((embed.get("footer") or {}).get("text", ""))
    return without_isolates("\n".join(p for p in parts if p))


def versions(message: FakeMessage) -> list[MessageVersion | FakeMessage]:
    return [*message.history, message]


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
async def game(driver: Driver, redis_server: str) -> AsyncIterator[Game]:
    client = client_for_url(redis_server)
    raw = aioredis.Redis.from_url(redis_server)
    people = [driver.user(name) for name in ("alice", "bernd", "chloe")]
    yield Game(driver, GameStore(client), raw, people)
    await client.aclose()
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
    assert game.forced_takes > 0, "nobody ran out of chips"
    assert game.hands_seen, "nobody looked at their hand"
    assert game.driver.table() is game.message, "the game moved to another message"


async def test_a_computer_player_takes_its_turns_by_itself(
    game: Game, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, _ = game.people
    game.people = [alice, bernd]
    moves = await game.open(alice, [bernd], computers=1)
    stored = await game.stored()
    names = sorted(seat.name for seat in stored.table.seats)
    assert names == ["Alice", "Bernd", "🤖 Normal"]

    # Mostly No thanks, so every card comes round to the computer.
    moves += await game.play_to_end(coin(random.Random(2), 0.3))

    assert moves > 0, "the computer never moved"
    scores = await game.check_results()
    assert sorted(scores) == ["Alice", "Bernd", "🤖 Normal"]
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
        await game.check_move(before, str(player.id), label)
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
        await game.check_move(before, str(player.id), label)


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
    await game.check_move(before, str(player.id), TAKE)
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
            await game.turn(lambda _user, _state: TAKE)


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
                    user, chips = game.hands_seen[message.id]
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
