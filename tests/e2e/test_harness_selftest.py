"""Self-test of the end-to-end harness: the fake Discord, the driver and the fixtures.

Most tests run the null bot (tests/harness/null_bot.py) as a real subprocess; the protocol
tests talk to the fake directly with aiohttp to check wire formats and Discord's rules.
"""

from __future__ import annotations

import asyncio
import json
import signal
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import redis

from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory, BotProcess
from tests.harness.limits import command_problems, component_problems, message_problems
from tests.harness.mentions import (
    INTERACTION_DEFAULT,
    MESSAGE_DEFAULT,
    allowed_mentions_problems,
    notified_user_ids,
)
from tests.harness.models import Clock, FakeMessage
from tests.harness.null_bot import PNG

NULL_BOT = "tests.harness.null_bot"
Json = dict[str, Any]


class RawGateway:
    """A bare-bones gateway client that inflates zlib-stream frames the way discord.py does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj()

    async def receive(self) -> Json:
        frame = await self.ws.receive(timeout=5)
        assert frame.type is aiohttp.WSMsgType.BINARY, frame
        assert frame.data.endswith(b"\x00\x00\xff\xff"), "each message must end in Z_SYNC_FLUSH"
        message: Json = json.loads(self.inflate.decompress(frame.data))
        return message

    async def receive_dispatch(self, event: str) -> Json:
        while (message := await self.receive())["t"] != event:
            pass
        return message

    async def send(self, op: int, data: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": data}))


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def connect(http: aiohttp.ClientSession, fake: FakeDiscord) -> RawGateway:
    ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream")
    return RawGateway(ws)


async def identify(gateway: RawGateway, fake: FakeDiscord) -> Json:
    await gateway.send(2, {"token": fake.token, "intents": 1 << 9, "properties": {}})
    return await gateway.receive_dispatch("READY")


# ---------------------------------------------------------------- with the null bot


async def test_bot_connects_identifies_and_syncs(
    fake_discord: FakeDiscord, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    assert fake_discord.identify_count == 1
    assert fake_discord.identifies[0]["shard"] == [0, 1]
    assert fake_discord.connections[0].compression == "zlib-stream"
    command = fake_discord.find_command("null")
    assert command["guild_id"] == str(fake_discord.guild_id)
    assert [o["name"] for o in command["options"]] == ["post", "ping"]
    assert "GET /api/v10/gateway/bot" in fake_discord.request_log


async def test_slash_command_posts_public_message(driver: Driver, bot_process: BotFactory) -> None:
    await bot_process(NULL_BOT)
    alice = driver.user("alice")
    response = await driver.slash(alice, "null post", text="Hallo")
    table = response.message
    assert table.content == "Hallo"
    assert not table.ephemeral
    assert table.labels == ["Take", "Edit", "Again", "Nope"]
    assert table.message_type == 20
    assert driver.table() is table
    assert response.interaction.callback_type == 4


async def test_deferred_slash_command_edits_original(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    response = await driver.slash(driver.user("bernd"), "null post", text="Tisch", defer=True)
    assert response.interaction.callback_type == 5
    assert response.message.content == "Tisch"
    assert not response.message.loading
    assert response.message.history[0].content == ""  # the "thinking" placeholder


async def test_click_by_label_gives_ephemeral_reply_only_to_clicker(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table = (await driver.slash(alice, "null post")).message
    reply = (await driver.click(bernd, table, "Take")).message
    assert reply.content == "Got it!"
    assert reply.ephemeral_to == bernd.id
    assert driver.ephemerals(bernd) == [reply]
    assert driver.ephemerals(alice) == []
    assert reply not in driver.messages(visible_to=alice)
    assert driver.table() is table  # ephemeral replies never count as the table
    with pytest.raises(AssertionError, match="alice cannot see message"):
        await driver.click(alice, reply, "Take")


async def test_click_edits_message_with_attachment_and_follows_up(
    driver: Driver, bot_process: BotFactory, http: aiohttp.ClientSession
) -> None:
    await bot_process(NULL_BOT)
    chloe = driver.user("chloe")
    table = (await driver.slash(driver.user("alice"), "null post", text="Vorher")).message
    response = await driver.click(chloe, table, "Edit")
    assert response.interaction.callback_type == 7
    assert response.message is table
    assert table.content == "Edited by Chloe"
    assert table.filenames == ["table.png"]
    assert table.attachments[0].data == PNG
    assert [version.content for version in table.history] == ["Vorher"]
    # The follow-up comes after the callback, maybe after the driver's settle time.
    (follow_up,) = await driver.wait_for(
        lambda: [m for m in driver.fake.messages.values() if m.content == "Edited!"],
        what="the ephemeral follow-up",
    )
    assert follow_up.ephemeral_to == chloe.id
    url = driver.fake.message_payload(table)["attachments"][0]["url"]
    async with http.get(url) as download:
        assert await download.read() == PNG


async def test_disabled_or_missing_buttons_cannot_be_clicked(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice = driver.user("alice")
    table = (await driver.slash(alice, "null post")).message
    with pytest.raises(AssertionError, match=r"'Nope' .* is disabled"):
        await driver.click(alice, table, "Nope")
    labels = r"\['Take', 'Edit', 'Again', 'Nope'\]"
    with pytest.raises(AssertionError, match=r"no button 'Nimm' .*" + labels):
        await driver.click(alice, table, "Nimm")
    with pytest.raises(AssertionError, match="no option"):
        await driver.slash(alice, "null post", colour="red")
    with pytest.raises(AssertionError, match="needs a subcommand"):
        await driver.slash(alice, "null")


async def test_twenty_simultaneous_clicks_are_all_answered(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    table = (await driver.slash(driver.user("alice"), "null post")).message
    clickers = [driver.users[i % len(driver.users)] for i in range(20)]
    responses = await asyncio.gather(*(driver.click(u, table, "Take") for u in clickers))
    for clicker, response in zip(clickers, responses, strict=True):
        assert response.message.content == "Got it!"
        assert response.message.ephemeral_to == clicker.id
        answered_at = response.interaction.answered_at
        assert answered_at is not None
        assert answered_at - response.interaction.created_at < 3
    assert len(driver.ephemerals(clickers[0])) == 3  # 20 clicks over 7 users


async def test_sigkill_and_restart_identifies_again(
    fake_discord: FakeDiscord, driver: Driver, bot_process: BotFactory
) -> None:
    bot = await bot_process(NULL_BOT)
    alice = driver.user("alice")
    table = (await driver.slash(alice, "null post")).message
    bot.kill(signal.SIGKILL)
    assert await bot.wait_exit() == -signal.SIGKILL
    await driver.wait_for(lambda: not fake_discord.connected, what="the socket to drop")
    await bot.restart()
    assert fake_discord.connected
    assert fake_discord.identify_count == 2
    # The buttons are DynamicItems, so the new process handles the old message's buttons.
    assert (await driver.click(alice, table, "Take")).message.content == "Got it!"


async def test_dropped_gateway_resumes_and_replays_missed_events(
    fake_discord: FakeDiscord, driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice = driver.user("alice")
    await fake_discord.drop_gateway()
    # Dispatched while the socket is down: must be replayed after the RESUME.
    response = await driver.slash(alice, "null post", text="Nach dem Resume")
    assert response.message.content == "Nach dem Resume"
    await driver.wait_for(lambda: fake_discord.resume_count == 1, what="a RESUME")
    assert fake_discord.identify_count == 1
    await fake_discord.send_reconnect()
    await driver.wait_for(lambda: fake_discord.resume_count == 2, what="a second RESUME")
    assert (await driver.click(alice, response.message, "Take")).message.content == "Got it!"


async def test_mentions_notify_only_when_a_message_is_created(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice, bernd = driver.user("alice"), driver.user("bernd")
    reply = (await driver.slash(alice, "null post", text=f"{bernd.mention} starts")).message
    assert driver.notified(bernd) == [reply]
    # discord.py merges the client's AllowedMentions(users=True, ...) into every payload.
    assert reply.allowed_mentions is not None
    assert reply.allowed_mentions["parse"] == ["users"]

    followup = (await driver.slash(alice, "null ping", who=bernd, how="followup")).messages
    assert [m.content for m in followup] == ["Table", f"{bernd.mention}, your turn"]
    assert driver.notified(bernd) == [reply, followup[1]]

    hidden = (await driver.slash(alice, "null ping", who=bernd, how="ephemeral")).message
    assert hidden.ephemeral_to == alice.id
    edited = (await driver.slash(alice, "null ping", who=bernd, how="edit")).message
    assert edited.content == f"{bernd.mention}, your turn"
    assert [v.content for v in edited.history] == ["Soon your turn"]
    muted = (await driver.slash(alice, "null ping", who=bernd, how="muted")).message
    assert muted.allowed_mentions == {"parse": []}
    assert driver.notified(bernd) == [reply, followup[1]]  # none of the last three notified
    assert driver.notified(alice) == []


async def test_deleting_keeps_one_live_ping_per_channel(
    fake_discord: FakeDiscord, driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice, bernd, chloe = driver.users[:3]
    await driver.slash(alice, "null ping", who=bernd, how="channel")
    first = await driver.wait_for(lambda: driver.notified(bernd), what="the first ping")
    await driver.slash(alice, "null ping", who=chloe, how="channel")
    await driver.wait_for(lambda: driver.notified(chloe), what="the second ping")
    second = driver.notified(chloe)[0]
    assert first[0].deleted and first[0].deleted_at is not None
    assert driver.deleted() == [first[0]]
    assert driver.notified(bernd) == first  # the notification happened all the same
    assert driver.notified(bernd, live_only=True) == []
    assert driver.alive() == [second]
    assert f"DELETE /api/v10/channels/{driver.channel}/messages/{first[0].id}" in (
        fake_discord.request_log
    )


async def test_followup_through_a_token_older_than_15_minutes_is_refused(
    fake_discord: FakeDiscord, driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice = driver.user("alice")
    table = (await driver.slash(alice, "null post")).message
    assert (await driver.click(alice, table, "Again")).message.content == "sent"
    assert driver.alive()[-1].content == "Again!"

    fake_discord.clock.advance(15 * 60 + 1)
    refused = await driver.click(alice, table, "Again")  # a fresh token for the click itself
    assert refused.message.content == "refused: 401 50027"
    assert [v.kind for v in fake_discord.pop_violations()] == ["token_expired"]


# ---------------------------------------------------------------- protocol, without a bot


@pytest.mark.guild_locale("de")
async def test_zlib_stream_gateway_identify_heartbeat_and_resume(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway = await connect(http, fake_discord)
    hello = await gateway.receive()
    assert hello["op"] == 10
    assert hello["d"]["heartbeat_interval"] > 0
    ready = await identify(gateway, fake_discord)
    assert ready["s"] == 1
    assert ready["d"]["shard"] == [0, 1]
    guild = await gateway.receive()
    assert (guild["t"], guild["s"]) == ("GUILD_CREATE", 2)
    assert guild["d"]["preferred_locale"] == "de"
    assert [m["user"]["username"] for m in guild["d"]["members"]] == ["tablebot"]  # no intent
    await gateway.send(1, 2)
    assert (await gateway.receive())["op"] == 11
    await gateway.ws.close()

    resumed = await connect(http, fake_discord)
    await resumed.receive()
    session = {"token": fake_discord.token, "session_id": ready["d"]["session_id"], "seq": 1}
    await resumed.send(6, session)
    replayed = await resumed.receive()
    assert (replayed["t"], replayed["s"]) == ("GUILD_CREATE", 2)
    assert (await resumed.receive())["t"] == "RESUMED"
    assert fake_discord.resume_count == 1
    await resumed.send(6, {**session, "session_id": "nope"})
    assert (await resumed.receive()) == {"op": 9, "d": False, "s": None, "t": None}


async def test_interaction_payload_shapes_and_choose(
    fake_discord: FakeDiscord, driver: Driver, http: aiohttp.ClientSession
) -> None:
    """Nested group/subcommand options, resolved users, and a select round trip."""
    command = {
        "name": "geschenkt",
        "description": "Play",
        "options": [
            {
                "type": 1,
                "name": "start",
                "description": "Start a game",
                "options": [
                    {"type": 6, "name": "gegner", "description": "Opponent", "required": True},
                    {"type": 5, "name": "tactical", "description": "Tactical mode"},
                ],
            }
        ],
    }
    app, guild = fake_discord.app_id, fake_discord.guild_id
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    url = f"{fake_discord.api_base}/applications/{app}/guilds/{guild}/commands"
    async with http.put(url, json=[command], headers=headers) as put:
        assert put.status == 200
        assert put.headers["Content-Type"] == "application/json"
        synced = await put.json()
    gateway = await connect(http, fake_discord)
    await gateway.receive()
    await identify(gateway, fake_discord)
    alice, bernd = driver.user("alice"), driver.user("bernd")

    slash = asyncio.ensure_future(
        driver.slash(alice, "geschenkt start", gegner=bernd, tactical=True)
    )
    event = (await gateway.receive_dispatch("INTERACTION_CREATE"))["d"]
    assert event["type"] == 2
    assert event["locale"] == "en-US"
    assert event["member"]["user"]["id"] == str(alice.id)
    assert event["data"]["id"] == synced[0]["id"]
    assert event["data"]["options"] == [
        {
            "type": 1,
            "name": "start",
            "options": [
                {"type": 6, "name": "gegner", "value": str(bernd.id)},
                {"type": 5, "name": "tactical", "value": True},
            ],
        }
    ]
    assert event["data"]["resolved"]["users"][str(bernd.id)]["username"] == "bernd"
    select = {
        "type": 3,
        "custom_id": "g:geschenkt:1:0:pick",
        "placeholder": "Karte wählen",
        "options": [{"label": str(n), "value": str(n)} for n in (3, 4, 5)],
    }
    reply = {"content": "Wähle", "components": [{"type": 1, "components": [select]}]}
    callback = f"{fake_discord.api_base}/interactions/{event['id']}/{event['token']}/callback"
    async with http.post(callback, json={"type": 4, "data": reply}) as answer:
        assert answer.status == 204  # no ?with_response
    menu = (await slash).message

    with pytest.raises(AssertionError, match="not an option of the select"):
        await driver.choose(bernd, menu, "Karte wählen", ["7"])
    with pytest.raises(AssertionError, match="picked twice"):  # a person can't, in Discord
        await driver.choose(bernd, menu, "Karte wählen", ["4", "4"])
    chosen = asyncio.ensure_future(driver.choose(bernd, menu, "Karte wählen", ["4"]))
    event = (await gateway.receive_dispatch("INTERACTION_CREATE"))["d"]
    assert event["data"] == {"custom_id": select["custom_id"], "component_type": 3, "values": ["4"]}
    assert event["message"]["id"] == str(menu.id)
    assert event["locale"] == "de"
    callback = f"{fake_discord.api_base}/interactions/{event['id']}/{event['token']}/callback"
    go_on = {"type": 2, "style": 1, "label": "Weiter", "custom_id": "g:geschenkt:1:1:next"}
    update = {"content": "Bernd nimmt 4", "components": [{"type": 1, "components": [go_on]}]}
    async with http.post(f"{callback}?with_response=1", json={"type": 7, "data": update}) as answer:
        body = await answer.json()
    assert body["interaction"]["response_message_id"] == str(menu.id)
    assert body["resource"]["message"]["content"] == "Bernd nimmt 4"
    assert (await chosen).message.content == "Bernd nimmt 4"

    # A deferred update (type 6) followed by a plain channel edit is what the clicker sees.
    clicked = asyncio.ensure_future(driver.click(bernd, menu, "Weiter"))
    event = (await gateway.receive_dispatch("INTERACTION_CREATE"))["d"]
    callback = f"{fake_discord.api_base}/interactions/{event['id']}/{event['token']}/callback"
    async with http.post(callback, json={"type": 6}) as answer:
        assert answer.status == 204
    edit = f"{fake_discord.api_base}/channels/{menu.channel_id}/messages/{menu.id}"
    async with http.patch(edit, json={"content": "Weiter geht's"}, headers=headers) as patched:
        assert patched.status == 200
    assert (await clicked).message.content == "Weiter geht's"
    assert menu.labels == ["Weiter"]  # a PATCH without components keeps them


# ---------------------------------------------------------------- fixtures and rules


def test_redis_server_fixture_is_a_real_empty_redis(redis_server: str) -> None:
    client = redis.Redis.from_url(redis_server)
    try:
        assert client.ping()
        assert client.dbsize() == 0
    finally:
        client.close()


async def test_bot_output_with_tracebacks_is_flagged(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    log.write_text("INFO fine\nTraceback (most recent call last):\nERROR Ignoring exception in x\n")
    bot = BotProcess("bot", fake_discord, {}, log, expect_commands=True, ready_timeout=1)
    assert bot.problems() == ["Traceback (most recent call last):", "ERROR Ignoring exception in x"]


def test_limit_checks_on_crafted_payloads() -> None:
    def button(n: int, **extra: Any) -> Json:
        return {"type": 2, "style": 1, "label": f"B{n}", "custom_id": f"b{n}", **extra}

    def row(*items: Json) -> Json:
        return {"type": 1, "components": list(items)}

    assert message_problems({"content": "x" * 2000, "components": [row(button(1))]}) == []
    assert message_problems({"content": "x" * 2001})
    assert message_problems({})  # empty message
    assert message_problems({"embeds": [{"title": "t" * 257}]})
    assert message_problems({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    assert message_problems({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert message_problems({"embeds": [{"footer": {"text": "f" * 2049}}]})
    assert message_problems({"embeds": [{"title": "t"}] * 11})
    assert component_problems([row(button(i)) for i in range(6)])
    assert component_problems([row(*(button(i) for i in range(6)))])
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    assert component_problems([row(select)]) == []
    assert component_problems([row(select, button(1))])
    assert component_problems([row(button(1, custom_id="c" * 101))])
    assert component_problems([row(button(1, label="l" * 81))])
    assert component_problems([row(button(1), button(1))])  # duplicate custom_id
    assert command_problems([{"name": "Geschenkt", "description": "x"}])
    assert command_problems([{"name": "geschenkt", "description": "x"}]) == []


async def test_rule_breaking_requests_are_rejected_and_recorded(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    channel = f"{fake_discord.api_base}/channels/{fake_discord.channel_ids[0]}/messages"
    async with http.post(channel, json={"content": "x" * 2001}, headers=headers) as too_long:
        assert too_long.status == 400
        assert (await too_long.json())["code"] == 50035
    async with http.get(f"{fake_discord.api_base}/voice/regions", headers=headers) as unknown:
        assert unknown.status == 404
    async with http.post(channel, json={"content": "hi"}) as anonymous:
        assert anonymous.status == 401
    kinds = [v.kind for v in fake_discord.pop_violations()]
    assert kinds == ["limits", "unknown_route", "auth"]


async def test_interaction_deadlines_follow_the_injectable_clock(
    http: aiohttp.ClientSession,
) -> None:
    clock = Clock()
    async with FakeDiscord(clock=clock) as fake:
        alice = fake.users[0]
        api = fake.api_base

        def new_interaction(message: FakeMessage | None = None) -> tuple[str, str]:
            interaction = fake.create_interaction(
                type=2 if message is None else 3,
                user=alice,
                channel_id=fake.channel_ids[0],
                data={"name": "x"} if message is None else {"custom_id": "c", "component_type": 2},
                message_id=None if message is None else message.id,
            )
            callback = f"{api}/interactions/{interaction.id}/{interaction.token}/callback"
            return callback, f"{api}/webhooks/{fake.app_id}/{interaction.token}"

        late, _ = new_interaction()
        clock.advance(3.5)
        async with http.post(late, json={"type": 5}) as answer:
            assert answer.status == 404

        callback, webhook = new_interaction()
        async with http.post(webhook, json={"content": "too early"}) as early:
            assert early.status == 404
        secret = {"type": 4, "data": {"content": "psst", "flags": 64}}
        async with http.post(callback, json=secret) as answer:
            assert answer.status == 204
        async with http.post(callback, json=secret) as again:
            assert again.status == 400
        ephemeral = next(m for m in fake.messages.values() if m.content == "psst")
        assert ephemeral.ephemeral_to == alice.id

        clock.advance(15 * 60 + 1)
        for method, url in (
            ("PATCH", f"{webhook}/messages/@original"),
            ("DELETE", f"{webhook}/messages/@original"),
            ("POST", webhook),
            ("PATCH", f"{webhook}/messages/{ephemeral.id}"),
            ("DELETE", f"{webhook}/messages/{ephemeral.id}"),
        ):
            async with http.request(method, url, json={"content": "x"}) as expired:
                assert expired.status == 401
                assert (await expired.json())["code"] == 50027
        # A click on the old ephemeral message brings a fresh token that reaches it.
        fresh, fresh_webhook = new_interaction(ephemeral)
        async with http.post(fresh, json={"type": 7, "data": {"content": "updated"}}) as update:
            assert update.status == 204
        async with http.patch(f"{fresh_webhook}/messages/@original", json={"content": "y"}) as ok:
            assert ok.status == 200
        assert ephemeral.content == "y"
        # Another interaction's token does not reach it.
        other, other_webhook = new_interaction()
        async with http.post(other, json={"type": 4, "data": {"content": "hi"}}) as answer:
            assert answer.status == 204
        foreign = f"{other_webhook}/messages/{ephemeral.id}"
        async with http.patch(foreign, json={"content": "z"}) as refused:
            assert refused.status == 404
        # Nor does it reach a public message another interaction created; a click on that
        # message, answered with a deferred update, reaches it by its id (its original).
        (public,) = [m for m in fake.messages.values() if m.content == "hi"]
        third, third_webhook = new_interaction()
        async with http.post(third, json={"type": 4, "data": {"content": "me too"}}) as answer:
            assert answer.status == 204
        click, click_webhook = new_interaction(public)
        async with http.post(click, json={"type": 6}) as answer:
            assert answer.status == 204
        for webhook_url, status in ((third_webhook, 404), (click_webhook, 200)):
            url = f"{webhook_url}/messages/{public.id}"
            async with http.patch(url, json={"content": "edited"}) as edit:
                assert edit.status == status
        assert public.content == "edited"

        thinking, followup = new_interaction()
        async with http.post(thinking, json={"type": 5}) as answer:
            assert answer.status == 204
        async with http.post(followup, json={"content": "hidden?", "flags": 64}) as first:
            assert first.status == 200
            assert (await first.json())["flags"] & 64 == 0  # Discord keeps the defer's visibility

        kinds = [v.kind for v in fake.pop_violations()]
        assert kinds == [
            "late_callback",
            "webhook_before_callback",
            "double_callback",
            *["token_expired"] * 5,
            *["foreign_token"] * 2,
            "followup_visibility",
        ]
        assert await fake.verify() == []


async def test_mentions_edits_and_deletes_over_the_wire(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice, bernd, chloe = fake.users[:3]
    headers = {"Authorization": f"Bot {fake.token}"}
    channel = f"{fake.api_base}/channels/{fake.channel_ids[0]}/messages"

    async def post(payload: Json) -> FakeMessage:
        async with http.post(channel, json=payload, headers=headers) as created:
            assert created.status == 200, await created.text()
            return fake.messages[int((await created.json())["id"])]

    plain = await post({"content": f"{alice.mention} <@!{bernd.id}> <@{fake.bot_user.id}>"})
    listed = await post(
        {"content": f"{alice.mention} {bernd.mention}", "allowed_mentions": {"users": [bernd.id]}}
    )
    silent = await post({"content": chloe.mention, "flags": 4096})
    in_embed = await post({"content": "see", "embeds": [{"description": chloe.mention}]})
    edited = await post({"content": "soon"})
    async with http.patch(
        f"{channel}/{edited.id}", json={"content": chloe.mention}, headers=headers
    ) as edit:
        assert edit.status == 200
    notified = [(n.user_id, n.message_id, n.silent) for n in fake.notifications]
    assert notified == [
        (alice.id, plain.id, False),
        (bernd.id, plain.id, False),
        (bernd.id, listed.id, False),
        (chloe.id, silent.id, True),
    ]
    assert in_embed.id not in [n.message_id for n in fake.notifications]

    both = {"parse": ["users"], "users": [str(alice.id)]}
    async with http.post(
        channel, json={"content": "x", "allowed_mentions": both}, headers=headers
    ) as invalid:
        assert invalid.status == 400
        assert (await invalid.json())["code"] == 50035

    async with http.delete(f"{channel}/{plain.id}", headers=headers) as deleted:
        assert deleted.status == 204
    assert plain.deleted and plain.deleted_at is not None
    async with http.delete(f"{channel}/{plain.id}", headers=headers) as again:
        assert again.status == 404
        assert (await again.json())["code"] == 10008
    kinds = [v.kind for v in fake.pop_violations()]
    assert kinds == ["limits", "unknown_message"]


async def test_completing_a_defer_with_a_mention_notifies_nobody(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """Discord treats the answer to "thinking" as an edit: no ping (discord-api-docs#5497)."""
    fake = fake_discord
    alice, bernd = fake.users[:2]
    for completion in ("PATCH", "POST"):
        interaction = fake.create_interaction(
            type=2, user=alice, channel_id=fake.channel_ids[0], data={"name": "x"}
        )
        api = fake.api_base
        callback = f"{api}/interactions/{interaction.id}/{interaction.token}/callback"
        async with http.post(callback, json={"type": 5}) as answer:
            assert answer.status == 204
        webhook = f"{api}/webhooks/{fake.app_id}/{interaction.token}"
        url = f"{webhook}/messages/@original" if completion == "PATCH" else webhook
        async with http.request(completion, url, json={"content": bernd.mention}) as done:
            assert done.status == 200
        assert fake.messages[interaction.original_message_id or 0].content == bernd.mention
    assert fake.notifications == []


def test_allowed_mentions_rules_on_crafted_payloads() -> None:
    text = "<@1> <@!2> <@1> <@&3> @everyone"
    assert notified_user_ids(text, None, MESSAGE_DEFAULT) == [1, 2]
    assert notified_user_ids(text, None, INTERACTION_DEFAULT) == [1, 2]
    assert notified_user_ids(text, None, ("roles",)) == []
    assert notified_user_ids(text, {"parse": []}, MESSAGE_DEFAULT) == []
    assert notified_user_ids(text, {"parse": ["users"]}, MESSAGE_DEFAULT) == [1, 2]
    assert notified_user_ids(text, {"users": ["2", "9"]}, MESSAGE_DEFAULT) == [2]  # no phantom 9
    assert notified_user_ids(text, {"replied_user": True}, MESSAGE_DEFAULT) == []
    assert notified_user_ids(text, {"parse": ["everyone"], "users": [1]}, MESSAGE_DEFAULT) == [1]
    assert allowed_mentions_problems(None) == []
    assert allowed_mentions_problems({"parse": ["users", "roles"], "users": []}) == []
    assert allowed_mentions_problems({"parse": ["users"], "users": ["1"]})
    assert allowed_mentions_problems({"parse": ["roles"], "roles": ["1"]})
    assert allowed_mentions_problems({"parse": ["members"]})
    assert allowed_mentions_problems({"users": [str(n) for n in range(101)]})


# ---------------------------------------------------------------- shards


async def identify_shard(gateway: RawGateway, fake: FakeDiscord, shard: list[int]) -> Json:
    data = {"token": fake.token, "intents": 1 << 9, "properties": {}, "shard": shard}
    await gateway.send(2, data)
    return await gateway.receive_dispatch("READY")


@pytest.mark.shards(2)
async def test_each_shard_gets_only_its_guilds(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    second = fake_discord.add_guild(shard=1)
    first = fake_discord.guild_id
    async with http.get(f"{fake_discord.api_base}/gateway/bot") as answer:
        assert (await answer.json())["shards"] == 2

    shard_of_first = fake_discord.shard_of(first)
    assert fake_discord.shard_of(second) == 1
    readies = {}
    for shard in (0, 1):
        gateway = await connect(http, fake_discord)
        await gateway.receive()  # HELLO
        readies[shard] = await identify_shard(gateway, fake_discord, [shard, 2])

    def guilds(shard: int) -> set[int]:
        return {int(g["id"]) for g in readies[shard]["d"]["guilds"]}

    assert second in guilds(1)
    assert first in guilds(shard_of_first)
    assert first not in guilds(1 - shard_of_first)


@pytest.mark.shards(2)
async def test_an_identify_with_another_shard_count_is_refused(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway = await connect(http, fake_discord)
    await gateway.receive()  # HELLO
    await gateway.send(2, {"token": fake_discord.token, "intents": 0, "shard": [0, 1]})
    closed = await gateway.ws.receive(timeout=5)
    assert closed.type is aiohttp.WSMsgType.CLOSE
    assert closed.data == 4010
    assert [v.kind for v in fake_discord.pop_violations()] == ["gateway"]


@pytest.mark.shards(2)
async def test_a_click_goes_to_the_session_of_its_guilds_shard(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    guilds = {shard: fake_discord.add_guild(shard=shard) for shard in (0, 1)}
    gateways = {}
    for shard in (0, 1):
        gateways[shard] = await connect(http, fake_discord)
        await gateways[shard].receive()  # HELLO
        await identify_shard(gateways[shard], fake_discord, [shard, 2])
    alice = fake_discord.users[0]
    for shard in (1, 0):
        channel = fake_discord.channels_of(guilds[shard])[0]
        interaction = fake_discord.create_interaction(
            type=2, user=alice, channel_id=channel, data={"name": "null", "type": 1}
        )
        await fake_discord.send_interaction(interaction)
        event = (await gateways[shard].receive_dispatch("INTERACTION_CREATE"))["d"]
        assert event["guild_id"] == str(guilds[shard])
        assert event["channel_id"] == str(channel)
        fake_discord.interactions.pop(interaction.id)  # never answered: not a bot's fault


async def test_a_route_answered_slowly_is_late_and_no_other(fake_discord: FakeDiscord) -> None:
    fake_discord.answer_slowly("GET", "/channels/{channel_id}", 1.0)
    channel = fake_discord.channel_ids[0]
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession(headers=headers) as session:
        started = loop.time()
        async with session.get(f"{fake_discord.api_base}/channels/{channel}") as slow:
            assert slow.status == 200
        slow_seconds = loop.time() - started
        started = loop.time()
        async with session.get(f"{fake_discord.api_base}/channels/{channel}/messages") as quick:
            assert quick.status == 200
        quick_seconds = loop.time() - started
    assert slow_seconds >= 1.0 > quick_seconds
