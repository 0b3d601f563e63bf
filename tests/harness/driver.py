"""Drive the bot like people would: run slash commands, click buttons by label, pick options.

Every action sends a real INTERACTION_CREATE through the fake gateway and waits until the bot
has answered and its follow-up REST traffic has gone quiet; nothing sleeps for a fixed time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tests.harness.fake_discord import MEMBER_PERMISSIONS, FakeDiscord
from tests.harness.models import FakeInteraction, FakeMessage, FakeUser, button_text

Json = dict[str, Any]
T = TypeVar("T")

_SUBCOMMAND, _GROUP = 1, 2
_STRING, _INTEGER, _BOOLEAN, _USER, _CHANNEL, _MENTIONABLE, _NUMBER = 3, 4, 5, 6, 7, 9, 10
_STRING_SELECT, _USER_SELECT, _CHANNEL_SELECT = 3, 5, 8


@dataclass
class Response:
    """What the acting user saw: messages the interaction created or edited, current versions."""

    interaction: FakeInteraction
    messages: list[FakeMessage]

    @property
    def message(self) -> FakeMessage:
        """The first message the user saw (the reply, or the message a button edited)."""
        if not self.messages:
            raise AssertionError(f"{self.interaction.describe()} showed the user no message")
        return self.messages[0]

    @property
    def ephemeral(self) -> FakeMessage:
        """The first message only the acting user can see."""
        for message in self.messages:
            if message.ephemeral:
                return message
        raise AssertionError(f"{self.interaction.describe()} sent no ephemeral message")


class Driver:
    def __init__(self, fake: FakeDiscord, *, timeout: float = 20.0, settle: float = 0.05) -> None:
        """``timeout`` bounds each action: it tells a hung bot from a busy machine (four
        test workers share two cores), never measures speed; ``settle`` is how long bot
        REST traffic must be quiet before an action counts as finished (catches edits
        right after the answer)."""
        self.fake = fake
        self.timeout = timeout
        self.settle_time = settle

    @property
    def users(self) -> list[FakeUser]:
        return self.fake.users

    def user(self, name: str) -> FakeUser:
        return self.fake.user(name)

    @property
    def channel(self) -> int:
        """The default channel: the first text channel of the fake guild."""
        return self.fake.channel_ids[0]

    # ------------------------------------------------------------------ actions

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: int | None = None,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        forged: bool = False,
        **values: Any,
    ) -> Response:
        """Run ``/command`` ("geschenkt start") with option values (``tactical=True``).

        Use ``options={...}`` for option names that clash with this method's parameters.
        ``forged=True`` sends the values as given, of whatever type, outside the choices
        and ranges, as a modified client can (Discord's own client checks them the way
        this driver does otherwise); only the option names must be the command's.
        """
        channel_id = self.channel if channel is None else channel
        self._sees_channel(user, channel_id)
        guild_id = self.fake.guild_of(channel_id)
        given = {**(options or {}), **values}
        data = self._command_data(command.split(), given, guild_id, forged=forged)
        interaction = self.fake.create_interaction(
            type=2, user=user, channel_id=channel_id, data=data
        )
        await self.fake.send_interaction(interaction)
        return await self._outcome(interaction, timeout=timeout, expect_change=True)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        label: str,
        *,
        nth: int | None = None,
        expect_change: bool = True,
        timeout: float | None = None,
        settle: bool = True,
    ) -> Response:
        """Click the button labelled ``label`` (or with that emoji name) on the message's
        current version. ``nth`` picks among equally labelled buttons. With
        ``expect_change=False`` a deferred update (type 6) may leave everything unchanged.
        With ``settle=False`` the click is done once answered, without waiting for the
        bot's other REST traffic to go quiet (a person on a private panel who doesn't
        wait for the table's edits)."""
        current = self._visible(message, user)
        matches = [b for b in current.buttons if button_text(b) == label]
        if not matches:
            raise AssertionError(
                f"no button {label!r} on message {current.id}; buttons: {current.labels}"
            )
        if nth is None and len(matches) > 1:
            raise AssertionError(f"{len(matches)} buttons labelled {label!r}; pass nth=")
        button = matches[nth or 0]
        if button.get("disabled"):
            raise AssertionError(f"button {label!r} on message {current.id} is disabled")
        if "custom_id" not in button:
            raise AssertionError(f"button {label!r} is a link/premium button, not an interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._component(user, current, data, timeout, expect_change, settle)

    async def choose(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        select: str,
        values: Sequence[str | int | FakeUser],
        *,
        expect_change: bool = True,
        timeout: float | None = None,
        settle: bool = True,
    ) -> Response:
        """Pick ``values`` in the select menu whose placeholder or custom_id is ``select``
        (``settle`` as in `click`).

        String selects take option values; user selects take FakeUsers; channel selects ids.
        """
        current = self._visible(message, user)
        matches = [s for s in current.selects if select in (s.get("placeholder"), s["custom_id"])]
        if len(matches) != 1:
            found = [s.get("placeholder") or s["custom_id"] for s in current.selects]
            raise AssertionError(f"{len(matches)} selects match {select!r}; selects: {found}")
        menu = matches[0]
        if menu.get("disabled"):
            raise AssertionError(f"select {select!r} on message {current.id} is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if len(set(map(str, values))) != len(values):
            raise AssertionError(f"select {select!r} can't have an option picked twice: {values}")
        if not low <= len(values) <= high:
            raise AssertionError(f"select {select!r} takes {low}..{high} values, got {values}")
        data: Json = {"custom_id": menu["custom_id"], "component_type": menu["type"]}
        data["values"], resolved = self._select_values(menu, values)
        if resolved:
            data["resolved"] = resolved
        return await self._component(user, current, data, timeout, expect_change, settle)

    # ------------------------------------------------------------------ looking

    def messages(
        self, channel: int | None = None, *, visible_to: FakeUser | None = None
    ) -> list[FakeMessage]:
        """Current messages, oldest first; optionally one channel, optionally as a user sees it."""
        found = [
            m
            for m in self.fake.messages.values()
            if not m.deleted
            and (channel is None or m.channel_id == channel)
            and (visible_to is None or m.visible_to(visible_to.id))
        ]
        return sorted(found, key=lambda m: m.id)

    def table(self, channel: int | None = None) -> FakeMessage:
        """The bot's latest public message in the channel made as an answer to an
        interaction (current version): messages the bot posts on its own, such as turn
        pings and deal summaries, are skipped."""
        channel_id = self.channel if channel is None else channel
        public = [
            m
            for m in self.messages(channel_id)
            if not m.ephemeral
            and m.author.id == self.fake.bot_user.id
            and m.interaction_id is not None
        ]
        if not public:
            raise AssertionError(f"the bot has no public message in channel {channel_id}")
        return public[-1]

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Messages only ``user`` can see, oldest first."""
        return [m for m in self.messages() if m.ephemeral_to == user.id]

    def notified(
        self, user: FakeUser, *, channel: int | None = None, live_only: bool = False
    ) -> list[FakeMessage]:
        """Messages whose creation notified ``user`` (current versions, oldest first).

        Deleted ones are included (check ``.deleted``) unless ``live_only``; edits never notify.
        """
        found = [
            self.fake.messages[n.message_id]
            for n in self.fake.notifications
            if n.user_id == user.id and (channel is None or n.channel_id == channel)
        ]
        return [m for m in found if not (live_only and m.deleted)]

    def alive(self, channel: int | None = None) -> list[FakeMessage]:
        """The bot's public messages in the channel that are not deleted, oldest first."""
        channel_id = self.channel if channel is None else channel
        return [m for m in self.messages(channel_id) if not m.ephemeral]

    def deleted(self, channel: int | None = None) -> list[FakeMessage]:
        """Messages deleted in the channel (any route), in the order they were deleted."""
        channel_id = self.channel if channel is None else channel
        gone = [m for m in self.fake.messages.values() if m.deleted and m.channel_id == channel_id]
        return sorted(gone, key=lambda m: (m.deleted_at or 0.0, m.id))

    async def wait_for(
        self, predicate: Callable[[], T], *, timeout: float | None = None, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every change) and return it."""
        return await self.fake.wait_for(
            predicate, timeout=self.timeout if timeout is None else timeout, what=what
        )

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot's REST traffic has been quiet for the settle time."""
        await self.fake.wait_idle(
            self.settle_time, timeout=self.timeout if timeout is None else timeout
        )

    # ------------------------------------------------------------------ internals

    def _visible(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        message_id = message if isinstance(message, int) else message.id
        current = self.fake.messages.get(message_id)
        if current is None or current.deleted:
            raise AssertionError(f"message {message_id} does not exist (any more)")
        if not current.visible_to(user.id):
            raise AssertionError(
                f"{user.name} cannot see message {message_id} "
                f"(ephemeral to user {current.ephemeral_to})"
            )
        self._sees_channel(user, current.channel_id)
        return current

    def _sees_channel(self, user: FakeUser, channel_id: int) -> None:
        """A person acts only where they can look: a channel they may view, a private
        thread only once they are in it."""
        if not self.fake.can_view(user.id, channel_id):
            private = channel_id in self.fake.threads and self.fake.threads[channel_id].private
            why = " (a private thread they are not in)" if private else ""
            raise AssertionError(f"{user.name} cannot see channel {channel_id}{why}")

    async def _component(
        self,
        user: FakeUser,
        message: FakeMessage,
        data: Json,
        timeout: float | None,
        expect_change: bool,
        settle: bool = True,
    ) -> Response:
        interaction = self.fake.create_interaction(
            type=3, user=user, channel_id=message.channel_id, data=data, message_id=message.id
        )
        await self.fake.send_interaction(interaction)
        return await self._outcome(
            interaction, timeout=timeout, expect_change=expect_change, settle=settle
        )

    async def _outcome(
        self,
        interaction: FakeInteraction,
        *,
        timeout: float | None,
        expect_change: bool,
        settle: bool = True,
    ) -> Response:
        fake = self.fake
        limit = self.timeout if timeout is None else timeout
        what = interaction.describe()
        await fake.wait_for(
            lambda: interaction.answered or interaction.failure,
            timeout=limit,
            what=f"the bot to answer {what} (Discord allows 3 s)",
        )
        if interaction.failure:
            raise AssertionError(f"{what} failed: {interaction.failure}")
        if interaction.callback_type == 5:
            await fake.wait_for(
                lambda: not interaction.loading,
                timeout=limit,
                what=f"the bot to finish 'thinking' about {what}",
            )
        elif interaction.callback_type == 6 and expect_change:
            # The change is the clicked message's (through the token or a channel edit);
            # other writes (a ping, a panel) may come first and must not end the wait.
            await fake.wait_for(
                lambda: self._source_changed(interaction),
                timeout=limit,
                what=f"a visible change after the deferred update for {what}",
            )
        if settle:
            await fake.wait_idle(self.settle_time, timeout=limit)
        seen = [fake.messages[m] for m in interaction.touched]
        if interaction.callback_type == 6 and not interaction.touched:
            # A deferred update the interaction's token wrote nothing after: the change
            # came as a plain channel edit of the table (an interaction that expired).
            seen += sorted(
                (
                    m
                    for m in fake.messages.values()
                    if m.channel_id == interaction.channel_id
                    and m.revision > interaction.writes_at_answer
                    and m.id not in interaction.touched
                ),
                key=lambda m: m.id,
            )
        return Response(interaction, [m for m in seen if m.visible_to(interaction.user.id)])

    def _source_changed(self, interaction: FakeInteraction) -> bool:
        """Whether the message a deferred click came from was written since the answer
        (or another message was, through the interaction's own token)."""
        if interaction.touched:
            return True
        source = self.fake.messages.get(interaction.message_id or 0)
        return source is not None and source.revision > interaction.writes_at_answer

    def _command_data(
        self, path: list[str], values: Mapping[str, Any], guild_id: int, *, forged: bool = False
    ) -> Json:
        command = self.fake.find_command(path[0], guild_id)
        data: Json = {"id": command["id"], "name": command["name"], "type": 1}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        holder, definitions = data, list(command.get("options") or [])
        for name in path[1:]:
            sub = next(
                (
                    o
                    for o in definitions
                    if o["name"] == name and o["type"] in (_SUBCOMMAND, _GROUP)
                ),
                None,
            )
            if sub is None:
                names = [o["name"] for o in definitions if o["type"] in (_SUBCOMMAND, _GROUP)]
                raise AssertionError(f"/{' '.join(path)}: no subcommand {name!r}; has {names}")
            entry: Json = {"type": sub["type"], "name": name, "options": []}
            holder["options"] = [entry]
            holder, definitions = entry, list(sub.get("options") or [])
        subcommands = [o["name"] for o in definitions if o["type"] in (_SUBCOMMAND, _GROUP)]
        if subcommands:
            raise AssertionError(f"/{' '.join(path)} needs a subcommand: {subcommands}")
        given = dict(values)
        resolved: Json = {}
        options: list[Json] = []
        for definition in definitions:
            name = definition["name"]
            if name in given:
                value = given.pop(name)
                if not forged:
                    value = self._option_value(definition, value, resolved)
                options.append({"type": definition["type"], "name": name, "value": value})
            elif definition.get("required"):
                raise AssertionError(f"/{' '.join(path)}: required option {name!r} missing")
        if given:
            known = [d["name"] for d in definitions]
            raise AssertionError(f"/{' '.join(path)} has no option {sorted(given)}; has {known}")
        if options or holder is not data:
            holder["options"] = options
        if resolved:
            data["resolved"] = resolved
        return data

    def _resolve_user(self, user: FakeUser, resolved: Json) -> str:
        member = self.fake.member_payload(user, with_user=False)
        member["permissions"] = str(MEMBER_PERMISSIONS)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)

    def _resolve_channel(self, channel_id: int, resolved: Json) -> str:
        if channel_id not in self.fake.channels and channel_id not in self.fake.threads:
            raise AssertionError(f"no channel or thread {channel_id} in the fake guild")
        channel = self.fake.channel_payload(channel_id)
        channel["permissions"] = str(MEMBER_PERMISSIONS)
        resolved.setdefault("channels", {})[str(channel_id)] = channel
        return str(channel_id)

    def _option_value(self, definition: Json, value: Any, resolved: Json) -> Any:
        """Check a value the way the Discord client's option picker would, and encode it."""
        name, kind = definition["name"], definition["type"]
        choices = definition.get("choices")
        if choices:
            by_name = {c["name"]: c["value"] for c in choices}
            allowed = [c["value"] for c in choices]
            value = by_name.get(value, value) if value not in allowed else value
            if value not in allowed:
                raise AssertionError(f"option {name!r} must be one of {allowed}, got {value!r}")
        if kind == _STRING and isinstance(value, str):
            if (
                not definition.get("min_length", 0)
                <= len(value)
                <= definition.get("max_length", 6000)
            ):
                raise AssertionError(f"option {name!r}: length of {value!r} out of range")
            return value
        if kind == _BOOLEAN and isinstance(value, bool):
            return value
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        if (kind == _INTEGER and isinstance(value, int) and is_number) or (
            kind == _NUMBER and is_number
        ):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise AssertionError(f"option {name!r}: {value} outside {low}..{high}")
            return value
        if kind in (_USER, _MENTIONABLE) and isinstance(value, FakeUser):
            return self._resolve_user(value, resolved)
        if kind == _CHANNEL and isinstance(value, int):
            return self._resolve_channel(value, resolved)
        raise AssertionError(f"option {name!r} (type {kind}) cannot take {value!r}")

    def _select_values(
        self, menu: Json, values: Sequence[str | int | FakeUser]
    ) -> tuple[list[str], Json]:
        """Encode picked values as Discord sends them, plus resolved users/channels."""
        resolved: Json = {}
        kind = menu["type"]
        encoded: list[str] = []
        for value in values:
            if kind == _STRING_SELECT and isinstance(value, str):
                allowed = [o["value"] for o in menu.get("options", [])]
                if value not in allowed:
                    raise AssertionError(f"{value!r} is not an option of the select: {allowed}")
                encoded.append(value)
            elif kind == _USER_SELECT and isinstance(value, FakeUser):
                encoded.append(self._resolve_user(value, resolved))
            elif kind == _CHANNEL_SELECT and isinstance(value, int):
                encoded.append(self._resolve_channel(value, resolved))
            else:
                raise AssertionError(f"a select of type {kind} cannot take {value!r}")
        return encoded, resolved
