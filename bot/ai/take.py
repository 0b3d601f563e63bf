"""Computer players for TAKE (rummy with runs, where adding to a run takes it).

Every level picks one of ``view.my_moves`` (the engine's legal actions for the seat)
each time it is asked, so a turn is several calls: the draw, any melds, adds and
takes, then the discard.

- ``easy``: draws from the stock, lays down the first meld or add it is offered, and
  discards its lowest card.
- ``normal``: draws the discard only when it makes a meld with the hand (or is a
  joker); then takes the most valuable run it can (a natural card before a joker),
  melds the longest runs it holds, lays naturals off onto its own runs, and finally
  discards the card least useful to it and to the others: no neighbours in its hand,
  few unseen neighbours an opponent could use, and high points (a card held when the
  hand ends counts against it).
- ``hard``: draws like ``normal``, then looks ahead over its own turn. It rebuilds
  the table from the view (only its own hand and the runs matter to its own plays;
  the other hands and the stock are filled with unseen cards), tries the sequences of
  melds and adds with the real engine (up to a few hundred positions) and scores each
  end of turn: points laid, runs taken from others, what its runs risk being taken
  (unseen cards and jokers that fit their ends), what the hand still holds, and the
  discard (``normal``'s cost) or going out. When some sequence empties the hand this
  turn (going out, or floating) it plays the best such one, which greedy play can
  miss (e.g. laying a joker off so that the last card can be discarded to go out,
  where ``normal`` keeps the joker for a take); otherwise it plays like ``normal``.
  Following the best-scored sequence always (``Tuning.full_search``) measured no
  better than ``normal`` in self-play (nor did judging the draw by a search over
  sampled stock cards, since dropped), hence this narrower use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.ai import Chooser, Level
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.take import (
    ENGINE,
    HIGH_ACE,
    JOKER,
    JOKERS,
    LOCKED_LENGTH,
    LOW_ACE,
    Run,
    TakeAction,
    TakeState,
    TakeView,
    card_at,
    card_points,
    parse_action,
)

ACE = 14

# --- Reading cards ---------------------------------------------------------------------


def _positions(card: Card) -> tuple[int, ...]:
    return (LOW_ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)


def _distance(a: Card, b: Card) -> int:
    """How far apart two natural cards of one suit sit in a run (99: other suits)."""
    if a.suit != b.suit or a == b:
        return 99
    return min(abs(p - q) for p in _positions(a) for q in _positions(b))


def _neighbours(card: Card, reach: int = 2) -> list[Card]:
    """The cards of its suit within ``reach`` positions of a natural card."""
    found: list[Card] = []
    for position in _positions(card):
        for step in range(1, reach + 1):
            for spot in (position - step, position + step):
                if LOW_ACE <= spot <= HIGH_ACE:
                    other = card_at(card.suit, spot)
                    if other != card and other not in found:
                        found.append(other)
    return found


def _unseen(view: TakeView) -> list[Card]:
    """Cards the seat can't see: not in its hand, on the table or on the discard top."""
    seen: list[Card] = list(view.my_hand or [])
    for run in view.runs:
        seen.extend(run.cards)
    if view.discard_top is not None:
        seen.append(view.discard_top)
    pool = standard_deck(JOKERS)
    for card in seen:
        if card in pool:
            pool.remove(card)
    return pool


def _usefulness(card: Card, hand: Sequence[Card]) -> float:
    """How much a held card helps its holder: neighbours of its suit, or a joker."""
    if card.is_joker:
        return 10.0
    score = 0.0
    jokers = sum(1 for other in hand if other.is_joker)
    for other in hand:
        if other.is_joker:
            continue
        gap = _distance(card, other)
        if gap == 1:
            score += 2.0
        elif gap == 2:
            score += 1.0 + 0.5 * min(jokers, 1)
    return score


def _danger(card: Card, unseen: set[Card]) -> float:
    """How much a discard could help whoever picks it up: its unseen neighbours."""
    if card.is_joker:
        return 10.0
    score = 0.0
    for other in _neighbours(card):
        if other in unseen:
            score += 1.0 if _distance(card, other) == 1 else 0.5
    return score


def _makes_meld(card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` and the hand form a run through it (jokers filling gaps)."""
    if card.is_joker:
        return True
    jokers = sum(1 for other in hand if other.is_joker)
    held = {other for other in hand if not other.is_joker}
    for position in _positions(card):
        for low in range(max(LOW_ACE, position - 12), position + 1):
            for high in range(max(position, low + 2), min(HIGH_ACE, low + 12) + 1):
                if low == LOW_ACE and high == HIGH_ACE:
                    continue
                spots = [card_at(card.suit, p) for p in range(low, high + 1)]
                naturals = sum(1 for c in spots if c in held or c == card)
                if naturals >= 2 and len(spots) - naturals <= jokers:
                    return True
    return False


# --- Moves -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Move:
    action: TakeAction
    takes: bool
    """An add that takes someone else's run."""


def _moves(view: TakeView) -> list[_Move]:
    return [
        _Move(parse_action(option.action), bool(option.takes_from))
        for option in view.my_moves or []
    ]


def _runs(view: TakeView) -> dict[int, int]:
    """Run id to points."""
    return {run.id: run.points for run in view.runs}


@dataclass(frozen=True)
class Style:
    """The ``normal`` player's weights for discards and draws."""

    useful: float = 3.0
    """Per neighbour unit in the own hand (keep cards that build runs)."""
    danger: float = 1.0
    """Per unseen neighbour unit (don't feed the next player)."""
    points: float = 0.2
    """Per point of the card (shed high cards: they count against a held hand)."""


STYLE = Style()


def _discard_cost(
    card: Card, hand: Sequence[Card], unseen: set[Card], style: Style = STYLE
) -> float:
    """Lower is a better discard."""
    return (
        style.useful * _usefulness(card, hand)
        + style.danger * _danger(card, unseen)
        - style.points * card_points(card)
    )


# --- easy and normal -------------------------------------------------------------------


def _easy(view: TakeView, rng: SeededRng) -> TakeAction:
    moves = _moves(view)
    actions = [move.action for move in moves]
    if view.phase == "draw":
        return next((a for a in actions if a.source == "stock"), actions[0])
    for kind in ("meld", "add"):
        for action in actions:
            if action.kind == kind:
                return action
    return actions[0]


def normal_player(style: Style = STYLE) -> Callable[[TakeView, SeededRng], TakeAction]:
    """A ``normal`` chooser with these discard weights."""

    def choose(view: TakeView, rng: SeededRng) -> TakeAction:
        moves = _moves(view)
        actions = [move.action for move in moves]
        hand = view.my_hand or []
        if view.phase == "draw":
            top = view.discard_top
            for action in actions:
                if action.source == "discard" and top is not None and _makes_meld(top, hand):
                    return action
            return next((a for a in actions if a.source == "stock"), actions[0])
        points = _runs(view)
        takes = [move.action for move in moves if move.takes]
        if takes:
            return max(takes, key=lambda a: _take_gain(a, points))
        melds = [a for a in actions if a.kind == "meld"]
        if melds:
            return max(melds, key=_meld_worth)
        layoffs = [a for a in actions if a.kind == "add" and not a.card.is_joker]
        if layoffs:
            return layoffs[0]
        discards = [a for a in actions if a.kind == "discard"]
        if discards:
            unseen = set(_unseen(view))
            return min(discards, key=lambda a: (_discard_cost(a.card, hand, unseen, style), a.card))
        return actions[0]  # only joker lay-offs are left, and something must be laid down

    return choose


_normal = normal_player()


def _take_gain(action: TakeAction, points: Mapping[int, int]) -> float:
    taken = sum(points.get(run, 0) for run in action.runs)
    return taken - (15 if action.card.is_joker else 0)


def _meld_worth(action: TakeAction) -> float:
    naturals = [card for card in action.cards if not card.is_joker]
    jokers = len(action.cards) - len(naturals)
    return 10 * len(naturals) + sum(card_points(card) for card in naturals) - 25 * jokers


# --- hard: a search over the own turn --------------------------------------------------


@dataclass(frozen=True)
class Tuning:
    """What ``hard`` values at the end of its turn (points are the game's points)."""

    hold: float = 1.0
    """Share of a held card's points counted against the hand (it may still be laid)."""
    connected: float = 0.35
    """Share of a held card's points credited per neighbour in hand (future runs)."""
    exposure: float = 0.3
    """Weight of the points at risk on the own runs."""
    danger: float = 3.0
    """Weight of the ``normal`` player's cost of the discard (its use to the hand, its
    unseen neighbours the next player may use, its points)."""
    out_bonus: float = 6.0
    """Points per card the others hold when the hand ends by going out."""
    max_nodes: int = 400
    """Positions searched per decision at most."""
    full_search: bool = False
    """Play the best-scored end of turn always. Without it (measured better), the
    search only overrides ``normal`` with a way to empty the hand this turn."""


HARD = Tuning()


def _state_from_view(view: TakeView, unseen: Sequence[Card]) -> TakeState | None:
    """A state with the view's table and hand (the seat to act in its play phase);
    the hidden cards are filled from ``unseen`` (they play no part in the own turn)."""
    if view.viewer is None or view.to_act != view.viewer or view.my_hand is None:
        return None
    players = [seat.player for seat in view.seats]
    me = players.index(view.viewer)
    pool = list(unseen)
    hands: list[list[Card]] = []
    for seat, info in enumerate(view.seats):
        if seat == me:
            hands.append(sorted(view.my_hand))
        else:
            hands.append(sorted(pool[: info.hand_size]))
            pool = pool[info.hand_size :]
    stock = (pool + [JOKER] * view.stock_size)[: view.stock_size]
    top = [view.discard_top] if view.discard_top is not None else []
    pile = [JOKER] * max(0, view.discard_size - len(top)) + top
    runs = []
    for run in view.runs:
        first = run.stands_for[0]
        low = LOW_ACE if first.rank == ACE else first.rank
        runs.append(
            Run(
                id=run.id,
                owner=players.index(run.owner),
                suit=run.suit,
                low=low,
                cards=list(run.cards),
            )
        )
    dealer = next((i for i, seat in enumerate(view.seats) if seat.dealer), 0)
    return TakeState(
        players=players,
        hand_size=view.hand_size,
        target=view.target,
        hands=hands,
        stock=stock,
        pile=pile,
        runs=runs,
        next_run_id=max((run.id for run in runs), default=0) + 1,
        turn=me,
        phase="play",
        taken=view.taken,
        turned_over=view.turned_over,
        hand_number=view.hand - 1,
        dealer=dealer,
        totals=[seat.total for seat in view.seats],
        rng=SeededRng(state=0),
    )


@dataclass
class _Context:
    me: int
    players: int
    unseen: set[Card]
    unseen_count: int
    opponent_cards: int
    """Cards in the other hands (how likely they hold a given card)."""
    tuning: Tuning


def _end_positions(run: Run) -> list[Card]:
    """The natural cards that would extend a run (none when locked)."""
    if len(run.cards) >= LOCKED_LENGTH:
        return []
    ends = []
    if run.low - 1 >= LOW_ACE and not (run.low - 1 == LOW_ACE and run.high == HIGH_ACE):
        ends.append(card_at(run.suit, run.low - 1))
    if run.high + 1 <= HIGH_ACE and not (run.low == LOW_ACE and run.high + 1 == HIGH_ACE):
        ends.append(card_at(run.suit, run.high + 1))
    return ends


def _risk(run: Run, ctx: _Context) -> float:
    """The chance an opponent can take ``run`` before the seat's next turn."""
    attackers = sum(1 for card in _end_positions(run) if card in ctx.unseen)
    if not _end_positions(run):
        return 0.0
    attackers += sum(1 for card in ctx.unseen if card.is_joker)
    if not attackers or not ctx.unseen_count:
        return 0.0
    # Each other seat also draws a card before the seat plays again.
    share = min(1.0, (ctx.opponent_cards + ctx.players - 1) / ctx.unseen_count)
    return 1.0 - (1.0 - share) ** attackers


def _evaluate(state: TakeState, ctx: _Context) -> tuple[float, TakeAction | None]:
    """The end of the turn: its worth to the seat and the best discard (None when the
    seat must lay everything down, or none is legal)."""
    t = ctx.tuning
    me = ctx.me
    weight = 1.0 / max(1, ctx.players - 1)
    score = 0.0
    for run in state.runs:
        if run.owner == me:
            score += run.points * (1.0 - t.exposure * (1.0 + weight) * _risk(run, ctx))
        else:
            score -= weight * run.points
    hand = state.hands[me]
    held = sum(
        card_points(card) * (t.connected * min(_usefulness(card, hand), 4.0) / 2.0 - t.hold)
        for card in hand
    )
    if not hand:
        return score, None
    discards = [
        action
        for action in ENGINE.legal_actions(state, state.players[me])
        if action.kind == "discard"
    ]
    if not discards:
        return score + held, None
    best: tuple[float, TakeAction] | None = None
    for action in discards:
        card = action.card
        keep = card_points(card) * (t.connected * min(_usefulness(card, hand), 4.0) / 2 - t.hold)
        value = held - keep - t.danger * _discard_cost(card, hand, ctx.unseen)
        if len(hand) == 1:
            value += t.out_bonus * ctx.opponent_cards * weight
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return score + best[0], best[1]


class _Found(NamedTuple):
    value: float
    path: list[TakeAction]
    """Melds and adds, in order."""
    discard: TakeAction | None
    """The discard that ends the turn (None: the seat floats, or must lay down more)."""
    empties: bool
    """The hand is empty at the end of the turn: the seat goes out or floats."""


def _search(state: TakeState, ctx: _Context) -> tuple[_Found, _Found | None]:
    """The best end of the turn reachable by melds and adds from here, and the best one
    that empties the hand (None when no sequence does)."""
    seen: set[tuple[object, ...]] = set()
    nodes = 0
    found: list[_Found] = []

    def key(s: TakeState) -> tuple[object, ...]:
        return (
            tuple(s.hands[ctx.me]),
            tuple(sorted((run.owner, run.suit, run.low, tuple(run.cards)) for run in s.runs)),
        )

    def visit(s: TakeState, path: list[TakeAction]) -> None:
        nonlocal nodes
        nodes += 1
        value, discard = _evaluate(s, ctx)
        left = len(s.hands[ctx.me]) - (discard is not None)
        found.append(_Found(value, path, discard, left == 0))
        if s.turn != ctx.me or s.phase != "play" or nodes >= ctx.tuning.max_nodes:
            return
        player = s.players[ctx.me]
        for action in ENGINE.legal_actions(s, player):
            if action.kind == "discard":
                continue
            after = ENGINE.apply(s, player, action)
            if after.hand_number != s.hand_number:
                continue  # the stock ran out for good: too rare to score
            if after.turn != ctx.me:
                # The hand emptied: the seat floats. Score the table it left.
                empty = s.model_copy(update={"hands": after.hands, "runs": after.runs})
                value, _ = _evaluate(empty, ctx)
                found.append(_Found(value, [*path, action], None, True))
                continue
            k = key(after)
            if k in seen:
                continue
            seen.add(k)
            visit(after, [*path, action])
            if nodes >= ctx.tuning.max_nodes:
                return

    visit(state, [])
    best = max(found, key=lambda f: f.value)
    out = max((f for f in found if f.empties), key=lambda f: f.value, default=None)
    return best, out


def _context(view: TakeView, unseen: Sequence[Card], tuning: Tuning) -> _Context:
    me = [seat.player for seat in view.seats].index(view.viewer or "")
    others = sum(seat.hand_size for i, seat in enumerate(view.seats) if i != me)
    return _Context(
        me=me,
        players=len(view.seats),
        unseen=set(unseen),
        unseen_count=len(unseen),
        opponent_cards=others,
        tuning=tuning,
    )


def hard_player(tuning: Tuning = HARD) -> Chooser:
    """A ``hard`` chooser with these end-of-turn weights."""

    def choose(view: TakeView, rng: SeededRng) -> TakeAction:
        moves = _moves(view)
        actions = [move.action for move in moves]
        if len(actions) == 1 or view.viewer is None:
            return actions[0]
        if view.phase == "draw":
            return _normal(view, rng)
        unseen = _unseen(view)
        ctx = _context(view, unseen, tuning)
        state = _state_from_view(view, unseen)
        if state is None:
            return _normal(view, rng)
        best, out = _search(state, ctx)
        if not tuning.full_search:
            if out is None:
                return _normal(view, rng)
            best = out
        choice = best.path[0] if best.path else best.discard
        if choice is None or choice not in actions:
            return _normal(view, rng)
        return choice

    return choose


PLAYERS: Mapping[Level, Chooser] = {
    "easy": _easy,
    "normal": _normal,
    "hard": hard_player(),
}
