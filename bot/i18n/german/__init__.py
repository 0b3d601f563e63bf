"""The German catalogue: English template → German template, one module per area."""

from __future__ import annotations

from bot.i18n.german import core, draughts, escalation, geschenkt, give_and_take, take

GERMAN: dict[str, str] = {
    **core.GERMAN,
    **geschenkt.GERMAN,
    **give_and_take.GERMAN,
    **escalation.GERMAN,
    **take.GERMAN,
    **draughts.GERMAN,
}

NAMES: dict[str, str] = {
    **core.NAMES,
    **geschenkt.NAMES,
    **give_and_take.NAMES,
    **escalation.NAMES,
    **take.NAMES,
    **draughts.NAMES,
}
"""German names of slash commands, their options and choices."""
