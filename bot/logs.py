"""Logging for the bot: plain text or one JSON object a line, without third-party noise."""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Literal

import aiohttp
import discord

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class ReconnectsInOneLine(logging.Filter):
    """discord.py logs each failed or lost gateway connection with a full traceback
    before it retries; a network fault is expected in operation, so say it in one line
    (a traceback stays for anything else)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, NETWORK_ERRORS):
            record.msg = f"{record.getMessage()} ({describe_error(error)})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


INTERACTION_TOKEN = re.compile(
    r"(/(?:webhooks|interactions)/\d+/)[^/?\s'\"]+"  # in a request URL
    r"|(['\"]token['\"]:\s*['\"])[^'\"]+"  # in a gateway event's payload
)


def _keep_prefix(match: re.Match[str]) -> str:
    return (match.group(1) or match.group(2)) + "<token>"


class RedactTokens(logging.Filter):
    """discord.py logs request URLs and gateway events at DEBUG, and both hold
    interaction tokens, which let whoever has one write to a player's private panel for
    15 minutes: no token reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        redacted = INTERACTION_TOKEN.sub(_keep_prefix, text)
        if redacted != text:
            record.msg, record.args = redacted, None
        return True


NETWORK_ERRORS = (
    OSError,
    TimeoutError,
    aiohttp.ClientError,
    discord.ConnectionClosed,
    discord.GatewayNotFound,
)


def describe_error(error: BaseException | None) -> str:
    """A one-line account of a network error (a timeout's own text is empty)."""
    if error is None:
        return "unknown error"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    return str(error) or type(error).__name__


def setup_logging(level: str, log_format: Literal["text", "json"]) -> None:
    """Log to stderr at ``level`` (a name from `bot.config.LOG_LEVELS`)."""
    handler = logging.StreamHandler(sys.stderr)
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(formatter)
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quieten_third_parties()


def quieten_third_parties() -> None:
    """This bot has no voice: don't warn at every start that voice libraries are missing."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    for name in ("discord.shard", "discord.client"):
        logging.getLogger(name).addFilter(ReconnectsInOneLine())
