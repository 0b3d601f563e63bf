"""Before the first round: create, join, leave, cancel and start."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from bot.engines.base import PlayerId
from bot.tournament.errors import TournamentError
from bot.tournament.groups import seats_to_fill, table_sizes
from bot.tournament.model import MAX_ENTRANTS, Entrant, Format, Level, Tournament
from bot.tournament.rounds import pair_next_round

MIN_PEOPLE = 2
"""A tournament needs two people at least, however many computers it may add."""


def create(
    *,
    id: str,
    game: str,
    format: Format,
    round_count: int,
    round_seconds: int,
    computer_fill: bool,
    organiser: PlayerId,
    min_players: int,
    table_min: int,
    table_max: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    guild_id: int | None = None,
    channel_id: int | None = None,
) -> Tournament:
    """A tournament open for sign-up. Swiss takes ``table_min = table_max = 2``; groups
    take the game's limits, or narrower ones that the organiser chose (raises
    pydantic's ``ValidationError`` on impossible settings)."""
    return Tournament(
        id=id,
        game=game,
        options=dict(options or {}),
        format=format,
        round_count=round_count,
        round_seconds=round_seconds,
        computer_fill=computer_fill,
        min_players=min_players,
        table_min=table_min,
        table_max=table_max,
        organiser=organiser,
        seed=seed,
        guild_id=guild_id,
        channel_id=channel_id,
    )


def join(tournament: Tournament, player: PlayerId, name: str, *, rating: int = 0) -> Tournament:
    """Sign ``player`` up (``rating``: their seeding, if the server has one)."""
    _require_signup(tournament)
    if tournament.entrant(player) is not None:
        raise TournamentError("already_joined", f"{player} has already joined", player=player)
    if len(tournament.entrants) >= MAX_ENTRANTS:
        raise TournamentError(
            "full", f"the tournament is full ({MAX_ENTRANTS})", limit=MAX_ENTRANTS
        )
    entrant = Entrant(id=player, name=name, rating=rating)
    return _changed(tournament, entrants=(*tournament.entrants, entrant))


def leave(tournament: Tournament, player: PlayerId) -> Tournament:
    _require_signup(tournament)
    if tournament.entrant(player) is None:
        raise TournamentError("not_joined", f"{player} has not joined", player=player)
    entrants = tuple(e for e in tournament.entrants if e.id != player)
    return _changed(tournament, entrants=entrants)


def withdraw(tournament: Tournament, player: PlayerId) -> Tournament:
    """``player`` leaves a running tournament: the rounds after this one don't pair
    them; their game of this round counts as it ends, and their points stay."""
    if tournament.state != "running":
        raise TournamentError(
            "not_running", f"the tournament is {tournament.state}", state=tournament.state
        )
    entrant = tournament.entrant(player)
    if entrant is None or entrant.computer:
        raise TournamentError("not_joined", f"{player} has not joined", player=player)
    if entrant.withdrawn:
        raise TournamentError("withdrawn", f"{player} has withdrawn already", player=player)
    entrants = tuple(
        e.model_copy(update={"withdrawn": True}) if e.id == player else e
        for e in tournament.entrants
    )
    return _changed(tournament, entrants=entrants)


def cancel(tournament: Tournament) -> Tournament:
    """Cancel in sign-up or mid-tournament (results so far stay in the record)."""
    if tournament.state not in ("signup", "running"):
        raise TournamentError(
            "over", f"the tournament is {tournament.state}", state=tournament.state
        )
    return _changed(tournament, state="cancelled")


def computers_needed(tournament: Tournament, people: int) -> int:
    """Computers that would fill a field of ``people`` (0 without computer fill)."""
    if not tournament.computer_fill:
        return 0
    if tournament.format == "swiss":
        return people % 2
    return seats_to_fill(people, tournament.table_min, tournament.table_max)


def english_computer_name(number: int) -> str:
    return f"🤖 Computer {number}"


def start(
    tournament: Tournament,
    now: float,
    *,
    computer_level: Level = "normal",
    computer_name: Callable[[int], str] = english_computer_name,
) -> Tournament:
    """Close the sign-up, add the computers the field needs (named by
    ``computer_name``, in the tournament's language), fix the initial order (rating,
    then a shuffle by the tournament's seed) and pair the first round."""
    _require_signup(tournament)
    people = len(tournament.entrants)
    if people < MIN_PEOPLE:
        raise TournamentError(
            "too_few", f"{people} entrants; {MIN_PEOPLE} needed", entrants=people, needed=MIN_PEOPLE
        )
    computers = [
        Entrant(id=f"ai:{n}", name=computer_name(n), computer=True, level=computer_level)
        for n in range(1, computers_needed(tournament, people) + 1)
    ]
    entrants = [*tournament.entrants, *computers]
    if tournament.format == "groups":
        sizes = table_sizes(len(entrants), tournament.table_min, tournament.table_max)
        if sizes is None:
            raise TournamentError(
                "cannot_seat",
                f"{len(entrants)} entrants can't sit at tables of "
                f"{tournament.table_min}–{tournament.table_max}",
                entrants=len(entrants),
                table_min=tournament.table_min,
                table_max=tournament.table_max,
            )
    rng = random.Random(tournament.seed)
    shuffle = {entrant.id: rng.random() for entrant in entrants}
    entrants.sort(key=lambda e: (-e.rating, shuffle[e.id]))
    running = tournament.model_copy(update={"entrants": tuple(entrants), "state": "running"})
    return pair_next_round(running, now)  # one revision up, like every change


def _require_signup(tournament: Tournament) -> None:
    if tournament.state != "signup":
        raise TournamentError(
            "not_signup", f"the sign-up is closed ({tournament.state})", state=tournament.state
        )


def _changed(tournament: Tournament, **update: Any) -> Tournament:
    return tournament.model_copy(update={**update, "revision": tournament.revision + 1})
