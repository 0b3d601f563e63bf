"""Logging for the bot: plain text or one JSON object a line, without third-party noise."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Literal

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


class ShardRetryInOneLine(logging.Filter):
    """discord.py logs a failed gateway connection with a full traceback before it
    retries; an unreachable gateway is expected in operation, so say it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.msg.startswith("Failed to connect for shard_id"):
            error = record.exc_info[1]
            record.msg = f"{record.msg} ({describe_error(error)})"
            record.exc_info = None
            record.exc_text = None
        return True


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
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quieten_third_parties()


def quieten_third_parties() -> None:
    """This bot has no voice: don't warn at every start that voice libraries are missing."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    logging.getLogger("discord.shard").addFilter(ShardRetryInOneLine())
