"""TAKE: rummy with runs only, where adding a card to another player's run takes it.

Rulings implemented (RULINGS.md, TAKE):
- 2–4 players. One 52-card deck plus 2 jokers. 7 cards each; option ``hand_size`` 7
  or 10 (10 only for 2 players: with 3–4 it is refused at the start, not changed).
- Melds are runs only: 3+ cards of one suit in sequence. The ace is low (A-2-3) or
  high (Q-K-A), never both in one run; no wrap-around.
- A joker stands for any card; the card it stands for is fixed when it is placed and
  it is never reclaimed. A run needs at least two natural cards.
- Turn: draw one card (the stock, or the top of the discard pile), then any number of
  melds, lay-offs onto your own runs and takes, then one discard.
- Take: adding a card to another player's run moves that whole run to you. A card
  that joins two runs (double take) moves both, merged, to you. A run of 13 cards is
  locked: no one can add to it or take it.
- Discard: not the card just taken from the discard pile (unless it is the only card
  left), and never a card that could be added to any run on the table. The two jokers
  count as the same card here: a player who took a joker from the pile may not discard
  a joker that turn (it would be a pass). If every card
  left can be laid down, the player must lay them all down and becomes a floater (no
  discard).
- Floater: next turn draws from the stock only; a playable card must be laid down
  (still floating); an unplayable one is discarded and the floater goes out.
- A hand ends when a player goes out by discarding their last card. Stock empty: the
  discard pile except its top card becomes the new stock, not shuffled; if the stock
  runs out a second time the hand ends as it stands.
- Scoring per hand: cards laid down (taken runs included) minus cards in hand: 2–9 = 5,
  10–K = 10, A = 15, joker = 20. Option ``target`` (default 500): hands continue until
  someone reaches it, or after 40 hands (a safety stop); the highest total wins, equal
  totals share the place.

Actions and their text forms (`TakeAction`, `parse_action`):
- ``draw stock`` / ``draw discard``.
- ``meld 5H JK=6H 7H``: lay down a new run. A meld is a *window* of consecutive cards
  of one suit: every card of the window that the player holds goes in as itself and a
  joker fills each card they don't hold (``JK=6H``: the joker stands for 6H). So a
  joker in a new meld never stands for a card in its player's hand.
- ``add 8C to 3`` / ``add JK=8C to 3``: lay one card on an end of run 3 (a take when
  it is someone else's run). ``add 6D to 3+7``: the card joins runs 3 and 7 (a double
  take when either is someone else's). Longer lay-offs are several adds, one card at
  a time; a joker may be added for any card that fits, held or not.
- ``discard 9S``.

Decisions where the rules are silent:
- Seat order stands for the random choice of the first dealer: the last seat deals
  the first hand, the deal moves one seat on each hand. Cards are dealt one at a time,
  starting with the player after the dealer, who also plays first; then one card
  starts the discard pile and the rest is the stock (top first).
- Option ``deck`` (a stacked deck, top first, for tests and puzzles) deals the first
  hand; it also fixes the cards in play, and every later hand deals those cards
  shuffled by the game's seeded generator. It must leave at least one stock card.
- A card placed between two runs of its suit joins them whenever the merged run is
  legal: the single-run add is then refused (name both runs). Where the merge would
  put aces at both ends, the card extends either run, as the player chooses. A meld is
  a new run even when it sits next to an existing one: only an added card joins runs.
  A joined run keeps the id of its lower part; the ids of a hand start at 1.
- "Could be added to a run" is judged on the table as it stands: a natural card fits
  an end of an unlocked run (or joins two); a joker fits while any unlocked run has a
  free end.
- "Must lay them all down" is binding throughout the turn: while every card held can
  still be laid down, no discard is allowed and every meld or add must keep that
  possible. The check searches melds of 3–4 cards plus single-card adds, which reach
  every table a longer meld could make.
- Taking a joker from the discard pile: no joker may be discarded that turn while
  any other card is held (the taken card may go only when nothing else is left).
- The stock is checked when a turn starts: empty the first time, the pile under its
  top card is turned over; empty again (or nothing to turn over) and the hand ends
  before that turn. The player who drew the last card finishes their turn.
- Going out earns no bonus; the hand's scores are laid-down points minus points held
  (totals may go negative; the match ends only when someone reaches the target). A
  finished hand's leftover cards are shown in the results.
- Public: every run (owner, cards, what each joker stands for, locked), the discard
  pile's top card and size, the stock size, whether the stock was turned over, hand
  sizes, floaters, totals and finished hands. Private: your hand. The pile below its
  top and the stock order are never shown.

Granularity: `legal_actions` lists every legal action. Melds are windows (at most a
few dozen even for an 11-card hand with two jokers: at most 2 jokers fill the gaps),
adds are one card onto one run end or into one gap between two runs, discards one
card: so the list stays small and every meld or lay-off reachable by longer plays is
reachable by these.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

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
from bot.engines.cards import SUITS, Card, standard_deck

DEFAULT_HAND_SIZE = 7
DEFAULT_TARGET = 500
JOKERS = 2
LOCKED_LENGTH = 13
MAX_HANDS = 40
"""A match stops after this many hands (a safety stop real tables never reach)."""
MIN_RUN = 3
MIN_NATURALS = 2
LOW_ACE = 1
HIGH_ACE = 14
ACE = 14
JOKER = Card.joker()

Suit = str
Span = tuple[Suit, int, int]
"""A run's suit and its first and last position (1 = low ace … 14 = high ace)."""


# --- Cards and runs ---------------------------------------------------------------------


def card_points(card: Card) -> int:
    """A card's value: 2–9 = 5, 10–K = 10, A = 15, joker = 20."""
    if card.is_joker:
        return 20
    if card.rank == ACE:
        return 15
    return 10 if card.rank >= 10 else 5


def _positions(card: Card) -> tuple[int, ...]:
    """Where a natural card can sit in a run of its suit: an ace at either end."""
    return (LOW_ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)


_CARD_AT = {
    (suit, position): Card(ACE if position == LOW_ACE else position, suit)
    for suit in SUITS
    for position in range(LOW_ACE, HIGH_ACE + 1)
}


def card_at(suit: Suit, position: int) -> Card:
    """The card at ``position`` (1 = low ace … 14 = high ace) of a run of ``suit``."""
    return _CARD_AT[suit, position]


def _span_ok(low: int, high: int) -> bool:
    """Inside A…A without aces at both ends (so at most 13 cards)."""
    return LOW_ACE <= low <= high <= HIGH_ACE and not (low == LOW_ACE and high == HIGH_ACE)


def is_run(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (in any order, jokers free to stand for any card) can be laid
    as one run: 3–13 cards, at least two natural ones, all of one suit, distinct and
    fitting one sequence with the ace low or high."""
    naturals = [card for card in cards if not card.is_joker]
    size = len(cards)
    if not MIN_RUN <= size <= LOCKED_LENGTH or len(naturals) < MIN_NATURALS:
        return False
    if len({card.suit for card in naturals}) != 1 or len(set(naturals)) != len(naturals):
        return False
    for ace in (LOW_ACE, HIGH_ACE):
        spots = [ace if card.rank == ACE else card.rank for card in naturals]
        low = max(LOW_ACE, max(spots) - size + 1)
        high = min(min(spots), HIGH_ACE - size + 1)
        if low <= high:
            return True
    return False


def _window(represented: Iterable[Card]) -> Span | None:
    """The span of a set of natural cards forming consecutive positions, else None.
    An ace sits low when the set holds a 2, else high."""
    cards = list(represented)
    if not cards or any(card.is_joker for card in cards):
        return None
    suits = {card.suit for card in cards}
    ranks = {card.rank for card in cards}
    if len(suits) != 1 or len(ranks) != len(cards):
        return None
    ace = LOW_ACE if 2 in ranks else HIGH_ACE
    spots = sorted(ace if rank == ACE else rank for rank in ranks)
    if spots[-1] - spots[0] + 1 != len(spots) or not _span_ok(spots[0], spots[-1]):
        return None
    return suits.pop(), spots[0], spots[-1]


class Run(BaseModel):
    """A run on the table. Its cards sit at consecutive positions from ``low``; a
    joker stands for the card of its position, fixed for good."""

    model_config = ConfigDict(extra="forbid")

    id: int
    owner: int
    """The seat whose points it is."""
    suit: Suit
    low: int
    """The position of the first card: 1 = low ace, 2–12 otherwise."""
    cards: list[Card]
    """The physical cards, lowest position first; jokers as JK."""

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    @property
    def locked(self) -> bool:
        return len(self.cards) >= LOCKED_LENGTH

    @property
    def span(self) -> Span:
        return self.suit, self.low, self.high

    @property
    def points(self) -> int:
        return sum(card_points(card) for card in self.cards)

    def stands_for(self) -> list[Card]:
        """The card each position represents (a joker's fixed card)."""
        return [card_at(self.suit, p) for p in range(self.low, self.high + 1)]

    def label(self) -> str:
        """``5H JK=6H 7H``."""
        return _run_text(self.cards, self.stands_for())


def _run_text(cards: Sequence[Card], stands: Sequence[Card]) -> str:
    return " ".join(
        f"{card}={stand}" if card.is_joker else str(card)
        for card, stand in zip(cards, stands, strict=True)
    )


# --- Options, actions, state ------------------------------------------------------------


class TakeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hand_size: Literal[7, 10] = 7
    """Cards dealt to each player; 10 only with two players (3–4 players get 7)."""
    target: int = Field(default=DEFAULT_TARGET, ge=1)
    """Hands continue until someone's total reaches this."""
    deck: list[str] | None = None
    """A stacked deck, top first: dealt one card at a time from seat 0, then one card
    starts the discard pile, the rest is the stock. It deals the first hand; later
    hands shuffle the same cards. Default: 52 cards and 2 jokers, shuffled."""

    @field_validator("deck")
    @classmethod
    def _deck_is_real_cards(cls, deck: list[str] | None) -> list[str] | None:
        if deck is None:
            return None
        try:
            cards = [Card.parse(text) for text in deck]
        except GameError as error:
            raise ValueError(str(error)) from error
        naturals = [card for card in cards if not card.is_joker]
        if len(set(naturals)) != len(naturals):
            raise ValueError("the deck has a card twice")
        if len(cards) - len(naturals) > JOKERS:
            raise ValueError(f"the deck has at most {JOKERS} jokers")
        return [str(card) for card in cards]


ActionKind = Literal["draw", "meld", "add", "discard"]
Source = Literal["stock", "discard"]


class TakeAction(VersionedModel):
    """One step of a turn. Fields in canonical (sorted) order, so equal moves are
    equal models and actions hash."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ActionKind
    source: Source | None = None
    """``draw`` only: the stock or the discard pile."""
    cards: tuple[Card, ...] = ()
    """``meld``: the physical cards laid (jokers as JK); ``add``/``discard``: the card."""
    jokers: tuple[Card, ...] = ()
    """The card each joker among ``cards`` stands for (``meld`` and ``add``)."""
    runs: tuple[int, ...] = ()
    """``add``: the run added to, or the two runs the card joins."""

    @field_validator("cards", "jokers")
    @classmethod
    def _sorted_cards(cls, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(sorted(cards))

    @field_validator("runs")
    @classmethod
    def _sorted_runs(cls, runs: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(runs))

    @model_validator(mode="after")
    def _shape(self) -> TakeAction:
        jokers_in = sum(1 for card in self.cards if card.is_joker)
        if self.kind == "draw":
            if self.source is None or self.cards or self.jokers or self.runs:
                raise ValueError("a draw names only its source")
            return self
        if self.source is not None:
            raise ValueError("only a draw has a source")
        if any(card.is_joker for card in self.jokers):
            raise ValueError("a joker stands for a natural card")
        if self.kind == "discard":
            if len(self.cards) != 1 or self.jokers or self.runs:
                raise ValueError("a discard is one card")
            return self
        if jokers_in != len(self.jokers):
            raise ValueError("say which card each joker stands for")
        if self.kind == "meld":
            if not self.cards or self.runs:
                raise ValueError("a meld names its cards only")
        elif len(self.cards) != 1 or not 1 <= len(self.runs) <= 2:
            raise ValueError("add one card to one run, or into the gap between two")
        elif len(set(self.runs)) != len(self.runs):
            raise ValueError("name two different runs")
        return self

    def _key(self) -> tuple[object, ...]:
        return (self.schema_version, self.kind, self.source, self.cards, self.jokers, self.runs)

    def __eq__(self, other: object) -> bool:
        # Field-wise, like pydantic's, but much cheaper: UIs and tests compare actions
        # against whole legal lists.
        if not isinstance(other, TakeAction):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def card(self) -> Card:
        """The card of an ``add`` or ``discard``."""
        return self.cards[0]

    @property
    def placed(self) -> Card:
        """The card an ``add`` places: the card itself, or what its joker stands for."""
        return self.jokers[0] if self.jokers else self.cards[0]

    def __str__(self) -> str:
        if self.kind == "draw":
            return f"draw {self.source}"
        if self.kind == "discard":
            return f"discard {self.card}"
        if self.kind == "add":
            card = f"JK={self.jokers[0]}" if self.jokers else str(self.card)
            return f"add {card} to {'+'.join(str(run) for run in self.runs)}"
        return "meld " + _meld_text(self.cards, self.jokers)


def _meld_text(cards: Sequence[Card], jokers: Sequence[Card]) -> str:
    naturals = [card for card in cards if not card.is_joker]
    span = _window([*naturals, *jokers])
    if span is None:  # not a run: list the cards as given
        return " ".join([*(str(c) for c in naturals), *(f"JK={c}" for c in jokers)])
    suit, low, high = span
    stands = [card_at(suit, p) for p in range(low, high + 1)]
    physical = [JOKER if stand in jokers else stand for stand in stands]
    return _run_text(physical, stands)


DRAW_STOCK = TakeAction(kind="draw", source="stock")
DRAW_DISCARD = TakeAction(kind="draw", source="discard")


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


def meld(*cards: Card | str, jokers: Iterable[Card | str] = ()) -> TakeAction:
    """``meld("5H", "JK", "7H", jokers=["6H"])`` or ``meld("5H", "JK=6H", "7H")``."""
    physical: list[Card] = []
    stands = [_card(card) for card in jokers]
    for card in cards:
        if isinstance(card, str) and "=" in card:
            joker, stand = card.split("=", 1)
            physical.append(_card(joker))
            stands.append(_card(stand))
        else:
            physical.append(_card(card))
    return TakeAction(kind="meld", cards=tuple(physical), jokers=tuple(stands))


def add(card: Card | str, *runs: int, joker_as: Card | str | None = None) -> TakeAction:
    """``add("8C", 3)``, ``add("JK", 3, joker_as="8C")`` or ``add("JK=8C", 3)``;
    two run ids for a card that joins two runs."""
    stands: tuple[Card, ...] = ()
    if isinstance(card, str) and "=" in card:
        card, stand = card.split("=", 1)
        stands = (_card(stand),)
    if joker_as is not None:
        stands = (_card(joker_as),)
    return TakeAction(kind="add", cards=(_card(card),), jokers=stands, runs=tuple(runs))


def discard(card: Card | str) -> TakeAction:
    return TakeAction(kind="discard", cards=(_card(card),))


def _parse_placed(token: str) -> tuple[Card, Card | None]:
    """``8C`` or ``JK=8C`` (also ``JK:8C``, ``JK(8C)``)."""
    cleaned = token.replace(":", "=").replace("(", "=").replace(")", "")
    if "=" in cleaned:
        joker, stand = cleaned.split("=", 1)
        if not Card.parse(joker).is_joker:
            raise IllegalAction("Only a joker stands for another card, not {card}.", card=joker)
        return JOKER, Card.parse(stand)
    return Card.parse(cleaned), None


def parse_action(text: str) -> TakeAction:
    """The text forms: ``draw stock``, ``draw discard``, ``meld 5H JK=6H 7H``,
    ``add 8C to 3``, ``add JK=8C to 3``, ``add 6D to 3+7``, ``discard 9S``."""
    words = text.replace(",", " ").split()
    head = words[0].lower() if words else ""
    rest = words[1:]
    try:
        if head == "draw" and len(rest) == 1 and rest[0].lower() in ("stock", "discard"):
            return DRAW_STOCK if rest[0].lower() == "stock" else DRAW_DISCARD
        if head == "discard" and len(rest) == 1:
            return discard(Card.parse(rest[0]))
        if head == "meld" and rest:
            cards: list[Card] = []
            stands: list[Card] = []
            for token in rest:
                card, stand = _parse_placed(token)
                if card.is_joker and stand is None:
                    raise IllegalAction("Say which card the joker stands for, e.g. JK=7H.")
                cards.append(card)
                if stand is not None:
                    stands.append(stand)
            return TakeAction(kind="meld", cards=tuple(cards), jokers=tuple(stands))
        if head == "add" and len(rest) >= 3 and rest[1].lower() == "to":
            card, stand = _parse_placed(rest[0])
            if card.is_joker and stand is None:
                raise IllegalAction("Say which card the joker stands for, e.g. JK=7H.")
            ids = " ".join(rest[2:]).replace("+", " ").replace(" and ", " ").split()
            runs = tuple(int(word) for word in ids)
            jokers = () if stand is None else (stand,)
            return TakeAction(kind="add", cards=(card,), jokers=jokers, runs=runs)
    except IllegalAction:
        raise
    except (GameError, ValidationError, ValueError) as error:
        raise _not_a_move(text) from error
    raise _not_a_move(text)


def _not_a_move(text: str) -> IllegalAction:
    return IllegalAction(
        "{text} is not a TAKE move; say draw stock, draw discard, meld <cards> "
        "(JK=7H for a joker), add <card> to <run> (two runs as 3+7) or discard <card>.",
        text=repr(text),
    )


class HandResult(BaseModel):
    """A finished hand: who went out (None: the stock ran out) and each seat's points."""

    model_config = ConfigDict(extra="forbid")

    went_out: int | None
    laid: list[int]
    """Points of the runs each seat owned at the end."""
    held: list[int]
    """Points of the cards left in each hand."""
    held_cards: list[list[Card]]

    @property
    def scores(self) -> list[int]:
        return [laid - held for laid, held in zip(self.laid, self.held, strict=True)]


class LastAction(BaseModel):
    """The latest action, as the table saw it."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    action: str
    """Its text form (a stock draw never shows the card)."""
    took_from: list[int] = Field(default_factory=list)
    """Seats whose runs moved to the actor."""


Phase = Literal["draw", "play"]


class TakeState(VersionedModel):
    players: list[PlayerId]
    hand_size: int
    """Cards dealt to each player (the option, or 7 with 3–4 players)."""
    target: int
    box: list[Card] | None = None
    """The cards of a stacked deck, sorted: later hands deal these, shuffled. None:
    the standard 52 cards and 2 jokers."""
    hands: list[list[Card]]
    """Each seat's hand, sorted."""
    stock: list[Card]
    """Face down, top first."""
    pile: list[Card]
    """The discard pile, bottom first: its last card is the face-up top."""
    runs: list[Run] = Field(default_factory=list)
    """The table, by id."""
    next_run_id: int = 1
    turn: int = 0
    phase: Phase = "draw"
    taken: Card | None = None
    """The card drawn from the discard pile this turn."""
    turned_over: bool = False
    """Whether this hand's stock has been replenished from the discard pile."""
    hand_number: int = 0
    """0-based; the last hand once the match is over."""
    dealer: int = 0
    totals: list[int]
    results: list[HandResult] = Field(default_factory=list)
    last: LastAction | None = None
    rng: SeededRng


# --- Views ------------------------------------------------------------------------------


class RunView(BaseModel):
    id: int
    owner: PlayerId
    suit: Suit
    cards: list[Card]
    """Physical cards, lowest first (jokers as JK)."""
    stands_for: list[Card]
    """What each card represents: ``cards`` with each joker's fixed card."""
    text: str
    """``5H JK=6H 7H``."""
    locked: bool
    points: int


class SeatView(BaseModel):
    player: PlayerId
    hand_size: int
    floater: bool
    """Laid everything down and holds no cards (draws from the stock only)."""
    laid_points: int
    """Points of the runs this player owns now."""
    total: int
    """Match total before this hand."""
    dealer: bool


class LastView(BaseModel):
    player: PlayerId
    action: str
    took_from: list[PlayerId]


class HandResultView(BaseModel):
    hand: int
    """1-based."""
    went_out: PlayerId | None
    laid: dict[PlayerId, int]
    held: dict[PlayerId, int]
    held_cards: dict[PlayerId, list[Card]]
    scores: dict[PlayerId, int]


class MoveOption(BaseModel):
    """A legal action of the viewer, for a hand panel that offers only legal choices."""

    action: str
    """The action's text form (`parse_action` reads it back)."""
    kind: ActionKind
    cards: list[Card]
    """The hand cards it uses (none for a draw)."""
    takes_from: list[PlayerId]
    """Whose runs an ``add`` would take (empty for a lay-off on the viewer's own run)."""


class TakeView(BaseModel):
    viewer: PlayerId | None
    seats: list[SeatView]
    runs: list[RunView]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    turned_over: bool
    to_act: PlayerId | None
    phase: Phase | None
    """``draw`` or ``play`` for the player to act; None once over."""
    taken: Card | None
    """The card the player to act took from the discard pile this turn."""
    hand: int
    """1-based."""
    hand_size: int
    target: int
    last: LastView | None
    results: list[HandResultView]
    over: bool
    scores: dict[PlayerId, int] | None = None
    """Final totals, once the match is over."""
    my_hand: list[Card] | None = None
    my_moves: list[MoveOption] | None = None
    """The viewer's legal actions while it is their turn (private view only)."""


# --- Move generation --------------------------------------------------------------------


def _natural_windows(
    held: set[Card], jokers: int, max_length: int = LOCKED_LENGTH
) -> Iterator[tuple[Span, list[Card]]]:
    """Every meld window: a span whose held cards go in as themselves and whose other
    cards are jokers (at most ``jokers``), with two naturals or more. Yields the span
    and the cards each joker stands for."""
    for suit in SUITS:
        spots = {p for p in range(LOW_ACE, HIGH_ACE + 1) if card_at(suit, p) in held}
        if len(spots) < MIN_NATURALS:
            continue
        for low in range(LOW_ACE, HIGH_ACE - MIN_RUN + 2):
            gaps: list[Card] = []
            naturals = 0
            for high in range(low, min(HIGH_ACE, low + max_length - 1) + 1):
                if not _span_ok(low, high):
                    break
                if high in spots:
                    naturals += 1
                else:
                    gaps.append(card_at(suit, high))
                    if len(gaps) > jokers:
                        break
                if high - low + 1 >= MIN_RUN and naturals >= MIN_NATURALS:
                    yield (suit, low, high), list(gaps)


def _join_partner(spans: Sequence[Span], index: int, position: int) -> list[int]:
    """Indexes of the spans a card at ``position`` just outside span ``index`` would
    join it to (same suit, unlocked, touching the other side, legal once merged)."""
    suit, low, high = spans[index]
    found: list[int] = []
    for other, (o_suit, o_low, o_high) in enumerate(spans):
        if other == index or o_suit != suit or o_high - o_low + 1 >= LOCKED_LENGTH:
            continue
        above = position == high + 1 and o_low == position + 1 and _span_ok(low, o_high)
        below = position == low - 1 and o_high == position - 1 and _span_ok(o_low, high)
        if above or below:
            found.append(other)
    return found


def _end_positions(span: Span) -> Iterator[int]:
    """The free ends of an unlocked span."""
    _, low, high = span
    if high - low + 1 >= LOCKED_LENGTH:
        return
    if _span_ok(low - 1, high):
        yield low - 1
    if _span_ok(low, high + 1):
        yield high + 1


Placement = tuple[Card, Card | None, tuple[int, ...]]
"""An add: the card from hand, what a joker stands for, and the span indexes touched."""


def _placements(hand: Sequence[Card], spans: Sequence[Span]) -> Iterator[Placement]:
    """Every add, by span index; a card that joins two spans is offered only joined."""
    held = set(hand)
    has_joker = JOKER in held
    seen: set[Placement] = set()
    for index, span in enumerate(spans):
        for position in _end_positions(span):
            stand = card_at(span[0], position)
            partners = _join_partner(spans, index, position)
            targets = [tuple(sorted((index, o))) for o in partners] or [(index,)]
            options: list[tuple[Card, Card | None]] = []
            if stand in held:
                options.append((stand, None))
            if has_joker:
                options.append((JOKER, stand))
            for card, joker_as in options:
                for target in targets:
                    placement = (card, joker_as, target)
                    if placement not in seen:
                        seen.add(placement)
                        yield placement


def _add_position(spans: Sequence[Span], target: tuple[int, ...], stand: Card) -> int:
    """Where a card standing as ``stand`` goes: the gap between two target spans, or
    the end of one it fits (an ace on a 2–K run goes low)."""
    if len(target) == 2:
        lower = min((spans[i] for i in target), key=lambda span: span[1])
        return lower[2] + 1
    _, low, high = spans[target[0]]
    for position in _positions(stand):
        if position == low - 1 and _span_ok(position, high):
            return position
        if position == high + 1 and _span_ok(low, position):
            return position
    raise ValueError(f"{stand} does not fit span {spans[target[0]]}")


def _place(spans: Sequence[Span], target: tuple[int, ...], stand: Card) -> list[Span]:
    """The spans after a card standing as ``stand`` goes onto span(s) ``target``."""
    position = _add_position(spans, target, stand)
    suit = spans[target[0]][0]
    low = min(position, *(spans[i][1] for i in target))
    high = max(position, *(spans[i][2] for i in target))
    rest = [span for i, span in enumerate(spans) if i not in target]
    return sorted([*rest, (suit, low, high)])


def _without(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    left = list(hand)
    for card in cards:
        left.remove(card)
    return left


class _Solver:
    """Whether a hand can be laid down entirely onto (and beside) a table of spans.

    Runs are single-suited, so the suits are independent except for the jokers: a
    suit is solved for each number of jokers it might take (all of them placed in that
    suit), and the hand can be laid down when some split of the jokers works for every
    suit at once. Each suit is a small search over single-card adds and 3–4 card melds,
    memoised across calls of one solver."""

    def __init__(self) -> None:
        self.memo: dict[tuple[tuple[Card, ...], tuple[Span, ...]], bool] = {}

    def can_lay_all(self, hand: Sequence[Card], spans: Sequence[Span]) -> bool:
        if not hand:
            return True
        if not _maybe_all(hand, spans):
            return False
        jokers = sum(1 for card in hand if card.is_joker)
        groups = [
            ([card for card in hand if card.suit == suit], [s for s in spans if s[0] == suit])
            for suit in SUITS
        ]
        return any(
            all(
                self._suit(naturals, k, table)
                for (naturals, table), k in zip(groups, split, strict=True)
            )
            for split in _splits(jokers, len(groups))
        )

    def _suit(self, naturals: Sequence[Card], jokers: int, spans: Sequence[Span]) -> bool:
        """Can these naturals of one suit and ``jokers`` jokers all go into that suit?"""
        if not naturals and not jokers:
            return True
        hand = (*(JOKER for _ in range(jokers)), *sorted(naturals))
        return self._search(hand, tuple(sorted(spans)))

    def _search(self, hand: tuple[Card, ...], spans: tuple[Span, ...]) -> bool:
        if not hand:
            return True
        key = (hand, spans)
        known = self.memo.get(key)
        if known is not None:
            return known
        result = _maybe_all(hand, spans) and any(
            self._search(tuple(sorted(left)), tuple(sorted(table)))
            for left, table in _solver_moves(hand, spans)
        )
        self.memo[key] = result
        return result


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to share ``total`` jokers among ``parts`` suits."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def _maybe_all(hand: Sequence[Card], spans: Sequence[Span]) -> bool:
    """A quick necessary test: every natural card has a partner of its suit (held or
    a run) within reach of the jokers held, and jokers have a run to go to."""
    jokers = sum(1 for card in hand if card.is_joker)
    naturals = [card for card in hand if not card.is_joker]
    open_spans = [span for span in spans if span[2] - span[1] + 1 < LOCKED_LENGTH]
    if jokers and not open_spans and len(naturals) < MIN_NATURALS:
        return False
    reach = jokers + 1
    for card in naturals:
        spots = _positions(card)
        near = any(
            other != card
            and other.suit == card.suit
            and any(abs(p - q) <= reach for p in spots for q in _positions(other))
            for other in naturals
        ) or any(
            suit == card.suit
            and any(max(low - p, p - high, 0) <= reach for p in spots)
            and any(_span_ok(min(p, low), max(p, high)) for p in spots)
            for suit, low, high in open_spans
        )
        if not near:
            return False
    return True


def _solver_moves(
    hand: tuple[Card, ...], spans: tuple[Span, ...]
) -> Iterator[tuple[list[Card], list[Span]]]:
    """Single-card adds, then melds of 3–4 cards (enough to reach every table)."""
    for card, joker_as, target in _placements(hand, spans):
        stand = card if joker_as is None else joker_as
        yield _without(hand, [card]), _place(spans, target, stand)
    held = {card for card in hand if not card.is_joker}
    jokers = sum(1 for card in hand if card.is_joker)
    for span, gaps in _natural_windows(held, jokers, max_length=4):
        suit, low, high = span
        naturals = [card_at(suit, p) for p in range(low, high + 1)]
        naturals = [card for card in naturals if card not in gaps]
        left = _without(hand, [*naturals, *(JOKER for _ in gaps)])
        yield left, sorted([*spans, span])


# --- The engine -------------------------------------------------------------------------


def _next_seat(state: TakeState, seat: int) -> int:
    return (seat + 1) % len(state.players)


class TakeEngine(TurnEngine[TakeState, TakeAction, TakeView]):
    name = "take"
    title = "TAKE"
    min_players = 2
    max_players = 4
    hidden_information = True
    Options: ClassVar[type[TakeOptions]] = TakeOptions
    State = TakeState
    Action = TakeAction

    # --- Setup

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: BaseModel | None = None
    ) -> TakeState:
        check_player_count(self, players)
        opts = parse_options(self.Options, options)
        count = len(players)
        if opts.hand_size != DEFAULT_HAND_SIZE and count != 2:
            raise GameError(
                "Hands of {hand_size} cards are for two players only; "
                "with {count} players start again with 7.",
                hand_size=opts.hand_size,
                count=count,
            )
        hand_size = opts.hand_size
        deck = None if opts.deck is None else [Card.parse(text) for text in opts.deck]
        needed = hand_size * count + 2
        if deck is not None and len(deck) < needed:
            raise GameError(
                "A stacked deck needs {needed} cards for {count} players with "
                "{hand_size} cards each (a starting discard and a stock card), not {given}.",
                needed=needed,
                count=count,
                hand_size=hand_size,
                given=len(deck),
            )
        state = TakeState(
            players=list(players),
            hand_size=hand_size,
            target=opts.target,
            box=None if deck is None else sorted(deck),
            hands=[[] for _ in players],
            stock=[],
            pile=[],
            totals=[0] * count,
            rng=SeededRng.from_seed(seed),
        )
        return self._deal(state, 0, deck)

    def _deal(self, state: TakeState, number: int, stacked: list[Card] | None = None) -> TakeState:
        """Deal hand ``number``: the stacked deck as given, else the game's cards
        shuffled by the seeded generator."""
        count = len(state.players)
        rng = state.rng.model_copy()
        if stacked is not None:
            cards = list(stacked)
        else:
            cards = standard_deck(JOKERS) if state.box is None else list(state.box)
            rng.shuffle(cards)
        dealer = (number - 1) % count
        first = (dealer + 1) % count
        dealt = state.hand_size * count
        hands: list[list[Card]] = [[] for _ in range(count)]
        for i, card in enumerate(cards[:dealt]):
            hands[(first + i) % count].append(card)
        return state.model_copy(
            update={
                "hands": [sorted(hand) for hand in hands],
                "pile": [cards[dealt]],
                "stock": cards[dealt + 1 :],
                "runs": [],
                "next_run_id": 1,
                "turn": first,
                "phase": "draw",
                "taken": None,
                "turned_over": False,
                "hand_number": number,
                "dealer": dealer,
                "last": None,
                "rng": rng,
            }
        )

    # --- Queries

    def is_over(self, state: TakeState) -> bool:
        if not state.results:
            return False
        return max(state.totals) >= state.target or len(state.results) >= MAX_HANDS

    def to_act(self, state: TakeState) -> list[PlayerId]:
        return [] if self.is_over(state) else [state.players[state.turn]]

    def legal_actions(self, state: TakeState, player: PlayerId) -> list[TakeAction]:
        """Every legal action: draws (discard pile, then stock); or discards, then adds
        (one card onto a run, or into the gap joining two runs), then melds."""
        if player not in self.to_act(state):
            return []
        seat = state.turn
        hand = state.hands[seat]
        if state.phase == "draw":
            return [DRAW_STOCK] if not hand or not state.pile else [DRAW_DISCARD, DRAW_STOCK]
        spans = [run.span for run in state.runs]
        adds = [self._add_action(state, p) for p in _placements(hand, spans)]
        # dict.fromkeys: a 13-card window A–K and 2–A can be the same cards.
        melds = list(
            dict.fromkeys(
                _meld_action(span, gaps)
                for span, gaps in _natural_windows(set(hand) - {JOKER}, hand.count(JOKER))
            )
        )
        solver = _Solver()
        if solver.can_lay_all(hand, spans):
            keep = [a for a in [*adds, *melds] if self._keeps_all(state, a, solver)]
            return keep
        playable = {action.card for action in adds}
        discards = [
            discard(card)
            for card in sorted(set(hand))
            if card not in playable and not self._keeps_taken_card(state, card)
        ]
        return [*discards, *adds, *melds]

    def _add_action(self, state: TakeState, placement: Placement) -> TakeAction:
        card, joker_as, target = placement
        return TakeAction(
            kind="add",
            cards=(card,),
            jokers=() if joker_as is None else (joker_as,),
            runs=tuple(state.runs[i].id for i in target),
        )

    def _keeps_all(self, state: TakeState, action: TakeAction, solver: _Solver) -> bool:
        """After this meld or add, can the rest still all be laid down?"""
        hand, spans = _after(state, action)
        return solver.can_lay_all(hand, spans)

    def _keeps_taken_card(self, state: TakeState, card: Card) -> bool:
        """Whether the taken-card rule forbids discarding ``card`` now: the card taken
        from the pile (either joker, for a taken joker) while anything else is held."""
        hand = state.hands[state.turn]
        return state.taken == card and any(held != card for held in hand)

    # --- Applying

    def parse_text(self, text: str) -> TakeAction:
        return parse_action(text)

    def _foreign_action(self) -> IllegalAction:
        return IllegalAction("That is not a TAKE move.")

    def _apply_action(self, state: TakeState, player: PlayerId, action: TakeAction) -> TakeState:
        """Apply a draw, discard, meld or add."""
        if action.kind == "draw":
            return self._draw(state, action)
        if state.phase == "draw":
            raise IllegalAction("Draw first: from the stock or the discard pile.")
        hand = state.hands[state.turn]
        missing = _missing(hand, action.cards)
        if missing:
            raise IllegalAction("You don't hold {cards}.", cards=" ".join(str(c) for c in missing))
        if action.kind == "discard":
            return self._discard(state, action.card)
        if action.kind == "meld":
            self._check_meld(state, action)
        else:
            self._check_add(state, action)
        solver = _Solver()
        spans = [run.span for run in state.runs]
        if solver.can_lay_all(hand, spans) and not self._keeps_all(state, action, solver):
            raise IllegalAction(
                "You can lay down every card you hold, so you must: that play would "
                "leave cards you couldn't lay down."
            )
        if action.kind == "meld":
            return self._meld(state, action)
        return self._add(state, action)

    def _draw(self, state: TakeState, action: TakeAction) -> TakeState:
        if state.phase != "draw":
            raise IllegalAction("You have drawn already: lay down cards or discard.")
        seat = state.turn
        hands = [list(hand) for hand in state.hands]
        if action.source == "discard":
            if not hands[seat]:
                raise IllegalAction("A floater draws from the stock only.")
            if not state.pile:
                raise IllegalAction("The discard pile is empty: draw from the stock.")
            card = state.pile[-1]
            hands[seat] = sorted([*hands[seat], card])
            return state.model_copy(
                update={
                    "hands": hands,
                    "pile": state.pile[:-1],
                    "phase": "play",
                    "taken": card,
                    "last": LastAction(seat=seat, action=f"draw discard {card}"),
                }
            )
        card = state.stock[0]
        hands[seat] = sorted([*hands[seat], card])
        return state.model_copy(
            update={
                "hands": hands,
                "stock": state.stock[1:],
                "phase": "play",
                "taken": None,
                "last": LastAction(seat=seat, action="draw stock"),
            }
        )

    def _discard(self, state: TakeState, card: Card) -> TakeState:
        seat = state.turn
        hand = state.hands[seat]
        if self._keeps_taken_card(state, card):
            raise IllegalAction(
                "You took {card} from the discard pile: discard a different card.", card=str(card)
            )
        spans = [run.span for run in state.runs]
        if any(placed == card for placed, _, _ in _placements(hand, spans)):
            raise IllegalAction(
                "{card} can be added to a run on the table: play it instead.", card=str(card)
            )
        if _Solver().can_lay_all(hand, spans):
            raise IllegalAction(
                "You can lay down every card you hold, so you must (and become a floater): "
                "no discard."
            )
        hands = [list(h) for h in state.hands]
        hands[seat] = _without(hand, [card])
        after = state.model_copy(
            update={
                "hands": hands,
                "pile": [*state.pile, card],
                "last": LastAction(seat=seat, action=f"discard {card}"),
            }
        )
        if not hands[seat]:
            return self._end_hand(after, went_out=seat)
        return self._next_turn(after)

    def _check_meld(self, state: TakeState, action: TakeAction) -> None:
        hand = state.hands[state.turn]
        naturals = [card for card in action.cards if not card.is_joker]
        if len(action.cards) < MIN_RUN:
            raise IllegalAction("A run needs at least {n} cards.", n=MIN_RUN)
        if len(naturals) < MIN_NATURALS:
            raise IllegalAction("A run needs at least two natural cards (not jokers).")
        if len({card.suit for card in naturals}) != 1:
            raise IllegalAction("A run is one suit: these cards are of different suits.")
        stands = list(action.jokers)
        represented = [*naturals, *stands]
        if len(set(represented)) != len(represented):
            raise IllegalAction("A joker can't stand for a card already in the run.")
        if _window(represented) is None:
            raise IllegalAction(
                "{cards} is not a sequence of one suit "
                "(the ace is low or high, never both, and there is no wrap-around).",
                cards=" ".join(str(c) for c in represented),
            )
        for stand in stands:
            if stand in hand:
                raise IllegalAction(
                    "You hold {card}: meld it as itself instead of a joker standing for it.",
                    card=str(stand),
                )

    def _check_add(self, state: TakeState, action: TakeAction) -> None:
        by_id = {run.id: run for run in state.runs}
        for run_id in action.runs:
            if run_id not in by_id:
                raise IllegalAction("There is no run {run} on the table.", run=run_id)
        runs = [by_id[run_id] for run_id in action.runs]
        for run in runs:
            if run.locked:
                raise IllegalAction(
                    "Run {run} ({cards}) is locked: no one can add to it or take it.",
                    run=run.id,
                    cards=run.label(),
                )
        stand = action.placed
        hand = state.hands[state.turn]
        spans = [run.span for run in state.runs]
        target = tuple(sorted(state.runs.index(run) for run in runs))
        if (action.card, action.jokers[0] if action.jokers else None, target) in set(
            _placements(hand, spans)
        ):
            return
        if len(runs) == 2:
            first, second = runs
            raise IllegalAction(
                "{card} doesn't join run {first} ({first_cards}) and run {second} "
                "({second_cards}) into one run.",
                card=str(stand),
                first=first.id,
                first_cards=first.label(),
                second=second.id,
                second_cards=second.label(),
            )
        (run,) = runs
        index = target[0]
        for position in _end_positions(spans[index]):
            if card_at(run.suit, position) != stand:
                continue
            for other in _join_partner(spans, index, position):
                both = "+".join(str(i) for i in sorted([run.id, state.runs[other].id]))
                raise IllegalAction(
                    "{card} joins run {run} ({cards}) to run {other}: add it to {both}.",
                    card=str(stand),
                    run=run.id,
                    cards=run.label(),
                    other=state.runs[other].id,
                    both=both,
                )
        raise IllegalAction(
            "{card} doesn't fit on either end of run {run} ({cards}).",
            card=str(stand),
            run=run.id,
            cards=run.label(),
        )

    def _meld(self, state: TakeState, action: TakeAction) -> TakeState:
        seat = state.turn
        naturals = [card for card in action.cards if not card.is_joker]
        span = _window([*naturals, *action.jokers])
        assert span is not None  # checked
        suit, low, high = span
        stands = [card_at(suit, p) for p in range(low, high + 1)]
        physical = [JOKER if stand in action.jokers else stand for stand in stands]
        run = Run(id=state.next_run_id, owner=seat, suit=suit, low=low, cards=physical)
        hands = [list(h) for h in state.hands]
        hands[seat] = _without(hands[seat], action.cards)
        after = state.model_copy(
            update={
                "hands": hands,
                "runs": [*state.runs, run],
                "next_run_id": state.next_run_id + 1,
                "last": LastAction(seat=seat, action=str(action)),
            }
        )
        return self._next_turn(after) if not hands[seat] else after

    def _add(self, state: TakeState, action: TakeAction) -> TakeState:
        seat = state.turn
        runs = sorted((run for run in state.runs if run.id in action.runs), key=lambda r: r.low)
        took = sorted({run.owner for run in runs if run.owner != seat})
        spans = [run.span for run in state.runs]
        target = tuple(sorted(state.runs.index(run) for run in runs))
        position = _add_position(spans, target, action.placed)
        if len(runs) == 2:
            cards = [*runs[0].cards, action.card, *runs[1].cards]
        elif position < runs[0].low:
            cards = [action.card, *runs[0].cards]
        else:
            cards = [*runs[0].cards, action.card]
        low = min(position, runs[0].low)
        merged = Run(id=runs[0].id, owner=seat, suit=runs[0].suit, low=low, cards=cards)
        gone = {run.id for run in runs}
        table = sorted([*(r for r in state.runs if r.id not in gone), merged], key=lambda r: r.id)
        hands = [list(h) for h in state.hands]
        hands[seat] = _without(hands[seat], action.cards)
        after = state.model_copy(
            update={
                "hands": hands,
                "runs": table,
                "last": LastAction(seat=seat, action=str(action), took_from=took),
            }
        )
        return self._next_turn(after) if not hands[seat] else after

    def _next_turn(self, state: TakeState) -> TakeState:
        """Pass the turn; at its start an empty stock is turned over once, then ends
        the hand."""
        after = state.model_copy(
            update={"turn": _next_seat(state, state.turn), "phase": "draw", "taken": None}
        )
        if after.stock:
            return after
        if not after.turned_over and len(after.pile) >= 2:
            return after.model_copy(
                update={"stock": after.pile[:-1], "pile": after.pile[-1:], "turned_over": True}
            )
        return self._end_hand(after, went_out=None)

    def _end_hand(self, state: TakeState, went_out: int | None) -> TakeState:
        count = len(state.players)
        laid = [0] * count
        for run in state.runs:
            laid[run.owner] += run.points
        held = [sum(card_points(card) for card in hand) for hand in state.hands]
        result = HandResult(
            went_out=went_out,
            laid=laid,
            held=held,
            held_cards=[list(hand) for hand in state.hands],
        )
        totals = [t + s for t, s in zip(state.totals, result.scores, strict=True)]
        done = state.model_copy(update={"totals": totals, "results": [*state.results, result]})
        if self.is_over(done):
            return done
        return self._deal(done, state.hand_number + 1)

    # --- Views and results

    def view(self, state: TakeState, viewer: PlayerId | None) -> TakeView:
        over = self.is_over(state)
        players = state.players
        laid = [0] * len(players)
        for run in state.runs:
            laid[run.owner] += run.points
        view = TakeView(
            viewer=viewer,
            seats=[
                SeatView(
                    player=player,
                    hand_size=len(hand),
                    floater=not hand,
                    laid_points=points,
                    total=total,
                    dealer=seat == state.dealer,
                )
                for seat, (player, hand, points, total) in enumerate(
                    zip(players, state.hands, laid, state.totals, strict=True)
                )
            ],
            runs=[
                RunView(
                    id=run.id,
                    owner=players[run.owner],
                    suit=run.suit,
                    cards=list(run.cards),
                    stands_for=run.stands_for(),
                    text=run.label(),
                    locked=run.locked,
                    points=run.points,
                )
                for run in state.runs
            ],
            discard_top=state.pile[-1] if state.pile else None,
            discard_size=len(state.pile),
            stock_size=len(state.stock),
            turned_over=state.turned_over,
            to_act=None if over else players[state.turn],
            phase=None if over else state.phase,
            taken=None if over else state.taken,
            hand=state.hand_number + 1,
            hand_size=state.hand_size,
            target=state.target,
            last=None
            if state.last is None
            else LastView(
                player=players[state.last.seat],
                action=state.last.action,
                took_from=[players[seat] for seat in state.last.took_from],
            ),
            results=[
                HandResultView(
                    hand=number,
                    went_out=None if result.went_out is None else players[result.went_out],
                    laid=dict(zip(players, result.laid, strict=True)),
                    held=dict(zip(players, result.held, strict=True)),
                    held_cards={
                        p: list(cards) for p, cards in zip(players, result.held_cards, strict=True)
                    },
                    scores=dict(zip(players, result.scores, strict=True)),
                )
                for number, result in enumerate(state.results, start=1)
            ],
            over=over,
            scores=dict(zip(players, state.totals, strict=True)) if over else None,
        )
        if viewer in players:
            view.my_hand = list(state.hands[players.index(viewer)])
            if not over and viewer == players[state.turn]:
                view.my_moves = [
                    MoveOption(
                        action=str(action),
                        kind=action.kind,
                        cards=list(action.cards),
                        takes_from=take_victims(state, action),
                    )
                    for action in self.legal_actions(state, viewer)
                ]
        return view

    def outcome(self, state: TakeState) -> Outcome:
        return Outcome.from_scores(
            dict(zip(state.players, state.totals, strict=True)), lower_wins=False
        )


def _meld_action(span: Span, gaps: Sequence[Card]) -> TakeAction:
    suit, low, high = span
    naturals = [card_at(suit, p) for p in range(low, high + 1)]
    naturals = [card for card in naturals if card not in gaps]
    return TakeAction(kind="meld", cards=(*naturals, *(JOKER for _ in gaps)), jokers=tuple(gaps))


def _missing(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    left = list(hand)
    missing: list[Card] = []
    for card in cards:
        if card in left:
            left.remove(card)
        else:
            missing.append(card)
    return missing


def _after(state: TakeState, action: TakeAction) -> tuple[list[Card], list[Span]]:
    """The hand and table spans after a (checked) meld or add."""
    hand = _without(state.hands[state.turn], action.cards)
    spans = [run.span for run in state.runs]
    if action.kind == "meld":
        naturals = [card for card in action.cards if not card.is_joker]
        span = _window([*naturals, *action.jokers])
        assert span is not None
        return hand, [*spans, span]
    target = tuple(sorted(i for i, run in enumerate(state.runs) if run.id in action.runs))
    return hand, _place(spans, target, action.placed)


def take_victims(state: TakeState, action: TakeAction | str) -> list[PlayerId]:
    """The players whose runs an ``add`` by the player to act would take (empty for a
    lay-off onto their own run, or any other action)."""
    if isinstance(action, str):
        action = parse_action(action)
    if action.kind != "add":
        return []
    owners = {run.owner for run in state.runs if run.id in action.runs}
    return [state.players[seat] for seat in sorted(owners) if seat != state.turn]


def is_take(state: TakeState, action: TakeAction | str) -> bool:
    """Whether an ``add`` by the player to act takes someone else's run."""
    return bool(take_victims(state, action))


ENGINE = TakeEngine()
_CONTRACT: Engine[TakeState, TakeAction, TakeView] = ENGINE  # mypy checks the contract
