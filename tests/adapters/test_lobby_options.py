"""The lobby's options read as words in the table's language: each option by its name
and its value ("Rules: Give and Take"), never a command option's key and a raw value
("ruleset: give and take", German in lower case)."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import pytest

from bot.games import GAMES, game
from bot.i18n import LANGS, Lang, tr
from bot.play.messages import Messages
from bot.table import Seat, Table


def lobby_options(name: str, options: dict[str, Any], lang: Lang) -> str:
    """The "Options" field of a new ``name`` table's lobby with ``options``."""
    spec = game(name)
    full = spec.engine.Options.model_validate(options).model_dump(mode="json")
    table = Table(
        game=name,
        guild_id=1,
        channel_id=2,
        lang=lang,
        host="1",
        seats=[Seat(id="1", name="Alice")],
        options=full,
    )
    embed = Messages(spec.adapter, MagicMock()).lobby(table, 1).embed
    return next(f.value or "" for f in embed.fields if f.name == tr(lang, "Options"))


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_every_option_a_host_can_set_has_a_name(spec: Any) -> None:
    adapter = spec.adapter
    options = set(spec.engine.Options.model_fields) - adapter.hidden_options
    assert options <= set(adapter.option_labels), spec.name


def test_draughts_rules_read_by_their_name() -> None:
    assert lobby_options("draughts", {}, "en") == "Rules: Give and Take"
    assert lobby_options("draughts", {"ruleset": "turkish"}, "en") == "Rules: Turkish draughts"
    assert lobby_options("draughts", {"ruleset": "turkish"}, "de") == "Regeln: Türkische Dame"
    assert lobby_options("draughts", {"ruleset": "turkish"}, "es") == "Reglas: Damas turcas"
    assert lobby_options("draughts", {}, "tr") == "Kurallar: Give and Take"


def test_a_switch_reads_yes_or_no() -> None:
    assert lobby_options("geschenkt", {}, "en") == "Tactical variant: no"
    assert lobby_options("geschenkt", {"tactical": True}, "en") == "Tactical variant: yes"
    assert lobby_options("geschenkt", {"tactical": True}, "de") == "Taktische Variante: ja"
    assert lobby_options("geschenkt", {}, "es") == "Variante táctica: no"
    assert lobby_options("geschenkt", {"tactical": True}, "tr") == "Taktik varyant: evet"


def test_every_option_of_a_game_gets_a_line_and_the_bot_s_own_none() -> None:
    options = {"auto": True, "turn_cap": 300, "director": "1"}
    assert lobby_options("give_and_take", options, "en") == (
        "Automatic reveal: yes\nTurn limit: 300"
    )
    assert lobby_options("give_and_take", options, "de") == (
        "Automatisches Aufdecken: ja\nRundenlimit: 300"
    )
    assert lobby_options("take", {"hand_size": 10, "target": 750}, "en") == (
        "Cards per player: 10\nTarget score: 750"
    )
    assert lobby_options("escalation", {"deals": 3}, "es") == "Número de manos: 3"


def test_a_stacked_deck_is_told_by_its_cards() -> None:
    deck = {"deck": [3, 4, 5]}
    assert lobby_options("geschenkt", deck, "en") == (
        "Tactical variant: no\nDeck: stacked, 3 cards"
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_no_option_reads_as_its_key(spec: Any, lang: Lang) -> None:
    """No command option's name (``turn_cap``, ``regelwerk``) and no value as stored
    (``give-and-take``, ``True``): every line starts with a capital, as a label."""
    text = lobby_options(spec.name, {}, lang)
    for line in text.splitlines():
        label, value = line.split(": ", 1)
        assert label[:1].isupper(), line
        assert "_" not in label and "-" not in value and value not in ("True", "False")
