"""Tournaments: sign-up, Swiss and grouped rounds, results, standings; and seasons.

The pure core (no discord, no redis, no images): a `Tournament` is frozen data, and
every function returns a new one, ``revision`` one higher, or the same one when nothing
changes. The Discord side stores it (`encode_tournament`/`decode_tournament`), opens a
table per `Table` and calls `record_result`, `record_forfeit`, `close_round` and
`advance` as games end.

- `bot.tournament.model`: the stored data and its versions;
- `bot.tournament.signup`: create, join, leave, cancel, start (computer fill),
  withdraw;
- `bot.tournament.rounds`: pairing the next round, results, no-shows, closing;
- `bot.tournament.swiss`: Swiss pairing (the ``pairing-core`` library, and why);
- `bot.tournament.matching`: the least-cost pairing when rematches are forced;
- `bot.tournament.groups`: tables of three or more by standing;
- `bot.tournament.scoring`: points by finishing place; `bot.tournament.standings`:
  standings and tie-breaks;
- `bot.tournament.seasons`: season ids for the leaderboard.
"""

from bot.tournament.errors import TournamentError
from bot.tournament.model import (
    SCHEMA_VERSION,
    Entrant,
    Format,
    Round,
    State,
    Table,
    TableResult,
    Tournament,
    UnreadableTournament,
    decode_tournament,
    encode_tournament,
)
from bot.tournament.rounds import (
    advance,
    close_round,
    overdue,
    pair_next_round,
    record_forfeit,
    record_result,
    round_complete,
    table_of,
)
from bot.tournament.seasons import Season, SeasonLength, season_by_id, season_of
from bot.tournament.signup import (
    cancel,
    computers_needed,
    create,
    join,
    leave,
    start,
    withdraw,
)
from bot.tournament.standings import Standing, ranking, standings

__all__ = [
    "SCHEMA_VERSION",
    "Entrant",
    "Format",
    "Round",
    "Season",
    "SeasonLength",
    "Standing",
    "State",
    "Table",
    "TableResult",
    "Tournament",
    "TournamentError",
    "UnreadableTournament",
    "advance",
    "cancel",
    "close_round",
    "computers_needed",
    "create",
    "decode_tournament",
    "encode_tournament",
    "join",
    "leave",
    "overdue",
    "pair_next_round",
    "ranking",
    "record_forfeit",
    "record_result",
    "round_complete",
    "season_by_id",
    "season_of",
    "standings",
    "start",
    "table_of",
    "withdraw",
]
