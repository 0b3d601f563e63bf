"""Images that fit in every language and at every table size (issue 42): every game
drawn in every language of the golden scenes (English, German, Turkish, Spanish and the
40 %-longer pseudo-locale) at every player count it allows, at its start, in the
middle (once with each seat to act), at its end (as played, and with every seat tied
for first, the longest winners' heading) and, for a game with one, its private panel
(each seat's own, on their turn and while another seat acts).

Every image is checked by `bot.render.audit`: no text cut short but names (no
ellipsis on a label, a number, a sentence), no two texts or a text and a card
overlapping, no text off its image, and every text legible on a phone: at least
`MIN_PREVIEW_PX` (a caption: `MIN_CAPTION_PREVIEW_PX`) when the image is shown
`PREVIEW_WIDTH` px wide. Seats are named as at a real table: people (one with a name
of Discord's 32 characters) and computer seats, named in the table's language and
numbered as the bot numbers them ("🤖 Easy", "🤖 Easy 2", "🤖 Hard").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel

from bench.scenes import bot_options, player_ids, playout
from bot.adapters.base import GameAdapter
from bot.ai import Level
from bot.engines.base import PlayerId
from bot.games import GAMES, GameSpec
from bot.i18n import Lang
from bot.render import cards
from bot.render.audit import TextAudit, auditing_text
from bot.render.text import MIN_CAPTION_SIZE, MIN_TEXT_SIZE
from bot.table import Seat
from bot.table_life import computer_seat
from tests.render import test_take_render
from tests.render.golden_scenes import LANGS
from tests.render.images import decode

SWEEP_LANGS: tuple[Lang, ...] = ("en", *LANGS)
PREVIEW_WIDTH = 400
"""About how wide Discord shows an image on a phone."""
MIN_PREVIEW_PX = MIN_TEXT_SIZE / 2
"""9 px: the least size of any text on a phone."""
MIN_CAPTION_PREVIEW_PX = MIN_CAPTION_SIZE / 2
"""11 px: the least size of a caption on a phone."""
SEED = 3
ROSTER = ("Alice", "easy", "easy", "Johannes Sebastian Oberhauser II", "hard", "easy", "Bjørn")
"""Who sits at a table of n: the first n of these (a level: a computer seat)."""
LEVELS: dict[str, Level] = {"easy": "easy", "normal": "normal", "hard": "hard"}
PHASES = ("start", "middle", "end", "private")
OPTIONS: dict[str, dict[int, dict[str, Any]]] = {
    "escalation": {
        2: {"deals": 1},
        3: {"deals": 3},
        4: {"deals": 5},
        5: {"deals": 7},
        6: {"deals": 10},
    },
}
"""Options not at their defaults, by game and player count: Escalation from one deal
(no running totals) to its most (two columns of deals at the end)."""


def seat_names(players: list[PlayerId], lang: Lang) -> dict[PlayerId, str]:
    """The roster's names for ``players``, computers named by `computer_seat` as the bot
    names them in ``lang``."""
    seats: list[Seat] = []
    for player, who in zip(players, ROSTER, strict=False):
        if who in LEVELS:
            seat = computer_seat(seats, LEVELS[who], lang)
            seats.append(seat.model_copy(update={"id": player}))
        else:
            seats.append(Seat(id=player, name=who))
    return {seat.id: seat.name for seat in seats}


def spec_of(game: str) -> GameSpec[Any, Any, Any]:
    return next(spec for spec in GAMES if spec.name == game)


def has_private(adapter: GameAdapter[Any, Any, Any]) -> bool:
    return type(adapter).render_private is not GameAdapter.render_private


@cache
def game_states(game: str, count: int) -> tuple[list[PlayerId], list[BaseModel]]:
    """Every state of one seeded game of ``count`` players, start to end. TAKE's random
    players seldom finish a match, so its game is the TAKE tests' simple players'."""
    engine = spec_of(game).engine
    if game == "take":
        states: list[BaseModel] = list(test_take_render.playout(count, 2024))
        return list(states[0].players), states  # type: ignore[attr-defined]
    players = player_ids(count, SEED)
    options = bot_options(engine, players, OPTIONS.get(game, {}).get(count, {}))
    states = playout(engine, players, SEED, options)
    assert engine.is_over(states[-1]), f"{game} with {count} players did not end"
    return players, states


def each_to_act(game: str, count: int) -> list[tuple[PlayerId, BaseModel]]:
    """For each seat, the first state from the middle of the game on with that seat to
    act (a seat that never acts again is left out)."""
    engine = spec_of(game).engine
    players, states = game_states(game, count)
    found: dict[PlayerId, BaseModel] = {}
    for state in states[len(states) // 2 :]:
        for player in engine.to_act(state)[:1]:
            found.setdefault(player, state)
    return [(player, found[player]) for player in players if player in found]


def tied(game: str, view: BaseModel) -> BaseModel | None:
    """The final ``view`` with every seat tied for first (None: the game has no ties
    of its own, as draughts, whose draw is its own result)."""
    if game == "geschenkt":
        seats = view.seats  # type: ignore[attr-defined]
        best = min(seat.score for seat in seats)
        return view.model_copy(
            update={"seats": [seat.model_copy(update={"score": best}) for seat in seats]}
        )
    if game in ("escalation", "take"):
        scores = view.scores or {}  # type: ignore[attr-defined]
        best = max(scores.values())
        return view.model_copy(update={"scores": dict.fromkeys(scores, best)})
    if game == "give_and_take":
        places = view.places or {}  # type: ignore[attr-defined]
        return view.model_copy(update={"places": dict.fromkeys(places, 1)})
    return None


Render = Callable[[], bytes | None]


def images(game: str, count: int, phase: str, lang: Lang) -> Iterator[tuple[str, Render]]:
    """(what it shows, how to draw it) of every image of one case."""
    adapter = spec_of(game).adapter
    engine = adapter.engine
    players, states = game_states(game, count)
    names = seat_names(players, lang)

    def table(view: BaseModel) -> Render:
        return lambda: adapter.render_table(view, names, lang)

    def private(view: BaseModel) -> Render:
        return lambda: adapter.render_private(view, names, lang, {})

    if phase == "start":
        yield "table", table(engine.view(states[0], None))
    elif phase == "middle":
        for player, state in each_to_act(game, count):
            yield f"table, {names[player]} to act", table(engine.view(state, None))
    elif phase == "end":
        view = engine.view(states[-1], None)
        yield "table", table(view)
        if (everyone := tied(game, view)) is not None:
            yield "table, every seat tied", table(everyone)
    else:
        for player, state in each_to_act(game, count):
            waiting = players[(players.index(player) + 1) % len(players)]
            yield f"{names[player]}'s panel, their turn", private(engine.view(state, player))
            yield (
                f"{names[waiting]}'s panel, {names[player]} to act",
                private(engine.view(state, waiting)),
            )


def problems(audit: TextAudit, width: int) -> list[str]:
    small = audit.too_small(width, MIN_PREVIEW_PX, MIN_CAPTION_PREVIEW_PX, PREVIEW_WIDTH)
    return [
        *(f"cut: {whole!r} drawn as {drawn!r}" for whole, drawn in audit.cuts),
        *(f"overlap: {a!r} and {b!r}" for a, b in audit.overlaps()),
        *(f"off the image: {text!r}" for text in audit.outside()),
        *(f"too small on a phone: {text!r} at {px} px" for text, px in small),
    ]


@dataclass(frozen=True)
class Case:
    game: str
    lang: Lang
    players: int
    phase: str

    @property
    def id(self) -> str:
        return f"{self.game}-{self.lang}-{self.players}p-{self.phase}"


def cases() -> list[Case]:
    found = []
    for spec in GAMES:
        engine = spec.engine
        phases = PHASES if has_private(spec.adapter) else PHASES[:-1]
        for count in range(engine.min_players, engine.max_players + 1):
            for lang in SWEEP_LANGS:
                found += [Case(spec.name, lang, count, phase) for phase in phases]
    return found


CASES = cases()


def test_the_sweep_covers_every_game_size_language_and_phase() -> None:
    sizes = {spec.name: spec.engine.max_players - spec.engine.min_players + 1 for spec in GAMES}
    for spec in GAMES:
        game = spec.name
        shown = {(c.lang, c.players, c.phase) for c in CASES if c.game == game}
        phases = 4 if has_private(spec.adapter) else 3
        assert len(shown) == len(SWEEP_LANGS) * sizes[game] * phases
    assert {"de", "tr", "es", "en"} < set(SWEEP_LANGS)
    assert any(lang.startswith("en_") for lang in SWEEP_LANGS)  # the pseudo-locale


def test_the_sweep_names_computers_as_the_bot_does() -> None:
    names = seat_names(player_ids(7, SEED), "en")
    assert [name for name in names.values() if name.startswith("🤖")] == [
        "🤖 Easy",
        "🤖 Easy 2",
        "🤖 Hard",
        "🤖 Easy 3",
    ]
    assert max(len(name) for name in names.values()) == 32
    assert "🤖 Kolay 2" in seat_names(player_ids(3, SEED), "tr").values()


CARD_SPRITES = (cards.number_card, cards.playing_card, cards.joker_card, cards.card_tag)
"""The cached sprites with text on them: drawn afresh for each case, so an audit sees
their text (a cached sprite was audited when it was first drawn, maybe by another
test)."""


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_text_fits_whole_and_legible(case: Case) -> None:
    """No image of the case cuts a text (names aside), overlaps texts, draws off its
    edge or draws a text too small for a phone."""
    for sprite in CARD_SPRITES:
        sprite.cache_clear()
    found: dict[str, list[str]] = {}
    drawn = 0
    for shows, render in images(case.game, case.players, case.phase, case.lang):
        with auditing_text() as audit:
            png = render()
        assert png is not None, shows
        drawn += 1
        if wrong := problems(audit, decode(png).width):
            found[shows] = wrong
    assert drawn
    assert found == {}
