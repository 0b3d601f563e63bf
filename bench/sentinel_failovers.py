"""Does a Sentinel failover settle, by ``down-after-milliseconds``? How often the
sentinels fail over more than once, and how often they name the killed master,
restarted empty, as the master: the game is then gone.

Each trial starts a master, its replica and three sentinels
(`tests.store.clusters.LocalSentinels`, no persistence), kills the master with SIGKILL,
waits until a sentinel names the replica, starts the killed node again at once on its
port (it comes back empty, calling itself master, until the sentinels make it a
replica), and then asks every sentinel for the master for `WATCH_SECONDS`. The
settings take turns trial by trial, so both see the same machine.

Two ways the old node gets named, told apart by the config epoch (one more per
failover): a sentinel that hasn't heard of the failover yet (epoch 0: what
`bot.storage.clients.LatestSentinel` steps around), and a later failover to it (epoch 2
or more: nothing a client can do about).

    python -m bench.sentinel_failovers [--quick] [--trials N] [--down-after MS ...]
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
WATCH_SECONDS = 6.0
"""After the restart: long enough for the sentinels to fail over again if they will."""


@dataclass
class Trial:
    promoted_s: float
    """From the kill to the first sentinel naming the replica."""
    failovers: int
    """The highest config epoch any sentinel named."""
    stale_named_old: bool
    """A sentinel still on epoch 0 named the restarted node, up, as the master."""
    promoted_old: bool
    """A later failover made the restarted, empty node the master."""


def named_masters(sentinels: list[redis.Redis], service: str) -> list[tuple[int, int, bool]]:
    """(port, config epoch, thought down) of the master, as each sentinel names it."""
    named = []
    for sentinel in sentinels:
        state = command(sentinel, "SENTINEL", "MASTER", service)
        down = "s_down" in state["flags"] or "disconnected" in state["flags"]
        named.append((int(state["port"]), int(state["config-epoch"]), down))
    return named


def trial(workdir: Path, down_after_ms: int) -> Trial:
    group = LocalSentinels(workdir, down_after_ms=down_after_ms).start()
    sentinels = [sentinel.client() for sentinel in group.sentinels]
    try:
        old, new = group.master, group.replica
        killed = time.monotonic()
        old.kill()
        wait_for(lambda: group.master_port() == new.port, "the failover")
        promoted_s = time.monotonic() - killed
        old.restart()
        failovers, stale, promoted_old = 0, False, False
        watch_until = time.monotonic() + WATCH_SECONDS
        while time.monotonic() < watch_until:
            for port, epoch, down in named_masters(sentinels, group.service):
                failovers = max(failovers, epoch)
                stale |= port == old.port and epoch == 0 and not down
                promoted_old |= port == old.port and epoch >= 2
            time.sleep(0.02)
        return Trial(round(promoted_s, 2), failovers, stale, promoted_old)
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
    args = parser.parse_args()
    trials = args.trials or (QUICK_TRIALS if args.quick else TRIALS)
    common.print_machine()
    results: dict[int, list[Trial]] = {ms: [] for ms in args.down_after}
    with tempfile.TemporaryDirectory() as workdir:
        for number in range(trials):
            for ms in args.down_after:
                results[ms].append(trial(Path(workdir) / f"{ms}-{number}", ms))
    rows: list[list[common.Cell]] = []
    for ms, done in results.items():
        promoted = [t.promoted_s for t in done]
        rows.append(
            [
                ms,
                len(done),
                common.median(promoted),
                sum(t.failovers > 1 for t in done),
                sum(t.promoted_old for t in done),
                sum(t.stale_named_old for t in done),
            ]
        )
    common.print_table(
        "Sentinel failover of a killed master restarted at once (3 sentinels, quorum 2)",
        [
            "down-after ms",
            "trials",
            "kill to promoted s (median)",
            "failed over again",
            "restarted empty node made master",
            "a stale sentinel named it",
        ],
        rows,
        digits=2,
    )
    payload: dict[str, Any] = {str(ms): [vars(t) for t in done] for ms, done in results.items()}
    common.write_json(args.json, "sentinel_failovers", payload)


if __name__ == "__main__":
    main()
