"""The name of every Redis key the bot uses: the one place that spells them.

Every key of a server carries the Redis Cluster hash tag ``{guild_id}`` (the braces
are literal), so the keys one Lua script touches always share a hash slot. The only
keys without a server are the per-user click counter (tagged by user), the set of
servers that have tables (one slot of its own) and the layout marker.
"""

from __future__ import annotations

from bot.engines.base import PlayerId

LAYOUT_KEY = "tablebot:key-layout"
"""The key layout this Redis is on (`bot.storage.layout`)."""
GUILDS_KEY = "tablebot:guilds"
"""The servers that have had a table: where resume, the sweep and `/metrics` look."""


def table_key(guild_id: int, channel_id: int) -> str:
    """The channel's table."""
    return f"game:{{{guild_id}}}:{channel_id}"


def index_key(guild_id: int) -> str:
    """The server's tables: channel -> "game phase expiry", kept by the table scripts."""
    return f"tables:{{{guild_id}}}"


def quarantine_key(guild_id: int, channel_id: int) -> str:
    """An unreadable table set aside for a developer to look at."""
    return f"quarantine:{{{guild_id}}}:{channel_id}"


def place_of_key(key: str) -> tuple[int, int]:
    """(guild id, channel id) of a `table_key`."""
    _, guild, channel = key.split(":")
    return int(guild.strip("{}")), int(channel)


def lock_key(guild_id: int, channel_id: int, purpose: str = "") -> str:
    """The channel's lease (`bot.storage.locks`), one per purpose."""
    suffix = f":{purpose}" if purpose else ""
    return f"lock:{{{guild_id}}}:{channel_id}{suffix}"


def panel_key(guild_id: int, channel_id: int, player: PlayerId) -> str:
    """A player's open private panel at the channel's table."""
    return f"panel:{{{guild_id}}}:{channel_id}:{player}"


def settings_key(guild_id: int) -> str:
    """The server's `/settings`."""
    return f"settings:{{{guild_id}}}"


def quiet_key(guild_id: int) -> str:
    """The people of the server who turned their own turn pings off."""
    return f"settings:{{{guild_id}}}:quiet"


def limit_key(user_id: int) -> str:
    """A user's click counter for the current window."""
    return f"ratelimit:{{{user_id}}}"


def player_key(guild_id: int, player_id: PlayerId) -> str:
    """A player's stats on the server: one field per game and figure."""
    return f"stats:{{{guild_id}}}:player:{player_id}"


def skill_key(guild_id: int, game: str) -> str:
    """The server's leaderboard of a game (shown ratings)."""
    return f"stats:{{{guild_id}}}:skill:{game}"


def elo_key(guild_id: int, game: str) -> str:
    """The Elo-era leaderboard, emptied player by player as they play again."""
    return f"stats:{{{guild_id}}}:rating:{game}"


def recorded_key(guild_id: int, gid: str) -> str:
    """The marker that a finished game was counted once."""
    return f"stats:{{{guild_id}}}:recorded:{gid}"


def record_key(guild_id: int, gid: str) -> str:
    """A finished game's record (`bot.storage.records`), kept ``HISTORY_DAYS``."""
    return f"record:{{{guild_id}}}:{gid}"


def history_key(guild_id: int) -> str:
    """The server's finished games: game id -> when it ended, for `/history`."""
    return f"history:{{{guild_id}}}"


def tournament_key(guild_id: int, tournament_id: str) -> str:
    """A tournament (`bot.storage.tournaments`): a hash of its JSON and its revision."""
    return f"tournament:{{{guild_id}}}:{tournament_id}"


def tournament_channel_key(guild_id: int, channel_id: int) -> str:
    """The tournament signed up or running in a channel, by id."""
    return f"tournament:{{{guild_id}}}:channel:{channel_id}"


def tournament_thread_key(guild_id: int, thread_id: int) -> str:
    """Which tournament table a thread's game is: ``<tournament id> <table id>``."""
    return f"tournament:{{{guild_id}}}:thread:{thread_id}"


def running_tournaments_key(guild_id: int) -> str:
    """The server's tournaments that are signing up or running, for the round clocks."""
    return f"tournaments:{{{guild_id}}}"


def finished_tournaments_key(guild_id: int) -> str:
    """The server's finished tournaments: tournament id -> when it ended, for
    `/history`."""
    return f"tournaments:{{{guild_id}}}:finished"


def season_skill_key(guild_id: int, game: str, season: str) -> str:
    """A leaderboard season's ratings of ``game`` (`bot.storage.stats`)."""
    return f"stats:{{{guild_id}}}:skill:{game}:season:{season}"


def seasons_key(guild_id: int) -> str:
    """The seasons the server's games were counted in, for browsing earlier ones."""
    return f"stats:{{{guild_id}}}:seasons"
