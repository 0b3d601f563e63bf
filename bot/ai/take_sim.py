"""A compact, mutable TAKE hand for search: the ``hard`` player's simulator.

One hand only (no deal, no match totals): it plays from a position to the end of the
hand like the engine (`bot.engines.take`) and reuses the engine's move generation on
spans (placements, meld windows, the lay-everything-down solver), but keeps the state
in plain lists, moves as tuples and copies cheaply. A move is

- ``("draw", "stock")`` / ``("draw", "discard")``,
- ``("discard", card)``,
- ``("add", card, joker_as, run_ids)`` (``joker_as`` None for a natural card),
- ``("meld", cards, jokers)`` (sorted tuples, as in `TakeAction`).

`legal` lists the moves in the engine's order; `to_action` and `from_action` convert.
`tests/ai/test_take_sim.py` plays random hands through both and checks they agree on
every legal list and on the end of each hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.cards import SUITS, Card
from bot.engines.take import (
    DRAW_DISCARD,
    DRAW_STOCK,
    JOKER,
    TakeAction,
    TakeState,
    _add_position,
    _place,
    _placements,
    _Solver,
    _window,
    card_at,
    card_points,
)

Move = tuple[object, ...]
Span = tuple[str, int, int]

STOCK: Move = ("draw", "stock")
DISCARD_DRAW: Move = ("draw", "discard")


class SimRun:
    """A run on the table: its cards sit at consecutive positions from ``low``."""

    __slots__ = ("cards", "id", "low", "owner", "suit")

    def __init__(self, run_id: int, owner: int, suit: str, low: int, cards: list[Card]) -> None:
        self.id = run_id
        self.owner = owner
        self.suit = suit
        self.low = low
        self.cards = cards

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    @property
    def span(self) -> Span:
        return self.suit, self.low, self.low + len(self.cards) - 1

    @property
    def points(self) -> int:
        return sum(card_points(card) for card in self.cards)

    def copy(self) -> SimRun:
        return SimRun(self.id, self.owner, self.suit, self.low, list(self.cards))


_LOCKED = 13


def _windows(hand: Sequence[Card]) -> list[tuple[Span, list[Card]]]:
    """The engine's meld windows (`_natural_windows`) for a hand, in its order."""
    jokers = 0
    marks: dict[str, list[bool]] = {}
    counts: dict[str, int] = {}
    for card in hand:
        if card.is_joker:
            jokers += 1
            continue
        spots = marks.get(card.suit)
        if spots is None:
            spots = marks[card.suit] = [False] * 16
            counts[card.suit] = 0
        counts[card.suit] += 1
        if card.rank == 14:
            spots[1] = spots[14] = True
        else:
            spots[card.rank] = True
    found: list[tuple[Span, list[Card]]] = []
    for suit in SUITS:
        spots = marks.get(suit)
        if spots is None or counts[suit] < 2:
            continue
        for low in range(1, 13):
            gaps: list[Card] = []
            naturals = 0
            for high in range(low, min(14, low + _LOCKED - 1) + 1):
                if low == 1 and high == 14:
                    break
                if spots[high]:
                    naturals += 1
                else:
                    gaps.append(card_at(suit, high))
                    if len(gaps) > jokers:
                        break
                if high - low + 1 >= 3 and naturals >= 2:
                    found.append(((suit, low, high), list(gaps)))
    return found


def _remove(hand: list[Card], cards: Sequence[Card]) -> None:
    for card in cards:
        hand.remove(card)


class Sim:
    """A hand in play. ``stock`` is read from ``stock_at`` on (top first); ``pile`` is
    bottom first. ``ended`` once the hand is over, with ``went_out`` (None: the stock
    ran out)."""

    __slots__ = (
        "ended",
        "hands",
        "next_id",
        "phase",
        "pile",
        "runs",
        "stock",
        "stock_at",
        "taken",
        "turn",
        "turned_over",
        "went_out",
    )

    def __init__(
        self,
        hands: list[list[Card]],
        runs: list[SimRun],
        next_id: int,
        stock: list[Card],
        pile: list[Card],
        turn: int,
        phase: str,
        taken: Card | None,
        turned_over: bool,
    ) -> None:
        self.hands = hands
        self.runs = runs
        self.next_id = next_id
        self.stock = stock
        self.stock_at = 0
        self.pile = pile
        self.turn = turn
        self.phase = phase
        self.taken = taken
        self.turned_over = turned_over
        self.ended = False
        self.went_out: int | None = None

    @classmethod
    def from_state(cls, state: TakeState) -> Sim:
        """The engine's hand in play (its match bookkeeping left out)."""
        return cls(
            hands=[list(hand) for hand in state.hands],
            runs=[SimRun(r.id, r.owner, r.suit, r.low, list(r.cards)) for r in state.runs],
            next_id=state.next_run_id,
            stock=list(state.stock),
            pile=list(state.pile),
            turn=state.turn,
            phase=state.phase,
            taken=state.taken,
            turned_over=state.turned_over,
        )

    def copy(self) -> Sim:
        sim = Sim(
            [list(hand) for hand in self.hands],
            [run.copy() for run in self.runs],
            self.next_id,
            self.stock,  # read only: shared
            list(self.pile),
            self.turn,
            self.phase,
            self.taken,
            self.turned_over,
        )
        sim.stock_at = self.stock_at
        sim.ended = self.ended
        sim.went_out = self.went_out
        return sim

    # --- Queries

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.stock_at

    def spans(self) -> list[Span]:
        return [run.span for run in self.runs]

    def laid(self, seat: int) -> int:
        return sum(run.points for run in self.runs if run.owner == seat)

    def held(self, seat: int) -> int:
        return sum(card_points(card) for card in self.hands[seat])

    def score(self, seat: int) -> int:
        """The seat's points for this hand as it stands: laid down minus held."""
        return self.laid(seat) - self.held(seat)

    def adds(self) -> list[Move]:
        """The adds of the seat to act, in the engine's order."""
        runs = self.runs
        return [
            ("add", card, joker_as, tuple(runs[i].id for i in target))
            for card, joker_as, target in _placements(self.hands[self.turn], self.spans())
        ]

    def melds(self) -> list[Move]:
        hand = self.hands[self.turn]
        found: dict[Move, None] = {}
        for span, gaps in _windows(hand):
            suit, low, high = span
            naturals = [card_at(suit, p) for p in range(low, high + 1)]
            cards = sorted([*(c for c in naturals if c not in gaps), *(JOKER for _ in gaps)])
            found[("meld", tuple(cards), tuple(sorted(gaps)))] = None
        return list(found)

    def legal(self) -> list[Move]:
        """Every legal move of the seat to act, in the engine's order."""
        if self.ended:
            return []
        hand = self.hands[self.turn]
        if self.phase == "draw":
            return [STOCK] if not hand or not self.pile else [DISCARD_DRAW, STOCK]
        spans = self.spans()
        adds = self.adds()
        melds = self.melds()
        solver = _Solver()
        if solver.can_lay_all(hand, spans):
            return [m for m in [*adds, *melds] if self._keeps_all(m, solver)]
        playable = {move[1] for move in adds}
        discards: list[Move] = [
            ("discard", card)
            for card in sorted(set(hand))
            if card not in playable and not self._keeps_taken(card)
        ]
        return [*discards, *adds, *melds]

    def must_lay_all(self) -> bool:
        return _Solver().can_lay_all(self.hands[self.turn], self.spans())

    def _keeps_taken(self, card: Card) -> bool:
        hand = self.hands[self.turn]
        return self.taken == card and any(held != card for held in hand)

    def _after(self, move: Move) -> tuple[list[Card], list[Span]]:
        hand = list(self.hands[self.turn])
        spans = self.spans()
        if move[0] == "meld":
            cards, jokers = move[1], move[2]
            assert isinstance(cards, tuple) and isinstance(jokers, tuple)
            _remove(hand, cards)
            span = _window([*(c for c in cards if not c.is_joker), *jokers])
            assert span is not None
            return hand, [*spans, span]
        card, joker_as, ids = move[1], move[2], move[3]
        assert isinstance(card, Card) and isinstance(ids, tuple)
        hand.remove(card)
        target = tuple(i for i, run in enumerate(self.runs) if run.id in ids)
        placed = card if joker_as is None else joker_as
        assert isinstance(placed, Card)
        return hand, _place(spans, target, placed)

    def _keeps_all(self, move: Move, solver: _Solver) -> bool:
        hand, spans = self._after(move)
        return solver.can_lay_all(hand, spans)

    # --- Playing

    def apply(self, move: Move) -> None:
        """Play a legal move of the seat to act (not checked)."""
        kind = move[0]
        seat = self.turn
        hand = self.hands[seat]
        if kind == "draw":
            if move[1] == "discard":
                card = self.pile.pop()
                self.taken = card
            else:
                card = self.stock[self.stock_at]
                self.stock_at += 1
                self.taken = None
            hand.append(card)
            hand.sort()
            self.phase = "play"
        elif kind == "discard":
            gone = move[1]
            assert isinstance(gone, Card)
            card = gone
            hand.remove(card)
            self.pile.append(card)
            if not hand:
                self.ended = True
                self.went_out = seat
            else:
                self._next_turn()
        elif kind == "meld":
            self._meld(move)
        else:
            self._add(move)

    def _meld(self, move: Move) -> None:
        seat = self.turn
        cards, jokers = move[1], move[2]
        assert isinstance(cards, tuple) and isinstance(jokers, tuple)
        span = _window([*(c for c in cards if not c.is_joker), *jokers])
        assert span is not None
        suit, low, high = span
        physical = []
        for position in range(low, high + 1):
            stand = card_at(suit, position)
            physical.append(JOKER if stand in jokers else stand)
        self.runs.append(SimRun(self.next_id, seat, suit, low, physical))
        self.next_id += 1
        hand = self.hands[seat]
        _remove(hand, cards)
        if not hand:
            self._next_turn()

    def _add(self, move: Move) -> None:
        seat = self.turn
        card, joker_as, ids = move[1], move[2], move[3]
        assert isinstance(card, Card) and isinstance(ids, tuple)
        placed = card if joker_as is None else joker_as
        assert isinstance(placed, Card)
        target = tuple(i for i, run in enumerate(self.runs) if run.id in ids)
        position = _add_position(self.spans(), target, placed)
        parts = sorted((self.runs[i] for i in target), key=lambda run: run.low)
        first = parts[0]
        if len(parts) == 2:
            cards = [*first.cards, card, *parts[1].cards]
        elif position < first.low:
            cards = [card, *first.cards]
        else:
            cards = [*first.cards, card]
        merged = SimRun(first.id, seat, first.suit, min(position, first.low), cards)
        gone = {run.id for run in parts}
        table = [run for run in self.runs if run.id not in gone]
        table.append(merged)
        table.sort(key=lambda run: run.id)
        self.runs = table
        hand = self.hands[seat]
        hand.remove(card)
        if not hand:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self.hands)
        self.phase = "draw"
        self.taken = None
        if self.stock_at < len(self.stock):
            return
        if not self.turned_over and len(self.pile) >= 2:
            self.stock = self.pile[:-1]
            self.stock_at = 0
            self.pile = self.pile[-1:]
            self.turned_over = True
            return
        self.ended = True
        self.went_out = None


# --- Converting moves -------------------------------------------------------------------


def to_action(move: Move) -> TakeAction:
    """The engine's action for a simulator move."""
    kind = move[0]
    if kind == "draw":
        return DRAW_STOCK if move[1] == "stock" else DRAW_DISCARD
    if kind == "discard":
        card = move[1]
        assert isinstance(card, Card)
        return TakeAction(kind="discard", cards=(card,))
    if kind == "add":
        card, joker_as, ids = move[1], move[2], move[3]
        assert isinstance(card, Card) and isinstance(ids, tuple)
        stands = () if joker_as is None else (joker_as,)
        return TakeAction(kind="add", cards=(card,), jokers=stands, runs=ids)
    cards, jokers = move[1], move[2]
    assert isinstance(cards, tuple) and isinstance(jokers, tuple)
    return TakeAction(kind="meld", cards=cards, jokers=jokers)


def from_action(action: TakeAction) -> Move:
    """The simulator move for an engine action."""
    if action.kind == "draw":
        return STOCK if action.source == "stock" else DISCARD_DRAW
    if action.kind == "discard":
        return ("discard", action.card)
    if action.kind == "add":
        joker_as = action.jokers[0] if action.jokers else None
        return ("add", action.card, joker_as, tuple(action.runs))
    return ("meld", tuple(action.cards), tuple(action.jokers))
