"""Geschenkt (No Thanks!) computer players.

Each level sees only its seat's `GeschenktView`: its own chips, everyone's cards, the
face-up card and pot, how many cards are left. Other players' chips, the order of the
stack and the cards removed before play stay hidden.

- easy: takes a card that fits one of its runs, or one with a large pot; otherwise a
  little noise, and it refuses.
- normal: a chip-value threshold (`Params`): take when the card's cost (its change to
  the score: runs count their lowest card only) less the pot at a chip value, less a
  bonus for a card near one held, is below a threshold that rises as the chips run
  out. It sends a card that fits its run around the table for more chips while no one
  else has a neighbour of that card (until the pot reaches ``greed``). Tuned by play
  against copies of itself and easy players (`TUNED`).
- hard: determinized Monte Carlo. It doesn't know how the others play, so it supposes
  each other seat is one of a few kinds of player (`KINDS`: our normal, a casual
  face-value player, a pot-taker, a proportional player) and weighs the kinds for
  each seat by what the view shows it did: who took which card so far
  (`read_holdings`) and the refusals of the face-up card (`likelihood`). It also
  weighs, against that seat-by-seat reading, a table whose other seats all play one
  kind, by how likely each makes all the cards held (`read_holdings`,
  `table_posterior`, `ALIKE_PRIOR`). Each sample deals the hidden information so it
  agrees with the view (the variant, the other players' chips, split by random
  shares, `CHIP_SPREAD`; the stack order, the removed cards) and reads the table,
  by that posterior, as one kind that hard has a reply to (`table_readings`: the
  casual kind) or seat by seat, drawing a kind for each other seat, keeping the draw
  as likely as its chips and kinds make the refusals the pot shows. Each sample is
  played out after taking and after refusing on a compact simulator
  (`bot.ai.geschenkt_sim`, checked against the engine; about 40 times the engine's
  actions per second), each other seat playing its kind's rule and its own seat the
  normal rule, or the reply to a table of one kind (`own_rule`), and the choice with
  the better chance to win is kept (1 for the sole lowest score, ½ shared, less a
  hundredth of the margin to the best other score). Samples share the deal between
  the two choices; they stop once one choice is clearly better, or at a bound on
  simulated actions (both deterministic), or at the wall-clock budget of
  `bot.ai.budget.think_seconds` (a safety net under load).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.ai import Chooser, Level
from bot.ai import geschenkt_sim as sim
from bot.ai.budget import think_seconds
from bot.engines.base import SeededRng
from bot.engines.geschenkt import (
    REFUSE,
    TACTICAL_REMOVED,
    TAKE,
    GeschenktAction,
    GeschenktState,
    GeschenktView,
    card_pool,
    starting_chips,
)

FULL_PHASE = 23
"""Cards left when the first card is face up: the phase runs from 1 down to 0."""


def card_cost(card: int, mine: Collection[int]) -> int:
    """How much taking ``card`` adds to the score of the cards ``mine`` (chips aside):
    the card itself alone, 0 on top of a run, -1 below a run, and a bridge between two
    runs drops the upper run's lowest card. Equals the engine's ``score`` difference."""
    below, above = card - 1 in mine, card + 1 in mine
    if below and above:
        return -(card + 1)
    if below:
        return 0
    if above:
        return -1
    return card


# --- normal: the threshold policy ------------------------------------------------------


@dataclass(frozen=True)
class Params:
    """The normal policy: take when
    ``cost - chip_value * pot - near_bonus * near < threshold + low_chips / (chips + 1)``,
    where the chip value slides from ``chip_value`` (first card) to ``late_chip_value``
    (last card); never refuse with no chips; refuse a card that fits a run (cost <= 0)
    while the pot is below ``greed`` and no other player holds a neighbour of it.

    With ``softness`` above 0 the rule is a player's whim rather than a rule (the kinds
    ``hard`` supposes the others to be, `take_chance`): the chance to take rises evenly
    from 0 to 1 as the left side falls from ``softness / 2`` above the right side to as
    far below it, is at least ``floor``, times ``1 + chip_factor / chips``, times
    ``fit_factor`` for a card next to one held (at most 1). With ``face_value`` the
    left side counts the card's face value, not its cost to the score."""

    chip_value: float
    late_chip_value: float
    threshold: float
    low_chips: float
    near_bonus: float
    greed: float
    softness: float = 0.0
    face_value: bool = False
    floor: float = 0.0
    chip_factor: float = 0.0
    fit_factor: float = 1.0

    def as_tuple(self) -> tuple[float, ...]:
        """The fields in order, as `bot.ai.geschenkt_sim.Table.playout_seats` takes them
        (`dataclasses.astuple` copies deeply, and is slow)."""
        return (
            self.chip_value,
            self.late_chip_value,
            self.threshold,
            self.low_chips,
            self.near_bonus,
            self.greed,
            self.softness,
            self.face_value,
            self.floor,
            self.chip_factor,
            self.fit_factor,
        )


TUNED = Params(
    chip_value=3.6,
    late_chip_value=0.9,
    threshold=2.0,
    low_chips=14.0,
    near_bonus=2.0,
    greed=3.0,
)
"""The normal policy's constants, found once by self-play tuning (the tool is in the
project's history, not in the product): pattern search from a hand-made guess
(chip_value 2.6, late_chip_value 1.4, threshold 3, low_chips 14, near_bonus 4, greed 3),
each candidate against the incumbent in 4,000 paired seeded 3-player games with a field
of incumbents and easy players; 6 passes, 74 candidates. Moves kept: chip_value 2.6 -> 3.6,
late_chip_value 1.4 -> 0.9, threshold 3 -> 2; near_bonus wandered 4 -> 2 -> 0 -> 1 -> 2
(flat within the noise); low_chips and greed stayed. Tuning against copies of the
incumbent alone drove chip_value to 4.6, which beat copies but won only 56% against two
easy players."""


def take_chance(
    params: Params,
    card: int,
    pot: int,
    mine: Collection[int],
    chips: int,
    cards_left: int,
    others: Sequence[Collection[int]],
) -> float:
    """How likely a player of the rule ``params`` takes ``card`` (``others``: the other
    seats' cards): 0 or 1 unless the rule is soft."""
    if chips <= 0:
        return 1.0
    cost = card_cost(card, mine)
    if cost <= 0 and pot < params.greed:
        wanted = any(card - 1 in hand or card + 1 in hand for hand in others)
        if not wanted:
            return 0.0
    phase = min(cards_left, FULL_PHASE) / FULL_PHASE
    chip_value = params.late_chip_value + (params.chip_value - params.late_chip_value) * phase
    near = cost == card and (card - 2 in mine or card + 2 in mine)
    value = (card if params.face_value else cost) - chip_value * pot
    value -= params.near_bonus if near else 0.0
    margin = params.threshold + params.low_chips / (chips + 1) - value
    if params.softness <= 0:
        return 1.0 if margin > 0 else 0.0
    chance = min(1.0, max(params.floor, 0.5 + margin / params.softness))
    chance *= 1 + params.chip_factor / chips
    if cost != card:
        chance *= params.fit_factor
    return min(1.0, chance)


def normal_takes(
    params: Params,
    card: int,
    pot: int,
    mine: Collection[int],
    chips: int,
    cards_left: int,
    others: Sequence[Collection[int]],
) -> bool:
    """Whether the normal policy (``params``, not soft) takes ``card``."""
    return take_chance(params, card, pot, mine, chips, cards_left, others) >= 1.0


def _me(view: GeschenktView) -> int:
    seats = [seat.player for seat in view.seats]
    if view.viewer not in seats or view.to_act != view.viewer or view.current_card is None:
        raise ValueError("a computer player chooses only on its own turn")
    return seats.index(view.viewer)


def make_normal(params: Params = TUNED) -> Chooser:
    def choose(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
        me = _me(view)
        assert view.current_card is not None and view.my_chips is not None
        takes = normal_takes(
            params,
            view.current_card,
            view.pot,
            set(view.seats[me].cards),
            view.my_chips,
            view.cards_left,
            [set(seat.cards) for k, seat in enumerate(view.seats) if k != me],
        )
        return TAKE if takes else REFUSE

    return choose


# --- easy: a simple rule with noise -----------------------------------------------------


def easy_takes(card: int, pot: int, mine: Collection[int], chips: int, rng: SeededRng) -> bool:
    """Take a card that fits a run (with an empty pot, mostly), or one whose pot is at
    least a third of it; otherwise refuse, but take now and then anyway. Always take
    with no chips."""
    if chips <= 0:
        return True
    roll = rng.below(100)
    if card_cost(card, mine) <= 0:
        return pot > 0 or roll < 85
    if 3 * pot >= card:
        return roll < 90
    return roll < 12


def choose_easy(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
    me = _me(view)
    assert view.current_card is not None and view.my_chips is not None
    mine = set(view.seats[me].cards)
    return TAKE if easy_takes(view.current_card, view.pot, mine, view.my_chips, rng) else REFUSE


# --- hard: determinized Monte Carlo -------------------------------------------------------

TACTICAL_PRIOR = 0.3
"""How likely a game is the tactical variant before any card is seen."""


@dataclass(frozen=True)
class Hypothesis:
    """One way the hidden part of the table may be: the variant, the cards not seen
    (the rest of the stack and the removed ones) and the other players' chips in all."""

    weight: float
    tactical: bool
    unseen: tuple[int, ...]
    others_chips: int


def hypotheses(view: GeschenktView) -> list[Hypothesis]:
    """The variants the view allows, weighted by how likely each makes what is seen.

    All chips stay in play, so the other players hold ``start * players - mine - pot``
    together. The tactical variant is out once a 10, 20 or 30 shows, or if that sum
    would be negative; otherwise its weight is the prior against the chance that a
    standard deck hid all three in the cards seen so far."""
    count = len(view.seats)
    seen = {card for seat in view.seats for card in seat.cards}
    if view.current_card is not None:
        seen.add(view.current_card)
    mine = view.my_chips or 0
    result = []
    for tactical in (False, True):
        if tactical and seen & set(TACTICAL_REMOVED):
            continue
        others = starting_chips(count, tactical) * count - mine - view.pot
        if others < 0:
            continue
        unseen = tuple(card for card in card_pool(tactical) if card not in seen)
        if tactical:
            weight = TACTICAL_PRIOR
        else:
            pool = len(card_pool(False))
            # P(no 10/20/30 among the seen cards | standard deck)
            clear = math.prod(
                (pool - len(TACTICAL_REMOVED) - k) / (pool - k) for k in range(len(seen))
            )
            weight = (1 - TACTICAL_PRIOR) * (clear if seen.isdisjoint(TACTICAL_REMOVED) else 1)
        result.append(Hypothesis(weight, tactical, unseen, others))
    if not result:  # chips don't add up (a custom game): trust the standard rules
        unseen = tuple(card for card in card_pool(False) if card not in seen)
        result.append(Hypothesis(1.0, False, unseen, 0))
    return result


@dataclass(frozen=True)
class Refusal:
    """One refusal of the face-up card that the view implies: the pot holds one chip
    per refusal since the card was turned, made by the seats before the one to act, in
    turn. ``seat`` refused with ``pot`` chips in the pot, and refuses ``later`` more
    times after this one before the seat to act (each costs it a chip)."""

    seat: int
    pot: int
    later: int


def refusals(view: GeschenktView, me: int) -> list[Refusal]:
    """The other seats' refusals of the face-up card (their chips then were their chips
    now plus what they have paid since)."""
    count = len(view.seats)
    found: list[Refusal] = []
    paid = [0] * count
    for back in range(1, view.pot + 1):  # the refusal ``back`` steps ago
        seat = (me - back) % count
        pot = view.pot - back
        if seat != me:
            found.append(Refusal(seat, pot, paid[seat]))
        paid[seat] += 1
    return found


def likelihood(
    view: GeschenktView,
    chips: Sequence[int],
    seen: Sequence[Refusal],
    seats: Sequence[Params],
) -> float:
    """How likely the seats' rules (``seats``) make the refusals ``seen``, with these
    chips: for each, the rule's chance to refuse, and at least `INCONSISTENT_WEIGHT`
    (a person may play otherwise than any rule)."""
    assert view.current_card is not None
    hands = [set(seat.cards) for seat in view.seats]
    result = 1.0
    for refusal in seen:
        held = chips[refusal.seat] + refusal.later + 1
        others = [hand for k, hand in enumerate(hands) if k != refusal.seat]
        chance = take_chance(
            seats[refusal.seat],
            view.current_card,
            refusal.pot,
            hands[refusal.seat],
            held,
            view.cards_left,
            others,
        )
        result *= max(1.0 - chance, INCONSISTENT_WEIGHT)
    return result


INCONSISTENT_WEIGHT = 0.1
"""The least likelihood of a refusal: a sample is kept with at least this chance for each
refusal that its seat's rule, with the chips the sample deals it, would surely have
made a take (not 0: a person plays otherwise)."""
CHIP_SPREAD = 3.0
"""The other players' chips are dealt one by one to seats drawn by shares from a
symmetric Dirichlet with this parameter: among ``normal`` players the split of two
seats' chips varies about 3.8 times as much as dealing each chip to a random seat
would make it; with 3 (and some 20 chips) a sample varies as much."""
CHIP_TRIES = 24
"""Chip splits (and kinds) drawn at most per sample while looking for one that fits the
refusals."""


@dataclass(frozen=True)
class Kind:
    """A kind of player another seat may be: a rule (`Params`, `take_chance`), how
    likely a seat is this kind before anything is seen (``prior``, relative), and how
    much its players differ: each sample draws its threshold evenly from ``threshold ±
    spread`` and its chip values times a factor from ``1 ± chip_spread``. ``reply``, if
    any, is the rule the own seat plays in a sample of a table read as all this kind
    (`table_readings`, `own_rule`)."""

    name: str
    prior: float
    params: Params
    spread: float = 0.0
    chip_spread: float = 0.0
    reply: Params | None = None

    def draw(self, rng: random.Random) -> Params:
        if not self.spread and not self.chip_spread:
            return self.params
        shift = (2 * rng.random() - 1) * self.spread
        factor = 1 + (2 * rng.random() - 1) * self.chip_spread
        p = self.params
        return Params(
            p.chip_value * factor,
            p.late_chip_value * factor,
            p.threshold + shift,
            p.low_chips,
            p.near_bonus,
            p.greed,
            p.softness,
            p.face_value,
            p.floor,
            p.chip_factor,
            p.fit_factor,
        )


CASUAL_REPLY = Params(
    chip_value=3.1,
    late_chip_value=1.2,
    threshold=2.0,
    low_chips=17.0,
    near_bonus=1.0,
    greed=3.0,
)
"""The own seat's rule in a sample of a table read as all ``casual`` (`own_rule`):
pattern search from `TUNED` (the tool is in the project's history, not in the
product), each step on 20,000 simulated 3-player games against two ``casual`` seats:
chip_value 3.6 -> 3.1, late_chip_value 0.9 -> 1.2, low_chips 14 -> 17, near_bonus
2 -> 1. Against ``casual`` it wins 88.5 % of those games (`TUNED` 85.7 %). The other
kinds have no reply: rules tuned against them lose badly when the table is misread
(the pot-taker's reply wins 42 % against ``casual``)."""


KINDS: tuple[Kind, ...] = (
    Kind("normal", 0.25, TUNED),
    Kind(
        "casual",
        0.25,
        Params(1.0, 1.0, 11.0, 0.0, 0.0, 0.0, 20.0, True, 0.05, 1.0, 2.0),
        reply=CASUAL_REPLY,
    ),
    Kind("pot-taker", 0.25, Params(10.0, 10.0, -2.0, 0.0, 0.0, 0.0), spread=8.0),
    Kind("proportional", 0.25, Params(2.5, 2.5, 0.5, 0.0, 0.0, 0.0), chip_spread=0.3),
)
"""The kinds of player ``hard`` supposes the other seats may be, each seat on its own
(tables of people play in every way, so it assumes no one kind):

- ``normal``: our ``normal`` level (`TUNED`);
- ``casual``: judges the card by its face value less the pot, on a whim: the chance to
  take falls evenly from 1 at a card one above the pot to 0.05 twenty above it, a
  little more with few chips, twice as much next to a card it holds (the rule of the
  ``HeuristicPlayer`` published with the ``no-thanks`` package);
- ``pot-taker``: takes a card as soon as a few chips lie on it, whatever the card;
- ``proportional``: takes a card once the pot pays some share of its cost (0.3–0.6).

`read_holdings` weighs them for each seat by who took which card so far,
`table_posterior` weighs a table whose other seats all play one kind, and each sample
keeps the kinds it draws as the refusals of the face-up card allow (`likelihood`), so
what a seat was seen to do weighs its kind."""


HOLDING_POTS = 20
"""`read_holdings` follows each card round the table for at most this many refusals."""
HOLDING_NOISE = 0.2
"""`read_holdings` lets this share of the cards go to a seat at random, whatever the
rules: people slip, and the rules are a sketch of how they play."""
HOLDING_TRUST = 1.0
"""`read_holdings` raises the likelihood of the cards' takers to this power: it reads them
off the cards held now, without the order they were taken in or the chips then."""


@dataclass(frozen=True)
class Holdings:
    """What `read_holdings` reads the kinds from: the cards taken so far (``taken``:
    card and holder) and how each seat would have met them."""

    view: GeschenktView
    me: int
    own: Params
    hands: list[set[int]]
    taken: list[tuple[int, int]]
    average: int
    left: int

    @staticmethod
    def of(view: GeschenktView, me: int, own: Params) -> Holdings:
        """The cards held now, the other seats' chips as their average, and the cards
        left halfway between the start and now."""
        count = len(view.seats)
        hands = [set(seat.cards) for seat in view.seats]
        taken = [(card, holder) for holder, hand in enumerate(hands) for card in hand]
        others_chips = hypotheses(view)[0].others_chips
        average = max(1, round(others_chips / max(1, count - 1)))
        left = (FULL_PHASE + view.cards_left) // 2
        return Holdings(view, me, own, hands, taken, average, left)

    def chances(self, params: Params, card: int, seat: int) -> list[float]:
        """``seat``'s chance to take ``card`` by ``params`` at each pot."""
        mine = self.hands[seat] - {card}
        rest = [hand for k, hand in enumerate(self.hands) if k != seat]
        chips = self.view.my_chips or 0 if seat == self.me else self.average
        return [
            take_chance(params, card, pot, mine, max(chips, 1), self.left, rest)
            for pot in range(HOLDING_POTS)
        ]

    def by_kind(self, card: int, kinds: Sequence[Kind]) -> list[list[list[float]]]:
        """Each seat's `chances` at ``card`` by each kind's rule; the own seat's entry
        is the own rule's alone."""
        return [
            [self.chances(self.own, card, seat)]
            if seat == self.me
            else [self.chances(kind.params, card, seat) for kind in kinds]
            for seat in range(len(self.hands))
        ]


def went_to(rows: Sequence[Sequence[float]], holder: int, noise: float) -> float:
    """The chance that a card went to ``holder``: it goes round the table from a seat
    drawn at random, a chip more on it at each refusal, each seat taking it by its row
    (its chance at each pot); ``noise`` of the cards go to a seat at random."""
    count = len(rows)
    chance = 0.0
    for start in range(count):
        alive = 1.0
        for pot in range(HOLDING_POTS):
            seat = (start + pot) % count
            take = rows[seat][pot]
            if seat == holder:
                chance += alive * take
            alive *= 1.0 - take
            if alive < 1e-4:
                break
        chance += alive / count
    return (1 - noise) * chance / count + noise / count


def mix(rows: Sequence[Sequence[float]], priors: Sequence[float]) -> list[float]:
    """The chances at each pot of a seat whose kind is drawn by ``priors`` (a single
    row, the own seat's, as it is)."""
    if len(rows) == 1:
        return list(rows[0])
    total = sum(priors)
    return [
        sum(p * row[pot] for p, row in zip(priors, rows, strict=True)) / total
        for pot in range(HOLDING_POTS)
    ]


def read_holdings(
    view: GeschenktView, me: int, kinds: Sequence[Kind], own: Params
) -> tuple[list[list[float]], list[float]]:
    """What who took which card says of the other seats' kinds (by ``kinds``' order):
    for each seat its weights by kind, and for the whole table the log-likelihoods of
    "every other seat plays kind k" and of "each plays a mix of the kinds".

    A card goes round the table (`went_to`), each seat taking it with its rule's
    `take_chance` (`Holdings`: its own cards less the card, its chips as the others'
    average, and the cards left halfway between the start and now); the own seat plays
    ``own``. For a seat and a kind, the others are a mix of the kinds by their priors;
    the chance that each card went to the seat that holds it, multiplied over the
    cards (raised to `HOLDING_TRUST`), times the prior, weighs the kind. The own seat's
    entry is the priors. The table's likelihoods are those of every card going to its
    holder with every other seat of one kind, or each a mix: a kind that explains
    every seat's cards gains on the mix with every card."""
    count = len(view.seats)
    priors = [kind.prior for kind in kinds]
    weights = [list(priors) for _ in range(count)]
    likelihoods = [0.0] * (len(kinds) + 1)
    held = Holdings.of(view, me, own)
    if count < 2:
        return weights, likelihoods
    for card, holder in held.taken:
        by_kind = held.by_kind(card, kinds)
        mixed = [mix(rows, priors) for rows in by_kind]
        for seat in range(count):
            if seat == me:
                continue
            for index in range(len(kinds)):
                rows = list(mixed)
                rows[seat] = by_kind[seat][index]
                weights[seat][index] *= went_to(rows, holder, HOLDING_NOISE) ** HOLDING_TRUST
        # keep the numbers in range: only the ratios matter
        for seat in range(count):
            top = max(weights[seat])
            weights[seat] = [weight / top for weight in weights[seat]]
        for index in range(len(kinds)):
            rows = [by_kind[seat][0 if seat == me else index] for seat in range(count)]
            likelihoods[index] += math.log(went_to(rows, holder, HOLDING_NOISE))
        likelihoods[-1] += math.log(went_to(mixed, holder, HOLDING_NOISE))
    return weights, likelihoods


def pick(weights: Sequence[float], rng: random.Random) -> int:
    """An index drawn by ``weights``."""
    point = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return index
    return len(weights) - 1


ALIKE_PRIOR = 0.9
"""How likely, before anything is seen, the other seats all play one kind
(`table_posterior`): several computer players of one level, or friends who play
alike. High, as the cards held tell the kinds apart only weakly (a soft kind like
``casual`` spreads its likelihood), and a table that plays apart still wins by its
likelihood. Against two ``no-thanks`` players ``hard`` won 92.5 % of 200 games at 0.9
(about 88 % without the reading), against two greedy ones (who take any card with 3
chips) 71 % of 100 (72 % without)."""


def table_posterior(likelihoods: Sequence[float], kinds: Sequence[Kind]) -> list[float]:
    """The posterior of each table of `read_holdings` (a kind for every other seat,
    then the per-seat mix): `ALIKE_PRIOR` shared by the kinds' priors, the rest on the
    mix, times each one's likelihood. A Bayesian comparison of the two models."""
    priors = [kind.prior for kind in kinds]
    total = sum(priors)
    top = max(likelihoods)
    weights = [
        ALIKE_PRIOR * prior / total * math.exp(ll - top)
        for prior, ll in zip(priors, likelihoods, strict=False)
    ]
    weights.append((1 - ALIKE_PRIOR) * math.exp(likelihoods[-1] - top))
    norm = sum(weights)
    return [weight / norm for weight in weights]


def table_readings(likelihoods: Sequence[float], kinds: Sequence[Kind]) -> list[float]:
    """How often a sample reads the table as each kind for every other seat (by
    ``kinds``' order), then seat by seat: the `table_posterior` of a kind with a reply
    (`own_rule`), and the rest seat by seat. Seating one kind everywhere without a
    reply to it only sharpens the read, and a sharp wrong read of a table that no kind
    describes costs more than it gains."""
    posterior = table_posterior(likelihoods, kinds)
    readings = [
        share if kind.reply is not None else 0.0
        for share, kind in zip(posterior, kinds, strict=False)
    ]
    readings.append(1.0 - sum(readings))
    return readings


def own_rule(kinds: Sequence[Kind], table: int, own: Params) -> Params:
    """The rule the own seat plays in a sample that reads the table as ``table`` (an
    index into ``kinds`` for every other seat that kind, else seat by seat): the kind's
    reply, if it has one, else ``own``."""
    if table < len(kinds):
        reply = kinds[table].reply
        if reply is not None:
            return reply
    return own


def sample_state(
    view: GeschenktView,
    me: int,
    hypotheses: Sequence[Hypothesis],
    rng: random.Random,
    seen: Sequence[Refusal] = (),
    kinds: Sequence[Kind] = (Kind("normal", 1.0, TUNED),),
    weights: Sequence[Sequence[float]] | None = None,
    readings: Sequence[float] | None = None,
    own: Params = TUNED,
) -> tuple[GeschenktState, list[Params]]:
    """A full state that agrees with the view, and the rule each seat plays in it: a
    variant by weight, the unseen cards shuffled into the stack and the removed pile,
    the other players' chips dealt one by one to other seats drawn by random shares
    (`CHIP_SPREAD`), and a kind for each other seat drawn from ``kinds`` by its
    ``weights`` (`read_holdings`; default: the priors), or, by ``readings``
    (`table_readings`), one kind for all of them, then its rule by `Kind.draw`; the own
    seat plays ``own``, or the reply to a table of one kind (`own_rule`). With refusals
    ``seen``, a draw of chips and rules is kept with the `likelihood` that it makes
    them (up to `CHIP_TRIES` draws, the last one kept)."""
    chosen = hypotheses[pick([h.weight for h in hypotheses], rng)]
    unseen = list(chosen.unseen)
    rng.shuffle(unseen)
    stack, removed = unseen[: view.cards_left], sorted(unseen[view.cards_left :])
    count = len(view.seats)
    others = [k for k in range(count) if k != me]
    priors = [kind.prior for kind in kinds]
    chips = [0] * count
    seats = [own] * count
    for _ in range(CHIP_TRIES if seen else 1):
        chips = [0] * count
        chips[me] = view.my_chips or 0
        shares = [rng.gammavariate(CHIP_SPREAD, 1.0) for _ in others]
        for seat in rng.choices(others, shares, k=chosen.others_chips):
            chips[seat] += 1
        table = pick(readings, rng) if readings is not None else len(kinds)
        seats = [own_rule(kinds, table, own)] * count
        for k in others:
            if table < len(kinds):
                seats[k] = kinds[table].draw(rng)
            else:
                seats[k] = kinds[pick(priors if weights is None else weights[k], rng)].draw(rng)
        if not seen or rng.random() < likelihood(view, chips, seen, seats):
            break
    state = GeschenktState(
        players=[seat.player for seat in view.seats],
        chips=chips,
        cards=[list(seat.cards) for seat in view.seats],
        stack=stack,
        current=view.current_card,
        pot=view.pot,
        turn=me,
        removed=removed,
        tactical=chosen.tactical,
        rng=SeededRng(),
    )
    return state, seats


@dataclass(frozen=True)
class Budget:
    """How much thinking per decision. ``actions`` (simulated actions over all
    playouts) and ``samples`` bound it deterministically, and so does the early stop:
    after ``min_samples``, once the mean difference between the choices is more than
    ``confidence`` standard errors from 0 (or every sample agrees exactly). With
    ``timed``, `bot.ai.budget.think_seconds` is a wall-clock safety net that stops
    early on a slow or busy machine (then the choice may depend on timing)."""

    actions: int = 200_000
    samples: int = 2_000
    min_samples: int = 32
    confidence: float = 3.0
    timed: bool = True


HARD_BUDGET = Budget()
"""``hard``: simulator actions (about 40 times the engine's per second)."""


class Tally:
    """The running count, sum and sum of squares of the samples' differences (taking's
    result less refusing's), to stop once the mean is clearly away from 0."""

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    def settled(self, confidence: float) -> bool:
        """Whether the mean is more than ``confidence`` standard errors from 0, or every
        sample agreed."""
        count = self.count
        if count < 2:
            return False
        mean = self.total / count
        variance = max(0.0, self.squares - count * mean * mean) / (count - 1)
        if variance <= 1e-12 * max(1.0, self.squares):
            return True
        return abs(mean) > confidence * math.sqrt(variance / count)


def _table(state: GeschenktState) -> sim.Table:
    assert state.current is not None
    return sim.Table(
        chips=list(state.chips),
        cards=[set(cards) for cards in state.cards],
        stack=list(state.stack),
        current=state.current,
        pot=state.pot,
        turn=state.turn,
    )


def compare(
    state: GeschenktState, me: int, seats: Sequence[Params], rng: random.Random
) -> tuple[float, int]:
    """Plays a sampled state out on the simulator after taking and after refusing, each
    seat by its rule (``seats``; a soft one draws from ``rng``): how much better taking
    did for the seat (`geschenkt_sim.utility`, the chance to win), and the actions
    played."""
    weights = [params.as_tuple() for params in seats]
    refused = _table(state)
    taken = refused.copy()
    taken.step(True)
    actions = taken.playout_seats(weights, rng) + 1
    refused.step(False)
    actions += refused.playout_seats(weights, rng) + 1
    return sim.utility(taken.scores(), me) - sim.utility(refused.scores(), me), actions


def make_hard(
    budget: Budget = HARD_BUDGET,
    kinds: Sequence[Kind] = KINDS,
    own: Params = TUNED,
) -> Chooser:
    """A determinized Monte Carlo chooser: samples of the hidden information and of the
    other seats' kinds (`sample_state`), each played out after both choices
    (`compare`), its own seat playing ``own``."""

    def choose(view: GeschenktView, rng: SeededRng) -> GeschenktAction:
        me = _me(view)
        if not view.my_chips:
            return TAKE
        start = time.perf_counter()
        limit = think_seconds() if budget.timed else None
        local = random.Random(rng.next_u64())
        options = hypotheses(view)
        seen = refusals(view, me)
        weights: list[list[float]] | None = None
        readings: list[float] | None = None
        if len(kinds) > 1:
            weights, likelihoods = read_holdings(view, me, kinds, own)
            readings = table_readings(likelihoods, kinds)
        tally = Tally()  # of (taking - refusing) per sample; > 0: take
        actions = 0
        while tally.count < budget.samples:
            if tally.count >= budget.min_samples and (
                actions >= budget.actions or tally.settled(budget.confidence)
            ):
                break
            if limit is not None and tally.count >= 2 and time.perf_counter() - start > limit:
                break
            state, seats = sample_state(
                view, me, options, local, seen, kinds, weights, readings, own
            )
            gain, used = compare(state, me, seats, local)
            tally.add(gain)
            actions += used
        return TAKE if tally.total >= 0 else REFUSE

    return choose


PLAYERS: Mapping[Level, Chooser] = {
    "easy": choose_easy,
    "normal": make_normal(),
    "hard": make_hard(),
}
