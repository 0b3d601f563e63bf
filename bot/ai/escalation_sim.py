"""A compact, mutable Escalation deal for search: the ``hard`` player's simulator.

Suits never matter in Escalation, so a hand is a list of counts indexed by what a card
does: index 2 and 3 for the pass-through cards, 6 for the 4s, 5s and 6s (all worth 6),
7–14 for the other values. The stock is a list of such kinds, top first; penalty
stacks are counts. A move is an ``int``: ``0`` is take, ``value * 16 + count`` a play
(``2 * 16 + 1`` a lone 2, ``3 * 16 + 1`` a lone 3).

`decide` is the ``normal`` player's scoring (`bot.ai.escalation`) on counts, the
rollout policy for every seat, read from tables precomputed per weights (`scored`
lists the same moves with their scores); `tests/ai/test_escalation_ai.py` checks that
it picks the same move as ``normal`` and as `scored`, and that a deal played on `Deal`
ends as on the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engines.cards import Card

HAND_SIZE = 6
TAKE_MOVE = 0
KINDS = (2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14)
ORDINARY = (6, 7, 8, 9, 10, 11, 12, 13, 14)
SIZE = 15
WIN = 1e9

# The normal player's weights (`bot.ai.escalation.Weights`), flattened for speed.
REFILL = 0.4
SHED = 2.0
SET_BONUS = 2.5
ENDGAME_SET_BONUS = 1.0
ESCAPE = 0.6
PENALTY = 0.6
LEAD = 0.2
NORMAL_WEIGHTS = (REFILL, SHED, SET_BONUS, ENDGAME_SET_BONUS, ESCAPE, PENALTY, LEAD)
"""The same, in `Weights`' field order: what `scored` and `decide` take."""
Weights = tuple[float, float, float, float, float, float, float]


def kind_of(card: Card) -> int:
    """The index of ``card`` in a hand of counts."""
    rank = card.rank
    if rank in (2, 3):
        return rank
    return 6 if rank <= 6 else rank


def play_move(cards: Sequence[Card]) -> int:
    """The move for a play of these cards (a set of one value, or a lone 2 or 3)."""
    kind = kind_of(cards[0])
    return kind * 16 + (1 if kind in (2, 3) else len(cards))


def counts(cards: Sequence[Card]) -> list[int]:
    hand = [0] * SIZE
    for card in cards:
        hand[kind_of(card)] += 1
    return hand


def move_value(move: int) -> int:
    return move >> 4


def move_count(move: int) -> int:
    return move & 15


def _keep(value: int, count: int, bonus: float) -> float:
    if count <= 0:
        return 0.0
    return count * (value - 6) / 8 + bonus * (count - 1)


def scored(
    hand: Sequence[int],
    size: int,
    in_force: int,
    stock: int,
    round_cards: int,
    weights: Weights = NORMAL_WEIGHTS,
) -> list[tuple[float, int]]:
    """Each distinct move with ``normal``'s score, in ``normal``'s order (``in_force``
    is ``-1`` when leading). Both a 2 and a 3 are listed when held (``normal`` only
    ever considers the 2 first, with the same score)."""
    moves: list[tuple[float, int]] = []
    refill_w, shed_w, set_bonus, endgame_set_bonus, escape, penalty, lead = weights
    bonus = set_bonus if stock > 0 else endgame_set_bonus
    for value in ORDINARY:
        held = hand[value]
        if not held:
            continue
        keep_all = _keep(value, held, bonus)
        for count in range(1, held + 1):
            if in_force >= 0 and value * count <= in_force:
                continue
            if stock == 0 and count == size:
                moves.append((WIN, value * 16 + count))
                continue
            refilled = count if count < stock else stock
            score = (
                -(keep_all - _keep(value, held - count, bonus))
                + refilled * refill_w
                + (count - refilled) * shed_w
            )
            if in_force < 0:
                score -= 0.01 * value
            moves.append((score, value * 16 + count))
    specials = hand[2] + hand[3]
    if specials and (in_force >= 0 or specials == size):
        score = WIN if stock == 0 and size == 1 else -escape + (refill_w if stock else shed_w)
        if hand[2]:
            moves.append((score, 2 * 16 + 1))
        if hand[3]:
            moves.append((score, 3 * 16 + 1))
    if in_force >= 0:
        moves.append((-round_cards * penalty + lead, TAKE_MOVE))
    return moves


_Best = list[tuple[float, int] | None]
_MOST = 12
"""The most cards of one kind (4s, 5s and 6s together)."""
_TABLES: dict[Weights, list[list[list[list[_Best]]]]] = {}


def _table(weights: Weights) -> list[list[list[list[_Best]]]]:
    """`decide`'s precomputed plays of one value: ``[stock][leading][value][held][c]``
    is the first best-scored play of at least ``c`` of ``held`` cards of ``value``, as
    `scored` scores it (a stock of `_MOST` or more plays like `_MOST`)."""
    table = _TABLES.get(weights)
    if table is not None:
        return table
    table = []
    for stock in range(_MOST + 1):
        by_lead = []
        for leading in (False, True):
            by_value: list[list[_Best]] = [[] for _ in range(SIZE)]
            for value in ORDINARY:
                for held in range(_MOST + 1):
                    hand = [0] * SIZE
                    hand[value] = held
                    plays = scored(hand, _MOST + 1, -1 if leading else 0, stock, 0, weights)
                    best: _Best = [None] * (held + 2)
                    for low in range(held, 0, -1):
                        score, move = plays[low - 1]
                        after = best[low + 1]
                        best[low] = (score, move) if after is None or score >= after[0] else after
                    by_value[value].append(best)
            by_lead.append(by_value)
        table.append(by_lead)
    if len(_TABLES) >= 16:
        _TABLES.clear()  # a tuning run tries many weights; hard uses nine
    _TABLES[weights] = table
    return table


def random_move(hand: Sequence[int], size: int, in_force: int, draw: Callable[[], float]) -> int:
    """One of the legal moves (distinct value and count, a 2 or a 3, or taking), each
    as likely."""
    leading = in_force < 0
    moves = [] if leading else [TAKE_MOVE]
    for value in ORDINARY:
        held = hand[value]
        if held:
            low = 1 if leading else in_force // value + 1
            moves.extend(value * 16 + count for count in range(low, held + 1))
    if hand[2] + hand[3] and (not leading or hand[2] + hand[3] == size):
        moves += [special * 16 + 1 for special in (2, 3) if hand[special]]
    return moves[int(draw() * len(moves))]


MoveDraw = Callable[[Sequence[int], int, int, Callable[[], float]], int]
"""A seat that draws its moves at random: its move from its hand (counts), the hand's
size, the value in force (``-1`` when leading) and a draw in [0, 1)."""
SeatKind = Weights | MoveDraw
"""How a seat plays in a playout: ``normal``'s rule with these weights, or a rule that
draws its moves (`ERRATIC`)."""
ERRATIC: SeatKind = random_move
"""A player who makes any legal move at random (`random_move`): a beginner, or someone
not playing to win."""


def decide(
    hand: Sequence[int],
    size: int,
    in_force: int,
    stock: int,
    round_cards: int,
    weights: Weights = NORMAL_WEIGHTS,
) -> int:
    """``normal``'s move (with these weights): the first best-scored one of `scored`,
    found from precomputed tables (the playouts' inner loop)."""
    table = _TABLES.get(weights) or _table(weights)
    leading = in_force < 0
    plays = table[stock if stock < _MOST else _MOST][leading]
    best = TAKE_MOVE
    best_score = -WIN * 10
    for value in ORDINARY:
        held = hand[value]
        if not held:
            continue
        low = 1 if leading else in_force // value + 1
        if low > held:
            continue
        if stock == 0 and held == size:
            return value * 16 + held  # the deal is won: nothing scores higher
        found = plays[value][held][low]
        if found is not None and found[0] > best_score:
            best_score, best = found
    specials = hand[2] + hand[3]
    if specials and (not leading or specials == size):
        if stock == 0 and size == 1:
            return 2 * 16 + 1 if hand[2] else 3 * 16 + 1
        score = -weights[4] + (weights[0] if stock else weights[1])
        if score > best_score:
            best, best_score = (2 * 16 + 1 if hand[2] else 3 * 16 + 1), score
    if not leading and -round_cards * weights[5] + weights[6] > best_score:
        best = TAKE_MOVE
    return best


class Deal:
    """One deal in progress, mutated in place by `step`."""

    __slots__ = (
        "direction",
        "hands",
        "in_force",
        "penalties",
        "players",
        "round_cards",
        "sizes",
        "stock",
        "top",
        "turn",
        "winner",
    )

    def __init__(
        self,
        hands: list[list[int]],
        penalties: list[int],
        stock: list[int],
        turn: int,
        direction: int,
        in_force: int,
        round_cards: int,
    ) -> None:
        self.hands = hands
        self.sizes = [sum(hand) for hand in hands]
        self.penalties = penalties
        self.stock = stock
        self.top = 0
        self.turn = turn
        self.direction = direction
        self.in_force = in_force
        """The value to beat, ``-1`` when the player to act leads."""
        self.round_cards = round_cards
        self.winner = -1
        self.players = len(hands)

    def copy(self) -> Deal:
        other = Deal.__new__(Deal)
        other.hands = [list(hand) for hand in self.hands]
        other.sizes = list(self.sizes)
        other.penalties = list(self.penalties)
        other.stock = self.stock
        other.top = self.top
        other.turn = self.turn
        other.direction = self.direction
        other.in_force = self.in_force
        other.round_cards = self.round_cards
        other.winner = self.winner
        other.players = self.players
        return other

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.top

    def moves(self) -> list[int]:
        """The distinct legal moves of the player to act, ``normal``'s best first."""
        seat = self.turn
        ranked = scored(
            self.hands[seat], self.sizes[seat], self.in_force, self.stock_left, self.round_cards
        )
        order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][0], i))
        return [ranked[i][1] for i in order]

    def step(self, move: int) -> None:
        seat = self.turn
        if move == TAKE_MOVE:
            self.penalties[seat] += self.round_cards
            self.round_cards = 0
            self.in_force = -1
            return
        value = move >> 4
        count = move & 15
        hand = self.hands[seat]
        hand[value] -= count
        size = self.sizes[seat] - count
        if value == 2 or value == 3:
            if self.in_force < 0:
                self.in_force = 0
            if value == 3:
                self.direction = -self.direction
        else:
            self.in_force = value * count
        self.round_cards += count
        stock = self.stock
        top = self.top
        while size < HAND_SIZE and top < len(stock):
            hand[stock[top]] += 1
            top += 1
            size += 1
        self.top = top
        self.sizes[seat] = size
        if size == 0:
            self.winner = seat
            return
        self.turn = (seat + self.direction) % self.players

    def playout(
        self,
        limit: int = 2000,
        seats: Sequence[SeatKind] | None = None,
        draw: Callable[[], float] | None = None,
    ) -> int:
        """Play the deal out with ``normal`` everywhere (or each seat as its kind in
        ``seats``: a seat that draws its moves, as `ERRATIC`, draws with ``draw``); the
        number of moves made (the deal is over when `winner` is set; ``limit`` guards
        against a loop). `step` inlined: the search's inner loop."""
        made = 0
        hands = self.hands
        sizes = self.sizes
        stock = self.stock
        stock_len = len(stock)
        players = self.players
        kinds = [NORMAL_WEIGHTS] * players if seats is None else seats
        rules = [kind if isinstance(kind, tuple) else None for kind in kinds]
        draws = [None if isinstance(kind, tuple) else kind for kind in kinds]
        if draw is None and any(draws):
            raise ValueError("a seat that draws its moves needs a draw")
        seat = self.turn
        top = self.top
        in_force = self.in_force
        round_cards = self.round_cards
        direction = self.direction
        penalties = self.penalties
        while self.winner < 0 and made < limit:
            hand = hands[seat]
            rule = rules[seat]
            if rule is None:
                drawn = draws[seat]
                assert drawn is not None and draw is not None
                move = drawn(hand, sizes[seat], in_force, draw)
            else:
                move = decide(hand, sizes[seat], in_force, stock_len - top, round_cards, rule)
            made += 1
            if move == TAKE_MOVE:
                penalties[seat] += round_cards
                round_cards = 0
                in_force = -1
                continue
            value = move >> 4
            count = move & 15
            hand[value] -= count
            size = sizes[seat] - count
            if value == 2 or value == 3:
                if in_force < 0:
                    in_force = 0
                if value == 3:
                    direction = -direction
            else:
                in_force = value * count
            round_cards += count
            while size < HAND_SIZE and top < stock_len:
                hand[stock[top]] += 1
                top += 1
                size += 1
            sizes[seat] = size
            if size == 0:
                self.winner = seat
                break
            seat = (seat + direction) % players
        self.turn = seat
        self.top = top
        self.in_force = in_force
        self.round_cards = round_cards
        self.direction = direction
        return made

    def chips(self) -> list[int]:
        """Each seat's chips for the finished deal (as the engine's ``DealResult``)."""
        paid = [-(size + penalty) for size, penalty in zip(self.sizes, self.penalties, strict=True)]
        paid[self.winner] = 0
        paid[self.winner] = -sum(paid)
        return paid
