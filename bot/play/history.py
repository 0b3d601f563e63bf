"""Looking back at games: the **Log** of a running game, the **Replay** of a finished
one, `/history [player]` and `/replay <game id>`.

Everything shown comes from the public views alone (`engine.view(state, None)`): the
moves in the words of the table's event line (`GameAdapter.move_text`) and the table
image a spectator saw, drawn by the render workers. A record replays through the engine
(`bot.play.records`); the results text is shown at the last step of a finished game.

The buttons are `RecordButton`s, ``rec:<l|r|d>:<gid>:<n>`` (a log page, a replay step,
the download), answered privately and working after a restart: a running game's log
reads the channel's table, a replay the kept record (`bot.storage.records`).
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.adapters.base import GameAdapter
from bot.engines.base import GameError, PlayerId
from bot.i18n import N_, Lang, lang_of, tr
from bot.names import plain_name, shown_name
from bot.play.errors import answering_errors
from bot.play.interactions import user_lang
from bot.play.records import ReplayBroken, first_state, step
from bot.storage.records import GameRecord
from bot.storage.tournaments import FinishedTournament
from bot.table import Move, Seat, Table
from bot.tournament import Tournament, standings

if TYPE_CHECKING:
    from bot.bot import TableBot
    from bot.play.shared import Shared

Interaction = discord.Interaction[Any]
COLOUR = 0x95A5A6
LOG_LINES_PER_PAGE = 15
HISTORY_SHOWN = 10
PODIUM_PLACES = 3
HOW: dict[str, str] = {
    "default": N_("time was up, the bot chose"),
    "computer": N_("computer"),
    "clock": N_("time ran out, the computer moved"),
}


def text_file(text: str, name: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode()), filename=name)


@dataclass
class Told:
    """A game replayed: the states (before the first move and after each one it could
    replay) and each move in words."""

    states: list[BaseModel]
    lines: list[str]
    broken_at: int | None = None
    """The first move that didn't replay (its later moves are told as recorded)."""
    deal_ends: list[int] = field(default_factory=list)
    """The moves that ended a deal or hand (`GameAdapter.deal_summary`), by index."""


def tell(
    adapter: GameAdapter[Any, Any, Any],
    seats: list[Seat],
    seed: int,
    options: dict[str, Any],
    moves: list[Move],
    lang: Lang,
    name_of: Callable[[str], str] = shown_name,
) -> Told:
    """Replay ``moves`` and say each one in ``lang`` from the public views around it,
    each name as ``name_of`` gives it (`shown_name` for Discord, `plain_name` for a
    text file)."""
    engine = adapter.engine
    shown = {seat.id: name_of(seat.name) for seat in seats}
    told = Told([first_state(adapter, seats, seed, options)], [])
    for n, move in enumerate(moves):
        name = shown.get(move.p) or name_of(move.p)
        if move.by == "takeover":
            told.lines.append(tr(lang, "A computer player takes **{name}**'s seat.", name=name))
            told.states.append(told.states[-1])
            continue
        if move.by == "resign":
            told.lines.append(tr(lang, "**{name}** resigned.", name=name))
        if told.broken_at is None:
            try:
                told.states.append(step(adapter, told.states[-1], move))
            except ReplayBroken:
                told.broken_at = n
        if move.by == "resign":
            continue
        if told.broken_at is None:
            before = engine.view(told.states[-2], None)
            after = engine.view(told.states[-1], None)
            words = adapter.move_text(move.k, before, after, shown, lang)
            if adapter.deal_summary(before, after, shown, lang) is not None:
                told.deal_ends.append(n)
        else:
            words = "…"
        line = tr(lang, "**{name}**: {move}", name=name, move=words)
        if move.by in HOW:
            line += f" ({tr(lang, HOW[move.by])})"
        told.lines.append(line)
    return told


def log_entries(told: Told, lang: Lang) -> list[str]:
    """The log's lines: each move numbered, grouped by deal (a heading before each deal
    once the first has ended)."""
    entries = [f"`{n:>3}.` {line}" for n, line in enumerate(told.lines, start=1)]
    if not told.deal_ends:
        return entries
    grouped = [tr(lang, "__Deal {n}__", n=1)]
    deal = 1
    for n, entry in enumerate(entries):
        grouped.append(entry)
        if n in told.deal_ends and n + 1 < len(entries):
            deal += 1
            grouped.append(tr(lang, "__Deal {n}__", n=deal))
    return grouped


def log_page(lines: list[str], page: int, lang: Lang) -> tuple[str, int, int]:
    """The text of page ``page`` (clamped; -1: the last), the page shown and the count."""
    pages = max(1, -(-len(lines) // LOG_LINES_PER_PAGE))
    page = pages - 1 if page < 0 else min(page, pages - 1)
    start = page * LOG_LINES_PER_PAGE
    shown = lines[start : start + LOG_LINES_PER_PAGE]
    return "\n".join(shown) or tr(lang, "No moves yet."), page, pages


class RecordButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rec:(?P<what>[lrd]):(?P<gid>[0-9a-f]{1,32}):(?P<n>-?\d{1,6})(?::\d)?",
):
    """Log pages, replay steps and the download: ``what`` l, r or d, the game, a number
    (and the button's place among its neighbours, as custom_ids must differ)."""

    def __init__(
        self, what: str, gid: str, n: int, label: str, *, disabled: bool = False, slot: int = 0
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"rec:{what}:{gid}:{n}" + (f":{slot}" if slot else ""),
                disabled=disabled,
            )
        )
        self.what, self.gid, self.n = what, gid, n

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RecordButton:
        label = (item.label if isinstance(item, discord.ui.Button) else None) or ""
        return cls(match["what"], match["gid"], int(match["n"]), label)

    async def callback(self, interaction: discord.Interaction[TableBot]) -> None:  # type: ignore[override]
        async with answering_errors(interaction):
            looking = LookingBack(interaction.client.shared)
            if self.what == "l":
                await looking.show_log(interaction, self.gid, self.n)
            elif self.what == "r":
                await looking.show_replay(interaction, self.gid, self.n)
            else:
                await looking.download(interaction, self.gid)


def log_button(gid: str, lang: Lang) -> RecordButton:
    """The running table's **Log**."""
    return RecordButton("l", gid, -1, tr(lang, "Log"))


def replay_button(gid: str, lang: Lang) -> RecordButton:
    """The results' **Replay**."""
    return RecordButton("r", gid, 0, tr(lang, "Replay"))


def _is_private(interaction: Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


class LookingBack:
    """The answers to the buttons and commands, for one interaction."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def adapter(self, game: str) -> GameAdapter[Any, Any, Any]:
        game_commands = self.shared.games.get(game)
        if game_commands is None:
            raise GameError("I don't host a game called {game!r}; see `/help`.", game=game)
        return game_commands.adapter

    async def running_table(self, interaction: Interaction, gid: str) -> Table:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise GameError("This game is over.")
        stored = await self.shared.store.load(interaction.guild_id, interaction.channel_id)
        if stored is None or stored.table.gid != gid or stored.table.state is None:
            raise GameError("This game is over.")
        return stored.table

    async def record(self, interaction: Interaction, gid: str) -> GameRecord:
        guild = interaction.guild_id or 0
        record = await self.shared.records.load(guild, gid)
        if record is None and interaction.channel_id is not None:
            stored = await self.shared.store.load(guild, interaction.channel_id)
            if stored and stored.table.gid == gid and stored.table.phase == "over":
                moves = stored.table.moves  # HISTORY_DAYS=0: the table, while it is kept
                ended = moves[-1].t if moves else stored.table.opened
                state = self.adapter(stored.table.game).engine.State.model_validate(
                    stored.table.state
                )
                outcome = self.adapter(stored.table.game).engine.outcome(state)
                record = GameRecord.of(stored.table, outcome, ended)
        if record is None:
            raise GameError(
                "No finished game {gid} is kept on this server; see `/history`.", gid=gid[:32]
            )
        return record

    async def show_log(self, interaction: Interaction, gid: str, page: int) -> None:
        table = await self.running_table(interaction, gid)
        lang = user_lang(interaction)
        adapter = self.adapter(table.game)
        told = await asyncio.to_thread(
            tell, adapter, table.seats, table.seed, table.options, table.moves, lang
        )
        text, page, pages = log_page(log_entries(told, lang), page, lang)
        title = tr(lang, "{title}: the game so far", title=tr(lang, adapter.engine.title))
        embed = discord.Embed(title=title, description=text, colour=COLOUR)
        embed.set_footer(text=tr(lang, "Page {page} of {pages}", page=page + 1, pages=pages))
        view = discord.ui.View(timeout=None)
        moves = (("⏮", 0), ("◀", page - 1), ("▶", page + 1), ("⏭", pages - 1))
        for slot, (label, target) in enumerate(moves if pages > 1 else (), start=1):
            off = target == page or not 0 <= target < pages
            view.add_item(RecordButton("l", gid, target, label, disabled=off, slot=slot))
        await self._answer(interaction, embed, view, None)

    async def show_replay(self, interaction: Interaction, gid: str, n: int) -> None:
        record = await self.record(interaction, gid)
        lang = user_lang(interaction)
        adapter = self.adapter(record.game)
        engine = adapter.engine
        told = await asyncio.to_thread(
            tell, adapter, record.seats, record.seed, record.options, record.moves, lang
        )
        last = len(record.moves)
        n = last if n < 0 else max(0, min(n, last))
        title = tr(lang, "Replay: {title}", title=tr(lang, engine.title))
        if n == 0:
            words = tr(lang, "The start: {players}.", players=seating_line(record))
        else:
            words = told.lines[n - 1]
        names = record.names()
        png: bytes | None = None
        if n < len(told.states):
            state = told.states[n]
            public = engine.view(state, None)
            if n == last and engine.is_over(state):
                shown = {seat.id: shown_name(seat.name) for seat in record.seats}
                result = adapter.results_text(public, engine.outcome(state), shown, lang)
                words += "\n\n" + result.description
            png = await self.shared.renderer.run(adapter.render_table, public, names, lang)
        else:
            words += "\n" + tr(lang, "(This record doesn't replay here; no picture.)")
        embed = discord.Embed(title=title, description=words[:4000], colour=COLOUR)
        embed.set_footer(
            text=tr(lang, "Move {n} of {total} · game {gid}", n=n, total=last, gid=record.gid)
        )
        view = discord.ui.View(timeout=None)
        steps = (("⏮", 0), ("◀", n - 1), ("▶", n + 1), ("⏭", last))
        for slot, (label, target) in enumerate(steps, start=1):
            off = target == n or not 0 <= target <= last
            view.add_item(RecordButton("r", gid, target, label, disabled=off, slot=slot))
        view.add_item(RecordButton("d", gid, 0, tr(lang, "Download")))
        file = None if png is None else discord.File(io.BytesIO(png), filename="replay.png")
        if file is not None:
            embed.set_image(url="attachment://replay.png")
        await self._answer(interaction, embed, view, file)

    async def download(self, interaction: Interaction, gid: str) -> None:
        record = await self.record(interaction, gid)
        lang = user_lang(interaction)
        adapter = self.adapter(record.game)
        told = await asyncio.to_thread(  # a text file: plain names, not markdown
            tell,
            adapter,
            record.seats,
            record.seed,
            record.options,
            record.moves,
            public_lang(record),
            plain_name,
        )
        own = None if told.broken_at is not None else adapter.export_file(record, told.states)
        if own is not None:
            files = [text_file(own.text, own.name)]
            words = tr(lang, own.words, gid=gid)
        else:  # the text log, and the record itself for programs
            files = [
                text_file(export_text(record, adapter, told), f"{record.game}-{gid}.txt"),
                text_file(record.model_dump_json(indent=1), f"{record.game}-{gid}.json"),
            ]
            words = tr(lang, "The game {gid} as a text log.", gid=gid)
        await interaction.response.send_message(words, files=files, ephemeral=True)

    async def _answer(
        self,
        interaction: Interaction,
        embed: discord.Embed,
        view: discord.ui.View,
        file: discord.File | None,
    ) -> None:
        files = [] if file is None else [file]
        if _is_private(interaction):
            await interaction.response.edit_message(embed=embed, view=view, attachments=files)
        else:
            await interaction.response.send_message(
                embed=embed, view=view, files=files, ephemeral=True
            )


def seating_line(record: GameRecord) -> str:
    """The players in their seating order (the order of play), as the game began."""
    return ", ".join(shown_name(seat.name) for seat in record.seats)


def players_line(record: GameRecord) -> str:
    """The players by their final places ("1. Emma, 2. Alice")."""
    ordered = sorted(record.seats, key=lambda seat: record.places.get(seat.id, 99))
    parts = []
    for seat in ordered:
        place = record.places.get(seat.id)
        name = shown_name(seat.name)
        parts.append(f"{place}. {name}" if place else name)
    return ", ".join(parts)


def public_lang(record: GameRecord) -> Lang:
    """The language the game was played in (its table's, the server's)."""
    return lang_of(record.lang)


def export_text(record: GameRecord, adapter: GameAdapter[Any, Any, Any], told: Told) -> str:
    """A finished game as a plain text log a person can read, in the language it was
    played in (``told`` says its moves in it), options in words as its lobby showed
    them; no markdown, and the names as written (`plain_name`): a text file isn't
    markdown."""
    lang = public_lang(record)
    ended = datetime.fromtimestamp(record.ended, UTC).strftime("%Y-%m-%d %H:%M UTC")
    title = tr(lang, adapter.engine.title)
    options = adapter.lobby_options(record.options, lang)
    lines = [
        tr(lang, "{title}, game {gid}, ended {ended}", title=title, gid=record.gid, ended=ended),
        tr(lang, "Options:"),
        *(f"  {line}" for line in options.splitlines() or [tr(lang, "none")]),
        tr(lang, "Seed: {seed}", seed=record.seed),
        tr(lang, "Seats: {players}", players=", ".join(plain_name(s.name) for s in record.seats)),
    ]
    if record.places:
        places = ", ".join(
            f"{record.places.get(s.id)}. {plain_name(s.name)} ({record.scores.get(s.id)})"
            for s in sorted(record.seats, key=lambda s: record.places.get(s.id, 99))
        )
        lines.append(tr(lang, "Places: {places}", places=places))
    lines.append("")
    for n, line in enumerate(told.lines, start=1):
        lines.append(f"{n:>4}. {line.replace('**', '')}")
    return "\n".join(lines) + "\n"


def history_line(record: GameRecord, title: str, lang: Lang) -> str:
    return tr(
        lang,
        "**{title}** <t:{ended}:d> · {players} · `{gid}`",
        title=title,
        ended=record.ended,
        players=players_line(record),
        gid=record.gid,
    )


def history_commands(shared: Shared) -> list[app_commands.Command[Any, Any, Any]]:
    """`/history [player]` and `/replay <game id>`, bound to ``bot``."""

    @app_commands.command(name="history", description=N_("The last finished games here"))
    @app_commands.describe(player=N_("Only this player's games"))
    @app_commands.guild_only()
    async def history(interaction: Interaction, player: discord.Member | None = None) -> None:
        async with answering_errors(interaction):
            if interaction.guild_id is None:
                raise GameError("History is kept per server.")
            who: PlayerId | None = None if player is None else str(player.id)
            lang = user_lang(interaction)
            lines = await history_lines(shared, interaction.guild_id, who, lang)
            title = (
                tr(lang, "Finished games")
                if player is None
                else tr(lang, "Finished games of {name}", name=shown_name(player.display_name))
            )
            embed = discord.Embed(
                title=title,
                description="\n".join(lines) or tr(lang, "No finished games here yet."),
                colour=COLOUR,
            )
            if lines:
                embed.set_footer(
                    text=tr(
                        lang,
                        "Replay a game, or see a tournament's final standings, with /replay "
                        "and its id.",
                    )
                )
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="replay", description=N_("Step through a finished game"))
    @app_commands.describe(game_id=N_("A game's or a tournament's id, as /history shows it"))
    @app_commands.guild_only()
    async def replay(interaction: Interaction, game_id: str) -> None:
        async with answering_errors(interaction):
            gid = game_id.strip().strip("`").lower()
            if not re.fullmatch(r"[0-9a-f]{1,32}", gid):
                raise GameError(
                    "No finished game {gid} is kept on this server; see `/history`.",
                    gid=gid[:32],
                )
            tournament = await shared.tournaments.store.load(interaction.guild_id or 0, gid)
            if tournament is not None and tournament.state == "finished":
                await shared.tournaments.show_final(interaction, tournament)
                return
            await LookingBack(shared).show_replay(interaction, gid, 0)

    return [history, replay]


async def history_lines(
    shared: Shared, guild_id: int, player: PlayerId | None, lang: Lang
) -> list[str]:
    """The server's last finished games and tournaments (only ``player``'s, if given),
    newest first, one line each."""
    records = await shared.records.recent(guild_id, limit=HISTORY_SHOWN, player=player)
    finished = await shared.tournaments.store.finished(guild_id, limit=HISTORY_SHOWN, player=player)
    dated = [
        (record.ended, history_line(record, tr(lang, _title(shared, record.game)), lang))
        for record in records
    ]
    dated += [(entry.ended, tournament_line(shared, entry, lang)) for entry in finished]
    dated.sort(key=lambda pair: pair[0], reverse=True)
    return [line for _, line in dated[:HISTORY_SHOWN]]


def tournament_line(shared: Shared, entry: FinishedTournament, lang: Lang) -> str:
    """A finished tournament as `/history` lists it: its podium for players."""
    tournament = entry.tournament
    title = tr(lang, "{title} tournament", title=tr(lang, _title(shared, tournament.game)))
    return tr(
        lang,
        "**{title}** <t:{ended}:d> · {players} · `{gid}`",
        title=title,
        ended=entry.ended,
        players=podium_text(tournament),
        gid=tournament.id,
    )


def podium_text(tournament: Tournament) -> str:
    """``1. Ada, 2. Bo, 3. Cy``: the first places of a tournament's standings."""
    top = [line for line in standings(tournament) if line.place <= PODIUM_PLACES]
    return ", ".join(f"{line.place}. {shown_name(line.name)}" for line in top)


def _title(shared: Shared, game: str) -> str:
    game_commands = shared.games.get(game)
    return game_commands.engine.title if game_commands else game
