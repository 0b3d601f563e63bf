"""Self-test of the fake Discord's checks against Discord's OpenAPI spec and of its rule
that the components of a message have unique custom_ids. These talk to the fake directly
over HTTP, as a bot would; no bot runs."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.harness.fake_discord import FakeDiscord
from tests.harness.spec import load

Json = dict[str, Any]


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def headers(fake: FakeDiscord) -> dict[str, str]:
    return {"Authorization": f"Bot {fake.token}"}


def buttons(*custom_ids: str) -> list[Json]:
    row = [
        {"type": 2, "style": 1, "label": f"B{i}", "custom_id": custom_id}
        for i, custom_id in enumerate(custom_ids)
    ]
    return [{"type": 1, "components": row}]


async def test_a_body_against_the_spec_is_refused_and_reported(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    channel = f"{fake.api_base}/channels/{fake.channel_ids[0]}/messages"
    planted = {"content": "hi", "tts": "maybe", "components": [{"type": 1, "components": 7}]}
    async with http.post(channel, json=planted, headers=headers(fake)) as refused:
        assert refused.status == 400
        answer = await refused.json()
    assert answer["code"] == 50035
    assert "tts" in answer["message"] or "components" in answer["message"], answer
    (violation,) = fake.pop_violations()
    assert violation.kind == "spec"
    assert "POST /api/v10/channels/" in violation.detail
    assert fake.spec_counts.request_violations == 1
    assert not any(m.content == "hi" for m in fake.messages.values()), "nothing was posted"


async def test_what_discord_accepts_beyond_the_letter_of_the_spec_passes(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """Integer snowflakes where the spec says a string, "1"-like booleans: Discord takes them."""
    fake = fake_discord
    alice = fake.users[0]
    channel = f"{fake.api_base}/channels/{fake.channel_ids[0]}/messages"
    body = {
        "content": f"hi {alice.mention}",
        "tts": "0",
        "allowed_mentions": {"parse": [], "users": [alice.id], "replied_user": "true"},
        "components": buttons("a", "b"),
    }
    async with http.post(channel, json=body, headers=headers(fake)) as posted:
        assert posted.status == 200, await posted.text()
        message = await posted.json()
    assert fake.violations == []
    assert fake.spec_counts.requests == 1 and fake.spec_counts.responses == 1
    # The echo is what Discord answers: component ids, no guild_id on a REST message.
    assert [c["id"] for c in message["components"][0]["components"]] == [2, 3]
    assert message["components"][0]["id"] == 1
    assert "guild_id" not in message


def test_a_response_against_the_spec_is_reported() -> None:
    spec = load()
    operation = spec.operation("GET", "/api/v10/channels/1/messages/2")
    assert operation is not None and operation.template.endswith("/messages/{message_id}")
    problems = spec.response_problems(operation, 200, {"id": 2, "content": "x"})
    assert any("is a required property" in p for p in problems), problems
    assert any("body.id" in p for p in problems), problems  # responses: strings only
    assert spec.response_problems(operation, 404, {"code": 10008, "message": "x"}) == []
    assert spec.operation("GET", "/api/v10/voice/regions") is None
    original = spec.operation("PATCH", "/api/v10/webhooks/1/t/messages/@original")
    assert original is not None and original.template.endswith("/messages/@original")


async def test_every_json_answer_is_checked(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    api = fake.api_base
    for path in (
        "/users/@me",
        f"/users/{fake.users[1].id}",
        "/oauth2/applications/@me",
        "/gateway/bot",
        f"/guilds/{fake.guild_id}",
        f"/guilds/{fake.guild_id}/members/{fake.users[0].id}",
        f"/channels/{fake.channel_ids[0]}",
        f"/channels/{fake.channel_ids[0]}/messages",
        f"/applications/{fake.app_id}/guilds/{fake.guild_id}/commands",
    ):
        async with http.get(api + path, headers=headers(fake)) as answer:
            assert answer.status == 200, path
    commands = [
        {"name": "x", "description": "d", "default_member_permissions": 32, "type": 1},
        {"name": "y", "description": "d", "integration_types": None, "contexts": None},
    ]
    put = f"{api}/applications/{fake.app_id}/guilds/{fake.guild_id}/commands"
    async with http.put(put, json=commands, headers=headers(fake)) as synced:
        echoed = await synced.json()
    assert [c["default_member_permissions"] for c in echoed] == ["32", None]
    assert [c["integration_types"] for c in echoed] == [[0], [0]]
    assert fake.violations == []
    assert fake.spec_counts.responses == 10 and fake.spec_counts.requests == 1


async def test_duplicate_custom_ids_are_refused_on_every_way_to_write_a_message(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    api = fake.api_base
    alice = fake.users[0]
    channel_id = fake.channel_ids[0]
    channel = f"{api}/channels/{channel_id}/messages"
    twice = {"content": "x", "components": buttons("same", "other", "same")}
    once = {"content": "x", "components": buttons("same", "other")}

    async def refused(method: str, url: str, auth: bool = True) -> None:
        sent = headers(fake) if auth else {}
        async with http.request(method, url, json=twice, headers=sent) as answer:
            assert answer.status == 400, (method, url, await answer.text())
            body = await answer.json()
        assert body["code"] == 50035 and "COMPONENT_CUSTOM_ID_DUPLICATED" in body["message"]

    async with http.post(channel, json=once, headers=headers(fake)) as posted:
        message_id = int((await posted.json())["id"])
    await refused("POST", channel)
    await refused("PATCH", f"{channel}/{message_id}")

    def interaction(kind: int) -> tuple[str, str]:
        made = fake.create_interaction(
            type=kind,
            user=alice,
            channel_id=channel_id,
            data={"name": "x"} if kind == 2 else {"custom_id": "same", "component_type": 2},
            message_id=None if kind == 2 else message_id,
        )
        callback = f"{api}/interactions/{made.id}/{made.token}/callback"
        return callback, f"{api}/webhooks/{fake.app_id}/{made.token}"

    callback, _ = interaction(2)
    async with http.post(callback, json={"type": 4, "data": twice}) as answer:
        assert answer.status == 400
    callback, _ = interaction(3)
    async with http.post(callback, json={"type": 7, "data": twice}) as answer:
        assert answer.status == 400
    callback, webhook = interaction(2)
    async with http.post(callback, json={"type": 4, "data": once}) as answer:
        assert answer.status == 204
    await refused("POST", webhook, auth=False)
    await refused("PATCH", f"{webhook}/messages/@original", auth=False)

    kinds = [v.kind for v in fake.pop_violations()]
    assert kinds == ["duplicate_custom_id"] * 6, kinds
    assert [b["custom_id"] for b in fake.messages[message_id].buttons] == ["same", "other"]


async def test_a_multipart_payload_json_is_checked_too(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    channel = f"{fake.api_base}/channels/{fake.channel_ids[0]}/messages"

    def form(payload: Json) -> aiohttp.FormData:
        data = aiohttp.FormData()
        data.add_field("payload_json", json.dumps(payload), content_type="application/json")
        data.add_field("files[0]", b"x", filename="a.txt", content_type="text/plain")
        return data

    good = {"content": "file", "attachments": [{"id": 0, "filename": "a.txt"}]}
    async with http.post(channel, data=form(good), headers=headers(fake)) as posted:
        assert posted.status == 200, await posted.text()
    bad = {"content": "file", "attachments": [{"id": 0, "filename": 7}]}
    async with http.post(channel, data=form(bad), headers=headers(fake)) as refused:
        assert refused.status == 400
    assert [v.kind for v in fake.pop_violations()] == ["spec"]
    assert fake.spec_counts.requests == 2
