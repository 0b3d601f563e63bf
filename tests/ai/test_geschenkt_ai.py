"""Geschenkt computer players: legal, blind to hidden information, repeatable, sensible."""

from __future__ import annotations

import dataclasses
import importlib
import math
import random
from collections.abc import Iterator, Sequence
from types import SimpleNamespace

import pytest

from bot.ai import LEVELS, Chooser, Level, geschenkt
from bot.ai import geschenkt_sim as sim
from bot.ai.geschenkt import (
    CASUAL_REPLY,
    HARD_BUDGET,
    KINDS,
    PLAYERS,
    TUNED,
    Budget,
    Kind,
    Params,
    Refusal,
    _table,
    card_cost,
    hypotheses,
    likelihood,
    make_hard,
    normal_takes,
    own_rule,
    read_holdings,
    refusals,
    sample_state,
    table_posterior,
    table_readings,
    take_chance,
)
from bot.engines.base import SeededRng
from bot.engines.geschenkt import (
    ENGINE,
    REFUSE,
    TAKE,
    GeschenktAction,
    GeschenktOptions,
    GeschenktState,
    GeschenktView,
    parse_action,
    score,
)
from bot.games import game as registered

QUICK_HARD = make_hard(Budget(actions=400, samples=10, min_samples=4, timed=False))
"""The hard player with a small, purely deterministic budget (no wall clock)."""

CHOOSERS: dict[str, Chooser] = {"easy": PLAYERS["easy"], "normal": PLAYERS["normal"]}
CHOOSERS["hard"] = QUICK_HARD

SHIPPED: dict[str, Chooser] = {
    "easy": PLAYERS["easy"],
    "normal": PLAYERS["normal"],
    "hard": make_hard(dataclasses.replace(HARD_BUDGET, timed=False)),
}
"""The levels as shipped, hard without its wall-clock safety net: its choice on an idle
machine, however busy the machine running the tests."""


def as_action(choice: object) -> GeschenktAction:
    if isinstance(choice, str):
        return parse_action(choice)
    assert isinstance(choice, GeschenktAction)
    return choice


def positions(games: int, seed: int, every: int = 1) -> Iterator[GeschenktState]:
    """Decision points of random games: 3–7 players, standard and tactical."""
    rng = random.Random(seed)
    for game in range(games):
        count = 3 + game % 5
        options = GeschenktOptions(tactical=game % 3 == 2)
        state = ENGINE.new_game([f"p{k}" for k in range(count)], rng.randrange(2**32), options)
        step = 0
        while not ENGINE.is_over(state):
            if step % every == 0:
                yield state
            player = ENGINE.to_act(state)[0]
            state = ENGINE.apply(state, player, rng.choice(ENGINE.legal_actions(state, player)))
            step += 1


def choose(chooser: Chooser, state: GeschenktState, rng_state: int) -> GeschenktAction:
    player = ENGINE.to_act(state)[0]
    return as_action(chooser(ENGINE.view(state, player), SeededRng(state=rng_state)))


def hide_differently(state: GeschenktState, rng: random.Random) -> GeschenktState:
    """The same table as the seat to act sees it: the other players' chips moved among
    them (same total), the stack and the removed cards dealt again."""
    data = state.model_dump()
    me = state.turn
    others = [k for k in range(len(state.players)) if k != me]
    chips = data["chips"]
    pool = sum(chips[k] for k in others)
    for k in others:
        chips[k] = 0
    for _ in range(pool):
        chips[rng.choice(others)] += 1
    hidden = state.stack + state.removed
    rng.shuffle(hidden)
    data["stack"] = hidden[: len(state.stack)]
    data["removed"] = sorted(hidden[len(state.stack) :])
    data["rng"]["state"] = rng.randrange(2**64)
    return GeschenktState.model_validate(data)


def test_every_level_is_registered() -> None:
    players = registered("geschenkt").players
    assert players is PLAYERS
    assert set(PLAYERS) == set(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_chooses_a_legal_action(level: Level) -> None:
    chooser = CHOOSERS[level]
    every = 1 if level != "hard" else 5
    checked = 0
    for k, state in enumerate(positions(games=25 if level != "hard" else 10, seed=1, every=every)):
        player = ENGINE.to_act(state)[0]
        action = choose(chooser, state, k)
        assert action in ENGINE.legal_actions(state, player)
        checked += 1
    assert checked > (60 if level == "hard" else 500)


def test_the_real_hard_player_chooses_legal_actions() -> None:
    for k, state in enumerate(positions(games=2, seed=2, every=12)):
        player = ENGINE.to_act(state)[0]
        assert choose(PLAYERS["hard"], state, k) in ENGINE.legal_actions(state, player)


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_information_changes_nothing(level: Level) -> None:
    """Two states that differ only in what the seat can't see give the same view, so
    the same choice for the same generator state."""
    rng = random.Random(3)
    chooser = CHOOSERS[level]
    every = 2 if level != "hard" else 9
    for k, state in enumerate(positions(games=12, seed=3, every=every)):
        other = hide_differently(state, rng)
        player = ENGINE.to_act(state)[0]
        assert other != state
        assert ENGINE.view(other, player) == ENGINE.view(state, player)
        assert choose(chooser, other, k) == choose(chooser, state, k)


@pytest.mark.parametrize("level", LEVELS)
def test_same_generator_state_same_choice(level: Level) -> None:
    chooser = CHOOSERS[level]
    every = 1 if level != "hard" else 13
    for state in positions(games=8, seed=4, every=every):
        for rng_state in (0, 12345, 2**63 + 7):
            first = choose(chooser, state, rng_state)
            assert choose(chooser, state, rng_state) == first


def test_the_chooser_reads_the_view_only() -> None:
    """Handed a view object whose hidden fields don't exist, every level still plays."""
    state = ENGINE.new_game(["a", "b", "c"], 5)
    view = ENGINE.view(state, "a")
    assert view.removed is None and all(seat.chips is None for seat in view.seats)
    for chooser in CHOOSERS.values():
        assert as_action(chooser(view, SeededRng(state=1))) in (TAKE, REFUSE)


def table(
    mine: list[int],
    card: int,
    pot: int,
    my_chips: int,
    others: tuple[list[int], list[int]] = ([], []),
    stack: int = 15,
) -> GeschenktState:
    """A 3-player table with seat 0 to act."""
    seen = {*mine, card, *others[0], *others[1]}
    unseen = [c for c in range(3, 36) if c not in seen]
    random.Random(card * 100 + pot).shuffle(unseen)
    total_chips = 33 - my_chips - pot
    return GeschenktState(
        players=["me", "b", "c"],
        chips=[my_chips, total_chips // 2, total_chips - total_chips // 2],
        cards=[sorted(mine), sorted(others[0]), sorted(others[1])],
        stack=unseen[:stack],
        current=card,
        pot=pot,
        removed=sorted(unseen[stack:]),
        rng=SeededRng(state=9),
    )


@pytest.mark.parametrize("level", LEVELS)
def test_no_chips_means_take(level: Level) -> None:
    state = table(mine=[20], card=33, pot=0, my_chips=0)
    assert choose(SHIPPED[level], state, 1) == TAKE


@pytest.mark.parametrize("level", LEVELS)
def test_a_card_on_your_run_with_a_fat_pot_is_taken(level: Level) -> None:
    state = table(mine=[27, 28], card=29, pot=9, my_chips=4, others=([30], [5]))
    for rng_state in range(5):
        assert choose(SHIPPED[level], state, rng_state) == TAKE


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_high_card_with_nothing_on_it_is_refused(level: Level) -> None:
    state = table(mine=[6], card=34, pot=0, my_chips=11, others=([12], [18]), stack=20)
    assert choose(SHIPPED[level], state, 1) == REFUSE


def test_card_cost_is_the_engine_score_difference() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        mine = sorted(rng.sample(range(3, 36), rng.randrange(0, 12)))
        card = rng.choice([c for c in range(3, 36) if c not in mine])
        assert card_cost(card, set(mine)) == score([*mine, card], 0) - score(mine, 0)


def test_normal_never_refuses_without_chips() -> None:
    for card in range(3, 36):
        assert normal_takes(TUNED, card, 0, set(), 0, 20, [set(), set()])


def test_sampled_states_agree_with_the_view() -> None:
    """Every deal the hard player imagines looks, from its seat, exactly like the view,
    holds every card once and all the chips of the variant it picked."""
    rng = random.Random(6)
    for state in positions(games=30, seed=6, every=3):
        player = ENGINE.to_act(state)[0]
        view = ENGINE.view(state, player)
        assert isinstance(view, GeschenktView)
        options = hypotheses(view)
        assert options and all(h.weight > 0 for h in options)
        assert any(h.tactical == state.tactical for h in options)
        sample, seats = sample_state(view, state.turn, options, rng, kinds=KINDS)
        assert ENGINE.view(sample, player) == view
        assert len(seats) == len(state.players)
        cards = [c for hand in sample.cards for c in hand] + sample.stack + sample.removed
        assert sample.current is not None
        cards.append(sample.current)
        pool = 30 if sample.tactical else 33
        assert sorted(cards) == sorted(set(cards)) and len(cards) == pool
        count = len(state.players)
        per_seat = 7 if count == 7 else 9 if count == 6 else 10 if sample.tactical else 11
        assert sum(sample.chips) + sample.pot == per_seat * count
        assert min(sample.chips) >= 0


def test_a_ten_twenty_or_thirty_rules_out_the_tactical_variant() -> None:
    state = table(mine=[20], card=31, pot=0, my_chips=5)
    view = ENGINE.view(state, "me")
    assert [h.tactical for h in hypotheses(view)] == [False]
    fresh = ENGINE.view(table(mine=[], card=31, pot=0, my_chips=11, stack=22), "me")
    assert sorted(h.tactical for h in hypotheses(fresh)) == [False, True]


# --- The hard player's simulator agrees with the engine --------------------------------


def engine_playout(state: GeschenktState, params: Params) -> GeschenktState:
    """Everyone plays the normal rule ``params`` to the end, through the engine."""
    while state.current is not None:
        seat = state.turn
        takes = normal_takes(
            params,
            state.current,
            state.pot,
            state.cards[seat],
            state.chips[seat],
            len(state.stack),
            [hand for k, hand in enumerate(state.cards) if k != seat],
        )
        state = ENGINE.apply(state, state.players[seat], TAKE if takes else REFUSE)
    return state


def test_simulator_plays_out_as_the_engine() -> None:
    """From many positions of random games, the simulator's ``normal`` playout ends
    with the engine's playout's scores; a random game stepped on both agrees too."""
    checked = 0
    for state in positions(20, seed=9, every=7):
        ended = engine_playout(state, TUNED)
        table = _table(state)
        table.playout(
            TUNED.chip_value,
            TUNED.late_chip_value,
            TUNED.threshold,
            TUNED.low_chips,
            TUNED.near_bonus,
            TUNED.greed,
        )
        assert table.current == -1
        expected = [
            score(cards, chips) for cards, chips in zip(ended.cards, ended.chips, strict=True)
        ]
        assert table.scores() == expected
        checked += 1
    assert checked > 50
    rng = random.Random(4)
    for game in range(30):
        state = ENGINE.new_game([f"p{k}" for k in range(3 + game % 5)], game)
        table = _table(state)
        while not ENGINE.is_over(state):
            take = state.chips[state.turn] == 0 or rng.random() < 0.4
            state = ENGINE.apply(state, state.players[state.turn], TAKE if take else REFUSE)
            table.step(take)
            assert table.chips == state.chips
            assert table.turn == state.turn
            assert table.current == (-1 if state.current is None else state.current)
        assert table.scores() == [
            score(cards, chips) for cards, chips in zip(state.cards, state.chips, strict=True)
        ]


def refused_consistently(
    view: GeschenktView, chips: Sequence[int], seen: Sequence[Refusal], params: Params
) -> bool:
    """Whether a ``normal`` player (``params``) with these chips would have refused each
    time: the refusals are as likely as can be."""
    return likelihood(view, chips, seen, [params] * len(view.seats)) == 1.0


def test_the_true_chips_fit_the_refusals_of_normal_players() -> None:
    """Among normal players, the chips they really hold always explain the refusals the
    pot shows; and the refusals are read off the pot as the engine made them."""
    normal = PLAYERS["normal"]
    checked = 0
    for game in range(40):
        state = ENGINE.new_game([f"p{k}" for k in range(3 + game % 3)], 70 + game)
        while not ENGINE.is_over(state):
            player = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, player)
            seen = refusals(view, state.turn)
            assert len(seen) <= view.pot
            assert all(r.seat != state.turn for r in seen)
            assert refused_consistently(view, state.chips, seen, TUNED)
            checked += bool(seen)
            state = ENGINE.apply(state, player, as_action(normal(view, SeededRng(state=1))))
    assert checked > 300


def test_sampled_chips_fit_the_refusals_mostly() -> None:
    """The hard player's samples mostly agree with what the refusals imply."""
    rng = random.Random(8)
    normal = PLAYERS["normal"]
    fits = total = 0
    for game in range(10):
        state = ENGINE.new_game(["a", "b", "c"], 90 + game)
        while not ENGINE.is_over(state):
            player = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, player)
            seen = refusals(view, state.turn)
            if seen and view.my_chips:
                options = hypotheses(view)

                def fitting(
                    chips: Sequence[int], v: GeschenktView = view, r: list[Refusal] = seen
                ) -> bool:
                    return refused_consistently(v, chips, r, TUNED)

                sample, _ = sample_state(view, state.turn, options, rng, seen)
                fits += fitting(sample.chips)
                total += 1
            state = ENGINE.apply(state, player, as_action(normal(view, SeededRng(state=1))))
    assert total > 50 and fits > 0.8 * total


# --- The kinds of player hard supposes the others to be -------------------------------

CASUAL = next(kind.params for kind in KINDS if kind.name == "casual")
ALWAYS = Params(0.0, 0.0, 1000.0, 0.0, 0.0, 0.0)
"""A rule that takes every card."""


@pytest.mark.parametrize(
    ("card", "pot", "mine"),
    [(25, 0, [9]), (25, 6, [9]), (14, 2, [30]), (14, 2, [13]), (33, 1, [34]), (8, 0, [])],
)
def test_a_soft_seat_takes_on_the_simulator_as_often_as_its_take_chance(
    card: int, pot: int, mine: list[int]
) -> None:
    """The simulator's soft rule (seat 0, the casual kind) takes the last card as often
    as `take_chance` says, within five standard errors over 3,000 tries; seat 1 takes
    whatever seat 0 leaves."""
    chance = take_chance(CASUAL, card, pot, set(mine), 4, 0, [set()])
    rng = random.Random(card * 100 + pot)
    tries = 3_000
    taken = 0
    for _ in range(tries):
        table = sim.Table([4, 4], [set(mine), set()], [], card, pot, 0)
        table.playout_seats([dataclasses.astuple(CASUAL), dataclasses.astuple(ALWAYS)], rng)
        taken += card in table.cards[0]
    spread = 5 * max(math.sqrt(chance * (1 - chance) / tries), 1 / tries)
    assert abs(taken / tries - chance) <= spread


def test_a_deterministic_rule_plays_the_same_on_the_simulator_with_or_without_a_generator() -> None:
    for state in positions(6, seed=12, every=9):
        seats = [dataclasses.astuple(TUNED)] * len(state.players)
        plain, drawn = _table(state), _table(state)
        plain.playout_seats(seats)
        drawn.playout_seats(seats, random.Random(1))
        assert plain.scores() == drawn.scores()


def test_refusals_weigh_the_kinds_a_seat_is_sampled_as() -> None:
    """Seat 1 refused the 24 with 4 and 5 chips on it, seat 2 with 5: a pot-taker (it
    takes any card once 4 chips lie on it) would not have, so few samples make either
    seat one; with no refusal to go by, the pot-takers come at their prior."""
    pot_taker = next(k for k, kind in enumerate(KINDS) if kind.name == "pot-taker")
    share = KINDS[pot_taker].prior / sum(kind.prior for kind in KINDS)
    taker = KINDS[pot_taker].params
    assert all(
        kind.params.chip_value != taker.chip_value for kind in KINDS if kind.name != "pot-taker"
    )

    def pot_takers(pot: int) -> float:
        state = table(mine=[5], card=24, pot=pot, my_chips=5, others=([12], [30]))
        view = ENGINE.view(state, "me")
        seen = refusals(view, 0)
        options = hypotheses(view)
        rng = random.Random(11)
        found = 0
        for _ in range(400):
            _, seats = sample_state(view, 0, options, rng, seen, KINDS)
            found += sum(seat.chip_value == taker.chip_value for seat in seats[1:])
        return found / 800

    assert pot_takers(6) < share / 3
    assert abs(pot_takers(0) - share) < 0.06


def test_who_took_which_card_weighs_the_kinds() -> None:
    """A seat holding the high cards taken early and cheap is rather a pot-taker than a
    player who waits for a pot in proportion; the own seat keeps the priors."""
    kinds = (
        Kind("pot-taker", 1.0, next(k.params for k in KINDS if k.name == "pot-taker")),
        Kind("proportional", 1.0, next(k.params for k in KINDS if k.name == "proportional")),
    )
    state = table(
        mine=[5, 6], card=18, pot=0, my_chips=11, others=([24, 28, 31, 34], [9]), stack=14
    )
    weights, _ = read_holdings(ENGINE.view(state, "me"), 0, kinds, TUNED)
    assert weights[0] == [1.0, 1.0]
    assert weights[1][0] > 3 * weights[1][1]


def test_a_table_holding_what_one_kind_takes_is_likeliest_that_kind() -> None:
    """Both other seats hold high cards taken early and cheap: a table of pot-takers
    explains that better than a table of players who wait for a pot in proportion."""
    kinds = (
        Kind("pot-taker", 1.0, next(k.params for k in KINDS if k.name == "pot-taker")),
        Kind("proportional", 1.0, next(k.params for k in KINDS if k.name == "proportional")),
    )
    state = table(
        mine=[5, 6],
        card=18,
        pot=0,
        my_chips=11,
        others=([24, 28, 31, 34], [26, 29, 33, 35]),
        stack=12,
    )
    view = ENGINE.view(state, "me")
    _, likelihoods = read_holdings(view, 0, kinds, TUNED)
    assert len(likelihoods) == len(kinds) + 1
    assert likelihoods[0] > likelihoods[1] + 3


def test_the_table_posterior_weighs_the_readings_by_prior_and_likelihood() -> None:
    """`table_posterior`: the prior on a table of one kind, shared by the kinds'
    priors, times each reading's likelihood. A sample reads the table as one kind only
    for a kind with a reply; the other kinds' shares go to the seat-by-seat reading
    (`table_readings`)."""
    kinds = (Kind("a", 3.0, TUNED, reply=CASUAL_REPLY), Kind("b", 1.0, CASUAL_REPLY))
    alike = geschenkt.ALIKE_PRIOR
    even = table_posterior([0.0, 0.0, 0.0], kinds)
    assert even == pytest.approx([alike * 0.75, alike * 0.25, 1 - alike])
    clear = table_posterior([0.0, -9.0, -3.0], kinds)
    assert clear[0] > 0.9
    assert sum(clear) == pytest.approx(1.0)
    assert table_readings([0.0, 0.0, 0.0], kinds) == pytest.approx(
        [alike * 0.75, 0.0, 1 - alike * 0.75]
    )
    assert table_readings([0.0, -9.0, -3.0], kinds) == pytest.approx([clear[0], 0.0, 1 - clear[0]])


def test_the_own_seat_plays_the_reply_to_a_table_read_as_one_kind() -> None:
    """`own_rule`: the kind's reply when the table is read as that kind and it has one;
    the own rule at a table read seat by seat or of a kind without a reply."""
    casual = next(k for k, kind in enumerate(KINDS) if kind.name == "casual")
    normal = next(k for k, kind in enumerate(KINDS) if kind.name == "normal")
    assert KINDS[casual].reply == CASUAL_REPLY
    assert KINDS[normal].reply is None
    assert own_rule(KINDS, casual, TUNED) == CASUAL_REPLY
    assert own_rule(KINDS, len(KINDS), TUNED) == TUNED
    assert own_rule(KINDS, normal, TUNED) == TUNED


def test_a_table_read_as_one_kind_seats_that_kind_everywhere() -> None:
    """With the table read as ``casual`` every sample makes both other seats
    ``casual`` and the own seat plays the reply, whatever the per-seat weights say;
    read seat by seat, the weights rule."""
    casual = next(k for k, kind in enumerate(KINDS) if kind.name == "casual")
    state = table(mine=[5], card=24, pot=0, my_chips=9, others=([12], [30]))
    view = ENGINE.view(state, "me")
    options = hypotheses(view)
    weights = [[0.0 if k == casual else 1.0 for k in range(len(KINDS))]] * 3
    as_casual = [1.0 if k == casual else 0.0 for k in range(len(KINDS) + 1)]
    by_seat = [0.0] * len(KINDS) + [1.0]
    rng = random.Random(3)
    for _ in range(50):
        _, seats = sample_state(view, 0, options, rng, (), KINDS, weights, as_casual)
        assert seats == [CASUAL_REPLY, CASUAL, CASUAL]
        _, seats = sample_state(view, 0, options, rng, (), KINDS, weights, by_seat)
        assert seats[0] == TUNED
        assert CASUAL not in seats[1:]


def test_the_casual_kind_is_the_no_thanks_heuristic_players_rule() -> None:
    """`KINDS`' ``casual`` takes exactly as often as the ``HeuristicPlayer`` of the
    ``no-thanks`` package (test extra) says it would, on random tables."""
    players = importlib.import_module("no_thanks.players")
    seat = players.HeuristicPlayer("casual")
    rng = random.Random(14)
    for _ in range(3_000):
        mine = set(rng.sample(range(3, 36), rng.randrange(0, 9)))
        card = rng.choice([c for c in range(3, 36) if c not in mine])
        pot, chips = rng.randrange(0, 25), rng.randrange(1, 25)
        seat.game = SimpleNamespace(draw_pile=[card], tokens_on_card=pot)
        seat.tokens, seat.cards = chips, mine
        chance = take_chance(CASUAL, card, pot, mine, chips, rng.randrange(0, 24), [set()])
        assert chance == pytest.approx(float(seat.take_proba()))
