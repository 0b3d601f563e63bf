"""Escalation: beat the value in force with a higher set, pass it on with a 2 or 3, or
take the round's cards onto your penalty stack and lead again.

Rulings implemented (RULINGS.md, Escalation):
- 2–6 players, one 52-card deck, 6 cards each; the rest is the stock.
- Values: A 14, K 13, Q 12, J 11, 10–7 face value, 6/5/4 all 6. A play is one card or
  several cards of equal value (4, 5 and 6 may be mixed); its value is the sum and
  must be strictly higher than the value in force.
- 2s and 3s are pass-through cards: always played alone, they keep the value in
  force; a 3 reverses the direction (with two players that changes nothing about
  whose turn it is).
- Leading (the first lead of a deal, or after taking): any ordinary card or set. A
  player who holds only 2s and 3s may lead one of them, at value 0.
- Taking puts every card played this round onto the taker's face-down penalty stack
  (never into the hand); the taker then leads.
- After acting, the player refills their hand to 6 from the stock while it lasts.
  The direction persists across rounds.
- A deal ends when the stock is empty and a player has no cards in hand: that player
  wins it, and every other player pays them one chip per card in their hand plus
  their penalty stack. Option ``deals``: several deals with running totals.
- Public: hand sizes, penalty stack sizes, the stock size, the plays of the current
  round and the value in force, the direction, running totals. Private: your hand.
- The cards in the penalty stacks are public too (the view's ``taken``), though the
  stacks lie face down: each card was played face up, and the game's Log lists every
  play, so anyone at the table can count them.

Decisions where the rules are silent:
- Taking and leading are two actions of the same player: ``take`` (only when cards
  have been played this round), after which that player is the only one to act and
  every legal action is a lead. The table sees the taken round cleared before the
  lead, and the lead uses the same card picker as any other play.
- Seat 0 leads the first deal; deal ``d`` (0-based) is led by seat ``d % players``.
  Cards are dealt one at a time starting from seat 0. Clockwise is seat order; each
  deal starts clockwise. A 3 always flips the direction, also with two players
  (where it cannot change whose turn it is) and also when led at value 0.
- A hand is never empty while the stock lasts (every play refills it), and a hand
  emptied with the stock gone ends the deal at once: the player to act, a taker
  included, always holds a card to play.
- Option ``deals`` runs 1–100. Option ``deck`` (top first) is used for every deal;
  it must hold 6 cards per player. Without it, every deal is shuffled with the
  game's seeded generator.
- Score = chips won minus chips paid over all deals; higher is better, equal scores
  share the place. Cards left in the middle when a deal ends belong to nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

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
)
from bot.engines.cards import Card, shuffled_deck

HAND_SIZE = 6
PASS_THROUGH_RANKS = (2, 3)
REVERSE_RANK = 3
MAX_DEALS = 100

Direction = Literal[1, -1]
CLOCKWISE: Direction = 1
COUNTERCLOCKWISE: Direction = -1


# --- Card values ----------------------------------------------------------------------


def is_pass_through(card: Card) -> bool:
    """2s and 3s: played alone, they keep the value in force."""
    return card.rank in PASS_THROUGH_RANKS


def card_value(card: Card) -> int:
    """The value of one ordinary card: A 14 … 7 7, and 6, 5, 4 all 6.

    Raises `IllegalAction` for a 2, a 3 or a joker, which have no value of their own.
    """
    if card.is_joker:
        raise IllegalAction("Jokers are not used in Escalation.")
    if is_pass_through(card):
        raise IllegalAction(
            "{card} is a pass-through card and has no value of its own.", card=str(card)
        )
    return 6 if card.rank <= 6 else card.rank


def play_value(cards: Sequence[Card]) -> int:
    """The value of a play: the sum of a set of cards of equal value.

    A lone 2 or 3 counts 0 on its own (played on a round it keeps the value in force;
    led, it leads at 0). Raises `IllegalAction` for an empty play, a card given twice,
    a 2 or 3 in a set, or cards of different values.
    """
    if not cards:
        raise IllegalAction("Play at least one card.")
    if len(set(cards)) != len(cards):
        raise IllegalAction("A card can be played only once.")
    if len(cards) == 1 and is_pass_through(cards[0]):
        return 0
    special = [card for card in cards if is_pass_through(card)]
    if special:
        raise IllegalAction(
            "2s and 3s are played alone, so {card} can't be in a set.", card=str(special[0])
        )
    values = [card_value(card) for card in cards]
    if len(set(values)) > 1:
        shown = ", ".join(f"{card} ({value})" for card, value in zip(cards, values, strict=True))
        raise IllegalAction("A set must be cards of equal value: {cards}.", cards=shown)
    return sum(values)


def beats(cards: Sequence[Card], value_in_force: int) -> bool:
    """Whether the set of ordinary cards is worth strictly more than ``value_in_force``.

    A lone 2 or 3 never beats anything (it passes the value on instead); an invalid
    set raises `IllegalAction` as in `play_value`.
    """
    value = play_value(cards)
    if is_pass_through(cards[0]):
        return False
    return value > value_in_force


def show_cards(cards: Iterable[Card]) -> str:
    """``"9H+9S"``: how a play is announced."""
    return "+".join(str(card) for card in cards)


# --- Options, actions, state ------------------------------------------------------------


class EscalationOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deals: int = Field(default=1, ge=1, le=MAX_DEALS)
    """Deals to play with running totals; the first leader moves one seat each deal."""
    deck: list[str] | None = None
    """A stacked deck, top first, for tests and puzzles: dealt one card at a time from
    seat 0, the rest is the stock. Used for every deal. Default: shuffled each deal."""

    @field_validator("deck")
    @classmethod
    def _deck_is_distinct_cards(cls, deck: list[str] | None) -> list[str] | None:
        if deck is None:
            return None
        try:
            cards = [Card.parse(text) for text in deck]
        except GameError as error:
            raise ValueError(str(error)) from error
        if not cards:
            raise ValueError("the deck needs cards")
        if any(card.is_joker for card in cards):
            raise ValueError("Escalation is played without jokers")
        if len(set(cards)) != len(cards):
            raise ValueError("the deck has a card twice")
        return [str(card) for card in cards]


class EscalationAction(VersionedModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["play", "take"]
    cards: tuple[Card, ...] = ()
    """The cards played (``play`` only), kept in card order: a tuple, so actions hash."""

    @field_validator("cards")
    @classmethod
    def _sorted(cls, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(sorted(cards))

    def __str__(self) -> str:
        if self.kind == "take":
            return "take"
        return " ".join(["play", *(str(card) for card in self.cards)])


TAKE = EscalationAction(kind="take")


def play(*cards: Card | str) -> EscalationAction:
    """A ``play`` action: ``play("9H", "9S")``."""
    return EscalationAction(
        kind="play", cards=tuple(Card.parse(c) if isinstance(c, str) else c for c in cards)
    )


def parse_action(text: str) -> EscalationAction:
    """``"take"``, or ``"play 9H 9S"`` (``"play"`` optional; ``+`` or ``,`` separate too)."""
    words = text.replace("+", " ").replace(",", " ").split()
    if [word.lower() for word in words] == ["take"]:
        return TAKE
    if words and words[0].lower() == "play":
        words = words[1:]
    cause: GameError | None = None
    if words:
        try:
            return play(*words)
        except GameError as error:
            cause = error
    raise IllegalAction(
        "{text} is not an Escalation move; say take or play <cards>, e.g. play 9H 9S.",
        text=repr(text),
    ) from cause


class PlayRecord(BaseModel):
    """One play of the current round and the value in force after it."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    cards: list[Card]
    value: int


class TakeRecord(BaseModel):
    """The latest take of the deal: who took, and how many cards."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    count: int


class DealResult(BaseModel):
    """A finished deal: its winner and each seat's chips won (+) or paid (−)."""

    model_config = ConfigDict(extra="forbid")

    winner: int
    chips: list[int]


class EscalationState(VersionedModel):
    players: list[PlayerId]
    hands: list[list[Card]]
    """Each seat's hand, in card order."""
    penalties: list[list[Card]]
    """Each seat's face-down penalty stack, oldest first."""
    stock: list[Card]
    """The face-down draw deck, top first."""
    pile: list[PlayRecord] = Field(default_factory=list)
    """The plays of the current round; empty when the player to act must lead."""
    turn: int = 0
    direction: Direction = CLOCKWISE
    last_take: TakeRecord | None = None
    deal: int = 0
    """The current deal, 0-based (the last one once the game is over)."""
    deals: int = 1
    deck: list[Card] | None = None
    """The stacked deck option, reused for every deal."""
    totals: list[int]
    """Running chips won minus paid, per seat."""
    results: list[DealResult] = Field(default_factory=list)
    rng: SeededRng

    @property
    def value_in_force(self) -> int | None:
        """The value to beat, or None when the player to act leads."""
        return self.pile[-1].value if self.pile else None


# --- Views ------------------------------------------------------------------------------


class SeatView(BaseModel):
    player: PlayerId
    hand_size: int
    penalty_size: int
    """Face down: only the size is public."""
    total: int
    """Running chips won minus paid."""


class PlayView(BaseModel):
    player: PlayerId
    cards: list[Card]
    value: int
    """The value in force after this play."""
    pass_through: bool


class TakeView(BaseModel):
    player: PlayerId
    count: int


class DealResultView(BaseModel):
    deal: int
    """1-based."""
    winner: PlayerId
    chips: dict[PlayerId, int]
    """Chips won (the winner, positive) or paid (everyone else, negative)."""


class EscalationView(BaseModel):
    viewer: PlayerId | None
    seats: list[SeatView]
    stock_size: int
    round: list[PlayView]
    """Every play of the current round, oldest first."""
    value_in_force: int | None
    """None when the player to act leads."""
    direction: Literal["clockwise", "counterclockwise"]
    to_act: PlayerId | None
    must_lead: bool
    last_take: TakeView | None
    deal: int
    """1-based."""
    deals: int
    results: list[DealResultView]
    over: bool
    scores: dict[PlayerId, int] | None = None
    """Final totals, once the game is over."""
    my_hand: list[Card] | None = None
    taken: list[Card] = []
    """Every card taken onto a penalty stack this deal, sorted: each was played face
    up (the game's Log lists them), so a player who counts cards knows them."""


# --- The engine -------------------------------------------------------------------------


def _lead_plays(hand: Sequence[Card]) -> list[list[Card]]:
    """Every set of equal-valued ordinary cards in ``hand`` (each sorted)."""
    groups: dict[int, list[Card]] = {}
    for card in hand:
        if not is_pass_through(card) and not card.is_joker:
            groups.setdefault(card_value(card), []).append(card)
    sets: list[list[Card]] = []
    for cards in groups.values():
        for size in range(1, len(cards) + 1):
            sets.extend(sorted(combo) for combo in combinations(cards, size))
    return sets


def _remove(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    gone = set(cards)
    return [card for card in hand if card not in gone]


class EscalationEngine(TurnEngine[EscalationState, EscalationAction, EscalationView]):
    name = "escalation"
    title = "Escalation"
    min_players = 2
    max_players = 6
    hidden_information = True
    Options: ClassVar[type[EscalationOptions]] = EscalationOptions
    State = EscalationState
    Action = EscalationAction

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: BaseModel | None = None
    ) -> EscalationState:
        check_player_count(self, players)
        opts = parse_options(self.Options, options)
        deck = None if opts.deck is None else [Card.parse(text) for text in opts.deck]
        if deck is not None and len(deck) < HAND_SIZE * len(players):
            raise GameError(
                "A stacked deck needs {per_player} cards per player: "
                "{needed} for {players}, not {given}.",
                per_player=HAND_SIZE,
                needed=HAND_SIZE * len(players),
                players=len(players),
                given=len(deck),
            )
        empty: list[list[Card]] = [[] for _ in players]
        state = EscalationState(
            players=list(players),
            hands=empty,
            penalties=empty,
            stock=[],
            deals=opts.deals,
            deck=deck,
            totals=[0] * len(players),
            rng=SeededRng.from_seed(seed),
        )
        return self._deal(state, 0)

    def _deal(self, state: EscalationState, deal: int) -> EscalationState:
        """Start deal ``deal``: fresh hands, empty stacks, clockwise, its leader to act."""
        count = len(state.players)
        rng = state.rng.model_copy()
        cards = list(state.deck) if state.deck is not None else shuffled_deck(rng)
        dealt = HAND_SIZE * count
        hands = [sorted(cards[seat:dealt:count]) for seat in range(count)]
        return state.model_copy(
            update={
                "hands": hands,
                "penalties": [[] for _ in range(count)],
                "stock": cards[dealt:],
                "pile": [],
                "turn": deal % count,
                "direction": CLOCKWISE,
                "last_take": None,
                "deal": deal,
                "rng": rng,
            }
        )

    def is_over(self, state: EscalationState) -> bool:
        return len(state.results) >= state.deals

    def to_act(self, state: EscalationState) -> list[PlayerId]:
        return [] if self.is_over(state) else [state.players[state.turn]]

    def legal_actions(self, state: EscalationState, player: PlayerId) -> list[EscalationAction]:
        """Every legal play (ascending by value), then each lone 2 or 3, then ``take``."""
        if player not in self.to_act(state):
            return []
        hand = state.hands[state.turn]
        in_force = state.value_in_force
        sets = _lead_plays(hand)
        if in_force is not None:
            sets = [cards for cards in sets if play_value(cards) > in_force]
        sets.sort(key=lambda cards: (play_value(cards), cards))
        actions = [EscalationAction(kind="play", cards=tuple(cards)) for cards in sets]
        special = [card for card in hand if is_pass_through(card)]
        if in_force is not None or len(special) == len(hand):
            actions.extend(EscalationAction(kind="play", cards=(card,)) for card in special)
        if in_force is not None:
            actions.append(TAKE)
        return actions

    def parse_text(self, text: str) -> EscalationAction:
        return parse_action(text)

    def _foreign_action(self) -> IllegalAction:
        return IllegalAction("That is not an Escalation move.")

    def _apply_action(
        self, state: EscalationState, player: PlayerId, action: EscalationAction
    ) -> EscalationState:
        """Apply a ``play`` or ``take``."""
        if action.kind == "take":
            return self._take(state, action)
        return self._play(state, action.cards)

    def _take(self, state: EscalationState, action: EscalationAction) -> EscalationState:
        if action.cards:
            raise IllegalAction("Take without cards; you lead after taking.")
        if not state.pile:
            raise IllegalAction("There is nothing to take: lead a card or a set.")
        seat = state.turn
        taken = [card for entry in state.pile for card in entry.cards]
        penalties = list(state.penalties)
        penalties[seat] = [*penalties[seat], *taken]
        # The taker's hand is untouched (and so still full while the stock lasts);
        # they stay to act and must lead.
        return state.model_copy(
            update={
                "penalties": penalties,
                "pile": [],
                "last_take": TakeRecord(seat=seat, count=len(taken)),
            }
        )

    def _play(self, state: EscalationState, cards: Sequence[Card]) -> EscalationState:
        seat = state.turn
        hand = state.hands[seat]
        missing = [card for card in cards if card not in hand]
        if missing:
            raise IllegalAction("You don't hold {cards}.", cards=show_cards(missing))
        value = play_value(cards)
        special = is_pass_through(cards[0])
        in_force = state.value_in_force
        if in_force is None:
            if special and any(not is_pass_through(card) for card in hand):
                raise IllegalAction(
                    "Lead an ordinary card or set: a 2 or 3 may lead only when you "
                    "hold nothing else."
                )
        elif special:
            value = in_force
        elif value <= in_force:
            raise IllegalAction(
                "{cards} ({value}) does not beat {in_force}.",
                cards=show_cards(cards),
                value=value,
                in_force=in_force,
            )
        direction = state.direction
        if special and cards[0].rank == REVERSE_RANK:
            direction = COUNTERCLOCKWISE if direction == CLOCKWISE else CLOCKWISE
        new_hand = _remove(hand, cards)
        draw = max(0, HAND_SIZE - len(new_hand))
        hands = list(state.hands)
        hands[seat] = sorted([*new_hand, *state.stock[:draw]])
        after = state.model_copy(
            update={
                "hands": hands,
                "stock": state.stock[draw:],
                "pile": [*state.pile, PlayRecord(seat=seat, cards=list(cards), value=value)],
                "direction": direction,
            }
        )
        if not hands[seat]:
            return self._end_deal(after, seat)
        count = len(state.players)
        return after.model_copy(update={"turn": (seat + direction) % count})

    def _end_deal(self, state: EscalationState, winner: int) -> EscalationState:
        """``winner`` ran out with the stock empty: everyone else pays per card held."""
        chips = [
            -(len(hand) + len(penalty))
            for hand, penalty in zip(state.hands, state.penalties, strict=True)
        ]
        chips[winner] = 0
        chips[winner] = -sum(chips)
        totals = [total + won for total, won in zip(state.totals, chips, strict=True)]
        results = [*state.results, DealResult(winner=winner, chips=chips)]
        done = state.model_copy(update={"totals": totals, "results": results})
        if len(results) < state.deals:
            return self._deal(done, state.deal + 1)
        return done

    def view(self, state: EscalationState, viewer: PlayerId | None) -> EscalationView:
        over = self.is_over(state)
        players = state.players
        seats = [
            SeatView(player=player, hand_size=len(hand), penalty_size=len(penalty), total=total)
            for player, hand, penalty, total in zip(
                players, state.hands, state.penalties, state.totals, strict=True
            )
        ]
        view = EscalationView(
            viewer=viewer,
            seats=seats,
            stock_size=len(state.stock),
            round=[
                PlayView(
                    player=players[entry.seat],
                    cards=list(entry.cards),
                    value=entry.value,
                    pass_through=is_pass_through(entry.cards[0]),
                )
                for entry in state.pile
            ],
            value_in_force=state.value_in_force,
            direction="clockwise" if state.direction == CLOCKWISE else "counterclockwise",
            to_act=next(iter(self.to_act(state)), None),
            must_lead=not over and not state.pile,
            last_take=None
            if state.last_take is None
            else TakeView(player=players[state.last_take.seat], count=state.last_take.count),
            deal=state.deal + 1,
            deals=state.deals,
            results=[
                DealResultView(
                    deal=number,
                    winner=players[result.winner],
                    chips=dict(zip(players, result.chips, strict=True)),
                )
                for number, result in enumerate(state.results, start=1)
            ],
            over=over,
            scores=dict(zip(players, state.totals, strict=True)) if over else None,
            taken=sorted(card for penalty in state.penalties for card in penalty),
        )
        if viewer in players:
            view.my_hand = list(state.hands[players.index(viewer)])
        return view

    def outcome(self, state: EscalationState) -> Outcome:
        scores = dict(zip(state.players, state.totals, strict=True))
        return Outcome.from_scores(scores, lower_wins=False)


ENGINE = EscalationEngine()
_CONTRACT: Engine[EscalationState, EscalationAction, EscalationView] = (
    ENGINE  # mypy checks the contract
)
