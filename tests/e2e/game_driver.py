"""One end-to-end driver for every game in the registry (`bot.games.GAMES`).

`GameDriver` is one channel's game as a test sees it: the people, the table message and
the game the bot stored in Redis (loaded with the bot's own `GameStore`). What every
game shares is written once here: open the lobby, join, add computer players, start,
click a button by its label, pick in a select, wait for the table to be redrawn, read
the stored game, open a hand or a panel, find whose turn it is, make a move and check
that the stored game moved exactly as the engine says, and play to the end by a
`Policy` (what the person to act chooses).

What differs between the games is a small `Play` each (`PLAYS`, by the registry's
names): how a person makes an action (a button on the table, a private panel, a typed
command), when an open panel shows the game, and the checks a game's tests make on the
way (Geschenkt's secret chips, its results). The game's name, engine, command group and
hand button come from the registry.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

import redis.asyncio as aioredis

from bot.adapters.base import GameAdapter
from bot.engines import escalation, geschenkt, take
from bot.engines.base import Engine, IllegalAction
from bot.engines.cards import Card
from bot.engines.geschenkt import GeschenktState, score, starting_chips
from bot.games import GAMES, GameSpec
from bot.games import game as registered
from bot.i18n import lang_of, tr
from bot.render.embeds import card_label
from bot.render.take import hand_order
from bot.storage.keys import table_key
from bot.storage.tables import GameStore, Stored
from tests.e2e.tables import drawn_after, drawn_at
from tests.harness.driver import Driver, Response
from tests.harness.models import FakeMessage, FakeUser, MessageVersion, without_isolates

S = TypeVar("S")
A = TypeVar("A")

ADD_COMPUTER = "Add computer player…"
TURN = re.compile(r"<@(\d+)>, your turn\.")
MOST_COMPUTER_MOVES = 500

Policy = Callable[[FakeUser, Any], Any]
"""What the person to act chooses: ``policy(user, state)`` is an action of the game. An
action the engine would refuse is clicked all the same, and must be refused (`act`)."""


def says(user: FakeUser, english: str, /, **params: object) -> str:
    """What ``user`` reads in their own language for ``english`` (bernd and felix read
    German)."""
    return tr(lang_of(user.locale), english, **params)


def versions(message: FakeMessage) -> list[MessageVersion | FakeMessage]:
    """Every version of ``message``, the oldest first and the current one last."""
    return [*message.history, message]


def version_text(version: MessageVersion | FakeMessage) -> str:
    """What a person reads on one version of a message (content and embeds)."""
    parts = [version.content]
    for embed in version.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for embed_field in embed.get("fields") or []:
            parts += [embed_field.get("name", ""), embed_field.get("value", "")]
        parts.append((embed.get("footer") or {}).get("text", ""))
    return without_isolates("\n".join(p for p in parts if p))


def continuations(engine: Engine[Any, Any, Any], state: Any) -> Iterator[tuple[int, Any]]:
    """Every (moves, state) the computer seats may leave for a person, or at the game's
    end, by any legal moves of theirs; the fewest moves first. With no computer to act
    this yields just ``(0, state)``."""
    frontier, moves = [state], 0
    while frontier and moves <= MOST_COMPUTER_MOVES:
        deeper = []
        for reached in frontier:
            waiting = [] if engine.is_over(reached) else engine.to_act(reached)
            if not waiting or not waiting[0].startswith("ai:"):
                yield moves, reached
                continue
            (player,) = waiting
            deeper += [
                engine.apply(reached, player, a) for a in engine.legal_actions(reached, player)
            ]
        frontier, moves = deeper, moves + 1


def reaches(engine: Engine[Any, Any, Any], state: Any, target: Any, moves: int) -> bool:
    """Whether exactly ``moves`` computer moves can lead from ``state`` to ``target``
    (`continuations`). Paths of different lengths can reach one state: in TAKE, a meld
    and then an add make the run that one longer meld makes."""
    leaves = takewhile(lambda leaf: leaf[0] <= moves, continuations(engine, state))
    return any(n == moves and reached == target for n, reached in leaves)


@dataclass(frozen=True)
class Turn(Generic[S]):
    """A person's turn: who, in which stored game."""

    user: FakeUser
    state: S
    stored: Stored

    @property
    def player(self) -> str:
        return str(self.user.id)


class Played(NamedTuple):
    """A person's move: what they saw, and how many computer moves followed it."""

    response: Response
    computer_moves: int


@dataclass
class GameDriver(Generic[S, A]):
    """One channel's game of ``name`` (a registry name) as the test sees it."""

    name: str
    driver: Driver
    store: GameStore
    people: list[FakeUser] = field(default_factory=list)
    """The people who may sit at the table: alice, bernd and chloe unless given."""
    raw: aioredis.Redis | None = None
    """A client that reads the stored game byte for byte (`snapshot`), if the test needs it."""
    table: FakeMessage | None = None
    panels: dict[int, FakeMessage] = field(default_factory=dict)
    """Each person's private panel, opened once and reused (it follows the game)."""
    hands_seen: dict[int, tuple[FakeUser, S]] = field(default_factory=dict)
    """Hands opened with `hand`: message id -> (who asked, the stored game at the time)."""
    refused: int = 0
    """How often a policy's choice was refused as illegal and the only legal move made."""
    clicks: int = 0
    """Every click and select choice made through `click` and `choose` (the lobby's
    Join, computers and Start don't count)."""
    names: dict[str, str] = field(default_factory=dict)
    """Seat names by player id, once the game has started."""
    watch_table: bool = True
    """Whether the people look at the table between moves: if so, each click waits for
    the bot's REST traffic to go quiet, and each move until the table shows it, and
    checks it. People who play on their panels don't: the table may lag (Discord lets a
    channel's messages be edited 5 times in 5 s, and the bot skips drawings overtaken by
    later moves), and the test checks it when it asks."""

    def __post_init__(self) -> None:
        if not self.people:
            self.people = [self.driver.user(name) for name in ("alice", "bernd", "chloe")]

    # ---------------------------------------------------------------- the game's parts

    @property
    def spec(self) -> GameSpec[Any, Any, Any]:
        return registered(self.name)

    @property
    def engine(self) -> Engine[Any, Any, Any]:
        return self.spec.engine

    @property
    def adapter(self) -> GameAdapter[Any, Any, Any]:
        return self.spec.adapter

    @property
    def play(self) -> Play:
        return PLAYS[self.name]

    @property
    def key(self) -> str:
        return table_key(self.driver.fake.guild_id, self.driver.channel)

    @property
    def message(self) -> FakeMessage:
        assert self.table is not None, "the game has no table message yet"
        return self.table

    # ---------------------------------------------------------------- the stored game

    async def stored(self) -> Stored:
        stored = await self.store.load(self.driver.fake.guild_id, self.driver.channel)
        assert stored is not None, f"no game in Redis under {self.key}"
        return stored

    def state_of(self, stored: Stored) -> S:
        assert stored.table.state is not None, "the game has not started"
        state: S = self.engine.State.model_validate(stored.table.state)
        return state

    async def state(self) -> S:
        return self.state_of(await self.stored())

    async def snapshot(self) -> dict[bytes | str, bytes | str]:
        """The raw Redis hash of the channel's game, byte for byte (a bytes client)."""
        assert self.raw is not None, "the driver was made without a raw client"
        return dict(await self.raw.hgetall(self.key))

    async def put(self, state: S) -> int:
        """Set the running game to ``state`` through the store, as the bot saves it."""
        stored = await self.stored()
        table = stored.table.model_copy(deep=True)
        table.state = self.engine.State.model_validate(state).model_dump(mode="json")
        return await self.store.save(table, stored.rev)

    def user(self, player: str) -> FakeUser:
        return next(u for u in self.people if str(u.id) == player)

    def seat(self, state: Any, user: FakeUser) -> int:
        return list(state.players).index(str(user.id))

    def legal(self, turn: Turn[S]) -> list[A]:
        return list(self.engine.legal_actions(turn.state, turn.player))

    # ---------------------------------------------------------------- clicks

    async def click(self, user: FakeUser, label: str, on: FakeMessage | None = None) -> Response:
        """``user`` clicks ``label`` on ``on`` (the table unless given)."""
        response = await self.driver.click(user, on or self.message, label, settle=self.watch_table)
        self.clicks += 1
        return response

    async def choose(
        self, user: FakeUser, select: str, values: Sequence[str], on: FakeMessage | None = None
    ) -> Response:
        """``user`` picks ``values`` in the select ``select`` on ``on`` (the table unless given)."""
        response = await self.driver.choose(
            user, on or self.message, select, values, settle=self.watch_table
        )
        self.clicks += 1
        return response

    async def command(self, user: FakeUser, verb: str, **options: Any) -> Response:
        """``/<game> <verb>`` by ``user``."""
        return await self.driver.slash(user, f"{self.name} {verb}", **options)

    async def typed(self, user: FakeUser, move: str) -> str:
        """What ``user`` is told after typing ``/<game> move <move>``."""
        response = await self.command(user, "move", move=move)
        assert response.message.ephemeral_to == user.id
        return response.message.text

    async def table_button(self, state: S, action: A) -> str:
        """The label of the table's button for ``action``, in the table's language."""
        lang = (await self.stored()).table.lang
        buttons = self.adapter.table_buttons(self.engine.view(state, None), lang)
        (label,) = [b.label for b in buttons if b.key == str(action)]
        return label

    @property
    def hand_label(self) -> str:
        """The table's button that opens a person's hand or panel (English server)."""
        return self.adapter.hand_label

    # ---------------------------------------------------------------- lobby and start

    async def open(
        self,
        host: FakeUser,
        guests: Sequence[FakeUser] = (),
        computers: int = 0,
        level: str = "normal",
        **options: Any,
    ) -> int:
        """``/<game> start`` by the host with ``options``, guests Join, ``computers``
        computer players of ``level`` added, the host Starts. Returns the number of
        computer moves made before the first person's turn."""
        await self.lobby(host, **options)
        for guest in guests:
            await self.join(guest)
        for _ in range(computers):
            await self.add_computer(host, level)
        self.play.check_lobby(self, [host, *guests], computers, level)
        return await self.start(host)

    async def lobby(self, host: FakeUser, **options: Any) -> FakeMessage:
        self.table = (await self.command(host, "start", **options)).message
        assert not self.table.ephemeral
        if self.play.lobby_labels is not None:
            assert self.table.labels == self.play.lobby_labels
        return self.table

    async def join(self, guest: FakeUser) -> None:
        await self.driver.click(guest, self.message, "Join")

    async def add_computer(self, host: FakeUser, level: str) -> None:
        await self.driver.choose(host, self.message, ADD_COMPUTER, [level])

    async def start(self, host: FakeUser) -> int:
        """The host Starts; the deal is played up to the first person's turn."""
        started = await self.driver.click(host, self.message, "Start")
        self.play.check_started(self, started)
        await self.computers_done()
        stored = await self.stored()
        assert stored.table.phase == "playing"
        self.names = stored.table.names()
        return self.play.check_deal(self, stored)

    def moves_since_deal(self, stored: Stored) -> int:
        """Checks the stored game is the engine's deal for the stored seed, followed by
        computer moves only; returns how many."""
        state: Any = self.state_of(stored)
        players = list(state.players)
        assert sorted(players) == sorted(seat.id for seat in stored.table.seats)
        options = self.engine.Options.model_validate(stored.table.options)
        dealt = self.engine.new_game(players, stored.table.seed, options)
        moves = next((n for n, s in continuations(self.engine, dealt) if s == state), None)
        assert moves is not None, "the stored game is not the deal for its seed"
        return moves

    # ---------------------------------------------------------------- the table

    def to_act(self) -> FakeUser | None:
        """Whose turn the table's content announces (None once nobody is asked to act)."""
        found = TURN.fullmatch(self.message.content)
        if found is None:
            assert self.message.content == "", f"unexpected content {self.message.content!r}"
            return None
        return self.user(found[1])

    def just_now(self) -> list[str]:
        """The table's line of recent events, oldest first."""
        fields = self.message.embeds[0].get("fields", [])
        (events,) = [f["value"] for f in fields if f["name"] == "Just now"]
        return without_isolates(str(events)).split("\n")

    async def drawn(self, rev: int, what: str = "the table") -> None:
        """Wait until the table shows revision ``rev``."""
        await self.driver.wait_for(drawn_at(self.message, rev), what=what)

    async def redrawn(self, rev: int, what: str = "the table redrawn") -> None:
        """Wait until the table shows a revision later than ``rev``."""
        await self.driver.wait_for(drawn_after(self.message, rev), what=what)

    async def computers_done(self) -> None:
        """Wait until a person must act (or the game is over) and the table shows that
        moment: computer seats move by themselves after a person's move, one saved
        move at a time, each redrawing the table."""
        for _ in range(MOST_COMPUTER_MOVES):
            stored = await self.stored()
            state = self.state_of(stored)
            over = self.engine.is_over(state)
            if over or not self.engine.to_act(state)[0].startswith("ai:"):
                if self.watch_table:
                    await self.drawn(stored.rev)
                return
            await self.redrawn(stored.rev, what="a computer's move")
        raise AssertionError("the computers never let a person act")

    async def next_turn(self) -> Turn[S] | None:
        """The next person's turn, once the computers have moved and the table shows it;
        None once the game is over."""
        await self.computers_done()
        stored = await self.stored()
        state = self.state_of(stored)
        if self.engine.is_over(state):
            return None
        (player,) = self.engine.to_act(state)
        return Turn(self.user(player), state, stored)

    # ---------------------------------------------------------------- hands and panels

    async def hand(self, user: FakeUser) -> FakeMessage:
        """``user`` clicks the table's hand button: their private hand, a new message."""
        state = await self.state()
        response = await self.click(user, self.hand_label)
        hand = response.message
        assert hand.ephemeral_to == user.id, f"{self.hand_label} for {user.name} was not private"
        self.play.check_hand(self, user, state, response)
        self.hands_seen[hand.id] = (user, state)
        return hand

    async def follow_up_of(self, response: Response) -> FakeMessage:
        """The ephemeral message a click's token posted: a panel opened from the table
        comes as the follow-up of a deferred answer, so it may come after the click."""
        fake, interaction = self.driver.fake, response.interaction

        def posted() -> FakeMessage | None:
            messages = (fake.messages[m] for m in interaction.touched)
            return next((m for m in messages if m.ephemeral), None)

        await self.driver.wait_for(lambda: posted() is not None, what="the panel")
        panel = posted()
        assert panel is not None
        return panel

    async def open_with_every_panel(self) -> dict[int, int]:
        """The first person's table for all three people, each with their panel open:
        the panels' message ids by user id."""
        host, *guests = self.people
        await self.open(host, guests)
        return {user.id: (await self.panel(user)).id for user in self.people}

    async def panel(self, user: FakeUser, state: S | None = None) -> FakeMessage:
        """The user's panel, opened once; it follows the game by itself, so wait until
        it shows ``state`` (the stored game unless given)."""
        if user.id not in self.panels:
            response = await self.click(user, self.hand_label)
            self.panels[user.id] = await self.follow_up_of(response)
            assert self.panels[user.id].ephemeral_to == user.id
        panel = self.panels[user.id]
        shown = await self.state() if state is None else state
        await self.driver.wait_for(
            lambda: self.play.panel_shows(user, shown, panel), what="the panel to follow the game"
        )
        return panel

    # ---------------------------------------------------------------- moves

    async def move(self, user: FakeUser, action: A | str, state: S | None = None) -> Response:
        """``user`` makes ``action`` the way a person would (no checks)."""
        now = await self.state() if state is None else state
        return await self.play.move(self, user, now, action)

    async def act(self, turn: Turn[S], action: A) -> Played:
        """The person to act makes ``action``. An action the engine refuses is clicked,
        must be refused with the engine's reason and change nothing, and then the only
        legal move is made. Checks the stored game moved as the engine says."""
        user, before = turn.user, turn.stored
        legal = self.legal(turn)
        if action not in legal:
            response = await self.play.move(self, user, turn.state, action)
            refusal = response.message
            assert refusal.ephemeral_to == user.id, f"{action} by {user.name} was not refused"
            try:
                self.engine.apply(turn.state, turn.player, action)
            except IllegalAction as error:
                assert says(user, error.template, **error.params) in refusal.text, refusal.text
            else:
                raise AssertionError(f"{action} is legal, yet not among the legal actions")
            assert (await self.stored()).rev == before.rev, "a refused click changed the game"
            self.refused += 1
            (action,) = legal
        response = await self.play.move(self, user, turn.state, action)
        if self.play.applied_on_table:
            assert response.message is self.message, (
                f"{action} by {user.name} was not applied: {response.message.text!r}"
            )
        return Played(response, await self.check_move(before, turn.player, action))

    async def turn(self, policy: Policy) -> int:
        """The person to act makes the move ``policy`` chooses (`act`); returns how many
        computer moves followed."""
        turn = await self.next_turn()
        assert turn is not None, "nobody's turn"
        return (await self.act(turn, policy(turn.user, turn.state))).computer_moves

    async def check_move(self, before: Stored, player: str, action: A | str) -> int:
        """Redis moved by ``action`` of ``player`` and then only computer moves, a
        revision each; the table shows it. Returns how many computer moves."""
        await self.computers_done()
        after = await self.stored()
        old, new = self.state_of(before), self.state_of(after)
        expected = self.engine.apply(old, player, action)
        moves = after.rev - before.rev - 1  # a revision each
        assert reaches(self.engine, expected, new, moves), (
            f"{action} by {player} and {moves} computer moves stored an unexpected state"
        )
        if not self.watch_table:
            return moves
        self.play.check_table(self, new)
        words = self.play.move_words(old, new, action)
        if moves == 0 and words is not None and not self.engine.is_over(new):
            assert self.just_now()[-1] == f"**{self.names[player]}**: {words}"
        return moves

    async def play_to_end(
        self,
        policy: Policy,
        *,
        hands: random.Random | None = None,
        p_hand: float = 0.2,
        limit: int = 400,
    ) -> int:
        """Play until the game is over; returns the number of computer moves.

        With ``hands``, before a move someone clicks the hand button with probability
        ``p_hand``."""
        computer_moves = 0
        for _ in range(limit):
            turn = await self.next_turn()
            if turn is None:
                return computer_moves
            if hands is not None and hands.random() < p_hand:
                await self.hand(hands.choice(self.people))
            played = await self.act(turn, policy(turn.user, turn.state))
            computer_moves += played.computer_moves
        raise AssertionError(f"the game did not end within {limit} moves")

    async def check_results(self) -> dict[str, int]:
        """The results on the table agree with the engine's outcome of the stored game;
        the scores by name."""
        return await self.play.check_results(self)


# -------------------------------------------------------------------- each game's play


class Play:
    """How a person makes a move in one game, and what that game's tests check."""

    lobby_labels: ClassVar[list[str] | None] = None
    """The lobby's buttons, checked when it opens (None: not checked)."""
    table_labels: ClassVar[list[str] | None] = None
    """The table's buttons once started on an English server (None: not checked)."""
    applied_on_table: ClassVar[bool] = False
    """A move is a click on the table, answered with the table itself."""

    async def move(
        self, game: GameDriver[Any, Any], user: FakeUser, state: Any, action: Any
    ) -> Response:
        raise NotImplementedError

    def panel_shows(self, user: FakeUser, state: Any, panel: FakeMessage) -> bool:
        """Whether ``user``'s open panel shows ``state``."""
        return True

    def check_lobby(
        self, game: GameDriver[Any, Any], people: list[FakeUser], computers: int, level: str
    ) -> None:
        """The lobby before Start, with ``people`` and ``computers`` seated."""

    def check_started(self, game: GameDriver[Any, Any], started: Response) -> None:
        """What the host saw on clicking Start."""
        if self.table_labels is not None:
            assert game.message.labels == self.table_labels

    def check_deal(self, game: GameDriver[Any, Any], stored: Stored) -> int:
        """The game as first stored, before the first person's turn; the computer moves
        made until then (0: not counted)."""
        return 0

    def check_table(self, game: GameDriver[Any, Any], state: Any) -> None:
        """The public table agrees with ``state``."""

    def move_words(self, before: Any, after: Any, action: Any) -> str | None:
        """How ``action`` reads on the table's line of recent events (None: not checked)."""
        return None

    def check_hand(
        self, game: GameDriver[Any, Any], user: FakeUser, state: Any, response: Response
    ) -> None:
        """``user``'s hand, opened in ``state``."""

    async def check_results(self, game: GameDriver[Any, Any]) -> dict[str, int]:
        raise NotImplementedError(f"no results check for {game.name}")


class OnTheTable(Play):
    """Moves are the table's buttons: the one whose key is the action."""

    async def move(
        self, game: GameDriver[Any, Any], user: FakeUser, state: Any, action: Any
    ) -> Response:
        return await game.click(user, await game.table_button(state, action))


class TypedMoves(Play):
    """Moves are typed: ``/<game> move <move>``."""

    async def move(
        self, game: GameDriver[Any, Any], user: FakeUser, state: Any, action: Any
    ) -> Response:
        return await game.command(user, "move", move=str(action))


# ------------------------------------------------------------------------ Geschenkt

TAKE, REFUSE, HAND, LOG = "Take", "No thanks", "My hand", "Log"
"""Geschenkt's table buttons on an English server."""
LOBBY_LABELS = ["Join", "Leave", "Start", "🔔 Turn pings: on", "Rules"]
CHIPS = re.compile(r"Chips: \*\*(\d+)\*\*")
RESULT_LINE = re.compile(
    r"\*\*(?P<place>\d+)\.\*\* (?P<name>.+?): \*\*(?P<score>-?\d+)\*\* points? "
    r"\((?P<cards>.+?): (?P<card_points>\d+) card points? − (?P<chips>\d+) chips?\)"
)


def coin(rng: random.Random, p_take: float) -> Policy:
    """Geschenkt: take with probability ``p_take``, whatever the card."""
    return lambda _user, _state: geschenkt.TAKE if rng.random() < p_take else geschenkt.REFUSE


def greedy_with_a_miser(rng: random.Random, miser: FakeUser) -> Policy:
    """Geschenkt: people take with probability pot/3 (never an empty card); ``miser``
    always says No thanks, so each card reaches the miser, who runs out of chips and
    must take."""

    def choose(user: FakeUser, state: GeschenktState) -> geschenkt.GeschenktAction:
        if user == miser:
            return geschenkt.REFUSE
        return geschenkt.TAKE if rng.random() < state.pot / 3 else geschenkt.REFUSE

    return choose


class GeschenktPlay(OnTheTable):
    """Take or No thanks on the table; chips are secret, so the table's numbers, each
    hand and the results are checked against the stored game."""

    lobby_labels: ClassVar[list[str] | None] = LOBBY_LABELS
    table_labels: ClassVar[list[str] | None] = [TAKE, REFUSE, HAND, LOG]
    applied_on_table = True

    def check_lobby(
        self, game: GameDriver[Any, Any], people: list[FakeUser], computers: int, level: str
    ) -> None:
        lobby = game.message.text
        for user in people:
            assert user.display_name in lobby
        first = f"🤖 {level.capitalize()}"
        computer_names = [first, *(f"{first} {n}" for n in range(2, computers + 1))]
        assert all(name in lobby for name in computer_names[:computers]), lobby

    def check_started(self, game: GameDriver[Any, Any], started: Response) -> None:
        assert started.message is game.message
        super().check_started(game, started)

    def check_deal(self, game: GameDriver[Any, Any], stored: Stored) -> int:
        moves = game.moves_since_deal(stored)
        self.check_table(game, game.state_of(stored))
        return moves

    def check_table(self, game: GameDriver[Any, Any], state: GeschenktState) -> None:
        """The public table agrees with the stored state (turn, card, pot, cards left)."""
        engine = game.engine
        table = game.message
        assert table.filenames == ["table.png"]
        if engine.is_over(state):
            return
        people = [p for p in engine.to_act(state) if not p.startswith("ai:")]
        assert people, "the bot left a computer to act"
        assert game.to_act() == game.user(people[0])
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
        for name in game.names.values():  # "🤖 Normal 2" is a name, not a number
            text = text.replace(f"**{name}**", "")
        numbers = {int(n) for n in re.findall(r"\d+", text)}
        public = {state.current, state.pot, len(state.stack)}
        public |= {card for cards in state.cards for card in cards}
        assert numbers <= public, f"the table shows {numbers - public}: {words}"

    def move_words(
        self, before: GeschenktState, after: GeschenktState, action: geschenkt.GeschenktAction
    ) -> str:
        """How a move reads in English on the table: the card and its chips."""
        if action == geschenkt.REFUSE:
            chips = f"{after.pot} chip{'' if after.pot == 1 else 's'}"
            return f"said no thanks to {before.current} ({chips} on it now)"
        if before.pot == 0:
            return f"took {before.current} (no chips)"
        return f"took {before.current} (+{before.pot} chip{'' if before.pot == 1 else 's'})"

    def check_hand(
        self, game: GameDriver[Any, Any], user: FakeUser, state: GeschenktState, response: Response
    ) -> None:
        """My hand shows the user's own chips from Redis, and changes nothing else."""
        hand = response.message
        assert len(response.messages) == 1, "My hand changed other messages"
        shown = CHIPS.search(hand.text)
        assert shown is not None, f"no chips in the hand: {hand.text!r}"
        chips = state.chips[game.seat(state, user)]
        assert int(shown[1]) == chips, f"{user.name} has {chips} chips; My hand: {hand.text!r}"

    async def check_results(self, game: GameDriver[Any, Any]) -> dict[str, int]:
        """The results embed agrees with the engine's outcome of the final state in Redis."""
        engine = game.engine
        stored = await game.stored()
        assert stored.table.phase == "over"
        state: GeschenktState = game.state_of(stored)
        assert engine.is_over(state)
        assert sum(len(cards) for cards in state.cards) == 24
        assert sum(state.chips) == starting_chips(len(state.players), False) * len(state.players)
        names = stored.table.names()
        outcome = engine.outcome(state)
        table = game.message
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


# ----------------------------------------------------------------------- Escalation

PICKER = {"en": "Pick the cards to play", "de": "Wähl die Karten aus, die du spielen willst"}
TAKE_PILE = {"en": "Take the pile", "de": "Ablage nehmen"}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def suited(card: object) -> str:
    """A card as the Escalation panel names it: "10♥"."""
    text = str(card)
    return text[:-1] + SUITS[text[-1]]


def lang(user: FakeUser) -> str:
    """The language of ``user``'s panels: German for a German Discord locale."""
    return "de" if user.locale.startswith("de") else "en"


def play_label(user: FakeUser, cards: list[object]) -> str:
    """The Play button of ``user``'s Escalation panel with ``cards`` picked."""
    shown = " ".join(suited(card) for card in cards)
    return f"{shown} spielen" if lang(user) == "de" else f"Play {shown}"


def pick_action(
    rng: random.Random, legal: list[escalation.EscalationAction]
) -> escalation.EscalationAction:
    """Escalation: mostly play (so games end), sometimes take the pile."""
    plays = [action for action in legal if action != escalation.TAKE]
    if escalation.TAKE in legal and (not plays or rng.random() < 0.15):
        return escalation.TAKE
    return rng.choice(plays)


class EscalationPlay(Play):
    """Moves on the private panel: pick the cards in its select and Play, or Take."""

    table_labels: ClassVar[list[str] | None] = [HAND, LOG]

    def panel_shows(
        self, user: FakeUser, state: escalation.EscalationState, panel: FakeMessage
    ) -> bool:
        engine = escalation.ENGINE
        player = str(user.id)
        hand = [suited(card) for card in state.hands[state.players.index(player)]]
        can_take = player in engine.to_act(state) and escalation.TAKE in engine.legal_actions(
            state, player
        )
        options = [option["label"] for option in panel.selects[0]["options"]]
        pile = next(b for b in panel.buttons if b.get("label") == TAKE_PILE[lang(user)])
        return options == hand and bool(pile.get("disabled")) != can_take

    async def move(
        self,
        game: GameDriver[Any, Any],
        user: FakeUser,
        state: escalation.EscalationState,
        action: escalation.EscalationAction,
    ) -> Response:
        panel = await game.panel(user, state)
        if action == escalation.TAKE:
            return await game.click(user, TAKE_PILE[lang(user)], panel)
        values = [str(card) for card in action.cards]
        await game.choose(user, PICKER[lang(user)], values, panel)
        return await game.click(user, play_label(user, list(action.cards)), panel)


# ----------------------------------------------------------------------------- TAKE


def card_values_of(cards: Sequence[Card]) -> list[str]:
    """The TAKE panel's select values for ``cards`` picked from the hand: each card's
    text and which copy of it in the hand (``JK.0``, ``JK.1``), as
    `bot.adapters.take.card_values` numbers them."""
    copies: Counter[Card] = Counter()
    values = []
    for card in cards:
        values.append(f"{card}.{copies[card]}")
        copies[card] += 1
    return values


def pick(rng: random.Random, legal: list[take.TakeAction]) -> take.TakeAction:
    """TAKE: lay down whenever possible (so the hand ends), else discard or draw."""
    laying = [action for action in legal if action.kind in ("meld", "add")]
    return rng.choice(laying or legal)


class TakePlay(Play):
    """Moves on the private panel: draw, pick cards and confirm the move, discard."""

    def panel_shows(self, user: FakeUser, state: take.TakeState, panel: FakeMessage) -> bool:
        hand = hand_order(state.hands[state.players.index(str(user.id))])
        shown = says(user, "Your hand: {cards}", cards=" ".join(card_label(c) for c in hand))
        draws = {says(user, "Draw from the stock"), says(user, "Take the discard")}
        drawing = state.phase == "draw"
        return shown in panel.text and drawing == bool(draws & set(panel.labels))

    async def move(
        self,
        game: GameDriver[Any, Any],
        user: FakeUser,
        state: take.TakeState,
        action: take.TakeAction,
    ) -> Response:
        """Make ``action`` on the user's panel the way a person would, counting clicks."""
        panel = await game.panel(user, state)
        if action.kind == "draw":
            wanted = "Draw from the stock" if action.source == "stock" else "Take the discard"
            return await game.click(user, says(user, wanted), panel)
        if action.kind == "discard":
            discard = says(user, "Discard {card}", card=card_label(action.card))
            return await game.click(user, discard, panel)
        pick_cards, choose_move = says(user, "Pick cards"), says(user, "Choose the move")
        await game.choose(user, pick_cards, card_values_of(action.cards), panel)
        move_select = next(s for s in panel.selects if s.get("placeholder") == choose_move)
        key = str(action)
        chosen = [o["value"] for o in move_select["options"] if o.get("default")]
        if chosen != [key]:
            await game.choose(user, choose_move, [key], panel)
            move_select = next(s for s in panel.selects if s.get("placeholder") == choose_move)
        (described,) = [o["label"] for o in move_select["options"] if o["value"] == key]
        confirm = says(user, "Confirm: {move}", move=described)[:80]
        assert confirm in panel.labels, f"no Confirm for {key}: {panel.labels}"
        if take.take_victims(state, action):
            assert "TAKE" in confirm, f"a take not announced as one: {confirm}"
        return await game.click(user, confirm, panel)


# ----------------------------------------------------------------------------------

PLAYS: dict[str, Play] = {
    "geschenkt": GeschenktPlay(),
    "give_and_take": OnTheTable(),
    "escalation": EscalationPlay(),
    "take": TakePlay(),
    "draughts": TypedMoves(),
}
"""Each registered game's `Play`, by its registry name."""
assert set(PLAYS) == {spec.name for spec in GAMES}, "every registered game needs a Play"
