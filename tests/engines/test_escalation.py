"""Escalation: every ruling in RULINGS.md and every example in rules/escalation.md,
plus the generic conformance suite run on this engine."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from bot.engines.base import GameError, IllegalAction, Outcome, PlayerId
from bot.engines.cards import Card, standard_deck
from bot.engines.escalation import (
    ENGINE,
    TAKE,
    EscalationAction,
    EscalationOptions,
    EscalationState,
    beats,
    parse_action,
    play,
    play_value,
)
from tests.engines.conformance import OUTSIDER, EngineCase, check_swapped_privacy, dump

A, B, C, D = "alice", "bob", "carol", "dave"
DUO = [A, B]
TRIO = [A, B, C]
QUARTET = [A, B, C, D]


def cards(text: str) -> list[Card]:
    """``"9H 9S"`` as cards."""
    return [Card.parse(word) for word in text.split()]


def deck_for(hands: Sequence[str], stock: str = "") -> list[str]:
    """A stacked deck giving seat ``i`` the six cards of ``hands[i]``: dealt one card at
    a time from seat 0, then ``stock`` (top first)."""
    split = [hand.split() for hand in hands]
    assert all(len(hand) == 6 for hand in split), split
    dealt = [hand[i] for i in range(6) for hand in split]
    return dealt + stock.split()


def new(
    hands: Sequence[str], stock: str = "", players: list[str] | None = None, deals: int = 1
) -> EscalationState:
    seats = players or [A, B, C, D, "erin", "fred"][: len(hands)]
    options = EscalationOptions(deck=deck_for(hands, stock), deals=deals)
    return ENGINE.new_game(seats, 0, options)


def act(state: EscalationState, *moves: str) -> EscalationState:
    """Apply moves for whoever is to act, checking each was legal for them."""
    for move in moves:
        (player,) = ENGINE.to_act(state)
        legal = [str(action) for action in ENGINE.legal_actions(state, player)]
        assert str(parse_action(move)) in legal, f"{move} is not legal for {player}: {legal}"
        state = ENGINE.apply(state, player, move)
    return state


def hand(state: EscalationState, player: str) -> str:
    return " ".join(str(card) for card in state.hands[state.players.index(player)])


def penalty(state: EscalationState, player: str) -> list[str]:
    return [str(card) for card in state.penalties[state.players.index(player)]]


def legal(state: EscalationState, player: str) -> list[str]:
    return [str(action) for action in ENGINE.legal_actions(state, player)]


def to_act(state: EscalationState) -> str:
    (player,) = ENGINE.to_act(state)
    return player


# --- Card values and sets -------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("AS", 14),
        ("KH", 13),
        ("QD", 12),
        ("JC", 11),
        ("10S", 10),
        ("9H", 9),
        ("8D", 8),
        ("7C", 7),
        ("6S", 6),
        ("5H", 6),
        ("4D", 6),
    ],
)
def test_card_values(card: str, value: int) -> None:
    assert play_value(cards(card)) == value


def test_fours_fives_and_sixes_all_count_6_and_mix_in_one_set() -> None:
    assert play_value(cards("4C 5D")) == 12
    assert play_value(cards("4C 4D 5C 5H 6S")) == 30
    assert play_value(cards("6C 6D 6H 6S 5S 4S")) == 36


def test_a_set_is_worth_its_sum() -> None:
    assert play_value(cards("9S 9H")) == 18
    assert play_value(cards("AS AH")) == 28
    assert play_value(cards("10C 10D 10H")) == 30
    assert play_value(cards("7C 7D 7H 7S")) == 28


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "at least one"),
        ("9S 10S", "equal value"),
        ("6S 7S", "equal value"),
        ("KS AS", "equal value"),
        ("2S 2H", "alone"),
        ("3S 3H", "alone"),
        ("3S 9S", "alone"),
        ("2C 4C", "alone"),
        ("9S 9S", "once"),
    ],
)
def test_invalid_sets_raise(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        play_value(cards(text))
    with pytest.raises(IllegalAction):
        beats(cards(text), 0)


def test_jokers_are_not_escalation_cards() -> None:
    with pytest.raises(IllegalAction, match="Joker"):
        play_value([Card.joker()])


def test_a_lone_pass_through_card_counts_0_and_beats_nothing() -> None:
    for card in ("2S", "3H"):
        assert play_value(cards(card)) == 0
        assert not beats(cards(card), 0)
        assert not beats(cards(card), 22)


def test_rule_text_jack_example_what_beats_11() -> None:
    """After a Jack (11): Q, K, A, or 9+9 (18), 4+5 (12), A+A (28) beat it."""
    for text in ("QS", "KS", "AS", "9S 9H", "4C 5D", "AS AH"):
        assert beats(cards(text), 11), text
    for text in ("JH", "10S", "9S", "4C", "6S"):
        assert not beats(cards(text), 11), text
    assert beats(cards("4C 4D"), 11), "any two of 4, 5, 6 make 12"
    assert not beats(cards("4C 4D"), 12)


def test_rule_text_example_what_beats_a_pair_of_aces() -> None:
    """A+A (28) could be followed by 10+10+10 (30) or 4+4+5+5+6 (30)."""
    aces = play_value(cards("AS AH"))
    assert aces == 28
    assert beats(cards("10C 10D 10H"), aces)
    assert beats(cards("4C 4D 5C 5H 6S"), aces)
    assert not beats(cards("7C 7D 7H 7S"), aces), "28 does not beat 28: strictly higher"
    assert not beats(cards("9C 9D 9H"), aces)
    assert not beats(cards("KC KD"), aces)


# --- Set-up ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 7))
def test_six_cards_each_and_the_rest_is_the_stock(count: int) -> None:
    players = [f"player{i}" for i in range(count)]
    state = ENGINE.new_game(players, count)
    assert [len(h) for h in state.hands] == [6] * count
    assert len(state.stock) == 52 - 6 * count
    everything = [c for h in state.hands for c in h] + state.stock
    assert sorted(everything) == sorted(standard_deck())
    assert state.penalties == [[]] * count
    assert state.pile == []
    assert ENGINE.to_act(state) == [players[0]], "seat 0 leads the first deal"
    assert state.direction == 1


def test_the_seed_shuffles_the_deck() -> None:
    decks = {tuple(map(str, ENGINE.new_game(DUO, seed).stock)) for seed in range(10)}
    assert len(decks) == 10
    assert ENGINE.new_game(DUO, 3) == ENGINE.new_game(DUO, 3)


def test_a_stacked_deck_is_dealt_one_card_at_a_time_from_seat_0() -> None:
    deck = [str(card) for card in standard_deck()]
    state = ENGINE.new_game(TRIO, 0, EscalationOptions(deck=deck))
    for seat in range(3):
        assert sorted(state.hands[seat]) == sorted(cards(" ".join(deck[seat:18:3])))
    assert [str(card) for card in state.stock] == deck[18:], "the rest is the stock, top first"


@pytest.mark.parametrize(
    "deck",
    [["9H", "9H"], ["9H", "JK"], ["9H", "1X"], [], ["9H", "1H"]],
    ids=["duplicate", "joker", "nonsense", "empty", "no-such-rank"],
)
def test_invalid_decks_are_rejected(deck: list[str]) -> None:
    with pytest.raises(ValidationError):
        EscalationOptions(deck=deck)
    unchecked = EscalationOptions.model_construct(deals=1, deck=deck)
    with pytest.raises(GameError):
        ENGINE.new_game(DUO, 0, unchecked)


def test_a_stacked_deck_must_deal_six_cards_to_everyone() -> None:
    deck = [str(card) for card in standard_deck()[:17]]
    with pytest.raises(GameError, match="6 cards per player"):
        ENGINE.new_game(TRIO, 0, EscalationOptions(deck=deck))
    assert ENGINE.new_game(DUO, 0, EscalationOptions(deck=deck)).stock == cards("AC 2D 3D 4D 5D")


def test_stacked_deck_text_is_normalised() -> None:
    assert EscalationOptions(deck=["10h", " as"]).deck == ["10H", "AS"]


@pytest.mark.parametrize("deals", [0, -1, 101])
def test_deals_must_be_between_1_and_100(deals: int) -> None:
    with pytest.raises(ValidationError):
        EscalationOptions(deals=deals)
    with pytest.raises(GameError):
        ENGINE.new_game(DUO, 0, {"deals": deals})  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [0, 1, 7, 8])
def test_player_counts_outside_2_to_6_are_rejected(count: int) -> None:
    with pytest.raises(GameError):
        ENGINE.new_game([f"p{i}" for i in range(count)], 0)


def test_a_player_cannot_take_two_seats() -> None:
    with pytest.raises(GameError):
        ENGINE.new_game([A, B, A], 0)


def test_engine_metadata() -> None:
    assert (ENGINE.name, ENGINE.title) == ("escalation", "Escalation")
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 6)
    assert ENGINE.Options().model_dump() == {"deals": 1, "deck": None}


# --- Leading --------------------------------------------------------------------------

JACK_HANDS = ["JH 8C 8D 10S 7H KD", "QS 9S 9H 4C 5D 2S"]
TRIO_HANDS = ["JD JS 8C 8D 7H 7S", "2H 3H 9C 9D KC KD", "3C 10S 10H QC QH 2C"]


def test_the_first_lead_may_be_any_ordinary_card_or_set_but_never_a_take() -> None:
    state = new(["9C 9D 9H 4S 5S 6H", "QS 9S 10H 4C 5D 2S"], "KC KD KH")
    leads = legal(state, A)
    assert "take" not in leads
    assert "play 9C 9D 9H" in leads
    assert "play 4S 5S 6H" in leads
    assert "play 4S" in leads
    # 7 sets of the three nines, 7 of the three value-6 cards.
    assert len(leads) == 14
    with pytest.raises(IllegalAction, match="nothing to take"):
        ENGINE.apply(state, A, TAKE)


def test_a_lead_may_be_low() -> None:
    state = act(new(["9C 9D 9H 4S 5S 6H", "QS 9S 10H 4C 5D 2S"], "KC"), "play 4S")
    assert state.value_in_force == 6
    assert to_act(state) == B


def test_a_2_or_3_cannot_lead_while_the_player_holds_an_ordinary_card() -> None:
    state = new(["2C 3D 7H 8H 9H 10H", "QS 9S 10C 4C 5D 2S"], "KC")
    assert "play 2C" not in legal(state, A)
    assert "play 3D" not in legal(state, A)
    for card in ("2C", "3D"):
        with pytest.raises(IllegalAction, match="hold nothing else"):
            ENGINE.apply(state, A, play(card))


def test_a_player_holding_only_2s_and_3s_leads_one_of_them_at_value_0() -> None:
    state = new(["2C 2D 2H 3C 3D 3H", "QS 9S 10C 4C 5D 2S"], "KC KD")
    assert legal(state, A) == [f"play {c}" for c in ("2C", "2D", "2H", "3C", "3D", "3H")]
    led = act(state, "play 2D")
    assert led.value_in_force == 0
    assert to_act(led) == B
    assert "play 4C" in legal(led, B), "any ordinary card beats 0"
    assert "play 2S" in legal(led, B)
    assert "take" in legal(led, B)


def test_a_3_led_at_value_0_still_reverses() -> None:
    state = new(["2C 2D 2H 3C 3D 3H", "QS 9S 10C 4C 5D 2S", "KS KH 8S 8H 7S 7H"], "JC")
    state = act(state, "play 3C")
    assert state.value_in_force == 0
    assert state.direction == -1
    assert to_act(state) == C


# --- Beating, passing through, reversing ---------------------------------------------


def test_rule_text_jack_example_in_play() -> None:
    """After A's Jack, B may play Q, 9+9, 4+5, a 2 or take; a 9, a 4 or 10 are too low."""
    state = act(new(JACK_HANDS, "AC AD"), "play JH")
    assert state.value_in_force == 11
    assert legal(state, B) == ["play 4C 5D", "play QS", "play 9H 9S", "play 2S", "take"]
    for move in ("play 9S", "play 4C", "play 5D"):
        with pytest.raises(IllegalAction, match="does not beat 11"):
            ENGINE.apply(state, B, move)


def test_rule_text_aces_example_in_play() -> None:
    """A+A (28) is beaten by 10+10+10 (30) or 4+4+5+5+6 (30), not by 4+4+5+5 (24)."""
    state = new(["9C 4C 4D 5C 5H 6S", "AS AH 10C 10D 10H 7D"], "KC KD KH KS")
    state = act(state, "play 9C", "play AH AS")
    assert state.value_in_force == 28
    answers = legal(state, A)
    assert "play 4C 4D 5C 5H 6S" in answers
    assert "play 4C 4D 5C 5H" not in answers
    assert answers[-1] == "take"
    state = act(state, "play 4C 4D 5C 5H 6S")
    assert state.value_in_force == 30
    assert "play 10C 10D 10H" not in legal(state, B), "30 does not beat 30"
    assert legal(state, B) == ["take"]


def test_a_2_passes_the_value_on_and_keeps_the_direction() -> None:
    state = act(new(TRIO_HANDS, "AC AD AH"), "play JD JS", "play 2H")
    assert state.value_in_force == 22
    assert state.direction == 1
    assert to_act(state) == C
    assert [p.value for p in state.pile] == [22, 22]


def test_a_3_passes_the_value_on_and_reverses_the_direction() -> None:
    state = act(new(TRIO_HANDS, "AC AD AH"), "play JD JS", "play 3H")
    assert state.value_in_force == 22
    assert state.direction == -1
    assert to_act(state) == A
    state = act(state, "take")
    assert to_act(state) == A
    state = act(state, "play 7H")
    assert to_act(state) == C, "the direction persists into the next round"


def test_rule_text_direction_example_abcd() -> None:
    """A plays K (13), B 7+7 (14), C a 3 (B to beat 14), B a 2, A a 3: B faces 14."""
    state = new(
        ["KH 3S 8C 9C 10C JC", "7C 7D 2S 8H 9D 10D", "3H 4D 5D 6D 8D 9H", "JS QS KS AS 10S 9S"],
        "AC 4H JD QD QH 5S",
    )
    state = act(state, "play KH")
    assert (state.value_in_force, to_act(state)) == (13, B)
    state = act(state, "play 7C 7D")
    assert (state.value_in_force, to_act(state)) == (14, C)
    state = act(state, "play 3H")
    assert (state.value_in_force, to_act(state), state.direction) == (14, B, -1)
    state = act(state, "play 2S")
    assert (state.value_in_force, to_act(state), state.direction) == (14, A, -1)
    state = act(state, "play 3S")
    assert (state.value_in_force, to_act(state), state.direction) == (14, B, 1)
    # B drew 4H and JD after the 7s and QH after the 2: nothing beats 14, no 2 or 3.
    assert hand(state, B) == "4H 8H 9D 10D JD QH"
    assert legal(state, B) == ["take"], "B's only option is to take"
    state = act(state, "take")
    assert sorted(penalty(state, B)) == sorted(["KH", "7C", "7D", "3H", "2S", "3S"])
    assert hand(state, B) == "4H 8H 9D 10D JD QH", "taken cards never go into the hand"
    assert to_act(state) == B
    assert state.pile == [] and state.value_in_force is None
    state = act(state, "play QH")
    assert to_act(state) == C, "clockwise again: B's lead goes on to C"


@pytest.mark.parametrize("card", ["3C", "2C"])
def test_with_two_players_a_3_changes_nothing_about_turn_order(card: str) -> None:
    state = new(["9C 3C 2C 10C JC QC", "3D 4D 5D 6D 8D 9D"], "AC AD AH AS")
    state = act(state, "play 9C")
    assert to_act(state) == B
    state = act(state, "play 3D")
    assert to_act(state) == A, "B's 3 hands the turn to A as any play would"
    state = act(state, f"play {card}")
    assert to_act(state) == B
    state = act(state, "play 4D 5D")
    assert to_act(state) == A


def test_pass_through_cards_are_played_alone() -> None:
    state = act(new(TRIO_HANDS, "AC AD AH"), "play JD JS")
    assert "play 2H 3H" not in legal(state, B)
    with pytest.raises(IllegalAction, match="alone"):
        ENGINE.apply(state, B, play("2H", "3H"))


def test_equal_value_does_not_beat() -> None:
    state = act(new(["9C 9D 8C 8D 7H 7S", "QC 6H 4H 5H 10H 2D"], "AC"), "play 9C 9D")
    assert "play 4H 5H 6H" not in legal(state, B)
    with pytest.raises(IllegalAction, match=r"4H\+5H\+6H \(18\) does not beat 18"):
        ENGINE.apply(state, B, "play 4H 5H 6H")


# --- Taking ---------------------------------------------------------------------------


def test_taking_moves_the_whole_round_face_down_and_the_taker_leads() -> None:
    state = act(new(TRIO_HANDS, "AC AD AH"), "play JD JS", "play 2H", "play QC QH")
    assert state.value_in_force == 24
    before = state.model_dump()
    taken = ENGINE.apply(state, A, TAKE)
    assert state.model_dump() == before, "apply must not mutate its input"
    assert sorted(penalty(taken, A)) == sorted(["JD", "JS", "2H", "QC", "QH"])
    assert hand(taken, A) == hand(state, A)
    assert len(taken.hands[0]) == 6
    assert taken.pile == []
    assert taken.stock == state.stock
    assert to_act(taken) == A
    assert "take" not in legal(taken, A)
    assert legal(taken, B) == legal(taken, C) == []
    view = ENGINE.view(taken, None)
    assert view.must_lead
    assert view.last_take is not None
    assert (view.last_take.player, view.last_take.count) == (A, 5)
    with pytest.raises(IllegalAction, match="nothing to take"):
        ENGINE.apply(taken, A, TAKE)


def test_taking_is_always_allowed_when_facing_a_play() -> None:
    state = act(new(JACK_HANDS, "AC AD"), "play 7H")
    assert legal(state, B)[-1] == "take"
    assert penalty(act(state, "take"), B) == ["7H"]


def test_a_taker_may_take_their_own_lead_back() -> None:
    state = act(new(["9C 3C 2C 10C JC QC", "3D 4D 5D 6D 8D 9D"], "AC AD AH AS"), "play 9C")
    state = act(state, "play 3D", "take")
    assert sorted(penalty(state, A)) == ["3D", "9C"]


def test_take_carries_no_cards() -> None:
    state = act(new(JACK_HANDS, "AC AD"), "play 7H")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, B, EscalationAction(kind="take", cards=cards("2S")))


# --- Refilling ------------------------------------------------------------------------


def test_after_playing_the_player_refills_to_six_from_the_top_of_the_stock() -> None:
    state = new(["9C 9D 8C 8D 7H 7S", "QC 6H 4H 5H 10H 2D"], "AC KC QS JS")
    state = act(state, "play 8C 8D")
    assert hand(state, A) == "7H 7S 9C 9D KC AC"
    assert state.stock == cards("QS JS")
    state = act(state, "play 4H 5H 6H")
    assert hand(state, B) == "2D 10H JS QC QS"
    assert state.stock == [], "the stock ran out: the hand stays short"
    assert len(state.hands[1]) == 5


def test_every_hand_stays_full_while_the_stock_lasts() -> None:
    state = ENGINE.new_game(TRIO, 11)
    rng = random.Random(5)
    while state.stock:
        assert all(len(h) == 6 for h in state.hands)
        player = to_act(state)
        state = ENGINE.apply(state, player, rng.choice(ENGINE.legal_actions(state, player)))


def test_playing_the_whole_hand_while_the_stock_lasts_is_not_a_win() -> None:
    state = new(["4C 4D 4H 5C 5D 5H", "KC KD KH KS 2D 3D"], "AC AD AH AS 9S 9H 7C")
    state = act(state, "play 4C 4D 4H 5C 5D 5H")
    assert not ENGINE.is_over(state)
    assert hand(state, A) == "9H 9S AC AD AH AS"
    assert state.stock == cards("7C")


def test_emptying_the_hand_as_the_last_stock_card_is_drawn_plays_on() -> None:
    """A hand is never empty while the stock lasts: A empties it with one stock card
    left, draws it, and wins only once that card is played with the stock gone."""
    state = new(["4C 4D 4H 5C 5D 5H", "KC KD KH KS 2D 3D"], "7C")
    state = act(state, "play 4C 4D 4H 5C 5D 5H")
    assert not ENGINE.is_over(state)
    assert (hand(state, A), state.stock) == ("7C", [])
    state = act(state, "play 2D")
    assert ENGINE.legal_actions(state, A) == [TAKE]
    state = act(state, "take")
    assert to_act(state) == A and hand(state, A) == "7C", "the taker still holds a card"
    state = act(state, "play 7C")
    assert ENGINE.is_over(state)
    assert state.totals == [5, -5]


# --- End of a deal, payments, deals ---------------------------------------------------


def test_the_first_player_out_with_the_stock_empty_wins_and_everyone_pays_per_card() -> None:
    """A takes twice (2 penalty cards that don't cost the winner), B once."""
    state = new(["KS KH KD KC QS 9H", "4C 5C 6C AC 8C 9C"])
    state = act(state, "play 9H", "play AC", "take")
    assert penalty(state, A) == ["9H", "AC"]
    state = act(state, "play KC KD KH KS", "take", "play 8C")
    assert not ENGINE.is_over(state)
    state = act(state, "play QS")
    assert ENGINE.is_over(state)
    assert ENGINE.to_act(state) == []
    assert hand(state, A) == ""
    # B: 4 cards in hand plus 4 in the penalty stack.
    assert hand(state, B) == "4C 5C 6C 9C"
    assert len(penalty(state, B)) == 4
    assert state.totals == [8, -8]
    outcome = ENGINE.outcome(state)
    assert outcome.scores == {A: 8, B: -8}
    assert outcome.places == {A: 1, B: 2}
    for player in DUO:
        assert ENGINE.legal_actions(state, player) == []
        with pytest.raises(IllegalAction, match="over"):
            ENGINE.apply(state, player, "play 4C")


def test_a_pass_through_card_can_be_the_last_card() -> None:
    state = new(["2C 4C 5C 6C 4D 5D", "7C 8C 9C 10C JC QC"])
    state = act(state, "play 4C 4D 5C 5D 6C", "take", "play 7C", "play 2C")
    assert ENGINE.is_over(state)
    # B: 5 cards in hand plus the 5 taken.
    assert state.totals == [10, -10]


def test_everyone_else_pays_the_winner_with_three_players() -> None:
    state = new(["4C 4D 4H 5C 5D 5H", "KC KD KH KS 2D 3D", "AC AD AH AS 9S 9H"])
    state = act(state, "play 4C 4D 4H 5C 5D 5H")
    assert ENGINE.is_over(state)
    assert state.totals == [12, -6, -6]
    view = ENGINE.view(state, None)
    assert view.over
    assert view.scores == {A: 12, B: -6, C: -6}
    assert len(view.results) == 1
    assert view.results[0].winner == A
    assert view.results[0].chips == {A: 12, B: -6, C: -6}


DEALS_HANDS = ["4C 4D 4H 5C 5D 5H", "6C 6D 6H 4S 5S 6S", "3C 3D 3H 3S 2C 2D"]


def test_several_deals_keep_running_totals_and_rotate_the_leader() -> None:
    state = new(DEALS_HANDS, deals=4)
    assert to_act(state) == A
    state = act(state, "play 4C 4D 4H 5C 5D 5H")
    assert not ENGINE.is_over(state)
    assert state.totals == [12, -6, -6]
    assert state.deal == 1
    assert to_act(state) == B, "the second deal is led by the next seat"
    assert [len(h) for h in state.hands] == [6, 6, 6]
    state = act(state, "play 4S 5S 6C 6D 6H 6S")
    assert state.totals == [6, 6, -12]
    assert to_act(state) == C
    state = act(state, "play 3C")
    assert state.direction == -1
    assert to_act(state) == B
    state = act(state, "play 4S 5S 6C 6D 6H 6S")
    # C still holds 5 cards: A pays 6, C pays 5.
    assert state.totals == [0, 17, -17]
    assert state.direction == 1, "every deal starts clockwise"
    assert state.penalties == [[], [], []]
    assert state.pile == []
    assert to_act(state) == A, "deal 4 comes back round to seat 0"
    state = act(state, "play 4C 4D 4H 5C 5D 5H")
    assert ENGINE.is_over(state)
    assert state.totals == [12, 11, -23]
    assert [r.winner for r in state.results] == [0, 1, 1, 0]
    assert ENGINE.outcome(state).places == {A: 1, B: 2, C: 3}
    view = ENGINE.view(state, None)
    assert (view.deal, view.deals) == (4, 4)
    assert [result.deal for result in view.results] == [1, 2, 3, 4]


def test_a_shuffled_game_reshuffles_each_deal_from_the_game_seed() -> None:
    state = ENGINE.new_game(DUO, 9, EscalationOptions(deals=2))
    first_deal = state.hands
    rng = random.Random(1)
    while state.deal == 0:
        player = to_act(state)
        state = ENGINE.apply(state, player, rng.choice(ENGINE.legal_actions(state, player)))
    assert not ENGINE.is_over(state)
    assert state.hands != first_deal
    assert len(state.stock) == 40
    assert sorted([*(c for h in state.hands for c in h), *state.stock]) == sorted(standard_deck())
    assert state.penalties == [[], []] and state.pile == []
    assert state.totals[0] == -state.totals[1] != 0


def test_ties_share_the_place() -> None:
    state = new(DEALS_HANDS, deals=2)
    state = act(state, "play 4C 4D 4H 5C 5D 5H", "play 4S 5S 6C 6D 6H 6S")
    assert ENGINE.outcome(state) == Outcome(scores={A: 6, B: 6, C: -12}, places={A: 1, B: 1, C: 3})


# --- Turns and illegal actions --------------------------------------------------------


def test_only_the_player_to_act_may_move() -> None:
    state = new(JACK_HANDS, "AC AD")
    for player, move in [(B, "play QS"), ("stranger", "play JH"), (B, "take")]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, player, move)
        assert ENGINE.legal_actions(state, player) == []


def test_cards_must_be_in_the_hand() -> None:
    state = new(JACK_HANDS, "AC AD")
    with pytest.raises(IllegalAction, match="don't hold QS"):
        ENGINE.apply(state, A, "play QS")
    with pytest.raises(IllegalAction, match="once"):
        ENGINE.apply(state, A, EscalationAction(kind="play", cards=cards("8C 8C")))
    with pytest.raises(IllegalAction, match="at least one"):
        ENGINE.apply(state, A, EscalationAction(kind="play"))


def test_string_actions_and_their_text_form() -> None:
    state = new(JACK_HANDS, "AC AD")
    assert ENGINE.apply(state, A, "play 8D 8C") == ENGINE.apply(state, A, play("8C", "8D"))
    assert ENGINE.apply(state, A, "8C+8D") == ENGINE.apply(state, A, "play 8C, 8D")
    assert str(play("8D", "8C")) == "play 8C 8D"
    assert play("8D", "8C") == play("8C", "8D"), "cards are kept in order"
    assert len({play("8D", "8C"), play("8C", "8D"), TAKE}) == 2, "actions hash"
    with pytest.raises(ValidationError):
        TAKE.kind = "play"  # type: ignore[misc]
    assert str(TAKE) == "take"
    assert parse_action("TAKE") == TAKE
    for text in ("pass", "play", "", "play 1X"):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, A, text)


def test_a_foreign_action_is_refused() -> None:
    state = new(JACK_HANDS, "AC AD")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, A, object())  # type: ignore[arg-type]


# --- Views ----------------------------------------------------------------------------


def mid_round() -> EscalationState:
    """A took a round (JD JS 2H QC QH) and led 7H; B is to act against 7, stock 2."""
    state = new(TRIO_HANDS, "AC AD AH AS KH KS 9S 9H")
    state = act(state, "play JD JS", "play 2H", "play QC QH", "take")
    return act(state, "play 7H")


def test_public_view_shows_sizes_the_round_and_the_taken_cards_never_hands_or_stock() -> None:
    state = mid_round()
    view = ENGINE.view(state, None)
    assert view.viewer is None
    assert view.my_hand is None
    assert [(s.player, s.hand_size, s.penalty_size, s.total) for s in view.seats] == [
        (A, 6, 5, 0),
        (B, 6, 0, 0),
        (C, 6, 0, 0),
    ]
    assert view.stock_size == 2
    assert [(p.player, [str(c) for c in p.cards], p.value) for p in view.round] == [(A, ["7H"], 7)]
    assert view.value_in_force == 7
    assert view.direction == "clockwise"
    assert view.to_act == B
    assert not view.must_lead
    assert (view.deal, view.deals) == (1, 1)
    assert not view.over and view.scores is None
    # A's penalty stack lies face down, but its cards were played face up for all to see.
    assert [str(c) for c in view.taken] == ["2H", "JD", "JS", "QC", "QH"]
    text = view.model_dump_json(exclude={"taken"})
    secret = [c for h in state.hands for c in h] + [c for p in state.penalties for c in p]
    for card in [*secret, *state.stock]:
        assert f'"{card}"' not in text, f"{card} leaked into the public view"
    for card in [*(c for h in state.hands for c in h), *state.stock]:
        assert card not in view.taken, f"{card} leaked into the taken cards"


def test_a_players_view_adds_their_own_hand_only() -> None:
    state = mid_round()
    mine = ENGINE.view(state, B)
    assert [str(c) for c in mine.my_hand or []] == hand(state, B).split()
    public = ENGINE.view(state, None)
    assert mine.model_dump(exclude={"viewer", "my_hand"}) == public.model_dump(
        exclude={"viewer", "my_hand"}
    )
    text = mine.model_dump_json()
    for card in [c for p in (A, C) for c in hand(state, p).split()]:
        assert f'"{card}"' not in text, f"{card} leaked to {B}"


def test_an_outsider_sees_only_the_public_table() -> None:
    state = mid_round()
    view = ENGINE.view(state, "stranger")
    assert view.my_hand is None
    public = ENGINE.view(state, None)
    assert view.model_dump(exclude={"viewer"}) == public.model_dump(exclude={"viewer"})


def test_the_view_shows_pass_through_plays_and_the_direction() -> None:
    state = act(new(TRIO_HANDS, "AC AD AH"), "play JD JS", "play 3H")
    view = ENGINE.view(state, None)
    assert [(p.player, p.value, p.pass_through) for p in view.round] == [
        (A, 22, False),
        (B, 22, True),
    ]
    assert view.direction == "counterclockwise"
    assert view.to_act == A


# --- JSON -----------------------------------------------------------------------------


def test_state_action_view_and_outcome_round_trip_json() -> None:
    for state in (
        mid_round(),
        new(DEALS_HANDS, deals=2),
        act(new(DEALS_HANDS), "play 4C 4D 4H 5C 5D 5H"),
    ):
        text = state.model_dump_json()
        back = EscalationState.model_validate_json(text)
        assert back == state
        assert back.model_dump_json() == text
        assert ENGINE.view(back, B) == ENGINE.view(state, B)
    for action in (TAKE, play("9H", "9S"), play("2C")):
        assert EscalationAction.model_validate_json(action.model_dump_json()) == action
    assert play("9H").model_dump(mode="json")["cards"] == ["9H"]
    outcome = ENGINE.outcome(act(new(DEALS_HANDS), "play 4C 4D 4H 5C 5D 5H"))
    assert Outcome.model_validate_json(outcome.model_dump_json()) == outcome


def test_a_restored_game_plays_on_identically() -> None:
    state = ENGINE.new_game(QUARTET, 42, EscalationOptions(deals=2))
    restored = EscalationState.model_validate_json(state.model_dump_json())
    rng_a, rng_b = random.Random(3), random.Random(3)
    for _ in range(60):
        player = to_act(state)
        state = ENGINE.apply(state, player, rng_a.choice(ENGINE.legal_actions(state, player)))
        restored = ENGINE.apply(
            restored, player, rng_b.choice(ENGINE.legal_actions(restored, player))
        )
    assert restored.model_dump_json() == state.model_dump_json()


# --- legal_actions against a brute-force oracle ---------------------------------------

ORACLE_VALUES = {2: None, 3: None, 4: 6, 5: 6, 6: 6, 11: 11, 12: 12, 13: 13, 14: 14}


def oracle(hand_cards: list[Card], in_force: int | None) -> set[str]:
    """Every legal play by brute force over all subsets of the hand."""
    found: set[str] = set()
    only_special = all(c.rank in (2, 3) for c in hand_cards)
    for size in range(1, len(hand_cards) + 1):
        for subset in combinations(hand_cards, size):
            values = [ORACLE_VALUES.get(c.rank, c.rank) for c in subset]
            text = str(play(*subset))
            if None in values:
                if size == 1 and (in_force is not None or only_special):
                    found.add(text)
                continue
            if len(set(values)) == 1 and (
                in_force is None or sum(v or 0 for v in values) > in_force
            ):
                found.add(text)
    if in_force is not None:
        found.add("take")
    return found


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    hand_cards=st.lists(st.sampled_from(standard_deck()), min_size=1, max_size=6, unique=True),
    in_force=st.one_of(st.none(), st.integers(min_value=0, max_value=60)),
)
def test_legal_actions_are_exactly_the_valid_plays(
    hand_cards: list[Card], in_force: int | None
) -> None:
    """Any hand, facing any value or leading: legal_actions is every valid play, each
    one applies, and every other small subset of the hand is refused."""
    rest = [str(card) for card in standard_deck() if card not in hand_cards]
    data = new(["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D"]).model_dump()
    data["hands"] = [[str(card) for card in sorted(hand_cards)], rest[:1]]
    data["pile"] = [] if in_force is None else [{"seat": 1, "cards": rest[1:2], "value": in_force}]
    data["stock"] = []
    state = EscalationState.model_validate(data)
    actions = ENGINE.legal_actions(state, A)
    listed = {str(action) for action in actions}
    assert listed == oracle(sorted(hand_cards), in_force)
    assert len(listed) == len(actions), "no action is listed twice"
    for action in actions:
        ENGINE.apply(state, A, action)
    for size in range(1, min(len(hand_cards), 3) + 1):
        for subset in combinations(hand_cards, size):
            if str(play(*subset)) not in listed:
                with pytest.raises(IllegalAction):
                    ENGINE.apply(state, A, play(*subset))


# --- The generic conformance suite --------------------------------------------------


def escalation_invariant(state: EscalationState) -> Hashable:
    """Every card in the deal (hands, penalty stacks, stock, the round) and the chips."""
    every = [c for h in state.hands for c in h] + [c for p in state.penalties for c in p]
    every += state.stock + [c for entry in state.pile for c in entry.cards]
    return tuple(sorted(every)), sum(state.totals)


def escalation_check_state(state: EscalationState) -> None:
    """Cards are distinct; hands sorted, at most six, full while the stock lasts and
    never empty in a running game; the round climbs; chips sum to zero."""
    every = [c for h in state.hands for c in h] + [c for p in state.penalties for c in p]
    every += state.stock + [c for entry in state.pile for c in entry.cards]
    assert len(set(every)) == len(every), "a card is in two places"
    assert all(h == sorted(h) for h in state.hands), state.hands
    assert all(len(h) <= 6 for h in state.hands), state.hands
    assert 0 <= state.turn < len(state.players)
    assert state.direction in (1, -1)
    assert sum(state.totals) == 0, state.totals
    assert len(state.results) <= state.deals
    running = len(state.results) < state.deals
    if running:
        assert all(state.hands), "a running deal has a player without cards"
        if state.stock:
            assert all(len(h) == 6 for h in state.hands), "hands are refilled to six"
    value = -1
    for entry in state.pile:
        if entry.cards[0].rank in (2, 3):
            assert len(entry.cards) == 1
            assert entry.value == max(value, 0)
        else:
            assert entry.value == play_value(entry.cards) > value
        value = entry.value


def escalation_scramble(
    state: EscalationState, rng: random.Random, owner: PlayerId | None
) -> EscalationState | None:
    """Owner: swap a card of their hand with one of the stock. None: reshuffle the stock
    and move the random generator on. The penalty stacks stay: they lie face down, but
    every card in them was played face up (the view's ``taken``)."""
    data = state.model_dump()
    stock = list(data["stock"])
    if owner is None:
        rng.shuffle(stock)
        data["stock"] = stock
        data["rng"]["state"] = (state.rng.state + 1 + rng.randrange(2**62)) % 2**64
        return EscalationState.model_validate(data)
    seat = state.players.index(owner)
    held = data["hands"][seat]
    if not stock or not held:
        return None
    spot = rng.randrange(len(stock))
    mine = rng.randrange(len(held))
    stock[spot], held[mine] = held[mine], stock[spot]
    data["hands"][seat] = [str(c) for c in sorted(Card.parse(c) for c in held)]
    data["stock"] = stock
    return EscalationState.model_validate(data)


def escalation_swap(
    state: EscalationState, rng: random.Random, first: PlayerId, second: PlayerId
) -> EscalationState | None:
    """A card of ``first``'s hand for one of ``second``'s: once the stock is out, every
    unseen card is in a hand, and this is the only secret left to change."""
    data = state.model_dump()
    hands = [data["hands"][state.players.index(player)] for player in (first, second)]
    if not all(hands):
        return None
    mine, theirs = (rng.randrange(len(hand)) for hand in hands)
    hands[0][mine], hands[1][theirs] = hands[1][theirs], hands[0][mine]
    for player, hand in zip((first, second), hands, strict=True):
        data["hands"][state.players.index(player)] = [
            str(card) for card in sorted(Card.parse(c) for c in hand)
        ]
    return EscalationState.model_validate(data)


def test_hands_stay_private_once_the_stock_is_out() -> None:
    """With the stock out, the scrambler can change no hand (nothing hidden to swap a
    card with); the swapper checks them: every pair of hands holding cards is swapped,
    and no view but their owners' changes."""
    players = ["p0", "p1", "p2"]
    rng = random.Random(11)
    state = ENGINE.new_game(players, 5)
    while state.stock:
        assert not ENGINE.is_over(state), "the deal ended before its stock ran out"
        player = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, player, rng.choice(ENGINE.legal_actions(state, player)))
    holding = [p for p in players if state.hands[players.index(p)]]
    assert len(holding) == len(players), "a hand was empty as the stock ran out"
    assert all(escalation_scramble(state, rng, owner) is None for owner in players)
    views = {viewer: dump(ENGINE.view(state, viewer)) for viewer in [None, OUTSIDER, *players]}
    assert check_swapped_privacy(ESCALATION, state, players, rng, views) == 3


def escalation_stacked_deals() -> st.SearchStrategy[BaseModel | None]:
    """Two deals of a stacked deck of 36–52 cards (enough for six players)."""
    texts = [str(card) for card in standard_deck()]
    return st.tuples(st.permutations(texts), st.integers(36, 52)).map(
        lambda drawn: EscalationOptions(deck=list(drawn[0][: drawn[1]]), deals=2)
    )


ESCALATION = EngineCase(
    engine=ENGINE,
    # Shuffled deals after the first are covered by the unit tests above: every extra
    # variant or deal here costs a lot in the illegal-action check (states × known plays).
    variants={"default": st.none(), "stacked-deck-two-deals": escalation_stacked_deals()},
    invariant=escalation_invariant,
    scramble_private=escalation_scramble,
    swap_private=escalation_swap,
    lower_wins=False,
    check_state=escalation_check_state,
    # Each play takes at least one of a deal's 52 cards out of the hands for good, and
    # each take needs a play after the last take: at most 104 actions a deal.
    max_steps=2 * 104,
)
