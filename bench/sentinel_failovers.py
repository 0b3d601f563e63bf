"""Does a Sentinel failover settle, by ``down-after-milliseconds``? How often the
sentinels fail over more than once, and how often they name the killed master,
restarted empty, as the master: the game is then gone.

Each trial starts a master, its replica and three sentinels
(`tests.store.clusters.LocalSentinels`, no persistence) and lets them run for
`SETTLE_SECONDS` once the sentinels see the replica and each other. It then kills the
master with SIGKILL, waits until a sentinel names the replica, starts the killed node
again at once on its port (it comes back empty, calling itself master, until the
sentinels make it a replica), and asks every sentinel for the master for
`WATCH_SECONDS`. The settings take turns trial by trial, so both see the same machine.

Two ways the old node gets named, told apart by the config epoch the sentinels agree
on when they fail over (higher for each failover): by a sentinel whose news is older
than the failover (a lower epoch, or the failover's leader before it has finished:
what `bot.storage.clients.LatestSentinel` steps around), and by a later failover (a
higher epoch: nothing a client can do about). With one replica, a later failover can
only promote the old node.

    python -m bench.sentinel_failovers [--quick] [--trials N] [--down-after MS ...]
        [--settle S]
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from bench import common
from tests.store.clusters import LocalSentinels, command, wait_for

TRIALS = 10
QUICK_TRIALS = 2
SETTINGS_MS = (500, 2000)
SETTLE_SECONDS = 5.0
"""From the sentinels seeing the replica and each other to the kill: a deployment that
has been running. With 0, the kill comes as soon as they do."""
WATCH_SECONDS = 6.0
"""After the restart: long enough for the sentinels to fail over again if they will."""


@dataclass
class Trial:
    promoted_s: float
    """From the kill to the first sentinel naming the replica."""
    failover_epoch: int
    """The config epoch under which that sentinel named it."""
    failed_over_again: bool
    """A sentinel named a master under a higher epoch while watched."""
    promoted_old: bool
    """That later failover made the restarted, empty node the master."""
    old_named_out_of_date: bool
    """A sentinel whose news was older than the failover named the restarted node, up."""


@dataclass(frozen=True)
class Named:
    """The master as one sentinel names it."""

    port: int
    epoch: int
    down: bool
    leading_failover: bool


def named_masters(sentinels: list[redis.Redis], service: str) -> list[Named]:
    named = []
    for sentinel in sentinels:
        state = command(sentinel, "SENTINEL", "MASTER", service)
        flags = set(state["flags"].split(","))
        down = bool(flags & {"s_down", "o_down", "disconnected"})
        leading = "failover_in_progress" in flags
        named.append(Named(int(state["port"]), int(state["config-epoch"]), down, leading))
    return named


def trial(workdir: Path, down_after_ms: int, settle_s: float) -> Trial:
    group = LocalSentinels(workdir, down_after_ms=down_after_ms)
    sentinels: list[redis.Redis] = []
    try:
        group.start()
        sentinels = [sentinel.client() for sentinel in group.sentinels]
        old, new = group.master, group.replica
        time.sleep(settle_s)
        killed = time.monotonic()
        old.kill()
        wait_for(lambda: group.master_port() == new.port, "the failover")
        promoted_s = time.monotonic() - killed
        (first,) = named_masters(sentinels[:1], group.service)
        old.restart()
        again, promoted_old, out_of_date = False, False, False
        watch_until = time.monotonic() + WATCH_SECONDS
        while time.monotonic() < watch_until:
            for named in named_masters(sentinels, group.service):
                later = named.epoch > first.epoch
                older = named.epoch < first.epoch or (
                    named.leading_failover and named.epoch == first.epoch
                )
                again |= later
                promoted_old |= later and named.port == old.port
                out_of_date |= older and named.port == old.port and not named.down
            time.sleep(0.02)
        return Trial(round(promoted_s, 2), first.epoch, again, promoted_old, out_of_date)
    finally:
        for client in sentinels:
            client.close()
        group.stop()


def main() -> None:
    parser = common.parser(__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, help=f"trials per setting (default {TRIALS})")
    parser.add_argument(
        "--down-after",
        type=int,
        nargs="+",
        default=list(SETTINGS_MS),
        metavar="MS",
        help="the down-after-milliseconds to compare (default 500 2000)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=SETTLE_SECONDS,
        metavar="S",
        help=f"seconds from the sentinels' start to the kill (default {SETTLE_SECONDS:g})",
    )
    args = parser.parse_args()
    trials = args.trials or (QUICK_TRIALS if args.quick else TRIALS)
    common.print_machine()
    results: dict[int, list[Trial]] = {ms: [] for ms in args.down_after}
    with tempfile.TemporaryDirectory() as workdir:
        for number in range(trials):
            for ms in args.down_after:
                results[ms].append(trial(Path(workdir) / f"{ms}-{number}", ms, args.settle))
    rows: list[list[common.Cell]] = []
    for ms, done in results.items():
        promoted = [t.promoted_s for t in done]
        rows.append(
            [
                ms,
                len(done),
                common.median(promoted),
                sum(t.failed_over_again for t in done),
                sum(t.promoted_old for t in done),
                sum(t.old_named_out_of_date for t in done),
            ]
        )
    common.print_table(
        "Sentinel failover of a killed master restarted at once (3 sentinels, quorum 2), "
        f"{args.settle:g} s after the sentinels started",
        [
            "down-after ms",
            "trials",
            "kill to promoted s (median)",
            "failed over again",
            "restarted empty node made master",
            "named by a sentinel with older news",
        ],
        rows,
        digits=2,
    )
    payload: dict[str, Any] = {str(ms): [vars(t) for t in done] for ms, done in results.items()}
    payload["settle_s"] = args.settle
    common.write_json(args.json, "sentinel_failovers", payload)


if __name__ == "__main__":
    main()
