"""The life of a table, as pure functions: who sits where, and when the bot acts.

Joining, leaving and the host's hand-over, computer seats, the seating of a deal, a
rematch's lobby and who it invites, missed turns and turn deadlines. No discord and no
redis here: each function takes a `Table` and returns a new one (or raises a
`GameError` the player is shown), so the Discord side only loads, calls, saves and answers.
"""

from __future__ import annotations

from bot.ai import Level
from bot.engines.base import GameError, PlayerId, SeededRng
from bot.i18n import N_, Lang, tr
from bot.names import plain_name, shown_name
from bot.table import Event, Seat, Table

EVENTS_KEPT = 3
"""Events the table message shows (the newest last)."""
MISSED_TURNS_LIMIT = 3
INVITATION_SECONDS = 600
"""How long a rematch lobby holds the invited people's seats for them."""
"""Turns in a row a person may let the clock run out before a computer takes over."""
LEVEL_NAMES: dict[Level, str] = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
COMPUTER_NAMES: dict[Level, str] = {
    "easy": N_("🤖 Easy"),
    "normal": N_("🤖 Normal"),
    "hard": N_("🤖 Hard"),
}
"""A computer seat's public name: short, so it fits wherever names are drawn."""


def person_seat(player: PlayerId, display_name: str) -> Seat:
    return Seat(id=player, name=plain_name(display_name))


def joined(table: Table, seat: Seat, max_players: int, *, now: float) -> Table:
    """``seat`` joins the lobby: into a seat held for them, if they were invited to a
    rematch, or else into one nobody holds."""
    if table.phase != "lobby":
        raise GameError("The game has already started; wait for the next one.")
    if table.seat_of(seat.id) is not None:
        raise GameError("You're already at this table.")
    _check_room(table, max_players)
    if seat.id not in table.invited:
        _check_unheld_room(table, max_players, now)
    return table.model_copy(update={"seats": [*table.seats, seat]})


def left_lobby(table: Table, player: PlayerId) -> Table:
    """``player`` leaves the lobby. A leaving host hands over to the next person; with
    no person left the table is empty (and the caller closes it)."""
    if table.phase != "lobby":
        raise GameError(
            "You can't leave a running game; the host can end it with `/{game} abandon`.",
            game=table.game,
        )
    if table.seat_of(player) is None:
        raise GameError("You're not at this table.")
    seats = [seat for seat in table.seats if seat.id != player]
    host = table.host
    if player == host:
        people = [seat.id for seat in seats if not seat.is_ai]
        host = people[0] if people else ""
        if not people:
            seats = []
    return table.model_copy(update={"seats": seats, "host": host})


def with_computer(
    table: Table, player: PlayerId, level: Level, max_players: int, *, now: float
) -> Table:
    """The host adds a computer seat of ``level`` to the lobby, in a seat nobody holds."""
    if player != table.host:
        raise GameError("Only the host can add computer players.")
    _check_room(table, max_players)
    _check_unheld_room(table, max_players, now)
    seat = computer_seat(table.seats, level, table.lang)
    return table.model_copy(update={"seats": [*table.seats, seat]})


def with_seats_opened(table: Table, player: PlayerId) -> Table:
    """The host opens the seats a rematch lobby holds for its invited people to anyone
    (the invited may still take them, while they are free)."""
    if player != table.host:
        raise GameError("Only the host can open the held seats.")
    return table.model_copy(update={"held_until": None})


def held_seats(table: Table, *, now: float) -> int:
    """How many seats the rematch lobby holds for invited people not seated yet."""
    if table.held_until is None or now >= table.held_until:
        return 0
    return len(awaited(table))


def awaited(table: Table) -> list[PlayerId]:
    """The people invited to the rematch lobby who haven't taken their seat yet."""
    return [player for player in table.invited if table.seat_of(player) is None]


def with_pings_toggled(table: Table, player: PlayerId) -> Table:
    """The host turns the table's turn pings off, or on again."""
    if player != table.host:
        raise GameError("Only the host can change the table's settings.")
    return table.model_copy(update={"pings": not table.pings})


def computer_seat(seats: list[Seat], level: Level, lang: Lang) -> Seat:
    """A new computer seat, named by its level in the table's language (its name is
    public); a second one of the same level is numbered."""
    taken_ids = {seat.id for seat in seats}
    number = next(n for n in range(1, 100) if f"ai:{n}" not in taken_ids)
    base = tr(lang, COMPUTER_NAMES[level])
    taken_names = {seat.name for seat in seats}
    name = next(
        candidate
        for candidate in (base, *(f"{base} {n}" for n in range(2, 100)))
        if candidate not in taken_names
    )
    return Seat(id=f"ai:{number}", name=name, level=level)


def seated_for_deal(table: Table) -> Table:
    """The seats in playing order: shuffled by the table's seed, with the host moved to
    the seat they asked for (draughts: 0 plays White)."""
    seats = list(table.seats)
    SeededRng.from_seed(table.seed).shuffle(seats)
    if table.host_seat is not None:
        host = next(seat for seat in seats if seat.id == table.host)
        seats.remove(host)
        seats.insert(min(table.host_seat, len(seats)), host)
    return table.model_copy(update={"seats": seats})


def rematch_lobby(finished: Table, seat: Seat, *, now: float) -> Table:
    """The lobby of a rematch, asked for by ``seat`` (a person who played the finished
    game to its end), its host and first seat: the same game and options, the finished
    game's computer seats seated again at their levels, and every person who played to
    the end invited (`Table.invited`); nobody else is seated before they join, and their
    seats are held for them for `INVITATION_SECONDS`. People who left the finished game
    (a computer took their seat) are not invited, and their seats are not filled; a
    resignation ends a game, so the one who resigned played it to the end. The host's
    chosen seat (draughts: the colour) holds only for the same host."""
    if finished.phase != "over":
        raise GameError("This game is still running.")
    _check_played_to_the_end(finished, seat.id)
    computers = [s.model_copy(update={"missed": 0}) for s in finished.seats if s.is_ai]
    invited = [s.id for s in finished.seats if not s.is_computer]
    return Table(
        game=finished.game,
        opened=now,
        guild_id=finished.guild_id,
        channel_id=finished.channel_id,
        lang=finished.lang,
        pings=finished.pings,
        ping_after=finished.ping_after,
        host=seat.id,
        seats=[seat, *computers],
        options=finished.options,
        host_seat=finished.host_seat if seat.id == finished.host else None,
        turn_seconds=finished.turn_seconds,
        invited=invited,
        rematch_of=finished.gid,
        held_until=now + INVITATION_SECONDS if set(invited) - {seat.id} else None,
    )


def joined_rematch(table: Table, seat: Seat, max_players: int, *, now: float) -> Table:
    """``seat`` clicked the finished game's Rematch after its rematch lobby opened: they
    join it, if they were invited."""
    if seat.id not in table.invited:
        raise GameError("Only the players of this game can start a rematch.")
    return joined(table, seat, max_players, now=now)


def starts_itself(table: Table, joiner: PlayerId, min_players: int) -> bool:
    """Whether ``joiner`` taking their seat begins the game without a Start: they were
    the last invited person of a rematch lobby to take a seat, and the seats are enough
    to play."""
    return (
        table.phase == "lobby"
        and joiner in table.invited
        and not awaited(table)
        and len(table.seats) >= min_players
    )


def _check_played_to_the_end(finished: Table, player: PlayerId) -> None:
    seat = finished.seat_of(player)
    if seat is None or seat.left:
        raise GameError("Only the players of this game can start a rematch.")


def handed_to_computer(table: Table, player: PlayerId) -> Table:
    """``player`` is gone for good from the running game: a computer plays their seat
    from now on, and a leaving host hands over to the first person still playing."""
    seats = [
        _computer_plays(seat, table.lang) if seat.id == player else seat for seat in table.seats
    ]
    host = table.host
    if host == player:
        people = [seat.id for seat in seats if not seat.is_computer]
        host = people[0] if people else host
    return table.model_copy(update={"seats": seats, "host": host})


def moved(table: Table, player: PlayerId) -> Table:
    """``player`` moved by themselves: their run of missed turns is over, and so are the
    warnings to them."""
    table = _with_seat(table, player, missed=0)
    events = [event for event in table.events if event.warning_for != player]
    return table.model_copy(update={"events": events})


def clock_ran_out(table: Table, player: PlayerId) -> Table:
    """Count a missed turn for ``player`` (an event on the table says so); the last one
    allowed hands the seat to a computer."""
    seat = table.seat_of(player)
    if seat is None:
        raise GameError("You're not playing in this game.")
    missed = seat.missed + 1
    table = _with_seat(table, player, missed=missed)
    if missed < MISSED_TURNS_LIMIT:
        return with_event(
            table,
            N_("**{name}**'s time ran out; the computer moved for them ({n} of {limit})."),
            warning_for=player,
            name=shown_name(seat.name),
            n=missed,
            limit=MISSED_TURNS_LIMIT,
        )
    table = with_event(
        table,
        N_("**{name}** missed {limit} turns in a row; a computer plays their seat now."),
        warning_for=player,
        name=shown_name(seat.name),
        limit=MISSED_TURNS_LIMIT,
    )
    return handed_to_computer(table, player)


def moved_by(table: Table, player: PlayerId, move: str) -> Table:
    """``player`` moved by themselves: an event names the move, and their run of
    missed turns is over."""
    seat = table.seat_of(player)
    name = shown_name(seat.name) if seat else player
    return with_event(moved(table, player), N_("**{name}**: {move}"), name=name, move=move)


def with_event(
    table: Table, template: str, *, warning_for: PlayerId | None = None, **params: str | int
) -> Table:
    """``table`` with one more event (``template`` marked with `N_`). Past `EVENTS_KEPT`
    ordinary events the oldest is dropped; a warning (``warning_for`` a player) is never
    dropped for an ordinary move, only for more than `EVENTS_KEPT` newer warnings."""
    event = Event(template=template, params=params, warning_for=warning_for)
    return table.model_copy(update={"events": kept_events([*table.events, event])})


def kept_events(events: list[Event]) -> list[Event]:
    """The newest `EVENTS_KEPT` ordinary events and warnings each, in their order."""
    warnings = [e for e in events if e.warning_for is not None][-EVENTS_KEPT:]
    ordinary = [e for e in events if e.warning_for is None][-EVENTS_KEPT:]
    kept = {id(e) for e in warnings + ordinary}
    return [e for e in events if id(e) in kept]


def turn_deadline(
    table: Table,
    to_act: list[PlayerId],
    *,
    now: float,
    over: bool,
    has_timed_default: bool,
    choice_timeout: float,
) -> float | None:
    """When the bot moves for the person it waits for: at the timeout of a choice with
    a default, or when the turn clock runs out; None: it waits for them (or a computer
    is to move, or the game is over)."""
    if over or table.computers(to_act):
        return None
    if has_timed_default:
        return now + choice_timeout
    if table.turn_seconds:
        return now + table.turn_seconds
    return None


def people_among(table: Table, players: list[PlayerId]) -> list[PlayerId]:
    """Those of ``players`` who are people (their seats not played by the bot)."""
    computers = table.computers(players)
    return [player for player in players if player not in computers]


def ping_due(
    table: Table,
    people: list[PlayerId],
    *,
    now: float,
    ping_after: float,
    deadline: float | None,
) -> float | None:
    """When to ping ``people``, whom the game waits for after the move being saved, if
    they still haven't acted: ``ping_after`` seconds after the turn reached them, and
    at the latest halfway to the turn's ``deadline`` (so someone away hears of it
    before the clock runs out). A turn its people already acted in (a draw, then a
    meld) pings nobody: they are at the table. None: no ping."""
    if not people:
        return None
    if people == table.waiting_for:
        last = table.moves[-1] if table.moves else None
        if last is not None and last.by == "click" and last.p in people:
            return None
        return table.ping_at
    wait = float(ping_after)
    if deadline is not None:
        wait = min(wait, max(deadline - now, 0.0) / 2)
    return now + wait


def turn_mentions(players: list[PlayerId], table: Table) -> str | None:
    """ "@Alice, your turn." for the people (not computers) among ``players``."""
    people = people_among(table, players)
    if not people:
        return None
    mentions = " ".join(f"<@{p}>" for p in people)
    return tr(table.lang, "{mentions}, your turn.", mentions=mentions)


def _check_room(table: Table, max_players: int) -> None:
    if len(table.seats) >= max_players:
        raise GameError("The table is full ({n} players).", n=max_players)


def _check_unheld_room(table: Table, max_players: int, now: float) -> None:
    """Refuse a seat to someone not invited when every free seat is held."""
    held = held_seats(table, now=now)
    if held and len(table.seats) + held >= max_players:
        raise GameError(
            "The seats left are held until {time} for the players invited to the "
            "rematch; the host can open them to everyone.",
            time=f"<t:{int(table.held_until or now)}:t>",
        )


def _computer_plays(seat: Seat, lang: Lang) -> Seat:
    """The seat of a person gone for good, played by a computer and named as one
    ("🤖 Normal, for Łukasz"), so it never reads as the person."""
    level: Level = seat.level or "normal"
    name = tr(
        lang, "{computer}, for {name}", computer=tr(lang, COMPUTER_NAMES[level]), name=seat.name
    )
    return seat.model_copy(update={"left": True, "level": level, "name": name})


def nobody_left(table: Table) -> bool:
    """Whether every seat of the running table is played by a computer: the game is then
    abandoned, for a game of computers alone has nobody to play for."""
    return all(seat.is_computer for seat in table.seats)


def _with_seat(table: Table, player: PlayerId, *, missed: int) -> Table:
    seats = [
        seat.model_copy(update={"missed": missed}) if seat.id == player else seat
        for seat in table.seats
    ]
    return table.model_copy(update={"seats": seats})
