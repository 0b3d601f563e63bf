"""Reading the bot's table messages in end-to-end tests."""

from __future__ import annotations

from tests.harness.models import FakeMessage


def table_rev(message: FakeMessage) -> int:
    """The game revision the message's buttons were drawn for (``g:<game>:<gid>:<rev>:…``);
    -1 when it has none."""
    revs = [
        int(button["custom_id"].split(":")[3])
        for button in message.buttons
        if str(button.get("custom_id", "")).startswith("g:")
    ]
    return max(revs, default=-1)
