"""Server settings against a real Redis: defaults, atomic updates, refused values."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

import pytest
import redis.asyncio as aioredis

from bot.games import GAMES
from bot.storage.clients import client_for_url
from bot.storage.errors import StoreUnavailable
from bot.storage.keys import settings_key
from bot.storage.settings import (
    MAX_CHANNELS,
    GuildSettings,
    GuildSettingsStore,
    SettingRefused,
    allows_channel,
    turn_time_for,
)

GUILD = 42
GAME_NAMES = [spec.name for spec in GAMES]
GAME = GAME_NAMES[0]


@pytest.fixture
async def client(redis_server: str) -> AsyncIterator[aioredis.Redis]:
    client = client_for_url(redis_server)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
def store(client: aioredis.Redis) -> GuildSettingsStore:
    return GuildSettingsStore(client, GAME_NAMES)


def adding_channel(channel: int) -> Callable[[GuildSettings], GuildSettings]:
    return lambda s: s.model_copy(update={"channels": [*s.channels, channel]})


async def test_a_server_that_never_chose_has_the_defaults(
    store: GuildSettingsStore, client: aioredis.Redis
) -> None:
    settings = await store.get(GUILD)
    assert settings == GuildSettings(language="auto", pings=True, turn_time={}, channels=[])
    assert await client.exists(settings_key(GUILD)) == 0
    assert allows_channel(settings, 123)
    assert turn_time_for(settings, GAME) is None


async def test_an_update_is_stored_as_json_and_read_back(
    store: GuildSettingsStore, client: aioredis.Redis
) -> None:
    saved = await store.update(
        GUILD,
        lambda s: s.model_copy(
            update={
                "language": "de",
                "pings": False,
                "ping_after": 45,
                "turn_time": {GAME: 90},
                "channels": [7],
                "season": "quarterly",
                "season_ratings": "restart",
            }
        ),
    )
    assert saved == await store.get(GUILD)
    raw = await client.get(settings_key(GUILD))
    assert raw is not None
    assert json.loads(raw) == {
        "language": "de",
        "pings": False,
        "ping_after": 45,
        "turn_time": {GAME: 90},
        "channels": [7],
        "season": "quarterly",
        "season_ratings": "restart",
    }
    assert turn_time_for(saved, GAME) == 90
    assert allows_channel(saved, 7)
    assert not allows_channel(saved, 8)
    assert await store.get(GUILD + 1) == GuildSettings()


async def test_updates_build_on_each_other(store: GuildSettingsStore) -> None:
    await store.update(GUILD, lambda s: s.model_copy(update={"pings": False}))
    await store.update(GUILD, adding_channel(1))
    settings = await store.update(GUILD, adding_channel(2))
    assert settings.pings is False
    assert settings.channels == [1, 2]


async def test_concurrent_updates_all_count(store: GuildSettingsStore) -> None:
    """Each update adds its own channel; a lost compare-and-set runs its change again."""
    await asyncio.gather(*(store.update(GUILD, adding_channel(c)) for c in range(10)))
    assert sorted((await store.get(GUILD)).channels) == list(range(10))


@pytest.mark.parametrize(
    ("update", "words"),
    [
        ({"language": "fr"}, "not a language setting"),
        ({"turn_time": {"chess": 60}}, "don't host a game called 'chess'"),
        ({"turn_time": {GAME: 3601}}, "between 0 and 3600 seconds"),
        ({"turn_time": {GAME: -1}}, "between 0 and 3600 seconds"),
        ({"channels": list(range(MAX_CHANNELS + 1))}, f"at most {MAX_CHANNELS}"),
        ({"channels": [5, 5]}, "listed already"),
    ],
)
async def test_a_bad_value_is_refused_and_nothing_changes(
    store: GuildSettingsStore, update: dict[str, object], words: str
) -> None:
    before = await store.update(GUILD, lambda s: s.model_copy(update={"pings": False}))
    with pytest.raises(SettingRefused) as refused:
        await store.update(GUILD, lambda s: s.model_copy(update=update))
    assert words in str(refused.value)
    assert await store.get(GUILD) == before


def test_the_model_refuses_bad_values_on_its_own() -> None:
    with pytest.raises(SettingRefused):
        GuildSettings.model_validate({"language": "fr"})
    with pytest.raises(SettingRefused):
        GuildSettings.model_validate({"turn_time": {GAME: 4000}})
    with pytest.raises(SettingRefused):
        GuildSettings.model_validate({"turn_time": {"chess": 60}}, context={"games": GAME_NAMES})
    assert GuildSettings.model_validate({"turn_time": {GAME: 3600}}).turn_time == {GAME: 3600}


async def test_unreadable_stored_settings_count_as_the_defaults(
    store: GuildSettingsStore, client: aioredis.Redis
) -> None:
    await client.set(settings_key(GUILD), '{"language": "klingon"}')
    assert await store.get(GUILD) == GuildSettings()
    await client.set(settings_key(GUILD), "not json")
    assert await store.get(GUILD) == GuildSettings()
    saved = await store.update(GUILD, lambda s: s.model_copy(update={"pings": False}))
    assert saved == GuildSettings(pings=False)


async def test_a_clock_for_a_game_no_longer_registered_is_dropped(
    store: GuildSettingsStore, client: aioredis.Redis
) -> None:
    stored = {"turn_time": {"retired": 30, GAME: 45}}
    await client.set(settings_key(GUILD), json.dumps(stored))
    assert (await store.get(GUILD)).turn_time == {GAME: 45}


async def test_redis_faults_become_store_unavailable() -> None:
    client = client_for_url("redis://127.0.0.1:1/0")
    store = GuildSettingsStore(client, GAME_NAMES)
    with pytest.raises(StoreUnavailable):
        await store.get(GUILD)
    with pytest.raises(StoreUnavailable):
        await store.update(GUILD, lambda s: s)
    await client.aclose()


async def test_a_wait_before_a_ping_past_the_limit_is_refused(store: GuildSettingsStore) -> None:
    with pytest.raises(SettingRefused, match="wait before a ping"):
        await store.update(GUILD, lambda s: s.model_copy(update={"ping_after": 601}))
    assert await store.get(GUILD) == GuildSettings()
