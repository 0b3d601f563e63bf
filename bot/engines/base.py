"""The contract every game engine implements (see docs/architecture.md, "The engine contract").

Engines are pure: no I/O, no module-level randomness. A state is an immutable-by-
convention pydantic model; `apply` returns a new one. Randomness comes from
`SeededRng`, whose whole state is one integer stored inside the game state, so a
game replays exactly from its JSON.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

PlayerId = str
"""A Discord user id as text, or ``"ai:<n>"`` for a computer seat."""


class GameError(Exception):
    """An error whose message is fit to show the player who caused it.

    The message is an English template and its parameters, kept apart so that the
    bot can show it in the player's language (`bot.i18n`); ``str(error)`` is the
    English text. Write ``IllegalAction("You don't hold {cards}.", cards=text)``,
    never an f-string, and pass numbers, cards and names only (no English words)."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class IllegalAction(GameError):
    """The action is not legal for that player in that state."""


class Outcome(BaseModel):
    """Final result: a score and a place (1 = best, shared on ties) per player."""

    model_config = ConfigDict(frozen=True)

    scores: dict[PlayerId, int]
    places: dict[PlayerId, int]

    @classmethod
    def from_scores(cls, scores: Mapping[PlayerId, int], *, lower_wins: bool) -> Outcome:
        """Rank players by score; equal scores share a place (1, 1, 3 style)."""
        ordered = sorted(scores.values(), reverse=not lower_wins)
        places = {player: ordered.index(score) + 1 for player, score in scores.items()}
        return cls(scores=dict(scores), places=places)

    def winners(self) -> list[PlayerId]:
        return [player for player, place in self.places.items() if place == 1]


_MASK64 = (1 << 64) - 1


class SeededRng(BaseModel):
    """A SplitMix64 generator whose state is a single integer.

    Small enough to live in every stored game (a Mersenne Twister state is ~5 KB of
    JSON). Not cryptographic; fine for shuffling cards.
    """

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> SeededRng:
        return cls(state=seed & _MASK64)

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, without modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = _MASK64 - (_MASK64 + 1) % bound
        while True:
            value = self.next_u64()
            if value <= limit:
                return value % bound

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class VersionedModel(BaseModel):
    """Base for stored states and actions: JSON round-trips exactly."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1


ModelT = TypeVar("ModelT", bound=BaseModel)


def replaced(model: ModelT, **changes: Any) -> ModelT:
    """A shallow copy of ``model`` with ``changes``, like ``model_copy(update=...)`` but
    about 3x cheaper: it copies one dict instead of four. The caller passes values of
    the right types (as with ``model_copy``, nothing is validated). Engines use it in
    ``apply``, where the copy is most of the cost of a move."""
    copy = model.__class__.__new__(model.__class__)
    fields = {**model.__dict__, **changes}
    object.__setattr__(copy, "__dict__", fields)
    object.__setattr__(copy, "__pydantic_fields_set__", model.model_fields_set | changes.keys())
    object.__setattr__(copy, "__pydantic_extra__", model.__pydantic_extra__)
    object.__setattr__(copy, "__pydantic_private__", model.__pydantic_private__)
    return copy


OptionsT = TypeVar("OptionsT", bound=BaseModel)


def parse_options(model: type[OptionsT], options: BaseModel | Mapping[str, Any] | None) -> OptionsT:
    """Validate start options given as the model, another model, a mapping or None."""
    if options is None:
        return model()
    if isinstance(options, BaseModel):
        options = options.model_dump()
    try:
        return model.model_validate(options)
    except ValueError as error:
        raise GameError("Invalid options: {error}", error=error) from error


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
V = TypeVar("V", bound=BaseModel, covariant=True)


class Engine(Protocol[S, A, V]):
    """The contract of docs/architecture.md. Each game module exposes ``ENGINE``."""

    # Read-only members, so engines may declare them as plain class attributes.
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def hidden_information(self) -> bool:
        """Whether a view may hide something from its viewer (a hand, chips, the
        stock); the conformance suite then insists on a secret-scrambler."""

    @property
    def Options(self) -> type[BaseModel]: ...
    @property
    def State(self) -> type[S]: ...
    @property
    def Action(self) -> type[A]: ...

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: BaseModel | None = None
    ) -> S: ...

    def to_act(self, state: S) -> list[PlayerId]: ...

    def legal_actions(self, state: S, player: PlayerId) -> list[A]: ...

    def apply(self, state: S, player: PlayerId, action: A) -> S: ...

    def view(self, state: S, viewer: PlayerId | None) -> V: ...

    def is_over(self, state: S) -> bool: ...

    def outcome(self, state: S) -> Outcome: ...


def player_range(low: int, high: int) -> str:
    """How many players a game takes, as people write it: "2", or "3–7"."""
    return str(low) if low == high else f"{low}–{high}"


def check_player_count(engine: EngineInfo, players: Sequence[PlayerId]) -> None:
    """Raise `GameError` unless the seat count and ids suit the engine."""
    if not engine.min_players <= len(players) <= engine.max_players:
        raise GameError(
            "{title} needs {players} players, not {n}.",
            title=engine.title,
            players=player_range(engine.min_players, engine.max_players),
            n=len(players),
        )
    if len(set(players)) != len(players):
        raise GameError("A player can take only one seat.")


class EngineInfo(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...


class SeatedState(Protocol):
    """What `TurnEngine` needs of a state: who sits at the table."""

    @property
    def players(self) -> Sequence[PlayerId]: ...


StateT = TypeVar("StateT", bound=SeatedState)


class TurnEngine(ABC, Generic[StateT, A, V]):
    """An `Engine` whose `apply` makes the checks every game shares, then hands over.

    `apply` is a template method, as OpenSpiel's ``State.apply_action`` calls
    ``_apply_action``: it reads a text action with `parse_text`, refuses a finished
    game, an outsider, a foreign action model and (`_check_turn`) a player who is not
    to act, and only then calls the game's `_apply_action`, which keeps the checks
    that belong to its rules. A game whose players may act out of turn, or that words
    "not your turn" its own way, overrides `_check_turn`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    hidden_information: ClassVar[bool]
    Options: ClassVar[type[BaseModel]]
    """Each game narrows this to its own options model."""
    State: type[StateT]
    Action: type[A]

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def to_act(self, state: StateT) -> list[PlayerId]: ...

    @abstractmethod
    def parse_text(self, text: str) -> A:
        """The action ``text`` stands for (the game's ``parse_action``)."""

    @abstractmethod
    def _foreign_action(self) -> IllegalAction:
        """The error for an action model that is not this game's ``Action``."""

    @abstractmethod
    def _apply_action(self, state: StateT, player: PlayerId, action: A) -> StateT:
        """Apply an action of a seated player whose turn `_check_turn` confirmed, or
        raise `IllegalAction` for what the game's own rules forbid."""

    def apply(self, state: StateT, player: PlayerId, action: A | str) -> StateT:
        """Apply an action (the model or its text form) for ``player``."""
        if isinstance(action, str):
            parsed = self.parse_text(action)
            self._check_actor(state, player, parsed)
            return self._apply_action(state, player, self._resolve_text(state, parsed))
        self._check_actor(state, player, action)
        return self._apply_action(state, player, action)

    def _check_actor(self, state: StateT, player: PlayerId, action: object) -> None:
        self._check_seated(state, player)
        if not isinstance(action, self.Action):
            raise self._foreign_action()
        self._check_turn(state, player, action)

    def _check_seated(self, state: StateT, player: PlayerId) -> None:
        """Refuse any action in a finished game or by someone not at the table."""
        if self.is_over(state):
            raise IllegalAction("The game is over.")
        if player not in state.players:
            raise IllegalAction("You are not playing in this game.")

    def _check_turn(self, state: StateT, player: PlayerId, action: A) -> None:
        """Refuse ``action`` by a seated ``player`` who may not act now."""
        if player not in self.to_act(state):
            raise IllegalAction("It's not your turn.")

    def _resolve_text(self, state: StateT, action: A) -> A:
        """The action a player meant by typing ``action``: itself, unless the game
        reads typed actions more leniently than models (another way to write a move)."""
        return action
