"""Every slash command, option and choice name the bot registers, for the catalogues.

Discord shows a client in another language the names its catalogue gives them (Discord
wants them lowercase, without spaces, 1–32 letters, digits, ``-`` or ``_``). A name is
a message of its own context (``msgctxt "command name"``), apart from any text that reads
the same. `tests/test_i18n.py` checks that this list holds every name the bot registers.
"""

from __future__ import annotations

from bot.i18n import C_

NAMES: tuple[str, ...] = (
    # Every game's group: /<game> join, leave, …
    C_("command name", "join"),
    C_("command name", "leave"),
    C_("command name", "hand"),
    C_("command name", "status"),
    C_("command name", "abandon"),
    C_("command name", "rules"),
    C_("command name", "start"),
    C_("command name", "turn_time"),
    C_("command name", "help"),
    C_("command name", "stats"),
    C_("command name", "player"),
    C_("command name", "leaderboard"),
    C_("command name", "game"),
    C_("command name", "history"),
    C_("command name", "replay"),
    C_("command name", "game_id"),
    # /settings
    C_("command name", "settings"),
    C_("command name", "show"),
    C_("command name", "language"),
    C_("command name", "value"),
    C_("command name", "pings"),
    C_("command name", "ping_after"),
    C_("command name", "seconds"),
    C_("command name", "channel_add"),
    C_("command name", "channel_remove"),
    C_("command name", "channels_clear"),
    C_("command name", "channel"),
    C_("command name", "reset"),
    # /tournament
    C_("command name", "tournament"),
    C_("command name", "create"),
    C_("command name", "rounds"),
    C_("command name", "round_minutes"),
    C_("command name", "computers"),
    C_("command name", "standings"),
    C_("command name", "table"),
    C_("command name", "close_round"),
    C_("command name", "withdraw"),
    C_("command name", "format"),
    C_("command name", "options"),
    # Seasons
    C_("command name", "season"),
    C_("command name", "season_ratings"),
    # The games' own commands and options
    C_("command name", "move"),
    C_("command name", "ruleset"),
    C_("command name", "colour"),
    C_("command name", "deals"),
    C_("command name", "tactical"),
    C_("command name", "auto"),
    C_("command name", "turn_cap"),
    C_("command name", "hand_size"),
    C_("command name", "target"),
)
