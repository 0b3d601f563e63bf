"""Escalation computer players: legal everywhere, reproducible, sensible where the
decision is obvious, and blind to cards they can't see."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import partial
from itertools import combinations
from typing import NamedTuple

import pytest

from bot.ai import LEVELS, Chooser, Level
from bot.ai import escalation_sim as sim
from bot.ai.escalation import (
    COUNTER,
    KIND_SPREAD,
    OTHER_KINDS,
    PLAYERS,
    Seen,
    _draw_hands,
    _draw_weighted,
    hard_player,
    last_plays,
    plays_fit,
    sample_deal,
    unseen_kinds,
)
from bot.ai.random_player import choose_uniform
from bot.engines.base import SeededRng
from bot.engines.cards import Card, standard_deck
from bot.engines.escalation import (
    ENGINE,
    TAKE,
    EscalationAction,
    EscalationState,
    EscalationView,
    PlayRecord,
    is_pass_through,
    parse_action,
    play,
)
from tests.ai.levels import LEVELS_HARD_SLOW

TRIO = ["ai:0", "ai:1", "ai:2"]
QUICK_HARD = hard_player(work=1, timed=False)
"""``hard`` with the fewest samples: the same code paths, fast enough for many positions."""
STEADY_HARD = hard_player(timed=False)
"""``hard`` without its time cap, so its sample count never depends on the machine."""


def steady(level: Level) -> Chooser:
    """The level's player; for ``hard``, `STEADY_HARD`: a choice asserted of it must not
    depend on how many samples a busy machine lets it draw within its second."""
    return STEADY_HARD if level == "hard" else PLAYERS[level]


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def as_action(answer: object) -> EscalationAction:
    if isinstance(answer, str):
        return parse_action(answer)
    assert isinstance(answer, EscalationAction)
    return answer


def positions(games: int, seed: int = 0) -> Iterator[EscalationState]:
    """Every position of a few three-player games between uniformly random players."""
    rng = SeededRng.from_seed(seed)
    for game in range(games):
        state = ENGINE.new_game(TRIO, seed * 100 + game)
        while not ENGINE.is_over(state):
            yield state
            (player,) = ENGINE.to_act(state)
            state = ENGINE.apply(
                state, player, as_action(choose_uniform(ENGINE, state, player, rng))
            )


def choose(chooser: Chooser, state: EscalationState, seed: int = 7) -> EscalationAction:
    (player,) = ENGINE.to_act(state)
    return as_action(chooser(ENGINE.view(state, player), SeededRng.from_seed(seed)))


def assert_legal(state: EscalationState, action: EscalationAction) -> None:
    (player,) = ENGINE.to_act(state)
    assert action in ENGINE.legal_actions(state, player), (str(action), state.hands[state.turn])
    ENGINE.apply(state, player, action)


def table(
    hands: list[str],
    *,
    pile: Sequence[tuple[int, str]] = (),
    turn: int = 1,
    stock: str = "",
    penalties: list[int] | None = None,
) -> EscalationState:
    """A position: each seat's hand, the round's plays so far (seat, cards) and the stock.
    Penalty stacks get filler cards of the given sizes (``hard`` counts them as taken)."""
    records: list[PlayRecord] = []
    for seat, text in pile:
        played = cards(text)
        value = records[-1].value if records and played[0].rank in (2, 3) else 0
        if played[0].rank not in (2, 3):
            value = sum(6 if c.rank <= 6 else c.rank for c in played)
        records.append(PlayRecord(seat=seat, cards=played, value=value))
    used = {c for text in hands for c in cards(text)} | {c for r in records for c in r.cards}
    used |= set(cards(stock))
    spare = cards(" ".join(f"{rank}{suit}" for suit in "CDHS" for rank in "23456789"))
    filler = [card for card in spare if card not in used]
    sizes = penalties or [0] * len(hands)
    stacks = []
    for size in sizes:
        stacks.append(filler[:size])
        filler = filler[size:]
    return EscalationState(
        players=TRIO[: len(hands)],
        hands=[sorted(cards(text)) for text in hands],
        penalties=stacks,
        stock=cards(stock),
        pile=records,
        turn=turn,
        totals=[0] * len(hands),
        rng=SeededRng.from_seed(1),
    )


# --- Legal everywhere -------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_are_legal_in_every_position_of_random_games(level: Level) -> None:
    count = 0
    for state in positions(12):
        assert_legal(state, choose(PLAYERS[level], state))
        count += 1
    assert count > 300


@pytest.mark.slow
def test_hard_is_legal_in_every_position_of_random_games() -> None:
    endgame = 0
    for state in positions(8, seed=3):
        assert_legal(state, choose(QUICK_HARD, state))
        endgame += len(state.stock) <= 12
    assert endgame > 50


def test_hard_as_shipped_is_legal_in_endgame_positions() -> None:
    tried = 0
    for state in positions(6, seed=5):
        if len(state.stock) <= 6 and tried < 12:
            assert_legal(state, choose(PLAYERS["hard"], state))
            tried += 1
    assert tried == 12


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_level_plays_whole_games_at_other_table_sizes(players: int) -> None:
    seats = [f"ai:{i}" for i in range(players)]
    for level in LEVELS:
        chooser = QUICK_HARD if level == "hard" else PLAYERS[level]
        state = ENGINE.new_game(seats, players)
        rng = SeededRng.from_seed(players)
        while not ENGINE.is_over(state):
            (player,) = ENGINE.to_act(state)
            action = as_action(chooser(ENGINE.view(state, player), rng))
            assert action in ENGINE.legal_actions(state, player)
            state = ENGINE.apply(state, player, action)


# --- Reproducible -----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS_HARD_SLOW)
def test_the_same_view_and_rng_state_give_the_same_answer(level: Level) -> None:
    chooser = STEADY_HARD if level == "hard" else PLAYERS[level]
    checked = 0
    for i, state in enumerate(positions(3, seed=11)):
        if level == "hard" and (len(state.stock) > 12 or i % 3):
            continue
        (player,) = ENGINE.to_act(state)
        view = ENGINE.view(state, player)
        first, second = SeededRng.from_seed(i), SeededRng.from_seed(i)
        assert chooser(view, first) == chooser(view, second)
        assert first == second
        checked += 1
    assert checked > 5


# --- Obvious decisions ------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_beats_with_the_cheapest_card(level: Level) -> None:
    state = table(
        ["7C 8C 9C 10C JC QC", "9D KS AS JD QD 2C", "7D 8D 9H 10H JH QH"],
        pile=[(0, "8H")],
        stock="4C 5C 6C 4D 5D 6D 4H 5H 6H 4S 5S 6S 7S 8S 9S 10S JS QS KC KD KH AC AD AH",
    )
    assert choose(steady(level), state) == play("9D")


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_keeps_the_2_when_a_card_beats(level: Level) -> None:
    state = table(["7C 10C KC", "2C 9D", "7D 10D KD"], pile=[(0, "8H")], penalties=[9, 9, 9])
    assert choose(steady(level), state) == play("9D")


@pytest.mark.parametrize("level", LEVELS)
def test_plays_out_its_last_cards_when_the_stock_is_gone(level: Level) -> None:
    state = table(["7C 8C", "9D 9S", "7D 8D"], pile=[(0, "10H")], penalties=[5, 5, 5])
    assert choose(steady(level), state) == play("9D", "9S")
    state = table(["7C 8C", "3S", "7D 8D"], pile=[(0, "KH"), (2, "AD")])
    assert choose(steady(level), state) == play("3S")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_a_one_card_round_rather_than_break_a_pair_of_aces(level: Level) -> None:
    state = table(
        ["7C 8C 9C 10C JC QC", "AS AD 7D 8D 9D 10D", "7H 8H 9H 10H JH QH"],
        pile=[(0, "KH")],
        stock="4C 5C 6C 4D 5D 6D 4H 5H 6H 4S 5S 6S 7S 8S 9S 10S JS QS KC KD AC AH",
    )
    assert choose(steady(level), state) == TAKE


def test_easy_beats_whenever_it_can() -> None:
    state = table(
        ["7C 8C 9C 10C JC QC", "AS AD 7D 8D 9D 10D", "7H 8H 9H 10H JH QH"],
        pile=[(0, "KH")],
        stock="4C 5C 6C 4D 5D 6D 4H 5H 6H 4S 5S 6S 7S 8S 9S 10S JS QS KC KD AC AH",
    )
    assert choose(PLAYERS["easy"], state).kind == "play"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_leads_low_while_the_stock_lasts(level: Level) -> None:
    # hard decides its lead by search: a lone 4, 5 or 6 is also the start of a set of
    # the commonest value, and its playouts often find another lone card cheaper.
    state = table(
        ["7C 8C 9C 10C JC QC", "4D KS AS JD QD 10S", "7H 8H 9H 10H JH QH"],
        turn=1,
        stock="4C 5C 6C 5D 6D 4H 5H 6H 4S 5S 6S 7S 8S 9S KC KD KH AC AD AH",
    )
    assert choose(steady(level), state) == play("4D")


def test_normal_sheds_a_set_once_the_stock_is_out() -> None:
    # With cards still to draw it spends its cheapest lone card and keeps building the
    # set; with the stock gone, putting down three cards at once is worth more.
    hands = ["7C 8C 9C 10C JC QC", "4D 5S 6D KS QD AS", "7H 8H 9H 10H JH QH"]
    drawing = table(hands, pile=[(0, "7S")], stock="4C 5C 6C 4H 5H 6H 7D 8D 9D")
    assert choose(PLAYERS["normal"], drawing) == play("QD")
    out = table(hands, pile=[(0, "7S")], penalties=[3, 3, 3])
    assert choose(PLAYERS["normal"], out) == play("4D", "5S", "6D")


# --- Hidden cards stay hidden -----------------------------------------------------------


def shuffle_hidden(state: EscalationState, seat: int, seed: int) -> EscalationState:
    """The same public position with the cards the seat can't see dealt afresh: the
    other hands and the stock keep their sizes. The penalty stacks stay, as their
    cards were played face up (`EscalationView.taken`)."""
    others = [i for i in range(len(state.players)) if i != seat]
    pool = [c for i in others for c in state.hands[i]] + list(state.stock)
    SeededRng.from_seed(seed).shuffle(pool)
    hands = list(state.hands)
    for i in others:
        hands[i] = sorted(pool[: len(hands[i])])
        pool = pool[len(hands[i]) :]
    return state.model_copy(update={"hands": hands, "stock": pool})


@pytest.mark.parametrize("level", LEVELS_HARD_SLOW)
def test_answers_ignore_the_cards_the_seat_cannot_see(level: Level) -> None:
    chooser = STEADY_HARD if level == "hard" else PLAYERS[level]
    checked = changed = 0
    for i, state in enumerate(positions(3, seed=21)):
        if level == "hard" and (len(state.stock) > 12 or i % 4):
            continue
        (player,) = ENGINE.to_act(state)
        other = shuffle_hidden(state, state.turn, i)
        changed += other.hands != state.hands
        view = ENGINE.view(state, player)
        assert ENGINE.view(other, player) == view
        here = chooser(view, SeededRng.from_seed(i))
        there = chooser(ENGINE.view(other, player), SeededRng.from_seed(i))
        assert here == there
        assert_legal(other, as_action(there))
        checked += 1
    assert checked > 5
    assert changed > checked // 2


# --- The hard player's simulator agrees with the engine --------------------------------


def _deal_of(state: EscalationState) -> sim.Deal:
    in_force = state.value_in_force
    return sim.Deal(
        hands=[sim.counts(hand) for hand in state.hands],
        penalties=[len(stack) for stack in state.penalties],
        stock=[sim.kind_of(card) for card in state.stock],
        turn=state.turn,
        direction=state.direction,
        in_force=-1 if in_force is None else in_force,
        round_cards=sum(len(entry.cards) for entry in state.pile),
    )


def _move_of(action: EscalationAction) -> int:
    return sim.TAKE_MOVE if action.kind == "take" else sim.play_move(action.cards)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_simulator_agrees_with_the_engine_on_random_games(players: int) -> None:
    """Every legal move list (as distinct moves) and every deal's result, over many
    random games, step by step from the engine's state."""
    ids = [f"ai:{k}" for k in range(players)]
    rng = SeededRng.from_seed(players)
    for game in range(40):
        state = ENGINE.new_game(ids, 1000 * players + game)
        deal = _deal_of(state)
        while not ENGINE.is_over(state):
            (player,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, player)
            assert sorted(deal.moves()) == sorted({_move_of(a) for a in legal})
            action = legal[rng.below(len(legal))]
            deal.step(_move_of(action))
            state = ENGINE.apply(state, player, action)
            if ENGINE.is_over(state):
                assert deal.winner == state.results[0].winner
                assert deal.chips() == state.results[0].chips
            else:
                assert deal.winner < 0
                assert deal.turn == state.turn
                assert deal.sizes == [len(hand) for hand in state.hands]


def test_an_erratic_seat_can_make_every_legal_move_and_no_other() -> None:
    """`sim.random_move` draws from exactly the engine's legal moves (as distinct
    moves), each as likely, over random games."""
    ids = [f"ai:{k}" for k in range(3)]
    rng = SeededRng.from_seed(3)
    grid = [(k + 0.5) / 64 for k in range(64)]
    for game in range(20):
        state = ENGINE.new_game(ids, 700 + game)
        while not ENGINE.is_over(state):
            (player,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, player)
            in_force = -1 if state.value_in_force is None else state.value_in_force
            hand = state.hands[state.turn]
            drawn = Counter(
                sim.random_move(sim.counts(hand), len(hand), in_force, partial(float, point))
                for point in grid
            )
            assert set(drawn) == {_move_of(action) for action in legal}
            even = len(grid) / len(drawn)
            assert all(math.floor(even) <= n <= math.ceil(even) for n in drawn.values())
            state = ENGINE.apply(state, player, legal[rng.below(len(legal))])


def test_a_playout_with_an_erratic_seat_needs_its_draws() -> None:
    """An erratic seat's moves come from the draw it is given: none given is an error,
    and different draws play the deal out differently."""
    deal = _deal_of(ENGINE.new_game(["ai:0", "ai:1", "ai:2"], 5))
    seats = [sim.NORMAL_WEIGHTS, sim.ERRATIC, sim.NORMAL_WEIGHTS]
    with pytest.raises(ValueError, match="draws its moves needs a draw"):
        deal.copy().playout(seats=seats)
    endings = set()
    for seed in range(20):
        played = deal.copy()
        played.playout(seats=seats, draw=random.Random(seed).random)
        endings.add((played.winner, tuple(played.chips())))
    assert len(endings) > 3


def test_simulator_rollout_policy_is_normal() -> None:
    """`escalation_sim.decide` picks the move ``normal`` picks (as a distinct move)."""
    checked = 0
    for state in positions(6, seed=3):
        chosen = choose(PLAYERS["normal"], state)
        deal = _deal_of(state)
        hand = deal.hands[deal.turn]
        move = sim.decide(
            hand, deal.sizes[deal.turn], deal.in_force, deal.stock_left, deal.round_cards
        )
        if move in (2 * 16 + 1, 3 * 16 + 1):
            assert chosen.kind == "play" and is_pass_through(chosen.cards[0])
        else:
            assert move == _move_of(chosen)
        checked += 1
    assert checked > 100


class SeenPlay(NamedTuple):
    """Another seat's last play of the round, as `last_plays` reads it from ``view`` (the
    seat to act's), and whether the stock was already out when that play was made."""

    state: EscalationState
    view: EscalationView
    seat: int
    seen: Seen
    stock_out_then: bool


def plays_among_normal_players(games: int, first_seed: int) -> Iterator[SeenPlay]:
    """Each play `last_plays` reports, before every move of games of three normal
    players (seeds from ``first_seed``)."""
    for game in range(games):
        state = ENGINE.new_game(TRIO, first_seed + game)
        stock_at_play = [0] * len(TRIO)
        while not ENGINE.is_over(state):
            (player,) = ENGINE.to_act(state)
            seat = TRIO.index(player)
            view = ENGINE.view(state, player)
            for seen in last_plays(view, seat):
                yield SeenPlay(state, view, seat, seen, stock_at_play[seen.seat] == 0)
            action = as_action(PLAYERS["normal"](view, SeededRng()))
            if action.kind == "play":
                stock_at_play[seat] = len(state.stock)
            state = ENGINE.apply(state, player, action)


def test_the_true_hands_fit_the_plays_of_normal_players() -> None:
    """Among normal players, each other seat's real hand, less some of the cards it
    drew since its last play of the round, plus what it played, makes ``normal`` play
    just that: the inference `last_plays`/`plays_fit` reads the round as it happened.
    Once the stock is out, the whole hand plus what it played does (when the stock was
    out at that play too: the inference can't tell, and such plays are what it
    assumes)."""
    checked = endgame = 0
    for seen_play in plays_among_normal_players(12, 300):
        seen = seen_play.seen
        assert seen.seat != seen_play.seat
        hand = [sim.kind_of(card) for card in seen_play.state.hands[seen.seat]]
        if seen_play.view.stock_size == 0:
            if not seen_play.stock_out_then:
                continue
            dealt: list[list[int]] = [[] for _ in TRIO]
            dealt[seen.seat] = hand
            assert plays_fit(dealt, [seen])
            endgame += 1
            continue
        kept = sim.HAND_SIZE - len(seen.played)
        fits = False
        for subset in combinations(hand, kept):
            dealt = [[] for _ in TRIO]
            dealt[seen.seat] = [*subset, *([0] * (sim.HAND_SIZE - kept))]
            fits = fits or plays_fit(dealt, [seen])
        assert fits
        checked += 1
    assert checked > 300
    assert endgame > 30


def test_a_play_fits_a_hand_as_the_kind_of_player_drawn_for_its_seat_would_make_it() -> None:
    """The inference reads each seat's plays by the weights of the kind drawn for that
    seat, not another's: the end-game hand a normal player made a play from fits with
    normal's weights at that seat, whatever the other seats' kinds, and for some plays
    not with another kind's weights there. An erratic seat could have made any play,
    even one no player of normal's kind would have made from that hand."""
    fits_normal = unlike_some_kind = unlike_normal = 0
    normal = sim.NORMAL_WEIGHTS
    for seen_play in plays_among_normal_players(10, 500):
        seen = seen_play.seen
        if seen_play.view.stock_size != 0 or not seen_play.stock_out_then:
            continue
        dealt: list[list[int]] = [[] for _ in TRIO]
        dealt[seen.seat] = [sim.kind_of(card) for card in seen_play.state.hands[seen.seat]]
        fits = plays_fit(dealt, [seen])
        fits_normal += fits
        erratic_there: list[sim.SeatKind] = [normal] * len(TRIO)
        erratic_there[seen.seat] = sim.ERRATIC
        taken_instead = replace(seen, move=sim.TAKE_MOVE)
        unlike_normal += not plays_fit(dealt, [taken_instead])
        assert plays_fit(dealt, [taken_instead], erratic_there)
        for kind in [kind for kind in OTHER_KINDS[1:] if kind is not sim.ERRATIC]:
            normal_there: list[sim.SeatKind] = [kind] * len(TRIO)
            normal_there[seen.seat] = normal
            assert plays_fit(dealt, [seen], normal_there) == fits
            only_there: list[sim.SeatKind] = [normal] * len(TRIO)
            only_there[seen.seat] = kind
            unlike_some_kind += fits and not plays_fit(dealt, [seen], only_there)
    assert fits_normal > 40
    assert unlike_some_kind > 5
    assert unlike_normal > 40


def test_hard_deals_each_sample_for_the_kinds_it_drew_for_its_seats() -> None:
    """The sampler is handed the seats' kinds of each sample: hard's own (`COUNTER`)
    at its seat, one of `OTHER_KINDS` at every other, and not the same kinds each time."""
    handed: list[tuple[int, tuple[sim.SeatKind, ...]]] = []

    def watched(
        view: EscalationView,
        seat: int,
        unseen: list[int],
        rnd: random.Random,
        seen: Sequence[Seen],
        seats: Sequence[sim.SeatKind],
    ) -> sim.Deal:
        handed.append((seat, tuple(seats)))
        return sample_deal(view, seat, unseen, rnd, seen, seats)

    chooser = hard_player(work=1, timed=False, sample=watched)
    for state in positions(2, seed=9):
        choose(chooser, state)
    assert len(handed) > 20
    for seat, seats in handed:
        assert len(seats) == len(TRIO) and seats[seat] == COUNTER
        assert all(kind in OTHER_KINDS for i, kind in enumerate(seats) if i != seat)
    assert len({seats for _, seats in handed}) > 5
    assert any(sim.ERRATIC in seats for _, seats in handed)


def test_simulator_decide_is_the_first_best_move_scored() -> None:
    """`escalation_sim.decide` (read from precomputed tables) is the first of the
    best-scored moves `escalation_sim.scored` lists, for ``normal``'s weights, hard's
    own and a few arbitrary ones, leading or not, with the stock in or out."""
    rnd = random.Random(5)
    deck = [sim.kind_of(card) for card in standard_deck()]
    weights: list[sim.Weights] = [sim.NORMAL_WEIGHTS, COUNTER]
    for _ in range(3):
        a, b, c, d, e, f, g = (rnd.uniform(-1.0, 4.0) for _ in range(7))
        weights.append((a, b, c, d, e, f, g))
    takes = plays = 0
    for _ in range(20_000):
        held = rnd.sample(deck, rnd.randint(1, 6))
        hand = [0] * sim.SIZE
        for kind in held:
            hand[kind] += 1
        in_force = rnd.choice([-1, 0, rnd.randint(6, 14), rnd.randint(6, 42)])
        stock = rnd.choice([0, 0, 1, 2, 5, 30])
        round_cards = rnd.randint(0, 12)
        chosen = rnd.choice(weights)
        moves = sim.scored(hand, len(held), in_force, stock, round_cards, chosen)
        first_best = max(range(len(moves)), key=lambda i: (moves[i][0], -i))
        move = sim.decide(hand, len(held), in_force, stock, round_cards, chosen)
        assert move == moves[first_best][1], (hand, in_force, stock, round_cards, chosen)
        takes += move == sim.TAKE_MOVE
        plays += move != sim.TAKE_MOVE
    assert takes > 1000 and plays > 1000


def test_hard_counts_the_taken_cards_and_deals_only_the_cards_still_hidden() -> None:
    """The cards ``hard`` samples are exactly the other hands and the stock: its hand,
    the round's plays and every card taken earlier in the deal (each played face up)
    are left out."""
    checked = 0
    for state in positions(6, seed=13):
        if not any(state.penalties) or not state.stock:
            continue
        (player,) = ENGINE.to_act(state)
        seat = state.players.index(player)
        hidden = [card for i, hand in enumerate(state.hands) if i != seat for card in hand]
        hidden += state.stock
        unseen = unseen_kinds(ENGINE.view(state, player))
        assert sorted(unseen) == sorted(sim.kind_of(card) for card in hidden)
        checked += 1
    assert checked > 50


def test_weighted_deals_favour_the_heavier_kinds() -> None:
    """`_draw_weighted` only reorders the cards, putting a random choice first: each
    kind as likely as its weight (even weights: as often as the kind is there)."""
    rnd = random.Random(3)
    even = tuple(1.0 for _ in range(sim.SIZE))
    aces_first = tuple(3.0 if kind == 14 else 1.0 for kind in range(sim.SIZE))
    counts = {even: 0, aces_first: 0}
    for weights in counts:
        for _ in range(2000):
            cards = [2] * 10 + [14] * 10
            _draw_weighted(cards, 5, weights, rnd)
            assert sorted(cards) == [2] * 10 + [14] * 10
            counts[weights] += cards[:5].count(14)
    assert 0.45 < counts[even] / 10_000 < 0.55
    assert counts[aces_first] / 10_000 > 0.65


def test_set_deals_hold_sets_as_normal_players_do() -> None:
    """`_draw_hands` takes its cards from the counts left and, boosted, deals hands
    holding more cards beyond the first of a value than uniform draws do."""
    rnd = random.Random(8)
    pool = [0] * sim.SIZE
    for kind in sim.KINDS:
        pool[kind] = 12 if kind == 6 else 4
    even = tuple(1.0 for _ in range(sim.SIZE))
    extra = {1.0: 0, 3.0: 0}
    for boost in extra:
        for _ in range(1000):
            left = list(pool)
            hands = _draw_hands(left, [6, 5], even, boost, rnd)
            assert [len(hand) for hand in hands] == [6, 5]
            for kind in sim.KINDS:
                assert left[kind] + sum(hand.count(kind) for hand in hands) == pool[kind]
            for hand in hands:
                extra[boost] += sum(hand.count(k) - 1 for k in set(hand) if k > 3)
    assert extra[3.0] > 1.5 * extra[1.0]


def test_hard_seats_the_others_as_normal_and_kinds_unlike_it() -> None:
    """hard doesn't assume normal: its playouts draw each other seat from normal's
    weights, seven other sets, each weight within e**KIND_SPREAD of normal's, and an
    erratic player."""
    assert OTHER_KINDS[0] == sim.NORMAL_WEIGHTS
    assert OTHER_KINDS[-1] is sim.ERRATIC
    weighted = [kind for kind in OTHER_KINDS if isinstance(kind, tuple)]
    assert len(set(weighted)) == 8
    for kind in weighted[1:]:
        ratios = [mine / normal for mine, normal in zip(kind, sim.NORMAL_WEIGHTS, strict=True)]
        assert all(math.exp(-KIND_SPREAD) <= r <= math.exp(KIND_SPREAD) for r in ratios)
        assert any(abs(r - 1) > 0.25 for r in ratios)
