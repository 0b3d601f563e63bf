"""Per-guild player statistics and ratings, kept in Redis.

Key layout (all per guild; nothing here expires except the "recorded" markers):

``stats:{guild}:player:{player}`` (hash)
    ``name``: the latest display name;
    ``played``, ``wins``, ``place_sum``: totals over all games;
    ``g:{game}:played``, ``g:{game}:wins``, ``g:{game}:place_sum``, ``g:{game}:rating``:
    the same per game, plus the game's rating (a float as text).
``stats:{guild}:rating:{game}`` (sorted set)
    member: player id, score: the rating; a mirror of ``g:{game}:rating`` for leaderboards.
``stats:{guild}:recorded:{gid}`` (string, 30-day TTL)
    Marks a finished game as counted, so recording it again changes nothing.

Rating rules:

* Elo with K = 32; a new player starts at 1000.
* Every pair of seats plays one "match" decided by their places (lower place wins,
  equal places draw), with K scaled by 1/(n-1) for n seats. For two seats this is
  plain Elo; for more, a winner over everyone gains what a two-player win would.
* Computer seats (``ai:`` ids) are not recorded as players, but they take part in the
  pairs at a fixed rating of 1000 (theirs never changes), and their places count.

Recording is optimistic compare-and-set: read the people's current ratings, compute
the new ones with `elo_update`, then one Lua script checks that the game is not yet
recorded and that no rating moved meanwhile, and only then writes the marker and all
updates. A crash can never leave a game marked but uncounted (or counted twice).
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Mapping
from typing import cast

import redis.asyncio as aioredis
from pydantic import BaseModel, ConfigDict

from bot.engines.base import Outcome, PlayerId
from bot.store import GameStore, StoreUnavailable

log = logging.getLogger(__name__)

K_FACTOR = 32.0
START_RATING = 1000.0
COMPUTER_RATING = 1000.0
"""The fixed rating computer seats play at."""
RECORDED_TTL_SECONDS = 30 * 24 * 3600
MAX_ATTEMPTS = 50
"""Compare-and-set rounds before giving up; each lost round means another game was counted."""


def is_computer(player: PlayerId) -> bool:
    return player.startswith("ai:")


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of ``rating`` against ``opponent`` (0..1)."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def elo_update(
    ratings: Mapping[PlayerId, float], places: Mapping[PlayerId, int], k: float = K_FACTOR
) -> dict[PlayerId, float]:
    """New ratings after one game, from the players' places (1 = best, equal = draw).

    Every pair of players is scored as a win, loss or draw by place, with K scaled by
    1/(n-1); for two players that is standard Elo. ``ratings`` must hold every player
    in ``places``. All players are updated; callers keep fixed ratings (computers) as
    they were.
    """
    players = list(places)
    missing = [p for p in players if p not in ratings]
    if missing:
        raise ValueError(f"No rating for {', '.join(missing)}")
    new = {p: float(ratings[p]) for p in players}
    if len(players) < 2:
        return new
    scale = k / (len(players) - 1)
    for a, b in itertools.combinations(players, 2):
        if places[a] < places[b]:
            score = 1.0
        elif places[a] > places[b]:
            score = 0.0
        else:
            score = 0.5
        delta = scale * (score - expected_score(ratings[a], ratings[b]))
        new[a] += delta
        new[b] -= delta
    return new


class GameStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    played: int = 0
    wins: int = 0
    place_sum: int = 0
    rating: float | None = None
    """None for the overall totals (ratings are per game)."""

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.played if self.played else None


class PlayerStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    player_id: PlayerId
    name: str | None
    """The latest display name recorded; None if the player has no stats."""
    games: dict[str, GameStats]
    overall: GameStats


class LeaderRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    player_id: PlayerId
    name: str
    rating: float
    played: int
    wins: int


def player_key(guild_id: int, player_id: PlayerId) -> str:
    return f"stats:{guild_id}:player:{player_id}"


def rating_key(guild_id: int, game: str) -> str:
    return f"stats:{guild_id}:rating:{game}"


def recorded_key(guild_id: int, gid: str) -> str:
    return f"stats:{guild_id}:recorded:{gid}"


def _prefix(game: str) -> str:
    return f"g:{game}:"


# KEYS: marker, rating zset, then one player hash per person.
# ARGV: ttl, field prefix, person count, then per person:
#   id, expected rating ('' = none yet), new rating, place, won (0/1), name ('' = keep).
# Returns 0: already recorded; -1: a rating moved since it was read; 1: recorded.
_RECORD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local prefix = ARGV[2]
local n = tonumber(ARGV[3])
for i = 1, n do
  local current = redis.call('HGET', KEYS[2 + i], prefix .. 'rating')
  if current == false then current = '' end
  if current ~= ARGV[3 + (i - 1) * 6 + 2] then return -1 end
end
redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[1]))
for i = 1, n do
  local key = KEYS[2 + i]
  local base = 3 + (i - 1) * 6
  local rating = ARGV[base + 3]
  local place = tonumber(ARGV[base + 4])
  local won = tonumber(ARGV[base + 5])
  redis.call('HINCRBY', key, prefix .. 'played', 1)
  redis.call('HINCRBY', key, prefix .. 'wins', won)
  redis.call('HINCRBY', key, prefix .. 'place_sum', place)
  redis.call('HINCRBY', key, 'played', 1)
  redis.call('HINCRBY', key, 'wins', won)
  redis.call('HINCRBY', key, 'place_sum', place)
  redis.call('HSET', key, prefix .. 'rating', rating)
  if ARGV[base + 6] ~= '' then redis.call('HSET', key, 'name', ARGV[base + 6]) end
  redis.call('ZADD', KEYS[2], rating, ARGV[base + 1])
end
return 1
"""


class StatsStore:
    """Records finished games and answers stats queries; Redis failures become
    `StoreUnavailable`. The client must decode responses (as `client_for_url`'s does)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client
        self._record_script = client.register_script(_RECORD)

    async def record(
        self,
        guild_id: int,
        game: str,
        gid: str,
        outcome: Outcome,
        names: Mapping[PlayerId, str],
    ) -> bool:
        """Count one finished game, once: False if ``gid`` was already recorded."""
        people = sorted(p for p in outcome.places if not is_computer(p))
        prefix = _prefix(game)
        marker = recorded_key(guild_id, gid)
        keys = [marker, rating_key(guild_id, game)] + [player_key(guild_id, p) for p in people]
        for _ in range(MAX_ATTEMPTS):
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.exists(marker)
                for key in keys[2:]:
                    pipe.hget(key, prefix + "rating")
                marked, *stored = await GameStore._call(pipe.execute())
            if marked:
                return False
            current = dict(zip(people, stored, strict=True))
            ratings = {
                p: COMPUTER_RATING if is_computer(p) else _rating(current[p])
                for p in outcome.places
            }
            new = elo_update(ratings, outcome.places)
            args: list[str | int] = [RECORDED_TTL_SECONDS, prefix, len(people)]
            for p in people:
                place = outcome.places[p]
                args += [
                    p,
                    current[p] or "",
                    repr(new[p]),
                    place,
                    int(place == 1),
                    names.get(p, ""),
                ]
            result = int(await GameStore._call(self._record_script(keys=keys, args=args)))
            if result >= 0:
                return result == 1
            log.debug("Ratings moved while recording %s; retrying", gid)
        log.warning("Gave up recording %s after %d attempts", gid, MAX_ATTEMPTS)
        raise StoreUnavailable()

    async def player(self, guild_id: int, player_id: PlayerId) -> PlayerStats:
        fields = cast(
            dict[str, str],
            await GameStore._call(self.client.hgetall(player_key(guild_id, player_id))),
        )
        per_game: dict[str, dict[str, str]] = {}
        for field, value in fields.items():
            if field.startswith("g:"):
                game, _, name = field[2:].rpartition(":")
                per_game.setdefault(game, {})[name] = value
        games = {
            game: GameStats(
                played=int(values.get("played", 0)),
                wins=int(values.get("wins", 0)),
                place_sum=int(values.get("place_sum", 0)),
                rating=_rating(values.get("rating")),
            )
            for game, values in sorted(per_game.items())
        }
        overall = GameStats(
            played=int(fields.get("played", 0)),
            wins=int(fields.get("wins", 0)),
            place_sum=int(fields.get("place_sum", 0)),
        )
        return PlayerStats(
            player_id=player_id, name=fields.get("name"), games=games, overall=overall
        )

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[LeaderRow]:
        """The ``limit`` best-rated players of ``game``, best first."""
        if limit <= 0:
            return []
        top = cast(
            list[tuple[str, float]],
            await GameStore._call(
                self.client.zrevrange(rating_key(guild_id, game), 0, limit - 1, withscores=True)
            ),
        )
        if not top:
            return []
        prefix = _prefix(game)
        async with self.client.pipeline(transaction=False) as pipe:
            for player_id, _ in top:
                pipe.hmget(
                    player_key(guild_id, player_id), "name", prefix + "played", prefix + "wins"
                )
            details: list[list[str | None]] = await GameStore._call(pipe.execute())
        return [
            LeaderRow(
                player_id=player_id,
                name=name or player_id,
                rating=rating,
                played=int(played or 0),
                wins=int(wins or 0),
            )
            for (player_id, rating), (name, played, wins) in zip(top, details, strict=True)
        ]


def _rating(text: str | None) -> float:
    return START_RATING if text is None else float(text)
