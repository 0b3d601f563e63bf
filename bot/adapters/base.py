"""What a game tells the Discord side: its engine, its buttons, its pictures and texts.

Each game module in `bot/adapters/` subclasses `GameAdapter`; the generic `GameCommands`
does everything else (lobby, store, revisions, errors, computer seats).

Every text goes through `bot.i18n`: methods get the ``lang`` to write in (the
server's for public messages, the player's own for their panel), and class-level
texts are English templates marked with `N_` that the Discord side translates.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from bot.engines.base import Engine, Outcome, PlayerId
from bot.i18n import N_, Lang, command_name, plural, tr
from bot.texts import ActionButton, ExportFile, Picks, PrivatePanel, TableText, TimedDefault

if TYPE_CHECKING:
    from bot.storage.records import GameRecord

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
V = TypeVar("V", bound=BaseModel)


MOVE_TEXT_LIMIT = 40
YES_NO = {True: N_("yes"), False: N_("no")}
"""A switch's value in the lobby's options."""


class GameAdapter(ABC, Generic[S, A, V]):
    engine: Engine[S, A, V]
    colour: int = 0x5865F2
    hand_label: str = N_("My hand")
    hidden_options: frozenset[str] = frozenset()
    """Options set by the bot itself, not worth showing in the lobby."""
    option_labels: ClassVar[Mapping[str, str]] = {}
    """Each option's name in the lobby, by option key: English templates (`N_`),
    capitalised as a label ("Turn limit")."""
    option_values: ClassVar[Mapping[str, Mapping[Any, str]]] = {}
    """The names of the values of an option that takes one of a few words, by option key
    and value: English templates (`N_`) ("turkish": "Turkish draughts")."""
    leave_description: str = N_("Leave the table (a computer takes your seat in a running game)")
    """The ``leave`` command's description; games where leaving concedes say so."""
    hand_description: str = N_("See your private hand (only you see it)")
    """The ``hand`` command's description: what the private panel shows."""
    rules_summary: str = ""
    """English template (`N_`) of the rules summary with an example."""
    tagline: str = ""
    """English template (`N_`) of one line for `/help`."""

    @abstractmethod
    def table_buttons(self, view: V, lang: Lang) -> list[ActionButton]:
        """The action buttons under the public table (shown to everyone)."""

    @abstractmethod
    def parse_action(self, key: str) -> A:
        """The action for a button key; raise `IllegalAction` for a malformed one."""

    @abstractmethod
    def render_table(self, view: V, names: Mapping[PlayerId, str], lang: Lang) -> bytes:
        """PNG bytes of the public table. It runs in a render worker (`bot.render.workers`),
        which imports only what the drawing needs: a game sets this to a function of its
        `bot.render` module (``render_table = staticmethod(...)``), so the worker never
        loads this adapter's module, nor Discord with it."""

    @abstractmethod
    def table_text(self, view: V, names: Mapping[PlayerId, str], lang: Lang) -> TableText:
        """Public embed text while the game runs (never private data)."""

    @abstractmethod
    def private_text(self, view: V, lang: Lang) -> str:
        """The viewer's private panel (sent only to them, ephemerally)."""

    @abstractmethod
    def results_text(
        self, view: V, outcome: Outcome, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText:
        """The final results embed text."""

    def private_panel(
        self, view: V, picks: Picks, names: Mapping[PlayerId, str], lang: Lang
    ) -> PrivatePanel:
        """The viewer's panel. Games whose moves are made privately override this with
        selects and buttons; a button's key goes to `parse_action` when clicked."""
        return PrivatePanel(self.private_text(view, lang))

    def timed_default(self, view: V) -> TimedDefault | None:
        """The move to make for the player to act if they let the choice time out
        (`Settings.choice_timeout_seconds`); None: wait for them."""
        return None

    def perform(self, state: S, player: PlayerId, key: str) -> S:
        """Make the move a button, panel or command ``key`` stands for. Games with moves
        outside the turn order (a resignation) override this."""
        return self.engine.apply(state, player, self.parse_action(key))

    def render_private(
        self, view: V, names: Mapping[PlayerId, str], lang: Lang, picks: Picks
    ) -> bytes | None:
        """PNG bytes for the viewer's private panel, showing what they have picked in its
        selects (a chosen piece, chosen cards), or None for none. Like `render_table`, a
        function of the game's `bot.render` module, run in a render worker."""
        return None

    def wants_ping(self, view: V) -> bool:
        """Whether the people now to act get a turn ping (a game whose every turn starts
        with the same person's routine click can spare them)."""
        return True

    def lobby_options(self, options: Mapping[str, Any], lang: Lang) -> str:
        """The options of a new table in words for its lobby, one a line, each by its
        name and value in ``lang`` ("Rules: Give and Take", "Tactical variant: no",
        "Turn limit: 500"). Left out: the `hidden_options`, and an option left unset
        (None: a shuffled deck)."""
        return "\n".join(
            tr(
                lang,
                "{option}: {value}",
                option=self._option_label(key, lang),
                value=self._option_value(key, value, lang),
            )
            for key, value in options.items()
            if key not in self.hidden_options and value is not None
        )

    def _option_label(self, key: str, lang: Lang) -> str:
        """The option's name in ``lang``; an option without one in `option_labels`, by
        its command option's name ("Turn cap")."""
        if key in self.option_labels:
            return tr(lang, self.option_labels[key])
        name = (command_name(lang, key) or key).replace("_", " ").replace("-", " ")
        return name[:1].upper() + name[1:]

    def _option_value(self, key: str, value: object, lang: Lang) -> str:
        """A switch as yes or no, a number as written, a word by its name in
        `option_values`, a stacked deck by its number of cards."""
        if isinstance(value, bool):
            return tr(lang, YES_NO[value])
        if isinstance(value, list):
            return plural(lang, len(value), "stacked, {n} card", "stacked, {n} cards")
        names = self.option_values.get(key, {})
        if isinstance(value, str) and value in names:
            return tr(lang, names[value])
        return str(value).replace("-", " ")

    def table_title(self, view: V, lang: Lang) -> str:
        """The table's title; games whose options change what is played (Turkish rules
        in draughts) override it."""
        return tr(lang, self.engine.title)

    def deal_summary(
        self, before: V, after: V, names: Mapping[PlayerId, str], lang: Lang
    ) -> TableText | None:
        """When a move ended a deal or hand (the public views before and after it): its
        summary (who went out, the scores, …), which marks that move in the Log and the
        Replay. None: nothing ended. The table shows the last deal itself, in
        `table_text`; the game's end is shown by `results_text`."""
        return None

    def move_text(
        self, key: str, before: V, after: V, names: Mapping[PlayerId, str], lang: Lang
    ) -> str:
        """How the move ``key`` (a button key, a typed move, or a computer's action as
        text) reads in the table's line of recent events, given the public views before
        and after it. Games override this to say it in words ("took 16 (+3 chips)");
        by default it is the key itself, cut to `MOVE_TEXT_LIMIT`."""
        return key if len(key) <= MOVE_TEXT_LIMIT else key[: MOVE_TEXT_LIMIT - 1] + "…"

    def typed_move_answer(self, key: str, before: V, after: V, lang: Lang) -> str:
        """The private answer to a move typed as a command (``/draughts move``), said to
        its player ("You played c3-c4."), given the public views around it. Only games
        with a typed move command need it."""
        raise NotImplementedError(f"{self.engine.name} has no typed moves")

    def concede(self, state: S, player: PlayerId) -> S | None:
        """``player`` gives the game up (leaving a two-player game), or None when the
        game has no way to concede and a computer takes the seat instead."""
        return None

    def export_file(self, record: GameRecord, states: Sequence[S]) -> ExportFile | None:
        """The finished game ``record`` (``states``: its whole replay) in its game's own
        file format, or None: the download is then the text log and the record's JSON."""
        return None

    def action_key(self, action: A) -> str:
        """The key `parse_action` reads back as ``action``; games whose keys are not
        their actions' text override it. Keys may hold any text: a custom_id carries
        them encoded (`bot.play.action_keys`)."""
        return str(action)
