"""Interaction tokens in the URLs discord.py logs never reach a log line."""

from __future__ import annotations

import logging

from bot.logs import RedactTokens

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ.x-y_z"


def redacted(message: str, *args: object) -> str:
    record = logging.LogRecord("discord.webhook", logging.DEBUG, __file__, 1, message, args, None)
    assert RedactTokens().filter(record)
    return record.getMessage()


def test_a_webhook_url_loses_its_token() -> None:
    url = f"https://discord.com/api/v10/webhooks/1174109840998400000/{TOKEN}/messages/55"
    line = redacted("Webhook ID %s with %s %s has returned status code %s", 1, "PATCH", url, 200)
    assert TOKEN not in line
    assert "/webhooks/1174109840998400000/<token>/messages/55" in line


def test_an_interaction_callback_url_loses_its_token() -> None:
    url = f"https://discord.com/api/v10/interactions/99/{TOKEN}/callback"
    line = redacted("%s %s with %s has returned %s", "POST", url, None, 204)
    assert TOKEN not in line and "/interactions/99/<token>/callback" in line


def test_other_lines_are_left_as_they_are() -> None:
    assert redacted("Synced %d commands to guild %s", 8, 42) == "Synced 8 commands to guild 42"


def test_a_gateway_event_loses_its_token() -> None:
    event = {"type": 3, "token": TOKEN, "id": "5"}
    line = redacted("For Shard ID %s: WebSocket Event: %s", 0, event)
    assert TOKEN not in line and "'token': '<token>'" in line
