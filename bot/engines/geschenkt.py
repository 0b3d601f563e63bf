"""Geschenkt (No Thanks!): take the face-up card, or pay a chip to refuse it.

Rulings implemented (RULINGS.md, Geschenkt):
- 3–7 players; 11 chips each for 3–5 players, 9 for 6, 7 for 7.
- Cards 3–35; 9 removed unseen, 24 played; removed cards revealed at the end.
- Option ``tactical``: 10 chips each for 3–5 players (6 and 7 players keep 9 and 7),
  10, 20 and 30 leave the deck first, 24 of the remaining 30 are played.
- A player with no chips must take. The taker gets the pot, turns the next card
  and acts again. The game ends the moment the last card is taken.
- Score = sum of the lowest card of each run of consecutive cards − chips.
  Lowest score wins; equal scores share the place.
- Chips are secret: the public view never shows them until the game is over.

Seat 0 turns the first card; the table chooses the seating (the bot seats players
in a seeded random order, which stands in for "select a start player at random").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from bot.engines.base import (
    Engine,
    GameError,
    IllegalAction,
    Outcome,
    PlayerId,
    SeededRng,
    TurnEngine,
    VersionedModel,
    check_player_count,
    parse_options,
    replaced,
)

LOWEST_CARD = 3
HIGHEST_CARD = 35
CARDS_PLAYED = 24
TACTICAL_REMOVED = (10, 20, 30)


class GeschenktOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tactical: bool = False
    deck: list[int] | None = None
    """The cards to play, top first (for tests and puzzles); default: shuffled."""

    @field_validator("deck")
    @classmethod
    def _deck_is_distinct_cards(cls, deck: list[int] | None) -> list[int] | None:
        if deck is None:
            return None
        if not deck:
            raise ValueError("the deck needs at least one card")
        if len(set(deck)) != len(deck):
            raise ValueError("the deck has a card twice")
        if any(not LOWEST_CARD <= card <= HIGHEST_CARD for card in deck):
            raise ValueError(f"cards run from {LOWEST_CARD} to {HIGHEST_CARD}")
        return deck


class GeschenktAction(VersionedModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["take", "refuse"]

    def __str__(self) -> str:
        return self.kind


TAKE = GeschenktAction(kind="take")
REFUSE = GeschenktAction(kind="refuse")


def parse_action(text: str) -> GeschenktAction:
    if text not in ("take", "refuse"):
        raise IllegalAction("{move} is not a Geschenkt move; say take or refuse.", move=repr(text))
    return TAKE if text == "take" else REFUSE


class GeschenktState(VersionedModel):
    players: list[PlayerId]
    chips: list[int]
    cards: list[list[int]]
    """Each seat's cards in front of them, ascending."""
    stack: list[int]
    """Face-down cards still to come, top first (not counting ``current``)."""
    current: int | None
    """The face-up card; None once the game is over."""
    pot: int = 0
    turn: int = 0
    removed: list[int]
    tactical: bool = False
    rng: SeededRng


class SeatView(BaseModel):
    player: PlayerId
    cards: list[int]
    runs: list[list[int]]
    chips: int | None = None
    """Only once the game is over."""
    score: int | None = None
    """Only once the game is over."""


class GeschenktView(BaseModel):
    viewer: PlayerId | None
    seats: list[SeatView]
    current_card: int | None
    pot: int
    cards_left: int
    to_act: PlayerId | None
    over: bool
    removed: list[int] | None = None
    """The unseen cards, revealed once the game is over."""
    my_chips: int | None = None
    my_score: int | None = None


def runs_of(cards: Iterable[int]) -> list[list[int]]:
    """Split cards into runs of consecutive numbers, ascending."""
    runs: list[list[int]] = []
    for card in sorted(cards):
        if runs and card == runs[-1][-1] + 1:
            runs[-1].append(card)
        else:
            runs.append([card])
    return runs


def score(cards: Iterable[int], chips: int) -> int:
    """Sum of the lowest card of each run, minus chips held (lower is better)."""
    return sum(run[0] for run in runs_of(cards)) - chips


def starting_chips(player_count: int, tactical: bool) -> int:
    if player_count == 7:
        return 7
    if player_count == 6:
        return 9
    return 10 if tactical else 11


def card_pool(tactical: bool) -> list[int]:
    """Every card in the box for this variant (3–35, less 10/20/30 if tactical)."""
    excluded = TACTICAL_REMOVED if tactical else ()
    return [c for c in range(LOWEST_CARD, HIGHEST_CARD + 1) if c not in excluded]


class GeschenktEngine(TurnEngine[GeschenktState, GeschenktAction, GeschenktView]):
    name = "geschenkt"
    title = "Geschenkt (No Thanks!)"
    min_players = 3
    max_players = 7
    hidden_information = True
    Options: ClassVar[type[GeschenktOptions]] = GeschenktOptions
    State = GeschenktState
    Action = GeschenktAction

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: BaseModel | None = None
    ) -> GeschenktState:
        check_player_count(self, players)
        opts = parse_options(self.Options, options)
        rng = SeededRng.from_seed(seed)
        pool = card_pool(opts.tactical)
        if opts.deck is not None:
            out_of_box = sorted(set(opts.deck) - set(pool))
            if out_of_box:
                raise GameError("Cards {cards} are not in this variant's deck.", cards=out_of_box)
            played = list(opts.deck)
            removed = sorted(set(pool) - set(played))
        else:
            rng.shuffle(pool)
            played, removed = pool[:CARDS_PLAYED], sorted(pool[CARDS_PLAYED:])
        chips = starting_chips(len(players), opts.tactical)
        return GeschenktState(
            players=list(players),
            chips=[chips] * len(players),
            cards=[[] for _ in players],
            stack=played[1:],
            current=played[0],
            removed=removed,
            tactical=opts.tactical,
            rng=rng,
        )

    def is_over(self, state: GeschenktState) -> bool:
        return state.current is None

    def to_act(self, state: GeschenktState) -> list[PlayerId]:
        return [] if self.is_over(state) else [state.players[state.turn]]

    def legal_actions(self, state: GeschenktState, player: PlayerId) -> list[GeschenktAction]:
        if player not in self.to_act(state):
            return []
        return [TAKE, REFUSE] if state.chips[state.turn] > 0 else [TAKE]

    def parse_text(self, text: str) -> GeschenktAction:
        return parse_action(text)

    def _foreign_action(self) -> IllegalAction:
        return IllegalAction("That is not a Geschenkt move.")

    def _apply_action(
        self, state: GeschenktState, player: PlayerId, action: GeschenktAction
    ) -> GeschenktState:
        """Apply ``take`` or ``refuse``."""
        # Copy only what the action changes: apply never mutates in place, so the new
        # state may share the untouched lists with the old one (5x faster than deep).
        seat, chips = state.turn, list(state.chips)
        if action.kind == "refuse":
            if chips[seat] == 0:
                raise IllegalAction("You have no chips left, so you must take the card.")
            chips[seat] -= 1
            return replaced(
                state, chips=chips, pot=state.pot + 1, turn=(seat + 1) % len(state.players)
            )
        assert state.current is not None
        cards = list(state.cards)
        cards[seat] = sorted([*cards[seat], state.current])
        chips[seat] += state.pot
        return replaced(
            state,
            cards=cards,
            chips=chips,
            pot=0,
            stack=state.stack[1:],
            current=state.stack[0] if state.stack else None,
        )

    def view(self, state: GeschenktState, viewer: PlayerId | None) -> GeschenktView:
        over = self.is_over(state)
        seats = [
            SeatView(
                player=player,
                cards=list(cards),
                runs=runs_of(cards),
                chips=chips if over else None,
                score=score(cards, chips) if over else None,
            )
            for player, cards, chips in zip(state.players, state.cards, state.chips, strict=True)
        ]
        view = GeschenktView(
            viewer=viewer,
            seats=seats,
            current_card=state.current,
            pot=state.pot,
            cards_left=len(state.stack),
            to_act=next(iter(self.to_act(state)), None),
            over=over,
            removed=list(state.removed) if over else None,
        )
        if viewer in state.players:
            seat = state.players.index(viewer)
            view.my_chips = state.chips[seat]
            view.my_score = score(state.cards[seat], state.chips[seat])
        return view

    def outcome(self, state: GeschenktState) -> Outcome:
        scores = {
            player: score(cards, chips)
            for player, cards, chips in zip(state.players, state.cards, state.chips, strict=True)
        }
        return Outcome.from_scores(scores, lower_wins=True)


ENGINE = GeschenktEngine()
_CONTRACT: Engine[GeschenktState, GeschenktAction, GeschenktView] = (
    ENGINE  # mypy checks the contract
)
