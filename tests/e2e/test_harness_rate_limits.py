"""Self-test of the fake Discord's rate limits (`tests.harness.rate_limits`).

A raw client that ignores the limits gets Discord's 429s and headers; discord.py, the
bot's own library, reads the headers and paces itself, or waits out a 429 it did not see
coming. Raw-HTTP tests get the limits only when marked ``rate_limits``; a test that runs
a bot gets them by default.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory, chosen_rate_limits
from tests.harness.rate_limits import (
    ENV,
    GLOBAL,
    INVALID,
    LIMITS,
    MESSAGE,
    RateLimits,
)
from tests.harness.spec import load

NULL_BOT = "tests.harness.null_bot"
MESSAGES = "POST /channels/{channel_id}/messages"
LIMITED = pytest.mark.rate_limits(True)
"""Discord's limits for a test that talks to the fake with a raw client."""
Json = dict[str, Any]


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def call(
    http: aiohttp.ClientSession,
    method: str,
    url: str,
    fake: FakeDiscord,
    json: Json | None = None,
    *,
    token: bool = True,
) -> Answer:
    headers = {"Authorization": f"Bot {fake.token}"} if token else {}
    async with http.request(method, url, json=json, headers=headers) as response:
        text = await response.text()
        is_json = response.content_type == "application/json" and text
        body = await response.json() if is_json else text
        return Answer(response.status, dict(response.headers), body)


def messages_url(fake: FakeDiscord, channel: int) -> str:
    return f"{fake.api_base}/channels/{channel}/messages"


async def post(http: aiohttp.ClientSession, fake: FakeDiscord, channel: int, text: str) -> Answer:
    return await call(http, "POST", messages_url(fake, channel), fake, {"content": text})


def discord_py_client(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> discord.http.HTTPClient:
    """discord.py's own REST client (with its rate limiter) pointed at the fake, as the
    bot points it (``Route.BASE``)."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    return discord.http.HTTPClient(asyncio.get_running_loop())


# ---------------------------------------------------------------- the table


def test_every_limit_is_sourced_and_on_a_route_of_discords_spec() -> None:
    spec = load()
    for row in LIMITS:
        assert row.limit > 0 and row.window > 0, row
        assert row.source and row.bucket, row
        assert row.scope in {"user", "global", "shared"}, row
        if row.route in (GLOBAL, INVALID):
            continue
        path = row.path.replace("{webhook_token}", "token")
        for name in ("channel_id", "guild_id", "webhook_id", "message_id", "user_id"):
            path = path.replace("{" + name + "}", "123")
        path = path.replace("{application_id}", "123")
        assert spec.operation(row.method, path) is not None, f"{row.route} is not Discord's"
    counters: dict[str, set[str]] = {}
    for row in LIMITS:
        counters.setdefault(row.key, set()).add(row.bucket)
    assert all(len(buckets) == 1 for buckets in counters.values()), counters


def test_the_environment_and_the_marker_choose_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert RateLimits.from_env(default=True).enabled
    assert not RateLimits.from_env(default=False).enabled
    monkeypatch.setenv(ENV, "off")
    assert not RateLimits.from_env(default=True).enabled
    monkeypatch.setenv(ENV, "on")
    assert RateLimits.from_env(default=False).enabled
    assert not RateLimits.from_marker([False], {}).enabled
    assert RateLimits.from_marker([], {"ban": False}) == RateLimits(ban=False)
    tighter = RateLimits().with_limit(MESSAGES, 2, 1.0)
    assert RateLimits.from_marker([tighter], {}).row(MESSAGES).limit == 2
    assert not RateLimits().without(GLOBAL).row(GLOBAL).applied
    with pytest.raises(KeyError):
        RateLimits().with_limit("GET /nowhere", 1)


def test_a_bot_gets_discords_limits_and_a_raw_client_none_unless_the_test_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert chosen_rate_limits(None, runs_a_bot=True) == RateLimits()
    assert not chosen_rate_limits(None, runs_a_bot=False).enabled
    assert chosen_rate_limits(pytest.mark.rate_limits(True).mark, runs_a_bot=False).enabled
    assert not chosen_rate_limits(pytest.mark.rate_limits(False).mark, runs_a_bot=True).enabled
    monkeypatch.setenv(ENV, "on")
    assert chosen_rate_limits(None, runs_a_bot=False).enabled


@pytest.mark.rate_limits(False)
async def test_a_fake_without_limits_answers_every_request_without_their_headers(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    assert not fake_discord.rate_limiter.config.enabled
    answers = [await post(http, fake_discord, fake_discord.channel_ids[0], "x") for _ in range(7)]
    assert [a.status for a in answers] == [200] * 7
    assert not any(key.startswith("X-RateLimit") for a in answers for key in a.headers)
    assert fake_discord.request_counts.bot == 7  # counted all the same
    assert fake_discord.rate_limited == []


# ---------------------------------------------------------------- per route


@LIMITED
async def test_a_client_that_ignores_the_limits_gets_429_in_that_channel_only(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    first, second = fake.channel_ids[:2]
    answers = [await post(http, fake, first, f"m{i}") for i in range(6)]
    assert [a.status for a in answers] == [200] * 5 + [429]
    # Every answer says where the bucket stands, Remaining counting down.
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0", "0"]
    assert {a.headers["X-RateLimit-Limit"] for a in answers} == {"5"}
    assert {a.headers["X-RateLimit-Bucket"] for a in answers} == {"messages"}
    resets = [float(a.headers["X-RateLimit-Reset-After"]) for a in answers]
    assert resets == sorted(resets, reverse=True) and 0 < resets[-1] <= resets[0] <= 5.0
    assert abs(float(answers[0].headers["X-RateLimit-Reset"]) - (time.time() + resets[0])) < 1

    refused = answers[5]
    assert refused.body == {
        "message": MESSAGE,
        "retry_after": refused.body["retry_after"],
        "global": False,
        "code": 0,
    }
    retry_after = refused.body["retry_after"]
    assert 0 < retry_after <= 5.0
    assert float(refused.headers["X-RateLimit-Reset-After"]) == pytest.approx(retry_after, abs=0.05)
    assert refused.headers["Retry-After"] == str(math.ceil(retry_after))
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in refused.headers
    assert refused.headers["Via"]  # without it discord.py takes a 429 for a Cloudflare ban

    elsewhere = await post(http, fake, second, "elsewhere")  # another channel, another bucket
    assert elsewhere.status == 200
    assert elsewhere.headers["X-RateLimit-Remaining"] == "4"
    assert [m.content for m in fake.messages.values()] == [
        "m0",
        "m1",
        "m2",
        "m3",
        "m4",
        "elsewhere",
    ]

    (record,) = fake.rate_limited
    assert (record.method, record.path) == ("POST", f"/api/v10/channels/{first}/messages")
    assert (record.route, record.bucket, record.scope) == (MESSAGES, "messages", "user")
    assert record.retry_after == retry_after
    assert fake.rate_limiter.invalid_requests == 1
    assert (fake.request_counts.bot, fake.request_counts.interaction) == (7, 0)
    assert fake.request_counts.rate_limited == 1
    assert fake.rate_limiter.remaining(MESSAGES, channel_id=first) == 0
    assert fake.rate_limiter.remaining(MESSAGES, channel_id=second) == 4


@LIMITED
async def test_edits_count_apart_from_posts_and_deletes_go_by_the_messages_age(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    channel = fake.channel_ids[0]
    ids = [int((await post(http, fake, channel, f"m{i}")).body["id"]) for i in range(5)]
    url = messages_url(fake, channel)
    # discord-api-docs#8073: POST and PATCH report one bucket but count apart.
    edit = await call(http, "PATCH", f"{url}/{ids[0]}", fake, {"content": "edited"})
    assert edit.status == 200
    assert (edit.headers["X-RateLimit-Bucket"], edit.headers["X-RateLimit-Remaining"]) == (
        "messages",
        "4",
    )
    new = await call(http, "DELETE", f"{url}/{ids[1]}", fake)
    assert new.status == 204
    assert (new.headers["X-RateLimit-Bucket"], new.headers["X-RateLimit-Limit"]) == (
        "delete_new_message",
        "5",
    )
    fake.clock.advance(11)  # the messages are older than 10 s now
    older = await call(http, "DELETE", f"{url}/{ids[2]}", fake)
    assert (older.headers["X-RateLimit-Bucket"], older.headers["X-RateLimit-Limit"]) == (
        "delete_message",
        "3",
    )
    fake.clock.advance(14 * 86_400)
    oldest = await call(http, "DELETE", f"{url}/{ids[3]}", fake)
    assert (oldest.headers["X-RateLimit-Bucket"], oldest.headers["X-RateLimit-Limit"]) == (
        "delete_old_message",
        "30",
    )
    assert fake.rate_limited == []


# ---------------------------------------------------------------- global


@LIMITED
async def test_more_than_fifty_bot_requests_a_second_get_a_global_429(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    # Routes without a limit of their own: only the global limit counts them.
    urls = [f"{fake.api_base}/channels/{c}" for c in fake.channel_ids]
    urls.append(f"{fake.api_base}/users/@me")
    answers = await asyncio.gather(
        *(call(http, "GET", urls[i % len(urls)], fake) for i in range(100))
    )
    served = [a for a in answers if a.status == 200]
    refused = [a for a in answers if a.status == 429]
    assert len(served) >= 50 and refused, [a.status for a in answers]
    for answer in refused:
        assert answer.body["global"] is True
        assert 0 < answer.body["retry_after"] <= 1.0
        assert answer.headers["X-RateLimit-Global"] == "true"
        assert answer.headers["X-RateLimit-Scope"] == "global"
        assert answer.headers["Retry-After"] == "1"
        assert answer.headers["Via"]
    assert {(r.route, r.bucket, r.scope) for r in fake.rate_limited} == {
        (GLOBAL, "global", "global")
    }
    assert all(r.is_global for r in fake.rate_limited)
    assert fake.request_counts.bot == 100


@pytest.mark.rate_limits(RateLimits().with_limit(GLOBAL, 5, window=60.0))
async def test_interaction_endpoints_are_exempt_from_the_global_limit(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.users[0]
    me = f"{fake.api_base}/users/@me"
    statuses = [(await call(http, "GET", me, fake)).status for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    # The bot token's window is full for a minute; interactions still get through.
    for n in range(3):
        interaction = fake.create_interaction(
            type=2, user=alice, channel_id=fake.channel_ids[0], data={"name": "x"}
        )
        callback = f"{fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
        webhook = f"{fake.api_base}/webhooks/{fake.app_id}/{interaction.token}"
        reply = {"type": 4, "data": {"content": f"reply {n}"}}
        assert (await call(http, "POST", callback, fake, reply, token=False)).status == 204
        followups = [
            await call(http, "POST", webhook, fake, {"content": f"more {i}"}, token=False)
            for i in range(6)
        ]
        # The interaction's webhook has a limit of its own: 5 per 2 s per interaction.
        assert [f.status for f in followups] == [200] * 5 + [429]
        assert [f.headers["X-RateLimit-Remaining"] for f in followups[:5]] == [
            "4",
            "3",
            "2",
            "1",
            "0",
        ]
        assert followups[5].headers["X-RateLimit-Bucket"] == "interaction_webhook"
        assert followups[5].body["global"] is False
    assert (await call(http, "GET", me, fake)).status == 429
    counts = fake.request_counts
    assert (counts.bot, counts.interaction, counts.rate_limited) == (7, 21, 5)
    assert [r.scope for r in fake.rate_limited] == ["global", "user", "user", "user", "global"]


# ---------------------------------------------------------------- discord.py


@LIMITED
async def test_discord_py_paces_eight_posts_to_one_channel_by_the_headers(
    fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    channel = fake.channel_ids[0]
    client = discord_py_client(fake, monkeypatch)
    await client.static_login(fake.token)
    try:
        started = time.monotonic()
        sent = await asyncio.gather(
            *(
                client.send_message(
                    channel, params=discord.http.handle_message_parameters(content=f"move {i}")
                )
                for i in range(8)
            )
        )
        elapsed = time.monotonic() - started
    finally:
        await client.close()
    assert sorted(m["content"] for m in sent) == [f"move {i}" for i in range(8)]
    assert fake.rate_limited == []  # it waited for the window instead of being refused
    assert elapsed >= 4.5, f"eight posts took {elapsed:.2f} s: the sixth must wait for 5 s"
    posted = sorted(m.created_at for m in fake.messages.values())
    assert posted[5] - posted[0] >= 4.5


@pytest.mark.rate_limits(RateLimits().with_limit(MESSAGES, 5, window=1.0))
async def test_discord_py_waits_out_a_429_it_did_not_see_coming(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    channel = fake.channel_ids[0]
    client = discord_py_client(fake, monkeypatch)
    await client.static_login(fake.token)
    try:
        for i in range(5):  # someone else with the same token fills the channel's window
            await post(http, fake, channel, f"raw {i}")
        started = time.monotonic()
        sent = await client.send_message(
            channel, params=discord.http.handle_message_parameters(content="after the wait")
        )
        elapsed = time.monotonic() - started
    finally:
        await client.close()
    assert sent["content"] == "after the wait"
    (refused,) = fake.rate_limited
    assert (refused.bucket, refused.scope) == ("messages", "user")
    assert elapsed >= refused.retry_after


@pytest.mark.rate_limits(RateLimits().with_limit(GLOBAL, 3))
async def test_discord_py_waits_out_a_global_429(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    channel = fake.channel_ids[0]
    client = discord_py_client(fake, monkeypatch)
    await client.static_login(fake.token)  # 1 of the 3 a second
    try:
        for _ in range(2):
            await call(http, "GET", f"{fake.api_base}/users/@me", fake)
        started = time.monotonic()
        found = await client.get_channel(channel)
        elapsed = time.monotonic() - started
    finally:
        await client.close()
    assert found["id"] == str(channel)
    (refused,) = fake.rate_limited
    assert refused.is_global
    assert elapsed >= refused.retry_after


# ---------------------------------------------------------------- the bot, the ban


@LIMITED
async def test_a_bot_keeps_its_channel_pings_within_the_limits(
    fake_discord: FakeDiscord, driver: Driver, bot_process: BotFactory
) -> None:
    assert fake_discord.rate_limiter.config.enabled
    await bot_process(NULL_BOT)
    alice, bernd = driver.user("alice"), driver.user("bernd")
    for _ in range(7):
        await driver.slash(alice, "null ping", who=bernd, how="channel")
    pings = await driver.wait_for(
        lambda: [*driver.notified(bernd)] if len(driver.notified(bernd)) == 7 else [],
        what="seven channel pings",
    )
    assert pings[5].created_at - pings[0].created_at >= 4.5  # the sixth waited for the window
    assert fake_discord.rate_limited == []
    assert fake_discord.request_counts.interaction >= 7  # the answers, exempt from the global limit


@pytest.mark.rate_limits(RateLimits().with_limit(INVALID, 3))
async def test_too_many_invalid_requests_get_cloudflares_ban(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    channel = fake.channel_ids[0]
    for _ in range(3):
        anonymous = await call(
            http, "POST", messages_url(fake, channel), fake, {"content": "hi"}, token=False
        )
        assert anonymous.status == 401
    assert fake.rate_limiter.invalid_requests == 3
    banned = await post(http, fake, channel, "too late")
    assert banned.status == 429
    assert "Via" not in banned.headers  # discord.py raises HTTPException instead of waiting
    assert "Cloudflare" in banned.body
    assert fake.rate_limited[-1].scope == "cloudflare"
    kinds = [v.kind for v in fake.pop_violations()]
    assert kinds == ["auth", "auth", "auth", "invalid_requests"]
