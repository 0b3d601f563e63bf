"""TAKE's ``hard`` before issue 28, for `bench.ai`'s ``previous`` (`bot.ai.take` has the
levels that play).

It draws like ``normal``. In its play it searches the ends of its own turn reachable
by melds and adds (on the engine, the cards it can't see filled in from the unseen
ones: they play no part in the own turn), scores each with its best discard (runs
owned less their risk of being taken before its next turn, the points held, the
discard's use to the next player) and overrides ``normal`` only with a way to empty
its hand this turn (`Tuning.full_search` to play the best-scored end always).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.ai import Chooser
from bot.ai.take import ACE, _discard_cost, _moves, _normal, _unseen, _usefulness
from bot.engines.base import SeededRng
from bot.engines.cards import Card
from bot.engines.take import (
    ENGINE,
    HIGH_ACE,
    JOKER,
    LOCKED_LENGTH,
    LOW_ACE,
    Run,
    TakeAction,
    TakeState,
    TakeView,
    card_at,
    card_points,
)


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


def previous_hard_player(tuning: Tuning = HARD) -> Chooser:
    """The ``hard`` chooser before issue 28, with these end-of-turn weights."""

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


PREVIOUS_HARD = previous_hard_player()
"""``hard`` before issue 28 (`bench.ai` plays it as ``previous``)."""
