"""Which guilds a process serves, by Discord's shard formula."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings


def settings(**values: str) -> Settings:
    """Settings from ``values`` alone (not this machine's environment)."""
    return Settings.model_validate(values)


def guild_on_shard(shard: int, count: int, n: int = 7) -> int:
    """A guild id whose shard is ``shard`` of ``count`` (ids carry a timestamp in their
    upper bits; the shard is those bits modulo the count)."""
    return ((n * count + shard) << 22) | 12345


def test_without_shard_settings_a_process_serves_every_guild() -> None:
    unsharded = settings()
    assert all(unsharded.owns_guild(guild_on_shard(s, 4)) for s in range(4))


def test_a_process_serves_exactly_the_guilds_of_its_shards() -> None:
    process = settings(shard_count="4", shard_ids="0,1")
    served = [s for s in range(4) if process.owns_guild(guild_on_shard(s, 4))]
    assert served == [0, 1]


def test_a_shard_count_alone_serves_every_shard_in_this_process() -> None:
    process = settings(shard_count="2")
    assert process.owns_guild(guild_on_shard(0, 2))
    assert process.owns_guild(guild_on_shard(1, 2))


@pytest.mark.parametrize(
    "values",
    [
        {"shard_ids": "0"},
        {"shard_count": "2", "shard_ids": "2"},
        {"shard_count": "2", "shard_ids": "1,1"},
        {"shard_count": "0"},
    ],
)
def test_inconsistent_shard_settings_are_refused(values: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        settings(**values)
