"""Self-test of the fake Discord's threads (`tests.harness.fake_discord`, README "Threads").

Most tests run discord.py itself in the test process, connected to the fake's REST and
gateway as a bot is (``Route.BASE``, ``DEFAULT_GATEWAY``), with the ``guilds`` intent of the
real bot: its calls are the library's own (``Message.create_thread``, ``Thread.edit``,
``Thread.add_user`` ...), its refusals ``discord.Forbidden``/``discord.HTTPException`` with
Discord's codes, its cache (``guild.get_thread``) fed by the fake's THREAD_* events. One
test runs the null bot as a process in a thread; the protocol tests talk HTTP or the raw
gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands

from tests.harness.driver import Driver
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotFactory
from tests.harness.limits import AUTO_ARCHIVE_DURATIONS, thread_problems
from tests.harness.models import FakeThread
from tests.harness.permissions import (
    ADMINISTRATOR,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    MEMBER,
    READ_MESSAGE_HISTORY,
    ROLE,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Overwrite,
    channel_permissions,
)
from tests.harness.rate_limits import RateLimits

NULL_BOT = "tests.harness.null_bot"
MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED, THREAD_EXISTS = 50001, 50013, 50083, 160004
INVALID_FORM_BODY = 50035
Json = dict[str, Any]


# ---------------------------------------------------------------- an in-process discord.py bot


class NextButton(discord.ui.View):
    """A persistent "Next" button that answers privately."""

    def __init__(self, bot: ThreadBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Next", custom_id="threads:next")
    async def next(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.bot.seen.append(interaction)
        await interaction.response.send_message("Next!", ephemeral=True)


class ThreadBot(discord.Client):
    """discord.py with the real bot's intents (``guilds`` only) and one command,
    ``/round``, that tells where it was used and offers a "Next" button."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            intents=discord.Intents(guilds=True),
            guild_ready_timeout=0.1,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Interaction] = []

    async def setup_hook(self) -> None:
        self.add_view(NextButton(self))

        @self.tree.command(name="round", description="Where am I?")
        async def round_(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            where = type(interaction.channel).__name__
            await interaction.response.send_message(f"Round in a {where}", view=NextButton(self))

        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    @property
    def guild(self) -> discord.Guild:
        guild = self.get_guild(self.guild_id)
        assert guild is not None
        return guild

    def text_channel(self, channel_id: int) -> discord.TextChannel:
        channel = self.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel), channel
        return channel


@pytest.fixture
async def bot(
    fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ThreadBot]:
    """discord.py connected to the fake as the bot would be, until the test ends."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.api_base)
    gateway = yarl.URL(fake_discord.gateway_url)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    client = ThreadBot(fake_discord.guild_id)
    running = asyncio.ensure_future(client.start(fake_discord.token))
    ready = asyncio.ensure_future(client.wait_until_ready())
    done, _ = await asyncio.wait({running, ready}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        running.cancel()
        raise AssertionError(f"discord.py did not get ready: {running}")
    yield client
    await client.close()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(running, 5)


async def eventually(predicate: Callable[[], object], what: str, timeout: float = 5.0) -> None:
    """Wait until ``predicate()`` is truthy: for discord.py's cache, which the gateway
    events fill a moment after the REST answer."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def cached_thread(bot: ThreadBot, thread_id: int, what: str) -> discord.Thread:
    """The thread in discord.py's cache (``guild.get_thread``), once an event put it there."""
    await eventually(lambda: bot.guild.get_thread(thread_id), what)
    thread = bot.guild.get_thread(thread_id)
    assert thread is not None
    return thread


def kinds(fake: FakeDiscord) -> list[str]:
    return [violation.kind for violation in fake.pop_violations()]


async def refused(
    call: Any, status: int, code: int, error: type[discord.HTTPException] = discord.HTTPException
) -> None:
    with pytest.raises(error) as raised:
        await call
    assert (raised.value.status, raised.value.code) == (status, code), raised.value


async def forbidden(call: Any, code: int) -> None:
    await refused(call, 403, code, discord.Forbidden)


# ---------------------------------------------------------------- starting threads


async def test_a_thread_from_a_message_is_a_channel_the_bot_posts_in(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    channel = bot.text_channel(fake.channel_ids[0])
    message = await channel.send("Round 1: Alice against Bernd")
    thread = await message.create_thread(name="Round 1", auto_archive_duration=60)

    assert thread.id == message.id  # "the same id as the source message"
    assert thread.type is discord.ChannelType.public_thread
    assert (thread.parent_id, thread.owner_id) == (channel.id, fake.bot_user.id)
    assert (thread.auto_archive_duration, thread.archived, thread.locked) == (60, False, False)
    assert (thread.member_count, thread.message_count) == (1, 0)
    kept = fake.threads[thread.id]
    assert (kept.name, set(kept.members)) == ("Round 1", {fake.bot_user.id})
    # THREAD_CREATE filled the cache; THREAD_MEMBERS_UPDATE told discord.py it is a member.
    cached = await cached_thread(bot, thread.id, "THREAD_CREATE")
    await eventually(lambda: cached.me is not None, "the bot's own thread member")

    posted = await thread.send("Alice, your move")
    assert posted.channel.id == thread.id
    assert fake.messages[posted.id].channel_id == thread.id
    assert kept.message_count == kept.total_message_sent == 1
    assert kept.last_message_id == posted.id
    edited = await posted.edit(content="Alice, your move (2 minutes left)")
    assert edited.content.endswith("left)")
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.message_count == 1
    starter = fake.message_payload(fake.messages[message.id])
    assert starter["thread"]["id"] == str(thread.id)

    # One thread per message: Discord's 160004.
    await refused(message.create_thread(name="Again"), 400, THREAD_EXISTS)
    assert kinds(fake) == ["thread_exists"]


async def test_a_thread_without_a_message_is_public_or_private(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    alice, bernd = fake.users[:2]
    channel = bot.text_channel(fake.channel_ids[1])
    public = await channel.create_thread(name="Lobby", type=discord.ChannelType.public_thread)
    private = await channel.create_thread(name="Final", invitable=False)  # the default type

    assert (public.type, private.type) == (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
    )
    assert fake.threads[private.id].private and not fake.threads[private.id].invitable
    assert (public.parent_id, private.parent_id) == (channel.id, channel.id)
    # Everyone who sees the channel sees a public thread; a private one only its members.
    assert fake.can_view(alice.id, public.id)
    assert not fake.can_view(alice.id, private.id)
    # Not invitable: only moderators (MANAGE_THREADS) may add others, not even its creator.
    await forbidden(private.add_user(discord.Object(alice.id)), MISSING_PERMISSIONS)
    assert kinds(fake) == ["permissions"]
    invitable = await channel.create_thread(name="Semi-final")
    await invitable.add_user(discord.Object(alice.id))
    assert fake.can_view(alice.id, invitable.id) and not fake.can_view(bernd.id, invitable.id)
    members = await invitable.fetch_members()
    assert sorted(m.id for m in members) == sorted([fake.bot_user.id, alice.id])


@pytest.mark.parametrize(
    ("name", "duration"),
    [("", 60), ("x" * 101, 60), ("Round", 30)],
    ids=["empty name", "name of 101", "30 minutes"],
)
async def test_names_and_archive_durations_follow_discords_limits(
    fake_discord: FakeDiscord, bot: ThreadBot, name: str, duration: int
) -> None:
    channel = bot.text_channel(fake_discord.channel_ids[0])
    message = await channel.send("Round")
    attempt = message.create_thread(name=name, auto_archive_duration=duration)  # type: ignore[arg-type]
    await refused(attempt, 400, INVALID_FORM_BODY)
    assert kinds(fake_discord) == ["spec"]  # Discord's spec: name 1..100, the four durations
    assert message.id not in fake_discord.threads
    ok = await message.create_thread(name="x" * 100, auto_archive_duration=10080)
    assert ok.auto_archive_duration == 10080


def test_thread_bodies_on_crafted_payloads() -> None:
    assert thread_problems({"name": "Round 1"}, creating=True) == []
    assert thread_problems({}, creating=True)  # a name is required to start one
    assert thread_problems({}, creating=False) == []  # an edit changes what it names
    assert thread_problems({"name": "x" * 101}, creating=False)
    for duration in AUTO_ARCHIVE_DURATIONS:
        assert (
            thread_problems({"name": "r", "auto_archive_duration": duration}, creating=True) == []
        )
    assert thread_problems({"name": "r", "auto_archive_duration": 120}, creating=True)
    assert thread_problems({"name": "r", "type": 0}, creating=True)
    assert thread_problems({"name": "r", "rate_limit_per_user": 21_601}, creating=True)


# ---------------------------------------------------------------- members


async def test_members_are_added_listed_and_removed_as_discord_allows(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    bernd, chloe = fake.users[1:3]
    channel = bot.text_channel(fake.channel_ids[0])
    thread = await (await channel.send("Table 2")).create_thread(name="Table 2")
    await thread.add_user(discord.Object(bernd.id))
    await thread.add_user(discord.Object(bernd.id))  # already in: 204 all the same
    assert set(fake.threads[thread.id].members) == {fake.bot_user.id, bernd.id}
    listed = await thread.fetch_members()
    assert sorted(m.id for m in listed) == sorted([fake.bot_user.id, bernd.id])
    # Without the members intent Discord tells the bot only of its own membership.
    cached = await cached_thread(bot, thread.id, "THREAD_CREATE")
    assert [m.id for m in cached.members] == []

    # Removing someone else needs MANAGE_THREADS (the creator may only in a private thread).
    await forbidden(thread.remove_user(discord.Object(bernd.id)), MISSING_PERMISSIONS)
    assert kinds(fake) == ["permissions"]
    private = await channel.create_thread(name="Side table")
    await private.add_user(discord.Object(chloe.id))
    await private.remove_user(discord.Object(chloe.id))
    assert set(fake.threads[private.id].members) == {fake.bot_user.id}

    await thread.leave()
    assert fake.bot_user.id not in fake.threads[thread.id].members
    await thread.join()
    assert fake.bot_user.id in fake.threads[thread.id].members
    # A member who isn't in the guild: 404 Unknown Member.
    await refused(thread.add_user(discord.Object(12345)), 404, 10007, discord.NotFound)
    assert kinds(fake) == ["unknown_entity"]


# ---------------------------------------------------------------- archiving and locking


async def test_an_archived_thread_refuses_edits_and_a_message_unarchives_it(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    bernd = fake.users[1]
    channel = bot.text_channel(fake.channel_ids[0])
    thread = await (await channel.send("Round 3")).create_thread(name="Round 3")
    posted = await thread.send("Bernd wins")
    await eventually(lambda: bot.guild.get_thread(thread.id), "THREAD_CREATE")

    archived = await thread.edit(archived=True)  # its creator may, without MANAGE_THREADS
    assert archived.archived and fake.threads[thread.id].archived
    # THREAD_UPDATE: discord.py drops archived threads from its cache.
    await eventually(lambda: bot.guild.get_thread(thread.id) is None, "THREAD_UPDATE")

    await refused(posted.edit(content="Bernd wins!"), 400, THREAD_ARCHIVED)
    await refused(thread.add_user(discord.Object(bernd.id)), 400, THREAD_ARCHIVED)
    await refused(thread.edit(name="Round 3 (done)"), 400, THREAD_ARCHIVED)
    assert kinds(fake) == ["thread_archived"] * 3

    again = await thread.send("Rematch!")  # sending unarchives an unlocked thread
    assert fake.messages[again.id].channel_id == thread.id
    assert not fake.threads[thread.id].archived
    back = await cached_thread(bot, thread.id, "THREAD_UPDATE")
    assert not back.archived
    await thread.edit(archived=True)
    unarchived = await thread.edit(archived=False)
    assert not unarchived.archived


async def test_locking_needs_manage_threads_and_a_locked_thread_refuses_the_bot(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    channel = bot.text_channel(fake.channel_ids[0])
    thread = await (await channel.send("Final")).create_thread(name="Final")
    posted = await thread.send("Game over")

    await forbidden(thread.edit(locked=True), MISSING_PERMISSIONS)
    assert kinds(fake) == ["permissions"]
    await fake.set_permissions(channel.id, fake.bot_user.id, allow=MANAGE_THREADS)
    await eventually(lambda: channel.permissions_for(bot.guild.me).manage_threads, "CHANNEL_UPDATE")
    locked = await thread.edit(archived=True, locked=True)
    assert locked.locked and locked.archived
    # A moderator's message still goes through, and unarchives the thread (still locked).
    await thread.send("Closing remarks")
    assert (fake.threads[thread.id].archived, fake.threads[thread.id].locked) == (False, True)

    await fake.set_permissions(channel.id, fake.bot_user.id)  # MANAGE_THREADS gone
    await forbidden(thread.send("One more thing"), THREAD_ARCHIVED)
    await forbidden(posted.edit(content="Game over!"), THREAD_ARCHIVED)
    await forbidden(thread.edit(name="Finale"), MISSING_PERMISSIONS)
    await fake.moderate_thread(thread.id, archived=True)
    await forbidden(thread.send("Hello?"), THREAD_ARCHIVED)  # locked and archived
    await forbidden(thread.edit(archived=False), MISSING_PERMISSIONS)
    await refused(posted.delete(), 400, THREAD_ARCHIVED)  # no deleting once locked
    assert kinds(fake) == [
        "thread_locked",
        "thread_locked",
        "permissions",
        "thread_locked",
        "permissions",
        "thread_archived",
    ]
    assert fake.threads[thread.id].archived


async def test_threads_archive_after_their_inactivity_time(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    channel = bot.text_channel(fake.channel_ids[0])
    hour = await (await channel.send("A")).create_thread(name="A", auto_archive_duration=60)
    day = await (await channel.send("B")).create_thread(name="B", auto_archive_duration=1440)
    fake.clock.advance(50 * 60)
    await hour.send("still here")  # activity: the hour starts again
    fake.clock.advance(30 * 60)
    assert await fake.archive_inactive_threads() == []
    fake.clock.advance(31 * 60)
    assert [t.id for t in await fake.archive_inactive_threads()] == [hour.id]
    await eventually(lambda: bot.guild.get_thread(hour.id) is None, "THREAD_UPDATE")
    assert bot.guild.get_thread(day.id) is not None


# ---------------------------------------------------------------- permissions


@pytest.mark.parametrize(
    ("denied", "action", "code"),
    [
        (CREATE_PUBLIC_THREADS, "from a message", MISSING_PERMISSIONS),
        (CREATE_PUBLIC_THREADS, "public", MISSING_PERMISSIONS),
        (CREATE_PRIVATE_THREADS, "private", MISSING_PERMISSIONS),
        (READ_MESSAGE_HISTORY, "from a message", MISSING_PERMISSIONS),
        (SEND_MESSAGES_IN_THREADS, "send in the thread", MISSING_PERMISSIONS),
        (SEND_MESSAGES_IN_THREADS, "add a member", MISSING_PERMISSIONS),
        (SEND_MESSAGES, "send in the channel", MISSING_PERMISSIONS),
        (VIEW_CHANNEL, "public", MISSING_ACCESS),
        (VIEW_CHANNEL, "send in the thread", MISSING_ACCESS),
    ],
)
async def test_a_permission_taken_away_is_forbidden_with_discords_code(
    fake_discord: FakeDiscord, bot: ThreadBot, denied: int, action: str, code: int
) -> None:
    fake = fake_discord
    bernd = fake.users[1]
    channel = bot.text_channel(fake.channel_ids[0])
    message = await channel.send("Round 4")
    thread = await channel.create_thread(name="Round 4", type=discord.ChannelType.public_thread)
    actions: dict[str, Callable[[], Awaitable[object]]] = {
        "from a message": lambda: message.create_thread(name="Round 4"),
        "public": lambda: channel.create_thread(
            name="Round 5", type=discord.ChannelType.public_thread
        ),
        "private": lambda: channel.create_thread(name="Round 5"),
        "send in the thread": lambda: thread.send("hi"),
        "add a member": lambda: thread.add_user(discord.Object(bernd.id)),
        "send in the channel": lambda: channel.send("hi"),
    }

    await fake.set_permissions(channel.id, fake.bot_user.id, deny=denied)
    await forbidden(actions[action](), code)
    assert kinds(fake) == ["permissions"]
    await fake.set_permissions(channel.id, fake.bot_user.id)  # the overwrite removed
    await actions[action]()
    assert fake.violations == []


async def test_threads_need_their_own_send_permission_not_send_messages(
    fake_discord: FakeDiscord, bot: ThreadBot
) -> None:
    fake = fake_discord
    channel = bot.text_channel(fake.channel_ids[0])
    thread = await channel.create_thread(name="Quiet", type=discord.ChannelType.public_thread)
    # @everyone may not talk in the channel, but may in its threads (Discord's docs).
    await fake.set_permissions(channel.id, fake.guild_id, deny=SEND_MESSAGES)
    await thread.send("still fine in the thread")
    await forbidden(channel.send("not here"), MISSING_PERMISSIONS)
    # A member overwrite comes after the @everyone one: it gives the channel back.
    await fake.set_permissions(channel.id, fake.bot_user.id, allow=SEND_MESSAGES)
    await channel.send("back")
    assert kinds(fake) == ["permissions"]


def test_permissions_are_computed_in_discords_order() -> None:
    guild, user, role = 1, 2, 3
    base = VIEW_CHANNEL | SEND_MESSAGES | CREATE_PUBLIC_THREADS

    def compute(*overwrites: Overwrite, roles: tuple[int, ...] = ()) -> int:
        by_id = {o.id: o for o in overwrites}
        return channel_permissions(
            base, guild_id=guild, user_id=user, role_ids=roles, overwrites=by_id
        )

    assert compute() == base
    assert compute(Overwrite(guild, ROLE, deny=SEND_MESSAGES)) == base & ~SEND_MESSAGES
    # Deny before allow at each level; the member's own overwrite last.
    everyone_denies = Overwrite(guild, ROLE, deny=CREATE_PUBLIC_THREADS)
    member_allows = Overwrite(user, MEMBER, allow=CREATE_PUBLIC_THREADS)
    assert compute(everyone_denies, member_allows) == base
    role_denies = Overwrite(role, ROLE, deny=SEND_MESSAGES, allow=MANAGE_THREADS)
    assert compute(role_denies, roles=(role,)) == (base & ~SEND_MESSAGES) | MANAGE_THREADS
    assert compute(role_denies) == base  # not the member's role
    # No VIEW_CHANNEL, nothing at all; ADMINISTRATOR, everything whatever the overwrites.
    assert compute(Overwrite(user, MEMBER, deny=VIEW_CHANNEL)) == 0
    admin = channel_permissions(
        ADMINISTRATOR,
        guild_id=guild,
        user_id=user,
        overwrites={user: Overwrite(user, MEMBER, deny=VIEW_CHANNEL)},
    )
    assert admin & MANAGE_THREADS and admin & VIEW_CHANNEL


# ---------------------------------------------------------------- interactions from a thread


async def test_a_command_and_a_click_come_from_a_thread(
    fake_discord: FakeDiscord, bot: ThreadBot, driver: Driver
) -> None:
    fake = fake_discord
    alice, bernd, chloe = fake.users[:3]
    parent = fake.channel_ids[0]
    # Alice starts the thread herself; the bot hears of it (THREAD_CREATE).
    thread = await fake.create_thread(parent, "Alice's table", by=alice)
    await eventually(lambda: bot.guild.get_thread(thread.id), "THREAD_CREATE")

    answer = await driver.slash(alice, "round", channel=thread.id)
    assert answer.message.channel_id == thread.id
    assert answer.message.text == "Round in a Thread"
    assert driver.table(thread.id) is answer.message
    command = bot.seen[-1]
    assert command.channel_id == thread.id
    assert isinstance(command.channel, discord.Thread)
    assert command.channel.parent_id == parent
    assert command.app_permissions.send_messages_in_threads
    payload = fake._interaction_payload(answer.interaction)
    assert payload["channel_id"] == str(thread.id)
    assert (payload["channel"]["type"], payload["channel"]["parent_id"]) == (11, str(parent))
    assert payload["channel"]["thread_metadata"]["archived"] is False
    assert fake.threads[thread.id].message_count == 1

    click = await driver.click(bernd, answer.message, "Next")
    assert click.message.ephemeral_to == bernd.id and click.message.channel_id == thread.id
    assert isinstance(bot.seen[-1].channel, discord.Thread)

    # A click in an archived thread: the client unarchives it first, then the bot answers.
    await fake.moderate_thread(thread.id, archived=True)
    again = await driver.click(chloe, answer.message, "Next")
    assert again.message.ephemeral_to == chloe.id
    assert not fake.threads[thread.id].archived

    # Nobody acts in a private thread they are not in.
    private = await fake.create_thread(parent, "Secret", by=alice, private=True)
    with pytest.raises(AssertionError, match=r"chloe cannot see channel \d+ \(a private thread"):
        await driver.slash(chloe, "round", channel=private.id)
    assert private.id not in {t.id for t in bot.guild.threads}  # nor does the bot
    # Once Alice adds the bot and Chloe, the bot hears of it (THREAD_CREATE) and she may.
    await fake.add_to_thread(private.id, fake.bot_user)
    cached = await cached_thread(bot, private.id, "THREAD_CREATE for the added bot")
    assert cached.type is discord.ChannelType.private_thread
    await fake.add_to_thread(private.id, chloe)
    secret = await driver.slash(chloe, "round", channel=private.id)
    assert secret.message.channel_id == private.id


async def test_the_null_bot_answers_a_command_and_a_click_in_a_thread(
    fake_discord: FakeDiscord, driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process(NULL_BOT)
    alice, bernd = driver.user("alice"), driver.user("bernd")
    thread = await fake_discord.create_thread(driver.channel, "Table 1", by=alice)
    table = (
        await driver.slash(alice, "null post", channel=thread.id, text="In the thread")
    ).message
    assert (table.channel_id, table.content) == (thread.id, "In the thread")
    reply = (await driver.click(bernd, table, "Take")).message
    assert (reply.channel_id, reply.ephemeral_to, reply.content) == (thread.id, bernd.id, "Got it!")
    assert driver.alive(thread.id) == [table]
    assert driver.alive() == []  # nothing in the parent channel


# ---------------------------------------------------------------- protocol, without a bot


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def headers(fake: FakeDiscord) -> dict[str, str]:
    return {"Authorization": f"Bot {fake.token}"}


async def test_an_answer_in_a_locked_thread_is_refused(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """discord-api-docs#5517, #6884, #7707: 403 with 50083 "Thread is archived"."""
    fake = fake_discord
    alice = fake.users[0]
    thread = await fake.create_thread(fake.channel_ids[0], "Locked", by=alice)
    await fake.moderate_thread(thread.id, locked=True)
    interaction = fake.create_interaction(
        type=2, user=alice, channel_id=thread.id, data={"name": "x", "type": 1}
    )
    callback = f"{fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
    for kind in (4, 5):
        answer = {"type": kind, "data": {"content": "too late"}} if kind == 4 else {"type": 5}
        async with http.post(callback, json=answer) as sent:
            assert sent.status == 403
            assert await sent.json() == {"message": "Thread is archived", "code": 50083}
    assert not interaction.answered and "50083" in (interaction.failure or "")
    assert kinds(fake) == ["thread_locked", "thread_locked"]
    fake.interactions.pop(interaction.id)  # refused, not unanswered


async def test_the_thread_routes_answer_what_discords_spec_says(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    api = f"{fake.api_base}/channels"
    channel = fake.channel_ids[0]
    async with http.post(
        f"{api}/{channel}/messages", json={"content": "Round"}, headers=headers(fake)
    ) as posted:
        message = await posted.json()
    body = {"name": "Round", "auto_archive_duration": 4320}
    url = f"{api}/{channel}/messages/{message['id']}/threads"
    async with http.post(url, json=body, headers=headers(fake)) as created:
        assert created.status == 201
        thread = await created.json()
    assert thread["member"]["user_id"] == str(fake.bot_user.id)
    assert thread["thread_metadata"]["auto_archive_duration"] == 4320
    calls = [
        ("GET", f"{api}/{thread['id']}", None, 200),
        ("PATCH", f"{api}/{thread['id']}", {"name": "Round 1", "auto_archive_duration": 60}, 200),
        ("PUT", f"{api}/{thread['id']}/thread-members/{fake.users[0].id}", None, 204),
        ("GET", f"{api}/{thread['id']}/thread-members?with_member=true&limit=1", None, 200),
        ("GET", f"{api}/{thread['id']}/thread-members/{fake.users[0].id}", None, 200),
        ("DELETE", f"{api}/{thread['id']}/thread-members/@me", None, 204),
        ("PUT", f"{api}/{thread['id']}/thread-members/@me", None, 204),
        ("POST", f"{api}/{channel}/threads", {"name": "Private"}, 201),
        ("GET", f"{api}/{thread['id']}/messages", None, 200),
    ]
    for method, where, sent, status in calls:
        async with http.request(method, where, json=sent, headers=headers(fake)) as answer:
            assert answer.status == status, (method, where, await answer.text())
    assert fake.threads[int(thread["id"])].name == "Round 1"
    assert fake.violations == []  # every answer matched Discord's spec
    assert fake.spec_counts.responses == 8  # every answer with a JSON body (not the 204s)


def guild_create_threads(frame: Json) -> list[Json]:
    threads: list[Json] = frame["d"]["threads"]
    return threads


async def test_guild_create_lists_the_active_threads_the_bot_can_see(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.users[0]
    parent = fake.channel_ids[0]
    active = await fake.create_thread(parent, "Active", by=alice)
    archived = await fake.create_thread(parent, "Archived", by=alice)
    await fake.moderate_thread(archived.id, archived=True)
    await fake.create_thread(parent, "Private", by=alice, private=True)
    joined: FakeThread = await fake.create_thread(parent, "With the bot", by=alice)
    await fake.add_to_thread(joined.id, fake.bot_user)

    ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream")
    inflate = zlib.decompressobj()

    async def receive() -> Json:
        frame = await ws.receive(timeout=5)
        message: Json = json.loads(inflate.decompress(frame.data))
        return message

    await receive()  # HELLO
    identify = {"token": fake.token, "intents": 1 << 0, "properties": {}}
    await ws.send_str(json.dumps({"op": 2, "d": identify}))
    while (frame := await receive())["t"] != "GUILD_CREATE":
        pass
    listed = {int(t["id"]): t for t in guild_create_threads(frame)}
    assert set(listed) == {active.id, joined.id}
    assert "member" not in listed[active.id]
    # The bot's thread member, without id and user_id inside GUILD_CREATE.
    assert set(listed[joined.id]["member"]) == {"join_timestamp", "flags"}

    # Events go to the bot's session: a moderator locks the thread it is in.
    await fake.moderate_thread(joined.id, locked=True)
    update = await receive()
    assert update["t"] == "THREAD_UPDATE"
    assert update["d"]["thread_metadata"]["locked"] is True
    await ws.close()


# ---------------------------------------------------------------- rate limits


@pytest.mark.rate_limits(RateLimits().with_limit("POST /channels/{channel_id}/threads", 2))
async def test_thread_starts_share_one_bucket_per_channel(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    first, second = fake.channel_ids[:2]

    async def start(channel: int) -> aiohttp.ClientResponse:
        url = f"{fake.api_base}/channels/{channel}/threads"
        async with http.post(url, json={"name": "t", "type": 11}, headers=headers(fake)) as r:
            await r.read()
            return r

    answers = [await start(first) for _ in range(3)]
    assert [a.status for a in answers] == [201, 201, 429]
    assert answers[0].headers["X-RateLimit-Bucket"] == "thread_create"
    assert answers[2].headers["X-RateLimit-Scope"] == "shared"  # discord-api-docs#7816
    assert (await start(second)).status == 201  # another channel, another bucket
    (refusal,) = fake.rate_limited
    assert (refusal.bucket, refusal.scope) == ("thread_create", "shared")
    assert fake.rate_limiter.invalid_requests == 0  # a shared 429 is no invalid request


@pytest.mark.rate_limits(
    RateLimits().with_limit("PUT /channels/{channel_id}/thread-members/{user_id}", 2)
)
async def test_thread_member_routes_count_per_guild(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice, bernd, chloe = fake.users[:3]
    one = await fake.create_thread(fake.channel_ids[0], "One", by=fake.bot_user)
    two = await fake.create_thread(fake.channel_ids[1], "Two", by=fake.bot_user)

    async def add(thread: FakeThread, user_id: int) -> int:
        url = f"{fake.api_base}/channels/{thread.id}/thread-members/{user_id}"
        async with http.put(url, headers=headers(fake)) as answer:
            return answer.status

    # Two threads of two channels, one guild: one window (discord-api-docs#8082).
    assert [await add(one, alice.id), await add(two, bernd.id), await add(one, chloe.id)] == [
        204,
        204,
        429,
    ]
    assert fake.rate_limited[0].bucket == "thread_members"
    remaining = fake.rate_limiter.remaining(
        "PUT /channels/{channel_id}/thread-members/{user_id}", guild_id=fake.guild_id
    )
    assert remaining == 0
