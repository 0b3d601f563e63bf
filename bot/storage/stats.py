"""Per-guild player statistics and ratings, kept in Redis.

Key layout (all per guild; nothing here expires except the "recorded" markers):

``stats:{guild}:player:{player}`` (hash)
    ``name``: the latest display name;
    ``played``, ``wins``, ``place_sum``: totals over all games;
    ``g:{game}:played``, ``g:{game}:wins``, ``g:{game}:place_sum``: the same per game;
    ``g:{game}:mu``, ``g:{game}:sigma``: the player's skill in that game (floats as text).
``stats:{guild}:skill:{game}`` (sorted set)
    member: player id, score: the conservative skill ``mu - 3 sigma``, for leaderboards.
``stats:{guild}:recorded:{gid}`` (string, 30-day TTL)
    Marks a finished game as counted, so recording it again changes nothing.

Ratings are openskill's Weng-Lin Plackett-Luce model, which rates a free-for-all by
places (ties share a place). A skill is a belief ``mu`` with an uncertainty ``sigma``;
what players see is the conservative `shown_rating`, ``1000 + 20 * (mu - 3 sigma)``:
1000 for a newcomer, rising as results show the player's level (a player known to be
exactly average settles near 1400), never below 0. Computer seats (``ai:`` ids)
are not recorded as players, but each game they take part as a newcomer would (their
skill is never kept), and their places count.

Before openskill the ratings were Elo numbers in ``g:{game}:rating`` and the sorted set
``stats:{guild}:rating:{game}``. An Elo number says nothing about ``sigma``, so it is
not converted: counts carry over (same fields), skills start fresh, and recording a
player's next game of that kind deletes their Elo field and leaderboard entry.

Recording is optimistic compare-and-set: read the people's current skills, compute the
new ones with `rate`, then one Lua script checks that the game is not yet recorded and
that no skill moved meanwhile, and only then writes the marker and all updates. A crash
can never leave a game marked but uncounted (or counted twice).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import redis.asyncio as aioredis
from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel, ConfigDict

from bot.engines.base import Outcome, PlayerId
from bot.storage.errors import StoreUnavailable, guarded
from bot.storage.keys import (
    elo_key,
    player_key,
    recorded_key,
    season_skill_key,
    seasons_key,
    skill_key,
)

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""openskill's defaults: a newcomer is mu 25, sigma 25/3."""
DISPLAY_BASE = 1000.0
"""The shown rating of a newcomer (``mu - 3 sigma`` = 0): a familiar starting number."""
DISPLAY_SCALE = 20.0
"""Shown rating per unit of ``mu - 3 sigma``: an average player (mu 25) known for sure
shows about 1400; a first game moves a rating by a few dozen points."""


def shown_rating(conservative: float) -> float:
    """The rating players see for a conservative skill ``mu - 3 sigma``, never below 0."""
    return max(0.0, DISPLAY_BASE + DISPLAY_SCALE * conservative)


RECORDED_TTL_SECONDS = 30 * 24 * 3600
MAX_ATTEMPTS = 50
"""Compare-and-set rounds before giving up; each lost round means another game was counted."""


class Skill(BaseModel):
    """One player's skill in one game: openskill's belief ``mu`` and its uncertainty."""

    model_config = ConfigDict(frozen=True)

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: a level the player almost surely reaches (99.9% one-sided)."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> float:
        return shown_rating(self.conservative)


NEW_SKILL = Skill(mu=MODEL.mu, sigma=MODEL.sigma)
"""Where every player starts, and what computer seats play as in every game."""


def is_computer(player: PlayerId) -> bool:
    return player.startswith("ai:")


def rate(skills: Mapping[PlayerId, Skill], places: Mapping[PlayerId, int]) -> dict[PlayerId, Skill]:
    """New skills after one game, from the players' places (1 = best, equal = tie).

    ``skills`` must hold every player in ``places``. All players are updated; callers
    keep fixed skills (computers) as they were. Players are passed to openskill sorted
    by id, so the result does not depend on the mapping's order. openskill 6 may let
    players tied for a place gain less than the one right behind them
    (vivekjoshy/openskill.py#155); that is left to the library.
    """
    players = sorted(places)
    missing = [p for p in players if p not in skills]
    if missing:
        raise ValueError(f"No skill for {', '.join(missing)}")
    if len(players) < 2:
        return {p: skills[p] for p in players}
    teams = [[PlackettLuceRating(skills[p].mu, skills[p].sigma)] for p in players]
    rated = MODEL.rate(teams, ranks=[float(places[p]) for p in players])
    return {
        p: Skill(mu=team[0].mu, sigma=team[0].sigma) for p, team in zip(players, rated, strict=True)
    }


class GameStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    played: int = 0
    wins: int = 0
    place_sum: int = 0
    skill: Skill | None = None
    """None for the overall totals (skills are per game), and for a game last played
    when ratings were Elo."""

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.played if self.played else None

    @property
    def rating(self) -> float | None:
        """The rating shown to players (`Skill.display`), if rated."""
        return self.skill.display if self.skill is not None else None


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
    """The shown rating (`Skill.display`)."""
    played: int
    wins: int


def _prefix(game: str, season: str | None = None) -> str:
    return f"g:{game}:" if season is None else f"s:{season}:g:{game}:"


@dataclass(frozen=True)
class SeasonTally:
    """The leaderboard season a finished game also counts in."""

    id: str
    restart: bool
    """Rate the season's games from scratch; else the season shows each player's
    rating as it stands after their games (carried from season to season)."""


# KEYS: marker, skill zset, Elo zset, then one player hash per person.
# ARGV: ttl, field prefix (``g:<game>:``, or ``s:<season>:g:<game>:`` for a season's
#   tally, which leaves the overall counts alone), person count, then per person
#   (9 each): id, expected mu and sigma ('' = none yet), new mu, new sigma,
#   conservative skill, place, won (0/1), name ('' = keep).
# Returns 0: already recorded; -1: a skill moved since it was read; 1: recorded.
_RECORD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local prefix = ARGV[2]
local n = tonumber(ARGV[3])
for i = 1, n do
  local base = 3 + (i - 1) * 9
  local current = redis.call('HMGET', KEYS[3 + i], prefix .. 'mu', prefix .. 'sigma')
  if (current[1] or '') ~= ARGV[base + 2] or (current[2] or '') ~= ARGV[base + 3] then
    return -1
  end
end
redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[1]))
for i = 1, n do
  local key = KEYS[3 + i]
  local base = 3 + (i - 1) * 9
  local place = tonumber(ARGV[base + 7])
  local won = tonumber(ARGV[base + 8])
  redis.call('HINCRBY', key, prefix .. 'played', 1)
  redis.call('HINCRBY', key, prefix .. 'wins', won)
  redis.call('HINCRBY', key, prefix .. 'place_sum', place)
  if string.sub(prefix, 1, 2) == 'g:' then  -- a season's tally leaves the overall alone
    redis.call('HINCRBY', key, 'played', 1)
    redis.call('HINCRBY', key, 'wins', won)
    redis.call('HINCRBY', key, 'place_sum', place)
  end
  redis.call('HSET', key, prefix .. 'mu', ARGV[base + 4], prefix .. 'sigma', ARGV[base + 5])
  redis.call('HDEL', key, prefix .. 'rating')
  if ARGV[base + 9] ~= '' then redis.call('HSET', key, 'name', ARGV[base + 9]) end
  redis.call('ZADD', KEYS[2], ARGV[base + 6], ARGV[base + 1])
  redis.call('ZREM', KEYS[3], ARGV[base + 1])
end
return 1
"""

SkillFields = tuple[str | None, str | None]
"""A player's ``mu`` and ``sigma`` fields as Redis holds them."""


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
        season: SeasonTally | None = None,
    ) -> bool:
        """Count one finished game, once: False if ``gid`` was already recorded; and in
        ``season``'s leaderboard too (once, even when the game was counted before)."""
        counted = await self._record_all_time(guild_id, game, gid, outcome, names)
        if season is not None:
            await self._record_season(guild_id, game, gid, outcome, names, season)
        return counted

    async def _record_all_time(
        self,
        guild_id: int,
        game: str,
        gid: str,
        outcome: Outcome,
        names: Mapping[PlayerId, str],
    ) -> bool:
        people = sorted(p for p in outcome.places if not is_computer(p))
        marker = recorded_key(guild_id, gid)
        keys = [marker, skill_key(guild_id, game), elo_key(guild_id, game)]
        keys += [player_key(guild_id, p) for p in people]
        for _ in range(MAX_ATTEMPTS):
            marked, current = await self._read_skills(keys[3:], marker, _prefix(game), people)
            if marked:
                return False
            skills = dict.fromkeys(outcome.places, NEW_SKILL)
            for p in people:
                skills[p] = _skill(*current[p]) or NEW_SKILL
            new = rate(skills, outcome.places)
            args: list[str | int | float] = [RECORDED_TTL_SECONDS, _prefix(game), len(people)]
            for p in people:
                place = outcome.places[p]
                expected_mu, expected_sigma = current[p]
                args += [p, expected_mu or "", expected_sigma or ""]
                args += [repr(new[p].mu), repr(new[p].sigma), repr(new[p].conservative)]
                args += [place, int(place == 1), names.get(p, "")]
            result = int(await guarded(self._record_script(keys=keys, args=args)))
            if result >= 0:
                return result == 1
            log.debug("Skills moved while recording %s; retrying", gid)
        log.warning("Gave up recording %s after %d attempts", gid, MAX_ATTEMPTS)
        raise StoreUnavailable()

    async def _record_season(
        self,
        guild_id: int,
        game: str,
        gid: str,
        outcome: Outcome,
        names: Mapping[PlayerId, str],
        season: SeasonTally,
    ) -> None:
        """The game in ``season``'s leaderboard: its own ratings from scratch
        (``restart``), or each player's all-time rating after the game (carried)."""
        people = sorted(p for p in outcome.places if not is_computer(p))
        marker = recorded_key(guild_id, f"{gid}@{season.id}")
        keys = [marker, season_skill_key(guild_id, game, season.id), elo_key(guild_id, game)]
        keys += [player_key(guild_id, p) for p in people]
        prefix = _prefix(game, season.id)
        for _ in range(MAX_ATTEMPTS):
            marked, current = await self._read_skills(keys[3:], marker, prefix, people)
            if marked:
                return
            if season.restart:
                skills = dict.fromkeys(outcome.places, NEW_SKILL)
                skills.update({p: _skill(*current[p]) or NEW_SKILL for p in people})
                new = rate(skills, outcome.places)
            else:
                _, rated = await self._read_skills(keys[3:], marker, _prefix(game), people)
                new = {p: _skill(*rated[p]) or NEW_SKILL for p in people}
            args: list[str | int | float] = [RECORDED_TTL_SECONDS, prefix, len(people)]
            for p in people:
                place = outcome.places[p]
                expected_mu, expected_sigma = current[p]
                args += [p, expected_mu or "", expected_sigma or ""]
                args += [repr(new[p].mu), repr(new[p].sigma), repr(new[p].conservative)]
                args += [place, int(place == 1), names.get(p, "")]
            if int(await guarded(self._record_script(keys=keys, args=args))) >= 0:
                await guarded(self.client.sadd(seasons_key(guild_id), season.id))
                return
        log.warning("Gave up counting %s in season %s", gid, season.id)
        raise StoreUnavailable()

    async def seasons(self, guild_id: int) -> list[str]:
        """The seasons this server's games were counted in, the latest first."""
        found = cast(set[str], await guarded(self.client.smembers(seasons_key(guild_id))))
        return sorted(found, reverse=True)

    async def _read_skills(
        self, keys: list[str], marker: str, prefix: str, people: list[PlayerId]
    ) -> tuple[bool, dict[PlayerId, SkillFields]]:
        """Whether the game is recorded already, and the people's stored skill fields
        under ``prefix`` (a game's, or a game's in a season)."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.exists(marker)
            for key in keys:
                pipe.hmget(key, prefix + "mu", prefix + "sigma")
            marked, *stored = await guarded(pipe.execute())
        current = {p: (mu, sigma) for p, (mu, sigma) in zip(people, stored, strict=True)}
        return bool(marked), current

    async def player(self, guild_id: int, player_id: PlayerId) -> PlayerStats:
        fields = cast(
            dict[str, str],
            await guarded(self.client.hgetall(player_key(guild_id, player_id))),
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
                skill=_skill(values.get("mu"), values.get("sigma")),
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

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10, season: str | None = None
    ) -> list[LeaderRow]:
        """The ``limit`` best-rated players of ``game``, best first, all-time or in
        ``season`` (Elo-era ratings are not on it: those players appear once they have
        played again)."""
        if limit <= 0:
            return []
        key = (
            skill_key(guild_id, game)
            if season is None
            else season_skill_key(guild_id, game, season)
        )
        top = cast(
            list[tuple[str, float]],
            await guarded(self.client.zrevrange(key, 0, limit - 1, withscores=True)),
        )
        if not top:
            return []
        prefix = _prefix(game, season)
        async with self.client.pipeline(transaction=False) as pipe:
            for player_id, _ in top:
                pipe.hmget(
                    player_key(guild_id, player_id), "name", prefix + "played", prefix + "wins"
                )
            details: list[list[str | None]] = await guarded(pipe.execute())
        return [
            LeaderRow(
                player_id=player_id,
                name=name or player_id,
                rating=shown_rating(conservative),
                played=int(played or 0),
                wins=int(wins or 0),
            )
            for (player_id, conservative), (name, played, wins) in zip(top, details, strict=True)
        ]


def _skill(mu: str | None, sigma: str | None) -> Skill | None:
    """The stored skill, or None if there is none (a newcomer, or only an Elo rating)."""
    if mu is None or sigma is None:
        return None
    return Skill(mu=float(mu), sigma=float(sigma))
