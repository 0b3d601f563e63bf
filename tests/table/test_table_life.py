"""The life of a table (`bot.table_life`) as plain functions, without Discord or Redis."""

from __future__ import annotations

import json

import pytest

from bot import table_life
from bot.engines.base import GameError
from bot.i18n import Lang, tr
from bot.table import Seat, Table, decode_table, encode_table


def lobby(*names: str, lang: Lang = "en", host_seat: int | None = None) -> Table:
    seats = [Seat(id=name.lower(), name=name) for name in names]
    return Table.model_validate(
        {
            "game": "geschenkt",
            "guild_id": 1,
            "channel_id": 2,
            "lang": lang,
            "host": seats[0].id,
            "seats": [seat.model_dump() for seat in seats],
            "seed": 42,
            "host_seat": host_seat,
        }
    )


def ids(table: Table) -> list[str]:
    return [seat.id for seat in table.seats]


def test_a_person_joins_once_and_not_past_the_limit() -> None:
    table = table_life.joined(lobby("Ann"), Seat(id="bob", name="Bob"), max_players=3, now=0)
    assert ids(table) == ["ann", "bob"]
    with pytest.raises(GameError, match="already"):
        table_life.joined(table, Seat(id="bob", name="Bob"), max_players=3, now=0)
    full = table_life.joined(table, Seat(id="cy", name="Cy"), max_players=3, now=0)
    with pytest.raises(GameError, match="full"):
        table_life.joined(full, Seat(id="dee", name="Dee"), max_players=3, now=0)


def test_joining_a_running_game_is_refused() -> None:
    running = lobby("Ann", "Bob").model_copy(update={"phase": "playing"})
    with pytest.raises(GameError, match="already started"):
        table_life.joined(running, Seat(id="cy", name="Cy"), max_players=5, now=0)


def test_a_leaving_host_hands_the_table_to_the_next_person() -> None:
    table = table_life.with_computer(lobby("Ann", "Bob"), "ann", "easy", max_players=5, now=0)
    left = table_life.left_lobby(table, "ann")
    assert left.host == "bob"
    assert ids(left) == ["bob", "ai:1"]


def test_the_last_person_leaving_empties_the_table_even_with_computers() -> None:
    table = table_life.with_computer(lobby("Ann"), "ann", "hard", max_players=5, now=0)
    assert table_life.left_lobby(table, "ann").seats == []


def test_only_the_host_adds_computers_named_by_level_in_the_table_language() -> None:
    table = lobby("Ann", "Bob", lang="de")
    with pytest.raises(GameError, match="host"):
        table_life.with_computer(table, "bob", "easy", max_players=5, now=0)
    table = table_life.with_computer(table, "ann", "hard", max_players=5, now=0)
    table = table_life.with_computer(table, "ann", "hard", max_players=5, now=0)
    names = [seat.name for seat in table.seats[2:]]
    assert names == ["🤖 Schwer", "🤖 Schwer 2"]
    assert ids(table)[2:] == ["ai:1", "ai:2"]


def test_the_deal_seats_by_the_seed_and_puts_the_host_where_asked() -> None:
    table = lobby("Ann", "Bob", "Cy", "Dee", host_seat=0)
    seated = table_life.seated_for_deal(table)
    assert seated.seats[0].id == "ann"
    assert sorted(ids(seated)) == sorted(ids(table))
    assert table_life.seated_for_deal(table) == seated  # same seed, same seating
    other = table_life.seated_for_deal(lobby("Ann", "Bob", "Cy", "Dee"))
    assert sorted(ids(other)) == sorted(ids(table))


def finished(*names: str, host_seat: int | None = None) -> Table:
    """A game of ``names`` (the first the host) that has ended."""
    return lobby(*names, host_seat=host_seat).model_copy(update={"phase": "over"})


def test_a_rematch_lobby_seats_only_its_asker_and_the_computers_and_invites_the_rest() -> None:
    played = table_life.with_computer(
        lobby("Ann", "Bob", "Cy"), "ann", "hard", max_players=5, now=0
    )
    played = played.model_copy(update={"phase": "over", "options": {"tactical": True}})
    rematch = table_life.rematch_lobby(played, Seat(id="bob", name="Bob"), now=1000.0)
    assert rematch.phase == "lobby" and rematch.state is None
    assert ids(rematch) == ["bob", "ai:1"]
    assert rematch.seats[1].level == "hard" and rematch.seats[1].name == "🤖 Hard"
    assert rematch.host == "bob"
    assert rematch.invited == ["ann", "bob", "cy"]
    assert rematch.rematch_of == played.gid and rematch.gid != played.gid
    assert rematch.options == {"tactical": True} and rematch.opened == 1000.0


def test_people_who_left_are_neither_invited_nor_replaced() -> None:
    played = table_life.handed_to_computer(finished("Ann", "Bob", "Cy"), "ann")
    rematch = table_life.rematch_lobby(played, Seat(id="cy", name="Cy"), now=0.0)
    assert ids(rematch) == ["cy"]
    assert rematch.invited == ["bob", "cy"]


def test_only_who_played_to_the_end_may_ask_for_a_rematch() -> None:
    played = table_life.handed_to_computer(finished("Ann", "Bob", "Cy"), "ann")
    for outsider in ("ann", "zed"):  # Ann left; Zed never played
        with pytest.raises(GameError, match="Only the players"):
            table_life.rematch_lobby(played, Seat(id=outsider, name="X"), now=0.0)
    with pytest.raises(GameError, match="still running"):
        table_life.rematch_lobby(lobby("Ann", "Bob"), Seat(id="ann", name="Ann"), now=0.0)


def test_the_hosts_chosen_seat_holds_only_for_the_same_host() -> None:
    played = finished("Ann", "Bob", host_seat=0)
    assert table_life.rematch_lobby(played, Seat(id="ann", name="Ann"), now=0).host_seat == 0
    assert table_life.rematch_lobby(played, Seat(id="bob", name="Bob"), now=0).host_seat is None


def test_a_later_rematch_click_joins_the_lobby_if_invited() -> None:
    rematch = table_life.rematch_lobby(
        finished("Ann", "Bob", "Cy"), Seat(id="ann", name="Ann"), now=0
    )
    rematch = table_life.joined_rematch(rematch, Seat(id="bob", name="Bob"), max_players=5, now=0)
    assert ids(rematch) == ["ann", "bob"]
    with pytest.raises(GameError, match="Only the players"):
        table_life.joined_rematch(rematch, Seat(id="zed", name="Zed"), max_players=5, now=0)
    with pytest.raises(GameError, match="already"):
        table_life.joined_rematch(rematch, Seat(id="bob", name="Bob"), max_players=5, now=0)


def test_the_last_invited_person_to_join_starts_the_rematch() -> None:
    rematch = table_life.rematch_lobby(
        finished("Ann", "Bob", "Cy"), Seat(id="ann", name="Ann"), now=0
    )
    assert not table_life.starts_itself(rematch, "ann", min_players=3)
    rematch = table_life.joined(rematch, Seat(id="bob", name="Bob"), max_players=5, now=0)
    assert not table_life.starts_itself(rematch, "bob", min_players=3)
    with_zed = table_life.joined(rematch, Seat(id="zed", name="Zed"), max_players=5, now=0)
    assert not table_life.starts_itself(with_zed, "zed", min_players=3)  # not invited
    rematch = table_life.joined(rematch, Seat(id="cy", name="Cy"), max_players=5, now=0)
    assert table_life.starts_itself(rematch, "cy", min_players=3)
    assert not table_life.starts_itself(rematch, "cy", min_players=4)  # too few to play
    assert not table_life.starts_itself(lobby("Ann", "Bob"), "bob", min_players=2)  # no rematch


def test_a_lone_person_with_computers_needs_nobody_to_join() -> None:
    played = table_life.with_computer(finished("Ann"), "ann", "easy", max_players=5, now=0)
    played = table_life.with_computer(played, "ann", "easy", max_players=5, now=0)
    rematch = table_life.rematch_lobby(played, Seat(id="ann", name="Ann"), now=0)
    assert ids(rematch) == ["ann", "ai:1", "ai:2"]
    assert table_life.starts_itself(rematch, "ann", min_players=3)


def test_a_stored_table_without_an_invitation_still_reads() -> None:
    stored = lobby("Ann").model_dump(mode="json")
    del stored["invited"], stored["rematch_of"]
    table = decode_table(json.dumps(stored))
    assert table.invited == [] and table.rematch_of is None
    rematch = table_life.rematch_lobby(finished("Ann", "Bob"), Seat(id="bob", name="Bob"), now=0)
    again = decode_table(encode_table(rematch))
    assert (again.invited, again.rematch_of) == (["ann", "bob"], rematch.rematch_of)


def test_the_third_missed_turn_hands_the_seat_to_a_computer() -> None:
    table = lobby("Ann", "Bob")
    for _ in range(table_life.MISSED_TURNS_LIMIT):
        table = table_life.clock_ran_out(table, "bob")
    bob = table.seat_of("bob")
    assert bob is not None and bob.left and bob.is_computer
    first, _, last = (tr("en", e.template, **e.params) for e in table.events)
    assert first.startswith("**\u2068Bob\u2069**'s time ran out") and "(1 of 3)" in first
    assert "missed 3 turns" in last


def test_moving_clears_the_missed_turns_and_names_the_move() -> None:
    table = table_life.clock_ran_out(lobby("Ann", "Bob"), "bob")
    table = table_life.moved_by(table, "bob", "take")
    seat = table.seat_of("bob")
    assert seat is not None and seat.missed == 0
    assert (
        tr("en", table.events[-1].template, **table.events[-1].params)
        == "**\u2068Bob\u2069**: take"
    )


def test_only_the_last_events_are_kept() -> None:
    table = lobby("Ann", "Bob")
    for n in range(5):
        table = table_life.moved_by(table, "ann", f"move {n}")
    moves = [event.params["move"] for event in table.events]
    assert moves == ["move 2", "move 3", "move 4"]


def test_a_host_who_leaves_a_running_game_hands_over() -> None:
    table = table_life.handed_to_computer(lobby("Ann", "Bob"), "ann")
    assert table.host == "bob"
    ann = table.seat_of("ann")
    assert ann is not None and ann.name == "🤖 Normal, for Ann" and ann.level == "normal"


def test_turn_deadlines() -> None:
    table = lobby("Ann", "Bob").model_copy(update={"turn_seconds": 60})
    deadline = table_life.turn_deadline
    common = {"now": 1000.0, "choice_timeout": 15.0}
    assert deadline(table, ["ann"], over=False, has_timed_default=False, **common) == 1060.0
    assert deadline(table, ["ann"], over=False, has_timed_default=True, **common) == 1015.0
    assert deadline(table, ["ann"], over=True, has_timed_default=False, **common) is None
    with_computer = table_life.with_computer(table, "ann", "easy", max_players=5, now=0)
    assert deadline(with_computer, ["ai:1"], over=False, has_timed_default=True, **common) is None
    no_clock = table.model_copy(update={"turn_seconds": None})
    assert deadline(no_clock, ["ann"], over=False, has_timed_default=False, **common) is None


def test_turn_mentions_name_people_only() -> None:
    table = table_life.with_computer(lobby("Ann", "Bob"), "ann", "easy", max_players=5, now=0)
    assert table_life.turn_mentions(["ann"], table) == "<@ann>, your turn."
    assert table_life.turn_mentions(["ai:1"], table) is None


def test_a_table_of_computers_alone_has_nobody_left() -> None:
    table = lobby("Ann", "Bob")
    table = table_life.handed_to_computer(table, "ann")
    assert not table_life.nobody_left(table)
    assert table_life.nobody_left(table_life.handed_to_computer(table, "bob"))


def test_a_warning_outlives_ordinary_moves_until_its_player_acts() -> None:
    table = table_life.clock_ran_out(lobby("Ann", "Bob"), "ann")
    for n in range(5):
        table = table_life.moved_by(table, "bob", f"move {n}")
    texts = [event.template for event in table.events]
    assert len(texts) == table_life.EVENTS_KEPT + 1
    assert "time ran out" in texts[0]
    table = table_life.moved_by(table, "ann", "take")
    assert all(event.warning_for is None for event in table.events)
    assert len(table.events) == table_life.EVENTS_KEPT


def draughts_rematch(*, now: float = 0) -> Table:
    """Emma's rematch of a two-player game with Ann: Emma's seat is held."""
    return table_life.rematch_lobby(finished("Ann", "Emma"), Seat(id="ann", name="Ann"), now=now)


def test_an_invited_seat_is_held_from_a_stranger_until_the_invitation_expires() -> None:
    rematch = draughts_rematch(now=1000)
    assert rematch.held_until == 1000 + table_life.INVITATION_SECONDS
    assert table_life.held_seats(rematch, now=1000) == 1
    with pytest.raises(GameError, match="held until"):
        table_life.joined(rematch, Seat(id="zed", name="Zed"), max_players=2, now=1001)
    with pytest.raises(GameError, match="held until"):
        table_life.with_computer(rematch, "ann", "easy", max_players=2, now=1001)
    expired = 1000 + table_life.INVITATION_SECONDS
    assert table_life.held_seats(rematch, now=expired) == 0
    late = table_life.joined(rematch, Seat(id="zed", name="Zed"), max_players=2, now=expired)
    assert ids(late) == ["ann", "zed"]


def test_the_invited_person_takes_the_held_seat() -> None:
    rematch = draughts_rematch(now=1000)
    emma = table_life.joined(rematch, Seat(id="emma", name="Emma"), max_players=2, now=1001)
    assert ids(emma) == ["ann", "emma"]
    assert table_life.held_seats(emma, now=1001) == 0
    assert table_life.starts_itself(emma, "emma", min_players=2)


def test_seats_beyond_the_held_ones_are_anyones() -> None:
    rematch = table_life.rematch_lobby(
        finished("Ann", "Bob", "Cy"), Seat(id="ann", name="Ann"), now=0
    )
    assert table_life.held_seats(rematch, now=1) == 2
    zed = table_life.joined(rematch, Seat(id="zed", name="Zed"), max_players=4, now=1)
    with pytest.raises(GameError, match="held until"):
        table_life.joined(zed, Seat(id="yan", name="Yan"), max_players=4, now=1)
    with_bob = table_life.joined(zed, Seat(id="bob", name="Bob"), max_players=4, now=1)
    with_cy = table_life.joined(with_bob, Seat(id="cy", name="Cy"), max_players=4, now=1)
    assert ids(with_cy) == ["ann", "zed", "bob", "cy"]


def test_only_the_host_opens_the_held_seats_to_everyone() -> None:
    rematch = draughts_rematch(now=1000)
    with pytest.raises(GameError, match="Only the host"):
        table_life.with_seats_opened(rematch, "emma")
    opened = table_life.with_seats_opened(rematch, "ann")
    assert opened.held_until is None and table_life.held_seats(opened, now=1001) == 0
    zed = table_life.joined(opened, Seat(id="zed", name="Zed"), max_players=2, now=1001)
    assert ids(zed) == ["ann", "zed"]


def test_a_rematch_with_nobody_to_wait_for_holds_no_seat() -> None:
    played = table_life.with_computer(finished("Ann"), "ann", "easy", max_players=5, now=0)
    rematch = table_life.rematch_lobby(played, Seat(id="ann", name="Ann"), now=0)
    assert rematch.held_until is None


def test_one_who_resigned_played_to_the_end_and_is_invited() -> None:
    """Draughts' leave resigns: it ends the game with a result and hands no seat to a
    computer, so the one who resigned is a player of the finished game."""
    played = finished("Ann", "Emma")
    assert not any(seat.left for seat in played.seats)
    rematch = table_life.rematch_lobby(played, Seat(id="ann", name="Ann"), now=0)
    assert rematch.invited == ["ann", "emma"]
