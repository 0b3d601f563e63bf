"""The tournament pictures of the docs: a Geschenkt tournament's standings after round 2
and its final standings, as the bot posts them, drawn by `bot.render.tournament` and
scaled to 400 px wide (Lanczos), as a phone shows them, and kept as small palette
PNGs like the golden images.

The tournament is played through `bot.tournament` (sign-up, computer fill, three
grouped rounds) with seeded made-up results, so the standings, points and tie-breaks
are the real ones; the words are English.

    python -m bench.tournament_pictures [--out DIR]
"""

from __future__ import annotations

import argparse
import io
import random
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from PIL import Image

from bot.render.output import to_png
from bot.render.tournament import StandingRow, render_standings
from bot.tournament import Standing, Tournament, create, join, record_result, standings, start
from bot.tournament.rounds import advance

OUT = Path(__file__).resolve().parents[1] / "tests" / "render" / "golden"
"""Beside the README's table picture."""
SHOWN_WIDTH = 400
SEED = 45
NOW = 1_760_000_000.0
PEOPLE = (
    ("111", "Alice", 1610),
    ("112", "bob_the_builder", 1495),
    ("113", "Chandrasekhar", 1550),
    ("114", "Zoë", 1720),
    ("115", "DeltaForce", 1430),
    ("116", "mika", 1505),
    ("117", "The Grand Duchess of Luxembourg", 1580),
    ("118", "山田太郎", 1660),
    ("119", "Søren", 1470),
    ("120", "محمد", 1525),
    ("121", "Łukasz", 1600),
)
"""Eleven people sign up; a computer makes the twelfth (tables of four)."""
HEADERS = ("#", "Player", "Games", "Points", "Tie-break")
MORE = "+ {n} more"


def points_text(value: float) -> str:
    """Points as a player reads them in a grouped tournament, whose points come in
    halves, thirds, quarters and sixths: 2, 2.5, 1.33 (two decimals at most)."""
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def rows_of(lines: Sequence[Standing]) -> list[StandingRow]:
    return [
        StandingRow(
            rank=line.place,
            name=line.name,
            points=points_text(line.points),
            tie_break=f"Bh {points_text(line.buchholz)}",
            games=line.games,
            is_computer=line.computer,
        )
        for line in lines
    ]


def signed_up() -> Tournament:
    tournament = create(
        id="t45",
        game="geschenkt",
        format="groups",
        round_count=3,
        round_seconds=900,
        computer_fill=True,
        organiser="111",
        min_players=3,
        table_min=4,
        table_max=4,
        seed=SEED,
    )
    for player, name, rating in PEOPLE:
        tournament = join(tournament, player, name, rating=rating)
    return tournament


def play_round(tournament: Tournament, rng: random.Random) -> Tournament:
    """Every table of the current round ends, places drawn at random (a shared place
    now and then)."""
    current = tournament.current
    assert current is not None
    for table in current.tables:
        seats = list(table.seats)
        rng.shuffle(seats)
        places = {player: k + 1 for k, player in enumerate(seats)}
        if rng.random() < 0.25:  # the last two share a place
            places[seats[-1]] = places[seats[-2]]
        tournament = record_result(tournament, table.id, places)
    return tournament


def png_at(png: bytes, width: int = SHOWN_WIDTH) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        full = image.convert("RGBA")
    height = round(full.height * width / full.width)
    return full.resize((width, height), Image.Resampling.LANCZOS)


def pictures() -> dict[str, bytes]:
    """The two pictures at full size, by file name."""
    rng = random.Random(SEED)
    tournament = signed_up()
    table = partial(render_standings, headers=HEADERS, more_text=MORE)
    drawn: dict[str, bytes] = {}
    tournament = start(tournament, NOW)
    for number in range(1, 4):
        tournament = play_round(tournament, rng)
        if number == 2:
            drawn["tournament-round.png"] = table(
                "Geschenkt tournament",
                "Standings after round 2 of 3 · 12 players",
                rows_of(standings(tournament)),
                "en",
                final=False,
            )
        tournament = advance(tournament, NOW + 3600 * number)
    assert tournament.state == "finished"
    drawn["tournament-final.png"] = table(
        "Geschenkt tournament — final standings",
        "3 rounds · 12 players · points by finishing place, Buchholz to break ties",
        rows_of(standings(tournament)),
        "en",
        final=True,
    )
    return drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help="where the pictures go")
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    for name, png in pictures().items():
        path = arguments.out / name
        path.write_bytes(to_png(png_at(png)))
        print(path)


if __name__ == "__main__":
    main()
