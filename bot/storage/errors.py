"""The faults of the bot's Redis storage, and the one guard every Redis call goes through.

A fault of storage is not a player's mistake (those are `GameError`s or `Refusal`s).
It still carries an English template (`N_`) to tell the user, so the answer is in
their language; the interaction handler logs it as a warning, not as a bug."""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable
from typing import TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.i18n import N_
from bot.metrics import REDIS_ERRORS

log = logging.getLogger(__name__)

T = TypeVar("T")


class Refusal(Exception):
    """The bot (not a game's rules) turns a request down: the table is busy
    (`ChannelBusy`), clicks come too fast (`SlowDown`), a setting can't be accepted
    (`SettingRefused`). Like the engines' `GameError` it is an English template and its
    parameters, which the interaction handler (`bot.play.errors.answering_errors`)
    answers the same way: a short private message in the user's language. It is no
    `GameError`, so code that catches a game's refusals doesn't catch these too.
    Write ``SettingRefused("No {thing}.", thing=name)``, never an f-string."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class StoreError(Exception):
    """A fault of the game store, with an English template to tell the user."""

    def __init__(self, template: str) -> None:
        super().__init__(template)
        self.template = template


class StoreUnavailable(StoreError):
    def __init__(self) -> None:
        super().__init__(
            N_("The game store can't be reached right now. Please try again in a moment.")
        )


class NoConnectionFree(StoreUnavailable):
    """Every connection of the client's pool stayed busy for its whole wait: the call
    was never sent, so Redis did nothing (nothing to undo, unlike a call cut short)."""


POOL_EXHAUSTED = "No connection available."
"""redis-py's `BlockingConnectionPool`, when no connection came free in time."""


class TableSetAside(StoreError):
    """The channel's stored table couldn't be read (an old schema after an upgrade, a
    hand-edited key): it was moved aside, and the channel is free again."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "The game stored in this channel couldn't be read after an update, so it "
                "was set aside. Start a new one whenever you like."
            )
        )


class StaleRevision(StoreError):
    """A compare-and-set lost: someone else saved this table first."""

    def __init__(self) -> None:
        super().__init__(N_("Someone acted first; that click was already handled."))


async def guarded(awaitable: Awaitable[T]) -> T:
    """Await a Redis call; any fault of Redis becomes a `StoreUnavailable` (counted in
    the metrics and logged as a warning), so no `RedisError` leaves `bot.storage`: a
    connection fault or time-out, and an error Redis answers (a replica refusing a write
    mid-failover, a cluster still moving its slots)."""
    try:
        return await awaitable
    except (RedisConnectionError, RedisTimeoutError, OSError) as error:
        REDIS_ERRORS.inc()
        log.warning("Redis unavailable: %s", error)
        if isinstance(error, RedisConnectionError) and str(error) == POOL_EXHAUSTED:
            raise NoConnectionFree() from error
        raise StoreUnavailable() from error
    except RedisError as error:
        REDIS_ERRORS.inc()
        log.warning("Redis refused a command: %s: %s", type(error).__name__, error)
        raise StoreUnavailable() from error
    except AttributeError as error:
        if not _inside_redis_client(error):
            raise
        # redis-py's cluster client, mid-failover, can write to a connection another
        # task has just closed ("'NoneType' object has no attribute 'writelines'"):
        # the node is going away, which is what StoreUnavailable says.
        REDIS_ERRORS.inc()
        log.warning("Redis unavailable (a connection closed under the client): %s", error)
        raise StoreUnavailable() from error


def _inside_redis_client(error: BaseException) -> bool:
    """Whether ``error`` was raised in redis-py's own code (its innermost frame)."""
    trace = error.__traceback__
    if trace is None:
        return False
    while trace.tb_next is not None:
        trace = trace.tb_next
    return f"{os.sep}redis{os.sep}" in trace.tb_frame.f_code.co_filename
