"""discord.py keeps nothing per message for the views the bot sends.

discord.py stores the view of every message it sends or edits, under the message's id,
for as long as the process lives, unless every item of the view is a dynamic item
(routed by its custom_id's pattern). The bot's buttons carry their revision in the
custom_id, so a stored view of plain buttons grows with every edit of a table: the
bot's memory grew by megabytes a minute in the 30-minute soak. Every view a game
message shows is built here as it is for Discord and stored as discord.py stores it."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest
from discord.ui.view import ViewStore

from bot import table_life
from bot.engines.base import SeededRng
from bot.games import GAMES, GameSpec
from bot.play.history import RecordButton
from bot.play.messages import Messages
from bot.play.routes import ButtonRoute, SelectRoute
from bot.render.workers import RenderWorkers
from bot.table import Table

PERSONS = ["101", "102", "103", "104", "105"]


class NoPictures:
    """The render workers, drawing nothing (only the views matter here)."""

    async def run(self, *_: Any) -> None:
        return None


def seated(spec: GameSpec[Any, Any, Any]) -> Table:
    seats = [table_life.person_seat(p, f"P{p}") for p in PERSONS[: spec.typical_players]]
    return Table(game=spec.name, guild_id=1, channel_id=2, host=PERSONS[0], seats=seats, seed=7)


async def every_view(spec: GameSpec[Any, Any, Any]) -> list[discord.ui.View]:
    """The lobby's, the table's at several revisions, a panel's, the finished table's,
    the ping's and the invitation's views of one game."""
    engine, table = spec.engine, seated(spec)
    messages = Messages(spec.adapter, cast(RenderWorkers, NoPictures()))
    players = [seat.id for seat in table.seats]
    state = engine.new_game(players, 7, engine.Options.model_validate({}))
    playing = table.model_copy(update={"phase": "playing"})
    views = [messages.lobby(table, 1).view]
    rng = SeededRng.from_seed(7)
    for rev in range(2, 6):
        views.append((await messages.table(playing, state, rev)).view)
        player = engine.to_act(state)[0]
        views.append((await messages.panel(playing, rev, state, player, {}, "en", expires=0)).view)
        action = spec.players["easy"](engine.view(state, player), rng)
        state = spec.adapter.perform(state, player, spec.adapter.action_key(action))
    while not engine.is_over(state):
        player = engine.to_act(state)[0]
        action = spec.players["easy"](engine.view(state, player), rng)
        state = spec.adapter.perform(state, player, spec.adapter.action_key(action))
    views.append((await messages.table(playing, state, 99)).view)
    views += [messages.ping_view(playing), messages.invitation_view(playing)]
    return [view for view in views if view is not None]


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
async def test_discord_py_keeps_no_view_of_any_game_message(spec: GameSpec[Any, Any, Any]) -> None:
    store = ViewStore(cast(Any, None))
    views = await every_view(spec)
    for message_id, view in enumerate(views, start=1000):
        assert view.is_dispatchable(), "discord.py stores only views with clickable items"
        store.add_view(view, message_id)
        store.add_view(view, 1)  # the table message, edited again and again
    assert not store.persistent_views
    tracked = [n for n in range(1000, 1000 + len(views)) if store.is_message_tracked(n)]
    assert tracked == [], f"views kept for messages {tracked}"
    assert not store.is_message_tracked(1)


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
async def test_every_item_is_one_of_the_routes_the_bot_registers(
    spec: GameSpec[Any, Any, Any],
) -> None:
    """Storing a view registers its items' classes as the routes of their patterns: an
    item of another class would take over its pattern, and its clicks would go astray."""
    items = {type(item) for view in await every_view(spec) for item in view.children}
    assert items <= {ButtonRoute, SelectRoute, RecordButton}


async def test_a_view_of_plain_buttons_would_be_kept_per_message() -> None:
    """The check above can fail: plain buttons, as the bot built them before, are kept."""
    store = ViewStore(cast(Any, None))
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Take", custom_id="g:geschenkt:a1:2:act"))
    store.add_view(view, 1000)
    assert store.is_message_tracked(1000)
