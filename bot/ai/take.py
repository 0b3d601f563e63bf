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
- ``hard``: draws like ``normal``; in its play it looks one turn of the others ahead. It
  deals the cards it can't see (the other hands, the stock, the pile under its top) from
  the unseen cards in rounds (each unseen card lands in another hand about once per
  round), lists the ends of its own turn reachable by melds and adds (a bounded search
  on the simulator `bot.ai.take_sim`) with each legal discard, keeps a few of them (the
  best by a quick score, one per distinct table, plus what ``normal`` would play), and
  plays each out on every sampled deal: its plan, then the others' turns by ``normal``'s
  rule, each seat in one of the styles of `OTHER_KINDS` (drawn per seat and deal, so it
  doesn't assume the others play as ``normal``). It judges the table when its turn comes
  round again (or the hand as it ended): runs owned (less a share per live card that
  could take them: an unseen end card or joker), runs its hand can take next, the points
  held on each side and what its hand may still build. So it holds a run back, or keeps
  the end card of its own run, when laying it down would most likely feed a take, and
  lays down when the hand may end. The deals and the work are bounded by the rng and
  node counts; the think budget (`bot.ai.budget`) is only a wall-clock net. Its strength
  against every pool, and its time per decision, are in `docs/computer-players.md`.

``hard`` before issue 28 (it searched only its own turn) lives on in the bench, as
`bench.previous.take`, for `bench.ai`'s ``previous``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.ai import Chooser, Level
from bot.ai.budget import think_seconds
from bot.ai.take_sim import DISCARD_DRAW, STOCK, Move, Sim, SimRun, to_action
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.take import (
    HIGH_ACE,
    JOKER,
    JOKERS,
    LOCKED_LENGTH,
    LOW_ACE,
    TakeAction,
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
KIND_SPREAD = 0.7
KIND_SEED = 12345


def kinds_of_player(
    count: int = 8, spread: float = KIND_SPREAD, seed: int = KIND_SEED
) -> tuple[Style, ...]:
    """``normal``'s style and ``count`` - 1 kinds of player that weigh the same things
    differently: each of ``normal``'s weights scaled by e**u for a u drawn uniformly
    from ±``spread``, from a fixed seed."""
    rng = random.Random(seed)

    def scaled() -> Style:
        useful, danger, points = (
            weight * math.exp(rng.uniform(-spread, spread))
            for weight in (STYLE.useful, STYLE.danger, STYLE.points)
        )
        return Style(useful, danger, points)

    return (STYLE, *(scaled() for _ in range(count - 1)))


OTHER_KINDS = kinds_of_player()
"""The kinds of player ``hard`` seats the others as when it plays their turns out, one
drawn per seat and sampled deal."""


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


# --- hard: one opponent turn ahead, on sampled hands ------------------------------------


def _normal_move(sim: Sim, style: Style = STYLE) -> Move:
    """``normal``'s choice for the seat to act in the simulator (the same rules as
    `normal_player` on the seat's view: `tests/ai/test_take_sim.py` checks they agree)."""
    seat = sim.turn
    hand = sim.hands[seat]
    if sim.phase == "draw":
        if hand and sim.pile and _quick_makes_meld(sim.pile[-1], hand):
            return DISCARD_DRAW
        return STOCK
    moves = sim.legal()
    owners = {run.id: run.owner for run in sim.runs}
    takes = [m for m in moves if m[0] == "add" and any(owners[i] != seat for i in _ids(m))]
    if takes:
        points = {run.id: run.points for run in sim.runs}
        return max(takes, key=lambda m: _sim_take_gain(m, points))
    melds = [m for m in moves if m[0] == "meld"]
    if melds:
        return max(melds, key=_sim_meld_worth)
    for m in moves:
        if m[0] == "add" and not _card(m).is_joker:
            return m
    discards = [m for m in moves if m[0] == "discard"]
    if discards:
        unseen = _sim_unseen(sim, seat)
        return min(
            discards, key=lambda m: (_quick_discard_cost(_card(m), hand, unseen, style), _card(m))
        )
    return moves[0]


def _quick_makes_meld(card: Card, hand: Sequence[Card]) -> bool:
    """`_makes_meld`, faster: a window through the card with two naturals or more
    whose gaps the jokers held fill."""
    if card.is_joker:
        return True
    jokers = 0
    marks = [0] * 16
    suit = card.suit
    for other in hand:
        if other.is_joker:
            jokers += 1
        elif other.suit == suit and other.rank != card.rank:
            if other.rank == ACE:
                marks[LOW_ACE] = marks[HIGH_ACE] = 1
            else:
                marks[other.rank] = 1
    for position in _positions(card):
        spots = list(marks)
        spots[position] = 1
        prefix = [0] * 17
        for i in range(1, 16):
            prefix[i + 1] = prefix[i] + spots[i]
        for low in range(max(LOW_ACE, position - 12), position + 1):
            for high in range(max(position, low + 2), min(HIGH_ACE, low + 12) + 1):
                if low == LOW_ACE and high == HIGH_ACE:
                    continue
                naturals = prefix[high + 1] - prefix[low]
                if naturals >= 2 and high - low + 1 - naturals <= jokers:
                    return True
    return False


def _spot(card: Card) -> tuple[int, int]:
    """A natural card's positions (an ace's both ends; others twice the same)."""
    return (LOW_ACE, HIGH_ACE) if card.rank == ACE else (card.rank, card.rank)


def _quick_discard_cost(
    card: Card, hand: Sequence[Card], unseen: set[Card], style: Style = STYLE
) -> float:
    """`_discard_cost`, faster (the same value)."""
    if card.is_joker:
        return style.useful * 10.0 + style.danger * 10.0 - style.points * 20
    suit = card.suit
    a, b = _spot(card)
    jokers = 0
    useful = 0.0
    for other in hand:
        if other.is_joker:
            jokers += 1
    for other in hand:
        if other.is_joker or other.suit != suit or other.rank == card.rank:
            continue
        c, d = _spot(other)
        gap = min(abs(a - c), abs(a - d), abs(b - c), abs(b - d))
        if gap == 1:
            useful += 2.0
        elif gap == 2:
            useful += 1.0 + 0.5 * min(jokers, 1)
    danger = 0.0
    for other, weight in _NEAR[card]:
        if other in unseen:
            danger += weight
    return style.useful * useful + style.danger * danger - style.points * card_points(card)


def _ids(move: Move) -> tuple[int, ...]:
    ids = move[3]
    assert isinstance(ids, tuple)
    return ids


def _card(move: Move) -> Card:
    card = move[1]
    assert isinstance(card, Card)
    return card


def _sim_take_gain(move: Move, points: Mapping[int, int]) -> float:
    taken = sum(points.get(run, 0) for run in _ids(move))
    return taken - (15 if _card(move).is_joker else 0)


def _sim_meld_worth(move: Move) -> float:
    cards = move[1]
    assert isinstance(cards, tuple)
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    return 10 * len(naturals) + sum(card_points(card) for card in naturals) - 25 * jokers


_DECK = standard_deck(JOKERS)


_DECK_SET = frozenset(_DECK)
_NEAR = {
    card: [(other, 1.0 if _distance(card, other) == 1 else 0.5) for other in _neighbours(card)]
    for card in _DECK_SET
    if not card.is_joker
}


def _sim_unseen(sim: Sim, seat: int) -> set[Card]:
    """What ``seat`` can't see (as `_unseen` on its view, as a set)."""
    unseen = set(_DECK_SET)
    unseen.difference_update(sim.hands[seat])
    for run in sim.runs:
        unseen.difference_update(run.cards)
    if sim.pile:
        unseen.discard(sim.pile[-1])
    return unseen


@dataclass(frozen=True)
class Lookahead:
    """How ``hard`` looks one opponent turn ahead (points are the game's points)."""

    rounds: int = 2
    """Rounds of sampled deals of the hidden cards (the other hands, the stock, the
    pile): a round deals every unseen card into another hand about once."""
    candidates: int = 6
    """Ends of the own turn followed through the others' turns (best by a quick score,
    plus ``normal``'s own)."""
    max_nodes: int = 60
    """Positions of the own turn searched at most."""
    hold: float = 0.3
    """Share of the own hand's points counted against it (it may still be laid)."""
    hold_other: float = 0.3
    """The same for the other hands."""
    connected: float = 0.3
    """Share of a held card's points credited per neighbour in hand (future runs)."""
    threat: float = 0.06
    """Share of a run's points at risk per live card that would take it (an unseen
    end card or joker): someone may draw it before the hand ends."""
    cap: float = 0.7
    """The most of a run's points counted at risk."""
    chance: float = 0.8
    """Share of another's run's points won when the own hand holds a card taking it
    (half that with a joker)."""
    danger: float = 1.0
    """Weight of ``normal``'s cost of the discard in the quick score."""


LOOKAHEAD = Lookahead()


class _Plan(NamedTuple):
    path: tuple[Move, ...]
    """Melds, adds and the closing discard (none when the seat floats)."""
    quick: float


def _held_value(hand: Sequence[Card], hold: float, connected: float) -> float:
    return sum(
        card_points(card) * (connected * min(_usefulness(card, hand), 4.0) / 2.0 - hold)
        for card in hand
    )


def _quick(sim: Sim, me: int, discard: Card | None, look: Lookahead, unseen: set[Card]) -> float:
    """A quick score of the end of the own turn (before the discard leaves the hand)."""
    score = 0.0
    for run in sim.runs:
        score += run.points if run.owner == me else -run.points
    hand = sim.hands[me]
    if discard is not None:
        score -= look.danger * _discard_cost(discard, hand, unseen)
        rest = list(hand)
        rest.remove(discard)
        hand = rest
    return score + _held_value(hand, look.hold, look.connected)


def _plans(base: Sim, me: int, look: Lookahead) -> list[_Plan]:
    """Every end of the own turn reachable from here (up to ``max_nodes`` positions)."""
    unseen = _sim_unseen(base, me)
    plans: list[_Plan] = []
    seen: set[tuple[object, ...]] = set()
    nodes = 0

    def visit(sim: Sim, path: tuple[Move, ...]) -> None:
        nonlocal nodes
        nodes += 1
        moves = sim.legal()
        for move in moves:
            if move[0] == "discard":
                card = _card(move)
                plans.append(_Plan((*path, move), _quick(sim, me, card, look, unseen)))
        for move in moves:
            if move[0] == "discard" or nodes >= look.max_nodes:
                continue
            after = sim.copy()
            after.apply(move)
            if after.turn != me or after.ended:
                plans.append(_Plan((*path, move), _quick(after, me, None, look, unseen)))
                continue
            key = (
                tuple(after.hands[me]),
                tuple((r.owner, r.suit, r.low, tuple(r.cards)) for r in after.runs),
            )
            if key in seen:
                continue
            seen.add(key)
            visit(after, (*path, move))

    visit(base, ())
    return plans


def _candidates(plans: Sequence[_Plan], count: int) -> list[tuple[Move, ...]]:
    """The best-scored plans, one per end of the own turn (melds and adds) first, then
    the next best discards."""
    ranked = sorted(plans, key=lambda plan: -plan.quick)
    chosen: list[tuple[Move, ...]] = []
    ends: set[tuple[Move, ...]] = set()
    for plan in ranked:
        end = plan.path[:-1] if plan.path[-1][0] == "discard" else plan.path
        if end not in ends and len(chosen) < count:
            ends.add(end)
            chosen.append(plan.path)
    for plan in ranked:
        if len(chosen) >= count:
            break
        if plan.path not in chosen:
            chosen.append(plan.path)
    return chosen


def _deals(
    view: TakeView, me: int, unseen: Sequence[Card], rand: random.Random, rounds: int
) -> list[Sim]:
    """Sampled deals of the hidden cards, in rounds: each round shuffles the unseen
    cards once and deals the other hands from successive stretches of them, so that
    every unseen card is in another hand (and on top of the stock) about equally often
    across the round (less noise than independent deals)."""
    held = sum(seat.hand_size for i, seat in enumerate(view.seats) if i != me)
    step = max(1, held)
    per_round = max(1, -(-len(unseen) // step))
    deals: list[Sim] = []
    for _ in range(rounds):
        pool = list(unseen)
        rand.shuffle(pool)
        for k in range(per_round):
            shift = (k * step) % max(1, len(pool))
            deals.append(_sim_from_view(view, me, pool[shift:] + pool[:shift]))
    return deals


def _sim_from_view(view: TakeView, me: int, pool: list[Card]) -> Sim:
    """The view's hand in play with the hidden cards dealt from ``pool`` in order."""
    players = [seat.player for seat in view.seats]
    hands: list[list[Card]] = []
    for seat, info in enumerate(view.seats):
        if seat == me:
            hands.append(sorted(view.my_hand or []))
        else:
            hands.append(sorted(pool[: info.hand_size]))
            pool = pool[info.hand_size :]
    stock = pool[: view.stock_size]
    below = pool[view.stock_size :]
    pile = [*below, view.discard_top] if view.discard_top is not None else below
    runs = []
    for run in view.runs:
        first = run.stands_for[0]
        low = LOW_ACE if first.rank == ACE else first.rank
        runs.append(SimRun(run.id, players.index(run.owner), run.suit, low, list(run.cards)))
    return Sim(
        hands=hands,
        runs=runs,
        next_id=max((run.id for run in runs), default=0) + 1,
        stock=stock,
        pile=pile,
        turn=me,
        phase=view.phase or "play",
        taken=view.taken,
        turned_over=view.turned_over,
    )


def _judge(sim: Sim, me: int, look: Lookahead) -> float:
    """The seat's position when its turn comes round again (or the hand ended)."""
    others = [seat for seat in range(len(sim.hands)) if seat != me]
    share = 1.0 / len(others)
    if sim.ended:
        return sim.score(me) - share * sum(sim.score(seat) for seat in others)
    value = 0.0
    mine = sim.hands[me]
    held = set(mine)
    unseen = _sim_unseen(sim, me)
    jokers = (JOKER in unseen) * (2 - sum(1 for c in mine if c.is_joker) - _jokers_laid(sim))
    has_joker = JOKER in held
    for run in sim.runs:
        points = run.points
        if len(run.cards) >= LOCKED_LENGTH:
            value += points if run.owner == me else -share * points
            continue
        ends = _end_cards(run)
        live = sum(1 for card in ends if card in unseen) + (jokers if ends else 0)
        if run.owner == me:
            value += points * (1.0 - min(look.cap, look.threat * live))
        else:
            if any(card in held for card in ends):
                value += look.chance * points
            elif has_joker and ends:
                value += 0.5 * look.chance * points
            value -= share * points * (1.0 - min(look.cap, look.threat * live))
    value += _held_value(mine, look.hold, look.connected)
    value += share * look.hold_other * sum(sim.held(seat) for seat in others)
    return value


def _jokers_laid(sim: Sim) -> int:
    return sum(1 for run in sim.runs for card in run.cards if card.is_joker)


def _end_cards(run: SimRun) -> list[Card]:
    ends = []
    low, high = run.low, run.high
    if low - 1 >= LOW_ACE and not (low - 1 == LOW_ACE and high == HIGH_ACE):
        ends.append(card_at(run.suit, low - 1))
    if high + 1 <= HIGH_ACE and not (low == LOW_ACE and high + 1 == HIGH_ACE):
        ends.append(card_at(run.suit, high + 1))
    return ends


def _normal_turn(sim: Sim) -> tuple[Move, ...]:
    """The moves ``normal`` makes in the seat's turn from here (on a copy)."""
    me = sim.turn
    sim = sim.copy()
    path: list[Move] = []
    while not sim.ended and sim.turn == me:
        move = _normal_move(sim)
        path.append(move)
        sim.apply(move)
    return tuple(path)


def _follow(
    sim: Sim, me: int, path: Sequence[Move], look: Lookahead, kinds: Mapping[int, Style]
) -> float:
    """Play ``path``, then the others' turns, each seat by ``normal``'s rule in its kind's
    style; judge the result."""
    for move in path:
        sim.apply(move)
    steps = 0
    while not sim.ended and sim.turn != me and steps < 200:
        sim.apply(_normal_move(sim, kinds[sim.turn]))
        steps += 1
    return _judge(sim, me, look)


def _weigh(
    view: TakeView, rng: SeededRng, look: Lookahead, other_kinds: Sequence[Style]
) -> tuple[list[tuple[Move, ...]], list[float], int]:
    """The candidate plans of the own turn, their total values over the sampled deals,
    and the index of ``normal``'s plan."""
    players = [seat.player for seat in view.seats]
    me = players.index(view.viewer or "")
    unseen = _unseen(view)
    rand = random.Random(rng.next_u64())
    deals = _deals(view, me, unseen, rand, look.rounds)
    base = deals[0]
    plans = _plans(base, me, look)
    usual = _normal_turn(base)
    chosen = _candidates(plans, look.candidates)
    if usual not in chosen:
        chosen.append(usual)
    own = chosen.index(usual)
    totals = [0.0] * len(chosen)
    if len({path[0] for path in chosen}) == 1:
        return chosen, totals, own
    deadline = time.perf_counter() + think_seconds()
    for deal in deals:
        kinds = {
            seat: other_kinds[rand.randrange(len(other_kinds))]
            for seat in range(len(players))
            if seat != me
        }
        for k, path in enumerate(chosen):
            totals[k] += _follow(deal.copy(), me, path, look, kinds)
        if time.perf_counter() > deadline:
            break
    return chosen, totals, own


def hard_player(look: Lookahead = LOOKAHEAD, other_kinds: Sequence[Style] = OTHER_KINDS) -> Chooser:
    """A ``hard`` chooser with these lookahead settings, playing the others' turns out
    as kinds drawn from ``other_kinds``."""

    def choose(view: TakeView, rng: SeededRng) -> TakeAction:
        moves = _moves(view)
        actions = [move.action for move in moves]
        if len(actions) == 1 or view.viewer is None or view.my_hand is None:
            return actions[0]
        if view.phase == "draw":
            return _normal(view, rng)
        chosen, totals, own = _weigh(view, rng, look, other_kinds)
        best = max(range(len(chosen)), key=lambda k: (totals[k], k == own))
        action = to_action(chosen[best][0])
        return action if action in actions else _normal(view, rng)

    return choose


PLAYERS: Mapping[Level, Chooser] = {
    "easy": _easy,
    "normal": _normal,
    "hard": hard_player(),
}
