"""The benchmarks still run: each one's --quick mode, checked for figures, not speed."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import interactions
from bench.ai import difference_interval, play_games, play_pairing, previous_players
from bench.ai_escalation import (
    SEAT_KINDS,
    Table,
    card_move_weights,
    dealt_at_random,
    shown_hands,
    uniform_card_move,
)
from bench.ai_escalation import play_games as play_escalation_seat
from bench.opponents import POOLS, no_thanks_heuristic, pools_for
from bench.previous.escalation import ranked
from bot.ai.escalation import PLAYERS as ESCALATION_PLAYERS
from bot.ai.escalation import unseen_kinds
from bot.ai.escalation_sim import TAKE_MOVE, counts, kind_of, play_move
from bot.engines.base import SeededRng
from bot.engines.cards import Card
from bot.engines.escalation import ENGINE as ESCALATION
from bot.engines.escalation import EscalationAction, play
from bot.engines.geschenkt import REFUSE as GESCHENKT_REFUSE
from bot.engines.geschenkt import TAKE as GESCHENKT_TAKE
from bot.games import game
from bot.render.output import OPAQUE_COLOURS

REPO = Path(__file__).resolve().parents[1]


def run_bench(name: str, tmp_path: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", "--quick", "--json", str(out), *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    data: dict[str, Any] = json.loads(out.read_text())
    assert data["benchmark"] == name
    return data


@pytest.mark.parametrize("name", ["engines", "render", "storage"])
def test_benchmark_runs_and_reports_figures(name: str, tmp_path: Path) -> None:
    extra = ("--games", "30") if name == "storage" else ()
    data = run_bench(name, tmp_path, *extra)
    results = data["results"]
    assert isinstance(results, list) and results
    figures = json.dumps(results)
    expected = {
        "engines": "playouts_per_second",
        "render": "png_bytes",
        "storage": "memory_usage_bytes",
    }[name]
    assert expected in figures
    if name == "engines":  # every engine module with an ENGINE is measured
        modules = [
            path
            for path in (REPO / "bot" / "engines").glob("*.py")
            if re.search(r"^ENGINE\b", path.read_text(encoding="utf-8"), re.MULTILINE)
        ]
        assert len(results) == len(modules) >= 2
        (simulated,) = data["simulators"]  # Geschenkt's hard player's simulator
        assert simulated["engine"] == "geschenkt"
        assert [row["players"] for row in simulated["rows"]] == [3, 4, 5, 6, 7]
        for row in simulated["rows"]:
            assert row["ours"]["playouts_per_second"] > 0
            assert row["ours"]["actions_per_playout"] > 24  # every card taken, some refused
    if name == "storage":  # the bot process's memory with live games
        memory = data["bot_process_memory"]
        assert memory["games"] == memory["games_asked"] == 30
        assert memory["with_live_games_bytes"]["VmRSS"] >= memory["idle_bytes"]["VmRSS"] > 0


def test_interactions_bench_counts_every_click(tmp_path: Path) -> None:
    levels = run_bench("interactions", tmp_path, "--level", "3:5")["levels"]
    assert [level["games"] for level in levels] == [3]
    for side in ("ours", "null_bot"):
        assert levels[0][side]["clicks"] == 15
        assert levels[0][side]["games_given_up"] == 0
    assert levels[0]["ours"]["p99_ms"] is not None


def test_interactions_bench_times_the_computers_with_and_without_the_wait(
    tmp_path: Path,
) -> None:
    # 8 clicks: the bench takes at most every third card, so at least five refusals pass
    # the turn on and the computer acts at every table (with 4 it could sit them out).
    data = run_bench("interactions", tmp_path, "--level", "2:8", "--computers", "--rounds", "2")
    assert [level["round"] for level in data["levels"]] == [1, 2]
    for level in data["levels"]:
        decisions = level["ours_with_computers"]["computer_decisions"]
        assert decisions["decisions"] == decisions["in_workers"] > 0
        assert 0 < decisions["think_p50_ms"] <= decisions["p50_ms"]
        assert 0 < decisions["think_p99_ms"] <= decisions["p99_ms"]
    (pooled,) = data["pooled"]
    for side, key in (("without", "ours"), ("with", "ours_with_computers")):
        measured = [level[key] for level in data["levels"]]
        timed = sum(side["clicks"] - side["outcomes"].get("missing", 0) for side in measured)
        assert pooled[f"timed_{side}"] == timed > 0
        assert pooled[f"late_{side}"] == sum(side["late"] for side in measured)
    low, high = pooled["interval_ms"]
    assert low <= pooled["difference_ms"] <= high


def some_rounds(rng: random.Random, slower_by: float) -> list[interactions.Round]:
    """Six rounds of 500 clicks each way, the machine faster or slower in each (a
    round's clicks with and without share its speed); with ``slower_by`` seconds more
    on every click with the computers."""
    rounds = []
    for _ in range(6):
        speed = rng.uniform(0.5, 2)
        without = [speed * rng.lognormvariate(-3.5, 0.8) for _ in range(500)]
        with_ = [speed * rng.lognormvariate(-3.5, 0.8) + slower_by for _ in range(500)]
        rounds.append((without, with_))
    return rounds


def test_the_pooled_p99s_interval_tells_a_shift_from_noise() -> None:
    rng = random.Random(1)
    same = interactions.p99_difference(some_rounds(rng, 0), resamples=200)
    low, high = same["interval_ms"]
    assert low < 0 < high
    slower = interactions.p99_difference(some_rounds(rng, 0.2), resamples=200)
    assert 0 < slower["interval_ms"][0] < 200 < slower["interval_ms"][1]


def test_a_click_answered_late_counts_against_its_side() -> None:
    rng = random.Random(2)
    rounds = some_rounds(rng, 0)
    late = [(without, with_[:-10] + [interactions.LATE_SECONDS] * 10) for without, with_ in rounds]
    found = interactions.p99_difference(late, resamples=200)
    assert found["late_with"] == 60 and found["late_without"] == 0
    assert found["p99_with_ms"] == interactions.LATE_SECONDS * 1000
    assert found["interval_ms"][0] > 0


def test_ai_bench_plays_every_level_of_geschenkt(tmp_path: Path) -> None:
    data = run_bench("ai", tmp_path, "--game", "geschenkt", "--games", "3")
    [result] = data["results"]
    assert result["game"] == "geschenkt" and result["players"] == 3
    pairings = [(p["level"], p["opponent"]) for p in result["pairings"]]
    assert pairings == [
        ("easy", "random"),
        ("normal", "random"),
        ("normal", "easy"),
        ("hard", "random"),
        ("hard", "normal"),
    ]
    for pairing in result["pairings"]:
        assert pairing["games"] == 3 and pairing["decisions"] > 0
        assert pairing["decision_p99_ms"] is not None and 1 <= pairing["average_place"] <= 3


def test_ai_bench_plays_hard_and_normal_against_a_pool(tmp_path: Path) -> None:
    data = run_bench("ai", tmp_path, "--game", "geschenkt", "--pool", "greedy", "--games", "3")
    assert data["settings"]["pools"] == ["greedy"]
    [result] = data["results"]
    assert result["game"] == "geschenkt" and result["share"] == "sole wins"
    [cell] = result["pools"]
    assert cell["pool"] == "greedy" and cell["games"] == 3
    for level in ("hard", "normal"):
        share = cell[f"{level}_share"]
        low, high = cell[f"{level}_interval_95"]
        assert 0 <= low <= share <= high <= 1
        assert cell[level]["level"] == level and cell[level]["opponent"] == "greedy"
        assert cell[level]["games"] == 3 and cell[level]["decisions"] > 0
    assert cell["hard_minus_normal"] == pytest.approx(cell["hard_share"] - cell["normal_share"])
    low, high = cell["hard_minus_normal_interval_95"]
    assert -1 <= low <= cell["hard_minus_normal"] <= high <= 1


def test_ai_bench_difference_interval_holds_the_difference() -> None:
    low, high = difference_interval(60, 100, 40, 100)
    assert 0.06 < low < 0.2 < high < 0.34
    low, high = difference_interval(30, 100, 30, 100)
    assert low == pytest.approx(-high) and low < 0 < high


STYLE_POOLS = [(name, pool.name) for name, pools in POOLS.items() for pool in pools]


@pytest.mark.parametrize(("name", "pool_name"), STYLE_POOLS)
def test_ai_pools_play_whole_games(name: str, pool_name: str) -> None:
    """Each outside and style player of `bench.opponents` plays legal moves to the end
    of a game (``easy`` in the measured seat, for speed)."""
    spec = game(name)
    pool = pools_for(name, spec.players)[pool_name]
    other = pool.make()  # no-thanks is in the test extra: every pool is here
    pairing = play_games(
        spec.engine, spec.players["easy"], "easy", pool_name, other, spec.typical_players, 2
    )
    assert pairing.games == 2 and pairing.decisions


def test_ai_pool_no_thanks_takes_as_its_package_says() -> None:
    choose = no_thanks_heuristic()
    engine = game("geschenkt").engine
    ids = ["a", "b", "c"]
    state = engine.new_game(ids, 0, engine.Options(deck=[35, 3, 4]))
    rng = SeededRng.from_seed(1)
    refusals = 0
    for _ in range(50):  # 35, no pot: take with 0.05 × (1 + 1/11), so refuse mostly
        refusals += choose(engine.view(state, "a"), rng) == GESCHENKT_REFUSE
    assert 40 <= refusals < 50
    state = engine.new_game(ids, 0, engine.Options(deck=[5, 3, 4]))
    for _ in range(4):  # four refusals: 5 with 4 chips on it is worth 0, a sure take
        state = engine.apply(state, engine.to_act(state)[0], GESCHENKT_REFUSE)
    player = engine.to_act(state)[0]
    for _ in range(20):
        assert choose(engine.view(state, player), rng) == GESCHENKT_TAKE


def test_capacity_bench_measures_cpu_per_click_of_two_codes(tmp_path: Path) -> None:
    data = run_bench("capacity", tmp_path, "--old", str(REPO), "--old-name", "same")
    assert set(data["codes"]) == {"same", "new"}
    assert "ratio_to_null" not in data
    for code in data["codes"].values():
        assert code["served"] > 0 and code["images"] > 0
        assert code["bot_ms_per_click"] > 0 and code["render_ms_per_image"] > 0
        assert code["bot_error_lines"] == 0
    for measured in data["measured"]:
        assert measured["cpu_seconds"]["bot"] > 0
        assert measured["cpu_seconds"]["render worker"] > 0
        assert measured["images"] == measured["drawings"]["geschenkt.render_table"]
        assert "base.render_private" not in measured["drawings"], "no image, no worker"
    assert data["bot_ratio"] is not None and data["render_ratio"] is not None
    assert set(data["targets"]) == {"bot_ratio", "render_ratio", "bot_met", "render_met"}


def test_soak_bench_samples_memory_through_both_restarts(tmp_path: Path) -> None:
    data = run_bench("soak", tmp_path)  # 3 tables for 24 s, Redis and the bot restarted
    assert data["tables"] == 3 and data["clicks"] > 0
    samples = data["samples"]
    assert len(samples) >= 5
    assert all(s["bot_bytes"] > 0 for s in samples) and samples[0]["workers"] >= 1
    assert [e["event"] for e in data["events"]] == ["redis restart", "bot restart"]
    assert data["events"][0]["tables_before"] == 3
    assert data["events"][0]["tables_rolled_back"] == 0  # Redis came back with its data
    assert any(s["event"] == "after bot restart" for s in samples)
    assert data["bot_error_lines"] == 0, data["bot_errors_sample"]
    assert data["stuck_games"] == 0 and data["bench_failures"] == []
    assert data["records_inconsistent"] == data["records_missing"] == 0


def test_index_bench_makes_no_scan() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.index", "--sizes", "100", "2000"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if "tables (" in line]
    assert len(lines) == 2
    assert all(line.endswith("SCAN calls 0") for line in lines), lines


def test_give_and_take_bench_measures_each_seat_on_the_same_games(tmp_path: Path) -> None:
    data = run_bench("ai_give_and_take", tmp_path)
    results = data["results"]
    assert [row["seat"] for row in results] == ["normal", "hard", "oracle"]
    assert {row["games"] for row in results} == {12}
    oracle = results[-1]
    assert oracle["choices"] > oracle["decisive_choices"] > 0
    assert results[0]["choices"] == results[1]["choices"] == 0


def test_escalation_bench_measures_each_seat_on_the_same_games(tmp_path: Path) -> None:
    data = run_bench("ai_escalation", tmp_path)
    results = data["results"]
    assert [row["seat"] for row in results] == list(SEAT_KINDS)
    assert {row["games"] for row in results} == {3}


def test_the_escalation_bench_seats_random_players_when_asked() -> None:
    """Two random opponents are what they say: normal wins more of the same games
    against them than against two normal players."""
    against_random = play_escalation_seat("normal", 0, 12, "random")
    assert against_random > play_escalation_seat("normal", 0, 12, "normal")
    assert against_random >= 9


def test_the_random_kind_weighs_each_move_by_the_engine_actions_it_stands_for() -> None:
    """At every turn of random games, `card_move_weights` counts the engine's legal
    actions of each simulator move, so the oracles' random kind draws moves as the
    ``random`` pool's player does."""
    checked = 0
    for seed in range(12):
        state = ESCALATION.new_game(["a", "b", "c"], seed)
        rng = SeededRng.from_seed(seed)
        while not ESCALATION.is_over(state):
            (player,) = ESCALATION.to_act(state)
            view = ESCALATION.view(state, player)
            hand = view.my_hand or []
            in_force = -1 if view.must_lead or view.value_in_force is None else view.value_in_force
            actions = ESCALATION.legal_actions(state, player)
            expected: dict[int, int] = {}
            for action in actions:
                move = TAKE_MOVE if action.kind == "take" else play_move(action.cards)
                expected[move] = expected.get(move, 0) + 1
            assert card_move_weights(counts(hand), len(hand), in_force) == expected
            checked += 1
            state = ESCALATION.apply(state, player, actions[rng.below(len(actions))])
    assert checked > 300


def test_the_random_kind_counts_the_actions_of_the_rare_turns() -> None:
    """Turns random games seldom reach: a lead from a hand of only 2s and 3s (each card
    an action), and a 2 or 3 in force (value 0: any set beats it, or take)."""
    hand = [0] * 15
    hand[2], hand[3] = 2, 1
    assert card_move_weights(hand, 3, -1) == {2 * 16 + 1: 2, 3 * 16 + 1: 1}
    hand[7] = 2
    assert card_move_weights(hand, 5, -1) == {7 * 16 + 1: 2, 7 * 16 + 2: 1}
    assert card_move_weights(hand, 5, 0) == {
        0: 1,
        7 * 16 + 1: 2,
        7 * 16 + 2: 1,
        2 * 16 + 1: 2,
        3 * 16 + 1: 1,
    }


def test_random_players_hands_are_dealt_from_the_unseen_cards_at_their_sizes() -> None:
    state = ESCALATION.new_game(["a", "b", "c"], 6)
    view = ESCALATION.view(state, "a")
    unseen = unseen_kinds(view)
    deals = [
        dealt_at_random(view, 0, list(unseen), random.Random(seed), (), ()) for seed in range(4)
    ]
    for deal in deals:
        assert [sum(hand) for hand in deal.hands] == [len(hand) for hand in state.hands]
        assert deal.hands[0] == counts(state.hands[0])
        held = [kind for hand in deal.hands[1:] for kind in sim_kinds(hand)]
        assert sorted(held + list(deal.stock)) == sorted(unseen)
    assert len({tuple(map(tuple, deal.hands)) for deal in deals}) > 1


def sim_kinds(hand: list[int]) -> list[int]:
    """The kinds a hand of counts holds, each as often as it is held."""
    return [kind for kind, held in enumerate(hand) for _ in range(held)]


def test_the_random_kind_draws_a_move_as_often_as_its_actions() -> None:
    """A hand of three 7s and a king, leading: 7, 77, 777 and K stand for 3, 3, 1 and 1
    actions, so on a grid of 80 draws they come 30, 30, 10 and 10 times."""
    hand = [0] * 15
    hand[7], hand[13] = 3, 1
    points = iter((step + 0.5) / 80 for step in range(80))
    drawn: dict[int, int] = {}
    for _ in range(80):
        move = uniform_card_move(hand, 4, -1, points.__next__)
        drawn[move] = drawn.get(move, 0) + 1
    assert drawn == {7 * 16 + 1: 30, 7 * 16 + 2: 30, 7 * 16 + 3: 10, 13 * 16 + 1: 10}


def test_the_escalation_oracles_are_shown_the_other_hands_only_in_their_phase() -> None:
    """Shown the hands while the stock lasts, an oracle's samples hold the other hands
    as they are and the stock as the view leaves it (its order at random); the other
    oracle deals at random until the stock is out."""
    state = ESCALATION.new_game(["a", "b", "c"], 4)
    table = Table()
    table.state = state
    view = ESCALATION.view(state, "a")
    unseen = unseen_kinds(view)
    dealt = shown_hands(table, "stock left")(view, 0, list(unseen), random.Random(1), (), ())
    assert dealt.hands[1:] == [counts(hand) for hand in state.hands[1:]]
    assert sorted(dealt.stock) == sorted(kind_of(card) for card in state.stock)
    guesses = [
        shown_hands(table, "stock out")(view, 0, list(unseen), random.Random(seed), (), ()).hands
        for seed in range(5)
    ]
    assert any(hands[1:] != dealt.hands[1:] for hands in guesses)
    always = shown_hands(table, "always")(view, 0, list(unseen), random.Random(2), (), ())
    assert always.hands[1:] == dealt.hands[1:]


def test_once_the_stock_is_out_the_oracles_of_that_phase_are_shown_the_hands() -> None:
    state = ESCALATION.new_game(["a", "b", "c"], 4)
    normal = ESCALATION_PLAYERS["normal"]
    rng = SeededRng.from_seed(3)
    while state.stock or ESCALATION.to_act(state) != ["a"]:
        (player,) = ESCALATION.to_act(state)
        action = normal(ESCALATION.view(state, player), rng)
        assert isinstance(action, EscalationAction)
        state = ESCALATION.apply(state, player, action)
    table = Table()
    table.state = state
    view = ESCALATION.view(state, "a")
    unseen = unseen_kinds(view)
    held = [counts(hand) for hand in state.hands[1:]]
    for when in ("stock out", "always"):
        dealt = shown_hands(table, when)(view, 0, list(unseen), random.Random(1), (), ())
        assert dealt.hands[1:] == held
    guesses = [
        shown_hands(table, "stock left")(view, 0, list(unseen), random.Random(seed), (), ()).hands
        for seed in range(5)
    ]
    assert any(hands[1:] != held for hands in guesses)


def test_the_escalation_bench_plays_the_seat_kinds_asked_for(tmp_path: Path) -> None:
    data = run_bench("ai_escalation", tmp_path, "--seats", "kind told, hands shown", "normal")
    assert [row["seat"] for row in data["results"]] == ["kind told, hands shown", "normal"]


def test_draughts_search_bench_reports_depth_and_nodes_for_both_rulesets(
    tmp_path: Path,
) -> None:
    results = run_bench("ai_draughts", tmp_path, "--seconds", "0.05")["results"]
    openings = {entry["ruleset"]: entry for entry in results if entry["kind"] == "opening"}
    assert set(openings) == {"give-and-take", "turkish"}
    for entry in openings.values():
        assert entry["depth"] >= 1 and entry["nodes"] > 0 and entry["seconds"] > 0
    assert any(entry["kind"] == "game positions" for entry in results)


@pytest.mark.parametrize("name", ["escalation", "take"])
def test_the_previous_hard_players_in_the_bench_play_whole_games(name: str) -> None:
    """`bench.ai`'s ``previous`` of the games whose old ``hard`` left `bot.ai`
    (`bench.previous`) plays legal moves to the end of a game."""
    spec = game(name)
    previous = previous_players()[name]
    pairing = play_pairing(
        spec.engine, spec.players, "normal", "previous", spec.typical_players, 1, None, previous
    )
    assert pairing.games == 1 and pairing.decisions


def test_ranked_lists_each_distinct_move_once_best_first() -> None:
    """The candidates of Escalation's previous ``hard`` (`bench.previous.escalation`)."""
    hand = [Card.parse(text) for text in ("4C", "5D", "6H", "9S", "2C", "3D")]
    moves = ranked(hand, 8, 10, 1)
    assert moves[0] == play("9S")
    texts = [str(move) for move in moves]
    # 4/5/6 all count 6: one candidate per count that beats 8 (12 and 18); the 2 (not
    # the 3 as well); take.
    assert sorted(texts) == ["play 2C", "play 4C 5D", "play 4C 5D 6H", "play 9S", "take"]


def test_discord_budget_bench_counts_a_games_requests_and_moves(tmp_path: Path) -> None:
    data = run_bench("discord_budget", tmp_path)
    (played,) = data["games"]
    assert played["game"] == "geschenkt"
    assert played["moves"] > 24, "every card taken, some refused"
    assert played["interaction"] > played["moves"], "each click is answered through Discord"
    assert played["bot_per_move"] == pytest.approx(played["bot"] / played["moves"])
    assert data["rate_limited"] == played["rate_limited"]


def test_the_palette_bench_writes_a_palette_module(tmp_path: Path) -> None:
    out = tmp_path / "png_palette.py"
    done = subprocess.run(
        [sys.executable, "-m", "bench.png_palette", "--quick", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    namespace: dict[str, Any] = {}
    exec(out.read_text(), namespace)
    colours = namespace["COLOURS"]
    assert isinstance(colours, bytes) and len(colours) == 3 * OPAQUE_COLOURS
    assert len({colours[k : k + 3] for k in range(0, len(colours), 3)}) > OPAQUE_COLOURS // 2


def test_the_sentinel_bench_watches_a_failover_to_its_end(tmp_path: Path) -> None:
    extra = ("--trials", "1", "--down-after", "2000", "--settle", "0")
    data = run_bench("sentinel_failovers", tmp_path, *extra)
    (watched,) = data["2000"]
    assert watched["failover_epoch"] >= 1, "the sentinels name the epoch of the failover"
    assert watched["promoted_s"] > 0
