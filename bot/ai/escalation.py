"""Computer players for Escalation.

Every level sees only its own view: its hand, the plays of the current round, the
value in force, the public counts (hand, penalty stack and stock sizes) and the cards
taken earlier in the deal (each was played face up; only ``hard`` counts them).

- ``easy``: the defensive player of the rule text's strategy notes. It beats with the
  first (cheapest) legal play, else passes a 2 or 3 through, else takes; it leads its
  lowest card.
- ``normal``: scores each distinct move (a value and how many cards of it, a 2, or
  take) by what it costs the hand: high cards and above all sets are worth keeping
  while the stock lasts (sets are what empties a hand later), loose low cards and
  4s/5s/6s are cheap to spend, 2s and 3s are kept as escapes from a high value, and
  every card played is replaced from the stock while it lasts. Cards played that the
  stock no longer replaces count as shed, which is what wins the endgame, so once the
  stock is out sets get put down rather than kept. Taking costs the cards of the
  round (penalties, paid only if someone else wins) but gives the lead: it takes
  small rounds when beating would break up good cards. The weights were tuned by
  self-play.
- ``hard``: determinized Monte Carlo search over every distinct move, from the first
  card of the deal. It doesn't know how the others play, so it doesn't assume
  ``normal``: each sample first seats each other seat as one of `OTHER_KINDS`,
  ``normal``'s rule with ``normal``'s weights or with seven other sets, or an erratic
  player who makes any legal move, and so averages over them. The sample then deals
  the cards the seat can't place (the deck less its hand, the cards of this round and
  those taken before: it counts cards) at random into the other hands and the stock at
  their public sizes, made to fit the other seats' plays of this round (a player of the
  seat's kind holding the sampled hand would have made them; a misfit is kept only now
  and then, as a person plays otherwise; an erratic player could have made any). Every
  candidate is played on that sample and the deal is played out on a compact simulator
  (`bot.ai.escalation_sim`, checked against the engine), its own seat playing `COUNTER`
  (``normal``'s rule with weights tuned to beat two ``normal`` players), the others as
  their kinds.
  A playout is scored by what decides the game: 1 for leaving the seat the sole
  leader (½ shared), and a little per chip (more while deals remain). The same
  samples serve every candidate, and a move replaces the first-ranked one only when
  its paired gain is clear of the sampling noise. The sample count follows a budget
  of simulated moves (so a decision is reproducible from its rng), under
  `bot.ai.budget.think_seconds` as a safety net.
  Of the earlier rounds the view keeps only which cards were taken, so the public
  counts, those cards and this round's plays are all a sample can be conditioned on.
  The previous ``hard`` (rollouts for chips in the endgame only) lives on in the
  bench, as `bench.previous.escalation`, for `bench.ai`.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from bot.ai import Chooser, Level
from bot.ai import escalation_sim as sim
from bot.ai.budget import think_seconds
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.escalation import (
    TAKE,
    EscalationAction,
    EscalationView,
    card_value,
    is_pass_through,
)

# --- Reading a hand --------------------------------------------------------------------


def _groups(hand: Sequence[Card]) -> dict[int, list[Card]]:
    """Ordinary cards by value (4, 5 and 6 together), each group sorted."""
    groups: dict[int, list[Card]] = {}
    for card in sorted(hand):
        if not is_pass_through(card):
            groups.setdefault(card_value(card), []).append(card)
    return groups


def _specials(hand: Sequence[Card]) -> list[Card]:
    """The 2s and 3s held, 2s first (a 2 keeps the direction)."""
    return sorted(card for card in hand if is_pass_through(card))


def _play(cards: Sequence[Card]) -> EscalationAction:
    """A play of sorted cards, built without re-validation (the rollouts make many)."""
    return EscalationAction.model_construct(kind="play", cards=tuple(cards))


# --- The normal player's scoring -------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """How the ``normal`` player values things (in rough units of "one good card")."""

    refill: float = 0.4
    """A card drawn from the stock to replace one played (an average card)."""
    shed: float = 2.0
    """A card played that is not replaced: one card closer to winning the deal."""
    set_bonus: float = 2.5
    """Per extra card in a set (sets shed several cards at once in the endgame)."""
    endgame_set_bonus: float = 1.0
    """The same once the stock is out."""
    escape: float = 0.6
    """Holding a 2 or 3: a way past a high value without taking."""
    penalty: float = 0.6
    """A card taken onto the penalty stack (paid only when someone else wins)."""
    lead: float = 0.2
    """Leading after a take."""


NORMAL = Weights()


def _keep(value: int, count: int, bonus: float) -> float:
    """What holding ``count`` cards of ``value`` is worth: high cards and sets."""
    if count <= 0:
        return 0.0
    return count * (value - 6) / 8 + bonus * (count - 1)


def _score_play(
    groups: Mapping[int, Sequence[Card]],
    value: int,
    count: int,
    stock: int,
    weights: Weights,
) -> float:
    held = len(groups[value])
    bonus = weights.set_bonus if stock > 0 else weights.endgame_set_bonus
    loss = _keep(value, held, bonus) - _keep(value, held - count, bonus)
    refilled = min(count, stock)
    return -loss + refilled * weights.refill + (count - refilled) * weights.shed


WIN = float("inf")


def _scored(
    hand: Sequence[Card], in_force: int | None, stock: int, round_cards: int, weights: Weights
) -> Iterator[tuple[float, Sequence[Card]]]:
    """Each distinct move with the ``normal`` player's score; the cards played, or no
    cards for ``take``. Playing out the last cards (the deal is won) scores ``WIN``."""
    groups = _groups(hand)
    specials = _specials(hand)
    for value, cards in groups.items():
        for count in range(1, len(cards) + 1):
            if in_force is not None and value * count <= in_force:
                continue
            if stock == 0 and count == len(hand):
                yield WIN, cards
                continue
            score = _score_play(groups, value, count, stock, weights)
            if in_force is None:
                score -= 0.01 * value  # lead low, all else equal
            yield score, cards[:count]
    if specials and (in_force is not None or len(specials) == len(hand)):
        if stock == 0 and len(hand) == 1:
            yield WIN, specials
        else:
            refilled = 1 if stock else 0
            shed = (1 - refilled) * weights.shed
            yield -weights.escape + refilled * weights.refill + shed, specials[:1]
    if in_force is not None:
        yield -round_cards * weights.penalty + weights.lead, ()


def _action(cards: Sequence[Card]) -> EscalationAction:
    return _play(cards) if cards else TAKE


def decide(
    hand: Sequence[Card],
    in_force: int | None,
    stock: int,
    round_cards: int,
    weights: Weights = NORMAL,
) -> EscalationAction:
    """The ``normal`` player's move from the bare facts it uses (also the rollout
    policy of ``hard``, fed from sampled states). Ties go to the earlier move."""
    best: Sequence[Card] = ()
    best_score = float("-inf")
    for score, cards in _scored(hand, in_force, stock, round_cards, weights):
        if score > best_score:
            best, best_score = cards, score
    return _action(best)


def _normal(view: EscalationView, rng: SeededRng) -> EscalationAction:
    hand = view.my_hand or []
    in_force = None if view.must_lead else view.value_in_force
    round_cards = sum(len(entry.cards) for entry in view.round)
    return decide(hand, in_force, view.stock_size, round_cards)


def _easy(view: EscalationView, rng: SeededRng) -> EscalationAction:
    """Beat with the cheapest play, else pass a 2 or 3, else take; lead the lowest card."""
    hand = view.my_hand or []
    groups = _groups(hand)
    specials = _specials(hand)
    if view.must_lead or view.value_in_force is None:
        if groups:
            return _play(groups[min(groups)][:1])
        return _play(specials[:1])
    in_force = view.value_in_force
    beating = [
        (value * count, count, cards[:count])
        for value, cards in groups.items()
        for count in range(1, len(cards) + 1)
        if value * count > in_force
    ]
    if beating:
        return _play(min(beating)[2])
    if specials:
        return _play(specials[:1])
    return TAKE


# --- The hard player: determinized Monte Carlo search on the simulator ------------

SEARCH_WORK = 30_000
"""Simulated moves a decision may make across all its playouts (its node budget):
about 60 ms of CPU per decision. Five times as many gave no clear gain (see "What was
tried and left out" in docs/computer-players.md)."""
SEARCH_STOCK = 52
"""Search once the stock is down to this many cards (52: from the first card)."""
SEARCH_MIN_SAMPLES = 8
SEARCH_MAX_SAMPLES = 200
SEARCH_MIN_GAIN = 0.02
SEARCH_CONFIDENCE = 2.0
"""A move replaces ``normal``'s choice when its average gain (in wins) is at least
``SEARCH_MIN_GAIN`` and ``SEARCH_CONFIDENCE`` standard errors of the paired
differences."""
COUNTER: sim.Weights = (0.4, 2.0, 3.5, 1.0, 0.9, 0.6, -0.3)
"""``normal``'s rule with these weights (`Weights`' order) wins more deals against two
``normal`` players than ``normal`` does: tuned on the simulator (pattern search over
9,000 seeded deals per candidate, seats rotated: 36.5% against 33.3%); ``hard``'s
own seat plays it in the playouts. It keeps sets, 2s and 3s longer and takes less readily."""
KIND_SPREAD = 0.7
KIND_SEED = 12345


def _scaled(weights: sim.Weights, rng: random.Random, spread: float) -> sim.Weights:
    """``weights``, each times e**u for a u drawn uniformly from ±``spread``."""
    refill, shed, sets, endgame_sets, escape, penalty, lead = (
        weight * math.exp(rng.uniform(-spread, spread)) for weight in weights
    )
    return (refill, shed, sets, endgame_sets, escape, penalty, lead)


def kinds_of_player(
    count: int = 8, spread: float = KIND_SPREAD, seed: int = KIND_SEED
) -> tuple[sim.Weights, ...]:
    """``normal``'s weights and ``count`` - 1 kinds of player that weigh the same things
    differently: each of ``normal``'s weights scaled by up to e**``spread`` either way,
    drawn from a fixed seed. Few and fixed, because the simulator makes a decision table
    for each set of weights (`bot.ai.escalation_sim.decide`)."""
    rng = random.Random(seed)
    return (
        sim.NORMAL_WEIGHTS,
        *(_scaled(sim.NORMAL_WEIGHTS, rng, spread) for _ in range(count - 1)),
    )


OTHER_KINDS: tuple[sim.SeatKind, ...] = (*kinds_of_player(), sim.ERRATIC)
"""The kinds of player ``hard`` seats the others as in a sample, one drawn per seat:
`kinds_of_player` and a player who makes any legal move. Its sampled hands fit their
plays as that kind would have made them, and the playouts play them so. Its strength
against every pool is in `docs/computer-players.md`."""
CHIP_WEIGHT_LAST_DEAL = 0.002
CHIP_WEIGHT = 0.05
"""A playout is worth 1 when it makes the seat the sole leader of the game (½ when
shared), plus this much per chip won: chips only break ties in the last deal, and
count for more while deals remain."""


def _cards_for(hand: Sequence[Card], move: int) -> EscalationAction:
    """The engine action for a simulator move (the lowest cards of that value)."""
    if move == sim.TAKE_MOVE:
        return TAKE
    value, count = sim.move_value(move), sim.move_count(move)
    if value in (2, 3):
        chosen = [card for card in sorted(hand) if card.rank == value][:1]
    else:
        chosen = [c for c in sorted(hand) if not is_pass_through(c) and card_value(c) == value]
    return _play(chosen[:count])


@dataclass(frozen=True)
class Seen:
    """Another seat's last play of this round, as a simulator move for the seat's kind
    to be checked against: the move, the cards it played (kinds), and what it faced
    then."""

    seat: int
    move: int
    played: tuple[int, ...]
    in_force: int
    stock: int
    round_cards: int


def last_plays(view: EscalationView, seat: int, endgame: bool = True) -> list[Seen]:
    """The other seats' last plays of the current round. While the stock lasts, every
    hand held `sim.HAND_SIZE` cards before each play and drew what it played. Once it
    is out (with ``endgame``), a hand held what it holds now and what it played, the
    stock out then too (``stock`` 0; not so when that makes more than
    `sim.HAND_SIZE` cards: it drew the stock's last cards since, and is left out)."""
    if view.stock_size <= 0 and not endgame:
        return []
    index = {info.player: i for i, info in enumerate(view.seats)}
    found: dict[int, Seen] = {}
    before = 0
    for k, entry in enumerate(view.round):
        who = index.get(entry.player)
        if who is not None and who != seat and entry.cards:
            kinds = tuple(sim.kind_of(card) for card in entry.cards)
            drawn_since = sum(len(later.cards) for later in view.round[k:])
            stock = view.stock_size + drawn_since if view.stock_size > 0 else 0
            found[who] = Seen(
                seat=who,
                move=sim.play_move(entry.cards),
                played=kinds,
                in_force=-1 if k == 0 else view.round[k - 1].value,
                stock=stock,
                round_cards=before,
            )
        before += len(entry.cards)
    if view.stock_size <= 0:
        sizes = [info.hand_size for info in view.seats]
        return [s for s in found.values() if sizes[s.seat] + len(s.played) <= sim.HAND_SIZE]
    return list(found.values())


def plays_fit(
    dealt: Sequence[Sequence[int]],
    seen: Sequence[Seen],
    seats: Sequence[sim.SeatKind] = (),
) -> bool:
    """Whether players holding the sampled hands (``dealt``: each seat's kinds in the
    random order they were dealt) would have made the plays ``seen``: each hand less
    the cards it drew since (its last ones, any will do in a random deal) plus the
    cards it played; with the stock out, the whole hand plus them. Each seat plays
    ``normal``'s rule with its weights in ``seats`` (none given: ``normal``'s own); a
    seat that draws its moves, as `sim.ERRATIC`, could have made any play."""
    for play in seen:
        held = dealt[play.seat]
        if play.stock <= 0:
            kept = list(held)
        elif len(held) == sim.HAND_SIZE:
            kept = list(held[: sim.HAND_SIZE - len(play.played)])
        else:
            continue
        before = [0] * sim.SIZE
        for kind in [*kept, *play.played]:
            before[kind] += 1
        size = len(kept) + len(play.played)
        seat_kind = seats[play.seat] if seats else sim.NORMAL_WEIGHTS
        if not isinstance(seat_kind, tuple):
            continue  # a seat that draws its moves could have made any play
        move = sim.decide(before, size, play.in_force, play.stock, play.round_cards, seat_kind)
        if move != play.move:
            return False
    return True


MISFIT_WEIGHT = 0.1
"""How likely a sampled deal is kept when a player of the seat's kind holding its hand
would not have made a play of this round (not 0: a person plays otherwise)."""
DEAL_TRIES = 12
"""Deals drawn at most per sample while looking for one that fits the plays."""
INFER_ENDGAME = False
"""Fit the samples to the others' plays once the stock is out, too (`last_plays`):
off, as it won no more games (61 of 124 either way, with the hands dealt by kind
weights alone, which are gone: no more wins than uniform deals, 48.5% against 47.6%
over 1,552 paired games)."""


# fmt: off
STOCK_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (1.0, 1.0, 0.77, 0.83, 1.0, 1.0, 1.16, 1.0, 0.98, 0.96, 0.94, 1.07, 1.0, 1.04, 1.03),
    (1.0, 1.0, 0.58, 0.64, 1.0, 1.0, 1.62, 0.94, 0.92, 0.93, 0.88, 1.07, 0.96, 1.07, 1.08),
    (1.0, 1.0, 0.62, 0.65, 1.0, 1.0, 1.84, 0.89, 0.85, 0.9, 0.8, 1.11, 0.88, 1.02, 1.16),
    (1.0,) * sim.SIZE,  # no stock
)
# fmt: on
"""How much likelier than the rest of the cards not dealt to the other hands each kind
is to lie in the stock, by how much stock is left (more than 20 cards, 11-20, 1-10,
none): it holds about as many of each kind as the unseen cards at large, but the
other hands have taken more of some. Fitted over 300 deals of three ``normal``
players."""


# fmt: off
SET_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (1.0, 1.0, 0.6, 0.83, 1.0, 1.0, 1.03, 0.97, 1.03, 0.95, 1.02, 1.18, 1.23, 1.12, 1.13),
    (1.0, 1.0, 0.3, 0.31, 1.0, 1.0, 1.35, 1.09, 1.11, 1.0, 1.04, 1.22, 1.19, 1.25, 1.24),
    (1.0, 1.0, 0.26, 0.28, 1.0, 1.0, 1.53, 1.05, 0.95, 1.03, 1.04, 1.19, 1.26, 1.26, 1.38),
    (1.0, 1.0, 0.19, 0.26, 1.0, 1.0, 0.98, 0.93, 0.78, 1.02, 0.97, 1.45, 1.37, 1.57, 2.07),
)
# fmt: on
SET_BOOSTS = (1.6, 2.4, 3.2, 4.5)
"""Fitted over 150 deals of three ``normal`` players so that the hands dealt hold as
many cards beyond the first of a value (1.6, 2.3, 2.8, 1.0 a hand by stage) and of
each kind as theirs did."""


def _phase(stock: int) -> int:
    """The row of `SET_WEIGHTS`, `SET_BOOSTS` and `STOCK_WEIGHTS` for a stock of this
    many cards."""
    return 0 if stock > 20 else 1 if stock > 10 else 2 if stock > 0 else 3


def sample_deal(
    view: EscalationView,
    seat: int,
    unseen: list[int],
    rnd: random.Random,
    seen: Sequence[Seen] = (),
    seats: Sequence[sim.SeatKind] = (),
) -> sim.Deal:
    """The unseen cards dealt at random into the other hands and the stock, at their
    public sizes (``unseen`` as `unseen_kinds` lists them: a stacked deck may leave more).
    The other hands are dealt by `_draw_hands` (kind weights `SET_WEIGHTS` and a boost
    of `SET_BOOSTS` per card of a value already in the hand), the stock by
    `STOCK_WEIGHTS`: ``normal`` players keep sets, and the other hands are dealt holding
    as many as theirs do (on 293 tuning games from 2000-2599, paired against uniform
    deals: 152 wins against 137). With ``seen``, a deal whose hands don't fit those
    plays (`plays_fit`, each seat playing as its kind in ``seats``) is kept only with
    `MISFIT_WEIGHT` (up to `DEAL_TRIES` draws of the hands; the stock is drawn once
    they are kept)."""
    phase = _phase(view.stock_size)
    pool = [0] * sim.SIZE
    for kind in unseen:
        pool[kind] += 1
    sizes = [info.hand_size for i, info in enumerate(view.seats) if i != seat]
    tries = DEAL_TRIES if seen else 1
    for attempt in range(tries):
        left = list(pool)
        hands = _draw_hands(left, sizes, SET_WEIGHTS[phase], SET_BOOSTS[phase], rnd)
        if attempt == tries - 1 or rnd.random() < MISFIT_WEIGHT:
            break
        dealt = [list(hand) for hand in hands]
        dealt.insert(seat, [])
        if plays_fit(dealt, seen, seats):
            break
    rest = [kind for kind in sim.KINDS for _ in range(left[kind])]
    _draw_weighted(rest, view.stock_size, STOCK_WEIGHTS[phase], rnd)
    unseen[:] = [kind for hand in hands for kind in hand] + rest
    return deal_of(view, seat, unseen)


DealSampler = Callable[
    [EscalationView, int, list[int], random.Random, Sequence[Seen], Sequence[sim.SeatKind]],
    sim.Deal,
]
"""How ``hard`` gets each sample's deal (`sample_deal`; `bench.ai_escalation` passes
oracles that are shown the other hands, to measure what knowing them is worth)."""


def _draw_weighted(
    cards: list[int], count: int, weights: Sequence[float], rnd: random.Random, start: int = 0
) -> None:
    """Put a random choice of ``count`` of ``cards[start:]`` first there, in random
    order, each kind drawn as likely as its weight (exponential clocks: the first
    ``count`` to ring)."""
    draw = rnd.random
    rest = cards[start:]
    clocks = [-math.log(1.0 - draw()) / weights[kind] for kind in rest]
    order = sorted(range(len(rest)), key=clocks.__getitem__)
    chosen = order[:count]
    rnd.shuffle(chosen)
    cards[start:] = [rest[i] for i in chosen] + [rest[i] for i in order[count:]]


def _draw_hands(
    left: list[int],
    sizes: Sequence[int],
    weights: Sequence[float],
    boost: float,
    rnd: random.Random,
) -> list[list[int]]:
    """Hands of ``sizes`` cards from the counts ``left`` (taken from them), each card
    drawn with the odds of its kind's count times its weight, times ``boost`` for each
    card of its value the hand already holds (``normal`` players hold sets; 2s and 3s
    are not boosted). Each hand in random order."""
    draw = rnd.random
    kinds = [kind for kind in sim.KINDS if left[kind]]
    hands: list[list[int]] = []
    for size in sizes:
        odds = [left[kind] * weights[kind] for kind in kinds]
        total = sum(odds)
        hand: list[int] = []
        for _ in range(size):
            point = draw() * total
            at = len(kinds) - 1
            for k, odd in enumerate(odds):
                point -= odd
                if point < 0:
                    at = k
                    break
            while not left[kinds[at]]:  # rounding at the very end: a kind still left
                at -= 1
            kind = kinds[at]
            left[kind] -= 1
            hand.append(kind)
            before = odds[at]
            odds[at] = left[kind] * weights[kind] * (boost ** hand.count(kind) if kind > 3 else 1)
            total += odds[at] - before
        rnd.shuffle(hand)
        hands.append(hand)
    return hands


def deal_of(view: EscalationView, seat: int, unseen: list[int]) -> sim.Deal:
    """The deal with the unseen cards as drawn: the other hands in seat order, then the
    stock."""
    hands: list[list[int]] = []
    at = 0
    for i, info in enumerate(view.seats):
        if i == seat:
            hands.append(sim.counts(view.my_hand or []))
            continue
        hand = [0] * sim.SIZE
        for kind in unseen[at : at + info.hand_size]:
            hand[kind] += 1
        at += info.hand_size
        hands.append(hand)
    stock = unseen[at : at + view.stock_size]
    in_force = -1 if view.must_lead or view.value_in_force is None else view.value_in_force
    return sim.Deal(
        hands=hands,
        penalties=[info.penalty_size for info in view.seats],
        stock=stock,
        turn=seat,
        direction=1 if view.direction == "clockwise" else -1,
        in_force=in_force,
        round_cards=sum(len(entry.cards) for entry in view.round),
    )


def _utility(view: EscalationView, seat: int, chips: Sequence[int]) -> float:
    totals = [info.total + won for info, won in zip(view.seats, chips, strict=True)]
    best = max(totals)
    mine = totals[seat]
    last = view.deal >= view.deals
    win = 0.0
    if mine == best:
        win = 1.0 if totals.count(best) == 1 else 0.5
    return win + (CHIP_WEIGHT_LAST_DEAL if last else CHIP_WEIGHT) * chips[seat]


def unseen_kinds(view: EscalationView) -> list[int]:
    """The kinds of the cards the seat can't place: the deck less its hand, the
    round's plays and the cards taken earlier in the deal (public, `EscalationView.taken`),
    so they lie in the other hands and the stock."""
    seen = {*(view.my_hand or []), *view.taken}
    seen.update(card for entry in view.round for card in entry.cards)
    return [sim.kind_of(card) for card in standard_deck() if card not in seen]


def hard_player(
    work: int = SEARCH_WORK,
    deadline: float | None = None,
    timed: bool = True,
    min_samples: int = SEARCH_MIN_SAMPLES,
    max_samples: int = SEARCH_MAX_SAMPLES,
    stock_limit: int = SEARCH_STOCK,
    confidence: float = SEARCH_CONFIDENCE,
    min_gain: float = SEARCH_MIN_GAIN,
    own: sim.Weights = COUNTER,
    other_kinds: Sequence[sim.SeatKind] = OTHER_KINDS,
    infer_hands: bool = True,
    sample: DealSampler = sample_deal,
) -> Chooser:
    """A ``hard`` chooser. Its wall-clock safety net is ``deadline`` seconds, by
    default `bot.ai.budget.think_seconds`; ``timed=False`` for none (fully
    reproducible). It searches once the stock is down to ``stock_limit`` cards (before,
    ``normal`` decides). Its own seat plays ``normal``'s rule with the weights ``own``
    in the playouts (and they rank its candidates); each other seat, in each sample, as
    a kind drawn from ``other_kinds``.
    With ``infer_hands``, sampled deals are made to fit the others' plays of this round
    (`last_plays`), as players of the kinds drawn for the sample would have made them.
    ``sample`` deals each sample (`DealSampler`)."""

    def choose(view: EscalationView, rng: SeededRng) -> EscalationAction:
        hand = view.my_hand or []
        if view.viewer is None or not hand or view.stock_size > stock_limit:
            return _normal(view, rng)
        seat = [s.player for s in view.seats].index(view.viewer)
        in_force = -1 if view.must_lead or view.value_in_force is None else view.value_in_force
        round_cards = sum(len(entry.cards) for entry in view.round)
        mine = sim.counts(hand)
        moves = sim.scored(mine, len(hand), in_force, view.stock_size, round_cards, own)
        order = sorted(range(len(moves)), key=lambda i: (-moves[i][0], i))
        candidates = [moves[i][1] for i in order]
        if len(candidates) == 1 or moves[order[0]][0] >= sim.WIN:
            return _cards_for(hand, candidates[0])
        unseen = unseen_kinds(view)
        others = sum(s.hand_size for i, s in enumerate(view.seats) if i != seat)
        if len(unseen) < others + view.stock_size:
            return _normal(view, rng)  # a short stacked deck: nothing sensible to sample
        rnd = random.Random(rng.next_u64())
        plays = last_plays(view, seat, INFER_ENDGAME) if infer_hands else []
        limit = think_seconds() if deadline is None else deadline
        stop = None if not timed else time.perf_counter() + limit
        utilities: list[list[float]] = [[] for _ in candidates]
        used = 0
        samples = 0
        while samples < max_samples and (samples < min_samples or used < work):
            seats = [
                own if i == seat else other_kinds[rnd.randrange(len(other_kinds))]
                for i in range(len(view.seats))
            ]
            root = sample(view, seat, unseen, rnd, plays, seats)
            for i, candidate in enumerate(candidates):
                deal = root.copy()
                deal.step(candidate)
                used += 1 + deal.playout(seats=seats, draw=rnd.random)
                won = _utility(view, seat, deal.chips()) if deal.winner >= 0 else 0.0
                utilities[i].append(won)
            samples += 1
            if stop is not None and time.perf_counter() > stop:
                break
        # Leave normal's choice only for a gain clear of the sampling noise (the same
        # deals for every candidate, so the differences are paired; an erratic seat's
        # moves are drawn afresh in each playout).
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            diffs = [a - b for a, b in zip(utilities[i], utilities[0], strict=True)]
            gain = statistics.fmean(diffs)
            noise = statistics.pstdev(diffs) / math.sqrt(len(diffs))
            if gain > max(min_gain, confidence * noise) and gain > best_gain:
                best, best_gain = i, gain
        return _cards_for(hand, candidates[best])

    return choose


PLAYERS: Mapping[Level, Chooser] = {
    "easy": _easy,
    "normal": _normal,
    "hard": hard_player(),
}
